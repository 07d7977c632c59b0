"""Knuth's figures for binary branching (tests/test_binary.py): SSXCC-BINARY, SSMCC and their
heuristics' change files.

    python bench/knuth_binary.py --knuth DIR [--shared ../shared/data/dlx]

runs Knuth's programs, built in DIR outside the project from the public repository
ascherer/cwebtest (``ctangle ssxcc-binary.w ssxcc-frb.ch`` and the like, then ``clang -O3``: see
docs/engine.md) under these names:

* ``ssxcc-binary``, ``ssxcc-frb``, ``ssxcc-wtd`` (ssxcc-binary.w with no change file, with
  ssxcc-frb.ch, with ssxcc-wtd.ch);
* ``ssmcc``, ``ssmcc-frb``, ``ssmcc-wtd`` (ssmcc.w likewise);
* ``xccdc``, ``xccdc-frb``, ``xccdc-wtd`` (xccdc.w likewise);

each with its defaults, with ``t`` (stop after that many solutions) and, for SSXCC-BINARY's weighted
degree, with ``w`` and ``W`` (the weight increment and its growth factor): on the shared Knuth-format files
(the programs without multiplicities), on named instances of :mod:`dlx.problems` with multiplicities (the last
three) and on random problems drawn here, with colours and secondary items (their text is written
into the data, so the tests need neither this script nor Knuth's programs). Writes what each run
reports, solutions, nodes and updates, to tests/data/binary.json.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import warnings
from pathlib import Path

from knuth_costs import text_of

import dlx
from dlx import problems

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "tests" / "data" / "binary.json"

#: Each program with the heuristic it is, and the settings of its command line run beside its defaults.
XCC = {"ssxcc-binary": ("mrv", [["t7"]]), "ssxcc-frb": ("frb", [["t7"]]),
       "ssxcc-wtd": ("wtd", [["t7"], ["w0.5", "W1.1"], ["w3", "W0.9"]]),
       "xccdc": ("mrv", [["t7"]]), "xccdc-frb": ("frb", [["t7"]]), "xccdc-wtd": ("wtd", [["t7"]])}
MCC = {"ssmcc": ("mrv", [["t7"]]), "ssmcc-frb": ("frb", [["t7"]]),
       "ssmcc-wtd": ("wtd", [["t7"], ["w0.5", "W1.1"], ["w3", "W0.9"]])}
#: Named problems with multiplicities.
NAMED = [
    ("k_queens(9, 7)", lambda: problems.k_queens(9, 7)),
    ("k_queens(8, 6)", lambda: problems.k_queens(8, 6)),
    ("packing(5, 8, tetrominoes, 2 of each)",
     lambda: problems.packing(5, 8, problems.TETROMINOES, dict.fromkeys(problems.TETROMINOES, 2))),
    ("packing(4, 6, tetrominoes, 0 to 2 of each)",
     lambda: problems.packing(4, 6, problems.TETROMINOES, dict.fromkeys(problems.TETROMINOES, (0, 2)))),
]


def knuth(program: Path, text: str, args: list[str]) -> dict:
    """What one of Knuth's programs reports for ``text`` with command-line ``args``."""
    done = subprocess.run([str(program), *args], input=text, capture_output=True, text=True, check=True)
    found = re.search(r"Altogether (\d+) solutions?, .*? (\d+) updates, .*? (\d+) nodes", done.stderr)
    if found is None:
        raise RuntimeError(f"{program.name} said: {done.stderr}")
    return {"args": args, "solutions": int(found[1]), "nodes": int(found[3]), "updates": int(found[2])}


def runs(knuth_dir: Path, programs: dict, text: str) -> list[dict]:
    found = []
    for program, (heuristic, settings) in programs.items():
        for args in [[], *settings]:
            found.append({"program": program, "heuristic": heuristic, **knuth(knuth_dir / program, text, args)})
    return found


def random_problem(rng: random.Random, bounds: bool) -> dlx.ExactCover:
    """A small problem with secondary items, colours and, when ``bounds``, multiplicities."""
    n1 = rng.randint(1, 8)
    n2 = rng.randint(0, 3)
    primary = [f"p{i}" for i in range(n1)]
    secondary = [f"s{i}" for i in range(n2)]
    options = []
    for _ in range(rng.randint(1, 30)):
        option: list = rng.sample(primary, rng.randint(1, min(3, n1)))
        for item in secondary:
            if rng.random() < 0.35:
                option.append((item, rng.choice("ABC")) if rng.random() < 0.6 else item)
        options.append(option)
    limits = {}
    if bounds:
        for item in primary:
            lo = rng.choice([0, 1, 1, 1, 2])
            limits[item] = (lo, lo + rng.choice([0, 0, 1, 2]) or 1)
    return dlx.ExactCover(options, primary=primary, secondary=secondary, bounds=limits or None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--knuth", type=Path, required=True, help="where Knuth's programs are built")
    parser.add_argument("--shared", type=Path, help="the shared Knuth-format files")
    parser.add_argument("--random", type=int, default=100, help="random problems of each kind (default %(default)s)")
    args = parser.parse_args()
    warnings.simplefilter("ignore", dlx.ProblemWarning)
    rng = random.Random(59)
    data: dict = {"shared": [], "named": [], "random": []}
    if args.shared:
        for path in sorted(args.shared.glob("*.dlx")):
            data["shared"].append({"file": path.name, "runs": runs(args.knuth, XCC, path.read_text())})
    for label, make in NAMED:
        data["named"].append({"label": label, "runs": runs(args.knuth, MCC, text_of(make()))})
    for n in range(2 * args.random):
        bounded = n % 2 == 1
        problem = random_problem(rng, bounded)
        if bounded and problem.bounds is None:
            continue
        text = text_of(problem)
        data["random"].append({"text": text, "runs": runs(args.knuth, MCC if bounded else XCC, text)})
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
    print(f"{OUT}: {len(data['shared'])} shared, {len(data['named'])} named, {len(data['random'])} random")


if __name__ == "__main__":
    main()
