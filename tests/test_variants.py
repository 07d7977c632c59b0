"""Variants, box shapes and symbols: every answer checked cell by cell against the rules, by a judge
written here from the rules alone (not from the exact-cover encoding)."""
import csv
import itertools
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import EXAMPLES

import sudoku
from sudoku import encode
from sudoku.cli import main
from sudoku.grid import PuzzleError

ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def judge(puzzle: str, answer: str, *, rows: int, cols: int, symbols: str | None = None, x=False,
          windows=False, regions: str | None = None, cages: str | None = None, sums: str | None = None):
    """Raise AssertionError unless ``answer`` solves ``puzzle`` under the rules named."""
    size = rows * cols
    alphabet = symbols or "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:size]
    cells = re.sub(r"[\s|+\-]", "", answer)
    assert len(cells) == size * size and set(cells) <= set(alphabet)
    grid = [[alphabet.index(cells[r * size + c]) + 1 for c in range(size)] for r in range(size)]
    given = re.sub(r"[\s|+\-]", "", puzzle)
    for k, ch in enumerate(given):
        if ch not in ".0" or (symbols and ch in symbols):
            assert cells[k] == ch, f"given {ch} at cell {k} changed"
    everything = list(range(1, size + 1))
    units = [[(r, c) for c in range(size)] for r in range(size)]
    units += [[(r, c) for r in range(size)] for c in range(size)]
    units += [[(br + r, bc + c) for r in range(rows) for c in range(cols)]
              for br in range(0, size, rows) for bc in range(0, size, cols)] if regions is None else []
    if x:
        units += [[(k, k) for k in range(size)], [(k, size - 1 - k) for k in range(size)]]
    if windows:
        for r0, c0 in itertools.product(range(1, size, rows + 1), repeat=2):
            if r0 + rows < size and c0 + cols < size:
                units.append([(r0 + r, c0 + c) for r in range(rows) for c in range(cols)])
    if regions is not None:
        labels = re.sub(r"[\s|+\-]", "", regions)
        for label in set(labels):
            units.append([divmod(k, size) for k, ch in enumerate(labels) if ch == label])
    for unit in units:
        assert sorted(grid[r][c] for r, c in unit) == everything, f"unit {unit} breaks the rules"
    if cages is not None:
        totals = dict(pair.split("=") for pair in sums.split())
        for label in set(cages) - {"."}:
            values = [grid[k // size][k % size] for k, ch in enumerate(cages) if ch == label]
            assert len(set(values)) == len(values) and sum(values) == int(totals[label]), f"cage {label}"


def puzzle_lines(name):
    return [line for line in (EXAMPLES / name).read_text().splitlines() if line and not line.startswith("#")]


@pytest.mark.parametrize("variant, name", [("x", "x.txt"), ("windoku", "windoku.txt")])
def test_x_and_windoku_examples(variant, name, capsys):
    puzzles = puzzle_lines(name)
    assert main(["solve", "--variant", variant, str(EXAMPLES / name)]) == 0
    answers = capsys.readouterr().out.splitlines()[1:]
    for puzzle, answer in zip(puzzles, answers, strict=True):
        judge(puzzle, answer, rows=3, cols=3, x=variant == "x", windows=variant == "windoku")
        assert sudoku.solve(puzzle, variant=variant) == answer
        assert sudoku.count(puzzle, variant=variant) == 1             # unique under the variant's rules
        assert sudoku.count(puzzle, limit=2) == 2                      # but not as a plain sudoku
    assert main(["count", "--variant", variant, "--unique", str(EXAMPLES / name)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == ["1"] * len(puzzles)


def test_jigsaw_examples(capsys):
    lines = puzzle_lines("jigsaw.txt")
    assert main(["solve", "--variant", "jigsaw", str(EXAMPLES / "jigsaw.txt")]) == 0
    answers = capsys.readouterr().out.splitlines()[2:]
    for line, answer in zip(lines, answers, strict=True):
        puzzle, regions = line.split(",")
        judge(puzzle, answer, rows=3, cols=3, regions=regions)
        assert sudoku.solve(puzzle, variant=sudoku.jigsaw(regions)) == answer
        assert sudoku.count(puzzle, variant=sudoku.jigsaw(regions)) == 1


def test_killer_examples(capsys):
    lines = puzzle_lines("killer.txt")
    assert main(["solve", "--variant", "killer", str(EXAMPLES / "killer.txt")]) == 0
    answers = capsys.readouterr().out.splitlines()[2:]
    for line, answer in zip(lines, answers, strict=True):
        puzzle, cages, sums = next(csv.reader([line]))
        judge(puzzle or "." * 81, answer, rows=3, cols=3, cages=cages, sums=sums)
        variant = sudoku.killer(cages, sums)
        assert sudoku.solve("." * 81, variant=variant) == answer and sudoku.count("." * 81, variant=variant) == 1


def test_killer_solutions_are_those_of_brute_force():
    # every 4x4 grid (all 288), judged by the cage rule alone, against the exact cover's solutions
    cages, sums = "aabcdabcdeefggef", "a=7 b=4 c=6 d=5 e=7 f=4 g=7"
    grids = [_grid(encode.problem(2), options) for options in encode.problem(2).solutions()]
    assert len(grids) == 288
    kept = set()
    for grid in grids:
        try:
            judge("." * 16, grid, rows=2, cols=2, cages=cages, sums=sums)
        except AssertionError:
            continue
        kept.add(grid)
    variant = sudoku.killer(cages, sums)
    found = {_grid(encode.problem(2, variant), options) for options in encode.problem(2, variant).solutions()}
    assert found == kept and len(kept) == sudoku.count("." * 16, variant=variant) == 2


def _grid(problem, options) -> str:
    cells = {}
    for k in options:
        if k < 64:                          # a cell's option (a cage's options come after them)
            cells[k // 4] = str(k % 4 + 1)
    return "".join(cells[c] for c in range(16))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([(2, 3), (3, 2), (2, 4), (4, 2), (2, 5), (3, 4)]))
def test_rectangular_boxes_solve_by_the_rules(seed, box):
    rows, cols = box
    size = rows * cols
    rng = np.random.default_rng(seed)
    full = sudoku.solve("." * size * size, box=box)
    judge("." * size * size, full, rows=rows, cols=cols)
    puzzle = "".join(ch if rng.random() < 0.4 else "." for ch in full)
    answer = sudoku.solve(puzzle, box=box)
    judge(puzzle, answer, rows=rows, cols=cols)
    assert sudoku.count(puzzle, box=box, limit=3) >= 1


def test_sizes_read_from_the_length_and_boxes_given(capsys):
    for name, (rows, cols) in (("6x6.txt", (2, 3)), ("12x12.txt", (3, 4))):
        puzzles = puzzle_lines(name)
        assert main(["solve", str(EXAMPLES / name)]) == 0
        for puzzle, answer in zip(puzzles, capsys.readouterr().out.splitlines()[1:], strict=True):
            judge(puzzle, answer, rows=rows, cols=cols)
            assert sudoku.is_unique(puzzle)
    six = puzzle_lines("6x6.txt")[0]
    assert main(["solve", "--box", "3x2", six]) in (0, 1)       # other boxes: another puzzle
    out = capsys.readouterr().out.strip()
    if not out.startswith("#"):
        judge(six, out, rows=3, cols=2)
    assert main(["solve", "--box", "3x3", six]) == 1
    assert "boxes of 3x3 make a 9x9 grid, not 6x6" in capsys.readouterr().err


def test_grids_over_several_lines_of_any_size(tmp_path, capsys):
    six = puzzle_lines("6x6.txt")[0]
    path = tmp_path / "grids.txt"
    path.write_text(sudoku.pretty(six) + "\n\n" + sudoku.pretty(six).replace(" ", "") + "\n")
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [sudoku.solve(six), "", sudoku.solve(six)]          # one answer a grid
    judge(six, out[0], rows=2, cols=3)
    assert main(["solve", str(path), "--box", "2x3"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == out[0]


def test_symbols_read_and_written(capsys):
    text = (EXAMPLES / "hex16.txt").read_text()
    puzzle = text.split("\n", 1)[1]
    assert main(["solve", "--symbols", "0-F", str(EXAMPLES / "hex16.txt")]) == 0
    answer = capsys.readouterr().out.splitlines()[1]
    judge(puzzle, answer, rows=4, cols=4, symbols="0123456789ABCDEF")
    assert sudoku.solve(puzzle, symbols="0-F") == answer
    assert main(["solve", str(EXAMPLES / "hex16.txt")]) == 1                  # 0 and . together: which is 0?
    assert "both '0' and '.' in a 16x16 puzzle: is 0 a blank or a value?" in capsys.readouterr().err
    assert sudoku.solve(puzzle.replace("0", "G"), symbols="1-9A-G") == answer.replace("0", "G")
    with pytest.raises(PuzzleError, match="symbols '1-9' give 9 values, but a 16x16 grid has 16"):
        sudoku.solve(puzzle, symbols="1-9")
    with pytest.raises(PuzzleError, match="'1' given twice"):
        sudoku.solve(puzzle, symbols="0-F1")
    assert sudoku.solve("a...|..c.|.d..|...b", symbols="a-d") == sudoku.solve("1...|..3.|.4..|...2").translate(
        str.maketrans("1234", "abcd"))


def test_sizes_without_boxes_and_bad_layouts():
    with pytest.raises(PuzzleError,
                       match=r"a 5x5 grid has no boxes \(5 is prime; a jigsaw's regions can replace them\)"):
        sudoku.solve("." * 25)
    with pytest.raises(PuzzleError, match="regions: 'A' has 10 cells, not 9"):
        sudoku.jigsaw("A" * 10 + "B" * 8 + "".join(ch * 9 for ch in "CDEFGHI"))
    with pytest.raises(PuzzleError, match="sums: no sum for cage 'b'"):
        sudoku.killer("aabb" * 4, "a=10")
    with pytest.raises(PuzzleError, match=r"cage 'a': 2 different values add up to 3..7, not 9"):
        sudoku.killer("aa.." + "." * 12, "a=9")
    with pytest.raises(PuzzleError, match="windoku needs square boxes"):
        sudoku.solve("." * 36, variant="windoku")
    with pytest.raises(ValueError, match="unknown variant 'y'"):
        sudoku.solve("." * 81, variant="y")


def test_bad_layout_lines_are_their_own_errors(tmp_path, capsys):
    good = puzzle_lines("killer.txt")[0]
    path = tmp_path / "k.txt"
    path.write_text(f"{good}\n,aab,a=3\n{good}\n.........\n")
    assert main(["solve", "--variant", "killer", str(path)]) == 1
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert len(lines) == 4 and lines[1] == "# ,aab,a=3" and lines[3] == "# ........."
    assert lines[0] == lines[2] and not lines[0].startswith("#")
    assert "line 2: cages: 3 labels, not a square grid's N*N" in out.err
    assert "line 4: no cages or sums" in out.err


def test_solve_array_takes_rectangular_boxes():
    from sudoku.grid import lines, parse
    puzzles = puzzle_lines("6x6.txt")
    solved = sudoku.solve_array(np.stack([parse(p) for p in puzzles] * 3), jobs=2)
    assert lines(solved.grid).split() == [sudoku.solve(p) for p in puzzles] * 3
    from dlx.status import of_code
    for puzzle in puzzles:                     # other boxes, the same answers either way
        flipped = sudoku.solve_array(parse(puzzle)[None, :], box="3x2", limit=2)
        result = next(sudoku.solve_all([puzzle], box="3x2", limit=2))
        assert of_code(int(flipped.status[0])) == result.status and int(flipped.counts[0]) == result.count
