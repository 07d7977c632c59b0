"""One search over many threads, or many machines (Dask): the search tree cut into pieces.

A *piece* is a path of moves (the engine's choice values for levels ``0..f-1``) and the subtree
below it. A run with ``state[FLOOR] = f`` replays the path without counting it and searches the
subtree; the try that opens the subtree is the piece's (see [`dlx.engines.base`][dlx.engines.base]). Pieces come
two ways:

* threads (``jobs=N``): one piece, the whole tree, starts. A run that sees threads idle and
  nothing queued gives away what it has yet to try at its shallowest level that has anything left
  ([`Engine.untried`][dlx.engines.base.Engine.untried]), one piece per move, and raises its own floor
  above that level. So a skewed tree (pentominoes, Langford) is cut where the work is, as often as
  needed, and nothing is searched twice. The kernels release the GIL; the threads share the problem and
  each searches its own copy of the engine's structure.
* Dask (``client=``): [`split`][dlx.parallel.split] runs the top of the tree with a ceiling at the depth that gives
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
from typing import Any

import numpy as np

from . import checks, distributed, engines
from .checks import UNLIMITED, check_count, whole
from .engines.base import NODES, STOP
from .engines.problem import Problem

# the pieces, what threads and Dask both search, are this module's API too
from .pieces import (  # noqa: F401
    MAX_SPLIT_DEPTH,
    TASKS_PER_THREAD,
    Outcome,
    Piece,
    Result,
    gift,
    merge,
    search_piece,
    split,
    split_for,
    split_on,
)

#: Nodes a kernel call may visit in a threaded run (taken from the shared budget, if any): a run
#: with few updates per node still comes back every few tens of milliseconds to give work away.
GRANT = 1 << 20

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


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a search on threads: ``so_far`` is what the threads had done when they
    stopped (a [`Result`][dlx.parallel.Result] whose count is a lower bound, status "stopped")."""

    def __init__(self, so_far: Result) -> None:
        super().__init__()
        self.so_far = so_far


def run(problem: Problem, *, jobs: int | None = None, client: Any = None, collect: bool = False,
        limit: int | None = None, max_nodes: int | None = None, engine: str = engines.DEFAULT,
        seed: int | None = None, progress: bool = False) -> Result:
    """Search ``problem`` with ``jobs`` threads (None: one per core), or on a Dask ``client``
    (a ``distributed.Client``, ``"local"`` for a LocalCluster here, or a scheduler's address).
    ``limit`` stops the search once that many solutions are found (with several threads, not
    necessarily one run's first ones); ``max_nodes`` is a budget for the whole search. The stats
    (also ``problem.stats``) are the pieces' added up; ``seconds`` is the wall time. Ctrl-C on
    threads raises [`Interrupted`][dlx.parallel.Interrupted] (a KeyboardInterrupt) holding the count so far."""
    limit = check_count(limit, "limit")
    max_nodes = check_count(max_nodes, "max_nodes")
    structures = problem.structures
    searched, order = (problem, None) if seed is None else structures.seeded(whole(seed, "seed"))[:2]
    name = engines.resolve(engine, problem.engine_input)
    started = time.perf_counter()
    if client is not None:
        result = distributed.run(searched, name, client, collect=collect, limit=limit, max_nodes=max_nodes,
                                 order=order, progress=progress)
    else:
        pool = None
        try:
            prepared = searched.structures.prepared(name)
            prepared.warm()
            pool = _Pool(checks.jobs(jobs), prepared.engine, prepared, collect=collect, limit=limit,
                         max_nodes=max_nodes)
            outcomes = pool.run(Piece(np.zeros(0, np.uint32)))
        except KeyboardInterrupt:
            so_far = merge(pool.outcomes if pool is not None else [], name, limit=limit,
                           seconds=time.perf_counter() - started, order=order, collect=collect)
            structures.note(so_far.stats)
            raise Interrupted(so_far) from None
        result = merge(outcomes, name, limit=limit, seconds=time.perf_counter() - started, order=order,
                       collect=collect)
    structures.note(result.stats)
    return result

