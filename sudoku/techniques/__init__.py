"""Sudoku in human terms: the next step a person would take, a whole solve a person can follow,
and HoDoKu's grade.

The techniques work on pencil marks (every cell's candidates) in HoDoKu's order and with its
scores: singles, intersections, subsets, fish (basic, finned, sashimi), single-digit patterns,
wings, uniqueness, colouring and chains. Where none applies, the step is HoDoKu's last resort, a
digit of the solution ("Brute Force"). The solve path stays the exact-cover engine's: it proves
the solution unique first, which uniqueness techniques need, and gives the digits a brute-force
step places.

Examples:
    >>> from sudoku import techniques
    >>> puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    >>> techniques.hint(puzzle).text
    'Naked Single: r5c5=5'
    >>> techniques.grade(puzzle)
    Grade(score=204, level='easy', steps=51)
    >>> [step.text for step in techniques.steps(puzzle)][:3]
    ['Naked Single: r5c5=5', 'Naked Single: r7c6=7', 'Naked Single: r8c8=3']

Cost: the singles (most steps of most solves), fish and locked sets run in numba kernels
([`sudoku.techniques.kernel`][sudoku.techniques.kernel]); the patterns and chains in Python on
bitsets, microseconds to milliseconds a step; plus one exact-cover search per puzzle. Grading
takes about 0.2 ms a puzzle on kaggle_10k, 0.8 ms on 17clue and 20 ms on top1465.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import NamedTuple

import numpy as np

from .. import encode, explainer, variants
from ..grid import Box, Puzzle, PuzzleError, Shape, pretty, to_text
from ..variants import Variant, VariantLike
from .board import Board, Houses
from .human import LEVELS, TECHNIQUES, Technique, apply, grade_of, next_step
from .steps import Step, cell_names

__all__ = ["LEVELS", "TECHNIQUES", "Board", "Grade", "Houses", "Step", "Technique", "grade", "hint", "start",
           "steps", "tell", "walk"]


class Grade(NamedTuple):
    """HoDoKu's rating of a puzzle: ``score`` (the sum of its steps' scores), ``level`` (easy,
    medium, hard, unfair or extreme) and the number of ``steps`` of the solve."""

    score: int
    level: str
    steps: int


@functools.lru_cache(maxsize=32)
def houses(shape: Shape, rules: Variant | None) -> Houses:
    """The houses of a layout, built once."""
    return Houses(shape, rules)


def start(puzzle: Puzzle, *, box: Box = None, symbols: str | None = None,
          variant: VariantLike = None) -> tuple[Board, list[int]]:
    """The pencil marks of ``puzzle`` and its solution (one exact-cover search, limit 2). A
    [`PuzzleError`][sudoku.PuzzleError] when it cannot be read, has no solution or more than one
    (uniqueness techniques assume one), or is a killer (the techniques know nothing of sums)."""
    return _start(puzzle, box, symbols, variant, take=False)


def _start(puzzle: Puzzle, box: Box, symbols: str | None, variant: VariantLike,
           take: bool) -> tuple[Board, list[int]]:
    """`start`; with ``take``, the board has taken its first singles already, for
    [`take_singles`][sudoku.techniques.board.Board.take_singles] to hand out (one kernel call
    fewer)."""
    values, shape, rules = variants.read(puzzle, box=box, symbols=symbols, variant=variant)
    if rules is not None and rules.cages:
        raise PuzzleError("human techniques do not cover a killer's cages (their sums): rate and explain it "
                          "on the default scale")
    found = encode.batch(shape, rules).solve(values[None], 2)
    if found.counts[0] != 1:
        why = "no solution" if found.counts[0] == 0 else "more than one solution"
        raise PuzzleError(f"{why}: the techniques (uniqueness among them) assume exactly one")
    solution = found.answers[0][:shape.cells].tolist()
    return Board(values.tolist(), houses(shape, rules), take=take), solution


def walk(puzzle: Puzzle, *, box: Box = None, symbols: str | None = None,
         variant: VariantLike = None) -> Iterator[tuple[Technique, Step]]:
    """Every step of the human solve of ``puzzle`` with its technique, as it is found."""
    board, solution = _start(puzzle, box, symbols, variant, take=True)
    for technique, step in _path(board, solution, text=True):
        assert technique is not None and step is not None, "with the solution at hand there is always a step"
        yield technique, step


SINGLES = TECHNIQUES[:3]


def _path(board: Board, solution: list[int] | None, text: bool) -> Iterator[tuple[Technique | None, Step | None]]:
    """The steps from ``board`` on, made as they are found. Singles come from the kernel in one
    call per run of them (their steps left None unless ``text``); without ``solution``, a last
    ``(None, step)`` where no technique applies."""
    names = cell_names(board.size)
    while True:
        for code, cell, d in board.take_singles():
            single = SINGLES[code]
            yield single, (Step(single.name, ((cell, d),), (), f"{single.name}: {names[cell]}={d}") if text else None)
        if board.solved():
            return
        technique, step = next_step(board, solution, first=len(SINGLES))   # no single is left
        if technique is None:
            yield None, step
            return
        apply(board, step)
        yield technique, step


def hint(puzzle: Puzzle, *, box: Box = None, symbols: str | None = None,
         variant: VariantLike = None) -> Step | None:
    """The next step a person would take, as HoDoKu picks it (None when the puzzle is solved):
    its technique, its placements and eliminations, and a line of text in HoDoKu's notation.

    Examples:
        >>> hint(".2.4....94..189.......62.5......63..3..94.5.......8.1..........8.2..4...964.....7").text
        'Locked Candidates Type 1 (Pointing): 5 in b2 => r1c13<>5'
        >>> hint("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..").text
        'Brute Force: r5c3=9'
    """
    return next((step for _, step in walk(puzzle, box=box, symbols=symbols, variant=variant)), None)


def steps(puzzle: Puzzle, *, box: Box = None, symbols: str | None = None, variant: VariantLike = None) -> list[Step]:
    """The whole human solve of ``puzzle``, one [`Step`][sudoku.techniques.steps.Step] each."""
    return [step for _, step in walk(puzzle, box=box, symbols=symbols, variant=variant)]


def grade(puzzle: Puzzle, *, box: Box = None, symbols: str | None = None, variant: VariantLike = None) -> Grade:
    """HoDoKu's level and score of ``puzzle``: the sum of the scores of its solve's steps, and the
    highest level among them, raised while the score passes that level's ceiling."""
    board, solution = _start(puzzle, box, symbols, variant, take=True)
    used = [technique for technique, _ in _path(board, solution, text=False)]
    score, level = grade_of(used)  # type: ignore[arg-type]  # with a solution, never None
    return Grade(score, level, len(used))


def tell(puzzle: Puzzle, write: Callable[[str], object], *, full: bool = False, limit: int = 60,
         more: str = "full=True", box: Box = None, symbols: str | None = None, variant: VariantLike = None) -> None:
    """The human solve of ``puzzle``, one numbered line per step in HoDoKu's notation, each handed
    to ``write``; long ones show the first ``limit`` steps and count the rest (``more`` names the
    way to ask for them). Where no technique of the set applies, it says so and the engine's
    explanation ([`sudoku.explainer`][sudoku.explainer]) takes over from the grid reached. Ends
    with the grade and the solved grid."""
    board, _ = start(puzzle, box=box, symbols=symbols, variant=variant)
    rules = variants.named(variant)
    shape = board.houses.shape
    used: list[Technique] = []
    for technique, step in _path(board, None, text=True):
        assert step is not None
        if technique is None:
            shown = min(len(used), limit) if not full else len(used)
            if len(used) > shown:
                write(f"... and {len(used) - shown} more steps ({more} shows them)")
            write(f"No technique of the set applies after {len(used)} steps; the search takes over from here:")
            grid = np.array(board.value, np.uint8)
            explainer.tell(grid, write, full=full, limit=limit, more=more, box=shape, symbols=symbols,
                           variant=rules)
            return
        used.append(technique)
        if full or len(used) <= limit:
            write(f"{len(used)}. {step.text}")
    if not full and len(used) > limit:
        write(f"... and {len(used) - limit} more steps ({more} shows them)")
    score, level = grade_of(used)
    write(f"Solved in {len(used)} steps: HoDoKu score {score}, {level}.")
    write(pretty(to_text(np.array(board.value, np.uint8), symbols), box=shape if shape.boxes else None,
                 symbols=symbols, boxes=shape.boxes))
