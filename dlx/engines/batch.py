"""Many variants of one problem in one kernel call, each with some options selected in advance.

The kernel is resumable, as the search is: it returns after about ``work`` updates (so the caller
can handle a signal or a request to stop) with its place kept in ``where`` and the search arrays,
and the next call goes on from there.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .. import status as st
from .dlx1 import NODES, PHASE, STATE_SIZE, UPDATES, search
from .links import ZERO, deselect, restore, select

# indices into ``where``: the row being solved, how far it got, how many options it selected
ROW, STAGE, CHOSEN = 0, 1, 2
NEW_ROW, FIRST, MORE = 0, 1, 2     # stages of a row: nothing done, seeking the first solution, counting on


class Scratch:
    """The arrays one :func:`solve_batch` call works in, for a problem of ``depth`` levels at most
    and ``n_groups`` groups; allocated once per call of :meth:`dlx.Batch.solve`, not per row."""

    def __init__(self, depth: int, n_groups: int) -> None:
        self.where = np.zeros(3, np.int64)
        self.chosen = np.zeros(n_groups, np.uint32)
        self.choice = np.zeros(depth, np.uint32)
        self.state = np.zeros(STATE_SIZE, np.int64)
        self.out = np.zeros(depth, np.int32)
        self.ends = np.zeros(1, np.int32)

    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.where, self.chosen, self.choice, self.state, self.out, self.ends


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

