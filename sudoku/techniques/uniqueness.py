"""Uniqueness: a puzzle with one solution never leaves a deadly pattern.

Four empty cells on two rows, two columns and two boxes that could all hold only the same two
digits a, b would let a solution swap a and b among them and stay a solution: a "deadly
rectangle". A puzzle known to have one solution cannot end that way, so whatever would leave one
is false. The types say which extra candidates (on the *roof*, the corners beside the two bivalue
*floor* corners) break it:

- type 1: one corner has extras: it loses a and b;
- type 2: two roof corners have the same one extra c: one of them is c, so cells seeing both lose c;
- type 3: the roof's extras, with other cells of a house they share, make a naked subset;
- type 4: a is locked to the roof in a house it shares: the roof loses b;
- type 5: two or three corners have the same one extra c, not side by side: cells seeing them all lose it;
- type 6: a is locked to the rectangle in both its rows and columns and the roof is a diagonal:
  the roof loses a;
- hidden rectangle: a is locked to the rectangle in the row and column of the corner opposite a
  bivalue one: that corner loses b.

These rest on the puzzle having one solution; [`sudoku.is_unique`][sudoku.is_unique] proves it.
"""
from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from .board import Board, Houses, bits, digits
from .steps import Step, cells_text, make

NAMES = {1: "Uniqueness Test 1", 2: "Uniqueness Test 2", 3: "Uniqueness Test 3", 4: "Uniqueness Test 4",
         5: "Uniqueness Test 5", 6: "Uniqueness Test 6", 7: "Hidden Rectangle"}


def rectangles(board: Board) -> list[tuple[list[int], int, int]]:
    """``(corners, a, b)`` for every possible deadly rectangle, from each bivalue cell in order:
    corners in the order cell, same row, same column, opposite; all empty, in two boxes, each
    holding a or b, and every other house (a diagonal, a window) through an even number of them.
    A corner may have lost one of them already: the argument is about solutions, not candidates
    (swapping a and b in a solution's rectangle gives another one whatever the candidates said),
    and HoDoKu counts such rectangles too. Kept until the board changes: the seven types share it."""
    return board.memo("rectangles", lambda: list(_rectangles(board)))


def _rectangles(board: Board) -> Iterator[tuple[list[int], int, int]]:
    size = board.size
    hs = board.houses
    cand = board.cand
    seen = set()
    for cell in bits(board.empty):
        mask = cand[cell]
        if mask.bit_count() != 2:
            continue
        r, c = divmod(cell, size)
        rows = [r2 for r2 in range(size) if r2 != r and cand[r2 * size + c] & mask]
        cols = [c2 for c2 in range(size) if c2 != c and cand[r * size + c2] & mask]
        for r2 in rows:
            for c2 in cols:
                opposite = r2 * size + c2
                if not cand[opposite] & mask:
                    continue
                corners = [cell, r * size + c2, r2 * size + c, opposite]
                if len({hs.box[x] for x in corners}) != 2 or not _even(hs, corners):
                    continue
                key = (frozenset(corners), mask)
                if key in seen:
                    continue
                seen.add(key)
                a, b = digits(mask)
                yield corners, a, b


def _even(hs: Houses, corners: list[int]) -> bool:
    """Whether every house holds an even number of the corners: only then does swapping a and b
    leave every house with its digits (a diagonal or window through one corner forbids it)."""
    rect = sum(1 << x for x in corners)
    return all((rect & mask).bit_count() % 2 == 0 for mask in hs.mask[3 * hs.size:])


def uniqueness(board: Board, kind: int) -> Iterator[Step]:
    """Deductions of type ``kind`` (1-6, 7 for a hidden rectangle) from every deadly rectangle."""
    for corners, a, b in rectangles(board):
        step = _TYPES[kind](board, corners, a, b)
        if step is not None:
            yield step


def avoidable(board: Board, kind: int) -> Iterator[Step]:
    """Avoidable rectangles: the deadly pattern among digits placed since the start (not givens),
    which could swap as well as candidates could. Type 1: three corners placed, the two beside the
    empty one equal (b) and the opposite one a: the empty corner is not a. Type 2: two corners of
    a line placed, a and b, and the corners across holding b, c and a, c: one of them is c, so
    cells that see both lose c."""
    size = board.size
    hs = board.houses
    moved = hs.all & ~board.empty & ~board.given
    if not moved:
        return
    value, cand, empty = board.value, board.cand, board.empty
    in_row = [0] * size                  # in_row[r]: the columns of row r placed since the start
    in_col = [0] * size                  # in_col[c]: the rows of column c placed since the start
    for k in bits(moved):
        in_row[k // size] |= 1 << (k % size)
        in_col[k % size] |= 1 << (k // size)
    for w in bits(empty):
        if kind == 2 and cand[w].bit_count() != 2:
            continue
        r, c = divmod(w, size)
        for r2 in bits(in_col[c]) if kind == 1 else range(size):
            for c2 in bits(in_row[r] & in_row[r2]) if kind == 1 else bits(in_row[r2] & ~(1 << c)):
                if r2 == r:
                    continue
                x, y, o = r * size + c2, r2 * size + c, r2 * size + c2
                if kind == 1:
                    a, b = value[o], value[x]
                    if value[y] != b or b == a or not cand[w] >> (a - 1) & 1:
                        continue
                    gone, floor = [(w, a)], (a, b)
                else:
                    # the other empty corner on w's row (then the placed pair is on the row across)
                    # or on its column
                    for partner, across in ((x, y), (y, x)):
                        if empty >> partner & 1 and moved >> across & 1 and w < partner:
                            break
                    else:
                        continue
                    a, b = value[across], value[o]     # the deadly pattern: w as o, its partner as across
                    extra = cand[w] & ~(1 << (b - 1))
                    if a == b or extra.bit_count() != 1 or not cand[w] >> (b - 1) & 1 or \
                            cand[partner] != extra | (1 << (a - 1)):
                        continue
                    e = extra.bit_length()
                    gone, floor = [(k, e) for k in bits(board.where[e] & hs.peers[w] & hs.peers[partner])], (a, b)
                corners = [w, x, y, o]
                if gone and len({hs.box[k] for k in corners}) == 2 and _even(hs, corners):
                    yield _avoidable(board, kind, corners, *floor, gone)


def _avoidable(board: Board, kind: int, corners: list[int], a: int, b: int, removed: list[tuple[int, int]]) -> Step:
    return make(f"Avoidable Rectangle Type {kind}", board.size, removed=removed,
                detail=f"{min(a, b)}/{max(a, b)} in {cells_text(corners, board.size)}")


def _name(board: Board, kind: int, corners: list[int], a: int, b: int, removed: list[tuple[int, int]]) -> Step:
    return make(NAMES[kind], board.size, removed=removed,
                detail=f"{a}/{b} in {cells_text(corners, board.size)}")


def _extras(board: Board, corners: list[int], pair: int) -> list[int]:
    return [x for x in corners if board.cand[x] != pair]


def _type1(board: Board, corners: list[int], a: int, b: int) -> Step | None:
    pair = (1 << (a - 1)) | (1 << (b - 1))
    extra = _extras(board, corners, pair)
    if len(extra) != 1:
        return None
    return _name(board, 1, corners, a, b, [(extra[0], d) for d in digits(board.cand[extra[0]] & pair)])


def _roof(board: Board, corners: list[int], pair: int) -> tuple[int, int, list[int]] | None:
    """The two roof corners when exactly two corners have extras and they share a house, with the
    houses they share."""
    extra = _extras(board, corners, pair)
    if len(extra) != 2:
        return None
    p, q = extra
    shared = board.houses.common((1 << p) | (1 << q))
    if not shared:
        return None
    return p, q, shared


def _seen_by_all(board: Board, cells: list[int], d: int) -> int:
    seen = board.where[d]
    for c in cells:
        seen &= board.houses.peers[c]
    return seen


def _type2(board: Board, corners: list[int], a: int, b: int) -> Step | None:
    pair = (1 << (a - 1)) | (1 << (b - 1))
    roof = _roof(board, corners, pair)
    if roof is None:
        return None
    p, q, _ = roof
    extra = board.cand[p] & ~pair
    if board.cand[q] & ~pair != extra or extra.bit_count() != 1:
        return None
    c = extra.bit_length()
    gone = [(x, c) for x in bits(_seen_by_all(board, [p, q], c))]
    return _name(board, 2, corners, a, b, gone) if gone else None


def _type3(board: Board, corners: list[int], a: int, b: int) -> Step | None:
    pair = (1 << (a - 1)) | (1 << (b - 1))
    roof = _roof(board, corners, pair)
    if roof is None:
        return None
    p, q, shared = roof
    extra = (board.cand[p] | board.cand[q]) & ~pair
    hs = board.houses
    for h in shared:
        others = [x for x in hs.cells[h] if x not in (p, q) and board.value[x] == 0]
        for n in range(1, len(others)):
            for group in combinations(others, n):
                union = extra
                for x in group:
                    union |= board.cand[x]
                if union.bit_count() != n + 1:
                    continue
                cells = sum(1 << x for x in group) | (1 << p) | (1 << q)
                gone = [(x, d) for g in hs.common(cells) for x in hs.cells[g]
                        if board.value[x] == 0 and not cells >> x & 1 for d in digits(board.cand[x] & union)]
                if gone:
                    return _name(board, 3, corners, a, b, gone)
    return None


def _type4(board: Board, corners: list[int], a: int, b: int) -> Step | None:
    pair = (1 << (a - 1)) | (1 << (b - 1))
    roof = _roof(board, corners, pair)
    if roof is None:
        return None
    p, q, shared = roof
    both = (1 << p) | (1 << q)
    for locked, other in ((a, b), (b, a)):
        if any(board.where[locked] & board.houses.mask[h] == both for h in shared):
            gone = [(x, other) for x in (p, q) if board.cand[x] >> (other - 1) & 1]
            if gone:
                return _name(board, 4, corners, a, b, gone)
    return None


def _type5(board: Board, corners: list[int], a: int, b: int) -> Step | None:
    pair = (1 << (a - 1)) | (1 << (b - 1))
    extra = _extras(board, corners, pair)
    if len(extra) not in (2, 3):
        return None
    masks = {board.cand[x] & ~pair for x in extra}
    if len(masks) != 1 or next(iter(masks)).bit_count() != 1:
        return None
    if len(extra) == 2 and board.houses.common((1 << extra[0]) | (1 << extra[1])):
        return None                                                 # side by side: type 2
    c = next(iter(masks)).bit_length()
    gone = [(x, c) for x in bits(_seen_by_all(board, extra, c))]
    return _name(board, 5, corners, a, b, gone) if gone else None


def _type6(board: Board, corners: list[int], a: int, b: int) -> Step | None:
    pair = (1 << (a - 1)) | (1 << (b - 1))
    extra = _extras(board, corners, pair)
    if len(extra) != 2 or board.houses.common((1 << extra[0]) | (1 << extra[1])):
        return None
    rect = sum(1 << x for x in corners)
    hs = board.houses
    lines = {hs.row[x] for x in corners} | {board.size + hs.col[x] for x in corners}
    for d in (a, b):
        if all(board.where[d] & hs.mask[h] & ~rect == 0 for h in lines):
            return _name(board, 6, corners, a, b, [(x, d) for x in extra])
    return None


def _hidden(board: Board, corners: list[int], a: int, b: int) -> Step | None:
    pair = (1 << (a - 1)) | (1 << (b - 1))
    if sum(board.cand[x] == pair for x in corners) not in (1, 2):
        return None
    hs = board.houses
    size = board.size
    rect = sum(1 << x for x in corners)
    for floor in corners:
        if board.cand[floor] != pair:
            continue
        opposite = next(x for x in corners if hs.row[x] != hs.row[floor] and hs.col[x] != hs.col[floor])
        row, col = hs.row[opposite], size + hs.col[opposite]
        for d, other in ((a, b), (b, a)):
            if any(not board.cand[x] >> (d - 1) & 1 for x in corners):
                continue
            if all(board.where[d] & hs.mask[h] & ~rect == 0 for h in (row, col)):
                if board.cand[opposite] >> (other - 1) & 1:
                    return _name(board, 7, corners, a, b, [(opposite, other)])
    return None


_TYPES = {1: _type1, 2: _type2, 3: _type3, 4: _type4, 5: _type5, 6: _type6, 7: _hidden}
