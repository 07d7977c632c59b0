"""What every engine's batch kernel shares: the records it takes, the stages of a row, and the
reduction of a row for an engine without a kernel of its own. Imports no engine: each engine module
writes its own row loop (its select, search and restore stay whole in it) from these pieces.

A batch is many variants of one problem in one kernel call, each with some options selected in
advance. The options are split into groups of consecutive options (group ``j`` is options
``group_start[j]`` to ``group_start[j+1]-1``); in row ``r`` of ``rows``, a value ``v > 0`` in column
``j`` selects option ``group_start[j] + v - 1`` and 0 selects nothing. For each row the kernel
selects those options, counts the solutions of what is left (up to ``limit``), writes the first one
into ``answers[r]`` in the same form (the value of the option each group got, 0 for none), and
puts the structure back as built. ``counts[r]``, ``nodes[r]`` and ``status[r]`` (SOLVED,
NO_SOLUTION, INVALID, MAX_NODES) say how it went.

The kernel is resumable, as the search is: it returns after about ``work`` updates (so the caller
can handle a signal or a request to stop) with its place kept in ``where`` and the search arrays,
and the next call goes on from there.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .. import status as st
from .base import PHASE

# indices into ``where``: the row being solved, how far it got, how many options it selected, and
# two slots where a row's givens leave the updates and cleansings their select counts (counted
# nowhere: the kernels take them as a view, allocating nothing)
ROW, STAGE, CHOSEN, TALLY = 0, 1, 2, 3
WHERE_SIZE = TALLY + 2
NEW_ROW, FIRST, MORE = 0, 1, 2     # stages of a row: nothing done, seeking the first solution, counting on
#: What `given` returns for a value beyond its group.
NO_NODE = np.uint32(0xFFFFFFFF)
#: A kernel call's work when nothing needs to interrupt it (a reduction's single rows).
ENDLESS = np.int64(1) << 62


class Groups(NamedTuple):
    """How a batch's rows name options: ``first_node[o]`` (what the engine's select takes for option
    ``o``, [`Engine.first_nodes`][dlx.engines.base.Engine.first_nodes]), ``group_start``, and
    ``option_group``/``option_value``, which map an option back to its group and value (-1/0 for an
    option outside every group)."""

    first_node: np.ndarray      # uint32 per option
    group_start: np.ndarray     # int64 per group, and the end
    option_group: np.ndarray    # int64 per option
    option_value: np.ndarray    # uint8 per option


class Results(NamedTuple):
    """What a batch kernel writes, one entry per row (see [`dlx.BatchResult`][dlx.BatchResult])."""

    answers: np.ndarray   # (rows, groups) uint8
    counts: np.ndarray    # int64
    nodes: np.ndarray     # int64
    status: np.ndarray    # uint8 status codes


class Scratch:
    """The arrays one batch kernel call works in: a search ``machine`` (an engine's fresh one) and
    what the rows need for ``n_groups`` groups; allocated once per thread and batch, not per row."""

    def __init__(self, machine, n_groups: int) -> None:
        self.where = np.zeros(WHERE_SIZE, np.int64)
        self.chosen = np.zeros(n_groups, np.uint32)
        self.machine = machine
        self.out = np.zeros(machine.choice.size, np.int32)
        self.ends = np.zeros(1, np.int32)


# The stages take arrays, not the records: a kernel unpacks its records once, since taking a
# record's field is a reference count up and down, and a row takes dozens of stages.


@njit(cache=True, nogil=True, _nrt=False)
def begin_row(answers, counts, nodes, status, r):
    """A row's results before it is solved: nothing found, SOLVED until shown otherwise."""
    answers[r, :] = 0
    counts[r] = 0
    nodes[r] = 0
    status[r] = st.SOLVED


@njit(cache=True, nogil=True, _nrt=False)
def given(first_node, group_start, rows, r, j):
    """What the engine selects for column ``j`` of row ``r``: 0 for none, ``NO_NODE`` for a value
    beyond its group (the row is INVALID), else the option's first node."""
    v = rows[r, j]
    if v == 0:
        return np.uint32(0)
    if v > group_start[j + 1] - group_start[j]:
        return NO_NODE
    return first_node[group_start[j] + v - 1]


@njit(cache=True, nogil=True, _nrt=False)
def first_found(option_group, option_value, answers, counts, r, out, ends):
    """Write the first solution (option numbers ``out[:ends[0]]``) into row ``r``'s answer."""
    for k in range(ends[0]):
        o = out[k]
        if option_group[o] >= 0:
            answers[r, option_group[o]] = option_value[o]
    counts[r] = 1


@njit(cache=True, nogil=True, _nrt=False)
def unfinished(state, counts, r, limit):
    """Whether the search of row ``r`` paused before its end: out of work, out of room or asked to
    stop, with fewer than ``limit`` solutions (the kernel returns, to go on in the next call)."""
    phase = state[PHASE]
    return (phase == st.RUNNING or phase == st.STOPPED) and counts[r] < limit


@njit(cache=True, nogil=True, _nrt=False)
def row_done(state, counts, nodes, status, r, searched):
    """Row ``r``'s status and nodes (``searched``) once its search is over."""
    if state[PHASE] == st.MAX_NODES:
        status[r] = st.MAX_NODES
    elif counts[r] == 0:
        status[r] = st.NO_SOLUTION
    nodes[r] = searched


@njit(cache=True, nogil=True, _nrt=False)
def end_row(answers, status, r):
    """A row without a solution has no answer (not even its own givens)."""
    if status[r] == st.INVALID or status[r] == st.NO_SOLUTION:
        answers[r, :] = 0


def solve_rows(engine, structure, pristine, scratch: Scratch, groups: Groups, rows: np.ndarray,
               limit: int, max_nodes: int) -> Results:
    """Every row of ``rows`` through ``engine``'s batch kernel, to the end (no interruption)."""
    n = rows.shape[0]
    results = Results(np.empty(rows.shape, np.uint8), np.empty(n, np.int64), np.empty(n, np.int64),
                      np.empty(n, np.uint8))
    scratch.where[:] = 0
    while not engine.solve_batch(structure, pristine, scratch, groups, rows, limit, max_nodes, ENDLESS,
                                 results):
        pass
    return results


def reduce_by_rows(engine, structure, pristine, scratch: Scratch, groups: Groups, row: np.ndarray,
                   units: np.ndarray, unit_ends: np.ndarray, keep: int, minimal: bool, budget: int) -> int:
    """[`Engine.reduce_row`][dlx.engines.base.Engine.reduce_row] with one batch row per test: each test
    selects the row's values afresh. For an engine without a reduction kernel of its own."""
    first = solve_rows(engine, structure, pristine, scratch, groups, row[None, :], 2, np.iinfo(np.int64).max)
    if first.status[0] == st.INVALID:
        return -1
    if first.counts[0] != 1:
        return int(first.counts[0])
    given_now = int(np.count_nonzero(row))
    for unit in np.split(units, unit_ends[:-1]):
        if given_now <= keep:
            break
        size = int(np.count_nonzero(row[unit]))
        if size == 0:
            continue
        if given_now - size < keep:
            continue
        trial = row.copy()
        trial[unit] = 0
        test = solve_rows(engine, structure, pristine, scratch, groups, trial[None, :], 2, budget)
        if test.counts[0] == 1 and test.status[0] != st.MAX_NODES:
            row[:] = trial
            given_now -= size
        elif not minimal:
            break
    return 1
