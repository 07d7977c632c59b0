"""Colours and multiplicities (Knuth's DLX2 and DLX3): the same solutions, order, nodes, updates and
cleansings as the set-based Algorithm M, which itself agrees with brute force; Knuth's examples;
every way in and out (lists, files, pickles, batches, the command)."""
import io
import pickle
import warnings
from itertools import islice

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import Tally, algorithm_m, brute_force_m, is_cover_m
from support import EXAMPLES, mcc_problems

from dlx import Batch, ExactCover, ProblemError, ProblemWarning, read_dlx, write_dlx
from dlx.cli import main


def build(primary, secondary, options, bounds):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ProblemWarning)
        return ExactCover(options, primary=primary, secondary=secondary, bounds=bounds)


# --- the reference, checked first


@settings(max_examples=300, deadline=None)
@given(mcc_problems())
def test_algorithm_m_agrees_with_brute_force(problem):
    primary, secondary, options, bounds = problem
    found = list(algorithm_m(options, primary, secondary, bounds))
    assert len(found) == len(set(found))
    assert set(found) == brute_force_m(options, primary, secondary, bounds)


def test_brute_force_knows_the_rules():
    assert is_cover_m([["a", ("x", 1)], ["b", ("x", 1)]], ["a", "b"], ["x"])
    assert not is_cover_m([["a", ("x", 1)], ["b", ("x", 2)]], ["a", "b"], ["x"])
    assert not is_cover_m([["a", ("x", 1)], ["b", "x"]], ["a", "b"], ["x"])
    assert not is_cover_m([["a", "x"], ["b", "x"]], ["a", "b"], ["x"])
    assert is_cover_m([["a"], ["a"]], ["a"], bounds={"a": (2, 3)})
    assert not is_cover_m([["a"]], ["a"], bounds={"a": (2, 3)})
    assert is_cover_m([], ["a"], bounds={"a": (0, 1)})


# --- the engine against the reference


@settings(max_examples=300, deadline=None)
@given(mcc_problems())
def test_search_matches_algorithm_m(problem):
    primary, secondary, options, bounds = problem
    tally = Tally()
    expected = list(algorithm_m(options, primary, secondary, bounds, tally))
    ec = build(primary, secondary, options, bounds)

    found = list(ec.solutions(engine="dlx"))
    ec.check()
    assert found == expected
    s = ec.stats
    assert (s.nodes, s.updates, s.cleansings, s.solutions) == (tally.nodes, tally.updates,
                                                                tally.cleansings, len(expected))
    for solution in found:
        assert is_cover_m([options[k] for k in solution], primary, secondary, bounds)
    assert ec.count(engine="dlx") == len(expected) and ec.stats.complete
    assert ec.first(engine="dlx") == (expected[0] if expected else None)
    ec.check()


@settings(max_examples=150, deadline=None)
@given(mcc_problems(max_options=14), st.integers(1, 5))
def test_paused_runs_add_up_and_keep_the_links_exact(problem, budget):
    primary, secondary, options, bounds = problem
    tally = Tally()
    expected = list(algorithm_m(options, primary, secondary, bounds, tally))
    ec = build(primary, secondary, options, bounds)
    found = []
    with ec.search(max_nodes=budget, engine="dlx") as run:
        while True:
            found.extend(run)
            run.check()                  # exact at every pause: sanity, then unwound to as built
            ec.check()
            if run.status == "complete":
                break
            assert run.status == "max_nodes"
            run.resume(max_nodes=budget)
    assert found == expected
    assert (run.stats.nodes, run.stats.updates, run.stats.cleansings) == (tally.nodes, tally.updates,
                                                                          tally.cleansings)
    ec.check()


@settings(max_examples=100, deadline=None)
@given(mcc_problems(), st.integers(0, 4))
def test_limits_stop_where_the_reference_stops(problem, limit):
    primary, secondary, options, bounds = problem
    ec = build(primary, secondary, options, bounds)
    expected = list(islice(algorithm_m(options, primary, secondary, bounds), limit))
    assert list(ec.solutions(limit=limit, engine="dlx")) == expected
    assert ec.count(limit=limit, engine="dlx") == len(expected)
    ec.check()


def test_without_colours_a_file_keeps_dlx1_figures():
    plain = read_dlx(EXAMPLES / "queens8.dlx")
    assert plain.option_colours is None and plain.bounds is None
    assert plain.count() == 92 and (plain.stats.nodes, plain.stats.updates) == (1049, 16680)
    assert plain.stats.cleansings == 0


def test_bounds_of_one_are_no_bounds():
    ec = ExactCover([["a", "b"], ["a"], ["b"]], bounds={"a": 1, "b": (1, 1)})
    assert ec.bounds is None and ec.count() == 2


# --- Knuth's examples


def test_knuths_colour_example():
    with pytest.warns(ProblemWarning, match=r"colours\.dlx, line 6: an option without a primary item"):
        ec = read_dlx(EXAMPLES / "colours.dlx")
    assert ec.n_options == 5 and ec.option(2) == (("X", "0"), ("Y", "1"))     # kept, with its number
    assert list(ec.solutions(engine="dlx")) == [(1, 3)]
    assert [ec.option(k) for k in (1, 3)] == [("A", "C", ("X", "1"), ("Y", "1")), ("B", ("X", "1"))]
    s = ec.stats
    # worked by hand: cover A (7), B dead end after purifying X and Y (4, DLX2's dead-end update),
    # then A C X:1 Y:1 (cover C: 2, cleansings 3) and B X:1 (cover B: 1), a solution node
    assert (s.nodes, s.updates, s.cleansings) == (4, 14, 5)
    ec.check()


def test_knuths_multiplicity_example():
    ec = read_dlx(EXAMPLES / "bounds.dlx")
    assert ec.bound("C") == (2, 3) and ec.bound("A") == (1, 1)
    assert list(ec.solutions()) == [(1, 3, 4)]
    tally = Tally()
    options = [["A", "B", ("X", 0), ("Y", 0)], ["A", "C", ("X", 1), ("Y", 1)], ["C", ("X", 0)],
               ["B", ("X", 1)], ["C", ("Y", 1)]]
    assert list(algorithm_m(options, ["A", "B", "C"], ["X", "Y"], {"C": (2, 3)}, tally)) == [(1, 3, 4)]
    assert (ec.stats.nodes, ec.stats.updates, ec.stats.cleansings) == (tally.nodes, tally.updates,
                                                                       tally.cleansings)


# --- the problem in Python


def test_colour_entries_and_their_rules():
    ec = ExactCover([["a", ("x", "red")], ["b", ("x", "red")], ["b", ("x", "blue")]], secondary=["x"])
    assert ec.colours == ("red", "blue") and ec.option_colours.tolist() == [0, 1, 0, 1, 0, 2]
    assert list(ec.solutions()) == [(0, 1)]
    # a pair that is a declared item is that item, as before colours existed
    pairs = ExactCover([[(0, 1), (0, 2)], [(0, 1)]], primary=[(0, 1), (0, 2)])
    assert pairs.option_colours is None and pairs.count() == 1
    # without a declared first element it is an item name too (here a primary item)
    assert ExactCover([[("x", 1)]]).items == (("x", 1),)


def test_options_without_a_primary_item_are_skipped_the_same_way_from_every_input():
    with pytest.warns(ProblemWarning, match=r"option 1: an option without a primary item") as caught:
        from_lists = ExactCover([["a"], ["x"], ["a", "x"]], secondary=["x"])
    assert len(caught) == 1
    with pytest.warns(ProblemWarning, match=r"row 1: an option"):
        from_matrix = ExactCover.from_matrix(np.array([[1, 0], [0, 1], [1, 1]]), secondary=1)
    with pytest.warns(ProblemWarning, match=r"<input>, line 3: an option"):
        from_file = read_dlx(io.StringIO("a | x\na\nx\na x\n"))
    for ec in (from_lists, from_matrix, from_file):
        assert ec.n_options == 3 and list(ec.solutions()) == [(0,), (2,)]
        ec.check()
    with pytest.warns(ProblemWarning, match=r"option 1, option 2: options without"):
        assert ExactCover([["a"], [], ["x"]], secondary=["x"]).count() == 1


def test_pickles_keep_colours_and_bounds():
    options = [["a", ("x", 1)], ["a", ("x", 1)], ["b", ("x", 1)], ["b", "x"]]
    ec = ExactCover(options, secondary=["x"], bounds={"a": (1, 2)})
    again = pickle.loads(pickle.dumps(ec))
    assert again.colours == ec.colours and (again.bounds == ec.bounds).all()
    assert sorted(again.solutions()) == sorted(ec.solutions()) == [(0, 1, 2), (0, 2), (1, 2)]
    assert (again.stats.nodes, again.stats.updates, again.stats.cleansings) == (
        ec.stats.nodes, ec.stats.updates, ec.stats.cleansings)


# --- Knuth's format both ways


@settings(max_examples=150, deadline=None)
@given(mcc_problems(), st.lists(st.integers(0, 12), max_size=3))
def test_write_then_read_gives_the_same_problem(problem, empties):
    primary, secondary, options, bounds = problem
    options = list(options)
    for k in empties:
        options.insert(min(k, len(options)), [])        # a matrix's row of zeros
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ProblemWarning)
        ec = build(primary, secondary, options, bounds)
        again = read_dlx(io.StringIO(write_dlx(ec, io.StringIO()).getvalue()))
    assert again.items == ec.items and again.n_primary == ec.n_primary
    assert [again.bound(i) for i in primary] == [ec.bound(i) for i in primary]
    # every option at its number, those without a primary item too (they were comments once, and
    # the solutions read back named other rows)
    assert [again.option(k) for k in range(again.n_options)] == [ec.option(k) for k in range(ec.n_options)]
    assert list(again.solutions()) == list(ec.solutions())


def test_bounds_and_colours_are_written_as_knuth_writes_them():
    ec = ExactCover([["a", "b", ("x", "0")], ["c", "x"]], secondary=["x"], bounds={"a": (2, 3), "b": 2})
    assert write_dlx(ec, io.StringIO()).getvalue().splitlines()[1:] == [
        "2:3|a 2|b c | x", "a b x:0", "c x"]
    with pytest.raises(ProblemError, match="colour 'a b' cannot be written"):
        write_dlx(ExactCover([["a", ("x", "a b")]], secondary=["x"]), io.StringIO())


# --- batches and the command


@settings(max_examples=150, deadline=None)
@given(mcc_problems(), st.data())
def test_batch_matches_brute_force(problem, data):
    primary, secondary, options, bounds = problem
    options = [option for option in options if set(option) & set(primary)]    # selectable ones
    if not options:
        return
    ec = build(primary, secondary, options, bounds)
    solutions = brute_force_m(options, primary, secondary, bounds)
    n = len(options)
    rows = np.array(data.draw(st.lists(st.lists(st.sampled_from([0, 0, 1]), min_size=n, max_size=n),
                                       min_size=1, max_size=5)), dtype=np.uint8)
    limit = data.draw(st.integers(1, 4))
    max_nodes = data.draw(st.sampled_from([None, 0, 1, 3, 1000]))
    result = Batch(ec, [1] * n).solve(rows, limit=limit, max_nodes=max_nodes)
    for r, status in enumerate(result.statuses()):
        chosen = set(np.flatnonzero(rows[r]).tolist())
        wanted = [s for s in solutions if chosen <= set(s)]
        if status == "invalid":
            assert not wanted
        elif status == "max_nodes":
            assert result.nodes[r] == max_nodes and result.counts[r] <= min(len(wanted), limit)
        else:
            assert result.counts[r] == min(len(wanted), limit)
            assert status == ("solved" if wanted else "no solution")
        if result.counts[r]:
            assert tuple(np.flatnonzero(result.answers[r]).tolist()) in wanted
    ec.check()


def test_a_stopped_run_resumes_to_the_same_figures():
    options = [[f"c{i}", f"c{(i + 1) % 9}", ("x", i % 3)] for i in range(9)] + [[f"c{i}"] for i in range(9)]
    ec = ExactCover(options, secondary=["x"], bounds={"c0": (0, 2)})
    whole = ec.count()
    figures = (ec.stats.nodes, ec.stats.updates, ec.stats.cleansings)
    with ec.search() as run:
        run.stop()                       # asked before it starts: seen at the first poll
        assert run.count() == 0 and run.status == "stopped"
        run.check()
        rest = run.resume().count()
    assert rest == whole and (run.stats.nodes, run.stats.updates, run.stats.cleansings) == figures


def test_batch_selects_options_of_coloured_and_bounded_problems():
    ec = read_dlx(EXAMPLES / "bounds.dlx")
    batch = Batch(ec, [1, 1, 1, 1, 1])
    result = batch.solve([[0, 0, 0, 0, 0], [0, 1, 0, 0, 0], [1, 0, 0, 0, 0], [0, 1, 0, 1, 1], [1, 1, 0, 0, 0]],
                         limit=5)
    assert result.statuses() == ["solved", "solved", "no solution", "solved", "invalid"]
    assert result.counts.tolist() == [1, 1, 0, 1, 0]
    assert result.answers[0].tolist() == [0, 1, 0, 1, 1]
    ec.check()


def test_the_command_prints_colours_and_cleansings(capsys):
    assert main([str(EXAMPLES / "colours.dlx"), "--stats", "--engine", "dlx"]) == 0
    out, err = capsys.readouterr()
    assert out == "A C X:1 Y:1\nB X:1\n"
    assert "dlx: warning: " in err and "line 6: an option without a primary item" in err
    assert "Altogether 1 solution, 14 updates, 5 cleansings, 4 nodes," in err and "engine dlx." in err
    assert main([str(EXAMPLES / "colours.dlx"), "--stats"]) == 0      # auto: cells, for colours
    out, err = capsys.readouterr()
    assert out == "A C X:1 Y:1\nB X:1\n" and err.rstrip().endswith("engine cells.")
    assert main([str(EXAMPLES / "bounds.dlx"), "--count"]) == 0
    assert capsys.readouterr().out == "1\n"
