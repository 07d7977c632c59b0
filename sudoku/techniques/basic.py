"""Singles, intersections and subsets: the techniques of easy and medium puzzles.

Each finder yields every instance it sees, in the order HoDoKu looks (the solver takes the first).
Singles come from the board's queues (see [`sudoku.techniques.board`][sudoku.techniques.board]);
the rest scan houses and digits.

In exact-cover terms a sudoku has an item per cell, and per house and digit; a candidate is an
option covering four items. Every technique here is one deduction on that problem: when the
options of a set of items all lie inside the options of another set of as many items, the other
options of those items can go (a subset, a locked candidate, a fish).
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from itertools import combinations

import numpy as np
from numba import njit

from .board import Board, bits, digits
from .kernel import next_combination, ones, rows, union_of
from .steps import Step, cells_text, digits_text, make


def _valid_single(board: Board, cell: int, d: int) -> bool:
    return board.value[cell] == 0 and board.cand[cell] >> (d - 1) & 1 == 1


def _pending(board: Board, queue: deque[tuple[int, int]]) -> deque[tuple[int, int]]:
    """``queue`` with the singles already taken or gone dropped from its front: an entry that is no
    single now never is again, so the front is the first live one (amortised O(1))."""
    while queue and not _valid_single(board, *queue[0]):
        queue.popleft()
    return queue


def full_house(board: Board) -> Iterator[Step]:
    """The last empty cell of a house takes the digit the house lacks (HoDoKu's "Full House")."""
    houses = board.houses
    for cell, d in _pending(board, board.naked):
        if board.value[cell] == 0 and board.cand[cell] == 1 << (d - 1):
            if any(board.empty & houses.mask[h] == 1 << cell for h in houses.of[cell]):
                yield make("Full House", board.size, placed=[(cell, d)])


def naked_single(board: Board) -> Iterator[Step]:
    """A cell with one candidate left takes it. Exact cover: a cell's item with one option."""
    for cell, d in _pending(board, board.naked):
        if board.value[cell] == 0 and board.cand[cell] == 1 << (d - 1):
            yield make("Naked Single", board.size, placed=[(cell, d)])


def hidden_single(board: Board) -> Iterator[Step]:
    """A digit with one place left in a house goes there. Exact cover: a house-digit item with
    one option."""
    houses = board.houses
    for cell, d in _pending(board, board.hidden):
        if _valid_single(board, cell, d) and any(board.where[d] & houses.mask[h] == 1 << cell
                                                 for h in houses.of[cell]):
            yield make("Hidden Single", board.size, placed=[(cell, d)])


def _eliminations(board: Board, d: int, cells: int) -> list[tuple[int, int]]:
    return [(c, d) for c in bits(board.where[d] & cells)]


def locked_candidates(board: Board, pointing: bool) -> Iterator[Step]:
    """Type 1 (pointing): a digit's places in a box all lie in one row or column, so the rest of
    that line loses it. Type 2 (claiming): a digit's places in a row or column all lie in one
    box, so the rest of the box loses it. Exact cover: the options of one house-digit item all
    lie inside another's, so the other's remaining options go. Boxes (or lines) in order, digits
    in order; searched in numba."""
    houses = board.houses
    name = "Locked Candidates Type 1 (Pointing)" if pointing else "Locked Candidates Type 2 (Claiming)"
    cand = board.cand_array()
    for h, d, g in rows(lambda out: _intersections(cand, houses.cells_array, houses.box_array, board.size, pointing,
                                                     out), 3):
        gone = _eliminations(board, d, houses.mask[g] & ~houses.mask[h])
        yield make(name, board.size, removed=gone, detail=f"{d} in {houses.name(h)}")


def locked_subset(board: Board, n: int) -> Iterator[Step]:
    """A naked pair or triple inside the meeting of a box and a line: its digits leave both.
    Locked only when both houses lose a candidate outside the other (else it is a naked subset).
    Boxes in order, groups of cells in order; searched in numba."""
    houses = board.houses
    name = "Locked Pair" if n == 2 else "Locked Triple"
    for _box, *group, union in rows(lambda out: _locked_sets(board.cand_array(), houses.cells_array, houses.of_array,
                                                            board.size, n, out), n + 2):
        cellset = sum(1 << c for c in group)
        common = houses.common(cellset)
        gone = [(c, d) for g in sorted(common, key=lambda g: g in houses.blocks)   # the line's first
                for c in bits(houses.mask[g] & ~cellset) for d in digits(board.cand[c] & union)]
        yield make(name, board.size, removed=gone, order="given",
                   detail=f"{digits_text(digits(union))} in {cells_text(group, board.size)}")


@njit(cache=True, nogil=True)
def _in_house(cell: int, h: int, size: int, box: np.ndarray) -> bool:
    """Whether ``cell`` lies in row, column or box ``h`` (numbered as in `Houses`)."""
    if h < size:
        return cell // size == h
    if h < 2 * size:
        return cell % size == h - size
    return box[cell] == h - 2 * size


@njit(cache=True, nogil=True)
def _intersections(cand: np.ndarray, cells: np.ndarray, box: np.ndarray, size: int, pointing: bool,
                   out: np.ndarray) -> int:
    """Locked candidates as rows ``(base house, digit, house across)``: a digit's two or more places
    in a box (``pointing``; else a row or column) all in one row or column (else one box) that
    holds the digit elsewhere too. Returns the rows written; -1 when ``out`` is full."""
    found = 0
    for h in range(2 * size, 3 * size) if pointing else range(2 * size):
        for d in range(1, size + 1):
            bit = np.int64(1) << (d - 1)
            first = -1
            places = 0
            for c in cells[h]:
                if cand[c] & bit:
                    places += 1
                    if first < 0:
                        first = c
            if places < 2:
                continue
            for k in range(2 if pointing else 1):
                g = (first // size if k == 0 else size + first % size) if pointing else 2 * size + box[first]
                inside = True
                for c in cells[h]:
                    if cand[c] & bit and not _in_house(c, g, size, box):
                        inside = False
                if not inside:
                    continue
                gone = False
                for c in cells[g]:
                    if cand[c] & bit and not _in_house(c, h, size, box):
                        gone = True
                if gone:
                    if found == out.shape[0]:
                        return -1
                    out[found, 0], out[found, 1], out[found, 2] = h, d, g
                    found += 1
    return found


@njit(cache=True, nogil=True)
def _holds(of: np.ndarray, cell: int, h: int) -> bool:
    for k in range(of.shape[1]):
        if of[cell, k] == h:
            return True
    return False


@njit(cache=True, nogil=True)
def _locked_sets(cand: np.ndarray, cells: np.ndarray, of: np.ndarray, size: int, n: int, out: np.ndarray) -> int:
    """Locked pairs (``n`` 2) or triples (3) as rows ``(box house, its cells..., their digits)``:
    ``n`` empty cells of a box holding ``n`` digits in all, sharing exactly one other house, and
    each of the two houses holding one of the digits outside the other. Returns the rows
    written; -1 when ``out`` is full."""
    found = 0
    few = np.zeros(size, np.int64)
    idx = np.zeros(n, np.int64)
    for h in range(2 * size, 3 * size):
        empty = 0
        m = 0
        for c in cells[h]:
            if cand[c]:
                empty += 1
                if 2 <= ones(cand[c]) <= n:
                    few[m] = c
                    m += 1
        if empty <= n or m < n:
            continue
        for k in range(n):
            idx[k] = k
        while True:
            union = union_of(cand, few, idx, n)
            if ones(union) == n:
                first = few[idx[0]]
                common = np.full(2, -1, np.int64)
                shared = 0
                for j in range(of.shape[1]):
                    g = of[first, j]
                    if g < 0:
                        break
                    every = True
                    for k in range(1, n):
                        if not _holds(of, few[idx[k]], g):
                            every = False
                    if every:
                        if shared < 2:
                            common[shared] = g
                        shared += 1
                if shared == 2:
                    locked = True
                    for side in range(2):
                        g, other = common[side], common[1 - side]
                        outside = False
                        for c in cells[g]:
                            if cand[c] & union and not _holds(of, c, other):
                                outside = True
                        if not outside:
                            locked = False
                    if locked:
                        if found == out.shape[0]:
                            return -1
                        out[found, 0] = h
                        for k in range(n):
                            out[found, 1 + k] = few[idx[k]]
                        out[found, n + 1] = union
                        found += 1
            if not next_combination(idx, n, m):
                break
    return found


def _few(board: Board, n: int) -> int:
    """The empty cells with two to ``n`` candidates, as a bitset: those a naked subset of ``n`` can
    hold. Kept until the board changes."""
    def find() -> int:
        at_least = [board.empty] + [0] * (n + 1)     # at_least[k]: the cells with k candidates or more
        for d in range(1, board.size + 1):
            where = board.where[d]
            for k in range(n + 1, 0, -1):
                at_least[k] |= at_least[k - 1] & where
        return at_least[2] & ~at_least[n + 1]
    return board.memo(("few", n), find)


def _naked_groups(board: Board, h: int, n: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Groups of ``n`` empty cells of house ``h`` whose candidates together are ``n`` digits."""
    mask = board.houses.mask[h]
    few = _few(board, n) & mask
    if few.bit_count() < n or (board.empty & mask).bit_count() <= n:
        return
    cells = list(bits(few))
    for group in combinations(cells, n):
        union = 0
        for c in group:
            union |= board.cand[c]
        if union.bit_count() == n:
            yield group, union


NAKED = {2: "Naked Pair", 3: "Naked Triple", 4: "Naked Quadruple"}
HIDDEN = {2: "Hidden Pair", 3: "Hidden Triple", 4: "Hidden Quadruple"}


def naked_subset(board: Board, n: int) -> Iterator[Step]:
    """``n`` cells of a house whose candidates are ``n`` digits in all: those digits leave the
    house's other cells."""
    houses = board.houses
    for h in houses.search_order:
        for group, union in _naked_groups(board, h, n):
            cellset = sum(1 << c for c in group)
            gone = [(c, d) for d in digits(union) for g in houses.common(cellset)
                    for c in bits(board.where[d] & houses.mask[g] & ~cellset)]
            if gone:
                yield make(NAKED[n], board.size, removed=gone, order="cell",
                           detail=f"{digits_text(digits(union))} in {cells_text(group, board.size)}")


def hidden_subset(board: Board, n: int) -> Iterator[Step]:
    """``n`` digits whose places in a house are ``n`` cells in all: those cells lose their other
    candidates."""
    houses = board.houses
    size = board.size
    for h in houses.search_order:
        mask = houses.mask[h]
        free = [d for d in range(1, size + 1) if 2 <= (board.where[d] & mask).bit_count() <= n]
        if len(free) < n or (board.empty & mask).bit_count() <= n:
            continue
        for group in combinations(free, n):
            cellset = 0
            for d in group:
                cellset |= board.where[d] & mask
            if cellset.bit_count() != n:
                continue
            keep = sum(1 << (d - 1) for d in group)
            gone = [(c, d) for c in bits(cellset) for d in digits(board.cand[c] & ~keep)]
            if gone:
                yield make(HIDDEN[n], board.size, removed=gone, order="cell",
                           detail=f"{digits_text(group)} in {cells_text(bits(cellset), size)}")


def _unsolved_subsets(board: Board, cells: list[int], most: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Non-empty groups of at most ``most`` of the empty ``cells`` with their candidates."""
    empty = [c for c in cells if board.value[c] == 0]
    for k in range(1, min(most, len(empty)) + 1):
        for group in combinations(empty, k):
            union = 0
            for c in group:
                union |= board.cand[c]
            yield group, union


def sue_de_coq(board: Board) -> Iterator[Step]:
    """Sue de Coq: two or three empty cells where a box meets a line, with at least two more
    candidates than cells, and cells of the line and of the box outside the meeting that together
    with them hold as many digits as cells, the line's and the box's digits apart: the line's
    digits leave the rest of the line, the box's the rest of the box, and the meeting's others
    both. Exact cover: a locked set spread over two houses. Lines, boxes, then the meeting's
    groups, the line's and the box's sets, each in order; searched in numba."""
    hs = board.houses
    size = board.size
    for line, box, chosen, li, bi in rows(lambda out: _sue_de_coq(board.cand_array(), hs.cells_array, hs.box_array,
                                                                    size, out), 5):
        meet = hs.mask[line] & hs.mask[box]
        inside = [c for c in bits(meet) if board.value[c] == 0]
        lcells, vl = list(_unsolved_subsets(board, [c for c in hs.cells[line] if not meet >> c & 1], 3))[li]
        bcells, vb = list(_unsolved_subsets(board, [c for c in hs.cells[box] if not meet >> c & 1], 3))[bi]
        group = tuple(inside[i] for i in bits(chosen))
        vc = 0
        for c in group:
            vc |= board.cand[c]
        used = sum(1 << c for c in group + lcells + bcells)
        from_line = (vc | vl) & ~vb
        from_box = (vc | vb) & ~vl
        gone = [(c, d) for c in hs.cells[line] if not used >> c & 1 and board.value[c] == 0
                for d in digits(board.cand[c] & from_line)]
        gone += [(c, d) for c in hs.cells[box] if not used >> c & 1 and board.value[c] == 0
                 for d in digits(board.cand[c] & from_box)]
        yield make("Sue de Coq", size, removed=gone, order="cell",
                   detail=f"{cells_text(group, size)} - {digits_text(digits(vc))} "
                          f"({cells_text(lcells, size)}, {cells_text(bcells, size)})")


@njit(cache=True, nogil=True)
def _subsets(cells: np.ndarray, count: int, cand: np.ndarray, members: np.ndarray, unions: np.ndarray) -> int:
    """The groups of one to three of the first ``count`` ``cells``, by size and then in order, as
    rows of ``members`` (cells, -1 padded) with their candidates in ``unions``. Returns how many."""
    k = 0
    for a in range(count):
        members[k, 0], members[k, 1], members[k, 2] = cells[a], -1, -1
        unions[k] = cand[cells[a]]
        k += 1
    for a in range(count):
        for b in range(a + 1, count):
            members[k, 0], members[k, 1], members[k, 2] = cells[a], cells[b], -1
            unions[k] = cand[cells[a]] | cand[cells[b]]
            k += 1
    for a in range(count):
        for b in range(a + 1, count):
            for c in range(b + 1, count):
                members[k, 0], members[k, 1], members[k, 2] = cells[a], cells[b], cells[c]
                unions[k] = cand[cells[a]] | cand[cells[b]] | cand[cells[c]]
                k += 1
    return k


@njit(cache=True, nogil=True)
def _sue_de_coq(cand: np.ndarray, cells: np.ndarray, box: np.ndarray, size: int, out: np.ndarray) -> int:
    """Sue de Coq as rows ``(line, box house, the meeting's group as a bitset of positions among its
    empty cells, index of the line's set, index of the box's set)``, the sets numbered as
    `_subsets` gives them. Returns the rows written; -1 when ``out`` is full."""
    found = 0
    room = size + size * (size - 1) // 2 + size * (size - 1) * (size - 2) // 6
    line_sets = np.empty((room, 3), np.int64)
    line_unions = np.empty(room, np.int64)
    box_sets = np.empty((room, 3), np.int64)
    box_unions = np.empty(room, np.int64)
    inside = np.empty(size, np.int64)
    rest = np.empty(size, np.int64)
    idx = np.empty(size, np.int64)
    used = np.empty(size + 6, np.int64)
    for line in range(2 * size):
        for b in range(size):
            h = 2 * size + b
            m = 0
            for c in cells[line]:
                if box[c] == b and cand[c] != 0:
                    inside[m] = c
                    m += 1
            if m < 2:
                continue
            r = 0
            for c in cells[line]:
                if box[c] != b and cand[c] != 0:
                    rest[r] = c
                    r += 1
            lines = _subsets(rest, r, cand, line_sets, line_unions)
            r = 0
            for c in cells[h]:
                if (c // size if line < size else size + c % size) != line and cand[c] != 0:
                    rest[r] = c
                    r += 1
            boxes = _subsets(rest, r, cand, box_sets, box_unions)
            for n in range(2, m + 1):
                for k in range(n):
                    idx[k] = k
                while True:
                    vc = union_of(cand, inside, idx, n)
                    if ones(vc) >= n + 2:
                        for li in range(lines):
                            vl = line_unions[li]
                            nl = 3 - (line_sets[li, 1] < 0) - (line_sets[li, 2] < 0)
                            if not vl & vc or ones(vc | vl) >= n + nl + ones(vc):
                                continue
                            for bi in range(boxes):
                                vb = box_unions[bi]
                                if vb & vl or not vb & vc:
                                    continue
                                nb = 3 - (box_sets[bi, 1] < 0) - (box_sets[bi, 2] < 0)
                                if ones(vc | vl | vb) != n + nl + nb:
                                    continue
                                u = 0
                                for k in range(n):
                                    used[u] = inside[idx[k]]
                                    u += 1
                                for k in range(nl):
                                    used[u] = line_sets[li, k]
                                    u += 1
                                for k in range(nb):
                                    used[u] = box_sets[bi, k]
                                    u += 1
                                from_line = (vc | vl) & ~vb
                                from_box = (vc | vb) & ~vl
                                gone = False
                                for side in range(2):
                                    for c in cells[line] if side == 0 else cells[h]:
                                        if cand[c] & (from_line if side == 0 else from_box):
                                            mine = False
                                            for k in range(u):
                                                if used[k] == c:
                                                    mine = True
                                            if not mine:
                                                gone = True
                                if gone:
                                    if found == out.shape[0]:
                                        return -1
                                    chosen = np.int64(0)
                                    for k in range(n):
                                        chosen |= np.int64(1) << idx[k]
                                    out[found, 0], out[found, 1], out[found, 2] = line, h, chosen
                                    out[found, 3], out[found, 4] = li, bi
                                    found += 1
                    if not next_combination(idx, n, m):
                        break
    return found
