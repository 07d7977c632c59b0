"""Every command on every shape (issue 41): 4x4, 6x6 with 2x3 and 3x2 boxes, 8x8, 9x9, 12x12 with
3x4 and 4x3 boxes, 16x16, jigsaws of 9x9 and of prime sides (5x5, 7x7), and the variants, through
every API function and every subcommand, each answer judged by the tests' one rules judge
(support.assert_solves), written from the rules alone (rows, columns, boxes or regions, diagonals,
windows, cages)."""
from __future__ import annotations

import itertools
import json
import select
import subprocess
import sys

import numpy as np
import pytest
from support import EXAMPLES, INKALA, assert_solves, messages

import sudoku
from sudoku import explainer
from sudoku.cli import main
from sudoku.files import read_lines
from sudoku.grid import parse

#: (side, box) of the boxed shapes; box None: the squarest
BOXED = [(4, None), (6, "2x3"), (6, "3x2"), (8, None), (9, None), (12, "3x4"), (12, "4x3"), (16, None)]
JIGSAW5 = "AAABB AABBB CCCDD CCDDE EEEDE"
JIGSAW7 = "AAAABBB AAABBBB CCCCDDD CCCDDDD EEEFFFG EEFFFGG EEFGGGG"
JIGSAW9 = ("AAABBBCCCAAABBBCCCAAABBBCCCDDDEEFFFFDDDDEEEFFDDEEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII")


def layouts():
    """Every shape as (id, side, box, variant, command-line options, how a line carries a puzzle)."""
    for side, box in BOXED:
        yield f"{side}x{side}" + (f"-{box}" if box else ""), side, box, None, ["--box", box] if box else [], None
    for side, regions in ((5, JIGSAW5), (7, JIGSAW7), (9, JIGSAW9)):
        labels = regions.replace(" ", "")
        yield f"jigsaw{side}", side, None, sudoku.jigsaw(labels), ["--variant", "jigsaw"], labels
    yield "x9", 9, None, "x", ["--variant", "x"], None
    yield "windoku9", 9, None, "windoku", ["--variant", "windoku"], None


LAYOUTS = list(layouts())


@pytest.fixture(scope="module", params=LAYOUTS, ids=[layout[0] for layout in LAYOUTS])
def layout(request):
    name, side, box, variant, options, regions = request.param
    puzzle = sudoku.generate(seed=side, size=side, box=box, variant=variant)
    return side, box, variant, options, regions, puzzle


def line_of(puzzle: str, regions: str | None) -> str:
    """The input line for a puzzle: a jigsaw's carries its regions."""
    return puzzle if regions is None else f"{puzzle},{regions}"


def test_every_api_function(layout):
    side, box, variant, _, _, puzzle = layout
    assert len(puzzle) == side * side
    how = {"box": box, "variant": variant}
    solution = sudoku.solve(puzzle, **how)
    assert_solves(puzzle, solution, box=box, variant=variant)
    assert sudoku.count(puzzle, **how) == 1 and sudoku.is_unique(puzzle, **how)
    rating = sudoku.rate(puzzle, **how)
    assert rating.level in sudoku.rating.LEVELS and rating.nodes >= np.count_nonzero(parse(puzzle, boxes=False) == 0)
    disguised = sudoku.shuffle(puzzle, seed=3, **how)
    assert sudoku.count(disguised, limit=2, **how) == 1
    assert_solves(disguised, sudoku.solve(disguised, **how), box=box, variant=variant)
    assert (np.count_nonzero(parse(disguised, boxes=False)) == np.count_nonzero(parse(puzzle, boxes=False)))
    steps, found = explainer.steps(puzzle, **how)
    assert found == solution and steps[-1].kind == "solved"
    shown, grid = told_grid(sudoku.explain(puzzle, full=True, **how))
    assert len(shown) == len(steps) - 1 and all(line.startswith(f"{k}. ") for k, line in enumerate(shown, 1))
    assert_solves(puzzle, grid, box=box, variant=variant)


def told_grid(told: str) -> tuple[list[str], str]:
    """An explanation's step lines, and the grid it ends with."""
    head, tail = told.split("\nSolved: ")
    return [line for line in head.split("\n") if line[:1].isdigit()], tail.split("\n", 1)[1]


def test_every_subcommand(layout, tmp_path, capsys):
    side, box, variant, options, regions, puzzle = layout
    path = tmp_path / "in.txt"
    path.write_text("# a comment\n" + line_of(puzzle, regions) + "\n")
    solution = sudoku.solve(puzzle, box=box, variant=variant)
    assert main(["solve", str(path), *options]) == 0
    assert capsys.readouterr().out.split("\n")[:2] == ["# a comment", solution]
    assert main(["count", str(path), *options, "--format", "jsonl"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records[1]["count"] == 1 and records[1]["status"] == "complete"
    assert main(["rate", str(path), *options]) == 0
    score, level = capsys.readouterr().out.split("\n")[1].split()
    assert level == sudoku.rate(puzzle, box=box, variant=variant).level
    assert main(["shuffle", str(path), *options, "--seed", "5"]) == 0
    disguised, *layout = capsys.readouterr().out.split("\n")[1].split(",")
    assert layout == ([] if regions is None else [sudoku.variants.regions_text(sudoku.jigsaw(regions))])
    assert sudoku.count(disguised, limit=2, box=box, variant=variant) == 1
    assert main(["explain", str(path), *options, "--steps", "3"]) == 0
    told = capsys.readouterr().out
    assert told.startswith("# a comment\n1. ")
    assert_solves(puzzle, told_grid(told)[1], box=box, variant=variant)
    made = ["generate", "2", "--seed", "1", "--size", str(side)] + (["--box", box] if box else [])
    if regions is not None:
        made += ["--variant", "jigsaw", "--regions", regions]
    elif variant is not None:
        made += ["--variant", variant]
    assert main(made) == 0
    for line in capsys.readouterr().out.split():
        new, *layout = line.split(",")
        assert layout == ([] if regions is None else [sudoku.variants.regions_text(sudoku.jigsaw(regions))])
        assert sudoku.count(new, limit=2, box=box, variant=variant) == 1
        assert_solves(new, sudoku.solve(new, box=box, variant=variant), box=box, variant=variant)


def test_sixteen_by_sixteen_with_other_symbols(capsys):
    puzzle = sudoku.generate(seed=2, size=16, symbols="0-F")
    assert set(puzzle) <= set(".0123456789ABCDEF") and "0" in puzzle
    solution = sudoku.solve(puzzle, symbols="0-F")
    assert_solves(puzzle, solution, symbols="0-F")
    assert sudoku.rate(puzzle, symbols="0-F").level in sudoku.rating.LEVELS
    shuffled = sudoku.shuffle(puzzle, seed=1, symbols="0-F")
    assert_solves(shuffled, sudoku.solve(shuffled, symbols="0-F"), symbols="0-F")
    assert main(["explain", puzzle, "--symbols", "0-F", "--steps", "2"]) == 0
    out = capsys.readouterr().out
    assert "0" in out.split("Solved:")[1] and "G" not in out


def test_killer_rates_and_explains_but_does_not_shuffle(capsys):
    line = (EXAMPLES / "killer.txt").read_text().split("\n")[2]
    _, cages, sums = line.split(",")
    rules = sudoku.killer(cages, sums)
    assert sudoku.rate("." * 81, variant=rules).level in sudoku.rating.LEVELS
    told = sudoku.explain("." * 81, variant=rules, full=True)
    assert "cage 1 can only hold {" in told
    assert_solves("." * 81, told_grid(told)[1], variant=rules)
    with pytest.raises(sudoku.PuzzleError, match="no transformation keeps a killer's cages"):
        sudoku.shuffle("." * 81, variant=rules)
    assert main(["shuffle", str(EXAMPLES / "killer.txt"), "--variant", "killer"]) == 1
    assert "no transformation keeps a killer's cages" in capsys.readouterr().err
    with pytest.raises(ValueError, match="killer puzzles are not generated"):
        sudoku.generate(variant=rules)


def test_x_rate_and_explain_speak_of_diagonals(capsys):
    puzzles = [p for p in (EXAMPLES / "x.txt").read_text().split("\n") if p and not p.startswith("#")]
    assert main(["rate", str(EXAMPLES / "x.txt"), "--variant", "x"]) == 0
    rated = [line for line in capsys.readouterr().out.split("\n") if line and not line.startswith("#")]
    assert len(rated) == len(puzzles)
    told = "\n".join(sudoku.explain(p, variant="x", full=True) for p in puzzles)
    assert "within diagonal" in told


def test_jigsaw_at_prime_sides_solves_counts_and_refuses_boxes():
    labels = JIGSAW5.replace(" ", "")
    rules = sudoku.jigsaw(labels)
    assert sudoku.count("." * 25, variant=rules) == fill_count(labels)
    with pytest.raises(sudoku.PuzzleError, match="5 is prime; a jigsaw's regions can replace them"):
        sudoku.solve("." * 25)
    with pytest.raises(sudoku.PuzzleError, match="regions: 'A' has 6 cells, not 5"):
        sudoku.jigsaw("AAABB AABBA CCCDD CCDDE EEEDE".replace(" ", ""))


def fill_count(labels: str) -> int:
    """The grids of ``labels`` (a jigsaw's regions) filled by the rules, counted row by row over
    permutations, with no exact cover."""
    side = int(len(labels) ** 0.5)
    region = [labels[r * side:(r + 1) * side] for r in range(side)]
    rows = list(itertools.permutations(range(1, side + 1)))

    def fill(r: int, columns: list[set], regions: dict) -> int:
        if r == side:
            return 1
        total = 0
        for row in rows:
            if any(v in columns[c] or v in regions.get(region[r][c], ()) for c, v in enumerate(row)):
                continue
            for c, v in enumerate(row):
                columns[c].add(v)
                regions.setdefault(region[r][c], set()).add(v)
            total += fill(r + 1, columns, regions)
            for c, v in enumerate(row):
                columns[c].discard(v)
                regions[region[r][c]].discard(v)
        return total
    return fill(0, [set() for _ in range(side)], {})


def test_one_name_each_notion():
    """``size`` is the grid's side everywhere, ``box`` its boxes."""
    assert len(sudoku.generate(seed=1, size=6, box="3x2")) == 36
    assert [e.puzzle is not None for e in read_lines(["1 2 3 4", ". . . .", ". . . .", ". . . ."], size=4)] == [True]
    with pytest.raises(ValueError, match="the grid's side, 4 to 16"):
        sudoku.generate(size=25)
    with pytest.raises(ValueError, match="boxes of 2x3 make a 6x6 grid, not 9x9"):
        sudoku.generate(size=9, box="2x3")


# --- one way in: several files, arguments, CSV columns


def test_every_subcommand_takes_arguments_files_and_csv(tmp_path, capsys):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(INKALA + "\n")
    second.write_text("id,grid\n7," + INKALA + "\n")
    for command in ("solve", "count", "rate", "shuffle", "explain"):
        assert main([command, INKALA, str(first), "--quiet"]) == 0, command
        out = capsys.readouterr().out
        assert out.count("\n") >= 2, command
        assert main([command, str(second)]) == 2, command          # no puzzle column: a usage error
        err = messages(capsys.readouterr().err)
        assert "no puzzle column" in err and "'id', 'grid'" in err and "--column" in err
        assert main([command, str(second), "--column", "grid", "--format", "jsonl"]) == 0, command
        records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert len(records) == 1 and records[0]["fields"] == {"id": "7", "grid": INKALA}, command


def test_count_takes_no_pretty_format(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["count", INKALA, "--format", "pretty"])
    assert exit.value.code == 2


# --- count of one puzzle: the split search, and --stats


def test_count_of_one_puzzle_on_threads_equals_one_thread(capsys):
    puzzle = "............6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    results = []
    for jobs in ("1", "2"):
        assert main(["count", puzzle, "--jobs", jobs, "--stats", "--format", "jsonl"]) == 0
        captured = capsys.readouterr()
        results.append(json.loads(captured.out))
        assert messages(captured.err).startswith("1 puzzle: 1 solved, 0 no solution, 0 invalid; ")
        assert messages(captured.err).endswith(f" s, {results[-1]['nodes']:,} nodes\n")
    assert results[0] == results[1] and results[0]["count"] == 549603


# --- streams: a program that writes one line and waits gets its answer


def ask(child: subprocess.Popen, line: str) -> str:
    """Write one line to a running command and read one line of its answer. The wait is a guard
    against a hang (a minute), not a measure of speed."""
    child.stdin.write(line + "\n")
    child.stdin.flush()
    ready, _, _ = select.select([child.stdout], [], [], 60)
    assert ready, f"no answer to {line!r}"
    return child.stdout.readline()


@pytest.mark.skipif(sys.platform == "win32", reason="select on pipes")
@pytest.mark.parametrize("command, answer", [(["solve"], "1234341221434321"), (["count", "--limit", "5"], "5+"),
                                             (["shuffle", "--seed", "1"], None), (["rate"], "rating"),
                                             (["explain"], "1. r1c4 can only be 3")])
def test_a_coprocess_gets_each_answer_before_writing_the_next_line(command, answer):
    child = subprocess.Popen([sys.executable, "-m", "sudoku", *command], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    try:
        for line in ("1...", "TODO", "123456789"):           # short and bad lines, each answered alone
            assert ask(child, line) == f"# {line}\n"
        puzzle = sudoku.generate(seed=3, size=4) if command[0] in ("rate", "explain") else "1..............."
        got = ask(child, puzzle).rstrip("\n")
        if answer is None:
            assert sudoku.count(got, limit=10) == sudoku.count(puzzle, limit=10)
        elif command[0] == "explain":
            assert got == ""            # a blank line between explanations, then the first step
            assert child.stdout.readline() == answer + "\n"
            return
        elif answer == "rating":
            rating = sudoku.rate(puzzle)
            assert got == f"{rating.score:.2f} {rating.level}"
        else:
            assert got == answer
        if command[0] in ("solve", "count"):           # a grid's rows, written together, are one puzzle
            assert ask(child, "1 . | . .\n. . | . .\n----+----\n. . | . .\n. . | . .") == f"{answer}\n"
    finally:
        child.stdin.close()
        child.wait(timeout=60)


@pytest.mark.parametrize("command", ["solve", "count", "rate", "shuffle", "explain"])
def test_rules_that_do_not_fit_a_shape_fail_that_line_only(command, capsys):
    assert main([command, "--variant", "windoku", str(EXAMPLES / "6x6.txt"), str(EXAMPLES / "windoku.txt")]) == 1
    captured = capsys.readouterr()
    assert messages(captured.err).count("windoku needs square boxes, not 2x3") == 2
    six = [line for line in (EXAMPLES / "6x6.txt").read_text().split("\n") if line and line[0] != "#"]
    assert all(f"\n# {line}\n" in captured.out for line in six)      # echoed, and the 9x9 ones answered
    assert messages(captured.err).count("sudoku: ") == 2
    assert main([command, "--variant", "windoku", "--box", "2x3", INKALA]) == 2
    assert messages(capsys.readouterr().err) == "sudoku: error: windoku needs square boxes, not 2x3\n"
