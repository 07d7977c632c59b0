"""Counting through the memo (a ZDD, Knuth's DLX6) beside counting by search, and beside xcover's
``covers_zdd``: CPU time (wall time for ``memo-2``, two threads), ZDD size and peak memory per row.

    python bench/zdd.py [--rounds 3] [--only dominoes-8x8,langford-12] [--plain-limit 120] [--knuth DLX6]

Each measurement runs in a child process of its own (so its peak RSS is its own), with the kernels
loaded before the clock starts; rounds take turns, and the table gives the median CPU time. A count
that disagrees with the others is reported, never timed. ``--plain-limit`` skips plain counts
expected to take longer (seconds, from a first try); xcover's rows need the bench extra;
``--knuth PATH`` adds Knuth's DLX6 (C, built outside the project from dlx6.w) beside each row.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

#: name -> (expression building the problem, what the rows compare)
ROWS = {
    "dominoes-8x8": ("problems.dominoes(8, 8)", ("memo", "memo-2", "plain", "xcover")),
    "dominoes-12x12": ("problems.dominoes(12, 12)", ("memo", "xcover")),
    "dominoes-16x16": ("problems.dominoes(16, 16)", ("memo", "memo-2")),
    "pentominoes-6x10": ("problems.pentominoes(6, 10, symmetric=True)", ("memo", "memo-2", "plain")),
    "langford-12": ("problems.langford(12)", ("memo", "memo-2", "plain")),
    "latin-5": ("problems.latin_squares(5)", ("memo", "memo-2", "plain")),
}

CHILD = r"""
import json, resource, sys, time
from dlx import problems, ExactCover
way, expression = sys.argv[1], sys.argv[2]
problem = eval(expression)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
extra = {}
if way.startswith("memo"):
    jobs = 2 if way == "memo-2" else 1
    ExactCover([["a"], ["b"]]).zdd(jobs=jobs)      # loads the kernels
    clock = time.perf_counter if jobs > 1 else time.process_time
    start = clock()
    z = problem.zdd(jobs=jobs)
    count = z.count()
    seconds = clock() - start
    extra = {"zdd_nodes": z.size, "states": z.stats.states}
elif way == "plain":
    problem.count(max_nodes=1)
    start = time.process_time()
    count = problem.count()
    seconds = time.process_time() - start
else:
    import xcover
    options = [list(map(str, problem.option(k))) for k in range(problem.n_options)]
    list(xcover.covers_zdd([["a"]], use_memo_cache=True))
    start = time.process_time()
    counts, lo_hi, root = {0: 0, 1: 1}, {}, 1
    for index, item, lo, hi in xcover.covers_zdd(options, primary=[str(i) for i in problem.items],
                                                  use_memo_cache=True):
        counts[index] = counts[lo] + counts[hi]
        root = index
    count = counts[root] if len(counts) > 2 else 0
    seconds = time.process_time() - start
    extra = {"zdd_nodes": len(counts) - 2}
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"count": count, "seconds": seconds, "rss_mb": peak / 1024, "start_mb": before / 1024, **extra}))
"""


def measure_knuth(program: str, expression: str, timeout: float) -> dict | None:
    """Knuth's DLX6 (a C program built from dlx6.w) on the same options written in his format: its
    CPU time from the child's rusage, its count (64 bits: compared modulo 2**64) and ZDD nodes."""
    import re
    import resource
    import tempfile

    from dlx import problems, write_dlx  # noqa: F401 (problems: for the expression)
    with tempfile.NamedTemporaryFile("w", suffix=".dlx", delete=False) as f:
        write_dlx(eval(expression), f.name)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        with open(f.name) as stdin:
            done = subprocess.run([program], stdin=stdin, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    m = re.search(r"Altogether (\d+) solutions?,.* (\d+) ZDD nodes?", done.stderr)
    if m is None:
        print(f"dlx6 {expression}: {done.stderr[-500:]}", file=sys.stderr)
        return None
    seconds = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {"count": int(m[1]), "seconds": seconds, "zdd_nodes": int(m[2]) - 2, "rss_mb": after.ru_maxrss / 1024,
            "start_mb": 0.0, "modulo": 2 ** 64}


def measure(way: str, expression: str, timeout: float) -> dict | None:
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, way, expression], capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        print(f"{way} {expression}: failed\n{done.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", help="comma-separated rows: " + ", ".join(ROWS))
    parser.add_argument("--knuth", metavar="DLX6",
                        help="Knuth's dlx6 program (built from dlx6.w with ctangle): a row beside each memo row")
    parser.add_argument("--plain-limit", type=float, default=120.0,
                        help="seconds a plain count or xcover may take (a first try) before it is skipped")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(ROWS)
    results: dict[tuple[str, str], list[dict]] = {}
    skipped: set[tuple[str, str]] = set()
    for _ in range(args.rounds):
        for name in names:
            expression, ways = ROWS[name]
            for way in ways + (("knuth",) if args.knuth else ()):
                if (name, way) in skipped:
                    continue
                if way == "knuth":
                    got = measure_knuth(args.knuth, expression, args.plain_limit)
                else:
                    got = measure(way, expression, args.plain_limit * 3 if way == "memo" else args.plain_limit)
                if got is None:
                    skipped.add((name, way))
                    continue
                results.setdefault((name, way), []).append(got)
    print("| problem | count | way | s (median) | ZDD nodes | states | peak RSS MB (at start) |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for name in names:
        # dlx's two ways must agree; a peer's other count is reported as wrong, not timed
        ours = {r["count"] for way in ("memo", "plain") for r in results.get((name, way), [])}
        if len(ours) > 1:
            print(f"| {name} | DISAGREE {sorted(ours)} | | | | | |")
            continue
        for way in ROWS[name][1] + (("knuth",) if args.knuth else ()):
            rows = results.get((name, way))
            if not rows:
                print(f"| {name} | | {way} | over {args.plain_limit:.0f} s (skipped) | | | |")
                continue
            modulo = rows[0].get("modulo")
            wrong = {r["count"] for r in rows} - ({c % modulo for c in ours} if modulo else ours)
            if wrong:
                print(f"| {name} | WRONG: {', '.join(f'{c:,}' for c in sorted(wrong))} | {way} | not timed | "
                      f"{rows[0].get('zdd_nodes', 0):,} | | |")
                continue
            seconds = statistics.median(r["seconds"] for r in rows)
            rss = max(r["rss_mb"] for r in rows)
            start = min(r["start_mb"] for r in rows)
            nodes = f"{rows[0]['zdd_nodes']:,}" if "zdd_nodes" in rows[0] else ""
            states = f"{rows[0]['states']:,}" if "states" in rows[0] else ""
            print(f"| {name} | {rows[0]['count']:,} | {way} | {seconds:.3f} | {nodes} | {states} | "
                  f"{rss:.0f} ({start:.0f}) |")


if __name__ == "__main__":
    main()
