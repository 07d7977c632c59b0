"""Sudoku benchmarks (``pytest bench/test_sudoku.py``): batch throughput per public set, from the
81-character lines to the answers (parsing included), limit 2 (solve and prove unique, tdoku's
standard mode) and limit 1; the single-puzzle API; xcover on the same hard puzzles.

Every round's answers are checked. The kernels are warm before timing (a warm-up round).
"""
import pytest
from sudoku_sets import INKALA, available, load, solve_set, xcover_solver

import sudoku


@pytest.mark.parametrize("limit", [2, 1])
@pytest.mark.parametrize("name", available())
def test_batch(benchmark, name, limit):
    puzzles, solutions = load(name.split()[0])
    benchmark.group = f"batch limit {limit}"
    benchmark.extra_info["puzzles"] = len(puzzles)
    got = benchmark.pedantic(solve_set, args=(puzzles, limit), rounds=3, warmup_rounds=1)
    assert solutions is None or got == solutions


@pytest.mark.parametrize("jobs", [1, 2])
def test_threads(benchmark, jobs):
    """The speed-up shows in wall time: run with the default timer, not time.process_time."""
    puzzles, solutions = load("forum_hardest_1905_11plus", 5000)
    benchmark.group = "threads (hard puzzles, limit 2)"
    got = benchmark.pedantic(solve_set, args=(puzzles, 2, jobs), rounds=3, warmup_rounds=1)
    assert solutions is None or got == solutions


def test_serg_counts(benchmark):
    """Count every solution; with the samples standing in, each sample puzzle's known solution."""
    puzzles, counts = load("serg_benchmark", 2000)
    benchmark.group = "serg_benchmark count all"
    results = benchmark.pedantic(lambda: list(sudoku.solve_all(puzzles, limit=10**6)), rounds=3, warmup_rounds=1)
    if counts is not None:
        assert [r.count for r in results] == [int(c) for c in counts]
    else:
        assert [r.solution for r in results] == load("top20")[1]


def test_single_puzzle_solve(benchmark):
    benchmark.group = "single puzzle"
    assert benchmark.pedantic(sudoku.solve, args=(INKALA,), rounds=200, warmup_rounds=1).startswith("812753649")


def test_single_puzzle_is_unique(benchmark):
    benchmark.group = "single puzzle"
    assert benchmark.pedantic(sudoku.is_unique, args=(INKALA,), rounds=200, warmup_rounds=1)


@pytest.mark.parametrize("solver", ["dlx", "xcover"])
def test_hard_puzzles_vs_xcover(benchmark, solver):
    pytest.importorskip("xcover", reason="xcover is in the bench extra: pip install -e '.[bench]'")
    puzzles, solutions = load("forum_hardest_1106", 40)
    benchmark.group = "40 hard puzzles, limit 2"
    if solver == "dlx":
        run = lambda: solve_set(puzzles, 2)
    else:
        one = xcover_solver()
        run = lambda: [one(p)[0] for p in puzzles]
    got = benchmark.pedantic(run, rounds=3, warmup_rounds=1)
    assert solutions is None or got == solutions
