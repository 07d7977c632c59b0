"""A search run: lazy solutions, counts, limits, node budgets, stop and resume, and its statistics.

A [`Search`][dlx.search.Search] owns its machine (the kernel's state arrays) and its
[`SearchStats`][dlx.search.SearchStats], so runs never share anything but the problem. It works in place
on the engine's structure when no other run holds it, else on a copy (`dlx.engines.Prepared`). The
kernel returns to Python every ``WORK`` updates (a few milliseconds), which is where Ctrl-C is noticed:
KeyboardInterrupt reaches the caller at once and leaves the run paused and consistent, to resume or
close. Whatever way a run ends, the structure it used is back exactly as built.
"""
from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from . import engines, tracing
from .checks import UNLIMITED, check_count, past, whole
from .engines.base import CLEANSINGS, NODES, PHASE, SOLUTIONS, STOP, UPDATES, Machine
from .engines.problem import Problem
from .status import Status, of_code

#: Solutions per kernel call while iterating start at 1 (the first answer comes at once) and double
#: up to this, so that a long iteration pays the call overhead rarely.
MAX_BATCH = 4096
#: Updates per kernel call before it returns to Python (about 10-40 ms of search): often enough for
#: a prompt Ctrl-C, rarely enough to cost nothing (a return costs microseconds).
WORK = 1 << 22


@dataclass(frozen=True)
class SearchStats:
    """What a search did, counted as the Knuth program of its engine counts it.

    ``engine``: the name of the engine that searched (``"auto"`` names the one it chose); its
    figures are counted as that engine's Knuth program counts them (below): ``nodes`` (search
    nodes), ``updates`` and ``cleansings`` (0 without colours). ``solutions``: solutions visited;
    ``seconds``: time spent searching (not loading the kernels); ``status``: a `dlx.Status`:
    ``"complete"`` (the whole search tree was explored), ``"limit"`` (the solution limit was
    reached), ``"max_nodes"`` (the node budget ran out), ``"stopped"`` (stopped on request, or the
    iterator was closed early) or ``"running"``.

    Stats add up (``a + b``), as the parts of a split search do: counters and seconds add, and the
    sum is complete only when both parts are; otherwise it has the status of the first part that
    is not complete. Parts from different engines add up to engine ``"mixed"``.

    What each engine's figures count: [`dlx.engines.counting`][dlx.engines.counting] says it in words, and the
    engines' table of the architecture page (both read the registry).
    """

    nodes: int
    updates: int
    solutions: int
    seconds: float
    status: Status
    cleansings: int = 0
    engine: str = "dlx"

    @property
    def complete(self) -> bool:
        """True when the whole search tree was explored, so ``solutions`` is the full count."""
        return self.status == Status.COMPLETE

    @classmethod
    def of_state(cls, state: np.ndarray, seconds: float, status: Status, engine: str) -> SearchStats:
        """The stats of a run from its machine's ``state`` (the layout of [`dlx.engines.base`][dlx.engines.base])."""
        return cls(int(state[NODES]), int(state[UPDATES]), int(state[SOLUTIONS]), seconds, status,
                   int(state[CLEANSINGS]), engine)

    def __add__(self, other: SearchStats) -> SearchStats:
        if not isinstance(other, SearchStats):
            return NotImplemented
        status = self.status if self.status != Status.COMPLETE else other.status
        return SearchStats(self.nodes + other.nodes, self.updates + other.updates,
                           self.solutions + other.solutions, self.seconds + other.seconds, status,
                           self.cleansings + other.cleansings,
                           self.engine if self.engine == other.engine else "mixed")


class Search(Iterator[tuple[int, ...]]):
    """One search of a problem: an iterator over its solutions (sorted tuples of option numbers) that
    pauses, rather than ends, at its solution ``limit``, at ``max_nodes`` nodes, on
    [`stop`][dlx.search.Search.stop] and on Ctrl-C; [`resume`][dlx.search.Search.resume] lets it go on.
    Made by [`ExactCover.search`][dlx.model.ExactCover.search] (and, closing itself when it ends, by
    [`ExactCover.solutions`][dlx.model.ExactCover.solutions]).

    ``stats`` is this run's own; nodes, updates and solutions of the pieces of a paused and resumed run
    add up exactly to those of one uninterrupted run. A run with a ``seed`` searches a reordered copy of
    the problem ([`dlx.engines.problem.seeding`][dlx.engines.problem.seeding]) and speaks the problem's
    option numbers; one with ``trace`` records its steps ([`dlx.tracing`][dlx.tracing]). Cost: a few
    microseconds to start (the engine's structure is built once per problem), then the search itself.
    """

    def __init__(self, problem: Problem, *, limit: int | None = None, max_nodes: int | None = None,
                 engine: str = engines.DEFAULT, seed: int | None = None,
                 trace: bool | Callable[[np.ndarray], None] = False, close_at_end: bool = False) -> None:
        self.problem = problem
        self._noted = problem.structures
        # a seeded run searches a copy with the options and items in another order
        self._order: np.ndarray | None = None
        items: np.ndarray | None = None
        self._searched = problem.structures
        if seed is not None:
            self._searched, self._order, items = self._searched.seeded(whole(seed, "seed"))
        if trace and engine == engines.DEFAULT:
            engine = engines.tracer(problem.engine_input)
        self.engine_name = engines.resolve(engine, problem.engine_input)
        self._prepared = self._searched.prepared(self.engine_name)
        self.engine = self._prepared.engine
        self._trace = tracing.Recorder(self.engine, trace, self._order, items) if trace else None
        self._limit = past(0, check_count(limit, "limit"))
        self._max_nodes = past(0, check_count(max_nodes, "max_nodes"))
        self._close_at_end = close_at_end
        self._prepared.warm(traced=bool(trace))
        self._structure = self._prepared.acquire(self)
        self._machine = self.engine.start(self._structure)
        self._state = self._machine.state
        self._found: deque[tuple[int, ...]] = deque()     # found by the kernel, not yet yielded
        self._batch = 1
        self._out = self._ends = np.zeros(0, np.int32)
        self.seconds = 0.0
        self._status = Status.RUNNING
        self._closed = False
        self._noted.note(self.stats)

    # --- what a run says about itself

    @property
    def status(self) -> Status:
        return self._status

    @property
    def stats(self) -> SearchStats:
        return SearchStats.of_state(self._state, self.seconds, self._status, self.engine_name)

    @property
    def trace(self) -> np.ndarray:
        """The events a traced run (``trace=True``) has recorded so far, one row each: ``(kind, level,
        a, b)`` as [`dlx.tracing`][dlx.tracing] describes; [`dlx.tracing.lines`][dlx.tracing.lines]
        words them. Empty for a run that records none, or hands them to a function as they come."""
        return np.zeros((0, 4), np.int64) if self._trace is None else self._trace.events()

    def applied(self) -> list[int]:
        """The options (numbers) this paused run has applied, in level order."""
        if self._structure is None:
            return []
        done = self.engine.applied(self._structure, self._machine)
        return done if self._order is None else self._order[done].tolist()

    def machine(self) -> Machine | None:
        """The kernel's state of this run while it holds a structure (for checks), else None."""
        return None if self._structure is None else self._machine

    def check(self) -> None:
        """Raise [`dlx.engines.base.StructureError`][dlx.engines.base.StructureError] unless this run's
        structure is exactly as the options it has applied make it (valid at any point the run is
        paused). A run that has ended holds no structure."""
        if self._structure is not None:
            self.engine.check(self._searched.options, self._structure, self._machine)

    # --- driving the kernel

    def _advance(self, want: int, out: np.ndarray, ends: np.ndarray) -> int:
        """Run the kernel until ``want`` more solutions (one call's worth when recording them), the
        limit, the budget, the end or a stop; returns the solutions found. The kernel comes back
        every ``WORK`` updates, so a signal's handler runs (and KeyboardInterrupt leaves the run
        paused and whole)."""
        want = min(want, self._limit - int(self._state[SOLUTIONS]))
        found = 0
        started = time.perf_counter()
        try:
            while found < want and self._status == Status.RUNNING:
                if self._trace is None:
                    found += self.engine.advance(self._structure, self._machine, want - found,
                                                 self._max_nodes, WORK, out, ends)
                else:
                    found += self._trace.advance(self._structure, self._machine, want - found,
                                                 self._max_nodes, WORK, out, ends)
                if self._state[PHASE] != Status.RUNNING.code or (ends.size and found):
                    break
        finally:
            self.seconds += time.perf_counter() - started
            self._settle()
        return found

    def _settle(self) -> None:
        """Translate the kernel's phase into the run's status, once."""
        phase = of_code(int(self._state[PHASE]))
        if phase == Status.RUNNING and self._state[SOLUTIONS] >= self._limit:
            phase = Status.LIMIT
        self._status = phase
        if phase == Status.COMPLETE:
            self._release()         # nothing is applied: the structure is as built
        self._noted.note(self.stats)

    def __next__(self) -> tuple[int, ...]:
        if not self._found:
            self._fill()
        if not self._found:
            if self._close_at_end:
                self.close()
            raise StopIteration
        return self._found.popleft()

    def __iter__(self) -> Search:
        return self

    def _fill(self) -> None:
        """Ask the kernel for the next few solutions (1, 2, 4, ... up to MAX_BATCH per call)."""
        if self._closed or self._status != Status.RUNNING:
            return
        want = self._batch
        self._batch = min(2 * self._batch, MAX_BATCH)
        depth = self._machine.choice.size
        if self._ends.size < want:
            self._ends = np.zeros(want, np.int32)
            self._out = np.zeros(max(depth, min(want * depth, 1 << 20)), np.int32)
        before = int(self._state[SOLUTIONS])
        try:
            self._advance(want, self._out, self._ends)
        finally:
            # from the counter, not the return value: an interrupt must not lose solutions found
            found = int(self._state[SOLUTIONS]) - before
            ends = self._ends[:found].tolist()
            out = self._out[:ends[-1] if ends else 0]
            if self._order is not None:
                out = self._order[out]
            self._found.extend(tuple(sorted(out[a:b].tolist())) for a, b in zip([0, *ends], ends))

    def count(self) -> int:
        """Visit every solution left (within the limit and the budget) without building them;
        returns how many there were, counting any found but not yet yielded."""
        found = len(self._found)
        self._found.clear()
        if not self._closed:
            empty = np.zeros(0, np.int32)
            found += self._advance(UNLIMITED, empty, empty)
        if self._close_at_end:
            self.close()
        return found

    # --- pausing, going on, ending

    def stop(self) -> None:
        """Ask the run to stop (from any thread, or a signal handler): the kernel sees the request
        within ``POLL`` updates and the run pauses with status ``"stopped"``; [`resume`][dlx.search.Search.resume] goes
        on from there."""
        self._state[STOP] = 1

    def resume(self, *, limit: int | None = None, max_nodes: int | None = None) -> Search:
        """Let a paused run go on, for at most ``limit`` more solutions and ``max_nodes`` more
        nodes (None: no limit); returns the run, to iterate or count."""
        if self._closed:
            raise ValueError(f"this search is closed ({self._status}); start a new one")
        solutions, nodes = int(self._state[SOLUTIONS]), int(self._state[NODES])
        self._limit = past(solutions, check_count(limit, "limit"))
        self._max_nodes = past(nodes, check_count(max_nodes, "max_nodes"))
        self._state[STOP] = 0
        if self._status != Status.COMPLETE:
            self._status = Status.RUNNING
        self._noted.note(self.stats)
        return self

    def close(self) -> None:
        """End the run: take back what it still has applied and hand back the structure. A run
        that was still running is ``"stopped"``."""
        if self._closed:
            return
        self._found.clear()
        if self._status == Status.RUNNING:
            self._status = Status.STOPPED
        self._release()
        self._closed = True
        self._noted.note(self.stats)

    def _release(self) -> None:
        """Take back what the run has applied and hand the structure back (once)."""
        if self._structure is not None:
            self.engine.unwind(self._structure, self._machine)
            self._prepared.release(self._structure)
            self._structure = None

    def __enter__(self) -> Search:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - a finaliser must not raise (the interpreter may be ending)
            pass

    def __repr__(self) -> str:
        s = self.stats
        return f"<Search {s.status}: {s.solutions} solutions, {s.nodes} nodes>"

