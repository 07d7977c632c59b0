"""dlx beside the solvers a Python user would pick instead: one run, same puzzles, same machine.

    pip install -e '.[bench]'
    python bench/compare.py            # about 30 minutes on 2 cores
    python bench/compare.py --quick    # about 1.5 minutes: 100 puzzles per set, one round, no pentominoes-all
    python bench/compare.py --only knuth --knuth DIR   # the engines beside Knuth's programs built in DIR
    python bench/compare.py --only costs --knuth DIR   # the cheapest solutions beside Knuth's dlx5 and HiGHS

Rows: sudoku (first solution, and limit 2: solve and prove unique) on a sample of each public set,
counting every solution of the serg puzzles, counting classic exact-cover problems, and start-up
(a fresh process importing the solver and solving one puzzle, with numba's cache warm, then with an
empty cache so it compiles). Within a row the solvers take turns, round after round, in rotating
order, so drift hits all alike; the table gives medians of CPU time (single thread) and, below it,
of wall time. Every answer of every round is checked: a wrong one is shown as wrong, not timed; a
pure-Python run past the time budget is abandoned and shown as such.

Writes the tables to stdout and to ``bench/results/compare.md`` (``compare-quick.md`` with
``--quick``), and a chart of the same numbers to the ``.png`` beside it.
"""
from __future__ import annotations

import argparse
import contextlib
import datetime
import multiprocessing
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from rivals import RIVALS, OverBudget, Rival, Timed, engine_counter, installed, version
from sudoku_sets import INKALA, available, load

from dlx import engines, problems, write_dlx

HERE = Path(__file__).resolve().parent
REFERENCE = "dlx"  # the ratios say how many times faster this column is
GENERIC = {  # name: (problem, number of solutions, in --quick too)
    "queens 10": (lambda: problems.queens(10), 724, True),
    "queens 11": (lambda: problems.queens(11), 2_680, True),
    "queens 12": (lambda: problems.queens(12), 14_200, True),
    "queens 13": (lambda: problems.queens(13), 73_712, True),
    "Langford 11 (halved)": (lambda: problems.langford(11), 17_792, True),
    "pentominoes 6x10, X restricted": (lambda: problems.pentominoes(6, 10), 2_339, True),
    "pentominoes 6x10, all": (lambda: problems.pentominoes(6, 10, symmetric=True), 9_356, False),
    "XCC: word squares 3x3": (problems.word_squares, 265, True),
    "XCC: graceful labellings of the 12-cycle": (lambda: problems.graceful([(i, (i + 1) % 12) for i in range(12)]),
                                                 11_808, True),
    "MCC: 7 queens on a 9x9 board": (lambda: problems.k_queens(9, 7), 119_180, True),
    "MCC: tetrominoes in 5x8, two of each": (lambda: problems.packing(5, 8, problems.TETROMINOES,
                                                                      dict.fromkeys(problems.TETROMINOES, 2)),
                                             3_106, True),
}
GRACEFUL_C15 = 232_920
#: Problems for Knuth's C programs: label: (problem, solutions, the programs of his that solve it).
#: They are not on PyPI; with ``--knuth DIR`` (the programs built there, see :func:`knuth_job`)
#: they run beside this project's engines, each on the problem written in his format.
KNUTH = {
    "MCC: 8 queens on a 10x10 board": (lambda: problems.k_queens(10, 8), 636_524, ("dlx3",)),
    "MCC: 7 queens on a 9x9 board": (lambda: problems.k_queens(9, 7), 119_180, ("dlx3",)),
    "MCC: tetrominoes 4x12, 1 to 3 of each": (lambda: problems.packing(
        4, 12, problems.TETROMINOES, dict.fromkeys(problems.TETROMINOES, (1, 3))), 342_424, ("dlx3",)),
    "Langford 12 (halved)": (lambda: problems.langford(12), 108_144, ("ssxc1", "dlx1")),
    "pentominoes 6x10, all": (lambda: problems.pentominoes(6, 10, symmetric=True), 9_356, ("ssxc1", "dlx1")),
    "pentominoes 6x10, X restricted": (lambda: problems.pentominoes(6, 10), 2_339, ("ssxc1", "dlx1")),
    "XCC: graceful labellings of C15": (lambda: problems.graceful([(i, (i + 1) % 15) for i in range(15)]),
                                        GRACEFUL_C15, ("ssxcc", "dlx2")),
    "queens 14": (lambda: problems.queens(14), 365_596, ("ssxc1", "dlx1")),
}
#: Knuth's binary-branching programs beside this project's strategies of the same name (``--knuth
#: DIR``): for rows without multiplicities SSXCC-BINARY and its change files, with them SSMCC and its.
BINARY_PROGRAMS: dict[str, tuple[str, str | None]] = {
    "cells/binary": ("ssxcc-binary", "ssmcc"), "cells/binary/frb": ("ssxcc-frb", "ssmcc-frb"),
    "cells/binary/wtd": ("ssxcc-wtd", "ssmcc-wtd")}
#: Minimum-cost rows: label: (problem, k, brute force too). Beside Knuth's dlx5
#: (``--knuth DIR``) and HiGHS (highspy, k = 1 rows without colours).
COSTS = {
    "weighted queens 20": (lambda: problems.weighted_queens(20), 1, False),
    "weighted queens 14, k=1000": (lambda: problems.weighted_queens(14), 1000, False),
    "set partitioning 100 items, 3,000 options": (lambda: problems.set_partitioning(100, 3000, 4, largest=6), 1,
                                                  False),
    "set partitioning 60 items, 1,500 options, k=10": (lambda: problems.set_partitioning(60, 1500, 3), 10, False),
    "assignment 40x40": (lambda: problems.assignment(40, 1), 1, False),
    "pentominoes 6x10, cell weights, k=10": (lambda: problems.weighted_pentominoes(6, 10), 10, False),
    "pentominoes 5x12, cell weights": (lambda: problems.weighted_pentominoes(5, 12), 1, False),
    "XCC: graceful C12, cost a+b per edge, k=50": (
        lambda: problems.weighted_graceful([(i, (i + 1) % 12) for i in range(12)]), 50, False),
    "set partitioning 10 items, 18 options, k=3": (lambda: problems.set_partitioning(10, 18, 7), 3, True),
}
#: Domain consistency beside Knuth's XCCDC (``--only dc``): rows small enough for its many mems per
#: node (the rows of KNUTH take it minutes): label: (problem, solutions).
DC_ROWS = {
    "queens 12": (lambda: problems.queens(12), 14_200),
    "queens 13": (lambda: problems.queens(13), 73_712),
    "Langford 11 (halved)": (lambda: problems.langford(11), 17_792),
    "pentominoes 3x20": (lambda: problems.pentominoes(3, 20), 2),
    "pentominoes 6x10, X restricted": (lambda: problems.pentominoes(6, 10), 2_339),
    "XCC: word squares 3x3": (problems.word_squares, 265),
    "XCC: graceful labellings of C12": (lambda: problems.graceful([(i, (i + 1) % 12) for i in range(12)]), 11_808),
}
DC_PROGRAMS = {"dc": "xccdc", "dc/frb": "xccdc-frb", "dc/wtd": "xccdc-wtd"}
#: The C sudoku solvers beside dlx at f2c5c7a, measured side by side on this kind of machine by the
#: maintainers: puzzles per CPU-second of dlx divided by theirs, limit 2 (limit 1). kudoku is measured
#: in this project too: bench/kudoku.py.
C_SUDOKU = ("fast_solv_9r2 (C DLX): dlx 1.01-1.21x as fast; kudoku (C exact cover without links): dlx 0.71-1.00x "
            "at limit 2 (serg 0.71, top1465 0.85, 17clue 0.88) and 0.61-0.97x at limit 1 (bench/kudoku.py "
            "measures it beside the current tree); tdoku (bit-parallel) 8-15x faster than dlx")
#: The report's sections, in the order they run.
SECTIONS = ("sudoku", "generic", "startup", "whole", "knuth", "costs", "dc")
#: This project's columns by engine, one per name of the registry that stands for machines ("auto" is
#: the column "dlx"; domain consistency has a section of its own, "dc": its many mems per node take
#: minutes on these rows).
ENGINE_COLUMNS = {f"dlx engine={name}": name for name, family in engines.ENGINES.items()
                  if family.machines and name != "dc"}
#: Columns of the Knuth section for the strategies of binary branching, by registry name.
STRATEGY_COLUMNS = {f"dlx engine={name}": name for name in BINARY_PROGRAMS}
#: Columns that are this project again, by engine: no start-up rows of their own.
SAME_PROCESS = {"dlx, one call each", *ENGINE_COLUMNS}


@dataclass
class Cell:
    """One solver on one row: medians of the rounds, or why there are none."""
    cpu: float | None = None
    wall: float | None = None
    note: str = ""


@dataclass
class Row:
    label: str
    unit: str                    # "puzzles" (rates) or "seconds" (times)
    size: int                    # puzzles in the row (1 for a single problem)
    cells: dict[str, Cell] = field(default_factory=dict)


def race(jobs: dict[str, Callable[[float], object]], check: Callable[[object], str | None],
         rounds: int, budget: float, cpu_clock: Callable[[], float] = time.process_time) -> dict[str, Cell]:
    """Run every job once per round, in an order rotated each round; check and time each run.
    A job gets the CPU time past which it should give up (:class:`OverBudget`); one that returns
    :class:`Timed` was timed where it ran."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in jobs}
    notes: dict[str, str] = {}
    for r in range(rounds):
        names = [name for name in jobs if name not in notes]
        for name in names[r % max(1, len(names)):] + names[:r % max(1, len(names))]:
            cpu, wall = cpu_clock(), time.perf_counter()
            try:
                got = jobs[name](time.process_time() + budget)
            except OverBudget:
                notes[name] = f"> {budget:g} s"
                continue
            except Exception as error:  # noqa: BLE001 -- a solver that breaks shows it, the others go on
                notes[name] = f"error: {type(error).__name__}"
                continue
            cpu, wall = cpu_clock() - cpu, time.perf_counter() - wall
            if isinstance(got, Timed):
                got, cpu, wall = got.answer, got.cpu, got.wall
            wrong = check(got)
            if wrong:
                notes[name] = f"wrong: {wrong}"
            else:
                times[name].append((cpu, wall))
    return {name: Cell(note=notes[name]) if name in notes else
            Cell(statistics.median(c for c, _ in times[name]), statistics.median(w for _, w in times[name]))
            for name in jobs}


# --- checking answers ----------------------------------------------------------------------------

def valid(puzzle: str, solution: str | None) -> bool:
    """A full grid obeying the rules and keeping the givens."""
    if solution is None or len(solution) != 81 or set(solution) != set("123456789"):
        return False
    if any(p not in ".0" and p != s for p, s in zip(puzzle, solution)):
        return False
    units = ([[r * 9 + c for c in range(9)] for r in range(9)] + [[r * 9 + c for r in range(9)] for c in range(9)]
             + [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)])
    return all(len({solution[k] for k in unit}) == 9 for unit in units)


def sudoku_check(puzzles: list[str], known: list[str] | None, counts: list[int]) -> Callable:
    """Each answer: the right count, and a valid grid, the known one when the count is 1."""
    def check(answers) -> str | None:
        if len(answers) != len(puzzles):
            return f"{len(answers)} answers for {len(puzzles)} puzzles"
        bad = sum(1 for p, k, want, (solution, count) in
                  zip(puzzles, known or [None] * len(puzzles), counts, answers, strict=True)
                  if count != want or (count and not valid(p, solution))
                  or (count == 1 and k is not None and solution != k))
        return f"{bad} of {len(puzzles)}" if bad else None
    return check


# --- the rows ------------------------------------------------------------------------------------

def sample(name: str, size: int) -> tuple[list[str], list[str] | None]:
    """``size`` puzzles spread evenly over the whole set (sets are often sorted by difficulty)."""
    puzzles, answers = load(name)
    step = max(1, len(puzzles) // size)
    return puzzles[::step][:size], answers[::step][:size] if answers else None


def solve_elsewhere(name: str, puzzles: list[str], limit: int, budget: float) -> Timed:
    """Run in a worker process: one rival on the puzzles, timed there."""
    rival = next(r for r in RIVALS if r.name == name)
    cpu, wall = time.process_time(), time.perf_counter()
    answer = rival.sudoku(puzzles, limit, cpu + budget)
    return Timed(answer, time.process_time() - cpu, time.perf_counter() - wall)


def in_fresh_process(name: str, puzzles: list[str], limit: int, budget: float) -> Timed:
    """One run of a leaking rival in a process forked for it (spawned where fork is missing)."""
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context(method)) as pool:
        return pool.submit(solve_elsewhere, name, puzzles, limit, budget).result()


def sudoku_jobs(rivals: list[Rival], puzzles: list[str], limit: int, budget: float) -> dict:
    """A job per rival; a leaking rival starts each run in a clean process of its own."""
    return {r.name: (lambda d, r=r: in_fresh_process(r.name, puzzles, limit, budget)) if r.leaks
            else (lambda d, r=r: r.sudoku(puzzles, limit, d)) for r in rivals}


def sudoku_rows(rivals: list[Rival], size: int, rounds: int, budget: float) -> list[Row]:
    rows = []
    for name in available():
        puzzles, known = sample(name.split()[0], size)
        for limit in (1, 2):
            check = sudoku_check(puzzles, known, [1] * len(puzzles))
            what = "first solution" if limit == 1 else "limit 2"
            cells = race(sudoku_jobs(rivals, puzzles, limit, budget), check, rounds, budget)
            rows.append(Row(f"{name}, {what}", "puzzles", len(puzzles), cells))
            progress(rows[-1])
    puzzles, counts = sample("serg_benchmark", size)
    if counts:  # absent with the samples
        want = [int(c) for c in counts]
        check = sudoku_check(puzzles, None, want)
        cells = race(sudoku_jobs(rivals, puzzles, 10**9, budget), check, rounds, budget)
        rows.append(Row(f"serg_benchmark, count every solution ({sum(want):,})", "puzzles", len(puzzles), cells))
        progress(rows[-1])
    return rows


def generic_rows(rivals: list[Rival], quick: bool, rounds: int, budget: float) -> list[Row]:
    rows = []
    for label, (make, solutions, in_quick) in GENERIC.items():
        if quick and not in_quick:
            continue
        problem = make()
        jobs = {}
        for rival in rivals:
            counter = None if rival.counter is None else rival.counter(problem)  # building it is not timed
            if counter is not None:                      # None: the solver cannot state this problem
                jobs[rival.name] = counter
        check = lambda got, want=solutions: None if got == want else f"{got:,} solutions"
        rows.append(Row(f"{label}: {solutions:,} solutions", "seconds", 1, race(jobs, check, rounds, budget)))
        progress(rows[-1])
    return rows


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def startup_rows(rivals: list[Rival], rounds: int, budget: float = 300) -> list[Row]:
    """A fresh interpreter per run: import the solver, solve one puzzle, print it. The budget is
    generous whatever the run's: a first compile takes several seconds."""
    def launch(name: str, empty_cache: bool) -> Callable[[float], str]:
        def run(deadline: float) -> str:
            env = dict(os.environ)
            with tempfile.TemporaryDirectory() as cache:
                if empty_cache:
                    env["NUMBA_CACHE_DIR"] = cache
                code = f"import rivals; print(rivals.startup({name!r}, {INKALA!r}))"
                try:
                    return subprocess.run([sys.executable, "-c", code], cwd=HERE, env=env, timeout=budget,
                                          capture_output=True, text=True, check=True).stdout.strip()
                except subprocess.TimeoutExpired:
                    raise OverBudget from None
        return run

    check = lambda got: None if valid(INKALA, got) else "not the solution"
    once = [r for r in rivals if r.name not in SAME_PROCESS]
    for rival in once:  # fill numba's cache, the disk cache, the first-run costs
        with contextlib.suppress(OverBudget, subprocess.CalledProcessError):
            launch(rival.name, False)(0)  # a failure shows in the timed runs
    rows = []
    for label, empty in (("fresh process, warm cache", False), ("fresh process, empty cache: first compile", True)):
        jobs = {r.name: launch(r.name, empty) for r in once if r.numba or not empty}
        rows.append(Row(label, "seconds", 1, race(jobs, check, rounds if not empty else 1, budget, children_cpu)))
        progress(rows[-1])
    return rows


def whole_sets(quick: bool, rounds: int) -> list[Row]:
    """This project alone on every puzzle of each set, limit 2, as the external figures were taken."""
    from rivals import dlx_batch
    rows = []
    for name in available():
        puzzles, known = load(name.split()[0], 5000 if quick else None)
        check = sudoku_check(puzzles, known, [1] * len(puzzles))
        cells = race({"dlx": lambda d, p=puzzles: dlx_batch(p, 2, d)}, check, rounds, 600)
        rows.append(Row(name, "puzzles", len(puzzles), cells))
        progress(rows[-1])
    return rows


def one_character_colours(text: str) -> str:
    """Knuth's format with every colour renamed to one character, as his programs require (the
    names are the problem's own business; 94 printable characters are enough for the rows here)."""
    names: dict[str, str] = {}
    characters = iter("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&()*+,-./;<=>?@[]^_`{}~")

    def rename(match: re.Match) -> str:
        if match.group(2) not in names:
            names[match.group(2)] = next(characters)
        return f"{match.group(1)}:{names[match.group(2)]}"
    lines = text.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if not line.startswith("|"))
    return "".join(lines[:first + 1]) + "".join(re.sub(r"(\S+):(\S+)", rename, line) for line in lines[first + 1:])


def solutions_found(report: str) -> int | None:
    """The count in the last words of Knuth's programs."""
    found = re.search(r"Altogether (\d+) solution", report)
    return int(found.group(1)) if found else None


def knuth_job(program: Path, problem, args: tuple[str, ...] = (),
              answer: Callable[[str], object] = solutions_found) -> Callable[[float], Timed]:
    """One of Knuth's programs (with command-line ``args``) on ``problem``, written in his format to
    a file first (not timed), timed as a child process (CPU time from the kernel's accounting); its
    answer read from what it prints by ``answer``. Build the programs from the public repository
    ascherer/cwebtest: ``ctangle dlx3.w`` (Debian's texlive-binaries), then ``clang -O3
    -march=native -o dlx3 dlx3.c gb_flip.c`` (``ctangle gb_flip.w`` gives the last two files),
    likewise dlx1, dlx2, dlx5, ssxc1 and ssxcc."""
    handle, name = tempfile.mkstemp(suffix=".dlx")
    os.close(handle)
    write_dlx(problem, name)
    Path(name).write_text(one_character_colours(Path(name).read_text()))

    def run(deadline: float) -> Timed:
        cpu, wall = children_cpu(), time.perf_counter()
        with open(name, "rb") as source:
            try:
                done = subprocess.run([str(program), *args], stdin=source, capture_output=True, text=True,
                                      timeout=max(1.0, deadline - time.process_time()), check=True)
            except subprocess.TimeoutExpired:
                raise OverBudget from None
        cpu, wall = children_cpu() - cpu, time.perf_counter() - wall
        return Timed(answer(done.stderr + done.stdout), cpu, wall)
    return run


def beside_knuth(quick: bool, rounds: int, knuth: Path | None) -> list[Row]:
    """This project, by engine and strategy, beside Knuth's programs for each problem when they are
    built; each binary strategy's figures checked against his program's (:func:`same_figures`)."""
    rows = []
    for label, (make, solutions, programs) in KNUTH.items():
        if quick and label.endswith("all"):
            continue
        problem = make()
        check = lambda got, want=solutions: None if got == want else f"{got} solutions"
        jobs = {name: engine_counter(engine)(problem)
                for name, engine in {"dlx": engines.DEFAULT, **ENGINE_COLUMNS, **STRATEGY_COLUMNS}.items()}
        jobs = {name: job for name, job in jobs.items() if job is not None}
        pairs = {strategy: mine[problem.bounds is not None] for strategy, mine in BINARY_PROGRAMS.items()
                 if mine[problem.bounds is not None] is not None}
        for program in [*programs, *pairs.values()] if knuth else ():
            if (knuth / program).exists():
                jobs[program.upper()] = knuth_job(knuth / program, problem)
        row = Row(label, "seconds", 1, race(jobs, check, rounds, 600))
        same_figures(row, problem, pairs, knuth)
        rows.append(row)
        progress(rows[-1])
    return rows


def same_figures(row: Row, problem, pairs: dict[str, str], knuth: Path | None) -> None:
    """Each strategy of ``pairs`` and Knuth's program of that strategy once more, untimed: a cell of
    his whose solutions, nodes and updates differ from ours says so, and shows no time."""
    for strategy, program in pairs.items():
        if knuth and (knuth / program).exists():
            problem.count(engine=strategy)
            ours = (problem.stats.solutions, problem.stats.nodes, problem.stats.updates)
            theirs = knuth_job(knuth / program, problem, answer=figures_of)(time.process_time() + 3600).answer
            if ours != theirs:
                row.cells[program.upper()].note = f"figures {theirs}, ours {ours}"
                row.cells[program.upper()].cpu = None


def figures_of(report: str) -> tuple[int, int, int] | None:
    """Solutions, nodes and updates in the last words of Knuth's programs."""
    found = re.search(r"Altogether (\d+) solutions?, .*? (\d+) updates, .*? (\d+) nodes", report)
    return (int(found[1]), int(found[3]), int(found[2])) if found else None


def best_costs(report: str) -> list[int]:
    """The k best costs in the last words of Knuth's dlx5 (repeated ones as many times)."""
    costs: list[int] = []
    if "The optimum cost" in report:
        for cost, times in re.findall(r"\$(\d+)(?: \(repeated (\d+) times\))?", report.split("The optimum cost")[-1]):
            costs += [int(cost)] * (int(times) if times else 1)
    return costs


def cheapest_job(problem, k: int) -> Callable[[float], list[int]]:
    """This project's DLX5 on a fresh copy of ``problem`` each run: its structure (taxes, sorted
    lists) is built and timed, the problem's own reading is not (Knuth's parse is in his time)."""
    def run(deadline: float) -> list[int]:
        return [p.cost for p in problem.with_costs(problem.option_costs).cheapest(k)]
    return run


def highs_job(problem) -> Callable[[float], list[int]] | None:
    """HiGHS on the problem as a 0/1 integer program (bench/milp.py): its optimum."""
    try:
        import highspy  # noqa: F401
    except ImportError:
        return None
    import milp
    if problem.option_colours is not None:
        return None

    def run(deadline: float) -> list[int]:
        best = milp.optimum(problem)
        return [] if best is None else [best]
    return run


def brute_job(problem, k: int) -> Callable[[float], list[int]]:
    """Every subset of the options, checked: the k least costs."""
    from itertools import combinations

    def run(deadline: float) -> list[int]:
        sets = [set(problem.option_items[problem.option_start[o]:problem.option_start[o + 1]].tolist())
                for o in range(problem.n_options)]
        found = []
        for size in range(problem.n_options + 1):
            for chosen in combinations(range(problem.n_options), size):
                if time.process_time() > deadline:
                    raise OverBudget
                covered = [i for o in chosen for i in sets[o]]
                if len(covered) == len(set(covered)) == problem.n_items:
                    found.append(sum(int(problem.option_costs[o]) for o in chosen))
        return sorted(found)[:k]
    return run


def dc_rows(quick: bool, rounds: int, knuth: Path | None) -> list[Row]:
    """Domain consistency (``engine="dc"`` and its heuristics) beside Knuth's xccdc programs, each
    pair's figures checked (:func:`same_figures`)."""
    rows = []
    for label, (make, solutions) in DC_ROWS.items():
        if quick and solutions > 20_000:
            continue
        problem = make()
        check = lambda got, want=solutions: None if got == want else f"{got} solutions"
        jobs = {f"dlx engine={name}": engine_counter(name)(problem) for name in DC_PROGRAMS}
        jobs = {name: job for name, job in jobs.items() if job is not None}
        for program in DC_PROGRAMS.values() if knuth else ():
            if (knuth / program).exists():
                jobs[program.upper()] = knuth_job(knuth / program, problem)
        row = Row(label, "seconds", 1, race(jobs, check, rounds, 120))
        same_figures(row, problem, DC_PROGRAMS, knuth)
        rows.append(row)
        progress(row)
    return rows


def cost_rows(quick: bool, rounds: int, knuth: Path | None) -> list[Row]:
    """The k cheapest solutions: this project beside Knuth's dlx5, HiGHS and brute force."""
    rows = []
    for label, (make, k, brute) in COSTS.items():
        problem = make()
        want = [p.cost for p in problem.cheapest(k)]       # every other column must agree
        jobs: dict[str, Callable] = {"dlx": cheapest_job(problem, k)}
        if knuth and (knuth / "dlx5").exists():
            jobs["DLX5"] = knuth_job(knuth / "dlx5", problem, (f"k{k}",), best_costs)
        highs = highs_job(problem)
        if highs is not None:
            jobs["HiGHS"] = highs
        if brute:
            jobs["brute force"] = brute_job(problem, k)
        check = lambda got, want=want, k=k: None if got == want or (len(got) == 1 and got == want[:1]) \
            else f"costs {got[:3]}"
        rows.append(Row(f"{label}: ${want[0]:,}", "seconds", 1, race(jobs, check, 1 if quick else rounds, 600)))
        progress(rows[-1])
    return rows


# --- output --------------------------------------------------------------------------------------

def progress(row: Row) -> None:
    print(f"  {row.label}: " + ", ".join(f"{name} {shown(row, cell, 'cpu', ratio=False)}"
                                         for name, cell in row.cells.items()), file=sys.stderr, flush=True)


def value(row: Row, cell: Cell, clock: str) -> float | None:
    """Puzzles per second for puzzle rows, seconds otherwise."""
    seconds = getattr(cell, clock)
    if seconds is None:
        return None
    return row.size / seconds if row.unit == "puzzles" else seconds


def number(x: float, unit: str) -> str:
    if unit == "puzzles":
        return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"
    return f"{x:.3f} s" if x < 10 else f"{x:.1f} s"


def shown(row: Row, cell: Cell | None, clock: str, ratio: bool = True) -> str:
    if cell is None:
        return ""
    x = value(row, cell, clock)
    if x is None:
        return cell.note
    text = number(x, row.unit)
    ref = row.cells.get(REFERENCE)
    if ratio and ref is not None and ref is not cell and getattr(ref, clock):
        text += f" ({getattr(cell, clock) / getattr(ref, clock):.1f}x)"
    return text


def table(rows: list[Row], names: list[str], first: str, clock: str) -> list[str]:
    lines = [f"| {first} | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for row in rows:
        lines.append(f"| {row.label} | " + " | ".join(shown(row, row.cells.get(n), clock) for n in names) + " |")
    return lines


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} logical CPUs, {platform.system()}"


def report(sections: dict[str, list[Row]], rivals: list[Rival], settings: str, minutes: float) -> str:
    names = [r.name for r in rivals]
    counters = [r.name for r in rivals if r.counter is not None]
    starters = [r.name for r in rivals if r.name not in SAME_PROCESS]
    out = [
        "# dlx beside other exact-cover and sudoku solvers",
        "",
        (f"`python bench/compare.py{' --quick' if 'quick' in settings else ''}` on "
        f"{datetime.date.today().isoformat()}, {settings}; the run took {minutes:.1f} minutes."),
        (f"Machine: {machine()}. Python {platform.python_version()}, numpy {metadata.version('numpy')}, "
        f"numba {metadata.version('numba')}."),
        "",
        "| solver | version | what it is |",
        "|---|---|---|",
        *[f"| {r.name} | {version(r)} | {r.kind} |" for r in rivals],
        "",
        ("Medians of the rounds; single thread. In parentheses: that solver's time divided by dlx's "
        "(how many times faster dlx is). Every answer was checked; \"wrong\" marks a solver that gave "
        "a wrong one, \"> N s\" one that ran past the time budget and was stopped."),
        "",
        "## Sudoku: puzzles per CPU-second",
        "",
        ("The same puzzles, spread evenly over each set, given to every solver as 81-character lines: "
        "parsing, building the problem and the search are all timed. \"first solution\" stops at the first; "
        "\"limit 2\" solves and proves the solution unique (tdoku's standard mode). xcover starts each run in "
         "a fresh process (forked, timed inside): its search is a numba generator, and numba never frees one "
         "left unfinished (numba issues 1278, 6993), so in one long process it slows down as they pile up."),
        "",
        *table(sections["sudoku"], names, "puzzles", "cpu"),
        "",
        "## Exact cover: counting every solution, CPU seconds",
        "",
        ("Each solver gets the same options (dlx.problems, Knuth's item order); building its input is not "
        "timed. exact-cover and algorithm-x have no secondary items: each gets an option of its own "
        "(slack), which keeps the count. XCC rows have colours (Knuth's DLX2), MCC rows multiplicities "
        "(DLX3): a blank cell is a solver that cannot state the problem. miniexact is driven as its "
        "Python binding is used, one call per solution."),
        "",
        *table(sections["generic"], counters, "problem", "cpu"),
        "",
        "## Start-up: wall seconds",
        "",
        ("A fresh `python -c` that imports the solver and solves one puzzle (Inkala's). With an empty "
        "cache (`NUMBA_CACHE_DIR` pointed at a new directory), the numba solvers compile first."),
        "",
        *table(sections["startup"], starters, "run", "wall"),
        "",
        "## This project beside C solvers",
        "",
        ("dlx measured in this run on every puzzle of each set (puzzles per CPU-second, single thread, "
         "limit 2). The C solvers cannot be installed from a registry; measured side by side on this kind of "
         f"machine by the maintainers (main at f2c5c7a): {C_SUDOKU}."),
        "",
        "| set | puzzles | dlx |",
        "|---|---:|---:|",
    ]
    for row in sections["whole"]:
        out.append(f"| {row.label} | {row.size:,} | {shown(row, row.cells['dlx'], 'cpu')} |")
    out += ["", ("Counting every solution, CPU seconds, by engine, beside Knuth's C programs for the problem "
                 "(built with clang -O3 -march=native; absent unless --knuth names where they are built), all "
                 "in this run, each reporting the same count."), "",
            "| problem | dlx (auto) | " + " | ".join(c.removeprefix("dlx ") for c in ENGINE_COLUMNS)
            + " | Knuth's C |",
            "|---|---:|" + "---:|" * len(ENGINE_COLUMNS) + "---|"]
    for row in sections["knuth"]:
        _, solutions, programs = KNUTH[row.label]
        theirs = ", ".join(f"{p.upper()} {shown(row, row.cells[p.upper()], 'cpu', ratio=False)}"
                           for p in programs if p.upper() in row.cells) or "not run"
        out.append(f"| {row.label}: {solutions:,} solutions | "
                   + " | ".join(shown(row, row.cells.get(n), "cpu", ratio=False)
                                for n in ("dlx", *ENGINE_COLUMNS))
                   + f" | {theirs} |")
    out += ["", ("Knuth's newest searches, CPU seconds: each strategy beside Knuth's program of that strategy "
                 "(binary branching: SSXCC-BINARY and its change files ssxcc-frb.ch and ssxcc-wtd.ch, SSMCC and "
                 "ssmcc-frb.ch, ssmcc-wtd.ch on rows with multiplicities; domain consistency: XCCDC and "
                 "xccdc-frb.ch, xccdc-wtd.ch, which take no multiplicities), in the same run; each pair also "
                 "reports the same solutions, nodes and updates (else the cell says so). In parentheses: Knuth's "
                 "time divided by ours (above 1: ours is faster)."), "",
            "| problem | " + " | ".join(f"{strategy} | Knuth's" for strategy in BINARY_PROGRAMS) + " |",
            "|---|" + "---:|---:|" * len(BINARY_PROGRAMS)]
    for row in sections["knuth"]:
        bounded = row.label.startswith("MCC")
        cells = []
        for strategy, programs in BINARY_PROGRAMS.items():
            program = programs[bounded]
            mine = row.cells.get(f"dlx engine={strategy}")
            theirs = row.cells.get(program.upper()) if program else None
            cells.append(shown(row, mine, "cpu", ratio=False))
            text = shown(row, theirs, "cpu", ratio=False)
            if mine is not None and theirs is not None and mine.cpu and theirs.cpu:
                text += f" ({theirs.cpu / mine.cpu:.2f}x)"
            cells.append(text)
        out.append(f"| {row.label} | " + " | ".join(cells) + " |")
    out += ["", "## The cheapest solutions (minimum-cost exact cover): CPU seconds", "",
            ("dlx's `cheapest(k)` (Knuth's DLX5, its structure built in the time) beside Knuth's dlx5 (C, clang -O3 "
             "-march=native, the whole process; absent unless --knuth names where it is built), HiGHS (a 0/1 "
             "integer program, k = 1 only: it finds one optimum; no colours) and brute force on the smallest. "
             "Every answer checked: the same k best costs (HiGHS: the least). In parentheses: that time "
             "divided by dlx's."), "",
            *table(sections["costs"], ["dlx", "DLX5", "HiGHS", "brute force"], "problem: the least cost", "cpu")]
    out += ["", "## Domain consistency: CPU seconds", "",
            ("`engine=\"dc\"` and its heuristics beside Knuth's xccdc, xccdc-frb and xccdc-wtd (C, clang -O3 "
             "-march=native, the whole process), in the same run; each pair also reports the same solutions, nodes "
             "and updates (else the cell says so). In parentheses: Knuth's time divided by ours."), "",
            "| problem | " + " | ".join(f"{name} | Knuth's" for name in DC_PROGRAMS) + " |",
            "|---|" + "---:|---:|" * len(DC_PROGRAMS)]
    for row in sections["dc"]:
        cells = []
        for name, program in DC_PROGRAMS.items():
            mine, theirs = row.cells.get(f"dlx engine={name}"), row.cells.get(program.upper())
            cells.append(shown(row, mine, "cpu", ratio=False))
            text = shown(row, theirs, "cpu", ratio=False)
            if mine is not None and theirs is not None and mine.cpu and theirs.cpu:
                text += f" ({theirs.cpu / mine.cpu:.2f}x)"
            cells.append(text)
        out.append(f"| {row.label} | " + " | ".join(cells) + " |")
    out += ["", "## Wall time of the same runs", "",
            *table(sections["sudoku"], names, "puzzles (per wall-second)", "wall"), "",
            *table(sections["generic"], counters, "problem (wall seconds)", "wall"), "",
            *table(sections["startup"], starters, "start-up (CPU seconds, the child process)", "cpu"), ""]
    return "\n".join(out)


def chart(sections: dict[str, list[Row]], rivals: list[Rival], path: Path) -> None:
    """Three panels, log scale: sudoku rates (limit 2), counting times, start-up times."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [
        ([r for r in sections["sudoku"] if "first solution" not in r.label], "cpu",
         "sudoku, limit 2 (serg: count all): puzzles per CPU-second (more is better)", lambda s: s.split(",")[0]),
        (sections["generic"], "cpu", "counting every solution: CPU seconds (less is better)",
         lambda s: s.split(":")[0]),
        (sections["startup"], "wall", "start-up, one puzzle: wall seconds (less is better)",
         lambda s: s.split(":")[0]),
    ]
    heights = [max(1, len(rows)) for rows, *_ in panels]
    fig, axes = plt.subplots(3, 1, figsize=(10, 3 + 0.55 * sum(heights)), gridspec_kw={"height_ratios": heights})
    colours = plt.get_cmap("tab10").colors
    for ax, (rows, clock, title, short) in zip(axes, panels):
        bar = 0.8 / len(rivals)
        for j, rival in enumerate(rivals):
            ys, xs = [], []
            for i, row in enumerate(rows):
                cell = row.cells.get(rival.name)
                x = value(row, cell, clock) if cell else None
                if x:
                    ys.append(i + (j - (len(rivals) - 1) / 2) * bar)
                    xs.append(x)
            ax.barh(ys, xs, height=bar, color=colours[j % 10], label=rival.name)
        ax.set_yticks(range(len(rows)), [short(row.label) for row in rows])
        ax.invert_yaxis()
        ax.set_xscale("log")
        ax.set_title(title, fontsize=10, loc="left")
        ax.grid(axis="x", which="major", alpha=0.3)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="upper center", ncol=len(rivals), fontsize=8)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(path, dpi=80)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="100 puzzles per set, one round, no pentominoes-all, 5 s budget")
    parser.add_argument("--puzzles", type=int, help="puzzles per set (default 200, --quick 100)")
    parser.add_argument("--rounds", type=int, help="rounds per row (default 3, --quick 1)")
    parser.add_argument("--budget", type=float, help="seconds a solver may take on one run (default 60, --quick 5)")
    parser.add_argument("--knuth", type=Path, metavar="DIR",
                        help="where Knuth's dlx1, dlx2, dlx3, dlx5, ssxc1, ssxcc, ssxcc-binary, ssxcc-frb, "
                             "ssxcc-wtd, ssmcc, ssmcc-frb, ssmcc-wtd, xccdc, xccdc-frb and xccdc-wtd are built: run "
                             "them beside the engines")
    parser.add_argument("--only", choices=SECTIONS, action="append",
                        help="run only this section (may be repeated); the report holds the sections run")
    args = parser.parse_args()
    size = args.puzzles or (100 if args.quick else 200)
    rounds = args.rounds or (1 if args.quick else 3)
    budget = args.budget or (5 if args.quick else 60)
    rivals = [r for r in RIVALS if installed(r)]
    missing = [r.name for r in RIVALS if not installed(r)]
    if missing:
        print(f"not installed, left out: {', '.join(missing)} (pip install -e '.[bench]')", file=sys.stderr)

    start = time.perf_counter()
    for rival in rivals:  # compile, or load from numba's cache, before anything is timed
        rival.sudoku([INKALA], 2, float("inf"))
        if rival.counter is not None:
            for small in (problems.queens(5), problems.graceful([(0, 1), (1, 2)]), problems.k_queens(4, 2)):
                counter = rival.counter(small)
                if counter is not None:
                    counter(float("inf"))
    makers = {
        "sudoku": lambda: sudoku_rows(rivals, size, rounds, budget),
        "generic": lambda: generic_rows(rivals, args.quick, rounds, budget),
        "startup": lambda: startup_rows(rivals, rounds),
        "whole": lambda: whole_sets(args.quick, rounds),
        "knuth": lambda: beside_knuth(args.quick, rounds, args.knuth),
        "costs": lambda: cost_rows(args.quick, rounds, args.knuth),
        "dc": lambda: dc_rows(args.quick, rounds, args.knuth),
    }
    sections = {name: makers[name]() if not args.only or name in args.only else [] for name in SECTIONS}
    settings = (f"{'--quick: ' if args.quick else ''}{size} puzzles per set, {rounds} round{'s' * (rounds > 1)}, "
                f"{budget:g} s budget per run")
    text = report(sections, rivals, settings, (time.perf_counter() - start) / 60)
    if args.only:       # the tables of the sections not run are empty: leave them out
        text = re.sub(r"^\|[^\n]*\|\n\|[-:|]+\|\n(\n|$)", "", text, flags=re.M)
    print(text)
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    stem = "compare-quick" if args.quick else "compare"
    if args.only:
        stem += "-" + "-".join(args.only)
    (results / f"{stem}.md").write_text(text)
    try:
        if not args.only:
            chart(sections, rivals, results / f"{stem}.png")
    except ImportError:
        print("matplotlib is not installed: no chart (pip install -e '.[bench]')", file=sys.stderr)


if __name__ == "__main__":
    main()
