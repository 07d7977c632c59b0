"""The dancing-cells engine: the same solutions as the references (as sets: it tries options in
another order), its own figures exactly reproducible (paused pieces add up to the whole run, limits
give a prefix of it), the sparse sets exact at every pause, colours (SSXCC), batches."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import algorithm_m, algorithm_x, brute_force, brute_force_m, is_cover_m
from support import EXAMPLES, assert_solutions, batches, mcc_problems, messages, small_problems

from dlx import Batch, ExactCover, ProblemWarning, engines, problems, read_dlx
from dlx.engines import cells

#: Options without a primary item (all-zero rows and the like) are skipped with a warning, as
#: they should be; test_colours checks the warning itself.
pytestmark = pytest.mark.filterwarnings("ignore::dlx.ProblemWarning")


def xcc_problems(max_options=10):
    """Random problems with colours and no bounds (the cells engine takes no multiplicities)."""
    return mcc_problems(max_options=max_options).map(lambda p: (*p[:3], {}))


@settings(max_examples=300, deadline=None)
@given(small_problems())
def test_cells_finds_the_solutions_of_the_reference(problem):
    primary, secondary, options = problem
    expected = set(algorithm_x(options, primary, secondary))
    ec = ExactCover(options, primary=primary, secondary=secondary)
    found = list(ec.solutions(engine="cells"))
    stats = ec.stats
    ec.check()
    assert len(found) == len(set(found)) and set(found) == expected
    assert_solutions(ec, found, primary, secondary)
    assert ec.stats.solutions == len(expected) and ec.stats.complete
    assert ec.count(engine="cells") == len(expected)
    first = ec.first(engine="cells")
    assert first == (found[0] if found else None)
    # the same run again gives the same order and figures: the sets are put back exactly
    assert list(ec.solutions(engine="cells")) == found
    assert (ec.stats.nodes, ec.stats.updates) == (stats.nodes, stats.updates)
    ec.check()


@settings(max_examples=300, deadline=None)
@given(xcc_problems())
def test_cells_with_colours_finds_the_solutions_of_algorithm_c(problem):
    primary, secondary, options, _ = problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ProblemWarning)
        ec = ExactCover(options, primary=primary, secondary=secondary)
    expected = set(algorithm_m(options, primary, secondary))
    assert expected == brute_force_m(options, primary, secondary)
    found = list(ec.solutions(engine="cells"))
    ec.check()
    assert len(found) == len(set(found)) and set(found) == expected
    for solution in found:
        assert is_cover_m([options[k] for k in solution], primary, secondary)
    assert ec.count(engine="cells") == len(expected)


@settings(max_examples=200, deadline=None)
@given(st.one_of(small_problems().map(lambda p: (*p, {})), xcc_problems(max_options=14)),
       st.integers(1, 5))
def test_paused_runs_add_up_and_keep_the_sets_exact(problem, budget):
    primary, secondary, options, _ = problem
    ec = ExactCover(options, primary=primary, secondary=secondary)
    whole = list(ec.solutions(engine="cells"))
    stats = ec.stats
    found = []
    with ec.search(max_nodes=budget, engine="cells") as run:
        while True:
            found.extend(run)
            run.check()              # exact at every pause: the sets as the applied options make them
            ec.check()
            if run.status == "complete":
                break
            assert run.status == "max_nodes"
            run.resume(max_nodes=budget)
    assert found == whole
    assert (run.stats.nodes, run.stats.updates, run.stats.cleansings) == (stats.nodes, stats.updates,
                                                                          stats.cleansings)
    ec.check()


@settings(max_examples=150, deadline=None)
@given(st.one_of(small_problems().map(lambda p: (*p, {})), xcc_problems()), st.integers(0, 4))
def test_limits_give_a_prefix_of_the_whole_run(problem, limit):
    primary, secondary, options, _ = problem
    ec = ExactCover(options, primary=primary, secondary=secondary)
    whole = list(ec.solutions(engine="cells"))
    assert list(ec.solutions(limit=limit, engine="cells")) == whole[:limit]
    assert ec.count(limit=limit, engine="cells") == min(limit, len(whole))
    with ec.search(limit=limit, engine="cells") as run:
        got = list(run)
        run.check()
        got += list(run.resume())
    assert got == whole
    ec.check()


@pytest.mark.parametrize("n, count", [(1, 1), (4, 2), (6, 4), (8, 92), (10, 724)])
def test_queens(n, count):
    q = problems.queens(n)
    assert q.count(engine="cells") == count
    assert set(q.solutions(engine="cells")) == set(q.solutions())


def test_pentominoes_and_langford_agree_with_dlx():
    p = problems.pentominoes(3, 20)
    assert p.count(engine="cells") == p.count() == 2          # the 2 distinct packings
    lf = problems.langford(7)
    assert set(lf.solutions(engine="cells")) == set(lf.solutions()) and lf.count() == 26


def test_nodes_and_updates_as_ssxc1_counts_them():
    # Worked by hand. Level 0 (node 1): a and b have 2 options each, a comes first: swap a out (1
    # update), hide [a b] from b's set (1), save; try [a b]: swap b out (1), hide [b] (nothing
    # else in it); level 1 (node 2): a solution. Back at level 0 the sizes come back; try [a]:
    # level 1 (node 3) chooses b (1 option): swap it out (1), no save; try [b]; level 2 (node 4):
    # a solution. Then every level is done.
    ec = ExactCover([["a", "b"], ["a"], ["b"]])
    assert list(ec.solutions(engine="cells")) == [(0,), (1, 2)]
    s = ec.stats
    assert (s.nodes, s.updates, s.solutions, s.complete) == (4, 4, 2, True)
    # an early abort is no node: on pentominoes DLX1 enters ~3x as many levels, most dead ends
    p = problems.pentominoes(3, 20)
    p.count(engine="cells")
    cells_nodes = p.stats.nodes
    p.count(engine="dlx")
    assert 2 * cells_nodes < p.stats.nodes
    knuth = read_dlx(EXAMPLES / "knuth.dlx")
    assert knuth.first(engine="cells") == knuth.first() and knuth.count(engine="cells") == 1


def test_words_squares_graceful_and_colours_agree_with_dlx2():
    w = problems.word_squares()
    assert w.count(engine="cells") == w.count() == 265
    assert ec_stats_cleansings(w) > 0
    g = problems.graceful([(0, 1), (1, 2), (2, 0)])
    assert set(g.solutions(engine="cells")) == set(g.solutions())


def ec_stats_cleansings(ec):
    ec.count(engine="cells")
    return ec.stats.cleansings


def test_multiplicities_go_to_ssmcc_and_the_d_way_machine_refuses_them():
    ec = ExactCover([["a"], ["a"], ["a", "b"]], bounds={"a": 2}, secondary=["b"])
    assert ec.count(engine="cells") == ec.count() == 3
    assert ec.prepared("cells").engine.name == "binary"       # SSMCC branches binary
    with pytest.raises(ValueError, match="takes no multiplicities.*SSMCC"):
        engines.get("cells").machines[0].for_problem(ec.engine_input)


def test_the_save_stack_grows_in_a_deep_search(monkeypatch):
    q = problems.queens(12)
    expected = list(q.solutions(engine="cells"))
    stats = q.stats
    monkeypatch.setattr(cells, "STACK_START", 16)
    monkeypatch.setattr(cells, "STACK_LEVELS", 1)
    with q.search(engine="cells") as run:
        start = run._machine.stack.size
        assert start == 2 * (q.n_items + 1)
        found = [next(run)]
        run.check()
        found += list(run)
        assert run._machine.stack.size > start
    assert found == expected and (run.stats.nodes, run.stats.updates) == (stats.nodes, stats.updates)
    rows = np.zeros((2, 12), np.uint8)
    rows[1, 0] = 3
    result = Batch(q, [12] * 12, engine="cells").solve(rows, limit=None)
    assert result.counts.tolist() == [len(expected), sum(1 for s in expected if 2 in s)]


@settings(max_examples=200, deadline=None)
@given(batches(st.one_of(small_problems(), xcc_problems())))
def test_batch_answers_as_dlx_does(case):
    primary, secondary, options, sizes, rows, limit = case
    ec = ExactCover(options, primary=primary, secondary=secondary)
    try:
        by_dlx = Batch(ec, sizes).solve(np.array(rows, np.uint8).reshape(len(rows), len(sizes)), limit)
    except ValueError as e:            # a group holding an option without a primary item
        with pytest.raises(type(e)):
            Batch(ec, sizes, engine="cells")
        return
    result = Batch(ec, sizes, engine="cells").solve(np.array(rows, np.uint8).reshape(len(rows), len(sizes)),
                                                    limit)
    ec.check()
    assert result.status.tolist() == by_dlx.status.tolist()
    assert result.counts.tolist() == by_dlx.counts.tolist()
    starts = np.concatenate([[0], np.cumsum(sizes)])
    covers = brute_force_m(options, primary, secondary)
    for r, row in enumerate(rows):
        answer = result.answers[r]
        if result.counts[r] == 0:
            assert not answer.any()
            continue
        given = {starts[j] + v - 1 for j, v in enumerate(row) if v}

        def fits(cover, given=given, answer=answer):  # per group, one of the cover's options, or none
            return given <= set(cover) and all(
                (starts[j] + v - 1 in cover) if v else not any(starts[j] <= k < starts[j + 1] for k in cover)
                for j, v in enumerate(answer.tolist()))
        assert any(fits(cover) for cover in covers)


def test_batch_of_queens_rows():
    queens = problems.queens(6)
    rows = np.zeros((3, 6), np.uint8)
    rows[1, 0] = 2
    rows[2, :2] = [1, 2]           # two queens on a diagonal: the givens clash
    result = Batch(queens, [6] * 6, engine="cells").solve(rows, limit=5)
    assert result.counts.tolist() == [4, 1, 0]
    assert result.statuses() == ["solved", "solved", "invalid"]
    assert result.answers[1].tolist() == [2, 4, 6, 1, 3, 5]
    queens.check()


def test_brute_force_is_the_judge():
    assert brute_force([["a"], ["a"]], ["a"], []) == {(0,), (1,)}


def test_pickled_problems_search_alike_with_cells():
    import pickle
    w = problems.word_squares()
    before = list(w.solutions(engine="cells"))
    again = pickle.loads(pickle.dumps(w))
    assert list(again.solutions(engine="cells")) == before and again.stats.engine == "cells"
    again.check()


def test_the_command_takes_the_engine(capsys):
    from dlx.cli import main
    assert main([str(EXAMPLES / "queens8.dlx"), "--count", "--stats", "--engine", "cells"]) == 0
    out, err = capsys.readouterr()
    assert out == "92\n"
    assert messages(err).startswith("Altogether 92 solutions, ") and err.rstrip().endswith("engine cells.")
    assert main([str(EXAMPLES / "knuth.dlx"), "--engine", "cells"]) == 0
    assert sorted(capsys.readouterr().out.splitlines()) == ["a d f", "b g", "c e"]
    assert main([str(EXAMPLES / "bounds.dlx"), "--engine", "cells"]) == 0      # SSMCC
    ssmcc = sorted(capsys.readouterr().out.splitlines())
    assert main([str(EXAMPLES / "bounds.dlx"), "--engine", "dlx"]) == 0
    assert ssmcc == sorted(capsys.readouterr().out.splitlines()) and ssmcc
