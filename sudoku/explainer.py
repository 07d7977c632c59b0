"""A solve in the puzzle's own words, step by step, from the trace of the search.

The search chooses the item with the fewest options left. When that item has one option the move
is forced: a cell with one digit left ("r3c4 can only be 5", a naked single) or a digit with one
place left in a row, column or box ("5 can only go in r3c4 within row 3", a hidden single). With
more, the search guesses, and a guess can end in a dead end (a cell with no digit left, a digit
with no place left in a unit), from which it backs up to the latest guess and tries the next
option there.
"""
from __future__ import annotations

from typing import NamedTuple

from dlx import tracing

from . import encode
from .grid import SYMBOLS, PuzzleError, box_size, clashes, parse, pretty, to_text

#: Lines shown before the rest of a long explanation is summed up.
STEPS = 60


class Step(NamedTuple):
    """One step of a solve. ``kind``: "forced", "guess", "retry" (the next option of a guess
    after a backup), "dead end", "backtrack" (levels taken back, ``undone`` placements) or
    "solved". ``cell`` (0-based, row-major) and ``digit`` say what is placed ("forced", "guess",
    "retry"); ``unit`` is what forced or emptied it: ("cell", r, c) or (unit, i, digit);
    ``choices`` are the (cell, digit) options the step chose among."""

    kind: str
    level: int
    cell: int = -1
    digit: int = 0
    unit: tuple = ()
    choices: tuple = ()
    undone: int = 0


def steps(puzzle) -> tuple[list[Step], str | None]:
    """The steps of the search for the first solution of ``puzzle`` and that solution (None when
    there is none). Raises PuzzleError for a puzzle that cannot be read or whose givens clash."""
    values = parse(puzzle)
    why = clashes(values)
    if why:
        raise PuzzleError(why)
    problem, placements = encode.remaining(values)
    if problem is None:
        return [Step("solved", 0)], to_text(values)
    with problem.search(trace=True, limit=1, engine="dlx") as run:
        found = next(run, None)
        events = run.trace.tolist()
    words = [encode.placement(name) for name in problem.items]
    index = {name: i for i, name in enumerate(problem.items)}
    option_items = [frozenset(index[name] for name in problem.option(k)) for k in range(problem.n_options)]
    options_of: dict[int, list[int]] = {}
    for k, items in enumerate(option_items):
        for i in sorted(items):
            options_of.setdefault(i, []).append(k)
    applied: list[int] = []          # the option at each level, as the search stands
    chosen: dict[int, tuple[int, tuple]] = {}     # level -> (item, its options when chosen)
    out: list[Step] = []
    for kind, level, a, b in events:
        if kind == tracing.CHOOSE:
            covered = set().union(*(option_items[o] for o in applied[:level]))
            alive = tuple(o for o in options_of.get(a, ()) if not option_items[o] & covered)
            chosen[level] = a, alive
        elif kind == tracing.TRY:
            del applied[level:]
            applied.append(a)
            item, alive = chosen[level]
            cell, digit = placements[a]
            step = "forced" if len(alive) == 1 else "guess" if b == 1 else "retry"
            out.append(Step(step, level, cell, digit, words[item], tuple(placements[o] for o in alive)))
        elif kind == tracing.DEAD:
            out.append(Step("dead end", level, unit=words[a]))
        elif kind == tracing.BACKUP:
            if out and out[-1].kind == "backtrack":
                out[-1] = out[-1]._replace(level=level, undone=out[-1].undone + 1)
            else:
                out.append(Step("backtrack", level, undone=1))
        elif kind == tracing.SOLUTION:
            out.append(Step("solved", level))
    if found is None:
        return out, None
    grid = values.copy()
    for k in found:
        cell, digit = placements[k]
        grid[cell] = digit
    return out, to_text(grid)


def explain(puzzle, *, full: bool = False, limit: int = STEPS, more: str = "full=True") -> str:
    """The solve of ``puzzle`` in words, one line per step, ending with the grid; long ones show
    the first ``limit`` steps and count the rest (``full=True``: every step; ``more`` names the
    way to ask for them).

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
    found, solution = steps(puzzle)
    size = box_size(parse(puzzle)) ** 2
    lines = [f"{n}. {_words(step, size)}" for n, step in enumerate(found, 1) if step.kind != "solved"]
    shown = lines if full or len(lines) <= limit else lines[:limit] + [
        f"... and {len(lines) - limit} more steps ({more} shows them)"]
    forced = sum(s.kind == "forced" for s in found)
    guesses = sum(s.kind == "guess" for s in found)
    dead = sum(s.kind == "dead end" for s in found)
    if solution is None:
        end = f"No solution: {forced} forced moves, {guesses} guesses, {dead} dead ends."
        return "\n".join(shown + [end])
    summary = (f"Solved: {forced} forced moves, " + (f"{guesses} guesses, {dead} dead ends." if guesses
                                                     else "no guesses."))
    return "\n".join(shown + [summary, pretty(solution)])


def _words(step: Step, size: int) -> str:
    """One step as a sentence."""
    where = _cell(step.cell, size) if step.cell >= 0 else ""
    if step.kind == "forced":
        kind, i, d = step.unit
        if kind == "cell":
            return f"{where} can only be {_digit(step.digit)}"
        return f"{_digit(step.digit)} can only go in {where} within {kind} {i + 1}"
    if step.kind in ("guess", "retry"):
        kind, i, d = step.unit
        if kind == "cell":
            among = ", ".join(_digit(d) for _, d in step.choices)
            head = "guess" if step.kind == "guess" else "try instead"
            return f"{head} {where} = {_digit(step.digit)} of {{{among}}}"
        among = ", ".join(_cell(c, size) for c, _ in step.choices)
        head = "guess" if step.kind == "guess" else "try instead"
        return f"{head} {_digit(step.digit)} at {where} of {{{among}}} in {kind} {i + 1}"
    if step.kind == "dead end":
        kind, i, d = step.unit
        if kind == "cell":
            return f"dead end: r{i + 1}c{d + 1} has no digit left"
        return f"dead end: {_digit(d)} has no place left in {kind} {i + 1}"
    if step.kind == "backtrack":
        moves = "move" if step.undone == 1 else "moves"
        return f"backtrack: take back {step.undone} {moves}"
    raise ValueError(f"no words for a step of kind {step.kind!r}")


def _cell(cell: int, size: int) -> str:
    return f"r{cell // size + 1}c{cell % size + 1}"


def _digit(d: int) -> str:
    return SYMBOLS[d - 1]
