"""One search over many threads, or many machines (Dask): the search tree cut into pieces.

A *piece* is a path of moves (the engine's choice values for levels ``0..f-1``) and the subtree
below it. A run with ``state[FLOOR] = f`` replays the path without counting it and searches the
subtree; the try that opens the subtree is the piece's (see :mod:`dlx.engines.base`). Pieces come
two ways:

* threads (``jobs=N``): one piece, the whole tree, starts. A run that sees threads idle and
  nothing queued gives away what it has yet to try at its shallowest level that has anything
  left (:meth:`Engine.untried`), one piece per move, and raises its own floor above that level.
  So a skewed tree (pentominoes, Langford) is cut where the work is, as often as needed, and
  nothing is searched twice. The kernels release the GIL; the threads share the problem and each
  searches its own copy of the engine's structure.
* Dask (``client=``): :func:`split` runs the top of the tree with a ceiling at the depth that gives
  a few pieces per worker thread, and each piece is a task. The problem is scattered once; a task
  builds the engine's structure in the worker (numba loads the kernels from its cache there).

Every piece has a key that orders it in the tree (a run's own solutions come before what it gave
away, and deeper gifts before shallower ones), so the solutions come back in the order one run
finds them. With the Dancing Links engines the pieces' nodes and updates, plus the split's own,
add up exactly to one run's. Dancing cells searches every piece completely too, but the order of
an item's set depends on the path that led to it: its pieces count other nodes than one run would,
and give the same solutions in another order.

Cost: a gift copies nothing but a path; a thread builds its copy of the structure once. A Dask task
costs a few milliseconds of scheduling, so Dask pieces are coarse (``TASKS_PER_THREAD``).
"""
from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from . import checks, engines
from .checks import UNLIMITED, check_count, whole
from .engines.base import CEILING, FLOOR, LEVEL, NODES, PHASE, STOP
from .search import MAX_BATCH, SearchStats
from .status import SPLIT, Status, of_code

if TYPE_CHECKING:
    from .model import ExactCover

#: Updates per kernel call in a parallel run (about 10-40 ms): how often a run looks whether
#: other threads are idle, and the delay before it gives them work. Coming back more often costs
#: more than the call: the structure is cold in the cache afterwards (1<<18 cost pentominoes 12%).
SLICE = 1 << 22
#: A run's first kernel call spends this many updates, and each next one twice as many up to
#: ``SLICE``: so a short search is cut for the idle threads at once, and a long one rarely returns.
FIRST_SLICE = 1 << 14
#: Nodes a kernel call may visit in a threaded run (taken from the shared budget, if any): a run
#: with few updates per node still comes back every few tens of milliseconds to give work away.
GRANT = 1 << 20
#: Dask tasks per worker thread: enough that one slow piece does not leave the others idle.
TASKS_PER_THREAD = 8
#: The deepest split tried when looking for enough Dask tasks.
MAX_SPLIT_DEPTH = 12


@dataclass(frozen=True)
class Piece:
    """A path of moves (choice values, ``uint32``) and its place among the pieces (``key``)."""

    path: np.ndarray
    key: tuple = ()


@dataclass
class Outcome:
    """What the search of one piece found: ``count`` solutions (``solutions`` when asked for, as
    sorted tuples of option numbers) and its ``stats``."""

    key: tuple
    count: int
    stats: SearchStats
    solutions: list = field(default_factory=list)


# --- one piece


def search_piece(engine: Any, structure: Any, piece: Piece, *, collect: bool = False, limit: int = UNLIMITED,
                 max_nodes: int = UNLIMITED, pool: _Pool | None = None) -> Outcome:
    """Search ``piece`` on ``structure`` (an engine's structure as built; left as built). Stops at
    ``limit`` solutions, ``max_nodes`` nodes, or when ``pool`` (threads) stops; gives work to the
    pool's idle threads as it goes."""
    machine = engine.start(structure)
    state = machine.state
    f = piece.path.size
    machine.choice[:f] = piece.path
    state[FLOOR] = f
    depth = machine.choice.size
    if collect:
        ends = np.zeros(MAX_BATCH, np.int32)
        out = np.zeros(max(depth, min(MAX_BATCH * depth, 1 << 20)), np.int32)
    else:
        ends = out = np.zeros(0, np.int32)
    solutions: list[tuple[int, ...]] = []
    count = gifts = 0
    status = Status.RUNNING
    started = time.perf_counter()
    work = SLICE if pool is None else FIRST_SLICE      # alone, it has no one to give work to
    try:
        if pool is not None:
            pool.machines.add(id(machine), state)
        while True:
            budget = max_nodes if pool is None else pool.grant(state, max_nodes)
            found = engine.advance(structure, machine, limit - count, budget, work, out, ends)
            work = min(2 * work, SLICE)
            count += found
            if collect and found:
                stops = ends[:found].tolist()
                solutions.extend(tuple(sorted(out[a:b].tolist())) for a, b in zip([0, *stops], stops))
            if pool is not None:
                pool.spent(state, budget, found)
            phase = int(state[PHASE])
            if pool is not None and not pool.stopping and (
                    phase == Status.STOPPED.code or (phase == Status.MAX_NODES.code and not pool.out_of_nodes)):
                # an idle thread asked for work, or this grant is used up (not the budget)
                state[STOP] = 0
                phase = Status.RUNNING.code
            if phase != Status.RUNNING.code:
                status = of_code(phase)
                break
            if count >= limit:
                status = Status.LIMIT
                break
            if pool is not None:
                if pool.stopping:
                    status = Status.STOPPED
                    break
                if pool.hungry():
                    gifts += 1
                    pool.give(_gift(engine, structure, pool.prepared.pristine, machine, piece.key + (-gifts,)))
    finally:
        seconds = time.perf_counter() - started
        if pool is not None:
            pool.machines.discard(id(machine))
        stats = SearchStats.of_state(state, seconds, status, engine.name)
        engine.unwind(structure, machine)
    return Outcome(piece.key, count, stats, solutions)


def _gift(engine: Any, structure: Any, pristine: Any, machine: Any, key: tuple) -> list[Piece]:
    """The moves a paused run has yet to try at its shallowest level that has any, as pieces
    (``key + (i,)``); the run's floor goes above that level, so it never tries them itself."""
    state = machine.state
    for level in range(int(state[FLOOR]), int(state[LEVEL])):
        later = engine.untried(structure, machine, level, pristine)
        if later:
            state[FLOOR] = level + 1
            path = machine.choice[:level + 1].copy()
            pieces = []
            for i, move in enumerate(later):
                path[level] = move
                pieces.append(Piece(path.copy(), key + (i,)))
            return pieces
    return []


# --- threads


class _Machines:
    """The state arrays of the runs under way, so that a stop reaches every kernel at once."""

    def __init__(self) -> None:
        self._states: dict[int, np.ndarray] = {}
        self._lock = threading.Lock()

    def add(self, key: int, state: np.ndarray) -> None:
        with self._lock:
            self._states[key] = state

    def discard(self, key: int) -> None:
        with self._lock:
            self._states.pop(key, None)

    def stop_all(self) -> None:
        """Make every kernel under way come back within its poll (about 0.2 ms): to stop, or to
        give work to an idle thread."""
        with self._lock:
            for state in self._states.values():
                state[STOP] = 1


class _Pool:
    """Threads taking pieces from one queue; a shared solution limit and node budget."""

    def __init__(self, jobs: int, engine: Any, prepared: Any, *, collect: bool, limit: int, max_nodes: int) -> None:
        self.jobs, self.engine, self.prepared = jobs, engine, prepared
        self.collect, self.limit = collect, limit
        self.queue: deque[Piece] = deque()
        self.cond = threading.Condition()
        self.idle = self.busy = 0
        self.outcomes: list[Outcome] = []
        self.found = 0
        self.nodes_left = max_nodes       # the shared budget (UNLIMITED: none)
        self.out_of_nodes = False
        self.stopping = False
        self.error: BaseException | None = None
        self.machines = _Machines()

    # the budget: a run takes up to GRANT nodes at a time and gives back what it did not use
    def grant(self, state: np.ndarray, max_nodes: int) -> int:
        if self.nodes_left >= UNLIMITED:
            return min(max_nodes, int(state[NODES]) + GRANT)
        with self.cond:
            take = min(GRANT, self.nodes_left)
            self.nodes_left -= take
            if take == 0:
                self.out_of_nodes = True
            return int(state[NODES]) + take

    def spent(self, state: np.ndarray, budget: int, found: int) -> None:
        if self.nodes_left < UNLIMITED:
            with self.cond:
                self.nodes_left += budget - int(state[NODES])
        if found and self.limit < UNLIMITED:
            with self.cond:
                self.found += found
                if self.found >= self.limit:
                    self.stop()

    def hungry(self) -> bool:
        """Whether a thread waits for work (a hint, read without the lock)."""
        return self.idle > 0 and not self.queue

    def give(self, pieces: list[Piece]) -> None:
        with self.cond:
            self.queue.extend(pieces)
            self.cond.notify(len(pieces))

    def take(self) -> Piece | None:
        """The next piece, waiting while others may still give one; None when all is done."""
        with self.cond:
            while not self.queue and self.busy and not self.stopping:
                self.idle += 1
                self.machines.stop_all()       # the runs come back and one gives work away
                self.cond.wait()
                self.idle -= 1
            if self.stopping or not self.queue:
                self.cond.notify_all()
                return None
            self.busy += 1
            return self.queue.popleft()

    def stop(self) -> None:
        self.stopping = True
        self.machines.stop_all()
        with self.cond:
            self.cond.notify_all()

    def work(self) -> None:
        structure = self.engine.copy(self.prepared.pristine)
        try:
            while (piece := self.take()) is not None:
                try:
                    outcome = search_piece(self.engine, structure, piece, collect=self.collect,
                                           limit=self.limit, pool=self)
                finally:
                    with self.cond:
                        self.busy -= 1
                        self.cond.notify_all()
                with self.cond:
                    self.outcomes.append(outcome)
        except BaseException as e:     # noqa: BLE001 - handed to the caller's thread
            self.error = e
            self.stop()

    def run(self, root: Piece) -> list[Outcome]:
        self.queue.append(root)
        threads = []
        try:
            for i in range(self.jobs):
                threads.append(threading.Thread(target=self.work, daemon=True, name=f"dlx-{i}"))
                threads[-1].start()
            for t in threads:
                while t.is_alive():
                    t.join(0.05)
        except KeyboardInterrupt:
            self.stop()
            for t in threads:
                if t.ident is not None:        # the interrupt may land before its start
                    t.join()
            raise
        if self.error is not None:
            raise self.error
        return self.outcomes


# --- the whole search, merged


@dataclass
class Result:
    """A parallel search's outcome: ``count``, the ``solutions`` (in the order one run gives them,
    when asked for) and the merged ``stats``; ``pieces``: how many pieces were searched."""

    count: int
    stats: SearchStats
    solutions: list
    pieces: int


def merge(outcomes: list[Outcome], engine_name: str, *, before: SearchStats | None = None,
          limit: int = UNLIMITED, seconds: float | None = None, order: np.ndarray | None = None,
          collect: bool = False, out_of_nodes: bool = False) -> Result:
    """The pieces' outcomes as one: counts and stats added (with ``before``, the split's own),
    solutions in key order, at most ``limit``; ``order`` maps a seeded copy's options back;
    ``out_of_nodes``: pieces were left out when the node budget ran out."""
    outcomes = sorted(outcomes, key=lambda o: o.key)
    count = sum(o.count for o in outcomes)
    total = before
    for o in outcomes:
        total = o.stats if total is None else total + o.stats
    statuses = {o.stats.status for o in outcomes} | ({before.status} if before is not None else set())
    if count >= limit:
        status = Status.LIMIT
    elif Status.MAX_NODES in statuses or out_of_nodes:
        status = Status.MAX_NODES
    elif statuses <= {Status.COMPLETE}:
        status = Status.COMPLETE
    else:
        status = Status.STOPPED
    solutions = []
    if collect:
        for o in outcomes:
            solutions.extend(o.solutions)
        if order is not None:
            solutions = [tuple(sorted(order[list(s)].tolist())) for s in solutions]
        solutions = solutions[:limit]
    if total is None:
        total = SearchStats(0, 0, 0, 0.0, status)
    stats = SearchStats(total.nodes, total.updates, min(total.solutions, limit),
                        total.seconds if seconds is None else seconds,
                        status, total.cleansings, engine_name)
    return Result(min(count, limit), stats, solutions, len(outcomes))


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a search on threads: ``so_far`` is what the threads had done when they
    stopped (a :class:`Result` whose count is a lower bound, status "stopped")."""

    def __init__(self, so_far: Result) -> None:
        super().__init__()
        self.so_far = so_far


def run(problem: ExactCover, *, jobs: int | None = None, client: Any = None, collect: bool = False,
        limit: int | None = None, max_nodes: int | None = None, engine: str = engines.DEFAULT,
        seed: int | None = None, progress: bool = False) -> Result:
    """Search ``problem`` with ``jobs`` threads (None: one per core), or on a Dask ``client``
    (a ``distributed.Client``, ``"local"`` for a LocalCluster here, or a scheduler's address).
    ``limit`` stops the search once that many solutions are found (with several threads, not
    necessarily one run's first ones); ``max_nodes`` is a budget for the whole search. The stats
    (also ``problem.stats``) are the pieces' added up; ``seconds`` is the wall time. Ctrl-C on
    threads raises :class:`Interrupted` (a KeyboardInterrupt) holding the count so far."""
    limit = check_count(limit, "limit")
    max_nodes = check_count(max_nodes, "max_nodes")
    searched, order = (problem, None) if seed is None else problem.seeded(seed)[:2]
    name = engines.resolve(engine, problem.engine_input)
    started = time.perf_counter()
    if client is not None:
        from . import distributed
        result = distributed.run(searched, name, client, collect=collect, limit=limit, max_nodes=max_nodes,
                                 order=order, progress=progress)
    else:
        pool = None
        try:
            prepared = searched.prepared(name)
            pool = _Pool(checks.jobs(jobs), prepared.engine, prepared, collect=collect, limit=limit,
                         max_nodes=max_nodes)
            outcomes = pool.run(Piece(np.zeros(0, np.uint32)))
        except KeyboardInterrupt:
            so_far = merge(pool.outcomes if pool is not None else [], name, limit=limit,
                           seconds=time.perf_counter() - started, order=order, collect=collect)
            problem.note_stats(so_far.stats)
            raise Interrupted(so_far) from None
        result = merge(outcomes, name, limit=limit, seconds=time.perf_counter() - started, order=order,
                       collect=collect)
    problem.note_stats(result.stats)
    return result


# --- splitting at a depth (for Dask)


def split(problem: ExactCover, depth: int, *, engine: str = engines.DEFAULT,
          collect: bool = False) -> tuple[list[Piece], list[Outcome], SearchStats]:
    """The pieces at ``depth`` (paths of ``depth`` moves, in the order one run reaches them) and
    the solutions found above it (as outcomes keyed among the pieces), with the split's own
    stats: these plus the pieces' add up to one run's. Cost: the search of the tree's top levels.

    >>> from dlx import problems
    >>> pieces, above, stats = split(problems.queens(8), 1, engine="dlx")
    >>> len(pieces), stats.nodes
    (8, 1)
    """
    name = engines.resolve(engine, problem.engine_input)
    return split_on(problem.prepared(name), depth, collect=collect, name=name)


def split_on(prepared: engines.Prepared, depth: int, *, collect: bool = False,
             name: str | None = None) -> tuple[list[Piece], list[Outcome], SearchStats]:
    """:func:`split` on the structure of one engine (``name``: what the stats call it, by default
    the engine's own name)."""
    eng = prepared.engine
    name = name or eng.name
    structure = prepared.acquire()
    machine = eng.start(structure)
    state = machine.state
    state[CEILING] = whole(depth, "depth", 1)
    size = machine.choice.size
    out = np.zeros(size, np.int32)
    ends = np.zeros(1, np.int32)
    pieces: list[Piece] = []
    above: list[Outcome] = []
    started = time.perf_counter()
    try:
        while True:
            found = eng.advance(structure, machine, 1, UNLIMITED, SLICE, out, ends)
            if found:
                solution = [tuple(sorted(out[:ends[0]].tolist()))] if collect else []
                key = (len(pieces) + len(above),)
                above.append(Outcome(key, 1, SearchStats(0, 0, 0, 0.0, Status.COMPLETE, 0, name), solution))
            phase = int(state[PHASE])
            if phase == SPLIT:
                pieces.append(Piece(machine.choice[:depth].copy(), (len(pieces) + len(above),)))
                state[PHASE] = Status.RUNNING.code
            elif phase != Status.RUNNING.code:
                break
        stats = SearchStats.of_state(state, time.perf_counter() - started, of_code(int(state[PHASE])), name)
    finally:
        eng.unwind(structure, machine)
        prepared.release(structure)
    return pieces, above, stats


def split_for(problem: ExactCover, tasks: int, *, engine: str = engines.DEFAULT,
              collect: bool = False) -> tuple[int, list[Piece], list[Outcome], SearchStats]:
    """:func:`split` at the least depth that gives at least ``tasks`` pieces (or the deepest tried,
    ``MAX_SPLIT_DEPTH``, or a depth where the whole tree lies above)."""
    depth = 1
    while True:
        pieces, above, stats = split(problem, depth, engine=engine, collect=collect)
        if len(pieces) >= tasks or not pieces or depth >= MAX_SPLIT_DEPTH:
            return depth, pieces, above, stats
        depth += 1
