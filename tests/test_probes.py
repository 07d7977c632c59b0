"""Faults found by probing as an adversarial user would (part three, after test_abuse and
test_faults): tracebacks where a one-line error belongs, answers lost when the caller's iterable
raises, ZDD files that could not mean a family of sets, output kept back until the end, a batch
path that lost its engine's choice order, memory bounds that did not hold from the first byte,
an exit status, and leftovers of earlier rounds. Each reproducer is as it was found."""
import contextlib
import io
import subprocess
import sys

import numpy as np
import pytest
from support import EXAMPLES, INKALA, INKALA_SOLUTION, messages

import dlx
import sudoku
from dlx import ZDD, problems
from dlx.cli import main as dlx_main
from dlx.memo import TooLarge
from dlx.zdd import ZDDError
from sudoku import encode
from sudoku.cli import main as sudoku_main
from sudoku.grid import Shape, parse, read_array

IMPOSSIBLE_REGIONS = "aabbcbbccdccddeddeeaeeaab"      # five regions of five cells; no grid fills them
FIVE_BY_FIVE = "aaabbaabbbcccddccdddeeeee"


def run(main, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), messages(err.getvalue())


# --- 1. regions that admit no solved grid: one line, no traceback

def test_generating_on_regions_no_grid_fills_is_a_one_line_error():
    code, out, err = run(sudoku_main, "generate", "1", "--variant", "jigsaw", "--regions", IMPOSSIBLE_REGIONS,
                         "--seed", "1")
    assert code == 2 and out == ""
    assert err == ("sudoku: error: no 5x5 grid fills the jigsaw's regions: there is no solved grid to make a "
                   "puzzle from\n")
    with pytest.raises(ValueError, match="no 5x5 grid fills the jigsaw's regions"):
        sudoku.generate(variant=sudoku.jigsaw(IMPOSSIBLE_REGIONS), seed=1)


# --- 2. every answer read before the caller's iterable raised is yielded, then the error

def raising_after(n: int):
    for _ in range(n):
        yield INKALA
    raise OSError("the source went away")


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("solve", [sudoku.solve_all, sudoku.solve_many])
def test_answers_read_before_the_source_raised_are_not_lost(solve, jobs):
    got = []
    with pytest.raises(OSError, match="the source went away"):
        for answer in solve(raising_after(1000), jobs=jobs):
            got.append(answer)
    assert len(got) == 1000
    assert all((a.solution if solve is sudoku.solve_all else a) == INKALA_SOLUTION for a in got)


# --- 3, 4. a ZDD file is read as a family of sets of distinct options, or refused by ZDDError

@pytest.mark.parametrize("text, reason", [
    ("2: (~2147483649?0:1)\n3: (~0?0:2)\n", "line 1: option 2147483649 is beyond the largest"),
    ("2: (~100000000000000000000?0:1)\n3: (~0?0:2)\n", "line 1: option 100000000000000000000 is beyond"),
    ("2: (~0?0:1)\n3: (~1?2:1)\n4: (~0?0:3)\n", "line 3: a second node of variable 0"),
    ("2: (~1?0:1)\n3: (~1?0:2)\n4: (~0?0:3)\n", "option 1 is met twice on one path"),
    ("2: (~1?3:1)\n3: (~2?0:1)\n4: (~3?0:1)\n5: (~1?4:2)\n6: (~0?0:5)\n", "option 1 is met twice on one path"),
    ("2: (~\u0663?0:1)\n3: (~0?0:2)\n", "line 1: not a ZDD node"),
    ("2: (~1?0:0)\n3: (~0?0:2)\n", "line 1: node 2 has the empty sink as hi"),
    ("2: (~1?0:1)\n3: (~1?0:2)\n4: (~0?3:2)\n", "line 3: the root's marker .* has lo 3"),
])
def test_a_zdd_file_that_cannot_mean_a_family_of_sets_is_refused(tmp_path, text, reason):
    with pytest.raises(ZDDError, match=reason):
        ZDD.read(io.StringIO(text))
    path = tmp_path / "bad.zdd"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ZDDError, match=reason):
        ZDD.read(path)


def test_a_zdd_file_that_is_not_utf8_is_refused_by_line(tmp_path):
    path = tmp_path / "binary.zdd"
    path.write_bytes(b"2: (~1?0:1)\n3: (~0?0:2\xff)\n")
    with pytest.raises(ZDDError, match=r"binary.zdd, line 2: not UTF-8 text") as e:
        ZDD.read(path)
    assert e.value.line == 2


def test_a_zdd_is_read_from_a_stream_and_past_a_byte_order_mark(tmp_path):
    z = problems.dominoes(4, 4).zdd()
    text = io.StringIO()
    z.write(text)
    assert ZDD.read(io.StringIO(text.getvalue())) == z
    path = tmp_path / "bom.zdd"
    path.write_bytes(b"\xef\xbb\xbf" + text.getvalue().encode())
    assert ZDD.read(path) == z and ZDD.read(path).count() == 36


# --- 6. explain --full writes the steps as it finds them; Ctrl-C keeps what was written

class InterruptedAfter(io.StringIO):
    """A stdout that takes ``lines`` lines, then raises KeyboardInterrupt (Ctrl-C mid-write)."""

    def __init__(self, lines: int) -> None:
        super().__init__()
        self.lines = lines

    def write(self, text: str) -> int:
        n = super().write(text)
        if self.getvalue().count("\n") >= self.lines:
            raise KeyboardInterrupt
        return n


def test_explain_full_writes_as_it_goes_and_ctrl_c_keeps_what_was_written():
    out, err = InterruptedAfter(200), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = sudoku_main(["explain", "--full", "--max-nodes", "none", "." * 625])
    lines = out.getvalue().splitlines()
    assert code == 130
    assert 200 <= len(lines) < 300 and lines[0].startswith("1. ") and not any("Solved" in x for x in lines)
    assert messages(err.getvalue()).count("\n") == 1 and "interrupted" in err.getvalue()


def test_explain_full_of_several_puzzles_is_the_explanations_one_after_another(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(f"{INKALA}\n1234\n{INKALA}\n")
    code, out, _ = run(sudoku_main, "explain", "--full", str(path))
    one = run(sudoku_main, "explain", "--full", INKALA)[1]
    assert code == 1
    assert out == one + "# 1234\n\n" + one


# --- 7. the cells engine's batch rows search as a search of what their givens leave

def test_a_cells_batch_row_takes_the_nodes_of_a_cells_search_of_its_givens():
    shape = Shape.sided(9, None)
    batch = dlx.Batch(encode.problem(shape), [9] * 81, engine="cells")
    for line in (EXAMPLES / "top20.txt").read_text().split():
        values = parse(line)
        row = batch.solve(values[None, :], limit=2)
        left, _ = encode.remaining(values, shape)
        assert left.count(2, engine="cells") == row.counts[0] == 1
        assert row.nodes[0] == left.stats.nodes


# --- 8. the memo's bounds hold from the first byte and name the caller's bound

@pytest.mark.parametrize("jobs", [1, 2])
def test_max_bytes_holds_from_the_first_byte_and_names_the_callers_bound(jobs):
    with pytest.raises(TooLarge, match=r"max_bytes=1 bytes \(before the search began\)"):
        problems.dominoes(6, 6).zdd(max_bytes=1, jobs=jobs)
    with pytest.raises(TooLarge, match=r"max_bytes=200,000 bytes") as e:
        problems.dominoes(8, 8).zdd(max_bytes=200_000, jobs=2)
    assert e.value.bound == "max_bytes"
    assert problems.dominoes(6, 6).zdd(max_bytes=10_000_000, jobs=jobs).count() == 6728


# --- 9. the memo out of nodes exits 3, as the exit-status table says

def test_the_memo_out_of_nodes_exits_3():
    code, out, err = run(dlx_main, "dominoes", "16x16", "--count", "--memo", "--max-nodes", "1000")
    assert code == 3 and out == ""
    assert "the ZDD needs more than max_nodes=1,000 nodes" in err and err.count("\n") == 1


# --- 10. leftovers

@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_gives_one_answer_per_line(tmp_path, encoding):
    path = tmp_path / "puzzles.txt"
    path.write_text(f"{INKALA}\n{INKALA}\n", encoding=encoding)
    code, out, err = run(sudoku_main, "solve", str(path))
    assert (code, out, err) == (0, f"{INKALA_SOLUTION}\n{INKALA_SOLUTION}\n", "")
    piped = subprocess.run([sys.executable, "-m", "sudoku", "solve"], input=path.read_bytes(),
                           capture_output=True, timeout=300)
    assert piped.stdout.decode() == f"{INKALA_SOLUTION}\n{INKALA_SOLUTION}\n" and piped.returncode == 0


def test_solve_array_marks_an_unreadable_line_invalid_and_solves_the_rest():
    values, ok = read_array(f"{INKALA}\n{INKALA[:80]}x\n{INKALA}\n".encode())
    solved = sudoku.solve_array(values)
    assert ok.tolist() == [True, False, True]
    assert [str(dlx.status.of_code(int(c))) for c in solved.status] == ["solved", "invalid", "solved"]
    assert solved.counts.tolist() == [1, 0, 1] and not solved.grid[1].any()
    bad = np.array([parse(INKALA), parse(INKALA)], np.float64)
    bad[0, 0] = 2.5
    assert sudoku.solve_array(bad).status.tolist() == [dlx.status.INVALID, dlx.status.SOLVED]


def test_a_jigsaw_line_given_as_an_argument_is_a_puzzle():
    puzzle = "......1..4...25...1...5..," + FIVE_BY_FIVE
    code, out, err = run(sudoku_main, "solve", "--variant", "jigsaw", puzzle)
    assert (code, out, err) == (0, "4235151234341252541313542\n", "")


def test_generate_takes_the_size_of_a_jigsaws_regions():
    puzzle = sudoku.generate(variant=sudoku.jigsaw(FIVE_BY_FIVE), seed=1)
    assert len(puzzle) == 25 and sudoku.count(puzzle, variant=sudoku.jigsaw(FIVE_BY_FIVE), limit=2) == 1
    assert len(sudoku.generate(seed=1)) == 81


def test_explain_max_nodes_none_is_no_budget():
    code, out, _ = run(sudoku_main, "explain", INKALA, "--max-nodes", "none")
    assert code == 0 and out.splitlines()[-12].startswith("Solved:")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as e:
        sudoku_main(["explain", INKALA, "--max-nodes", "0"])
    assert e.value.code == 2 and "must be at least 1: 0 (or none, for no budget)" in err.getvalue()


# --- 5. Ctrl-C under --dask local: one line, no worker tracebacks; no dashboard served

#: The command in a process of its own group that says "searching" once the cluster takes its
#: first data, so that the signal lands while the Dask run is under way, as a terminal sends it.
ANNOUNCED = """
import distributed
import dlx.cli as cli
scatter = distributed.Client.scatter

def announced(self, *args, **kwargs):
    print("searching", flush=True)
    distributed.Client.scatter = scatter
    return scatter(self, *args, **kwargs)

distributed.Client.scatter = announced
cli.exit_now(lambda: cli.main(["queens", "16", "--count", "--dask", "local"]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
def test_ctrl_c_under_dask_local_is_one_line_from_the_whole_process_group():
    import os
    import signal
    child = subprocess.Popen([sys.executable, "-c", ANNOUNCED], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
    assert child.stdout.readline() == "searching\n"
    os.killpg(child.pid, signal.SIGINT)
    _, err = child.communicate(timeout=300)       # a hang, not a speed: an interrupted run ends at once
    assert child.returncode == 130
    assert messages(err) == "dlx: interrupted (the Dask tasks stopped)\n"


def test_a_local_cluster_serves_no_dashboard():
    import urllib.error
    import urllib.request

    from dlx import distributed
    with distributed.connect("local") as client:
        port = client.cluster.scheduler.http_server.port
        assert port != 8787
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/status", timeout=60)
        assert e.value.code == 404
