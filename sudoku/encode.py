"""Sudoku as exact cover, for any box size ``n`` (an ``N x N`` grid, ``N = n*n``).

Items (all primary, ``4*N*N``), named as in Knuth's sudoku encoding: ``p<r><c>`` (cell r,c is
filled), ``r<r><d>`` (row r has digit d), ``c<c><d>`` (column c has d), ``b<b><d>`` (box b has d).
Options (``N**3``): digit ``d`` in cell (r, c) covers ``p<r><c> r<r><d> c<c><d> b<b><d>``, listed
cell by cell, digits in order, so option ``cell * N + d - 1`` puts ``d`` in ``cell``: the options of
one cell form a group, and a puzzle is a row of values, one per group, for :class:`dlx.Batch`.
"""
from __future__ import annotations

import functools
import itertools

import dlx

from .grid import box_shape

_NAMES = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"   # 0..61, one character each


def shape(box) -> tuple[int, int]:
    """A box shape from ``n`` (square boxes of ``n x n``), ``(rows, columns)`` or ``"RxC"``."""
    if isinstance(box, int):
        return box, box
    rows, cols = box_shape(_size(box), box)
    return rows, cols


def _size(box) -> int:
    from .grid import parse_box
    rows, cols = parse_box(box)
    return rows * cols


def _kept(build):
    """``build(box, variant)``, each result kept: plain sudoku's (variant None) for good, the 64
    variants' used last (each jigsaw or killer layout is a variant of its own)."""
    plain = functools.cache(lambda box: build(box, None))
    recent = functools.lru_cache(maxsize=64)(build)

    @functools.wraps(build)
    def kept(box, variant=None):
        return plain(box) if variant is None else recent(box, variant)
    return kept


@_kept
def problem(box, variant=None) -> dlx.ExactCover:
    """The exact-cover problem of the empty grid with boxes ``box`` (``n`` for square boxes, or
    ``(rows, columns)``) under the rules of ``variant`` (a :class:`sudoku.variants.Variant`, None
    for plain sudoku). Built once per process for each shape; of the variants, the 64 used last are
    kept (each jigsaw or killer layout is a variant of its own).

    >>> p = problem(3)
    >>> p
    ExactCover(324 items (324 primary, 0 secondary), 729 options)
    >>> p.option(9 * 10 + 4)            # cell 10 (row 1, column 1) holds 5
    ('p11', 'r15', 'c15', 'b05')
    >>> problem((2, 3)).option(6 * 11 + 2)    # 6x6, boxes of 2 rows, 3 columns: cell (1, 5) in box 1
    ('p15', 'r13', 'c53', 'b13')
    """
    rows, cols = shape(box)
    size = rows * cols
    pos, sym = _NAMES[:size], _NAMES[1:size + 1]
    region = [r // rows * rows + c // cols for r in range(size) for c in range(size)]
    extra: list[list[str]] = [[] for _ in range(size * size)]    # a cell's items beyond the four
    primary = [f"{kind}{i}{j}" for kind, second in (("p", pos), ("r", sym), ("c", sym), ("b", sym))
               for i in pos for j in second]
    secondary: list[str] = []
    cage_options: list[list[str]] = []
    if variant is not None:
        region = variant.regions or region
        for name, cells in variant.units(size, (rows, cols)):
            primary += [f"{name}{d}" for d in sym]
            for cell in cells:
                extra[cell].append(name)
        for k, (total, cells) in enumerate(variant.cages):
            for cell in cells:
                extra[cell].append(f"k{k}_")
            secondary += [f"k{k}_{d}" for d in sym]
            primary.append(f"K{k}")
            for digits in _sums(total, len(cells), size):
                cage_options.append([f"K{k}"] + [f"k{k}_{d}" for v, d in enumerate(sym, 1) if v not in digits])
    options = [[f"p{pos[r]}{pos[c]}", f"r{pos[r]}{d}", f"c{pos[c]}{d}", f"b{pos[region[r * size + c]]}{d}"]
               + [f"{name}{d}" for name in extra[r * size + c]]
               for r in range(size) for c in range(size) for d in sym]
    return dlx.ExactCover(options + cage_options, primary=primary, secondary=secondary)


def _sums(total: int, cells: int, size: int) -> list[frozenset[int]]:
    """The sets of ``cells`` different values from 1 to ``size`` that add up to ``total``."""
    return [frozenset(c) for c in itertools.combinations(range(1, size + 1), cells) if sum(c) == total]


@_kept
def batch(box, variant=None) -> dlx.Batch:
    """The reusable solver for puzzles with boxes ``box`` under ``variant``: one group of ``N``
    options per cell (a killer's cage options come after the groups, in none). Kept as
    :func:`problem` keeps its problem."""
    rows, cols = shape(box)
    size = rows * cols
    return dlx.Batch(problem(box, variant), [size] * (size * size))


def placement(name: str) -> tuple[str, int, int]:
    """What an item of :func:`problem` names: ``("cell", r, c)`` for ``p<r><c>``, else ``(unit,
    i, d)`` with unit "row", "column" or "box", its number ``i`` and the digit ``d`` (from 0 and 1)."""
    kind, first, second = name[0], _NAMES.index(name[1]), _NAMES.index(name[2])
    if kind == "p":
        return "cell", first, second
    return {"r": "row", "c": "column", "b": "box"}[kind], first, second


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
