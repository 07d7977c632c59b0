"""DLX1: Algorithm X on Dancing Links (TAOCP 7.2.2.1), as one resumable, stoppable state machine.

The whole state of a search lives in arrays the caller owns: ``choice[level]`` (the node tried at
each level) and ``state`` (phase, level, step, stop flag and the counters). So a search can pause
after a solution and resume, pause when its node budget runs out and go on with a new one, return
every ``work`` updates so that the caller can handle a signal, and stop when another thread sets
``state[STOP]``. Whenever it returns, levels ``0..state[LEVEL]-1`` are applied and nothing else.

Steps, as Knuth names them in Algorithm X:

* ``FORWARD`` (X2-X4): enter a level; visit a solution when every primary item is covered; else
  choose the item with the fewest options and cover it;
* ``ADVANCE`` (X5): try the level's current option (cover its other items), or back up when the
  item has no option left (X7, uncover it);
* ``RECOVER`` (X6): take the option back and move down to the next one;
* ``BACKUP`` (X8): leave the level.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .. import status as st
from . import links
from .base import (CEILING, FLOOR, LEAVE, LEVEL, NODES, NO_CEILING, PHASE, SOLUTIONS, STATE_SIZE, STEP,
                   STOP, UPDATES, Machine)
from .links import COVERED, ZERO, Links, cover, cover_others, option_of, uncover, uncover_others

FORWARD, ADVANCE, RECOVER, BACKUP = 0, 1, 2, 3
assert BACKUP == LEAVE
#: The kinds of event a traced search records (dlx.tracing words them).
CHOOSE_EVENT, TRY_EVENT, DEAD_EVENT, SOLUTION_EVENT, BACKUP_EVENT = 1, 2, 3, 4, 5

#: The item choice: first a quick walk along the active items that stops at an item with one
#: option; after ``QUICK_SCAN`` items, when there are at most ``FLAT_SCAN`` primary items, one
#: vectorised pass over ``length`` for the least key (length, item). Lengths are capped at
#: ``LENGTH_CAP`` so that the key fits 31 bits; if the cap is reached the walk finishes the job.
QUICK_SCAN = 12
FLAT_SCAN = 1023      # 10 bits of item number in the key
LENGTH_CAP = np.int32((1 << 21) - 1)
#: The stop flag is read (and ``work`` checked) once per ``POLL`` updates, about every 0.2 ms.
POLL = 1 << 16
#: The choice pass adapts to the problem: keeping ``length[0]`` (the count of active primary items
#: without options) costs a test per update and lets the scan stop at the first item with one
#: option; without it the scan runs over every primary item (stopping only at an empty one). With
#: more than ``n1 * SCAN_WEIGHT`` updates per node so far, the next kernel call scans instead.
SCAN_WEIGHT = 1


def keeps_count(L: Links, state: np.ndarray) -> bool:
    """Whether the next call of the search should keep ``length[0]``, by the run so far."""
    return int(state[UPDATES]) <= int(state[NODES]) * int(L.n1) * SCAN_WEIGHT


@njit(cache=True, nogil=True)
def count_empty(L):
    """Set ``length[0]`` to the number of active primary items without options (covered items
    carry ``COVERED``). Cost: one pass over the primary items."""
    length = L.length
    empty = 0
    for i in range(1, L.n1 + 1):
        if length[i] == 0:
            empty += 1
    length[0] = empty


def new_state(n_primary: int) -> tuple[np.ndarray, np.ndarray]:
    """``(choice, state)`` for a search that has not started. Every level covers at least one more
    primary item, so a solution is at most ``n_primary`` levels deep."""
    return np.zeros(n_primary + 1, np.uint32), np.zeros(STATE_SIZE, np.int64)


@njit(cache=True, nogil=True)
def event(trace, kind, level, a, b):
    """Record one event of a traced search (see :mod:`dlx.tracing`)."""
    at = 1 + 4 * trace[0]
    trace[at] = kind
    trace[at + 1] = level
    trace[at + 2] = a
    trace[at + 3] = b
    trace[0] += 1


@njit(cache=True, nogil=True)
def search(L, choice, state, want, max_nodes, work, early, out, ends, counting=True, trace=None):
    """Run until ``want`` more solutions have been visited, the tree is exhausted, the node count
    reaches ``max_nodes``, ``state[STOP]`` is set, or about ``work`` updates are spent; returns how
    many solutions this call visited. ``state[PHASE]`` says which (a status code: RUNNING, COMPLETE,
    MAX_NODES, STOPPED, or EXHAUSTED). A RUNNING, MAX_NODES or STOPPED search can be called again
    to go on, with a larger ``max_nodes`` after MAX_NODES.

    With ``early`` set, the search ends as soon as no level has an option left to try, without
    taking back the options still applied: the phase becomes EXHAUSTED and the caller either calls
    :func:`unwind` or, faster, restores a copy of the links. On an easy puzzle every level is forced,
    so this saves the whole way back.

    When ``ends`` is not empty, solution ``j`` of this call is written as option numbers (in level
    order) to ``out[ends[j-1]:ends[j]]``; the call also pauses when ``out`` could not hold one more
    solution of the largest possible size (``choice.size`` options).

    Counts follow DLX1 exactly: a node per level entered (dead ends and solutions included); an
    update per item covered and per node unlinked. Item choice: the active primary item with the
    fewest options, the leftmost on ties; its options are tried top to bottom. The search spends
    less than DLX1 on choosing: when ``length[0]`` says an active primary item has no option the
    level is a dead end at once, and otherwise the scan stops at the first item with one option.
    With ``state[FLOOR]`` and ``state[CEILING]`` set the search is a piece of a split one (see
    :mod:`.base`): forced levels below the floor, a pause (phase SPLIT) at the ceiling.

    Where updates per node are many, keeping ``length[0]`` costs more than it saves: with
    ``counting`` false (see :func:`scanning_search`) the search scans every item instead, and counts
    ``length[0]`` afresh before it returns; either way it chooses the same item.

    ``trace`` (see :func:`traced_search`), when given, receives an event per step: the item chosen
    and its options, each option tried, dead ends, solutions and backtracks. Without it numba
    compiles the search with none of that code.
    """
    llink, rlink, length, top, ulink, dlink, n1 = L
    phase = state[PHASE]
    if phase != st.RUNNING and phase != st.MAX_NODES and phase != st.STOPPED:
        return 0
    phase = st.RUNNING
    record = ends.size > 0
    nodes = state[NODES]
    updates = state[UPDATES]
    level = state[LEVEL]
    step = state[STEP]
    floor = state[FLOOR]
    ceiling = state[CEILING] if state[CEILING] > 0 else NO_CEILING
    poll = updates            # a stop asked for between calls is seen at once
    end = updates + work
    found = 0
    used = 0
    best = ZERO
    cur = ZERO
    branching = 0     # applied levels whose item has an option after the one being tried
    for l in range(level):
        if dlink[choice[l]] != top[choice[l]]:
            branching += 1
    while True:
        if step == FORWARD:
            if updates >= poll:
                poll = updates + POLL
                if state[STOP] != 0:
                    phase = st.STOPPED
                    break
                if updates >= end:
                    break
            if level < floor:
                # a forced level: its option is given; the item is the option's, as chosen before
                cur = choice[level]
                best = top[cur]
                cover(best, L, counting)
                step = ADVANCE
                continue
            if nodes >= max_nodes:
                phase = st.MAX_NODES
                break
            if trace is not None and (trace.size - 1) // 4 - trace[0] < level + 4:
                break       # room for the events up to the next FORWARD: backups, a try, a choice
            if level == ceiling:
                phase = st.SPLIT
                step = BACKUP
                break
            nodes += 1
            if rlink[ZERO] == ZERO:
                # every primary item is covered: visit the solution of levels 0..level-1
                found += 1
                if trace is not None:
                    event(trace, SOLUTION_EVENT, level, state[SOLUTIONS] + found, 0)
                if record:
                    for l in range(level):
                        out[used + l] = option_of(choice[l], top)
                    used += level
                    ends[found - 1] = used
                step = BACKUP
                if found == want or (record and (found == ends.size or used + choice.size > out.size)):
                    break
                continue
            if counting and length[0] != 0:
                # an active primary item has no options left: DLX1 would choose it, cover it (one
                # update) and back up at once; do the same without the scan and the cover
                updates += 1
                if trace is not None:
                    k = rlink[ZERO]
                    while length[k] != 0:
                        k = rlink[k]
                    event(trace, DEAD_EVENT, level, np.int64(k) - 1, 0)
                step = BACKUP
                continue
            # with the count, every active primary item has an option, so the first with just one
            # is a minimum; without it, the first empty one is
            stop_at = 1 if counting else 0
            t = COVERED
            k = rlink[ZERO]
            steps = 0
            while k != ZERO and (steps < QUICK_SCAN or n1 > FLAT_SCAN):
                if length[k] < t:
                    best = k
                    t = length[k]
                    if t == stop_at:
                        break
                k = rlink[k]
                steps += 1
            if t != stop_at and k != ZERO:
                key = np.int32(0x7FFFFFFF)
                for i in range(1, n1 + 1):
                    key = min(key, (min(length[i], LENGTH_CAP) << np.int32(10)) | np.int32(i))
                if key >> 10 < LENGTH_CAP:
                    best = np.uint32(key & 1023)
                    t = key >> 10
                else:
                    while k != ZERO:
                        if length[k] < t:
                            best = k
                            t = length[k]
                        k = rlink[k]
            if t == 0:
                updates += 1      # a dead end, as above
                if trace is not None:
                    event(trace, DEAD_EVENT, level, np.int64(best) - 1, 0)
                step = BACKUP
                continue
            if trace is not None:
                event(trace, CHOOSE_EVENT, level, np.int64(best) - 1, t)
            updates += cover(best, L, counting)
            cur = dlink[best]
            choice[level] = cur
            if dlink[cur] != best:
                branching += 1
            step = ADVANCE
        elif step == ADVANCE:
            if cur == best:
                if trace is not None:
                    event(trace, BACKUP_EVENT, level, np.int64(best) - 1, 0)
                uncover(best, L, counting)
                step = BACKUP
                continue
            if trace is not None:
                k = 1
                x = ulink[cur]
                while x != best:
                    k += 1
                    x = ulink[x]
                event(trace, TRY_EVENT, level, option_of(cur, top), k)
            done = cover_others(cur, L, counting)
            if floor <= level + 1 < ceiling:      # the try opens a level this run owns
                updates += done
            level += 1
            step = FORWARD
        elif step == RECOVER:
            uncover_others(cur, L, counting)
            cur = dlink[cur]
            choice[level] = cur
            if cur != best and dlink[cur] == best:
                branching -= 1      # this level tries its last option now
            step = ADVANCE
        else:  # BACKUP
            if level <= floor:
                phase = st.COMPLETE
                break
            if early and branching == 0:
                phase = st.EXHAUSTED
                break
            level -= 1
            cur = choice[level]
            best = top[cur]
            step = RECOVER
    if not counting:
        count_empty(L)
    state[PHASE] = phase
    state[LEVEL] = level
    state[STEP] = step
    state[NODES] = nodes
    state[UPDATES] = updates
    state[SOLUTIONS] += found
    return found


@njit(cache=True, nogil=True)
def scanning_search(L, choice, state, want, max_nodes, work, early, out, ends, counting=False):
    """:func:`search` without ``length[0]``: ``counting`` reaches it as a constant False, so numba
    compiles a version whose dancing loops do not keep the count."""
    return search(L, choice, state, want, max_nodes, work, early, out, ends, counting)


@njit(cache=True, nogil=True)
def traced_search(L, choice, state, want, max_nodes, work, out, ends, trace):
    """:func:`search` recording its steps into ``trace`` (int64): ``trace[0]`` counts the events
    recorded, event ``e`` is ``trace[1 + 4*e : 5 + 4*e]`` = (kind, level, a, b) as
    :mod:`dlx.tracing` describes. The search pauses (phase still RUNNING) when the next node's
    events might not fit; the caller empties the trace (``trace[0] = 0``) and calls again. Nodes,
    updates and choices are those of the untraced search."""
    return search(L, choice, state, want, max_nodes, work, False, out, ends, True, trace)


@njit(cache=True, nogil=True)
def unwind(L, choice, state):
    """Take back every applied level: the links are as built, and the search is over."""
    for level in range(state[LEVEL] - 1, -1, -1):
        cur = choice[level]
        uncover_others(cur, L)
        uncover(L.top[cur], L)
    state[LEVEL] = 0
    state[STEP] = FORWARD
    if state[PHASE] != st.COMPLETE:
        state[PHASE] = st.STOPPED


def applied(L: Links, choice: np.ndarray, state: np.ndarray) -> list[int]:
    """The option numbers applied at the levels of a paused search, in level order."""
    return [int(option_of(choice[level], L.top)) for level in range(state[LEVEL])]


def warm_up(L: Links) -> None:
    """Load the compiled search for these types (from numba's cache, on a process's first search)
    by a call that does nothing: a budget of 0 nodes. Keeps the loading out of a search's time.
    The scanning search loads when a run first needs it (a long one: it has spent ``WORK``
    updates), so that a short run loads one kernel."""
    choice, state = new_state(int(L.n1))
    empty = np.zeros(0, np.int32)
    search(L, choice, state, np.int64(1), np.int64(0), np.int64(1), False, empty, empty)
    assert state[PHASE] == st.MAX_NODES and state[NODES] == 0



class DLX1:
    """Knuth's DLX1: nodes and updates counted exactly as his program counts them."""

    name = "dlx1"

    def prepare(self, problem) -> Links:
        L = links.build(problem._link_start, problem._link_items, problem.n_items, problem.n_primary)
        warm_up(links.copy(L))
        return L

    def copy(self, structure: Links) -> Links:
        return links.copy(structure)

    def restore(self, structure: Links, pristine: Links) -> None:
        links.restore(structure, pristine)

    def start(self, structure: Links) -> Machine:
        return Machine(*new_state(int(structure.n1)))

    def advance(self, structure, machine, want, max_nodes, work, out, ends, trace=None) -> int:
        if trace is not None:
            return traced_search(structure, machine.choice, machine.state, want, max_nodes, work, out,
                                 ends, trace)
        run = search if keeps_count(structure, machine.state) else scanning_search
        return run(structure, machine.choice, machine.state, want, max_nodes, work, False, out, ends)

    def unwind(self, structure, machine) -> None:
        unwind(structure, machine.choice, machine.state)

    def untried(self, structure, machine, level: int, pristine=None) -> list[int]:
        """The nodes a paused run has yet to try at ``level``: those below its choice on the list."""
        x = int(machine.choice[level])
        header, dlink = int(structure.top[x]), structure.dlink
        later = []
        x = int(dlink[x])
        while x != header:
            later.append(x)
            x = int(dlink[x])
        return later

    def applied(self, structure, machine) -> list[int]:
        return applied(structure, machine.choice, machine.state)

    def check(self, problem, structure, machine: Machine | None) -> None:
        done = [] if machine is None else self.applied(structure, machine)
        links.check(structure, problem._link_start, problem._link_items, done)

    def first_nodes(self, problem) -> np.ndarray:
        return links.first_nodes(problem._link_start, problem.n_items)

    def solve_batch(self, structure, pristine, scratch, *arrays) -> bool:
        from .batch import solve_batch      # here, not at the top: batch.py builds on this module
        return solve_batch(structure, pristine, *arrays, *scratch.arrays())

    def reduce_row(self, structure, scratch, first_node, group_start, row, units, unit_ends, keep,
                   minimal, budget) -> int:
        """See ``batch.reduce_row``: the values of ``row`` taken away while it stays unique."""
        from .batch import reduce_row
        return reduce_row(structure, first_node, group_start, row, units, unit_ends, keep, minimal,
                          np.int64(budget), scratch.machine.choice, scratch.machine.state, scratch.chosen,
                          np.zeros(unit_ends.size, np.int64))
