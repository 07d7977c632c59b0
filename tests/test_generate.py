"""Generating, disguising, rating and explaining puzzles: every claim checked against the rules."""
import numpy as np
import pytest
from support import EXAMPLES, INKALA, INKALA_SOLUTION, SHARED_DATA, assert_solves, shared_lines

import sudoku
from sudoku import explainer, generator, rating, transform
from sudoku.cli import main
from sudoku.grid import parse

TOP20 = (EXAMPLES / "top20.txt").read_text().split()
TOP20_SOLUTIONS = (EXAMPLES / "top20.solutions.txt").read_text().split()


def givens(puzzle: str) -> np.ndarray:
    return parse(puzzle) > 0


def assert_minimal(puzzle: str, units) -> None:
    """Unique, and taking away any one unit (a given, or a symmetric pair) makes it not unique."""
    values = parse(puzzle)
    assert sudoku.count(puzzle, limit=2) == 1
    rows = []
    for unit in units:
        if values[unit].all():
            row = values.copy()
            row[unit] = 0
            rows.append(row)
    assert rows
    assert all(r.count >= 2 for r in sudoku.solve_all(rows, limit=2, jobs=1))


# --- generation

@pytest.mark.parametrize("seed", range(6))
def test_generated_puzzles_are_unique_and_minimal(seed):
    puzzle = sudoku.generate(seed=seed)
    assert len(puzzle) == 81
    assert_minimal(puzzle, [[c] for c in range(81)])
    assert sudoku.generate(seed=seed) == puzzle          # the same seed, the same puzzle


def test_seeds_make_different_puzzles_from_different_grids():
    puzzles = [sudoku.generate(seed=s) for s in range(10)]
    assert len(set(puzzles)) == 10
    grids = {sudoku.solve(p) for p in puzzles}
    assert len(grids) == 10


@pytest.mark.parametrize("seed", range(3))
def test_symmetric_puzzles(seed):
    puzzle = sudoku.generate(seed=seed, symmetric=True)
    g = givens(puzzle)
    assert (g == g[::-1]).all()                          # a half turn maps givens to givens
    assert_minimal(puzzle, [sorted({c, 80 - c}) for c in range(41)])


@pytest.mark.parametrize("size", [4, 16])
def test_other_sizes(size):
    puzzle = sudoku.generate(seed=3, size=size)
    cells = size * size
    assert len(puzzle) == cells
    if size == 4:
        assert_minimal(puzzle, [[c] for c in range(cells)])
    else:
        assert sudoku.count(puzzle, limit=2) == 1


def test_clues_stop_at_the_count_asked():
    puzzle = sudoku.generate(seed=4, clues=32)
    assert givens(puzzle).sum() == 32 and sudoku.count(puzzle, limit=2) == 1
    with pytest.raises(ValueError, match="no puzzle with 12 givens in 2 tries"):
        sudoku.generate(seed=4, clues=12, tries=2)


def test_quick_puzzles_are_unique():
    for seed in range(5):
        quick = sudoku.generate(seed=seed, minimal=False)
        assert sudoku.count(quick, limit=2) == 1
        assert givens(quick).sum() >= givens(sudoku.generate(seed=seed)).sum()


@pytest.mark.parametrize("level", list(rating.LEVELS))
def test_every_level_is_made_and_rated_so(level):
    for seed in range(2):
        puzzle = sudoku.generate(seed=seed, difficulty=level)
        assert sudoku.rate(puzzle).level == level and sudoku.count(puzzle, limit=2) == 1


def test_the_command_and_the_api_share_their_defaults():
    from sudoku.cli import _parser
    args = _parser().parse_args(["generate", "1"])
    assert args.tries == generator.TRIES and args.size is None
    with pytest.raises(ValueError, match="no diabolical puzzle in 1 tries; ask for more tries"):
        sudoku.generate(seed=0, difficulty="diabolical", tries=1)


@pytest.mark.parametrize("bad, message", [({"size": 25}, "the grid's side, 4 to 16"), ({"size": 5}, "5 is prime"),
                                          ({"size": 1}, "size"),
                                          ({"clues": 82}, "81 cells"), ({"difficulty": "hardest"}, "levels are"),
                                          ({"seed": -1}, "seed must be a whole number of at least 0, not -1"),
                                          ({"seed": 1.5}, "seed must be a whole number")])
def test_generate_refuses_bad_arguments(bad, message):
    with pytest.raises(ValueError, match=message):
        sudoku.generate(**bad)


def test_removals_many_at_a_time_decide_as_one_at_a_time():
    """The prefix search and the sweeps remove exactly what one removal per call would."""
    for seed in range(4):
        rng = np.random.default_rng(seed)
        grid = generator.solved_grid(3, rng)
        order = generator.removal_order(3, rng, False)
        values = grid.copy()
        for unit in order:
            row = values.copy()
            row[unit] = 0
            if sudoku.count(row, limit=2) == 1:
                values = row
        assert sudoku.generate(seed=seed) == sudoku.grid.to_text(values)


# --- transformations

def test_shuffle_keeps_solutions_of_the_serg_benchmark():
    puzzles = shared_lines("serg_benchmark.txt")[:400]
    counts = [int(c) for c in (SHARED_DATA / "serg_benchmark.counts.txt").read_text().split()[:400]]
    rng = np.random.default_rng(5)
    moved = [transform.draw(3, rng).apply(parse(p)) for p in puzzles]
    assert [r.count for r in sudoku.solve_all(moved, limit=10 ** 6, jobs=1)] == counts
    assert sum(sudoku.grid.to_text(m) != p for m, p in zip(moved, puzzles)) == len(puzzles)


def test_shuffle_maps_solutions_to_solutions():
    for k, (puzzle, solution) in enumerate(zip(TOP20, TOP20_SOLUTIONS)):
        moved, moved_solution = sudoku.shuffle(puzzle, seed=k), sudoku.shuffle(solution, seed=k)
        assert_solves(moved, moved_solution)
        assert sudoku.solve(moved) == moved_solution
        assert givens(moved).sum() == givens(puzzle).sum()
    assert sudoku.shuffle(TOP20[0], seed=1) == sudoku.shuffle(TOP20[0], seed=1)
    assert len({sudoku.shuffle(TOP20[0], seed=s) for s in range(20)}) == 20


def test_every_transformation_is_a_symmetry():
    rng = np.random.default_rng(0)
    for n in (2, 3, 4):
        t = transform.draw(n, rng)
        assert sorted(t.cells.tolist()) == list(range(n ** 4))
        assert t.relabel[0] == 0 and sorted(t.relabel[1:].tolist()) == list(range(1, n * n + 1))


# --- rating

def test_rating_orders_the_public_sets():
    medians = []
    for name in ["kaggle_10k", "17clue", "top1465", "forum_hardest_1905_11plus", "forum_hardest_1106"]:
        lines = shared_lines(f"{name}.txt")[:300]
        scores = [r.score for r in sudoku.rate_all(lines)]
        assert len(scores) == len(lines)
        medians.append(float(np.median(scores)))
    assert medians == sorted(medians) and len(set(medians)) == 5, medians
    assert medians[0] == 0.0


def test_rating_levels_and_errors():
    easy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    assert sudoku.rate(easy) == rating.Rating(0.0, "easy", float(np.count_nonzero(parse(easy) == 0) + 1))
    hard = sudoku.rate(INKALA)
    assert hard.score > 9 and hard.level in ("fiendish", "diabolical")
    assert sudoku.rate(INKALA, seed=3) != hard and sudoku.rate(INKALA) == hard
    assert [rating.level_of(x) for x in (0, 0.99, 1, 4.49, 4.5, 5.5, 6.49, 6.5, 20)] == [
        "easy", "easy", "medium", "medium", "hard", "fiendish", "fiendish", "diabolical", "diabolical"]
    with pytest.raises(sudoku.PuzzleError, match="more than one solution"):
        sudoku.rate("." * 81)
    with pytest.raises(sudoku.PuzzleError, match="twice in row 1"):
        sudoku.rate("11" + "." * 79)
    with pytest.raises(sudoku.PuzzleError, match="no solution"):
        sudoku.rate("....|..34|...2|3...")
    out = list(sudoku.rate_all([INKALA, "1.3", "." * 16, INKALA]))
    assert out[0] == out[3] == hard
    assert isinstance(out[1], sudoku.PuzzleError) and isinstance(out[2], sudoku.PuzzleError)


# --- explanation

def candidates(grid: np.ndarray, cell: int, n: int) -> set[int]:
    size = n * n
    r, c = divmod(cell, size)
    g = grid.reshape(size, size)
    box = g[r // n * n:r // n * n + n, c // n * n:c // n * n + n]
    return set(range(1, size + 1)) - set(g[r].tolist()) - set(g[:, c].tolist()) - set(box.ravel().tolist())


def unit_cells(kind: str, i: int, n: int) -> list[int]:
    size = n * n
    if kind == "row":
        return [i * size + c for c in range(size)]
    if kind == "column":
        return [r * size + i for r in range(size)]
    return [(i // n * n + r) * size + i % n * n + c for r in range(n) for c in range(n)]


def places(grid: np.ndarray, kind: str, i: int, d: int, n: int) -> list[int]:
    return [c for c in unit_cells(kind, i, n) if grid[c] == 0 and d in candidates(grid, c, n)]


@pytest.mark.parametrize("puzzle, solution", [(INKALA, INKALA_SOLUTION), *zip(TOP20[:5], TOP20_SOLUTIONS[:5]),
                                              ("1...|..3.|.4..|...2", "1324423124133142")])
def test_explanation_replays_to_the_solution_and_its_moves_are_forced(puzzle, solution):
    values = parse(puzzle)
    n = round(values.size ** 0.25)
    found, answer = explainer.steps(puzzle)
    assert answer == solution
    stack: list[tuple[int, int]] = []
    kinds = set()
    for step in found:
        kinds.add(step.kind)
        del stack[step.level:]
        grid = values.copy()
        for cell, digit in stack:
            grid[cell] = digit
        if step.kind in ("forced", "guess", "retry"):
            kind, i, d = step.unit
            assert grid[step.cell] == 0
            if kind == "cell":
                options = candidates(grid, step.cell, n)
                assert set(step.choices) == {(step.cell, x) for x in options}
            else:
                assert d == step.digit
                options = places(grid, kind, i, d, n)
                assert set(step.choices) == {(c, d) for c in options}
            assert (step.cell, step.digit) in step.choices
            assert (len(step.choices) == 1) == (step.kind == "forced")
            stack.append((step.cell, step.digit))
        elif step.kind == "dead end":
            kind, i, d = step.unit
            if kind == "cell":
                assert grid[i * n * n + d] == 0 and not candidates(grid, i * n * n + d, n)
            else:
                assert not places(grid, kind, i, d, n) and d not in grid[unit_cells(kind, i, n)]
        elif step.kind == "solved":
            for cell, digit in stack:
                grid[cell] = digit
            assert sudoku.grid.to_text(grid) == solution
    assert found[-1].kind == "solved"
    if puzzle == INKALA:
        assert {"forced", "guess", "retry", "dead end", "backtrack"} <= kinds


def test_explanation_words():
    text = sudoku.explain(INKALA, limit=30)
    lines = text.split("\n")
    assert lines[0].startswith("1. guess r") and " of {" in lines[0]
    assert any("can only go in" in line for line in lines) and any("can only be" in line for line in lines)
    assert lines[30].startswith("... and ") and lines[30].endswith("more steps (full=True shows them)")
    assert lines[31].startswith("Solved: ") and "guesses" in lines[31]
    assert sudoku.pretty(INKALA_SOLUTION) in text
    full = sudoku.explain(INKALA, full=True).split("\n")
    assert "dead end:" in "\n".join(full) and "backtrack: take back" in "\n".join(full)
    found, _ = explainer.steps(INKALA)
    assert sum(line.split(". ", 1)[0].isdigit() for line in full) == len(found) - 1 > 1000   # every step
    assert sudoku.explain("1...|..3.|.4..|...2").startswith("1. r1c4 can only be 4")
    no = sudoku.explain("....|..34|...2|3...")
    assert no.split("\n")[-1].startswith("No solution:")
    assert sudoku.explain(INKALA_SOLUTION).endswith(sudoku.pretty(INKALA_SOLUTION))
    with pytest.raises(sudoku.PuzzleError, match="twice"):
        sudoku.explain("11" + "." * 79)


# --- the commands

def test_generate_command(capsys):
    assert main(["generate", "4", "--seed", "9", "--stats"]) == 0
    captured = capsys.readouterr()
    puzzles = captured.out.split()
    assert len(puzzles) == 4 and len(set(puzzles)) == 4
    assert all(sudoku.count(p, limit=2) == 1 for p in puzzles)
    assert "4 puzzles in " in captured.err
    assert main(["generate", "4", "--seed", "9"]) == 0
    assert capsys.readouterr().out.split() == puzzles
    assert main(["generate", "2", "--size", "4", "--symmetric", "--seed", "1"]) == 0
    small = capsys.readouterr().out.split()
    assert [len(p) for p in small] == [16, 16] and all((givens(p) == givens(p)[::-1]).all() for p in small)
    assert main(["generate", "1", "--clues", "5", "--tries", "1"]) == 1
    assert "no puzzle with 5 givens" in capsys.readouterr().err


def test_shuffle_and_rate_commands(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("# three\n" + "\n".join(TOP20[:2]) + "\n1.3\n")
    assert main(["shuffle", str(path), "--seed", "4"]) == 1
    captured = capsys.readouterr()
    lines = captured.out.split("\n")
    assert lines[0] == "# three" and lines[3] == "# 1.3" and "line 4: wrong length" in captured.err
    assert [sudoku.count(x, limit=2) for x in lines[1:3]] == [1, 1] and lines[1] != TOP20[0]
    moved = tmp_path / "moved.txt"
    moved.write_text("\n".join(lines[1:3]) + "\n")
    assert main(["rate", str(moved), "--stats"]) == 0
    captured = capsys.readouterr()
    rated = captured.out.split("\n")[:2]
    assert [line.split()[1] for line in rated] == [sudoku.rate(x).level for x in lines[1:3]]
    assert "2 rated: median " in captured.err
    assert main(["rate", str(path)]) == 1
    out = capsys.readouterr().out.split("\n")
    assert out[0] == "# three" and out[3] == "# 1.3" and len(out) == 5


def test_explain_command(capsys, monkeypatch):
    assert main(["explain", INKALA, "--steps", "5"]) == 0
    out = capsys.readouterr().out
    assert "... and " in out and "(--full shows them)" in out and out.rstrip().endswith(
        sudoku.pretty(INKALA_SOLUTION).split("\n")[-1])
    assert main(["explain", "1.3"]) == 1
    assert "wrong length" in capsys.readouterr().err


def test_explain_reads_standard_input(capsys, monkeypatch):
    class Stdin:
        def __init__(self, text):
            self.buffer = __import__("io").BytesIO(text.encode())
    monkeypatch.setattr("sys.stdin", Stdin("# a comment\n1...|..3.|.4..|...2\n"))
    assert main(["explain", "-"]) == 0
    # the comment is kept, as every command keeps it
    assert capsys.readouterr().out.startswith("# a comment\n1. r1c4 can only be 4\n")
