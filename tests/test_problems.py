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
        ec.count(engine="dlx")
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


@pytest.mark.parametrize("rows, packings", [(3, 2), (4, 368), (5, 1010), (20, 2), (12, 1010)])
def test_pentomino_counts(rows, packings):
    assert problems.pentominoes(rows, 60 // rows).count() == packings
    assert problems.pentominoes(rows, 60 // rows, symmetric=True).count() == 4 * packings


@pytest.mark.parametrize("rows", [3, 4, 15])
def test_pentominoes_count_each_packing_once(rows):
    """The restricted packings are one of each class of the box's four symmetries (on 3x20 and
    4x15 X may sit on the middle line, where P breaks the tie)."""
    cols = 60 // rows

    def grid(ec, solution):
        cells = {}
        for k in solution:
            piece, *where = ec.option(k)
            cells.update({name: piece for name in where if name != "mid"})
        return [[cells[f"{problems._name(r)}{problems._name(c)}"] for c in range(cols)] for r in range(rows)]

    def canonical(g):
        images = [g, g[::-1], [row[::-1] for row in g], [row[::-1] for row in g[::-1]]]
        return min("".join(map("".join, image)) for image in images)

    every = problems.pentominoes(rows, cols, symmetric=True)
    classes = {canonical(grid(every, s)) for s in every.solutions()}
    once = problems.pentominoes(rows, cols)
    kept = [canonical(grid(once, s)) for s in once.solutions()]
    assert len(kept) == len(set(kept)) == len(classes) and set(kept) == classes


def test_pentominoes_6x10_with_dlx1_figures():
    ec = problems.pentominoes(6, 10)
    assert ec.count(engine="dlx") == 2339
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


# --- colours and multiplicities: every count against an independent enumeration


def test_word_squares_count_every_grid_of_words():
    from itertools import product
    words = set(problems.WORDS3)
    grids = [rows for rows in product(sorted(words), repeat=3)
             if all("".join(row[j] for row in rows) in words for j in range(3))]
    ec = problems.word_squares()
    assert ec.count() == len(grids) == 265
    n = len(problems.WORDS3)
    found = set()
    for solution in ec.solutions():
        rows = tuple(problems.WORDS3[k % n] for k in sorted(solution)[:3])
        columns = ["".join(problems.WORDS3[(k - 3 * n) % n]) for k in sorted(solution)[3:]]
        assert columns == ["".join(r[j] for r in rows) for j in range(3)]
        found.add(rows)
    assert found == set(grids)


@pytest.mark.parametrize("edges, labellings", [
    ([(0, 1), (1, 2), (2, 3)], 4),                              # the path of 4 vertices
    ([(0, 1), (1, 2), (2, 0)], 12),                             # the triangle: {0,1,3} or {0,2,3}
    ([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)], 48),     # K4: {0,1,4,6} or {0,2,5,6}
    ([(0, 1), (1, 2), (2, 3), (3, 0)], 16),                     # the 4-cycle
    ([(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)], 0),              # the 5-cycle is not graceful
])
def test_graceful_labellings_match_every_labelling_tried(edges, labellings):
    from itertools import permutations
    m = len(edges)
    vertices = sorted({v for e in edges for v in e})
    expected = sum(1 for labels in permutations(range(m + 1), len(vertices))
                   if sorted(abs(labels[u] - labels[v]) for u, v in edges) == list(range(1, m + 1)))
    ec = problems.graceful(edges)
    assert ec.count() == expected == labellings
    ec.check()


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_k_queens_match_every_placement_tried(n):
    from itertools import combinations
    squares = [(r, c) for r in range(n) for c in range(n)]

    def peaceful(queens):
        return all(a[0] != b[0] and a[1] != b[1] and abs(a[0] - b[0]) != abs(a[1] - b[1])
                   for a, b in combinations(queens, 2))

    for k in range(1, n + 1):
        expected = sum(1 for queens in combinations(squares, k) if peaceful(queens))
        assert problems.k_queens(n, k).count() == expected, (n, k)
    assert problems.k_queens(8, 8).count() == 92


def test_packings_with_copies_match_an_independent_tiler():
    def tilings(rows, cols, shapes, copies):
        """Count packings by filling the first empty cell in every way (no exact cover)."""
        placed = {name: 0 for name in shapes}
        grid = [[False] * cols for _ in range(rows)]

        def count():
            empty = next(((r, c) for r in range(rows) for c in range(cols) if not grid[r][c]), None)
            if empty is None:
                return all(copies[p][0] <= placed[p] for p in shapes)
            total = 0
            for name, shape in shapes.items():
                if placed[name] == copies[name][1]:
                    continue
                for orientation in problems._orientations(tuple(shape)):
                    r0, c0 = orientation[0]            # the first cell (sorted) goes on the empty one
                    cells = [(empty[0] + r - r0, empty[1] + c - c0) for r, c in orientation]
                    if all(0 <= r < rows and 0 <= c < cols and not grid[r][c] for r, c in cells):
                        for r, c in cells:
                            grid[r][c] = True
                        placed[name] += 1
                        total += count()
                        placed[name] -= 1
                        for r, c in cells:
                            grid[r][c] = False
            return total
        return count()

    shapes = {"I": problems.TETROMINOES["I"], "O": problems.TETROMINOES["O"], "L": problems.TETROMINOES["L"]}
    for rows, cols, copies in ((2, 4, {"I": (0, 2), "O": (0, 2), "L": (0, 2)}),
                               (4, 4, {"I": (1, 2), "O": (0, 1), "L": (0, 4)}),
                               (4, 5, {"I": (0, 5), "O": (2, 2), "L": (1, 3)})):
        ec = problems.packing(rows, cols, shapes, copies)
        assert ec.count() == tilings(rows, cols, shapes, copies), (rows, cols)
    tetrominoes = problems.packing(4, 10, problems.TETROMINOES, {p: 2 for p in problems.TETROMINOES})
    assert tetrominoes.count() == 1796


def test_packing_pictures_colour_each_piece_and_outline_it():
    import xml.etree.ElementTree as ET

    p = problems.pentominoes(3, 20)
    solution = p.first()
    root = ET.fromstring(problems.picture_packing(p, solution))
    ns = "{http://www.w3.org/2000/svg}"
    rects = root.findall(f"{ns}rect")
    assert len(rects) == 60 and len({r.get("fill") for r in rects}) == 12
    tiling = problems.dominoes(4, 4)
    root = ET.fromstring(problems.picture_dominoes(tiling, tiling.first()))
    # 8 dominoes, each outlined by 6 unit sides; a side between two dominoes is drawn from both
    assert len(root.findall(f"{ns}line")) == 8 * 6
