"""Human techniques: HoDoKu's steps and grades, every step sound, every shape, the commands.

HoDoKu's own figures (tests/data/hodoku_*.tsv, from hodoku-py 0.2.1, a port of HoDoKu 2.2.0) are
the reference: each technique's step at the point of HoDoKu's path where it took it, and whole
grades. Soundness needs no reference: a step never removes a digit of the solution, never places
anything else, and the pencil marks stay consistent after every step.
"""
import csv
import functools
import io
import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import EXAMPLES, INKALA, shared_lines

import sudoku
from sudoku import techniques
from sudoku.cli import main
from sudoku.grid import PuzzleError
from sudoku.techniques import basic, fish, human
from sudoku.techniques.board import Board, bits
from sudoku.techniques.steps import cells_text, removals_text

DATA = Path(__file__).parent / "data"
#: A puzzle HoDoKu grades hard (1064): its first step is a pointing locked candidate.
HARD = ".2.4....94..189.......62.5......63..3..94.5.......8.1..........8.2..4...964.....7"


def _rows(name: str) -> list[list[str]]:
    return [line.split("\t") for line in (DATA / name).read_text().splitlines() if not line.startswith("#")]


def _effect(text: str) -> tuple[set, set]:
    placed, removed = set(), set()
    for part in text.split():
        if "<>" in part:
            cell, d = part.split("<>")
            removed.add((int(cell), int(d)))
        else:
            cell, d = part.split("=")
            placed.add((int(cell), int(d)))
    return placed, removed


STEPS = _rows("hodoku_steps.tsv")


@pytest.mark.parametrize("puzzle,number,technique,effect", STEPS, ids=[row[2] for row in STEPS])
def test_each_technique_takes_hodokus_step(puzzle, number, technique, effect):
    path = techniques.steps(puzzle)
    step = path[int(number) - 1]
    assert (step.technique, set(step.placed), set(step.removed)) == (technique, *_effect(effect))


def test_the_techniques_with_hodokus_steps_cover_the_set():
    named = {row[2] for row in STEPS}
    assert len(named) >= 47
    known = {t.name for t in human.TECHNIQUES} | {"Simple Colors Trap", "Simple Colors Wrap", "Multi-Colors 1",
                                                   "Multi-Colors 2", "AIC", "Discontinuous Nice Loop",
                                                   "Continuous Nice Loop", "Grouped AIC",
                                                   "Grouped Discontinuous Nice Loop"}
    assert named <= known


@pytest.mark.parametrize("puzzle,level,score,count", _rows("hodoku_grades.tsv"))
def test_grades_are_hodokus(puzzle, level, score, count):
    assert techniques.grade(puzzle) == (int(score), level, int(count))
    assert sudoku.rate(puzzle, scale="hodoku") == (int(score), level, int(count))


def _check_board(board: Board, solution: list[int]) -> None:
    """The pencil marks agree with themselves and keep every digit of the solution."""
    size = board.size
    for cell in range(len(board.value)):
        if board.value[cell]:
            assert board.value[cell] == solution[cell] and board.cand[cell] == 0
            assert not board.empty >> cell & 1
        else:
            assert board.cand[cell] >> (solution[cell] - 1) & 1, f"cell {cell} lost its digit"
            assert board.empty >> cell & 1
        for d in range(1, size + 1):
            assert (board.where[d] >> cell & 1) == (board.cand[cell] >> (d - 1) & 1)


def _sound_path(puzzle, **how) -> list:
    """Every step of the human solve, each checked against the solution and the board after it."""
    board, solution = techniques.start(puzzle, **how)
    used = []
    while not board.solved():
        technique, step = human.next_step(board, solution)
        for cell, d in step.placed:
            assert solution[cell] == d, step.text
        for cell, d in step.removed:
            assert solution[cell] != d, step.text
            assert board.cand[cell] >> (d - 1) & 1, f"{step.text}: r{cell}<>{d} was not a candidate"
        assert step.placed or step.removed, step.text
        human.apply(board, step)
        _check_board(board, solution)
        used.append(technique.name)
    assert [board.value[c] for c in range(len(solution))] == solution
    return used


def _python_board(values, houses) -> Board:
    """The board built by the Python placements the kernel must match, given by given."""
    board = Board([0] * len(values), houses)
    for cell, v in enumerate(values):
        if v:
            board.place(cell, v)
    return board


def _state(board: Board) -> tuple:
    live = [(c, d) for c, d in board.naked if board.value[c] == 0 and board.cand[c] == 1 << (d - 1)]
    hidden = [(c, d) for c, d in board.hidden if board.value[c] == 0 and board.cand[c] >> (d - 1) & 1]
    return board.value, board.cand, board.where, board.empty, live, hidden


def _kernel_is_python(puzzle, **how) -> int:
    """The kernel's board and singles are the Python board's, step for step, along the whole
    solve: the same placements from the givens, the same singles in the same order, the same
    pencil marks and live queue entries after each run of them. Returns the singles compared."""
    board, solution = techniques.start(puzzle, **how)
    values = [v if not board.empty >> c & 1 else 0 for c, v in enumerate(board.value)]
    assert _state(board) == _state(_python_board(values, board.houses))
    compared = 0
    while not board.solved():
        mine = board.copy()
        singles = []
        while not mine.solved():
            technique, step = human.next_step(mine)
            if technique not in techniques.SINGLES:
                break
            (cell, d), = step.placed
            singles.append([techniques.SINGLES.index(technique), cell, d])
            human.apply(mine, step)
        assert board.take_singles() == singles
        assert _state(board) == _state(mine)
        compared += len(singles)
        if board.solved():
            break
        human.apply(board, human.next_step(board, solution)[1])
    return compared


def test_the_kernel_takes_the_singles_python_takes():
    compared = sum(_kernel_is_python(puzzle) for puzzle in (EXAMPLES / "top20.txt").read_text().split())
    assert compared > 500


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_the_kernel_takes_the_singles_python_takes_on_generated_puzzles(seed):
    _kernel_is_python(sudoku.generate(seed=seed))


@pytest.mark.parametrize("how", [{"size": 6}, {"size": 12}, {"variant": "x"}, {"variant": "windoku"}],
                         ids=["6x6", "12x12", "x", "windoku"])
def test_the_kernel_takes_the_singles_python_takes_on_every_shape(how):
    _kernel_is_python(sudoku.generate(seed=1, **how), variant=how.get("variant"))


def _python_fish(board: Board, n: int, finned: bool) -> list:
    """Fish by their definition, in Python, in the order the kernel must find them: digit, rows
    then columns as the base, base lines then cover lines in order. A finned fish's fins (its base
    places outside the cover) share one box, and only cover cells in that box lose the digit."""
    hs, size = board.houses, board.size
    found = []
    for d in range(1, size + 1):
        where = board.where[d]
        for base_lines, cover_lines, cross in ((hs.lines[:size], hs.lines[size:], hs.col),
                                               (hs.lines[size:], hs.lines[:size], hs.row)):
            usable = [h for h in base_lines if where & hs.mask[h] and (finned or (where & hs.mask[h]).bit_count() <= n)]
            for base in itertools.combinations(usable, n):
                cells = sum(where & hs.mask[h] for h in base)
                across = sorted({cross[c] for c in bits(cells)})
                covers = [across] if not finned and len(across) == n else \
                    itertools.combinations(across, n) if finned and len(across) > n else []
                for chosen in covers:
                    cover = sum(hs.mask[cover_lines[k]] for k in chosen)
                    fins = cells & ~cover
                    boxes = {hs.box[c] for c in bits(fins)}
                    if finned and len(boxes) != 1:
                        continue
                    reach = hs.mask[hs.blocks[boxes.pop()]] if finned else hs.all
                    gone = sorted((c, d) for c in bits(where & cover & reach & ~cells))
                    if gone:
                        sashimi = finned and any((where & hs.mask[h] & cover).bit_count() <= 1 for h in base)
                        found.append(("Sashimi" if sashimi else "Finned" if finned else "", gone))
    return found


def _python_intersections(board: Board, pointing: bool) -> list:
    """Locked candidates by their definition: a digit's places in a box all in one line (else in a
    line all in one box) that holds it elsewhere."""
    hs = board.houses
    found = []
    for h in (hs.blocks if pointing else hs.lines):
        for d in range(1, board.size + 1):
            inside = board.where[d] & hs.mask[h]
            if inside.bit_count() < 2:
                continue
            for g in (hs.lines if pointing else hs.blocks):
                if inside & ~hs.mask[g] == 0 and board.where[d] & hs.mask[g] & ~hs.mask[h]:
                    found.append(sorted((c, d) for c in bits(board.where[d] & hs.mask[g] & ~hs.mask[h])))
    return found


def _python_locked_sets(board: Board, n: int) -> list:
    """Locked pairs and triples by their definition: ``n`` empty cells of a box with ``n`` digits in
    all, sharing exactly one other house, each house holding one of the digits outside the other."""
    hs = board.houses
    found = []
    for h in hs.blocks:
        empty = [c for c in hs.cells[h] if board.value[c] == 0]
        for group in itertools.combinations([c for c in empty if 2 <= board.cand[c].bit_count() <= n], n):
            union = 0
            for c in group:
                union |= board.cand[c]
            common = [g for g in range(len(hs.cells)) if all(c in hs.cells[g] for c in group)]
            if len(empty) <= n or union.bit_count() != n or len(common) != 2:
                continue
            a, b = common
            if all(any(board.cand[c] & union for c in hs.cells[g] if c not in hs.cells[other])
                   for g, other in ((a, b), (b, a))):
                found.append(sorted({(c, d) for g in common for c in hs.cells[g] if c not in group
                                    for d in range(1, board.size + 1) if (board.cand[c] & union) >> (d - 1) & 1}))
    return found


def _python_sue_de_coq(board: Board) -> list:
    """Sue de Coq by its definition: a group of the empty cells where a box meets a line with at
    least two candidates more than cells, a set of one to three other empty cells of the line and
    one of the box, all together as many digits as cells and the line's and box's sets sharing
    none: the line's digits leave the rest of the line, the box's the rest of the box."""
    hs = board.houses
    found = []
    for line in hs.lines:
        for box in hs.blocks:
            meet = [c for c in hs.cells[line] if c in hs.cells[box] and board.value[c] == 0]
            sets = []
            for house in (line, box):
                rest = [c for c in hs.cells[house] if c not in hs.cells[line] or c not in hs.cells[box]
                        if board.value[c] == 0]
                sets.append([g for k in (1, 2, 3) for g in itertools.combinations(rest, k)])

            def union(cells: tuple) -> int:
                return functools.reduce(int.__or__, (board.cand[c] for c in cells), 0)
            for group in (g for n in range(2, len(meet) + 1) for g in itertools.combinations(meet, n)):
                vc = union(group)
                for lcells in sets[0]:
                    vl = union(lcells)
                    if vc.bit_count() < len(group) + 2 or not vl & vc or \
                            (vc | vl).bit_count() >= len(group) + len(lcells) + vc.bit_count():
                        continue
                    for bcells in sets[1]:
                        vb = union(bcells)
                        if vb & vl or not vb & vc or \
                                (vc | vl | vb).bit_count() != len(group) + len(lcells) + len(bcells):
                            continue
                        used = set(group + lcells + bcells)
                        gone = {(c, d) for house, keep in ((line, vb), (box, vl)) for c in hs.cells[house]
                                if c not in used for d in range(1, board.size + 1)
                                if (board.cand[c] & (vc | vl | vb) & ~keep) >> (d - 1) & 1}
                        if gone:
                            found.append(sorted(gone))
    return found


def _kernels_are_python(puzzle, **how) -> int:
    """Along the whole solve, at every step past the singles, what each numba search finds (fish
    of every size and kind, locked candidates, locked pairs and triples, Sue de Coq) is what the
    Python definition finds, in the same order. Returns the positions compared."""
    board, solution = techniques.start(puzzle, **how)
    compared = 0
    for technique, step in techniques.walk(puzzle, **how):
        if technique not in techniques.SINGLES:
            for n in (2, 3, 4):
                kernel = [("", sorted(s.removed)) for s in fish.fish(board, n)]
                kernel += [(s.technique.split()[0], sorted(s.removed)) for s in fish._fish(board, n, True)]
                assert kernel == _python_fish(board, n, False) + _python_fish(board, n, True)
            for pointing in (True, False):
                kernel = [sorted(set(s.removed)) for s in basic.locked_candidates(board, pointing)]
                assert kernel == _python_intersections(board, pointing)
            for n in (2, 3):
                kernel = [sorted(set(s.removed)) for s in basic.locked_subset(board, n)]
                assert kernel == _python_locked_sets(board, n)
            assert [sorted(set(s.removed)) for s in basic.sue_de_coq(board)] == _python_sue_de_coq(board)
            compared += 1
        human.apply(board, step)
    return compared


def test_the_kernels_find_what_python_finds():
    assert sum(_kernels_are_python(puzzle) for puzzle in (EXAMPLES / "top20.txt").read_text().split()[:4]) > 20


@pytest.mark.parametrize("seed,how", [(2, {"size": 6}), (5, {"size": 8, "box": "2x4"}), (3, {"size": 12}), (0, {
    "variant": sudoku.jigsaw("AAABBBCCCAAABBBCCCAAABBBCCCDDDEEFFFFDDDDEEEFFDDEEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII")}),
    (7, {"variant": "x"}), (13, {"variant": "windoku"})], ids=["6x6", "8x8", "12x12", "jigsaw", "x", "windoku"])
def test_the_kernels_find_what_python_finds_on_every_shape(seed, how):
    """Seeds whose puzzles need steps past the singles (HoDoKu grades them hard or extreme); in
    the windoku's, a pair where a box, a row and a window meet, which is no locked pair."""
    assert _kernels_are_python(sudoku.generate(seed=seed, **how), box=how.get("box"), variant=how.get("variant")) > 0


def test_every_step_is_sound_on_the_shipped_hard_puzzles():
    used = set()
    for puzzle in (EXAMPLES / "top20.txt").read_text().split():
        used.update(_sound_path(puzzle))
    assert {"Hidden Single", "Locked Candidates Type 1 (Pointing)", "Brute Force"} <= used


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_every_step_is_sound_on_generated_puzzles(seed):
    _sound_path(sudoku.generate(seed=seed))


@pytest.mark.parametrize("how", [
    {"size": 4}, {"size": 6}, {"size": 8, "box": "2x4"}, {"size": 12}, {"variant": "x"}, {"variant": "windoku"},
    {"variant": sudoku.jigsaw("AAABBBCCCAAABBBCCCAAABBBCCCDDDEEFFFFDDDDEEEFFDDEEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII")},
], ids=["4x4", "6x6", "8x8", "12x12", "x", "windoku", "jigsaw"])
def test_every_shape_and_variant_solves_soundly(how):
    rules = how.get("variant")
    for seed in range(3):
        puzzle = sudoku.generate(seed=seed, **how)
        box = None if "box" not in how else how["box"]
        _sound_path(puzzle, box=box, variant=rules)
        assert sudoku.rate(puzzle, scale="hodoku", box=box, variant=rules).level in techniques.LEVELS


def test_x_sudoku_houses_include_the_diagonals():
    houses = techniques.houses(sudoku.Shape.of(81), sudoku.variants.X)
    assert [houses.name(h) for h in range(27, 29)] == ["d1", "d2"]
    assert houses.cells[27] == [0, 10, 20, 30, 40, 50, 60, 70, 80]
    assert 80 in list(bits(houses.peers[0]))


def test_hint_text_and_effect():
    puzzle = HARD
    step = sudoku.hint(puzzle)
    assert step.text == "Locked Candidates Type 1 (Pointing): 5 in b2 => r1c13<>5"
    assert step.technique == "Locked Candidates Type 1 (Pointing)"
    assert step.placed == () and step.removed == ((0, 5), (2, 5))
    assert sudoku.hint(INKALA).text == "Brute Force: r5c3=9"          # nothing applies: HoDoKu's last resort
    solution = sudoku.solve(puzzle)
    assert sudoku.hint(solution) is None


def test_hint_refuses_what_it_cannot_grade():
    with pytest.raises(PuzzleError, match="more than one solution"):
        sudoku.hint("." * 81)
    with pytest.raises(PuzzleError, match="no solution"):
        sudoku.hint("12345678." + "........9" + "." * 63)          # r1c9 has no digit left
    killer = (EXAMPLES / "killer.txt").read_text().splitlines()
    givens, cages, sums = next(x for x in killer if x and not x.startswith("#")).split(",")
    with pytest.raises(PuzzleError, match="killer"):
        sudoku.hint(givens or "." * 81, variant=sudoku.killer(cages, sums))


def test_notation():
    assert cells_text([0, 7], 9) == "r1c18"
    assert cells_text([2, 11, 74], 9) == "r129c3"
    assert cells_text([0, 10], 9) == "r1c1,r2c2"
    assert removals_text([(0, 4), (1, 4), (40, 7)], 9) == "r1c12<>4, r5c5<>7"
    assert cells_text([9 * 16 + 10, 9 * 16 + 11], 16) == "r10cBC"


def test_grade_ceilings():
    full, naked, fish = human.TECHNIQUES[0], human.TECHNIQUES[1], human.TECHNIQUES[13]
    assert human.grade_of([full] * 200) == (800, "easy")
    assert human.grade_of([full] * 201) == (804, "medium")         # past easy's ceiling of 800
    assert fish.name == "X-Wing" and human.grade_of([fish, naked]) == (144, "hard")
    assert human.grade_of([human.BRUTE_FORCE]) == (10000, "extreme")


# --- the commands


def test_hint_command(capsys):
    assert main(["hint", str(EXAMPLES / "top20.txt")]) == 0
    out = capsys.readouterr().out.splitlines()
    puzzles = [p for p in (EXAMPLES / "top20.txt").read_text().split() if not p.startswith("#")]
    assert len(out) == len(puzzles)
    assert out == [sudoku.hint(p).text for p in puzzles]


def test_hint_command_jsonl_and_a_bad_line(tmp_path, capsys):
    source = tmp_path / "p.txt"
    puzzle = HARD
    source.write_text(f"{puzzle}\n{'.' * 81}\n")
    assert main(["hint", str(source), "--format", "jsonl"]) == 1
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["technique"] == "Locked Candidates Type 1 (Pointing)" and first["removed"] == [[0, 5], [2, 5]]
    assert second["status"] == "invalid"


def test_hint_command_csv_keeps_the_columns(capsys):
    assert main(["hint", str(EXAMPLES / "kaggle.csv")]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rows[0]["hint"] == "Naked Single: r5c5=5" and json.loads(rows[0]["placed"]) == [[40, 5]]
    assert rows[0]["removed"] == "[]" and rows[0]["status"] == "hint"
    assert all(row["quizzes"] for row in rows)


def test_rate_command_on_hodokus_scale(capsys):
    rows = _rows("hodoku_grades.tsv")[:4]
    assert main(["rate", "--scale", "hodoku", *[r[0] for r in rows]]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{r[2]} {r[1]}" for r in rows]


def test_explain_human(capsys):
    puzzle = HARD
    assert main(["explain", "--human", puzzle, "--steps", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["1. Locked Candidates Type 1 (Pointing): 5 in b2 => r1c13<>5",
                       "2. Locked Candidates Type 2 (Claiming): 2 in r5 => r4c89,r6c79<>2"]
    assert out[2] == "... and 63 more steps (--full shows them)"
    assert out[3] == "Solved in 65 steps: HoDoKu score 1064, hard."
    assert len(out) == 4 + 11


def test_explain_human_hands_over_to_the_search(capsys):
    assert main(["explain", "--human", INKALA, "--steps", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "No technique of the set applies after 0 steps; the search takes over from here:"
    assert out[1].startswith("1. ")
    assert "".join(out[-11:]).replace(" ", "").replace("|", "").replace("-", "").replace("+", "") == \
        sudoku.solve(INKALA)


def test_generate_on_hodokus_scale(capsys):
    assert main(["generate", "2", "--seed", "3", "--difficulty", "hard", "--scale", "hodoku"]) == 0
    for puzzle in capsys.readouterr().out.split():
        assert techniques.grade(puzzle).level == "hard"
    with pytest.raises(ValueError, match="levels of HoDoKu"):
        sudoku.generate(difficulty="diabolical", scale="hodoku")


def test_agreement_on_17clue():
    """Our steps along the first 40 puzzles of 17clue: every solve is sound, and the level is one
    HoDoKu's scale knows (the agreement itself is measured in bench/hodoku_agreement.py)."""
    for puzzle in shared_lines("17clue.txt")[:40]:
        assert set(_sound_path(puzzle)) <= {t.name for t in human.TECHNIQUES} | {"Brute Force"}


def test_against_hodoku_py_itself():
    """Where hodoku-py is installed: the same first hint and grade on the shipped samples."""
    hodoku = pytest.importorskip("hodoku")
    solver = hodoku.Solver()
    for puzzle in (EXAMPLES / "top20.txt").read_text().split()[:6]:
        theirs = solver.get_hint(puzzle)
        mine = sudoku.hint(puzzle)
        assert {(c.index, c.value) for c in theirs.candidates_to_delete} == set(mine.removed)
        if not mine.removed:
            assert list(zip(theirs.indices, theirs.values)) == list(mine.placed)


def test_board_copy_is_independent():
    board, solution = techniques.start(HARD)
    other = board.copy()
    cell = next(bits(board.empty))
    other.place(cell, solution[cell])
    assert board.value[cell] == 0 and other.value[cell] == solution[cell]
    assert np.count_nonzero(board.value) + 1 == np.count_nonzero(other.value)


def test_picture_marks_the_step():
    import xml.etree.ElementTree as ET

    from sudoku.techniques.picture import picture
    board, solution = techniques.start(HARD)
    step = human.next_step(board, solution)[1]
    svg = ET.fromstring(picture(board, step))
    texts = [t for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    red = [t.text for t in texts if t.get("fill") == "#d62728"]
    assert red == ["5", "5"]                       # r1c1<>5 and r1c3<>5
    givens = [t for t in texts if t.get("fill") == "#000000"]
    assert len(givens) == sum(1 for v in board.value if v)
    small = [t for t in texts if t.get("fill") in ("#777777", "#d62728")]
    assert len(small) == sum(board.cand[c].bit_count() for c in range(81))
