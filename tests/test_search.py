"""The search: same solutions, order and DLX1 counters as the set-based reference; links restored."""
import threading
from itertools import islice
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import Counts, algorithm_x, brute_force
from support import EXAMPLES, SHARED_DLX, assert_solutions, small_problems

from dlx import ExactCover, SearchStats, problems, read_dlx
from dlx.engines import dlx1
from dlx.engines.base import NODES, UPDATES


@settings(max_examples=200, deadline=None)
@given(small_problems())
def test_reference_agrees_with_brute_force(problem):
    primary, secondary, options = problem
    assert set(algorithm_x(options, primary, secondary)) == brute_force(options, primary, secondary)


@settings(max_examples=300, deadline=None)
@given(small_problems())
def test_search_matches_reference(problem):
    primary, secondary, options = problem
    counts = Counts()
    expected = list(algorithm_x(options, primary, secondary, counts))
    ec = ExactCover(options, primary=primary, secondary=secondary)

    found = list(ec.solutions())
    ec.check()
    assert found == expected
    assert ec.stats.solutions == len(expected) and ec.stats.complete
    assert (ec.stats.nodes, ec.stats.updates) == (counts.nodes, counts.updates)
    assert_solutions(ec, found, primary, secondary)

    assert ec.count() == len(expected)
    ec.check()
    assert (ec.stats.nodes, ec.stats.updates) == (counts.nodes, counts.updates)
    assert ec.first() == (expected[0] if expected else None)
    ec.check()


@settings(max_examples=150, deadline=None)
@given(small_problems(), st.integers(0, 6))
def test_limits_stop_where_the_reference_stops(problem, limit):
    primary, secondary, options = problem
    ec = ExactCover(options, primary=primary, secondary=secondary)
    counts = Counts()
    reference = algorithm_x(options, primary, secondary, counts)
    expected = list(islice(reference, limit))      # islice pulls no solution beyond the limit

    assert list(ec.solutions(limit=limit)) == expected
    ec.check()
    assert ec.count(limit=limit) == len(expected)
    ec.check()
    if limit > 0:
        assert (ec.stats.nodes, ec.stats.updates) == (counts.nodes, counts.updates)
        assert ec.stats.complete == (len(expected) < limit)


def queens(n):
    """N-queens as exact cover: rows and columns primary, diagonals secondary."""
    options = [[f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n - 1}"] for r in range(n) for c in range(n)]
    diagonals = [f"a{d}" for d in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)]
    return ExactCover(options, primary=[f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)],
                      secondary=diagonals)


@pytest.mark.parametrize("n, solutions", [
    (1, 1), (2, 0), (3, 0), (4, 2), (5, 10), (6, 4), (7, 40), (8, 92), (9, 352), (10, 724)])
def test_queens_counts(n, solutions):
    ec = queens(n)
    assert ec.count() == solutions
    ec.check()
    every = list(ec.solutions())
    assert len(set(every)) == solutions
    for solution in every:
        squares = [divmod(k, n) for k in solution]
        assert sorted(r for r, _ in squares) == list(range(n))
        assert sorted(c for _, c in squares) == list(range(n))
        assert len({r + c for r, c in squares}) == len({r - c for r, c in squares}) == n
    ec.check()


def test_shipped_queens8_has_dlx1_figures():
    # DLX1 on this very file (it is ../shared/data/dlx/queens8.dlx): 92 solutions, 1049 nodes,
    # 16680 updates. Other figures mean another search order, not just another speed.
    ec = read_dlx(EXAMPLES / "queens8.dlx")
    assert ec.count() == 92
    assert (ec.stats.nodes, ec.stats.updates, ec.stats.solutions) == (1049, 16680, 92)
    ec.check()


def test_knuth_example():
    ec = read_dlx(EXAMPLES / "knuth.dlx")
    assert list(ec.solutions()) == [(0, 3, 4)]
    assert [ec.option(k) for k in ec.first()] == [("c", "e"), ("a", "d", "f"), ("b", "g")]
    ec.check()


def dlx1_figures():
    path = SHARED_DLX / "expected.tsv"
    if not path.is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/data/dlx is not present"))]
    rows = [line.split("\t") for line in path.read_text().splitlines()[1:] if line.strip()]
    return [pytest.param(row, id=row[0]) for row in rows]


@pytest.mark.parametrize("row", dlx1_figures())
def test_dlx1_figures(row, shared_dlx):
    name, solutions, nodes, updates = row[0], *map(int, row[1:4])
    ec = read_dlx(shared_dlx / name)
    assert ec.count(engine="dlx") == solutions
    assert (ec.stats.nodes, ec.stats.updates, ec.stats.solutions) == (nodes, updates, solutions)
    assert ec.stats.complete
    ec.check()


def test_abandoned_iterator_leaves_problem_usable():
    ec = queens(8)
    iterator = ec.solutions()
    first_three = [next(iterator) for _ in range(3)]
    del iterator                                   # closed half-way: the links must be put back
    ec.check()
    assert list(ec.solutions())[:3] == first_three
    assert ec.count() == 92
    ec.check()


def test_closed_iterator_stops():
    ec = queens(6)
    iterator = ec.solutions()
    next(iterator)
    iterator.close()
    ec.check()
    assert list(iterator) == []
    assert ec.count() == 4


def test_interleaved_iterators_and_counts():
    ec = queens(7)
    expected = list(ec.solutions())
    a, b = ec.solutions(), ec.solutions()
    got_a, got_b = [], []
    for x, y in zip(a, b):
        got_a.append(x)
        got_b.append(y)
        if len(got_a) == 10:
            assert ec.count() == 40              # a third search while two are paused
    assert got_a == got_b == expected
    ec.check()


def test_threads_share_a_problem():
    ec = queens(9)
    results = []

    def work():
        results.append((ec.count(), list(ec.solutions(limit=50))))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [count for count, _ in results] == [352] * 4
    assert all(sols == results[0][1] and len(sols) == 50 for _, sols in results)
    ec.check()


def test_stats_and_edge_cases():
    ec = ExactCover([["a", "b"], ["a"], ["b"]])
    assert ec.stats is None
    assert ec.count(limit=0) == 0 and list(ec.solutions(limit=0)) == []
    assert ec.count(limit=1) == 1 and not ec.stats.complete
    assert ec.count() == 2 and ec.stats.complete
    assert isinstance(ec.stats, SearchStats) and ec.stats.seconds >= 0
    with pytest.raises(ValueError, match="limit must be None .no limit. or a whole number of at least 0, not -1"):
        ec.count(limit=-1)
    with pytest.raises(ValueError, match="not 1.5"):
        ec.solutions(limit=1.5)
    # a primary item in no option: no solution, found at the first node
    unsolvable = ExactCover([["a"]], primary=["a", "b"])
    assert unsolvable.first() is None and unsolvable.count() == 0
    assert unsolvable.stats.nodes == 1
    unsolvable.check()


def test_lazy_iteration_does_not_search_ahead():
    ec = queens(10)
    iterator = ec.solutions()
    next(iterator)
    assert ec.stats.solutions == 1
    for _ in range(5):
        next(iterator)
    assert ec.stats.solutions < 20                   # batches grow 1, 2, 4, ... not all at once
    iterator.close()
    ec.check()


@settings(max_examples=200, deadline=None)
@given(small_problems(), st.integers(0, 30))
def test_node_budget_stops_where_the_reference_would(problem, budget):
    primary, secondary, options = problem
    counts = Counts()
    within = []                                   # reference solutions whose node is inside the budget
    for solution in algorithm_x(options, primary, secondary, counts):
        if counts.nodes <= budget:
            within.append(solution)
    total = counts.nodes
    ec = ExactCover(options, primary=primary, secondary=secondary)

    assert list(ec.solutions(max_nodes=budget)) == within
    assert ec.stats.nodes == min(budget, total)
    assert ec.stats.status == ("complete" if total <= budget else "max_nodes")
    ec.check()
    assert ec.count(max_nodes=budget) == len(within)
    assert ec.stats.nodes == min(budget, total) and ec.stats.complete == (total <= budget)
    ec.check()
    assert ec.count() == len(list(algorithm_x(options, primary, secondary)))


@settings(max_examples=200, deadline=None)
@given(small_problems(), st.integers(1, 6), st.lists(st.booleans(), min_size=1, max_size=8))
def test_the_scanning_choice_pass_makes_the_same_run(problem, budget, modes):
    # Kernel calls alternate between keeping length[0] and scanning every item (as a heavy
    # problem's calls do): the same solutions, order, nodes and updates as the reference, and the
    # links exact (length[0] included) at every pause.
    primary, secondary, options = problem
    counts = Counts()
    expected = list(algorithm_x(options, primary, secondary, counts))
    ec = ExactCover(options, primary=primary, secondary=secondary)
    calls = iter(modes * 100)
    found = []
    with mock.patch.object(dlx1, "keeps_count", lambda L, state: next(calls)):
        with ec.search(max_nodes=budget, engine="dlx") as run:
            while True:
                found.extend(run)
                run.check()
                if run.status == "complete":
                    break
                run.resume(max_nodes=budget)
    assert found == expected
    assert (run.stats.nodes, run.stats.updates) == (counts.nodes, counts.updates)
    ec.check()


def test_heavy_problems_scan_and_keep_dlx1_figures():
    ec = problems.pentominoes(3, 20)       # about 330 updates a node over 72 items: it scans
    ec.count(engine="dlx")
    scanned = ec.stats
    state = np.zeros(8, np.int64)
    state[NODES], state[UPDATES] = scanned.nodes, scanned.updates
    assert not dlx1.keeps_count(ec.prepared("dlx").structure, state)
    with mock.patch.object(dlx1, "keeps_count", lambda L, state: True):
        ec.count(engine="dlx")
    counted = ec.stats
    assert (scanned.solutions, scanned.nodes, scanned.updates) == (counted.solutions, counted.nodes,
                                                                   counted.updates) == (2, 7976, 2681562)


def test_budget_stops_a_search_of_millions_of_nodes():
    ec = problems.queens(14)                      # 5,474,542 nodes in all
    partial = ec.count(max_nodes=1_000_000)
    assert ec.stats.status == "max_nodes" and not ec.stats.complete
    assert ec.stats.nodes == 1_000_000 and partial == ec.stats.solutions
    assert 0 < partial < 365_596
    ec.check()
    first_ones = list(ec.solutions(max_nodes=1_000_000))
    assert len(first_ones) == partial and ec.stats.status == "max_nodes"
    assert list(ec.solutions(limit=partial)) == first_ones
    assert ec.count() == 365_596 and ec.stats.complete and ec.stats.nodes == 5_474_542


def test_status_says_why_a_search_stopped():
    ec = problems.queens(8)
    assert ec.count(limit=5) == 5 and ec.stats.status == "limit"
    assert ec.count(limit=92) == 92 and ec.stats.status == "limit"      # stopped at the 92nd, tree not done
    assert ec.count(limit=93) == 92 and ec.stats.status == "complete"
    iterator = ec.solutions()
    next(iterator)
    assert ec.stats.status == "running" and not ec.stats.complete
    iterator.close()
    assert ec.stats.status == "stopped"
    assert ec.first(max_nodes=3) is None and ec.stats.status == "max_nodes"
    with pytest.raises(ValueError, match="max_nodes must be"):
        ec.count(max_nodes=-1)
    ec.check()
