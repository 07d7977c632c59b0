"""Search benchmarks (``pytest bench/``): counting classic problems with the kernel warm.

The problems come from :mod:`dlx.problems` (the same options as Knuth's generators write); each
benchmark counts once before timing, so compile or cache load never lands in a timed round.
"""
from pathlib import Path

import pytest

from dlx import problems, read_dlx

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "dlx"
CASES = {  # name: (problem, number of solutions)
    "queens8": (lambda: problems.queens(8), 92),
    "queens10": (lambda: problems.queens(10), 724),
    "queens12": (lambda: problems.queens(12), 14_200),
    "langford11": (lambda: problems.langford(11), 17_792),
    "pentominoes6x10x": (lambda: problems.pentominoes(6, 10), 2_339),
}


@pytest.mark.parametrize("name", list(CASES))
def test_count(benchmark, name):
    make, solutions = CASES[name]
    problem = make()
    rounds = 3 if name.startswith("pent") else 10
    assert benchmark.pedantic(problem.count, rounds=rounds, warmup_rounds=1) == solutions
    problem.check()


def test_first_sudoku(benchmark):
    path = SHARED / "sudoku_inkala.dlx"
    if not path.exists():
        pytest.skip(f"{path.name} is not present")
    problem = read_dlx(path)
    solution = benchmark.pedantic(problem.first, rounds=50, warmup_rounds=1)
    # every option of a sudoku covers four primary items: cell, row-digit, column-digit, box-digit
    assert solution is not None and 4 * len(solution) == problem.n_primary
