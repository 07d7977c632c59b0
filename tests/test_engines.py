"""The engine contract (dlx.engines.base.Engine), run over every engine the registry can resolve
to: DLX1, the machine of DLX2/DLX3 and dancing cells. A new engine registered in dlx.engines is
tested here without a line added.

Each test drives the engines through the protocol alone (prepare, start, advance, unwind,
untried, applied, check, solve_batch, reduce_row) on random problems with colours and bounds,
stripped of what an engine refuses, and judges the outcome by brute force (tests/naive.py) or by
the same engine's uninterrupted run.
"""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import brute_force_m
from support import mcc_problems

from dlx import ExactCover, engines, parallel
from dlx.checks import UNLIMITED
from dlx.engines.base import (
    CLEANSINGS,
    LEVEL,
    NODES,
    PHASE,
    SOLUTIONS,
    STOP,
    UPDATES,
    Prepared,
    StructureError,
    TraceRefused,
)
from dlx.engines.batch import ENDLESS, Groups, Scratch, solve_rows
from dlx.status import COMPLETE, INVALID, MAX_NODES, NO_SOLUTION, SOLVED, STOPPED

pytestmark = pytest.mark.filterwarnings("ignore::dlx.ProblemWarning")

MACHINES = engines.machines()
machines = pytest.mark.parametrize("machine", MACHINES, ids=[m.name for m in MACHINES])


def test_the_registry_resolves_to_every_machine_once():
    names = [m.name for m in MACHINES]
    assert {"dlx1", "dlx3", "cells"} <= set(names) and len(set(names)) == len(names)
    for name in engines.ENGINES:
        for machine in engines.get(name).machines:
            assert machine in MACHINES


def problem_for(machines, drawn) -> ExactCover:
    """The drawn problem, less the bounds, then the colours, while one of ``machines`` (or one
    machine) refuses it."""
    machines = machines if isinstance(machines, list) else [machines]
    primary, secondary, options, bounds = drawn
    plain = [[e[0] if isinstance(e, tuple) else e for e in option] for option in options]
    for kept, bound in ((options, bounds or None), (options, None), (plain, None)):
        ec = ExactCover(kept, primary=primary, secondary=secondary, bounds=bound)
        if all(m.refusal(ec.engine_input) is None for m in machines):
            return ec
    raise AssertionError("every engine takes a plain problem")


def solutions_by_brute_force(ec: ExactCover) -> set[tuple[int, ...]]:
    primary = list(ec.items[:ec.n_primary])
    bounds = None if ec.bounds is None else {primary[i]: tuple(b) for i, b in enumerate(ec.bounds.tolist())}
    options = [ec.option(k) for k in range(ec.n_options)]
    return {tuple(sorted(s)) for s in brute_force_m(options, primary, list(ec.items[ec.n_primary:]), bounds)}


class Run:
    """A run driven through the protocol alone: ``step(want, budget)`` returns the solutions
    that call found (as sorted option tuples)."""

    def __init__(self, machine, options, structure=None):
        self.machine, self.options = machine, options
        self.structure = structure if structure is not None else machine.prepare(options)
        self.m = machine.start(self.structure)
        depth = self.m.choice.size
        self.out = np.zeros(depth * 8, np.int32)
        self.ends = np.zeros(8, np.int32)

    def step(self, want=UNLIMITED, max_nodes=UNLIMITED, work=ENDLESS):
        found = self.machine.advance(self.structure, self.m, want, max_nodes, work, self.out, self.ends)
        ends = self.ends[:found].tolist()
        return [tuple(sorted(self.out[a:b].tolist())) for a, b in zip([0, *ends], ends)]

    def all(self):
        found = []
        while self.m.state[PHASE] not in (COMPLETE, MAX_NODES):
            found += self.step()
        return found

    def figures(self):
        s = self.m.state
        return int(s[NODES]), int(s[SOLUTIONS]), int(s[UPDATES]), int(s[CLEANSINGS])


@machines
@settings(max_examples=120, deadline=None)
@given(drawn=mcc_problems())
def test_one_run_finds_the_solutions_of_brute_force(machine, drawn):
    ec = problem_for(machine, drawn)
    run = Run(machine, ec.engine_input)
    found = run.all()
    assert len(found) == len(set(found)) and set(found) == solutions_by_brute_force(ec)
    assert all(ec.is_solution(s) for s in found)
    machine.unwind(run.structure, run.m)        # what a run does once complete (dancing cells restore)
    machine.check(ec.engine_input, run.structure, None)


@machines
@settings(max_examples=120, deadline=None)
@given(drawn=mcc_problems(), budget=st.integers(1, 4), work=st.integers(1, 30))
def test_paused_runs_add_up_to_one_run_and_check_at_every_pause(machine, drawn, budget, work):
    """Paused after every solution, every ``budget`` nodes and every ``work`` updates, with the
    structure checked at each pause: the same solutions in the same order and the same counts."""
    ec = problem_for(machine, drawn)
    whole = Run(machine, ec.engine_input)
    expected = whole.all()
    run = Run(machine, ec.engine_input)
    found, nodes = [], budget
    while True:
        found += run.step(1, nodes, work)
        phase = run.m.state[PHASE]
        if phase == COMPLETE:
            break
        machine.check(ec.engine_input, run.structure, run.m)
        if phase == MAX_NODES:
            nodes += budget
    assert found == expected
    assert run.figures() == whole.figures()


@machines
@settings(max_examples=80, deadline=None)
@given(drawn=mcc_problems(), depth=st.integers(1, 4))
def test_split_pieces_add_up_to_one_run(machine, drawn, depth):
    ec = problem_for(machine, drawn)
    whole = Run(machine, ec.engine_input)
    expected = whole.all()
    prepared = Prepared(machine, ec.engine_input)
    pieces, above, stats = parallel.split_on(prepared, depth, collect=True)
    outcomes = list(above)
    for piece in pieces:
        structure = machine.copy(prepared.pristine)
        outcomes.append(parallel.search_piece(machine, structure, piece, collect=True))
        machine.check(ec.engine_input, structure, None)
    result = parallel.merge(outcomes, machine.name, before=stats, collect=True)
    total = result.stats
    assert total.complete and total.solutions == len(expected)
    if machine.exact_splits:
        assert result.solutions == expected
        assert (total.nodes, total.solutions, total.updates, total.cleansings) == whole.figures()
    else:
        assert sorted(result.solutions) == sorted(expected)
    prepared.check()


@machines
@settings(max_examples=80, deadline=None)
@given(drawn=mcc_problems(), stop_after=st.integers(0, 6))
def test_closing_a_paused_run_restores_the_structure(machine, drawn, stop_after):
    ec = problem_for(machine, drawn)
    run = Run(machine, ec.engine_input)
    run.step(1, stop_after)
    if run.m.state[PHASE] != COMPLETE:          # paused: the check holds here too
        machine.check(ec.engine_input, run.structure, run.m)
    applied = machine.applied(run.structure, run.m)
    assert len(applied) <= run.m.state[LEVEL]
    machine.unwind(run.structure, run.m)
    machine.check(ec.engine_input, run.structure, None)
    assert Run(machine, ec.engine_input, run.structure).all() == Run(machine, ec.engine_input).all()


@machines
def test_a_stop_request_pauses_at_the_next_poll(machine):
    from dlx import problems
    ec = problems.queens(7)
    run = Run(machine, ec.engine_input)
    run.m.state[STOP] = 1
    assert run.step() == [] and run.m.state[PHASE] == STOPPED and run.m.state[NODES] == 0
    run.m.state[STOP] = 0
    assert len(run.all()) == 40


def row_oracle(ec, sizes, row, limit):
    """(count up to limit, the solutions that hold the row's options) by brute force."""
    starts = np.concatenate([[0], np.cumsum(sizes)])
    chosen = [int(starts[j] + v - 1) for j, v in enumerate(row) if v]
    holding = sorted(s for s in solutions_by_brute_force(ec) if set(chosen) <= set(s))
    return min(len(holding), limit), holding, chosen


@st.composite
def grouped(draw):
    drawn = draw(mcc_problems())
    n = max(len(drawn[2]), 1)
    sizes, left = [], draw(st.integers(1, n))
    while left:
        sizes.append(draw(st.integers(1, left)))
        left -= sizes[-1]
    rows = draw(st.lists(st.tuples(*(st.integers(0, s) for s in sizes)), min_size=1, max_size=4))
    return drawn, sizes, np.array(rows, np.uint8).reshape(-1, len(sizes)), draw(st.integers(1, 3))


def groups_for(machine, ec, sizes):
    n_options = ec.n_options
    group_start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    option_group = np.full(n_options, -1, np.int64)
    option_value = np.zeros(n_options, np.uint8)
    for j, size in enumerate(sizes):
        option_group[group_start[j]:group_start[j + 1]] = j
        option_value[group_start[j]:group_start[j + 1]] = np.arange(1, size + 1)
    return Groups(machine.first_nodes(ec.engine_input), group_start, option_group, option_value)


def agrees(solution, answer, starts) -> bool:
    """Each group's answer is an option of ``solution`` in that group (it may hold several), 0 that
    it holds none."""
    for j, v in enumerate(answer):
        mine = [k for k in solution if starts[j] <= k < starts[j + 1]]
        if (v == 0 and mine) or (v and starts[j] + v - 1 not in mine):
            return False
    return True


@machines
@settings(max_examples=100, deadline=None)
@given(case=grouped())
def test_a_batch_row_equals_the_search_of_that_row(machine, case):
    drawn, sizes, rows, limit = case
    if not machine.batches:
        with pytest.raises(ValueError, match="takes no batches: Batch searches with"):
            machine.first_nodes(problem_for(machine, drawn).engine_input)
        return
    if not drawn[2]:
        drawn = (drawn[0], drawn[1], [[drawn[0][0]]], drawn[3])
    ec = problem_for(machine, drawn)
    if any(ec.engine_input.start[k + 1] == ec.engine_input.start[k] for k in range(sum(sizes))):
        return          # Batch refuses a group with an option no solution can use
    prepared = Prepared(machine, ec.engine_input)
    groups = groups_for(machine, ec, sizes)
    scratch = Scratch(machine.start(prepared.pristine), len(sizes))
    results = solve_rows(machine, prepared.structure, prepared.pristine, scratch, groups, rows, limit, UNLIMITED)
    starts = groups.group_start
    for r, row in enumerate(rows.tolist()):
        count, holding, chosen = row_oracle(ec, sizes, row, limit)
        assert results.counts[r] == count, (r, row, holding)
        if count:
            assert results.status[r] == SOLVED
            answer = results.answers[r].tolist()
            assert any(agrees(s, answer, starts) for s in holding), (answer, holding)
        else:
            assert results.status[r] in (NO_SOLUTION, INVALID) and not results.answers[r].any()
        machine.check(ec.engine_input, prepared.structure, None)


@st.composite
def unique_rows(draw):
    """A problem, its options in groups, and a solution written as a row."""
    drawn, sizes, _, _ = draw(grouped())
    return drawn, sizes, draw(st.integers(0, 1 << 30))


@settings(max_examples=60, deadline=None)
@given(case=unique_rows())
def test_every_machine_reduces_a_row_alike_and_to_a_minimal_unique_one(case):
    drawn, sizes, pick = case
    batching = [m for m in MACHINES if m.batches]
    ec = problem_for(batching, drawn)
    reduced = {}
    for machine in batching:
        solutions = sorted(solutions_by_brute_force(ec))
        if not solutions:
            return
        starts = np.concatenate([[0], np.cumsum(sizes)])
        solution = solutions[pick % len(solutions)]
        row = np.zeros(len(sizes), np.uint8)
        for k in solution:
            j = int(np.searchsorted(starts, k, side="right") - 1)
            if j < len(sizes):
                row[j] = k - starts[j] + 1
        prepared = Prepared(machine, ec.engine_input)
        scratch = Scratch(machine.start(prepared.pristine), len(sizes))
        units = np.arange(len(sizes), dtype=np.int64)
        ends = np.arange(1, len(sizes) + 1, dtype=np.int64)
        count, _, _ = row_oracle(ec, sizes, row.tolist(), 2)
        got = row.copy()
        result = machine.reduce_row(prepared.structure, prepared.pristine, scratch, groups_for(machine, ec, sizes),
                                    got, units, ends, 0, True, UNLIMITED)
        machine.check(ec.engine_input, prepared.structure, None)
        assert result == count
        if count == 1:
            assert row_oracle(ec, sizes, got.tolist(), 2)[0] == 1
            for j in np.flatnonzero(got):
                fewer = got.copy()
                fewer[j] = 0
                assert row_oracle(ec, sizes, fewer.tolist(), 2)[0] != 1, "not minimal"
        reduced[machine.name] = got.tolist()
    assert len({tuple(v) for v in reduced.values()}) == 1, reduced


@machines
def test_a_trace_is_recorded_or_refused(machine):
    from dlx import problems
    options = problems.queens(5).engine_input
    run = Run(machine, options)
    buffer = np.zeros(1 + 4 * 4096, np.int64)
    if machine.traces:
        machine.advance(run.structure, run.m, 1, UNLIMITED, ENDLESS, run.out, run.ends, trace=buffer)
        assert buffer[0] > 0
    else:
        with pytest.raises(TraceRefused, match=f"not by {machine.name}"):
            machine.advance(run.structure, run.m, 1, UNLIMITED, ENDLESS, run.out, run.ends, trace=buffer)


@machines
def test_early_is_an_option_of_every_engine(machine):
    from dlx import problems
    run = Run(machine, problems.queens(6).engine_input)
    machine.advance(run.structure, run.m, UNLIMITED, UNLIMITED, ENDLESS, run.out[:0], run.ends[:0], early=True)
    machine.unwind(run.structure, run.m)
    machine.check(problems.queens(6).engine_input, run.structure, None)


def corrupted(machine, structure):
    """A copy of ``structure`` with one word of its first changing array altered."""
    fresh = machine.copy(structure)
    for field, value in zip(fresh._fields, fresh):
        if isinstance(value, np.ndarray) and value is not getattr(structure, field) and value.size:
            value[0] += 1
            return fresh
    raise AssertionError("nothing to corrupt")


@machines
def test_check_raises_a_structure_error_on_a_corrupted_structure(machine):
    from dlx import problems
    options = problems.queens(5).engine_input
    structure = machine.prepare(options)
    machine.check(options, structure)
    with pytest.raises(StructureError):
        machine.check(options, corrupted(machine, structure))


def test_check_checks_under_python_dash_o():
    script = ("from dlx import problems, engines\n"
              "from dlx.engines.base import StructureError\n"
              "options = problems.queens(5).engine_input\n"
              "for m in engines.machines():\n"
              "    built = m.prepare(options)\n"
              "    s = m.copy(built)\n"
              "    next(a for f, a in zip(s._fields, s) if hasattr(a, 'size') and a is not getattr(built, f))[0] += 1\n"
              "    try:\n"
              "        m.check(options, s)\n"
              "    except StructureError:\n"
              "        print(m.name, 'caught')\n")
    out = subprocess.run([sys.executable, "-O", "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[:-1] == [f"{m.name} caught" for m in MACHINES]
