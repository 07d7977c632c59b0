"""Inputs that once lost a puzzle, gave a silently wrong answer or crashed: each a clear error now,
or the right answer. Each reproducer is as it was found (by fuzzing, API abuse or a long run), and
the fuzzers that found them run here too, sized to take seconds."""
import contextlib
import io
import math
import re
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import EXAMPLES, INKALA, INKALA_SOLUTION, assert_solves, messages

import sudoku
from dlx import Batch, ExactCover, ProblemError, problems, read_dlx, write_dlx
from sudoku.cli import main as sudoku_main
from sudoku.files import read_lines
from sudoku.grid import PuzzleError
from sudoku.pipeline import map_chunks

#: Options without a primary item (all-zero rows and the like) are skipped with a warning, as
#: they should be; test_colours checks the warning itself.
pytestmark = pytest.mark.filterwarnings("ignore::dlx.ProblemWarning")

#: Each example overwrites the one file it writes in ``tmp_path``, so the directory may be shared;
#: and no check reads a clock (conftest's profile, which an explicit list replaces).
ONE_FILE = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]

WRONG_LENGTH = "wrong length: {} cells; a puzzle has N*N (16 for 4x4, 36 for 6x6, 81 for 9x9, 256 for 16x16, ...)"


# --- 1. a short line never swallows the next puzzle

@pytest.mark.parametrize("short", ["....", ".........", INKALA[:9], INKALA[:25], "TODO", "1 2 3 | 4 5 6 | 7 8 9"])
def test_a_short_line_is_its_own_error_and_the_next_puzzle_is_solved(short):
    cells = len(short.replace(" ", "").replace("|", ""))
    entries = list(read_lines(["# a comment", short, INKALA, ""]))
    assert [e.line for e in entries] == [1, 2, 3, 4]
    assert entries[1].puzzle is None and str(entries[1].error) == f"line 2: {WRONG_LENGTH.format(cells)}"
    assert entries[2][:4] == (3, INKALA, INKALA, None)


@pytest.mark.parametrize("header", ["quiz", "puzzle", "quizzes,solutions", "id,puzzle,solution"])
def test_a_one_word_header_is_kept(header):
    entries = list(read_lines([header, INKALA]))
    assert [e[:4] for e in entries] == [(1, header, None, None), (2, INKALA, INKALA, None)]


def test_the_command_answers_the_puzzle_after_a_short_line(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", _Stdin(f"....\n{INKALA}\nTODO\n{INKALA}\n"))
    assert sudoku_main(["solve"]) == 1
    out, err = capsys.readouterr()
    assert out == f"# ....\n{INKALA_SOLUTION}\n# TODO\n{INKALA_SOLUTION}\n"
    assert messages(err).splitlines() == [f"sudoku: line 1: {WRONG_LENGTH.format(4)}",
                                f"sudoku: line 3: {WRONG_LENGTH.format(4)}"]


def test_a_broken_grid_reports_each_line_under_its_own_number():
    rows = [INKALA[k:k + 9] for k in range(0, 81, 9)]
    lines = rows[:3] + ["---+---+---"] + rows[3:5] + [INKALA, *rows]
    entries = list(read_lines(lines))
    assert [e.line for e in entries] == [1, 2, 3, 4, 5, 6, 7, 8]
    reason = "grid ends after 5 rows (lines 1-6), expected 9"
    assert [str(e.error) if e.error else None for e in entries[:6]] == [
        f"line 1: {reason}", f"line 2: {reason}", f"line 3: {reason}", None, f"line 5: {reason}",
        f"line 6: {reason}"]
    assert entries[6][:4] == (7, INKALA, INKALA, None)
    assert entries[7].puzzle == "\n".join(rows) and entries[7].line == 8


# --- 2. a bare CR is a blank, from every source; a line ends at LF only

def test_a_bare_cr_is_a_blank_for_read_dlx_from_every_source(tmp_path, monkeypatch):
    text = "a b\na\rb\na\nb\n"
    path = tmp_path / "cr.dlx"
    path.write_bytes(text.encode())
    with open(path, encoding="utf-8") as plain, open(path, "rb") as binary:
        counts = [read_dlx(path).count(), read_dlx(str(path)).count(), read_dlx(io.StringIO(text)).count(),
                  read_dlx(plain).count(), read_dlx(binary).count()]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    counts.append(read_dlx("-").count())
    assert counts == [2] * 6


def test_a_text_file_already_read_from_is_refused_when_cr_split_it(tmp_path):
    path = tmp_path / "cr.dlx"
    path.write_bytes(b"| c\na b\na\rb\na\nb\n")
    with open(path, encoding="utf-8") as plain:
        plain.readline()
        with pytest.raises(ProblemError, match=r"bare carriage return"):
            read_dlx(plain)


def test_the_sudoku_command_answers_one_line_per_line_with_a_bare_cr(tmp_path, capsys):
    path = tmp_path / "cr.txt"
    path.write_bytes(f"{INKALA[:40]}\r{INKALA[40:]}\n{INKALA}\r\n".encode())
    assert sudoku_main(["solve", str(path)]) == 0
    assert capsys.readouterr().out == f"{INKALA_SOLUTION}\n{INKALA_SOLUTION}\n"


# --- 3. Batch.solve checks values before any cast

@pytest.mark.parametrize("value, fragment", [
    (258, "258"), (-254, "-254"), (256, "256"), (5, "5"), (2.7, "2.7"), (float("nan"), "nan"),
    (float("inf"), "inf"), (2 ** 70, str(2 ** 70))])
def test_batch_values_outside_a_group_are_refused(value, fragment):
    batch = Batch(problems.queens(4), [4, 4, 4, 4])
    for rows in ([[0, 0, 0, 0], [0, 0, value, 0]], np.array([[0, 0, 0, 0], [0, 0, value, 0]])):
        with pytest.raises(ValueError, match=rf"rows\[1, 2\] is {fragment}, not a whole number from 0 to 4"):
            batch.solve(rows, limit=5)
    batch.problem.check()


def test_batch_values_that_are_whole_are_taken_in_any_type():
    batch = Batch(problems.queens(4), [4, 4, 4, 4])
    want = batch.solve(np.array([[2, 0, 0, 0]], np.uint8), limit=5)
    for rows in ([[2, 0, 0, 0]], np.array([[2.0, 0, 0, -0.0]]), np.array([[2, 0, 0, 0]], np.int64),
                 np.array([[2, 0, 0, 0]], np.uint16)):
        got = batch.solve(rows, limit=5)
        assert got.answers.tolist() == want.answers.tolist() == [[2, 4, 1, 3]]
        assert got.counts.tolist() == [1]
    with pytest.raises(ValueError, match="whole numbers"):
        batch.solve([["2", "0", "0", "0"]])


# --- 4. from_matrix checks sparse entries in a wide type

@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint16, np.int64, np.uint64, np.bool_, np.float32])
def test_sparse_duplicates_are_summed_without_wrapping(dtype):
    big = {np.uint8: 255, np.int8: -128, np.uint16: 65535, np.int64: -2 ** 63, np.uint64: 2 ** 63,
           np.bool_: True, np.float32: 2 ** 24}[dtype]
    other = {np.uint8: 2, np.int8: -127, np.uint16: 2, np.int64: -2 ** 63 + 1, np.uint64: 2 ** 63 + 1,
             np.bool_: True, np.float32: 1}[dtype]
    coo = sp.coo_matrix((np.array([big, other], dtype), ([0, 0], [1, 1])), shape=(2, 2))
    with pytest.raises(ProblemError, match=r"entry \(0, 1\) (is|holds) "):
        ExactCover.from_matrix(coo)


# --- 5 and 6. every numeric argument is range-checked, by one rule

HUGE = [2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1, 2 ** 64, 10 ** 30]


@pytest.mark.parametrize("huge", HUGE)
def test_a_huge_limit_or_budget_means_no_limit(huge):
    q = problems.queens(6)
    assert q.count(limit=huge) == 4 and q.count(max_nodes=huge) == 4
    assert len(list(q.solutions(limit=huge, max_nodes=huge))) == 4
    with q.search(limit=1) as run:
        assert len(list(run)) == 1
        assert run.resume(limit=huge, max_nodes=huge).count() == 3
    batch = Batch(q, [6] * 6)
    assert batch.solve([[0] * 6], limit=huge, max_nodes=huge).counts.tolist() == [4]
    assert sudoku.count("." * 16, limit=huge) == 288
    assert batch.solve([[0] * 6], limit=None).counts.tolist() == [4]       # None: no limit, everywhere


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True])
def test_bad_limits_and_budgets_are_clear_errors(bad):
    q = problems.queens(4)
    batch = Batch(q, [4] * 4)
    calls = [lambda: q.count(limit=bad), lambda: q.count(max_nodes=bad), lambda: q.first(max_nodes=bad),
             lambda: list(q.solutions(limit=bad)), lambda: q.search(max_nodes=bad),
             lambda: batch.solve([[0] * 4], max_nodes=bad), lambda: batch.solve([[0] * 4], limit=bad),
             lambda: sudoku.count("." * 16, limit=bad)]
    for call in calls:
        with pytest.raises(ValueError, match="must be"):
            call()


@pytest.mark.parametrize("jobs", [-1, 1.5, "2", True])
def test_bad_jobs_are_clear_errors(jobs):
    with pytest.raises(ValueError, match="jobs must be a whole number of at least 0"):
        list(sudoku.solve_all(["." * 16], jobs=jobs))


def test_no_jobs_means_one_thread_per_core():
    assert [r.count for r in sudoku.solve_all(["1" + "." * 15] * 3, limit=10, jobs=0)] == [10] * 3


@pytest.mark.parametrize("sizes", [[1.5, 2.5], ["4"], [4, True], [0], [256], [[4]]])
def test_bad_group_sizes_are_refused(sizes):
    with pytest.raises(ProblemError, match="group sizes must be whole numbers from 1 to 255"):
        Batch(problems.queens(4), sizes)


@pytest.mark.parametrize("make", [lambda: problems.queens(1.5), lambda: problems.langford("3"),
                                  lambda: problems.pentominoes(6.0, 10), lambda: problems.queens(0),
                                  lambda: ExactCover.from_matrix(np.eye(3), secondary=1.5),
                                  lambda: ExactCover.from_matrix(np.eye(3), secondary=-1)])
def test_the_problem_makers_take_whole_numbers_only(make):
    with pytest.raises(ValueError, match="must be a whole number of at least"):
        make()


def test_a_problem_too_big_for_the_links_is_refused(monkeypatch):
    from dlx import model
    monkeypatch.setattr(model, "_MAX_ENTRIES", 6)
    assert ExactCover([["a", "b"], ["c", "d", "e"]]).count() == 1          # 5 entries
    with pytest.raises(ProblemError, match="6 option entries: the engines index at most 5"):
        ExactCover([["a", "b"], ["c", "d", "e"], ["f"]])


@pytest.mark.parametrize("args", [["--limit"], ["--max-nodes"]])
def test_huge_numbers_on_the_command_lines(args, capsys):
    from dlx.cli import main as dlx_main
    assert dlx_main([str(EXAMPLES / "queens8.dlx"), "--count", *args, str(2 ** 64)]) == 0
    assert capsys.readouterr().out == "92\n"


def test_huge_sudoku_limit_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("." * 16 + "\n")
    assert sudoku_main(["count", str(path), "--limit", str(2 ** 64)]) == 0
    assert capsys.readouterr().out == "288\n"


# --- 7 and 8. paths as bytes, and writing never leaves half a file

def test_read_dlx_takes_a_bytes_path_and_refuses_a_nul(tmp_path):
    assert read_dlx(bytes(EXAMPLES / "queens8.dlx")).count() == 92
    with pytest.raises(ProblemError, match="cannot read"):
        read_dlx("x\0")
    with pytest.raises(FileNotFoundError, match="no/such/file.dlx"):
        read_dlx(b"no/such/file.dlx")


def test_write_dlx_checks_names_before_writing_and_leaves_no_partial_file(tmp_path):
    path = tmp_path / "p.dlx"
    path.write_text("before\n")
    bad = ExactCover([["a", "b\udc80"]])
    with pytest.raises(ProblemError, match="cannot be written in UTF-8"):
        write_dlx(bad, path)
    assert path.read_text() == "before\n" and [p.name for p in tmp_path.iterdir()] == ["p.dlx"]
    out = io.StringIO()
    with pytest.raises(ProblemError):
        write_dlx(bad, out)
    assert out.getvalue() == ""
    write_dlx(problems.queens(4), bytes(path))
    assert read_dlx(path).count() == 2 and [p.name for p in tmp_path.iterdir()] == ["p.dlx"]


def test_write_dlx_to_a_text_file_that_cannot_encode_writes_nothing(tmp_path):
    path = tmp_path / "p.dlx"
    with open(path, "w", encoding="ascii") as f, pytest.raises(UnicodeEncodeError):
        write_dlx(ExactCover([["a", "é"]]), f)
    assert path.read_text() == ""


# --- 9. only the alphabet's symbols are digits

@pytest.mark.parametrize("char", ["ı", "ſ", "ﬀ", "Ⅰ", "١", "²"])
def test_letters_that_upper_case_to_a_symbol_are_not_digits(char):
    with pytest.raises(PuzzleError, match=f"bad character {char!r} at position 1"):
        sudoku.solve(char + "." * 624)
    with pytest.raises(PuzzleError, match=f"bad character {char!r} at position 1"):
        sudoku.solve(char + "." * 80)


# --- 10. the read-ahead is capped by memory, not by the thread count

def test_read_ahead_is_capped_whatever_the_jobs():
    taken = 0

    def source():
        nonlocal taken
        for k in range(10 ** 7):
            taken += 1
            yield k

    chunks = map_chunks(lambda chunk, stop: chunk, source(), jobs=1000, chunk=512)
    assert next(chunks) == list(range(512))
    assert taken <= 32_768 + 512        # not 2 x 1000 chunks of 512 (1,024,000 lines)
    chunks.close()
    assert [len(c) for c in map_chunks(lambda chunk, stop: chunk, range(5000), jobs=1000)] == [512] * 9 + [392]


# --- the fuzzers

@st.composite
def dlx_texts(draw):
    names = st.sampled_from(["a", "b", "c", "x", "y", "é", "|", "a:1", "2|a", "| c", ""])
    blanks = st.sampled_from([" ", "  ", "\t", "\r", "\x0b", "\x0c", "\xa0", "\u2028", "\x85"])
    line = st.lists(st.tuples(names, blanks), max_size=5).map(lambda ts: "".join(a + b for a, b in ts))
    ends = st.sampled_from(["\n", "\r\n", "\n\n"])
    return "".join(draw(line) + draw(ends) for _ in range(draw(st.integers(0, 6))))


def _outcome(read):
    try:
        ec = read()
    except ProblemError as e:
        return "error", e.line, str(e).split(": ", 1)[1]
    return ec.items, ec.n_primary, [ec.option(k) for k in range(ec.n_options)]


@settings(max_examples=150, deadline=None, suppress_health_check=ONE_FILE)
@given(dlx_texts())
def test_read_dlx_says_the_same_from_every_source(tmp_path, text):
    path = tmp_path / "fuzz.dlx"
    path.write_bytes(text.encode())
    with open(path, encoding="utf-8") as plain, open(path, "rb") as binary:
        outcomes = [_outcome(lambda: read_dlx(path)), _outcome(lambda: read_dlx(io.StringIO(text))),
                    _outcome(lambda: read_dlx(plain)), _outcome(lambda: read_dlx(binary))]
    assert all(o == outcomes[0] for o in outcomes), outcomes


@st.composite
def puzzle_files(draw):
    line = st.one_of(
        st.sampled_from([INKALA, INKALA[:40] + "\r" + INKALA[40:], "", "# c", "quiz", "TODO", "....",
                         ".........", INKALA[:9], INKALA[:25], "." * 16, "1" * 80, "---+---+---",
                         INKALA + ",x", INKALA[:-1] + "x"]),
        st.builds(lambda k: "\n".join(INKALA[i:i + 9] for i in range(0, 9 * k, 9)), st.integers(1, 9)),
        st.text(alphabet=".123456789 |#\r", max_size=30))
    return draw(st.lists(line, max_size=12))


@settings(max_examples=200, deadline=None)
@given(puzzle_files())
def test_no_line_is_lost_and_every_puzzle_line_is_solved(lines):
    text = "\n".join(lines)
    physical = text.split("\n") if text else []
    entries = list(read_lines(physical))
    covered = [n for e in entries for n in range(e.line, e.line + e.text.count("\n") + 1)]
    assert covered == list(range(1, len(physical) + 1))
    for number, line in enumerate(physical, 1):
        if line.replace("\r", "") == INKALA:
            assert any(e.line == number and e.puzzle is not None for e in entries)
    for e in entries:
        assert e.error is None or e.error.line == e.line


@settings(max_examples=60, deadline=None, suppress_health_check=ONE_FILE)
@given(puzzle_files())
def test_the_command_answers_one_line_per_line(tmp_path, lines):
    path = tmp_path / "fuzz.txt"
    path.write_bytes(("\n".join(lines) + "\n").encode())
    physical = path.read_bytes().decode().split("\n")[:-1]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        sudoku_main(["solve", str(path)])
    answers = iter(out.getvalue().split("\n")[:-1])
    for e in read_lines(physical):           # in order: a kept line, an echo, or an answer
        rows = e.text.split("\n")
        if e.puzzle is not None and re.sub(r"\s", "", e.puzzle) == INKALA:
            assert next(answers) == INKALA_SOLUTION
        elif e.puzzle is None:
            assert [next(answers) for _ in rows] == [row if e.error is None else "# " + row for row in rows]
        elif (answer := next(answers)).startswith("# "):   # another puzzle, with no solution
            assert [answer] + [next(answers) for _ in rows[1:]] == ["# " + row for row in rows]
        else:
            assert_solves(e.puzzle, answer)
    assert next(answers, None) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.integers(-300, 300), st.floats(allow_nan=True), st.integers(2 ** 62, 2 ** 66)),
                min_size=4, max_size=4))
def test_batch_takes_exactly_the_whole_values_of_its_groups(row):
    batch = Batch(problems.queens(4), [4, 4, 4, 4])
    good = all(float(v).is_integer() and 0 <= v <= 4 for v in row if not (isinstance(v, float) and math.isnan(v)))
    good = good and not any(isinstance(v, float) and math.isnan(v) for v in row)
    try:
        got = batch.solve([row], limit=3)
    except ValueError as e:
        assert not good and "rows[0, " in str(e)
        return
    assert good
    want = batch.solve(np.array([[int(v) for v in row]], np.uint8), limit=3)
    assert got.counts.tolist() == want.counts.tolist() and got.answers.tolist() == want.answers.tolist()


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([np.uint8, np.int8, np.int16, np.bool_, np.float32, np.int64, np.uint64]),
       st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(-300, 300)), max_size=8))
def test_from_matrix_accepts_exactly_the_0_1_matrices(dtype, entries):
    rows = [r for r, _, _ in entries]
    cols = [c for _, c, _ in entries]
    values = np.array([v for _, _, v in entries]).astype(dtype) if entries else np.zeros(0, dtype)
    coo = sp.coo_matrix((values, (rows, cols)), shape=(3, 3))
    dense = np.zeros((3, 3), np.float64)
    for r, c, v in zip(rows, cols, values.tolist()):
        dense[r, c] += float(v)
    try:
        ec = ExactCover.from_matrix(coo)
    except ProblemError as e:
        assert ((dense != 0) & (dense != 1)).any(), e
        return
    assert np.isin(dense, (0, 1)).all()
    assert [ec.option(k) for k in range(3)] == [tuple(np.flatnonzero(dense[r]).tolist()) for r in range(3)]


class _Stdin:
    def __init__(self, text):
        self.buffer = io.BytesIO(text.encode())


@pytest.mark.slow
def test_the_command_with_many_jobs_stays_small(tmp_path):
    """--jobs 1000 takes hardly more memory than --jobs 2 (it took 150 MB more on this file)."""
    easy = INKALA_SOLUTION[:70] + "." * 11
    path = tmp_path / "many.txt"
    path.write_text((easy + "\n") * 300_000)
    peaks = []
    for jobs in ("2", "1000"):
        run = subprocess.run(
            [sys.executable, "-c", "import resource, sys; from sudoku.cli import main; main(sys.argv[1:]); "
             "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)",
             "solve", str(path), "--jobs", jobs, "--quiet"], capture_output=True, text=True, timeout=300,
            check=False)
        assert run.stdout == (INKALA_SOLUTION + "\n") * 300_000
        peaks.append(int(run.stderr.split()[-1]))
    assert peaks[1] < peaks[0] + 50_000, peaks      # kilobytes


@st.composite
def csv_files(draw):
    row = st.one_of(
        st.builds(lambda k, note: f"{k},{INKALA},{note}", st.integers(0, 99), st.sampled_from(["", "x", '"a, b"'])),
        st.sampled_from(["", "# c", "1,2,3", "7", f'"{INKALA}",', ",,", "9,1...|..3.|.4..|...2,"]))
    return ["id,puzzle,note"] + draw(st.lists(row, max_size=10))


@settings(max_examples=60, deadline=None, suppress_health_check=ONE_FILE)
@given(csv_files())
def test_every_csv_row_gets_one_row_in_order(tmp_path, lines):
    import csv
    path = tmp_path / "fuzz.csv"
    path.write_text("\n".join(lines) + "\n")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        sudoku_main(["solve", str(path)])
    rows = list(csv.reader(out.getvalue().splitlines()))
    given = list(csv.reader(lines))
    assert len(rows) == len(given)
    assert rows[0] == ["id", "puzzle", "note", "solution", "status"]
    for row, fields in zip(rows[1:], given[1:]):
        assert row[:len(fields)] == fields                    # the input's fields, kept as they were
        if len(fields) > 1 and fields[1] == INKALA:
            assert row[-2:] == [INKALA_SOLUTION, "solved"]


def test_a_string_where_an_option_is_expected_is_refused():
    with pytest.raises(ProblemError, match=r"option 1 is a string, 'b c', where a list of items is "
                                           r"expected: write \['b', 'c'\]"):
        ExactCover([["a"], "b c"])
    with pytest.raises(ProblemError, match="options must be a list of options"):
        ExactCover("abc")
    with pytest.raises(ProblemError, match="option 0 is a string"):
        ExactCover([b"ab"])
    assert ExactCover([list("ab"), ["b", "c"]]).count() == 0


def test_an_item_where_an_option_is_expected_is_refused():
    with pytest.raises(ProblemError, match=r"^option 0 is 1, where a list of items is expected: write \[1\] "
                                           r"for an option of one item$"):
        ExactCover([1, 2, 3])


def test_batch_rows_of_text_or_of_different_lengths_are_refused_by_name():
    batch = Batch(ExactCover([["a", "b"], ["b"], ["a"]]), [1, 1, 1])
    with pytest.raises(ValueError, match=r"^rows must hold whole numbers \(each group's value, 0 for none\), "
                                         r"not text such as 'a'$"):
        batch.solve([["a", "b", "c"]])
    with pytest.raises(ValueError, match=r"^rows must all have the same length: row 0 has 3 values, row 1 has "
                                         r"1 value$"):
        batch.solve([[1, 0, 0], [1]])
    with pytest.raises(ProblemError, match=r"^the rows of a 0/1 matrix must all have the same length: row 0 has "
                                           r"2 values, row 2 has a single value$"):
        ExactCover.from_matrix([[1, 0], [0, 1], 1])
