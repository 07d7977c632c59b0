"""The sudoku speed table: puzzles per CPU-second on each public set, limit 2 (solve and prove
unique, tdoku's standard mode) and limit 1, from the 81-character lines to the answers, single thread;
the 2-thread speed-up; xcover on the same hard puzzles.

    python bench/sudoku_table.py [--rounds 3] [--quick]

Every answer is checked against the set's solutions (or counts). Medians of the rounds, after a
warm-up, so compilation is never timed. Takes about 3 minutes on a 2-core machine (--quick: 30 s).
"""
from __future__ import annotations

import argparse
import statistics
import time

from sudoku_sets import SETS, SHARED, load, solve_set, xcover_solver

import sudoku

TARGETS = {  # the targets, puzzles per CPU-second: (limit 2, limit 1)
    "17clue": (64_000, 105_000), "top1465": (16_000, 30_000),
    "forum_hardest_1905_11plus": (4_200, 7_700), "forum_hardest_1106": (2_000, None),
    "kaggle_10k": (140_000, None),
}


def timed(run, rounds: int, clock=time.process_time) -> float:
    run()                                   # warm-up: compile or cache load, first allocations
    times = []
    for _ in range(rounds):
        start = clock()
        run()
        times.append(clock() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="at most 5,000 puzzles per set, 1 round")
    args = parser.parse_args()
    size = 5000 if args.quick else None
    rounds = 1 if args.quick else args.rounds
    if not (SHARED / "top1465.txt").is_file():
        raise SystemExit("../shared/data is not present: nothing to measure")

    print("| set | puzzles | limit 2 (puzzles/CPU-s) | limit 1 | nodes per puzzle (limit 2) "
          "| target limit 2 (limit 1) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in SETS:
        puzzles, solutions = load(name, size)
        rates = []
        for limit in (2, 1):
            results = list(sudoku.solve_all(puzzles, limit=limit))
            assert [r.solution for r in results] == solutions, f"wrong answer on {name}"
            if limit == 2:
                assert all(r.count == 1 for r in results), f"{name}: not all unique?"
                nodes = statistics.fmean(r.nodes for r in results)
            rates.append(len(puzzles) / timed(lambda p=puzzles, k=limit: solve_set(p, k), rounds))
        t2, t1 = TARGETS[name]
        target = f"{t2:,}" + (f" ({t1:,})" if t1 else "")
        print(f"| {name} | {len(puzzles):,} | {rates[0]:,.0f} | {rates[1]:,.0f} | {nodes:,.0f} | {target} |")

    puzzles, counts = load("serg_benchmark", size)
    want = [int(c) for c in counts]
    run = lambda: [r.count for r in sudoku.solve_all(puzzles, limit=10**6)]
    assert run() == want
    seconds = timed(run, rounds)
    print(f"| serg_benchmark, count all ({sum(want):,} solutions) | {len(puzzles):,} | "
          f"{len(puzzles) / seconds:,.0f} (count all) | | | report |")

    hard, solutions = load("forum_hardest_1905_11plus", 10_000 if not args.quick else 2_000)
    wall = {jobs: timed(lambda j=jobs: solve_set(hard, 2, j), rounds, time.perf_counter) for jobs in (1, 2)}
    print(f"\nTwo threads (`jobs=2`), {len(hard):,} forum_hardest_1905_11plus puzzles, limit 2, wall time: "
          f"{len(hard) / wall[1]:,.0f} -> {len(hard) / wall[2]:,.0f} puzzles/s, speed-up {wall[1] / wall[2]:.2f}x")

    try:
        one = xcover_solver()
    except ImportError:
        print("\nxcover is not installed (pip install -e '.[bench]'): no comparison")
        return
    for name in ("top1465", "forum_hardest_1106"):
        puzzles, solutions = load(name, 300 if args.quick else None)
        assert [one(p)[0] for p in puzzles] == solutions
        assert solve_set(puzzles, 2) == solutions
        ours = timed(lambda p=puzzles: solve_set(p, 2), rounds)
        theirs = timed(lambda ps=puzzles: [one(p) for p in ps], 1)
        print(f"\nxcover beside us, first {len(puzzles)} of {name}, limit 2, CPU: xcover "
              f"{len(puzzles) / theirs:,.0f} puzzles/s, sudoku {len(puzzles) / ours:,.0f} puzzles/s: "
              f"{theirs / ours:.1f}x")


if __name__ == "__main__":
    main()
