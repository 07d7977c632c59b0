"""dlx beside xcover (numba, dancing cells) on the same options, in the same run.

``pip install -e '.[bench]'`` then ``pytest bench/test_vs_xcover.py --benchmark-timer=time.process_time``
(CPU time, single thread). Both solvers get the same options with the same item order and count every
solution; building the problem is outside the timing, and a warm-up round keeps compilation out.
"""
import pytest

from dlx import problems

pytest.importorskip("xcover", reason="xcover is in the bench extra: pip install -e '.[bench]'")
from rivals import xcover_counter as timed_xcover_counter

CASES = {  # name: (problem, number of solutions)
    "queens13": (lambda: problems.queens(13), 73_712),
    "queens14": (lambda: problems.queens(14), 365_596),
    "pentominoes6x10 all": (lambda: problems.pentominoes(6, 10, symmetric=True), 9_356),
    "langford12": (lambda: problems.langford(12), 108_144),
}


def dlx_counter(ec):
    return ec.count


def xcover_counter(ec):
    count = timed_xcover_counter(ec)
    return lambda: count(float("inf"))


@pytest.mark.parametrize("solver", ["dlx", "xcover"])
@pytest.mark.parametrize("name", list(CASES))
def test_count_all(benchmark, name, solver):
    make, solutions = CASES[name]
    ec = make()
    count = (dlx_counter if solver == "dlx" else xcover_counter)(ec)
    benchmark.group = name
    rounds = 2 if name.startswith("pent") else 3
    assert benchmark.pedantic(count, rounds=rounds, warmup_rounds=1) == solutions
