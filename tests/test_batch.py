"""dlx.Batch: options selected in advance, checked against the set-based reference."""
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import Counts, algorithm_x, brute_force
from support import batches

from dlx import Batch, BatchResult, ExactCover, ProblemError, problems
from dlx.status import INVALID, MAX_NODES, NO_SOLUTION, SOLVED

#: Options without a primary item (all-zero rows and the like) are skipped with a warning, as
#: they should be; test_colours checks the warning itself.
pytestmark = pytest.mark.filterwarnings("ignore::dlx.ProblemWarning")


def expected(primary, secondary, options, starts, sizes, row, limit):
    """(status, count, nodes, chosen options) by the reference, on the problem left by the row."""
    selected = []
    for j, v in enumerate(row):
        if v:
            selected.append(starts[j] + v - 1)
    covered = [item for k in selected for item in options[k]]
    if len(covered) != len(set(covered)):
        return INVALID, 0, 0, None
    covered = set(covered)
    left = [p for p in primary if p not in covered]
    if not left:
        return SOLVED, 1, 0, selected
    live = [k for k, option in enumerate(options) if not covered & set(option)]
    counts = Counts()
    found = []
    for solution in algorithm_x([options[k] for k in live], left,
                                [s for s in secondary if s not in covered], counts):
        found.append(sorted(selected + [live[k] for k in solution]))
        if len(found) == limit:
            break
    # the reference on the whole problem agrees about which covers contain the selection
    everything = [s for s in brute_force(options, primary, secondary) if set(selected) <= set(s)]
    assert len(found) == min(limit, len(everything))
    if not found:
        return NO_SOLUTION, 0, counts.nodes, None
    return SOLVED, len(found), counts.nodes, found[0]


@settings(max_examples=300, deadline=None)
@given(batches())
def test_batch_matches_reference(case):
    primary, secondary, options, sizes, rows, limit = case
    ec = ExactCover(options, primary=primary, secondary=secondary)
    batch = Batch(ec, sizes)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    result = batch.solve(np.array(rows, np.uint8).reshape(len(rows), len(sizes)), limit)
    ec.check()
    for r, row in enumerate(rows):
        status, count, nodes, chosen = expected(primary, secondary, options, starts, sizes, row, limit)
        assert (result.status[r], result.counts[r], result.nodes[r]) == (status, count, nodes)
        answer = result.answers[r]
        if chosen is None:
            assert not answer.any()
            continue
        for j, v in enumerate(answer):
            in_group = [k for k in chosen if starts[j] <= k < starts[j + 1]]
            if in_group:
                assert v and starts[j] + v - 1 in in_group
            else:
                assert v == 0


def test_queens_by_rows():
    queens = problems.queens(8)
    batch = Batch(queens, [8] * 8)
    empty = np.zeros((1, 8), np.uint8)
    result = batch.solve(empty, limit=100)
    assert result.counts[0] == 92 and result.status[0] == SOLVED
    # every first solution found for a queen in the top row is a valid placement
    rows = np.zeros((8, 8), np.uint8)
    rows[:, 0] = np.arange(1, 9)
    result = batch.solve(rows, limit=100)
    assert result.counts.sum() == 92
    for placement in result.answers:
        cols = placement.astype(int) - 1
        assert sorted(cols) == list(range(8))
        assert len({r + c for r, c in enumerate(cols)}) == 8 and len({r - c for r, c in enumerate(cols)}) == 8
    queens.check()


def test_node_budget_and_bad_arguments():
    batch = Batch(problems.queens(12), [12] * 12)
    result = batch.solve(np.zeros((1, 12), np.uint8), limit=10**6, max_nodes=500)
    assert result.status[0] == MAX_NODES and result.nodes[0] == 500 and result.counts[0] == 34
    assert problems.queens(12).count(max_nodes=500) == 34      # the plain search, same budget
    batch.problem.check()
    with pytest.raises(ValueError, match="shape"):
        batch.solve(np.zeros((2, 11), np.uint8))
    with pytest.raises(ValueError, match="limit"):
        batch.solve(np.zeros((2, 12), np.uint8), limit=0)
    with pytest.raises(ProblemError, match="groups hold"):
        Batch(problems.queens(4), [10, 10])
    with pytest.raises(ProblemError, match="group sizes"):
        Batch(problems.queens(4), [0, 4])
    with pytest.raises(ValueError,
                       match=r"rows\[0, 0\] is 13, not a whole number from 0 to 12 \(the size of group 0\)"):
        batch.solve(np.full((1, 12), 13, np.uint8))
    m = np.array([[1, 0], [0, 0], [0, 1]])
    with pytest.raises(ProblemError, match="option 1 has no primary item"):
        Batch(ExactCover.from_matrix(m), [3])


def test_the_kernel_itself_refuses_a_value_beyond_its_group():
    """Batch.solve refuses such a value before the kernel sees it; called directly, the kernel
    makes the row invalid rather than select an option of the next group."""
    batch = Batch(problems.queens(4), [4, 4, 4, 4])
    rows = np.array([[5, 0, 0, 0], [0, 0, 0, 0]], np.uint8)
    result = batch._solve(rows, 5, 10 ** 6, None)
    assert result.statuses() == ["invalid", "solved"] and result.counts.tolist() == [0, 2]
    batch.problem.check()


def test_threads_share_a_batch():
    batch = Batch(problems.queens(9), [9] * 9)
    rows = np.zeros((9, 9), np.uint8)
    rows[:, 0] = np.arange(1, 10)
    want = batch.solve(rows, limit=1000).counts.tolist()
    got = []

    def work():
        for _ in range(20):
            got.append(batch.solve(rows, limit=1000).counts.tolist())

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [want] * 60 and sum(want) == 352
    batch.problem.check()


def greedy_reference(covers, starts, values, units, keep, minimal):
    """Batch.reduce by the definition: each unit goes if the row without it still has one cover."""
    def count(row):
        selected = {starts[j] + v - 1 for j, v in enumerate(row) if v}
        return sum(selected <= set(s) for s in covers)
    values = list(values)
    given = sum(v > 0 for v in values)
    for unit in units:
        if given <= keep:
            break
        size = sum(values[j] > 0 for j in unit)
        if size == 0:
            continue
        trial = [0 if j in unit else v for j, v in enumerate(values)]
        if given - size >= keep and count(trial) == 1:
            values, given = trial, given - size
        elif not minimal and given - size >= keep:
            break
    return values, count


@settings(max_examples=300, deadline=None)
@given(batches(), st.randoms(use_true_random=False), st.integers(0, 3), st.booleans())
def test_reduce_is_the_greedy_reference(case, random, keep, minimal):
    primary, secondary, options, sizes, rows, _ = case
    ec = ExactCover(options, primary=primary, secondary=secondary)
    covers = brute_force(options, primary, secondary)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    groups = list(range(len(sizes)))
    random.shuffle(groups)
    units, k = [], 0
    while k < len(groups):
        step = random.randint(1, 2)
        units.append(groups[k:k + step])
        k += step
    for row in rows:
        answer = Batch(ec, sizes).solve([row], 1).answers[0].tolist()
        expected, count = greedy_reference(covers, starts, answer, units, keep, minimal)
        for engine in ("dlx", "cells"):
            batch = Batch(ec, sizes, engine=engine)
            if count(answer) != 1:
                with pytest.raises(ValueError, match="exactly one solution"):
                    batch.reduce(answer, units, keep=keep, minimal=minimal)
            else:
                assert batch.reduce(answer, units, keep=keep, minimal=minimal).tolist() == expected
                assert count(expected) == 1
            ec.check()


def test_reduce_refuses_clashes_and_bad_units():
    batch = Batch(problems.queens(4), [4, 4, 4, 4])
    with pytest.raises(ValueError, match="its values clash"):
        batch.reduce([1, 1, 0, 0])
    with pytest.raises(ValueError, match="no solution"):
        batch.reduce([1, 0, 0, 0])
    with pytest.raises(ValueError, match="more than one solution"):
        batch.reduce([0, 0, 0, 0])
    with pytest.raises(ValueError, match="at most once"):
        batch.reduce([2, 4, 1, 3], [[0], [0]])
    with pytest.raises(ValueError, match="at most once"):
        batch.reduce([2, 4, 1, 3], [[4]])
    assert batch.reduce([2, 4, 1, 3], [[3, 2], [1]]).tolist() == [2, 0, 0, 0]    # group 0 in no unit
    assert batch.reduce([2, 4, 1, 3], keep=3).tolist() == [0, 4, 1, 3]
    batch.problem.check()


@pytest.mark.parametrize("engine", ["dlx", "cells", "compact"])
def test_results_written_into_the_callers_arrays_are_the_results(engine):
    """``out=``: slices of larger arrays receive exactly what a call without it returns, and the
    rest of those arrays is left alone; arrays that cannot take the rows are refused."""
    q = problems.queens(6)
    batch = Batch(q, [1] * q.n_options, engine=engine)
    rng = np.random.default_rng(3)
    rows = (rng.random((12, q.n_options)) < 0.08).astype(np.uint8)
    rows[0] = 0                                     # nothing given: 4 solutions, 3 counted
    alone = batch.solve(rows, limit=3)
    assert alone.counts[0] == 3 and alone.statuses()[0] == "solved" and "invalid" in alone.statuses()
    whole = BatchResult(np.full((20, q.n_options), 7, np.uint8), np.full(20, -1, np.int64),
                        np.full(20, -1, np.int64), np.full(20, 9, np.uint8))
    into = batch.solve(rows, limit=3, out=BatchResult(*(a[4:16] for a in whole)))
    for mine, theirs, full, fill in zip(into, alone, whole, (7, -1, -1, 9)):
        assert np.array_equal(mine, theirs) and np.shares_memory(mine, full)
        assert (full[:4] == fill).all() and (full[16:] == fill).all()
    for wrong in (BatchResult(*(a[:11] for a in whole)), BatchResult(whole[0][:12, :-1], *(a[:12] for a in whole[1:])),
                  BatchResult(whole[0][:12], whole[1][:12].astype(np.int32), *(a[:12] for a in whole[2:])),
                  (whole[0][:12], *(a[:12] for a in whole[1:]))):
        with pytest.raises(ValueError, match="out must be a BatchResult"):
            batch.solve(rows, limit=3, out=wrong)
