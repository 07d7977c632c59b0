"""Solving: one puzzle, or a stream of millions in chunks through the engine's batch kernel.

Each chunk of puzzles becomes one 2-D uint8 array and one kernel call ([`dlx.Batch`][dlx.Batch] on the
cached problem of its size): no per-puzzle allocation or Python in the search. Chunks may run on
threads (``jobs``), since the kernel releases the GIL; results always come back in input order.
"""
from __future__ import annotations

import functools
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np

import dlx
from dlx import checks, parallel, status
from dlx.checks import UNLIMITED, check_count

from . import encode, variants
from .grid import Box, Puzzle, PuzzleError, Shape, clashes, parse_lines81, parse_shaped, texts
from .pipeline import map_chunks
from .variants import Variant, VariantLike

#: The fewest and the most puzzles per kernel call of `solve_array`, which makes about eight
#: chunks per thread: enough to even out hard and easy chunks, few enough that the Python per call
#: (some 50 microseconds) stays far below the kernels' time.
ARRAY_CHUNK_MIN, ARRAY_CHUNK = 32, 8192

#: ``Result.status`` values, from dlx's one vocabulary (each equals its name: ``"solved"``, ...)
SOLVED, NO_SOLUTION, INVALID, MAX_NODES = (dlx.Status.SOLVED, dlx.Status.NO_SOLUTION, dlx.Status.INVALID,
                                           dlx.Status.MAX_NODES)


class Result(NamedTuple):
    """What became of one puzzle."""

    solution: str | None         # the first solution found, or None
    count: int  # type: ignore[assignment]  # shadows tuple.count: the field's name is the API
    status: dlx.Status           # "solved", "no solution", "invalid", or "max_nodes" (budget spent)
    nodes: int                   # search nodes (DLX1's count)
    error: PuzzleError | None    # why an invalid puzzle is invalid


class OutOfNodes(RuntimeError):
    """The node budget (``max_nodes``) ran out before the search was done: ``count`` solutions
    were found in ``nodes`` nodes, so the count is a lower bound."""

    def __init__(self, count: int, nodes: int) -> None:
        super().__init__(f"the budget of {nodes} nodes ran out after {count} solutions (a lower bound)")
        self.count, self.nodes = count, nodes


def solve(puzzle: Puzzle, *, max_nodes: int | None = None, box: Box = None, symbols: str | None = None,
          variant: VariantLike = None) -> str | None:
    """The solution of ``puzzle`` as one line, or None when it has none; [`OutOfNodes`][sudoku.solver.OutOfNodes] when
    ``max_nodes`` search nodes pass first.

    ``box``: the box shape (``"2x3"``; by default the squarest that fits); ``symbols``: the values'
    characters (such as ``"0-F"``), used for the answer too; ``variant``: ``"x"``, ``"windoku"``, or a
    [`sudoku.variants.Variant`][sudoku.variants.Variant] ([`sudoku.jigsaw`][sudoku.jigsaw],
    [`sudoku.killer`][sudoku.killer]). Raises [`PuzzleError`][sudoku.solver.PuzzleError] when the puzzle
    cannot be read or its givens contradict each other. A puzzle with several solutions gives the first
    one found.

    Examples:
        >>> solve("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
        '534678912672195348198342567859761423426853791713924856961537284287419635345286179'
        >>> solve("....|..34|...2|3...") is None       # givens fine, but no way to finish
        True
        >>> solve("1...2.|....5.|..26..|6.41..|2.....|..1...")     # 6x6: boxes of 2 rows, 3 columns
        '135426426351312645654132263514541263'
    """
    result = _one(puzzle, 1, max_nodes, box, symbols, variant)
    if result.status == MAX_NODES and result.solution is None:
        raise OutOfNodes(0, result.nodes)
    return result.solution


class Interrupted(KeyboardInterrupt):
    """Ctrl-C while one puzzle was counted by a search of its own ([`count`][sudoku.solver.count] with
    ``jobs``, [`count_one`][sudoku.solver.count_one]): ``count`` solutions were found so far, in
    ``nodes`` nodes (a lower bound)."""

    def __init__(self, count: int, nodes: int) -> None:
        super().__init__()
        self.count, self.nodes = count, nodes


def count(puzzle: Puzzle, limit: int | None = None, *, max_nodes: int | None = None, box: Box = None,
          symbols: str | None = None, variant: VariantLike = None, jobs: int | None = 1) -> int:
    """The number of solutions of ``puzzle``, counting no further than ``limit``, within ``max_nodes``
    search nodes ([`OutOfNodes`][sudoku.solver.OutOfNodes] when they run out first). ``box``,
    ``symbols``, ``variant``: as for [`solve`][sudoku.solver.solve]. ``jobs`` other than 1 (None: one
    per core) counts with a search of its own split over that many threads
    ([`count_one`][sudoku.solver.count_one]), for a puzzle with very many solutions; Ctrl-C then raises
    [`Interrupted`][sudoku.solver.Interrupted] with the count so far.

    Examples:
        >>> count("....|..34|...2|3..."), count("1...............")
        (0, 72)
        >>> count("1...............", limit=10)
        10
        >>> count("." * 81, max_nodes=1000)
        Traceback (most recent call last):
        ...
        sudoku.solver.OutOfNodes: the budget of 1000 nodes ran out after 91 solutions (a lower bound)
    """
    limit = check_count(limit, "limit", 1)
    if type(jobs) is int and jobs == 1:
        result = _one(puzzle, limit, max_nodes, box, symbols, variant)
    else:
        result = count_one(puzzle, limit, max_nodes=max_nodes, box=box, symbols=symbols, variant=variant,
                           jobs=jobs)
        if result.error is not None:
            raise result.error
    if result.status == MAX_NODES:
        raise OutOfNodes(result.count, result.nodes)
    return result.count


def count_one(puzzle: Puzzle, limit: int | None = None, *, max_nodes: int | None = None, box: Box = None,
              symbols: str | None = None, variant: VariantLike = None, jobs: int | None = 1) -> Result:
    """Count the solutions of one puzzle with a search of its own (not a batch row), on ``jobs`` threads
    (None: one per core): what is left once the givens are placed is one exact-cover problem, searched
    whole or split ([`dlx.parallel`][dlx.parallel]). Ctrl-C raises
    [`Interrupted`][sudoku.solver.Interrupted] with the count so far (0 before the search began). A
    puzzle that cannot be read is a result with status ``"invalid"``; ``solution`` is None.

    Examples:
        >>> count_one("1...............", jobs=2).count
        72

        Cost: building the problem of what is left (milliseconds for 9x9), then the search; threads
        pay where the count runs to millions of solutions."""
    workers = checks.jobs(jobs)
    try:
        try:
            values, shape, rules = variants.read(puzzle, box=box, symbols=symbols, variant=variant)
        except PuzzleError as e:
            return Result(None, 0, INVALID, 0, e)
        problem, _ = encode.remaining(values, shape, rules)
        if problem is None:
            return Result(None, 1, SOLVED, 0, None)
        if workers == 1:
            with problem.search(limit=limit, max_nodes=max_nodes) as run:
                try:
                    found = run.count()
                except KeyboardInterrupt:
                    raise Interrupted(run.stats.solutions, run.stats.nodes) from None
                stats = run.stats
        else:
            try:
                found = problem.count(limit, max_nodes=max_nodes, jobs=workers)
            except parallel.Interrupted as e:
                raise Interrupted(e.so_far.count, e.so_far.stats.nodes) from None
            assert problem.stats is not None, "a count leaves its stats"
            stats = problem.stats
    except Interrupted:
        raise
    except KeyboardInterrupt:
        raise Interrupted(0, 0) from None
    code = MAX_NODES if stats.status == dlx.Status.MAX_NODES else SOLVED if found else NO_SOLUTION
    return Result(None, found, code, stats.nodes, None)


def is_unique(puzzle: Puzzle, *, max_nodes: int | None = None, box: Box = None, symbols: str | None = None,
              variant: VariantLike = None) -> bool:
    """True when ``puzzle`` has exactly one solution (the search stops at the second);
    [`OutOfNodes`][sudoku.solver.OutOfNodes] when ``max_nodes`` search nodes pass before the answer is known.

    Examples:
        >>> is_unique("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
        True
    """
    result = _one(puzzle, 2, max_nodes, box, symbols, variant)
    if result.status == MAX_NODES and result.count < 2:
        raise OutOfNodes(result.count, result.nodes)
    return result.count == 1


def _one(puzzle: Puzzle, limit: int, max_nodes: int | None, box: Box, symbols: str | None,
         variant: VariantLike) -> Result:
    result = solve_chunk([puzzle], limit, max_nodes=max_nodes, box=box, symbols=symbols,
                         variant=variants.named(variant), strict=True)[0]
    if result.error is not None:
        raise result.error
    return result


def solve_many(puzzles: Iterable, *, jobs: int | None = 1, box: Box = None, symbols: str | None = None,
               variant: VariantLike = None) -> Iterator[str | None]:
    """Solutions of many puzzles, lazily and in input order (None for a puzzle without one).

    ``puzzles`` may be any iterable (a file's lines, newlines and all; a generator): it is read a chunk
    at a time, so memory stays constant however many there are. ``jobs`` threads solve chunks side by
    side (0 or None: one per core). A puzzle that cannot be read raises
    [`PuzzleError`][sudoku.solver.PuzzleError] when its turn comes, numbered from 1 as the lines of a
    file are; use [`solve_all`][sudoku.solver.solve_all] to get every outcome without exceptions, and
    [`sudoku.read_puzzles`][sudoku.read_puzzles] for files with comments, headers or grids over several
    lines.

    Examples:
        >>> list(solve_many(["....|..34|...2|3...", ".2.3|1...|.14.|...."]))
        [None, '4213132431422431']
    """
    for index, result in enumerate(solve_all(puzzles, jobs=jobs, box=box, symbols=symbols, variant=variant), 1):
        if result.error is not None:
            raise PuzzleError(f"puzzle {index}: {result.error.reason}")
        yield result.solution


def solve_all(puzzles: Iterable, *, limit: int = 1, max_nodes: int | None = None, jobs: int | None = 1,
              client: Any = None, box: Box = None, symbols: str | None = None,
              variant: VariantLike = None) -> Iterator[Result]:
    """A [`Result`][sudoku.solver.Result] for every puzzle, in input order, counting up to ``limit`` solutions
    each (``limit=2`` proves uniqueness) within ``max_nodes`` nodes each. Never raises for a bad
    puzzle: its result says why. ``jobs``: threads (0 or None: one per core); ``client``: solve on
    a Dask cluster instead (see `map_chunks`)."""
    return map_chunks(functools.partial(_solve_chunk, limit=limit, max_nodes=max_nodes, box=box, symbols=symbols,
                                        variant=variants.named(variant)),
                      puzzles, jobs=jobs, flatten=True, client=client)


def _solve_chunk(chunk: list, stop: threading.Event | None = None, **how: Any) -> list[Result]:
    return solve_chunk(chunk, stop=stop, **how)


class Solved(NamedTuple):
    """What became of many puzzles, as arrays (row ``k`` for puzzle ``k``): ``grid``, the first
    solution's values (zeros where there is none); ``counts`` (up to the limit), ``nodes``, and
    ``status`` (codes of [`dlx.status`][dlx.status]: SOLVED, NO_SOLUTION, INVALID; ``dlx.status.of_code``
    names them). No Python object per puzzle: `sudoku.grid.lines` turns ``grid`` into text."""

    grid: np.ndarray
    counts: np.ndarray
    nodes: np.ndarray
    status: np.ndarray


def solve_array(grid: Any, *, limit: int = 1, jobs: int | None = 1, box: Box = None) -> Solved:
    """Solve many puzzles of one size given as an array of values (``(n, N*N)``, 0 for blanks;
    [`sudoku.grid.read_array`][sudoku.grid.read_array] reads a file of 81-character lines into one), counting up to
    ``limit`` solutions each, on ``jobs`` threads (0 or None: one per core); ``box``: the box shape
    where it is not the squarest (see [`sudoku.grid.Shape.of`][sudoku.grid.Shape.of]). A row with a value that is no
    cell's (not a whole number from 0 to N, such as the 255 that [`read_array`][sudoku.grid.read_array]
    gives a character it cannot read) gets status INVALID; the other rows are solved as ever.

    All the work per puzzle is in the kernel or whole-array numpy, outside the GIL, so threads
    scale even on easy puzzles; the only Python is per chunk (about eight chunks per thread, from
    ``ARRAY_CHUNK_MIN`` to ``ARRAY_CHUNK`` puzzles).

    Examples:
        >>> from sudoku.grid import lines, parse
        >>> solved = solve_array(parse("1...............")[None, :], limit=10)
        >>> solved.counts.tolist(), lines(solved.grid).split()
        ([10], ['1234341221434321'])
    """
    grid = np.ascontiguousarray(grid)
    if grid.ndim != 2:
        raise ValueError(f"grid must be 2-D (one puzzle per row), not of shape {grid.shape}")
    try:
        shape = Shape.of(grid.shape[1], box)
    except PuzzleError as e:
        raise ValueError(f"a row of {grid.shape[1]} cells is no sudoku: {e}") from None
    limit = check_count(limit, "limit", 1)
    jobs = checks.jobs(jobs)
    grid, unreadable = _cells_or_blank(grid, shape.size)
    rows = grid.shape[0]
    solved = Solved(np.zeros(grid.shape, np.uint8), np.zeros(rows, np.int64), np.zeros(rows, np.int64),
                    np.zeros(rows, np.uint8))
    solver = encode.batch(shape)

    def one(start: int) -> None:
        # the kernel writes into the slices of ``solved``: nothing allocated or copied per chunk
        solver.solve(grid[start:start + size], limit, out=dlx.BatchResult(*(a[start:start + size] for a in solved)))

    # a few chunks per thread (balance), each large (Python per chunk, outside the kernel, is
    # what threads wait for one another on)
    size = max(ARRAY_CHUNK_MIN, min(ARRAY_CHUNK, -(-rows // (8 * jobs))))
    starts = range(0, rows, size)
    if jobs == 1 or rows <= size:
        for start in starts:
            one(start)
    else:
        with ThreadPoolExecutor(jobs) as pool:
            for _ in pool.map(one, starts):
                pass
    if unreadable.any():
        solved.status[unreadable] = status.INVALID
        solved.counts[unreadable] = 0
        solved.nodes[unreadable] = 0
        solved.grid[unreadable] = 0
    return solved


def _cells_or_blank(grid: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``grid`` as uint8 values with every row that holds a value other than a whole number from
    0 to ``n`` blanked, and which rows those were. Cost: one comparison per value."""
    kind = grid.dtype.kind
    if kind == "b":
        grid = grid.astype(np.uint8)
        kind = "u"
    if kind in "iu":
        bad = np.asarray(((grid < 0) | (grid > n)).any(axis=1))
    elif kind == "f":
        with np.errstate(invalid="ignore"):
            bad = np.asarray((~np.isfinite(grid) | (grid != np.floor(grid)) | (grid < 0) | (grid > n)).any(axis=1))
    else:
        raise ValueError(f"grid must hold whole numbers, not {grid.dtype} values")
    if bad.any():
        grid = np.where(bad[:, None], 0, grid)
    return np.ascontiguousarray(grid, dtype=np.uint8), bad


def solve_chunk(puzzles: list, limit: int = 1, *, stop: threading.Event | None = None,
                max_nodes: int | None = None, box: Box = None, symbols: str | None = None,
                variant: Variant | None = None, variants_each: list | None = None,
                strict: bool = False) -> list[Result]:
    """Results for a list of puzzles (any form [`parse`][sudoku.parse] reads), one kernel call per size and
    variant. ``variants_each``: a variant per puzzle (for jigsaw and killer layouts read with each
    puzzle), else ``variant`` for all. When ``stop`` is set the puzzles not solved yet get status
    ``"stopped"``. ``strict``: raise a bad puzzle's [`PuzzleError`][sudoku.solver.PuzzleError] at once."""
    budget = check_count(max_nodes, "max_nodes")
    plain = box is None and symbols is None and variant is None and variants_each is None
    if plain and puzzles and type(puzzles[0]) is str and len(puzzles[0]) != 81:
        # lines as a file gives them, newline and all: strip, and they may take the fast path
        puzzles = [p.rstrip("\r\n") if type(p) is str else p for p in puzzles]
    if plain and all(type(p) is str and len(p) == 81 for p in puzzles):
        # the common case, 81-character lines: read them all at once
        grid, ok = parse_lines81(puzzles)
        if ok.all():
            return _solve_grid(grid, limit, stop, budget)
    results: list = [None] * len(puzzles)
    values: list = [None] * len(puzzles)
    shapes: list = [None] * len(puzzles)        # each puzzle's Shape, derived once, as it is read
    if plain:
        lines = [k for k, p in enumerate(puzzles) if type(p) is str and len(p) == 81]
        if lines:
            nine = Shape.of(81)
            grid, ok = parse_lines81([puzzles[k] for k in lines])
            for k, row, good in zip(lines, grid, ok):
                if good:
                    values[k], shapes[k] = row, nine
    for k, p in enumerate(puzzles):
        if values[k] is None:
            try:
                rules = variant if variants_each is None else variants_each[k]
                values[k], shapes[k] = parse_shaped(p, box=box, symbols=symbols, boxes=rules is None or rules.boxes)
                if rules is not None:
                    rules.accept(shapes[k])
            except PuzzleError as e:
                if strict:
                    raise
                results[k] = Result(None, 0, INVALID, 0, e)
    by_kind: dict = {}
    for k in range(len(puzzles)):
        if results[k] is None:
            rules = variant if variants_each is None else variants_each[k]
            by_kind.setdefault((shapes[k], rules), []).append(k)
    for (shape, rules), ks in by_kind.items():
        for k, result in zip(ks, _solve_grid(np.stack([values[k] for k in ks]), limit, stop, budget,
                                             shape, symbols, rules)):
            results[k] = result
    return results


def _solve_grid(grid: np.ndarray, limit: int, stop: threading.Event | None = None, max_nodes: int = UNLIMITED,
                shape: Shape | None = None, symbols: str | None = None, rules: Variant | None = None) -> list[Result]:
    """Solve the puzzles of one size and variant, one per row of ``grid``, in one kernel call."""
    shape = shape or Shape.of(grid.shape[1])
    answer = encode.batch(shape, rules).solve(
        grid, limit, max_nodes=None if max_nodes == UNLIMITED else max_nodes, stop=stop)
    solutions = texts(answer.answers, symbols)
    counts, nodes = answer.counts.tolist(), answer.nodes.tolist()
    make = Result._make
    return [make((solution, count, SOLVED, node, None)) if code == status.SOLVED
            else _failure(code, count, node, solution, grid[k], shape, symbols, rules)
            for k, (solution, count, node, code)
            in enumerate(zip(solutions, counts, nodes, answer.status.tolist()))]


def _failure(code: int, count: int, nodes: int, solution: str, values: np.ndarray, shape: Shape, symbols: str | None,
             rules: Variant | None = None) -> Result:
    if code == status.NO_SOLUTION:
        return Result(None, 0, NO_SOLUTION, nodes, None)
    if code == status.MAX_NODES:        # the count so far, and the first solution if one was found
        return Result(solution if count else None, count, MAX_NODES, nodes, None)
    if code != status.INVALID:          # stopped
        return Result(None, 0, status.of_code(code), nodes, None)
    reason = (clashes(values, shape, symbols, boxes=shape.boxes)
              or (rules.clash(values, symbols, shape) if rules is not None else None)
              or "the givens contradict each other")
    return Result(None, 0, INVALID, 0, PuzzleError(reason))
