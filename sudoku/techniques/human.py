"""The solve a person would make: the next step, the whole path, and HoDoKu's grade.

The techniques are tried in HoDoKu's order (its defaults: the cheapest first), and the first that
finds something is applied; then the search starts again from the top. Each technique has
HoDoKu's score and level. A puzzle's score is the sum of its steps' scores; its level is the
highest level among its steps, raised while the score exceeds that level's ceiling (800 for easy,
1000 medium, 1600 hard, 1800 unfair).

When no technique of the set applies, HoDoKu's last resort places one digit of the solution
("Brute Force", score 10000, extreme), and so does this solver.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

from . import basic, chains, colouring, fish, loops, patterns, uniqueness
from .board import Board, bits
from .steps import Step, make


class Technique(NamedTuple):
    """A technique as the solver runs it: HoDoKu's ``name``, ``score`` and ``level`` (1 easy to
    5 extreme), and ``find``, which yields its instances on a board in the order HoDoKu looks."""

    name: str
    score: int
    level: int
    find: Callable[[Board], Iterator[Step]]


LEVELS = ("easy", "medium", "hard", "unfair", "extreme")
#: The highest score of each level but the last: a puzzle scoring more moves up a level.
CEILINGS = (800, 1000, 1600, 1800)


def _none(board: Board) -> Iterator[Step]:
    """No instance: the solver itself places a brute-force digit, from the solution."""
    return iter(())


TECHNIQUES: list[Technique] = [
    Technique("Full House", 4, 1, basic.full_house),
    Technique("Naked Single", 4, 1, basic.naked_single),
    Technique("Hidden Single", 14, 1, basic.hidden_single),
    Technique("Locked Pair", 40, 2, lambda b: basic.locked_subset(b, 2)),
    Technique("Locked Triple", 60, 2, lambda b: basic.locked_subset(b, 3)),
    Technique("Locked Candidates Type 1 (Pointing)", 50, 2, lambda b: basic.locked_candidates(b, True)),
    Technique("Locked Candidates Type 2 (Claiming)", 50, 2, lambda b: basic.locked_candidates(b, False)),
    Technique("Naked Pair", 60, 2, lambda b: basic.naked_subset(b, 2)),
    Technique("Naked Triple", 80, 2, lambda b: basic.naked_subset(b, 3)),
    Technique("Hidden Pair", 70, 2, lambda b: basic.hidden_subset(b, 2)),
    Technique("Hidden Triple", 100, 2, lambda b: basic.hidden_subset(b, 3)),
    Technique("Naked Quadruple", 120, 3, lambda b: basic.naked_subset(b, 4)),
    Technique("Hidden Quadruple", 150, 3, lambda b: basic.hidden_subset(b, 4)),
    Technique("X-Wing", 140, 3, lambda b: fish.fish(b, 2)),
    Technique("Swordfish", 150, 3, lambda b: fish.fish(b, 3)),
    Technique("Jellyfish", 160, 3, lambda b: fish.fish(b, 4)),
    Technique("Remote Pair", 110, 3, patterns.remote_pair),
    Technique("Bivalue Universal Grave + 1", 100, 3, patterns.bug_plus_one),
    Technique("Skyscraper", 130, 3, patterns.skyscraper),
    Technique("2-String Kite", 150, 3, patterns.two_string_kite),
    Technique("Turbot Fish", 120, 3, patterns.turbot_fish),
    Technique("Empty Rectangle", 120, 3, patterns.empty_rectangle),
    Technique("W-Wing", 150, 3, patterns.w_wing),
    Technique("XY-Wing", 160, 3, patterns.xy_wing),
    Technique("XYZ-Wing", 180, 3, patterns.xyz_wing),
    Technique("Uniqueness Test 1", 100, 3, lambda b: uniqueness.uniqueness(b, 1)),
    Technique("Uniqueness Test 2", 100, 3, lambda b: uniqueness.uniqueness(b, 2)),
    Technique("Uniqueness Test 3", 100, 3, lambda b: uniqueness.uniqueness(b, 3)),
    Technique("Uniqueness Test 4", 100, 3, lambda b: uniqueness.uniqueness(b, 4)),
    Technique("Uniqueness Test 5", 100, 3, lambda b: uniqueness.uniqueness(b, 5)),
    Technique("Uniqueness Test 6", 100, 3, lambda b: uniqueness.uniqueness(b, 6)),
    Technique("Hidden Rectangle", 100, 3, lambda b: uniqueness.uniqueness(b, 7)),
    Technique("Avoidable Rectangle Type 1", 100, 3, lambda b: uniqueness.avoidable(b, 1)),
    Technique("Avoidable Rectangle Type 2", 100, 3, lambda b: uniqueness.avoidable(b, 2)),
    Technique("Finned X-Wing", 130, 3, lambda b: fish.fish(b, 2, "finned")),
    Technique("Sashimi X-Wing", 150, 3, lambda b: fish.fish(b, 2, "sashimi")),
    Technique("Finned Swordfish", 200, 4, lambda b: fish.fish(b, 3, "finned")),
    Technique("Sashimi Swordfish", 240, 4, lambda b: fish.fish(b, 3, "sashimi")),
    Technique("Finned Jellyfish", 250, 4, lambda b: fish.fish(b, 4, "finned")),
    Technique("Sashimi Jellyfish", 260, 4, lambda b: fish.fish(b, 4, "sashimi")),
    Technique("Sue de Coq", 250, 4, basic.sue_de_coq),
    Technique("Simple Colors", 150, 3, colouring.simple_colours),
    Technique("Multi-Colors", 200, 3, colouring.multi_colours),
    Technique("X-Chain", 260, 4, chains.x_chain),
    Technique("XY-Chain", 260, 4, chains.xy_chain),
    Technique("Nice Loop/AIC", 280, 4, loops.aic),
    Technique("Grouped Nice Loop/AIC", 300, 4, loops.grouped_aic),
]
BRUTE_FORCE = Technique("Brute Force", 10000, 5, _none)
SCORE = {t.name: t.score for t in TECHNIQUES} | {BRUTE_FORCE.name: BRUTE_FORCE.score}


def apply(board: Board, step: Step) -> None:
    """Make ``step`` on ``board``."""
    for cell, d in step.placed:
        board.place(cell, d)
    for cell, d in step.removed:
        board.eliminate(cell, d)


def next_step(board: Board, solution: list[int] | None = None, first: int = 0) -> tuple[Technique | None, Step]:
    """The first step of the first technique (from ``TECHNIQUES[first]`` on) that finds one. When
    none does: a brute-force placement from ``solution``, or ``(None, ...)`` without one."""
    for technique in TECHNIQUES[first:]:
        step = next(technique.find(board), None)
        if step is not None:
            return technique, step
    cell = _brute_force_cell(board)
    if solution is None:
        return None, make(BRUTE_FORCE.name, board.size, placed=[(cell, 0)])
    return BRUTE_FORCE, make(BRUTE_FORCE.name, board.size, placed=[(cell, solution[cell])])


def _brute_force_cell(board: Board) -> int:
    """The empty cell in the middle of the empty cells, as HoDoKu picks it."""
    empty = list(bits(board.empty))
    return empty[len(empty) // 2]


def grade_of(techniques: list[Technique]) -> tuple[int, str]:
    """The score and level of a solve that used ``techniques``, one entry per step."""
    score = sum(t.score for t in techniques)
    level = max((t.level for t in techniques), default=1)
    while level < 5 and score > CEILINGS[level - 1]:
        level += 1
    return score, LEVELS[level - 1]
