"""The compile tour: a new user's first commands on an empty numba cache.

Each command of the tour runs in a fresh process with ``NUMBA_CACHE_DIR`` pointing at one empty
folder, in order, as a user would type them; for each the table gives the CPU time the process
spent (user + system, children included), whether it printed the compile notice, and how many
specialisations it added to the cache. A second pass over the same cache shows what every command
costs once compiled.

    python bench/compile_tour.py            # the table, in Markdown
    python bench/compile_tour.py --warm     # first `dlx warm`, then the tour: nothing to compile
"""
from __future__ import annotations

import argparse
import os
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

TOUR = [
    "sudoku solve examples/top20.txt",
    "sudoku solve examples/6x6.txt",
    "sudoku solve --variant killer examples/killer.txt",
    "sudoku explain examples/6x6.txt",
    "sudoku generate 3",
    "sudoku generate 3 --size 16",
    "sudoku solve --symbols 0-F examples/hex16.txt",
    "sudoku solve --variant x examples/x.txt",
    "sudoku count examples/top20.txt",
    "sudoku rate examples/top20.txt",
    "dlx queens 8 --count",
    "dlx pentominoes 6x10 --count",
    "dlx dominoes 8x8 --count --memo",
    "dlx examples/knuth.dlx",
]

NOTICE_WORDS = "compiling the kernels"


def specialisations(cache: pathlib.Path) -> int:
    return sum(1 for _ in cache.rglob("*.nbc"))


def run(command: str, cache: pathlib.Path) -> tuple[float, float, bool, int]:
    """CPU seconds, wall seconds, whether the notice was printed, the cache's size after."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, shell=True, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{command!r} failed ({done.returncode}):\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, NOTICE_WORDS in done.stderr, specialisations(cache)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm", action="store_true", help="run `dlx warm` first")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as folder:
        cache = pathlib.Path(folder)
        if args.warm:
            cpu, wall, _, n = run("dlx warm", cache)
            print(f"dlx warm: {cpu:.1f} s CPU, {wall:.1f} s wall, {n} specialisations\n")
        print("| command | CPU s, empty cache | notice | new specialisations | CPU s, compiled |")
        print("|---|---|---|---|---|")
        rows, total, notices, count = [], 0.0, 0, specialisations(cache)
        for command in TOUR:
            cpu, _, notice, n = run(command, cache)
            rows.append((command, cpu, notice, n - count))
            total, notices, count = total + cpu, notices + notice, n
        for (command, cpu, notice, new) in rows:
            again, *_ = run(command, cache)
            print(f"| `{command}` | {cpu:.2f} | {'yes' if notice else ''} | {new} | {again:.2f} |")
        print(f"| **all** | **{total:.1f}** | **{notices}** | **{count}** | |")


if __name__ == "__main__":
    main()
