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


@dataclass(frozen=True)
class SearchStats:
    """What the last search did, counted as Knuth's DLX1 counts it.

    ``nodes``: levels entered (dead ends included) plus one per solution; ``updates``: items covered
    plus nodes unlinked; ``solutions``: solutions visited; ``seconds``: time spent in the kernel;
    ``complete``: True when the whole search tree was explored (no limit cut it short).
    """

    nodes: int
    updates: int
    solutions: int
    seconds: float
    complete: bool


def check_limit(limit: int | None) -> int | None:
    if limit is None:
        return None
    limit = operator.index(limit)
    if limit < 0:
        raise ValueError(f"limit must be None or a non-negative integer, not {limit}")
    return limit


class _Run:
    """One search over one problem."""

    def __init__(self, problem) -> None:
        self.problem = problem
        self.owner = problem._lock.acquire(blocking=False)
        if self.owner:
            links = (problem._llink, problem._rlink, problem._length, problem._ulink, problem._dlink)
        else:
            # the problem's links are in use (mid-search), so build a fresh set
            links = problem._build_links()
            links = links[:3] + links[4:]
        self.llink, self.rlink, self.length, self.ulink, self.dlink = links
        self.top = problem._top
        # every level covers at least one more primary item, so n_primary levels at most
        self.choice = np.zeros(problem.n_primary + 1, np.uint32)
        self.state = np.zeros(2, np.int64)
        self.counters = np.zeros(3, np.int64)
        self.seconds = 0.0
        self.exhausted = False
        self.closed = False
        self.out = self.ends = np.zeros(0, np.int32)
        problem.stats = self.stats()

    def advance(self, want: int) -> int:
        """Run the kernel until ``want`` more solutions (or the end); returns how many it found."""
        started = time.perf_counter()
        found = kernels.search(self.llink, self.rlink, self.length, self.top, self.ulink, self.dlink,
                               self.choice, self.state, self.counters, want, self.out, self.ends)
        self.seconds += time.perf_counter() - started
        self.exhausted = self.state[kernels.PHASE] == kernels.DONE
        self.problem.stats = self.stats()
        return int(found)

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
        return SearchStats(nodes, updates, solutions, self.seconds, bool(self.exhausted))

    def close(self) -> None:
        """End the run: put back what a paused search still has covered and free the links."""
        if self.closed:
            return
        self.closed = True
        kernels.unwind(self.llink, self.rlink, self.length, self.top, self.ulink, self.dlink,
                       self.choice, self.state)
        if self.owner:
            self.problem._lock.release()


def count(problem, limit: int | None) -> int:
    run = _Run(problem)
    try:
        return run.advance(_UNLIMITED if limit is None else limit) if limit != 0 else 0
    finally:
        run.close()


def iterate(problem, limit: int | None) -> Iterator[tuple[int, ...]]:
    run = _Run(problem)
    try:
        batch, left = 1, limit
        while left != 0 and not run.exhausted:
            found = run.solutions(batch if left is None else min(batch, left))
            if left is not None:
                left -= len(found)
            yield from found
            batch = min(2 * batch, MAX_BATCH)
    finally:
        run.close()
