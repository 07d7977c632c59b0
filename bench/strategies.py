"""Where each search strategy pays: nodes and CPU seconds per instance, by strategy.

    python bench/strategies.py [--rounds 3] [--puzzles 200] [--quick]

Counts every solution of each instance (sudoku: limit 2 per puzzle, through a search of the
puzzle's remaining problem, as binary branching takes no Batch) with Dancing Links (``dlx``: DLX1,
DLX2 or DLX3), dancing cells d-way (``cells``: SSXC1/SSXCC; SSMCC with multiplicities, which
branches binary), binary branching with each heuristic (``cells/binary``, ``cells/binary/frb``,
``cells/binary/wtd``) and domain consistency with each (``dc``, ``dc/frb``, ``dc/wtd``, XCCDC: no
multiplicities); CPU time of one thread, the median of interleaved rounds, each structure
built before the clock starts; every count checked against the others. Writes the table to
bench/results/strategies.md; docs/performance.md quotes it and :func:`dlx.engines.choose` reads
its rule from it.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import dlx
from dlx import problems

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "data"
#: Nodes between two looks at the clock.
CHUNK = 200_000
STRATEGIES = ("dlx", "cells", "cells/binary", "cells/binary/frb", "cells/binary/wtd", "dc", "dc/frb", "dc/wtd")


def cycle(n: int) -> list[tuple[int, int]]:
    return [(i, (i + 1) % n) for i in range(n)]


#: label: (instance, quick too)
INSTANCES: dict[str, tuple[Callable[[], dlx.ExactCover], bool]] = {
    "queens 12": (lambda: problems.queens(12), True),
    "queens 14": (lambda: problems.queens(14), False),
    "Langford 11": (lambda: problems.langford(11), True),
    "Langford 12": (lambda: problems.langford(12), False),
    "pentominoes 3x20": (lambda: problems.pentominoes(3, 20), True),
    "pentominoes 6x10, X restricted": (lambda: problems.pentominoes(6, 10), False),
    "XCC: word squares 3x3": (problems.word_squares, True),
    "XCC: graceful C12": (lambda: problems.graceful(cycle(12)), True),
    "XCC: graceful C15": (lambda: problems.graceful(cycle(15)), False),
    "XCC: graceful K4 + pendant edges": (lambda: problems.graceful(
        [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (0, 4), (1, 5), (2, 6)]), True),
    "MCC: 7 queens on 9x9": (lambda: problems.k_queens(9, 7), True),
    "MCC: 8 queens on 10x10": (lambda: problems.k_queens(10, 8), False),
    "MCC: tetrominoes 5x8, two of each": (lambda: problems.packing(
        5, 8, problems.TETROMINOES, dict.fromkeys(problems.TETROMINOES, 2)), True),
    "MCC: tetrominoes 4x12, 1 to 3 of each": (lambda: problems.packing(
        4, 12, problems.TETROMINOES, dict.fromkeys(problems.TETROMINOES, (1, 3))), False),
}
#: Sudoku sets: label, file under ../shared/data (or examples/), puzzles read.
SUDOKU = [("sudoku top1465", "top1465.txt"), ("sudoku 17clue", "17clue.txt"), ("sudoku kaggle", "kaggle_10k.txt")]


def sudoku_problems(name: str, count: int) -> list[dlx.ExactCover]:
    """The remaining problems of the first ``count`` puzzles of a shared set (empty if absent)."""
    from sudoku import encode
    from sudoku.grid import parse_shaped
    path = SHARED / name
    if not path.exists():
        return []
    found = []
    for line in path.read_text().splitlines():
        puzzle = line.split(",")[0].strip()
        if len(puzzle) != 81:
            continue
        values, shape = parse_shaped(puzzle)
        problem, _ = encode.remaining(values, shape)
        if problem is not None:
            found.append(problem)
        if len(found) == count:
            break
    return found


def measure(problems_: list[dlx.ExactCover], strategy: str, limit: int | None,
            budget: float = float("inf")) -> tuple[int, int, float]:
    """Solutions, nodes and CPU seconds of counting every problem with ``strategy`` (solutions -1:
    stopped past ``budget`` CPU seconds; the run pauses every ``CHUNK`` nodes to look)."""
    solutions = nodes = 0
    started = time.process_time()
    for problem in problems_:
        with problem.search(limit=limit, max_nodes=CHUNK, engine=strategy) as run:
            while True:
                solutions += run.count()
                if run.status != "max_nodes":
                    break
                if time.process_time() - started > budget:
                    return -1, 0, budget
                run.resume(max_nodes=run.stats.nodes + CHUNK)
            nodes += run.stats.nodes
    return solutions, nodes, time.process_time() - started


def takes(strategy: str, problem: dlx.ExactCover) -> bool:
    """Whether ``strategy`` searches ``problem`` (domain consistency takes no multiplicities); its
    structure is built and its kernel loaded on the way."""
    try:
        problem.count(max_nodes=0, engine=strategy)
    except ValueError:
        return False
    return True


#: A strategy whose first run of an instance takes longer than this many CPU seconds runs once.
SLOW = 10.0
#: A run is stopped past this many CPU seconds (its cell says so).
BUDGET = 60.0


def row(label: str, problems_: list[dlx.ExactCover], limit: int | None, rounds: int,
        budget: float = BUDGET) -> dict:
    """Every strategy that takes the instance (or set), interleaved rounds; the count checked. A
    run is stopped at ``budget`` CPU seconds (its cell says so); one over ``SLOW`` runs once."""
    strategies = tuple(s for s in STRATEGIES if all(takes(s, problem) for problem in problems_))
    times: dict[str, list[float]] = {s: [] for s in strategies}
    figures: dict[str, tuple[int, int]] = {}
    over: set[str] = set()
    for r in range(rounds):
        for strategy in strategies[r % len(strategies):] + strategies[:r % len(strategies)]:
            if strategy in over or (r and times[strategy] and times[strategy][0] > SLOW):
                continue
            solutions, nodes, seconds = measure(problems_, strategy, limit, budget)
            if solutions < 0:
                over.add(strategy)
                continue
            times[strategy].append(seconds)
            figures[strategy] = (solutions, nodes)
    counts = {f[0] for f in figures.values()}
    if len(counts) != 1:
        raise AssertionError(f"{label}: the strategies disagree: {figures}")
    return {"label": label, "solutions": counts.pop(), "figures": figures, "over": over, "budget": budget,
            "cpu": {s: statistics.median(t) for s, t in times.items() if t}}


def table(rows: list[dict]) -> str:
    lines = ["| instance | solutions | " + " | ".join(STRATEGIES) + " | fastest |",
             "|---|---:|" + "---:|" * len(STRATEGIES) + "---|"]
    for r in rows:
        best = min(r["cpu"], key=r["cpu"].get)
        cells = [f"{r['figures'][s][1]:,} nodes, {r['cpu'][s]:.3g} s" if s in r["cpu"]
                 else f"> {r['budget']:g} s" if s in r["over"] else "refused" for s in STRATEGIES]
        lines.append(f"| {r['label']} | {r['solutions']:,} | " + " | ".join(cells) + f" | {best} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--puzzles", type=int, default=200, help="puzzles per sudoku set (default %(default)s)")
    parser.add_argument("--quick", action="store_true", help="the small instances, one round, 50 puzzles")
    args = parser.parse_args()
    rounds = 1 if args.quick else args.rounds
    rows = []
    for label, (make, quick) in INSTANCES.items():
        if args.quick and not quick:
            continue
        rows.append(row(label, [make()], None, rounds))
        print(table(rows[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
    for label, name in SUDOKU:
        puzzles = sudoku_problems(name, 50 if args.quick else args.puzzles)
        if puzzles:
            rows.append(row(f"{label}, {len(puzzles)} puzzles, limit 2", puzzles, 2, rounds))
            print(table(rows[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
    text = (f"CPU seconds (one thread, median of {rounds} interleaved rounds) and nodes, by strategy; "
            f"{time.strftime('%Y-%m-%d')}.\n\n" + table(rows) + "\n")
    print(text)
    out = HERE / "results" / ("strategies-quick.md" if args.quick else "strategies.md")
    out.parent.mkdir(exist_ok=True)
    out.write_text(text)


if __name__ == "__main__":
    main()
