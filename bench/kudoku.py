"""Sudoku beside kudoku: `sudoku.solve_array` (one thread) and each engine's batch kernel against
kudoku, the C exact-cover sudoku solver without links kept in tdoku's repository (other/kudoku,
MIT), on every public set at limit 2 and limit 1, puzzles per CPU-second.

    python bench/kudoku.py --kudoku PATH/TO/kudoku.c [--rounds 3] [--sets 17clue,kaggle_10k] [--engines dlx,compact]

kudoku is not installable: point ``--kudoku`` at its source (tdoku's ``other/kudoku/kudoku.c``).
This script compiles it with a small driver (``cc -O3 -march=native``, in a scratch folder) that
reads a set once and times one pass over it with its own CPU clock, so the process start and the
reading are not timed. Every round runs each solver once on the whole set, in turn; the table
gives medians. Every answer of ours is checked against the set's solutions, and kudoku's number
of solutions against ours.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sudoku_sets import SHARED

import dlx
import sudoku
from sudoku import encode
from sudoku.grid import read_array

SETS = ("17clue", "top1465", "forum_hardest_1905_11plus", "kaggle_10k", "forum_hardest_1106", "serg_benchmark")
ENGINES = ("dlx", "compact")

DRIVER = r"""
#include "kudoku.c"
#include <stdio.h>
#include <string.h>
#include <time.h>
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
                          return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "r"); size_t limit = atoi(argv[2]);
    static char line[256]; size_t cap = 1 << 16, n = 0; char **puzzles = malloc(cap * sizeof *puzzles);
    while (fgets(line, sizeof line, f)) {
        if (strlen(line) < 81) continue;
        if (n == cap) puzzles = realloc(puzzles, (cap *= 2) * sizeof *puzzles);
        puzzles[n] = malloc(82); memcpy(puzzles[n], line, 81); puzzles[n][81] = 0;
        for (int i = 0; i < 81; i++) if (puzzles[n][i] == '0') puzzles[n][i] = '.';
        n++;
    }
    char solution[82]; size_t guesses; long found = 0;
    OtherSolverKudoku(puzzles[0], limit, 0, solution, &guesses);   /* its tables, out of the clock */
    double start = cpu();
    for (size_t i = 0; i < n; i++) found += OtherSolverKudoku(puzzles[i], limit, 0, solution, &guesses);
    printf("%zu %.9f %ld\n", n, cpu() - start, found);
    return 0;
}
"""


def build(source: Path, folder: Path) -> Path:
    """kudoku with the driver above, compiled in ``folder``."""
    (folder / "kudoku.c").write_text(source.read_text())
    (folder / "driver.c").write_text(DRIVER)
    binary = folder / "kudoku"
    subprocess.run([os.environ.get("CC", "cc"), "-O3", "-march=native", "-w", "-o", str(binary),
                    str(folder / "driver.c")], check=True)
    return binary


def kudoku_pass(binary: Path, path: Path, limit: int) -> tuple[float, int]:
    """CPU seconds of one pass of kudoku over the set at ``path``, and its solutions in all."""
    n, seconds, found = subprocess.run([str(binary), str(path), str(limit)], capture_output=True, text=True,
                                       check=True).stdout.split()
    return float(seconds), int(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kudoku", type=Path, required=True, help="kudoku.c from tdoku's other/kudoku")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sets", help="comma-separated set names (default: all six)")
    parser.add_argument("--engines", default=",".join(ENGINES),
                        help="comma-separated engines whose batch kernels get a column (default: %(default)s)")
    args = parser.parse_args()
    names = args.sets.split(",") if args.sets else SETS
    if not (SHARED / "top1465.txt").is_file():
        raise SystemExit("../shared/data is not present: nothing to measure")
    scratch = Path(tempfile.mkdtemp())
    binary = build(args.kudoku, scratch)
    problem = encode.problem(3)
    engines = args.engines.split(",") if args.engines else []
    batches = {name: dlx.Batch(problem, [9] * 81, engine=name) for name in engines}
    print(f"`python bench/kudoku.py` on {time.strftime('%Y-%m-%d')}, {args.rounds} rounds, medians; puzzles per "
          f"CPU-second, one thread. default: `sudoku.solve_array` (its batch runs the engine "
          f"`{encode.batch(3).engine.name}`); kudoku compiled with -O3 -march=native.\n", flush=True)
    columns = ["set", "limit", "puzzles", "default", *(f"engine={e}" for e in engines), "kudoku", "default / kudoku"]
    print("| " + " | ".join(columns) + " |")
    print("|---|" + "---:|" * (len(columns) - 1))
    for name in names:
        path = SHARED / f"{name}.txt"
        grid, ok = read_array(path.read_bytes())
        assert ok.all()
        answers = SHARED / f"{name}.solutions.txt"
        expected = read_array(answers.read_bytes())[0] if answers.is_file() else None
        for limit in (2, 1):
            runs = {"default": lambda g=grid, k=limit: sudoku.solve_array(g, limit=k)}
            runs |= {e: (lambda g=grid, k=limit, b=b: b.solve(g, k)) for e, b in batches.items()}
            counts = None
            for who, run in runs.items():        # warm-up and check
                solved = run()
                if expected is not None:
                    assert (solved.answers if hasattr(solved, "answers") else solved.grid).tolist() == \
                        expected.tolist(), f"{who}: a wrong answer on {name}"
                if counts is None:
                    counts = int(solved.counts.sum())
                assert int(solved.counts.sum()) == counts, f"{who}: counts differ on {name}"
            times: dict[str, list[float]] = {who: [] for who in [*runs, "kudoku"]}
            for _ in range(args.rounds):
                for who, run in runs.items():
                    started = time.process_time()
                    run()
                    times[who].append(time.process_time() - started)
                seconds, found = kudoku_pass(binary, path, limit)
                assert found == counts, f"kudoku found {found} solutions on {name} at limit {limit}, we {counts}"
                times["kudoku"].append(seconds)
            rate = {who: grid.shape[0] / statistics.median(t) for who, t in times.items()}
            print(f"| {name} | {limit} | {grid.shape[0]:,} | " + " | ".join(f"{rate[w]:,.0f}" for w in times)
                  + f" | {rate['default'] / rate['kudoku']:.2f} |", flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
