"""Inputs that lost output, answered wrongly, hung or ended in a traceback, found by fuzzing and
abuse (part two, after test_abuse): bad CSV, headers that were puzzles, Dask workers that die,
resources without bounds, round trips, loose checks and the classic problems. Each reproducer is as
it was found; the CSV fuzzer that would find the next one runs here too, sized to take seconds."""
import contextlib
import csv
import io
import re
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import INKALA, INKALA_SOLUTION, assert_solves, mcc_problems, messages

import dlx
import sudoku
from dlx import ExactCover, parallel, problems, read_dlx, write_dlx
from dlx.cli import main as dlx_main
from sudoku import files, solver
from sudoku.cli import main as sudoku_main
from sudoku.grid import PuzzleError, read_lines

ONE_FILE = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
FOUR = "1...|..3.|.4..|...2"


def run_sudoku(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = sudoku_main(list(argv))
    return code, out.getvalue(), messages(err.getvalue())


def run_dlx(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = dlx_main(list(argv))
    return code, out.getvalue(), messages(err.getvalue())


def csv_rows(text: str) -> list[list[str]]:
    """The rows of the command's CSV output, which echoes fields of any length."""
    limit = csv.field_size_limit(1 << 24)
    try:
        return list(csv.reader(io.StringIO(text, newline="")))
    finally:
        csv.field_size_limit(limit)


# --- 1-3. a CSV row that cannot be read is reported under its line; the rows after it are answered

@pytest.mark.parametrize("bad, reason", [
    ("2,x\ry", "line 3: a carriage return (CR) inside a field that is not quoted"),
    ("2," + INKALA + ",x" + "y" * 131_072, "line 3: a field longer than 131,072 characters"),
    ('2,"' + INKALA + ",x", "line 3: a quote opened on this line is not closed"),
])
def test_a_bad_csv_row_is_reported_and_the_rest_answered(tmp_path, bad, reason):
    path = tmp_path / "bad.csv"
    path.write_text(f"id,puzzle,note\n1,{INKALA},a\n{bad}\n3,{INKALA},c\n4,{INKALA},d\n", newline="")
    code, out, err = run_sudoku("solve", str(path))
    assert code == 1
    rows = csv_rows(out)
    assert rows[0] == ["id", "puzzle", "note", "solution", "status"]
    assert [row[0] for row in rows[1:]] == ["1", "2", "3", "4"]
    assert all(len(row) == 5 for row in rows)
    assert rows[2][3:] == ["", "invalid"]
    for row in rows[1:2] + rows[3:]:
        assert row[3:] == [INKALA_SOLUTION, "solved"]
    assert err.splitlines()[0].startswith(f"sudoku: {reason}") and len(err.splitlines()) == 1
    with pytest.raises(PuzzleError, match=re.escape(reason)):
        list(sudoku.read_puzzles(path))


def test_a_bare_cr_in_a_first_line_with_a_comma_is_no_header_and_no_crash():
    assert [e[:4] for e in files.entries(["id,puzzle\r,note\n", INKALA])] == [
        (1, "id,puzzle\r,note", None, None), (2, INKALA, INKALA, None)]
    assert [e[:3] for e in files.entries([f"{INKALA},\rx\n", INKALA])] == [
        (1, f"{INKALA},\rx", INKALA), (2, INKALA, INKALA)]


def test_a_quoted_field_may_hold_line_breaks():
    text = f'id,puzzle,note\n1,{INKALA},"two\nlines"\n2,"{INKALA}",\n'
    entries = list(files.entries(io.StringIO(text, newline="\n")))
    assert [(e.line, e.puzzle, e.fields) for e in entries[1:]] == [
        (2, INKALA, ["1", INKALA, "two\nlines"]), (4, INKALA, ["2", INKALA, ""])]


# --- 4. CSV output lines up with the header, or the row is reported

def test_ragged_csv_rows_line_up_with_the_header(tmp_path):
    path = tmp_path / "ragged.csv"
    path.write_text(f"id,puzzle,note\n1,{INKALA}\n2,{INKALA},a,b\n3,{INKALA},c\n")
    code, out, err = run_sudoku("solve", str(path))
    assert code == 1
    assert csv_rows(out) == [["id", "puzzle", "note", "solution", "status"],
                             ["1", INKALA, "", INKALA_SOLUTION, "solved"],
                             ["2", INKALA, "a,b", "", "invalid"],
                             ["3", INKALA, "c", INKALA_SOLUTION, "solved"]]
    assert err == "sudoku: line 3: 4 fields, but the header has 3 (a comma that should be quoted?)\n"


# --- 5. a first line that is as long as a puzzle is a puzzle, letters or not

def test_a_first_line_of_letters_as_long_as_a_puzzle_is_a_puzzle(tmp_path):
    assert list(sudoku.read_puzzles(["acbddbcabdaccadb"])) == ["acbddbcabdaccadb"]
    path = tmp_path / "letters.txt"
    path.write_text("acbddbcabdaccadb\n")
    assert run_sudoku("count", str(path), "--symbols", "a-d") == (0, "1\n", "")
    path.write_text("aaaaaaaaaaaaaaaa\n")
    code, out, err = run_sudoku("count", str(path), "--symbols", "a-d")
    assert (code, out) == (1, "# aaaaaaaaaaaaaaaa\n") and "line 1:" in err
    assert [e.puzzle for e in read_lines(["quizzes", INKALA])] == [None, INKALA]


# --- the CSV fuzzer: quotes, CRs, commas, ragged rows, long fields

PIECES = [INKALA, FOUR, "x", "", '"', '""', '"a,b"', "\r", ",", ",,", "#", " ", "y" * 131_073]


@st.composite
def abused_csv(draw):
    line = st.lists(st.sampled_from(PIECES), max_size=6).map("".join)
    return ["id,puzzle,note"] + draw(st.lists(line, max_size=8))


@settings(max_examples=150, deadline=None, suppress_health_check=ONE_FILE)
@given(abused_csv())
def test_every_line_of_abused_csv_is_answered_once_in_order(tmp_path, lines):
    text = "\n".join(lines) + "\n"
    entries = list(files.entries(io.StringIO(text, newline="\n")))
    # the entries cover the input, each line once, in order
    assert "\n".join(e.text for e in entries) == "\n".join(line.rstrip("\r") for line in lines)
    path = tmp_path / "fuzz.csv"
    path.write_text(text, newline="")
    code, out, err = run_sudoku("solve", str(path))
    rows = csv_rows(out)
    assert len(rows) == len(entries) and rows[0] == ["id", "puzzle", "note", "solution", "status"]
    reported = 0
    for entry, row in zip(entries[1:], rows[1:]):
        if entry.puzzle is None and entry.error is None:
            continue                      # a blank line or a comment, kept as it was
        assert len(row) == 5, row
        if row[4] == "solved":
            assert_solves(row[1].strip(), row[3])
        else:
            assert row[4] in ("invalid", "no solution") and row[3] == ""
            reported += 1
    assert len(err.splitlines()) == reported
    assert code == (1 if reported else 0)


# --- 9. threads: no more than the cores, however many are asked for

def test_threads_are_capped_by_the_cores(monkeypatch):
    monkeypatch.setattr(parallel, "cores", lambda: 3)
    assert [parallel.jobs_for(j) for j in (None, 0, 1, 2, 3, 4, 10 ** 9)] == [3, 3, 1, 2, 3, 3, 3]
    assert solver.threads(10 ** 9) == 3
    started = []
    work = parallel._Pool.work
    monkeypatch.setattr(parallel._Pool, "work", lambda pool: started.append(1) or work(pool))
    assert problems.queens(6).count(jobs=10 ** 9) == 4
    assert len(started) == 3
    code, out, err = run_dlx("queens", "6", "--count", "--jobs", "1000000000")
    assert (code, out) == (0, "4\n") and len(started) == 6


# --- 10. write_dlx then read_dlx: the same problem, every option at its number

@settings(max_examples=150, deadline=None)
@given(mcc_problems(), st.lists(st.integers(0, 12), max_size=3))
def test_write_then_read_is_the_same_problem(problem, empties):
    primary, secondary, options, bounds = problem
    options = list(options)
    for k in empties:
        options.insert(min(k, len(options)), [])           # a matrix's row of zeros
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.ProblemWarning)
        ec = ExactCover(options, primary=primary, secondary=secondary, bounds=bounds)
        back = read_dlx(io.StringIO(write_dlx(ec, io.StringIO()).getvalue()))
    assert (back.items, back.n_primary, back.n_options) == (ec.items, ec.n_primary, ec.n_options)
    assert [back.option(k) for k in range(back.n_options)] == [ec.option(k) for k in range(ec.n_options)]
    assert [None if e.bounds is None else e.bounds.tolist() for e in (back, ec)] == [
        None if ec.bounds is None else ec.bounds.tolist()] * 2
    assert list(back.solutions()) == list(ec.solutions())
