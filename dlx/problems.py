"""Classic exact-cover problems, built the way Knuth's generators build them.

They are the engine's test bed and benchmarks, and examples of how to state a problem as options:
N queens, Langford pairs and pentomino packings; with colours (Knuth's XCC), word squares and
graceful labellings; with multiplicities (MCC), k queens and packings with several copies of a piece.

Examples:
    >>> from dlx import problems
    >>> problems.queens(8).count()
    92
    >>> problems.langford(7).count()     # each pair counted once (mirror images dropped)
    26
    >>> problems.pentominoes(3, 20, symmetric=True).count()   # 2 packings, 4 images each
    8
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import NamedTuple, cast

from . import svg
from .checks import whole
from .model import ExactCover
from .svg import Picture

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _name(k: int) -> str:
    """Knuth's one-character encoding of small numbers (0-9, a-z), decimal beyond."""
    return _DIGITS[k] if k < len(_DIGITS) else f"({k})"


def queens(n: int) -> ExactCover:
    """Place ``n`` queens on an ``n``x``n`` board, no two attacking each other.

    Rows ``r*`` and columns ``c*`` are primary, listed from the centre outwards ("organ-pipe" order,
    which makes the search much smaller); the diagonals ``a*`` (r+c) and ``b*`` (c-r) are secondary.
    Diagonals of one square are left out, as in Knuth's ``queens-dlx``. Option ``n*r + c`` is the
    queen on row r, column c.

    Examples:
        >>> queens(4).option(1)
        ('r0', 'c1', 'a1', 'b4')
    """
    n = whole(n, "queens' n", 1)
    middle = n // 2
    order = [middle]
    for step in range(1, n):
        for k in (middle - step, middle + step):
            if 0 <= k < n:
                order.append(k)
    primary = [name for k in order for name in (f"r{_name(k)}", f"c{_name(k)}")]
    secondary = [f"{d}{_name(k)}" for k in range(1, 2 * n - 2) for d in "ab"]
    options = []
    for r in range(n):
        for c in range(n):
            option = [f"r{_name(r)}", f"c{_name(c)}"]
            if 0 < r + c < 2 * n - 2:
                option.append(f"a{_name(r + c)}")
            if 0 < c - r + n - 1 < 2 * n - 2:
                option.append(f"b{_name(c - r + n - 1)}")
            options.append(option)
    return ExactCover(options, primary=primary, secondary=secondary)


def langford(n: int, *, mirror: bool = False) -> ExactCover:
    """Langford pairs: put two copies of each of 1..n in 2n slots, the copies of k being k apart
    (k slots between them).

    Item ``dk`` is digit k and ``sj`` slot j (1-based). Unless ``mirror`` is true, the largest odd
    digit (whose placements pair off under reflection, none on the axis) keeps only its placements in
    the left half, so a solution and its mirror image count once.
    """
    n = whole(n, "langford's n", 1)
    slots = 2 * n
    options = []
    for k in range(1, n + 1):
        last = slots - k - 1          # the first copy's highest slot
        if k == n - (n % 2 == 0) and not mirror:
            last //= 2                # an odd digit has an even number of places
        for j in range(1, last + 1):
            options.append([f"d{k}", f"s{j}", f"s{j + k + 1}"])
    primary = [f"d{k}" for k in range(1, n + 1)] + [f"s{j}" for j in range(1, slots + 1)]
    return ExactCover(options, primary=primary)


#: The twelve pentominoes in Conway's naming, each as the (row, column) cells of one orientation.
PENTOMINOES = {
    "F": ((0, 1), (0, 2), (1, 0), (1, 1), (2, 1)),
    "I": ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)),
    "L": ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)),
    "N": ((0, 1), (1, 1), (2, 0), (2, 1), (3, 0)),
    "P": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),
    "T": ((0, 0), (0, 1), (0, 2), (1, 1), (2, 1)),
    "U": ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2)),
    "V": ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2)),
    "W": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
    "X": ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)),
    "Y": ((0, 1), (1, 0), (1, 1), (2, 1), (3, 1)),
    "Z": ((0, 0), (0, 1), (1, 1), (2, 1), (2, 2)),
}


def _orientations(cells: tuple[tuple[int, int], ...]) -> list[tuple[tuple[int, int], ...]]:
    """The distinct rotations and reflections of a shape, each shifted to touch row 0 and column 0,
    with its cells sorted."""
    seen: dict = {}
    for shape in (list(cells), [(r, -c) for r, c in cells]):       # as given, then reflected
        for _ in range(4):
            r0 = min(r for r, _ in shape)
            c0 = min(c for _, c in shape)
            seen.setdefault(tuple(sorted((r - r0, c - c0) for r, c in shape)), None)
            shape = [(c, -r) for r, c in shape]                     # a quarter turn
    return list(seen)


def pentominoes(rows: int = 6, cols: int = 10, *, symmetric: bool = False) -> ExactCover:
    """Pack the twelve pentominoes into a ``rows``x``cols`` box (60 cells).

    Items: the cells ``RC`` (row and column as Knuth's digits), then the twelve piece names, all
    primary. Every placement of every orientation is an option, piece name first. Unless
    ``symmetric`` is true, each packing counts once, not once per symmetry of the box (2339 in a
    6x10 box, 368 in 4x15, 1010 in 5x12, 2 in 3x20): X, which every motion of the box leaves as it
    is, keeps only the placements with its centre in the box's upper left quarter (``2r < rows``
    and ``2c < cols``). On a box with an odd side, X may sit on the middle line, where a packing and
    its mirror image both keep it; there P, which no reflection leaves as it is, keeps only one of
    each orientation and its mirror image: the secondary item ``mid``, in the placements of X on
    the middle line and in those of P's other orientations, keeps the two apart. Cost: about 2,000
    options, built in milliseconds.
    """
    rows, cols = whole(rows, "rows", 1), whole(cols, "cols", 1)
    if rows * cols != 60:
        raise ValueError(f"the twelve pentominoes cover 60 cells, not {rows}x{cols} = {rows * cols}")
    mirror = None if symmetric else _mirror_on_middle_line(rows, cols)
    cells = [f"{_name(r)}{_name(c)}" for r in range(rows) for c in range(cols)]
    options = []
    for piece, shape in PENTOMINOES.items():
        for orientation in _orientations(shape):
            # P's orientations that sort after their mirror image meet X on the middle line
            tie = piece == "P" and mirror is not None and mirror(orientation) < orientation
            height = 1 + max(r for r, _ in orientation)
            width = 1 + max(c for _, c in orientation)
            for r in range(rows - height + 1):
                for c in range(cols - width + 1):
                    option = [piece, *(f"{_name(r + dr)}{_name(c + dc)}" for dr, dc in orientation)]
                    if piece == "X" and not symmetric:
                        if not _upper_left(r + 1, c + 1, rows, cols):
                            continue
                        if mirror is not None and _on_middle_line(r + 1, c + 1, rows, cols):
                            option.append("mid")
                    if tie:
                        option.append("mid")
                    options.append(option)
    return ExactCover(options, primary=cells + list(PENTOMINOES), secondary=["mid"] if mirror else [])


def _upper_left(r: int, c: int, rows: int, cols: int) -> bool:
    """Whether X's centre (r, c) lies in the box's upper left quarter."""
    return 2 * r < rows and 2 * c < cols


def _on_middle_line(r: int, c: int, rows: int, cols: int) -> bool:
    return 2 * r == rows - 1 or 2 * c == cols - 1


def _mirror_on_middle_line(rows: int, cols: int) -> Callable | None:
    """The reflection of an orientation across the box's middle line (None when both sides are
    even: no cell lies on such a line); 60 cells never make both sides odd."""
    if rows % 2 == cols % 2 == 0:
        return None
    flip = (lambda r, c: (-r, c)) if rows % 2 else (lambda r, c: (r, -c))

    def mirror(orientation: tuple) -> tuple:
        cells = [flip(r, c) for r, c in orientation]
        r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
        return tuple(sorted((r - r0, c - c0) for r, c in cells))
    return mirror


# --- colours (XCC) and multiplicities (MCC)

#: Three-letter words for `word_squares` (a small list built in code, as Knuth's examples are).
WORDS3 = ("ace", "act", "age", "ago", "aid", "aim", "air", "ale", "all", "and", "ant", "ape", "arc",
          "are", "arm", "art", "ash", "ask", "ate", "awe", "bad", "bag", "ban", "bar", "bat", "bed",
          "bee", "beg", "bet", "bid", "big", "bit", "boa", "bow", "can", "cap", "car", "cat", "ear",
          "eat", "ego", "era", "eve", "ewe", "gas", "get", "ice", "ion", "net", "oar", "oat", "ode",
          "one", "ore", "owe", "ran", "rat", "sea", "see", "set", "tan", "tar", "tea", "ten", "toe")


def word_squares(words: Sequence[str] = WORDS3) -> ExactCover:
    """Fill an n x n grid with letters so that every row and every column is one of ``words``
    (all of length n; a word may be used more than once). Colours carry the letters.

    Items ``r*`` and ``c*`` (a word for each row and column) are primary; the cells ``ij`` are
    secondary, and an option puts a word in a row or a column by giving each of its cells the
    word's letter as colour, so that the rows and columns through a cell agree on it. Option
    ``k`` (< ``n * len(words)``) is word ``k % len(words)`` in row ``k // len(words)``; the columns'
    options follow.

    Examples:
        >>> word_squares(["ab", "ba"]).count()      # ab/ba and ba/ab
        2
    """
    words = list(dict.fromkeys(words))
    if not words or len({len(w) for w in words}) != 1 or not words[0]:
        raise ValueError("word_squares needs non-empty words, all of one length")
    n = len(words[0])
    cell = [[f"{_name(i)}{_name(j)}" for j in range(n)] for i in range(n)]
    options = [[f"r{_name(i)}", *((cell[i][j], w[j]) for j in range(n))] for i in range(n) for w in words]
    options += [[f"c{_name(j)}", *((cell[i][j], w[i]) for i in range(n))] for j in range(n) for w in words]
    primary = [f"{d}{_name(i)}" for i in range(n) for d in "rc"]
    return ExactCover(options, primary=primary, secondary=[c for row in cell for c in row])


def graceful(edges: Sequence[tuple[Hashable, Hashable]]) -> ExactCover:
    """Graceful labellings of a graph with m ``edges`` (and no isolated vertex): give its vertices
    distinct labels from 0..m so that the edges' differences ``|label(u) - label(v)|`` are 1..m, each
    once. Colours carry the labels.

    Primary: each edge ``e*`` (it gets one pair of labels) and each difference ``d*`` (used once).
    Secondary: each vertex ``v*``, coloured by its label, so all its edges agree on it; and each
    label ``l*``, coloured by the vertex that has it, so no two vertices share one. Edge ``k``'s
    options are its labellings ``(a, b)``, ``a != b``, in order. Each solution is one labelling.

    Examples:
        >>> graceful([(0, 1), (1, 2)]).count()        # the path of 3 vertices: 0-2-1, 1-0-2, mirrored
        4
    """
    edges = [cast(tuple[Hashable, Hashable], tuple(edge)) for edge in edges]
    m = len(edges)
    if not m or any(len(edge) != 2 or edge[0] == edge[1] for edge in edges):
        raise ValueError("graceful needs at least one edge, each joining two different vertices")
    vertices = list(dict.fromkeys(v for edge in edges for v in edge))
    vertex = {v: f"v{k}" for k, v in enumerate(vertices)}
    options = []
    for k, (u, v) in enumerate(edges):
        for a in range(m + 1):
            for b in range(m + 1):
                if a != b:
                    options.append([f"e{k}", f"d{abs(a - b)}", (vertex[u], a), (vertex[v], b),
                                    (f"l{a}", vertex[u]), (f"l{b}", vertex[v])])
    primary = [f"e{k}" for k in range(m)] + [f"d{d}" for d in range(1, m + 1)]
    secondary = list(vertex.values()) + [f"l{x}" for x in range(m + 1)]
    return ExactCover(options, primary=primary, secondary=secondary)


def k_queens(n: int, k: int) -> ExactCover:
    """Place ``k`` queens on an ``n`` x ``n`` board, no two attacking each other: [`queens`][dlx.problems.queens]
    with every row and column covered 0 or 1 times (``0:1``) and one more item, ``Q``, in every
    option and covered exactly ``k`` times.

    Examples:
        >>> k_queens(4, 2).count()
        44
    """
    n, k = whole(n, "k_queens' n", 1), whole(k, "k_queens' k", 1)
    board = queens(n)
    options = [["Q", *board.option(o)] for o in range(board.n_options)]
    lines = list(board.items[:board.n_primary])
    bounds = {"Q": (k, k), **{line: (0, 1) for line in lines}}
    return ExactCover(options, primary=["Q", *lines], secondary=board.items[board.n_primary:], bounds=bounds)


#: The five free tetrominoes, as (row, column) cells of one orientation.
TETROMINOES = {
    "I": ((0, 0), (0, 1), (0, 2), (0, 3)),
    "O": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "T": ((0, 0), (0, 1), (0, 2), (1, 1)),
    "L": ((0, 0), (1, 0), (2, 0), (2, 1)),
    "S": ((0, 1), (0, 2), (1, 0), (1, 1)),
}


def packing(rows: int, cols: int, pieces: Mapping[str, Sequence[tuple[int, int]]],
            copies: Mapping[str, int | tuple[int, int]]) -> ExactCover:
    """Pack a ``rows`` x ``cols`` box exactly with ``pieces`` (name: cells of one orientation; every
    rotation and reflection may be used), piece ``p`` used between ``copies[p]`` = ``(lo, hi)`` times
    (or exactly ``k``). The cells ``RC`` and the piece names are primary; the piece names carry the
    bounds. Every placement of every orientation is an option, piece name first. (Below: two I's
    lying down, or two O's side by side.)

    Examples:
        >>> packing(2, 4, {"O": TETROMINOES["O"], "I": TETROMINOES["I"]}, {"O": (0, 2), "I": (0, 2)}).count()
        2
    """
    rows, cols = whole(rows, "rows", 1), whole(cols, "cols", 1)
    cells = [f"{_name(r)}{_name(c)}" for r in range(rows) for c in range(cols)]
    options = []
    for piece, shape in pieces.items():
        for orientation in _orientations(tuple(shape)):
            height = 1 + max(r for r, _ in orientation)
            width = 1 + max(c for _, c in orientation)
            for r in range(rows - height + 1):
                for c in range(cols - width + 1):
                    options.append([piece, *(f"{_name(r + dr)}{_name(c + dc)}" for dr, dc in orientation)])
    return ExactCover(options, primary=cells + list(pieces), bounds=cast(dict[Hashable, int], dict(copies)))


def dominoes(rows: int, cols: int, *, monomers: bool = False) -> ExactCover:
    """Tile a ``rows`` x ``cols`` board with dominoes: the cells ``RC`` are the items, each
    placement of a domino an option (across first, row by row). The 8x8 board has 12,988,816
    tilings (OEIS A004003), too many to list but few ZDD nodes ([`ExactCover.zdd`][dlx.model.ExactCover.zdd]). With
    ``monomers``, a cell may also be a piece of its own (options ``RC`` first): monomer-dimer
    tilings (OEIS A028420).

    Examples:
        >>> dominoes(2, 3).count(), dominoes(4, 4).count(), dominoes(3, 3, monomers=True).count()
        (3, 36, 131)
    """
    rows, cols = whole(rows, "rows", 1), whole(cols, "cols", 1)
    cell = [[f"{_name(r)}{_name(c)}" for c in range(cols)] for r in range(rows)]
    options = [[name] for row in cell for name in row] if monomers else []
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                options.append([cell[r][c], cell[r][c + 1]])
            if r + 1 < rows:
                options.append([cell[r][c], cell[r + 1][c]])
    return ExactCover(options, primary=[name for row in cell for name in row])


def latin_squares(n: int) -> ExactCover:
    """The Latin squares of order ``n`` as exact cover: an option per cell and symbol,
    ``rRC cRS xCS`` (cell filled, symbol once in its row, once in its column). Order 4 has 576,
    order 5 161,280 (OEIS A002860).

    Examples:
        >>> latin_squares(3).count()
        12
    """
    n = whole(n, "n", 1)
    options = [[f"r{_name(r)}{_name(c)}", f"c{_name(r)}{_name(s)}", f"x{_name(c)}{_name(s)}"]
               for r in range(n) for c in range(n) for s in range(n)]
    return ExactCover(options)


# --- Pictures of solutions, and the problems the ``dlx`` command runs by name


def weighted_queens(n: int, seed: int = 0) -> ExactCover:
    """[`queens`][dlx.problems.queens] with a cost on every square, 0..99 drawn from ``seed`` (numpy's PCG64): the
    cheapest placements of ``n`` queens ([`ExactCover.cheapest`][dlx.model.ExactCover.cheapest]).

    Examples:
        >>> weighted_queens(8).cheapest()[0].cost
        263
    """
    n = whole(n, "queens' n", 1)
    return queens(n).with_costs(_draw(seed, 100, n * n))


def set_partitioning(n_items: int, n_options: int, seed: int = 0, *, largest: int = 4) -> ExactCover:
    """A random set-partitioning problem drawn from ``seed`` (numpy's PCG64): ``n_options`` options
    over ``n_items`` items ``i0, i1, ...``, each of 1..``largest`` items at a cost of 1..20 per item
    (so a long option is not free), a few of them a hidden partition, so that a solution exists.
    The classic form of minimum-cost exact cover (crew scheduling, assignment).

    Examples:
        >>> set_partitioning(12, 40).cheapest()[0].cost
        77
    """
    import numpy as np

    n_items, n_options = whole(n_items, "n_items", 1), whole(n_options, "n_options", 1)
    largest = whole(largest, "largest", 1)
    rng = np.random.default_rng(whole(seed, "seed"))
    hidden: list[list[int]] = []
    left = rng.permutation(n_items).tolist()
    while left:
        size = int(rng.integers(1, largest + 1))
        hidden.append(sorted(left[:size]))
        left = left[size:]
    options = list(hidden)
    while len(options) < n_options:
        size = int(rng.integers(1, min(largest, n_items) + 1))
        options.append(sorted(rng.choice(n_items, size, replace=False).tolist()))
    order = rng.permutation(len(options)).tolist()
    options = [options[k] for k in order]
    costs = [int(rng.integers(1, 21, len(option)).sum()) for option in options]
    return ExactCover([[f"i{i}" for i in option] for option in options],
                      primary=[f"i{i}" for i in range(n_items)], costs=costs)


def assignment(n: int, seed: int = 0) -> ExactCover:
    """The assignment problem as exact cover: workers ``w*`` and jobs ``j*`` (primary), option
    ``n*w + j`` gives job j to worker w at a cost of 0..99 drawn from ``seed`` (numpy's PCG64). Its
    cheapest solution is what the Hungarian method finds (scipy's ``linear_sum_assignment``).

    Examples:
        >>> assignment(4).cheapest()[0]
        Priced(cost=110, options=(3, 6, 8, 13))
    """
    n = whole(n, "n", 1)
    options = [[f"w{w}", f"j{j}"] for w in range(n) for j in range(n)]
    return ExactCover(options, costs=_draw(seed, 100, n * n))


def weighted_pentominoes(rows: int = 6, cols: int = 10, seed: int = 0) -> ExactCover:
    """[`pentominoes`][dlx.problems.pentominoes] where each piece pays a weight for each cell it covers,
    0..9 per piece and cell drawn from ``seed`` (numpy's PCG64): the cheapest packings say which piece
    goes where.

    Examples:
        >>> weighted_pentominoes(3, 20).cheapest()[0].cost
        315
    """
    plain = pentominoes(rows, cols)
    area = len(plain.items) - len(PENTOMINOES) - plain.n_secondary
    cell: dict[Hashable, int] = {name: k for k, name in enumerate(plain.items[:area])}
    weight = _draw(seed, 10, len(PENTOMINOES) * area)
    piece: dict[Hashable, int] = {name: k for k, name in enumerate(PENTOMINOES)}
    costs = []
    for k in range(plain.n_options):
        name, *rest = plain.option(k)
        costs.append(sum(weight[piece[name] * area + cell[place]] for place in rest if place in cell))
    return plain.with_costs(costs)


def weighted_graceful(edges: Sequence[tuple[Hashable, Hashable]]) -> ExactCover:
    """[`graceful`][dlx.problems.graceful] where labelling an edge ``(a, b)`` costs ``a + b``: the cheapest labellings
    put low labels on the vertices of high degree (a vertex pays its label once per edge).
    Colours and costs together (Knuth's DLX5 extends DLX2).

    Examples:
        >>> weighted_graceful([(0, 1), (1, 2), (1, 3)]).cheapest()[0].cost
        6
    """
    plain = graceful(edges)
    m = len(edges)
    costs = [a + b for _ in range(m) for a in range(m + 1) for b in range(m + 1) if a != b]
    return plain.with_costs(costs)


def _draw(seed: int, high: int, size: int) -> list[int]:
    """``size`` whole numbers in ``0..high-1`` drawn from ``seed`` (numpy's PCG64)."""
    import numpy as np

    return np.random.default_rng(whole(seed, "seed")).integers(0, high, size).tolist()


def _number(text: str) -> int:
    """The number of one of `_name`'s names."""
    return int(text[1:-1]) if text.startswith("(") else _DIGITS.index(text)


def _split_name(name: str) -> tuple[int, ...]:
    """The numbers in a name made of `_name` parts (``"3a"`` -> (3, 10), ``"(40)1"`` -> (40, 1))."""
    parts, k = [], 0
    while k < len(name):
        end = name.index(")", k) + 1 if name[k] == "(" else k + 1
        parts.append(_number(name[k:end]))
        k = end
    return tuple(parts)


def draw_queens(problem: ExactCover, solution: Sequence[int]) -> str:
    """A board of [`queens`][dlx.problems.queens]: ``Q`` for a queen, ``.`` for an empty square.

    Examples:
        >>> print(draw_queens(queens(4), queens(4).first()))
        . Q . .
        . . . Q
        Q . . .
        . . Q .
    """
    n = round(problem.n_options ** 0.5)
    board = [["."] * n for _ in range(n)]
    for k in solution:
        row, col = map(str, problem.option(k)[:2])
        board[_number(row[1:])][_number(col[1:])] = "Q"
    return "\n".join(" ".join(row) for row in board)


def draw_langford(problem: ExactCover, solution: Sequence[int]) -> str:
    """A [`langford`][dlx.problems.langford] solution as its sequence of 2n numbers.

    Examples:
        >>> draw_langford(langford(3), langford(3).first())
        '3 1 2 1 3 2'
    """
    slots: dict[int, int] = {}
    for k in solution:
        digit, first, second = map(str, problem.option(k))
        for slot in (first, second):
            slots[int(slot[1:])] = int(digit[1:])
    return " ".join(str(slots[j]) for j in sorted(slots))


def draw_packing(problem: ExactCover, solution: Sequence[int]) -> str:
    """A [`pentominoes`][dlx.problems.pentominoes] (or [`packing`][dlx.problems.packing]) solution as
    the box, each cell the letter of its piece."""
    cells: dict[tuple[int, ...], str] = {}
    for k in solution:
        piece, *places = problem.option(k)
        for place in places:
            if place != "mid":             # the tie-breaker on a middle line, no cell
                cells[_split_name(str(place))] = str(piece)[0]
    rows = 1 + max(r for r, _ in cells)
    cols = 1 + max(c for _, c in cells)
    return "\n".join("".join(cells.get((r, c), ".") for c in range(cols)) for r in range(rows))


def picture_packing(problem: ExactCover, solution: Sequence[int]) -> Picture:
    """A [`pentominoes`][dlx.problems.pentominoes] (or [`packing`][dlx.problems.packing]) solution as an
    SVG picture, a colour per piece (Jupyter shows it inline).

    Examples:
        >>> p = pentominoes(3, 20)
        >>> picture = picture_packing(p, p.first())
        >>> picture.count("<rect"), picture._repr_svg_() == picture
        (60, True)
    """
    cells: dict[tuple[int, int], Hashable] = {}
    for k in solution:
        piece, *places = problem.option(k)
        for place in places:
            if place != "mid":
                r, c = _split_name(str(place))
                cells[r, c] = piece
    return svg.cells(cells)


def picture_dominoes(problem: ExactCover, solution: Sequence[int]) -> Picture:
    """A [`dominoes`][dlx.problems.dominoes] tiling as an SVG picture, a colour and a thick outline per domino.

    Examples:
        >>> picture_dominoes(dominoes(2, 3), dominoes(2, 3).first()).count("<rect")
        6
    """
    cells: dict[tuple[int, int], Hashable] = {}
    for k in solution:
        for name in problem.option(k):
            r, c = _split_name(str(name))
            cells[r, c] = k
    return svg.cells(cells)


def draw_dominoes(problem: ExactCover, solution: Sequence[int]) -> str:
    """A [`dominoes`][dlx.problems.dominoes] tiling: ``-`` for a domino across, ``|`` for one down (each cell), ``o``
    for a monomer.

    Examples:
        >>> print(draw_dominoes(dominoes(2, 3), dominoes(2, 3).first()))
        --|
        --|
    """
    cells: dict[tuple[int, ...], str] = {}
    for k in solution:
        places = [_split_name(str(name)) for name in problem.option(k)]
        if len(places) == 1:
            cells[places[0]] = "o"
            continue
        first, second = places
        cells[first] = cells[second] = "-" if first[0] == second[0] else "|"
    rows = 1 + max(r for r, _ in cells)
    cols = 1 + max(c for _, c in cells)
    return "\n".join("".join(cells[r, c] for c in range(cols)) for r in range(rows))


class Classic(NamedTuple):
    """A problem the ``dlx`` command runs by name: how to build it from its arguments, and how
    to draw a solution."""

    build: Callable[[list[str]], ExactCover]
    draw: Callable[[ExactCover, Sequence[int]], str]
    usage: str


def _box(args: list[str]) -> ExactCover:
    text = args[0] if args else "6x10"
    rows, _, cols = text.lower().partition("x")
    if not (rows.isdigit() and cols.isdigit()):
        raise ValueError(f"pentominoes take a box as RxC (6x10, 5x12, 4x15, 3x20), not {text!r}")
    return pentominoes(int(rows), int(cols))


def _board(args: list[str]) -> ExactCover:
    text = args[0] if args else "8x8"
    rows, _, cols = text.lower().partition("x")
    if len(args) > 1 or not (rows.isdigit() and cols.isdigit() and int(rows) and int(cols)):
        raise ValueError(f"dominoes take a board as RxC (8x8, 12x12), not {' '.join(args)!r}")
    return dominoes(int(rows), int(cols))


def _one_number(name: str, default: int, make: Callable[[int], ExactCover]) -> Callable[[list[str]], ExactCover]:
    def build(args: list[str]) -> ExactCover:
        if len(args) > 1 or (args and not args[0].isdigit()):
            raise ValueError(f"{name} takes one whole number (default {default}), not {' '.join(args)!r}")
        return make(int(args[0]) if args else default)
    return build


#: The problems ``dlx NAME [ARG]`` runs: ``dlx queens 12 --count``, ``dlx langford 12``,
#: ``dlx pentominoes 6x10``.
CLASSICS = {
    "queens": Classic(_one_number("queens", 8, queens), draw_queens, "queens [N]: N queens on an NxN board (8)"),
    "langford": Classic(_one_number("langford", 7, langford), draw_langford,
                        "langford [N]: Langford pairs of 1..N, mirror images once (7)"),
    "pentominoes": Classic(_box, draw_packing, "pentominoes [RxC]: the twelve pentominoes in a box (6x10)"),
    "dominoes": Classic(_board, draw_dominoes, "dominoes [RxC]: domino tilings of a board (8x8)"),
}
