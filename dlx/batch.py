"""Many variants of one problem, each with some options selected in advance, in one kernel call.

This is the engine's entry point for puzzle solvers: a sudoku is the one exact-cover problem of
its size with the givens' options selected. The engine's structure is built once; for each variant
the kernel selects the options, searches, and puts the structure back (Dancing Links undo what
they did; dancing cells copy their sets back as built, so no row's answer depends on the rows
before it).
"""
from __future__ import annotations

import math
import numbers
import threading
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from . import engines
from .checks import check_count, whole
from .engines.batch import ROW, Groups, Results, Scratch
from .matrix import rectangle
from .model import ExactCover, ProblemError
from .search import WORK
from .status import INVALID, MAX_NODES, NO_SOLUTION, SOLVED, STOPPED, Status, of_code

__all__ = ["INVALID", "MAX_NODES", "NO_SOLUTION", "SOLVED", "STOPPED", "Batch", "BatchResult"]


class BatchResult(NamedTuple):
    """What [`Batch.solve`][dlx.batch.Batch.solve] found, one entry per row."""

    answers: np.ndarray   # (rows, groups) uint8: the first solution as a value per group, 0 if none
    counts: np.ndarray    # int64: solutions found, at most the limit
    nodes: np.ndarray     # int64: search nodes, counted as the engine's Knuth program counts them
    status: np.ndarray    # uint8 status codes: SOLVED, NO_SOLUTION, INVALID, MAX_NODES or STOPPED

    def statuses(self) -> list[Status]:
        """The status of every row by name (``"solved"``, ``"no solution"``, ...)."""
        return [of_code(code) for code in self.status.tolist()]


class Batch:
    """Solve variants of ``problem`` given as rows of values, one value per group of options.

    The options are split into groups of consecutive options of sizes ``group_sizes`` (their sum
    may be less than the number of options: later options belong to no group). In a row, value
    ``v > 0`` for group ``j`` selects the ``v``-th option of that group before the search; 0
    selects nothing. Answers come back in the same form: each group's value in the first solution.

    Four queens, with the options grouped by board row (value = column):

    Examples:
        >>> from dlx import problems
        >>> queens = problems.queens(4)
        >>> [queens.option(k) for k in range(2)]       # row 0, columns 0 to 3, then row 1...
        [('r0', 'c0', 'b3'), ('r0', 'c1', 'a1', 'b4')]
        >>> batch = Batch(queens, [4, 4, 4, 4])
        >>> result = batch.solve([[0, 0, 0, 0], [2, 0, 0, 0], [1, 0, 0, 0], [1, 1, 0, 0]], limit=2)
        >>> result.answers.tolist()
        [[2, 4, 1, 3], [2, 4, 1, 3], [0, 0, 0, 0], [0, 0, 0, 0]]
        >>> result.counts.tolist(), result.statuses()
        ([2, 1, 0, 0], ['solved', 'solved', 'no solution', 'invalid'])

        Every call leaves the problem's structure as built (``problem.check()`` passes). Calls may run
        in threads at the same time (the kernel releases the GIL): a call finding the structure in use
        (by another call or a search of the problem) works on its own copy.
    """

    def __init__(self, problem: ExactCover, group_sizes: Sequence[int], *,
                 engine: str = engines.DEFAULT) -> None:
        sizes = np.array([_group_size(s) for s in group_sizes], dtype=np.int64)
        if sizes.sum() > problem.n_options:
            raise ProblemError(f"the groups hold {sizes.sum()} options, the problem has {problem.n_options}")
        self.problem = problem
        self.n_groups = sizes.size
        self.group_sizes = sizes.astype(np.uint8)
        self.group_start = np.zeros(sizes.size + 1, np.int64)
        np.cumsum(sizes, out=self.group_start[1:])
        grouped = self.group_start[-1]
        empty = np.flatnonzero(np.diff(problem.engine_input.start)[:grouped] == 0)
        if empty.size:
            raise ProblemError(f"option {empty[0]} has no primary item, so it cannot be selected")
        self._prepared = problem.prepared(engines.batching(engine, problem.engine_input))
        self.engine = self._prepared.engine
        self._scratches = threading.local()
        n_options = problem.n_options
        option_group = np.full(n_options, -1, np.int64)
        option_value = np.zeros(n_options, np.uint8)
        option_group[:grouped] = np.repeat(np.arange(sizes.size), sizes)
        option_value[:grouped] = np.arange(grouped) - np.repeat(self.group_start[:-1], sizes) + 1
        self.groups = Groups(self.engine.first_nodes(problem.engine_input), self.group_start, option_group,
                              option_value)

    def solve(self, rows: Any, limit: int | None = 1, *, max_nodes: int | None = None,
              stop: threading.Event | None = None, out: BatchResult | None = None) -> BatchResult:
        """Solve every row of ``rows`` (a 2-D array of values, ``(n, groups)``), counting up to
        ``limit`` solutions each (``limit=2`` proves a solution unique) within ``max_nodes`` search
        nodes each (None: no limit).

        Every value must be a whole number from 0 to its group's size, in any numeric type: any
        other value (negative, too large, fractional, NaN) is a ValueError naming its row and
        column, raised before anything is solved. A row whose options clash is no error but
        status INVALID: that is a fact about the problem, not a mistake of the caller.

        The kernel comes back to Python every few milliseconds: Ctrl-C raises KeyboardInterrupt at
        once (the structure is put back first), and when ``stop`` is set the rows not finished get
        status STOPPED. Cost: one kernel call for the whole array; nothing is allocated per row.

        ``out``: a `BatchResult` whose arrays receive the results (C-contiguous, of the types
        above, one entry per row), so that a caller that solves a large array a slice at a time
        allocates nothing per slice; it is returned.
        """
        rows = self._values(rows)
        if out is not None and not _fits(out, rows.shape):
            raise ValueError(f"out must be a BatchResult of C-contiguous arrays for {rows.shape[0]} rows of "
                             f"{rows.shape[1]} groups (uint8 answers, int64 counts and nodes, uint8 status)")
        return self._solve(rows, check_count(limit, "limit", 1), check_count(max_nodes, "max_nodes"), stop, out)

    def _solve(self, rows: np.ndarray, limit: int, max_nodes: int, stop: threading.Event | None,
               out: BatchResult | None = None) -> BatchResult:
        """[`solve`][sudoku.solve] on arguments already checked (rows: C-contiguous uint8)."""
        n = rows.shape[0]
        result = out if out is not None else BatchResult(np.empty(rows.shape, np.uint8), np.empty(n, np.int64),
                                                         np.empty(n, np.int64), np.empty(n, np.uint8))
        prepared = self._prepared
        structure = prepared.acquire()
        scratch = self._scratch()
        done = False
        try:
            while not done:
                done = self.engine.solve_batch(structure, prepared.pristine, scratch, self.groups, rows, limit,
                                               max_nodes, WORK, Results(*result))
                if not done and stop is not None and stop.is_set():
                    row = int(scratch.where[ROW])
                    result.status[row:] = STOPPED
                    result.counts[row:] = 0
                    result.nodes[row:] = 0
                    result.answers[row:] = 0
                    break
        finally:
            if not done:
                self.engine.restore(structure, prepared.pristine)
            prepared.release(structure)
        return result

    def reduce(self, row: Any, units: Sequence[Sequence[int]] | None = None, *, keep: int = 0,
               minimal: bool = True, max_nodes: int | None = None) -> np.ndarray:
        """``row`` with values taken away while it keeps exactly one solution: the groups of each
        unit of ``units`` (default: every group alone, in order) go together, in the order given,
        if the row without them still has one solution; else they stay for good (taking more away
        only adds solutions). So the result is *minimal*: no unit can go. It stops at ``keep``
        values, and with ``minimal=False`` at the first unit that has to stay. ``max_nodes`` bounds
        each test after the first: a unit whose test needs more nodes stays (the row stays unique,
        but need not be minimal). This is how puzzles are made: a solution as the row, then its
        values taken away in a random order.

        Examples:
            >>> from dlx import problems
            >>> batch = Batch(problems.queens(4), [4, 4, 4, 4])
            >>> batch.reduce([2, 4, 1, 3]).tolist()          # one queen fixes the other three
            [0, 0, 0, 3]

            A row without exactly one solution is a ValueError (so is a value out of range). Cost: a
            search per unit: one call of the engine's reduction kernel (``Engine.reduce_row``; one
            that keeps the values selected between searches selects none again per test), or a batch
            row per test for an engine without one.
        """
        values = self._values(np.asarray(row)[None, :])[0].copy()
        if units is None:
            units = [[j] for j in range(self.n_groups)]
        flat = np.array([whole(j, "a group number") for unit in units for j in unit], dtype=np.int64)
        if flat.size and (flat.max() >= self.n_groups or np.unique(flat).size != flat.size):
            raise ValueError(f"units must name each group (0 to {self.n_groups - 1}) at most once")
        ends = np.cumsum([len(unit) for unit in units], dtype=np.int64)
        keep = whole(keep, "keep")
        budget = check_count(max_nodes, "max_nodes")
        prepared = self._prepared
        structure = prepared.acquire()
        try:
            count = self.engine.reduce_row(structure, prepared.pristine, self._scratch(), self.groups, values, flat,
                                           ends, keep, bool(minimal), budget)
        finally:
            prepared.release(structure)
        if count != 1:
            why = {-1: "its values clash", 0: "it has no solution"}.get(count, "it has more than one solution")
            raise ValueError(f"only a row with exactly one solution can be reduced: {why}")
        return values

    def _scratch(self) -> Scratch:
        """This thread's scratch arrays, made on its first call and reused after (one puzzle a call
        would otherwise spend more on allocating them than on solving)."""
        scratch = getattr(self._scratches, "scratch", None)
        if scratch is None:
            scratch = self._scratches.scratch = Scratch(self.engine.start(self._prepared.pristine), self.n_groups)
        scratch.where[:] = 0
        return scratch

    def _values(self, rows: Any) -> np.ndarray:
        """``rows`` as a C-contiguous uint8 array, every value checked before the cast (a cast
        would wrap 258 to 2 and truncate 2.7 to 2). Cost: one comparison per value."""
        a = rectangle(rows, "rows", ValueError)
        if a.dtype.kind in "USO" and a.size and isinstance(a.flat[0], (str, bytes)):
            raise ValueError(f"rows must hold whole numbers (each group's value, 0 for none), not text such as "
                             f"{str(a.flat[0])!r}")
        if a.ndim != 2 or a.shape[1] != self.n_groups:
            raise ValueError(f"rows must have shape (n, {self.n_groups}), not {a.shape}")
        kind = a.dtype.kind
        if a.dtype == np.uint8:
            bad = a > self.group_sizes
        elif kind in "iu":
            bad = (a < 0) | (a > self.group_sizes)
        elif kind == "f":
            with np.errstate(invalid="ignore"):
                bad = ~np.isfinite(a) | (a != np.floor(a)) | (a < 0) | (a > self.group_sizes)
        elif kind == "O":           # Python ints too big for numpy, or mixed types
            sizes = self.group_sizes.tolist()
            bad = np.array([[not _whole_in(v, size) for v, size in zip(row, sizes)] for row in a.tolist()],
                           dtype=bool).reshape(a.shape)
        else:
            raise ValueError(f"rows must hold whole numbers, not {a.dtype} values")
        if bad.any():
            r, c = np.argwhere(bad)[0]
            value = a[r, c]
            raise ValueError(f"rows[{r}, {c}] is {getattr(value, 'item', lambda: value)()!r}, not a whole "
                             f"number from 0 to {self.group_sizes[c]} (the size of group {c})")
        return np.ascontiguousarray(a, dtype=np.uint8)


def _fits(out: BatchResult, shape: tuple[int, int]) -> bool:
    """Whether ``out`` can take the results of rows of ``shape``."""
    wanted = (((shape, np.uint8), ((shape[0],), np.int64), ((shape[0],), np.int64), ((shape[0],), np.uint8)))
    return (isinstance(out, BatchResult) and all(
        isinstance(a, np.ndarray) and a.shape == want and a.dtype == dtype and a.flags.c_contiguous
        and a.flags.writeable for a, (want, dtype) in zip(out, wanted)))


def _group_size(size: int) -> int:
    if not _whole_in(size, 255) or size == 0:
        raise ProblemError(f"group sizes must be whole numbers from 1 to 255, not {size!r}")
    return int(size)


def _whole_in(value: object, top: int) -> bool:
    """Whether ``value`` is a number equal to a whole number from 0 to ``top`` (2.0 is, True is not)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        return False
    if isinstance(value, numbers.Integral):
        return 0 <= int(value) <= top
    return math.isfinite(value) and float(value).is_integer() and 0 <= float(value) <= top
