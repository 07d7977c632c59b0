"""Fish: a digit's places in ``n`` lines (the base) lie within ``n`` lines across (the cover).

Each base line must hold the digit once, in one of the cover lines, so the ``n`` base lines use up
the digit's ``n`` places in the cover lines, and the cover lines' other cells lose it: an X-wing
(``n = 2``), swordfish (3) or jellyfish (4). A finned fish has extra places, the fins, outside the
cover, all in one box: either a fin holds the digit, or the fish stands; so only cells of the cover
that also see every fin (in the fin's box) lose it. It is sashimi when some base line, fins aside,
has a single place left: without the fins it would be no fish at all.

Exact cover: the base lines' digit items have all their options inside the cover lines' items; a
fish is a subset of ``n`` items over ``n`` others, the general deduction of
[`sudoku.techniques.basic`][sudoku.techniques.basic].
"""
from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from .board import Board, Houses, bits
from .steps import Step, make

NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def _lines(board: Board, rows: bool) -> tuple[list[int], list[int]]:
    """The base and cover houses when the base is rows (``rows``) or columns."""
    size = board.size
    lines = list(range(size)), list(range(size, 2 * size))
    return lines if rows else (lines[1], lines[0])


def fish(board: Board, n: int, kind: str = "basic") -> Iterator[Step]:
    """Fish of ``n`` base lines, ``kind`` "basic", "finned" or "sashimi", digit by digit, rows as
    the base before columns. Cost: C(N, n) base sets per digit and orientation, and for finned
    ones C(places, n) cover sets each; finned and sashimi ones are found in one search, kept
    until the board changes."""
    if kind == "basic":
        return _fish(board, n, kind)
    found = board.memo(("fins", n), lambda: list(_fish(board, n, "finned")))
    return (step for step in found if step.technique.startswith(kind.capitalize()))


def _fish(board: Board, n: int, kind: str) -> Iterator[Step]:
    """Basic fish (``kind`` "basic"), or finned and sashimi ones together."""
    houses = board.houses
    size = board.size
    name = NAMES[n] if kind == "basic" else f"Finned {NAMES[n]}"
    for d in range(1, size + 1):
        where = board.where[d]
        for rows in (True, False):
            base_lines, cover_lines = _lines(board, rows)
            cross = houses.col if rows else houses.row
            widest = max(len({cross[c] for c in houses.cells[b]}) for b in houses.blocks)
            usable = [h for h in base_lines if where & houses.mask[h]
                      and (kind != "basic" or (where & houses.mask[h]).bit_count() <= n)]
            for base in combinations(usable, n):
                cells = 0
                for h in base:
                    cells |= where & houses.mask[h]
                across = sorted({cross[c] for c in bits(cells)})
                if kind == "basic":
                    if len(across) != n:
                        continue
                    cover = 0
                    for k in across:
                        cover |= houses.mask[cover_lines[k]]
                    gone = [(c, d) for c in bits(where & cover & ~cells)]
                    if gone:
                        yield make(name, size, removed=gone, detail=_detail(houses, d, base, [cover_lines[k]
                                                                                          for k in across]))
                    continue
                if not n < len(across) <= n + widest:      # fins lie in one box: a few lines across at most
                    continue
                yield from _finned(board, d, n, name, base, cells, across, cover_lines)


def _finned(board: Board, d: int, n: int, name: str, base: tuple[int, ...], cells: int,
            across: list[int], cover_lines: list[int]) -> Iterator[Step]:
    houses = board.houses
    where = board.where[d]
    for chosen in combinations(across, n):
        cover = 0
        for k in chosen:
            cover |= houses.mask[cover_lines[k]]
        fins = cells & ~cover
        if not fins:
            continue
        fin_box = houses.mask[houses.blocks[houses.box[(fins & -fins).bit_length() - 1]]]
        if fins & ~fin_box:
            continue                                    # fins in more than one box
        gone = [(c, d) for c in bits(where & cover & fin_box & ~cells)]
        if gone:
            sashimi = any((where & houses.mask[h] & cover).bit_count() <= 1 for h in base)
            fin_text = " fin" + ("s" if fins.bit_count() > 1 else "") + " " + ",".join(
                f"r{c // board.size + 1}c{c % board.size + 1}" for c in bits(fins))
            yield make(name.replace("Finned", "Sashimi") if sashimi else name, board.size, removed=gone,
                       detail=_detail(houses, d, base, [cover_lines[k] for k in chosen]) + fin_text)


def _detail(houses: Houses, d: int, base: tuple[int, ...] | list[int], cover: list[int]) -> str:
    name = houses.name
    return f"{d} {''.join(name(h)[0] for h in base[:1])}{''.join(name(h)[1:] for h in base)} " \
           f"{''.join(name(h)[0] for h in cover[:1])}{''.join(name(h)[1:] for h in cover)}"
