"""New puzzles: a random solved grid from a seeded search, then givens taken away while the
puzzle stays unique; for a difficulty, drawn until one rates so.

Removal is greedy in a random order, and exact: a given goes when the puzzle without it still has
one solution (a count with limit 2). A given that cannot go now can never go later, since taking
more givens away only adds solutions; so one pass leaves a *minimal* puzzle (no single given can
go). The whole pass is one kernel call, [`dlx.Batch.reduce`][dlx.batch.Batch.reduce]: the givens stay selected in the
links between the tests, so each test costs one search.

A difficulty (a level of [`sudoku.rating`][sudoku.rating]) is drawn: puzzles are made until one rates so.
The levels are cut where the generator's own puzzles part, so each is common enough to draw in
milliseconds (of 600 minimal 9x9 puzzles: 43% easy, 14% medium, 19% hard, 16% fiendish, 8%
diabolical). A climb toward harder puzzles (neighbours of a puzzle with a given or two put back and
reduced again, the hardest kept) was measured too: it reached a rating of 6.5 five times slower
than drawing, and 7.5 (1% of draws) only in seconds.
"""
from __future__ import annotations

import math

import numpy as np

from dlx.checks import whole

from . import encode, techniques, variants
from .grid import Box, PuzzleError, Shape, to_text
from .rating import levels, rate_values
from .variants import Variant, VariantLike

#: Grids tried for a puzzle with ``clues`` givens, or of a difficulty, before giving up (the
#: command's default too).
TRIES = 1000
#: The largest grid side generated: on 25x25 grids the uniqueness searches take minutes.
LARGEST = 16
#: Search nodes a removal's uniqueness test may take on grids larger than 9x9, where a few tests
#: of a minimal puzzle can take millions (a 16x16 puzzle took 80 s that way): a given whose test
#: needs more stays, so such a puzzle is unique but may keep a given or two that could go.
REMOVAL_NODES = 20_000


def generate(*, seed: int | None = None, symmetric: bool = False, minimal: bool = True,
             clues: int | None = None, size: int | None = None, box: Box = None, variant: VariantLike = None,
             symbols: str | None = None,
             difficulty: str | None = None, tries: int = TRIES, scale: str = "search") -> str:
    """A new puzzle with exactly one solution, as one line.

    ``seed`` draws everything (the same seed, the same puzzle; None: a fresh draw). ``size`` is the
    grid's side N (4 to 16; 16x16 takes about half a second; by default the side of a jigsaw's
    regions, else 9), ``box`` its boxes where not the
    squarest (``"3x2"``), ``variant`` its rules (``"x"``, ``"windoku"``, a [`sudoku.jigsaw`][sudoku.jigsaw];
    a killer's cages are not drawn, so killers are not made), ``symbols`` the values' characters.
    With ``minimal`` (the default) no single given can be taken away without losing uniqueness;
    with ``symmetric``, givens come and go in pairs symmetric under a half turn (minimal then means
    no such pair can go). ``clues=K`` stops at ``K`` givens (the puzzle then need not be minimal),
    drawing new grids until one gets there, at most ``tries``; ``minimal=False`` stops at the first
    given that cannot go (quicker, more givens). ``difficulty`` (a level of [`sudoku.rate`][sudoku.rate])
    draws puzzles until one is rated so, at most ``tries``; ``scale="hodoku"`` takes HoDoKu's levels
    (easy, medium, hard, unfair, extreme: [`sudoku.techniques`][sudoku.techniques]) instead.

    Examples:
        >>> import sudoku
        >>> puzzle = generate(seed=1)
        >>> puzzle == generate(seed=1), sudoku.count(puzzle)
        (True, 1)

        Cost: about 5 ms for a minimal 9x9 puzzle (one search per cell, in one kernel call); a
        diabolical one some 70 ms (one in 12 is).
    """
    rules = variants.named(variant)
    if size is None:
        size = math.isqrt(rules.cells) if rules is not None and rules.cells else 9
    size = whole(size, "size", 4)
    if size > LARGEST:
        raise ValueError(f"size is the grid's side, 4 to {LARGEST}, not {size} (on larger grids the "
                         "uniqueness searches of the removals take minutes)")
    if rules is not None and rules.cages:
        raise ValueError("killer puzzles are not generated: their cages would have to be drawn too")
    try:
        shape = Shape.sided(size, box, boxes=rules is None or rules.boxes)
        if rules is not None:
            rules.fits(shape.cells)
            if rules.windows:
                rules.units(shape)            # windoku needs square boxes: say so now
    except PuzzleError as e:
        raise ValueError(e.reason) from None
    cells = shape.cells
    if clues is not None:
        clues = whole(clues, "clues")
        if clues > cells:
            raise ValueError(f"clues={clues}: a {size}x{size} grid has {cells} cells")
    names = levels(scale)
    if difficulty is not None and difficulty not in names:
        raise ValueError(f"unknown difficulty {difficulty!r}; the levels{' of HoDoKu' if scale == 'hodoku' else ''} "
                         f"are: {', '.join(names)}")
    tries = whole(tries, "tries", 1)
    if seed is not None:
        seed = whole(seed, "seed")
    rng = np.random.default_rng(seed)
    maker = _Maker(shape, rules, rng, symmetric, minimal, clues, scale)
    fewest = cells
    for _ in range(tries):
        puzzle = maker.one()
        givens = int(np.count_nonzero(puzzle))
        fewest = min(fewest, givens)
        if clues is not None and givens > clues:
            continue
        if difficulty is not None and maker.level(puzzle) != difficulty:
            continue
        return to_text(puzzle, symbols)
    if difficulty is not None:
        raise ValueError(f"no {difficulty} puzzle in {tries} tries; ask for more tries")
    raise ValueError(f"no puzzle with {clues} givens in {tries} tries (the fewest givens: {fewest}); "
                     "ask for more tries, or more clues")


class _Maker:
    """Puzzles of one shape and variant, drawn from ``rng``."""

    def __init__(self, shape: Shape, rules: Variant | None, rng: np.random.Generator, symmetric: bool, minimal: bool,
                 clues: int | None, scale: str = "search") -> None:
        self.shape, self.rules, self.rng, self.scale = shape, rules, rng, scale
        self.symmetric, self.minimal, self.clues = symmetric, minimal, clues
        self.batch = encode.batch(shape, rules)
        self.budget = None if shape.size <= 9 else REMOVAL_NODES
        self.grid = np.zeros(shape.cells, np.uint8)

    def one(self) -> np.ndarray:
        """A grid, then removals in a random order while the puzzle stays unique."""
        self.grid = solved_grid(self.shape, self.rng, self.rules)
        units = removal_order(self.shape, self.rng, self.symmetric)
        return self.batch.reduce(self.grid, units, keep=self.clues or 0, minimal=self.minimal,
                                 max_nodes=self.budget)

    def level(self, puzzle: np.ndarray) -> str:
        if self.scale == "hodoku":
            return techniques.grade(puzzle, box=self.shape, variant=self.rules).level
        rating = rate_values(puzzle[None, :], self.shape, variant=self.rules)[0]
        if isinstance(rating, PuzzleError):     # a grid this generator made is never invalid
            raise rating
        return rating.level


def solved_grid(shape: Shape, rng: np.random.Generator, variant: VariantLike = None) -> np.ndarray:
    """A random complete grid of ``shape`` (a [`Shape`][sudoku.grid.Shape] or a box) under
    ``variant``'s rules: the first solution of the empty grid in an order drawn from ``rng``."""
    shape = shape if isinstance(shape, Shape) else Shape.boxed(shape)
    n = shape.size
    options = encode.problem(shape, variant).first(seed=int(rng.integers(2 ** 63)))
    if options is None:
        rules = variants.named(variant)
        why = "the jigsaw's regions" if rules is not None and rules.regions else "these rules"
        raise ValueError(f"no {n}x{n} grid fills {why}: there is no solved grid to make a puzzle from")
    grid = np.zeros(shape.cells, np.uint8)
    chosen = np.array([k for k in options if k < shape.cells * n])
    grid[chosen // n] = chosen % n + 1
    return grid


def removal_order(shape: Shape, rng: np.random.Generator, symmetric: bool) -> list[list[int]]:
    """The cells to try taking away, in a random order: one at a time, or with ``symmetric`` each
    with its partner under a half turn (the centre alone)."""
    shape = shape if isinstance(shape, Shape) else Shape.boxed(shape)
    cells = shape.cells
    if not symmetric:
        return [[c] for c in rng.permutation(cells).tolist()]
    half = [c for c in range(cells) if c <= cells - 1 - c]
    return [sorted({c, cells - 1 - c}) for c in rng.permutation(half).tolist()]
