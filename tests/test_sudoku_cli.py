"""The sudoku command: one output line per input line, failures echoed, marked and reported."""
import csv
import json
import re
import subprocess
import sys

import pytest
from support import EXAMPLES, SHARED_DATA, assert_solves, messages

import sudoku
from sudoku.cli import main
from sudoku.files import read_lines
from sudoku.grid import PuzzleError

MIXED = (EXAMPLES / "mixed.txt").read_text().split("\n")[:-1]


def test_solve_file(capsys):
    assert main(["solve", str(EXAMPLES / "top20.txt")]) == 0
    out, err = capsys.readouterr()
    assert out == (EXAMPLES / "top20.solutions.txt").read_text() and messages(err) == ""


def test_mixed_batch_keeps_every_line(capsys):
    assert main(["solve", str(EXAMPLES / "mixed.txt")]) == 1
    out, err = capsys.readouterr()
    lines = out.split("\n")[:-1]
    assert len(lines) == len(MIXED)
    assert lines[0] == MIXED[0]                                   # a comment, kept
    assert_solves(MIXED[1], lines[1])
    for k in (2, 3, 4, 5):                                        # failed: echoed, marked
        assert lines[k] == "# " + MIXED[k]
    assert_solves(MIXED[6], lines[6])                             # several solutions: the first
    assert lines[7] == "" and MIXED[7] == ""
    assert_solves(MIXED[8], lines[8])
    assert messages(err).splitlines() == [
        "sudoku: line 3: no solution",
        "sudoku: line 4: wrong length: 80 cells; a puzzle has N*N "
        "(16 for 4x4, 36 for 6x6, 81 for 9x9, 256 for 16x16, ...)",
        "sudoku: line 5: digit 5 twice in row 1",
        "sudoku: line 6: bad character 'x' at position 81 (row 9, column 9)",
    ]


def test_count_and_unique(capsys):
    assert main(["count", str(EXAMPLES / "mixed.txt")]) == 1       # unreadable lines fail
    out, _ = capsys.readouterr()
    assert out.split("\n")[1:3] == ["1", "0"] and out.split("\n")[6] == "872"   # serg: 872 solutions
    assert main(["count", str(EXAMPLES / "mixed.txt"), "--unique"]) == 1
    out, err = capsys.readouterr()
    assert out.split("\n")[6] == "2+"                               # a lower bound, marked
    assert "sudoku: line 7: not unique (2 solutions or more)" in err
    assert "sudoku: line 3: no solution" in err
    assert main(["count", str(EXAMPLES / "top20.txt"), "--unique"]) == 0
    assert capsys.readouterr().out == "1\n" * 20


def test_count_limit(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("." * 16 + "\n" + "1" + "." * 15 + "\n")
    assert main(["count", str(path)]) == 0
    assert capsys.readouterr().out == "288\n72\n"
    assert main(["count", str(path), "--limit", "100"]) == 0
    assert capsys.readouterr().out == "100+\n72\n"


def test_grid_and_csv_input(capsys):
    assert main(["solve", str(EXAMPLES / "grid.txt"), "--pretty"]) == 0
    out, _ = capsys.readouterr()
    comment, grid = out.split("\n", 1)
    assert comment.startswith("# Arto Inkala")
    assert len(grid.strip().split("\n")) == 11 and "------+-------+------" in grid
    assert main(["solve", str(EXAMPLES / "kaggle.csv")]) == 0      # CSV in, CSV out: columns kept
    out, _ = capsys.readouterr()
    rows = (EXAMPLES / "kaggle.csv").read_text().split()
    assert out.split() == [rows[0] + ",solution,status"] + [f"{row},{row.split(',')[1]},solved" for row in rows[1:]]
    assert main(["solve", str(EXAMPLES / "kaggle.csv"), "--format", "line"]) == 0
    out, _ = capsys.readouterr()
    assert out.split() == [rows[0]] + [row.split(",")[1] for row in rows[1:]]


def test_broken_grids_are_reported(tmp_path, capsys):
    path = tmp_path / "grids.txt"
    grid = (EXAMPLES / "grid.txt").read_text().split("\n")[1:12]
    path.write_text("\n".join(grid[:5] + [""] + grid + ["1 2 3 4 5 6 7 8", "12345678"]) + "\n")
    assert main(["solve", str(path)]) == 1
    out, err = capsys.readouterr()
    broken = "grid ends after 4 rows (lines 1-5), expected 9"      # each row under its own number
    assert messages(err).splitlines() == [f"sudoku: line {k}: {broken}" for k in (1, 2, 3, 5)] + [
        "sudoku: line 18: grid ends after 2 rows (lines 18-19), expected 8",     # 8x8 rows
        "sudoku: line 19: grid ends after 2 rows (lines 18-19), expected 8"]
    lines = out.split("\n")
    assert lines[:5] == ["# " + g for g in grid[:3]] + [grid[3], "# " + grid[4]] and lines[5] == ""
    assert_solves("\n".join(grid), lines[6])


def test_stats_jobs_and_stdin(capsys, monkeypatch):
    text = (EXAMPLES / "top20.txt").read_text() * 5
    for jobs in ("1", "2"):
        monkeypatch.setattr(sys, "stdin", _Stdin(text))
        assert main(["solve", "-", "--stats", "--jobs", jobs]) == 0
        out, err = capsys.readouterr()
        assert out == (EXAMPLES / "top20.solutions.txt").read_text() * 5
        assert messages(err).startswith("100 puzzles: 100 solved, 0 no solution, 0 invalid; ")
        assert "puzzles/s" in err and "nodes per puzzle" in err


class _Stdin:
    def __init__(self, text):
        import io
        self.buffer = io.BytesIO(text.encode())


def test_errors_and_usage(capsys):
    assert main(["solve", "no/such/file.txt"]) == 1
    assert "cannot read no/such/file.txt" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["solve", "--jobs", "-1"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main([])                                   # a command is required
    assert e.value.code == 2


def test_python_dash_m_and_the_script():
    for cmd in ([sys.executable, "-m", "sudoku"], [str(__import__("shutil").which("sudoku") or "")]):
        if not cmd[0]:
            continue
        run = subprocess.run([*cmd, "solve", "-", "--quiet"], input=(EXAMPLES / "mixed.txt").read_text(),
                             capture_output=True, text=True, timeout=120, check=False)
        assert run.returncode == 1
        assert len(run.stdout.split("\n")) == len(MIXED) + 1 and "line 5: digit 5 twice" in run.stderr


@pytest.mark.skipif(not (SHARED_DATA / "top1465.txt").is_file(), reason="../shared/data is not present")
def test_solves_a_shared_file(capsys):
    assert main(["solve", str(SHARED_DATA / "top1465.txt"), "--unique", "--quiet"]) == 0
    assert capsys.readouterr().out == (SHARED_DATA / "top1465.solutions.txt").read_text()


def test_a_byte_order_mark_is_no_cell(tmp_path, capsys):
    path = tmp_path / "bom.txt"
    path.write_text("\ufeff" + (EXAMPLES / "top20.txt").read_text(), encoding="utf-8")
    assert main(["solve", str(path)]) == 0
    assert capsys.readouterr().out == (EXAMPLES / "top20.solutions.txt").read_text()
    from sudoku.files import read_lines
    first = next(read_lines(["\ufeff" + "." * 81]))
    assert first.puzzle == "." * 81


# --- the command's habits: arguments, several files, typed input, CSV, formats, budgets, help

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
SERG = MIXED[6]                                  # 872 solutions


def test_puzzles_as_arguments_and_several_files(capsys):
    top = str(EXAMPLES / "top20.txt")
    assert main(["solve", INKALA, top, "1...|..3.|.4..|...2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 22 and out[1:21] == (EXAMPLES / "top20.solutions.txt").read_text().splitlines()
    assert_solves(INKALA, out[0]) and out[21] == sudoku.solve("1...|..3.|.4..|...2")
    assert main(["solve", top, "no/such.txt", str(EXAMPLES / "mixed.txt"), "8" + "." * 79]) == 1
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 20 + len(MIXED) + 1
    assert "sudoku: error: cannot read no/such.txt" in err
    assert f"sudoku: {EXAMPLES / 'mixed.txt'}: line 4: wrong length: 80 cells" in err      # names the file
    assert "sudoku: argument 4: wrong length: 80 cells" in err


def test_each_typed_line_is_answered_before_the_next_arrives():
    for jobs in ("1", "2"):
        run = subprocess.Popen([sys.executable, "-m", "sudoku", "solve", "--jobs", jobs], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            for puzzle in (EXAMPLES / "top20.txt").read_text().split()[:3] + ["1" * 80]:
                run.stdin.write(puzzle + "\n")
                run.stdin.flush()                       # then wait for the answer, input still open
                answer = run.stdout.readline().rstrip("\n")
                if puzzle == "1" * 80:
                    assert answer == "# " + "1" * 80
                else:
                    assert_solves(puzzle, answer)
        finally:
            run.stdin.close()
            assert run.wait(timeout=300) == 1 and "line 4: wrong length: 80 cells" in run.stderr.read()
            run.stdout.close()
            run.stderr.close()


def test_csv_with_a_header_keeps_its_columns(tmp_path, capsys):
    path = tmp_path / "p.csv"
    path.write_text(f'id,puzzle,solution,note\n1,{INKALA},,"a, quoted"\n2,{"1" * 81},,\n\n3,{SERG},,x\n')
    assert main(["solve", str(path)]) == 1
    rows = list(csv.reader(capsys.readouterr().out.splitlines()))
    assert rows[0] == ["id", "puzzle", "solution", "note", "solution_found", "status"]
    assert rows[1][:4] == ["1", INKALA, "", "a, quoted"] and rows[1][5] == "solved"
    assert_solves(INKALA, rows[1][4])
    assert rows[2][4:] == ["", "invalid"] and rows[3] == ["", ""] and rows[4][5] == "solved"
    assert main(["count", str(path), "--format", "line", "--limit", "10"]) == 1
    assert capsys.readouterr().out.splitlines() == ["id,puzzle,solution,note", "1", "# " + f"2,{'1' * 81},,", "", "10+"]
    other = tmp_path / "q.csv"
    other.write_text(f"key,grid\nk,{INKALA}\n")
    assert main(["solve", str(other), "--column", "grid"]) == 0
    rows = list(csv.reader(capsys.readouterr().out.splitlines()))
    assert rows[0] == ["key", "grid", "solution", "status"] and rows[1][0] == "k"
    assert main(["solve", str(other), "--column", "puzzle"]) == 2       # a usage error
    err = capsys.readouterr().err
    assert "no column 'puzzle' in the CSV header; its columns: 'key', 'grid'" in err and "--column" in err


def test_formats_for_lines(capsys):
    assert main(["count", INKALA, "1" * 81, "--format", "jsonl"]) == 1
    first, second = map(json.loads, capsys.readouterr().out.splitlines())
    assert first["count"] == 1 and first["status"] == "complete" and first["nodes"] > 0
    assert second["status"] == "invalid" and second["error"] == "digit 1 twice in row 1"
    assert main(["solve", INKALA, "--format", "csv"]) == 0
    rows = list(csv.reader(capsys.readouterr().out.splitlines()))
    assert rows[0] == ["line", "puzzle", "solution", "status"] and rows[1][3] == "solved"
    assert main(["solve", INKALA, "--format", "pretty"]) == 0
    assert capsys.readouterr().out.count("------+-------+------") == 2


def test_budgets_lower_bounds_and_non_unique_answers_are_marked(capsys):
    assert main(["count", SERG, "--max-nodes", "50"]) == 3
    out, err = capsys.readouterr()
    assert re.fullmatch(r"\d+\+\n", out) and "the budget of 50 nodes ran out" in err
    assert main(["solve", "." * 81, "--max-nodes", "100"]) == 0                 # found within the budget
    assert main(["solve", INKALA, "--max-nodes", "5"]) == 3
    assert capsys.readouterr().out.splitlines()[-1] == "# " + INKALA
    assert main(["solve", SERG, "--unique"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("# not unique: ") and "not unique (2 solutions or more)" in err
    assert_solves(SERG, out.strip().removeprefix("# not unique: "))
    with pytest.raises(sudoku.OutOfNodes, match="ran out after"):
        sudoku.count(SERG, max_nodes=50)
    assert sudoku.count(SERG, max_nodes=10 ** 9) == 872


def test_every_subcommand_says_what_it_does_with_an_example_and_exit_statuses(capsys):
    for command in ("solve", "count", "shuffle", "rate", "generate", "explain"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "example" in text.lower() and "Exit status" in text, command
        if command in ("solve", "count"):
            assert "0 for one per core (default: 1)" in text
    for command in ([], ["solve"], ["explain"], ["shuffle"]):       # examples stay whole lines
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        lines = capsys.readouterr().out.splitlines()
        example = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
        assert any(line.strip().startswith("sudoku ") and line.strip().endswith(example) for line in lines), command


def test_read_puzzles_reads_what_the_command_reads(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text(f"id,quizzes\n1,{INKALA}\n# note\n2,{SERG}\n")
    assert list(sudoku.read_puzzles(path)) == [INKALA, SERG]
    assert list(sudoku.read_puzzles(str(EXAMPLES / "grid.txt"))) == [
        e.puzzle for e in read_lines(open(EXAMPLES / "grid.txt")) if e.puzzle]
    with pytest.raises(PuzzleError, match="line 3: wrong length: 4 cells"):
        list(sudoku.read_puzzles(["# x", INKALA, "...."]))


def test_every_command_takes_a_format(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text(f"# two\n{INKALA}\n{'1' * 81}\n")
    assert main(["rate", str(path), "--format", "csv"]) == 1
    rows = list(csv.reader(capsys.readouterr().out.splitlines()))
    assert rows[0] == ["line", "puzzle", "score", "level", "status"] and rows[1] == ["1", "# two", "", "", ""]
    assert rows[2][:2] == ["2", INKALA] and float(rows[2][2]) == round(sudoku.rate(INKALA).score, 2)
    assert rows[3][:2] == ["3", "1" * 81] and rows[3][2:] == ["", "", "invalid"]
    assert main(["shuffle", str(path), "--format", "jsonl", "--seed", "1"]) == 1     # a clash is no puzzle to disguise
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records[0] == {"line": 1, "text": "# two"}
    assert records[2] == {"line": 3, "puzzle": "1" * 81, "status": "invalid", "error": "digit 1 twice in row 1"}
    assert sudoku.count(records[1]["shuffled"]) == 1 and records[1]["puzzle"] == INKALA
    assert main(["generate", "2", "--seed", "5", "--format", "pretty"]) == 0
    grids = capsys.readouterr().out.strip().split("\n\n")
    assert len(grids) == 2 and all(sudoku.is_unique(grid) for grid in grids)


def test_a_first_line_of_letters_is_a_header_only_when_it_names_the_puzzles(tmp_path, capsys):
    oops = tmp_path / "oops.txt"
    oops.write_text("oops\n")
    assert main(["count", str(oops)]) == 1
    out, err = capsys.readouterr()
    assert out == "# oops\n"
    assert messages(err) == ("sudoku: line 1: neither a puzzle nor a header naming the puzzle column "
                             "(puzzle, puzzles, quizzes, quiz); a comment starts with #\n")
    puzzle = (EXAMPLES / "top20.txt").read_text().split("\n")[0]
    kept = tmp_path / "kept.txt"
    kept.write_text(f"Quizzes\n{puzzle}\n")
    assert main(["count", str(kept)]) == 0
    assert capsys.readouterr().out == "Quizzes\n1\n"


def test_arguments_and_flags_may_be_intermixed(capsys):
    top20, six = str(EXAMPLES / "top20.txt"), str(EXAMPLES / "6x6.txt")
    assert main(["solve", top20, "--quiet", six]) == 0
    mixed = capsys.readouterr().out
    assert main(["solve", "--quiet", top20, six]) == 0
    assert capsys.readouterr().out == mixed and len(mixed.splitlines()) > 20


@pytest.mark.parametrize("fmt", ["line", "csv"])
def test_a_generated_jigsaw_reads_back_with_its_regions_in_every_command(tmp_path, capsys, fmt):
    regions = (EXAMPLES / "jigsaw.txt").read_text().split("\n")[2].split(",")[1]
    assert main(["generate", "2", "--seed", "3", "--variant", "jigsaw", "--regions", regions, "--format", fmt]) == 0
    made = tmp_path / f"made.{fmt}"
    made.write_text(capsys.readouterr().out)
    rows = list(csv.DictReader(made.open())) if fmt == "csv" else [
        dict(zip(("puzzle", "regions"), line.split(","))) for line in made.read_text().splitlines()]
    assert len(rows) == 2 and all(row["regions"] for row in rows)
    rules = [sudoku.jigsaw(row["regions"]) for row in rows]
    assert [r.regions for r in rules] == [sudoku.jigsaw(regions).regions] * 2
    for command in ("solve", "count", "rate", "explain", "shuffle"):
        assert main([command, "--variant", "jigsaw", "--format", "line", str(made)]) == 0, command
        out, err = capsys.readouterr()
        assert messages(err) == "", (command, err)
        if command == "count":
            assert out.splitlines()[-2:] == ["1", "1"]
        if command == "solve":
            for row, solution in zip(rows, out.splitlines()[-2:]):
                assert_solves(row["puzzle"], solution, variant=sudoku.jigsaw(row["regions"]))
        if command == "shuffle":
            for row, line in zip(rows, out.splitlines()[-2:]):
                moved, moved_regions = line.split(",")
                assert sudoku.jigsaw(moved_regions).regions == sudoku.jigsaw(row["regions"]).regions
                assert sudoku.count(moved, variant=sudoku.jigsaw(moved_regions)) == 1


def test_svg_pictures_of_solved_puzzles_one_per_line(capsys):
    import xml.etree.ElementTree as ET

    assert main(["solve", "--format", "svg", str(EXAMPLES / "6x6.txt")]) == 0
    lines = capsys.readouterr().out.splitlines()
    pictures = [line for line in lines if line.startswith("<svg")]
    puzzles = [line for line in (EXAMPLES / "6x6.txt").read_text().splitlines() if not line.startswith("#")]
    assert len(pictures) == len(puzzles) > 0
    ns = "{http://www.w3.org/2000/svg}"
    for line, puzzle in zip(pictures, puzzles):
        root = ET.fromstring(line)
        texts = root.findall(f"{ns}text")
        assert len(texts) == 36 and len(root.findall(f"{ns}rect")) == 36
        bold = [t for t in texts if t.get("font-weight") == "bold"]
        assert len(bold) == sum(ch not in ".0" for ch in puzzle.strip())
        digits = "".join(t.text for t in texts)
        assert_solves(puzzle.strip(), digits)


def test_a_picture_sets_the_givens_apart_and_draws_the_regions():
    import xml.etree.ElementTree as ET

    regions = (EXAMPLES / "jigsaw.txt").read_text().split("\n")[2].split(",")[1]
    puzzle = (EXAMPLES / "jigsaw.txt").read_text().split("\n")[2].split(",")[0]
    rules = sudoku.jigsaw(regions)
    solution = sudoku.solve(puzzle, variant=rules)
    svg = sudoku.picture(puzzle, solution, regions=rules.regions)
    assert svg._repr_svg_() == svg
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert "".join(t.text for t in root.findall(f"{ns}text")) == solution
    thick = len([e for e in root.findall(f"{ns}line") if e.get("stroke-width") == "2"])
    # each cell side on a region's edge is drawn once from each side: the outline plus the inner edges
    edges = sum(rules.regions[r * 9 + c] != rules.regions[r * 9 + c + 1] for r in range(9) for c in range(8))
    edges += sum(rules.regions[r * 9 + c] != rules.regions[r * 9 + c + 9] for r in range(8) for c in range(9))
    assert thick == 4 * 9 + 2 * edges
