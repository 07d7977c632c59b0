"""Speed-up over threads (and Dask workers): wall time of the same work on 1 and N threads, in
interleaved rounds, medians. Counts (queens, pentominoes, Langford) split by dlx.parallel; sudoku
sets through the whole-array path (sudoku.solve_array) and through solve_all (a Result per puzzle).

    python bench/scaling.py --jobs 1,2 --rounds 3
    python bench/scaling.py --jobs 1,16 --only queens16,17clue --data ../shared/data
    python bench/scaling.py --dask 2 --only queens14      # a LocalCluster of 2 worker processes

Every run checks its answer against the one-thread run's. Prints a Markdown table.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

import sudoku
from dlx import problems
from sudoku.grid import read_array

SETS = ("17clue", "kaggle_10k", "top1465", "forum_hardest_1905_11plus", "forum_hardest_1106")


def count_case(make, engine="auto"):
    problem = make()

    def run(jobs, client=None):
        n = problem.count(engine=engine, jobs=jobs, client=client)
        return n, problem.stats.nodes
    return run


def array_case(values, repeat=1):
    values = np.concatenate([values] * repeat)

    def run(jobs, client=None):
        solved = sudoku.solve_array(values, limit=2, jobs=jobs)
        return int(solved.counts.sum()), int(solved.nodes.sum())
    return run


def results_case(lines):
    def run(jobs, client=None):
        results = list(sudoku.solve_all(lines, limit=2, jobs=jobs, client=client))
        return sum(r.count for r in results), sum(r.nodes for r in results)
    return run


def cases(data: Path) -> dict:
    found = {
        "queens14": count_case(lambda: problems.queens(14), "dlx"),
        "queens15": count_case(lambda: problems.queens(15), "dlx"),
        "queens16": count_case(lambda: problems.queens(16), "dlx"),
        "queens17": count_case(lambda: problems.queens(17), "dlx"),
        "pentominoes6x10": count_case(lambda: problems.pentominoes(6, 10)),
        "pentominoes6x10 all (dlx)": count_case(lambda: problems.pentominoes(6, 10, symmetric=True), "dlx"),
        "langford12": count_case(lambda: problems.langford(12), "dlx"),
        "langford13": count_case(lambda: problems.langford(13), "dlx"),
    }
    for name in SETS:
        path = data / f"{name}.txt"
        if path.is_file():
            values, _ = read_array(path.read_bytes())
            repeat = max(1, 40000 // len(values)) if name == "kaggle_10k" else 1
            found[name] = array_case(values, repeat)
            found[f"{name} (solve_all)"] = results_case(path.read_text().split() * repeat)
    return found


def overhead(client, tasks: int = 400) -> float:
    """Milliseconds per task for tasks that do almost nothing: pieces of queens 8 at depth 4."""
    from dlx import distributed, parallel
    queens = problems.queens(8)
    pieces = parallel.split(queens, 4, engine="dlx")[0]
    pieces = (pieces * (tasks // len(pieces) + 1))[:tasks]
    shared = client.scatter(queens, broadcast=True, hash=False)
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        futures = [client.submit(distributed.search_task, shared, "dlx", p, False, 1 << 62, pure=False)
                   for p in pieces]
        total = sum(o.count for o in client.gather(futures))
        best = min(best, time.perf_counter() - started)
        assert total > 0
    return 1000 * best / tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", default="1,2", help="thread counts, the first the baseline (default 1,2)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", help="comma-separated case names")
    parser.add_argument("--data", default=str(HERE.parent.parent / "shared" / "data"))
    parser.add_argument("--dask", type=int, metavar="W", help="also W Dask worker processes (LocalCluster)")
    parser.add_argument("--cold", action="store_true",
                        help="no warm-up run of each case on the most threads (for cases of minutes)")
    args = parser.parse_args()
    jobs = [int(j) for j in args.jobs.split(",")]
    table = cases(Path(args.data))
    names = args.only.split(",") if args.only else list(table)
    client = cluster = None
    if args.dask:
        from distributed import Client, LocalCluster
        cluster = LocalCluster(n_workers=args.dask, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    ways = [(f"{j} thread{'s' * (j > 1)}", j, None) for j in jobs]
    if client is not None:
        ways.append((f"Dask {args.dask} workers", 1, client))
    print(f"cores: {os.cpu_count()}; wall seconds, median of {args.rounds} interleaved rounds\n")
    print("| case | " + " | ".join(w for w, _, _ in ways) + " | " +
          " | ".join(f"{w} speed-up" for w, _, _ in ways[1:]) + " |")
    print("|---|" + "---:|" * (2 * len(ways) - 1))
    for name in names:
        run = table[name]
        for _, j, c in ways:        # load the kernels (in the Dask workers too) before the clock
            problems.queens(8).count(jobs=j, client=c)
            sudoku.solve_array(np.zeros((4, 81), np.uint8), jobs=j)
        if not args.cold:
            run(max(jobs), None)    # and whatever this case needs (dancing cells, say)
        times: dict[str, list[float]] = {w: [] for w, _, _ in ways}
        expected = None
        for _ in range(args.rounds):
            for w, j, c in ways:
                started = time.perf_counter()
                answer = run(j, c)
                times[w].append(time.perf_counter() - started)
                expected = expected or answer
                assert answer[0] == expected[0], (name, w, answer, expected)
        medians = [statistics.median(times[w]) for w, _, _ in ways]
        print(f"| {name} | " + " | ".join(f"{m:.3f}" for m in medians) + " | " +
              " | ".join(f"{medians[0] / m:.2f}x" for m in medians[1:]) + " |", flush=True)
    if client is not None:
        print(f"\nDask overhead: {overhead(client):.2f} ms of wall time per task (tiny tasks, "
              f"{args.dask} workers)")
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
