"""What a technique finds, and how HoDoKu writes it down.

A [`Step`][sudoku.techniques.steps.Step] names its technique and holds its effect: the digits it places and
the candidates it removes, as ``(cell, digit)`` pairs, cells 0-based and row-major. Its text is
HoDoKu's notation: cells as ``r5c5``, a row's cells as ``r1c78`` and a column's as ``r12c3``, a
placement as ``r5c5=5`` and an elimination as ``r1c7<>4``.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import NamedTuple


class Step(NamedTuple):
    """One deduction. ``technique``: its name as HoDoKu gives it; ``placed`` and ``removed``: the
    ``(cell, digit)`` pairs it sets and eliminates, in order; ``text``: the whole step in HoDoKu's
    notation ("Naked Single: r5c5=5")."""

    technique: str
    placed: tuple[tuple[int, int], ...]
    removed: tuple[tuple[int, int], ...]
    text: str


def cell_name(cell: int, size: int) -> str:
    return f"r{cell // size + 1}c{cell % size + 1}"


@functools.cache
def cell_names(size: int) -> list[str]:
    """Every cell's name on a grid of ``size``, by cell."""
    return [cell_name(cell, size) for cell in range(size * size)]


def cells_text(cells: Iterable[int], size: int) -> str:
    """Cells in HoDoKu's short form: those of one row together (``r1c78``), else those of one column
    (``r12c3``), else one by one, joined by commas."""
    cells = sorted(set(cells))
    if not cells:
        return ""
    rows = {c // size for c in cells}
    cols = {c % size for c in cells}
    if len(rows) == 1:
        return f"r{cells[0] // size + 1}c" + "".join(_n(c % size + 1) for c in cells)
    if len(cols) == 1:
        return "r" + "".join(_n(c // size + 1) for c in sorted(cells)) + f"c{cells[0] % size + 1}"
    groups: dict[int, list[int]] = {}
    for c in cells:
        groups.setdefault(c // size, []).append(c)
    return ",".join(cells_text(group, size) for group in groups.values())


def _n(k: int) -> str:
    """A row or column number inside a run of them: one character where it fits (1-9, then A-Z)."""
    return str(k) if k < 10 else chr(ord("A") + k - 10)


def removals_text(removed: Iterable[tuple[int, int]], size: int) -> str:
    """Eliminations as HoDoKu writes them, digit by digit: ``r1c78,r2c3<>4, r5c5<>7``."""
    by_digit: dict[int, list[int]] = {}
    for cell, d in removed:
        by_digit.setdefault(d, []).append(cell)
    return ", ".join(f"{cells_text(cells, size)}<>{d}" for d, cells in sorted(by_digit.items()))


def placements_text(placed: Iterable[tuple[int, int]], size: int) -> str:
    return ", ".join(f"{cell_name(c, size)}={d}" for c, d in placed)


def digits_text(ds: Iterable[int]) -> str:
    return ",".join(str(d) for d in sorted(ds))


def make(technique: str, size: int, *, placed: Iterable[tuple[int, int]] = (),
         removed: Iterable[tuple[int, int]] = (), detail: str = "", order: str = "digit") -> Step:
    """A step with its text: ``technique: detail => effect`` (no detail: ``technique: effect``).
    The eliminations are kept in HoDoKu's order for the technique, which decides the order in which
    cells become singles next: by digit then cell (``order="digit"``), by cell then digit
    (``"cell"``), or as given (``"given"``, each once)."""
    placed = tuple(placed)
    if order == "given":
        removed = tuple(dict.fromkeys(removed))
    else:
        removed = tuple(sorted(set(removed), key=(lambda x: (x[1], x[0])) if order == "digit" else None))
    effect = placements_text(placed, size) if placed else removals_text(removed, size)
    text = f"{technique}: {detail} => {effect}" if detail else f"{technique}: {effect}"
    return Step(technique, placed, removed, text)
