"""The comparison's own machinery: its pure-Python rival is right, and a wrong, slow or broken
solver is reported as such instead of being timed (bench/compare.py, bench/rivals.py)."""
import time

import compare  # bench/ is on the tests' path (pytest's pythonpath setting)
import pytest
import rivals
import strategies
from dict_of_sets import solutions
from hypothesis import given, settings
from naive import brute_force
from support import EXAMPLES, small_problems

from dlx import problems

PUZZLES = (EXAMPLES / "top20.txt").read_text().split()
KNOWN = (EXAMPLES / "top20.solutions.txt").read_text().split()


@settings(max_examples=200, deadline=None)
@given(small_problems())
def test_dict_of_sets_finds_every_solution(problem):
    primary, secondary, options = problem
    found = solutions(dict(enumerate(options)), primary)
    assert {tuple(sorted(s)) for s in found} == brute_force(options, primary, secondary)


@pytest.mark.parametrize("n, count", [(6, 4), (8, 92)])
def test_counters_agree_on_queens(n, count):
    problem = problems.queens(n)  # secondary items: the diagonals
    assert rivals.dlx_counter(problem)(float("inf")) == count
    assert rivals.dict_of_sets_counter(problem)(float("inf")) == count


@pytest.mark.parametrize("solve", [rivals.dlx_batch, rivals.dlx_per_call, rivals.dict_of_sets_sudoku])
def test_sudoku_adapters_pass_the_check(solve):
    check = compare.sudoku_check(PUZZLES[:5], KNOWN[:5], [1] * 5)
    assert check(solve(PUZZLES[:5], 2, float("inf"))) is None


def test_valid_rejects_broken_grids():
    puzzle, solution = PUZZLES[0], KNOWN[0]
    assert compare.valid(puzzle, solution)
    swapped = solution[1] + solution[0] + solution[2:]
    assert not compare.valid(puzzle, swapped)          # a row still holds 1-9, the columns do not
    relabelled = solution.translate(str.maketrans("123456789", "234567891"))
    assert compare.valid("." * 81, relabelled)            # still a sudoku grid,
    assert not compare.valid(puzzle, relabelled)          # but not keeping the givens
    assert not compare.valid(puzzle, None) and not compare.valid(puzzle, solution[:80])


def test_check_names_wrong_counts_and_grids():
    check = compare.sudoku_check(PUZZLES[:3], KNOWN[:3], [1, 1, 1])
    assert check([(s, 1) for s in KNOWN[:3]]) is None
    assert check([(KNOWN[0], 1), (KNOWN[1], 2), (None, 0)]) == "2 of 3"
    assert check([(KNOWN[0], 1)] * 3) == "2 of 3"        # valid grids, but of another puzzle
    assert check([(KNOWN[0], 1)]) == "1 answers for 3 puzzles"


def test_race_times_only_right_answers():
    def endless(deadline):
        return len(rivals.take(iter(int, 1), 1 << 62, deadline))  # iter(int, 1) never ends

    def broken(deadline):
        raise ValueError("no")

    jobs = {"right": lambda d: 42, "wrong": lambda d: 41, "slow": endless, "broken": broken}
    cells = compare.race(jobs, lambda got: None if got == 42 else f"{got}", rounds=3, budget=0.05)
    assert cells["right"].cpu is not None and cells["right"].note == ""
    assert (cells["wrong"].cpu, cells["wrong"].note) == (None, "wrong: 41")
    assert (cells["slow"].cpu, cells["slow"].note) == (None, "> 0.05 s")
    assert (cells["broken"].cpu, cells["broken"].note) == (None, "error: ValueError")


def test_take_stops_at_the_limit_before_the_deadline():
    assert rivals.take(range(10), 3, time.process_time() + 60) == [0, 1, 2]
    with pytest.raises(rivals.OverBudget):
        rivals.take(range(10), 5, time.process_time() - 1)


def test_report_shows_ratios_and_notes():
    row = compare.Row("set", "puzzles", 100, {"dlx": compare.Cell(0.01, 0.01), "other": compare.Cell(0.5, 0.5),
                                               "bad": compare.Cell(note="wrong: 3 of 100")})
    assert compare.table([row], ["dlx", "other", "bad"], "puzzles", "cpu")[2] == \
        "| set | 10,000 | 200 (50.0x) | wrong: 3 of 100 |"


def test_start_up_past_its_budget_is_stopped_not_timed():
    plain = [r for r in rivals.RIVALS if r.name == "dict of sets"]
    warm, empty_cache = compare.startup_rows(plain, 1, budget=1e-6)   # no start-up is that quick
    assert warm.cells["dict of sets"].note == "> 1e-06 s"
    assert empty_cache.cells == {}  # nothing to compile: the row is for numba solvers


@pytest.mark.slow
def test_cross_check_agrees_with_miniexact():
    """bench/cross_check.py: dlx's counts equal miniexact's on random XCC and MCC problems."""
    pytest.importorskip("miniexact", reason="the bench extra installs miniexact")
    import subprocess
    import sys

    from support import ROOT
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "cross_check.py"), "--problems", "200"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_strategies_agree_and_tabulate():
    r = strategies.row("queens 6", [problems.queens(6)], None, 2)
    assert r["solutions"] == 4 and set(r["figures"]) == set(strategies.STRATEGIES)
    q = problems.queens(6)
    q.count(branching="binary")
    assert r["figures"]["cells/binary"] == (4, q.stats.nodes)
    line = strategies.table([r]).splitlines()[-1]
    assert line.startswith("| queens 6 | 4 | ") and line.count("nodes") == len(strategies.STRATEGIES)
    packing = problems.k_queens(4, 3)                     # multiplicities: domain consistency refuses them
    r = strategies.row("3 queens on 4x4", [packing], None, 1)
    assert "dc" not in r["cpu"] and strategies.table([r]).count("refused") == 3


def test_figures_of_reads_knuths_last_words():
    report = "Altogether 92 solutions, 12081+231955 mems, 11165 updates, 8664 bytes, 1140 nodes, ccost 9%.\n"
    assert compare.figures_of(report) == (92, 1140, 11165)
    assert compare.figures_of("no such line") is None
