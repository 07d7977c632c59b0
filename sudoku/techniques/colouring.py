"""Colouring: a digit's strong links joined into clusters, each cell coloured by parity.

In a cluster of strong links on one digit, the cells of one colour all hold it or none does, and
the two colours are opposite. Simple colours: two cells of one colour that see each other make
that colour false (a wrap); a cell that sees both colours cannot hold the digit (a trap).
Multi-colours joins two clusters: where a colour of one sees both colours of the other, that
colour is false; where a colour of each see each other, one of the two other colours is true, so
a cell that sees both of those loses the digit.
"""
from __future__ import annotations

from collections.abc import Iterator

from .board import Board, bits
from .patterns import strong_links
from .steps import Step, make


def clusters(board: Board, d: int) -> list[tuple[int, int]]:
    """The clusters of strong links on ``d``, each as two bitsets of cells (its two colours), in
    the order of their first cell."""
    links: dict[int, set[int]] = {}
    for _, a, b in strong_links(board, d):
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)
    done: set[int] = set()
    out = []
    for start in sorted(links):
        if start in done:
            continue
        colour = {start: 0}
        queue = [start]
        for c in queue:
            for other in sorted(links[c]):
                if other not in colour:
                    colour[other] = 1 - colour[c]
                    queue.append(other)
        done.update(colour)
        on = sum(1 << c for c, k in colour.items() if k == 0)
        off = sum(1 << c for c, k in colour.items() if k == 1)
        out.append((on, off))
    return out


def _sees_any(board: Board, cell: int, cells: int) -> bool:
    return board.houses.peers[cell] & cells != 0


def _wrapped(board: Board, colour: int) -> bool:
    return any(board.houses.peers[c] & colour for c in bits(colour))


def simple_colours(board: Board) -> Iterator[Step]:
    """Wraps and traps of each digit's clusters, digit by digit (HoDoKu's "Simple Colors")."""
    size = board.size
    for d in range(1, size + 1):
        for on, off in clusters(board, d):
            for colour in (on, off):
                if _wrapped(board, colour):
                    yield make("Simple Colors Wrap", size, removed=[(c, d) for c in bits(colour)],
                               detail=f"{d}")
            both = board.where[d] & ~(on | off)
            gone = [(c, d) for c in bits(both) if _sees_any(board, c, on) and _sees_any(board, c, off)]
            if gone:
                yield make("Simple Colors Trap", size, removed=gone, detail=f"{d}")


def multi_colours(board: Board) -> Iterator[Step]:
    """Two clusters of one digit read together (HoDoKu's "Multi-Colors" 1 and 2)."""
    size = board.size
    hs = board.houses
    for d in range(1, size + 1):
        found = clusters(board, d)
        for i, (a1, a2) in enumerate(found):
            for j, (b1, b2) in enumerate(found):
                if i == j:
                    continue
                for x in (a1, a2):
                    if any(hs.peers[c] & b1 for c in bits(x)) and any(hs.peers[c] & b2 for c in bits(x)):
                        yield make("Multi-Colors 2", size, removed=[(c, d) for c in bits(x)], detail=f"{d}")
                if i > j:
                    continue
                for x, y in ((a1, a2), (a2, a1)):
                    for u, v in ((b1, b2), (b2, b1)):
                        if any(hs.peers[c] & u for c in bits(x)):
                            rest = board.where[d] & ~(a1 | a2 | b1 | b2)
                            gone = [(c, d) for c in bits(rest) if hs.peers[c] & y and hs.peers[c] & v]
                            if gone:
                                yield make("Multi-Colors 1", size, removed=gone, detail=f"{d}")
