"""Search benchmarks (``pytest bench/``): counting Knuth-format problems with the kernel warm.

Files come from ../shared/data/dlx when present (skipped otherwise, except the shipped 8-queens).
Each benchmark counts once before timing, so compile or cache load never lands in a timed round.
"""
from pathlib import Path

import pytest

from dlx import read_dlx

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data" / "dlx"
CASES = {  # file: number of solutions
    ROOT / "examples" / "queens8.dlx": 92,
    SHARED / "queens10.dlx": 724,
    SHARED / "queens12.dlx": 14200,
    SHARED / "langford11.dlx": 17792,
    SHARED / "pent6x10x.dlx": 2339,
}


@pytest.mark.parametrize("path", list(CASES), ids=[p.stem for p in CASES])
def test_count(benchmark, path):
    if not path.exists():
        pytest.skip(f"{path.name} is not present")
    problem = read_dlx(path)
    rounds = 3 if path.stem.startswith("pent") else 10
    count = benchmark.pedantic(problem.count, rounds=rounds, warmup_rounds=1)
    assert count == CASES[path]
    problem.check()


def test_first_sudoku(benchmark):
    path = SHARED / "sudoku_inkala.dlx"
    if not path.exists():
        pytest.skip(f"{path.name} is not present")
    problem = read_dlx(path)
    solution = benchmark.pedantic(problem.first, rounds=50, warmup_rounds=1)
    # every option of a sudoku covers four primary items: cell, row-digit, column-digit, box-digit
    assert solution is not None and 4 * len(solution) == problem.n_primary
