"""The dlx command, in process and as a real subprocess."""
import json
import subprocess
import sys

import pytest
from support import EXAMPLES, messages

from dlx import read_dlx
from dlx.cli import main


def test_count(capsys):
    assert main([str(EXAMPLES / "queens8.dlx"), "--count"]) == 0
    assert capsys.readouterr().out == "92\n"


def test_prints_solutions_as_item_names(capsys):
    assert main([str(EXAMPLES / "knuth.dlx")]) == 0
    assert capsys.readouterr().out == "c e\na d f\nb g\n"


def test_solutions_separated_by_blank_lines(capsys):
    assert main([str(EXAMPLES / "queens4.dlx")]) == 0
    blocks = capsys.readouterr().out.split("\n\n")
    assert len(blocks) == 2
    problem = read_dlx(EXAMPLES / "queens4.dlx")
    options = {frozenset(problem.option(k)) for k in range(problem.n_options)}
    for block in blocks:
        rows = block.strip().split("\n")
        assert len(rows) == 4 and all(frozenset(row.split()) in options for row in rows)
        assert sorted(name for row in rows for name in row.split() if name[0] in "rc") == sorted(
            f"{rc}{i}" for rc in "rc" for i in range(4))


def test_no_solution_prints_nothing(tmp_path, capsys):
    path = tmp_path / "none.dlx"
    path.write_text("a b c\na b\nb c\n")
    assert main([str(path)]) == 0
    assert capsys.readouterr().out == ""
    assert main([str(path), "--count"]) == 0
    assert capsys.readouterr().out == "0\n"


def test_bad_file_exits_nonzero_naming_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.dlx"
    bad.write_text("a b\na\nb q\n")
    assert main([str(bad)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "line 3: unknown item 'q'" in captured.err


def test_missing_file(tmp_path, capsys):
    assert main([str(tmp_path / "nope.dlx"), "--count"]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_python_m_dlx(tmp_path):
    ok = subprocess.run([sys.executable, "-m", "dlx", str(EXAMPLES / "queens8.dlx"), "--count"],
                        capture_output=True, text=True, check=False)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout == "92\n"
    bad = tmp_path / "bad.dlx"
    bad.write_text("a\n\na a\n")
    failed = subprocess.run([sys.executable, "-m", "dlx", str(bad)], capture_output=True, text=True, check=False)
    assert failed.returncode == 1
    assert "line 3: item 'a' appears twice" in failed.stderr


def run_dlx(*args, stdin=None):
    """`python -m dlx ...` in a fresh process, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "dlx", *map(str, args)], input=stdin,
                          capture_output=True, text=True, check=False)


def test_stdin_limit_and_stats_end_to_end():
    text = (EXAMPLES / "queens8.dlx").read_text()
    done = run_dlx("-", "--count", "--stats", stdin=text)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "92\n"
    seconds = stats_seconds(done.stderr)
    assert messages(done.stderr) == (f"Altogether 92 solutions, 16680 updates, 1049 nodes, {seconds} seconds, "
                                     "engine dlx.\n")
    first_two = run_dlx("-", "--limit", "2", stdin=text)
    assert first_two.returncode == 0
    solutions = [block.splitlines() for block in first_two.stdout.split("\n\n")]
    problem = read_dlx(EXAMPLES / "queens8.dlx")
    assert solutions == [[" ".join(problem.option(k)) for k in s] for s in problem.solutions(limit=2)]


def stats_seconds(line):
    return line.split(" nodes, ")[1].split()[0]


def test_limit_and_count(capsys):
    assert main([str(EXAMPLES / "queens8.dlx"), "--count", "--limit", "10"]) == 0
    assert capsys.readouterr().out == "10\n"
    assert main([str(EXAMPLES / "queens8.dlx"), "--count", "--limit", "0"]) == 0
    assert capsys.readouterr().out == "0\n"


def test_node_budget_says_it_ran_out(capsys):
    assert main([str(EXAMPLES / "queens8.dlx"), "--count", "--max-nodes", "100", "--stats"]) == 3
    captured = capsys.readouterr()
    assert captured.out == "10\n"                 # the solutions met within the first 100 nodes
    assert "Altogether 10 solutions, 1663 updates, 100 nodes" in captured.err
    assert "budget of 100 nodes ran out" in captured.err
    # a budget that suffices changes nothing
    assert main([str(EXAMPLES / "queens8.dlx"), "--count", "--max-nodes", "1049"]) == 0
    assert capsys.readouterr().out == "92\n"


@pytest.mark.parametrize("args, message", [
    (["--limit", "-1"], "must not be negative"), (["--max-nodes", "lots"], "not a whole number")])
def test_bad_arguments_are_usage_errors(args, message, capsys):
    with pytest.raises(SystemExit) as info:
        main([str(EXAMPLES / "knuth.dlx"), *args])
    assert info.value.code == 2 and message in capsys.readouterr().err


def test_bad_stdin_names_the_line():
    bad = run_dlx("-", stdin="a b\na\nb zz\n")
    assert bad.returncode == 1 and bad.stdout == ""
    assert "dlx: error: <stdin>, line 3: unknown item 'zz'" in bad.stderr


def test_trace_prints_every_step_on_stderr(capsys):
    assert main([str(EXAMPLES / "knuth.dlx"), "--trace", "--stats"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "c e\na d f\nb g\n"
    steps = messages(captured.err).splitlines()
    assert steps[0] == "L0: choose a (2 options)"
    assert steps[1] == "L0: try 1 of 2: a d g"
    assert "L3: solution 1" in steps
    assert steps[-2] == "L0: backtrack from a"
    # a node per choice, dead end and solution, as --stats counts them
    nodes = sum(" choose " in s or "dead end" in s or "solution " in s for s in steps[:-1])
    assert f"{nodes} nodes" in steps[-1]


def test_seed_reorders_the_search_not_its_answers(capsys):
    queens = str(EXAMPLES / "queens8.dlx")
    assert main([queens, "--limit", "1"]) == 0
    plain = capsys.readouterr().out
    firsts = set()
    for seed in range(6):
        assert main([queens, "--limit", "1", "--seed", str(seed)]) == 0
        firsts.add(capsys.readouterr().out)
        assert main([queens, "--count", "--seed", str(seed)]) == 0
        assert capsys.readouterr().out == "92\n"
    assert len(firsts) > 2
    assert main([queens, "--limit", "1", "--seed", "5"]) == 0
    assert capsys.readouterr().out in firsts                 # the same seed, the same first solution
    assert plain.count("\n") == 8


def test_trace_needs_dlx1(capsys):
    assert main([str(EXAMPLES / "knuth.dlx"), "--trace", "--engine", "cells"]) == 1
    assert "a trace is recorded by the dlx engine" in capsys.readouterr().err


# --- standard input without a file, and the classics by name with their pictures

def test_standard_input_without_a_file():
    run = subprocess.run([sys.executable, "-m", "dlx", "--count"], input=(EXAMPLES / "queens8.dlx").read_text(),
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0 and run.stdout == "92\n"


def test_classics_by_name_are_counted_and_drawn(capsys):
    assert main(["queens", "8", "--count"]) == 0 and capsys.readouterr().out == "92\n"
    assert main(["langford", "7", "--count"]) == 0 and capsys.readouterr().out == "26\n"
    assert main(["queens", "6"]) == 0
    boards = capsys.readouterr().out.strip().split("\n\n")
    assert len(boards) == 4
    for board in boards:
        rows = [row.split() for row in board.split("\n")]
        queens = [(r, row.index("Q")) for r, row in enumerate(rows)]
        assert all(row.count("Q") == 1 for row in rows) and sorted(c for _, c in queens) == list(range(6))
        assert len({r + c for r, c in queens}) == len({r - c for r, c in queens}) == 6
    assert main(["langford", "4"]) == 0
    (sequence,) = capsys.readouterr().out.split("\n\n")
    numbers = list(map(int, sequence.split()))
    for k in range(1, 5):
        first, second = [j for j, v in enumerate(numbers) if v == k]
        assert second - first == k + 1
    assert main(["pentominoes", "3x20", "--limit", "1"]) == 0
    box = capsys.readouterr().out.split()
    assert len(box) == 3 and all(len(row) == 20 for row in box)
    pieces = "".join(box)
    assert sorted(set(pieces)) == sorted("FILNPTUVWXYZ") and all(pieces.count(p) == 5 for p in "FILNPTUVWXYZ")


def test_classics_in_json_and_knuths_format(capsys):
    assert main(["queens", "4", "--format", "json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["solution"] for r in records] == [1, 2]
    assert records[0]["picture"] == [". Q . .", ". . . Q", "Q . . .", ". . Q ."]
    assert records[0]["options"][0] == ["r0", "c1", "a1", "b4"]
    assert main(["queens", "4", "--format", "dlx", "--limit", "1"]) == 0
    assert capsys.readouterr().out == "r0 c1 a1 b4\nr1 c3 a4 b5\nr2 c0 a2 b1\nr3 c2 a5 b2\n"
    assert main(["queens", "8", "--jobs", "2", "--count"]) == 0 and capsys.readouterr().out == "92\n"


@pytest.mark.parametrize("argv, message", [
    (["queens", "eight"], "queens takes one whole number (default 8), not 'eight'"),
    (["pentominoes", "7x7"], "the twelve pentominoes cover 60 cells, not 7x7 = 49"),
    (["pentominoes", "big"], "pentominoes take a box as RxC"),
    (["a.dlx", "b.dlx"], "one file at a time, or a problem by name"),
])
def test_bad_classic_arguments_are_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2 and message in capsys.readouterr().err


# --- what a terminal sees, what a pipe gets

def on_a_terminal(*args: str) -> tuple[str, str]:
    """``python -m dlx ARGS`` with stdout on a pseudo-terminal (stderr a pipe): what each got."""
    pty = pytest.importorskip("pty")
    import os
    leader, follower = pty.openpty()
    child = subprocess.Popen([sys.executable, "-m", "dlx", *args], stdout=follower, stderr=subprocess.PIPE)
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 1 << 16)
        except OSError:         # EIO: the child closed its end
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    err = child.stderr.read()
    assert child.wait() == 0, err
    return out.decode().replace("\r\n", "\n"), messages(err.decode())


def boards(text: str) -> list[str]:
    return [b for b in text.strip("\n").split("\n\n") if b.startswith((".", "Q"))]


def test_a_terminal_sees_three_solutions_then_the_count():
    out, _ = on_a_terminal("queens", "6")
    assert len(boards(out)) == 3
    assert out.endswith("\n\n4 solutions (3 shown; --all prints every one)\n")
    every, _ = on_a_terminal("queens", "6", "--all")
    assert len(boards(every)) == 4 and every.endswith("\n\n4 solutions\n")
    assert boards(every)[:3] == boards(out)


def test_a_terminal_hears_of_no_solutions():
    assert on_a_terminal("queens", "3") == ("0 solutions\n", "")
    assert on_a_terminal("queens", "1") == ("Q\n\n1 solution\n", "")


def test_a_pipe_gets_every_solution_and_nothing_else():
    done = subprocess.run([sys.executable, "-m", "dlx", "queens", "6", "--format", "dlx"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.count("\n\n") == 3 and "solution" not in done.stdout
    none = subprocess.run([sys.executable, "-m", "dlx", "queens", "3"], capture_output=True, text=True)
    assert (none.returncode, none.stdout, messages(none.stderr)) == (0, "", "")


def test_a_reader_that_goes_away_ends_the_command_quietly():
    child = subprocess.Popen([sys.executable, "-m", "dlx", "queens", "12"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    assert b"Q" in child.stdout.readline()
    child.stdout.close()
    assert child.wait() == 1
    assert messages(child.stderr.read().decode()) == ""


def test_the_progress_line_says_solutions_and_nodes(capsys):
    from dlx.cli import _Progress
    from dlx.search import SearchStats
    from dlx.status import Status
    stats = SearchStats(solutions=12, nodes=3456789, updates=0, cleansings=0, seconds=0.0,
                        status=Status.RUNNING, engine="dlx")
    with _Progress(lambda: stats, enabled=True, after=3600) as progress:
        progress.tick()         # what the watching thread does every half second
        assert "dlx: 12 solutions, 3,456,789 nodes so far" in capsys.readouterr().err
    assert "nodes" not in capsys.readouterr().err       # the line is cleared at the end
    with _Progress(lambda: stats, enabled=False) as progress:
        progress.tick()
        assert capsys.readouterr().err == ""


def test_help_lists_every_exit_status_and_keeps_the_examples_whole(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for status in ("0", "1", "2", "3", "130"):
        assert f"\n  {status:<4} " in out
    assert "\n  dlx queens 12 --count --stats\n" in out


def test_an_engine_that_cannot_take_the_problem_is_named_as_a_flag(capsys):
    assert main([str(EXAMPLES / "bounds.dlx"), "--engine", "compact"]) == 1
    err = capsys.readouterr().err
    assert "--engine compact: the compact engine takes no multiplicities" in err
    assert "engine='dlx'" not in err


def test_a_missing_file_is_named(capsys, tmp_path):
    assert main([str(tmp_path / "nope.dlx")]) == 1
    assert capsys.readouterr().err == f"dlx: error: {tmp_path / 'nope.dlx'}: cannot read: No such file or directory\n"


def test_arguments_and_flags_may_be_intermixed(capsys):
    for argv in (["queens", "--count", "8"], ["--count", "queens", "8"], ["queens", "8", "--count"]):
        assert not main(argv)
        assert capsys.readouterr().out == "92\n"


def test_warm_has_a_task_for_every_engine_and_runs_them_in_a_pool(monkeypatch, capsys):
    from dlx import engines, warm
    from dlx.checks import jobs

    labels = [label for label, _ in warm.tasks()]
    assert len(labels) == len(set(labels))
    for machine in [*engines.machines(), *engines.OPTIMISERS.values()]:
        if machine.name != "compact":
            assert sum(label.startswith(f"{machine.name}: ") for label in labels) >= len(machine.samples), machine.name
    assert [label for label in labels if label.startswith("compact")] == [
        f"compact, {bits}-bit words: search, batch, reduce" for bits in (16, 32, 64)]
    assert "memo: ZDD" in labels
    two = ("dlx1: search (queens)", "compact, 16-bit words: search, batch, reduce")
    chosen = [t for t in warm.tasks() if t[0] in two]
    monkeypatch.setattr(warm, "tasks", lambda: chosen)
    assert main(["warm", "--jobs", "2"]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert messages(err).splitlines() == [
        f"dlx: compiling every kernel once (2 tasks on {min(jobs(2), 2)} cores; later runs load them from "
        "numba's cache)...",
        "dlx: 2 tasks done: every kernel is in numba's cache"]
