"""The ``dlx`` command: solve a problem in Knuth's DLX format."""
from __future__ import annotations

import argparse
import os
import sys

from . import __version__
from .formats import read_dlx
from .problem import ExactCover, ProblemError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="dlx",
        description="Exact cover with Dancing Links. Prints every solution of a problem in Knuth's "
                    "DLX format: each chosen option as its item names, one option per line, a blank "
                    "line between solutions.")
    parser.add_argument("file", help="a problem in Knuth's DLX text format")
    parser.add_argument("--count", action="store_true", help="print only the number of solutions")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    args = parser.parse_args(argv)
    try:
        problem = read_dlx(args.file)
    except ProblemError as e:
        print(f"dlx: error: {e}", file=sys.stderr)
        return 1
    try:
        if args.count:
            print(problem.count())
        else:
            print_solutions(problem)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away (`dlx big.dlx | head`): stop quietly, as other filters do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


def print_solutions(problem: ExactCover) -> None:
    out = sys.stdout
    for n, solution in enumerate(problem.solutions()):
        if n:
            out.write("\n")
        out.write("".join(" ".join(map(str, problem.option(k))) + "\n" for k in solution))
