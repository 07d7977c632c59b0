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
from . import batch, links
from .base import (
    BACKUP_EVENT,
    CHOOSE_EVENT,
    DEAD_EVENT,
    FLOOR,
    LEAVE,
    LEVEL,
    NO,
    NODES,
    ONE_SOLUTION,
    PHASE,
    POLL,
    SOLUTION_EVENT,
    SOLUTIONS,
    STATE_SIZE,
    STEP,
    STOP,
    TRY_EVENT,
    TWO_SOLUTIONS,
    UPDATES,
    YES,
    Machine,
    Options,
    ceiling_of,
    resumable,
    settle,
)
from .batch import CHOSEN, FIRST, MORE, NEW_ROW, NO_NODE, ROW, STAGE
from .links import COVERED, ZERO, Links, cover, cover_others, deselect, option_of, select, uncover, uncover_others

FORWARD, ADVANCE, RECOVER, BACKUP = 0, 1, 2, 3
assert BACKUP == LEAVE

#: The item choice: first a quick walk along the active items that stops at an item with one
#: option; after ``QUICK_SCAN`` items, when there are at most ``FLAT_SCAN`` primary items, one
#: vectorised pass over ``length`` for the least key (length, item). Lengths are capped at
#: ``LENGTH_CAP`` so that the key fits 31 bits; if the cap is reached the walk finishes the job.
QUICK_SCAN = 12
FLAT_SCAN = 1023      # 10 bits of item number in the key
LENGTH_CAP = np.int32((1 << 21) - 1)
#: The choice pass adapts to the problem: keeping ``length[0]`` (the count of active primary items
#: without options) costs a test per update and lets the scan stop at the first item with one
#: option; without it the scan runs over every primary item (stopping only at an empty one). With
#: more than ``n1 * SCAN_WEIGHT`` updates per node so far, the next kernel call scans instead.
SCAN_WEIGHT = 1


def keeps_count(L: Links, state: np.ndarray) -> bool:
    """Whether the next call of the search should keep ``length[0]``, by the run so far."""
    return int(state[UPDATES]) <= int(state[NODES]) * int(L.n1) * SCAN_WEIGHT


@njit(cache=True, nogil=True, _nrt=False)
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


@njit(cache=True, nogil=True, _nrt=False)
def event(trace, kind, level, a, b):
    """Record one event of a traced search (see [`dlx.tracing`][dlx.tracing])."""
    at = 1 + 4 * trace[0]
    trace[at] = kind
    trace[at + 1] = level
    trace[at + 2] = a
    trace[at + 3] = b
    trace[0] += 1


@njit(cache=True, nogil=True, _nrt=False)
def search(L, choice, state, want, max_nodes, work, early, out, ends, counting=True, trace=None):
    """Run until ``want`` more solutions have been visited, the tree is exhausted, the node count
    reaches ``max_nodes``, ``state[STOP]`` is set, or about ``work`` updates are spent; returns how
    many solutions this call visited. ``state[PHASE]`` says which (a status code: RUNNING, COMPLETE,
    MAX_NODES, STOPPED, or EXHAUSTED). A RUNNING, MAX_NODES or STOPPED search can be called again
    to go on, with a larger ``max_nodes`` after MAX_NODES.

    With ``early`` set, the search ends as soon as no level has an option left to try, without
    taking back the options still applied: the phase becomes EXHAUSTED and the caller either calls
    `unwind` or, faster, restores a copy of the links. On an easy puzzle every level is forced,
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
    [`base`][dlx.engines.base]): forced levels below the floor, a pause (phase SPLIT) at the ceiling.

    Where updates per node are many, keeping ``length[0]`` costs more than it saves: with
    ``counting`` false (see `scanning_search`) the search scans every item instead, and counts
    ``length[0]`` afresh before it returns; either way it chooses the same item.

    ``trace`` (see `traced_search`), when given, receives an event per step: the item chosen
    and its options, each option tried, dead ends, solutions and backtracks. Without it numba
    compiles the search with none of that code.
    """
    llink, rlink, length, top, ulink, dlink, n1 = L
    if not resumable(state):
        return 0
    phase = st.RUNNING
    record = ends.size > 0
    nodes = state[NODES]
    updates = state[UPDATES]
    level = state[LEVEL]
    step = state[STEP]
    floor = state[FLOOR]
    ceiling = ceiling_of(state)
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
    settle(state, phase, level, step, nodes, updates, 0, found)
    return found


@njit(cache=True, nogil=True, _nrt=False)
def scanning_search(L, choice, state, want, max_nodes, work, early, out, ends, counting=False):
    """[`search`][dlx.search] without ``length[0]``: ``counting`` reaches it as a constant False, so numba
    compiles a version whose dancing loops do not keep the count."""
    return search(L, choice, state, want, max_nodes, work, early, out, ends, counting)


@njit(cache=True, nogil=True, _nrt=False)
def traced_search(L, choice, state, want, max_nodes, work, out, ends, trace):
    """[`search`][dlx.search] recording its steps into ``trace`` (int64): ``trace[0]`` counts the events
    recorded, event ``e`` is ``trace[1 + 4*e : 5 + 4*e]`` = (kind, level, a, b) as
    [`dlx.tracing`][dlx.tracing] describes. The search pauses (phase still RUNNING) when the next node's
    events might not fit; the caller empties the trace (``trace[0] = 0``) and calls again. Nodes,
    updates and choices are those of the untraced search."""
    return search(L, choice, state, want, max_nodes, work, False, out, ends, True, trace)


@njit(cache=True, nogil=True, _nrt=False)
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


# --- many variants of the problem in one call (see `batch`)


@njit(cache=True, nogil=True, _nrt=False)
def solve_batch(L, pristine, G, R, rows, limit, max_nodes, work, where, chosen, choice, state, out, ends):
    """Solve rows ``where[ROW]`` onwards (see [`batch`][dlx.batch]); returns True when every row is done,
    False when about ``work`` updates were spent first (call again to go on). The selected options
    are covered as a chosen option's items are; one whose item is covered already makes the row
    INVALID.

    A search that ends with options still applied (paused at the last solution wanted, out of
    nodes, or exhausted early) is not unwound step by step: ``pristine`` (the links as built) is
    copied back, which costs less than undoing every level of an easy puzzle.
    """
    n_rows, n_groups = rows.shape
    first_node, group_start, option_group, option_value = G
    answers, counts, nodes, status = R
    no_ends = ends[:0]
    r = where[ROW]
    stage = where[STAGE]
    n_chosen = where[CHOSEN]
    spent = 0
    while r < n_rows:
        if stage == NEW_ROW:
            if spent >= work:
                break
            batch.begin_row(answers, counts, nodes, status, r)
            n_chosen = 0
            for j in range(n_groups):
                x = batch.given(first_node, group_start, rows, r, j)
                if x == 0:
                    continue
                if x == NO_NODE or select(x, L) < 0:
                    status[r] = st.INVALID
                    break
                chosen[n_chosen] = x
                n_chosen += 1
                answers[r, j] = rows[r, j]
            if status[r] == st.SOLVED and L.rlink[ZERO] == ZERO:
                counts[r] = 1     # the selected options cover everything already
            elif status[r] == st.SOLVED and limit > 0:
                state[:] = 0
                stage = FIRST
        if stage != NEW_ROW:
            before = state[UPDATES]
            if stage == FIRST:
                if search(L, choice, state, ONE_SOLUTION, max_nodes, work - spent, YES, out, ends):
                    batch.first_found(option_group, option_value, answers, counts, r, out, ends)
                    stage = MORE
            if stage == MORE and counts[r] < limit:
                counts[r] += search(L, choice, state, limit - counts[r], max_nodes, work - spent, YES,
                                      out, no_ends)
            spent += state[UPDATES] - before
            if batch.unfinished(state, counts, r, limit):
                break
            batch.row_done(state, counts, nodes, status, r, state[NODES])
            if state[PHASE] != st.COMPLETE:
                # options are still applied: put the links back wholesale, givens and all
                links.restore(L, pristine)
                n_chosen = 0
        batch.end_row(answers, status, r)
        for k in range(n_chosen - 1, -1, -1):
            deselect(chosen[k], L)
        n_chosen = 0
        stage = NEW_ROW
        r += 1
    where[ROW] = r
    where[STAGE] = stage
    where[CHOSEN] = n_chosen
    return r == n_rows


@njit(cache=True, nogil=True, _nrt=False)
def _push(u, units, unit_ends, row, G, L, stack, sp):
    """Select the options of unit ``u`` of ``row`` (its groups with a value) onto ``stack`` from
    ``sp``; returns how many, or -1 (with none left selected) when one clashes."""
    pushed = 0
    for k in range(unit_ends[u - 1] if u else 0, unit_ends[u]):
        j = units[k]
        if row[j] == 0:
            continue
        x = G.first_node[G.group_start[j] + row[j] - 1]
        if select(x, L) < 0:
            for _ in range(pushed):
                deselect(stack[sp + pushed - 1], L)
                pushed -= 1
            return -1
        stack[sp + pushed] = x
        pushed += 1
    return pushed


@njit(cache=True, nogil=True, _nrt=False)
def _pop(n, L, stack, sp):
    """Deselect the top ``n`` options of ``stack`` (in the reverse order of selection)."""
    for _ in range(n):
        sp -= 1
        deselect(stack[sp], L)
    return sp


@njit(cache=True, nogil=True)
def _count2(L, choice, state, budget):
    """Solutions of what is selected, up to 2, within ``budget`` nodes (2 when it runs out: not
    proven unique); the links are as they were after."""
    state[:] = 0
    none = np.zeros(0, np.int32)
    found = search(L, choice, state, TWO_SOLUTIONS, budget, np.int64(1) << 62, NO, none, none)
    if state[PHASE] != st.COMPLETE:
        if state[PHASE] == st.MAX_NODES:
            found = 2
        unwind(L, choice, state)
    return found


@njit(cache=True, nogil=True)
def reduce_row(L, G, row, units, unit_ends, keep, minimal, budget, choice, state, stack, fixed):
    """Take the values of ``row`` away, unit by unit (unit ``u`` is the groups
    ``units[unit_ends[u-1]:unit_ends[u]]``), in unit order, keeping each removal that leaves exactly
    one solution, and stopping at ``keep`` values (or, unless ``minimal``, at the first unit that
    has to stay). A test that needs more than ``budget`` nodes keeps its unit (not proven to go).
    ``row`` is changed in place. Returns the solutions of the row as given, up to 2 (the row is
    reduced only when that is 1), or -1 when its values clash.

    Every value stays selected between tests, so a test costs a search, not a row's selection:
    the units wait on the stack in reverse order (unit ``t`` on top when its turn comes), under
    the units that had to stay, which are selected again on top after each removal. The links are
    as built when it returns. ``stack`` holds a node per group, ``fixed`` a unit number per unit.
    """
    n_groups = row.size
    n_units = unit_ends.size
    in_unit = np.zeros(n_groups, np.bool_)
    for k in range(units.size):
        in_unit[units[k]] = True
    sp = 0
    given = 0
    clash = False
    for j in range(n_groups):
        if row[j] == 0:
            continue
        given += 1
        if not in_unit[j]:
            x = G.first_node[G.group_start[j] + row[j] - 1]
            if select(x, L) < 0:
                clash = True
                break
            stack[sp] = x
            sp += 1
    sizes = np.zeros(n_units, np.int64)
    if not clash:
        for u in range(n_units - 1, -1, -1):
            pushed = _push(u, units, unit_ends, row, G, L, stack, sp)
            if pushed < 0:
                clash = True
                break
            sizes[u] = pushed
            sp += pushed
    if clash:
        _pop(sp, L, stack, sp)
        return -1
    count = _count2(L, choice, state, np.int64(1) << 62)
    if count != 1:
        _pop(sp, L, stack, sp)
        return count
    n_fixed = 0
    on_top = 0        # nodes of the units that stay, above the unit whose turn it is
    for t in range(n_units):
        if given <= keep:
            break
        size = sizes[t]
        if size == 0:
            continue
        sp = _pop(on_top + size, L, stack, sp)
        for f in range(n_fixed):
            sp += _push(fixed[f], units, unit_ends, row, G, L, stack, sp)
        if given - size >= keep and _count2(L, choice, state, budget) == 1:
            for k in range(unit_ends[t - 1] if t else 0, unit_ends[t]):
                row[units[k]] = 0
            given -= size
        else:
            sp += _push(t, units, unit_ends, row, G, L, stack, sp)
            fixed[n_fixed] = t
            n_fixed += 1
            on_top += size
            if not minimal and given - size >= keep:
                break
    _pop(sp, L, stack, sp)
    return 1


class DLX1:
    """Knuth's DLX1: nodes and updates counted exactly as his program counts them."""

    name = "dlx1"
    summary = "Knuth's DLX1: Algorithm X on Dancing Links"
    counts = ("DLX1's: nodes: levels entered (dead ends included) plus one per solution; updates: items "
              "covered plus nodes unlinked")
    refuses = "colours and multiplicities (DLX2 and DLX3 take them)"
    tunables = {f"{__name__}:QUICK_SCAN": 1, f"{__name__}:FLAT_SCAN": 3, f"{__name__}:LENGTH_CAP": np.int32(2),
                f"{__name__}:POLL": 1}
    samples = (("queens", (5,)),)
    searches = (search,)
    traces = True
    batches = True
    exact_splits = True

    def refusal(self, options: Options) -> str | None:
        if options.colours is not None or options.bounds is not None:
            return "DLX1 takes no colours and no multiplicities (DLX2 and DLX3 do)"
        return None

    def prepare(self, options: Options) -> Links:
        L = links.build(options.start, options.items, options.n_items, options.n_primary)
        return L

    def copy(self, structure: Links) -> Links:
        return links.copy(structure)

    def restore(self, structure: Links, pristine: Links) -> None:
        links.restore(structure, pristine)

    def start(self, structure: Links) -> Machine:
        return Machine(*new_state(int(structure.n1)))

    def advance(self, structure, machine, want, max_nodes, work, out, ends, *, early=False, trace=None) -> int:
        if trace is not None:
            return traced_search(structure, machine.choice, machine.state, want, max_nodes, work, out,
                                 ends, trace)
        run = search if keeps_count(structure, machine.state) else scanning_search
        return run(structure, machine.choice, machine.state, want, max_nodes, work, bool(early), out, ends)

    def unwind(self, structure, machine) -> None:
        unwind(structure, machine.choice, machine.state)

    def untried(self, structure, machine, level: int, pristine = None) -> list[int]:
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

    def check(self, options: Options, structure, machine: Machine | None = None) -> None:
        done = [] if machine is None else self.applied(structure, machine)
        links.check(structure, options.start, options.items, done)

    def first_nodes(self, options: Options) -> np.ndarray:
        return links.first_nodes(options.start, options.n_items)

    def solve_batch(self, structure, pristine, scratch, groups, rows, limit, max_nodes, work, results) -> bool:
        m = scratch.machine
        return solve_batch(structure, pristine, groups, results, rows, limit, max_nodes, work, scratch.where,
                           scratch.chosen, m.choice, m.state, scratch.out, scratch.ends)

    def reduce_row(self, structure, pristine, scratch, groups, row, units, unit_ends, keep, minimal,
                   budget) -> int:
        """See `reduce_row`: the values of ``row`` taken away while it stays unique."""
        m = scratch.machine
        return reduce_row(structure, groups, row, units, unit_ends, keep, minimal, np.int64(budget), m.choice,
                          m.state, scratch.chosen, np.zeros(unit_ends.size, np.int64))
