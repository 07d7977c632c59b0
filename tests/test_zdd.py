"""The memoised search and its ZDD (Knuth's DLX6): the same solutions as the plain search (in DLX1's
order, DLX2's with colours) and as brute force with multiplicities; exact counts from the
literature; ranks, uniform samples (chi-square), count by size; Knuth's file format both ways; the
bounds on nodes and memory; the command."""
import _thread
import io
import threading
import warnings
from collections import Counter
from itertools import islice

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import brute_force_m
from support import matrices, mcc_problems, small_problems

from dlx import ExactCover, ProblemWarning, checks, memo, problems
from dlx.cli import main
from dlx.memo import TooLarge
from dlx.zdd import ZDD, ZDDError

#: Domino tilings of 2n x 2n boards, n = 1..6 (OEIS A004003).
TILINGS = [2, 36, 6728, 12988816, 258584046368, 53060477521960000]


def build(primary, secondary, options, bounds=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ProblemWarning)
        return ExactCover(options, primary=primary, secondary=secondary, bounds=bounds)


def assert_sound(z: ZDD) -> None:
    """The invariants every ZDD keeps: children before parents, no ``hi`` to the empty family, no
    option twice on a path (checked through the solutions' sizes), sizes that add up."""
    n = np.arange(2, z.var.size)
    assert (z.lo[2:] < n).all() and (z.hi[2:] < n).all()
    assert (z.hi[2:] != 0).all()
    by_size = z.count_by_size()
    assert sum(by_size.values()) == z.count()
    sizes = Counter(len(s) for s in z.solutions())
    assert dict(sizes) == by_size


# --- the same solutions as the plain search


@settings(max_examples=300, deadline=None)
@given(small_problems())
def test_plain_problems_give_dlx1s_solutions_in_its_order(problem):
    primary, secondary, options = problem
    ec = build(primary, secondary, options)
    z = ec.zdd()
    expected = list(ec.solutions(engine="dlx"))
    assert list(z.solutions()) == expected
    assert z.count() == len(expected) == ec.count(memo=True)
    assert [z.solution(k) for k in range(z.count())] == expected
    assert_sound(z)


@settings(max_examples=100, deadline=None)
@given(matrices())
def test_matrices_give_dlx1s_solutions(matrix):
    m, secondary = matrix
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ProblemWarning)
        ec = ExactCover.from_matrix(m, secondary)
    assert list(ec.zdd().solutions()) == list(ec.solutions(engine="dlx"))


@settings(max_examples=300, deadline=None)
@given(mcc_problems())
def test_colours_and_bounds_give_brute_forces_solutions(problem):
    primary, secondary, options, bounds = problem
    ec = build(primary, secondary, options, bounds)
    z = ec.zdd()
    found = list(z.solutions())
    assert len(found) == len(set(found)) == z.count()
    assert set(found) == brute_force_m(options, primary, secondary, bounds)
    assert z.count() == ec.count(engine="dlx")
    if not bounds:          # colours alone: DLX2's order
        assert found == list(ec.solutions(engine="dlx"))
    assert_sound(z)


@settings(max_examples=100, deadline=None)
@given(mcc_problems(max_options=12), st.integers(2, 3))
def test_threads_give_one_threads_solutions(problem, jobs):
    # one frontier state a thread is enough to split even these small problems
    ec = build(*problem)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(memo, "TASKS_PER_JOB", 1)
        z = ec.zdd(jobs=jobs)
    one = ec.zdd()
    assert list(z.solutions()) == list(one.solutions())
    assert z.count() == one.count() and z.stats.jobs == checks.jobs(jobs)      # at most one per core
    assert_sound(z)


def test_threads_split_a_real_search():
    one = problems.langford(8).zdd()
    z = problems.langford(8).zdd(jobs=2)
    assert list(z.solutions()) == list(one.solutions()) and z.count() == 150
    assert z.size >= one.size               # each thread has its own memo


def test_ctrl_c_stops_every_thread():
    # the first frontier state's thread interrupts the main thread, which then stops the others
    started = threading.Event()
    real = memo.Builder.run

    def run(self):
        if threading.current_thread() is not threading.main_thread() and not started.is_set():
            started.set()
            _thread.interrupt_main()
        return real(self)

    before = set(threading.enumerate())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(memo.Builder, "run", run)
        with pytest.raises(KeyboardInterrupt):
            problems.langford(11).zdd(jobs=2)
    assert started.is_set()
    # every thread ends (a worker whose start the interrupt cut short is not the pool's to join,
    # but it finds nothing left to do); a thread that searched on would hang this join
    for thread in set(threading.enumerate()) - before:
        thread.join()
    assert set(threading.enumerate()) == before


#: What Knuth's DLX6 (built from dlx6.w, run on the same options written by ``write_dlx``) reports:
#: ZDD nodes (its count less the two sinks), signatures (states memoised) and hits (less one: it
#: counts the first solution as a hit).
DLX6 = {
    "dominoes 8x8": (lambda: problems.dominoes(8, 8), 2316, 1628, 689),
    "dominoes 12x12": (lambda: problems.dominoes(12, 12), 73857, 52080, 21969),
    "Langford 8": (lambda: problems.langford(8), 710, 1088, 171),
    "Latin squares 4": (lambda: problems.latin_squares(4), 2485, 2037, 449),
    "queens 10": (lambda: problems.queens(10), 3900, 9027, 1296),
    "word squares (colours)": (lambda: problems.word_squares(), 387, 551, 367),
}


@pytest.mark.parametrize("name", DLX6)
def test_nodes_states_and_hits_are_dlx6s(name):
    make, nodes, states, hits = DLX6[name]
    z = make().zdd()
    assert (z.size, z.stats.states, z.stats.hits) == (nodes, states, hits)


#: ``dlx6 m1 < dominoes-2x4.dlx``: DLX6's own file for the 5 tilings of a 2x4 board (its chains put
#: the last option tried on top, ours the first).
DLX6_FILE = """2: (~10?0:1)
3: (~5?0:2)
4: (~7?0:1)
5: (~6?3:4)
6: (~8?0:5)
7: (~1?0:6)
8: (~9?0:1)
9: (~7?0:8)
a: (~3?0:9)
b: (~4?a:5)
c: (~2?7:b)
d: (~0?0:c)
"""


def test_dlx6s_file_reads_as_the_same_family(tmp_path):
    path = tmp_path / "knuth.zdd"
    path.write_text(DLX6_FILE)
    knuth, ours = ZDD.read(path), problems.dominoes(2, 4).zdd()
    assert knuth.size == ours.size == 11
    assert sorted(knuth.solutions()) == sorted(ours.solutions()) and knuth.count() == 5


# --- counts from the literature, beyond any search


@pytest.mark.parametrize("n", range(1, 7))
def test_domino_tilings_of_square_boards(n):
    z = problems.dominoes(2 * n, 2 * n).zdd()
    assert z.count() == TILINGS[n - 1]
    assert z.count_by_size() == {2 * n * n: TILINGS[n - 1]}


def test_domino_tilings_of_16x16_need_several_words():
    # A004003(8) > 2**64: the count carries across 64-bit words
    z = problems.dominoes(14, 14).zdd()
    assert z.count() == 112202208776036178000000


def test_monomer_dimer_tilings_by_size():
    # OEIS A028420 (3x3: 131), and by the number of pieces
    z = problems.dominoes(3, 3, monomers=True).zdd()
    assert z.count_by_size() == {5: 18, 6: 56, 7: 44, 8: 12, 9: 1}
    assert problems.dominoes(4, 4, monomers=True).zdd().count() == 10012


def test_latin_squares_of_order_5():
    assert problems.latin_squares(4).zdd().count() == 576
    assert problems.latin_squares(5).zdd().count() == 161280


def test_classics_agree_with_their_plain_counts():
    assert problems.queens(8).zdd().count() == 92
    assert problems.langford(8).zdd().count() == problems.langford(8).count() == 150
    assert problems.k_queens(5, 3).count(memo=True) == problems.k_queens(5, 3).count()


def test_memo_count_is_one_entry_per_state():
    z = problems.dominoes(8, 8).zdd()
    s = z.stats
    assert s.zdd_nodes == z.size and s.states > 0 and s.hits > 0
    assert s.states + s.hits <= s.tries + 1         # each state is entered by an option tried, or is the root


# --- ranks and uniform samples


def test_rank_unranks_the_listing_order():
    z = problems.dominoes(4, 6).zdd()
    assert [z.solution(k) for k in range(z.count())] == list(z.solutions())
    with pytest.raises(IndexError, match="out of range"):
        z.solution(z.count())


def chi_square(counts: Counter, cells: int, draws: int) -> float:
    expected = draws / cells
    return sum((counts.get(k, 0) - expected) ** 2 / expected for k in range(cells))


@pytest.mark.parametrize("make", [lambda: problems.dominoes(4, 4),
                                  lambda: problems.dominoes(3, 3, monomers=True),
                                  lambda: problems.packing(3, 4, {"O": problems.TETROMINOES["O"],
                                                                  "I": problems.TETROMINOES["I"],
                                                                  "L": problems.TETROMINOES["L"]},
                                                           {"O": (0, 3), "I": (0, 3), "L": (0, 3)})])
def test_samples_are_uniform(make):
    # solutions of different sizes and paths of different lengths: a walk that tossed a fair coin
    # at each node would favour some; ranks drawn below the count do not
    ec = make()
    z = ec.zdd()
    every = list(z.solutions())
    rank = {s: k for k, s in enumerate(every)}
    draws = 300 * len(every)
    counts = Counter(rank[s] for s in z.sample(draws, seed=2026))
    assert set(counts) <= set(range(len(every)))
    for s in counts:
        assert ec.is_solution(every[s])
    # 0.999 quantiles of chi-square with 35 and len-1 degrees of freedom (scipy.stats.chi2.ppf)
    from scipy.stats import chi2
    assert chi_square(counts, len(every), draws) < chi2.ppf(0.999, len(every) - 1)


def test_samples_repeat_with_their_seed():
    z = problems.dominoes(6, 6).zdd()
    assert z.sample(5, seed=7) == z.sample(5, seed=7) != z.sample(5, seed=8)
    assert z.sample(0) == []
    with pytest.raises(ValueError, match="no solution"):
        ExactCover([["a"], ["b"]], primary=["a", "b", "c"]).zdd().sample(1)


# --- Knuth's file format


@settings(max_examples=100, deadline=None)
@given(mcc_problems())
def test_written_zdd_reads_back_equal(tmp_path_factory, problem):
    z = build(*problem).zdd()
    path = tmp_path_factory.mktemp("zdd") / "p.zdd"
    z.write(path)
    back = ZDD.read(path)
    assert back == z
    assert list(back.solutions()) == list(z.solutions())


def test_the_file_is_dlx6s_format(tmp_path):
    z = problems.dominoes(2, 3).zdd()
    out = io.StringIO()
    z.write(out)
    lines = out.getvalue().splitlines()
    assert len(lines) == z.size + 1
    assert lines[-1] == f"{z.var.size:x}: (~0?0:{z.root:x})"
    assert lines[0] == f"2: (~{z.var[2] + 1}?{z.lo[2]:x}:{z.hi[2]:x})"


def test_a_file_in_another_numbering_reads_as_the_same_zdd(tmp_path):
    # the same family, {{1, 2}, {3}} (options 0..2), numbered and ordered differently
    (tmp_path / "a.zdd").write_text("2: (~2?0:1)\n3: (~1?0:2)\n4: (~3?3:1)\n5: (~0?0:4)\n")
    (tmp_path / "b.zdd").write_text("1f: (~3?a:1)\na: (~1?0:b)\nb: (~2?0:1)\n20: (~0?0:1f)\n")
    a, b = ZDD.read(tmp_path / "a.zdd"), ZDD.read(tmp_path / "b.zdd")
    assert a == b and a.count() == 2
    assert sorted(a.solutions()) == [(0, 1), (2,)]


@pytest.mark.parametrize("text, where", [
    ("2: (~1?0:1)\n3: (~2?0:9)\n", "line 2: node 3 points to node 9"),
    ("2: (~1?0:1)\nnonsense\n", "line 2: not a ZDD node"),
    ("2: (~1?0:1)\n2: (~2?0:1)\n", "line 2: node 2 is defined twice"),
    ("1: (~1?0:1)\n", "line 1: node 1 is a sink"),
    ("2: (~1?0:3)\n3: (~2?0:2)\n4: (~0?0:2)\n", "cycle"),
    ("", "no ZDD nodes"),
])
def test_bad_files_name_the_line(tmp_path, text, where):
    path = tmp_path / "bad.zdd"
    path.write_text(text)
    with pytest.raises(ZDDError, match=where):
        ZDD.read(path)


# --- bounds and arguments


def test_the_node_bound_ends_with_a_clear_error():
    with pytest.raises(TooLarge, match=r"more than max_nodes=1,000 nodes .* count without the memo"):
        problems.dominoes(12, 12).zdd(max_nodes=1000)
    with pytest.raises(TooLarge, match=r"max_bytes=100,000 bytes"):
        problems.dominoes(12, 12).zdd(max_bytes=100_000)
    assert problems.dominoes(6, 6).zdd(max_nodes=363).count() == 6728       # exactly enough


def test_arguments_are_checked():
    ec = problems.dominoes(4, 4)
    with pytest.raises(ValueError, match="engine must be 'auto' or 'dlx'"):
        ec.count(memo=True, engine="cells")
    with pytest.raises(ValueError, match="unknown engine"):
        ec.count(memo=True, engine="nope")
    assert ec.count(memo=True, engine="dlx") == 36
    with pytest.raises(TypeError):
        ec.zdd(engine="dlx")
    with pytest.raises(ValueError, match="jobs must be a whole number"):
        ec.zdd(jobs=1.5)
    with pytest.raises(ValueError, match="no limit, seed or client"):
        ec.count(5, memo=True)
    with pytest.raises(ValueError, match="max_nodes"):
        ec.zdd(max_nodes=0)


def test_a_problem_without_solutions_is_the_empty_family():
    z = ExactCover([["a", "b"], ["b", "c"]]).zdd()
    assert (z.count(), z.size, list(z.solutions()), z.count_by_size()) == (0, 0, [], {})


def test_an_empty_solution_is_the_unit_family():
    z = ExactCover([["a"]], bounds={"a": (0, 1)}).zdd()
    assert sorted(z.solutions()) == [(), (0,)]


# --- the command


def test_the_command_counts_and_writes(tmp_path, capsys):
    assert main(["dominoes", "12x12", "--count", "--memo"]) == 0
    assert capsys.readouterr().out == "53060477521960000\n"
    out = tmp_path / "d.zdd"
    assert main(["dominoes", "4x4", "--zdd", str(out), "--stats"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "36\n"
    assert "Altogether 36 solutions, 34 states" in captured.err
    assert ZDD.read(out) == problems.dominoes(4, 4).zdd()
    assert main(["dominoes", "2x4", "--memo", "--limit", "2"]) == 0
    assert capsys.readouterr().out == "----\n----\n\n--||\n--||\n"
    assert main(["dominoes", "8x8", "--count", "--memo", "--limit", "1000"]) == 0      # as a search counts
    assert capsys.readouterr().out == "1000\n"


def test_the_command_refuses_what_the_memo_cannot_do(capsys):
    assert main(["dominoes", "4x4", "--memo", "--seed", "2", "--trace"]) == 1
    assert "takes no --trace, --seed" in capsys.readouterr().err
    assert main(["dominoes", "4x4", "--count", "--memo", "--jobs", "2"]) == 0
    assert capsys.readouterr().out == "36\n"
    assert main(["dominoes", "8x8", "--count", "--memo", "--max-nodes", "10"]) == 3
    assert "more than max_nodes=10 nodes" in capsys.readouterr().err


def test_solutions_are_lazy():
    z = problems.dominoes(12, 12).zdd()
    first = list(islice(z.solutions(), 3))
    assert first == [z.solution(k) for k in range(3)]
    assert all(problems.dominoes(12, 12).is_solution(s) for s in first)
