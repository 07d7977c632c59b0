"""Sudoku as exact cover, for any box size ``n`` (an ``N x N`` grid, ``N = n*n``).

Items (all primary, ``4*N*N``), named as in Knuth's sudoku encoding: ``p<r><c>`` (cell r,c is
filled), ``r<r><d>`` (row r has digit d), ``c<c><d>`` (column c has d), ``b<b><d>`` (box b has d).
Options (``N**3``): digit ``d`` in cell (r, c) covers ``p<r><c> r<r><d> c<c><d> b<b><d>``, listed
cell by cell, digits in order, so option ``cell * N + d - 1`` puts ``d`` in ``cell``: the options of
one cell form a group, and a puzzle is a row of values, one per group, for :class:`dlx.Batch`.
"""
from __future__ import annotations

from functools import cache

import dlx

from .grid import SYMBOLS

_NAMES = "0123456789" + SYMBOLS[9:]     # positions 0..24 as single characters


@cache
def problem(n: int) -> dlx.ExactCover:
    """The exact-cover problem of the empty ``n*n x n*n`` grid (built once per process).

    >>> p = problem(3)
    >>> p
    ExactCover(324 items (324 primary, 0 secondary), 729 options)
    >>> p.option(9 * 10 + 4)            # cell 10 (row 1, column 1) holds 5
    ('p11', 'r15', 'c15', 'b05')
    """
    size = n * n
    pos, sym = _NAMES[:size], SYMBOLS[:size]
    options = [(f"p{pos[r]}{pos[c]}", f"r{pos[r]}{d}", f"c{pos[c]}{d}", f"b{pos[r // n * n + c // n]}{d}")
               for r in range(size) for c in range(size) for d in sym]
    # Knuth's item order (it breaks ties when the search chooses an item): cells, rows, columns, boxes
    primary = [f"{kind}{i}{j}" for kind, second in (("p", pos), ("r", sym), ("c", sym), ("b", sym))
               for i in pos for j in second]
    return dlx.ExactCover(options, primary=primary)


@cache
def batch(n: int) -> dlx.Batch:
    """The reusable solver for puzzles of box size ``n``: one group of ``N`` options per cell."""
    size = n * n
    return dlx.Batch(problem(n), [size] * (size * size))


def placement(name: str) -> tuple[str, int, int]:
    """What an item of :func:`problem` names: ``("cell", r, c)`` for ``p<r><c>``, else ``(unit,
    i, d)`` with unit "row", "column" or "box", its number ``i`` and the digit ``d`` (from 0 and 1)."""
    kind, first, second = name[0], _NAMES.index(name[1]), name[2]
    if kind == "p":
        return "cell", first, _NAMES.index(second)
    return {"r": "row", "c": "column", "b": "box"}[kind], first, SYMBOLS.index(second) + 1


def remaining(values) -> tuple[dlx.ExactCover | None, list[tuple[int, int]]]:
    """The exact-cover problem of what is left of a puzzle (``values`` as :func:`sudoku.grid.parse`
    gives): the items its givens do not cover and the options they do not rule out, named as in
    :func:`problem`; and the ``(cell, digit)`` of each option. None when no cell is empty. The
    givens must not clash (see :func:`sudoku.grid.clashes`)."""
    values = values.tolist()
    size = round(len(values) ** 0.5)
    n = round(size ** 0.5)
    full = problem(n)
    taken = {item for cell, d in enumerate(values) if d for item in full.option(cell * size + d - 1)}
    kept = [(cell, d) for cell in range(size * size) if not values[cell] for d in range(1, size + 1)
            if not taken.intersection(full.option(cell * size + d - 1))]
    primary = [item for item in full.items if item not in taken]
    if not primary:
        return None, []
    options = [full.option(cell * size + d - 1) for cell, d in kept]
    return dlx.ExactCover(options, primary=primary), kept
