"""New puzzles: a random solved grid from a seeded search, then givens taken away while the
puzzle stays unique.

Removal is greedy in a random order, and exact: a given goes when the puzzle without it still has
one solution (a count with limit 2). A given that cannot go now can never go later, since taking
more givens away only adds solutions; so one pass leaves a *minimal* puzzle (no single given can
go). The whole pass is one kernel call, :meth:`dlx.Batch.reduce`: the givens stay selected in the
links between the tests, so each test costs one search.
"""
from __future__ import annotations

import numpy as np

from dlx.search import whole

from . import encode
from .grid import to_text
from .rating import LEVELS, rate

#: Grids tried for a puzzle with ``clues`` givens before giving up.
TRIES = 100


def generate(*, seed: int | None = None, symmetric: bool = False, minimal: bool = True,
             clues: int | None = None, size: int = 3, difficulty: str | None = None,
             tries: int = TRIES) -> str:
    """A new puzzle with exactly one solution, as one line.

    ``seed`` draws everything (the same seed, the same puzzle; None: a fresh draw). ``size`` is the
    box size: 2 (4x4) to 4 (16x16, about half a second). With ``minimal`` (the default) no single
    given can be taken away without losing uniqueness; with ``symmetric``, givens come and go in pairs symmetric under a
    half turn (minimal then means no such pair can go). ``clues=K`` stops at ``K`` givens (the puzzle
    then need not be minimal), drawing new grids until one gets there, at most ``tries``;
    ``minimal=False`` stops at the first given that cannot go (quicker, more givens).
    ``difficulty`` (a level of :func:`sudoku.rate`) draws puzzles until one is rated so.

    >>> import sudoku
    >>> puzzle = generate(seed=1)
    >>> puzzle == generate(seed=1), sudoku.count(puzzle)
    (True, 1)

    Cost: about 2.5 ms for a minimal 9x9 puzzle (one search per cell, in one kernel call).
    """
    size = whole(size, "size", 2)
    if size > 4:
        raise ValueError(f"size is the box size, 2 (4x4) to 4 (16x16), not {size} (on 25x25 grids the "
                         "uniqueness searches of the removals take minutes)")
    cells = size ** 4
    if clues is not None:
        clues = whole(clues, "clues")
        if clues > cells:
            raise ValueError(f"clues={clues}: a {size * size}x{size * size} grid has {cells} cells")
    if difficulty is not None:
        if difficulty not in LEVELS:
            raise ValueError(f"unknown difficulty {difficulty!r}; the levels are: {', '.join(LEVELS)}")
    tries = whole(tries, "tries", 1)
    if seed is not None:
        seed = whole(seed, "seed")
    rng = np.random.default_rng(seed)
    fewest = cells
    for _ in range(tries):
        puzzle = _one(rng, size, symmetric, minimal, clues)
        givens = int(np.count_nonzero(puzzle))
        fewest = min(fewest, givens)
        if clues is not None and givens > clues:
            continue
        text = to_text(puzzle)
        if difficulty is not None:
            if rate(text).level != difficulty:
                continue
        return text
    wanted = f"{clues} givens" if clues is not None else ""
    wanted += (" and " if wanted else "") + f"difficulty {difficulty!r}" if difficulty is not None else ""
    raise ValueError(f"no puzzle with {wanted} in {tries} tries (the fewest givens: {fewest}); "
                     "ask for more tries, or more givens")


def solved_grid(size: int, rng: np.random.Generator) -> np.ndarray:
    """A random complete grid: the first solution of the empty grid in an order drawn from ``rng``."""
    n = size * size
    options = encode.problem(size).first(seed=int(rng.integers(2 ** 63)))
    grid = np.zeros(n * n, np.uint8)
    chosen = np.array(options)
    grid[chosen // n] = chosen % n + 1
    return grid


def removal_order(size: int, rng: np.random.Generator, symmetric: bool) -> list[list[int]]:
    """The cells to try taking away, in a random order: one at a time, or with ``symmetric`` each
    with its partner under a half turn (the centre alone)."""
    cells = size ** 4
    if not symmetric:
        return [[c] for c in rng.permutation(cells).tolist()]
    half = [c for c in range(cells) if c <= cells - 1 - c]
    return [sorted({c, cells - 1 - c}) for c in rng.permutation(half).tolist()]


def _one(rng: np.random.Generator, size: int, symmetric: bool, minimal: bool, clues: int | None) -> np.ndarray:
    """One puzzle: a grid, then removals in a random order while the puzzle stays unique."""
    grid = solved_grid(size, rng)
    units = removal_order(size, rng, symmetric)
    return encode.batch(size).reduce(grid, units, keep=clues or 0, minimal=minimal)
