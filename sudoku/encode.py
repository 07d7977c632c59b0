"""Sudoku as exact cover, for any [`Shape`][sudoku.grid.Shape]: an ``N x N`` grid with boxes of
``R x C`` cells (``R * C = N``), or with a jigsaw's regions instead, at any N.

Items (all primary, ``4*N*N``), named as in Knuth's sudoku encoding: ``p<r><c>`` (cell r,c is
filled), ``r<r><d>`` (row r has digit d), ``c<c><d>`` (column c has d), ``b<b><d>`` (box b has d).
Options (``N**3``): digit ``d`` in cell (r, c) covers ``p<r><c> r<r><d> c<c><d> b<b><d>``, listed
cell by cell, digits in order, so option ``cell * N + d - 1`` puts ``d`` in ``cell``: the options of
one cell form a group, and a puzzle is a row of values, one per group, for [`dlx.Batch`][dlx.Batch].
"""
from __future__ import annotations

import functools
import itertools

import dlx

from .grid import Shape

_NAMES = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"   # 0..61, one character each


def _kept(build):
    """``build(shape, variant)``, each result kept: plain sudoku's (variant None) for good, the 64
    variants' used last (each jigsaw or killer layout is a variant of its own). ``box`` may be a
    [`Shape`][sudoku.grid.Shape] or anything [`Shape.boxed`][sudoku.grid.Shape.boxed] takes."""
    plain = functools.cache(lambda shape: build(shape, None))
    recent = functools.lru_cache(maxsize=64)(build)

    @functools.wraps(build)
    def kept(box, variant=None):
        shape = box if isinstance(box, Shape) else Shape.boxed(box)
        return plain(shape) if variant is None else recent(shape, variant)
    return kept


@_kept
def problem(box, variant=None) -> dlx.ExactCover:
    """The exact-cover problem of the empty grid of shape ``box`` (a [`Shape`][sudoku.grid.Shape],
    ``n`` for square boxes, ``(rows, columns)`` or ``"RxC"``) under the rules of ``variant`` (a
    [`sudoku.variants.Variant`][sudoku.variants.Variant], None for plain sudoku). Built once per process for each
    shape; of the variants, the 64 used last are kept (each jigsaw or killer layout is a variant of
    its own).

    Examples:
        >>> p = problem(3)
        >>> p
        ExactCover(324 items (324 primary, 0 secondary), 729 options)
        >>> p.option(9 * 10 + 4)            # cell 10 (row 1, column 1) holds 5
        ('p11', 'r15', 'c15', 'b05')
        >>> problem((2, 3)).option(6 * 11 + 2)    # 6x6, boxes of 2 rows, 3 columns: cell (1, 5) in box 1
        ('p15', 'r13', 'c53', 'b13')
    """
    shape = box
    size = shape.size
    pos, sym = _NAMES[:size], _NAMES[1:size + 1]
    if variant is not None and variant.regions is not None:
        region = list(variant.regions)
    elif shape.boxes:
        region = [r // shape.rows * shape.rows + c // shape.cols for r in range(size) for c in range(size)]
    else:
        raise dlx.ProblemError(f"a {size}x{size} grid without boxes needs a jigsaw's regions")
    extra: list[list[str]] = [[] for _ in range(size * size)]    # a cell's items beyond the four
    primary = [f"{kind}{i}{j}" for kind, second in (("p", pos), ("r", sym), ("c", sym), ("b", sym))
               for i in pos for j in second]
    secondary: list[str] = []
    cage_options: list[list[str]] = []
    if variant is not None:
        for name, cells in variant.units(shape):
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


def cage_sets(variant, size: int) -> list[tuple[int, frozenset[int]]]:
    """The cage options of `problem` in order, as ``(cage, values)``: option
    ``N**3 + j`` gives cage ``cage_sets(...)[j][0]`` the values ``[j][1]``."""
    return [(k, digits) for k, (total, cells) in enumerate(variant.cages) for digits in _sums(total, len(cells), size)]


def _sums(total: int, cells: int, size: int) -> list[frozenset[int]]:
    """The sets of ``cells`` different values from 1 to ``size`` that add up to ``total``."""
    return [frozenset(c) for c in itertools.combinations(range(1, size + 1), cells) if sum(c) == total]


@_kept
def batch(box, variant=None) -> dlx.Batch:
    """The reusable solver for puzzles with boxes ``box`` under ``variant``: one group of ``N``
    options per cell (a killer's cage options come after the groups, in none). Kept as
    `problem` keeps its problem."""
    return dlx.Batch(problem(box, variant), [box.size] * box.cells)


def placement(name: str, shape: Shape | None = None, regions: bool = False) -> tuple[str, int, int]:
    """What an item of `problem` names: ``("cell", r, c)`` for ``p<r><c>``, else ``(unit,
    i, d)``: the unit ("row", "column", "box", or "region" with ``regions``; "diagonal",
    "window", numbered row by row on the grid of ``shape``), its number ``i`` and the digit ``d``
    (from 0 and 1); ``("cage", k, 0)`` for cage ``k`` (from 0)."""
    kind = name[0]
    if kind in "Kk":                    # a cage, or a cage's place for a value
        number, _, value = name[1:].partition("_")
        return "cage", int(number), _NAMES.index(value) if value else 0
    if kind == "w":
        across = shape.rows - 1 if shape is not None else 2
        return "window", _NAMES.index(name[1]) * across + _NAMES.index(name[2]), _NAMES.index(name[3])
    first, second = _NAMES.index(name[1]), _NAMES.index(name[2])
    if kind == "p":
        return "cell", first, second
    unit = {"r": "row", "c": "column", "b": "region" if regions else "box", "d": "diagonal"}[kind]
    return unit, first, second


def remaining(values, shape: Shape, variant=None) -> tuple[dlx.ExactCover | None, list[int]]:
    """The exact-cover problem of what is left of a puzzle (``values`` as [`sudoku.grid.parse`][sudoku.grid.parse]
    gives, of ``shape``, under ``variant``'s rules): the items its givens do not cover and the
    options they do not rule out, named as in `problem`; and the number in `problem`
    of each option kept (``cell * N + digit - 1`` for a placement; past ``N**3``, a killer's cage
    options). None when nothing is left to cover. The givens must not clash (see
    `sudoku.grid.clashes`)."""
    values = values.tolist()
    size = shape.size
    full = problem(shape, variant)
    taken = {item for cell, d in enumerate(values) if d for item in full.option(cell * size + d - 1)}
    given = {cell * size + d - 1 for cell, d in enumerate(values) if d}
    kept = [k for k in range(full.n_options) if k not in given and not taken.intersection(full.option(k))]
    primary = [item for item in full.items[:full.n_items - full.n_secondary] if item not in taken]
    if not primary:
        return None, []
    secondary = [item for item in full.items[full.n_items - full.n_secondary:] if item not in taken]
    return dlx.ExactCover([full.option(k) for k in kept], primary=primary, secondary=secondary), kept
