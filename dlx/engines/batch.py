"""Many variants of one problem in one kernel call, each with some options selected in advance.

The kernel is resumable, as the search is: it returns after about ``work`` updates (so the caller
can handle a signal or a request to stop) with its place kept in ``where`` and the search arrays,
and the next call goes on from there.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .. import status as st
from . import cells, dlx3
from .base import NODES, PHASE, UPDATES
from .dlx1 import search, unwind
from .links import ZERO, deselect, restore, select

# indices into ``where``: the row being solved, how far it got, how many options it selected
ROW, STAGE, CHOSEN = 0, 1, 2
NEW_ROW, FIRST, MORE = 0, 1, 2     # stages of a row: nothing done, seeking the first solution, counting on


class Scratch:
    """The arrays one batch kernel call works in: a search ``machine`` (an engine's fresh one) and
    what the rows need for ``n_groups`` groups; allocated once per call of :meth:`dlx.Batch.solve`,
    not per row."""

    def __init__(self, machine, n_groups: int) -> None:
        self.where = np.zeros(3, np.int64)
        self.chosen = np.zeros(n_groups, np.uint32)
        self.machine = machine
        self.out = np.zeros(machine.choice.size, np.int32)
        self.ends = np.zeros(1, np.int32)

    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.where, self.chosen, *self.machine.arrays(), self.out, self.ends


@njit(cache=True, nogil=True)
def solve_batch(L, pristine, first_node, group_start, option_group, option_value, rows, limit,
                max_nodes, work, answers, counts, nodes, status, where, chosen, choice, state, out, ends):
    """Solve rows ``where[ROW]`` onwards; returns True when every row is done, False when about
    ``work`` updates were spent first (call again to go on).

    The options are split into groups of consecutive options (group ``j`` is options
    ``group_start[j]`` to ``group_start[j+1]-1``); in row ``r`` of ``rows``, a value ``v > 0`` in
    column ``j`` selects option ``group_start[j] + v - 1`` and 0 selects nothing. For each row the
    kernel selects those options, counts the solutions of what is left (up to ``limit``), writes
    the first one into ``answers[r]`` in the same form (the value of the option each group got, 0
    for none), then deselects: the links are as built again after every row. ``first_node[o]`` is
    the first node of option ``o``; ``option_group``/``option_value`` map an option back to its
    group and value (-1/0 for an option outside every group). ``counts[r]``, ``nodes[r]`` and
    ``status[r]`` (status codes SOLVED, NO_SOLUTION, INVALID, MAX_NODES) say how it went.

    A search that ends with options still applied (paused at the last solution wanted, out of
    nodes, or exhausted early) is not unwound step by step: ``pristine`` (the links as built) is
    copied back, which costs less than undoing every level of an easy puzzle.
    """
    n_rows, n_groups = rows.shape
    no_ends = ends[:0]
    r = where[ROW]
    stage = where[STAGE]
    n_chosen = where[CHOSEN]
    spent = 0
    while r < n_rows:
        if stage == NEW_ROW:
            if spent >= work:
                break
            answers[r, :] = 0
            counts[r] = 0
            nodes[r] = 0
            n_chosen = 0
            status[r] = st.SOLVED
            for j in range(n_groups):
                v = rows[r, j]
                if v == 0:
                    continue
                if v > group_start[j + 1] - group_start[j]:
                    status[r] = st.INVALID
                    break
                x = first_node[group_start[j] + v - 1]
                if select(x, L) < 0:
                    status[r] = st.INVALID
                    break
                chosen[n_chosen] = x
                n_chosen += 1
                answers[r, j] = v
            if status[r] == st.SOLVED and L.rlink[ZERO] == ZERO:
                counts[r] = 1     # the selected options cover everything already
            elif status[r] == st.SOLVED and limit > 0:
                state[:] = 0
                stage = FIRST
        if stage != NEW_ROW:
            before = state[UPDATES]
            if stage == FIRST:
                found = search(L, choice, state, 1, max_nodes, work - spent, True, out, ends)
                if found:
                    for k in range(ends[0]):
                        o = out[k]
                        if option_group[o] >= 0:
                            answers[r, option_group[o]] = option_value[o]
                    counts[r] = 1
                    stage = MORE
            if stage == MORE and counts[r] < limit:
                counts[r] += search(L, choice, state, limit - counts[r], max_nodes, work - spent, True,
                                    out, no_ends)
            spent += state[UPDATES] - before
            if (state[PHASE] == st.RUNNING or state[PHASE] == st.STOPPED) and counts[r] < limit:
                break             # out of work (or asked to stop) in the middle of this row
            if state[PHASE] == st.MAX_NODES:
                status[r] = st.MAX_NODES
            elif counts[r] == 0:
                status[r] = st.NO_SOLUTION
            nodes[r] = state[NODES]
            if state[PHASE] != st.COMPLETE:
                # options are still applied: put the links back wholesale, givens and all
                restore(L, pristine)
                n_chosen = 0
        if status[r] == st.INVALID or status[r] == st.NO_SOLUTION:
            answers[r, :] = 0
        for k in range(n_chosen - 1, -1, -1):
            deselect(chosen[k], L)
        n_chosen = 0
        stage = NEW_ROW
        r += 1
    where[ROW] = r
    where[STAGE] = stage
    where[CHOSEN] = n_chosen
    return r == n_rows



@njit(cache=True, nogil=True)
def solve_batch_m(L, pristine, first_node, group_start, option_group, option_value, rows, limit,
                  max_nodes, work, answers, counts, nodes, status, where, chosen, choice, first_tweak,
                  state, out, ends):
    """:func:`solve_batch` for the structure of DLX2/DLX3 (colours, multiplicities): the same
    arguments and results, with the search of :mod:`.dlx3`. A selected option is taken off its
    lists and its items applied as a chosen option's are; an option that is no longer possible
    makes the row INVALID."""
    n_rows, n_groups = rows.shape
    no_ends = ends[:0]
    tally = np.zeros(2, np.int64)
    r = where[ROW]
    stage = where[STAGE]
    n_chosen = where[CHOSEN]
    spent = 0
    while r < n_rows:
        if stage == NEW_ROW:
            if spent >= work:
                break
            answers[r, :] = 0
            counts[r] = 0
            nodes[r] = 0
            n_chosen = 0
            status[r] = st.SOLVED
            for j in range(n_groups):
                v = rows[r, j]
                if v == 0:
                    continue
                if v > group_start[j + 1] - group_start[j]:
                    status[r] = st.INVALID
                    break
                x = first_node[group_start[j] + v - 1]
                if not dlx3.select(x, L, tally):
                    status[r] = st.INVALID
                    break
                chosen[n_chosen] = x
                n_chosen += 1
                answers[r, j] = v
            if status[r] == st.SOLVED:
                state[:] = 0
                stage = FIRST
        if stage != NEW_ROW:
            before = state[UPDATES]
            if stage == FIRST:
                found = dlx3.search(L, choice, first_tweak, state, 1, max_nodes, work - spent, out, ends)
                if found:
                    for k in range(ends[0]):
                        o = out[k]
                        if option_group[o] >= 0:
                            answers[r, option_group[o]] = option_value[o]
                    counts[r] = 1
                    stage = MORE
            if stage == MORE and counts[r] < limit:
                counts[r] += dlx3.search(L, choice, first_tweak, state, limit - counts[r], max_nodes,
                                         work - spent, out, no_ends)
            spent += state[UPDATES] - before
            if (state[PHASE] == st.RUNNING or state[PHASE] == st.STOPPED) and counts[r] < limit:
                break             # out of work (or asked to stop) in the middle of this row
            if state[PHASE] == st.MAX_NODES:
                status[r] = st.MAX_NODES
            elif counts[r] == 0:
                status[r] = st.NO_SOLUTION
            nodes[r] = state[NODES]
            if state[PHASE] != st.COMPLETE:
                dlx3.restore(L, pristine)      # options still applied: back to as built at once
                n_chosen = 0
        if status[r] == st.INVALID or status[r] == st.NO_SOLUTION:
            answers[r, :] = 0
        for k in range(n_chosen - 1, -1, -1):
            dlx3.deselect(chosen[k], L)
        n_chosen = 0
        stage = NEW_ROW
        r += 1
    where[ROW] = r
    where[STAGE] = stage
    where[CHOSEN] = n_chosen
    return r == n_rows


@njit(cache=True, nogil=True)
def solve_batch_cells(C, first_node, group_start, option_group, option_value, rows, limit,
                      max_nodes, work, answers, counts, nodes, status, where, chosen, choice, saved,
                      stack, state, out, ends):
    """:func:`solve_batch` for dancing cells: the same arguments and results (less ``pristine``:
    the sets keep their origin), with the search of :mod:`.cells`. After every row the sets are
    put back as built, exactly, so a row's answer never depends on the rows before it. Returns
    False also when the search needs a larger save stack (``state[GROW]``)."""
    n_rows, n_groups = rows.shape
    no_ends = ends[:0]
    tally = np.zeros(2, np.int64)
    r = where[ROW]
    stage = where[STAGE]
    spent = 0
    while r < n_rows:
        if stage == NEW_ROW:
            if spent >= work:
                break
            answers[r, :] = 0
            counts[r] = 0
            nodes[r] = 0
            status[r] = st.SOLVED
            state[:] = 0
            state[cells.ACTIVE1] = C.n1
            state[cells.ACTIVE2] = C.n_items
            for j in range(n_groups):
                v = rows[r, j]
                if v == 0:
                    continue
                if v > group_start[j + 1] - group_start[j]:
                    status[r] = st.INVALID
                    break
                if not cells.select(first_node[group_start[j] + v - 1], C, state, tally):
                    status[r] = st.INVALID
                    break
                answers[r, j] = v
            if status[r] == st.SOLVED and state[cells.ACTIVE1] == 0:
                counts[r] = 1     # the selected options cover everything already
            elif status[r] == st.SOLVED:
                stage = FIRST
        if stage != NEW_ROW:
            before = state[UPDATES]
            if stage == FIRST:
                found = cells.search(C, choice, saved, stack, state, 1, max_nodes, work - spent, True,
                                     out, ends)
                if found:
                    for k in range(ends[0]):
                        o = out[k]
                        if option_group[o] >= 0:
                            answers[r, option_group[o]] = option_value[o]
                    counts[r] = 1
                    stage = MORE
            if stage == MORE and counts[r] < limit:
                counts[r] += cells.search(C, choice, saved, stack, state, limit - counts[r], max_nodes,
                                          work - spent, True, out, no_ends)
            spent += state[UPDATES] - before
            if (state[PHASE] == st.RUNNING or state[PHASE] == st.STOPPED) and counts[r] < limit:
                break             # out of work, out of stack or asked to stop in this row
            if state[PHASE] == st.MAX_NODES:
                status[r] = st.MAX_NODES
            elif counts[r] == 0:
                status[r] = st.NO_SOLUTION
            nodes[r] = state[NODES]
        if status[r] == st.INVALID or status[r] == st.NO_SOLUTION:
            answers[r, :] = 0
        cells.restore(C)
        stage = NEW_ROW
        r += 1
    where[ROW] = r
    where[STAGE] = stage
    return r == n_rows


@njit(cache=True, nogil=True)
def _push(u, units, unit_ends, row, first_node, group_start, L, stack, sp):
    """Select the options of unit ``u`` of ``row`` (its groups with a value) onto ``stack`` from
    ``sp``; returns how many, or -1 (with none left selected) when one clashes."""
    pushed = 0
    for k in range(unit_ends[u - 1] if u else 0, unit_ends[u]):
        j = units[k]
        if row[j] == 0:
            continue
        x = first_node[group_start[j] + row[j] - 1]
        if select(x, L) < 0:
            for _ in range(pushed):
                deselect(stack[sp + pushed - 1], L)
                pushed -= 1
            return -1
        stack[sp + pushed] = x
        pushed += 1
    return pushed


@njit(cache=True, nogil=True)
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
    found = search(L, choice, state, 2, budget, np.int64(1) << 62, False, none, none)
    if state[PHASE] != st.COMPLETE:
        if state[PHASE] == st.MAX_NODES:
            found = 2
        unwind(L, choice, state)
    return found


@njit(cache=True, nogil=True)
def reduce_row(L, first_node, group_start, row, units, unit_ends, keep, minimal, budget, choice, state, stack,
               fixed):
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
            x = first_node[group_start[j] + row[j] - 1]
            if select(x, L) < 0:
                clash = True
                break
            stack[sp] = x
            sp += 1
    sizes = np.zeros(n_units, np.int64)
    if not clash:
        for u in range(n_units - 1, -1, -1):
            pushed = _push(u, units, unit_ends, row, first_node, group_start, L, stack, sp)
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
            sp += _push(fixed[f], units, unit_ends, row, first_node, group_start, L, stack, sp)
        if given - size >= keep and _count2(L, choice, state, budget) == 1:
            for k in range(unit_ends[t - 1] if t else 0, unit_ends[t]):
                row[units[k]] = 0
            given -= size
        else:
            sp += _push(t, units, unit_ends, row, first_node, group_start, L, stack, sp)
            fixed[n_fixed] = t
            n_fixed += 1
            on_top += size
            if not minimal and given - size >= keep:
                break
    _pop(sp, L, stack, sp)
    return 1
