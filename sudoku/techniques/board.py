"""The pencil marks of a sudoku: every cell's candidates, every house's places for a digit.

A person solving by technique works on the candidates left in each cell. The board keeps them two
ways, both as Python ints used as bitsets: ``cand[cell]`` (bit ``d - 1`` for digit ``d``) and
``where[d]`` (bit ``cell`` for each cell still holding ``d``), so a technique asks either question
in one operation. Houses are the units that hold every digit once: rows, columns, boxes (or a
jigsaw's regions), and a variant's diagonals and windows.

Two queues remember, in the order they arose, the cells that became naked singles and the places
that became hidden singles, because HoDoKu takes its singles in that order: its hints and ours then
name the same cell.
"""
from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import numpy as np

from ..grid import Shape
from ..variants import Variant
from . import kernel

T = TypeVar("T")

#: One letter per kind of house, as HoDoKu writes them (r1, c5, b9); d for a diagonal, w a window.
LETTER = {"row": "r", "col": "c", "box": "b", "region": "b", "diagonal": "d", "window": "w"}


def bits(mask: int) -> Iterator[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def digits(mask: int) -> list[int]:
    """The digits (from 1) of a candidate mask, in order."""
    return [b + 1 for b in bits(mask)]


class Houses:
    """The houses of one shape and variant, built once and shared by every board of that layout.
    ``cells[h]``: the cells of house ``h`` in order; ``mask[h]``: them as a bitset; ``kind[h]`` and
    ``number[h]`` (from 1) name it; ``of[cell]``: the houses of a cell; ``peers[cell]``: every other
    cell that shares a house with it, as a bitset. Rows come first, then columns, then boxes or
    regions, then a variant's diagonals and windows."""

    def __init__(self, shape: Shape, variant: Variant | None = None) -> None:
        size = shape.size
        self.size, self.shape = size, shape
        grid = np.arange(shape.cells).reshape(size, size)
        houses: list[tuple[str, list[int]]] = [("row", grid[r].tolist()) for r in range(size)]
        houses += [("col", grid[:, c].tolist()) for c in range(size)]
        if variant is not None and variant.regions is not None:
            regions = np.array(variant.regions)
            houses += [("region", np.flatnonzero(regions == k).tolist()) for k in range(size)]
        else:
            houses += [("box", row.tolist()) for row in shape.box_cells()]
        if variant is not None:
            for name, cells in variant.units(shape):
                houses.append(("diagonal" if name[0] == "d" else "window", list(cells)))
        self.kind = [kind for kind, _ in houses]
        self.cells = [cells for _, cells in houses]
        self.number = []
        for h, kind in enumerate(self.kind):
            self.number.append(sum(k == kind for k in self.kind[:h]) + 1)
        self.mask = [sum(1 << c for c in cells) for cells in self.cells]
        self.of: list[list[int]] = [[] for _ in range(shape.cells)]
        for h, cells in enumerate(self.cells):
            for c in cells:
                self.of[c].append(h)
        self.peers = [0] * shape.cells
        for c in range(shape.cells):
            for h in self.of[c]:
                self.peers[c] |= self.mask[h]
            self.peers[c] &= ~(1 << c)
        self.row = [c // size for c in range(shape.cells)]
        self.col = [c % size for c in range(shape.cells)]
        self.box = [next(h for h in self.of[c] if self.kind[h] in ("box", "region")) - 2 * size
                    for c in range(shape.cells)]
        self.lines = list(range(2 * size))           # rows then columns
        self.blocks = list(range(2 * size, 3 * size))  # boxes or regions
        self.all = (1 << shape.cells) - 1
        #: the order HoDoKu scans houses for subsets: boxes, then rows, then columns, then the rest
        self.search_order = self.blocks + self.lines + list(range(3 * size, len(self.cells)))
        # the same layout as flat arrays for the kernel, short rows padded with -1
        widest = max(len(hs) for hs in self.of)
        self.of_array = np.array([hs + [-1] * (widest - len(hs)) for hs in self.of], np.int32)
        self.cells_array = np.array(self.cells, np.int32)
        peer_lists = [list(bits(p)) for p in self.peers]
        most = max(len(p) for p in peer_lists)
        self.peers_array = np.array([p + [-1] * (most - len(p)) for p in peer_lists], np.int32)
        #: the rows and the columns each house crosses, in order
        self.rows_of = [sorted({self.row[c] for c in cells}) for cells in self.cells]
        self.cols_of = [sorted({self.col[c] for c in cells}) for cells in self.cells]
        self.box_array = np.array(self.box, np.int64)
        #: the most columns, then rows, that one box or region spans (how far a finned fish's fins reach)
        self.widest = np.array([max(len({self.col[c] for c in self.cells[b]}) for b in self.blocks),
                                max(len({self.row[c] for c in self.cells[b]}) for b in self.blocks)], np.int64)
        #: room enough in a queue for every elimination still possible, each queueing a single per house
        self.queue_room = shape.cells * size * (widest + 1)

    @functools.cached_property
    def peer_matrix(self) -> np.ndarray:
        """``[a, b]``: whether cells ``a`` and ``b`` see each other, for the kernels (cells² bytes)."""
        cells = len(self.peers)
        matrix = np.zeros((cells, cells), np.bool_)
        for a, peers in enumerate(self.peers):
            matrix[a, list(bits(peers))] = True
        return matrix

    def name(self, h: int) -> str:
        """A house as HoDoKu writes it: ``r3``, ``c5``, ``b9`` (``d1``, ``w2`` for a variant's)."""
        return f"{LETTER[self.kind[h]]}{self.number[h]}"

    def common(self, cellset: int) -> list[int]:
        """The houses that hold every cell of the bitset ``cellset``."""
        first = (cellset & -cellset).bit_length() - 1
        return [h for h in self.of[first] if cellset & ~self.mask[h] == 0]


class Board:
    """Candidates and values of one puzzle under ``houses``. ``value[cell]``: the digit placed (0
    none); ``cand[cell]``: its candidates (0 once placed); ``where[d]``: the cells holding
    candidate ``d``; ``empty``: the cells without a value; ``given``: the givens. ``version``
    counts the changes, so that `memo` keeps what techniques share until the next one. Cost:
    ``place`` and ``eliminate`` (Python, for the other techniques' steps) touch the cell's houses,
    O(houses of a cell) each; the givens and the runs of singles go through the kernel, one call
    each, tens of microseconds."""

    def __init__(self, values: Sequence[int], houses: Houses, take: bool = False) -> None:
        size = houses.size
        self.houses, self.size = houses, size
        n = len(values)
        full = (1 << size) - 1
        self.value = [0] * n
        self.cand = [full] * n
        self.where = [0] + [houses.all] * size
        self.empty = houses.all
        #: the givens, as a bitset: a digit placed since may move in a deadly pattern, a given may not
        self.given = sum(1 << cell for cell, v in enumerate(values) if v)
        self.naked: deque[tuple[int, int]] = deque()   # (cell, digit) as cells became naked singles
        self.hidden: deque[tuple[int, int]] = deque()  # (cell, digit) as places became hidden singles
        self.version = 0                                # counts changes, for `memo`
        self._memo: dict[object, tuple[int, object]] = {}
        # with ``take``, the singles that follow the givens are taken in the same kernel call and
        # handed out by the first `take_singles`
        self._taken: list[tuple[int, int, int]] | None = None
        taken = self._run([(cell, v) for cell, v in enumerate(values) if v], take=take)
        if take:
            self._taken = taken

    def take_singles(self) -> list[tuple[int, int, int]]:
        """Take every single in turn, as HoDoKu would one step at a time, until none is left;
        ``(code, cell, digit)`` for each, the code that of [`kernel`][sudoku.techniques.kernel]
        (0 full house, 1 naked single, 2 hidden single). Cost: one kernel call."""
        if self._taken is not None:
            taken, self._taken = self._taken, None
            return taken
        return self._run([], take=True)

    def _run(self, givens: list[tuple[int, int]], take: bool) -> list[tuple[int, int, int]]:
        """Place ``givens`` and (``take``) the singles that follow, in the kernel."""
        hs = self.houses
        value = np.array(self.value, np.int32)
        cand = np.array(self.cand, np.int64)
        queues: list[np.ndarray] = []
        for queue in (self.naked, self.hidden):
            rows = np.empty((len(queue) + hs.queue_room, 2), np.int32)
            rows[:len(queue)] = list(queue) if queue else np.empty((0, 2), np.int32)
            queues += [rows, np.array([0, len(queue)], np.int64)]
        log = np.empty((len(value), 3), np.int32)
        words = np.empty((self.size + 1, (len(value) + 63) // 64), np.uint64)
        logged = kernel.run(np.array(givens, np.int32).reshape(-1, 2), value, cand, hs.of_array, hs.cells_array,
                            hs.peers_array, *queues, log, words, take)
        self.version += 1
        self._memo["cand"] = (self.version, cand)     # the kernels' view of the candidates, as it stands
        self.value = value.tolist()
        self.cand = cand.tolist()
        sets = [int.from_bytes(row.tobytes(), "little") for row in words]
        self.empty, self.where = sets[0], [0] + sets[1:]
        naked, nends, hidden, hends = queues
        self.naked = deque(map(tuple, naked[nends[0]:nends[1]].tolist()))
        self.hidden = deque(map(tuple, hidden[hends[0]:hends[1]].tolist()))
        return log[:logged].tolist()

    def copy(self) -> Board:
        other = object.__new__(Board)
        other.houses, other.size = self.houses, self.size
        other.value, other.cand, other.where = self.value[:], self.cand[:], self.where[:]
        other.empty, other.naked, other.hidden = self.empty, self.naked.copy(), self.hidden.copy()
        other.given, other._taken = self.given, None
        other.version, other._memo = 0, {}
        return other

    def memo(self, key: object, compute: Callable[[], T]) -> T:
        """``compute()``, kept until the board changes: techniques that share a search (the
        uniqueness types their rectangles, finned and sashimi fish their bases) make it once."""
        kept = self._memo.get(key)
        if kept is not None and kept[0] == self.version:
            return kept[1]  # type: ignore[return-value]
        found = compute()
        self._memo[key] = (self.version, found)
        return found

    def cand_array(self) -> np.ndarray:
        """``cand`` as an int64 array, for the kernels; made once per state of the board."""
        return self.memo("cand", lambda: np.array(self.cand, np.int64))

    def place(self, cell: int, d: int) -> None:
        """Set ``cell`` to ``d``: its other candidates go, and ``d`` goes from every peer."""
        self.version += 1
        self.value[cell] = d
        self.empty &= ~(1 << cell)
        for peer in bits(self.where[d] & self.houses.peers[cell]):
            self.eliminate(peer, d)
        for e in digits(self.cand[cell]):
            self.eliminate(cell, e)

    def eliminate(self, cell: int, d: int) -> bool:
        """Take candidate ``d`` from ``cell``; False when it was not there."""
        bit = 1 << (d - 1)
        if not self.cand[cell] & bit:
            return False
        self.version += 1
        left = self.cand[cell] = self.cand[cell] & ~bit
        self.where[d] &= ~(1 << cell)
        if left and left & (left - 1) == 0:
            self.naked.append((cell, left.bit_length()))
        where = self.where[d]
        houses = self.houses
        for h in houses.of[cell]:
            rest = where & houses.mask[h]
            if rest and rest & (rest - 1) == 0:
                self.hidden.append((rest.bit_length() - 1, d))
        return True

    def solved(self) -> bool:
        return self.empty == 0
