"""The transformations that keep a puzzle's solutions: relabel the values, permute the rows within a
band, the bands, the columns within a stack, the stacks, and (square boxes) transpose.

Each maps a puzzle to an equivalent one (as hard, with as many solutions, the solutions mapped the
same way): ``(n!)**(2n+2) * 2 * N!`` of them for square boxes of side ``n``, 1.2e12 for 9x9. This
is how the old generators that "relabel a seed grid" make new puzzles: every puzzle they print is
one of the seed's transformations. [`sudoku.generator`][sudoku.generator] makes new grids instead; here the
transformations serve to disguise a puzzle, and [`sudoku.rating`][sudoku.rating] uses them to search a puzzle
in several orders.

A variant keeps only what keeps its rules: X-sudoku and windoku the relabellings, mirror images and
(square boxes) the transposition (both diagonals and the windows map onto themselves); a jigsaw the
relabellings (its regions stay where they are); a killer nothing (a relabelling changes the cage
sums, a move moves the cages), so it is refused.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dlx.checks import whole

from .grid import Box, Puzzle, PuzzleError, Shape, to_text
from .variants import Variant, VariantLike


class Transformation(NamedTuple):
    """``cells[k]`` is the cell of the original that cell ``k`` of the result comes from;
    ``relabel[v]`` is what value ``v`` becomes (``relabel[0] == 0``: blanks stay blank)."""

    cells: np.ndarray      # (N*N,) int64
    relabel: np.ndarray    # (N+1,) uint8

    def apply(self, values: np.ndarray) -> np.ndarray:
        """The transformed puzzle(s): ``values`` is one puzzle or rows of them (``(m, N*N)``)."""
        return self.relabel[values[..., self.cells]]


def draw(shape: Shape | Box, rng: np.random.Generator, variant: Variant | None = None) -> Transformation:
    """A random transformation of grids of ``shape`` (a [`Shape`][sudoku.grid.Shape], or a box as
    [`Shape.boxed`][sudoku.grid.Shape.boxed] takes it) that keeps the rules of ``variant``,
    every one equally likely; a PuzzleError for a killer, which no transformation keeps."""
    shape = shape if isinstance(shape, Shape) else Shape.boxed(shape)
    size = shape.size
    if variant is not None and variant.cages:
        raise PuzzleError("no transformation keeps a killer's cages: relabelling changes their sums "
                          "and moving cells moves them")
    grid = np.arange(shape.cells).reshape(size, size)
    if variant is not None and not variant.boxes:          # a jigsaw: its regions stay put
        pass
    elif variant is not None:                               # X, windoku: the symmetries of the square
        if rng.integers(2):
            grid = grid[:, ::-1]
        if rng.integers(2):
            grid = grid[::-1, :]
    else:
        # bands are ``rows`` rows high (``cols`` of them); stacks ``cols`` columns wide (``rows``)
        rows = _within(rng, size // shape.rows, shape.rows)
        cols = _within(rng, size // shape.cols, shape.cols)
        grid = grid[rows][:, cols]
    if (variant is None or variant.boxes) and shape.rows == shape.cols and rng.integers(2):
        grid = grid.T
    relabel = np.concatenate([[0], 1 + rng.permutation(size)]).astype(np.uint8)
    return Transformation(np.ascontiguousarray(grid).ravel(), relabel)


def _within(rng: np.random.Generator, groups: int, width: int) -> np.ndarray:
    """A permutation of ``groups * width`` lines that permutes the groups and the lines in each."""
    return (rng.permutation(groups)[:,
                                    None] * width + np.array([rng.permutation(width) for _ in range(groups)])).ravel()


def shuffle(puzzle: Puzzle, seed: int | None = None, *, box: Box = None, symbols: str | None = None,
            variant: VariantLike = None) -> str:
    """An equivalent puzzle (same number of solutions, as hard), as one line: ``puzzle`` relabelled
    and its rows, bands, columns and stacks permuted, perhaps transposed, all drawn from ``seed``
    (the same seed, the same result; None: a fresh draw). ``box``, ``symbols`` and ``variant`` as
    for [`sudoku.solve`][sudoku.solve]; a variant keeps its rules (see the module's notes). A puzzle whose
    givens clash is refused (PuzzleError): its disguise would pass for a puzzle.

    Examples:
        >>> import sudoku
        >>> puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
        >>> disguised = shuffle(puzzle, seed=7)
        >>> disguised == shuffle(puzzle, seed=7), disguised != puzzle, sudoku.count(disguised)
        (True, True, 1)
    """
    from .variants import read
    rng = np.random.default_rng(None if seed is None else whole(seed, "seed"))
    values, shape, rules = read(puzzle, box=box, symbols=symbols, variant=variant)
    return to_text(draw(shape, rng, rules).apply(values), symbols)
