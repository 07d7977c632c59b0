"""Pencil marks as a picture: values, candidates, and what a step places and removes.

Each empty cell shows its candidates small, on a grid of ``k x k`` slots (``k`` the least with
``k * k >= N``: 3 for 9x9). The candidates a step removes are red and struck through; a digit it
places is green; the others grey. Thick lines mark the boxes or regions.
"""
from __future__ import annotations

import math

from dlx.svg import Picture

from .board import Board
from .steps import Step

CELL = 36


def picture(board: Board, step: Step | None = None) -> Picture:
    """``board`` as SVG (Jupyter shows it inline), with ``step``'s placements and eliminations
    marked. Cost: linear in the candidates."""
    hs = board.houses
    n = board.size
    k = math.isqrt(n - 1) + 1
    removed = set(step.removed) if step else set()
    placed = set(step.placed) if step else set()
    size = n * CELL + 4
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="-2 -2 {size} {size}">',
           f'<rect x="0" y="0" width="{n * CELL}" height="{n * CELL}" fill="#ffffff"/>']
    for cell in range(n * n):
        r, c = divmod(cell, n)
        x, y = c * CELL, r * CELL
        out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="none" stroke="#bbbbbb" '
                   'stroke-width="0.5"/>')
        for dr, dc, x1, y1, x2, y2 in ((-1, 0, 0, 0, 1, 0), (1, 0, 0, 1, 1, 1), (0, -1, 0, 0, 0, 1),
                                       (0, 1, 1, 0, 1, 1)):
            rr, cc = r + dr, c + dc
            if not (0 <= rr < n and 0 <= cc < n) or hs.box[rr * n + cc] != hs.box[cell]:
                out.append(f'<line x1="{x + x1 * CELL}" y1="{y + y1 * CELL}" x2="{x + x2 * CELL}" '
                           f'y2="{y + y2 * CELL}" stroke="#000000" stroke-width="2"/>')
        if board.value[cell]:
            out.append(_text(x + CELL / 2, y + CELL * 0.72, str(board.value[cell]), CELL * 0.6, "#000000"))
            continue
        for d in range(1, n + 1):
            if not board.cand[cell] >> (d - 1) & 1:
                continue
            sx = x + ((d - 1) % k + 0.5) * CELL / k
            sy = y + ((d - 1) // k + 0.8) * CELL / k
            ink = "#d62728" if (cell, d) in removed else "#2ca02c" if (cell, d) in placed else "#777777"
            out.append(_text(sx, sy, str(d), CELL / k * 0.85, ink, bold=ink != "#777777"))
            if (cell, d) in removed:
                h = CELL / k / 2.2
                out.append(f'<line x1="{sx - h:.1f}" y1="{sy - h:.1f}" x2="{sx + h:.1f}" y2="{sy - 0.2 * h:.1f}" '
                           'stroke="#d62728" stroke-width="1.2"/>')
    out.append("</svg>")
    return Picture("".join(out))


def _text(x: float, y: float, written: str, size: float, ink: str, bold: bool = False) -> str:
    weight = "bold" if bold else "normal"
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="{size:.1f}" font-weight="{weight}" '
            f'fill="{ink}" text-anchor="middle">{written}</text>')
