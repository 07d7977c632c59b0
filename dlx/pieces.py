"""A search cut into pieces that add up to one run: what threads ([`dlx.parallel`][dlx.parallel]) and Dask
(`dlx.distributed`) both search.

A *piece* is a path of moves (the engine's choice values for levels ``0..f-1``) and the subtree
below it. A run with ``state[FLOOR] = f`` replays the path without counting it and searches the
subtree; the try that opens the subtree is the piece's (see [`dlx.engines.base`][dlx.engines.base]). A run that
searches a piece can give away what it has yet to try (`gift`), and [`split`][dlx.pieces.split] cuts the
top of the tree at a depth. Every piece has a key that orders it in the tree (a run's own solutions
come before what it gave away, and deeper gifts before shallower ones), so [`merge`][dlx.pieces.merge] gives the
solutions in the order one run finds them. With the Dancing Links engines the pieces' nodes and
updates, plus the split's own, add up exactly to one run's; dancing cells' pieces find the same
solutions in another order, counted otherwise.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import engines
from .checks import UNLIMITED, whole
from .engines.base import CEILING, FLOOR, LEVEL, PHASE, STOP
from .engines.problem import Problem
from .search import MAX_BATCH, SearchStats
from .status import SPLIT, Status, of_code

#: Updates per kernel call in a parallel run (about 10-40 ms): how often a run looks whether
#: other threads are idle, and the delay before it gives them work. Coming back more often costs
#: more than the call: the structure is cold in the cache afterwards (1<<18 cost pentominoes 12%).
SLICE = 1 << 22
#: A run's first kernel call spends this many updates, and each next one twice as many up to
#: ``SLICE``: so a short search is cut for the idle threads at once, and a long one rarely returns.
FIRST_SLICE = 1 << 14
#: Dask tasks per worker thread (`split_for`): enough that one slow piece does not leave the others idle.
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
                 max_nodes: int = UNLIMITED, pool: Any = None) -> Outcome:
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
                    pool.give(gift(engine, structure, pool.prepared.pristine, machine, piece.key + (-gifts,)))
    finally:
        seconds = time.perf_counter() - started
        if pool is not None:
            pool.machines.discard(id(machine))
        stats = SearchStats.of_state(state, seconds, status, engine.name)
        engine.unwind(structure, machine)
    return Outcome(piece.key, count, stats, solutions)


def gift(engine: Any, structure: Any, pristine: Any, machine: Any, key: tuple) -> list[Piece]:
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


# --- splitting at a depth


def split(problem: Problem, depth: int, *, engine: str = engines.DEFAULT,
          collect: bool = False) -> tuple[list[Piece], list[Outcome], SearchStats]:
    """The pieces at ``depth`` (paths of ``depth`` moves, in the order one run reaches them) and
    the solutions found above it (as outcomes keyed among the pieces), with the split's own
    stats: these plus the pieces' add up to one run's. Cost: the search of the tree's top levels.

    Examples:
        >>> from dlx import problems
        >>> pieces, above, stats = split(problems.queens(8), 1, engine="dlx")
        >>> len(pieces), stats.nodes
        (8, 1)
    """
    name = engines.resolve(engine, problem.engine_input)
    return split_on(problem.structures.prepared(name), depth, collect=collect, name=name)


def split_on(prepared: engines.Prepared, depth: int, *, collect: bool = False,
             name: str | None = None) -> tuple[list[Piece], list[Outcome], SearchStats]:
    """[`split`][dlx.pieces.split] on the structure of one engine (``name``: what the stats call it, by default
    the engine's own name)."""
    eng = prepared.engine
    name = name or eng.name
    prepared.warm()
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


def split_for(problem: Problem, tasks: int, *, engine: str = engines.DEFAULT,
              collect: bool = False) -> tuple[int, list[Piece], list[Outcome], SearchStats]:
    """[`split`][dlx.pieces.split] at the least depth that gives at least ``tasks`` pieces (or the deepest tried,
    ``MAX_SPLIT_DEPTH``, or a depth where the whole tree lies above)."""
    depth = 1
    while True:
        pieces, above, stats = split(problem, depth, engine=engine, collect=collect)
        if len(pieces) >= tasks or not pieces or depth >= MAX_SPLIT_DEPTH:
            return depth, pieces, above, stats
        depth += 1
