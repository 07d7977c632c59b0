"""Runs: engines by name, the problem as pickled data, stats per run, budgets as pauses, stop and
resume from another thread and by KeyboardInterrupt."""
import _thread
import pickle
import threading
from itertools import islice

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import Counts, algorithm_x
from support import INKALA, small_problems

import dlx
import sudoku
from dlx import Batch, ExactCover, SearchStats, Status, parallel, problems
from dlx.engines import cells, dlx1
from dlx.engines.base import NODES, PHASE

#: The engines proper (not "auto", which is one of them): tests of what every engine must do.
ENGINES = ["dlx", "cells"]


def test_unknown_engine_names_the_engines():
    q = problems.queens(4)
    for call in (lambda: q.count(engine="dlx2"), lambda: q.solutions(engine="x"), lambda: q.first(engine="x"),
                 lambda: q.search(engine="x"), lambda: Batch(q, [4] * 4, engine="links")):
        with pytest.raises(ValueError, match=rf"unknown engine .*; the engines are: {', '.join(dlx.ENGINES)}$"):
            call()
    assert q.count(engine="dlx") == q.count(engine="cells") == q.count(engine="compact") == 2
    assert list(dlx.ENGINES)[:4] == ["auto", "dlx", "cells", "compact"]       # a new engine comes after


def test_auto_picks_the_engine_measured_fastest_for_each_shape():
    chosen = {name: dlx.engines.choose(problem.engine_input) for name, problem in {
        "queens": problems.queens(8), "langford 11": problems.langford(11), "langford 12": problems.langford(12),
        "pentominoes": problems.pentominoes(3, 20), "latin squares": problems.latin_squares(5),
        "dominoes": problems.dominoes(6, 8), "set partitions": problems.set_partitioning(24, 120, seed=2),
        "sudoku": sudoku.encode.problem(3), "graceful": problems.graceful([(0, 1), (1, 2)]),
        "multiplicities": problems.k_queens(5, 3)}.items()}
    assert chosen == {"queens": "dlx", "langford 11": "cells", "langford 12": "cells", "pentominoes": "cells",
                      "latin squares": "dlx", "dominoes": "dlx", "set partitions": "dlx", "sudoku": "compact",
                      "graceful": "cells", "multiplicities": "dlx"}
    langford = problems.langford(12)
    assert langford.count() == 108144 and langford.stats.engine == "cells"


def test_pickle_round_trip_counts_the_same():
    q = problems.queens(8)
    assert q.count() == 92                        # the links are built now; they must not travel
    data = pickle.dumps(q)
    assert b"Structures" not in data and b"Lock" not in data
    back = pickle.loads(data)
    assert back.items == q.items and back.n_primary == q.n_primary
    assert np.array_equal(back.option_start, q.option_start)
    assert np.array_equal(back.option_items, q.option_items)
    assert back.stats is None and back.structures.built() == []
    assert back.count() == 92 and (back.stats.nodes, back.stats.updates) == (q.stats.nodes, q.stats.updates)
    back.check()
    # a pickle taken while a search is paused is the same problem too
    run = q.search()
    next(run)
    assert pickle.loads(pickle.dumps(q)).count() == 92
    run.close()
    q.check()


def test_problem_is_immutable():
    q = problems.queens(4)
    with pytest.raises(AttributeError, match="immutable"):
        q.n_primary = 3
    with pytest.raises(ValueError, match="read-only"):
        q.option_items[0] = 1


def test_each_run_owns_its_stats():
    q = problems.queens(8)
    a, b = q.search(), q.search(limit=5)
    first_a = list(islice(a, 3))
    assert b.count() == 5
    assert (a.stats.solutions, a.stats.status) == (3, "running")
    assert (b.stats.solutions, b.stats.status) == (5, "limit")
    assert q.stats == b.stats                       # the latest run of this thread
    assert a.count() == 89 and a.stats.complete and a.stats.nodes == 1049
    assert first_a == list(q.solutions(limit=3))
    a.close()
    b.close()
    q.check()


def test_threads_see_their_own_latest_stats():
    q = problems.queens(9)
    seen = {}

    def work(limit):
        q.count(limit=limit)
        seen[limit] = q.stats.solutions

    threads = [threading.Thread(target=work, args=(k,)) for k in (10, 20, 30, 40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {10: 10, 20: 20, 30: 30, 40: 40}


def test_stats_add_up():
    a = SearchStats(10, 100, 2, 0.5, Status.COMPLETE)
    b = SearchStats(5, 50, 1, 0.25, Status.MAX_NODES)
    assert a + b == SearchStats(15, 150, 3, 0.75, Status.MAX_NODES)
    assert a + a == SearchStats(20, 200, 4, 1.0, Status.COMPLETE)
    assert (b + a).status == "max_nodes"


def test_a_finished_machine_does_nothing():
    q = problems.queens(5)
    structure = q.prepared("dlx").structure
    choice, state = dlx1.new_state(q.n_primary)
    empty = np.zeros(0, np.int32)
    args = (structure, choice, state, 10**6, 10**6, 10**6, False, empty, empty)
    assert dlx1.search(*args) == 10 and state[PHASE] == Status.COMPLETE.code and state[NODES] == 46
    assert dlx1.search(*args) == 0 and state[PHASE] == Status.COMPLETE.code and state[NODES] == 46
    q.check()


def test_the_kernel_is_loaded_before_the_clock_starts():
    q = ExactCover([["a"]])
    q.prepared("dlx")
    assert dlx1.search.signatures       # warm_up compiled or loaded it; a search times only itself


@settings(max_examples=150, deadline=None)
@given(small_problems(), st.lists(st.integers(0, 12), min_size=1, max_size=6))
def test_budget_pieces_add_up_to_the_whole_run(problem, budgets):
    primary, secondary, options = problem
    counts = Counts()
    expected = list(algorithm_x(options, primary, secondary, counts))
    ec = ExactCover(options, primary=primary, secondary=secondary)
    found = []
    with ec.search(max_nodes=budgets[0]) as run:
        found += list(run)
        for budget in [*budgets[1:], None]:
            if run.status != "max_nodes":
                break
            assert run.stats.nodes <= sum(budgets)
            run.check()
            ec.check()
            found += list(run.resume(max_nodes=budget))
        while run.status == "max_nodes":
            found += list(run.resume(max_nodes=3))
        assert found == expected
        assert run.stats.complete
        assert (run.stats.nodes, run.stats.updates, run.stats.solutions) == (
            counts.nodes, counts.updates, len(expected))
    ec.check()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_budget_pauses_a_big_count_and_resumes_exactly(engine):
    q = problems.queens(12)
    with q.search(max_nodes=50_000, engine=engine) as run:
        parts = [run.count()]
        while run.status == "max_nodes":
            parts.append(run.resume(max_nodes=50_000).count())
        assert run.stats.complete and sum(parts) == 14200 and len(parts) == -(-run.stats.nodes // 50_000)
        whole = q.count(engine=engine)
        assert (run.stats.nodes, run.stats.updates) == (q.stats.nodes, q.stats.updates)
    assert whole == 14200


@pytest.mark.parametrize("engine", ENGINES)
def test_limit_then_resume_gives_the_rest_in_order(engine):
    q = problems.queens(6)
    every = list(q.solutions(engine=engine))
    with q.search(limit=1, engine=engine) as run:
        assert list(run) == every[:1] and run.status == "limit"
        assert list(run.resume(limit=2)) == every[1:3]
        assert list(run.resume()) == every[3:] and run.stats.complete


@pytest.mark.parametrize("engine, nodes", [("dlx", 5_474_542), ("cells", 4_842_362)])
def test_stop_from_another_thread_then_resume(engine, nodes):
    q = problems.queens(14)                        # 365,596 solutions
    run = q.search(engine=engine)
    first = len(list(islice(run, 10)))
    stopper = threading.Thread(target=run.stop)     # a stop between two kernel calls
    stopper.start()
    stopper.join()
    first += run.count()
    assert run.status == "stopped" and 0 < run.stats.nodes < nodes
    run.check()                                    # the links hold exactly the applied options
    q.check()
    # a stop that lands at any moment of a count (which one is the scheduler's choice)
    stopper = threading.Timer(0.05, run.stop)
    stopper.start()
    rest = run.resume().count()
    stopper.join()
    while not run.stats.complete:
        assert run.status == "stopped"
        run.check()
        rest += run.resume().count()
    assert first + rest == 365_596 and run.stats.nodes == nodes
    run.close()
    q.check()


@pytest.fixture
def interrupt_after_calls(monkeypatch):
    """Ctrl-C as the ``n``-th kernel call of an engine returns (Python raises KeyboardInterrupt
    at its next check, as after a real SIGINT): where the interrupt lands is then a fact of the
    search, not of a clock."""
    def arm(engine: str, n: int) -> None:
        cls = {"dlx": dlx1.DLX1, "cells": cells.Cells}[engine]
        advance, calls = cls.advance, []

        def advance_then_interrupt(self, *args, **kwargs):
            found = advance(self, *args, **kwargs)
            calls.append(found)
            if len(calls) == n:
                _thread.interrupt_main()
            return found

        monkeypatch.setattr(cls, "advance", advance_then_interrupt)
    return arm


def test_keyboard_interrupt_reaches_the_caller_and_leaves_the_problem_usable(interrupt_after_calls):
    q = problems.queens(16)                        # minutes of search
    interrupt_after_calls("dlx", 3)
    with pytest.raises(KeyboardInterrupt):
        q.count(engine="dlx")
    assert q.stats.status == "stopped" and q.stats.nodes > 0
    q.check()
    assert q.count(limit=1000) == 1000 and q.count(max_nodes=5000) == 356
    assert (q.stats.nodes, q.stats.updates) == (5000, 82978)      # as in a fresh process
    q.check()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("calls", [1, 2, 5])
def test_keyboard_interrupt_keeps_a_search_resumable(engine, calls, interrupt_after_calls):
    q = problems.queens(12)
    every = list(q.solutions(limit=3000, engine=engine))
    run = q.search(limit=3000, engine=engine)
    got = []
    interrupt_after_calls(engine, calls)
    with pytest.raises(KeyboardInterrupt):
        for solution in run:
            got.append(solution)
    assert len(got) < 3000
    run.check()
    got += list(run)                               # nothing lost, nothing twice
    assert got == every
    run.close()
    q.check()


def test_keyboard_interrupt_stops_a_sudoku_count():
    interrupt = threading.Timer(0.3, _thread.interrupt_main)     # lands in the count, wherever
    with pytest.raises(KeyboardInterrupt):
        interrupt.start()
        sudoku.count("." * 81)                     # 6.67e21 grids
    interrupt.join()
    p = sudoku.encode.problem(3)
    p.check()
    assert sudoku.solve(INKALA) is not None and sudoku.count("." * 16) == 288


@pytest.mark.parametrize("engine", ENGINES)
def test_batch_stop_event_marks_the_rest_stopped(engine):
    queens = problems.queens(13)                   # 73,712 solutions: more than one slice of work
    batch = Batch(queens, [13] * 13, engine=engine)
    rows = np.zeros((3, 13), np.uint8)
    rows[1:, 0] = [1, 2]
    stop = threading.Event()
    stop.set()
    result = batch.solve(rows, limit=10**9, stop=stop)
    assert result.statuses() == ["stopped"] * 3 and not result.counts.any()
    queens.check()


@pytest.mark.parametrize("engine", ENGINES)
def test_batch_after_a_stop_counts_in_full(engine):
    queens = problems.queens(13)
    batch = Batch(queens, [13] * 13, engine=engine)
    rows = np.zeros((3, 13), np.uint8)
    rows[1:, 0] = [1, 2]
    stop = threading.Event()
    stop.set()
    batch.solve(rows, limit=10**9, stop=stop)
    whole = batch.solve(rows, limit=10**9)
    assert whole.statuses() == ["solved"] * 3 and whole.counts[0] == 73_712
    by_column = [sum(1 for s in queens.solutions() if s[0] == c) for c in (0, 1)]   # row 0's queen
    assert whole.counts[1:].tolist() == by_column


def test_a_seeded_copys_structures_pickle_and_search_alike():
    # a seeded search on Dask scatters the reordered structures: only the options travel
    q = problems.queens(6)
    seeded, order, _ = q.structures.seeded(3)
    assert seeded.prepared("dlx") is not None
    back = pickle.loads(pickle.dumps(seeded))
    assert back.built() == [] and back.options.n_options == q.n_options
    runs = [parallel.run(s, jobs=1, engine="dlx", collect=True) for s in (seeded, back)]
    assert runs[0].solutions == runs[1].solutions and len(runs[0].solutions) == 4
    assert runs[0].stats.nodes == runs[1].stats.nodes
