"""Before/after a change: the same workloads on two source trees, interleaved in one process.

    git archive <commit> | tar -x -C /tmp/before
    python bench/before_after.py /tmp/before [AFTER_TREE] [--rounds 21] [--only queens14,...]

Both trees' packages are copied to a scratch folder as ``dlx_before``/``sudoku_before`` and
``dlx_after``/``sudoku_after`` (their imports of ``dlx`` rewritten; the after tree is this working
tree unless given), so both versions load alike, side by side in one process, and every
round times one run of each, in alternating order, with CPU time (one thread). The version loaded
second runs a few percent slower whatever its code (where its arrays and kernels land in memory),
so two child processes measure in turn, one loading each version first, and the ratios are the
geometric means of theirs. On a shared machine single runs vary by 30% and more (they come in a
fast and a slow mode), so the table gives the minimum, the lower quartile and the median of each,
and the ratios after/before (below 1: faster).
Answers are compared, so a change that alters a count is caught here too. The sudoku sets come
from ../shared/data and are skipped when it is absent.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import importlib
import importlib.util
import inspect
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from sudoku_sets import SHARED

ROOT = Path(__file__).resolve().parent.parent

#: name: (package, make the workload from the package, rounds by default)
CASES = {
    "queens14": ("dlx", lambda m: m.problems.queens(14).count, 11),
    "pentominoes6x10 all": ("dlx", lambda m: m.problems.pentominoes(6, 10, symmetric=True).count, 7),
    "pentominoes6x10 X": ("dlx", lambda m: m.problems.pentominoes(6, 10).count, 11),
    "langford12": ("dlx", lambda m: m.problems.langford(12).count, 21),
    "langford12 cells": ("dlx", lambda m: functools.partial(m.problems.langford(12).count, engine="cells"), 21),
    "queens14 cells": ("dlx", lambda m: functools.partial(m.problems.queens(14).count, engine="cells"), 7),
    "mcc 7 queens 9x9": ("dlx", lambda m: m.problems.k_queens(9, 7).count, 11),
    "mcc 8 queens 10x10": ("dlx", lambda m: m.problems.k_queens(10, 8).count, 5),
    "mcc tetrominoes 4x12 1-3": ("dlx", lambda m: m.problems.packing(
        4, 12, m.problems.TETROMINOES, dict.fromkeys(m.problems.TETROMINOES, (1, 3))).count, 5),
    "graceful C15": ("dlx", lambda m: m.problems.graceful([(i, (i + 1) % 15) for i in range(15)]).count, 5),
    "memo dominoes 10x10": ("dlx", lambda m: functools.partial(m.problems.dominoes(10, 10).count, memo=True), 11),
    "memo dominoes 14x14": ("dlx", lambda m: functools.partial(m.problems.dominoes(14, 14).count, memo=True), 7),
    "memo pentominoes 5x12": ("dlx", lambda m: functools.partial(
        m.problems.pentominoes(5, 12, symmetric=True).count, memo=True), 5),
    "memo langford 12": ("dlx", lambda m: functools.partial(m.problems.langford(12).count, memo=True), 5),
    "top1465 limit 2": ("sudoku", lambda m: _sudoku_set(m, "top1465"), 21),
    "17clue limit 2": ("sudoku", lambda m: _sudoku_set(m, "17clue"), 11),
    "sudoku solve kaggle_10k x10": ("sudoku", lambda m: _sudoku_command(m, "kaggle_10k", 10), 11),
    "sudoku solve 17clue": ("sudoku", lambda m: _sudoku_command(m, "17clue", 1), 11),
}
#: ``sudoku.solve_array`` on each whole set at limit 2 and limit 1 ("array SET limit K"): the
#: kernel's speed, no text read or written in the timed part.
ARRAY_SETS = ("17clue", "top1465", "forum_hardest_1905_11plus", "kaggle_10k", "forum_hardest_1106", "serg_benchmark")
for _set in ARRAY_SETS:
    for _limit in (2, 1):
        CASES[f"array {_set} limit {_limit}"] = ("sudoku", functools.partial(
            lambda m, name, limit: _sudoku_array(m, name, limit), name=_set, limit=_limit), 7)
        CASES[f"batch {_set} limit {_limit} dlx"] = ("sudoku", functools.partial(
            lambda m, name, limit: _sudoku_batch(m, name, limit, "dlx"), name=_set, limit=_limit), 7)


def _sudoku_set(sudoku, name: str):
    path = SHARED / f"{name}.txt"
    if not path.is_file():
        return None
    puzzles = path.read_text().split()
    return lambda: sum(r.count for r in sudoku.solve_all(puzzles, limit=2, jobs=1))


def _sudoku_array(sudoku, name: str, limit: int):
    path = SHARED / f"{name}.txt"
    if not path.is_file():
        return None
    grid, ok = importlib.import_module(f"{sudoku.__name__}.grid").read_array(path.read_bytes())
    assert ok.all()
    return lambda: int(sudoku.solve_array(grid, limit=limit).counts.sum())


def _sudoku_batch(sudoku, name: str, limit: int, engine: str):
    """The engine's batch kernel alone (``dlx.Batch.solve``) on a whole set, by engine name: the
    same work on trees from before ``Batch`` took an engine (they ran Dancing Links)."""
    path = SHARED / f"{name}.txt"
    if not path.is_file():
        return None
    grid, ok = importlib.import_module(f"{sudoku.__name__}.grid").read_array(path.read_bytes())
    assert ok.all()
    problem = importlib.import_module(f"{sudoku.__name__}.encode").problem(3)
    batch_class = sys.modules[sudoku.__name__.replace("sudoku", "dlx")].Batch
    named = {"engine": engine} if "engine" in inspect.signature(batch_class).parameters else {}
    solver = batch_class(problem, [9] * 81, **named)
    return lambda: int(solver.solve(grid, limit).counts.sum())


def _sudoku_command(sudoku, name: str, copies: int):
    """The ``sudoku solve`` command (its ``main``, in process) on ``copies`` copies of a set, the
    output to /dev/null: the batch path of the command, reading and writing included."""
    path = SHARED / f"{name}.txt"
    if not path.is_file():
        return None
    source = Path(tempfile.mkdtemp()) / f"{name}x{copies}.txt"
    source.write_text(path.read_text() * copies)
    main = importlib.import_module(f"{sudoku.__name__}.cli").main

    def run() -> int:
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            return main(["solve", str(source), "--quiet"])
    return run


def load_tree(tree: Path, scratch: Path, suffix: str) -> dict[str, object]:
    """``tree``'s ``dlx`` and ``sudoku`` as ``dlx_<suffix>`` and ``sudoku_<suffix>``. Both versions
    are loaded this way, from fresh copies with their kernels compiled afresh, so neither gets an
    edge from how it was loaded: an A/A run (the same tree twice) of 17clue read 7% apart when the
    working tree was imported as is and the other from a copy."""
    for package in ("dlx", "sudoku"):
        target = scratch / f"{package}_{suffix}"
        shutil.copytree(tree / package, target, ignore=shutil.ignore_patterns("__pycache__"))
        for path in target.rglob("*.py"):
            text = path.read_text()
            text = re.sub(r"^import dlx$", f"import dlx_{suffix} as dlx", text, flags=re.M)
            text = re.sub(r"^from dlx(\.| )", rf"from dlx_{suffix}\1", text, flags=re.M)
            path.write_text(text)
    modules = {}
    for package in ("dlx", "sudoku"):          # dlx first: sudoku_<suffix> imports dlx_<suffix>
        name = f"{package}_{suffix}"
        spec = importlib.util.spec_from_file_location(name, scratch / name / "__init__.py",
                                                      submodule_search_locations=[str(scratch / name)])
        assert spec is not None and spec.loader is not None
        modules[package] = sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(modules[package])
    importlib.import_module(f"dlx_{suffix}.problems")
    return modules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="the tree before the change")
    parser.add_argument("after", type=Path, nargs="?", default=ROOT,
                        help="the tree after it (default: this working tree)")
    parser.add_argument("--rounds", type=int, help="rounds for every workload (default: per workload)")
    parser.add_argument("--only", help="comma-separated workload names")
    parser.add_argument("--first", choices=ORDERS, help=argparse.SUPPRESS)     # one child's load order
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(CASES)
    if args.first:
        with tempfile.TemporaryDirectory() as scratch:
            second = ORDERS[1] if args.first == ORDERS[0] else ORDERS[0]
            trees = {"before": args.before, "after": args.after}
            versions = {which: load_tree(trees[which], Path(scratch), which) for which in (args.first, second)}
            for name in names:
                print(json.dumps(measure(versions, name, args.rounds)), flush=True)
        return
    print("| workload | rounds | before: min / p25 / median (CPU s) | after: min / p25 / median | "
          "after/before: min / p25 / median | median ratio, before / after loaded first | answer |")
    print("|---|---:|---:|---:|---:|---:|---|")
    # one child at a time: two at once would share the processors and time each other
    results = {first: _child(first) for first in ORDERS}
    for name in names:
        runs = [results[first][name] for first in ORDERS]
        if runs[0] is None:
            print(f"| {name} | not measured (../shared/data absent) | | | | | |")
            continue
        times = {which: runs[0]["times"][which] + runs[1]["times"][which] for which in ("before", "after")}
        figures = {which: _figures(t) for which, t in times.items()}
        # each order's ratios, then their geometric mean: the load-order bias cancels
        per_order = [[a / b for a, b in zip(_figures(run["times"]["after"]), _figures(run["times"]["before"]))]
                     for run in runs]
        ratios = [math.sqrt(x * y) for x, y in zip(*per_order)]
        answers = set(runs[0]["answers"]["after"])
        same = all(set(run["answers"][w]) == answers for run in runs for w in ("before", "after"))
        cells = [" / ".join(f"{x:.4f}" for x in figures[w]) for w in ("before", "after")]
        print(f"| {name} | {len(times['after'])} | {cells[0]} | {cells[1]} | "
              f"{' / '.join(f'{x:.3f}' for x in ratios)} | "
              f"{per_order[0][2]:.3f} / {per_order[1][2]:.3f} | "
              f"{', '.join(map(str, answers))}{'' if same else ' (DIFFERS)'} |", flush=True)


#: Which tree a child loads first. Whichever loads second ran 3-6% slower on 17clue with the very
#: same kernel (where the arrays and code land in memory), so every comparison runs once each way.
ORDERS = ("before", "after")


def _child(first: str) -> dict:
    """The rounds of every workload, measured in a child process that loads ``first`` first."""
    run = subprocess.run([sys.executable, __file__, *sys.argv[1:], "--first", first], stdout=subprocess.PIPE,
                         text=True, check=False)
    if run.returncode:
        raise SystemExit(f"the child loading {first} first failed (exit status {run.returncode})")
    return {row["name"]: row if "times" in row else None for row in map(json.loads, run.stdout.splitlines())}


def _figures(t: list[float]) -> list[float]:
    return [min(t), float(np.percentile(t, 25)), float(np.median(t))]


def measure(versions: dict, name: str, rounds: int | None) -> dict:
    """CPU seconds of every round of each version of one workload, and the answers."""
    package, make, default_rounds = CASES[name]
    work = {which: make(modules[package]) for which, modules in versions.items()}
    if work["after"] is None:
        return {"name": name}
    answers = {which: {w()} for which, w in work.items()}       # warm-up, and the answer
    times: dict[str, list[float]] = {"before": [], "after": []}
    for r in range(rounds or default_rounds):
        for which in ("before", "after") if r % 2 == 0 else ("after", "before"):
            gc.collect()        # no collection of the other run's garbage in this one
            started = time.process_time()
            answers[which].add(work[which]())
            times[which].append(time.process_time() - started)
    return {"name": name, "times": times, "answers": {w: sorted(a) for w, a in answers.items()}}


if __name__ == "__main__":
    main()
