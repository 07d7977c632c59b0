"""The Python side of a search: first solution, lazy iteration, counts and statistics.

Each search is a :class:`_Run`: the kernel's state (``choice`` stack, phase, counters) in small arrays,
so the kernel can stop after a solution and resume where it was. A run works in place on the
problem's links when no other run holds them, else on freshly built ones, so iterators may be interleaved
or run in threads. Whatever way a run ends (exhausted, limit reached, iterator abandoned), the links
it used are back exactly as built.
"""
from __future__ import annotations

import operator
import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from . import kernels

#: Solutions per kernel call while iterating start at 1 (the first answer comes at once) and double
#: up to this, so that a long iteration pays the call overhead rarely.
MAX_BATCH = 4096
_UNLIMITED = np.iinfo(np.int64).max


#: Why a search stopped, as ``SearchStats.status`` says it.
COMPLETE = "complete"      # the whole search tree was explored
LIMIT = "limit"            # the solution limit was reached
MAX_NODES = "max_nodes"    # the node budget ran out
STOPPED = "stopped"        # the iterator was closed or abandoned before the end
RUNNING = "running"        # an iterator is still going


@dataclass(frozen=True)
class SearchStats:
    """What the last search did, counted as Knuth's DLX1 counts it.

    ``nodes``: levels entered (dead ends included) plus one per solution; ``updates``: items covered
    plus nodes unlinked; ``solutions``: solutions visited; ``seconds``: time spent in the kernel;
    ``status``: why it stopped: ``"complete"`` (the whole tree was explored), ``"limit"`` (the
    solution limit was reached), ``"max_nodes"`` (the node budget ran out), ``"stopped"`` (the
    iterator was closed early) or ``"running"`` (the iterator is not finished).
    """

    nodes: int
    updates: int
    solutions: int
    seconds: float
    status: str

    @property
    def complete(self) -> bool:
        """True when the whole search tree was explored, so ``solutions`` is the full count."""
        return self.status == COMPLETE


def check_limit(limit: int | None, name: str = "limit") -> int | None:
    if limit is None:
        return None
    limit = operator.index(limit)
    if limit < 0:
        raise ValueError(f"{name} must be None or a non-negative integer, not {limit}")
    return limit


class _Run:
    """One search over one problem."""

    def __init__(self, problem, max_nodes: int | None) -> None:
        self.problem = problem
        self.max_nodes = _UNLIMITED if max_nodes is None else max_nodes
        self.owner = problem._lock.acquire(blocking=False)
        if self.owner:
            links = (problem._llink, problem._rlink, problem._length, problem._ulink, problem._dlink)
        else:
            # the problem's links are in use (mid-search), so build a fresh set
            links = problem._build_links()
            links = links[:3] + links[4:]
        self.llink, self.rlink, self.length, self.ulink, self.dlink = links
        self.top = problem._top
        self.n1 = np.uint32(problem.n_primary)
        # every level covers at least one more primary item, so n_primary levels at most
        self.choice = np.zeros(problem.n_primary + 1, np.uint32)
        self.state = np.zeros(2, np.int64)
        self.counters = np.zeros(3, np.int64)
        self.seconds = 0.0
        self.status = RUNNING
        self.closed = False
        self.out = self.ends = np.zeros(0, np.int32)
        problem.stats = self.stats()

    def advance(self, want: int) -> int:
        """Run the kernel until ``want`` more solutions (or the end); returns how many it found."""
        started = time.perf_counter()
        found = kernels.search(self.llink, self.rlink, self.length, self.top, self.ulink, self.dlink,
                               self.n1, self.choice, self.state, self.counters, want, self.max_nodes,
                               False, self.out, self.ends)
        self.seconds += time.perf_counter() - started
        phase = self.state[kernels.PHASE]
        if phase == kernels.DONE:
            self.status = COMPLETE
        elif phase == kernels.SPENT:
            self.status = MAX_NODES
        self.problem.stats = self.stats()
        return int(found)

    @property
    def over(self) -> bool:
        return self.status != RUNNING

    def solutions(self, want: int) -> list[tuple[int, ...]]:
        """Up to ``want`` more solutions, each a sorted tuple of option numbers."""
        depth = self.choice.size
        if self.ends.size < want:
            self.ends = np.zeros(want, np.int32)
            self.out = np.zeros(max(depth, min(want * depth, 1 << 20)), np.int32)
        found = self.advance(want)
        ends = self.ends[:found].tolist()
        out = self.out
        return [tuple(sorted(out[a:b].tolist())) for a, b in zip([0, *ends], ends)]

    def stats(self) -> SearchStats:
        nodes, updates, solutions = self.counters.tolist()
        return SearchStats(nodes, updates, solutions, self.seconds, self.status)

    def close(self, status: str = STOPPED) -> None:
        """End the run: put back what a paused search still has covered and free the links.

        ``status`` says why, when the kernel did not end the search itself."""
        if self.closed:
            return
        self.closed = True
        if self.status == RUNNING:
            self.status = status
            self.problem.stats = self.stats()
        kernels.unwind(self.llink, self.rlink, self.length, self.top, self.ulink, self.dlink,
                       self.n1, self.choice, self.state)
        if self.owner:
            self.problem._lock.release()


def count(problem, limit: int | None, max_nodes: int | None) -> int:
    run = _Run(problem, max_nodes)
    found = 0
    try:
        if limit != 0:
            found = run.advance(_UNLIMITED if limit is None else limit)
        return found
    finally:
        run.close(LIMIT)


def iterate(problem, limit: int | None, max_nodes: int | None) -> Iterator[tuple[int, ...]]:
    run = _Run(problem, max_nodes)
    left = limit
    try:
        batch = 1
        while left != 0 and not run.over:
            found = run.solutions(batch if left is None else min(batch, left))
            if left is not None:
                left -= len(found)
            yield from found
            batch = min(2 * batch, MAX_BATCH)
    finally:
        run.close(LIMIT if left == 0 else STOPPED)
