"""Ctrl-C in the commands: a real SIGINT to a real process ends it with exit status 130 and one line
on stderr saying what was done, no traceback. The signal is sent once the search has begun (the
process says so), and no clock is read: a run the signal failed to stop searches on for minutes,
and the guard on the wait fails it."""
import re
import signal
import subprocess
import sys

import pytest
from support import messages

from dlx import problems, write_dlx

#: The command in a process that says "searching" on stdout when ``owner.name`` is called for the
#: ``nth`` time (the search has begun), so the signal lands in the search, not where a clock put it.
ANNOUNCED = """
import importlib, itertools, threading
import {module}.cli as cli
owner = importlib.import_module({owner!r})
for part in {path!r}:
    holder, owner = owner, getattr(owner, part)
calls, lock = itertools.count(1), threading.Lock()

def announced(*args, **kwargs):
    with lock:
        if next(calls) == {nth}:
            print("searching", flush=True)
    return owner(*args, **kwargs)

setattr(holder, {path!r}[-1], announced)
cli.exit_now(lambda: cli.main({argv!r}))
"""


def interrupt(module: str, argv: list[str], when: str, nth: int = 1, stdin: str = "") -> tuple[int, str]:
    """Start the command in a process and SIGINT it when ``when`` (``module:attribute.path``, a
    function of the search) is called for the ``nth`` time; returns (exit status, stderr)."""
    owner, path = when.split(":")
    script = ANNOUNCED.format(module=module, owner=owner, path=path.split("."), nth=nth, argv=argv)
    child = subprocess.Popen([sys.executable, "-c", script],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    child.stdin.write(stdin)
    child.stdin.close()
    child.stdin = None
    for line in child.stdout:       # the solutions a command prints before, then the announcement
        if line == "searching\n":
            break
    else:
        raise AssertionError("the command ended before the search began")
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=300)       # a hang, not a speed: an interrupted run ends at once
    return child.returncode, err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_dlx_count_of_queens16_stops_on_sigint(tmp_path):
    path = write_dlx(problems.queens(16), tmp_path / "queens16.dlx")    # minutes of search
    status, err = interrupt("dlx", [str(path), "--count"], "dlx.search:Search.count", 1)
    assert status == 130
    assert re.fullmatch(r"dlx: interrupted after \d+ solutions?, \d+ nodes, \d+ updates, [\d.]+ seconds\n", err)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_dlx_memo_count_stops_on_sigint(jobs):
    # seconds of memoised search on one thread; the signal lands after the memo has grown twice
    status, err = interrupt("dlx", ["dominoes", "18x18", "--count", "--memo", "--jobs", jobs],
                            "dlx.memo:Builder._grow_memo", 3)
    assert status == 130
    assert messages(err) == "dlx: interrupted (the memoised search stopped)\n"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("jobs, search", [("1", "dlx.search:Search.count"), ("2", "dlx.parallel:run")])
def test_sudoku_count_of_an_empty_grid_stops_on_sigint_with_the_count_so_far(jobs, search):
    status, err = interrupt("sudoku", ["count", "-", "--jobs", jobs], search, stdin="." * 81 + "\n")
    assert status == 130
    assert re.fullmatch(r"sudoku: interrupted after 0 puzzles \(0 solved, 0 no solution, 0 invalid; 0 nodes\); "
                        r"line 1: at least [\d,]+ solutions so far \([\d,]+ nodes\)\n", err)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sudoku_count_of_many_puzzles_stops_on_sigint():
    status, err = interrupt("sudoku", ["count", "-"], "dlx.batch:Batch.solve", 2, stdin=("." * 81 + "\n") * 3)
    assert status == 130
    assert err == "sudoku: interrupted after 0 puzzles (0 solved, 0 no solution, 0 invalid; 0 nodes)\n"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sudoku_generate_stops_on_sigint():
    child = subprocess.Popen([sys.executable, "-m", "sudoku", "generate", "1000000", "--quiet"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = child.stdout.readline()
    assert len(first) == 82                                         # the first puzzle is out
    child.send_signal(signal.SIGINT)
    out = first + child.stdout.read()          # what readline buffered too, which communicate skips
    err = child.stderr.read()
    assert child.wait(timeout=300) == 130
    assert err.count("\n") == 1 and err.startswith("sudoku: interrupted after ") and err.endswith(" puzzles\n")
    printed = len(out.split())
    assert int(err.split()[3]) in (printed, printed - 1)     # counted once written


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_dlx_trace_stops_on_sigint(tmp_path):
    path = write_dlx(problems.queens(16), tmp_path / "queens16.dlx")
    child = subprocess.Popen([sys.executable, "-m", "dlx", str(path), "--count", "--trace"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stderr.readline().startswith("L0: choose ")       # tracing has begun
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=300)
    assert child.returncode == 130
    assert err.rstrip("\n").split("\n")[-1].startswith("dlx: interrupted after ")
    assert "Traceback" not in err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_dlx_count_on_threads_stops_on_sigint(tmp_path):
    path = write_dlx(problems.queens(16), tmp_path / "queens16.dlx")
    status, err = interrupt("dlx", [str(path), "--count", "--jobs", "2"], "dlx.parallel:run")
    assert (status, err) == (130, "dlx: interrupted (2 threads stopped)\n")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_dlx_count_on_a_local_dask_cluster_stops_on_sigint(tmp_path):
    pytest.importorskip("distributed")
    path = write_dlx(problems.queens(16), tmp_path / "queens16.dlx")
    status, err = interrupt("dlx", [str(path), "--count", "--dask", "local"], "dlx.distributed:gather")
    assert (status, err) == (130, "dlx: interrupted (the Dask tasks stopped)\n")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sudoku_waiting_for_typed_input_stops_on_sigint(jobs):
    run = subprocess.Popen([sys.executable, "-m", "sudoku", "solve", "--jobs", jobs], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    run.stdin.write("1" + "." * 15 + "\n")
    run.stdin.flush()
    assert run.stdout.readline() == "1234341221434321\n"      # answered; now it waits for the next line
    run.send_signal(signal.SIGINT)
    assert run.wait(timeout=300) == 130
    assert run.stderr.read() == "sudoku: interrupted after 1 puzzles (1 solved, 0 no solution, 0 invalid; 16 nodes)\n"
    for stream in (run.stdin, run.stdout, run.stderr):
        stream.close()


#: A command whose finalizer receives Ctrl-C: the interrupt must not be lost there.
FINALIZER = """
import signal, time
from dlx.commands import exit_now

class Pressed:
    def __del__(self):
        signal.raise_signal(signal.SIGINT)

def main():
    try:
        Pressed()
        for _ in range(3000):
            time.sleep(0.01)
        return 0
    except KeyboardInterrupt:
        print("interrupted")
        return 130

exit_now(main)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_that_lands_in_a_finalizer_is_raised_again():
    done = subprocess.run([sys.executable, "-c", FINALIZER], capture_output=True, text=True, timeout=300,
                          check=False)
    assert (done.returncode, done.stdout, done.stderr) == (130, "interrupted\n", "")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_dlx_cheapest_stops_on_sigint_with_the_best_so_far(tmp_path):
    path = write_dlx(problems.weighted_queens(16), tmp_path / "queens16.dlx")      # minutes with k=5000
    status, err = interrupt("dlx", [str(path), "--cheapest", "5000"], "dlx.engines.dlx5:search", 3)  # 1: the load
    assert status == 130
    assert re.fullmatch(r"dlx: interrupted after \d+ improving solutions, best cost \$\d+ so far, \d+ nodes, "
                        r"[\d.]+ seconds\n", err)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_dlx_cheapest_on_threads_stops_on_sigint(tmp_path):
    path = write_dlx(problems.weighted_queens(16), tmp_path / "queens16.dlx")
    status, err = interrupt("dlx", [str(path), "--cheapest", "5000", "--jobs", "2"], "dlx.engines.dlx5:search", 3)
    assert status == 130
    assert re.fullmatch(r"dlx: interrupted \((best cost \$\d+|no solution) so far; the threads stopped\)\n", err)
