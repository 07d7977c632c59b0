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

from collections.abc import Callable, Iterator

from .board import Board, bits, digits
from .steps import Step, cell_name, cells_text, make


def _links(board: Board) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """Strong and weak links of every candidate, a candidate numbered ``cell * N + d - 1``."""
    size = board.size
    hs = board.houses
    strong: dict[int, list[int]] = {}
    weak: dict[int, list[int]] = {}
    for cell in bits(board.empty):
        mask = board.cand[cell]
        for d in digits(mask):
            node = cell * size + d - 1
            others = [cell * size + e - 1 for e in digits(mask) if e != d]
            s = list(others) if len(others) == 1 else []
            for h in hs.of[cell]:
                places = board.where[d] & hs.mask[h]
                if places.bit_count() == 2:
                    other = (places & ~(1 << cell)).bit_length() - 1
                    if other * size + d - 1 not in s:
                        s.append(other * size + d - 1)
            strong[node] = s
            weak[node] = others + [peer * size + d - 1 for peer in bits(board.where[d] & hs.peers[cell])]
    return strong, weak


State = tuple[int, bool]


def _continuous(board: Board, parent: dict[int, int], state: int, start: int,
                chain_of: Callable[[dict[int, int], int], list[State] | None],
                record: Callable[[str, list[tuple[int, int]], list[State]], None]) -> None:
    """The loop closed by the weak link from ``state`` back to ``start``: every weak link in it
    holds one true end, so cells that see both ends of one (same digit) lose the digit, and a cell
    with both ends (two digits) loses its others."""
    path = chain_of(parent, state)
    if path is None or len(path) < 4:
        return
    size = board.size
    hs = board.houses
    nodes = [n for n, _ in path]
    loop = sum(1 << (n // size) for n in nodes)
    weak_pairs = [(nodes[i], nodes[i + 1]) for i in range(len(nodes) - 1) if path[i][1]] + [(nodes[-1], nodes[0])]
    gone: set[tuple[int, int]] = set()
    for a, b in weak_pairs:
        (ca, da), (cb, db) = divmod(a, size), divmod(b, size)
        if ca == cb:
            keep = (1 << da) | (1 << db)
            gone.update((ca, e) for e in digits(board.cand[ca] & ~keep))
        elif da == db:
            gone.update((c, da + 1) for c in bits(board.where[da + 1] & hs.peers[ca] & hs.peers[cb] & ~loop))
    record("Continuous Nice Loop", sorted(gone), path + [path[0]])


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
    """AICs and nice loops (HoDoKu's "AIC", "Discontinuous Nice Loop" and "Continuous Nice Loop")."""
    size = board.size
    hs = board.houses
    strong, weak = _links(board)
    found: list[tuple[int, list, int, str, list, list]] = []
    seen: set = set()

    def chain_of(parent: dict[int, int], state: int) -> list[State] | None:
        path = [state]
        while parent[state] >= 0:
            state = parent[state]
            path.append(state)
        nodes = {s >> 1 for s in path}
        return [(s >> 1, bool(s & 1)) for s in reversed(path)] if len(nodes) == len(path) else None

    def record(name: str, gone: list[tuple[int, int]], path: list[tuple[int, bool]]) -> None:
        key = frozenset(gone)
        if not gone or key in seen:
            return
        seen.add(key)
        found.append((len(gone), sorted(gone), len(path), name, gone, path))

    weak_of = {node: set(links) for node, links in weak.items()}
    to_true = {node: [2 * other + 1 for other in links] for node, links in strong.items()}
    to_false = {node: [2 * other for other in links] for node, links in weak.items()}
    cand, where, peers = board.cand, board.where, hs.peers
    for start in sorted(strong):
        cs, ds = divmod(start, size)
        # the start false: every candidate reached true by an alternating chain is one end of an AIC
        parent: dict[int, int] = {}
        weak_of_start = weak_of[start]
        for state in _reach(parent, 2 * start, to_true, to_false):
            if not state & 1:
                continue
            other = state >> 1
            if other == start:
                continue
            if other in weak_of_start:
                _continuous(board, parent, state, start, chain_of, record)
            ct, dt = divmod(other, size)
            if ct == cs:
                if dt == ds:
                    continue
                keep = (1 << ds) | (1 << dt)
                gone = [(cs, e) for e in digits(cand[cs] & ~keep)]
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
        text = " ".join(f"({n % size + 1}){cell_name(n // size, size)}{'=' if on else '-'}" for n, on in path)
        yield make(name, size, removed=gone, detail=text.rstrip("=-"))


def _grouped_links(board: Board) -> tuple[dict[int, list[int]], dict[int, list[int]], dict[int, int], dict[int, int]]:
    """Strong and weak links of every node, a node being a candidate (numbered as in `_links`) or
    a group: a digit's two or three places where a box meets a line, true when one of them holds
    the digit (numbered from ``cells x N`` on). Also each node's cells (a bitset) and digit. A
    group and a node are strongly linked when their places are all a house has for the digit,
    weakly when every cell of one sees every cell of the other."""
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
    for b in hs.blocks:
        for line in hs.lines:
            meet = hs.mask[b] & hs.mask[line]
            if meet.bit_count() < 2:
                continue
            for d in range(1, size + 1):
                places = board.where[d] & meet
                if places.bit_count() >= 2 and (places, d) not in groups:
                    node = groups[(places, d)] = base + len(groups)
                    cells_of[node], digit_of[node] = places, d
    groups_of: dict[int, list[tuple[int, int]]] = {d: [] for d in range(1, size + 1)}
    for (places, d), g in groups.items():
        groups_of[d].append((places, g))
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
        for h in hs.common(cells):
            rest = board.where[d] & hs.mask[h] & ~cells
            other = (rest.bit_length() - 1) * size + d - 1 if rest and rest & (rest - 1) == 0 else groups.get((rest, d))
            if other is not None and other not in links:
                links.append(other)
        seen = _seen_by(board, cells)
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


def grouped_aic(board: Board) -> Iterator[Step]:
    """AICs and nice loops through groups (HoDoKu's "Grouped AIC", "Grouped Discontinuous Nice
    Loop" and "Grouped Continuous Nice Loop"): the chains of `aic`, where a node may also be a
    digit's two or three places in a box-line meeting. Tried after `aic` finds nothing, so each
    chain found has a group. Exact cover: a group is the options of one item that lie inside a
    second item; chains then follow items with two such blocks of options left."""
    size = board.size
    hs = board.houses
    base = len(board.cand) * size
    strong, weak, cells_of, digit_of = _grouped_links(board)
    found: list[tuple[int, list, int, str, list, list]] = []
    seen: set = set()

    def chain_of(parent: dict[int, int], state: int) -> list[State] | None:
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
            found.append((len(gone), sorted(gone), len(path), f"Grouped {name}", gone, path))

    def closed(parent: dict[int, int], state: int, start: int) -> None:
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
        parent: dict[int, int] = {}
        for state in _reach(parent, 2 * start, to_true, to_false):
            other = state >> 1
            if not state & 1 or other == start:
                continue
            if other in weak_of[start]:
                closed(parent, state, start)
            if other >= base:
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
        parent = {}
        root = 2 * start + 1
        first, last = 2 * cs * size + 1, 2 * (cs + 1) * size
        for state in _reach(parent, root, to_true, to_false):
            if first <= state < last and state & 1 and state != root and parent[state] != root:
                path = chain_of(parent, state)
                if path is not None:
                    record("Discontinuous Nice Loop", [(cs, ds + 1)], path)
    found.sort(key=lambda f: (-f[0], f[1], f[2]))
    for *_, name, gone, path in found:
        text = " ".join(f"({digit_of[n]}){cells_text(bits(cells_of[n]), size)}{'=' if on else '-'}" for n, on in path)
        yield make(name, size, removed=gone, detail=text.rstrip("=-"))
