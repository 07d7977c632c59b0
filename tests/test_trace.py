"""Seeded searches and traces: the same solutions in a reproducible order; every step recorded as
the set-based reference takes it."""
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import Counts, algorithm_x
from support import assert_solutions, small_problems

from dlx import ExactCover, problems, tracing
from dlx.tracing import BACKUP, CHOOSE, DEAD, SOLUTION, TRY


def replay(events) -> list[tuple[int, ...]]:
    """The solutions a trace says were found: the options tried at levels 0..level-1 when a
    SOLUTION event comes."""
    tried: dict[int, int] = {}
    found = []
    for kind, level, a, _ in np.asarray(events).tolist():
        if kind == TRY:
            tried[level] = a
        elif kind == SOLUTION:
            found.append(tuple(sorted(tried[l] for l in range(level))))
    return found


@settings(max_examples=300, deadline=None)
@given(small_problems())
def test_trace_is_the_references_steps(problem):
    primary, secondary, options = problem
    counts, expected = Counts(), []
    solutions = list(algorithm_x(options, primary, secondary, counts, expected))
    ec = ExactCover(options, primary=primary, secondary=secondary)
    with ec.search(trace=True) as run:
        assert run.count() == len(solutions)
        stats = run.stats
    assert [tuple(e) for e in run.trace.tolist()] == expected
    assert replay(run.trace) == solutions
    kinds = run.trace[:, 0]
    # a node per level entered: a choice, a dead end or a solution
    assert stats.nodes == counts.nodes == np.isin(kinds, [CHOOSE, DEAD, SOLUTION]).sum()
    assert stats.engine == "dlx"
    ec.check()


def test_a_full_buffer_pauses_the_kernel_and_loses_nothing():
    queens = problems.queens(6)
    with queens.search(trace=True) as run:
        run.count()
    whole = run.trace
    with mock.patch.object(tracing, "BUFFER", 1), queens.search(trace=True) as run:
        assert run.count() == 4
    assert np.array_equal(run.trace, whole)
    assert run.stats.nodes == np.isin(whole[:, 0], [CHOOSE, DEAD, SOLUTION]).sum()


def test_trace_across_pauses_and_to_a_function():
    queens = problems.queens(6)
    with queens.search(trace=True) as run:
        run.count()
    whole = run.trace
    batches = []
    with queens.search(trace=batches.append, max_nodes=10) as run:
        first = run.count()
        rest = run.resume(max_nodes=None).count()
    assert first + rest == 4 and len(batches) >= 2
    assert np.array_equal(np.concatenate(batches), whole)
    assert run.trace.shape == (0, 4)        # handed on, not kept


def test_traced_search_is_the_untraced_one():
    pentominoes = problems.pentominoes(3, 20)
    plain = pentominoes.count(engine="dlx")
    expected = pentominoes.stats
    with pentominoes.search(trace=True) as run:
        assert run.count() == plain == 2
    assert (run.stats.nodes, run.stats.updates) == (expected.nodes, expected.updates)
    assert replay(run.trace) == list(pentominoes.solutions(engine="dlx"))


def test_trace_words():
    queens = problems.queens(4)
    with queens.search(trace=True, limit=1) as run:
        assert len(list(run)) == 1
    words = list(tracing.lines(queens, run.trace))
    assert words[0].startswith("L0: choose ") and words[1].startswith("L0: try 1 of ")
    assert words[-1] == "L4: solution 1"
    with pytest.raises(ValueError, match="not a trace event"):
        list(tracing.lines(queens, [[9, 0, 0, 0]]))


def test_only_dlx1_traces():
    with pytest.raises(ValueError, match="DLX1"):
        problems.queens(4).search(trace=True, engine="cells")
    coloured = ExactCover([["a", ("x", 1)], ["b", ("x", 1)]], secondary=["x"])
    with pytest.raises(ValueError, match="colours or multiplicities"):
        coloured.search(trace=True)


@settings(max_examples=200, deadline=None)
@given(small_problems(), st.integers(0, 2 ** 32))
def test_a_seeded_search_finds_the_same_solutions(problem, seed):
    primary, secondary, options = problem
    ec = ExactCover(options, primary=primary, secondary=secondary)
    plain = list(ec.solutions())
    seeded = list(ec.solutions(seed=seed))
    assert sorted(seeded) == sorted(plain) and len(set(seeded)) == len(seeded)
    assert list(ec.solutions(seed=seed)) == seeded          # the same seed, the same order
    assert ec.count(seed=seed) == len(plain) and ec.stats.complete
    assert_solutions(ec, seeded, primary, secondary)
    ec.check()


@settings(max_examples=200, deadline=None)
@given(small_problems(), st.integers(0, 1000))
def test_a_seeded_search_is_the_reference_on_the_reordered_problem(problem, seed):
    """Options tried in the drawn order, ties broken in the drawn item order: the reference on
    the reordered problem makes the same choices and counts the same nodes and updates."""
    primary, secondary, options = problem
    ec = ExactCover(options, primary=primary, secondary=secondary)
    copy, order, item_order = ec.seeded(seed)
    assert sorted(order.tolist()) == list(range(len(options)))
    assert sorted(item_order.tolist()) == list(range(ec.n_items))
    assert sorted(item_order[:len(primary)].tolist()) == list(range(len(primary)))
    moved = [copy.option(j) for j in range(len(options))]
    assert moved == [ec.option(k) for k in order.tolist()]
    counts, events = Counts(), []
    expected = list(algorithm_x(moved, list(copy.items[:len(primary)]), list(copy.items[len(primary):]),
                                counts, events))
    with ec.search(seed=seed, trace=True) as run:
        found = list(run)
    assert found == [tuple(sorted(order[k] for k in s)) for s in expected]
    assert (run.stats.nodes, run.stats.updates) == (counts.nodes, counts.updates)
    assert replay(run.trace) == found                       # the trace speaks the caller's numbers
    named = np.isin(run.trace[:, 0], [CHOOSE, DEAD, BACKUP])
    assert [ec.items[i] for i in run.trace[named, 2]] == [copy.items[e[2]] for e in events
                                                          if e[0] in (CHOOSE, DEAD, BACKUP)]


def test_seeds_change_the_order_not_the_answers():
    queens = problems.queens(8)
    firsts = {queens.first(seed=seed) for seed in range(20)}
    assert len(firsts) > 5
    every = set(queens.solutions())
    assert firsts <= every
    assert queens.first(seed=None) == queens.first()
    for bad in (-1, 1.5, "1", True):
        with pytest.raises(ValueError, match="seed"):
            queens.first(seed=bad)


def test_seeded_colours_and_bounds():
    graceful = problems.graceful([(0, 1), (1, 2), (2, 3), (1, 3)])     # colours
    plain = set(graceful.solutions())
    assert len(plain) > 1
    assert set(graceful.solutions(seed=3)) == plain
    assert set(graceful.solutions(seed=3, engine="cells")) == plain
    bounded = ExactCover([["a"], ["a", "b"], ["b"], ["c"]], bounds={"a": (1, 2)})
    assert sorted(bounded.solutions(seed=5)) == sorted(bounded.solutions())
