"""New puzzles: a random solved grid from a seeded search, then givens taken away while the
puzzle stays unique.

Removal is greedy in a random order, and exact: a given goes when the puzzle without it still has
one solution (a count with limit 2). A given that cannot go now can never go later, since taking
more givens away only adds solutions; so one pass leaves a *minimal* puzzle (no single given can
go). The pass tests removals many at a time: each kernel call of :class:`dlx.Batch` tries the next
few removals cumulatively (the next one, the next two, ...), and the first that loses uniqueness
ends the call's progress; the window grows while removals succeed and shrinks when they fail.
"""
from __future__ import annotations

import numpy as np

from dlx.search import whole

from . import encode
from .grid import to_text
from .rating import LEVELS, rate

#: Prefix lengths tried per kernel call while looking for the first given that must stay.
PROBES = 8
#: When fewer givens than this went before one had to stay, most of the rest will have to stay
#: too: each is then tried alone, all in one kernel call, and those that must stay are set aside.
SWEEP = 4
#: Units tried alone in one sweep: the next few, since the later ones will be tried again anyway.
SWEPT = 12
#: Grids tried for a puzzle with ``clues`` givens before giving up.
TRIES = 100


def generate(*, seed: int | None = None, symmetric: bool = False, minimal: bool = True,
             clues: int | None = None, size: int = 3, difficulty: str | None = None,
             tries: int = TRIES) -> str:
    """A new puzzle with exactly one solution, as one line.

    ``seed`` draws everything (the same seed, the same puzzle; None: a fresh draw). ``size`` is the
    box size: 2 (4x4) to 5 (25x25). With ``minimal`` (the default) no single given can be taken away
    without losing uniqueness; with ``symmetric``, givens come and go in pairs symmetric under a
    half turn (minimal then means no such pair can go). ``clues=K`` stops at ``K`` givens (the puzzle
    then need not be minimal), drawing new grids until one gets there, at most ``tries``;
    ``minimal=False`` stops at the first given that cannot go (quicker, more givens).
    ``difficulty`` (a level of :func:`sudoku.rate`) draws puzzles until one is rated so.

    >>> import sudoku
    >>> puzzle = generate(seed=1)
    >>> puzzle == generate(seed=1), sudoku.count(puzzle)
    (True, 1)

    Cost: about a millisecond for a minimal 9x9 puzzle (a few dozen kernel calls).
    """
    size = whole(size, "size", 2)
    if size > 5:
        raise ValueError(f"size is the box size, 2 (4x4) to 5 (25x25), not {size}")
    cells = size ** 4
    if clues is not None:
        clues = whole(clues, "clues")
        if clues > cells:
            raise ValueError(f"clues={clues}: a {size * size}x{size * size} grid has {cells} cells")
    if difficulty is not None:
        if difficulty not in LEVELS:
            raise ValueError(f"unknown difficulty {difficulty!r}; the levels are: {', '.join(LEVELS)}")
    tries = whole(tries, "tries", 1)
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


def removal_order(size: int, rng: np.random.Generator, symmetric: bool) -> list[np.ndarray]:
    """The cells to try taking away, in a random order: one at a time, or with ``symmetric`` each
    with its partner under a half turn (the centre alone)."""
    cells = size ** 4
    if not symmetric:
        return [np.array([c]) for c in rng.permutation(cells).tolist()]
    half = [c for c in range(cells) if c <= cells - 1 - c]
    return [np.unique([c, cells - 1 - c]) for c in rng.permutation(half).tolist()]


def _one(rng: np.random.Generator, size: int, symmetric: bool, minimal: bool, clues: int | None) -> np.ndarray:
    """One puzzle: a grid, then removals in a random order while the puzzle stays unique."""
    puzzle = solved_grid(size, rng)
    pending = removal_order(size, rng, symmetric)
    batch = encode.batch(size)
    limit = clues if clues is not None else 0
    # most of a full grid can go before a given has to stay: the first probes spread out
    probes = np.linspace(0.35, 0.75, PROBES) * len(pending)
    sweep = False
    while pending:
        if sweep:
            pending = _removable(batch, puzzle, pending[:SWEPT]) + pending[SWEPT:]
            if not pending:
                break
        # the longest prefix of ``pending`` that can go at once, keeping ``limit`` givens
        room = np.count_nonzero(puzzle) - np.cumsum([u.size for u in pending])
        chain = pending[:int(np.count_nonzero(room >= limit))]
        if not chain:
            break
        good, puzzle = _unique_prefix(batch, puzzle, chain, probes, 1 if sweep else 0)
        probes = None
        if good == len(chain):
            pending = pending[good:]
            if clues is not None and pending:
                break               # down to ``clues`` givens
            continue
        if not minimal:
            break
        pending = pending[good + 1:]            # that given stays, and will have to stay
        sweep = good - sweep < SWEEP
    return np.array(puzzle)


def _unique_prefix(batch, puzzle: np.ndarray, chain: list[np.ndarray], probes=None,
                   lo: int = 0) -> tuple[int, np.ndarray]:
    """How many units of ``chain`` can go one after the other with the puzzle still unique, and
    the puzzle without them, knowing that ``lo`` can: uniqueness only gets lost along the chain,
    so the first failure is found by a search over prefix lengths, ``PROBES`` of them per kernel
    call (``probes`` first, if given; then 1, 2, 4, ... past ``lo`` while no failure is known,
    then evenly spaced between the last success and the first failure)."""
    hi, best = None, puzzle          # prefix ``lo`` is unique; prefix ``hi`` is not
    cells = np.concatenate(chain)
    ends = np.cumsum([u.size for u in chain])
    if lo:
        best = _without(puzzle, cells, ends[lo - 1:lo])[0]
    while hi is None or hi - lo > 1:
        if probes is not None:
            tried = sorted({min(max(lo + 1, int(x)), len(chain)) for x in probes})
            probes = None
        elif hi is None:
            tried = sorted({min(lo + (1 << k), len(chain)) for k in range(PROBES)})
        else:
            step = (hi - lo) / (PROBES + 1)
            tried = sorted({lo + max(1, round(step * (k + 1))) for k in range(PROBES)} - {hi})
        if hi is None and lo == len(chain):
            break
        rows = _without(puzzle, cells, ends[np.array(tried) - 1])
        unique = batch.solve(rows, 2).counts == 1
        for length, ok, row in zip(tried, unique.tolist(), rows):
            if ok and length > lo:
                lo, best = length, row
            elif not ok and (hi is None or length < hi):
                hi = length
    return lo, best


def _removable(batch, puzzle: np.ndarray, units: list[np.ndarray]) -> list[np.ndarray]:
    """The units each of which could go alone: the others must stay for good."""
    rows = np.repeat(puzzle[None, :], len(units), axis=0)
    for j, unit in enumerate(units):
        rows[j, unit] = 0
    unique = batch.solve(rows, 2).counts == 1
    return [u for u, ok in zip(units, unique.tolist()) if ok]


def _without(puzzle: np.ndarray, cells: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Rows of ``puzzle``, row ``j`` without the givens ``cells[:ends[j]]``."""
    rows = np.repeat(puzzle[None, :], ends.size, axis=0)
    gone = np.arange(cells.size)[None, :] < ends[:, None]
    rows[:, cells] = np.where(gone, 0, rows[:, cells])
    return rows
