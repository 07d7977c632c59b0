"""Knuth's DLX5 figures for the tests of minimum-cost exact cover (tests/test_cheapest.py).

    python bench/knuth_costs.py --dlx5 DIR/dlx5 [--shared ../shared/data/dlx]

runs Knuth's dlx5 (built outside the project from dlx5.w with ctangle and clang, as docs/costs.md
says) with ``k`` = 1, 3 and 7 on random problems with costs, colours and secondary items drawn here
(their text is written into the data, so the tests need neither this script nor numpy's streams),
with a few ``k`` on the named instances of :mod:`dlx.problems`, and on the shared Knuth-format files
(no costs: every solution costs 0), and writes what it reports, its solutions (improvements),
nodes, updates, cleansings and the ``k`` best costs, to tests/data/dlx5.json.
"""
from __future__ import annotations

import argparse
import io
import json
import random
import re
import subprocess
import warnings
from pathlib import Path

from compare import best_costs

import dlx
from dlx import problems

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "tests" / "data" / "dlx5.json"

#: Named instances: (label, how to build it, the k to run).
NAMED = [
    ("weighted_queens(8)", lambda: problems.weighted_queens(8), (1, 3, 10)),
    ("weighted_queens(10, seed=1)", lambda: problems.weighted_queens(10, 1), (1, 4)),
    ("set_partitioning(30, 300, 1)", lambda: problems.set_partitioning(30, 300, 1), (1, 5)),
    ("set_partitioning(40, 400, 2, largest=6)", lambda: problems.set_partitioning(40, 400, 2, largest=6), (1, 3)),
    ("weighted_pentominoes(3, 20)", lambda: problems.weighted_pentominoes(3, 20), (1, 3)),
    ("weighted_graceful(K4)", lambda: problems.weighted_graceful([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]),
     (1, 5)),
]


def knuth(program: Path, text: str, k: int) -> dict:
    """What dlx5 reports for ``text`` with parameter ``k``."""
    done = subprocess.run([str(program), f"k{k}"], input=text, capture_output=True, text=True, check=True)
    err = done.stderr
    found = re.search(r"Altogether (\d+) solutions?, .*? (\d+) updates, (\d+) cleansings, .*? (\d+) nodes", err)
    if found is None:
        raise RuntimeError(f"dlx5 said: {err}")
    return {"k": k, "solutions": int(found[1]), "nodes": int(found[4]), "updates": int(found[2]),
            "cleansings": int(found[3]), "costs": best_costs(err)}


def random_problem(rng: random.Random, large: bool) -> dlx.ExactCover:
    """A small problem with costs (ties likely), secondary items and colours."""
    n1 = rng.randint(5, 12) if large else rng.randint(1, 7)
    n2 = rng.randint(0, 4) if large else rng.randint(0, 3)
    primary = [f"p{i}" for i in range(n1)]
    secondary = [f"s{i}" for i in range(n2)]
    options, costs = [], []
    for _ in range(rng.randint(20, 70) if large else rng.randint(1, 25)):
        option: list = rng.sample(primary, rng.randint(1, min(4 if large else 3, n1)))
        for item in secondary:
            if rng.random() < (0.3 if large else 0.4):
                option.append((item, rng.choice("ABC")) if rng.random() < 0.6 else item)
        options.append(option)
        costs.append(rng.choice([0, 1, 2, 3, 5, 8, rng.randint(0, 100 if large else 30)]))
    return dlx.ExactCover(options, primary=primary, secondary=secondary, costs=costs)


#: Knuth's colours are single characters.
COLOURS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def text_of(problem: dlx.ExactCover) -> str:
    """The problem in Knuth's format, its colours renamed to single characters."""
    if problem.colours and any(len(str(c)) != 1 for c in problem.colours):
        problem = dlx.ExactCover._from_ids(problem.items, problem.n_primary, problem.option_start,
                                           problem.option_items, problem.option_colours, problem.bounds,
                                           tuple(COLOURS[:len(problem.colours)]), problem.option_costs)
    return dlx.write_dlx(problem, io.StringIO()).getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dlx5", type=Path, required=True, help="Knuth's dlx5, built")
    parser.add_argument("--shared", type=Path, help="the shared Knuth-format files (no costs)")
    parser.add_argument("--random", type=int, default=160, help="random problems (default %(default)s)")
    args = parser.parse_args()
    warnings.simplefilter("ignore", dlx.ProblemWarning)
    rng = random.Random(5)
    data: dict = {"random": [], "named": [], "shared": []}
    for n in range(args.random):
        text = text_of(random_problem(rng, large=n % 4 == 3))
        data["random"].append({"text": text, "runs": [knuth(args.dlx5, text, k) for k in (1, 3, 7)]})
    for label, make, ks in NAMED:
        text = text_of(make())
        data["named"].append({"label": label, "runs": [knuth(args.dlx5, text, k) for k in ks]})
    if args.shared:
        for path in sorted(args.shared.glob("*.dlx")):
            text = path.read_text()
            data["shared"].append({"file": path.name, "runs": [knuth(args.dlx5, text, k) for k in (1, 100)]})
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
    print(f"{OUT}: {len(data['random'])} random, {len(data['named'])} named, {len(data['shared'])} shared")


if __name__ == "__main__":
    main()
