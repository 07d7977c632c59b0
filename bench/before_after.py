"""Before/after a change: the same workloads on two source trees, interleaved in one process.

    git archive <commit> | tar -x -C /tmp/before
    python bench/before_after.py /tmp/before [--rounds 21] [--only queens14,...]

The before tree's packages are copied to a scratch folder as ``dlx_before`` and ``sudoku_before``
(their imports of ``dlx`` rewritten), so both versions load side by side in one process and every
round times one run of each, in alternating order, with CPU time (one thread). On a shared machine
single runs vary by 30% and more (they come in a fast and a slow mode), so the table gives the
minimum, the lower quartile and the median of each, and the ratios after/before (below 1: faster).
Answers are compared, so a change that alters a count is caught here too. The sudoku sets come
from ../shared/data and are skipped when it is absent.
"""
from __future__ import annotations

import argparse
import importlib
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from sudoku_sets import SHARED

#: name: (package, make the workload from the package, rounds by default)
CASES = {
    "queens14": ("dlx", lambda m: m.problems.queens(14).count, 11),
    "pentominoes6x10 all": ("dlx", lambda m: m.problems.pentominoes(6, 10, symmetric=True).count, 7),
    "langford12": ("dlx", lambda m: m.problems.langford(12).count, 21),
    "top1465 limit 2": ("sudoku", lambda m: _sudoku_set(m, "top1465"), 21),
    "17clue limit 2": ("sudoku", lambda m: _sudoku_set(m, "17clue"), 11),
}


def _sudoku_set(sudoku, name: str):
    path = SHARED / f"{name}.txt"
    if not path.is_file():
        return None
    puzzles = path.read_text().split()
    return lambda: sum(r.count for r in sudoku.solve_all(puzzles, limit=2, jobs=1))


def load_before(tree: Path, scratch: Path) -> dict[str, object]:
    """The before tree's ``dlx`` and ``sudoku`` as ``dlx_before`` and ``sudoku_before``."""
    for package in ("dlx", "sudoku"):
        target = scratch / f"{package}_before"
        shutil.copytree(tree / package, target, ignore=shutil.ignore_patterns("__pycache__"))
        for path in target.rglob("*.py"):
            text = path.read_text()
            text = re.sub(r"^import dlx$", "import dlx_before as dlx", text, flags=re.M)
            text = re.sub(r"^from dlx(\.| )", r"from dlx_before\1", text, flags=re.M)
            path.write_text(text)
    sys.path.insert(0, str(scratch))
    return {package: importlib.import_module(f"{package}_before") for package in ("dlx", "sudoku")}


def load_after() -> dict[str, object]:
    return {package: importlib.import_module(package) for package in ("dlx", "sudoku")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("--rounds", type=int, help="rounds for every workload (default: per workload)")
    parser.add_argument("--only", help="comma-separated workload names")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(CASES)
    with tempfile.TemporaryDirectory() as scratch:
        versions = {"before": load_before(args.before, Path(scratch)), "after": load_after()}
        importlib.import_module("dlx.problems")
        importlib.import_module("dlx_before.problems")
        print("| workload | rounds | before: min / p25 / median (CPU s) | after: min / p25 / median | "
              "after/before: min / p25 / median | answer |")
        print("|---|---:|---:|---:|---:|---|")
        for name in names:
            package, make, rounds = CASES[name]
            work = {which: make(modules[package]) for which, modules in versions.items()}
            if work["after"] is None:
                print(f"| {name} | not measured (../shared/data absent) | | | | |")
                continue
            answers = {which: {w()} for which, w in work.items()}       # warm-up, and the answer
            times: dict[str, list[float]] = {"before": [], "after": []}
            for r in range(args.rounds or rounds):
                for which in ("before", "after") if r % 2 == 0 else ("after", "before"):
                    started = time.process_time()
                    answers[which].add(work[which]())
                    times[which].append(time.process_time() - started)
            figures = {which: [min(t), float(np.percentile(t, 25)), float(np.median(t))]
                       for which, t in times.items()}
            ratios = [a / b for a, b in zip(figures["after"], figures["before"])]
            same = answers["before"] == answers["after"] and len(answers["after"]) == 1
            cells = [" / ".join(f"{x:.4f}" for x in figures[w]) for w in ("before", "after")]
            print(f"| {name} | {len(times['after'])} | {cells[0]} | {cells[1]} | "
                  f"{' / '.join(f'{x:.3f}' for x in ratios)} | "
                  f"{', '.join(map(str, answers['after']))}{'' if same else ' (DIFFERS)'} |", flush=True)


if __name__ == "__main__":
    main()
