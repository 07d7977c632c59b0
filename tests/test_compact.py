"""The compact engine: DLX1's choices exactly (the same solutions in the same order, the same
nodes) on plain problems, DLX2's with colours, every word width, its limits refused by name, and
sudoku batches equal to the dlx engine's row for row. The engine contract (pauses, splits, batches,
reduction, the structure check at every pause) is tests/test_engines.py's."""
import numpy as np
import pytest
from hypothesis import given, settings
from naive import Counts, Tally, algorithm_m, algorithm_x
from support import EXAMPLES, SHARED_DLX, mcc_problems, small_problems

from dlx import Batch, ExactCover, problems, read_dlx
from dlx.engines import compact
from dlx.status import INVALID

pytestmark = pytest.mark.filterwarnings("ignore::dlx.ProblemWarning")


@settings(max_examples=300, deadline=None)
@given(small_problems())
def test_the_choices_and_nodes_are_dlx1s(problem):
    primary, secondary, options = problem
    counts = Counts()
    expected = list(algorithm_x(options, primary, secondary, counts))
    ec = ExactCover(options, primary=primary, secondary=secondary)
    assert list(ec.solutions(engine="compact")) == expected
    assert ec.stats.nodes == counts.nodes and ec.stats.solutions == len(expected) and ec.stats.complete
    ec.check()
    assert ec.count(engine="compact", limit=2) == min(2, len(expected))


@settings(max_examples=300, deadline=None)
@given(mcc_problems())
def test_with_colours_the_choices_and_nodes_are_dlx2s(problem):
    primary, secondary, options, _ = problem
    counts = Tally()
    expected = list(algorithm_m(options, primary, secondary, None, counts))
    ec = ExactCover(options, primary=primary, secondary=secondary)
    assert list(ec.solutions(engine="compact")) == expected
    assert ec.stats.nodes == counts.nodes
    ec.check()


@pytest.mark.parametrize("k, word", [(1, np.uint16), (7, np.uint16), (8, np.uint16), (15, np.uint16),
                                     (16, np.uint32), (31, np.uint32), (32, np.uint64), (63, np.uint64)])
def test_every_word_width(k, word):
    """Item ``a`` in ``k`` options: ``k`` solutions, on the narrowest word that holds ``k`` bits
    and the spare one."""
    options = [["a", f"x{i}"] for i in range(k)] + [[f"x{i}"] for i in range(k)]
    ec = ExactCover(options, primary=["a"] + [f"x{i}" for i in range(k)])
    assert ec.prepared("compact").structure.mask.dtype == word
    assert ec.count(engine="compact") == k
    nodes = ec.stats.nodes
    assert ec.count(engine="dlx") == k and ec.stats.nodes == nodes
    ec.check()


def test_what_it_cannot_take_is_refused_by_name():
    wide = ExactCover([["a", f"x{i}"] for i in range(64)], primary=["a"], secondary=[f"x{i}" for i in range(64)])
    with pytest.raises(ValueError, match="63 options on one item .*64 on one item.*the dlx engine takes it"):
        wide.count(engine="compact")
    assert wide.count() == 64                   # auto takes it elsewhere
    bounded = problems.k_queens(4, 2)
    with pytest.raises(ValueError, match="compact engine takes no multiplicities"):
        bounded.count(engine="compact")
    with pytest.raises(ValueError, match="records none|not by compact"):
        problems.queens(4).search(engine="compact", trace=True)


def test_a_sudoku_batch_equals_the_dlx_engines_row_for_row():
    from sudoku import encode
    from sudoku.grid import Shape, parse_lines81

    puzzles = [line for line in (EXAMPLES / "top20.txt").read_text().split() if len(line) == 81]
    grid, ok = parse_lines81(puzzles)
    clash = grid[0].copy()
    clash[:2] = [5, 5]                          # two fives in the first row
    grid = np.vstack([grid[ok], clash])
    problem = encode.problem(Shape.of(81))
    for limit in (1, 2, 3):
        mine = Batch(problem, [9] * 81, engine="compact").solve(grid, limit)
        theirs = Batch(problem, [9] * 81, engine="dlx").solve(grid, limit)
        for a, b in zip(mine, theirs):
            assert np.array_equal(a, b)
        assert mine.status[-1] == INVALID
    problem.check()


def test_knuths_files_give_dlx1s_nodes(shared_dlx):
    rows = [line.split("\t") for line in (SHARED_DLX / "expected.tsv").read_text().splitlines()[1:] if line]
    taken = 0
    for name, solutions, nodes, _ in (row[:4] for row in rows):
        ec = read_dlx(shared_dlx / name)
        if compact.CompactEngine().refusal(ec.engine_input):
            continue
        taken += 1
        assert ec.count(engine="compact") == int(solutions) and ec.stats.nodes == int(nodes), name
    assert taken


def test_seeds_budgets_and_resumption_are_dlx1s():
    """A seeded run searches a reordered copy: the same choices as DLX1 on it; a budget stops at
    DLX1's node; a paused lazy run goes on where it stopped."""
    langford = problems.langford(8)
    for seed in (1, 2, 3):
        assert langford.first(seed=seed, engine="compact") == langford.first(seed=seed, engine="dlx")
    within = list(langford.solutions(max_nodes=500, engine="compact"))
    assert langford.stats.nodes == 500 and langford.stats.status == "max_nodes"
    assert within == list(langford.solutions(max_nodes=500, engine="dlx"))
    run = langford.search(engine="compact")
    first = [next(run) for _ in range(3)]
    assert first + list(run) == list(langford.solutions(engine="dlx"))
