"""How hard a puzzle is, from the search: the nodes it takes beyond the forced moves.

A puzzle solved by forced moves alone (every level of the search has an item with one option: a
naked or a hidden single) takes one node per empty cell, plus one for the solution. Every node past
those is a guess or a dead end. The rating is ``log2(1 + extra nodes)``, the extra nodes averaged
over ``ORDERS`` searches in different orders (the puzzle itself and transformations of it drawn
from the seed, [`sudoku.transform`][sudoku.transform]: the same puzzle with its items and options in another order),
each proving uniqueness (limit 2), so that luck in one order does not decide. A variant is searched
in the orders its rules allow ([`sudoku.transform`][sudoku.transform]); a killer, which none keeps, in its own
order only. The levels cut that
scale where the generator's minimal puzzles part, so that every level can be made in milliseconds
([`sudoku.generator`][sudoku.generator]): of 600 drawn, 43% rate 0 (easy: forced moves only), 14% 1 to 4.5, 19%
4.5 to 5.5, 16% 5.5 to 6.5 and 8% above (diabolical). On the public sets the medians are:
kaggle_10k 0 (easy), 17clue 3.5 (medium), top1465 8.6, forum_hardest_1905_11plus 11.2 and
forum_hardest_1106 12.2 (all diabolical).

That is the ``"search"`` scale, the default. The ``"hodoku"`` scale grades as HoDoKu does, in human
terms ([`sudoku.techniques`][sudoku.techniques]): the score is the sum of the scores of the techniques a
person's solve takes, the level one of ``HODOKU_LEVELS``.
"""
from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from typing import NamedTuple

import numpy as np

from dlx.checks import whole
from dlx.status import INVALID

from . import encode, techniques, transform, variants
from .grid import Box, Puzzle, PuzzleError, Shape, clashes, parse_shaped
from .pipeline import map_chunks
from .techniques import Grade
from .variants import Variant, VariantLike

#: Searches per puzzle: the puzzle as given and ORDERS - 1 transformations of it.
ORDERS = 6
#: Level names and the least rating of each (a rating below 1 is "easy": on average less than one
#: node past the forced moves), cut by measurement (see above).
LEVELS = {"easy": 0.0, "medium": 1.0, "hard": 4.5, "fiendish": 5.5, "diabolical": 6.5}
#: The scales a puzzle is rated on: the search's nodes (the default) and HoDoKu's.
SCALES = ("search", "hodoku")
#: HoDoKu's levels, from its ceilings on the score and the hardest technique used.
HODOKU_LEVELS = ("easy", "medium", "hard", "unfair", "extreme")


def levels(scale: str = "search") -> tuple[str, ...]:
    """The level names of a scale, easiest first."""
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}: {' or '.join(SCALES)}")
    return tuple(LEVELS) if scale == "search" else HODOKU_LEVELS


class Rating(NamedTuple):
    """How hard a puzzle is: ``score`` (log2 of 1 + the nodes past the forced moves, averaged over
    several orders) and its ``level`` by name; ``nodes``: the mean nodes per search."""

    score: float
    level: str
    nodes: float


def level_of(score: float) -> str:
    """The name of the level a score falls in."""
    return [name for name, least in LEVELS.items() if score >= least][-1]


def rate(puzzle: Puzzle, *, seed: int = 0, box: Box = None, symbols: str | None = None,
         variant: VariantLike = None, scale: str = "search") -> Rating | Grade:
    """The [`Rating`][sudoku.rating.Rating] of a puzzle with exactly one solution (a PuzzleError otherwise: a
    puzzle without a unique solution has no difficulty). ``box``, ``symbols``, ``variant``: as for
    [`sudoku.solve`][sudoku.solve]. ``scale="hodoku"``: HoDoKu's [`Grade`][sudoku.techniques.Grade]
    instead (its score and level, from a solve in human techniques; not for killers).

    Examples:
        >>> rate("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
        Rating(score=0.0, level='easy', nodes=52.0)
        >>> rate("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..").level
        'diabolical'
        >>> rate(".2.4....94..189.......62.5......63..3..94.5.......8.1..........8.2..4...964.....7", scale="hodoku")
        Grade(score=1064, level='hard', steps=65)
    """
    rating = next(rate_all([puzzle], seed=seed, box=box, symbols=symbols, variant=variant, scale=scale))
    if isinstance(rating, PuzzleError):
        raise rating
    return rating


def rate_all(puzzles: Iterable, *, seed: int = 0, jobs: int | None = 1, box: Box = None, symbols: str | None = None,
             variant: VariantLike = None, variants_each: list | None = None,
             scale: str = "search") -> Iterator[Rating | Grade | PuzzleError]:
    """A [`Rating`][sudoku.rating.Rating] for every puzzle, in input order, or the
    [`PuzzleError`][sudoku.PuzzleError] that says why a puzzle has none (unreadable, no solution,
    several). Chunks of puzzles go to the kernel together, on ``jobs`` threads (0 or None: one per
    core), as [`sudoku.solve_all`][sudoku.solve_all] does. ``variants_each``: a variant per puzzle (a
    jigsaw's or killer's own layout). ``scale``: "search" (the default) or "hodoku" (a
    [`Grade`][sudoku.techniques.Grade] each). Cost: ``ORDERS`` searches proving uniqueness per
    puzzle; on HoDoKu's scale one search and the human solve (milliseconds of Python a puzzle,
    more for the hardest)."""
    seed = whole(seed, "seed")
    levels(scale)
    rules = variants.named(variant)
    if variants_each is not None:
        puzzles = zip(puzzles, variants_each)
    else:
        puzzles = ((p, rules) for p in puzzles)

    def human(chunk: list, stop: threading.Event | None) -> list:
        out: list = []
        for p, rules in chunk:
            try:
                out.append(techniques.grade(p, box=box, symbols=symbols, variant=rules))
            except PuzzleError as e:
                out.append(e)
        return out

    def work(chunk: list, stop: threading.Event | None) -> list:
        out: list = [None] * len(chunk)
        groups: dict = {}
        for k, (p, rules) in enumerate(chunk):
            try:
                boxes = rules is None or rules.boxes
                values, shape = parse_shaped(p, box=box, symbols=symbols, boxes=boxes)
                if rules is not None:
                    rules.accept(shape)
            except PuzzleError as e:
                out[k] = e
                continue
            groups.setdefault((shape, rules), []).append((k, values))
        for (shape, rules), group in groups.items():
            ratings = rate_values(np.stack([v for _, v in group]), shape, seed=seed, variant=rules, symbols=symbols)
            for (k, _), rating in zip(group, ratings):
                out[k] = rating
        return out
    return map_chunks(human if scale == "hodoku" else work, puzzles, jobs=jobs, flatten=True)


def rate_values(values: np.ndarray, shape: Shape | None = None, *, seed: int = 0, variant: Variant | None = None,
                symbols: str | None = None) -> list[Rating | PuzzleError]:
    """Ratings of puzzles of one shape and variant, one per row of ``values``, all in ``ORDERS``
    kernel calls (one for a killer)."""
    shape = shape or Shape.of(values.shape[1])
    batch = encode.batch(shape, variant)
    rng = np.random.default_rng(whole(seed, "seed"))
    orders = [values]
    if variant is None or not variant.cages:
        orders += [transform.draw(shape, rng, variant).apply(values) for _ in range(ORDERS - 1)]
    results = [batch.solve(order, 2) for order in orders]
    counts = results[0].counts
    nodes = np.mean([r.nodes for r in results], axis=0)
    forced = np.count_nonzero(values == 0, axis=1) + 1
    scores = np.log2(1 + np.maximum(nodes - forced, 0))
    out: list[Rating | PuzzleError] = []
    for k, (count, score, mean) in enumerate(zip(counts.tolist(), scores.tolist(), nodes.tolist())):
        if results[0].status[k] == INVALID:
            why = clashes(values[k], shape, symbols, boxes=shape.boxes)
            why = why or (variant.clash(values[k], symbols, shape) if variant is not None else None)
            out.append(PuzzleError(why or "the givens contradict each other"))
        elif count != 1:
            why = "no solution" if count == 0 else "more than one solution"
            out.append(PuzzleError(f"{why}: only a puzzle with one solution has a rating"))
        else:
            score = round(score, 2)
            out.append(Rating(score, level_of(score), round(mean, 2)))
    return out
