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

import numpy as np
from numba import njit

from .board import Board, Houses, bits
from .kernel import next_combination, ones, rows
from .steps import Step, make

NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def _lines(board: Board, rows: bool) -> tuple[list[int], list[int]]:
    """The base and cover houses when the base is rows (``rows``) or columns."""
    size = board.size
    lines = list(range(size)), list(range(size, 2 * size))
    return lines if rows else (lines[1], lines[0])


def fish(board: Board, n: int, kind: str = "basic") -> Iterator[Step]:
    """Fish of ``n`` base lines, ``kind`` "basic", "finned" or "sashimi", digit by digit, rows as
    the base before columns, base sets and then cover sets in the order of their lines. Cost:
    C(N, n) base sets per digit and orientation, and for finned ones C(places, n) cover sets
    each, searched in numba; finned and sashimi ones are found in one search, kept until the
    board changes."""
    if kind == "basic":
        return _fish(board, n, False)
    found = board.memo(("fins", n), lambda: _records(board, n, True))
    sashimi = kind == "sashimi"
    return (_step(board, n, True, record) for record in found if record[4] == sashimi)


def _fish(board: Board, n: int, finned: bool) -> Iterator[Step]:
    """Basic fish, or (``finned``) finned and sashimi ones together, as steps."""
    return (_step(board, n, finned, record) for record in _records(board, n, finned))


def _records(board: Board, n: int, finned: bool) -> list[list[int]]:
    """The kernel's rows for the fish of ``n`` lines (`_search`)."""
    houses = board.houses
    cand = board.cand_array()
    return rows(lambda out: _search(cand, houses.box_array, board.size, n, finned, houses.widest, out), 5)


def _step(board: Board, n: int, finned: bool, record: list[int]) -> Step:
    """The step of one fish the kernel found: its eliminations and HoDoKu's text."""
    houses = board.houses
    size = board.size
    mask = houses.mask
    d, o, base_set, cover_set, sashimi = record
    base_lines, cover_lines = _lines(board, o == 0)
    base = tuple(base_lines[i] for i in bits(base_set))
    cover = [cover_lines[k] for k in bits(cover_set)]
    where = board.where[d]
    cells = cover_cells = 0
    for h in base:
        cells |= where & mask[h]
    for h in cover:
        cover_cells |= mask[h]
    detail = _detail(houses, d, base, cover)
    if not finned:
        return make(NAMES[n], size, removed=[(c, d) for c in bits(where & cover_cells & ~cells)], detail=detail)
    fins = cells & ~cover_cells
    fin_box = mask[houses.blocks[houses.box[(fins & -fins).bit_length() - 1]]]
    fin_text = " fin" + ("s" if fins.bit_count() > 1 else "") + " " + ",".join(
        f"r{c // size + 1}c{c % size + 1}" for c in bits(fins))
    return make(f"{'Sashimi' if sashimi else 'Finned'} {NAMES[n]}", size,
                removed=[(c, d) for c in bits(where & cover_cells & fin_box & ~cells)], detail=detail + fin_text)


@njit(cache=True, nogil=True)
def _search(cand: np.ndarray, box: np.ndarray, size: int, n: int, finned: bool, widest: np.ndarray,
            out: np.ndarray) -> int:
    """Every fish of ``n`` lines with an elimination, as rows ``(digit, orientation (0: rows are the
    base), base lines, cover lines (both as bitsets of line numbers), sashimi)`` in the order
    `fish` yields them; -1 when ``out`` has no room for them all. A line's places are a bitset of
    positions across it; a finned fish's fins must share one box, so its base lines reach across
    at most ``n + widest`` lines (``widest``: most columns, then rows, a box spans)."""
    found = 0
    lines = np.zeros((2, size), np.int64)       # [0, r]: the columns of d in row r; [1, c]: the rows in column c
    usable = np.zeros(size, np.int64)
    across = np.zeros(size, np.int64)
    idx = np.zeros(n, np.int64)
    chosen = np.zeros(n, np.int64)
    for d in range(1, size + 1):
        bit = np.int64(1) << (d - 1)
        lines[:] = 0
        for r in range(size):
            for c in range(size):
                if cand[r * size + c] & bit:
                    lines[0, r] |= np.int64(1) << c
                    lines[1, c] |= np.int64(1) << r
        for o in range(2):
            places = lines[o]
            other = lines[1 - o]
            m = 0
            for i in range(size):
                if places[i] != 0 and (finned or ones(places[i]) <= n):
                    usable[m] = i
                    m += 1
            if m < n:
                continue
            for k in range(n):
                idx[k] = k
            while True:
                base = np.int64(0)
                union = np.int64(0)
                for k in range(n):
                    base |= np.int64(1) << usable[idx[k]]
                    union |= places[usable[idx[k]]]
                width = ones(union)
                if not finned and width == n:
                    gone = False
                    for k in range(size):
                        if union >> k & 1 and other[k] & ~base:
                            gone = True
                    if gone:
                        if found == out.shape[0]:
                            return -1
                        out[found, 0], out[found, 1], out[found, 2], out[found, 3], out[found, 4] = d, o, base, union, 0
                        found += 1
                elif finned and n < width <= n + widest[o]:
                    a = 0
                    for j in range(size):
                        if union >> j & 1:
                            across[a] = j
                            a += 1
                    for k in range(n):
                        chosen[k] = k
                    while True:
                        cover = np.int64(0)
                        for k in range(n):
                            cover |= np.int64(1) << across[chosen[k]]
                        fin_box = -1
                        one_box = True
                        for k in range(n):
                            i = usable[idx[k]]
                            fins = places[i] & ~cover
                            for j in range(size):
                                if fins >> j & 1:
                                    b = box[i * size + j] if o == 0 else box[j * size + i]
                                    if fin_box < 0:
                                        fin_box = b
                                    elif b != fin_box:
                                        one_box = False
                        if fin_box >= 0 and one_box:
                            gone = False
                            for k in range(size):
                                if cover >> k & 1:
                                    targets = other[k] & ~base
                                    for j in range(size):
                                        if targets >> j & 1:
                                            b = box[j * size + k] if o == 0 else box[k * size + j]
                                            if b == fin_box:
                                                gone = True
                            if gone:
                                sashimi = 0
                                for k in range(n):
                                    if ones(places[usable[idx[k]]] & cover) <= 1:
                                        sashimi = 1
                                if found == out.shape[0]:
                                    return -1
                                out[found, 0], out[found, 1], out[found, 2] = d, o, base
                                out[found, 3], out[found, 4] = cover, sashimi
                                found += 1
                        if not next_combination(chosen, n, a):
                            break
                if not next_combination(idx, n, m):
                    break
    return found


def _detail(houses: Houses, d: int, base: tuple[int, ...] | list[int], cover: list[int]) -> str:
    name = houses.name
    return f"{d} {''.join(name(h)[0] for h in base[:1])}{''.join(name(h)[1:] for h in base)} " \
           f"{''.join(name(h)[0] for h in cover[:1])}{''.join(name(h)[1:] for h in cover)}"
