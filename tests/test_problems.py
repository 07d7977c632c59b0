"""The classic problems of dlx.problems: known counts, DLX1's own figures, valid solutions."""
import pytest

from dlx import problems, read_dlx


@pytest.mark.parametrize("n, solutions", [
    (1, 1), (2, 0), (3, 0), (4, 2), (5, 10), (6, 4), (7, 40), (8, 92), (9, 352), (10, 724), (11, 2680)])
def test_queens_counts(n, solutions):
    ec = problems.queens(n)
    assert ec.count() == solutions
    for solution in ec.solutions(limit=50):
        squares = [divmod(k, n) for k in solution]              # option n*r + c is square (r, c)
        assert sorted(r for r, _ in squares) == list(range(n))
        assert sorted(c for _, c in squares) == list(range(n))
        assert len({r + c for r, c in squares}) == len({r - c for r, c in squares}) == n


def test_queens_and_pentominoes_walk_dlx1s_tree():
    # DLX1's published figures for Knuth's own generators' output (../shared/data/dlx/expected.tsv):
    # the same options in the same order walk the same tree.
    for ec, figures in ((problems.queens(8), (92, 1049, 16680)),
                        (problems.langford(11), (17792, 223510, 3035452))):
        ec.count()
        assert (ec.stats.solutions, ec.stats.nodes, ec.stats.updates) == figures


def test_generators_write_knuths_files(shared_dlx):
    pairs = [(problems.queens(n), f"queens{n}.dlx") for n in (8, 9, 10, 11, 12)]
    pairs += [(problems.langford(11), "langford11.dlx"), (problems.pentominoes(6, 10), "pent6x10x.dlx")]
    for ec, name in pairs:
        theirs = read_dlx(shared_dlx / name)
        assert ec.items == theirs.items, name
        assert [ec.option(k) for k in range(len(ec))] == [theirs.option(k) for k in range(len(theirs))], name


@pytest.mark.parametrize("n, solutions", [(1, 0), (2, 0), (3, 1), (4, 1), (5, 0), (6, 0), (7, 26), (8, 150),
                                          (11, 17792), (12, 108144)])
def test_langford_counts(n, solutions):
    assert problems.langford(n).count() == solutions
    if n <= 8:
        assert problems.langford(n, mirror=True).count() == 2 * solutions


def test_langford_solutions_are_langford_sequences():
    ec = problems.langford(8)
    for solution in ec.solutions():
        slots = [0] * 16
        for k in solution:
            digit, first, second = (int(name[1:]) for name in ec.option(k))
            assert second - first == digit + 1
            slots[first - 1] = slots[second - 1] = digit
        assert sorted(slots) == sorted(list(range(1, 9)) * 2)


@pytest.mark.parametrize("rows, packings", [(3, 2), (4, 368), (5, 1010)])
def test_pentomino_counts(rows, packings):
    assert problems.pentominoes(rows, 60 // rows, symmetric=True).count() == 4 * packings


def test_pentominoes_6x10_with_dlx1_figures():
    ec = problems.pentominoes(6, 10)
    assert ec.count() == 2339
    assert (ec.stats.nodes, ec.stats.updates) == (904970, 309134131)


def test_pentomino_packings_are_packings():
    ec = problems.pentominoes(3, 20, symmetric=True)
    for solution in ec.solutions():
        names = [ec.option(k) for k in solution]
        assert sorted(option[0] for option in names) == sorted(problems.PENTOMINOES)
        cells = [cell for option in names for cell in option[1:]]
        assert sorted(cells) == sorted(ec.items[:60])
        for option in names:      # each placement is the piece itself, turned or flipped
            shape = [(int(cell[0], 36), int(cell[1], 36)) for cell in option[1:]]
            r0, c0 = min(r for r, _ in shape), min(c for _, c in shape)
            normal = tuple(sorted((r - r0, c - c0) for r, c in shape))
            assert normal in problems._orientations(problems.PENTOMINOES[option[0]])


def test_bad_sizes():
    with pytest.raises(ValueError, match="60 cells"):
        problems.pentominoes(6, 11)
    with pytest.raises(ValueError):
        problems.queens(0)
    with pytest.raises(ValueError):
        problems.langford(0)
