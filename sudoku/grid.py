"""Reading and writing puzzles: text as people paste it, lists of lists, and pretty grids.

A puzzle is an ``N x N`` grid split into ``N`` boxes of ``R x C`` cells (``R * C = N``): square
boxes for 4x4, 9x9, 16x16 and 25x25, rectangles for 6x6 (2x3), 8x8 (2x4), 12x12 (3x4) and so on.
It is held as a flat uint8 array of ``N*N`` values in row-major order, 0 for a blank; the box shape
travels beside it as a [`Shape`][sudoku.grid.Shape]. In text, a blank is ``.`` (or ``0`` when 0 is no symbol)
and the values are ``1``-``9`` then ``A``-``Z`` (10-35, either case), or the symbols given.
"""
from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeAlias

import numpy as np

from dlx import svg
from dlx.checks import whole
from dlx.svg import Picture

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: The largest grid: one more would need more than 62 one-character names (0-9, A-Z, a-z).
MAX_SIZE = 61
IGNORED = re.compile(r"[\s|+\-]")                # layout in pasted grids: spaces, |, -, +
APART = re.compile(r"[\s|+]+")                 # between the cells of a row as pretty() writes it

# byte -> value (0 for a blank, 255 for a character that is no cell) for 9x9 lines
_BYTE_VALUE = np.full(256, 255, np.uint8)
_BYTE_VALUE[[ord("."), ord("0")]] = 0
_BYTE_VALUE[np.frombuffer(b"123456789", np.uint8)] = np.arange(1, 10)
_VALUE_BYTE = np.frombuffer(b"." + SYMBOLS.encode(), np.uint8)


class PuzzleError(ValueError):
    """A puzzle that cannot be read, or whose givens contradict each other. The message says what
    and where; ``line`` is the line number when the puzzle came from a file, else None."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.reason = message
        self.line = line

    def __reduce__(self) -> tuple[Callable[[str, int | None], PuzzleError], tuple[str, int | None]]:
        return _puzzle_error, (self.reason, self.line)


def _puzzle_error(reason: str, line: int | None) -> PuzzleError:
    """A PuzzleError as pickled (to and from a Dask worker)."""
    return PuzzleError(reason, line=line)


class Shape(NamedTuple):
    """The layout of an ``N x N`` grid: ``size`` is N, and each box has ``rows`` x ``cols`` cells
    (``rows * cols == N``); ``rows == cols == 0`` when regions replace the boxes (a jigsaw's, at any
    N, primes included). Derived in one place, [`of`][sudoku.grid.Shape.of], and carried with the puzzle from there.

    Examples:
        >>> Shape.of(81), Shape.of(36, "3x2"), Shape.of(25, boxes=False).boxes
        (Shape(size=9, rows=3, cols=3), Shape(size=6, rows=3, cols=2), False)
    """

    size: int
    rows: int
    cols: int

    @property
    def cells(self) -> int:
        return self.size * self.size

    @property
    def boxes(self) -> bool:
        """Whether the grid has boxes (False: regions replace them)."""
        return self.rows > 0

    def __str__(self) -> str:
        side = f"{self.size}x{self.size}"
        return f"{side} (boxes {self.rows}x{self.cols})" if self.boxes else f"{side} (regions, no boxes)"

    @classmethod
    def of(cls, cells: int, box: Box = None, *, boxes: bool = True) -> Shape:
        """The shape of a grid of ``cells`` cells: boxes of ``box`` (a [`Shape`][sudoku.grid.Shape], ``n`` for
        ``n x n``, a pair or text such as ``"2x3"``) when given, else the squarest that fits, no
        taller than wide (2x3 for 6x6, 3x4 for 12x12); ``boxes=False`` for a grid whose regions
        replace the boxes. A [`PuzzleError`][sudoku.grid.PuzzleError] says why a count of cells makes no grid."""
        size = math.isqrt(cells)
        if size * size != cells or not 4 <= size <= MAX_SIZE:
            raise PuzzleError(wrong_length(cells))
        return cls.sided(size, box, boxes=boxes)

    @classmethod
    def sided(cls, size: int, box: Box = None, *, boxes: bool = True) -> Shape:
        """[`of`][sudoku.grid.Shape.of] for a grid of ``size`` x ``size`` cells."""
        if not boxes:
            return cls(size, 0, 0)
        if box is None:
            rows = _squarest(size)
            if rows is None:
                raise PuzzleError(f"a {size}x{size} grid has no boxes ({size} is prime; a jigsaw's regions "
                                  "can replace them)")
            return cls(size, rows, size // rows)
        rows, cols = as_box(box)
        if rows * cols != size:
            raise PuzzleError(f"boxes of {rows}x{cols} make a {rows * cols}x{rows * cols} grid, not {size}x{size}")
        return cls(size, rows, cols)

    @classmethod
    def boxed(cls, box: Box) -> Shape:
        """The grid that boxes of ``box`` make: ``3`` or ``"3x3"`` for 9x9, ``"2x3"`` for 6x6."""
        if isinstance(box, Shape):
            return box
        rows, cols = as_box(box)
        return cls(rows * cols, rows, cols)

    def box_cells(self) -> np.ndarray:
        """The cells of each box, one row per box (boxes row-major, cells row-major within)."""
        cell = np.arange(self.cells).reshape(self.size, self.size)
        return cell.reshape(self.size // self.rows, self.rows, self.size // self.cols,
                            self.cols).swapaxes(1, 2).reshape(self.size, self.size)

    def units(self, boxes: bool = True) -> list[tuple[str, np.ndarray]]:
        """Every row, column and (with ``boxes``, when there are boxes) box as ``(name, cells)``."""
        cell = np.arange(self.cells).reshape(self.size, self.size)
        kinds = [("row", cell), ("column", cell.T)]
        if boxes and self.boxes:
            kinds.append(("box", self.box_cells()))
        return [(f"{kind} {i + 1}", cells[i]) for kind, cells in kinds for i in range(self.size)]


#: A puzzle as the functions take it: text (one line, or a grid over several), a list of row
#: strings, or values (a flat or nested list, or a numpy array, 0 for blanks).
Puzzle: TypeAlias = str | Sequence[str] | Sequence[int] | Sequence[Sequence[int]] | np.ndarray
#: A box shape: ``"RxC"``, ``n`` (``n x n``), ``(rows, columns)``, a `Shape`, or None (the
#: squarest box for the grid).
Box: TypeAlias = str | int | tuple[int, int] | Shape | None


def grid_size(cells: int) -> int | None:
    """``N`` for a puzzle of ``cells = N*N`` cells that has boxes (N from 4 to MAX_SIZE, not prime),
    else None: whether a line of that many cells is a whole puzzle.

    Examples:
        >>> grid_size(81), grid_size(36), grid_size(25), grid_size(80)
        (9, 6, None, None)
    """
    size = math.isqrt(cells)
    if size * size != cells or not 4 <= size <= MAX_SIZE or _squarest(size) is None:
        return None
    return size


def _squarest(size: int) -> int | None:
    """The most rows a box of an N x N grid can have, at most as many as its columns (None: N prime)."""
    return next((r for r in range(math.isqrt(size), 1, -1) if size % r == 0), None)


def as_box(box: Box) -> tuple[int, int]:
    """A box as ``(rows, columns)`` from a [`Shape`][sudoku.grid.Shape], ``n`` (``n x n``), a pair or text."""
    if isinstance(box, Shape):
        if not box.boxes:
            raise PuzzleError(f"a {box.size}x{box.size} grid of regions has no boxes")
        return box.rows, box.cols
    if isinstance(box, int) and not isinstance(box, bool):
        return parse_box((box, box))
    return parse_box(box)


def parse_box(box: Box) -> tuple[int, int]:
    """A box shape given as ``"RxC"`` or a pair of whole numbers, each at least 1, R*C at least 4."""
    if isinstance(box, str):
        match = re.fullmatch(r"\s*(\d+)\s*[xX*]\s*(\d+)\s*", box)
        if not match:
            raise PuzzleError(f"a box is given as RxC (rows x columns), such as 2x3, not {box!r}")
        box = int(match[1]), int(match[2])
    try:
        rows, cols = (whole(k, "a box's side") for k in box)  # type: ignore[union-attr]  # TypeError below
    except (TypeError, ValueError):
        raise PuzzleError(f"a box is two whole numbers (rows, columns), not {box!r}") from None
    if rows < 1 or cols < 1 or not 4 <= rows * cols <= MAX_SIZE:
        raise PuzzleError(f"boxes of {rows}x{cols} make no sudoku (4 to {MAX_SIZE} cells a box)")
    return rows, cols


def expand_symbols(spec: str) -> str:
    """The symbols of a spec with ranges, in order: ``"0-F"`` -> ``"0123456789ABCDEF"``,
    ``"1-9A-G"`` -> ``"123456789ABCDEFG"``. A ``-`` between two characters is a range; between
    letters and digits it runs 0-9, A-Z, a-z (no punctuation between).

    Examples:
        >>> expand_symbols("1-9A-G"), expand_symbols("0-F")
        ('123456789ABCDEFG', '0123456789ABCDEF')
    """
    out: list[str] = []
    k = 0
    while k < len(spec):
        if k + 2 < len(spec) and spec[k + 1] == "-":
            first, last = spec[k], spec[k + 2]
            if first in _ALNUM and last in _ALNUM:
                run = _ALNUM[_ALNUM.index(first):_ALNUM.index(last) + 1]
            else:
                run = "".join(map(chr, range(ord(first), ord(last) + 1)))
            if not run:
                raise PuzzleError(f"symbols: the range {spec[k:k + 3]!r} runs backwards")
            out.extend(run)
            k += 3
        else:
            out.append(spec[k])
            k += 1
    symbols = "".join(out)
    bad = sorted({ch for ch in symbols if ch == "." or IGNORED.match(ch)})
    if bad:
        raise PuzzleError(f"symbols: {bad[0]!r} cannot be a value ('.' is a blank; spaces, |, - and + "
                          "are layout)")
    if len(set(symbols)) != len(symbols):
        twice = next(ch for ch in symbols if symbols.count(ch) > 1)
        raise PuzzleError(f"symbols: {twice!r} given twice in {spec!r}")
    return symbols


_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


@functools.cache
def symbol_table(symbols: str | None, size: int) -> tuple[dict[str, int], str]:
    """``(character -> value, the N symbols)`` for a grid of ``size``: blanks map to 0; letters
    read in either case when that is unambiguous."""
    chars = SYMBOLS[:size] if symbols is None else expand_symbols(symbols)
    if symbols is None and size > len(SYMBOLS):
        raise PuzzleError(f"a {size}x{size} grid needs {size} symbols: give them (--symbols)")
    if len(chars) != size:
        raise PuzzleError(f"symbols {symbols!r} give {len(chars)} values, but a {size}x{size} grid has {size}")
    value = {".": 0} | ({} if "0" in chars else {"0": 0})
    value |= {ch: v for v, ch in enumerate(chars, 1)}
    for ch, v in list(value.items()):
        for other in (ch.lower(), ch.upper()):
            if other not in value and len(other) == 1:
                value[other] = v
    return value, chars


def parse(puzzle: Puzzle, *, box: Box = None, symbols: str | None = None, boxes: bool = True) -> np.ndarray:
    """The values of ``puzzle`` as a flat uint8 array (0 for blanks).

    ``puzzle`` is a string (one line of ``N*N`` cells, or a grid over several lines in which
    spaces and the separators ``|``, ``-`` and ``+`` are ignored), a list of row strings, or a list
    of lists (or a flat list, or a numpy array) of ints with 0 for blanks. ``box`` checks the box
    shape (see [`Shape.of`][sudoku.grid.Shape.of]); ``symbols`` names the values in text (such as ``"0-F"``);
    ``boxes=False`` for a grid whose regions replace the boxes (a jigsaw, of any size).

    Examples:
        >>> parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")[:9]
        array([5, 3, 0, 0, 7, 0, 0, 0, 0], dtype=uint8)
        >>> parse([[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]])
        array([1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2], dtype=uint8)
        >>> parse("1.3")
        Traceback (most recent call last):
        ...
        sudoku.grid.PuzzleError: wrong length: 3 cells; a puzzle has N*N (16 for 4x4, 36 for 6x6, ...)
    """
    return parse_shaped(puzzle, box=box, symbols=symbols, boxes=boxes)[0]


def parse_shaped(puzzle: Puzzle, *, box: Box = None, symbols: str | None = None,
                 boxes: bool = True) -> tuple[np.ndarray, Shape]:
    """[`parse`][sudoku.grid.parse], and the puzzle's [`Shape`][sudoku.grid.Shape], derived once as it
    is read, to travel with the values (the solvers group and solve by it).

    Examples:
        >>> parse_shaped("1...|..3.|.4..|...2")[1]
        Shape(size=4, rows=2, cols=2)
    """
    if isinstance(puzzle, str):
        return _parse_text(puzzle, box, symbols, boxes)
    if isinstance(puzzle, (list, tuple)) and puzzle and all(isinstance(row, str) for row in puzzle):
        return _parse_text("\n".join(puzzle), box, symbols, boxes)
    return _parse_values(puzzle, box, boxes)


def _parse_text(text: str, box: Box, symbols: str | None, boxes: bool) -> tuple[np.ndarray, Shape]:
    cells = IGNORED.sub("", text)
    if "\0" in cells:
        raise PuzzleError(NUL_LINE)
    shape = Shape.of(len(cells), box, boxes=boxes)
    size = shape.size
    value, chars = symbol_table(symbols, size)
    if symbols is None and size > 9 and "0" in cells and "." in cells:
        raise PuzzleError(f"both '0' and '.' in a {size}x{size} puzzle: is 0 a blank or a value? Say "
                          f"which with the symbols (such as 0-{chars[size - 2]}, where 0 is a value)")
    values = np.empty(len(cells), np.uint8)
    for k, ch in enumerate(cells):
        v = value.get(ch)
        if v is None:
            raise PuzzleError(f"bad character {ch!r} at position {k + 1} (row {k // size + 1}, "
                              f"column {k % size + 1})")
        values[k] = v
    return values, shape


def _parse_values(puzzle: Puzzle, box: Box, boxes: bool) -> tuple[np.ndarray, Shape]:
    try:
        a = np.asarray(puzzle)
    except ValueError as e:     # ragged lists
        raise PuzzleError(f"rows of different lengths ({e})") from None
    if a.dtype == object or not (np.issubdtype(a.dtype, np.integer) or a.dtype == bool):
        raise PuzzleError(f"expected a string or integers, got {a.dtype} values")
    if a.ndim == 2 and a.shape[0] != a.shape[1]:
        raise PuzzleError(f"a grid must be square, not {a.shape[0]} x {a.shape[1]}")
    flat = a.reshape(-1)
    side = math.isqrt(flat.size)
    if a.ndim not in (1, 2) or side * side != flat.size or not 4 <= side <= MAX_SIZE:
        raise PuzzleError(f"wrong shape {a.shape}: a puzzle is N x N with boxes (4x4, 6x6, 9x9, 16x16, ...; "
                          "as rows, or all values in one list)")
    shape = Shape.of(flat.size, box, boxes=boxes)
    size = shape.size
    bad = np.flatnonzero((flat < 0) | (flat > size))
    if bad.size:
        k = int(bad[0])
        raise PuzzleError(f"value {flat[k]} at row {k // size + 1}, column {k % size + 1} "
                          f"is not between 0 and {size}")
    return flat.astype(np.uint8), shape


def clashes(values: np.ndarray, box: Box = None, symbols: str | None = None, *, boxes: bool = True) -> str | None:
    """Why the givens contradict each other ("digit 5 twice in row 3"), or None when they don't;
    ``boxes=False`` for a grid whose regions replace the boxes (jigsaw)."""
    return twice_in(values, Shape.of(values.size, box, boxes=boxes).units(), symbols)


def twice_in(values: np.ndarray, units: Sequence[tuple[str, Any]], symbols: str | None = None) -> str | None:
    """The first of ``units`` (``(name, cells)`` pairs) whose givens repeat a value, as "digit 5
    twice in row 3", or None."""
    size = math.isqrt(values.size)
    if units and len({len(cells) for _, cells in units}) == 1:     # the usual case, in one pass
        given = np.sort(values[np.array([cells for _, cells in units])], axis=1)
        if not ((given[:, 1:] == given[:, :-1]) & (given[:, 1:] > 0)).any():
            return None
    for name, cells in units:
        given = values[cells]
        seen = np.bincount(given[given > 0], minlength=size + 1)
        if (seen > 1).any():
            symbol = symbol_table(symbols, size)[1][int(np.flatnonzero(seen > 1)[0]) - 1]
            return f"{'digit' if size <= 9 else 'value'} {symbol} twice in {name}"
    return None


@functools.cache
def _out_bytes(symbols: str | None, size: int) -> np.ndarray:
    if symbols is None:
        return _VALUE_BYTE
    return np.frombuffer(("." + symbol_table(symbols, size)[1]).encode("utf-32-le"), np.uint32)


def to_text(values: np.ndarray, symbols: str | None = None) -> str:
    """One line: the values with '.' for blanks.

    Examples:
        >>> to_text(parse("1...|..3.|.4..|...2"))
        '1.....3..4.....2'
        >>> to_text(parse("1...|..3.|.4..|...2"), symbols="a-d")
        'a.....c..d.....b'
    """
    if symbols is None:
        return _VALUE_BYTE[values].tobytes().decode()
    return _out_bytes(symbols, math.isqrt(values.size))[values].tobytes().decode("utf-32-le")


def pretty(puzzle: Puzzle, *, box: Box = None, symbols: str | None = None, boxes: bool = True) -> str:
    """A grid to read, boxes separated.

    Examples:
        >>> print(pretty("1...|..3.|.4..|...2"))
        1 . | . .
        . . | 3 .
        ----+----
        . 4 | . .
        . . | . 2
    """
    values = puzzle if isinstance(puzzle, np.ndarray) else parse(puzzle, box=box, symbols=symbols, boxes=boxes)
    return draw(to_text(values, symbols), Shape.of(values.size, box, boxes=boxes))


def picture(puzzle: Puzzle, solution: Puzzle | None = None, *, box: Box = None, symbols: str | None = None,
            regions: Sequence[int] | None = None) -> Picture:
    """A puzzle (and its solution, when given) as an SVG picture, which Jupyter shows inline: thick
    lines around the boxes (or a jigsaw's ``regions``, a region number per cell), the givens in
    bold black, the values the solution adds in blue.

    Examples:
        >>> svg = picture("1...|..3.|.4..|...2", "1234|4132|2413|3241")
        >>> svg.count("<text"), svg.count('font-weight="bold"')
        (16, 4)
    """
    given = puzzle if isinstance(puzzle, np.ndarray) else parse(puzzle, box=box, symbols=symbols,
                                                                boxes=regions is None)
    shape = Shape.of(given.size, box, boxes=regions is None)
    values = given if solution is None else (
        solution if isinstance(solution, np.ndarray) else parse(solution, box=box, symbols=symbols,
                                                                boxes=regions is None))
    n = shape.size
    text = to_text(values, symbols)
    labels, written, bold = {}, {}, {}
    for k in range(n * n):
        r, c = divmod(k, n)
        labels[r, c] = regions[k] if regions is not None else (r // shape.rows, c // shape.cols)
        if values[k]:
            written[r, c] = text[k]
            bold[r, c] = bool(given[k])
    return svg.cells(labels, text=written, fill=False, bold=bold)


def draw(line: str, shape: Shape) -> str:
    """A grid of ``shape`` as [`pretty`][sudoku.grid.pretty] draws it, from its one-line text (one symbol per cell,
    as [`to_text`][sudoku.grid.to_text] and the solvers write it): laid out as it is, nothing parsed again.

    Examples:
        >>> print(draw("1234341221434321", Shape.of(16)))
        1 2 | 3 4
        3 4 | 1 2
        ----+----
        2 1 | 4 3
        4 3 | 2 1
    """
    size = shape.size
    rows, cols = (shape.rows, shape.cols) if shape.boxes else (size, size)   # regions: no bars
    bar = "-+-".join(["-" * (2 * cols - 1)] * (size // cols))
    lines = []
    for r in range(size):
        if r and r % rows == 0:
            lines.append(bar)
        row = line[r * size:(r + 1) * size]
        lines.append(" | ".join(" ".join(row[b * cols:(b + 1) * cols]) for b in range(size // cols)))
    return "\n".join(lines)


def parse_lines81(lines: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Many 81-character lines at once: ``(values, ok)``, values ``(len(lines), 81)``; ``ok[k]`` is
    False where line ``k`` has a character that is no cell (parse it alone for the message)."""
    raw = np.frombuffer("".join(lines).encode("ascii", "replace"), np.uint8)
    values = _BYTE_VALUE[raw].reshape(len(lines), 81)
    ok = (values != 255).all(axis=1)
    return values, ok


def read_array(data: bytes | str) -> tuple[np.ndarray, np.ndarray]:
    """A file's bytes (or a path) of 9x9 puzzles, one 81-character line each ('.' or '0' for
    blanks), as ``(values, ok)``: values ``(lines, 81)`` uint8, ``ok[k]`` False where line ``k`` has
    a character that is no cell. Whole-array numpy, no Python per line. Lines of another length
    are a [`PuzzleError`][sudoku.grid.PuzzleError] naming the first (read such files with `read_lines`)."""
    if isinstance(data, str):
        with open(data, "rb") as f:
            data = f.read()
    raw = np.frombuffer(data, np.uint8)
    if raw.size and raw[-1] != ord("\n"):
        raw = np.append(raw, np.uint8(ord("\n")))
    raw = raw[raw != ord("\r")] if b"\r" in data else raw
    ends = np.flatnonzero(raw == ord("\n"))
    lengths = np.diff(ends, prepend=-1) - 1
    if (lengths != 81).any():
        bad = int(np.flatnonzero(lengths != 81)[0])
        raise PuzzleError(f"{int(lengths[bad])} characters, not 81 (read_lines takes any layout)", line=bad + 1)
    values = _BYTE_VALUE[raw.reshape(-1, 82)[:, :81]]
    return values, (values != 255).all(axis=1)


def lines(values: np.ndarray) -> str:
    """Rows of values as text, one line each ('.' for a blank), all at once.

    Examples:
        >>> lines(np.array([[1, 0, 3, 4] * 4])).splitlines()
        ['1.341.341.341.34']
    """
    values = np.asarray(values, np.uint8)
    out = np.empty((values.shape[0], values.shape[1] + 1), np.uint8)
    out[:, :-1] = _VALUE_BYTE[values]
    out[:, -1] = ord("\n")
    return out.tobytes().decode()


def texts(answers: np.ndarray, symbols: str | None = None) -> list[str]:
    """Rows of values as one-line texts, all at once."""
    width = answers.shape[1]
    if symbols is None:
        joined = _VALUE_BYTE[answers].tobytes().decode()
    else:
        joined = _out_bytes(symbols, math.isqrt(width))[answers].tobytes().decode("utf-32-le")
    return [joined[k:k + width] for k in range(0, len(joined), width)]


def wrong_length(cells: int) -> str:
    side = math.isqrt(cells)
    if side * side == cells and side > MAX_SIZE:
        return (f"a {side}x{side} grid is larger than the largest, {MAX_SIZE}x{MAX_SIZE} (one character "
                f"for each value, and 0-9, A-Z, a-z give 62)")
    return (f"wrong length: {cells} cells; a puzzle has N*N (16 for 4x4, 36 for 6x6, 81 for 9x9, "
            "256 for 16x16, ...)")


#: Why a line with NUL characters is no puzzle: text in UTF-16 (Windows' "Unicode") has one in
#: every other byte.
NUL_LINE = ("NUL characters in the line: is the file UTF-16? Puzzles are read as UTF-8 (iconv -f "
            "UTF-16 -t UTF-8 converts a file)")
