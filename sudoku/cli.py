"""The ``sudoku`` command: solve or count every puzzle of a file, one output line per input line."""
from __future__ import annotations

import argparse
import csv
import functools
import io
import json
import os
import sys
import textwrap
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
from dlx.cli import compile_notice, exit_now, whole_number

from . import encode, explainer, files, transform, variants
from .grid import Entry, PuzzleError, box_size, expand_symbols, parse, parse_box, pretty, read_lines, to_text
from .generator import generate
from .rating import LEVELS, rate_all
from .solver import INVALID, MAX_NODES, NO_SOLUTION, SOLVED, map_chunks, solve_chunk

_POSITIVE = whole_number(1)
_NATURAL = whole_number(0)

#: Exit statuses: 1 when some puzzle failed (unreadable, no solution, not unique with --unique);
#: 2 for a usage error; 3 when --max-nodes ran out on some puzzle (and nothing failed); 130 when
#: interrupted (Ctrl-C), as shells report a command ended by SIGINT.
FAILED, USAGE, OUT_OF_NODES, INTERRUPTED = 1, 2, 3, 130
FORMATS = ("line", "pretty", "csv", "jsonl")
_EXAMPLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
_FORMAT_HELP = "line (the default), pretty (grids), csv (a header, then a row each) or jsonl (a JSON object each)"
_INPUT = ("Input: one puzzle per line ('.' or '0' for blanks; text after ',' or ':' ignored), grids "
          "over several lines, or CSV with a header naming the puzzle column.")
_STATUSES = (f"Exit status: 0 when every puzzle went well; {FAILED} when some line failed (echoed with "
             f"'# ' in front, reported on stderr with its line number); {USAGE} for a usage error; "
             f"{OUT_OF_NODES} when --max-nodes ran out on some puzzle; {INTERRUPTED} when interrupted (Ctrl-C).")


@dataclass
class Tally:
    puzzles: int = 0
    by_status: Counter = field(default_factory=Counter)
    not_unique: int = 0
    out_of_nodes: int = 0
    nodes: int = 0


def entry() -> NoReturn:
    """The ``sudoku`` command (and ``python -m sudoku``): :func:`main`, then exit at once."""
    exit_now(main, "sudoku")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    tally = Tally()
    run = {"solve": _run, "count": _run, "shuffle": _shuffle, "rate": _rate, "generate": _generate,
           "explain": _explain}[args.command]
    try:
        with compile_notice("sudoku"):
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


@dataclass
class _Job:
    """What ``solve`` and ``count`` were asked for, checked once."""

    args: argparse.Namespace
    limit: int
    box: tuple[int, int] | None
    variant: variants.Variant | None
    layout: str | None           # "jigsaw" or "killer": each puzzle brings its layout
    format: str | None           # None: csv for CSV input, line otherwise
    several: bool = False        # more than one source: messages name it


def _job(args) -> _Job:
    if args.unique:
        limit = 2
    elif args.command == "solve":
        limit = 1
    else:
        limit = args.limit or sys.maxsize
    box = parse_box(args.box) if args.box else None
    layout = args.variant if args.variant in ("jigsaw", "killer") else None
    variant = None if layout else variants.named(args.variant)
    fmt = "pretty" if getattr(args, "pretty", False) else args.format
    return _Job(args, limit, box, variant, layout, fmt, len(args.inputs) > 1)


def _run(args, tally: Tally) -> int:
    try:
        job = _job(args)
        if args.symbols:
            expand_symbols(args.symbols)
    except (PuzzleError, ValueError) as e:
        print(f"sudoku: error: {getattr(e, 'reason', e)}", file=sys.stderr)
        return USAGE
    _load(job)
    started = time.perf_counter()
    failed = False
    for number, name in enumerate(args.inputs or ["-"], 1):
        failed |= _run_source(job, name, number, tally)
    if args.stats:
        seconds = time.perf_counter() - started
        n = tally.puzzles
        print(f"{n} puzzles: {tally.by_status[SOLVED]} solved, {tally.by_status[NO_SOLUTION]} no solution, "
              f"{tally.by_status[INVALID]} invalid; {seconds:.3f} s, {n / seconds if seconds else 0:,.0f} "
              f"puzzles/s, {tally.nodes / max(n, 1):.1f} nodes per puzzle", file=sys.stderr)
    failed |= bool(tally.by_status[INVALID] or tally.not_unique
                   or (tally.by_status[NO_SOLUTION] and (args.command == "solve" or args.unique)))
    return FAILED if failed else OUT_OF_NODES if tally.out_of_nodes else 0


def _load(job: _Job) -> None:
    """Build the solver and load its kernel before the clock starts."""
    size = job.box[0] * job.box[1] if job.box else 9
    shape = job.box if job.box and job.box[0] != job.box[1] else round(size ** 0.5)
    encode.batch(shape, job.variant).solve(np.zeros((1, size * size), np.uint8), 1)


def _run_source(job: _Job, name: str, number: int, tally: Tally) -> bool:
    """Answer every line of one source (a file, ``-`` or a puzzle given as an argument); True when
    the source could not be read."""
    args = job.args
    if name != "-" and not os.path.exists(name) and files.looks_like_puzzle(name):
        source, label = [name], f"argument {number}"
    else:
        try:
            source = files.open_text(name)
        except OSError as e:
            print(f"sudoku: error: cannot read {name}: {e.strerror or e}", file=sys.stderr)
            return True
        label = name if job.several else None
    stream = source if isinstance(source, files.Stream) else None
    interactive = stream is not None
    bar = tqdm(unit=" lines", total=_lines_in(name), file=sys.stderr, delay=1.0,
               disable=args.quiet or interactive or not sys.stderr.isatty())
    size = job.box[0] * job.box[1] if job.box else None
    report = _Reporter(job, label, tally)
    work = functools.partial(_solve, limit=job.limit, max_nodes=args.max_nodes, box=job.box,
                             symbols=args.symbols, variant=job.variant)
    try:
        entries = files.entries(source, size=size, column=args.column, layout=job.layout)
        with bar:
            for chunk in map_chunks(work, entries, jobs=args.jobs, client=args.dask,
                                    ready=stream.waiting if stream else None):
                sys.stdout.write(report.chunk(chunk))
                if interactive and not stream.waiting():
                    sys.stdout.flush()
                bar.update(sum([entry.text.count("\n") + 1 for entry, _ in chunk]))
        sys.stdout.flush()
    except PuzzleError as e:          # a column asked for that the header lacks
        print(f"sudoku: error: {name}: {e}", file=sys.stderr)
        return True
    except ConnectionError as e:      # no Dask scheduler at the address given (--dask)
        print(f"sudoku: error: {e}", file=sys.stderr)
        return True
    except BrokenPipeError:
        # the reader went away (`sudoku solve big.txt | head`): stop quietly, as other filters do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return True
    finally:
        if hasattr(source, "close"):
            source.close()
    return False


def _solve(entries: list[Entry], stop=None, **how) -> list:
    todo = [e for e in entries if e.puzzle is not None]
    each = None
    if any(e.variant is not None for e in todo):
        each = [e.variant or how["variant"] for e in todo]
    results = iter(solve_chunk([e.puzzle for e in todo], stop=stop, variants_each=each, **how))
    return [(e, next(results) if e.puzzle is not None else None) for e in entries]


class _Reporter:
    """The output for each entry in the format asked for; problems go to stderr with the line."""

    def __init__(self, job: _Job, label: str | None, tally: Tally) -> None:
        self.job, self.label, self.tally = job, label, tally
        self.counting = job.args.command == "count"
        self.column = "count" if self.counting else "solution"
        self.format = job.format
        self.csv_header_done = False
        # the common case, a solution per line, has a path of its own (the batch path's speed)
        self.plain = not self.counting and not job.args.unique and self.format in (None, "line")

    def chunk(self, chunk: list) -> str:
        """The output for a chunk of ``(entry, result)`` pairs."""
        if self.plain:
            solutions = [r.solution for e, r in chunk if r is not None and r.status is SOLVED and e.fields is None]
            if len(solutions) == len(chunk):
                tally = self.tally
                tally.puzzles += len(chunk)
                tally.by_status[SOLVED] += len(chunk)
                tally.nodes += sum([r.nodes for _, r in chunk])
                return "\n".join(solutions) + "\n"
        return "".join([self(entry, result) for entry, result in chunk])

    def __call__(self, entry: Entry, result) -> str:
        status, answer = self.outcome(entry, result)
        fmt = self.format or ("csv" if entry.fields is not None else "line")
        if fmt == "jsonl":
            return self.jsonl(entry, result, status, answer)
        if fmt == "csv":
            return self.csv(entry, result, status, answer)
        return self.line(entry, result, status, answer, fmt == "pretty")

    def outcome(self, entry: Entry, result) -> tuple[str, str | None]:
        """``(status, answer)``, counting and reporting on stderr as it goes. The status is the
        batch's (solved, no solution, invalid, max_nodes), or for a count complete / limit (a lower
        bound), and "not unique" with --unique."""
        tally, args = self.tally, self.job.args
        if result is None:
            if entry.error is None:
                return "", None            # a blank line, a comment or a header: kept
            tally.puzzles += 1
            tally.by_status[INVALID] += 1
            self.warn(entry, entry.error.reason)
            return INVALID, None
        tally.puzzles += 1
        tally.by_status[result.status] += 1
        tally.nodes += result.nodes
        if result.status == INVALID:
            self.warn(entry, result.error.reason)
            return INVALID, None
        if result.status == MAX_NODES:
            tally.out_of_nodes += 1
            self.warn(entry, f"the budget of {args.max_nodes} nodes ran out after {result.count} "
                             f"solution{'' if result.count == 1 else 's'}")
        elif args.unique and result.count > 1:
            tally.not_unique += 1
            self.warn(entry, "not unique (2 solutions or more)")
            status = "not unique"
            return status, str(result.count) if self.counting else result.solution
        if self.counting:
            if args.unique and result.count == 0:
                self.warn(entry, "no solution")
            if result.status == MAX_NODES:
                return MAX_NODES, str(result.count)
            return ("limit" if result.count >= self.job.limit else "complete"), str(result.count)
        if result.status == NO_SOLUTION:
            self.warn(entry, "no solution")
        return str(result.status), result.solution

    def line(self, entry: Entry, result, status: str, answer: str | None, pretty_grid: bool) -> str:
        if not status:
            return entry.text + "\n"
        if self.counting and answer is not None:
            lower = status in ("limit", MAX_NODES, "not unique")
            return f"{answer}{'+' if lower else ''}\n"
        if answer is None:
            return _echo(entry)
        if status == "not unique" or status == MAX_NODES:
            mark = "not unique" if status == "not unique" else "not proven unique"
            return f"# {mark}: {answer}\n"
        if pretty_grid:
            return pretty(parse(answer, box=self.job.box, symbols=self.job.args.symbols), box=self.job.box,
                          symbols=self.job.args.symbols) + "\n\n"
        return answer + "\n"

    def csv(self, entry: Entry, result, status: str, answer: str | None) -> str:
        if entry.fields is None:               # lines, not CSV: one row each, a header first
            header = ""
            if not self.csv_header_done:
                header = _csv_row(["line", "puzzle", self.column, "status"])
                self.csv_header_done = True
            return header + _csv_row([entry.line, entry.puzzle if entry.puzzle is not None else entry.text,
                                      answer or "", status])
        if entry.line == 1 and result is None and entry.error is None:      # the header
            names = list(entry.fields)
            return _csv_row(names + [_free(self.column, names), _free("status", names)])
        return _csv_row(list(entry.fields) + [answer or "", status])

    def jsonl(self, entry: Entry, result, status: str, answer: str | None) -> str:
        record: dict = {"line": entry.line}
        if self.label:
            record["source"] = self.label
        if not status:
            record["text"] = entry.text
        else:
            record["puzzle"] = entry.puzzle if entry.puzzle is not None else entry.text
            record["status"] = status
            if answer is not None:
                record[self.column] = int(answer) if self.counting else answer
            if result is not None:
                record["nodes"] = result.nodes
            error = entry.error or (result.error if result is not None else None)
            if error is not None:
                record["error"] = error.reason
        return json.dumps(record) + "\n"

    def warn(self, entry: Entry, reason: str) -> None:
        """``sudoku: [FILE: ]line N: reason``, or ``sudoku: argument K: reason``."""
        where = f"{self.label}: " if self.label else ""
        if not where.startswith("argument"):
            where += f"line {entry.line}: "
        print(f"sudoku: {where}{reason}", file=sys.stderr)


def _csv_row(fields: list) -> str:
    """One CSV row ending in LF. A field holding a CR is quoted too: the csv module quotes only the
    characters of its line terminator (before Python 3.12), so the row is written with CRLF."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(fields)
    return out.getvalue()[:-2] + "\n"


def _free(name: str, taken: list[str]) -> str:
    """``name``, or ``name_found`` when the input already has a column of that name."""
    return name if name not in taken else f"{name}_found"


def _echo(entry: Entry) -> str:
    """A failed entry's input, each line marked so it can't pass for an answer."""
    return "".join(f"# {line}\n" for line in entry.text.split("\n"))


def _shuffle(args, tally: Tally) -> int:
    """Each puzzle of the input disguised: relabelled, rows and columns permuted (one draw each
    from ``--seed``)."""
    rng = np.random.default_rng(args.seed)
    failed = 0
    write = _Records(args.format, ["line", "puzzle", "shuffled"])
    with _input(args.file) as source:
        for entry in read_lines(source):
            if entry.puzzle is None:
                failed += entry.error is not None
                out = _kept(write, entry)
            else:
                tally.puzzles += 1
                try:
                    values = parse(entry.puzzle)
                except PuzzleError as e:
                    failed += 1
                    out = _kept(write, entry, e)
                else:
                    moved = transform.draw(box_size(values), rng).apply(values)
                    text = to_text(moved)
                    out = write({"line": entry.line, "puzzle": entry.puzzle, "shuffled": text}, text + "\n",
                                pretty(moved))
            sys.stdout.write(out)
    return FAILED if failed else 0


class _Records:
    """Each output as ``--format`` asks: ``line`` (the line given), ``pretty`` (the grid given,
    else the line), ``csv`` (the names as a header once, then a row a record) or ``jsonl``."""

    def __init__(self, fmt: str, names: list[str]) -> None:
        self.fmt, self.names, self.header = fmt, names, False

    def __call__(self, record: dict, line: str, grid: str | None = None) -> str:
        if self.fmt == "jsonl":
            return json.dumps(record) + "\n"
        if self.fmt == "csv":
            header = "" if self.header else _csv_row(self.names)
            self.header = True
            return header + _csv_row([record.get(name, "") for name in self.names])
        if self.fmt == "pretty" and grid is not None:
            return grid + "\n\n"
        return line


def _kept(write: _Records, entry: Entry, error: PuzzleError | None = None) -> str:
    """A line without a puzzle as it came, or a failed one echoed and reported."""
    error = error or entry.error
    if error is None:
        return write({"line": entry.line, "text": entry.text}, entry.text + "\n")
    line = _failed(entry, error.reason)
    return write({"line": entry.line, "puzzle": entry.text, "error": error.reason}, line)


def _rate(args, tally: Tally) -> int:
    """Each puzzle's rating: its score and level."""
    encode.batch(3).solve(np.zeros((1, 81), np.uint8), 2)      # loaded before the clock starts
    started = time.perf_counter()
    scores: list[float] = []
    levels: Counter = Counter()
    failed = 0
    write = _Records(args.format, ["line", "puzzle", "score", "level"])
    with _input(args.file) as source:
        entries = read_lines(source)
        for chunk in map_chunks(lambda es, stop: _rated(es), entries, jobs=args.jobs):
            lines = []
            for entry, rating in chunk:
                if rating is None:
                    failed += entry.error is not None
                    lines.append(_kept(write, entry))
                    continue
                tally.puzzles += 1
                if isinstance(rating, PuzzleError):
                    failed += 1
                    lines.append(_kept(write, entry, rating))
                else:
                    scores.append(rating.score)
                    levels[rating.level] += 1
                    score = round(rating.score, 2)
                    lines.append(write({"line": entry.line, "puzzle": entry.puzzle, "score": score,
                                        "level": rating.level}, f"{rating.score:.2f} {rating.level}\n"))
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
    write = _Records(args.format, ["puzzle"])
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
            sys.stdout.write(write({"puzzle": puzzle}, puzzle + "\n", pretty(puzzle)))
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
        try:
            source = files.open_text("-")
        except OSError as e:
            print(f"sudoku: error: cannot read -: {e.strerror or e}", file=sys.stderr)
            return FAILED
        text = next((e.puzzle for e in read_lines(source) if e.puzzle is not None), "")
    try:
        done = explainer.tell(text, print, full=args.full, limit=args.steps, more="--full",
                              max_nodes=args.max_nodes, budget="--max-nodes")
    except PuzzleError as e:
        print(f"sudoku: error: {e}", file=sys.stderr)
        return FAILED
    tally.puzzles += 1
    return 0 if done else OUT_OF_NODES


def _input(name: str) -> io.TextIOBase:
    try:
        return files.open_text(name)
    except OSError as e:
        raise SystemExit(f"sudoku: error: cannot read {name}: {e.strerror or e}") from None


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


def _examples(*commands: str) -> str:
    return "examples:\n" + "".join(f"  {c}\n" for c in commands) + "\n" + textwrap.fill(_STATUSES, 79)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sudoku",
        description="Solve, count, rate, disguise, make and explain sudoku puzzles with Dancing Links: "
                    "any size with square or rectangular boxes (4x4, 6x6, 9x9, 12x12, 16x16, ...), "
                    "X-sudoku, windoku, jigsaw and killer. Input: puzzles as arguments, files, or "
                    "standard input; one puzzle per line, grids over several lines, or CSV. Output: "
                    "one line per input line. 'sudoku COMMAND --help' says more.",
        epilog=f"Example: sudoku solve {_EXAMPLE} " + _STATUSES)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    solve = commands.add_parser(
        "solve", help="print the solution of each puzzle",
        description=textwrap.fill(
            "Print the solution of every puzzle, one output line per input line, in order. Puzzles come "
            "from the arguments: a puzzle itself, a file, or - for standard input (the default); typed or "
            "piped in, each line is answered as soon as it is read. " + _INPUT, 79),
        epilog=_examples(f"sudoku solve {_EXAMPLE}", "sudoku solve puzzles.txt more.txt",
                         "sudoku solve kaggle.csv --jobs 0", "sudoku solve --variant killer examples/killer.txt",
                         "sudoku solve --symbols 0-F examples/hex16.txt --pretty"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    count = commands.add_parser(
        "count", help="print the number of solutions of each puzzle",
        description=textwrap.fill(
            "Print the number of solutions of every puzzle, one line per input line. A count that stopped "
            "at --limit or --max-nodes is a lower bound, written with a + (5+). " + _INPUT, 79),
        epilog=_examples("sudoku count puzzles.txt --unique", "sudoku count 1............... --limit 10",
                         "sudoku count examples/6x6.txt --format jsonl"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    for sub in (solve, count):
        sub.add_argument("inputs", nargs="*", metavar="PUZZLE|FILE",
                         help="puzzles, files, or - for standard input (the default when none)")
        sub.add_argument("--unique", action="store_true",
                         help="prove each solution unique (stop at 2); mark and report those that are not")
        sub.add_argument("--format", choices=FORMATS,
                         help="line: one line per input line (the default); pretty: grids; csv: the "
                              "input's columns plus the answer and status (the default for CSV input); "
                              "jsonl: one JSON object per line")
        sub.add_argument("--column", metavar="NAME",
                         help="the CSV column that holds the puzzles (default: puzzle, quizzes or quiz)")
        sub.add_argument("--box", metavar="RxC",
                         help="boxes of R rows and C columns (2x3 for 6x6, 3x4 for 12x12); default: the "
                              "squarest that fits the puzzle's size")
        sub.add_argument("--symbols", metavar="SPEC",
                         help="the values' characters in order, ranges allowed: 0-F or 1-9A-G for 16x16 "
                              "(default 1-9 then A-Z); '.' is a blank, and 0 too when it is no symbol")
        sub.add_argument("--variant", choices=list(variants.NAMES) + ["hyper"], default="standard",
                         help="; ".join(f"{k}: {v}" for k, v in variants.NAMES.items())
                              + " (jigsaw lines: puzzle,regions; killer lines: puzzle,cages,sums)")
        sub.add_argument("--max-nodes", type=_POSITIVE, metavar="N",
                         help=f"give up on a puzzle after N search nodes (exit status {OUT_OF_NODES})")
        sub.add_argument("--jobs", type=_NATURAL, default=1, metavar="N",
                         help="solve on N threads, 0 for one per core (default: %(default)s)")
        sub.add_argument("--dask", metavar="WHERE",
                         help="solve on a Dask cluster: 'local' (one process per core) or a scheduler's "
                              "address, tcp://host:8786 (needs the dist extra); answers stay in order")
        sub.add_argument("--stats", action="store_true", help="print counts, time and speed on stderr")
        sub.add_argument("--quiet", action="store_true", help="no progress bar")
    solve.add_argument("--pretty", action="store_true", help="the same as --format pretty")
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
    shuffle.add_argument("--format", choices=FORMATS, default="line", help=_FORMAT_HELP)

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
    rate.add_argument("--format", choices=FORMATS, default="line", help=_FORMAT_HELP)

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
    generate.add_argument("--format", choices=FORMATS, default="line", help=_FORMAT_HELP)
    generate.add_argument("--quiet", action="store_true", help="no progress bar")

    explain = commands.add_parser(
        "explain", help="explain the solve of one puzzle step by step",
        description="Print the search for a puzzle's solution in its own words: forced moves (a cell "
                    "with one digit left, a digit with one place left in a row, column or box), "
                    "guesses with their alternatives, dead ends and backtracks, then the grid.",
        epilog="Example: sudoku explain 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4...... "
               f"Exit status: 0, or {FAILED} when the puzzle cannot be read or its givens clash, "
               f"{OUT_OF_NODES} when --max-nodes ran out.")
    explain.add_argument("puzzle", help="the puzzle (one line), or - to read it from standard input")
    explain.add_argument("--full", action="store_true", help="every step, however many")
    explain.add_argument("--steps", type=_POSITIVE, default=explainer.STEPS, metavar="N",
                         help="steps shown before the rest is summed up (default %(default)s)")
    explain.add_argument("--max-nodes", type=_POSITIVE, default=explainer.MAX_NODES, metavar="N",
                         help="give up after N search nodes, saying how far it got (exit status "
                              f"{OUT_OF_NODES}; default %(default)s)")
    return parser

