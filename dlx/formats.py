"""Knuth's DLX text format.

A line whose first non-blank character is ``|`` is a comment, and blank lines are skipped. The first
other line names the primary items, then ``|``, then the secondary items (if any). Every further line
is one option: the names of its items, separated by blanks. This is the input of Knuth's DLX1.

Knuth's later programs extend the format. DLX2 gives a secondary item a colour in an option
(``item:colour``; a colour is any word without ``:``); DLX3 gives a primary item bounds in the item
line (``lo:hi|item``, or ``hi|item`` for ``hi:hi``), so that it must be covered between ``lo`` and
``hi`` times. ``:`` and ``|`` are therefore not allowed in item names (Knuth forbids them too). An
option without a primary item is skipped with a warning that names its line (it keeps its number,
so solutions still count it); so is an empty option, which has no line of its own: ``write_dlx``
writes it as the comment ``EMPTY_OPTION``, which ``read_dlx`` counts (Knuth's programs skip it, as
they skip every option without a primary item). DLX5 gives an option a cost: ``|n`` after any of
its items (a whole number, digits only, right after the ``|``; several add up), read into the
problem's ``costs``; an option without one costs 0. A UTF-8 byte-order mark at the start is skipped.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import secrets
import signal
import sys
import threading
from collections.abc import Iterable, Iterator
from typing import IO, Any

from .model import (
    ExactCover,
    ProblemError,
    check_bounds,
    declare_items,
    encode_option,
    first_repeat,
    option_costs,
    warn_unusable,
)


def read_dlx(source: str | bytes | os.PathLike | IO) -> ExactCover:
    """Read a problem in Knuth's DLX format from a path, ``"-"`` (standard input) or an open file
    (text or binary).

    Examples:
        >>> import io
        >>> ec = read_dlx(io.StringIO("| a comment\\na b c | x\\na x\\nb c\\na b c\\n"))
        >>> ec
        ExactCover(4 items (3 primary, 1 secondary), 3 options)
        >>> ec.option(0)
        ('a', 'x')

        Every malformed line is a ProblemError naming the file and the line; a file that cannot be
        opened raises what `open` raises (FileNotFoundError, PermissionError: an OSError). Lines end at LF, from
        every source, as in Knuth's programs: a CR is a blank (a text file's newline setting is made
        ``"\\n"`` to that end; one already read from that split a line at a CR is refused).
    """
    if isinstance(source, str) and source == "-":
        if sys.stdin is None:
            raise ProblemError("<stdin>: cannot read: standard input is closed")
        return _read_file(getattr(sys.stdin, "buffer", sys.stdin), "<stdin>")
    if isinstance(source, (str, bytes, os.PathLike)):
        name = os.fsdecode(source)
        if "\0" in name:            # open() would say ValueError "embedded null byte"
            shown = name.replace("\0", "\\0")
            raise ProblemError(f"{shown}: cannot read: a NUL in the path")
        with open(source, "rb") as f:   # a missing or unreadable file: FileNotFoundError, OSError
            return _parse(_numbered_lines(f, name), name)
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


_BOUNDS = re.compile(r"(?:(\d+):)?(\d+)")     # DLX3's lo:hi or hi before '|item'
_BOM = "\ufeff"
#: The line of an option without items (a matrix's row of zeros), a comment to Knuth's programs.
EMPTY_OPTION = "| empty option"


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
    """(line number, tokens) of every line that is neither blank nor a comment; no tokens (but a
    cost, if it has one) for an ``EMPTY_OPTION`` after the item line."""
    items_seen = False
    for number, line in numbered:
        tokens = line.split()
        if tokens and not tokens[0].startswith("|"):
            items_seen = True
            yield number, tokens
        elif items_seen and line.strip().startswith(EMPTY_OPTION) and line.split()[:3] == EMPTY_OPTION.split():
            yield number, tokens[3:]


def _parse(numbered: Iterator[tuple[int, str]], name: str) -> ExactCover:
    lines = _content(numbered)
    header = next(lines, None)
    if header is None:
        raise ProblemError(f"{name}: no item line (the file has only comments and blank lines)")
    number, tokens = header
    where = f"{name}, line {number}"
    primary, secondary, bounds = _split_items(tokens, where, number)
    items = declare_items(primary, secondary, where, number)
    index = {item: i for i, item in enumerate(items)}
    n_primary = len(primary)
    palette: dict[str, int] = {}
    start, ids, colours, unusable, costs = [0], [], [], [], []
    priced = False
    for number, tokens in lines:
        where = f"{name}, line {number}"
        prices = [token for token in tokens if token.startswith("|")]
        if prices:
            priced = True
            tokens = [token for token in tokens if not token.startswith("|")]
        costs.append(sum(_cost(token, where, number) for token in prices))
        entries = [_entry(token, palette, where, number) for token in tokens]
        option_ids, option_colours = encode_option(entries, index, n_primary, where, number) if entries else ([], [])
        if not option_ids or min(option_ids) >= n_primary:
            unusable.append(f"line {number}")
        ids.extend(option_ids)
        colours.extend(option_colours)
        start.append(len(ids))
    if unusable:
        warn_unusable([f"{name}, {unusable[0]}", *unusable[1:]])
    return ExactCover._from_ids(items, n_primary, start, ids, colours if palette else None,
                                None if all(b == (1, 1) for b in bounds) else bounds, tuple(palette),
                                option_costs(costs, len(costs), where) if priced else None)


def _cost(token: str, where: str, line: int) -> int:
    """The cost ``|n`` of an option (DLX5): digits right after the bar."""
    digits = token[1:]
    if not digits.isascii() or not digits.isdigit():
        raise ProblemError(f"{where}: {token!r} is not a cost (|n, a whole number right after the '|')", line=line)
    return int(digits)


def _entry(token: str, palette: dict[str, int], where: str, line: int) -> tuple[str, int]:
    """``(item name, colour number)`` of one token of an option (0: no colour)."""
    if ":" not in token:
        return token, 0
    item, colour = token.split(":", 1)
    if not item or not colour or ":" in colour:
        raise ProblemError(f"{where}: {token!r} is not item:colour (both non-empty, one ':')", line=line)
    return item, palette.setdefault(colour, len(palette) + 1)


def _split_items(tokens: list[str], where: str, line: int) -> tuple[list[str], list[str], list[tuple[int, int]]]:
    """Primary names, secondary names, and ``(lo, hi)`` per primary item."""
    if tokens.count("|") > 1:
        raise ProblemError(f"{where}: the item line contains '|' more than once", line=line)
    cut = tokens.index("|") if "|" in tokens else len(tokens)
    primary, bounds = [], []
    for token in tokens[:cut]:
        lo_hi, item = (1, 1), token
        if "|" in token:
            prefix, item = token.split("|", 1)
            found = _BOUNDS.fullmatch(prefix)
            if not found or not item or "|" in item:
                raise ProblemError(f"{where}: {token!r} is neither an item name nor bounds and a name "
                                   "(lo:hi|item or hi|item); separate '|' with blanks", line=line)
            hi = int(found[2])
            lo_hi = check_bounds((hi if found[1] is None else int(found[1]), hi), f"{where}: item {item!r}", line)
        primary.append(_item_name(item, where, line))
        bounds.append(lo_hi)
    secondary = []
    for token in tokens[cut + 1:]:
        if "|" in token:
            raise ProblemError(f"{where}: {token!r}: only primary items take bounds (lo:hi|item), and "
                               "'|' is not allowed in item names", line=line)
        secondary.append(_item_name(token, where, line))
    return primary, secondary, bounds


def _item_name(name: str, where: str, line: int) -> str:
    if ":" in name:
        raise ProblemError(f"{where}: item name {name!r} contains ':' (Knuth's format keeps ':' for "
                           "colours)", line=line)
    return name


def write_dlx(problem: ExactCover, target: str | bytes | os.PathLike | IO) -> str | bytes | os.PathLike | IO:
    """Write ``problem`` in Knuth's DLX format to a path or an open text file; returns ``target``,
    so ``read_dlx(write_dlx(problem, path))`` reads the same problem back.

    Item names are written with ``str``; a name that is empty, contains a blank, ``|`` or ``:``,
    cannot be written in UTF-8, or looks like another item's name is a ProblemError, raised before
    anything is written. A path is written whole or not at all (to a temporary file beside it, then
    renamed); an open file gets one ``write`` of the whole text. Every option has a line, in order,
    so the options read back have the same numbers: one without a primary item names its secondary
    items (Knuth's programs skip it; ``read_dlx`` warns and keeps it), an empty one is the comment
    ``EMPTY_OPTION``.

    Examples:
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
    with _terminate_after_cleaning_up():
        try:
            with open(partial, "x", encoding="utf-8", newline="\n") as f:
                f.write(text)
            os.replace(partial, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(partial)
            raise
    return target


class _Terminated(BaseException):
    """SIGTERM arrived while a file was written."""


@contextlib.contextmanager
def _terminate_after_cleaning_up() -> Iterator[None]:
    """While the block runs, a SIGTERM whose action is the default (to end the process at once)
    raises `_Terminated` instead, so that the block's cleanup runs; then the process ends
    by the signal after all, as it would have. Only the main thread can handle signals, and a
    handler someone installed is left alone."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL):
        yield
        return

    def terminated(signum: int, frame: Any) -> None:
        raise _Terminated

    signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    except _Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        raise
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _dlx_text(problem: ExactCover) -> str:
    names = [str(item) for item in problem.items]
    _check_words(names, problem.items, "item")
    colours = [str(colour) for colour in problem.colours]
    _check_words(colours, problem.colours, "colour")
    primary, secondary = names[:problem.n_primary], names[problem.n_primary:]
    if problem.bounds is not None:
        primary = [name if (lo, hi) == (1, 1) else f"{hi}|{name}" if lo == hi else f"{lo}:{hi}|{name}"
                   for name, (lo, hi) in zip(primary, problem.bounds.tolist())]
    from ._version import __version__  # read on first use (see _version)
    header = (f"| dlx {__version__}: {len(primary)} items and {len(secondary)} secondary, "
              f"{problem.n_options} options\n")
    lines = [header,
             " ".join(primary + (["|", *secondary] if secondary else [])) + "\n"]
    start, ids = problem.option_start, problem.option_items
    painted = problem.option_colours
    costs = problem.option_costs
    for k in range(problem.n_options):
        option = ids[start[k]:start[k + 1]]
        if painted is None:
            text = " ".join(names[i] for i in option)
        else:
            text = " ".join(names[i] if c == 0 else f"{names[i]}:{colours[c - 1]}"
                            for i, c in zip(option.tolist(), painted[start[k]:start[k + 1]].tolist()))
        text = text or EMPTY_OPTION
        if costs is not None:
            text += f" |{costs[k]}"
        lines.append(text + "\n")
    return "".join(lines)


def _check_words(texts: list[str], values: tuple, what: str) -> None:
    """Refuse, before anything is written, a name or colour (``what``) that Knuth's format cannot
    hold: empty, with a blank, '|' or ':', not UTF-8, or written like another one."""
    for text, value in zip(texts, values):
        if not text or text.split() != [text] or "|" in text or ":" in text:
            raise ProblemError(f"{what} {value!r} cannot be written in DLX format: it must be "
                               "non-empty, without blanks, '|' or ':'")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ProblemError(f"{what} {value!r} cannot be written in UTF-8 (it holds a lone surrogate)") from None
    twice = first_repeat(texts)
    if twice is not None:
        raise ProblemError(f"two {what}s are both written {twice!r} in DLX format")
