"""Single-digit patterns and wings: short chains through strong links and bivalue cells.

A *strong link* on a digit: a house where it has two places left, so one of them holds it. A
*weak link*: two places that see each other, so at most one holds it. The patterns here are the
short chains of those links that people spot by eye: two strong links joined by a weak one
(skyscraper, 2-string kite, turbot fish), a box's places in a cross joined to a strong link (empty
rectangle), and bivalue cells that pinch a digit out of the cells that see them all (XY-, XYZ- and
W-wings, remote pairs).

Exact cover: a strong link is an item with two options left; a chain is a sequence of such items
whose options exclude each other, so an option excluded by both ends of the chain goes.
"""
from __future__ import annotations

from collections.abc import Iterator

from .board import Board, bits, digits
from .steps import Step, cell_name, make


def strong_links(board: Board, d: int, houses: range | None = None) -> list[tuple[int, int, int]]:
    """``(house, a, b)`` for every house (of ``houses``, a range, default all) where ``d`` has
    exactly two places ``a < b``, in the order of the houses. Kept until the board changes."""
    def find() -> list[tuple[int, int, int]]:
        hs = board.houses
        where = board.where[d]
        out = []
        for h, mask in enumerate(hs.mask):
            places = where & mask
            if places.bit_count() == 2:
                out.append((h, (places & -places).bit_length() - 1, places.bit_length() - 1))
        return out
    links = board.memo(("strong", d), find)
    return links if houses is None else [link for link in links if link[0] in houses]


def _sees(board: Board, a: int, b: int) -> bool:
    return a != b and board.houses.peers[a] >> b & 1 == 1


def _gone(board: Board, d: int, *ends: int) -> list[tuple[int, int]]:
    """Candidates ``d`` in cells that see every one of ``ends`` (the ends themselves aside)."""
    seen = board.where[d]
    for e in ends:
        seen &= board.houses.peers[e]
    return [(c, d) for c in bits(seen)]


def skyscraper(board: Board) -> Iterator[Step]:
    """Two strong links in parallel lines whose one ends share a line across: one of the two other
    ends (the tops) holds the digit, so cells that see both tops lose it."""
    size = board.size
    for d in range(1, size + 1):
        for rows in (True, False):
            lines = range(size) if rows else range(size, 2 * size)
            cross = board.houses.col if rows else board.houses.row
            links = strong_links(board, d, lines)
            for i, (_h1, a1, b1) in enumerate(links):
                for _h2, a2, b2 in links[i + 1:]:
                    for base1, top1 in ((a1, b1), (b1, a1)):
                        for base2, top2 in ((a2, b2), (b2, a2)):
                            if cross[base1] != cross[base2] or cross[top1] == cross[top2]:
                                continue
                            gone = _gone(board, d, top1, top2)
                            if gone:
                                yield make("Skyscraper", size, removed=gone,
                                           detail=f"{d} in {cell_name(top1, size)},{cell_name(top2, size)} "
                                                  f"(connected by {cell_name(base1, size)},"
                                                  f"{cell_name(base2, size)})")


def two_string_kite(board: Board) -> Iterator[Step]:
    """A strong link in a row and one in a column with one end of each in the same box (two
    different cells): one of the other two ends holds the digit, so the cell that sees both loses
    it."""
    size = board.size
    hs = board.houses
    for d in range(1, size + 1):
        rows = strong_links(board, d, range(size))
        cols = strong_links(board, d, range(size, 2 * size))
        for _, a1, b1 in rows:
            for _, a2, b2 in cols:
                for inner1, outer1 in ((a1, b1), (b1, a1)):
                    for inner2, outer2 in ((a2, b2), (b2, a2)):
                        if len({inner1, outer1, inner2, outer2}) < 4 or hs.box[inner1] != hs.box[inner2]:
                            continue
                        gone = _gone(board, d, outer1, outer2)
                        if gone:
                            yield make("2-String Kite", size, removed=gone,
                                       detail=f"{d} in {cell_name(outer1, size)},{cell_name(outer2, size)} "
                                              f"(connected by {cell_name(inner1, size)},{cell_name(inner2, size)})")


def turbot_fish(board: Board) -> Iterator[Step]:
    """Any two strong links joined by a weak link (the shapes the skyscraper and the kite leave,
    with a box among the houses): one of the two free ends holds the digit."""
    size = board.size
    peers = board.houses.peers
    for d in range(1, size + 1):
        links = strong_links(board, d)
        for i, (_h1, a1, b1) in enumerate(links):
            for _h2, a2, b2 in links[i + 1:]:
                if a2 in (a1, b1) or b2 in (a1, b1):
                    continue                                    # four cells, not three
                for end1, mid1 in ((a1, b1), (b1, a1)):
                    for mid2, end2 in ((a2, b2), (b2, a2)):
                        if not peers[mid1] >> mid2 & 1:
                            continue
                        gone = _gone(board, d, end1, end2)
                        if gone:
                            yield make("Turbot Fish", size, removed=gone,
                                       detail=f"{d} {cell_name(end1, size)} ={d}= {cell_name(mid1, size)} -{d}- "
                                              f"{cell_name(mid2, size)} ={d}= {cell_name(end2, size)}")


def empty_rectangle(board: Board) -> Iterator[Step]:
    """A box whose places for the digit all lie on one row and one column of it (a cross, not a
    single line), and a strong link in a line outside the box with one end on the cross's row (or
    column): the link's other end, or the cross, holds the digit, so the cell where the other end's
    line meets the cross's other line loses it."""
    size = board.size
    hs = board.houses
    for d in range(1, size + 1):
        where = board.where[d]
        for _b, box in enumerate(hs.blocks):
            inside = where & hs.mask[box]
            if inside.bit_count() < 2:
                continue
            cells = list(bits(inside))
            rows_in, cols_in = hs.rows_of[box], hs.cols_of[box]
            if len({hs.row[c] for c in cells}) < 2 or len({hs.col[c] for c in cells}) < 2:
                continue
            for r in rows_in:
                for c in cols_in:
                    if any(hs.row[x] != r and hs.col[x] != c for x in cells):
                        continue
                    yield from _er_links(board, d, box, r, c, rows_in, cols_in)


def _er_links(board: Board, d: int, box: int, r: int, c: int, rows_in: list[int], cols_in: list[int]) -> Iterator[Step]:
    size = board.size
    hs = board.houses
    for _, a, e in strong_links(board, d, range(size, 2 * size)):    # columns outside the box
        if hs.col[a] in cols_in:
            continue
        for near, far in ((a, e), (e, a)):
            if hs.row[near] == r and hs.row[far] not in rows_in:
                target = hs.row[far] * size + c
                if board.where[d] >> target & 1:
                    yield make("Empty Rectangle", size, removed=[(target, d)],
                               detail=f"{d} in {hs.name(box)} ({cell_name(near, size)}/{cell_name(far, size)})")
    for _, a, e in strong_links(board, d, range(size)):              # rows outside the box
        if hs.row[a] in rows_in:
            continue
        for near, far in ((a, e), (e, a)):
            if hs.col[near] == c and hs.col[far] not in cols_in:
                target = r * size + hs.col[far]
                if board.where[d] >> target & 1:
                    yield make("Empty Rectangle", size, removed=[(target, d)],
                               detail=f"{d} in {hs.name(box)} ({cell_name(near, size)}/{cell_name(far, size)})")


def _bivalue(board: Board) -> list[int]:
    return [c for c in bits(board.empty) if board.cand[c].bit_count() == 2]


def w_wing(board: Board) -> Iterator[Step]:
    """Two cells with the same two candidates x, y that do not see each other, joined by a strong
    link on x (one end seeing each cell): one of them is y, so cells that see both lose y."""
    size = board.size
    pairs = _bivalue(board)
    for i, p in enumerate(pairs):
        for q in pairs[i + 1:]:
            if board.cand[p] != board.cand[q] or _sees(board, p, q):
                continue
            for y, x in (digits(board.cand[p]), digits(board.cand[p])[::-1]):
                gone = _gone(board, y, p, q)
                if not gone:
                    continue
                for _, a, b in strong_links(board, x):
                    for u, v in ((a, b), (b, a)):
                        if u not in (p, q) and v not in (p, q) and _sees(board, u, p) and _sees(board, v, q):
                            yield make("W-Wing", size, removed=gone,
                                       detail=f"{x}/{y} in {cell_name(p, size)},{cell_name(q, size)} connected by "
                                              f"{x} in {cell_name(u, size)},{cell_name(v, size)}")
                            break
                    else:
                        continue
                    break


def xy_wing(board: Board) -> Iterator[Step]:
    """A pivot with candidates x, y that sees a cell with x, z and one with y, z: one of those
    holds z, so cells that see both lose it."""
    pairs = _bivalue(board)
    cand = board.cand
    for i, a in enumerate(pairs):
        for j in range(i + 1, len(pairs)):
            b = pairs[j]
            if (cand[a] & cand[b]).bit_count() != 1:
                continue                        # the three cells share one digit pairwise, three in all
            for c in pairs[j + 1:]:
                if (cand[a] & cand[c]).bit_count() != 1 or (cand[a] | cand[b] | cand[c]).bit_count() != 3:
                    continue
                for pivot, p, q in ((a, b, c), (b, a, c), (c, a, b)):
                    step = _xy_wing(board, pivot, p, q)
                    if step is not None:
                        yield step


def _xy_wing(board: Board, pivot: int, p: int, q: int) -> Step | None:
    size = board.size
    pc, qc, mid = board.cand[p], board.cand[q], board.cand[pivot]
    z_mask = pc & qc
    if z_mask.bit_count() != 1 or z_mask & mid or (pc | qc) & ~z_mask != mid:
        return None
    if not (_sees(board, pivot, p) and _sees(board, pivot, q)):
        return None
    z = z_mask.bit_length()
    gone = _gone(board, z, p, q)
    if not gone:
        return None
    x, y = digits(mid)
    return make("XY-Wing", size, removed=gone,
                detail=f"{x}/{y}/{z} in {cell_name(pivot, size)},{cell_name(p, size)},{cell_name(q, size)}")


def xyz_wing(board: Board) -> Iterator[Step]:
    """A pivot with candidates x, y, z that sees a cell with x, z and one with y, z: one of the
    three holds z, so cells that see all three lose it."""
    size = board.size
    pairs = _bivalue(board)
    for pivot in bits(board.empty):
        pm = board.cand[pivot]
        if pm.bit_count() != 3:
            continue
        wings = [c for c in pairs if _sees(board, c, pivot) and board.cand[c] & ~pm == 0]
        for p in wings:
            for q in wings:
                if p >= q or board.cand[p] == board.cand[q]:
                    continue
                z_mask = board.cand[p] & board.cand[q]
                z = z_mask.bit_length()
                gone = _gone(board, z, pivot, p, q)
                if gone:
                    yield make("XYZ-Wing", size, removed=gone,
                               detail=f"{'/'.join(map(str, digits(pm)))} in {cell_name(pivot, size)},"
                                      f"{cell_name(p, size)},{cell_name(q, size)}")


def remote_pair(board: Board) -> Iterator[Step]:
    """A chain of at least four cells that all have the same two candidates, each seeing the next:
    they alternate, so a cell that sees two of them of opposite parity loses both digits."""
    size = board.size
    pairs = _bivalue(board)
    seen: set[int] = set()
    for start in pairs:
        if start in seen:
            continue
        mask = board.cand[start]
        colour = {start: 0}
        queue = [start]
        for c in queue:
            for other in pairs:
                if other not in colour and board.cand[other] == mask and _sees(board, c, other):
                    colour[other] = 1 - colour[c]
                    queue.append(other)
        seen.update(colour)
        if len(colour) < 4:
            continue
        chain = list(colour)
        gone: set[tuple[int, int]] = set()
        for i, a in enumerate(chain):
            for b in chain[i + 1:]:
                if colour[a] != colour[b] and not _sees(board, a, b):
                    for d in digits(mask):
                        gone.update(g for g in _gone(board, d, a, b) if g[0] not in colour)
        if gone:
            yield make("Remote Pair", size, removed=sorted(gone),
                       detail=f"{'/'.join(map(str, digits(mask)))} " + " -".join(cell_name(c, size) for c in chain))


def bug_plus_one(board: Board) -> Iterator[Step]:
    """Every empty cell has two candidates but one, which has three: a grid of bivalue cells alone
    would have two solutions, so the extra cell takes the digit that appears three times in its
    houses."""
    size = board.size
    extra = [c for c in bits(board.empty) if board.cand[c].bit_count() != 2]
    if len(extra) != 1 or board.cand[extra[0]].bit_count() != 3:
        return
    cell = extra[0]
    for d in digits(board.cand[cell]):
        if _bug_without(board, cell, d):
            yield make("Bivalue Universal Grave + 1", size,
                       removed=[(cell, e) for e in digits(board.cand[cell]) if e != d])
            return


def _bug_without(board: Board, cell: int, d: int) -> bool:
    """Whether taking ``d`` from ``cell`` would leave every digit with two places or none in every
    house (a BUG, which has no solution or several): then ``cell`` must be ``d``."""
    for mask in board.houses.mask:
        for e in range(1, board.size + 1):
            places = (board.where[e] & mask).bit_count() - (e == d and mask >> cell & 1)
            if places not in (0, 2):
                return False
    return True
