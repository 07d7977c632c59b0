"""Sudoku variants: more rules on the same exact cover, so the same engine solves them.

Each rule adds items or options to the sudoku of :mod:`sudoku.encode`; nothing here searches.

- ``x`` (X-sudoku): both long diagonals hold every value once: one more item per value and diagonal.
- ``windoku`` (hyper sudoku): four more boxes, one cell in from the edges (9x9: rows and columns
  2-4 and 6-8), each holding every value once.
- :func:`jigsaw`: irregular regions of N cells instead of the boxes (each region's items replace
  a box's).
- :func:`killer`: cages whose values differ and add up to the cage's sum. A cage is one primary
  item with one option per set of values that makes the sum; the option takes, as secondary
  items, the cage's places for every value *not* in the set, so the cells can only hold the set's
  values, each once (Knuth's way of stating killer sudoku as exact cover, no search code needed).

Rules combine: ``Variant(diagonals=True, cages=...)`` is a killer X-sudoku.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .grid import _IGNORED, PuzzleError, box_shape, grid_size

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

    def fits(self, cells: int) -> None:
        """Raise :class:`PuzzleError` unless a puzzle of ``cells`` cells fits this layout."""
        if self.cells and self.cells != cells:
            raise PuzzleError(f"the layout has {self.cells} cells, the puzzle {cells}")

    def units(self, size: int, box) -> list[tuple[str, list[int]]]:
        """The extra units as ``(item prefix, cells)``: each holds every value once."""
        out = []
        if self.diagonals:
            out.append(("d0", [k * size + k for k in range(size)]))
            out.append(("d1", [k * size + size - 1 - k for k in range(size)]))
        if self.windows:
            rows, cols = box_shape(size, box)
            if rows != cols:
                raise PuzzleError("windoku needs square boxes")
            starts = [1 + k * (rows + 1) for k in range(rows - 1)]
            for i, r0 in enumerate(starts):
                for j, c0 in enumerate(starts):
                    out.append((f"w{i}{j}", [(r0 + r) * size + c0 + c for r in range(rows) for c in range(rows)]))
        return out

    def check(self, values: np.ndarray, box=None) -> str | None:
        """Why the solved grid ``values`` breaks these rules (beyond rows, columns and boxes), or
        None. Cell by cell, independent of the exact cover: the tests' judge."""
        size = int(round(values.size ** 0.5))
        for name, cells in self.units(size, box):
            if sorted(values[cells].tolist()) != list(range(1, size + 1)):
                return f"unit {name} does not hold every value once"
        if self.regions is not None:
            regions = np.array(self.regions)
            for k in range(size):
                if sorted(values[regions == k].tolist()) != list(range(1, size + 1)):
                    return f"region {k + 1} does not hold every value once"
        for k, (total, cells) in enumerate(self.cages):
            got = values[list(cells)].tolist()
            if len(set(got)) != len(got) or sum(got) != total:
                return f"cage {k + 1} holds {got}, not different values adding up to {total}"
        return None


X = Variant(diagonals=True)
WINDOKU = Variant(windows=True)


def named(name: str | Variant | None) -> Variant | None:
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

    >>> jigsaw("AABB|AABB|CCDD|CCDD").regions[:4]
    (0, 0, 1, 1)
    """
    labels = _IGNORED.sub("", regions)
    size = grid_size(len(labels)) or int(round(len(labels) ** 0.5))
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


def killer(cages: str, sums) -> Variant:
    """Killer sudoku: ``cages`` is a grid of labels (one per cell; ``.`` for a cell in no cage) and
    ``sums`` each label's sum, as a mapping or as text ``"a=3 b=15 ..."``. The values of a cage
    differ and add up to its sum.

    >>> v = killer("aabc|dabc|deef|ggef", "a=7 b=4 c=6 d=5 e=7 f=4 g=7")
    >>> v.cages[0]
    (7, (0, 1, 5))
    """
    labels = _IGNORED.sub("", cages)
    size = int(round(len(labels) ** 0.5))
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
        total = int(sums[label])
        if len(cells) > size:
            raise PuzzleError(f"cage {label!r} has {len(cells)} cells, more than {size} different values")
        least, most = sum(range(1, len(cells) + 1)), sum(range(size - len(cells) + 1, size + 1))
        if not least <= total <= most:
            raise PuzzleError(f"cage {label!r}: {len(cells)} different values add up to {least}..{most}, "
                              f"not {total}")
        out.append((total, cells))
    return Variant(cages=tuple(out), cells=len(labels))
