"""A solve in the puzzle's own words, step by step, from the trace of the search.

The search chooses the item with the fewest options left. When that item has one option the move
is forced: a cell with one digit left ("r3c4 can only be 5", a naked single) or a digit with one
place left in a row, column or box ("5 can only go in r3c4 within row 3", a hidden single). With
more, the search guesses, and a guess can end in a dead end (a cell with no digit left, a digit
with no place left in a unit), from which it backs up to the latest guess and tries the next
option there.

Variants speak of their own units (a diagonal, a window, a jigsaw's region) and a killer's cages:
a cage's option gives it a set of values ("cage 3 holds {1, 2, 4}").
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from dlx import tracing

from . import encode, variants
from .grid import Box, Puzzle, Shape, pretty, symbol_table, to_text
from .variants import VariantLike

#: Lines shown before the rest of a long explanation is summed up.
STEPS = 60
#: Search nodes an explanation takes at most unless told otherwise: a hard 9x9 puzzle takes a few
#: thousand, and each node costs a few steps of Python here (some 10-30 microseconds), so this is
#: seconds, and a search that would run for hours stops instead of filling memory.
MAX_NODES = 100_000


class Step(NamedTuple):
    """One step of a solve. ``kind``: "forced", "guess", "retry" (the next option of a guess
    after a backup), "dead end", "backtrack" (levels taken back, ``undone`` placements) or
    "solved". ``cell`` (0-based, row-major) and ``digit`` say what is placed ("forced", "guess",
    "retry"); ``unit`` is what forced or emptied it: ("cell", r, c) or (unit, i, digit);
    ``choices`` are the (cell, digit) options the step chose among. A killer's cage step has
    ``cell`` -1 and ``digit`` the number of its option in `sudoku.encode.cage_sets`; so have
    its choices."""

    kind: str
    level: int
    cell: int = -1
    digit: int = 0
    unit: tuple = ()
    choices: tuple = ()
    undone: int = 0


class _Story:
    """The steps of a traced search, made from its events as the recorder hands them over, each
    passed to ``sink`` and none kept: memory stays that of the search however long it runs.
    ``detail()`` says whether the next step's choices are wanted (working them out costs a pass
    over the options of the item chosen)."""

    def __init__(self, problem: Any, placements: list[tuple[int, int]], sink: Callable[[Step], None],
                 detail: Callable[[], bool], shape: Shape, regions: bool) -> None:
        self.words = [encode.placement(name, shape, regions) for name in problem.items]
        index = {name: i for i, name in enumerate(problem.items)}
        self.option_items = [tuple(index[name] for name in problem.option(k)) for k in range(problem.n_options)]
        self.options_of: dict[int, list[int]] = {}
        for k, items in enumerate(self.option_items):
            for i in sorted(items):
                self.options_of.setdefault(i, []).append(k)
        self.placements, self.sink, self.detail = placements, sink, detail
        self.covered = [0] * len(problem.items)    # how many options applied cover each item
        self.applied: list[int] = []               # the option at each level, as the search stands
        self.chosen: dict[int, tuple[int, int]] = {}   # level -> (item, its number of options)
        self.backtrack: Step | None = None         # backups in a row become one step

    def __call__(self, events: np.ndarray) -> None:
        for kind, level, a, b in events.tolist():
            if kind == tracing.BACKUP:
                undone = self.backtrack.undone + 1 if self.backtrack else 1
                self.backtrack = Step("backtrack", level, undone=undone)
                continue
            if self.backtrack is not None:
                self.sink(self.backtrack)
                self.backtrack = None
            if kind == tracing.CHOOSE:
                self.chosen[level] = a, b
            elif kind == tracing.TRY:
                self._take_back(level)
                item, options = self.chosen[level]
                alive = self._alive(item) if self.detail() else ()
                self.applied.append(a)
                for i in self.option_items[a]:
                    self.covered[i] += 1
                cell, digit = self.placements[a]
                step = "forced" if options == 1 else "guess" if b == 1 else "retry"
                self.sink(Step(step, level, cell, digit, self.words[item],
                               tuple(self.placements[o] for o in alive)))
            elif kind == tracing.DEAD:
                self.sink(Step("dead end", level, unit=self.words[a]))
            elif kind == tracing.SOLUTION:
                self.sink(Step("solved", level))

    def _take_back(self, level: int) -> None:
        for o in self.applied[level:]:
            for i in self.option_items[o]:
                self.covered[i] -= 1
        del self.applied[level:]

    def _alive(self, item: int) -> list[int]:
        covered = self.covered
        return [o for o in self.options_of.get(item, ()) if not any(covered[i] for i in self.option_items[o])]

    def close(self) -> None:
        if self.backtrack is not None:
            self.sink(self.backtrack)
            self.backtrack = None


class _Puzzle(NamedTuple):
    """A puzzle read for explaining: its values, shape, rules and symbols."""

    values: np.ndarray
    shape: Shape
    variant: variants.Variant | None
    symbols: str | None


def _read(puzzle: Puzzle, box: Box, symbols: str | None, variant: VariantLike) -> _Puzzle:
    return _Puzzle(*variants.read(puzzle, box=box, symbols=symbols, variant=variant), symbols)


def walk(puzzle: Puzzle | _Puzzle, sink: Callable[[Step], None], *, detail: Callable[[], bool] = lambda: True,
         max_nodes: int | None = MAX_NODES, box: Box = None, symbols: str | None = None,
         variant: VariantLike = None) -> tuple[str | None, int, bool]:
    """Hand each step of the search for the first solution of ``puzzle`` to ``sink`` as it is
    taken; ``(solution, nodes, done)``: the solution (None when there is none or the budget ran
    out), the nodes searched, and False when ``max_nodes`` ran out first. Raises PuzzleError for a
    puzzle that cannot be read or whose givens clash. ``box``, ``symbols``, ``variant``: as for
    [`sudoku.solve`][sudoku.solve]. Cost: the search, plus some microseconds of Python a step; memory: the
    search's and what ``sink`` keeps."""
    read = puzzle if isinstance(puzzle, _Puzzle) else _read(puzzle, box, symbols, variant)
    values, shape = read.values, read.shape
    problem, kept = encode.remaining(values, shape, read.variant)
    if problem is None:
        sink(Step("solved", 0))
        return to_text(values, read.symbols), 0, True
    size, cells = shape.size, shape.cells
    placements = [(k // size, k % size + 1) if k < cells * size else (-1, k - cells * size) for k in kept]
    story = _Story(problem, placements, sink, detail, shape, not shape.boxes)
    with problem.search(trace=story, limit=1, max_nodes=max_nodes, engine="dlx") as run:
        found = next(run, None)
        story.close()
        nodes, done = run.stats.nodes, run.stats.status != "max_nodes"
    if found is None:
        return None, nodes, done
    grid = values.copy()
    for k in found:
        cell, digit = placements[k]
        if cell >= 0:
            grid[cell] = digit
    return to_text(grid, read.symbols), nodes, True


def steps(puzzle: Puzzle, *, max_nodes: int | None = MAX_NODES, box: Box = None, symbols: str | None = None,
          variant: VariantLike = None) -> tuple[list[Step], str | None]:
    """The steps of the search for the first solution of ``puzzle`` and that solution (None when
    there is none, or ``max_nodes`` ran out first). Raises PuzzleError for a puzzle that cannot be
    read or whose givens clash. Memory: every step (see `walk` to keep fewer)."""
    out: list[Step] = []
    solution, _, _ = walk(puzzle, out.append, max_nodes=max_nodes, box=box, symbols=symbols, variant=variant)
    return out, solution


def explain(puzzle: Puzzle, *, full: bool = False, limit: int = STEPS, more: str = "full=True",
            max_nodes: int | None = MAX_NODES, box: Box = None, symbols: str | None = None,
            variant: VariantLike = None) -> str:
    """The solve of ``puzzle`` in words, one line per step, ending with the grid; long ones show
    the first ``limit`` steps and count the rest (``full=True``: every step; ``more`` names the
    way to ask for them). The search stops after ``max_nodes`` nodes (None: never), and the
    explanation then says so. ``box``, ``symbols``, ``variant``: as for [`sudoku.solve`][sudoku.solve].
    Memory: the lines shown.

    Examples:
        >>> print(explain("1...|..3.|.4..|...2", limit=3))
        1. r1c4 can only be 4
        2. r1c3 can only be 2
        3. r1c2 can only be 3
        ... and 9 more steps (full=True shows them)
        Solved: 12 forced moves, no guesses.
        1 3 | 2 4
        4 2 | 3 1
        ...
    """
    lines: list[str] = []
    tell(puzzle, lines.append, full=full, limit=limit, more=more, max_nodes=max_nodes, box=box,
         symbols=symbols, variant=variant)
    return "\n".join(lines)


def tell(puzzle: Puzzle, write: Callable[[str], object], *, full: bool = False, limit: int = STEPS,
         more: str = "full=True", max_nodes: int | None = MAX_NODES, budget: str = "max_nodes",
         box: Box = None, symbols: str | None = None, variant: VariantLike = None) -> bool:
    """[`explain`][sudoku.explainer.explain], each line handed to ``write`` (without its newline) as the search goes;
    False when ``max_nodes`` ran out before the search was done (``budget`` names the way to
    raise it). Memory: nothing per step beyond the lines ``write`` keeps."""
    read = _read(puzzle, box, symbols, variant)
    words = _Words(read)
    tally = {"forced": 0, "guess": 0, "dead end": 0}
    shown = [0]

    def sink(step: Step) -> None:
        if step.kind == "solved":
            return
        if step.kind in tally:
            tally[step.kind] += 1
        shown[0] += 1
        if full or shown[0] <= limit:
            write(f"{shown[0]}. {words(step)}")

    solution, nodes, done = walk(read, sink, detail=lambda: full or shown[0] < limit, max_nodes=max_nodes)
    if not full and shown[0] > limit:
        write(f"... and {shown[0] - limit} more steps ({more} shows them)")
    forced, guesses, dead = tally["forced"], tally["guess"], tally["dead end"]
    if not done:
        write(f"Gave up after {nodes:,} nodes ({budget} allows more): {forced} forced moves, {guesses} "
              f"guesses, {dead} dead ends so far.")
    elif solution is None:
        write(f"No solution: {forced} forced moves, {guesses} guesses, {dead} dead ends.")
    else:
        write(f"Solved: {forced} forced moves, " + (f"{guesses} guesses, {dead} dead ends." if guesses
                                                   else "no guesses."))
        write(pretty(solution, box=read.shape, symbols=read.symbols, boxes=read.shape.boxes))
    return done


class _Words:
    """Steps as sentences, in the puzzle's symbols and units."""

    def __init__(self, read: _Puzzle) -> None:
        self.size = read.shape.size
        self.chars = symbol_table(read.symbols, self.size)[1]
        self.sets = encode.cage_sets(read.variant, self.size) if read.variant is not None else []

    def __call__(self, step: Step) -> str:
        where = self.cell(step.cell) if step.cell >= 0 else ""
        head = "guess" if step.kind == "guess" else "try instead"
        if step.cell < 0 and step.kind in ("forced", "guess", "retry"):     # a killer's cage
            cage, holds = self.cage(step.digit)
            if step.kind == "forced":
                return f"cage {cage} can only hold {holds}"
            among = "; ".join(self.cage(j)[1] for _, j in step.choices)
            return f"{head} cage {cage} holds {holds} of {{{among}}}"
        if step.kind == "forced":
            kind, i, d = step.unit
            if kind == "cell":
                return f"{where} can only be {self.digit(step.digit)}"
            return f"{self.digit(step.digit)} can only go in {where} within {kind} {i + 1}"
        if step.kind in ("guess", "retry"):
            kind, i, d = step.unit
            if kind == "cell":
                among = ", ".join(self.digit(d) for _, d in step.choices)
                return f"{head} {where} = {self.digit(step.digit)} of {{{among}}}"
            if kind == "cage":
                return f"{head} {where} = {self.digit(step.digit)} in cage {i + 1}"
            among = ", ".join(self.cell(c) for c, _ in step.choices)
            return f"{head} {self.digit(step.digit)} at {where} of {{{among}}} in {kind} {i + 1}"
        if step.kind == "dead end":
            kind, i, d = step.unit
            if kind == "cell":
                return f"dead end: r{i + 1}c{d + 1} has no digit left"
            if kind == "cage":
                return f"dead end: cage {i + 1} has no set of values left"
            return f"dead end: {self.digit(d)} has no place left in {kind} {i + 1}"
        if step.kind == "backtrack":
            moves = "move" if step.undone == 1 else "moves"
            return f"backtrack: take back {step.undone} {moves}"
        raise ValueError(f"no words for a step of kind {step.kind!r}")

    def cell(self, cell: int) -> str:
        return f"r{cell // self.size + 1}c{cell % self.size + 1}"

    def digit(self, d: int) -> str:
        return self.chars[d - 1]

    def cage(self, j: int) -> tuple[int, str]:
        """The cage of cage option ``j`` (from 1) and its values as text."""
        k, values = self.sets[j]
        return k + 1, "{" + ", ".join(self.digit(v) for v in sorted(values)) + "}"
