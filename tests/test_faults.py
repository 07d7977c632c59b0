"""Inputs that lost output, answered wrongly, hung or ended in a traceback, found by fuzzing and
abuse (part two, after test_abuse): bad CSV, headers that were puzzles, Dask workers that die,
resources without bounds, round trips, loose checks and the classic problems. Each reproducer is as
it was found; the CSV fuzzer that would find the next one runs here too, sized to take seconds."""
import contextlib
import csv
import io
import os
import re
import signal
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import INKALA, INKALA_SOLUTION, assert_solves, messages

import dlx
import sudoku
from dlx import checks, parallel, problems
from dlx.cli import main as dlx_main
from sudoku import explainer, files
from sudoku.cli import main as sudoku_main
from sudoku.files import read_lines
from sudoku.grid import PuzzleError

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


# --- 6. explain: a node budget, and memory that does not grow with the search

@pytest.fixture(scope="module")
def hard25():
    """A 25x25 puzzle that no search finishes soon: a full grid with 45% of its cells kept."""
    values = np.array(list(sudoku.solve("." * 625)))
    values[np.random.default_rng(3).random(625) > 0.45] = "."
    return "".join(values)


def test_explain_stops_at_its_budget_and_says_so(hard25, capsys):
    text = sudoku.explain(hard25, max_nodes=1000).split("\n")
    assert text[-1].startswith("Gave up after 1,000 nodes (max_nodes allows more): ")
    assert text[60].startswith("... and ") and len(text) == 62
    assert sudoku_main(["explain", hard25, "--max-nodes", "1000"]) == 3
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("Gave up after 1,000 nodes (--max-nodes allows more): ")
    assert sudoku.explain(INKALA, max_nodes=None).endswith(sudoku.pretty(INKALA_SOLUTION))


def test_explain_keeps_no_step_it_does_not_show(hard25):
    """Peak memory (Python's and numpy's, as tracemalloc counts them) is the same for 20,000 and
    80,000 nodes: one batch of trace events at a time, whatever the search's length. Keeping every
    step, as it did, took 3.6 GB after 15 s of a search like this one."""
    explainer.tell(hard25, lambda line: None, max_nodes=100)         # the problem built, kernels loaded
    peaks = []
    for nodes in (20_000, 80_000):
        tracemalloc.start()
        try:
            assert explainer.tell(hard25, lambda line: None, max_nodes=nodes) is False
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    assert peaks[1] < peaks[0] + 500_000, peaks


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
    monkeypatch.setattr(checks, "cores", lambda: 3)
    assert [checks.jobs(j) for j in (None, 0, 1, 2, 3, 4, 10 ** 9)] == [3, 3, 1, 2, 3, 3, 3]
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="jobs must be a whole number"):
            checks.jobs(bad)
    started = []
    work = parallel._Pool.work
    monkeypatch.setattr(parallel._Pool, "work", lambda pool: started.append(1) or work(pool))
    assert problems.queens(6).count(jobs=10 ** 9) == 4
    assert len(started) == 3
    code, out, err = run_dlx("queens", "6", "--count", "--jobs", "1000000000")
    assert (code, out) == (0, "4\n") and len(started) == 6


# --- 11. one-line errors and no leftovers

def command(*argv: str, **how) -> subprocess.CompletedProcess:
    """``python -m dlx`` or ``python -m sudoku`` (``argv[0]``) as a process: exit_now ends it."""
    how.setdefault("stdout", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", *argv], stderr=subprocess.PIPE, text=True, timeout=300,
                          check=False, **how)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("argv", [("sudoku", "solve", INKALA), ("dlx", "queens", "5")])
def test_a_full_disk_is_one_line(argv):
    with open("/dev/full", "w") as full:
        run = command(*argv, stdout=full)
    assert run.returncode == 1
    assert messages(run.stderr) == f"{argv[0]}: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("argv, said", [
    (("sudoku", "solve"), "sudoku: error: cannot read -: standard input is closed\n"),
    (("sudoku", "explain", "-"), "sudoku: error: cannot read -: standard input is closed\n"),
    (("dlx",), "dlx: error: <stdin>: cannot read: standard input is closed\n")])
def test_a_closed_standard_input_is_one_line(argv, said):
    run = command(*argv, stdin=None, preexec_fn=lambda: os.close(0))
    assert (run.returncode, messages(run.stderr)) == (1, said)


def test_standard_input_twice_reads_on(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text(INKALA + "\n")
    with open(path) as stdin:
        run = command("sudoku", "solve", "-", "-", stdin=stdin)
    assert (run.returncode, run.stdout, messages(run.stderr)) == (0, INKALA_SOLUTION + "\n", "")


def test_a_grid_too_large_says_so_and_utf16_is_named():
    [big] = read_lines(["." * 64 * 64])
    assert big.error.reason == ("a 64x64 grid is larger than the largest, 61x61 (one character for each "
                                "value, and 0-9, A-Z, a-z give 62)")
    with pytest.raises(PuzzleError, match="a 64x64 grid is larger than the largest"):
        sudoku.solve("." * 64 * 64)
    text = (INKALA + "\n" + INKALA + "\n").encode("utf-16").decode("utf-8", "replace")
    for entry in files.entries(text.splitlines(keepends=True)):
        assert entry.error.reason.startswith("NUL characters in the line: is the file UTF-16?")
    csv_text = ("id,puzzle\n1," + INKALA + "\n").encode("utf-16").decode("utf-8", "replace")
    assert all(e.error.reason.startswith("NUL characters") for e in files.entries(csv_text.splitlines(True)))


WRITE_THEN_TERM = """
import os, signal, sys
from dlx import formats, problems
real_open = open

class Interrupted:
    def __init__(self, *args, **kwargs):
        self.file = real_open(*args, **kwargs)
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        self.file.close()
    def write(self, text):
        self.file.write(text[:10])
        self.file.flush()
        os.kill(os.getpid(), signal.SIGTERM)      # half written
        self.file.write(text[10:])

formats.open = Interrupted
formats.write_dlx(problems.queens(8), sys.argv[1])
"""


def test_sigterm_while_writing_leaves_no_partial_file(tmp_path):
    run = subprocess.run([sys.executable, "-c", WRITE_THEN_TERM, str(tmp_path / "q.dlx")], timeout=300,
                         check=False)
    assert run.returncode == -signal.SIGTERM              # ended by the signal, as it asked
    assert list(tmp_path.iterdir()) == []


# --- 12. loose checks: whole numbers, layouts on the grid, budgets everywhere, clashes named

@pytest.mark.parametrize("box", [(3, 3.5), (True, 9), (3.0, 3)])
def test_a_box_is_two_whole_numbers(box):
    with pytest.raises(PuzzleError, match="a box is two whole numbers"):
        sudoku.solve("." * 81, box=box)


@pytest.mark.parametrize("layout, message", [
    (dict(cages=((3.9, (0, 1)),)), "cage 1's sum must be a whole number of at least 1, not 3.9"),
    (dict(cages=((3, (-1, 0)),)), "a cell of cage 1 must be a whole number of at least 0, not -1"),
    (dict(cages=((3, (0, 1)), (4, (1, 2)))), "cage 2: cell 1 is in it twice, or in another cage too"),
    (dict(cages=((3, ()),)), "cage 1 has no cells"),
    (dict(regions=(0, 1, 2)), "regions: 3 numbers, not one per cell of an N x N grid"),
    (dict(regions=(5,) * 16), "regions: region 5 on a 4x4 grid, whose regions are 0..3"),
    (dict(regions=(0,) * 16), "regions: region 0 has 16 cells"),
    (dict(regions=(0, 1, 2, 3) * 3 + (0.5, 1, 2, 3)), "a region number must be a whole number"),
])
def test_a_bad_layout_is_a_clear_error(layout, message):
    with pytest.raises(PuzzleError, match=re.escape(message)):
        sudoku.Variant(**layout)


def test_killer_sums_are_whole_and_cages_lie_on_the_grid():
    with pytest.raises(PuzzleError, match="the sum of cage 'a' must be a whole number of at least 1, not 7.5"):
        sudoku.killer("aabc|dabc|deef|ggef", {"a": 7.5, "b": 4, "c": 6, "d": 5, "e": 7, "f": 4, "g": 7})
    far = sudoku.Variant(cages=((3, (100, 0)),))
    with pytest.raises(PuzzleError, match="a cage holds cell 100, but the puzzle has 81 cells"):
        sudoku.solve("." * 81, variant=far)
    assert next(sudoku.solve_all(["." * 81], variant=far)).status == "invalid"


@pytest.mark.parametrize("call", [lambda: sudoku.generate(seed=1.5), lambda: sudoku.shuffle(FOUR, seed=1.5),
                                  lambda: sudoku.rate(INKALA, seed=1.5)])
def test_a_seed_is_a_whole_number(call):
    with pytest.raises(ValueError, match="seed must be a whole number of at least 0, not 1.5"):
        call()


def test_solve_and_is_unique_take_a_node_budget():
    assert sudoku.solve(INKALA, max_nodes=10 ** 6) == INKALA_SOLUTION
    assert sudoku.is_unique(INKALA, max_nodes=10 ** 6) is True
    for call in (sudoku.solve, sudoku.is_unique):
        with pytest.raises(sudoku.OutOfNodes, match="the budget of 5 nodes ran out after 0 solutions") as caught:
            call(INKALA, max_nodes=5)
        assert caught.value.count == 0
    assert sudoku.is_unique("." * 81, max_nodes=100) is False      # two solutions found within it


def test_limits_of_zero_are_what_the_readme_says():
    queens = problems.queens(6)
    assert queens.count(limit=0) == 0 and queens.stats.status == "limit"
    for refuse in (lambda: sudoku.count(FOUR, limit=0), lambda: list(sudoku.solve_all([FOUR], limit=0)),
                   lambda: dlx.Batch(queens, [6] * 6).solve([[0] * 6], limit=0)):
        with pytest.raises(ValueError, match="limit must be None .no limit. or a whole number of at least 1, not 0"):
            refuse()


class _Interrupted(io.StringIO):
    """Standard output whose fourth write is interrupted, as a Ctrl-C between solutions is."""

    def write(self, text):
        self.writes = getattr(self, "writes", 0) + 1
        if self.writes == 4:
            raise KeyboardInterrupt
        return super().write(text)


def test_an_interrupt_counts_the_solutions_printed_not_those_found(monkeypatch, capsys):
    out = _Interrupted()
    monkeypatch.setattr("sys.stdout", out)
    assert dlx_main(["queens", "8"]) == 130
    err = messages(capsys.readouterr().err)
    assert out.getvalue().count("\n\n") == 2          # three drawings, a blank line between
    assert err.startswith("dlx: interrupted after 3 solutions printed (7 found), "), err


@pytest.mark.parametrize("variant, puzzle, reason", [
    ("x", "1" + "." * 29 + "1" + "." * 50, "digit 1 twice in diagonal 1"),
    ("windoku", "." * 10 + "1" + "." * 19 + "1" + "." * 50, "digit 1 twice in window 1"),
    (sudoku.jigsaw("AAAB|ABBB|CCCD|CDDD"), "..1.|1...|....|....", "digit 1 twice in region 1"),
    (sudoku.killer("aabc|dabc|deef|ggef", "a=7 b=4 c=6 d=5 e=7 f=4 g=7"), "....|....|.3..|..3.",
     "digit 3 twice in cage 5"),
])
def test_a_variant_clash_names_its_unit(variant, puzzle, reason):
    result = next(sudoku.solve_all([puzzle], variant=variant))
    assert (result.status, result.error.reason) == ("invalid", reason)


def test_a_jigsaw_clash_is_never_blamed_on_a_box():
    jigsaw = sudoku.jigsaw("AAAB|ABBB|CCCD|CDDD")
    assert sudoku.solve("1...|.1..|....|....", variant=jigsaw) == "1234412334122341"
    # 1 twice in the first 2x2 box, which a jigsaw does not have; 2 twice in region 1, which it does
    result = next(sudoku.solve_all(["1.2.|21..|....|...."], variant=jigsaw))
    assert (result.status, result.error.reason) == ("invalid", "digit 2 twice in region 1")
