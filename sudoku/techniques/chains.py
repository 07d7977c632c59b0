"""Chains: alternating strong and weak links, from a candidate that must be true at one end or
the other.

An X-chain stays on one digit: strong link, weak link, strong link ... ending with a strong link,
so one of its two ends holds the digit, and a cell that sees both ends loses it. An XY-chain runs
through bivalue cells: each cell's two digits are a strong link inside the cell, and consecutive
cells see each other and share the digit that passes between them; when the chain starts and ends
on the same digit x, one end holds x, and a cell that sees both ends loses x.

What a chain removes depends on its ends alone, so for every pair of ends the shortest chain is
found (a breadth-first search from each start), and the step taken is the one that removes the
most candidates, then the one whose eliminations come first on the grid, then the shortest
(HoDoKu's preference). Cost: a breadth-first search from every
start, O(starts x links).
"""
from __future__ import annotations

from collections.abc import Iterator

from .board import Board, bits, digits
from .patterns import strong_links
from .steps import Step, cell_name, make

#: The longest XY-chain searched, in cells: a bound on the cost, beyond the chains people follow.
MAX_CELLS = 20


def _best(found: list[tuple[int, int, int, Step]]) -> Iterator[Step]:
    found.sort(key=lambda f: (-f[0], sorted(f[3].removed), f[1], f[2]))
    for *_, step in found:
        yield step


def _path(parent: dict, state: tuple) -> list:
    out = [state]
    while parent[state] is not None:
        state = parent[state]
        out.append(state)
    return out[::-1]


def x_chain(board: Board) -> Iterator[Step]:
    """X-chains of every digit (5 links or more: shorter ones are turbot fish)."""
    size = board.size
    hs = board.houses
    found: list[tuple[int, int, int, Step]] = []
    for d in range(1, size + 1):
        strong: dict[int, list[int]] = {}
        for _, a, b in strong_links(board, d):
            strong.setdefault(a, []).append(b)
            strong.setdefault(b, []).append(a)
        where = board.where[d]
        for start in sorted(strong):
            # states: (cell, True) reached by a strong link, (cell, False) by a weak one
            parent: dict[tuple[int, bool], tuple[int, bool] | None] = {(start, False): None}
            frontier = [(start, False)]
            depth = 0
            while frontier:
                depth += 1
                nxt = []
                for cell, by_strong in frontier:
                    steps = strong.get(cell, []) if not by_strong else list(bits(where & hs.peers[cell]))
                    for other in steps:
                        state = (other, not by_strong)
                        if state in parent or other == start:
                            continue
                        parent[state] = (cell, by_strong)
                        nxt.append(state)
                        if state[1] and depth >= 5 and other > start:
                            chain = [c for c, _ in _path(parent, state)]
                            if len(set(chain)) != len(chain):
                                continue
                            targets = where & hs.peers[start] & hs.peers[other]
                            if targets:
                                gone = [(c, d) for c in bits(targets)]
                                found.append((len(gone), depth, len(found),
                                              make("X-Chain", size, removed=gone, detail=_x_text(chain, d, size))))
                frontier = nxt
    return _best(found)


def _x_text(chain: list[int], d: int, size: int) -> str:
    parts = [cell_name(chain[0], size)]
    for k in range(1, len(chain)):
        parts.append(f"={d}=" if k % 2 == 1 else f"-{d}-")
        parts.append(cell_name(chain[k], size))
    return f"{d} " + " ".join(parts)


def xy_chain(board: Board) -> Iterator[Step]:
    """XY-chains through bivalue cells (3 cells or more)."""
    size = board.size
    hs = board.houses
    pairs = [c for c in bits(board.empty) if board.cand[c].bit_count() == 2]
    pair_set = sum(1 << c for c in pairs)
    found: list[tuple[int, int, int, Step]] = []
    for start in pairs:
        for x in digits(board.cand[start]):
            y = (board.cand[start] & ~(1 << (x - 1))).bit_length()
            # states: (cell, the digit it passes on, true when the chain's previous end is false)
            parent: dict[tuple[int, int], tuple[int, int] | None] = {(start, y): None}
            frontier = [(start, y)]
            length = 1
            while frontier and length < MAX_CELLS:
                length += 1
                nxt = []
                for cell, out in frontier:
                    for other in bits(pair_set & hs.peers[cell] & board.where[out]):
                        passes = (board.cand[other] & ~(1 << (out - 1))).bit_length()
                        state = (other, passes)
                        if state in parent or other == start:
                            continue
                        parent[state] = (cell, out)
                        nxt.append(state)
                        if passes == x and length >= 3 and other > start:
                            chain = [c for c, _ in _path(parent, state)]
                            if len(set(chain)) != len(chain):
                                continue
                            targets = board.where[x] & hs.peers[start] & hs.peers[other]
                            if targets:
                                gone = [(c, x) for c in bits(targets)]
                                found.append((len(gone), length, len(found),
                                              make("XY-Chain", size, removed=gone,
                                                   detail=" -> ".join(cell_name(c, size) for c in chain))))
                frontier = nxt
    return _best(found)
