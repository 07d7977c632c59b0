"""Pictures as SVG text: a grid of labelled cells (a packing, a tiling, a sudoku), shown inline by
Jupyter and written to a file as it is. No drawing library: SVG is text.

Examples:
    >>> picture = cells({(0, 0): "A", (0, 1): "A", (1, 0): "B", (1, 1): "B"})
    >>> picture.startswith("<svg") and picture.count("<rect") == 4
    True
"""
from __future__ import annotations

from collections.abc import Hashable, Mapping
from html import escape

#: Fill colours, one per piece in order of first appearance (then again from the start).
PALETTE = ("#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6",
           "#bcf60c", "#fabebe", "#008080", "#e6beff", "#9a6324", "#fffac8", "#800000", "#aaffc3",
           "#808000", "#ffd8b1", "#000075", "#808080")
CELL = 28
#: A cell's four sides: the neighbour across it (row, column offsets) and its ends, in cells.
SIDES = ((-1, 0, 0, 0, 1, 0), (1, 0, 0, 1, 1, 1), (0, -1, 0, 0, 0, 1), (0, 1, 1, 0, 1, 1))


class Picture(str):
    """SVG text that Jupyter shows as a picture (``_repr_svg_``); a plain ``str`` otherwise."""

    def _repr_svg_(self) -> str:
        return str(self)


def cells(labels: Mapping[tuple[int, int], Hashable], *, text: Mapping[tuple[int, int], str] | None = None,
          fill: bool = True, bold: Mapping[tuple[int, int], bool] | None = None) -> Picture:
    """A grid picture: cell ``(row, col)`` filled with its label's colour (``fill``), a thick line
    wherever two neighbouring cells have different labels (or a cell meets the outside), ``text``
    written in the cells that have one (in bold where ``bold`` says). Cost: linear in the cells."""
    if not labels:
        return Picture('<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"></svg>')
    rows = 1 + max(r for r, _ in labels)
    cols = 1 + max(c for _, c in labels)
    colour: dict[Hashable, str] = {}
    for label in labels.values():
        colour.setdefault(label, PALETTE[len(colour) % len(PALETTE)])
    w, h = cols * CELL + 4, rows * CELL + 4
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="-2 -2 {w} {h}">']
    for (r, c), label in sorted(labels.items()):
        shade = colour[label] if fill else "#ffffff"
        out.append(f'<rect x="{c * CELL}" y="{r * CELL}" width="{CELL}" height="{CELL}" fill="{shade}" '
                   'stroke="#bbbbbb" stroke-width="0.5"/>')
    for (r, c), label in sorted(labels.items()):
        for dr, dc, x1, y1, x2, y2 in SIDES:
            if labels.get((r + dr, c + dc)) != label:
                out.append(f'<line x1="{(c + x1) * CELL}" y1="{(r + y1) * CELL}" x2="{(c + x2) * CELL}" '
                           f'y2="{(r + y2) * CELL}" stroke="#000000" stroke-width="2"/>')
    for (r, c), written in sorted((text or {}).items()):
        weight = "bold" if bold and bold.get((r, c)) else "normal"
        ink = "#000000" if weight == "bold" else "#1f4e9c"
        out.append(f'<text x="{c * CELL + CELL / 2}" y="{r * CELL + CELL * 0.7}" font-family="sans-serif" '
                   f'font-size="{CELL * 0.6:g}" font-weight="{weight}" fill="{ink}" text-anchor="middle">'
                   f"{escape(written)}</text>")
    out.append("</svg>")
    return Picture("".join(out))
