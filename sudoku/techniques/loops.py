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


def _reach(parent: dict[int, int], root: int, strong: dict[int, list[int]],
           weak: dict[int, list[int]]) -> list[int]:
    """Breadth first from ``root``, a state ``2 * node + on``: every state reached, in order, with
    its parent recorded in ``parent``, by an alternating chain (a true candidate makes its weak
    links false, a false one its strong links true). ``strong`` and ``weak`` give the states a
    node's links lead to: ``2 * other + 1`` and ``2 * other``."""
    parent[root] = -1
    order = [root]
    for state in order:                 # the list grows as it is read: a queue
        for other in (weak[state >> 1] if state & 1 else strong[state >> 1]):
            if other not in parent:
                parent[other] = state
                order.append(other)
    return order[1:]


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
    first: the most eliminations, then the first on the grid, then the shortest."""
    size = board.size
    hs = board.houses
    base = len(board.cand) * size
    strong, weak, cells_of, digit_of = _links(board, grouped)
    found: list[tuple[int, list, int, str, list, list]] = []
    seen: set = set()

    def chain_of(parent: dict[int, int], state: int) -> list[State] | None:
        """The chain from the root to ``state``; None when it uses a candidate twice."""
        path = [state]
        while parent[state] >= 0:
            state = parent[state]
            path.append(state)
        used = [(c, digit_of[s >> 1]) for s in path for c in bits(cells_of[s >> 1])]
        return [(s >> 1, bool(s & 1)) for s in reversed(path)] if len(set(used)) == len(used) else None

    def record(name: str, gone: list[tuple[int, int]], path: list[State]) -> None:
        key = frozenset(gone)
        if gone and key not in seen:
            seen.add(key)
            found.append((len(gone), sorted(gone), len(path), f"Grouped {name}" if grouped else name, gone, path))

    def closed(parent: dict[int, int], state: int) -> None:
        """The loop closed by the weak link from ``state`` back to the root: every weak link in it
        holds one true end, so cells that see both ends of one (same digit) lose the digit, and a
        cell with both ends (two digits) loses its others."""
        path = chain_of(parent, state)
        if path is None or len(path) < 4:
            return
        nodes = [n for n, _ in path]
        loop = 0
        for n in nodes:
            loop |= cells_of[n]
        pairs = [(nodes[i], nodes[i + 1]) for i in range(len(nodes) - 1) if path[i][1]] + [(nodes[-1], nodes[0])]
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

    weak_of = {node: set(links) for node, links in weak.items()}
    to_true = {node: [2 * other + 1 for other in links] for node, links in strong.items()}
    to_false = {node: [2 * other for other in links] for node, links in weak.items()}
    cand, where, peers = board.cand, board.where, hs.peers
    for start in sorted(n for n in strong if n < base):
        cs, ds = divmod(start, size)
        # the start false: every candidate reached true by an alternating chain is one end of an AIC
        parent: dict[int, int] = {}
        weak_of_start = weak_of[start]
        for state in _reach(parent, 2 * start, to_true, to_false):
            other = state >> 1
            if not state & 1 or other == start:
                continue
            if other in weak_of_start:
                closed(parent, state)
            if other >= base:                                      # a group at the end: on the start's digit
                if digit_of[other] != ds + 1:
                    continue
                gone = [(c, ds + 1) for c in bits(where[ds + 1] & peers[cs] & _seen_by(board, cells_of[other]))]
                name = "AIC"
            else:
                ct, dt = divmod(other, size)
                if ct == cs:
                    if dt == ds:
                        continue
                    gone = [(cs, e) for e in digits(cand[cs] & ~((1 << ds) | (1 << dt)))]
                    name = "Discontinuous Nice Loop"
                elif dt == ds:
                    gone = [(c, ds + 1) for c in bits(where[ds + 1] & peers[cs] & peers[ct])]
                    name = "AIC"
                elif peers[cs] >> ct & 1:
                    gone = [(c, d + 1) for c, d in ((cs, dt), (ct, ds)) if cand[c] >> d & 1]
                    name = "AIC"
                else:
                    continue
            if gone and (path := chain_of(parent, state)) is not None:
                record(name, gone, path)
        # the start true: reaching its own falsehood through a chain that leaves the cell
        parent = {}
        root = 2 * start + 1
        first, last = 2 * cs * size + 1, 2 * (cs + 1) * size   # the states "true" of the start's cell
        for state in _reach(parent, root, to_true, to_false):
            if first <= state < last and state & 1 and state != root and parent[state] != root:
                path = chain_of(parent, state)
                if path is not None:
                    record("Discontinuous Nice Loop", [(cs, ds + 1)], path)
    found.sort(key=lambda f: (-f[0], f[1], f[2]))
    for *_, name, gone, path in found:       # the text made only for the steps taken
        text = " ".join(f"({digit_of[n]}){cells_text(bits(cells_of[n]), size)}{'=' if on else '-'}" for n, on in path)
        yield make(name, size, removed=gone, detail=text.rstrip("=-"))
