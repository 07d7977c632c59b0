"""Where puzzles come from: files, standard input, command-line arguments; lines, grids and CSV.

Every format the ``sudoku`` command reads is read here, and [`read_puzzles`][sudoku.files.read_puzzles]
offers the same to Python. One input line (or grid, or CSV row) becomes one
[`Entry`][sudoku.files.Entry], so the command can answer each with one line of output, in order.

- Lines: [`read_lines`][sudoku.files.read_lines] (a puzzle per line, grids over several lines, comments, blank lines
  and a header kept).
- CSV with a header: read with the csv module; the column named ``puzzle`` (or ``quizzes``,
  ``quiz``, ``puzzles``, or the one asked for) holds the puzzle; the other fields are kept for the
  output. Jigsaw and killer layouts come from columns ``regions``, ``cages`` and ``sums``.
- Jigsaw and killer without a header: ``puzzle,regions`` and ``puzzle,cages,sums`` per line (an
  empty puzzle field is an empty grid).
- Standard input from a terminal or a pipe is read as it comes (`Stream`), so a line typed
  or written by another program is answered before the next arrives; there the rows of a grid
  must come together (`GRID_PAUSE`).
- A first line of names without a puzzle column is a `ColumnError` (a usage error).
"""
from __future__ import annotations

import codecs
import csv
import errno
import io
import itertools
import os
import re
import select
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from .grid import APART, IGNORED, NUL_LINE, Box, PuzzleError, Shape, grid_size, wrong_length
from .variants import Variant, jigsaw, killer

#: Column names that hold the puzzle in a CSV file with a header (compared in lower case).
PUZZLE_COLUMNS = ("puzzle", "puzzles", "quizzes", "quiz")
#: A first line of letters that names no puzzle column: a typo or a title, not a header to keep.
NOT_A_HEADER = (f"neither a puzzle nor a header naming the puzzle column ({', '.join(PUZZLE_COLUMNS)}); "
                "a comment starts with #")
#: Seconds a grid over several lines may pause between its rows when read from a terminal or a
#: pipe. A line is a one-line puzzle when its length makes a whole grid (81 cells, 16, 36, ...),
#: otherwise the first row of a grid; but a program that writes one line and waits for the answer
#: must get it, so from a stream the rows of a grid must come together: when no more input comes
#: within this pause, the grid ends there and its lines are answered as they are.
GRID_PAUSE = 0.05


class ColumnError(PuzzleError):
    """A CSV file whose header names no puzzle column, or not the one asked for: a usage error."""


class Stream:
    """The lines of a binary stream that is not a regular file (a terminal, a pipe), read as they
    arrive: `waiting` says whether another line can be read without waiting for input."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.fd = raw.fileno()
        self.lines: list[str] = []
        self.partial = ""
        self.ended = False
        self.decoder: codecs.IncrementalDecoder | None = None    # chosen by the first bytes

    def _fill(self) -> None:
        while not self.lines and not self.ended:
            data = os.read(self.fd, 1 << 16)
            if self.decoder is None:
                self.decoder = codecs.getincrementaldecoder(encoding_of(data[:4]))("replace")
            text = self.decoder.decode(data, final=not data)
            if not data:
                self.ended = True
                if self.partial + text:
                    self.lines.append(self.partial + text)
                    self.partial = ""
                break
            *complete, self.partial = (self.partial + text).split("\n")
            self.lines.extend(line + "\n" for line in complete)
            self.lines.reverse()

    def waiting(self, timeout: float = 0.0) -> bool:
        """Whether a line can be read now, or within ``timeout`` seconds."""
        if self.lines or self.ended:
            return True
        try:
            return bool(select.select([self.fd], [], [], timeout)[0])
        except (OSError, ValueError):
            return True

    def __iter__(self) -> Iterator[str]:
        first = True
        while True:
            self._fill()
            if not self.lines:
                return
            line = self.lines.pop()
            if first:
                line, first = line.removeprefix("\ufeff"), False
            yield line

    def close(self) -> None:
        pass

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Entry(NamedTuple):
    """One puzzle (or other line) of a file, as [`read_lines`][sudoku.files.read_lines] finds it."""

    line: int             # where it starts (1-based)
    text: str             # the line as read, or the lines of a grid joined by newlines
    puzzle: str | None    # the puzzle's text; None for a line that holds no puzzle
    error: PuzzleError | None = None
    fields: list | None = None      # a CSV row's fields (for a header, the names)
    variant: Variant | None = None  # the puzzle's own layout (a jigsaw's regions, a killer's cages)


def read_lines(lines: Iterable[str], *, size: int | None = None,
               more: Callable[[], bool] | None = None) -> Iterator[Entry]:
    """The puzzles of a file, one [`Entry`][sudoku.files.Entry] per puzzle or other line, in order.

    A puzzle is one line (81 cells for 9x9; text after a ``,`` or ``:`` is ignored, as in the Kaggle
    CSV ``quizzes,solutions`` and tdoku's ``puzzle:count``), or a grid over several lines, one row
    per line, separators allowed. Blank lines, lines starting with ``#`` and a header (a first line
    of names, one of them a puzzle column such as ``quizzes``, unless it is as long as a puzzle) are
    kept as entries without a puzzle, so output can line up with input; a first line of other
    letters is an error.

    A line of 16 cells is a whole 4x4 puzzle, unless ``size`` is 16 or its cells stand apart as
    [`sudoku.grid.pretty`][sudoku.grid.pretty] writes them: then it is the first row of a 16x16 grid (and when no
    grid follows, each line is read as a 4x4 puzzle after all); so for 36 cells (6x6 or a row of
    36x36). ``size`` (the N of an N x N grid) says which lines are rows where the length alone does
    not.

    Rows become a grid only when they make a whole one. A row that does not is an error of its
    own, under its own number, and the line that broke the grid off is read afresh: a short line
    never swallows the puzzle after it. Lines end at LF only (a CR inside a line is a blank, as a
    space is), so entries line up with the lines ``wc -l`` counts. ``more()``, when given, says
    whether another line comes soon (within `GRID_PAUSE` from a stream): when none does, a
    grid begun ends there, so a program that writes one line and waits gets its answer.

    Examples:
        >>> entries = read_lines(["# two puzzles", "1...|..3.|.4..|...2", "1 . | . .", ". . | 3 .",
        ...                       "----+----", ". 4 | . .", ". . | . 2"])
        >>> puzzles = [e.puzzle for e in entries]
        >>> puzzles
        [None, '1...|..3.|.4..|...2', '1 . | . .\\n. . | 3 .\\n----+----\\n. 4 | . .\\n. . | . 2']
        >>> found = read_lines(["....", "1...|..3.|.4..|...2"])
        >>> [(e.line, e.puzzle, e.error and e.error.reason) for e in found]
        [(1, None, 'wrong length: 4 cells; a puzzle has N*N (16 for 4x4, ...)'), (2, '1...|..3.|.4..|...2', None)]
    """
    grid: list[tuple[int, str, int]] = []     # (line, text, cells) of the grid being assembled
    rows = width = 0
    for number, raw in enumerate(lines, 1):
        text = raw.rstrip("\r\n")
        if number == 1:
            text = text.removeprefix("\ufeff")      # a byte-order mark is no cell
        if "\0" in text:
            if grid:
                yield from _broken_grid(grid, width)
                grid = []
            yield Entry(number, text, None, PuzzleError(NUL_LINE, line=number))
            continue
        puzzle = text.split(",", 1)[0].split(":", 1)[0].strip()
        if len(puzzle) == 81 and not grid:     # the common case first: a 9x9 puzzle on one line
            yield Entry(number, text, puzzle)
            continue
        cells = IGNORED.sub("", puzzle)
        if grid:
            if (len(cells) == width or (not cells and text.strip())) and not text.startswith("#"):
                grid.append((number, text, len(cells)))     # a row, or a separator line
                rows += len(cells) > 0
                if rows == width:
                    joined = "\n".join(t for _, t, _ in grid)
                    yield Entry(grid[0][0], joined, joined)
                    grid = []
                elif more is not None and not more():
                    yield from _broken_grid(grid, width)
                    grid = []
                continue
            yield from _broken_grid(grid, width)
            grid = []
        n = len(cells)
        if not cells or text.startswith("#") or (number == 1 and _names_puzzles(text) and not grid_size(n)):
            yield Entry(number, text, None)    # blank, separator, comment or header: kept
        elif number == 1 and cells.isalpha() and not grid_size(n):
            yield Entry(number, text, None, PuzzleError(NOT_A_HEADER, line=number))
        elif _is_row(n, size, puzzle):         # perhaps the first row of a grid
            grid, width, rows = [(number, text, n)], n, 1
            if more is not None and not more():
                yield from _broken_grid(grid, width)
                grid = []
        elif grid_size(n):                     # a whole puzzle on one line
            yield Entry(number, text, puzzle)
        else:
            yield Entry(number, text, None, PuzzleError(wrong_length(n), line=number))
    if grid:
        yield from _broken_grid(grid, width)


def _is_row(cells: int, size: int | None, text: str) -> bool:
    """Whether a line of ``cells`` cells begins a grid over several lines. A line that could be a whole
    puzzle (16 cells: 4x4) is one, unless its cells stand apart as
    [`sudoku.grid.pretty`][sudoku.grid.pretty] writes a row (a 16x16 grid's first row)."""
    if size is not None:
        return cells == size
    if grid_size(cells * cells) is None:
        return False
    return grid_size(cells) is None or all(len(t) == 1 for t in APART.split(text.strip()))


def _broken_grid(grid: list[tuple[int, str, int]], width: int) -> Iterator[Entry]:
    """The lines of a grid that ended too soon, each its own entry: whole puzzles stay puzzles,
    rows are errors, separators are kept as they are."""
    rows = sum(1 for _, _, cells in grid if cells)
    if rows == 1:
        reason = wrong_length(width)
    else:
        reason = f"grid ends after {rows} rows (lines {grid[0][0]}-{grid[-1][0]}), expected {width}"
    for number, text, cells in grid:
        if cells and grid_size(cells):
            yield Entry(number, text, text.split(",", 1)[0].split(":", 1)[0].strip())
        else:
            yield Entry(number, text, None, PuzzleError(reason, line=number) if cells else None)


def open_text(name: str) -> io.TextIOBase | Stream:
    """A source's lines: a file, or standard input for ``-`` (as a `Stream` unless it is a
    regular file). Undecodable bytes become U+FFFD, so a bad line is reported as a bad character,
    not a crash; a byte-order mark at the start is dropped; lines end at LF only, as wc -l counts
    them (a lone CR would otherwise split one input line into two outputs). A file (or redirected
    input) in UTF-16, with a byte-order mark or with every other byte NUL, is read as UTF-16."""
    if name == "-":
        if sys.stdin is None:
            raise OSError(errno.EBADF, "standard input is closed")
        try:
            fd = sys.stdin.buffer.fileno()
            regular = stat.S_ISREG(os.fstat(fd).st_mode)
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            # a stand-in for stdin (tests): read it as a file
            return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", errors="replace", newline="\n")
        if not regular:
            return Stream(sys.stdin.buffer)
        # closing this leaves standard input open: `-` may come again (and reads on where it stopped)
        head = os.pread(fd, 4, os.lseek(fd, 0, os.SEEK_CUR))
        return open(fd, encoding=encoding_of(head), errors="replace", newline="\n", closefd=False)
    with open(name, "rb") as f:
        head = f.read(4)
    return open(name, encoding=encoding_of(head), errors="replace", newline="\n")


def encoding_of(head: bytes) -> str:
    """The encoding of a text whose first bytes are ``head``: UTF-16 when it starts with UTF-16's
    byte-order mark or looks like ASCII in UTF-16 (a NUL byte in every other place), else UTF-8
    (its byte-order mark dropped). Python's UTF-16 codec reads and drops the mark."""
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf-16"
    if len(head) >= 4 and head[1] == head[3] == 0 and head[0] and head[2]:
        return "utf-16-le"
    if len(head) >= 4 and head[0] == head[2] == 0 and head[1] and head[3]:
        return "utf-16-be"
    return "utf-8-sig"


def looks_like_puzzle(arg: str, layout: str | None = None) -> bool:
    """Whether a command-line argument that names no file is a puzzle: cells and layout only, most
    of them digits or dots, and at least 16 unless all are (``1.3`` is a puzzle of a wrong length,
    ``a.txt`` a file that is not there). With a ``layout`` ("jigsaw", "killer") a puzzle brings its
    regions or cages after a comma, and its cells may be blank."""
    if layout is not None and "," in arg:
        cells = arg.split(",", 1)[0]
        return not cells.strip() or looks_like_puzzle(cells)
    cells = IGNORED.sub("", arg)
    if not re.fullmatch(r"[.0-9A-Za-z]+", cells) or (len(cells) < 16 and not re.fullmatch(r"[.0-9]+", cells)):
        return False
    return sum(ch == "." or ch.isdigit() for ch in cells) * 2 > len(cells)


def entries(lines: Iterable[str], *, size: int | None = None, column: str | None = None,
            layout: str | None = None, more: Callable[[], bool] | None = None) -> Iterator[Entry]:
    """The [`Entry`][sudoku.files.Entry] of every puzzle or kept line of one source, in order. ``size``: the grid's
    N where known (``--box``); ``column``: the CSV column of the puzzles; ``layout``: ``"jigsaw"``
    or ``"killer"`` when each puzzle brings its own; ``more()``: whether another line comes within
    `GRID_PAUSE` (a stream; see [`read_lines`][sudoku.files.read_lines]). A `ColumnError` when the first
    line is a CSV header without the puzzle column."""
    lines = iter(lines)
    first = next(lines, None)
    if first is None:
        return iter(())
    header = _header(first, column)
    if header is None and (column is not None or _names_only(first)):
        names = ", ".join(repr(name.strip()) for name in _fields(first)) or "none"
        columns = ", ".join(PUZZLE_COLUMNS)
        asked = f"no column {column!r}" if column is not None else f"no puzzle column ({columns})"
        raise ColumnError(f"{asked} in the CSV header; its columns: {names}. Say which holds the puzzles "
                          "with --column NAME", line=1)
    rest = itertools.chain([first], lines)
    if header is not None:
        return _csv_entries(rest, header, column, layout)
    if layout is not None:
        return _layout_entries(rest, layout)
    return read_lines(rest, size=size, more=more)


def _names_puzzles(line: str) -> bool:
    """Whether a first line of names names a puzzle column (a header such as ``quizzes``)."""
    return any(name.strip().strip('"').lower() in PUZZLE_COLUMNS for name in line.split(","))


def _fields(line: str) -> list[str]:
    try:
        return next(csv.reader([line.removeprefix("\ufeff").rstrip("\r\n")]), [])
    except csv.Error:
        return []


def _names_only(line: str) -> bool:
    """Whether a first line is a CSV header: two or more fields, each a name (letters, digits,
    ``_``, spaces), none a puzzle, not a comment."""
    fields = _fields(line)
    return (len(fields) > 1 and not line.startswith("#")
            and all(re.fullmatch(r"[A-Za-z_][\w ]*", f.strip()) and not looks_like_puzzle(f) for f in fields))


def _header(line: str, column: str | None) -> list[str] | None:
    """The names of a CSV header line (one that names the puzzle column), else None."""
    if "," not in line and column is None:
        return None
    names = _fields(line)              # a bare CR: no fields, the line is read as a puzzle line
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
    first = next(lines)
    yield Entry(1, first.removeprefix("\ufeff").rstrip("\r\n"), None, None, header)
    for line, text, fields, error in rows(lines, len(header), start=2):
        yield _csv_entry(line, text, fields, error, at, header, places, layout)


def _csv_entry(line: int, text: str, fields: list[str], error: PuzzleError | None, at: int,
               header: list[str], places: list, layout: str | None) -> Entry:
    width = len(fields)
    if error is None and width == len(header) and layout is None and fields[at].strip() and fields[0][:1] != "#":
        return Entry(line, text, fields[at].strip(), None, fields)      # the common case first
    if error is not None:
        return Entry(line, text, None, error, _aligned(fields, len(header)))
    if not "".join(fields).strip() or fields[0].startswith("#"):
        return Entry(line, text, None, None, fields)      # a blank line or a comment: kept
    out = _aligned(fields, len(header))
    if len(fields) > len(header):
        return Entry(line, text, None, PuzzleError(
            f"{len(fields)} fields, but the header has {len(header)} (a comma that should be quoted?)",
            line=line), out)
    if len(fields) <= at:
        return Entry(line, text, None, PuzzleError(f"{len(fields)} fields, no {header[at]!r}", line=line), out)
    try:
        variant = _variant(layout, *(fields[k] if k is not None and k < len(fields) else None for k in places))
    except PuzzleError as e:
        return Entry(line, text, None, PuzzleError(e.reason, line=line), out)
    return Entry(line, text, fields[at].strip() or _blank(variant), None, out, variant)


def _aligned(fields: list[str], width: int) -> list[str]:
    """A row's fields as ``width`` columns under the header: short rows padded with empty fields,
    the fields past the last column joined back into it with the commas between them, so that
    the answer's columns line up and nothing is dropped."""
    if len(fields) <= width:
        return fields + [""] * (width - len(fields))
    return fields[:width - 1] + [",".join(fields[width - 1:])]


#: A quoted field may run over several lines; a quote still open after this many lines (or this
#: many characters, the csv module's field limit) or at the end of the input was never closed.
ROW_LINES = 100

_START, _FIELD, _QUOTED, _QUOTE = range(4)


def rows(lines: Iterable[str], width: int, *,
         start: int = 1) -> Iterator[tuple[int, str, list[str], PuzzleError | None]]:
    """The CSV rows of some lines as ``(line, text, fields, error)``, in order. ``error`` is a
    [`PuzzleError`][sudoku.grid.PuzzleError] for a row the csv module cannot read: a bare CR in an unquoted
    field, a field longer than its limit, or a quote that is never closed; the fields are then
    split leniently (a CR is a character, a quote runs to the line's end), to be echoed. Such a
    row is one line, reported under its number, and reading goes on at the next line, so one bad
    row never takes the rows after it along. A row that runs over several lines (a quoted field
    holding line breaks) is taken as one only when its quote closes within ``ROW_LINES`` lines and
    it has the ``width`` of the header; otherwise its first line is the error. Cost: the csv module
    per row, plus a pass over the characters of the lines that hold a quote."""
    lines = iter(lines)
    again: list[tuple[int, str]] = []           # lines to read afresh after an unclosed quote, reversed
    number = start - 1

    def next_line() -> tuple[int, str] | None:
        nonlocal number
        if again:
            return again.pop()
        raw = next(lines, None)
        if raw is None:
            return None
        number += 1
        return number, raw

    limit = csv.field_size_limit()
    feed = _Feed()
    reader = csv.reader(feed)
    while (first := next_line()) is not None:
        line, raw = first
        record = [raw]
        text = raw.rstrip("\r\n")
        quoted = '"' in text and _still_quoted(text, False)
        size = len(text)
        while quoted and len(record) < ROW_LINES and size <= limit:
            more = next_line()
            if more is None:
                break
            record.append(more[1])
            more_text = more[1].rstrip("\r\n")
            size += len(more_text)
            quoted = _still_quoted(more_text, True)
        if quoted or len(record) > 1 and _width(record) != width:
            again.extend(reversed([(line + k, r) for k, r in enumerate(record[1:], 1)]))
            yield line, text, _split(text), _unclosed(line)
            continue
        joined = text if len(record) == 1 else "\n".join(r.rstrip("\r\n") for r in record)
        feed.lines.extend(record)
        try:
            fields = next(reader, [])
        except csv.Error as e:
            feed.lines.clear()
            reader = csv.reader(feed)       # what it had read of the row is dropped with it
            yield line, joined, _split(joined), PuzzleError(_csv_reason(e, limit), line=line)
            continue
        yield line, joined, fields, None


class _Feed:
    """The lines of one row at a time for one csv reader (a reader per row costs more than the
    row): the reader stops at the row's end, so the lines given are the lines read."""

    def __init__(self) -> None:
        self.lines: deque[str] = deque()

    def __iter__(self) -> _Feed:
        return self

    def __next__(self) -> str:
        if not self.lines:
            raise StopIteration
        return self.lines.popleft()


def _still_quoted(text: str, quoted: bool) -> bool:
    """Whether a CSV row is inside a quoted field at the end of ``text`` (one line, its end cut
    off), ``quoted`` telling whether it was at the start; the csv module's rules, not strict."""
    state = _QUOTED if quoted else _START
    for ch in text:
        if state == _QUOTED:
            if ch == '"':
                state = _QUOTE
        elif ch == ",":
            state = _START
        elif state == _START:
            state = _QUOTED if ch == '"' else _FIELD
        elif state == _QUOTE:
            state = _QUOTED if ch == '"' else _FIELD
    return state == _QUOTED


def _width(record: list[str]) -> int:
    try:
        return len(next(csv.reader(record), []))
    except csv.Error:
        return -1


def _split(text: str) -> list[str]:
    """The fields of one row as the csv module splits them (not strict), but with no limit on a
    field's length and a CR taken as any other character: for rows it refuses, to echo them."""
    fields, field, state = [], [], _START
    for ch in text:
        if state == _QUOTED:
            if ch == '"':
                state = _QUOTE
            else:
                field.append(ch)
        elif ch == ",":
            fields.append("".join(field))
            field, state = [], _START
        elif state == _START and ch == '"':
            state = _QUOTED
        else:
            field.append(ch)
            state = _QUOTED if state == _QUOTE and ch == '"' else _FIELD
    fields.append("".join(field))
    return fields


def _unclosed(line: int) -> PuzzleError:
    return PuzzleError(f"a quote opened on this line is not closed (a quoted field may run over {ROW_LINES} "
                       "lines at most, the row keeping the header's number of fields)", line=line)


def _csv_reason(error: csv.Error, limit: int) -> str:
    message = str(error)
    if "new-line" in message:
        return "a carriage return (CR) inside a field that is not quoted"
    if "NUL" in message:
        return NUL_LINE
    if "field larger than field limit" in message:
        return f"a field longer than {limit:,} characters"
    return f"not CSV: {message}"


def _layout_entries(lines: Iterator[str], layout: str) -> Iterator[Entry]:
    for number, raw in enumerate(lines, 1):
        text = raw.rstrip("\r\n")
        if not text.strip() or text.startswith("#"):
            yield Entry(number, text, None)
            continue
        try:
            fields: list[str | None] = [*next(csv.reader([text])), None, None]
        except csv.Error as e:
            yield Entry(number, text, None, PuzzleError(_csv_reason(e, csv.field_size_limit()), line=number))
            continue
        try:
            variant = _variant(layout, fields[1], fields[1], fields[2])
        except PuzzleError as e:
            yield Entry(number, text, None, PuzzleError(e.reason, line=number))
            continue
        yield Entry(number, text, str(fields[0]).strip() or _blank(variant), None, None, variant)


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


def read_puzzles(source: Any, *, column: str | None = None, box: Box = None) -> Iterator[str]:
    """The puzzles of a file (a path, or an open text file, or any iterable of lines), in order,
    in every format the ``sudoku`` command reads: a puzzle per line, grids over several lines,
    comments, blank lines, a header, CSV with a ``puzzle`` or ``quizzes`` column (or ``column``).
    A line that holds no puzzle is skipped; one that cannot be read raises [`PuzzleError`][sudoku.PuzzleError]
    with its line number. ``box`` (such as ``"2x3"``) says which lines are rows of a grid.

    Examples:
        >>> list(read_puzzles(["id,puzzle", "1,1...|..3.|.4..|...2", "# a comment"]))
        ['1...|..3.|.4..|...2']
    """
    size = None if box is None else Shape.boxed(box).size
    if isinstance(source, (str, Path)):
        with open(source, encoding="utf-8-sig", errors="replace", newline="\n") as f:
            yield from read_puzzles(f, column=column, box=box)
        return
    for entry in entries(source, size=size, column=column):
        if entry.error is not None:
            raise entry.error
        if entry.puzzle is not None:
            yield entry.puzzle
