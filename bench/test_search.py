"""Engine benchmarks (``pytest bench/``): counting classic problems, and the first solution of a
sudoku given as Knuth's DLX file, with the kernels warm.

The problems come from :mod:`dlx.problems` (the same options as Knuth's generators write). Every
benchmark runs once before timing (``warmup_rounds=1``), so compile or cache load never lands in
a timed round; every round's answer is checked.
"""
import pytest
from rivals import candidates
from sudoku_sets import INKALA, SHARED

from dlx import ExactCover, problems, read_dlx

CASES = {  # name: (problem, number of solutions, rounds)
    "queens10": (lambda: problems.queens(10), 724, 20),
    "queens11": (lambda: problems.queens(11), 2_680, 10),
    "queens12": (lambda: problems.queens(12), 14_200, 10),
    "queens13": (lambda: problems.queens(13), 73_712, 5),
    "langford11": (lambda: problems.langford(11), 17_792, 10),
    "pentominoes6x10 X restricted": (lambda: problems.pentominoes(6, 10), 2_339, 3),
    "pentominoes6x10 all": (lambda: problems.pentominoes(6, 10, symmetric=True), 9_356, 2),
}


@pytest.mark.parametrize("name", list(CASES))
def test_count(benchmark, name):
    make, solutions, rounds = CASES[name]
    problem = make()
    benchmark.group = "count every solution"
    assert benchmark.pedantic(problem.count, rounds=rounds, warmup_rounds=1) == solutions
    problem.check()


def test_first_sudoku(benchmark):
    """Knuth's sudoku_inkala.dlx from ../shared; without it, the same puzzle's options built here."""
    path = SHARED / "dlx" / "sudoku_inkala.dlx"
    if path.exists():
        problem = read_dlx(path)
    else:
        problem = ExactCover([items for _, items in candidates(INKALA)])
    benchmark.group = "first solution"
    solution = benchmark.pedantic(problem.first, rounds=50, warmup_rounds=1)
    # a solution covers every primary item once: cell, row-digit, column-digit, box-digit
    covered = [item for k in solution for item in problem.option(k)]
    assert sorted(covered) == sorted(problem.items[:problem.n_primary])
