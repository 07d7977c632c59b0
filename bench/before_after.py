"""Before/after a change: the same workloads on two source trees, in interleaved rounds.

    git archive <commit> | tar -x -C /tmp/before
    python bench/before_after.py /tmp/before [AFTER=.] [--rounds 5] [--only queens14,...]

Every measurement is a fresh process with ``PYTHONPATH`` set to one tree; it warms the kernels up on
a small problem, then times ``REPS`` runs with CPU time (``time.process_time``, one thread) and
reports the fastest. Rounds
alternate which tree goes first; the table shows medians and the ratio after/before (below 1:
faster). Answers are compared, so a change that alters a count is caught here too. The sudoku sets
come from ../shared/data and are skipped when it is absent.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

from sudoku_sets import SHARED

SETUP = {
    "dlx": "import time\nfrom dlx import problems\n",
    "sudoku": "import time\nimport sudoku\n",
}

CASES = {
    "queens14": ("dlx", "problems.queens(9).count()", "p = problems.queens(14)", "p.count()"),
    "pentominoes6x10 all": ("dlx", "problems.pentominoes(3, 20).count()",
                            "p = problems.pentominoes(6, 10, symmetric=True)", "p.count()"),
    "langford12": ("dlx", "problems.langford(8).count()", "p = problems.langford(12)", "p.count()"),
    "top1465 limit 2": ("sudoku", "list(sudoku.solve_all(puzzles[:50], limit=2, jobs=1))",
                        "puzzles = open({path!r}).read().split()",
                        "sum(r.count for r in sudoku.solve_all(puzzles, limit=2, jobs=1))"),
    "17clue limit 2": ("sudoku", "list(sudoku.solve_all(puzzles[:50], limit=2, jobs=1))",
                       "puzzles = open({path!r}).read().split()",
                       "sum(r.count for r in sudoku.solve_all(puzzles, limit=2, jobs=1))"),
}
#: Runs per process; the process reports the fastest (the least disturbed by the rest of the machine).
REPS = 3
FILES = {"top1465 limit 2": "top1465.txt", "17clue limit 2": "17clue.txt"}


def script(name: str) -> str | None:
    kind, warm, build, work = CASES[name]
    path = SHARED / FILES[name] if name in FILES else None
    if path is not None and not path.is_file():
        return None
    build = build.format(path=str(path))
    return (f"{SETUP[kind]}{build}\n{warm}\nbest = float('inf')\nfor _ in range({REPS}):\n"
            f"    t = time.process_time()\n    answer = {work}\n    best = min(best, time.process_time() - t)\n"
            f"print(best, answer)\n")


def measure(tree: Path, code: str) -> tuple[float, str]:
    env = dict(os.environ, PYTHONPATH=str(tree.resolve()), OPENBLAS_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True, cwd=tree)
    seconds, answer = done.stdout.split()
    return float(seconds), answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path, nargs="?", default=Path("."))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", help="comma-separated case names")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(CASES)
    trees = {"before": args.before, "after": args.after}
    times: dict[tuple[str, str], list[float]] = {}
    answers: dict[tuple[str, str], set[str]] = {}
    for r in range(args.rounds):
        for name in names:
            code = script(name)
            if code is None:
                continue
            order = ["before", "after"] if r % 2 == 0 else ["after", "before"]
            for which in order:
                seconds, answer = measure(trees[which], code)
                times.setdefault((name, which), []).append(seconds)
                answers.setdefault((name, which), set()).add(answer)
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    print("| workload | before (CPU s) | after (CPU s) | after/before | answer |")
    print("|---|---:|---:|---:|---|")
    for name in names:
        if (name, "before") not in times:
            print(f"| {name} | not measured (../shared/data absent) | | | |")
            continue
        b = statistics.median(times[name, "before"])
        a = statistics.median(times[name, "after"])
        same = answers[name, "before"] == answers[name, "after"] and len(answers[name, "after"]) == 1
        answer = ", ".join(sorted(answers[name, "after"]))
        print(f"| {name} | {b:.4f} | {a:.4f} | {a / b:.3f} | {answer}{'' if same else ' (DIFFERS)'} |")


if __name__ == "__main__":
    main()
