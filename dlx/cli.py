"""The ``dlx`` command: read a problem in Knuth's DLX format and report on it."""
from __future__ import annotations

import argparse
import sys

from . import __version__
from .formats import read_dlx
from .problem import ProblemError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="dlx", description="Exact cover with Dancing Links: read a problem in Knuth's DLX format.")
    parser.add_argument("file", help="a problem in Knuth's DLX text format")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    args = parser.parse_args(argv)
    try:
        problem = read_dlx(args.file)
    except ProblemError as e:
        print(f"dlx: error: {e}", file=sys.stderr)
        return 1
    print(f"{args.file}: {problem.n_items} items ({problem.n_primary} primary, "
          f"{problem.n_secondary} secondary), {problem.n_options} options, "
          f"{len(problem.option_items)} option entries")
    return 0
