"""The ``sudoku`` command: solve or count every puzzle of a file, one output line per input line."""
from __future__ import annotations

import argparse
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

from tqdm import tqdm

from dlx import __version__
from dlx.cli import exit_now, whole_number

from . import encode
from .grid import Entry, parse, pretty, read_lines
from .solver import INVALID, NO_SOLUTION, SOLVED, map_chunks, solve_chunk

_POSITIVE = whole_number(1)

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
    try:
        return _run(args, tally)
    except KeyboardInterrupt:
        sys.stdout.flush()
        print(f"sudoku: interrupted after {tally.puzzles} puzzles ({tally.by_status[SOLVED]} solved, "
              f"{tally.by_status[NO_SOLUTION]} no solution, {tally.by_status[INVALID]} invalid; "
              f"{tally.nodes} nodes)", file=sys.stderr)
        return INTERRUPTED


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
    bar = tqdm(unit=" puzzles", file=sys.stderr, delay=1.0, disable=args.quiet or not sys.stderr.isatty())
    try:
        with source, bar:
            for chunk in map_chunks(lambda entries, stop: _solve(entries, limit, stop), read_lines(source),
                                    jobs=args.jobs):
                sys.stdout.write("".join(_report(args, entry, result, tally) for entry, result in chunk))
                bar.update(sum(result is not None for _, result in chunk))
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


def _solve(entries: list[Entry], limit: int, stop) -> list:
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
        sub.add_argument("--stats", action="store_true", help="print counts, time and speed on stderr")
        sub.add_argument("--quiet", action="store_true", help="no progress bar")
    solve.add_argument("--pretty", action="store_true", help="print grids instead of lines")
    count.add_argument("--limit", type=_POSITIVE, metavar="K", help="stop counting at K solutions")
    return parser
