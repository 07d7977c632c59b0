"""The ``dlx`` command: solve a problem in Knuth's DLX format."""
from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import textwrap
import threading
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

# A command never multiplies matrices: numpy's BLAS thread pool would only burn CPU at start-up.
# Set before numpy is first imported (the packages load their modules lazily for this).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from . import engines, problems, tracing
from .commands import IntermixedParser, Version, compile_notice, exit_now, progress_bar, whole_number
from .formats import read_dlx
from .model import ExactCover, ProblemError
from .search import Search, SearchStats
from .status import Status

if TYPE_CHECKING:
    import numpy as np

#: Exit statuses: 1 for bad input, 2 for a usage error (argparse's), 3 when the node budget ran out
#: before the search was done, 130 when interrupted (Ctrl-C), as shells report a command ended by SIGINT.
ERROR, USAGE, OUT_OF_NODES, INTERRUPTED = 1, 2, 3, 130

#: Solutions shown on a terminal before the count: Knuth's programs print only totals, and
#: 14,200 boards of 12 queens help no one reading a screen. ``--all``, a pipe or a file: every one.
SHOWN = 3

#: Seconds a search runs before a progress line appears on a terminal's stderr.
PROGRESS_AFTER = 1.0


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.source == ["warm"] and not os.path.exists("warm"):
        return _warm(args.jobs or 0)            # every core unless --jobs says
    if args.jobs is None:
        args.jobs = 1
    with compile_notice("dlx"):
        return _run(args, parser)


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    run: Search | str | None = None
    tracer = None
    printed: list = [0]     # solutions written out (the kernel may have found more); --cheapest: what it found
    shown = None if args.all or args.count or not _is_terminal(sys.stdout) else SHOWN
    try:
        try:
            strategy = (args.branching, args.heuristic)
            args.engine = engines.named(args.engine, *strategy) if strategy != (None, None) else args.engine
        except ValueError as e:
            print(f"dlx: error: {e}", file=sys.stderr)
            return ERROR
        problem, draw, args.file = _problem(args.source, parser)
        tracer = _Tracer(problem)
        split = args.jobs != 1 or args.dask is not None
        if split and args.trace:
            print("dlx: error: --trace follows one search; it takes no --jobs or --dask", file=sys.stderr)
            return ERROR
        if args.memo or args.zdd is not None:
            run = "memo"
            return _memo(problem, args, draw, shown)
        if args.cheapest is not None:
            run = "cheapest"
            return _cheapest(problem, args, draw, shown, printed)
        try:
            problem.prepared(engines.resolve(args.engine, problem.engine_input))     # refused here, not in a thread
            if split:
                run = "split"
                args.draw = draw
                stats = _split(problem, args, shown)
            else:
                trace = False if not args.trace else tracer
                run = problem.search(limit=args.limit, max_nodes=args.max_nodes, engine=args.engine,
                                     seed=args.seed, trace=trace)
        except ValueError as e:        # the engine asked for cannot take this problem
            print(f"dlx: error: {args.file}: --engine {args.engine}: {e}", file=sys.stderr)
            return ERROR
        if isinstance(run, Search):
            search = run

            def progress() -> _Progress:
                return _Progress(lambda: search.stats, enabled=not args.trace and _is_terminal(sys.stderr))

            # the progress line is erased before anything goes to a terminal: it never shares a
            # line with a count or a solution
            with run:
                if args.count:
                    with progress():
                        found = run.count()
                    print(found)
                elif _is_terminal(sys.stdout):
                    print_solutions(problem, itertools.islice(run, shown), args.format, draw, printed)
                    with progress():
                        rest = run.count() if shown is not None else 0
                    _summary(printed[0] + rest, printed[0])
                else:
                    with progress():
                        print_solutions(problem, run, args.format, draw, printed)
                sys.stdout.flush()
            stats = run.stats
    except BrokenPipeError:
        # the reader went away (`dlx big.dlx | head`): stop quietly, as other filters do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return ERROR
    except (ProblemError, ConnectionError) as e:      # ConnectionError: no Dask scheduler (--dask)
        print(f"dlx: error: {e}", file=sys.stderr)
        return ERROR
    except KeyboardInterrupt:
        sys.stdout.flush()
        if tracer is not None and tracer.midline:
            sys.stderr.write("\n")         # a trace line cut short by the interrupt
        if run is None:
            done = "before the search began"
        elif run == "memo":
            done = "(the memoised search stopped)"
        elif run == "cheapest":
            done = printed[1] if len(printed) > 1 else "(the threads stopped)"
        elif isinstance(run, Search):
            done = _so_far(run, None if args.count else printed[0])
        else:
            from .checks import jobs
            done = f"({'the Dask tasks' if args.dask else f'{jobs(args.jobs)} threads'} stopped)"
        print(f"dlx: interrupted {done}", file=sys.stderr)
        return INTERRUPTED
    if args.stats:
        s = "" if stats.solutions == 1 else "s"
        cleansings = "" if problem.option_colours is None else f"{stats.cleansings} cleansings, "
        print(f"Altogether {stats.solutions} solution{s}, {stats.updates} updates, {cleansings}"
              f"{stats.nodes} nodes, {stats.seconds:.3f} seconds, engine {stats.engine}.", file=sys.stderr)
    if stats.status == Status.MAX_NODES:
        print(f"dlx: the budget of {args.max_nodes} nodes ran out: the search is incomplete "
              f"({stats.solutions} solutions so far)", file=sys.stderr)
        return OUT_OF_NODES
    return 0


def _memo(problem: ExactCover, args: argparse.Namespace, draw: Draw | None, shown: int | None) -> int:
    """``--memo`` and ``--zdd OUT``: the ZDD of every solution ([`ExactCover.zdd`][dlx.model.ExactCover.zdd]), then its
    count, its solutions or its file."""
    from .memo import TooLarge, check_engine
    refused = [flag for flag, given in (("--dask", args.dask is not None), ("--trace", args.trace),
                                        ("--seed", args.seed is not None)) if given]
    if refused:
        print(f"dlx: error: the memoised search (--memo, --zdd) runs on this machine in the file's order; "
              f"it takes no {', '.join(refused)}", file=sys.stderr)
        return ERROR
    try:
        check_engine(args.engine)
        zdd = problem.zdd(max_nodes=args.max_nodes, jobs=args.jobs or None)
    except ValueError as e:
        print(f"dlx: error: {args.file}: --engine {args.engine}: {e}", file=sys.stderr)
        return ERROR
    except TooLarge as e:
        if e.bound == "max_nodes":
            print(f"dlx: {args.file}: {e} (--max-nodes)", file=sys.stderr)
            return OUT_OF_NODES
        print(f"dlx: error: {args.file}: {e}", file=sys.stderr)
        return ERROR
    found = zdd.count()
    if args.zdd is not None:
        if args.zdd == "-":
            zdd.write(sys.stdout)
        else:
            try:
                zdd.write(args.zdd)
            except OSError as e:
                raise ProblemError(f"{args.zdd}: cannot write: {e.strerror or e}") from e
    if args.count or args.zdd is not None:
        shown_count = found if args.limit is None else min(found, args.limit)
        print(shown_count, file=sys.stderr if args.zdd == "-" else sys.stdout)
    else:
        printed = [0]
        wanted = found if args.limit is None else min(found, args.limit)
        cut = wanted if shown is None else min(wanted, shown)
        print_solutions(problem, itertools.islice(zdd.solutions(), cut), args.format, draw, printed)
        _summary(wanted, printed[0])
    sys.stdout.flush()
    if args.stats:
        s = zdd.stats
        assert s is not None
        print(f"Altogether {found} solution{'' if found == 1 else 's'}, {s.states} states, {s.hits} hits, "
              f"{s.zdd_nodes} ZDD nodes, {s.bytes} bytes, {s.seconds:.3f} seconds, memo.", file=sys.stderr)
    return 0


def _cheapest(problem: ExactCover, args: argparse.Namespace, draw: Draw | None, shown: int | None,
              printed: list) -> int:
    """``--cheapest K``: each solution as it beats the K-th best so far, with its cost (Knuth's
    DLX5), then the K best costs in Knuth's words on stderr. ``printed[1]`` says, for an interrupt,
    what the run had found."""
    from .cheapest import Cheapest, Interrupted, cheapest
    refused = [flag for flag, given in (("--dask", args.dask is not None), ("--trace", args.trace),
                                        ("--seed", args.seed is not None), ("--limit", args.limit is not None),
                                        ("--engine", args.engine != engines.DEFAULT), ("--count", args.count),
                                        ("--branching", args.branching is not None),
                                        ("--heuristic", args.heuristic is not None))
               if given]
    if refused:
        print(f"dlx: error: --cheapest runs Knuth's DLX5; it takes no {', '.join(refused)}", file=sys.stderr)
        return ERROR
    try:
        if args.jobs != 1:
            printed.append("(the threads stopped; no solution is proven best)")
            try:
                best = cheapest(problem, args.cheapest, jobs=args.jobs or None, max_nodes=args.max_nodes)
            except Interrupted as e:
                printed[1] = f"({_best_so_far(e.best)}; the threads stopped)"
                raise
            print_solutions(problem, [p.options for p in best[:shown]], args.format, draw, printed,
                            costs=[p.cost for p in best])
            stats = problem.stats
            assert stats is not None        # the split search noted its stats
        else:
            run = Cheapest(problem, args.cheapest, max_nodes=args.max_nodes)
            printed.append("")
            found = []

            def improving() -> Iterable[Sequence[int]]:
                for priced in run:
                    found.append(priced.cost)
                    printed[1] = _so_far_cheapest(run)
                    yield priced.options

            printed[1] = _so_far_cheapest(run)
            solutions = improving()
            print_solutions(problem, itertools.islice(solutions, shown), args.format, draw, printed, costs=found)
            more = sum(1 for _ in solutions)
            best = run.best
            if more and _is_terminal(sys.stdout):
                sys.stdout.write(f"\n({more} more improving solution{'' if more == 1 else 's'}; --all prints "
                                 f"every one; the cheapest:)\n\n")
                print_solutions(problem, [best[0].options], args.format, draw, costs=[best[0].cost])
            stats = run.stats
    except ValueError as e:
        print(f"dlx: error: {args.file}: {e}", file=sys.stderr)
        return ERROR
    sys.stdout.flush()
    print(optimum_costs([p.cost for p in best]), file=sys.stderr, end="")
    if args.stats:
        print(f"Altogether {stats.solutions} solution{'' if stats.solutions == 1 else 's'}, {stats.updates} updates, "
              f"{stats.cleansings} cleansings, {stats.nodes} nodes, {stats.seconds:.3f} seconds, engine dlx5.",
              file=sys.stderr)
    if stats.status == Status.MAX_NODES:
        print(f"dlx: the budget of {args.max_nodes} nodes ran out: the costs above are the best found, not "
              f"proven best", file=sys.stderr)
        return OUT_OF_NODES
    return 0


def optimum_costs(costs: list[int]) -> str:
    """The K best costs in the words of Knuth's DLX5 (repeated costs once, with their number).

    Examples:
        >>> print(optimum_costs([7]), end="")
        The optimum cost is $7
        >>> print(optimum_costs([3, 5, 5, 9]), end="")
        The optimum costs are:
         $3
         $5 (repeated 2 times)
         $9
    """
    if not costs:
        return "No solution.\n"
    if len(costs) == 1:
        return f"The optimum cost is ${costs[0]}\n"
    lines = ["The optimum costs are:\n"]
    for cost, same in itertools.groupby(costs):
        times = len(list(same))
        lines.append(f" ${cost}" + (f" (repeated {times} times)" if times > 1 else "") + "\n")
    return "".join(lines)


def _best_so_far(best: Sequence[Any]) -> str:
    return f"best cost ${best[0].cost} so far" if best else "no solution so far"


def _so_far_cheapest(run: Any) -> str:
    s = run.stats
    return (f"after {s.solutions} improving solutions, {_best_so_far(run.best)}, {s.nodes} nodes, "
            f"{s.seconds:.3f} seconds")


def _is_terminal(stream: Any) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):       # no stream, or a closed one
        return False


def _summary(found: int, printed: int) -> None:
    """The count after the solutions, on a terminal (a pipe or a file gets the solutions alone, as
    data: no solutions, no lines)."""
    if not _is_terminal(sys.stdout):
        return
    line = f"{found} solution{'' if found == 1 else 's'}"
    if printed < found:
        line += f" ({printed} shown; --all prints every one)"
    sys.stdout.write(("\n" if printed else "") + line + "\n")


class _Progress:
    """A line on stderr, redrawn while a search runs: solutions and nodes so far (Knuth's programs
    print one every ``delta`` updates). ``stats``: a function that reads them from the run's state
    (a thread may read it while the kernel runs without the GIL: the counters are words)."""

    def __init__(self, stats: Callable[[], SearchStats], *, enabled: bool,
                 every: float = 0.5, after: float = PROGRESS_AFTER) -> None:
        self.stats = stats
        self.enabled = enabled
        self.every, self.after = every, after
        self.done = threading.Event()
        self.bar: Any = None
        self.thread: threading.Thread | None = None

    def __enter__(self) -> _Progress:
        if self.enabled:
            self.thread = threading.Thread(target=self._watch, daemon=True, name="dlx-progress")
            self.thread.start()
        return self

    def _watch(self) -> None:
        wait = self.after
        while not self.done.wait(wait):
            self.tick()
            wait = self.every

    def tick(self) -> None:
        """Redraw the line from the run's counters."""
        if not self.enabled:
            return
        s = self.stats()
        line = progress_line(s.solutions, s.nodes)
        if self.bar is None:            # made at the first tick: a short search draws nothing
            self.bar = progress_bar(total=None, desc=line, leave=False, bar_format="dlx: {desc}")
        else:
            self.bar.set_description_str(line)

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        if self.thread is not None:
            self.thread.join()
        if self.bar is not None:
            self.bar.close()


def progress_line(solutions: int, nodes: int) -> str:
    """What the progress line says.

    Examples:
        >>> progress_line(1, 12345678)
        '1 solution, 12,345,678 nodes so far'
    """
    return f"{solutions:,} solution{'' if solutions == 1 else 's'}, {nodes:,} nodes so far"


def entry() -> NoReturn:
    """The ``dlx`` command (and ``python -m dlx``): `main`, then `exit_now`."""
    exit_now(main)


def _split(problem: ExactCover, args: argparse.Namespace, shown: int | None) -> SearchStats:
    """The search on threads or Dask ([`dlx.parallel`][dlx.parallel]); prints what it found, returns stats."""
    from . import parallel
    result = parallel.run(problem, jobs=args.jobs or None, client=args.dask, collect=not args.count,
                          limit=args.limit, max_nodes=args.max_nodes, engine=args.engine, seed=args.seed,
                          progress=_is_terminal(sys.stderr))
    if args.count:
        print(result.count)
    else:
        printed = [0]
        print_solutions(problem, result.solutions[:shown], args.format, args.draw, printed)
        _summary(result.count, printed[0])
    sys.stdout.flush()
    return result.stats


def _warm(jobs: int) -> int:
    """``dlx warm``: every kernel compiled (or found in numba's cache), on ``jobs`` processes (0:
    one per core), with a progress bar on a terminal."""
    from . import warm
    from .checks import jobs as cores

    todo = warm.tasks()
    n = cores(jobs)
    print(f"dlx: compiling every kernel once ({len(todo)} tasks on {min(n, len(todo))} cores; later runs "
          "load them from numba's cache)...", file=sys.stderr, flush=True)
    bar = progress_bar(total=len(todo), unit=" tasks", disable=not _is_terminal(sys.stderr))
    try:
        with bar:
            def done(label: str) -> None:
                bar.set_description_str(label)
                bar.update()
            warm.warm(n, done)
    except KeyboardInterrupt:
        print("dlx: interrupted while compiling (what was done is kept in the cache)", file=sys.stderr)
        return INTERRUPTED
    print(f"dlx: {len(todo)} tasks done: every kernel is in numba's cache", file=sys.stderr)
    return 0


def _so_far(run: Search, printed: int | None) -> str:
    """What a search did before an interrupt; ``printed``: the solutions written out, when they
    are (found ones wait in the run's batch)."""
    s = run.stats
    if printed is None or printed == s.solutions:
        solutions = f"{s.solutions} solution{'' if s.solutions == 1 else 's'}"
    else:
        solutions = f"{printed} solution{'' if printed == 1 else 's'} printed ({s.solutions} found)"
    return f"after {solutions}, {s.nodes} nodes, {s.updates} updates, {s.seconds:.3f} seconds"


def _parser() -> argparse.ArgumentParser:
    parser = IntermixedParser(
        prog="dlx",
        description=textwrap.fill(
            "Exact cover with Dancing Links. Solves a problem in Knuth's DLX format (with DLX2's "
            "colours, item:colour, DLX3's bounds, lo:hi|item, and DLX5's costs, |n), or a classic by "
            "name. Prints each solution (its chosen options as their item names, one option per line, or a picture for "
            "a classic; a blank line between solutions). To a terminal it shows the first "
            f"{SHOWN} solutions, counts the rest and prints the number (--all shows every one); to a "
            "pipe or a file it writes every solution and nothing else. A long search draws a progress "
            "line on a terminal's stderr.", 79),
        epilog="examples:\n" + "".join(f"  {example}\n" for example in (
            "dlx problem.dlx", "dlx < problem.dlx --count", "dlx warm", "dlx queens 12",
            "dlx queens 12 --count --stats",
            "dlx queens 8 --all", "dlx langford 12 --limit 1", "dlx pentominoes 6x10 --limit 1",
            "dlx problem.dlx --format json | head", "dlx dominoes 12x12 --count --memo",
            "dlx problem.dlx --zdd problem.zdd",
            "dlx problem.dlx --cheapest 3 --stats")) + "\nexit status:\n" + "".join(
            f"  {code:<4} {meaning}\n" for code, meaning in (
                (0, "the search is done"), (ERROR, "a bad file or problem, or an engine that cannot take it"),
                (USAGE, "a usage error (a bad flag or value)"),
                (OUT_OF_NODES, "--max-nodes ran out before the search was complete"),
                (INTERRUPTED, "interrupted (Ctrl-C)"))),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", nargs="*", metavar="FILE | PROBLEM [ARG]",
                        help="a problem in Knuth's DLX text format, - or nothing for standard input; "
                             "'warm' to compile every kernel ahead of time (once, on every core); or "
                             "a built-in problem: " + "; ".join(c.usage for c in problems.CLASSICS.values()))
    parser.add_argument("--format", choices=("text", "dlx", "json"), default="text",
                        help="how solutions are printed: text (a picture for a built-in problem, else "
                             "as dlx), dlx (each option's items, Knuth's way) or json (one object a "
                             "line); default %(default)s")
    parser.add_argument("--count", action="store_true", help="print only the number of solutions")
    parser.add_argument("--all", action="store_true",
                        help=f"print every solution also on a terminal (which shows {SHOWN} otherwise)")
    parser.add_argument("--limit", type=_natural, metavar="K", help="stop after K solutions")
    parser.add_argument("--max-nodes", type=_natural, metavar="N",
                        help="stop after N search nodes (a budget; exit status 3 if it runs out)")
    parser.add_argument("--engine", choices=list(engines.ENGINES), default=engines.DEFAULT,
                        help=f"the search engine: {engines.help_text()} (default: %(default)s)")
    parser.add_argument("--branching", choices=engines.BRANCHINGS,
                        help="all: try every option of the chosen item in turn (d-way, the default); binary: "
                             "take one option or leave it out and choose again (Knuth's SSXCC-BINARY; the "
                             "cells engine, which branches binary on multiplicities always, as SSMCC)")
    parser.add_argument("--heuristic", metavar="H",
                        help="how binary branching chooses its item: mrv (fewest options, the default), frb "
                             "(failure rates, Li, Yin and Li) or wtd (weighted degrees, Boussemart et al.; "
                             "wtd:DW:FACTOR sets Knuth's w and W); frb and wtd imply --branching binary")
    parser.add_argument("--jobs", type=_natural, metavar="N",
                        help="search on N threads, 0 for one per core (default: 1; 'dlx warm': every "
                             "core); the same solutions in the same order (dancing cells: another order)")
    parser.add_argument("--dask", metavar="WHERE",
                        help="search on a Dask cluster: 'local' (a LocalCluster of one process per "
                             "core) or a scheduler's address, tcp://host:8786 (needs the dist extra)")
    parser.add_argument("--seed", type=_natural, metavar="S",
                        help="try options and break ties in a random order drawn from S (the same S, "
                             "the same order; without it, the file's order, as Knuth's programs)")
    parser.add_argument("--trace", action="store_true",
                        help="print every step on stderr, as Knuth's programs do with v2: each item "
                             "chosen with its number of options, each option tried (k of t), dead "
                             "ends, solutions and backtracks (engine dlx, no colours or bounds)")
    parser.add_argument("--memo", action="store_true",
                        help="search with a memo of every subproblem solved (Knuth's DLX6): a ZDD of "
                             "all solutions, so --count can count far more than any search lists "
                             "(domino tilings of 16x16: two seconds); --max-nodes bounds its nodes")
    parser.add_argument("--zdd", metavar="OUT",
                        help="write the ZDD of all solutions to OUT (- for standard output) in the text "
                             "format of Knuth's DLX6 and ZDDREAD, and print the count (implies --memo)")
    parser.add_argument("--cheapest", type=whole_number(1), metavar="K",
                        help="find the K cheapest solutions of a problem whose options cost |n (Knuth's "
                             "DLX5): prints each solution, with its cost, as it beats the K-th best so "
                             "far, then the K best costs on stderr")
    parser.add_argument("--stats", action="store_true",
                        help="print solutions, updates (cleansings), nodes and seconds on stderr, as "
                             "Knuth's programs do")
    parser.add_argument("--version", action=Version)
    return parser


_natural = whole_number(0)


def print_solutions(problem: ExactCover, solutions: Iterable[Sequence[int]], fmt: str = "dlx",
                    draw: Callable[[ExactCover, Sequence[int]], str] | None = None,
                    printed: list | None = None, costs: Sequence[int] | None = None) -> None:
    """Each solution as ``fmt`` asks: ``dlx``, its options as Knuth prints them (item names,
    ``item:colour`` where an entry has a colour); ``text``, a picture where the problem has one (a
    built-in problem), else as ``dlx``; a blank line between solutions. ``json``: one object a
    line, ``{"solution": n, "options": [[names...], ...]}`` (and ``"picture"``, its lines).
    ``printed[0]`` counts the solutions written, for a summary after an interrupt. ``costs``: the
    cost of each solution (read as each is written), on a line ``cost N`` before it (``"cost"`` in
    json)."""
    out = sys.stdout
    printed = [0] if printed is None else printed
    for n, solution in enumerate(solutions):
        cost = "" if costs is None else f"cost {costs[n]}\n"
        if fmt == "json":
            record = {"solution": n + 1, "options": [list(map(_entry, problem.option(k))) for k in solution]}
            if costs is not None:
                record["cost"] = costs[n]
            if draw is not None:
                record["picture"] = draw(problem, solution).split("\n")
            out.write(json.dumps(record) + "\n")
        elif fmt == "text" and draw is not None:
            out.write(("\n" if n else "") + cost + draw(problem, solution) + "\n")
        else:
            out.write(("\n" if n else "") + cost + "".join(" ".join(map(_entry, problem.option(k))) + "\n"
                                                           for k in solution))
        printed[0] = n + 1


#: A classic's picture of a solution.
Draw = Callable[[ExactCover, Sequence[int]], str]


def _problem(source: list[str], parser: argparse.ArgumentParser) -> tuple[ExactCover, Draw | None, str]:
    """``(problem, draw, name)`` from the command's arguments: a built-in problem by name and its
    arguments, a file, or standard input when none is given."""
    if source and source[0] in problems.CLASSICS and not os.path.exists(source[0]):
        classic = problems.CLASSICS[source[0]]
        try:
            return classic.build(source[1:]), classic.draw, " ".join(source)
        except ValueError as e:
            parser.error(str(e))
    if len(source) > 1:
        parser.error(f"one file at a time, or a problem by name ({', '.join(problems.CLASSICS)}); got "
                     f"{' '.join(source)!r}")
    name = source[0] if source else "-"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            problem = read_dlx(name)
        except OSError as e:
            raise ProblemError(f"{name}: cannot read: {e.strerror or e}") from e
    for warning in caught:
        print(f"dlx: warning: {warning.message}", file=sys.stderr)
    return problem, None, name


class _Tracer:
    """Prints a run's trace on stderr as the events come; knows whether a line was cut short."""

    def __init__(self, problem: ExactCover) -> None:
        self.problem = problem
        self.choices: dict[int, int] = {}
        self.midline = False

    def __call__(self, events: np.ndarray) -> None:
        self.midline = True
        sys.stderr.write("".join(line + "\n" for line in tracing.lines(self.problem, events, self.choices)))
        self.midline = False


def _entry(entry: Any) -> str:
    return f"{entry[0]}:{entry[1]}" if isinstance(entry, tuple) and len(entry) == 2 else str(entry)
