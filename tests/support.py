"""What the tests share: paths, sample puzzles, hypothesis strategies and checks of answers.

The set-based reference solver lives in naive.py; test modules import from these two, never from
each other.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import strategies as st
from naive import is_exact_cover

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SHARED_DATA = ROOT.parent / "shared" / "data"
SHARED_DLX = SHARED_DATA / "dlx"

#: Arto Inkala's "world's hardest sudoku" (2012), the usual first test of a solver.
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"


def messages(err: str) -> str:
    """A command's stderr without numba's compile notice: whether a kernel compiles depends on the
    cache a test finds, not on the command (test_compile_notice.py tests the notice itself)."""
    from dlx.commands import NOTICE
    notice = re.escape(NOTICE).replace(re.escape("{prog}"), r"\w+")
    return re.sub(f"^{notice}\n", "", err, flags=re.MULTILINE)


def shared_lines(name: str) -> list[str]:
    """The lines of a file of ../shared/data; the test skips when it is absent."""
    path = SHARED_DATA / name
    if not path.is_file():
        pytest.skip(f"../shared/data/{name} is not present")
    return path.read_text().split()


@st.composite
def small_problems(draw):
    """Random exact-cover problems small enough for brute force, often with several solutions:
    ``(primary, secondary, options)``."""
    primary = [f"p{i}" for i in range(draw(st.integers(1, 6)))]
    secondary = [f"s{i}" for i in range(draw(st.integers(0, 3)))]
    items = primary + secondary
    options = []
    for _ in range(draw(st.integers(0, 14))):
        option = draw(st.lists(st.sampled_from(items), min_size=1, max_size=3, unique=True))
        if not set(option) & set(primary):
            option.insert(draw(st.integers(0, len(option))), draw(st.sampled_from(primary)))
        options.append(option)
    return primary, secondary, options


def assert_solutions(ec, solutions, primary, secondary) -> None:
    """Each solution is a sorted tuple of distinct option numbers that covers exactly."""
    for solution in solutions:
        assert list(solution) == sorted(set(solution))
        assert is_exact_cover([ec.option(k) for k in solution], primary, secondary)


def assert_solves(puzzle, solution, *, box=None, symbols: str | None = None, variant=None) -> None:
    """The one sudoku judge: ``solution`` fills ``puzzle`` (every given kept) and obeys every rule,
    checked cell by cell from the rules alone (not from the exact-cover encoding): each row, column
    and box (``box``: ``"RxC"`` or ``n``; by default the squarest, no taller than wide), or a
    jigsaw's regions instead of the boxes, is a permutation of 1..N; with ``variant`` (a name, or a
    :class:`sudoku.Variant`) also X's diagonals, windoku's windows and a killer's cages (distinct
    values summing to the cage's total). Any shape, symbols as :func:`sudoku.grid.parse` reads them."""
    import math

    import numpy as np

    import sudoku
    from sudoku.grid import parse

    rules = sudoku.variants.named(variant)
    values = parse(solution, boxes=False, symbols=symbols)
    givens = parse(puzzle, boxes=False, symbols=symbols)
    side = math.isqrt(values.size)
    assert side * side == values.size == givens.size, f"{values.size} cells for {givens.size}"
    assert ((givens == 0) | (givens == values)).all(), "a given changed"
    grid = values.reshape(side, side)
    every = list(range(1, side + 1))
    units = [("row", grid[r, :]) for r in range(side)] + [("column", grid[:, c]) for c in range(side)]
    if rules is not None and rules.regions is not None:
        regions = np.array(rules.regions).reshape(side, side)
        units += [("region", grid[regions == k]) for k in range(side)]
    else:
        if box is None:
            rows = max(d for d in range(1, math.isqrt(side) + 1) if side % d == 0)
            cols = side // rows
        elif isinstance(box, int):
            rows = cols = box
        else:
            rows, cols = (int(k) for k in str(box).split("x"))
        assert rows * cols == side, f"boxes of {rows}x{cols} on a {side}x{side} grid"
        units += [("box", grid[r:r + rows, c:c + cols].ravel()) for r in range(0, side, rows)
                  for c in range(0, side, cols)]
    if rules is not None and rules.diagonals:
        units += [("diagonal", grid.diagonal()), ("anti-diagonal", grid[:, ::-1].diagonal())]
    if rules is not None and rules.windows:
        n = math.isqrt(side)
        starts = range(1, side, n + 1)
        units += [("window", grid[r:r + n, c:c + n].ravel()) for r in starts for c in starts
                  if r + n < side and c + n < side]
    for name, unit in units:
        assert sorted(unit.tolist()) == every, f"a {name} holds {sorted(unit.tolist())}"
    for total, cells in (rules.cages if rules is not None else ()):
        got = values[list(cells)].tolist()
        assert len(set(got)) == len(got) and sum(got) == total, f"the cage of {total} holds {got}"


def links_of(ec):
    """The DLX1 links of ``ec`` as built (the pristine copy the engine keeps)."""
    return ec.prepared("dlx").pristine


@st.composite
def mcc_problems(draw, max_options: int = 10):
    """Random exact-cover problems with colours and bounds (Knuth's XCC and MCC), small enough for
    brute force: ``(primary, secondary, options, bounds)``. Options hold item names and
    ``(item, colour)`` pairs; some lack a primary item (they must be skipped); bounds run 0..3."""
    primary = [f"p{i}" for i in range(draw(st.integers(1, 4)))]
    secondary = [f"s{i}" for i in range(draw(st.integers(0, 3)))]
    items = primary + secondary
    options = []
    for _ in range(draw(st.integers(0, max_options))):
        names = draw(st.lists(st.sampled_from(items), min_size=1, max_size=3, unique=True))
        if not set(names) & set(primary) and draw(st.integers(0, 4)):
            names.insert(draw(st.integers(0, len(names))), draw(st.sampled_from(primary)))
        options.append([(name, draw(st.sampled_from("ab"))) if name in secondary and draw(st.booleans())
                        else name for name in names])
    bounds = {}
    for item in draw(st.lists(st.sampled_from(primary), unique=True)):
        hi = draw(st.integers(1, 3))
        bounds[item] = (draw(st.integers(0, hi)), hi)
    return primary, secondary, options, bounds


@st.composite
def matrices(draw):
    """A random 0/1 matrix (rows are options) and how many of its last columns are secondary:
    ``(m, secondary)``."""
    rows = draw(st.integers(0, 12))
    cols = draw(st.integers(1, 6))
    cells = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    m = np.array(cells, dtype=np.int8).reshape(rows, cols)
    return m, draw(st.integers(0, cols - 1))


@st.composite
def batches(draw, problems=None):
    """A problem (drawn from ``problems``, default :func:`small_problems`), its options split into
    groups, a few rows of values and a limit: ``(primary, secondary, options, sizes, rows, limit)``."""
    primary, secondary, options = draw(problems if problems is not None else small_problems())[:3]
    options = options or [[primary[0]]]
    sizes, left = [], draw(st.integers(0, len(options)))
    while left:
        sizes.append(draw(st.integers(1, left)))
        left -= sizes[-1]
    sizes = sizes or [len(options)]
    rows = draw(st.lists(st.tuples(*(st.integers(0, s) for s in sizes)), min_size=1, max_size=5))
    return primary, secondary, options, sizes, rows, draw(st.integers(1, 4))


def components(edges: dict) -> list[list]:
    """The strongly connected components of a directed graph (``edges[v]``: the nodes ``v`` points
    to), each as a list of its nodes (Tarjan). Shared by the import-graph and kernel-loop tests."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    found: list[list] = []

    def visit(v) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            found.append(component)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found
