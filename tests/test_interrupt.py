"""Ctrl-C in the commands: a real SIGINT to a real process ends it promptly with exit status 130 and
one line on stderr saying what was done, no traceback."""
import signal
import subprocess
import sys
import time

import pytest

from dlx import problems, write_dlx

READY = ("import sys, {module}.cli as cli; print('ready', flush=True); "
         "cli.exit_now(lambda: cli.main({argv!r}))")


def interrupt(module: str, argv: list[str], stdin: str = "", wait: float = 1.0) -> tuple[int, str, float]:
    """Start the command in a process, SIGINT it ``wait`` seconds after its imports are done;
    returns (exit status, stderr, seconds from the signal to the exit)."""
    child = subprocess.Popen([sys.executable, "-c", READY.format(module=module, argv=argv)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "ready\n"
    child.stdin.write(stdin)
    child.stdin.close()
    child.stdin = None
    time.sleep(wait)
    assert child.poll() is None, "the command ended before the signal"
    child.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    out, err = child.communicate(timeout=30)
    return child.returncode, err, time.perf_counter() - sent


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_dlx_count_of_queens16_stops_on_sigint(tmp_path):
    path = write_dlx(problems.queens(16), tmp_path / "queens16.dlx")    # minutes of search
    status, err, seconds = interrupt("dlx", [str(path), "--count"])
    assert status == 130
    assert err.count("\n") == 1 and err.startswith("dlx: interrupted after ") and "nodes" in err
    assert seconds < 1.5


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sudoku_count_of_an_empty_grid_stops_on_sigint(jobs):
    status, err, seconds = interrupt("sudoku", ["count", "-", "--jobs", jobs], stdin="." * 81 + "\n")
    assert status == 130
    assert err == "sudoku: interrupted after 0 puzzles (0 solved, 0 no solution, 0 invalid; 0 nodes)\n"
    assert seconds < 1.5


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sudoku_generate_stops_on_sigint():
    child = subprocess.Popen([sys.executable, "-m", "sudoku", "generate", "1000000", "--quiet"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert len(child.stdout.readline()) == 82                       # the first puzzle is out
    child.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130 and time.perf_counter() - sent < 1.5
    assert err.count("\n") == 1 and err.startswith("sudoku: interrupted after ") and err.endswith(" puzzles\n")
    printed = 1 + len(out.split())
    assert int(err.split()[3]) in (printed, printed - 1)     # counted once written


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_dlx_trace_stops_on_sigint(tmp_path):
    path = write_dlx(problems.queens(16), tmp_path / "queens16.dlx")
    child = subprocess.Popen([sys.executable, "-m", "dlx", str(path), "--count", "--trace"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stderr.readline().startswith("L0: choose ")       # tracing has begun
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130
    assert err.rstrip("\n").split("\n")[-1].startswith("dlx: interrupted after ")
    assert "Traceback" not in err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_dlx_count_on_threads_stops_on_sigint(tmp_path):
    path = write_dlx(problems.queens(16), tmp_path / "queens16.dlx")
    status, err, seconds = interrupt("dlx", [str(path), "--count", "--jobs", "2"])
    assert (status, err) == (130, "dlx: interrupted (2 threads stopped)\n")
    assert seconds < 1.5


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_dlx_count_on_a_local_dask_cluster_stops_on_sigint(tmp_path):
    pytest.importorskip("distributed")
    path = write_dlx(problems.queens(16), tmp_path / "queens16.dlx")
    status, err, seconds = interrupt("dlx", [str(path), "--count", "--dask", "local"], wait=6.0)
    assert (status, err) == (130, "dlx: interrupted (the Dask tasks stopped)\n")
    assert seconds < 10        # the cluster's workers, busy in kernels, are ended with it


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sudoku_waiting_for_typed_input_stops_on_sigint(jobs):
    run = subprocess.Popen([sys.executable, "-m", "sudoku", "solve", "--jobs", jobs], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    run.stdin.write("1" + "." * 15 + "\n")
    run.stdin.flush()
    assert run.stdout.readline() == "1234341221434321\n"      # answered; now it waits for the next line
    started = time.perf_counter()
    run.send_signal(signal.SIGINT)
    assert run.wait(timeout=30) == 130 and time.perf_counter() - started < 5
    assert run.stderr.read() == "sudoku: interrupted after 1 puzzles (1 solved, 0 no solution, 0 invalid; 16 nodes)\n"
    for stream in (run.stdin, run.stdout, run.stderr):
        stream.close()
