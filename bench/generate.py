"""Puzzle generation beside QQWing, in one run: puzzles per CPU-second (one thread), and what the
puzzles are like (givens, minimal or not, rating).

    python bench/generate.py [--puzzles 500] [--rounds 5]
    python bench/generate.py --levels-and-sizes [--seeds 20]

The second form times what the levels and the other sizes cost: ``sudoku generate 10 --difficulty
LEVEL --seed S`` as a whole process (CPU time of the child, start-up included) for 5 seeds per
level, and one puzzle of each size (6x6, 12x12, 16x16) in process for each of ``--seeds`` seeds,
median and worst.

Ours is timed in process after a warm-up (CPU time, the kernels loaded), and as a whole command
(`sudoku generate N`, start-up included). QQWing (`qqwing --generate N --one-line`, the Debian
package: `apt install qqwing`) is timed as a whole process, its CPU time from the child's rusage;
it is reported as not measured when it is not installed. Each figure is the median of the rounds,
interleaved.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

import sudoku
from sudoku import generator
from sudoku.grid import parse


def child_cpu(command: list[str]) -> tuple[float, str]:
    """CPU seconds (user + system) of a child process, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def minimal_share(puzzles: list[str]) -> float:
    """The share of puzzles from which no single given can be taken away."""
    minimal = 0
    for p in puzzles:
        values = parse(p)
        rows = []
        for c in np.flatnonzero(values):
            row = values.copy()
            row[c] = 0
            rows.append(row)
        minimal += all(r.count >= 2 for r in sudoku.solve_all(rows, limit=2, jobs=1))
    return minimal / len(puzzles)


def describe(name: str, puzzles: list[str]) -> str:
    givens = [81 - p.count(".") for p in puzzles]
    unique = sum(r.count == 1 for r in sudoku.solve_all(puzzles, limit=2, jobs=1)) / len(puzzles)
    ratings = list(sudoku.rate_all(puzzles, jobs=1))
    scores = [r.score for r in ratings if not isinstance(r, Exception)]
    levels = {}
    for r in ratings:
        if not isinstance(r, Exception):
            levels[r.level] = levels.get(r.level, 0) + 1
    minimal = minimal_share(puzzles[:200])
    return (f"| {name} | {statistics.mean(givens):.1f} | {100 * unique:.0f}% | {100 * minimal:.0f}% "
            f"| {statistics.median(scores):.2f} | {', '.join(f'{k} {v}' for k, v in levels.items())} |")


def levels_and_sizes(seeds: int) -> None:
    """CPU seconds for each level (whole commands) and each size (in process), median and worst."""
    from sudoku.rating import LEVELS
    command = [str(Path(sys.executable).parent / "sudoku"), "generate", "10", "--quiet"]
    print("| level | `sudoku generate 10 --difficulty LEVEL --seed S`, CPU s per process: S = 1..5 | worst |")
    print("|---|---|---:|")
    for level in LEVELS:
        times = []
        for seed in range(1, 6):
            seconds, out = child_cpu([*command, "--difficulty", level, "--seed", str(seed)])
            assert all(sudoku.rate(p).level == level for p in out.split())
            times.append(seconds)
        print(f"| {level} | {', '.join(f'{t:.2f}' for t in times)} | {max(times):.2f} |")
    print(f"\n| size | one puzzle, CPU ms in process: median of {seeds} seeds | worst | mean givens |")
    print("|---|---:|---:|---:|")
    for size in (6, 9, 12, 16):
        sudoku.generate(seed=0, size=size)
        times, givens = [], []
        for seed in range(seeds):
            started = time.process_time()
            puzzle = sudoku.generate(seed=seed, size=size)
            times.append(time.process_time() - started)
            givens.append(sum(ch != "." for ch in puzzle))
        print(f"| {size}x{size} | {1000 * statistics.median(times):.1f} | {1000 * max(times):.1f} | "
              f"{statistics.mean(givens):.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--levels-and-sizes", action="store_true", help="time the levels and the sizes instead")
    parser.add_argument("--seeds", type=int, default=20)
    args = parser.parse_args()
    if args.levels_and_sizes:
        levels_and_sizes(args.seeds)
        return
    n = args.puzzles
    qqwing = shutil.which("qqwing")
    sudoku_command = [str(Path(sys.executable).parent / "sudoku")]
    sudoku.generate(seed=0)
    times: dict[str, list[float]] = {"ours, in process": [], "ours, symmetric": [], "ours, grid only": [],
                                     "ours, sudoku generate (process)": [], "qqwing --generate (process)": []}
    seed = 1
    ours: list[str] = []
    for _ in range(args.rounds):
        started = time.process_time()
        ours = [sudoku.generate(seed=seed + k) for k in range(n)]
        times["ours, in process"].append(time.process_time() - started)
        started = time.process_time()
        for k in range(n):
            sudoku.generate(seed=seed + k, symmetric=True)
        times["ours, symmetric"].append(time.process_time() - started)
        started = time.process_time()
        rng = np.random.default_rng(seed)
        for _ in range(n):
            generator.solved_grid(3, rng)
        times["ours, grid only"].append(time.process_time() - started)
        times["ours, sudoku generate (process)"].append(
            child_cpu([*sudoku_command, "generate", str(n), "--seed", str(seed), "--quiet"])[0])
        if qqwing:
            seconds, out = child_cpu([qqwing, "--generate", str(n), "--one-line"])
            times["qqwing --generate (process)"].append(seconds)
            theirs = out.split()
        seed += n
    print(f"{n} minimal 9x9 puzzles per round, {args.rounds} rounds, medians of CPU time\n")
    print("| generator | puzzles per CPU-second | ms per puzzle |")
    print("|---|---:|---:|")
    for name, values in times.items():
        if not values:
            print(f"| {name} | not measured (not installed) | |")
            continue
        median = statistics.median(values)
        print(f"| {name} | {n / median:,.0f} | {1000 * median / n:.2f} |")
    print("\n| puzzles | mean givens | unique | minimal (first 200) | median rating | levels |")
    print("|---|---:|---:|---:|---:|---|")
    print(describe("ours", ours))
    if qqwing:
        print(describe("qqwing", theirs))
    print(f"\nmachine: {os.cpu_count()} CPUs; numpy {np.__version__}")


if __name__ == "__main__":
    main()
