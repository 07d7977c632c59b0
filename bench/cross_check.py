"""dlx beside miniexact (C, Knuth's Algorithms C and M) on random XCC and MCC problems too large for
brute force: every count must agree.

    pip install -e '.[bench]'
    python bench/cross_check.py               # 200 problems, about a minute
    python bench/cross_check.py --problems 1000 --seed 7

Each problem has 6-12 primary items (bounds 0..3 on some), 0-6 secondary items, two or three
colours, and 30-80 options of 2-5 items. A disagreement prints the problem in Knuth's format and
ends the run with status 1.
"""
from __future__ import annotations

import argparse
import io
import random
import sys
import warnings

from rivals import miniexact_counter

import dlx


def random_problem(rng: random.Random, multiplicities: bool) -> dlx.ExactCover:
    primary = [f"p{i}" for i in range(rng.randint(6, 12))]
    secondary = [f"s{i}" for i in range(rng.randint(0, 6))]
    colours = "abc"[:rng.randint(2, 3)]
    options = []
    for _ in range(rng.randint(30, 80)):
        names = rng.sample(primary, rng.randint(1, 3)) + rng.sample(secondary, min(len(secondary), rng.randint(0, 2)))
        options.append([(n, rng.choice(colours)) if n in secondary and rng.random() < 0.7 else n for n in names])
    bounds = {}
    if multiplicities:
        for item in rng.sample(primary, rng.randint(1, len(primary) // 2)):
            hi = rng.randint(1, 3)
            bounds[item] = (rng.randint(0, hi), hi)
    return dlx.ExactCover(options, primary=primary, secondary=secondary, bounds=bounds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    total = 0
    for k in range(args.problems):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", dlx.ProblemWarning)
            problem = random_problem(rng, multiplicities=k % 2 == 1)
        ours = problem.count()
        theirs = miniexact_counter(problem)(float("inf")).answer
        if ours != theirs:
            print(f"problem {k}: dlx counts {ours:,}, miniexact {theirs:,}", file=sys.stderr)
            print(dlx.write_dlx(problem, io.StringIO()).getvalue(), file=sys.stderr)
            return 1
        total += ours
    print(f"{args.problems} problems (half XCC, half MCC), {total:,} solutions in all: "
          "dlx and miniexact agree on every count")
    return 0


if __name__ == "__main__":
    sys.exit(main())
