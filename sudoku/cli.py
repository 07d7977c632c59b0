"""The ``sudoku`` command: solve or count every puzzle of a file, one output line per input line."""
from __future__ import annotations

import argparse
import functools
import io
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import NoReturn

# A command never multiplies matrices: numpy's BLAS thread pool would only burn CPU at start-up.
# Set before numpy is first imported (the packages load their modules lazily for this).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from tqdm import tqdm

from dlx import __version__
from dlx.cli import exit_now, whole_number

from . import encode, transform
from .grid import Entry, PuzzleError, box_size, parse, pretty, read_lines, to_text
from .explainer import explain
from .generator import generate
from .rating import LEVELS, rate_all
from .solver import INVALID, NO_SOLUTION, SOLVED, map_chunks, solve_chunk

_POSITIVE = whole_number(1)
_NATURAL = whole_number(0)

#: Exit statuses: 1 when some puzzle failed (unreadable, no solution, not unique with --unique);
#: 130 when interrupted (Ctrl-C), as shells report a command ended by SIGINT.
FAILED, USAGE, INTERRUPTED = 1, 2, 130


@dataclass
class Tally:
    puzzles: int = 0
    by_status: Counter = field(default_factory=Counter)
    not_unique: int = 0
    nodes: int = 0


def entry() -> NoReturn:
    """The ``sudoku`` command (and ``python -m sudoku``): :func:`main`, then exit at once."""
    exit_now(main)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    tally = Tally()
    run = {"solve": _run, "count": _run, "shuffle": _shuffle, "rate": _rate, "generate": _generate,
           "explain": _explain}[args.command]
    try:
        return run(args, tally)
    except KeyboardInterrupt:
        sys.stdout.flush()
        if args.command in ("solve", "count"):
            print(f"sudoku: interrupted after {tally.puzzles} puzzles ({tally.by_status[SOLVED]} solved, "
                  f"{tally.by_status[NO_SOLUTION]} no solution, {tally.by_status[INVALID]} invalid; "
                  f"{tally.nodes} nodes)", file=sys.stderr)
        else:
            print(f"sudoku: interrupted after {tally.puzzles} puzzles", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return FAILED


def _run(args, tally: Tally) -> int:
    try:
        source = _open(args.file)
    except OSError as e:
        print(f"sudoku: error: cannot read {args.file}: {e.strerror or e}", file=sys.stderr)
        return FAILED
    if args.unique:
        limit = 2
    elif args.command == "solve":
        limit = 1
    else:
        limit = args.limit or sys.maxsize
    encode.batch(3)     # the 9x9 structure, built once per process: setup, not solving time
    started = time.perf_counter()
    bar = tqdm(unit=" lines", total=_lines_in(args.file), file=sys.stderr, delay=1.0,
               disable=args.quiet or not sys.stderr.isatty())
    try:
        with source, bar:
            for chunk in map_chunks(functools.partial(_solve, limit=limit), read_lines(source),
                                    jobs=args.jobs, client=args.dask):
                sys.stdout.write("".join(_report(args, entry, result, tally) for entry, result in chunk))
                bar.update(sum(entry.text.count("\n") + 1 for entry, _ in chunk))
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away (`sudoku solve big.txt | head`): stop quietly, as other filters do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return FAILED
    if args.stats:
        seconds = time.perf_counter() - started
        n = tally.puzzles
        print(f"{n} puzzles: {tally.by_status[SOLVED]} solved, {tally.by_status[NO_SOLUTION]} no solution, "
              f"{tally.by_status[INVALID]} invalid; {seconds:.3f} s, {n / seconds if seconds else 0:,.0f} "
              f"puzzles/s, {tally.nodes / max(n, 1):.1f} nodes per puzzle", file=sys.stderr)
    failed = tally.by_status[INVALID] + (tally.by_status[NO_SOLUTION] if args.command == "solve" or args.unique else 0)
    return FAILED if failed or tally.not_unique else 0


def _shuffle(args, tally: Tally) -> int:
    """Each puzzle of the input disguised: relabelled, rows and columns permuted (one draw each
    from ``--seed``)."""
    rng = np.random.default_rng(args.seed)
    failed = 0
    with _input(args.file) as source:
        for entry in read_lines(source):
            if entry.puzzle is None:
                failed += entry.error is not None
                out = entry.text + "\n" if entry.error is None else _failed(entry, entry.error.reason)
            else:
                tally.puzzles += 1
                try:
                    values = parse(entry.puzzle)
                except PuzzleError as e:
                    failed += 1
                    out = _failed(entry, e.reason)
                else:
                    out = to_text(transform.draw(box_size(values), rng).apply(values)) + "\n"
            sys.stdout.write(out)
    return FAILED if failed else 0


def _rate(args, tally: Tally) -> int:
    """Each puzzle's rating: its score and level."""
    encode.batch(3)
    started = time.perf_counter()
    scores: list[float] = []
    levels: Counter = Counter()
    failed = 0
    with _input(args.file) as source:
        entries = read_lines(source)
        for chunk in map_chunks(lambda es, stop: _rated(es), entries, jobs=args.jobs):
            lines = []
            for entry, rating in chunk:
                if rating is None:
                    failed += entry.error is not None
                    lines.append(entry.text + "\n" if entry.error is None else _failed(entry, entry.error.reason))
                    continue
                tally.puzzles += 1
                if isinstance(rating, PuzzleError):
                    failed += 1
                    lines.append(_failed(entry, rating.reason))
                else:
                    scores.append(rating.score)
                    levels[rating.level] += 1
                    lines.append(f"{rating.score:.2f} {rating.level}\n")
            sys.stdout.write("".join(lines))
    if args.stats:
        seconds = time.perf_counter() - started
        q1, median, q3 = np.percentile(scores, [25, 50, 75]) if scores else (0, 0, 0)
        print(f"{len(scores)} rated: median {median:.2f} (quartiles {q1:.2f}, {q3:.2f}); "
              + ", ".join(f"{levels[name]} {name}" for name in LEVELS)
              + f"; {seconds:.3f} s, {len(scores) / seconds if seconds else 0:,.0f} puzzles/s", file=sys.stderr)
    return FAILED if failed else 0


def _rated(entries: list[Entry]) -> list:
    ratings = iter(rate_all([e.puzzle for e in entries if e.puzzle is not None], jobs=1))
    return [(e, next(ratings) if e.puzzle is not None else None) for e in entries]


def _generate(args, tally: Tally) -> int:
    """``count`` new puzzles, one per line."""
    rng = np.random.default_rng(args.seed)
    encode.batch(args.size)       # setup, not generating time
    started = time.perf_counter()
    bar = tqdm(total=args.count, unit=" puzzles", file=sys.stderr, delay=1.0,
               disable=args.quiet or not sys.stderr.isatty())
    with bar:
        for _ in range(args.count):
            try:
                puzzle = generate(seed=int(rng.integers(2 ** 63)), symmetric=args.symmetric,
                                  minimal=not args.quick, clues=args.clues, size=args.size,
                                  difficulty=args.difficulty, tries=args.tries)
            except ValueError as e:
                print(f"sudoku: error: {e}", file=sys.stderr)
                return FAILED
            sys.stdout.write(puzzle + "\n")
            tally.puzzles += 1
            bar.update()
    if args.stats:
        seconds = time.perf_counter() - started
        print(f"{tally.puzzles} puzzles in {seconds:.3f} s, {tally.puzzles / seconds if seconds else 0:,.0f} "
              "puzzles/s", file=sys.stderr)
    return 0


def _explain(args, tally: Tally) -> int:
    """The solve of one puzzle, step by step."""
    text = args.puzzle
    if text == "-":
        text = next((e.puzzle for e in read_lines(_open("-")) if e.puzzle is not None), "")
    try:
        print(explain(text, full=args.full, limit=args.steps, more="--full"))
    except PuzzleError as e:
        print(f"sudoku: error: {e}", file=sys.stderr)
        return FAILED
    tally.puzzles += 1
    return 0


def _input(name: str) -> io.TextIOBase:
    try:
        return _open(name)
    except OSError as e:
        raise SystemExit(f"sudoku: error: cannot read {name}: {e.strerror or e}") from None


def _solve(entries: list[Entry], stop=None, *, limit: int) -> list:
    results = iter(solve_chunk([e.puzzle for e in entries if e.puzzle is not None], limit, stop=stop))
    return [(e, next(results) if e.puzzle is not None else None) for e in entries]


def _report(args, entry: Entry, result, tally: Tally) -> str:
    """The output for one entry; problems go to stderr with the line number."""
    if result is None:
        if entry.error is None:
            return entry.text + "\n"           # a blank line, a comment or a header: kept
        tally.puzzles += 1
        tally.by_status[INVALID] += 1
        return _failed(entry, entry.error.reason)
    tally.puzzles += 1
    tally.by_status[result.status] += 1
    tally.nodes += result.nodes
    if result.status == INVALID:
        return _failed(entry, result.error.reason)
    if args.unique and result.count > 1:
        tally.not_unique += 1
        _warn(entry, "not unique (2 solutions or more)")
    if args.command == "count":
        if args.unique and result.count == 0:
            _warn(entry, "no solution")
        return f"{result.count}\n"
    if result.status == NO_SOLUTION:
        return _failed(entry, "no solution")
    if args.pretty:
        return pretty(parse(result.solution)) + "\n\n"
    return result.solution + "\n"


def _failed(entry: Entry, reason: str) -> str:
    """Report on stderr and echo the input, each line marked so it can't pass for an answer."""
    _warn(entry, reason)
    return "".join(f"# {line}\n" for line in entry.text.split("\n"))


def _warn(entry: Entry, reason: str) -> None:
    print(f"sudoku: line {entry.line}: {reason}", file=sys.stderr)


def _lines_in(name: str) -> int | None:
    """The number of lines of a file, for the progress bar's total (a pass over it, about 0.5 s a
    GB); None for standard input or a file of more than ``LINES_COUNTED`` bytes."""
    try:
        if name == "-" or not os.path.isfile(name) or os.path.getsize(name) > LINES_COUNTED:
            return None
        lines = 0
        last = b"\n"
        with open(name, "rb") as f:
            while block := f.read(1 << 20):
                lines += block.count(b"\n")
                last = block[-1:]
        return lines + (last != b"\n")
    except OSError:
        return None


LINES_COUNTED = 1 << 32


def _open(name: str) -> io.TextIOBase:
    # undecodable bytes become U+FFFD, so a bad line is reported as a bad character, not a crash;
    # utf-8-sig drops a byte-order mark at the start; lines end at LF only, as wc -l counts them
    # (a lone CR would otherwise split one input line into two outputs)
    if name == "-":
        return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", errors="replace", newline="\n")
    return open(name, encoding="utf-8-sig", errors="replace", newline="\n")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sudoku",
        description="Solve or count sudoku puzzles (4x4 to 25x25) with Dancing Links. Input: one "
                    "puzzle per line ('.' or '0' for blanks; text after ',' or ':' ignored, so the "
                    "Kaggle CSV works) or grids over several lines. Output: one line per input line.",
        epilog=f"Exit status: 0 when every puzzle went well, {FAILED} when some line failed "
               "(it is echoed with '# ' in front and reported on stderr with its line number), "
               f"{INTERRUPTED} when interrupted (Ctrl-C).")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    solve = commands.add_parser("solve", help="print the solution of each puzzle")
    count = commands.add_parser("count", help="print the number of solutions of each puzzle")
    for sub in (solve, count):
        sub.add_argument("file", nargs="?", default="-", help="puzzle file, or - for standard input (default)")
        sub.add_argument("--unique", action="store_true",
                         help="prove each solution unique (stop at 2); report those that are not")
        sub.add_argument("--jobs", type=_POSITIVE, default=1, metavar="N", help="solve on N threads")
        sub.add_argument("--dask", metavar="WHERE",
                         help="solve on a Dask cluster: 'local' (one process per core) or a scheduler's "
                              "address, tcp://host:8786 (needs the dist extra); answers stay in order")
        sub.add_argument("--stats", action="store_true", help="print counts, time and speed on stderr")
        sub.add_argument("--quiet", action="store_true", help="no progress bar")
    solve.add_argument("--pretty", action="store_true", help="print grids instead of lines")
    count.add_argument("--limit", type=_POSITIVE, metavar="K", help="stop counting at K solutions")

    shuffle = commands.add_parser(
        "shuffle", help="disguise each puzzle: relabel digits, permute rows, columns, bands, stacks",
        description="Print each puzzle transformed so that it keeps its solutions (and its difficulty): "
                    "digits relabelled, rows permuted within bands, bands permuted, columns within "
                    "stacks, stacks, perhaps transposed. Old generators made 'new' puzzles this way.",
        epilog=f"Example: sudoku shuffle puzzles.txt --seed 7. Exit status: 0, or {FAILED} when a line "
               "could not be read.")
    shuffle.add_argument("file", nargs="?", default="-", help="puzzle file, or - for standard input (default)")
    shuffle.add_argument("--seed", type=_NATURAL, metavar="S", help="draw the transformations from S (reproducible)")

    rate = commands.add_parser(
        "rate", help="rate each puzzle: a score and a level from easy to diabolical",
        description="Print each puzzle's difficulty: log2(1 + the search nodes past the forced moves), "
                    "averaged over several orders of the search, and its level ("
                    + ", ".join(f"{name} from {least:g}" if least else f"{name} below {list(LEVELS.values())[1]:g}"
                                for name, least in LEVELS.items())
                    + "). Only a puzzle with one solution has a rating.",
        epilog=f"Example: sudoku rate top1465.txt --stats. Exit status: 0, or {FAILED} when some "
               "puzzle could not be read or has no unique solution.")
    rate.add_argument("file", nargs="?", default="-", help="puzzle file, or - for standard input (default)")
    rate.add_argument("--jobs", type=_POSITIVE, default=1, metavar="N", help="rate on N threads")
    rate.add_argument("--stats", action="store_true", help="print the median, quartiles, levels and speed on stderr")

    generate = commands.add_parser(
        "generate", help="make new puzzles with one solution each",
        description="Print new puzzles, one per line: a random solved grid (a seeded search), then "
                    "givens taken away while the solution stays unique, down to a minimal puzzle.",
        epilog=f"Example: sudoku generate 10 --seed 1 --symmetric. Exit status: 0, or {FAILED} when "
               "the puzzles asked for could not be made within --tries.")
    generate.add_argument("count", type=_POSITIVE, help="how many puzzles")
    generate.add_argument("--seed", type=_NATURAL, metavar="S", help="draw everything from S (reproducible)")
    generate.add_argument("--symmetric", action="store_true", help="givens symmetric under a half turn")
    generate.add_argument("--clues", type=_NATURAL, metavar="K", help="stop at K givens (drawing grids until one gets there)")
    generate.add_argument("--difficulty", choices=list(LEVELS), help="only puzzles rated at this level")
    generate.add_argument("--size", type=_POSITIVE, default=3, metavar="n", help="box size: 2 (4x4) to 4 (16x16); default 3")
    generate.add_argument("--quick", action="store_true", help="stop at the first given that must stay (not minimal)")
    generate.add_argument("--tries", type=_POSITIVE, default=1000, metavar="T",
                          help="grids drawn per puzzle at most, for --clues and --difficulty (default %(default)s)")
    generate.add_argument("--stats", action="store_true", help="print the time and speed on stderr")
    generate.add_argument("--quiet", action="store_true", help="no progress bar")

    explain = commands.add_parser(
        "explain", help="explain the solve of one puzzle step by step",
        description="Print the search for a puzzle's solution in its own words: forced moves (a cell "
                    "with one digit left, a digit with one place left in a row, column or box), "
                    "guesses with their alternatives, dead ends and backtracks, then the grid.",
        epilog="Example: sudoku explain 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4...... "
               f"Exit status: 0, or {FAILED} when the puzzle cannot be read or its givens clash.")
    explain.add_argument("puzzle", help="the puzzle (one line), or - to read it from standard input")
    explain.add_argument("--full", action="store_true", help="every step, however many")
    explain.add_argument("--steps", type=_POSITIVE, default=60, metavar="N",
                         help="steps shown before the rest is summed up (default %(default)s)")
    return parser

