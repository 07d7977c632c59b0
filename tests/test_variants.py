"""Variants, box shapes and symbols: every answer checked cell by cell against the rules by the one
judge of the tests (support.assert_solves), written from the rules alone (not from the exact-cover
encoding)."""
import csv

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import EXAMPLES, assert_solves

import sudoku
from sudoku import encode
from sudoku.cli import main
from sudoku.grid import PuzzleError

ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def puzzle_lines(name):
    return [line for line in (EXAMPLES / name).read_text().splitlines() if line and not line.startswith("#")]


@pytest.mark.parametrize("variant, name", [("x", "x.txt"), ("windoku", "windoku.txt")])
def test_x_and_windoku_examples(variant, name, capsys):
    puzzles = puzzle_lines(name)
    assert main(["solve", "--variant", variant, str(EXAMPLES / name)]) == 0
    answers = capsys.readouterr().out.splitlines()[1:]
    for puzzle, answer in zip(puzzles, answers, strict=True):
        assert_solves(puzzle, answer, variant=variant)
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
        assert_solves(puzzle, answer, variant=sudoku.jigsaw(regions))
        assert sudoku.solve(puzzle, variant=sudoku.jigsaw(regions)) == answer
        assert sudoku.count(puzzle, variant=sudoku.jigsaw(regions)) == 1


def test_killer_examples(capsys):
    lines = puzzle_lines("killer.txt")
    assert main(["solve", "--variant", "killer", str(EXAMPLES / "killer.txt")]) == 0
    answers = capsys.readouterr().out.splitlines()[2:]
    for line, answer in zip(lines, answers, strict=True):
        puzzle, cages, sums = next(csv.reader([line]))
        assert_solves(puzzle or "." * 81, answer, variant=sudoku.killer(cages, sums))
        variant = sudoku.killer(cages, sums)
        assert sudoku.solve("." * 81, variant=variant) == answer and sudoku.count("." * 81, variant=variant) == 1


def test_killer_solutions_are_those_of_brute_force():
    # every 4x4 grid (all 288), judged by the cage rule alone, against the exact cover's solutions
    cages, sums = "aabcdabcdeefggef", "a=7 b=4 c=6 d=5 e=7 f=4 g=7"
    grids = [_grid(encode.problem(2), options) for options in encode.problem(2).solutions()]
    assert len(grids) == 288
    kept = set()
    variant = sudoku.killer(cages, sums)
    for grid in grids:
        try:
            assert_solves("." * 16, grid, variant=variant)
        except AssertionError:
            continue
        kept.add(grid)
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
    assert_solves("." * size * size, full, box=f"{rows}x{cols}")
    puzzle = "".join(ch if rng.random() < 0.4 else "." for ch in full)
    answer = sudoku.solve(puzzle, box=box)
    assert_solves(puzzle, answer, box=f"{rows}x{cols}")
    assert sudoku.count(puzzle, box=box, limit=3) >= 1


def test_sizes_read_from_the_length_and_boxes_given(capsys):
    for name, (rows, cols) in (("6x6.txt", (2, 3)), ("12x12.txt", (3, 4))):
        puzzles = puzzle_lines(name)
        assert main(["solve", str(EXAMPLES / name)]) == 0
        for puzzle, answer in zip(puzzles, capsys.readouterr().out.splitlines()[1:], strict=True):
            assert_solves(puzzle, answer, box=f"{rows}x{cols}")
            assert sudoku.is_unique(puzzle)
    six = puzzle_lines("6x6.txt")[0]
    assert main(["solve", "--box", "3x2", six]) in (0, 1)       # other boxes: another puzzle
    out = capsys.readouterr().out.strip()
    if not out.startswith("#"):
        assert_solves(six, out, box="3x2")
    assert main(["solve", "--box", "3x3", six]) == 1
    assert "boxes of 3x3 make a 9x9 grid, not 6x6" in capsys.readouterr().err


def test_grids_over_several_lines_of_any_size(tmp_path, capsys):
    six = puzzle_lines("6x6.txt")[0]
    path = tmp_path / "grids.txt"
    path.write_text(sudoku.pretty(six) + "\n\n" + sudoku.pretty(six).replace(" ", "") + "\n")
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [sudoku.solve(six), "", sudoku.solve(six)]          # one answer a grid
    assert_solves(six, out[0], box="2x3")
    assert main(["solve", str(path), "--box", "2x3"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == out[0]


def test_symbols_read_and_written(capsys):
    text = (EXAMPLES / "hex16.txt").read_text()
    puzzle = text.split("\n", 1)[1]
    assert main(["solve", "--symbols", "0-F", str(EXAMPLES / "hex16.txt")]) == 0
    answer = capsys.readouterr().out.splitlines()[1]
    assert_solves(puzzle, answer, symbols="0123456789ABCDEF")
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


def test_the_judge_refuses_what_breaks_each_rule():
    plain = sudoku.solve("." * 81)
    assert_solves("." * 81, plain)
    swapped = plain[1] + plain[0] + plain[2:]                  # rows kept, two columns broken
    with pytest.raises(AssertionError, match="column"):
        assert_solves("." * 81, swapped)
    with pytest.raises(AssertionError, match="a given changed"):
        assert_solves(("2" if plain[0] != "2" else "3") + "." * 80, plain)
    with pytest.raises(AssertionError, match="diagonal"):
        assert_solves("." * 81, plain, variant="x")
    with pytest.raises(AssertionError, match="window"):
        assert_solves("." * 81, plain, variant="windoku")
    with pytest.raises(AssertionError, match="box"):
        assert_solves("." * 36, sudoku.solve("." * 36, box="3x2"), box="2x3")
    stripes = sudoku.jigsaw("".join(str((r + c) % 9) for r in range(9) for c in range(9)))
    with pytest.raises(AssertionError, match="region"):
        assert_solves("." * 81, plain, variant=stripes)
    wrong_sum = sudoku.killer("aa" + "." * 79, f"a={int(plain[0]) + int(plain[1]) + 1}")
    with pytest.raises(AssertionError, match="cage"):
        assert_solves("." * 81, plain, variant=wrong_sum)
