"""The transformations that keep a puzzle's solutions: relabel the digits, permute the rows within a
band, the bands, the columns within a stack, the stacks, and transpose.

Each maps a puzzle to an equivalent one (as hard, with as many solutions, the solutions mapped the
same way): ``(n!)**(2n+2) * 2 * N!`` of them for box size ``n``, 1.2e12 for 9x9. This is how the
old generators that "relabel a seed grid" make new puzzles: every puzzle they print is one of the
seed's transformations. :mod:`sudoku.generator` makes new grids instead; here the transformations
serve to disguise a puzzle, and :mod:`sudoku.rating` uses them to search a puzzle in several orders.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dlx.search import whole

from .grid import box_size, parse, to_text


class Transformation(NamedTuple):
    """``cells[k]`` is the cell of the original that cell ``k`` of the result comes from;
    ``relabel[v]`` is what value ``v`` becomes (``relabel[0] == 0``: blanks stay blank)."""

    cells: np.ndarray      # (N*N,) int64
    relabel: np.ndarray    # (N+1,) uint8

    def apply(self, values: np.ndarray) -> np.ndarray:
        """The transformed puzzle(s): ``values`` is one puzzle or rows of them (``(m, N*N)``)."""
        return self.relabel[values[..., self.cells]]


def draw(n: int, rng: np.random.Generator) -> Transformation:
    """A random transformation of ``n*n x n*n`` grids, every one equally likely."""
    size = n * n
    rows = (rng.permutation(n)[:, None] * n + np.array([rng.permutation(n) for _ in range(n)])).ravel()
    cols = (rng.permutation(n)[:, None] * n + np.array([rng.permutation(n) for _ in range(n)])).ravel()
    cells = rows[:, None] * size + cols[None, :]
    if rng.integers(2):
        cells = cells.T
    relabel = np.concatenate([[0], 1 + rng.permutation(size)]).astype(np.uint8)
    return Transformation(np.ascontiguousarray(cells).ravel(), relabel)


def shuffle(puzzle, seed: int | None = None) -> str:
    """An equivalent puzzle (same number of solutions, as hard), as one line: ``puzzle`` relabelled
    and its rows, bands, columns and stacks permuted, perhaps transposed, all drawn from ``seed``
    (the same seed, the same result; None: a fresh draw).

    >>> import sudoku
    >>> puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> disguised = shuffle(puzzle, seed=7)
    >>> disguised == shuffle(puzzle, seed=7), disguised != puzzle, sudoku.count(disguised)
    (True, True, 1)
    """
    rng = np.random.default_rng(None if seed is None else whole(seed, "seed"))
    values = parse(puzzle)
    return to_text(draw(box_size(values), rng).apply(values))
