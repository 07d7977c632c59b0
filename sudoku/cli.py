"""The ``sudoku`` command: the parser, and each subcommand as entries -> work -> output.

Every subcommand that takes puzzles reads them one way ([`sudoku.files`][sudoku.files]: arguments, files,
``-``, CSV, grids over several lines, with ``--box``, ``--symbols`` and ``--variant``), works on
them in ordered chunks (`sudoku.pipeline`) and writes one answer per input entry in one of four
formats (`sudoku.output`).
"""
from __future__ import annotations

import argparse
import functools
import io
import math
import os
import sys
import textwrap
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NoReturn

# A command never multiplies matrices: numpy's BLAS thread pool would only burn CPU at start-up.
# Set before numpy is first imported (the packages load their modules lazily for this).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

from dlx.commands import IntermixedParser, Version, compile_notice, exit_now, progress_bar, whole_number

from . import encode, explainer, files, techniques, transform, variants
from .files import ColumnError, Entry
from .generator import TRIES, generate
from .grid import PuzzleError, Shape, draw, expand_symbols, parse_box, picture, pretty, to_text
from .output import FORMATS, KEPT, Answer, Writer
from .pipeline import CHUNK, map_chunks
from .rating import HODOKU_LEVELS, LEVELS, SCALES, Rating, rate_all
from .solver import INVALID, MAX_NODES, NO_SOLUTION, SOLVED, Interrupted, Result, count_one, solve_chunk
from .techniques import Grade, Step

_POSITIVE = whole_number(1)
_NATURAL = whole_number(0)


def _budget(text: str) -> int | None:
    """A node budget: a whole number from 1, or ``none`` for no budget."""
    if text.strip().lower() == "none":
        return None
    try:
        return _POSITIVE(text)
    except argparse.ArgumentTypeError as e:
        raise argparse.ArgumentTypeError(f"{e} (or none, for no budget)") from None


#: Exit statuses: 1 when some puzzle failed (unreadable, no solution, not unique with --unique);
#: 2 for a usage error; 3 when --max-nodes ran out on some puzzle (and nothing failed); 130 when
#: interrupted (Ctrl-C), as shells report a command ended by SIGINT.
FAILED, USAGE, OUT_OF_NODES, INTERRUPTED = 1, 2, 3, 130
_EXAMPLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
_INPUT = ("Input: puzzles as arguments, files, or - for standard input (the default); one puzzle per "
          "line ('.' or '0' for blanks; text after ',' or ':' ignored), grids over several lines, or CSV "
          "with a header naming the puzzle column. From a terminal or a pipe each line is answered as "
          f"soon as it is read; there, the rows of a grid must come together (a pause of "
          f"{files.GRID_PAUSE} s ends it).")
_STATUSES = (f"Exit status: 0 when every puzzle went well; {FAILED} when some line failed (echoed with "
             f"'# ' in front, reported on stderr with its line number); {USAGE} for a usage error; "
             f"{OUT_OF_NODES} when --max-nodes ran out on some puzzle; {INTERRUPTED} when interrupted (Ctrl-C).")


@dataclass
class Tally:
    """What a command has done so far, for --stats and the line that Ctrl-C prints."""

    puzzles: int = 0
    by_status: Counter = field(default_factory=Counter)
    not_unique: int = 0
    out_of_nodes: int = 0
    nodes: int = 0
    so_far: str = ""           # a count cut short by Ctrl-C: where, and how far it got

    def summary(self, command: str) -> str:
        if command in ("solve", "count"):
            done = (f"{self.puzzles} puzzles ({self.by_status[SOLVED]} solved, {self.by_status[NO_SOLUTION]} no "
                    f"solution, {self.by_status[INVALID]} invalid; {self.nodes} nodes)")
        else:
            done = f"{self.puzzles} puzzles"
        return f"after {done}" + (f"; {self.so_far}" if self.so_far else "")


def entry() -> NoReturn:
    """The ``sudoku`` command (and ``python -m sudoku``): `main`, then exit at once."""
    exit_now(main, "sudoku")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    tally = Tally()
    try:
        with compile_notice("sudoku"):
            return COMMANDS[args.command](args, tally)
    except (ColumnError, _Usage) as e:
        print(f"sudoku: error: {getattr(e, 'reason', e)}", file=sys.stderr)
        return USAGE
    except KeyboardInterrupt:
        sys.stdout.flush()
        print(f"sudoku: interrupted {tally.summary(args.command)}", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return FAILED


class _Usage(Exception):
    """A usage error found after parsing (a bad --box, --symbols or --variant)."""


@dataclass
class _Job:
    """What a subcommand was asked for, checked once."""

    args: argparse.Namespace
    box: tuple[int, int] | None
    symbols: str | None
    variant: variants.Variant | None
    layout: str | None           # "jigsaw" or "killer": each puzzle brings its layout
    format: str | None           # None: csv for CSV input, line otherwise
    several: bool = False        # more than one source: messages name it
    limit: int = 1

    @property
    def size(self) -> int | None:
        """The grid's side where --box says it (which lines are rows of a grid)."""
        return self.box[0] * self.box[1] if self.box else None


def _job(args: argparse.Namespace) -> _Job:
    try:
        box = parse_box(args.box) if args.box else None
        if args.symbols:
            expand_symbols(args.symbols)
        name = getattr(args, "variant", "standard")
        layout = name if name in ("jigsaw", "killer") else None
        variant = None if layout else variants.named(name)
        if box is not None and variant is not None:
            variant.shape(Shape.boxed(box).cells, box)        # rules that need other boxes
    except (PuzzleError, ValueError) as e:
        raise _Usage(getattr(e, "reason", e)) from None
    fmt = "pretty" if getattr(args, "pretty", False) else args.format
    return _Job(args, box, args.symbols, variant, layout, fmt, len(args.inputs) > 1)


# --- the one input path: every source, entries in order, answered as they come


def _answer_all(job: _Job, tally: Tally, work: Callable, judge: Callable, columns: list[str], *,
                jobs: int | None = 1, client: Any = None, chunk: int = CHUNK) -> bool:
    """Answer every source of the command line; True when some source could not be read.
    ``chunk``: entries worked on before their answers are written."""
    failed = False
    for number, name in enumerate(job.args.inputs or ["-"], 1):
        failed |= _answer_source(job, name, number, tally, work, judge, columns, jobs, client, chunk)
    return failed


def _answer_source(job: _Job, name: str, number: int, tally: Tally, work: Callable, judge: Callable,
                   columns: list[str], jobs: int | None, client: Any, chunk: int = CHUNK) -> bool:
    """Answer every entry of one source (a file, ``-`` or a puzzle given as an argument); True
    when the source could not be read."""
    args = job.args
    source: list[str] | io.TextIOBase | files.Stream
    label: str | None
    if name != "-" and not os.path.exists(name) and files.looks_like_puzzle(name, job.layout):
        source, label = [name], f"argument {number}"
    else:
        try:
            source = files.open_text(name)
        except OSError as e:
            print(f"sudoku: error: cannot read {name}: {e.strerror or e}", file=sys.stderr)
            return True
        label = name if job.several else None
    stream = source if isinstance(source, files.Stream) else None
    more = (lambda: stream.waiting(files.GRID_PAUSE)) if stream is not None else None
    bar = progress_bar(unit=" lines", total=_lines_in(name), delay=1.0,
               disable=getattr(args, "quiet", False) or stream is not None or not sys.stderr.isatty())
    writer = Writer(job.format, columns, label)
    try:
        entries = files.entries(source, size=job.size, column=args.column, layout=job.layout, more=more)
        with bar:
            for done in map_chunks(work, entries, jobs=jobs, client=client, chunk=chunk,
                                   ready=stream.waiting if stream else None):
                sys.stdout.write(judge(done, writer))
                if stream is not None and not stream.waiting():
                    sys.stdout.flush()
                bar.update(sum([entry.text.count("\n") + 1 for entry, _ in done]))
        sys.stdout.flush()
    except BrokenPipeError:           # (a ConnectionError too: first)
        # the reader went away (`sudoku solve big.txt | head`): stop quietly, as other filters do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return True
    except ConnectionError as e:      # no Dask scheduler at the address given (--dask)
        print(f"sudoku: error: {e}", file=sys.stderr)
        return True
    except ColumnError as e:
        raise ColumnError(f"{name}: {e.reason}") from None
    finally:
        if hasattr(source, "close"):
            source.close()
    return False


def _each(answer: Callable[[Entry, Any, Writer], Answer], tally: Tally) -> Callable:
    """A judge for a whole chunk from ``answer(entry, result, writer)`` per entry: kept lines as
    they came, unreadable entries echoed and reported."""
    def judge(chunk: list, writer: Writer) -> str:
        out = []
        for entry, result in chunk:
            if entry.puzzle is None:
                if entry.error is None:
                    out.append(writer(entry, KEPT))
                    continue
                result = entry.error
            tally.puzzles += 1
            if isinstance(result, PuzzleError):
                tally.by_status[INVALID] += 1
                writer.warn(entry, result.reason)
                out.append(writer(entry, Answer(INVALID, {}, None, error=result.reason)))
            else:
                out.append(writer(entry, answer(entry, result, writer)))
        return "".join(out)
    return judge


def _one_by_one(make: Callable[[Entry], object]) -> Callable:
    """The work for a chunk from ``make(entry)`` per puzzle, in order: its result, or the
    PuzzleError that says why there is none (lines without a puzzle get None)."""
    def work(entries: list[Entry], stop: threading.Event | None) -> list:
        out = []
        for e in entries:
            try:
                out.append((e, make(e) if e.puzzle is not None else None))
            except PuzzleError as error:
                out.append((e, error))
        return out
    return work


def _puzzles(entries: list[Entry]) -> list[Entry]:
    return [e for e in entries if e.puzzle is not None]


def _rules(job: _Job, entry: Entry) -> variants.Variant | None:
    return entry.variant or job.variant


def _read(job: _Job, entry: Entry) -> tuple[np.ndarray, Shape, variants.Variant | None]:
    """``(values, shape, rules)`` of an entry's puzzle; a PuzzleError when it cannot be read or its
    givens clash."""
    assert entry.puzzle is not None, "only entries with a puzzle are read"
    return variants.read(entry.puzzle, box=job.box, symbols=job.symbols, variant=_rules(job, entry))


# --- solve and count


def _solve(args: argparse.Namespace, tally: Tally) -> int:
    job = _job(args)
    job.limit = 2 if args.unique else 1
    _load(job)
    return _solve_or_count(job, tally, _Solutions(job, tally), ["solution"])


def _count(args: argparse.Namespace, tally: Tally) -> int:
    job = _job(args)
    job.limit = 2 if args.unique else args.limit or sys.maxsize
    _load(job)
    return _solve_or_count(job, tally, _Counts(job, tally), ["count"])


def _solve_or_count(job: _Job, tally: Tally, judge: Callable, columns: list[str]) -> int:
    args = job.args
    started = time.perf_counter()
    work = functools.partial(_solve_entries, limit=job.limit, max_nodes=args.max_nodes, box=job.box,
                             symbols=job.symbols, variant=job.variant,
                             alone=args.command == "count" and args.dask is None)
    failed = _answer_all(job, tally, work, judge, columns, jobs=args.jobs, client=args.dask)
    if args.stats:
        _stats(tally, time.perf_counter() - started)
    failed |= bool(tally.by_status[INVALID] or tally.not_unique
                   or (tally.by_status[NO_SOLUTION] and (args.command == "solve" or args.unique)))
    return FAILED if failed else OUT_OF_NODES if tally.out_of_nodes else 0


def _stats(tally: Tally, seconds: float) -> None:
    n = tally.puzzles
    done = (f"{tally.by_status[SOLVED]} solved, {tally.by_status[NO_SOLUTION]} no solution, "
            f"{tally.by_status[INVALID]} invalid")
    if n == 1:
        print(f"1 puzzle: {done}; {seconds:.3f} s, {tally.nodes:,} nodes", file=sys.stderr)
    else:
        print(f"{n} puzzles: {done}; {seconds:.3f} s, {n / seconds if seconds else 0:,.1f} puzzles/s, "
              f"{tally.nodes / max(n, 1):.1f} nodes per puzzle", file=sys.stderr)


def _load(job: _Job) -> None:
    """Build the solver and load its kernel before the clock starts."""
    shape = Shape.boxed(job.box) if job.box else Shape.of(81)
    try:
        encode.batch(shape, job.variant).solve(np.zeros((1, shape.cells), np.uint8), 1)
    except PuzzleError as e:          # rules that do not fit the boxes asked for (windoku on 2x3)
        raise _Usage(e.reason) from None


class _Alone:
    """A puzzle that came alone in its chunk, for ``count``: counted by the main thread with a
    search of its own, split over ``--jobs`` threads (and Ctrl-C reaches it and keeps the count so
    far)."""


def _solve_entries(entries: list[Entry], stop: threading.Event | None = None, *, alone: bool = False,
                   **how: Any) -> list:
    todo = _puzzles(entries)
    if alone and len(todo) == 1:
        return [(e, _Alone() if e.puzzle is not None else None) for e in entries]
    each = None
    if any(e.variant is not None for e in todo):
        each = [e.variant or how["variant"] for e in todo]
    results = iter(solve_chunk([e.puzzle for e in todo], stop=stop, variants_each=each, **how))
    return [(e, next(results) if e.puzzle is not None else None) for e in entries]


class _Solutions:
    """``solve``'s answers: the solution of each puzzle."""

    column = "solution"

    def __init__(self, job: _Job, tally: Tally) -> None:
        self.job, self.tally = job, tally
        self.shapes: dict[tuple[int, variants.Variant | None], Shape] = {}
        # the common case, a solution per line, has a path of its own (the batch path's speed)
        self.plain = not job.args.unique and job.format in (None, "line")

    def __call__(self, chunk: list, writer: Writer) -> str:
        if self.plain:
            solutions = [r.solution for e, r in chunk if r is not None and r.status is SOLVED and e.fields is None]
            if len(solutions) == len(chunk):
                tally = self.tally
                tally.puzzles += len(chunk)
                tally.by_status[SOLVED] += len(chunk)
                tally.nodes += sum([r.nodes for _, r in chunk])
                return "\n".join(solutions) + "\n"
        return "".join([writer(entry, self.answer(entry, result, writer)) for entry, result in chunk])

    def answer(self, entry: Entry, result: Any, writer: Writer) -> Answer:
        """The answer for one entry, counting and reporting on stderr as it goes. The status is the
        batch's (solved, no solution, invalid, max_nodes), "not unique" with --unique, or for a
        count complete / limit (a lower bound)."""
        tally, args = self.tally, self.job.args
        if result is None:
            if entry.error is None:
                return KEPT                    # a blank line, a comment or a header: kept
            tally.puzzles += 1
            tally.by_status[INVALID] += 1
            writer.warn(entry, entry.error.reason)
            return Answer(INVALID, {}, None, error=entry.error.reason)
        if isinstance(result, _Alone):
            result = self.alone(entry)
        tally.puzzles += 1
        tally.by_status[result.status] += 1
        tally.nodes += result.nodes
        if result.status == INVALID:
            writer.warn(entry, result.error.reason)
            return Answer(INVALID, {}, None, error=result.error.reason, nodes=result.nodes)
        if result.status == MAX_NODES:
            tally.out_of_nodes += 1
            writer.warn(entry, f"the budget of {args.max_nodes} nodes ran out after {result.count} "
                               f"solution{'' if result.count == 1 else 's'}")
        elif args.unique and result.count > 1:
            tally.not_unique += 1
            writer.warn(entry, "not unique (2 solutions or more)")
            return self.found(entry, result, "not unique")
        elif result.status == NO_SOLUTION and (self.column == "solution" or args.unique):
            writer.warn(entry, "no solution")
        return self.found(entry, result, str(result.status))

    def found(self, entry: Entry, result: Any, status: str) -> Answer:
        if result.solution is None:
            return Answer(status, {}, None, nodes=result.nodes)
        line = result.solution
        if status in ("not unique", MAX_NODES):
            line = f"# {'not unique' if status == 'not unique' else 'not proven unique'}: {line}"
        grid = None
        if self.job.format == "pretty" and status == SOLVED:
            grid = draw(result.solution, self.shape(entry, len(result.solution)))
        elif self.job.format == "svg" and status == SOLVED and entry.puzzle is not None:
            rules = _rules(self.job, entry)
            grid = picture(entry.puzzle, result.solution, box=self.job.box, symbols=self.job.symbols,
                           regions=rules.regions if rules is not None else None)
        return Answer(status, {self.column: result.solution}, line, grid, nodes=result.nodes)

    def shape(self, entry: Entry, cells: int) -> Shape:
        """The Shape of an entry's grid, derived once per size and rules of a run."""
        rules = _rules(self.job, entry)
        found = self.shapes.get((cells, rules))
        if found is None:
            box = self.job.box
            found = self.shapes[(cells, rules)] = Shape.of(cells, box) if rules is None else rules.shape(cells, box)
        return found

    def alone(self, entry: Entry) -> Result:
        raise AssertionError("solve never splits a puzzle")


class _Counts(_Solutions):
    """``count``'s answers: the number of solutions of each puzzle, a lower bound marked ``+``."""

    column = "count"

    def __init__(self, job: _Job, tally: Tally) -> None:
        super().__init__(job, tally)
        self.plain = False

    def found(self, entry: Entry, result: Any, status: str) -> Answer:
        if status not in ("not unique", MAX_NODES):
            status = "limit" if result.count >= self.job.limit else "complete"
        lower = status in ("limit", MAX_NODES, "not unique")
        return Answer(status, {"count": result.count}, f"{result.count}{'+' if lower else ''}", nodes=result.nodes)

    def alone(self, entry: Entry) -> Result:
        """Count one puzzle with a search of its own on ``--jobs`` threads (Ctrl-C keeps the count
        so far for the summary line)."""
        job = self.job
        assert entry.puzzle is not None, "only entries with a puzzle are counted"
        limit = None if job.limit == sys.maxsize else job.limit
        try:
            return count_one(entry.puzzle, limit, max_nodes=job.args.max_nodes, box=job.box, symbols=job.symbols,
                             variant=_rules(job, entry), jobs=job.args.jobs)
        except Interrupted as e:
            self.interrupted(entry, e.count, e.nodes)
            raise

    def interrupted(self, entry: Entry, count: int, nodes: int) -> None:
        self.tally.so_far = f"line {entry.line}: at least {count:,} solutions so far ({nodes:,} nodes)"


# --- rate, shuffle, explain


def _rate(args: argparse.Namespace, tally: Tally) -> int:
    """Each puzzle's rating: its score and level."""
    job = _job(args)
    encode.batch(Shape.of(81)).solve(np.zeros((1, 81), np.uint8), 2)      # loaded before the clock starts
    started = time.perf_counter()
    scores: list[float] = []
    levels: Counter = Counter()

    hodoku = args.scale == "hodoku"

    def work(entries: list[Entry], stop: threading.Event | None) -> list:
        todo = _puzzles(entries)
        ratings = iter(rate_all([e.puzzle for e in todo], jobs=1, box=job.box, symbols=job.symbols,
                                variant=job.variant, variants_each=[_rules(job, e) for e in todo], scale=args.scale))
        return [(e, next(ratings) if e.puzzle is not None else None) for e in entries]

    def answer(entry: Entry, rating: Rating | Grade, writer: Writer) -> Answer:
        scores.append(rating.score)
        levels[rating.level] += 1
        if isinstance(rating, Grade):
            return Answer("rated", {"score": rating.score, "level": rating.level, "steps": rating.steps},
                          f"{rating.score} {rating.level}")
        return Answer("rated", {"score": rating.score, "level": rating.level},
                      f"{rating.score:.2f} {rating.level}", nodes=round(rating.nodes))

    failed = _answer_all(job, tally, work, _each(answer, tally), ["score", "level"] + ["steps"] * hodoku,
                         jobs=args.jobs)
    if args.stats:
        seconds = time.perf_counter() - started
        q1, median, q3 = np.percentile(scores, [25, 50, 75]) if scores else (0, 0, 0)
        print(f"{len(scores)} rated: median {median:.2f} (quartiles {q1:.2f}, {q3:.2f}); "
              + ", ".join(f"{levels[name]} {name}" for name in (HODOKU_LEVELS if hodoku else LEVELS))
              + f"; {seconds:.3f} s, {len(scores) / seconds if seconds else 0:,.1f} puzzles/s", file=sys.stderr)
    return FAILED if failed or tally.by_status[INVALID] else 0


def _shuffle(args: argparse.Namespace, tally: Tally) -> int:
    """Each puzzle disguised: relabelled, rows and columns permuted (draws from ``--seed``, in
    input order: the same seed, the same output)."""
    job = _job(args)
    rng = np.random.default_rng(args.seed)

    def shuffled(e: Entry) -> tuple[np.ndarray, Shape, variants.Variant | None]:
        values, shape, rules = _read(job, e)
        return transform.draw(shape, rng, rules).apply(values), shape, rules

    def answer(entry: Entry, found: Any, writer: Writer) -> Answer:
        moved, shape, rules = found
        text = to_text(moved, job.symbols)
        grid = pretty(moved, box=shape if shape.boxes else None, symbols=job.symbols, boxes=shape.boxes)
        line = text
        if rules is not None and rules.regions is not None:
            line += "," + variants.regions_text(rules)      # read back with the regions, which stay put
        return Answer("shuffled", {"shuffled": text}, line, grid)

    failed = _answer_all(job, tally, _one_by_one(shuffled), _each(answer, tally), ["shuffled"])
    return FAILED if failed or tally.by_status[INVALID] else 0


def _explain(args: argparse.Namespace, tally: Tally) -> int:
    """The solve of each puzzle, step by step. Each puzzle is answered before the next is read;
    with ``--full`` in the line format the steps are written as they are found (an explanation
    can run to millions of lines), all but the last, which is the puzzle's answer line."""
    job = _job(args)
    out_of_nodes = []

    def told(e: Entry) -> tuple[list[str], bool, bool]:
        assert e.puzzle is not None, "only entries with a puzzle are told"
        lines: list[str] = []
        streaming = args.full and job.format in (None, "line") and e.fields is None
        before = ["\n" if tally.puzzles else ""]      # a blank line between puzzles
        write = lines.append
        if streaming:
            def write(line: str) -> None:
                if lines:
                    sys.stdout.write(before[0] + lines.pop() + "\n")
                    before[0] = ""
                lines.append(line)
        try:
            if args.human:
                techniques.tell(e.puzzle, write, full=args.full, limit=args.steps, more="--full", box=job.box,
                           symbols=job.symbols, variant=_rules(job, e))
                done = True
            else:
                done = explainer.tell(e.puzzle, write, full=args.full, limit=args.steps, more="--full",
                                      max_nodes=args.max_nodes, budget="--max-nodes", box=job.box,
                                      symbols=job.symbols, variant=_rules(job, e))
        finally:
            if streaming:
                sys.stdout.flush()
        return lines, done, streaming and not before[0]

    def answer(entry: Entry, told: Any, writer: Writer) -> Answer:
        lines, done, streamed = told
        if not done:
            out_of_nodes.append(entry)
        status = MAX_NODES if not done else NO_SOLUTION if lines[-1].startswith("No solution") else SOLVED
        text = "\n".join(lines)
        return Answer(status, {"explanation": text}, ("\n" if tally.puzzles > 1 and not streamed else "") + text)

    failed = _answer_all(job, tally, _one_by_one(told), _each(answer, tally), ["explanation"], chunk=1)
    return FAILED if failed or tally.by_status[INVALID] else OUT_OF_NODES if out_of_nodes else 0


def _hint(args: argparse.Namespace, tally: Tally) -> int:
    """Each puzzle's next step in human terms, as HoDoKu would give it."""
    job = _job(args)

    def make(e: Entry) -> Step | None:
        assert e.puzzle is not None, "only entries with a puzzle are hinted"
        return techniques.hint(e.puzzle, box=job.box, symbols=job.symbols, variant=_rules(job, e))

    def answer(entry: Entry, step: Step | None, writer: Writer) -> Answer:
        if step is None:
            return Answer(SOLVED, {"technique": "", "hint": "solved", "placed": [], "removed": []}, "solved")
        return Answer("hint", {"technique": step.technique, "hint": step.text,      # [cell, digit] pairs, as JSON
                               "placed": [list(p) for p in step.placed],
                               "removed": [list(r) for r in step.removed]}, step.text)

    failed = _answer_all(job, tally, _one_by_one(make), _each(answer, tally),
                         ["technique", "hint", "placed", "removed"])
    return FAILED if failed or tally.by_status[INVALID] else 0


def _generate(args: argparse.Namespace, tally: Tally) -> int:
    """``count`` new puzzles, one per line."""
    try:
        rules = variants.named(args.variant if args.variant != "jigsaw" else None)
        if args.variant == "jigsaw":
            if not args.regions:
                raise _Usage("a jigsaw needs its regions: --regions LAYOUT (a grid of N labels, N cells each)")
            rules = variants.jigsaw(args.regions)
        elif args.regions:
            raise _Usage("--regions is for --variant jigsaw")
        size = args.size or (rules is not None and rules.cells and math.isqrt(rules.cells)) or 9
        if args.symbols:
            expand_symbols(args.symbols)
        make = functools.partial(generate, symmetric=args.symmetric, minimal=not args.quick, clues=args.clues,
                                 size=size, box=args.box, variant=rules, symbols=args.symbols,
                                 difficulty=args.difficulty, tries=args.tries, scale=args.scale)
        make(seed=0, difficulty=None, clues=None)        # setup and checks, not generating time
    except (PuzzleError, ValueError) as e:
        raise _Usage(getattr(e, "reason", e)) from None
    rng = np.random.default_rng(args.seed)
    # a jigsaw's regions go out with every puzzle, as the commands read them: puzzle,regions
    regions = variants.regions_text(rules) if rules is not None and rules.regions is not None else None
    writer = Writer(args.format, [] if regions is None else ["regions"])
    started = time.perf_counter()
    bar = progress_bar(total=args.count, unit=" puzzles", delay=1.0,
               disable=args.quiet or not sys.stderr.isatty())
    with bar:
        for k in range(1, args.count + 1):
            try:
                puzzle = make(seed=int(rng.integers(2 ** 63)))
            except ValueError as e:
                print(f"sudoku: error: {e}", file=sys.stderr)
                return FAILED
            grid = pretty(puzzle, box=args.box, symbols=args.symbols, boxes=rules is None or rules.boxes)
            if regions is None:
                answer = Answer("generated", {}, puzzle, grid)
            else:
                answer = Answer("generated", {"regions": regions}, f"{puzzle},{regions}",
                                f"{grid}\n\n{_rows(regions)}")
            sys.stdout.write(writer(Entry(k, puzzle, puzzle), answer))
            tally.puzzles += 1
            bar.update()
    if args.stats:
        seconds = time.perf_counter() - started
        print(f"{tally.puzzles} puzzles in {seconds:.3f} s, {tally.puzzles / seconds if seconds else 0:,.1f} "
              "puzzles/s", file=sys.stderr)
    return 0


def _rows(labels: str) -> str:
    """A grid of one character per cell, a row per line, the cells apart (as [`pretty`][sudoku.pretty] draws
    a puzzle without boxes)."""
    size = math.isqrt(len(labels))
    return "\n".join(" ".join(labels[r * size:(r + 1) * size]) for r in range(size))


COMMANDS = {"solve": _solve, "count": _count, "rate": _rate, "shuffle": _shuffle, "explain": _explain,
            "hint": _hint, "generate": _generate}


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
        description=textwrap.fill(
                    "Solve, count, rate, disguise, make and explain sudoku puzzles with Dancing Links: "
                    "any size with square or rectangular boxes (4x4, 6x6, 9x9, 12x12, 16x16, ...), "
                    "X-sudoku, windoku, jigsaw (any size) and killer. Every command takes puzzles the "
                    "same way: as arguments, files, or standard input; one puzzle per line, grids over "
                    "several lines, or CSV. Output: one answer per input line, as line, pretty, csv or "
                    "jsonl. 'sudoku COMMAND --help' says more.", 79),
        epilog=_examples(f"sudoku solve {_EXAMPLE}", "sudoku count examples/6x6.txt",
                         "sudoku generate 3 --seed 1", "sudoku solve --help"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=Version)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=IntermixedParser)

    def command(name: str, help: str, description: str, *examples: str,
                formats: tuple[str, ...] = FORMATS) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=textwrap.fill(description + " " + _INPUT, 79),
                                  epilog=_examples(*examples), formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.add_argument("inputs", nargs="*", metavar="PUZZLE|FILE",
                         help="puzzles, files, or - for standard input (the default when none)")
        _shape_options(sub)
        sub.add_argument("--variant", choices=list(variants.NAMES) + ["hyper"], default="standard",
                         help="; ".join(f"{k}: {v}" for k, v in variants.NAMES.items())
                              + " (jigsaw lines: puzzle,regions; killer lines: puzzle,cages,sums)")
        sub.add_argument("--column", metavar="NAME",
                         help="the CSV column that holds the puzzles (default: puzzle, puzzles, quizzes or quiz)")
        sub.add_argument("--format", choices=formats,
                         help="line: one line per input line (the default); "
                              + ("pretty: grids; " if "pretty" in formats else "")
                              + "csv: the input's columns plus the answer and status (the default for CSV "
                                "input); jsonl: one JSON object per line"
                              + ("; svg: a picture of each solved puzzle (givens in bold), one <svg> per line"
                                 if "svg" in formats else ""))
        sub.add_argument("--quiet", action="store_true", help="no progress bar")
        return sub

    solve = command("solve", "print the solution of each puzzle",
                    "Print the solution of every puzzle, one output line per input line, in order.",
                    f"sudoku solve {_EXAMPLE}", "sudoku solve puzzles.txt more.txt",
                    "sudoku solve kaggle.csv --jobs 0", "sudoku solve --variant killer examples/killer.txt",
                    "sudoku solve --symbols 0-F examples/hex16.txt --pretty",
                    "sudoku solve examples/6x6.txt --format svg > grids.svg", formats=(*FORMATS, "svg"))
    count = command("count", "print the number of solutions of each puzzle",
                    "Print the number of solutions of every puzzle, one line per input line. A count that "
                    "stopped at --limit, --max-nodes or Ctrl-C is a lower bound, written with a + (5+). "
                    "With --jobs, a puzzle that comes alone has its search split over the threads.",
                    "sudoku count puzzles.txt --unique", "sudoku count 1............... --limit 10",
                    "sudoku count examples/6x6.txt --format jsonl", formats=("line", "csv", "jsonl"))
    for sub in (solve, count):
        sub.add_argument("--unique", action="store_true",
                         help="prove each solution unique (stop at 2); mark and report those that are not")
        sub.add_argument("--max-nodes", type=_POSITIVE, metavar="N",
                         help=f"give up on a puzzle after N search nodes (exit status {OUT_OF_NODES})")
        sub.add_argument("--jobs", type=_NATURAL, default=1, metavar="N",
                         help="solve on N threads, 0 for one per core (default: %(default)s)")
        sub.add_argument("--dask", metavar="WHERE",
                         help="solve on a Dask cluster: 'local' (one process per core) or a scheduler's "
                              "address, tcp://host:8786 (needs the dist extra); answers stay in order")
        sub.add_argument("--stats", action="store_true", help="print counts, time and speed on stderr")
    solve.add_argument("--pretty", action="store_true", help="the same as --format pretty")
    count.add_argument("--limit", type=_POSITIVE, metavar="K", help="stop counting at K solutions")

    rate = command("rate", "rate each puzzle: a score and a level from easy to diabolical",
                   "Print each puzzle's difficulty: log2(1 + the search nodes past the forced moves), "
                   "averaged over several orders of the search, and its level ("
                   + ", ".join(f"{name} from {least:g}" if least else f"{name} below {list(LEVELS.values())[1]:g}"
                               for name, least in LEVELS.items())
                   + "). Only a puzzle with one solution has a rating.",
                   "sudoku rate top1465.txt --stats", "sudoku rate examples/6x6.txt",
                   "sudoku rate --variant x examples/x.txt", formats=("line", "csv", "jsonl"))
    rate.add_argument("--scale", choices=SCALES, default="search",
                      help="search: the search's nodes past the forced moves (the default); hodoku: HoDoKu's score "
                           "and level (" + ", ".join(HODOKU_LEVELS) + ") from a solve in human techniques, "
                           "with the steps it took")
    rate.add_argument("--jobs", type=_NATURAL, default=1, metavar="N", help="rate on N threads, 0 for one per core")
    rate.add_argument("--stats", action="store_true", help="print the median, quartiles, levels and speed on stderr")

    shuffle = command("shuffle", "disguise each puzzle: relabel digits, permute rows, columns, bands, stacks",
                      "Print each puzzle transformed so that it keeps its solutions (and its difficulty): "
                      "values relabelled, rows permuted within bands, bands permuted, columns within "
                      "stacks, stacks, perhaps transposed. A variant keeps its rules: X-sudoku and windoku "
                      "get relabellings and mirror images, a jigsaw relabellings; a killer is refused. Old "
                      "generators made 'new' puzzles this way.",
                      "sudoku shuffle puzzles.txt --seed 7", f"sudoku shuffle {_EXAMPLE}")
    shuffle.add_argument("--seed", type=_NATURAL, metavar="S", help="draw the transformations from S (reproducible)")

    explain = command("explain", "explain the solve of each puzzle step by step",
                      "Print the search for each puzzle's solution in its own words: forced moves (a cell "
                      "with one value left, a value with one place left in a row, column, box or other "
                      "unit, a cage with one set of values left), guesses with their alternatives, dead "
                      "ends and backtracks, then the grid.",
                      f"sudoku explain {_EXAMPLE}", "sudoku explain examples/6x6.txt --steps 5",
                      f"sudoku explain --human {_EXAMPLE}", formats=("line", "csv", "jsonl"))
    command("hint", "the next step of each puzzle in human terms, as HoDoKu gives it",
            "Print, for each puzzle, the step a person would take next, as HoDoKu picks it: the technique "
            "(singles, intersections, subsets, fish, wings, uniqueness, colouring, chains; HoDoKu's order), "
            "and what it places or removes, in HoDoKu's notation (Naked Single: r5c5=5). Only a puzzle with "
            "one solution has one.",
            f"sudoku hint {_EXAMPLE}", "sudoku hint examples/top20.txt --format jsonl",
            formats=("line", "csv", "jsonl"))
    explain.add_argument("--human", action="store_true",
                         help="in human techniques, as HoDoKu solves (sudoku hint gives the first step); where none "
                              "applies the search takes over")
    explain.add_argument("--full", action="store_true", help="every step, however many")
    explain.add_argument("--steps", type=_POSITIVE, default=explainer.STEPS, metavar="N",
                         help="steps shown before the rest is summed up (default %(default)s)")
    explain.add_argument("--max-nodes", type=_budget, default=explainer.MAX_NODES, metavar="N",
                         help="give up on a puzzle after N search nodes, saying how far it got (exit "
                              f"status {OUT_OF_NODES}; default %(default)s; none: no budget)")

    generate = commands.add_parser(
        "generate", help="make new puzzles with one solution each",
        description=textwrap.fill(
            "Print new puzzles, one per line: a random solved grid (a seeded search), then givens taken "
            "away while the solution stays unique, down to a minimal puzzle.", 79),
        epilog=_examples("sudoku generate 10 --seed 1 --symmetric", "sudoku generate 5 --difficulty diabolical",
                         "sudoku generate 3 --size 6 --box 3x2", "sudoku generate 2 --variant x --size 16"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    generate.add_argument("count", type=_POSITIVE, help="how many puzzles")
    generate.add_argument("--size", type=_POSITIVE, metavar="N",
                          help="the grid's side: 4 to 16 (default 9, or the regions' grid)")
    _shape_options(generate)
    generate.add_argument("--variant", choices=["standard", "x", "windoku", "hyper", "jigsaw"], default="standard",
                          help="the rules (killers are not made: their cages would have to be drawn too)")
    generate.add_argument("--regions", metavar="LAYOUT",
                          help="a jigsaw's regions: a grid of N labels, N cells each (any N, primes included)")
    generate.add_argument("--seed", type=_NATURAL, metavar="S", help="draw everything from S (reproducible)")
    generate.add_argument("--symmetric", action="store_true", help="givens symmetric under a half turn")
    generate.add_argument("--clues", type=_NATURAL, metavar="K",
                          help="stop at K givens (drawing grids until one gets there)")
    generate.add_argument("--difficulty", choices=list(dict.fromkeys([*LEVELS, *HODOKU_LEVELS])),
                          help="only puzzles rated at this level (of --scale)")
    generate.add_argument("--scale", choices=SCALES, default="search",
                          help="the scale of --difficulty: search (" + ", ".join(LEVELS) + "; the default) or "
                               "hodoku (" + ", ".join(HODOKU_LEVELS) + ")")
    generate.add_argument("--quick", action="store_true", help="stop at the first given that must stay (not minimal)")
    generate.add_argument("--tries", type=_POSITIVE, default=TRIES, metavar="T",
                          help="puzzles drawn at most for each one printed, for --clues and --difficulty "
                               "(default %(default)s)")
    generate.add_argument("--stats", action="store_true", help="print the time and speed on stderr")
    generate.add_argument("--format", choices=FORMATS, default="line",
                          help="line (the default), pretty (grids), csv or jsonl")
    generate.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def _shape_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--box", metavar="RxC",
                     help="boxes of R rows and C columns (2x3 for 6x6, 3x4 for 12x12); default: the "
                          "squarest that fits the puzzle's size")
    sub.add_argument("--symbols", metavar="SPEC",
                     help="the values' characters in order, ranges allowed: 0-F or 1-9A-G for 16x16 "
                          "(default 1-9 then A-Z); '.' is a blank, and 0 too when it is no symbol")
