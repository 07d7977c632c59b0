"""Minimum-cost exact cover (Knuth's DLX5): the k cheapest solutions, exact to Knuth's program.

Knuth's own figures (tests/data/dlx5.json, written by bench/knuth_costs.py from his dlx5 built from
dlx5.w) on random problems with costs, colours and secondary items, on the named instances of
dlx.problems and on the shared files; the set-based DLX5 of tests/naive.py (the same improving
solutions in the same order, the same nodes, updates and cleansings) and brute force (the k best
costs) on hypothesis problems; budgets, stop and resume, threads, and the structure as built after
every run.
"""
from __future__ import annotations

import io
import json
import os
import pickle
import sys
import threading
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import CostCounts, cheapest_brute_force, cheapest_x
from support import EXAMPLES

import dlx
from dlx import ExactCover, ProblemError, problems, read_dlx, write_dlx
from dlx.cheapest import Cheapest, Interrupted, Priced, structure
from dlx.engines import dlx5

DATA = json.loads((Path(__file__).parent / "data" / "dlx5.json").read_text())
NAMED = {
    "weighted_queens(8)": lambda: problems.weighted_queens(8),
    "weighted_queens(10, seed=1)": lambda: problems.weighted_queens(10, 1),
    "set_partitioning(30, 300, 1)": lambda: problems.set_partitioning(30, 300, 1),
    "set_partitioning(40, 400, 2, largest=6)": lambda: problems.set_partitioning(40, 400, 2, largest=6),
    "weighted_pentominoes(3, 20)": lambda: problems.weighted_pentominoes(3, 20),
    "weighted_graceful(K4)": lambda: problems.weighted_graceful([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]),
}


def figures(problem: ExactCover, k: int) -> dict:
    """What our DLX5 reports, as bench/knuth_costs.py records Knuth's."""
    best = problem.cheapest(k)
    s = problem.stats
    return {"k": k, "solutions": s.solutions, "nodes": s.nodes, "updates": s.updates,
            "cleansings": s.cleansings, "costs": [p.cost for p in best]}


def quiet_read(text: str) -> ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.ProblemWarning)
        return read_dlx(io.StringIO(text))


def assert_as_built(problem: ExactCover) -> None:
    """The kept structure is untouched by runs (each run searches a copy) and a finished run's
    copy is back as built."""
    pristine, _ = structure(problem)
    fresh = dlx5.build(problem.engine_input, problem.option_costs if problem.option_costs is not None
                       else np.zeros(problem.n_options, np.int64))
    dlx5.check(pristine, fresh)


# --- Knuth's figures


@pytest.mark.parametrize("n", range(len(DATA["random"])))
def test_random_problems_match_knuths_dlx5(n):
    case = DATA["random"][n]
    problem = quiet_read(case["text"])
    for run in case["runs"]:
        assert figures(problem, run["k"]) == run
    assert_as_built(problem)


@pytest.mark.parametrize("case", DATA["named"], ids=lambda case: case["label"])
def test_named_instances_match_knuths_dlx5(case):
    problem = NAMED[case["label"]]()
    for run in case["runs"]:
        assert figures(problem, run["k"]) == run


@pytest.mark.parametrize("case", DATA["shared"], ids=lambda case: case["file"])
def test_shared_files_match_knuths_dlx5(case, shared_dlx):
    """Without costs every solution costs 0: k=1 stops the search at the first, k=100 visits up to
    100, each as DLX5's lists and its choice (with h=10) make them."""
    problem = quiet_read((shared_dlx / case["file"]).read_text())
    for run in case["runs"]:
        assert figures(problem, run["k"]) == run


def test_the_data_holds_costs_colours_and_ties():
    texts = [case["text"] for case in DATA["random"]]
    assert sum(":" in text.split("\n", 2)[2] for text in texts) > 50          # colours
    assert sum(" | " in text.split("\n", 2)[1] for text in texts) > 80        # secondary items
    assert sum(len(set(run["costs"])) < len(run["costs"]) for case in DATA["random"] for run in case["runs"]) > 20


# --- the oracles


@st.composite
def priced_problems(draw, max_options: int = 9):
    """Small problems with costs (often tied), secondary items and colours: ``(options, costs,
    primary, secondary)``."""
    primary = [f"p{i}" for i in range(draw(st.integers(1, 5)))]
    secondary = [f"s{i}" for i in range(draw(st.integers(0, 2)))]
    options, costs = [], []
    for _ in range(draw(st.integers(0, max_options))):
        option: list = draw(st.lists(st.sampled_from(primary), min_size=draw(st.integers(0, 1)), max_size=3,
                                     unique=True))
        for item in secondary:
            use = draw(st.integers(0, 3))
            if use == 1:
                option.append(item)
            elif use >= 2:
                option.append((item, "AB"[use - 2]))
        if option:
            options.append(option)
            costs.append(draw(st.sampled_from([0, 1, 2, 3, 7])) if draw(st.booleans()) else draw(st.integers(0, 40)))
    return options, costs, primary, secondary


def build(options, costs, primary, secondary) -> ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.ProblemWarning)
        return ExactCover(options, primary=primary, secondary=secondary, costs=costs)


@settings(max_examples=300)
@given(priced_problems(), st.integers(1, 6), st.integers(1, 4))
def test_the_set_based_dlx5_agrees_step_for_step(case, k, lenthresh):
    options, costs, primary, secondary = case
    problem = build(options, costs, primary, secondary)
    counts = CostCounts()
    expected = list(cheapest_x(options, costs, primary, secondary, k, lenthresh, counts))
    run = Cheapest(problem, k, lenthresh=lenthresh)
    assert [tuple(p) for p in run] == expected
    s = run.stats
    assert (s.solutions, s.nodes, s.updates, s.cleansings) == (len(expected), counts.nodes, counts.updates,
                                                               counts.cleansings)
    assert s.status == "complete"
    run.check()                         # its copy is back as built


@settings(max_examples=300)
@given(priced_problems(), st.integers(1, 8))
def test_the_k_best_costs_are_brute_forces(case, k):
    options, costs, primary, secondary = case
    problem = build(options, costs, primary, secondary)
    best = problem.cheapest(k)
    assert [p.cost for p in best] == cheapest_brute_force(options, costs, primary, secondary, k)
    for cost, chosen in best:
        assert problem.is_solution(chosen, cost)
        assert problem.cost(chosen) == cost
    assert [p.cost for p in best] == sorted(p.cost for p in best)
    assert len(set(p.options for p in best)) == len(best)


@settings(max_examples=100)
@given(priced_problems(), st.integers(1, 5))
def test_every_improving_solution_beats_the_kth_best_before_it(case, k):
    options, costs, primary, secondary = case
    problem = build(options, costs, primary, secondary)
    seen: list[int] = []
    for cost, chosen in problem.improving(k):
        assert problem.is_solution(chosen, cost)
        if len(seen) >= k:
            assert cost < sorted(seen)[k - 1]
        seen.append(cost)


@settings(max_examples=100)
@given(priced_problems(), st.integers(1, 4), st.integers(1, 7))
def test_a_run_paused_by_budgets_equals_an_unbroken_one(case, k, budget):
    options, costs, primary, secondary = case
    problem = build(options, costs, primary, secondary)
    whole = Cheapest(problem, k)
    expected = list(whole)
    pieces = Cheapest(problem, k, max_nodes=budget)
    got = []
    while True:
        got += list(pieces)
        if pieces.status == "complete":
            break
        assert pieces.status == "max_nodes"
        assert pieces.stats.nodes % budget == 0
        pieces.resume(max_nodes=budget)
    assert got == expected
    assert pieces.best == whole.best
    assert replace(pieces.stats, seconds=0) == replace(whole.stats, seconds=0)


@settings(max_examples=60)
@given(priced_problems(max_options=12), st.integers(1, 5))
def test_threads_find_the_same_k_best_costs(case, k):
    options, costs, primary, secondary = case
    problem = build(options, costs, primary, secondary)
    one = problem.cheapest(k)
    two = problem.cheapest(k, jobs=2)
    assert [p.cost for p in two] == [p.cost for p in one]
    assert all(problem.is_solution(p.options, p.cost) for p in two)


# --- the API


def test_the_example_and_ties_in_the_order_found():
    ec = ExactCover([["a"], ["a"], ["a"], ["a"]], costs=[2, 1, 1, 1])
    assert ec.cheapest(2) == [Priced(1, (1,)), Priced(1, (2,))]
    assert [p.cost for p in ec.improving(4)] == [1, 1, 1, 2]
    assert ec.cheapest(9) == [Priced(1, (1,)), Priced(1, (2,)), Priced(1, (3,)), Priced(2, (0,))]


def test_a_problem_without_costs_costs_nothing_and_without_solutions_gives_none():
    assert problems.queens(6).cheapest(10) == [Priced(0, o) for o in problems.queens(6).solutions()]
    assert ExactCover([["a", "b"], ["b", "c"]], costs=[1, 1]).cheapest() == []
    assert problems.queens(3).cheapest() == []


def test_costs_are_the_options_own_not_the_net_ones():
    # every option of a is taxed 5 and of b 3: net costs differ, reported costs do not
    ec = ExactCover([["a"], ["a"], ["b"], ["b"]], costs=[5, 9, 3, 4])
    run = ec.improving(4)
    assert run.run() == [Priced(8, (0, 2)), Priced(9, (0, 3)), Priced(12, (1, 2)), Priced(13, (1, 3))]
    assert run.total_tax == 8
    assert run.costs == [8, 9, 12, 13]


def test_budget_reports_the_best_found_so_far():
    problem = problems.weighted_queens(8)
    best = problem.cheapest(max_nodes=40)
    assert problem.stats.status == "max_nodes" and problem.stats.nodes == 40
    assert best and best[0].cost >= 263 and problem.is_solution(best[0].options, best[0].cost)


def test_a_budget_is_shared_by_the_threads():
    problem = problems.weighted_queens(10, 1)
    best = problem.cheapest(2, max_nodes=300, jobs=2)
    assert problem.stats.status == "max_nodes" and problem.stats.nodes <= 300
    assert all(problem.is_solution(p.options, p.cost) for p in best)
    assert [p.cost for p in problem.cheapest(2, max_nodes=10 ** 9, jobs=2)] == [276, 282]
    assert problem.stats.status == "complete"


def test_stop_from_another_thread_pauses_and_resume_finishes():
    problem = problems.weighted_pentominoes(3, 20)
    run = problem.improving()
    first = next(run)
    run.stop()
    assert list(run) == [] and run.status == "stopped"
    rest = list(run.resume())
    assert run.status == "complete"
    assert [first, *rest] == list(problem.improving())


def test_ctrl_c_raises_interrupted_with_the_best_so_far(monkeypatch):
    """A KeyboardInterrupt between kernel calls (where Ctrl-C lands; here a call returns at each
    solution) leaves the run paused, and cheapest() raises Interrupted holding what it had."""
    real = dlx5.search

    def interrupted_after_a_solution(links, machine, *args):
        found = real(links, machine, *args)
        if machine.state[dlx.engines.base.SOLUTIONS] >= 1:
            raise KeyboardInterrupt
        return found

    monkeypatch.setattr(dlx.cheapest, "MAX_BATCH", 1)
    monkeypatch.setattr(dlx5, "search", interrupted_after_a_solution)
    problem = problems.weighted_queens(8)
    with pytest.raises(Interrupted) as caught:
        problem.cheapest()
    assert isinstance(caught.value, KeyboardInterrupt)
    best, stats = caught.value.best, caught.value.stats
    assert len(best) == 1 and stats.solutions == 1 and stats.status == "running"
    assert stats.nodes < 304 and best[0].cost > 263          # the whole run: 304 nodes, best 263
    assert problem.is_solution(best[0].options, best[0].cost)


def test_threads_split_every_named_instance_alike():
    for label in ("weighted_queens(8)", "set_partitioning(30, 300, 1)", "weighted_graceful(K4)"):
        problem = NAMED[label]()
        for k in (1, 3):
            assert [p.cost for p in problem.cheapest(k, jobs=2)] == [p.cost for p in problem.cheapest(k)]
            assert problem.stats.engine == "dlx5"


def test_interleaved_runs_and_threads_share_the_structure_safely():
    problem = problems.weighted_queens(8)
    expected = list(problem.improving(3))
    a, b = problem.improving(3), problem.improving(3)
    got_a, got_b = [], []
    for _ in range(len(expected)):
        got_a.append(next(a))
        got_b.append(next(b))
    assert got_a == got_b == expected
    results = []
    threads = [threading.Thread(target=lambda: results.append(problem.cheapest(3))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == problem.cheapest(3) for r in results)
    assert_as_built(problem)


def test_refusals_and_bad_arguments():
    with pytest.raises(ValueError, match="multiplicities"):
        problems.k_queens(4, 2).cheapest()
    for k in (0, -1, 1.5, "2", 15001):
        with pytest.raises(ValueError, match="k must be"):
            problems.queens(4).cheapest(k)
    with pytest.raises(ProblemError, match="3 given for 2 options"):
        ExactCover([["a"], ["a"]], costs=[1, 2, 3])
    with pytest.raises(ProblemError, match="option 1 costs -2"):
        ExactCover([["a"], ["a"]], costs=[1, -2])
    with pytest.raises(ProblemError, match="option 0 costs 1.5"):
        ExactCover([["a"], ["a"]], costs=[1.5, 2])
    with pytest.raises(ProblemError, match="below 2\\*\\*62"):
        ExactCover([["a"], ["a"]], costs=[2 ** 61, 2 ** 61])
    with pytest.raises(ProblemError, match="a list of whole numbers"):
        ExactCover([["a"]], costs="1")


def test_large_costs_add_up_exactly():
    big = 2 ** 59
    ec = ExactCover([["a"], ["b"], ["a", "b"]], costs=[big, big, 2 * big + 1])
    assert ec.cheapest(2) == [Priced(2 * big, (0, 1)), Priced(2 * big + 1, (2,))]


def test_costs_travel_with_the_problem():
    ec = ExactCover([["a", ("x", "red")], ["a"], ["b", ("x", "red")]], secondary=["x"], costs=[4, 0, 6])
    assert pickle.loads(pickle.dumps(ec)) == ec
    assert ec != ec.with_costs([4, 0, 5]) and ec != ec.with_costs(None)
    assert hash(ec.with_costs([4, 0, 6])) == hash(ec)
    assert repr(ec).endswith("1 colours, costs)")
    assert ExactCover.from_matrix([[1, 0], [0, 1], [1, 1]], costs=[1, 1, 3]).cheapest() == [Priced(2, (0, 1))]
    copy, order, _ = ec.seeded(3)
    assert copy.option_costs.tolist() == ec.option_costs[order].tolist()
    assert ec.is_solution([1, 2], 6) and not ec.is_solution([1, 2], 5) and ec.is_solution([0, 2])


# --- Knuth's format


def test_costs_read_and_written_in_knuths_format():
    text = "a b | x\na x:1 |3 |4\nb |2\na b |0\nx |9\n"
    with pytest.warns(dlx.ProblemWarning, match="line 5"):
        ec = read_dlx(io.StringIO(text))
    assert ec.option_costs.tolist() == [7, 2, 0, 9]
    assert ec.cheapest() == [Priced(0, (2,))]
    with pytest.warns(dlx.ProblemWarning):
        assert read_dlx(io.StringIO(write_dlx(ec, io.StringIO()).getvalue())) == ec
    assert read_dlx(io.StringIO("a\na\n")).option_costs is None


def test_an_empty_option_keeps_its_cost():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.ProblemWarning)
        ec = ExactCover([["a"], []], costs=[1, 5])
        back = read_dlx(io.StringIO(write_dlx(ec, io.StringIO()).getvalue()))
    assert back == ec


@pytest.mark.parametrize("line, message", [("a |", "'\\|' is not a cost"), ("a |x", "'\\|x' is not a cost"),
                                           ("a |1.5", "'\\|1.5' is not a cost"), ("a |-3", "'\\|-3' is not a cost")])
def test_a_bad_cost_is_named_with_its_line(line, message):
    with pytest.raises(ProblemError, match=f"line 3: {message}") as caught:
        read_dlx(io.StringIO(f"a\na\n{line}\n"))
    assert caught.value.line == 3


# --- beside a MILP solver and the Hungarian method

def milp_optimum(problem: ExactCover) -> int | None:
    pytest.importorskip("highspy")
    import milp
    return milp.optimum(problem)


@st.composite
def partitioning_problems(draw):
    """Random set-partitioning problems (secondary items too, no colours) with costs."""
    primary = [f"p{i}" for i in range(draw(st.integers(1, 8)))]
    secondary = [f"s{i}" for i in range(draw(st.integers(0, 2)))]
    options, costs = [], []
    for _ in range(draw(st.integers(1, 30))):
        option = draw(st.lists(st.sampled_from(primary), min_size=1, max_size=4, unique=True))
        option += [item for item in secondary if draw(st.booleans())]
        options.append(option)
        costs.append(draw(st.integers(0, 60)))
    return ExactCover(options, primary=primary, secondary=secondary, costs=costs)


@settings(max_examples=150)
@given(partitioning_problems())
def test_the_optimum_is_highs_on_random_set_partitioning(problem):
    best = problem.cheapest()
    assert (best[0].cost if best else None) == milp_optimum(problem)


@pytest.mark.parametrize("make", [
    lambda: problems.set_partitioning(30, 300, 1), lambda: problems.set_partitioning(60, 1500, 3),
    lambda: problems.set_partitioning(40, 400, 2, largest=6), lambda: problems.weighted_queens(8),
    lambda: problems.weighted_queens(10, 1), lambda: problems.assignment(9, 2),
    lambda: problems.weighted_pentominoes(3, 20)],
    ids=["sp30", "sp60", "sp40", "queens8", "queens10", "assign9", "pent3x20"])
def test_the_optimum_is_highs_on_classic_instances(make):
    problem = make()
    assert problem.cheapest()[0].cost == milp_optimum(problem)


@pytest.mark.parametrize("n, seed", [(1, 0), (5, 1), (10, 2), (16, 3)])
def test_the_assignment_problem_is_the_hungarian_methods(n, seed):
    from scipy.optimize import linear_sum_assignment
    problem = problems.assignment(n, seed)
    costs = problem.option_costs.reshape(n, n)
    rows, cols = linear_sum_assignment(costs)
    best = problem.cheapest(3)
    assert best[0].cost == int(costs[rows, cols].sum())
    assert best[0].options == tuple(sorted(n * r + c for r, c in zip(rows.tolist(), cols.tolist()))) or \
        best[1].cost == best[0].cost       # another assignment of the same cost


# --- the command


def test_the_command_prints_each_improvement_and_knuths_last_words(tmp_path, capsys):
    from dlx.cli import main
    path = write_dlx(problems.weighted_queens(8), tmp_path / "wq8.dlx")
    assert main([str(path), "--cheapest", "3", "--stats"]) == 0
    out, err = capsys.readouterr()
    blocks = out.split("\n\n")
    expected = list(problems.weighted_queens(8).improving(3))
    assert len(blocks) == 13 == len(expected)                  # Knuth's 13 solutions
    problem = read_dlx(path)
    for block, (cost, chosen) in zip(blocks, expected):
        lines = block.strip("\n").split("\n")
        assert lines[0] == f"cost {cost}"
        assert lines[1:] == [" ".join(problem.option(k)) for k in chosen]
    assert err == ("The optimum costs are:\n $263\n $264\n $266\n"
                   "Altogether 13 solutions, 6670 updates, 0 cleansings, 388 nodes, " + err.split("nodes, ")[1])
    assert err.endswith(" seconds, engine dlx5.\n")


def test_the_command_in_json_with_threads_and_repeated_costs(tmp_path, capsys):
    from dlx.cli import main
    path = write_dlx(ExactCover([["a"], ["a"], ["a"]], costs=[4, 4, 5]), tmp_path / "ties.dlx")
    assert main([str(path), "--cheapest", "3", "--format", "json", "--jobs", "2"]) == 0
    out, err = capsys.readouterr()
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["cost"], r["options"]) for r in records] == [(4, [["a"]]), (4, [["a"]]), (5, [["a"]])]
    assert err == "The optimum costs are:\n $4 (repeated 2 times)\n $5\n"


def test_the_command_says_when_the_budget_ran_out_and_what_it_refuses(tmp_path, capsys):
    from dlx.cli import main
    path = write_dlx(problems.weighted_queens(8), tmp_path / "wq8.dlx")
    assert main([str(path), "--cheapest", "1", "--max-nodes", "40"]) == 3
    assert capsys.readouterr().err.endswith("dlx: the budget of 40 nodes ran out: the costs above are the best "
                                            "found, not proven best\n")
    assert main([str(path), "--cheapest", "1", "--seed", "3", "--limit", "2", "--count"]) == 1
    assert capsys.readouterr().err == "dlx: error: --cheapest runs Knuth's DLX5; it takes no --seed, --limit, --count\n"
    bounded = write_dlx(problems.k_queens(4, 2), tmp_path / "kq.dlx")
    assert main([str(bounded), "--cheapest", "1"]) == 1
    assert "no multiplicities" in capsys.readouterr().err
    none = write_dlx(ExactCover([["a", "b"], ["b", "c"]], costs=[1, 2]), tmp_path / "none.dlx")
    assert main([str(none), "--cheapest", "2"]) == 0
    assert capsys.readouterr() == ("", "No solution.\n")
    with pytest.raises(SystemExit):
        main([str(path), "--cheapest", "0"])


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX terminal")
def test_on_a_terminal_the_command_shows_a_few_improvements_and_the_cheapest():
    import pty
    pid, fd = pty.fork()
    if pid == 0:        # the child: the command, its stdout a terminal
        os.execv(sys.executable, [sys.executable, "-m", "dlx", str(EXAMPLES / "weighted_queens8.dlx"), "--cheapest",
                                  "2"])
    shown = b""
    while True:
        try:
            data = os.read(fd, 1 << 16)
        except OSError:         # the terminal closed with the child
            break
        if not data:
            break
        shown += data
    os.waitpid(pid, 0)
    text = shown.decode().replace("\r\n", "\n")
    improving = list(problems.weighted_queens(8).improving(2))
    assert [line for line in text.splitlines() if line.startswith("cost ")] == \
        [f"cost {p.cost}" for p in improving[:3]] + ["cost 263"]
    assert f"({len(improving) - 3} more improving solutions; --all prints every one; the cheapest:)" in text
    assert text.endswith("The optimum costs are:\n $263\n $264\n")
