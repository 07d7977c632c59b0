"""Alternating inference chains and discontinuous nice loops, on single candidates.

A candidate is a node; a *strong* link joins two candidates of which one is true (a bivalue cell's
two digits, a digit's two places in a house), a *weak* link two of which at most one is (two
digits of one cell, one digit in two cells that see each other). An AIC alternates them, starting
and ending with a strong link: if its first candidate is false, its last is true, so one of the
two ends holds. Then

- ends on one digit: a cell that sees both ends loses the digit;
- ends in one cell: that cell holds one of the two digits and loses every other one (a
  discontinuous nice loop, in HoDoKu's words);
- ends on two digits in cells that see each other: each end cell loses the other end's digit;
- ends weakly linked: the chain closes into a continuous nice loop, whose every weak link then
  has one true end, so each weak link removes what sees both its ends.

And a candidate whose truth leads along such a chain to its own falsehood is false (a
discontinuous nice loop too).

A second search (HoDoKu's "Grouped" chains, tried when the first finds nothing) lets a node also
be a group: a digit's two or three places where a box meets a line. Almost locked sets and forcing
nets are HoDoKu's further steps, not taken here. Of all chains found, the one taken removes the
most candidates, then comes first on the grid, then is the shortest. Cost: a breadth-first search
from every candidate, O(candidates x links): milliseconds of Python, tens on the hardest grids.
"""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numba import njit

from .board import Board, bits, digits
from .steps import Step, cells_text, make

State = tuple[int, bool]


def _links(board: Board, grouped: bool) -> tuple[dict[int, list[int]], dict[int, list[int]], dict[int, int],
                                                 dict[int, int]]:
    """Strong and weak links of every node, and each node's cells (a bitset) and digit. A node is a
    candidate, numbered ``cell * N + d - 1``; with ``grouped``, also a group: a digit's two or
    three places where a box meets a line, true when one of them holds the digit (numbered from
    ``cells x N`` on). Two nodes of a digit are strongly linked when their places are all a house
    has for it, weakly when every cell of one sees every cell of the other; a cell's candidates
    are weakly linked, and strongly when they are its only two."""
    size = board.size
    hs = board.houses
    base = len(board.cand) * size
    cells_of: dict[int, int] = {}
    digit_of: dict[int, int] = {}
    for cell in bits(board.empty):
        for d in digits(board.cand[cell]):
            cells_of[cell * size + d - 1] = 1 << cell
            digit_of[cell * size + d - 1] = d
    groups: dict[tuple[int, int], int] = {}
    groups_of: dict[int, list[tuple[int, int]]] = {d: [] for d in range(1, size + 1)}
    for b in hs.blocks if grouped else ():
        for line in hs.lines:
            meet = hs.mask[b] & hs.mask[line]
            if meet.bit_count() < 2:
                continue
            for d in range(1, size + 1):
                places = board.where[d] & meet
                if places.bit_count() >= 2 and (places, d) not in groups:
                    node = groups[(places, d)] = base + len(groups)
                    cells_of[node], digit_of[node] = places, d
                    groups_of[d].append((places, node))
    strong: dict[int, list[int]] = {}
    weak: dict[int, list[int]] = {}
    for node, cells in cells_of.items():
        d = digit_of[node]
        first = (cells & -cells).bit_length() - 1
        links: list[int] = []
        weakly: list[int] = []
        if node < base:
            others = [first * size + e - 1 for e in digits(board.cand[first]) if e != d]
            links += others if len(others) == 1 else []
            weakly += others
        for h in hs.of[first] if node < base else hs.common(cells):
            rest = board.where[d] & hs.mask[h] & ~cells
            other = (rest.bit_length() - 1) * size + d - 1 if rest and rest & (rest - 1) == 0 else groups.get((rest, d))
            if other is not None and other not in links:
                links.append(other)
        seen = hs.peers[first] if node < base else _seen_by(board, cells)
        weakly += [c * size + d - 1 for c in bits(board.where[d] & seen)]
        weakly += [g for places, g in groups_of[d] if places & ~seen == 0]
        strong[node], weak[node] = links, weakly
    return strong, weak, cells_of, digit_of


def _seen_by(board: Board, cells: int) -> int:
    """The cells that see every one of ``cells``."""
    seen = board.houses.all
    for c in bits(cells):
        seen &= board.houses.peers[c]
    return seen


def aic(board: Board) -> Iterator[Step]:
    """AICs and nice loops (HoDoKu's "AIC", "Discontinuous Nice Loop" and "Continuous Nice Loop")
    on single candidates."""
    return _chains(board, grouped=False)


def grouped_aic(board: Board) -> Iterator[Step]:
    """AICs and nice loops through groups (HoDoKu's "Grouped AIC", "Grouped Discontinuous Nice
    Loop" and "Grouped Continuous Nice Loop"): the chains of `aic`, where a node may also be a
    digit's two or three places in a box-line meeting. Tried after `aic` finds nothing, so each
    chain found has a group. Exact cover: a group is the options of one item that lie inside a
    second item; chains then follow items with two such blocks of options left."""
    return _chains(board, grouped=True)


def _chains(board: Board, grouped: bool) -> Iterator[Step]:
    """The chains from every candidate, the start false and then true (see the module), best
    first: the most eliminations, then the first on the grid, then the shortest. The walks run in
    numba (`_walk`), which hands back only the chains that may remove something."""
    size = board.size
    hs = board.houses
    base = len(board.cand) * size
    strong, weak, cells_of, digit_of = _links(board, grouped)
    nodes = list(cells_of)                       # the candidates (in order: the starts), then the groups
    index = {node: i for i, node in enumerate(nodes)}
    s_ptr, s_idx = _compressed([[index[o] for o in strong[v]] for v in nodes])
    w_ptr, w_idx = _compressed([[index[o] for o in weak[v]] for v in nodes])
    cell = np.array([v // size if v < base else -1 for v in nodes], np.int64)
    digit = np.array([digit_of[v] for v in nodes], np.int64)
    starts = sum(v < base for v in nodes)
    cand, peer = board.cand_array(), hs.peer_matrix
    room = 1024
    used = np.zeros(2, np.int64)
    while _walk(starts, s_ptr, s_idx, w_ptr, w_idx, cell, digit, cand, peer,
                rows := np.empty((room, 4), np.int64), paths := np.empty(room * 16, np.int64), used) < 0:
        room *= 8
    found: list[tuple[int, list, int, str, list, list]] = []
    seen: set = set()

    def record(name: str, gone: list[tuple[int, int]], path: list[State]) -> None:
        key = frozenset(gone)
        if gone and key not in seen:
            seen.add(key)
            found.append((len(gone), sorted(gone), len(path), f"Grouped {name}" if grouped else name, gone, path))

    def closed(path: list[State]) -> None:
        """The loop closed by the weak link from the path's end back to its start: every weak link
        in it holds one true end, so cells that see both ends of one (same digit) lose the digit,
        and a cell with both ends (two digits) loses its others."""
        if len(path) < 4:
            return
        chain = [n for n, _ in path]
        loop = 0
        for n in chain:
            loop |= cells_of[n]
        pairs = [(chain[i], chain[i + 1]) for i in range(len(chain) - 1) if path[i][1]] + [(chain[-1], chain[0])]
        gone: set[tuple[int, int]] = set()
        for a, b in pairs:
            if a < base and b < base and a // size == b // size:
                keep = (1 << a % size) | (1 << b % size)
                gone.update((a // size, e) for e in digits(board.cand[a // size] & ~keep))
            elif digit_of[a] == digit_of[b]:
                d = digit_of[a]
                both = board.where[d] & _seen_by(board, cells_of[a]) & _seen_by(board, cells_of[b]) & ~loop
                gone.update((c, d) for c in bits(both))
        record("Continuous Nice Loop", sorted(gone), path + [path[0]])

    where, peers = board.where, hs.peers
    cand_list = board.cand
    for kind, first, length, end in rows[:used[0]].tolist():
        path = [(nodes[s >> 1], bool(s & 1)) for s in paths[first:first + length].tolist()]
        marks = [(c, digit_of[n]) for n, _ in path for c in bits(cells_of[n])]
        if len(set(marks)) != len(marks):
            continue                                  # a candidate twice: no chain
        start, other = path[0][0], nodes[end >> 1]
        cs, ds = divmod(start, size)
        if kind == CLOSES:
            closed(path)
            continue
        if kind == OWN:
            record("Discontinuous Nice Loop", [(cs, ds + 1)], path)
            continue
        if other >= base:                                      # a group at the end, on the start's digit
            gone = [(c, ds + 1) for c in bits(where[ds + 1] & peers[cs] & _seen_by(board, cells_of[other]))]
            name = "AIC"
        else:
            ct, dt = divmod(other, size)
            if ct == cs:
                gone = [(cs, e) for e in digits(cand_list[cs] & ~((1 << ds) | (1 << dt)))]
                name = "Discontinuous Nice Loop"
            elif dt == ds:
                gone = [(c, ds + 1) for c in bits(where[ds + 1] & peers[cs] & peers[ct])]
                name = "AIC"
            else:
                gone = [(c, d + 1) for c, d in ((cs, dt), (ct, ds)) if cand_list[c] >> d & 1]
                name = "AIC"
        record(name, gone, path)
    found.sort(key=lambda f: (-f[0], f[1], f[2]))
    for *_, name, gone, path in found:       # the text made only for the steps taken
        text = " ".join(f"({digit_of[n]}){cells_text(bits(cells_of[n]), size)}{'=' if on else '-'}" for n, on in path)
        yield make(name, size, removed=gone, detail=text.rstrip("=-"))


def _compressed(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Lists of ints as one array and the offsets where each starts (and the last ends)."""
    ptr = np.zeros(len(lists) + 1, np.int64)
    ptr[1:] = np.cumsum([len(x) for x in lists])
    return ptr, np.array([v for x in lists for v in x], np.int64)


#: What a walk hands back (`_walk`): a loop closed by a weak link back to the start; a chain whose
#: end removes something; the start's truth leading to its own falsehood.
CLOSES, ENDS, OWN = 0, 1, 2


@njit(cache=True, nogil=True)
def _walk(starts: int, s_ptr: np.ndarray, s_idx: np.ndarray, w_ptr: np.ndarray, w_idx: np.ndarray,
          cell: np.ndarray, digit: np.ndarray, cand: np.ndarray, peer: np.ndarray, rows: np.ndarray,
          paths: np.ndarray, used: np.ndarray) -> int:
    """Breadth first from each of the first ``starts`` nodes (candidates), false and then true, a
    state being ``2 * node + on``: a true node makes its weak links false, a false one its strong
    links true. Each state reached that may give a step is written as a row ``(kind, path start,
    path length, state)`` with its path from the root in ``paths``: `CLOSES` (the start false, a
    true node weakly linked back to it), `ENDS` (the start false, a true node whose pairing with
    the start removes a candidate: the same cell, the same digit in cells with a common peer
    holding it, or cells that see each other; a group on the start's digit), `OWN` (the start
    true, another candidate of its cell true). ``used`` receives the rows and path entries
    written; returns the rows, -1 when ``rows`` or ``paths`` are full. Nodes: ``cell`` (-1 for a
    group) and ``digit``; links in compressed rows (``s_ptr``, ``s_idx``; ``w_ptr``, ``w_idx``)."""
    states = 2 * cell.shape[0]
    parent = np.full(states, -2, np.int64)
    queue = np.empty(states, np.int64)
    linked = np.zeros(cell.shape[0], np.bool_)
    written = 0
    filled = 0
    for start in range(starts):
        cs, ds = cell[start], digit[start]
        bit_s = np.int64(1) << (ds - 1)
        for k in range(w_ptr[start], w_ptr[start + 1]):
            linked[w_idx[k]] = True
        for phase in range(2):
            root = 2 * start + phase
            parent[root] = -1
            queue[0] = root
            count = 1
            head = 0
            while head < count:
                state = queue[head]
                head += 1
                node = state >> 1
                if state & 1:
                    lo, hi, on = w_ptr[node], w_ptr[node + 1], 0
                else:
                    lo, hi, on = s_ptr[node], s_ptr[node + 1], 1
                for k in range(lo, hi):
                    target = 2 * (w_idx[k] if state & 1 else s_idx[k]) + on
                    if parent[target] != -2:
                        continue
                    parent[target] = state
                    queue[count] = target
                    count += 1
                    other = target >> 1
                    if not on or other == start:
                        continue
                    for kind in range(3):
                        if phase == 1:
                            keep = kind == OWN and cell[other] == cs and state != root
                        elif kind == CLOSES:
                            keep = linked[other]
                        elif kind == ENDS:
                            ct, dt = cell[other], digit[other]
                            bit_t = np.int64(1) << (dt - 1)
                            if ct < 0:
                                keep = dt == ds
                            elif ct == cs:
                                keep = dt != ds and cand[cs] & ~(bit_s | bit_t) != 0
                            elif dt == ds:
                                keep = False
                                for c in range(cand.shape[0]):
                                    if c != cs and c != ct and cand[c] & bit_s and peer[cs, c] and peer[ct, c]:
                                        keep = True
                                        break
                            else:
                                keep = peer[cs, ct] and (cand[cs] & bit_t != 0 or cand[ct] & bit_s != 0)
                        else:
                            keep = False
                        if not keep:
                            continue
                        length = 0
                        s = target
                        while s >= 0:
                            length += 1
                            s = parent[s]
                        if written == rows.shape[0] or filled + length > paths.shape[0]:
                            return -1
                        s = target
                        for k2 in range(length - 1, -1, -1):
                            paths[filled + k2] = s
                            s = parent[s]
                        rows[written, 0], rows[written, 1] = kind, filled
                        rows[written, 2], rows[written, 3] = length, target
                        written += 1
                        filled += length
            for k in range(count):
                parent[queue[k]] = -2
        for k in range(w_ptr[start], w_ptr[start + 1]):
            linked[w_idx[k]] = False
    used[0], used[1] = written, filled
    return written
