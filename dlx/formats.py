"""Knuth's DLX text format.

A line whose first non-blank character is ``|`` is a comment, and blank lines are skipped. The first
other line names the primary items, then ``|``, then the secondary items (if any). Every further line
is one option: the names of its items, separated by blanks. This is the input of Knuth's DLX1.

Knuth's later programs extend the format: DLX2 gives a secondary item a colour in an option
(``item:colour``) and DLX3 gives a primary item multiplicities in the item line (``lo:hi|item`` or
``hi|item``). Both are recognised and, until their engines exist, refused with a message that says
so; ``:`` is therefore not allowed in item names (Knuth forbids it too). A UTF-8 byte-order mark at
the start is skipped.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import secrets
import sys
from collections.abc import Iterable, Iterator
from typing import IO

from . import __version__
from .model import (
    ExactCover,
    ProblemError,
    declare_items,
    encode_option,
    first_repeat,
)


def read_dlx(source: str | bytes | os.PathLike | IO) -> ExactCover:
    """Read a problem in Knuth's DLX format from a path, ``"-"`` (standard input) or an open file
    (text or binary).

    >>> import io
    >>> ec = read_dlx(io.StringIO("| a comment\\na b c | x\\na x\\nb c\\na b c\\n"))
    >>> ec
    ExactCover(4 items (3 primary, 1 secondary), 3 options)
    >>> ec.option(0)
    ('a', 'x')

    Every malformed line is a ProblemError naming the file and the line. Lines end at LF, from
    every source, as in Knuth's programs: a CR is a blank (a text file's newline setting is made
    ``"\\n"`` to that end; one already read from that split a line at a CR is refused).
    """
    if isinstance(source, str) and source == "-":
        source = getattr(sys.stdin, "buffer", sys.stdin)
        return _read_file(source, "<stdin>")
    if isinstance(source, (str, bytes, os.PathLike)):
        name = os.fsdecode(source)
        try:
            with open(source, "rb") as f:
                return _parse(_numbered_lines(f, name), name)
        except ProblemError:
            raise
        except (OSError, ValueError) as e:      # ValueError: a NUL in the path
            shown = name.replace("\0", "\\0")
            raise ProblemError(f"{shown}: cannot read: {getattr(e, 'strerror', None) or e}") from e
    return _read_file(source, str(getattr(source, "name", "<input>")))


def _read_file(source: IO, name: str) -> ExactCover:
    reconfigure = getattr(source, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(newline="\n")      # no universal newlines: a CR is a blank, not a line end
        except (io.UnsupportedOperation, ValueError):
            pass                            # already read from: checked below
    try:
        problem = _parse(_numbered_lines(source, name), name)
    except ProblemError:
        _refuse_lines_split_at_cr(source, name)
        raise
    _refuse_lines_split_at_cr(source, name)
    return problem


def _refuse_lines_split_at_cr(source: IO, name: str) -> None:
    seen = getattr(source, "newlines", None)        # what universal newlines turned into LF
    if seen == "\r" or (isinstance(seen, tuple) and "\r" in seen):
        raise ProblemError(f"{name}: a bare carriage return (CR) ended a line, which Knuth's format "
                           "reads as a blank: pass the path, or open the file in binary mode or with "
                           "newline='\\n'")


_MULTIPLICITY = re.compile(r"(\d+:)?\d+\|.")     # DLX3's lo:hi|item or hi|item
_BOM = "\ufeff"


def _numbered_lines(lines: Iterable[str | bytes], name: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(lines, 1):
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as e:
                raise ProblemError(f"{name}, line {number}: not UTF-8 text ({e.reason} at byte {e.start})",
                                   line=number) from None
        if number == 1 and line.startswith(_BOM):
            line = line[1:]
        yield number, line


def _content(numbered: Iterator[tuple[int, str]]) -> Iterator[tuple[int, list[str]]]:
    """(line number, tokens) of every line that is neither blank nor a comment."""
    for number, line in numbered:
        tokens = line.split()
        if tokens and not tokens[0].startswith("|"):
            yield number, tokens


def _parse(numbered: Iterator[tuple[int, str]], name: str) -> ExactCover:
    lines = _content(numbered)
    header = next(lines, None)
    if header is None:
        raise ProblemError(f"{name}: no item line (the file has only comments and blank lines)")
    number, tokens = header
    where = f"{name}, line {number}"
    primary, secondary = _split_items(tokens, where, number)
    items = declare_items(primary, secondary, where, number)
    index = {item: i for i, item in enumerate(items)}
    n_primary = len(primary)
    start, ids = [0], []
    for number, tokens in lines:
        where = f"{name}, line {number}"
        coloured = next((t for t in tokens if ":" in t), None)
        if coloured is not None:
            raise ProblemError(f"{where}: {coloured!r} gives an item a colour (DLX2's item:colour); "
                               "colours are not supported yet", line=number)
        ids.extend(encode_option(tokens, index, n_primary, where, number))
        start.append(len(ids))
    return ExactCover._from_ids(items, n_primary, start, ids)


def _split_items(tokens: list[str], where: str, line: int) -> tuple[list[str], list[str]]:
    bounded = next((t for t in tokens if _MULTIPLICITY.match(t)), None)
    if bounded is not None:
        raise ProblemError(f"{where}: {bounded!r} gives an item multiplicities (DLX3's lo:hi|item); "
                           "multiplicities are not supported yet", line=line)
    if tokens.count("|") > 1:
        raise ProblemError(f"{where}: the item line contains '|' more than once", line=line)
    bad = next((t for t in tokens if "|" in t and t != "|"), None)
    if bad is not None:
        raise ProblemError(f"{where}: item name {bad!r} contains '|' (separate it with blanks)", line=line)
    bad = next((t for t in tokens if ":" in t), None)
    if bad is not None:
        raise ProblemError(f"{where}: item name {bad!r} contains ':' (Knuth's format keeps ':' for "
                           "colours)", line=line)
    if "|" in tokens:
        cut = tokens.index("|")
        return tokens[:cut], tokens[cut + 1:]
    return tokens, []


def write_dlx(problem: ExactCover, target: str | bytes | os.PathLike | IO) -> str | bytes | os.PathLike | IO:
    """Write ``problem`` in Knuth's DLX format to a path or an open text file; returns ``target``,
    so ``read_dlx(write_dlx(problem, path))`` reads the same problem back.

    Item names are written with ``str``; a name that is empty, contains a blank, ``|`` or ``:``,
    cannot be written in UTF-8, or looks like another item's name is a ProblemError, raised before
    anything is written. A path is written whole or not at all (to a temporary file beside it, then
    renamed); an open file gets one ``write`` of the whole text. An option without a primary item
    (from a matrix) has no line of its own: it is written as a comment, so the file numbers its
    options without it.

    >>> import io
    >>> out = io.StringIO()
    >>> _ = write_dlx(ExactCover([["a", "x"], ["b"]], secondary=["x"]), out)
    >>> print(out.getvalue(), end="")
    | dlx ... 2 items and 1 secondary, 2 options
    a b | x
    a x
    b
    """
    text = _dlx_text(problem)
    if not isinstance(target, (str, bytes, os.PathLike)):
        target.write(text)
        return target
    path = os.fsdecode(target)
    partial = f"{path}.{secrets.token_hex(4)}.partial"
    try:
        with open(partial, "x", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(partial)
        raise
    return target


def _dlx_text(problem: ExactCover) -> str:
    names = [str(item) for item in problem.items]
    _check_names(names, problem.items)
    primary, secondary = names[:problem.n_primary], names[problem.n_primary:]
    header = (f"| dlx {__version__}: {len(primary)} items and {len(secondary)} secondary, "
              f"{problem.n_options} options\n")
    lines = [header,
             " ".join(primary + (["|", *secondary] if secondary else [])) + "\n"]
    start, ids = problem.option_start, problem.option_items
    for k in range(problem.n_options):
        option = ids[start[k]:start[k + 1]]
        text = " ".join(names[i] for i in option)
        if option.size and option.min() < problem.n_primary:
            lines.append(text + "\n")
        else:
            lines.append(f"| option {k} left out (no primary item): {text or '(empty)'}\n")
    return "".join(lines)


def _check_names(names: list[str], items: tuple) -> None:
    for name, item in zip(names, items):
        if not name or name.split() != [name] or "|" in name or ":" in name:
            raise ProblemError(f"item {item!r} cannot be written in DLX format: a name must be "
                               "non-empty, without blanks, '|' or ':'")
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            raise ProblemError(f"item {item!r} cannot be written in UTF-8 (it holds a lone surrogate)") from None
    twice = first_repeat(names)
    if twice is not None:
        raise ProblemError(f"two items are both written {twice!r} in DLX format")
