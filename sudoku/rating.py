"""How hard a puzzle is, from the search: the nodes it takes beyond the forced moves.

A puzzle solved by forced moves alone (every level of the search has an item with one option: a
naked or a hidden single) takes one node per empty cell, plus one for the solution. Every node past
those is a guess or a dead end. The rating is ``log2(1 + extra nodes)``, the extra nodes averaged
over ``ORDERS`` searches in different orders (the puzzle itself and transformations of it drawn
from the seed, :mod:`sudoku.transform`: the same puzzle with its items and options in another order),
each proving uniqueness (limit 2), so that luck in one order does not decide. The levels cut that
scale where the public sets part (see the README): kaggle_10k rates 0 (easy), 17clue 3.5 (median),
top1465 8.6, forum_hardest_1905_11plus 11.2 and forum_hardest_1106 12.2.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

import numpy as np

from dlx.search import whole
from dlx.status import INVALID

from . import encode, transform
from .grid import PuzzleError, box_size, clashes, parse
from .solver import map_chunks

#: Searches per puzzle: the puzzle as given and ORDERS - 1 transformations of it.
ORDERS = 6
#: Level names and the least rating of each (a rating below 1 is "easy": on average less than one
#: node past the forced moves).
LEVELS = {"easy": 0.0, "medium": 1.0, "hard": 5.0, "fiendish": 9.0, "diabolical": 11.5}


class Rating(NamedTuple):
    """How hard a puzzle is: ``score`` (log2 of 1 + the nodes past the forced moves, averaged over
    several orders) and its ``level`` by name; ``nodes``: the mean nodes per search."""

    score: float
    level: str
    nodes: float


def level_of(score: float) -> str:
    """The name of the level a score falls in."""
    return [name for name, least in LEVELS.items() if score >= least][-1]


def rate(puzzle, *, seed: int = 0) -> Rating:
    """The :class:`Rating` of a puzzle with exactly one solution (a PuzzleError otherwise: a
    puzzle without a unique solution has no difficulty).

    >>> rate("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    Rating(score=0.0, level='easy', nodes=52.0)
    >>> rate("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..").level
    'diabolical'
    """
    rating = rate_values(parse(puzzle)[None, :], seed=seed)[0]
    if isinstance(rating, PuzzleError):
        raise rating
    return rating


def rate_all(puzzles: Iterable, *, seed: int = 0, jobs: int | None = 1) -> Iterator[Rating | PuzzleError]:
    """A :class:`Rating` for every puzzle, in input order, or the :class:`PuzzleError` that says
    why a puzzle has none (unreadable, no solution, several). Chunks of puzzles go to the kernel
    together, on ``jobs`` threads (0 or None: one per core), as :func:`sudoku.solve_all` does.
    Cost: ``ORDERS`` searches proving uniqueness per puzzle."""
    def work(chunk: list, stop) -> list:
        values, out = [], [None] * len(chunk)
        for k, p in enumerate(chunk):
            try:
                values.append((k, parse(p)))
            except PuzzleError as e:
                out[k] = e
        by_size: dict[int, list] = {}
        for k, v in values:
            by_size.setdefault(v.size, []).append((k, v))
        for group in by_size.values():
            ratings = rate_values(np.stack([v for _, v in group]), seed=seed)
            for (k, _), rating in zip(group, ratings):
                out[k] = rating
        return out
    return map_chunks(work, puzzles, jobs=jobs, flatten=True)


def rate_values(values: np.ndarray, *, seed: int = 0) -> list[Rating | PuzzleError]:
    """Ratings of puzzles of one size, one per row of ``values``, all in ``ORDERS`` kernel calls."""
    n = box_size(values[0])
    batch = encode.batch(n)
    rng = np.random.default_rng(whole(seed, "seed"))
    orders = [values] + [transform.draw(n, rng).apply(values) for _ in range(ORDERS - 1)]
    results = [batch.solve(order, 2) for order in orders]
    counts = results[0].counts
    nodes = np.mean([r.nodes for r in results], axis=0)
    forced = np.count_nonzero(values == 0, axis=1) + 1
    scores = np.log2(1 + np.maximum(nodes - forced, 0))
    out: list[Rating | PuzzleError] = []
    for k, (count, score, mean) in enumerate(zip(counts.tolist(), scores.tolist(), nodes.tolist())):
        if results[0].status[k] == INVALID:
            out.append(PuzzleError(clashes(values[k]) or "the givens contradict each other"))
        elif count != 1:
            why = "no solution" if count == 0 else "more than one solution"
            out.append(PuzzleError(f"{why}: only a puzzle with one solution has a rating"))
        else:
            score = round(score, 2)
            out.append(Rating(score, level_of(score), round(mean, 2)))
    return out
