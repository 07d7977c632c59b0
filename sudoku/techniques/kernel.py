"""The singles in numba: placing digits, taking candidates, and every single that follows, in
HoDoKu's order.

Most steps of most solves are singles (full houses, naked and hidden singles), each a placement
that takes the digit from a dozen peers. In Python that bookkeeping is most of an easy puzzle's
time; here it runs on flat arrays. The rules are those of
[`Board`][sudoku.techniques.board.Board], step for step: a placement takes the digit from the peers
(in cell order) and then the cell's candidates (in digit order); each elimination that leaves a
cell one candidate queues a naked single, and each that leaves a digit one place in a house
queues a hidden single. The next single is the first queued full house, else the first queued
naked single, else the first queued hidden single, as HoDoKu takes them, so that both name the
same cell. The tests check the kernel against the Python board on random puzzles.

State, for a grid of ``cells`` cells, ``size`` digits and ``H`` houses:

- ``value[cell]`` (0 when empty) and ``cand[cell]`` (bit ``d - 1`` for digit ``d``);
- ``count[h, d]``: how many cells of house ``h`` hold candidate ``d``; ``free[h]``: its empty cells;
- the two queues, ``(cell, digit)`` rows with ``[head, tail]``: entries before ``head`` are spent.

Layout, from [`Houses`][sudoku.techniques.board.Houses]: ``of[cell]`` its houses (padded with
-1), ``cells[h]`` a house's cells, ``peers[cell]`` its peers in order (padded with -1).
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

#: Codes of the singles in the log, in HoDoKu's order of trying them.
FULL_HOUSE, NAKED_SINGLE, HIDDEN_SINGLE = 0, 1, 2


@njit(cache=True, nogil=True)
def ones(x: int) -> int:
    """The number of set bits of ``x``."""
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True, nogil=True)
def next_combination(idx: np.ndarray, n: int, m: int) -> bool:
    """Step ``idx`` (``n`` increasing indices below ``m``) to the next combination in
    lexicographic order; False after the last."""
    i = n - 1
    while i >= 0 and idx[i] == m - n + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, n):
        idx[j] = idx[j - 1] + 1
    return True


@njit(cache=True, nogil=True)
def union_of(cand: np.ndarray, cells: np.ndarray, idx: np.ndarray, n: int) -> int:
    """The candidates of the cells ``cells[idx[0]], ..., cells[idx[n - 1]]`` together."""
    union = np.int64(0)
    for k in range(n):
        union |= cand[cells[idx[k]]]
    return union


def rows(search: Callable[[np.ndarray], int], width: int, room: int = 16) -> list[list[int]]:
    """The rows a search kernel writes into ``out`` (``search(out)``, returning how many, or -1
    when ``out`` is full: then again with eight times the room)."""
    while (count := search(out := np.empty((room, width), np.int64))) < 0:
        room *= 8
    return out[:count].tolist()


@njit(cache=True, nogil=True, inline="always")
def _push(queue: np.ndarray, ends: np.ndarray, cell: int, d: int) -> None:
    queue[ends[1], 0] = cell
    queue[ends[1], 1] = d
    ends[1] += 1


@njit(cache=True, nogil=True, inline="always")
def eliminate(cell: int, d: int, cand: np.ndarray, count: np.ndarray, of: np.ndarray, cells: np.ndarray,
              naked: np.ndarray, nends: np.ndarray, hidden: np.ndarray, hends: np.ndarray) -> bool:
    """Take candidate ``d`` from ``cell``, queueing the singles it makes; False when it was gone."""
    bit = np.int64(1) << (d - 1)
    if cand[cell] & bit == 0:
        return False
    left = cand[cell] & ~bit
    cand[cell] = left
    if left != 0 and left & (left - 1) == 0:
        e = 1
        while left >> (e - 1) != 1:
            e += 1
        _push(naked, nends, cell, e)
    for k in range(of.shape[1]):
        h = of[cell, k]
        if h < 0:
            break
        count[h, d] -= 1
        if count[h, d] == 1:
            for c in cells[h]:
                if cand[c] & bit:
                    _push(hidden, hends, c, d)
                    break
    return True


@njit(cache=True, nogil=True)
def place(cell: int, d: int, value: np.ndarray, cand: np.ndarray, count: np.ndarray, free: np.ndarray,
          of: np.ndarray, cells: np.ndarray, peers: np.ndarray, naked: np.ndarray, nends: np.ndarray,
          hidden: np.ndarray, hends: np.ndarray) -> None:
    """Set ``cell`` to ``d``: ``d`` goes from every peer, then the cell loses its candidates."""
    value[cell] = d
    for k in range(of.shape[1]):
        h = of[cell, k]
        if h < 0:
            break
        free[h] -= 1
    bit = np.int64(1) << (d - 1)
    for p in peers[cell]:
        if p < 0:
            break
        if cand[p] & bit:
            eliminate(p, d, cand, count, of, cells, naked, nends, hidden, hends)
    left = cand[cell]
    e = 1
    while left:
        if left & 1:
            eliminate(cell, e, cand, count, of, cells, naked, nends, hidden, hends)
        left >>= 1
        e += 1


@njit(cache=True, nogil=True, inline="always")
def _live(cell: int, d: int, value: np.ndarray, cand: np.ndarray) -> bool:
    return value[cell] == 0 and (cand[cell] >> (d - 1)) & 1 == 1


@njit(cache=True, nogil=True)
def _compact(queue: np.ndarray, ends: np.ndarray, value: np.ndarray, cand: np.ndarray, naked: bool) -> None:
    """Drop the spent entries of a queue, keeping the order of the rest: an entry that is no
    single now never is one again, so only the live ones matter."""
    kept = 0
    for i in range(ends[0], ends[1]):
        cell, d = queue[i, 0], queue[i, 1]
        if _live(cell, d, value, cand) and (not naked or cand[cell] == np.int64(1) << (d - 1)):
            queue[kept, 0], queue[kept, 1] = cell, d
            kept += 1
    ends[0], ends[1] = 0, kept


@njit(cache=True, nogil=True)
def _next_single(value: np.ndarray, cand: np.ndarray, count: np.ndarray, free: np.ndarray, of: np.ndarray,
                 naked: np.ndarray, nends: np.ndarray, hidden: np.ndarray, hends: np.ndarray) -> tuple:
    """``(code, cell, digit)`` of the single HoDoKu takes next, or ``(-1, -1, -1)``; spent entries
    leave the front of each queue."""
    while nends[0] < nends[1] and not _live(naked[nends[0], 0], naked[nends[0], 1], value, cand):
        nends[0] += 1
    for i in range(nends[0], nends[1]):
        cell, d = naked[i, 0], naked[i, 1]
        if value[cell] == 0 and cand[cell] == np.int64(1) << (d - 1):
            for k in range(of.shape[1]):
                h = of[cell, k]
                if h < 0:
                    break
                if free[h] == 1:
                    return FULL_HOUSE, cell, d
    for i in range(nends[0], nends[1]):
        cell, d = naked[i, 0], naked[i, 1]
        if value[cell] == 0 and cand[cell] == np.int64(1) << (d - 1):
            return NAKED_SINGLE, cell, d
    while hends[0] < hends[1] and not _live(hidden[hends[0], 0], hidden[hends[0], 1], value, cand):
        hends[0] += 1
    for i in range(hends[0], hends[1]):
        cell, d = hidden[i, 0], hidden[i, 1]
        if _live(cell, d, value, cand):
            for k in range(of.shape[1]):
                h = of[cell, k]
                if h < 0:
                    break
                if count[h, d] == 1:
                    return HIDDEN_SINGLE, cell, d
    return -1, -1, -1


@njit(cache=True, nogil=True)
def run(givens: np.ndarray, value: np.ndarray, cand: np.ndarray, of: np.ndarray, cells: np.ndarray,
        peers: np.ndarray, naked: np.ndarray, nends: np.ndarray, hidden: np.ndarray, hends: np.ndarray,
        log: np.ndarray, words: np.ndarray, take: bool) -> int:
    """Place ``givens`` (cell, digit rows, in order, unlogged), then (``take``) take singles while
    there are any, logging each as ``(code, cell, digit)``. Returns the number logged. ``value`` and
    ``cand`` are updated in place; ``words`` receives the board's bitsets, 64 cells a word: row
    0 the empty cells, row ``d`` the cells holding ``d``. Cost: O(peers) a placement."""
    n_houses = cells.shape[0]
    size = cells.shape[1]
    count = np.zeros((n_houses, size + 1), np.int32)
    free = np.zeros(n_houses, np.int32)
    for h in range(n_houses):
        for c in cells[h]:
            if value[c] == 0:
                free[h] += 1
            left = cand[c]
            e = 1
            while left:
                if left & 1:
                    count[h, e] += 1
                left >>= 1
                e += 1
    for g in range(givens.shape[0]):
        place(givens[g, 0], givens[g, 1], value, cand, count, free, of, cells, peers, naked, nends, hidden, hends)
    logged = 0
    while take:
        code, cell, d = _next_single(value, cand, count, free, of, naked, nends, hidden, hends)
        if code < 0:
            break
        log[logged, 0] = code
        log[logged, 1] = cell
        log[logged, 2] = d
        logged += 1
        place(cell, d, value, cand, count, free, of, cells, peers, naked, nends, hidden, hends)
    _compact(naked, nends, value, cand, True)
    _compact(hidden, hends, value, cand, False)
    words[:] = 0
    for c in range(value.shape[0]):
        w, b = c >> 6, np.uint64(c & 63)
        if value[c] == 0:
            words[0, w] |= np.uint64(1) << b
        left = cand[c]
        e = 1
        while left:
            if left & 1:
                words[e, w] |= np.uint64(1) << b
            left >>= 1
            e += 1
    return logged
