"""Reading and writing puzzles: text as people paste it, lists of lists, and pretty grids.

A puzzle of box size ``n`` is an ``N x N`` grid with ``N = n*n`` (4x4, 9x9, 16x16, 25x25), held as
a flat uint8 array of ``N*N`` values in row-major order, 0 for a blank. In text, a blank is ``.``
or ``0`` and the values are ``1``-``9`` then ``A``-``P`` (10-25, either case).
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

import numpy as np

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
SIZES = {n ** 4: n for n in range(2, 6)}        # cells -> box size
_IGNORED = re.compile(r"[\s|+\-]")                # layout in pasted grids: spaces, |, -, +
_ROW_SIZES = (4, 9, 25)     # a line of 16 cells is a whole 4x4 puzzle, so 16x16 grids take one line

# byte -> value (0 for a blank, 255 for a character that is no cell) for 9x9 lines
_BYTE_VALUE = np.full(256, 255, np.uint8)
_BYTE_VALUE[[ord("."), ord("0")]] = 0
_BYTE_VALUE[np.frombuffer(b"123456789", np.uint8)] = np.arange(1, 10)
_VALUE_BYTE = np.frombuffer(b"." + SYMBOLS.encode(), np.uint8)
# symbol -> value in either case: a lookup, since str.upper() would make 'ı' an 'I'
_VALUE = {s: v for v, s in enumerate(SYMBOLS, 1)}
_VALUE |= {s.lower(): v for s, v in _VALUE.items()}


class PuzzleError(ValueError):
    """A puzzle that cannot be read, or whose givens contradict each other. The message says what
    and where; ``line`` is the line number when the puzzle came from a file, else None."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.reason = message
        self.line = line

    def __reduce__(self):
        return _puzzle_error, (self.reason, self.line)


def _puzzle_error(reason: str, line: int | None) -> PuzzleError:
    """A PuzzleError as pickled (to and from a Dask worker)."""
    return PuzzleError(reason, line=line)


def parse(puzzle) -> np.ndarray:
    """The values of ``puzzle`` as a flat uint8 array (0 for blanks).

    ``puzzle`` is a string (one line of 16, 81, 256 or 625 cells, or a grid over several lines in
    which spaces and the separators ``|``, ``-`` and ``+`` are ignored), a list of row strings, or
    a list of lists (or a flat list, or a numpy array) of ints with 0 for blanks.

    >>> parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")[:9]
    array([5, 3, 0, 0, 7, 0, 0, 0, 0], dtype=uint8)
    >>> parse([[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]])
    array([1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2], dtype=uint8)
    >>> parse("1.3")
    Traceback (most recent call last):
    ...
    sudoku.grid.PuzzleError: wrong length: 3 cells, but a puzzle has 16, 81, 256 or 625
    """
    if isinstance(puzzle, str):
        return _parse_text(puzzle)
    if isinstance(puzzle, (list, tuple)) and puzzle and all(isinstance(row, str) for row in puzzle):
        return _parse_text("\n".join(puzzle))
    return _parse_values(puzzle)


def _parse_text(text: str) -> np.ndarray:
    cells = _IGNORED.sub("", text)
    n = SIZES.get(len(cells))
    if n is None:
        raise PuzzleError(_wrong_length(len(cells)))
    size = n * n
    values = np.empty(len(cells), np.uint8)
    for k, ch in enumerate(cells):
        if ch in ".0":
            values[k] = 0
            continue
        v = _VALUE.get(ch, 0)
        if not 1 <= v <= size:
            raise PuzzleError(f"bad character {ch!r} at position {k + 1} (row {k // size + 1}, "
                              f"column {k % size + 1})")
        values[k] = v
    return values


def _parse_values(puzzle) -> np.ndarray:
    try:
        a = np.asarray(puzzle)
    except ValueError as e:     # ragged lists
        raise PuzzleError(f"rows of different lengths ({e})") from None
    if a.dtype == object or not (np.issubdtype(a.dtype, np.integer) or a.dtype == bool):
        raise PuzzleError(f"expected a string or integers, got {a.dtype} values")
    if a.ndim == 2 and a.shape[0] != a.shape[1]:
        raise PuzzleError(f"a grid must be square, not {a.shape[0]} x {a.shape[1]}")
    flat = a.reshape(-1)
    n = math.isqrt(math.isqrt(flat.size))
    if a.ndim not in (1, 2) or n ** 4 != flat.size or flat.size not in SIZES:
        raise PuzzleError(f"wrong shape {a.shape}: a puzzle is 4x4, 9x9, 16x16 or 25x25 "
                          "(as rows, or all values in one list)")
    size = n * n
    bad = np.flatnonzero((flat < 0) | (flat > size))
    if bad.size:
        k = int(bad[0])
        raise PuzzleError(f"value {flat[k]} at row {k // size + 1}, column {k % size + 1} "
                          f"is not between 0 and {size}")
    return flat.astype(np.uint8)


def box_size(values: np.ndarray) -> int:
    """``n`` for a puzzle of ``n**4`` cells."""
    return math.isqrt(math.isqrt(values.size))


def clashes(values: np.ndarray) -> str | None:
    """Why the givens contradict each other ("digit 5 twice in row 3"), or None when they don't."""
    n = box_size(values)
    size = n * n
    g = values.reshape(size, size)
    units = [("row", lambda i: g[i, :]), ("column", lambda i: g[:, i]),
             ("box", lambda i: g[i // n * n:i // n * n + n, i % n * n:i % n * n + n].reshape(-1))]
    for unit, cells in units:
        for i in range(size):
            given = cells(i)
            given = given[given > 0]
            seen = np.bincount(given, minlength=size + 1)
            if (seen > 1).any():
                v = int(np.flatnonzero(seen > 1)[0])
                return f"{_symbol_word(size)} {SYMBOLS[v - 1]} twice in {unit} {i + 1}"
    return None


def _symbol_word(size: int) -> str:
    return "digit" if size <= 9 else "value"


def to_text(values: np.ndarray) -> str:
    """One line: the values with '.' for blanks.

    >>> to_text(parse("1...|..3.|.4..|...2"))
    '1.....3..4.....2'
    """
    return _VALUE_BYTE[values].tobytes().decode()


def pretty(puzzle) -> str:
    """A grid to read, boxes separated.

    >>> print(pretty("1...|..3.|.4..|...2"))
    1 . | . .
    . . | 3 .
    ----+----
    . 4 | . .
    . . | . 2
    """
    values = puzzle if isinstance(puzzle, np.ndarray) else parse(puzzle)
    n = box_size(values)
    size = n * n
    text = to_text(values)
    bar = "-+-".join(["-" * (2 * n - 1)] * n)
    lines = []
    for r in range(size):
        if r and r % n == 0:
            lines.append(bar)
        row = text[r * size:(r + 1) * size]
        lines.append(" | ".join(" ".join(row[b * n:(b + 1) * n]) for b in range(n)))
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
    are a :class:`PuzzleError` naming the first (read such files with :func:`read_lines`)."""
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

    >>> lines(np.array([[1, 0, 3, 4] * 4])).splitlines()
    ['1.341.341.341.34']
    """
    values = np.asarray(values, np.uint8)
    out = np.empty((values.shape[0], values.shape[1] + 1), np.uint8)
    out[:, :-1] = _VALUE_BYTE[values]
    out[:, -1] = ord("\n")
    return out.tobytes().decode()


def texts(answers: np.ndarray) -> list[str]:
    """Rows of values as one-line texts, all at once."""
    width = answers.shape[1]
    joined = _VALUE_BYTE[answers].tobytes().decode()
    return [joined[k:k + width] for k in range(0, len(joined), width)]


class Entry(NamedTuple):
    """One puzzle (or other line) of a file, as :func:`read_lines` finds it."""

    line: int             # where it starts (1-based)
    text: str             # the line as read, or the lines of a grid joined by newlines
    puzzle: str | None    # the puzzle's text; None for a line that holds no puzzle
    error: PuzzleError | None = None


def read_lines(lines: Iterable[str]) -> Iterator[Entry]:
    """The puzzles of a file, one :class:`Entry` per puzzle or other line, in order.

    A puzzle is one line (81 cells for 9x9; text after a ``,`` or ``:`` is ignored, as in the Kaggle
    CSV ``quizzes,solutions`` and tdoku's ``puzzle:count``), or a grid over several lines, one row
    per line, separators allowed. Blank lines, lines starting with ``#`` and a header (a first line
    of letters, such as ``quizzes,solutions``) are kept as entries without a puzzle, so output can
    line up with input.

    Rows become a grid only when they make a whole one. A line of 4, 9 or 25 cells that does not
    is an error of its own, under its own number, and the line that broke the grid off is read
    afresh: a short line never swallows the puzzle after it. Lines end at LF only (a CR inside a
    line is a blank, as a space is), so entries line up with the lines ``wc -l`` counts.

    >>> [e.puzzle for e in read_lines(["# two puzzles", "1...|..3.|.4..|...2", "1 . | . .",
    ...                                ". . | 3 .", "----+----", ". 4 | . .", ". . | . 2"])]
    [None, '1...|..3.|.4..|...2', '1 . | . .\\n. . | 3 .\\n----+----\\n. 4 | . .\\n. . | . 2']
    >>> [(e.line, e.puzzle, e.error and e.error.reason) for e in read_lines(["....", "1...|..3.|.4..|...2"])]
    [(1, None, 'wrong length: 4 cells, but a puzzle has 16, 81, 256 or 625'), (2, '1...|..3.|.4..|...2', None)]
    """
    grid: list[tuple[int, str, int]] = []     # (line, text, cells) of the grid being assembled
    size = rows = 0
    for number, raw in enumerate(lines, 1):
        text = raw.rstrip("\r\n")
        if number == 1:
            text = text.removeprefix("\ufeff")      # a byte-order mark is no cell
        puzzle = text.split(",", 1)[0].split(":", 1)[0].strip()
        if len(puzzle) == 81:                  # the common case first: a 9x9 puzzle on one line
            if grid:
                yield from _broken_grid(grid, size)
                grid = []
            yield Entry(number, text, puzzle)
            continue
        cells = _IGNORED.sub("", puzzle)
        if grid:
            if (len(cells) == size or (not cells and text.strip())) and not text.startswith("#"):
                grid.append((number, text, len(cells)))     # a row, or a separator line
                rows += len(cells) > 0
                if rows == size:
                    joined = "\n".join(t for _, t, _ in grid)
                    yield Entry(grid[0][0], joined, joined)
                    grid = []
                continue
            yield from _broken_grid(grid, size)
            grid = []
        if not cells or text.startswith("#") or (number == 1 and cells.isalpha()):
            yield Entry(number, text, None)    # blank, separator, comment or header: kept
        elif len(cells) in SIZES:              # a whole puzzle on one line
            yield Entry(number, text, puzzle)
        elif len(cells) in _ROW_SIZES:         # perhaps the first row of a grid
            grid, size, rows = [(number, text, len(cells))], len(cells), 1
        else:
            yield Entry(number, text, None, PuzzleError(_wrong_length(len(cells)), line=number))
    if grid:
        yield from _broken_grid(grid, size)


def _broken_grid(grid: list[tuple[int, str, int]], size: int) -> Iterator[Entry]:
    """The lines of a grid that ended too soon, each its own entry: rows are errors, separators
    are kept as they are."""
    rows = sum(1 for _, _, cells in grid if cells)
    if rows == 1:
        reason = _wrong_length(size)
    else:
        reason = f"grid ends after {rows} rows (lines {grid[0][0]}-{grid[-1][0]}), expected {size}"
    for number, text, cells in grid:
        yield Entry(number, text, None, PuzzleError(reason, line=number) if cells else None)


def _wrong_length(cells: int) -> str:
    return f"wrong length: {cells} cells, but a puzzle has 16, 81, 256 or 625"
