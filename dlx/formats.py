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

import os
import re
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


def read_dlx(source: str | os.PathLike | IO) -> ExactCover:
    """Read a problem in Knuth's DLX format from a path, ``"-"`` (standard input) or an open file
    (text or binary).

    >>> import io
    >>> ec = read_dlx(io.StringIO("| a comment\\na b c | x\\na x\\nb c\\na b c\\n"))
    >>> ec
    ExactCover(4 items (3 primary, 1 secondary), 3 options)
    >>> ec.option(0)
    ('a', 'x')

    Every malformed line is a ProblemError naming the file and the line.
    """
    if source == "-":
        source = getattr(sys.stdin, "buffer", sys.stdin)
        return _parse(_numbered_lines(source, "<stdin>"), "<stdin>")
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        try:
            with open(source, "rb") as f:
                return _parse(_numbered_lines(f, name), name)
        except OSError as e:
            raise ProblemError(f"{name}: cannot read: {e.strerror or e}") from e
    name = getattr(source, "name", "<input>")
    return _parse(_numbered_lines(source, str(name)), str(name))


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


def write_dlx(problem: ExactCover, target: str | os.PathLike | IO) -> str | os.PathLike | IO:
    """Write ``problem`` in Knuth's DLX format to a path or an open text file; returns ``target``,
    so ``read_dlx(write_dlx(problem, path))`` reads the same problem back.

    Item names are written with ``str``; a name that is empty, contains a blank, ``|`` or ``:``,
    or looks like another item's name is a ProblemError. An option without a primary item (from a
    matrix) has no line of its own: it is written as a comment, so the file numbers its options
    without it.

    >>> import io
    >>> out = io.StringIO()
    >>> _ = write_dlx(ExactCover([["a", "x"], ["b"]], secondary=["x"]), out)
    >>> print(out.getvalue(), end="")
    | dlx ... 2 items and 1 secondary, 2 options
    a b | x
    a x
    b
    """
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
    if isinstance(target, (str, os.PathLike)):
        with open(target, "w", encoding="utf-8") as f:
            f.writelines(lines)
    else:
        target.writelines(lines)
    return target


def _check_names(names: list[str], items: tuple) -> None:
    for name, item in zip(names, items):
        if not name or name.split() != [name] or "|" in name or ":" in name:
            raise ProblemError(f"item {item!r} cannot be written in DLX format: a name must be "
                               "non-empty, without blanks, '|' or ':'")
    twice = first_repeat(names)
    if twice is not None:
        raise ProblemError(f"two items are both written {twice!r} in DLX format")
