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

from .board import Board, bits, digits
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
    lie inside another's, so the other's remaining options go."""
    houses = board.houses
    name = "Locked Candidates Type 1 (Pointing)" if pointing else "Locked Candidates Type 2 (Claiming)"
    size = board.size
    mask = houses.mask
    for h in (houses.blocks if pointing else houses.lines):
        for d in range(1, size + 1):
            inside = board.where[d] & mask[h]
            if not inside or inside & (inside - 1) == 0:
                continue
            first = (inside & -inside).bit_length() - 1
            # the houses across: the first place's row and column, or its box
            for g in (first // size, size + first % size) if pointing else (houses.blocks[houses.box[first]],):
                if inside & ~mask[g]:
                    continue
                gone = _eliminations(board, d, mask[g] & ~mask[h])
                if gone:
                    yield make(name, board.size, removed=gone, detail=f"{d} in {houses.name(h)}")


def locked_subset(board: Board, n: int) -> Iterator[Step]:
    """A naked pair or triple inside the meeting of a box and a line: its digits leave both."""
    houses = board.houses
    name = "Locked Pair" if n == 2 else "Locked Triple"
    for h in houses.blocks:
        for group, union in _naked_groups(board, h, n):
            cellset = sum(1 << c for c in group)
            common = houses.common(cellset)
            if len(common) < 2:
                continue
            gone = [(c, d) for g in sorted(common, key=lambda g: g in houses.blocks)   # the line's first
                    for c in bits(houses.mask[g] & ~cellset) for d in digits(board.cand[c] & union)]
            # locked only when both houses lose a candidate outside the other: else it is a naked subset
            if len(common) == 2 and all(any(board.where[d] & houses.mask[g] & ~houses.mask[other]
                                            for d in digits(union)) for g, other in (common, common[::-1])):
                yield make(name, board.size, removed=gone, order="given",
                           detail=f"{digits_text(digits(union))} in {cells_text(group, board.size)}")


def _naked_groups(board: Board, h: int, n: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Groups of ``n`` empty cells of house ``h`` whose candidates together are ``n`` digits."""
    empty = board.empty & board.houses.mask[h]
    if empty.bit_count() <= n:
        return
    cand = board.cand
    cells = [c for c in bits(empty) if 2 <= cand[c].bit_count() <= n]
    if len(cells) < n:
        return
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
    both. Exact cover: a locked set spread over two houses."""
    hs = board.houses
    size = board.size
    for line in hs.lines:
        for box in hs.blocks:
            meet = hs.mask[line] & hs.mask[box]
            inside = [c for c in bits(meet) if board.value[c] == 0]
            if len(inside) < 2:
                continue
            line_sets = list(_unsolved_subsets(board, [c for c in hs.cells[line] if not meet >> c & 1], 3))
            box_sets = list(_unsolved_subsets(board, [c for c in hs.cells[box] if not meet >> c & 1], 3))
            for n in range(2, len(inside) + 1):
                for group in combinations(inside, n):
                    vc = 0
                    for c in group:
                        vc |= board.cand[c]
                    if vc.bit_count() < n + 2:
                        continue
                    for lcells, vl in line_sets:
                        if not vl & vc or (vc | vl).bit_count() >= n + len(lcells) + vc.bit_count():
                            continue
                        for bcells, vb in box_sets:
                            if vb & vl or not vb & vc:
                                continue
                            if (vc | vl | vb).bit_count() != n + len(lcells) + len(bcells):
                                continue
                            used = sum(1 << c for c in group + lcells + bcells)
                            from_line = (vc | vl) & ~vb
                            from_box = (vc | vb) & ~vl
                            gone = [(c, d) for c in hs.cells[line] if not used >> c & 1 and board.value[c] == 0
                                    for d in digits(board.cand[c] & from_line)]
                            gone += [(c, d) for c in hs.cells[box] if not used >> c & 1 and board.value[c] == 0
                                     for d in digits(board.cand[c] & from_box)]
                            if gone:
                                yield make("Sue de Coq", size, removed=gone, order="cell",
                                           detail=f"{cells_text(group, size)} - {digits_text(digits(vc))} "
                                                  f"({cells_text(lcells, size)}, {cells_text(bcells, size)})")
