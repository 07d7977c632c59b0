"""Agreement with HoDoKu: levels, scores and first hints, set by set, and the speed beside it.

For each public set (../shared/data), ``--count`` puzzles drawn with ``--seed``, and ``--generated``
puzzles of each HoDoKu level made by ``sudoku.generate(scale="hodoku")``: HoDoKu's grade and
first step (hodoku-py, a port of HoDoKu 2.2.0; GPL-3, so a bench dependency only: its outputs
are compared, its code is not used) beside ours. Prints:

- the agreement table: the same level; the same score, of the puzzles HoDoKu grades easy to
  unfair; the same first hint (technique, placements and eliminations);
- the speed table: CPU seconds per puzzle of each, one thread, side by side in one run, on the
  first ``--speed`` puzzles of each set: ``--rounds`` interleaved rounds (theirs on them all, then
  ours on them all), the median round of each. Rounds, not puzzle by puzzle: switching programs
  every puzzle leaves each starting cold (caches filled by the other), which costs the faster one
  most (ours took 2.3x longer on kaggle_10k interleaved puzzle by puzzle than alone);
- how often each of our techniques was used, per set;
- the disagreements (``--show`` per set), with the step where the solve paths part.

hodoku-py is slow on hard puzzles (seconds each), so its answers are kept in ``--cache`` (a
folder outside git, one JSON line per puzzle) and a rerun only asks it about new puzzles.

    python bench/hodoku_agreement.py --count 1000 --generated 50
    python bench/hodoku_agreement.py --sets 17clue kaggle_10k --count 200 --show 5
"""
from __future__ import annotations

import argparse
import collections
import gc
import json
import random
import statistics
import sys
import time
from pathlib import Path

from sudoku_sets import ROOT, SHARED

import sudoku
from sudoku import techniques
from sudoku.techniques import human

#: The public sets whose puzzles have one solution (serg_benchmark's have many: nothing to grade).
SETS = ["17clue", "top1465", "forum_hardest_1905_11plus", "forum_hardest_1106", "kaggle_10k"]
#: Our technique names for HoDoKu's solution types where they differ from the type's text.
ALIASES = {"Bivalue Universal Grave + 1": "Bivalue Universal Grave + 1"}


def theirs(puzzle: str, solver: object) -> dict:
    """HoDoKu's grade, steps and first step of ``puzzle``, with the CPU time it took."""
    started = time.process_time()
    result = solver.solve(puzzle)            # type: ignore[attr-defined]
    seconds = time.process_time() - started
    steps = [[s.type.value, list(s.indices), list(s.values), [[c.index, c.value] for c in s.candidates_to_delete]]
             for s in result.steps]
    return {"p": puzzle, "level": result.level.name.lower(), "score": result.score, "steps": steps,
            "seconds": seconds}


def effect(step: list) -> tuple[str, frozenset, frozenset]:
    """A HoDoKu step as (technique, placements, eliminations)."""
    name, indices, values, removed = step
    placed = frozenset(zip(indices, values)) if not removed else frozenset()
    return ALIASES.get(name, name), placed, frozenset(map(tuple, removed))


def ours(puzzle: str) -> dict:
    used = []
    path = []
    started = time.process_time()
    walked = list(techniques.walk(puzzle))        # the whole path with its steps, as hodoku-py's solve gives
    seconds = time.process_time() - started
    for technique, step in walked:
        used.append(technique)
        path.append((step.technique, frozenset(step.placed), frozenset(step.removed)))
    score, level = human.grade_of(used)
    return {"level": level, "score": score, "path": path, "seconds": seconds}


def rounds(puzzles: list[str], solver: object, count: int) -> tuple[float, float]:
    """CPU seconds per puzzle of hodoku-py's solve and of our walk (each giving the whole path with
    its steps) on ``puzzles``: ``count`` rounds of theirs on all, then ours on all; the medians."""
    mine, hers = [], []
    for _ in range(count):
        started = time.process_time()
        for puzzle in puzzles:
            solver.solve(puzzle)             # type: ignore[attr-defined]
        hers.append(time.process_time() - started)
        started = time.process_time()
        for puzzle in puzzles:
            list(techniques.walk(puzzle))
        mine.append(time.process_time() - started)
    return statistics.median(hers) / len(puzzles), statistics.median(mine) / len(puzzles)


def draw(name: str, count: int, seed: int) -> list[str]:
    path = SHARED / f"{name}.txt"
    if not path.is_file():
        path = ROOT / "examples" / "top20.txt"
    puzzles = [p for p in path.read_text().split() if not p.startswith("#")]
    if seed == 0:
        return puzzles[:count]                 # the first ones, so that the cache serves every rerun
    return puzzles if len(puzzles) <= count else random.Random(f"{seed}:{name}").sample(puzzles, count)


def generated(per_level: int, seed: int) -> list[str]:
    out = []
    for k, level in enumerate(techniques.LEVELS):
        for j in range(per_level):
            try:
                out.append(sudoku.generate(seed=seed * 100_000 + k * 10_000 + j, difficulty=level, scale="hodoku",
                                           tries=200))
            except ValueError:
                break                       # this level is rare among minimal puzzles: fewer of it
    return out


class Cache:
    """hodoku-py's answers, one JSON line per puzzle, in a folder outside git."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / "hodoku-py.jsonl"
        self.known: dict[str, dict] = {}
        if self.path.is_file():
            for line in self.path.read_text().splitlines():
                row = json.loads(line)
                self.known[row["p"]] = row

    def get(self, puzzle: str, solver: object) -> dict:
        if puzzle not in self.known:
            row = theirs(puzzle, solver)
            self.known[puzzle] = row
            with self.path.open("a") as f:
                f.write(json.dumps(row) + "\n")
        return self.known[puzzle]


def parted(mine: list, hodoku: list) -> str:
    """Where two solve paths part: the step number and both steps."""
    for k, (a, b) in enumerate(zip(mine, hodoku), 1):
        if a != b:
            return f"step {k}: ours {a[0]} {sorted(a[1]) or sorted(a[2])}, HoDoKu {b[0]} {sorted(b[1]) or sorted(b[2])}"
    return f"the paths agree for {min(len(mine), len(hodoku))} steps, then one ends"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="*", default=SETS)
    parser.add_argument("--count", type=int, default=1000, help="puzzles drawn from each set")
    parser.add_argument("--generated", type=int, default=0, help="generated puzzles of each HoDoKu level")
    parser.add_argument("--seed", type=int, default=0, help="0: the first --count puzzles of each set; else a "
                        "sample drawn from this seed")
    parser.add_argument("--speed", type=int, default=20, help="puzzles per set timed side by side")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the timing")
    parser.add_argument("--show", type=int, default=3, help="disagreements listed per set")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "numba-dlx-bench")
    args = parser.parse_args()
    try:
        import hodoku
    except ImportError:
        sys.exit("hodoku-py is not installed: pip install hodoku-py (a bench dependency only, GPL-3)")
    solver = hodoku.Solver()
    cache = Cache(args.cache)
    groups = {name: draw(name, args.count, args.seed) for name in args.sets}
    if args.generated:
        groups["generated"] = generated(args.generated, args.seed)
    warm = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    ours(warm), theirs(warm, solver)          # loaded (the engine's kernels, hodoku-py's tables) before timing
    # the cache's rows (millions of objects) out of the garbage collector's sight: else every full
    # collection, which either solver's allocations set off, walks them all on that solver's clock
    gc.collect()
    gc.freeze()
    rows, usage, shown = [], {}, []
    for name, puzzles in groups.items():
        same_level = same_score = graded = same_hint = 0
        levels: collections.Counter = collections.Counter()
        used: collections.Counter = collections.Counter()
        for puzzle in puzzles:
            their_row = cache.get(puzzle, solver)
            mine = ours(puzzle)
            path = [effect(s) for s in their_row["steps"]]
            used.update(t for t, _, _ in mine["path"])
            levels[(their_row["level"], mine["level"])] += 1
            same_level += their_row["level"] == mine["level"]
            if their_row["level"] != "extreme":
                graded += 1
                same_score += their_row["score"] == mine["score"]
            same_hint += bool(path) and path[0] == mine["path"][0]
            if (their_row["level"] != mine["level"] or path[:1] != mine["path"][:1]) and \
                    sum(s[0] == name for s in shown) < args.show:
                shown.append((name, puzzle, f"HoDoKu {their_row['level']} {their_row['score']}, ours "
                              f"{mine['level']} {mine['score']}; {parted(mine['path'], path)}"))
        n = len(puzzles)
        rows.append((name, n, same_level / n, same_score / graded if graded else float("nan"), graded,
                     same_hint / n, levels))
        usage[name] = used
    print("| set | puzzles | same level | same score (easy-unfair) | same first hint |")
    print("|---|---:|---:|---:|---:|")
    for name, n, level, score, graded, hint, _ in rows:
        print(f"| {name} | {n} | {level:.1%} | {score:.1%} of {graded} | {hint:.1%} |")
    print("\nLevels, HoDoKu -> ours (counts):")
    for name, *_, levels in rows:
        print(f"  {name}: " + ", ".join(f"{a}->{b} {c}" for (a, b), c in sorted(levels.items())))
    print("\n| set | puzzles timed | hodoku-py ms/puzzle | ours ms/puzzle | ours faster |")
    print("|---|---:|---:|---:|---:|")
    for name in groups:
        timed = groups[name][:args.speed]
        if timed:
            a, b = rounds(timed, solver, args.rounds)
            print(f"| {name} | {len(timed)} | {a * 1000:.4g} | {b * 1000:.3g} | {a / b:.1f}x |", flush=True)
    print("\nTechniques used (steps, ours):")
    for name, used in usage.items():
        print(f"  {name}: " + ", ".join(f"{t} {c}" for t, c in used.most_common()))
    print("\nDisagreements:")
    for name, puzzle, why in shown:
        print(f"  {name} {puzzle}: {why}")


if __name__ == "__main__":
    main()
