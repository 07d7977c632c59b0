"""The sudoku adapter: every answer checked against the rules and the givens, and against the known
solutions and counts of the public sets."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import EXAMPLES, INKALA, assert_solves, shared_lines

import sudoku
from dlx import status as dlx_status
from sudoku import PuzzleError, encode
from sudoku.grid import SYMBOLS, parse, pretty, to_text


def test_encoding_sizes():
    for n in (2, 3, 4, 5):
        p = encode.problem(n)
        assert (p.n_items, p.n_primary, p.n_options) == (4 * n ** 4, 4 * n ** 4, n ** 6)
        assert all(len(p.option(k)) == 4 for k in range(0, p.n_options, 97))
    assert encode.problem(3).option(0) == ("p00", "r01", "c01", "b01")
    assert encode.problem(3) is encode.problem(3)      # built once per process


def test_all_288_grids_of_4x4():
    p = encode.problem(2)
    grids = set()
    for solution in p.solutions():
        values = np.zeros(16, np.uint8)
        for k in solution:
            values[k // 4] = k % 4 + 1
        grid = to_text(values)
        assert_solves("." * 16, grid)
        grids.add(grid)
    assert len(grids) == 288
    assert sudoku.count("." * 16) == 288
    p.check()


def test_famous_puzzles():
    assert_solves(INKALA, sudoku.solve(INKALA))
    assert sudoku.is_unique(INKALA) and sudoku.count(INKALA) == 1
    norvig = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    assert sudoku.solve(norvig) == "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def test_shipped_samples():
    puzzles = (EXAMPLES / "top20.txt").read_text().split()
    solutions = (EXAMPLES / "top20.solutions.txt").read_text().split()
    assert list(sudoku.solve_many(puzzles)) == solutions
    for p, s in zip(puzzles, solutions):
        assert_solves(p, s)
        assert sudoku.is_unique(p)


@pytest.mark.parametrize("name, step", [("top1465", 1), ("17clue", 97), ("forum_hardest_1905_11plus", 193),
                                        ("forum_hardest_1106", 1), ("kaggle_10k", 41)])
def test_public_sets_unique_solutions(name, step):
    puzzles = shared_lines(f"{name}.txt")[::step]
    solutions = shared_lines(f"{name}.solutions.txt")[::step]
    results = list(sudoku.solve_all(puzzles, limit=2))
    assert [r.solution for r in results] == solutions
    assert all(r.count == 1 and r.status == "solved" and r.nodes > 0 for r in results)
    for p, r in zip(puzzles[::7], results[::7]):
        assert_solves(p, r.solution)


def serg_counts(step):
    puzzles = shared_lines("serg_benchmark.txt")[::step]
    counts = [int(c) for c in shared_lines("serg_benchmark.counts.txt")[::step]]
    results = list(sudoku.solve_all(puzzles, limit=10**6))
    assert [r.count for r in results] == counts
    for p, r in zip(puzzles, results):
        assert_solves(p, r.solution)


def test_serg_counts_sample():
    serg_counts(50)


@pytest.mark.slow
def test_serg_counts_all():
    serg_counts(1)


def test_tdoku_test_puzzles():
    lines = shared_lines("tdoku_test_puzzles.txt")
    kinds = {"none": 0, "unique": 0, "several": 0}
    for line in lines:
        puzzle, count, *solution = line.split(":")
        count = int(count)
        assert sudoku.count(puzzle) == count
        assert sudoku.is_unique(puzzle) == (count == 1)
        answer = sudoku.solve(puzzle)
        if count == 0:
            assert answer is None
        else:
            assert_solves(puzzle, answer)
        if solution:
            assert answer == solution[0]
        kinds["none" if count == 0 else "unique" if count == 1 else "several"] += 1
    assert kinds == {"none": 10, "unique": 18, "several": 15}


def test_derived_no_solution():
    puzzles = shared_lines("derived_nosolution_1000.txt")
    results = list(sudoku.solve_all(puzzles, limit=2))
    assert len(results) == 1000
    assert all(r.status == "no solution" and r.count == 0 and r.solution is None for r in results)
    assert list(sudoku.solve_many(puzzles[:50], jobs=2)) == [None] * 50


def random_grid(n: int, seed: int) -> str:
    """A complete grid: the first solution of the empty grid with digits and rows shuffled."""
    size = n * n
    base = parse(sudoku.solve("." * size ** 2)).reshape(size, size)
    rng = np.random.default_rng(seed)
    digits = np.concatenate([[0], rng.permutation(size) + 1])
    bands = rng.permutation(n)
    rows = [b * n + r for b in bands for r in rng.permutation(n)]
    return to_text(digits[base[rows]].reshape(-1))


@pytest.mark.parametrize("n, at_most_3", [(2, 2), (3, 3), (4, 3), (5, 3)])
def test_other_sizes(n, at_most_3):
    size = n * n
    grid = random_grid(n, seed=n)
    assert_solves("." * size ** 2, grid)
    rng = np.random.default_rng(0)
    cells = list(grid)
    for k in rng.choice(size ** 2, size ** 2 // 2, replace=False):
        cells[k] = "."
    puzzle = "".join(cells)
    answer = sudoku.solve(puzzle)
    assert_solves(puzzle, answer)
    assert sudoku.count(puzzle, limit=3) == at_most_3     # half the cells blank: several solutions
    if n <= 3:
        assert sudoku.count(puzzle) == at_most_3


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 81))
def test_random_puzzles_from_a_grid(seed, blanks):
    """Blank any cells of a valid grid: the puzzle is solvable, every answer keeps the givens, and
    the count agrees with a plain backtracking count when few cells are blank."""
    grid = random_grid(3, seed)
    rng = np.random.default_rng(seed)
    cells = list(grid)
    for k in rng.choice(81, blanks, replace=False):
        cells[k] = "."
    puzzle = "".join(cells)
    answer = sudoku.solve(puzzle)
    assert_solves(puzzle, answer)
    if blanks <= 12:
        assert sudoku.count(puzzle) == backtrack_count(puzzle)


def backtrack_count(puzzle: str) -> int:
    """Fill blanks in order with every digit the row, column and box allow: obviously right."""
    g = [int(c) if c != "." else 0 for c in puzzle]
    blanks = [k for k in range(81) if not g[k]]

    def allowed(k, d):
        r, c = divmod(k, 9)
        b = r // 3 * 27 + c // 3 * 3
        return all(g[r * 9 + i] != d and g[i * 9 + c] != d and g[b + i // 3 * 9 + i % 3] != d for i in range(9))

    def count(i):
        if i == len(blanks):
            return 1
        total = 0
        for d in range(1, 10):
            if allowed(blanks[i], d):
                g[blanks[i]] = d
                total += count(i + 1)
                g[blanks[i]] = 0
        return total

    return count(0)


def test_parsing_what_people_paste():
    line = INKALA
    zeros = line.replace(".", "0")
    grid = pretty(line)
    rows = [line[i:i + 9] for i in range(0, 81, 9)]
    ints = [[int(c) if c != "." else 0 for c in row] for row in rows]
    for form in (zeros, grid, "\n".join(rows), rows, ints, np.array(ints), [v for row in ints for v in row],
                 f"  {line}\n"):
        assert (parse(form) == parse(line)).all()
        assert sudoku.solve(form) == sudoku.solve(line)
    assert to_text(parse(grid)) == line
    assert parse(pretty(parse(line))).tolist() == parse(line).tolist()
    hexa = random_grid(4, 1)
    assert parse(hexa.lower()).tolist() == parse(hexa).tolist() and set(hexa) == set(SYMBOLS[:16])


@pytest.mark.parametrize("puzzle, message", [
    ("1" * 80, "wrong length: 80 cells"),
    ("", "wrong length: 0 cells"),
    (INKALA[:40] + "x" + INKALA[41:], r"bad character 'x' at position 41 \(row 5, column 5\)"),
    (INKALA[:-1] + "A", "bad character 'A' at position 81"),
    ("88" + INKALA[2:], "digit 8 twice in row 1"),
    (INKALA[:9] + "8" + INKALA[10:], "digit 8 twice in column 1"),
    (INKALA[:10] + "8" + INKALA[11:], "digit 8 twice in box 1"),
    ([[1, 2], [3, 4]], r"wrong shape \(2, 2\)"),
    ([[1, 2, 3, 4]] * 3 + [[1, 2, 3]], "rows of different lengths"),
    ([[0] * 4] * 3 + [[0, 0, 0, 5]], "value 5 at row 4, column 4 is not between 0 and 4"),
    ([[0] * 4] * 3 + [[0, 0, 0, -1]], "value -1 at row 4, column 4"),
    ([[0.5] * 4] * 4, "expected a string or integers"),
    ([[0] * 4] * 2, "a grid must be square, not 2 x 4"),
])
def test_bad_puzzles_raise_puzzle_error(puzzle, message):
    for call in (sudoku.solve, sudoku.count, sudoku.is_unique):
        with pytest.raises(PuzzleError, match=message):
            call(puzzle)
    assert issubclass(PuzzleError, ValueError)


def test_solve_many_streams_in_order():
    puzzles = (EXAMPLES / "top20.txt").read_text().split()
    solutions = (EXAMPLES / "top20.solutions.txt").read_text().split()
    many = puzzles * 150 + ["....|..34|...2|3..."]
    want = solutions * 150 + [None]
    gen = (p for p in many)
    assert list(sudoku.solve_many(gen, jobs=2)) == want
    assert list(sudoku.solve_many(many, jobs=1)) == want
    # lazy: the first answers come before the input is exhausted
    endless = itertools.cycle(puzzles)
    assert list(itertools.islice(sudoku.solve_many(endless), 25)) == (solutions * 2)[:25]


def test_one_bad_puzzle_spoils_nothing_else():
    puzzles = (EXAMPLES / "top20.txt").read_text().split()
    mixed = [puzzles[0], "12", puzzles[1], "11" + "." * 79, [[1]], puzzles[2]]
    results = list(sudoku.solve_all(mixed, limit=2))
    assert [r.status for r in results] == ["solved", "invalid", "solved", "invalid", "invalid", "solved"]
    assert "wrong length" in str(results[1].error) and "digit 1 twice in row 1" in str(results[3].error)
    for k in (0, 2, 5):
        assert_solves(mixed[k], results[k].solution)
    it = sudoku.solve_many(mixed)
    assert_solves(puzzles[0], next(it))
    with pytest.raises(PuzzleError, match="puzzle 2: wrong length"):
        next(it)


def test_limits_and_counts():
    assert sudoku.count("." * 16) == 288 and sudoku.count("." * 16, limit=5) == 5
    assert sudoku.count("1" + "." * 15) == 72
    with pytest.raises(ValueError):
        sudoku.count(INKALA, limit=0)
    solved = sudoku.solve(INKALA)
    assert sudoku.solve(solved) == solved and sudoku.count(solved) == 1     # nothing left to fill
    assert not sudoku.is_unique("." * 81)


def test_whole_arrays_in_and_out_on_threads(monkeypatch):
    from sudoku import solver
    from sudoku.grid import lines, read_array
    monkeypatch.setattr(solver, "ARRAY_CHUNK_MIN", 7)        # several chunks, several threads
    data = (EXAMPLES / "top20.txt").read_bytes()
    solutions = (EXAMPLES / "top20.solutions.txt").read_text()
    values, ok = read_array(data)
    assert values.shape == (20, 81) and ok.all()
    assert read_array(str(EXAMPLES / "top20.txt"))[0].tolist() == values.tolist()
    for jobs in (1, 3):
        solved = sudoku.solve_array(values, limit=2, jobs=jobs)
        assert lines(solved.grid) == solutions
        assert solved.counts.tolist() == [1] * 20 and (solved.status == dlx_status.SOLVED).all()
        assert solved.nodes.tolist() == [r.nodes for r in sudoku.solve_all(data.decode().split(), limit=2)]
    # a clash, an impossible puzzle and a puzzle with many solutions, each in its own row
    odd = np.stack([parse("11" + "." * 79), parse(INKALA), parse("." * 81)])
    solved = sudoku.solve_array(odd, limit=5, jobs=2)
    assert solved.status.tolist() == [dlx_status.INVALID, dlx_status.SOLVED, dlx_status.SOLVED]
    assert solved.counts.tolist() == [0, 1, 5] and not solved.grid[0].any()
    assert_solves("." * 81, lines(solved.grid[2:]).strip())


def test_read_array_names_the_line_that_does_not_fit():
    from sudoku.grid import read_array
    with pytest.raises(PuzzleError, match="line 2: 80 characters, not 81"):
        read_array(("." * 81 + "\n" + "." * 80 + "\n").encode())
    values, ok = read_array(("." * 81 + "\r\n" + "x" * 81).encode())
    assert values.shape == (2, 81) and ok.tolist() == [True, False]
    with pytest.raises(ValueError, match="no sudoku"):
        sudoku.solve_array(np.zeros((2, 80), np.uint8))


SPARSE_9X9 = "1........" + "." * 72       # 9x9 with one given: many solutions
UNIQUE_9X9 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.mark.parametrize("jobs", [1, 2, None])
def test_counting_one_puzzle_on_threads_is_the_batch_count(jobs):
    for puzzle, limit in (("1...............", None), (SPARSE_9X9, 3000), (UNIQUE_9X9, None)):
        assert sudoku.count(puzzle, limit, jobs=jobs) == sudoku.count(puzzle, limit)
        one = sudoku.count_one(puzzle, limit, jobs=jobs)
        assert one.count == sudoku.count(puzzle, limit) and one.status == "solved" and one.solution is None
    assert sudoku.count("12..|..3.|.4..|...1", jobs=2) == 0
    with pytest.raises(PuzzleError, match="row 1"):
        sudoku.count("11..............", jobs=2)
    assert sudoku.count_one("11..............", jobs=2).status == "invalid"
    with pytest.raises(sudoku.OutOfNodes) as out:
        sudoku.count("." * 81, max_nodes=1000, jobs=jobs)
    assert out.value.nodes >= 1000 - 81 and out.value.count > 0


def test_ctrl_c_while_counting_one_puzzle_keeps_the_count_so_far(monkeypatch):
    from dlx import ExactCover, parallel, search
    from dlx.parallel import Result
    from dlx.search import SearchStats
    so_far = Result(41, SearchStats(900, 5000, 41, 0.1, dlx_status.Status.STOPPED), [], 3)

    def interrupted_threads(*args, **kwargs):
        raise parallel.Interrupted(so_far)
    monkeypatch.setattr(ExactCover, "count", interrupted_threads)
    with pytest.raises(sudoku.Interrupted) as caught:
        sudoku.count(SPARSE_9X9, jobs=2)
    assert (caught.value.count, caught.value.nodes) == (41, 900)
    assert isinstance(caught.value, KeyboardInterrupt)

    def interrupted_run(run):
        run.resume(max_nodes=500)
        next(run)                # a solution found, then Ctrl-C
        raise KeyboardInterrupt
    monkeypatch.setattr(search.Search, "count", interrupted_run)
    with pytest.raises(sudoku.Interrupted) as caught:
        sudoku.count_one(SPARSE_9X9, jobs=1)
    assert caught.value.count == 1 and caught.value.nodes > 0
