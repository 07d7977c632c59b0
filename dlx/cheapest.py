"""The ``k`` cheapest solutions of a problem whose options have costs (Knuth's DLX5).

[`Cheapest`][dlx.cheapest.Cheapest] is one run of the search of [`dlx.engines.dlx5`][dlx.engines.dlx5]:
an iterator over the solutions as they improve on the ``k`` best seen so far, each a
[`Priced`][dlx.cheapest.Priced] ``(cost, options)``, exactly those DLX5 prints and in its order; it
pauses at ``max_nodes``, on [`Cheapest.stop`][dlx.cheapest.Cheapest.stop] or Ctrl-C and goes on with
[`Cheapest.resume`][dlx.cheapest.Cheapest.resume]. [`cheapest`][dlx.cheapest.cheapest] runs one to the
end (or splits it over threads) and returns the ``k`` best. Costs are the options' own (the taxes the
search levies are added back).
"""
from __future__ import annotations

import concurrent.futures
import heapq
import threading
import time
from collections import deque
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np

from . import checks
from .engines import dlx5
from .engines.base import FLOOR, NODES, PHASE, SOLUTIONS, STOP
from .search import WORK, SearchStats
from .status import Status, of_code

#: Solutions asked of the kernel per call while iterating (the first comes at once).
MAX_BATCH = 1024
#: Updates a piece of a split search spends before it trades its best with the others (about a
#: millisecond; a return to Python costs microseconds).
TRADE = 1 << 18
#: The engine name a run's statistics carry.
NAME = "dlx5"


class Priced(NamedTuple):
    """A solution and what it costs: its options' costs added up."""

    cost: int
    options: tuple[int, ...]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during [`cheapest`][dlx.cheapest.cheapest]: ``best`` holds the ``k`` best found so far (not proven
    best), ``stats`` what the search did."""

    def __init__(self, best: list[Priced], stats: SearchStats) -> None:
        super().__init__(f"interrupted with {len(best)} solutions found so far")
        self.best = best
        self.stats = stats


def refusal(problem: Any) -> str | None:
    """Why DLX5 cannot search ``problem`` (None: it can)."""
    if problem.bounds is not None:
        return ("the cheapest solutions are found by Knuth's DLX5, which has no multiplicities: a problem "
                "with bounds on its items (DLX3) cannot have costs searched")
    return None


def structure(problem: Any) -> tuple[dlx5.CostLinks, int]:
    """DLX5's structure for ``problem`` and its total tax, built once per problem."""
    def build() -> tuple[dlx5.CostLinks, int]:
        options = problem.engine_input
        costs = problem.option_costs
        if costs is None:
            costs = np.zeros(options.n_options, np.int64)
        net, tax = dlx5.taxed(options, costs)
        links = dlx5.build(options, costs)
        _warm_up(links)
        return links, int(tax.sum())
    return problem.structures.kept(NAME, build)


def _warm_up(links: dlx5.CostLinks) -> None:
    """Load the compiled search (from numba's cache, once per process) by a call with no nodes to
    spend, so that loading is not counted as searching."""
    copy = dlx5.copy(links)
    machine = dlx5.start(copy, 1)
    empty = np.zeros(0, np.int32)
    dlx5.search(copy, machine, 1, 0, 1, dlx5.LENTHRESH, empty, empty, np.zeros(0, np.int64))


def check_k(k: int) -> int:
    """``k`` as a count of solutions to keep: 1 to Knuth's ``maxk``."""
    k = checks.whole(k, "k", 1)
    if k > dlx5.MAX_K:
        raise ValueError(f"k must be at most {dlx5.MAX_K:,} (Knuth's maxk), not {k:,}")
    return k


class Cheapest(Iterator[Priced]):
    """One run of DLX5 on ``problem``, keeping the ``k`` cheapest solutions: iterate it for every
    solution that beats the ``k``-th best found so far, as it is found (so the last ``k`` it yields that
    survive are the best); [`best`][dlx.cheapest.Cheapest.best] is the ``k`` best so far, cheapest first
    (ties in the order found). ``lenthresh`` is Knuth's ``h``. Pauses at ``max_nodes`` nodes, on
    [`stop`][dlx.cheapest.Cheapest.stop] and on Ctrl-C (KeyboardInterrupt leaves it paused and whole);
    [`resume`][dlx.cheapest.Cheapest.resume] goes on.

    Examples:
        >>> from dlx import ExactCover
        >>> ec = ExactCover([["a", "b"], ["a"], ["b"], ["b", "c"], ["c"]], costs=[5, 1, 3, 2, 2])
        >>> run = ec.improving(k=2)
        >>> list(run)
        [Priced(cost=3, options=(1, 3)), Priced(cost=6, options=(1, 2, 4))]
        >>> run.best, run.stats.nodes
        ([Priced(cost=3, options=(1, 3)), Priced(cost=6, options=(1, 2, 4))], 6)

        Cost: the structure is built once per problem (O(entries log)); a run copies it.
    """

    def __init__(self, problem: Any, k: int = 1, *, max_nodes: int | None = None,
                 lenthresh: int = dlx5.LENTHRESH, forced: tuple[int, ...] = ()) -> None:
        why = refusal(problem)
        if why:
            raise ValueError(why)
        self.k = check_k(k)
        self.lenthresh = checks.whole(lenthresh, "lenthresh", 1)
        self.problem = problem
        pristine, self.total_tax = structure(problem)
        self._links = dlx5.copy(pristine)
        self._machine = dlx5.start(self._links, self.k)
        self._state = self._machine.state
        if forced:
            self._machine.choice[:len(forced)] = forced
            self._state[FLOOR] = len(forced)
        self._max_nodes = checks.past(0, checks.check_count(max_nodes, "max_nodes"))
        self._out = self._ends = np.zeros(0, np.int32)      # sized by what a call asks for
        self._paid = np.zeros(0, np.int64)
        self._found: deque[Priced] = deque()
        self._lazy = True               # keep each solution for the iterator (run() does not)
        # the k best as a heap whose root is the dearest, the latest found among equals:
        # (-cost, -order found, solution)
        self._kept: list[tuple[int, int, Priced]] = []
        self._seen = 0
        self._paid_last: list[int] = []
        self._batch = 1
        self.seconds = 0.0
        self._status = Status.RUNNING
        problem.structures.note(self.stats)

    @property
    def status(self) -> Status:
        return self._status

    @property
    def stats(self) -> SearchStats:
        return SearchStats.of_state(self._state, self.seconds, self._status, NAME)

    @property
    def best(self) -> list[Priced]:
        """The ``k`` cheapest solutions found so far, cheapest first, ties in the order found."""
        return [priced for _, _, priced in sorted(self._kept, reverse=True)]

    @property
    def costs(self) -> list[int]:
        """The costs of [`best`][dlx.cheapest.Cheapest.best]: what DLX5 reports at the end."""
        return [priced.cost for priced in self.best]

    def __iter__(self) -> Cheapest:
        return self

    def __next__(self) -> Priced:
        if not self._found:
            self._fill()
        if not self._found:
            raise StopIteration
        return self._found.popleft()

    def run(self) -> list[Priced]:
        """Search to the end (or the budget, or a stop) and return [`best`][dlx.cheapest.Cheapest.best]."""
        self._found.clear()
        self._lazy = False
        try:
            while self._status == Status.RUNNING:
                self._batch = MAX_BATCH
                self._fill()
        finally:
            self._lazy = True
        return self.best

    def step(self, solutions: int = 1) -> list[int]:
        """One call of the kernel, until ``solutions`` solutions or about ``TRADE`` updates: the
        net costs of the solutions it found (a split search trades them, `_split`)."""
        self._lazy = False
        try:
            self._batch = solutions
            self._fill(TRADE, once=True)
        finally:
            self._lazy = True
        return self._paid_last

    def release(self) -> None:
        """Let go of the structure and the buffers of a run that has ended (a split search keeps
        its pieces' answers, not their copies of the links)."""
        if self._status == Status.COMPLETE:
            self._links = None  # type: ignore[assignment]  # an ended run never searches again
            self._out = self._ends = np.zeros(0, np.int32)
            self._paid = np.zeros(0, np.int64)

    @property
    def cutoff(self) -> int:
        """The net cost a solution must beat (DLX5's ``cutoffcost``)."""
        return int(self._machine.bestcost[0])

    def tighten(self, least: list[int]) -> None:
        """Cut off from now on by ``least``, the k least net costs known (largest first), where
        that is lower than this run's own k-th best: solutions other runs found (a split search's
        pieces share their best). Between kernel calls only."""
        heap = self._machine.bestcost
        if least[0] < heap[0]:
            heap[:self.k] = least

    def out_of_nodes(self) -> None:
        """Mark the run paused for want of nodes (a split search's shared budget is spent)."""
        if self._status == Status.RUNNING:
            self._status = Status.MAX_NODES

    def _fill(self, work: int = WORK, once: bool = False) -> None:
        """Run the kernel until it finds solutions (``once``: one call, whatever it finds), the
        end, the budget or a stop; keep what it found."""
        self._paid_last = []
        if self._status != Status.RUNNING:
            return
        want = self._batch
        self._batch = min(2 * self._batch, MAX_BATCH)
        depth = self._machine.choice.size
        if self._ends.size < want:
            self._ends = np.zeros(want, np.int32)
            self._paid = np.zeros(want, np.int64)
            self._out = np.zeros(max(depth, min(want * depth, 1 << 18)), np.int32)
        before = int(self._state[SOLUTIONS])
        started = time.perf_counter()
        try:
            while self._state[SOLUTIONS] == before and self._status == Status.RUNNING:
                dlx5.search(self._links, self._machine, want, self._max_nodes, work, self.lenthresh,
                            self._out, self._ends, self._paid)
                self._status = of_code(int(self._state[PHASE]))
                if once:
                    break
        finally:
            self.seconds += time.perf_counter() - started
            # from the counter, not a return value: an interrupt must not lose solutions found
            found = int(self._state[SOLUTIONS]) - before
            ends = self._ends[:found].tolist()
            out = self._out[:ends[-1] if ends else 0].tolist()
            paid = self._paid[:found].tolist()
            self._paid_last = paid
            for j, (a, b) in enumerate(zip([0, *ends], ends)):
                self._keep(Priced(self.total_tax + paid[j], tuple(sorted(out[a:b]))))
            self.problem.structures.note(self.stats)

    def _keep(self, priced: Priced) -> None:
        """Record a solution that beat the k-th best: the dearest of the k (the latest found among
        equals) makes way, as the root of DLX5's heap does."""
        self._seen += 1
        entry = (-priced.cost, -self._seen, priced)
        if len(self._kept) == self.k:
            heapq.heapreplace(self._kept, entry)
        else:
            heapq.heappush(self._kept, entry)
        if self._lazy:
            self._found.append(priced)

    def check(self) -> None:
        """Raise [`dlx.engines.base.StructureError`][dlx.engines.base.StructureError] unless this run,
        having ended, left its copy of the structure exactly as built (a paused run holds options
        applied)."""
        if self._status == Status.COMPLETE and not self._state[FLOOR]:
            dlx5.check(self._links, structure(self.problem)[0])

    def stop(self) -> None:
        """Ask the run to pause (from any thread): it does within ``POLL`` updates."""
        self._state[STOP] = 1

    def resume(self, *, max_nodes: int | None = None) -> Cheapest:
        """Let a paused run go on for at most ``max_nodes`` more nodes (None: no budget)."""
        if self._status == Status.COMPLETE:
            return self
        self._max_nodes = checks.past(int(self._state[NODES]), checks.check_count(max_nodes, "max_nodes"))
        self._state[STOP] = 0
        self._status = Status.RUNNING
        return self

    def __repr__(self) -> str:
        return f"<Cheapest {self._status}: k={self.k}, {len(self._kept)} kept, {self._state[NODES]} nodes>"


def cheapest(problem: Any, k: int = 1, *, max_nodes: int | None = None, jobs: int | None = 1,
             lenthresh: int = dlx5.LENTHRESH) -> list[Priced]:
    """The ``k`` cheapest solutions of ``problem``, cheapest first (see
    [`ExactCover.cheapest`][dlx.model.ExactCover.cheapest])."""
    if jobs == 1:
        run = Cheapest(problem, k, max_nodes=max_nodes, lenthresh=lenthresh)
        try:
            return run.run()
        except KeyboardInterrupt:
            raise Interrupted(run.best, run.stats) from None
    return _split(problem, check_k(k), checks.jobs(jobs), lenthresh,
                  checks.check_count(max_nodes, "max_nodes"))


#: Nodes a piece of a split search takes from the shared budget at a time.
GRANT = 1 << 20


class _Shared:
    """What the pieces of a split search share, under a lock: the ``k`` least net costs any of them
    has found (a piece cuts off by these, not only by its own), and the node budget left."""

    def __init__(self, k: int, budget: int) -> None:
        self.k = k
        self.least: list[int] = []          # the k least net costs found, as a heap of their negatives
        self.budget = budget
        self.lock = threading.Lock()

    def trade(self, piece: Cheapest, paid: list[int]) -> None:
        """Add the net costs a piece has just found, and give it the k-th least of all as its cutoff
        when that is lower than its own."""
        with self.lock:
            for cost in paid:
                if len(self.least) < self.k:
                    heapq.heappush(self.least, -cost)
                elif cost < -self.least[0]:
                    heapq.heapreplace(self.least, -cost)
            if len(self.least) == self.k and -self.least[0] < piece.cutoff:
                piece.tighten(sorted((-c for c in self.least), reverse=True))

    def take(self) -> int:
        with self.lock:
            grant = min(GRANT, self.budget)
            self.budget -= grant
            return grant

    def give_back(self, nodes: int) -> None:
        with self.lock:
            self.budget += nodes


def _split(problem: Any, k: int, threads: int, lenthresh: int, max_nodes: int) -> list[Priced]:
    """The search split at its first level: each option of the item the run branches on first is a
    piece, run on ``threads`` threads. The pieces share their best: whenever a piece's kernel
    returns (every few milliseconds, or after a batch of solutions) it adds what it found to the k
    least net costs of all and cuts off by them from then on. The answer is the k best of all the
    pieces found (cost, then the order of the pieces, then the order found): the same k best costs
    as one run (a solution is cut only when k solutions as cheap are known), the nodes depend on
    when the pieces trade. ``max_nodes``: a budget for all the pieces together, taken in grants."""
    if refusal(problem):
        raise ValueError(refusal(problem))
    pristine, _ = structure(problem)
    roots = dlx5.root_options(pristine, lenthresh).tolist()
    # a piece is made when a thread takes it, and lets go of its copy of the links when done
    pieces: list[Cheapest | None] = [None] * len(roots)
    shared = _Shared(k, max(0, max_nodes - 1))         # the root node is the split's
    started = time.perf_counter()
    stopping = threading.Event()

    def work(index: int) -> None:
        if stopping.is_set() or shared.budget == 0:
            return                  # never started: the merge counts it as unfinished
        piece = pieces[index] = Cheapest(problem, k, lenthresh=lenthresh, forced=(roots[index],))
        while not stopping.is_set() and piece.status in (Status.RUNNING, Status.MAX_NODES):
            grant = shared.take()
            if grant == 0:
                piece.out_of_nodes()
                return
            piece.resume(max_nodes=grant)
            before = int(piece.stats.nodes)
            while piece.status == Status.RUNNING and not stopping.is_set():
                # the sooner a cutoff is known everywhere, the fewer nodes (trading every TRADE
                # updates alone took 3.7x one run's nodes on a set-partitioning problem, trading
                # each solution 1.4x), but a return per solution costs microseconds: until k
                # solutions are known there is no cutoff to share, and then a k-th best moves
                # little with each solution when k is large
                solutions = MAX_BATCH if len(shared.least) < k else 1 + k // 64
                shared.trade(piece, piece.step(solutions))
            used = int(piece.stats.nodes) - before
            if piece.status != Status.MAX_NODES:
                shared.give_back(grant - used)
        piece.release()

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=threads)
    try:
        for done in [pool.submit(work, index) for index in range(len(roots))]:
            done.result()
    except KeyboardInterrupt:
        stopping.set()
        for piece in pieces:
            if piece is not None:
                piece.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        best, stats = _merged(pieces, k, time.perf_counter() - started, Status.STOPPED)
        problem.structures.note(stats)
        raise Interrupted(best, stats) from None
    pool.shutdown(wait=True)
    best, stats = _merged(pieces, k, time.perf_counter() - started)
    problem.structures.note(stats)
    return best


def _merged(pieces: list[Cheapest | None], k: int, seconds: float,
            unstarted: Status = Status.MAX_NODES) -> tuple[list[Priced], SearchStats]:
    """The k best of the pieces (each piece's own tree: no solution twice) and their figures added
    up; a piece never started (the budget was spent, or the search stopped) makes the whole
    ``unstarted``."""
    ranked = sorted((priced.cost, p, j, priced) for p, piece in enumerate(pieces) if piece is not None
                    for j, priced in enumerate(piece.best))
    total = SearchStats(1, 0, 0, 0.0, Status.COMPLETE, 0, NAME)      # the root node, which no piece counts
    for piece in pieces:
        total = total + (piece.stats if piece is not None else
                         SearchStats(0, 0, 0, 0.0, unstarted, 0, NAME))
    stats = SearchStats(total.nodes, total.updates, total.solutions, seconds, total.status, total.cleansings, NAME)
    return [priced for *_, priced in ranked[:k]], stats
