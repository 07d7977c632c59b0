"""Where puzzles come from: files, standard input, command-line arguments; lines, grids and CSV.

Every format the ``sudoku`` command reads is read here, and :func:`read_puzzles` offers the same to
Python. One input line (or grid, or CSV row) becomes one :class:`sudoku.grid.Entry`, so the command can answer
each with one line of output, in order.

- Lines: :func:`sudoku.grid.read_lines` (a puzzle per line, grids over several lines, comments,
  blank lines and a header kept).
- CSV with a header: read with the csv module; the column named ``puzzle`` (or ``quizzes``,
  ``quiz``, ``puzzles``, or the one asked for) holds the puzzle; the other fields are kept for the
  output. Jigsaw and killer layouts come from columns ``regions``, ``cages`` and ``sums``.
- Jigsaw and killer without a header: ``puzzle,regions`` and ``puzzle,cages,sums`` per line (an
  empty puzzle field is an empty grid).
- Standard input from a terminal or a pipe is read as it comes (:class:`Stream`), so a line typed
  or written by another program is answered before the next arrives.
"""
from __future__ import annotations

import csv
import io
import itertools
import os
import re
import select
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from .grid import _IGNORED, Entry, PuzzleError, read_lines
from .variants import Variant, jigsaw, killer

#: Column names that hold the puzzle in a CSV file with a header (compared in lower case).
PUZZLE_COLUMNS = ("puzzle", "puzzles", "quizzes", "quiz")


class Stream:
    """The lines of a binary stream that is not a regular file (a terminal, a pipe), read as they
    arrive: :meth:`waiting` says whether another line can be read without waiting for input."""

    def __init__(self, raw) -> None:
        self.raw = raw
        self.fd = raw.fileno()
        self.lines: list[bytes] = []
        self.partial = b""
        self.ended = False

    def _fill(self) -> None:
        while not self.lines and not self.ended:
            data = os.read(self.fd, 1 << 16)
            if not data:
                self.ended = True
                if self.partial:
                    self.lines.append(self.partial)
                    self.partial = b""
                break
            *complete, self.partial = (self.partial + data).split(b"\n")
            self.lines.extend(line + b"\n" for line in complete)
            self.lines.reverse()

    def waiting(self) -> bool:
        if self.lines or self.ended:
            return True
        try:
            return bool(select.select([self.fd], [], [], 0)[0])
        except (OSError, ValueError):
            return True

    def __iter__(self) -> Iterator[str]:
        first = True
        while True:
            self._fill()
            if not self.lines:
                return
            line = self.lines.pop().decode("utf-8", "replace")
            if first:
                line, first = line.removeprefix("\ufeff"), False
            yield line

    def close(self) -> None:
        pass

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_text(name: str) -> io.TextIOBase | Stream:
    """A source's lines: a file, or standard input for ``-`` (as a :class:`Stream` unless it is a
    regular file). Undecodable bytes become U+FFFD, so a bad line is reported as a bad character,
    not a crash; a byte-order mark at the start is dropped; lines end at LF only, as wc -l counts
    them (a lone CR would otherwise split one input line into two outputs)."""
    if name == "-":
        try:
            regular = stat.S_ISREG(os.fstat(sys.stdin.buffer.fileno()).st_mode)
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            regular = True          # a stand-in for stdin (tests): read it as a file
        if not regular:
            return Stream(sys.stdin.buffer)
        return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", errors="replace", newline="\n")
    return open(name, encoding="utf-8-sig", errors="replace", newline="\n")


def looks_like_puzzle(arg: str) -> bool:
    """Whether a command-line argument that names no file is a puzzle: cells and layout only, at
    least 16 cells, most of them digits or dots."""
    cells = _IGNORED.sub("", arg)
    if len(cells) < 16 or not re.fullmatch(r"[.0-9A-Za-z]+", cells):
        return False
    return sum(ch == "." or ch.isdigit() for ch in cells) * 2 > len(cells)


def entries(lines: Iterable[str], *, size: int | None = None, column: str | None = None,
            layout: str | None = None) -> Iterator[Entry]:
    """The :class:`~sudoku.grid.Entry` of every puzzle or kept line of one source, in order. ``size``: the grid's
    N where known (``--box``); ``column``: the CSV column of the puzzles; ``layout``: ``"jigsaw"``
    or ``"killer"`` when each puzzle brings its own."""
    lines = iter(lines)
    first = next(lines, None)
    if first is None:
        return iter(())
    header = _header(first, column)
    if header is None and column is not None:
        raise PuzzleError(f"no column {column!r} in the first line", line=1)
    rest = itertools.chain([first], lines)
    if header is not None:
        return _csv_entries(rest, header, column, layout)
    if layout is not None:
        return _layout_entries(rest, layout)
    return read_lines(rest, size=size)


def _header(line: str, column: str | None) -> list[str] | None:
    """The names of a CSV header line (one that names the puzzle column), else None."""
    if "," not in line and column is None:
        return None
    names = next(csv.reader([line.removeprefix("\ufeff").rstrip("\r\n")]), [])
    wanted = [column.lower()] if column is not None else PUZZLE_COLUMNS
    if any(name.strip().lower() in wanted for name in names):
        return names
    return None


def _csv_entries(lines: Iterator[str], header: list[str], column: str | None,
                 layout: str | None) -> Iterator[Entry]:
    lower = [name.strip().lower() for name in header]
    wanted = [column.lower()] if column is not None else PUZZLE_COLUMNS
    at = next(k for k, name in enumerate(lower) if name in wanted)
    places = [lower.index(name) if name in lower else None for name in ("regions", "cages", "sums")]
    tape = _Tape(lines)
    reader = csv.reader(tape)
    start = 1
    for fields in reader:
        text = "\n".join(tape.taken)
        tape.taken.clear()
        yield _csv_entry(start, text, fields, at, header, places, layout)
        start = reader.line_num + 1


def _csv_entry(line: int, text: str, fields: list[str], at: int, header: list[str], places: list,
               layout: str | None) -> Entry:
    if line == 1 or not "".join(fields).strip() or fields[0].startswith("#"):
        return Entry(line, text, None, None, fields)      # the header, a blank line or a comment: kept
    if len(fields) <= at:
        return Entry(line, text, None, PuzzleError(f"{len(fields)} fields, no {header[at]!r}", line=line), fields)
    try:
        variant = _variant(layout, *(fields[k] if k is not None and k < len(fields) else None for k in places))
    except PuzzleError as e:
        return Entry(line, text, None, PuzzleError(e.reason, line=line), fields)
    return Entry(line, text, fields[at].strip() or _blank(variant), None, fields, variant)


class _Tape:
    """Lines passed on to the csv module, those of the row being read kept (the row's text)."""

    def __init__(self, lines: Iterator[str]) -> None:
        self.lines = lines
        self.taken: list[str] = []

    def __iter__(self) -> _Tape:
        return self

    def __next__(self) -> str:
        line = next(self.lines)
        self.taken.append(line.rstrip("\r\n"))
        return line


def _layout_entries(lines: Iterator[str], layout: str) -> Iterator[Entry]:
    for number, raw in enumerate(lines, 1):
        text = raw.rstrip("\r\n")
        if not text.strip() or text.startswith("#"):
            yield Entry(number, text, None)
            continue
        fields = next(csv.reader([text])) + [None, None]
        try:
            variant = _variant(layout, fields[1], fields[1], fields[2])
        except PuzzleError as e:
            yield Entry(number, text, None, PuzzleError(e.reason, line=number))
            continue
        yield Entry(number, text, fields[0].strip() or _blank(variant), None, None, variant)


def _variant(layout: str | None, regions: str | None, cages: str | None, sums: str | None) -> Variant | None:
    if layout == "jigsaw":
        if not regions:
            raise PuzzleError("no regions: a jigsaw puzzle is given as puzzle,regions")
        return jigsaw(regions)
    if layout == "killer":
        if not cages or not sums:
            raise PuzzleError("no cages or sums: a killer puzzle is given as puzzle,cages,sums")
        return killer(cages, sums)
    return None


def _blank(variant: Variant | None) -> str:
    """An empty grid of the layout's size, for a jigsaw or killer line without givens."""
    return "" if variant is None else "." * variant.cells


def read_puzzles(source, *, column: str | None = None, box=None) -> Iterator[str]:
    """The puzzles of a file (a path, or an open text file, or any iterable of lines), in order,
    in every format the ``sudoku`` command reads: a puzzle per line, grids over several lines,
    comments, blank lines, a header, CSV with a ``puzzle`` or ``quizzes`` column (or ``column``).
    A line that holds no puzzle is skipped; one that cannot be read raises :class:`PuzzleError`
    with its line number. ``box`` (such as ``"2x3"``) says which lines are rows of a grid.

    >>> list(read_puzzles(["id,puzzle", "1,1...|..3.|.4..|...2", "# a comment"]))
    ['1...|..3.|.4..|...2']
    """
    from .grid import parse_box
    size = None
    if box is not None:
        rows, cols = parse_box(box)
        size = rows * cols
    if isinstance(source, (str, Path)):
        with open(source, encoding="utf-8-sig", errors="replace", newline="\n") as f:
            yield from read_puzzles(f, column=column, box=box)
        return
    for entry in entries(source, size=size, column=column):
        if entry.error is not None:
            raise entry.error
        if entry.puzzle is not None:
            yield entry.puzzle
