"""Benchmarks, kept out of the default test run: ``pytest bench/``.

The reader is timed on the largest Knuth-format file at hand (../shared's pentominoes when present,
else the shipped 8-queens). The first call is made before timing so that numba's compile (or cache
load) never lands in a timed round.
"""
from pathlib import Path

import pytest
from sudoku_sets import ROOT, SHARED

from dlx import read_dlx

#: Files to read, the first present is used, with (items, options) each must give.
CANDIDATES = {SHARED / "dlx" / "pent6x10x.dlx": (72, 2032), ROOT / "examples" / "queens8.dlx": (42, 64)}


@pytest.fixture(scope="module")
def big_file() -> Path:
    path = next(p for p in CANDIDATES if p.exists())
    read_dlx(path)  # warm the kernel
    return path


def test_read_dlx(benchmark, big_file):
    problem = benchmark(read_dlx, big_file)
    problem.check()
    assert (problem.n_items, problem.n_options) == CANDIDATES[big_file]
