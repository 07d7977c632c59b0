"""Many variants of one problem, each with some options selected in advance, in one kernel call.

This is the engine's entry point for puzzle solvers: a sudoku is the one exact-cover problem of
its size with the givens' options selected. Dancing links undo exactly what they did, so the links
are built once; for each variant the kernel selects the options, searches, and takes them back.
"""
from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from . import kernels
from .problem import ExactCover, ProblemError

_UNLIMITED = np.iinfo(np.int64).max

#: ``BatchResult.status`` values.
NO_SOLUTION = kernels.NO_SOLUTION
SOLVED = kernels.SOLVED
INVALID = kernels.INVALID            # a value too large, or options that clash with each other
OUT_OF_NODES = kernels.OUT_OF_NODES  # the node budget ran out first; ``counts`` is a lower bound
STATUS_NAMES = {NO_SOLUTION: "no solution", SOLVED: "solved", INVALID: "invalid",
                OUT_OF_NODES: "max_nodes"}


class BatchResult(NamedTuple):
    """What :meth:`Batch.solve` found, one entry per row."""

    answers: np.ndarray   # (rows, groups) uint8: the first solution as a value per group, 0 if none
    counts: np.ndarray    # int64: solutions found, at most the limit
    nodes: np.ndarray     # int64: search nodes, counted as DLX1 counts them
    status: np.ndarray    # uint8: SOLVED, NO_SOLUTION, INVALID or OUT_OF_NODES


class Batch:
    """Solve variants of ``problem`` given as rows of values, one value per group of options.

    The options are split into groups of consecutive options of sizes ``group_sizes`` (their sum
    may be less than the number of options: later options belong to no group). In a row, value
    ``v > 0`` for group ``j`` selects the ``v``-th option of that group before the search; 0
    selects nothing. Answers come back in the same form: each group's value in the first solution.

    Four queens, with the options grouped by board row (value = column):

    >>> from dlx import problems
    >>> queens = problems.queens(4)
    >>> [queens.option(k) for k in range(2)]       # row 0, columns 0 to 3, then row 1...
    [('r0', 'c0', 'b3'), ('r0', 'c1', 'a1', 'b4')]
    >>> batch = Batch(queens, [4, 4, 4, 4])
    >>> result = batch.solve([[0, 0, 0, 0], [2, 0, 0, 0], [1, 0, 0, 0], [1, 1, 0, 0]], limit=2)
    >>> result.answers.tolist()
    [[2, 4, 1, 3], [2, 4, 1, 3], [0, 0, 0, 0], [0, 0, 0, 0]]
    >>> result.counts.tolist(), [STATUS_NAMES[s] for s in result.status]
    ([2, 1, 0, 0], ['solved', 'solved', 'no solution', 'invalid'])

    Every call leaves the problem's links as built (``problem.check()`` passes). Calls may run in
    threads at the same time (the kernel releases the GIL): a call finding the links in use (by
    another call or a search of the problem) works on its own copy.
    """

    def __init__(self, problem: ExactCover, group_sizes: Sequence[int]) -> None:
        sizes = np.asarray(group_sizes, dtype=np.int64)
        if sizes.ndim != 1 or (sizes < 1).any() or (sizes > 255).any():
            raise ProblemError("group sizes must be a list of integers from 1 to 255")
        if sizes.sum() > problem.n_options:
            raise ProblemError(f"the groups hold {sizes.sum()} options, the problem has {problem.n_options}")
        self.problem = problem
        self.n_groups = sizes.size
        self.group_start = np.zeros(sizes.size + 1, np.int64)
        np.cumsum(sizes, out=self.group_start[1:])
        n_options = problem.n_options
        link_start = problem._link_start
        empty = np.flatnonzero(np.diff(link_start)[: self.group_start[-1]] == 0)
        if empty.size:
            raise ProblemError(f"option {empty[0]} has no primary item, so it cannot be selected")
        # nodes 1..N are item headers, N+1 the first spacer; each option is followed by a spacer
        self.first_node = (problem.n_items + 2 + link_start[:-1]
                           + np.arange(n_options)).astype(np.uint32)
        self.option_group = np.full(n_options, -1, np.int64)
        self.option_value = np.zeros(n_options, np.uint8)
        self._pristine = problem._build_links()   # to copy when the problem's links are in use
        grouped = self.group_start[-1]
        self.option_group[:grouped] = np.repeat(np.arange(sizes.size), sizes)
        self.option_value[:grouped] = np.arange(grouped) - np.repeat(self.group_start[:-1], sizes) + 1

    def solve(self, rows, limit: int = 1, *, max_nodes: int | None = None) -> BatchResult:
        """Solve every row of ``rows`` (a 2-D array of values, ``(n, groups)``), counting up to
        ``limit`` solutions each (``limit=2`` proves a solution unique) within ``max_nodes`` search
        nodes each."""
        rows = np.ascontiguousarray(rows, dtype=np.uint8)
        if rows.ndim != 2 or rows.shape[1] != self.n_groups:
            raise ValueError(f"rows must have shape (n, {self.n_groups}), not {rows.shape}")
        limit = operator.index(limit)
        if limit < 1:
            raise ValueError(f"limit must be at least 1, not {limit}")
        max_nodes = _UNLIMITED if max_nodes is None else operator.index(max_nodes)
        n = rows.shape[0]
        result = BatchResult(np.empty(rows.shape, np.uint8), np.empty(n, np.int64),
                             np.empty(n, np.int64), np.empty(n, np.uint8))
        p = self.problem
        in_place = p._lock.acquire(blocking=False)
        try:
            if in_place:
                links = p._llink, p._rlink, p._length, p._top, p._ulink, p._dlink
            else:
                links = tuple(a.copy() for a in self._pristine)
            pristine = self._pristine[:3] + self._pristine[4:]      # top never changes
            kernels.solve_batch(*links, np.uint32(p.n_primary), *pristine, self.group_start,
                                self.first_node, self.option_group, self.option_value, rows,
                                limit, max_nodes, *result)
        finally:
            if in_place:
                p._lock.release()
        return result
