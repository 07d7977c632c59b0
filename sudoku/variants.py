"""Sudoku variants: more rules on the same exact cover, so the same engine solves them.

Each rule adds items or options to the sudoku of `sudoku.encode`; nothing here searches.

- ``x`` (X-sudoku): both long diagonals hold every value once: one more item per value and diagonal.
- ``windoku`` (hyper sudoku): four more boxes, one cell in from the edges (9x9: rows and columns
  2-4 and 6-8), each holding every value once.
- [`jigsaw`][sudoku.variants.jigsaw]: irregular regions of N cells instead of the boxes (each region's items replace
  a box's).
- [`killer`][sudoku.variants.killer]: cages whose values differ and add up to the cage's sum. A cage is one primary
  item with one option per set of values that makes the sum; the option takes, as secondary
  items, the cage's places for every value *not* in the set, so the cells can only hold the set's
  values, each once (Knuth's way of stating killer sudoku as exact cover, no search code needed).

Rules combine: ``Variant(diagonals=True, cages=...)`` is a killer X-sudoku.
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

from dlx.checks import whole

from .grid import IGNORED, Box, Puzzle, PuzzleError, Shape, clashes, parse_shaped, twice_in

_UNIT_WORDS = {"d": "diagonal", "w": "window"}


def _whole(value: object, name: str, minimum: int = 0) -> int:
    try:
        return whole(value, name, minimum)
    except ValueError as e:
        raise PuzzleError(str(e)) from None

#: The variants named on the command line (``--variant``): name -> what it adds.
NAMES = {"standard": "rows, columns and boxes (no more rules)",
         "x": "both long diagonals hold every value once",
         "windoku": "four more boxes, one cell in from the edges (also called hyper)",
         "jigsaw": "irregular regions instead of boxes, given per puzzle as a second grid of letters",
         "killer": "cages with sums, given per puzzle as a grid of cage letters and each letter's sum"}


@dataclass(frozen=True)
class Variant:
    """Rules beyond rows, columns and boxes. ``regions``: the region of every cell (row-major,
    0..N-1) replacing the boxes; ``cages``: ``(sum, cells)`` pairs. Hashable, so the exact-cover
    problem of each variant is built once."""

    diagonals: bool = False
    windows: bool = False
    regions: tuple[int, ...] | None = None
    cages: tuple[tuple[int, tuple[int, ...]], ...] = ()
    cells: int = 0          # the cells of the grid a layout (regions, cages) was drawn for; 0: any

    def __post_init__(self) -> None:
        """Check the layout once, as given: whole numbers only, every cell on the grid, each region
        of N cells, no cell in two cages (a PuzzleError says which)."""
        set_ = object.__setattr__          # frozen: the checked values replace the given ones
        cells = _whole(self.cells, "cells")
        if self.regions is not None:
            regions = tuple(_whole(r, "a region number") for r in self.regions)
            size = math.isqrt(len(regions))
            if size * size != len(regions) or size < 4 or cells not in (0, len(regions)):
                raise PuzzleError(f"regions: {len(regions)} numbers, not one per cell of an N x N grid")
            if max(regions, default=0) >= size:
                raise PuzzleError(f"regions: region {max(regions)} on a {size}x{size} grid, whose regions are "
                                  f"0..{size - 1}")
            counts = np.bincount(regions, minlength=size)
            if (counts != size).any():
                bad = int(np.flatnonzero(counts != size)[0])
                raise PuzzleError(f"regions: region {bad} has {counts[bad]} cells; a {size}x{size} grid has "
                                  f"regions 0..{size - 1} of {size} cells each")
            set_(self, "regions", regions)
            cells = len(regions)
        cages: list = []
        seen: set[int] = set()
        for k, cage in enumerate(self.cages):
            try:
                total, members = cage
            except (TypeError, ValueError):
                raise PuzzleError(f"cage {k + 1}: a cage is (sum, cells), not {cage!r}") from None
            total = _whole(total, f"cage {k + 1}'s sum", 1)
            members = tuple(_whole(c, f"a cell of cage {k + 1}") for c in members)
            if not members:
                raise PuzzleError(f"cage {k + 1} has no cells")
            if len(set(members)) != len(members) or seen.intersection(members):
                twice = next(c for j, c in enumerate(members) if c in seen or c in members[:j])
                raise PuzzleError(f"cage {k + 1}: cell {twice} is in it twice, or in another cage too")
            if cells and max(members) >= cells:
                raise PuzzleError(f"cage {k + 1}: cell {max(members)} is not on a grid of {cells} cells")
            seen.update(members)
            cages.append((total, members))
        set_(self, "cages", tuple(cages))
        set_(self, "cells", cells)
        set_(self, "diagonals", bool(self.diagonals))
        set_(self, "windows", bool(self.windows))

    @property
    def boxes(self) -> bool:
        """Whether the grid keeps its boxes (a jigsaw's regions replace them)."""
        return self.regions is None

    def shape(self, cells: int, box: Box = None) -> Shape:
        """The shape of a puzzle of ``cells`` cells under these rules (a PuzzleError when it does
        not fit them: another layout's size, windows without square boxes)."""
        self.fits(cells)
        return self.accept(Shape.of(cells, box, boxes=self.boxes))

    def accept(self, shape: Shape) -> Shape:
        """``shape`` (read with ``boxes=self.boxes``), or a PuzzleError when it does not fit these
        rules (another layout's size, windows without square boxes)."""
        self.fits(shape.cells)
        if self.windows:
            self.units(shape)                  # windows need square boxes
        return shape

    def fits(self, cells: int) -> None:
        """Raise [`PuzzleError`][sudoku.PuzzleError] unless a puzzle of ``cells`` cells fits this layout."""
        if self.cells and self.cells != cells:
            raise PuzzleError(f"the layout has {self.cells} cells, the puzzle {cells}")
        highest = max((max(members) for _, members in self.cages), default=-1)
        if highest >= cells:
            raise PuzzleError(f"a cage holds cell {highest}, but the puzzle has {cells} cells")

    def clash(self, values: np.ndarray, symbols: str | None = None, shape: Shape | None = None) -> str | None:
        """Why the givens break a rule of this variant beyond rows, columns and boxes ("digit 5
        twice in diagonal 1", "... in region 3", "... in cage 2"), or None."""
        shape = shape or Shape.of(values.size, boxes=self.boxes)
        size = shape.size
        extra = self.units(shape)
        units: list[tuple[str, Sequence[int] | np.ndarray]] = [
            (f"{_UNIT_WORDS[name[0]]} {sum(n[0] == name[0] for n, _ in extra[:k]) + 1}", cells)
                 for k, (name, cells) in enumerate(extra)]
        if self.regions is not None:
            regions = np.array(self.regions)
            units += [(f"region {k + 1}", np.flatnonzero(regions == k)) for k in range(size)]
        units += [(f"cage {k + 1}", list(members)) for k, (_, members) in enumerate(self.cages)]
        return twice_in(values, units, symbols)

    def units(self, shape: Shape) -> list[tuple[str, list[int]]]:
        """The extra units as ``(item prefix, cells)``: each holds every value once."""
        size = shape.size
        out = []
        if self.diagonals:
            out.append(("d0", [k * size + k for k in range(size)]))
            out.append(("d1", [k * size + size - 1 - k for k in range(size)]))
        if self.windows:
            rows, cols = shape.rows, shape.cols
            if rows != cols or not shape.boxes:
                raise PuzzleError(f"windoku needs square boxes, not {rows}x{cols}" if shape.boxes
                                  else "windoku needs square boxes, not regions")
            starts = [1 + k * (rows + 1) for k in range(rows - 1)]
            for i, r0 in enumerate(starts):
                for j, c0 in enumerate(starts):
                    out.append((f"w{i}{j}", [(r0 + r) * size + c0 + c for r in range(rows) for c in range(rows)]))
        return out

    def check(self, values: np.ndarray, shape: Shape | None = None) -> str | None:
        """Why the solved grid ``values`` breaks these rules (beyond rows, columns and boxes), or
        None. Cell by cell, independent of the exact cover: the tests' judge."""
        shape = shape or Shape.of(values.size, boxes=self.boxes)
        size = shape.size
        for name, cells in self.units(shape):
            if sorted(values[cells].tolist()) != list(range(1, size + 1)):
                return f"unit {name} does not hold every value once"
        if self.regions is not None:
            regions = np.array(self.regions)
            for k in range(size):
                if sorted(values[regions == k].tolist()) != list(range(1, size + 1)):
                    return f"region {k + 1} does not hold every value once"
        for k, (total, members) in enumerate(self.cages):
            got = values[list(members)].tolist()
            if len(set(got)) != len(got) or sum(got) != total:
                return f"cage {k + 1} holds {got}, not different values adding up to {total}"
        return None


def read(puzzle: Puzzle, *, box: Box = None, symbols: str | None = None,
         variant: VariantLike = None) -> tuple[np.ndarray, Shape, Variant | None]:
    """``(values, shape, rules)`` of one puzzle read under ``variant`` (a name or a
    [`Variant`][sudoku.variants.Variant]): a PuzzleError when it cannot be read, does not fit the rules, or its givens
    clash."""
    rules = named(variant)
    boxes = rules is None or rules.boxes
    values, shape = parse_shaped(puzzle, box=box, symbols=symbols, boxes=boxes)
    if rules is not None:
        rules.accept(shape)
    why = clashes(values, shape, symbols, boxes=boxes) or (rules.clash(values, symbols, shape) if rules else None)
    if why:
        raise PuzzleError(why)
    return values, shape, rules


X = Variant(diagonals=True)
WINDOKU = Variant(windows=True)


#: A variant as the functions take it: a `Variant`, a name (``"x"``, ``"windoku"``,
#: ``"hyper"``, ``"standard"``) or None (standard rules).
VariantLike: TypeAlias = str | Variant | None


def named(name: VariantLike) -> Variant | None:
    """A variant by name (``"x"``, ``"windoku"`` or ``"hyper"``, ``"standard"``), or as given."""
    if name is None or isinstance(name, Variant):
        return name
    found = {"standard": None, "x": X, "windoku": WINDOKU, "hyper": WINDOKU}
    if name not in found:
        raise ValueError(f"unknown variant {name!r}: x, windoku (hyper), standard; jigsaw and killer "
                         "take their layout: sudoku.jigsaw(regions), sudoku.killer(cages, sums)")
    return found[name]


def jigsaw(regions: str) -> Variant:
    """Jigsaw sudoku: ``regions`` is a grid of labels (one character per cell, any layout, as a
    puzzle is written) whose equal labels make the N regions of N cells that replace the boxes.

    Examples:
        >>> jigsaw("AABB|AABB|CCDD|CCDD").regions[:4]
        (0, 0, 1, 1)
    """
    labels = IGNORED.sub("", regions)
    size = math.isqrt(len(labels))
    if size * size != len(labels) or size < 4:
        raise PuzzleError(f"regions: {len(labels)} labels, not a square grid's N*N")
    order = list(dict.fromkeys(labels))
    if len(order) != size:
        raise PuzzleError(f"regions: {len(order)} different labels, but a {size}x{size} grid has {size} regions")
    for label in order:
        if labels.count(label) != size:
            raise PuzzleError(f"regions: {label!r} has {labels.count(label)} cells, not {size}")
    number = {label: k for k, label in enumerate(order)}
    return Variant(regions=tuple(number[ch] for ch in labels), cells=len(labels))


#: The labels `regions_text` writes, region 0 first.
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def regions_text(variant: Variant) -> str:
    """A jigsaw's regions as [`jigsaw`][sudoku.variants.jigsaw] reads them: a letter per cell, row by row (``A`` for
    region 0), so that a puzzle written as ``puzzle,regions`` is read back with its regions.

    Examples:
        >>> regions_text(jigsaw("xxyy|xxyy|zzww|zzww"))
        'AABBAABBCCDDCCDD'
    """
    if variant.regions is None:
        raise ValueError("only a jigsaw has regions to write")
    if len(variant.regions) > len(LABELS) ** 2:
        raise ValueError(f"regions: at most {len(LABELS)} regions are written as letters")
    return "".join(LABELS[r] for r in variant.regions)


def killer(cages: str, sums: str | Mapping[str, int]) -> Variant:
    """Killer sudoku: ``cages`` is a grid of labels (one per cell; ``.`` for a cell in no cage) and
    ``sums`` each label's sum, as a mapping or as text ``"a=3 b=15 ..."``. The values of a cage
    differ and add up to its sum.

    Examples:
        >>> v = killer("aabc|dabc|deef|ggef", "a=7 b=4 c=6 d=5 e=7 f=4 g=7")
        >>> v.cages[0]
        (7, (0, 1, 5))
    """
    labels = IGNORED.sub("", cages)
    size = math.isqrt(len(labels))
    if size * size != len(labels) or size < 4:
        raise PuzzleError(f"cages: {len(labels)} labels, not a square grid's N*N")
    if isinstance(sums, str):
        pairs = sums.replace(",", " ").replace(";", " ").split()
        table = {}
        for pair in pairs:
            match = re.fullmatch(r"(.+?)[=:](\d+)", pair)
            if not match:
                raise PuzzleError(f"sums: {pair!r} is not label=sum (such as a=12)")
            if match[1] in table:
                raise PuzzleError(f"sums: cage {match[1]!r} given twice")
            table[match[1]] = int(match[2])
        sums = table
    order = [label for label in dict.fromkeys(labels) if label != "."]
    missing = [label for label in order if label not in sums]
    if missing:
        raise PuzzleError(f"sums: no sum for cage {missing[0]!r}")
    unused = [label for label in sums if label not in order]
    if unused:
        raise PuzzleError(f"sums: cage {unused[0]!r} is not in the grid")
    out = []
    for label in order:
        cells = tuple(k for k, ch in enumerate(labels) if ch == label)
        total = _whole(sums[label], f"the sum of cage {label!r}", 1)
        if len(cells) > size:
            raise PuzzleError(f"cage {label!r} has {len(cells)} cells, more than {size} different values")
        least, most = sum(range(1, len(cells) + 1)), sum(range(size - len(cells) + 1, size + 1))
        if not least <= total <= most:
            raise PuzzleError(f"cage {label!r}: {len(cells)} different values add up to {least}..{most}, "
                              f"not {total}")
        out.append((total, cells))
    return Variant(cages=tuple(out), cells=len(labels))
