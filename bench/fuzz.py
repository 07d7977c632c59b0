"""Differential fuzz: every engine and every path against the set-based oracle and each other.

    python bench/fuzz.py                         # 2 minutes
    python bench/fuzz.py --minutes 60 --seed 7   # what to run after touching an engine
    python bench/fuzz.py --problems 300 --seed 1
    python bench/fuzz.py --replay fuzz-failures/compact-batch-1.json

Problems are drawn with sizes biased to where the engines keep fixed-width words: an item in 1,
2^k - 1, 2^k or 2^k + 1 options (k = 3..6; 127-129 too), primary or secondary, with or without a
colour, first or last in its options; 7-9, 15-17 or 31-33 primary items. Each problem is plain, with
secondary items, with colours or with multiplicities (bounds). The oracle is Algorithm X (DLX1's
order and figures) or Algorithm M (DLX2's and DLX3's) on plain Python sets, from tests/naive.py.

Every engine that takes the problem (dlx, cells, compact, auto) runs every path: the search (its
order where the engine defines one, its nodes, updates and cleansings where Knuth defines them),
counts and limits, a run paused on node budgets and resumed with the structure checked at each
pause, a seeded run, a split into pieces searched one by one, a run on two threads, Batch.solve
on rows of random givens, Batch.reduce of a solution (every engine must reduce it alike), and the
ZDD of the memoised search (its count, its solutions in order, on two threads, count(memo=True)).
Problems without bounds also get costs (drawn from the check's seed) for the minimum-cost search
(Knuth's DLX5), against the set-based DLX5 of tests/naive.py: every improving solution in order and
its figures, a run paused on budgets, and the k best costs on two threads.

A disagreement is shrunk (options, then items, then bounds and colours taken away while the same
check still fails) and written as JSON to ``--out`` (default ``fuzz-failures/``): the problem, the
engine, the path, the check's seed and the message. ``--replay FILE`` runs that check again. The
run ends with a table of checks per engine and path, and status 1 if any disagreed.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import numpy as np
from naive import CostCounts, Counts, Tally, algorithm_m, algorithm_x, cheapest_x

import dlx
from dlx import Batch, ExactCover, engines, parallel

ENGINES = tuple(engines.names())
#: The option counts of one item that sit at a word's edges (the compact engine's words are 8,
#: 16, 32 or 64 bits, the top one spare), and a few beyond its limit of 63.
WIDTHS = (1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129)
#: Primary item counts at the edges of a word of the bitset of items with one option left.
PRIMARY_COUNTS = (7, 8, 9, 15, 16, 17, 31, 32, 33)
#: An oracle run past this many nodes makes the problem too big for a fuzz: it is drawn again.
ORACLE_NODES = 20_000
ORACLE_SOLUTIONS = 3_000


@dataclass
class Problem:
    """A problem as plain data: options hold item names and ``[item, colour]`` pairs."""

    primary: list[str]
    secondary: list[str]
    options: list[list]
    bounds: dict[str, list[int]] = field(default_factory=dict)

    def entries(self) -> list[list]:
        return [[tuple(e) if isinstance(e, list) else e for e in option] for option in self.options]

    def exact_cover(self) -> ExactCover:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", dlx.ProblemWarning)
            return ExactCover(self.entries(), primary=self.primary, secondary=self.secondary,
                              bounds={k: tuple(v) for k, v in self.bounds.items()} or None)

    @property
    def coloured(self) -> bool:
        return any(isinstance(e, list) for option in self.options for e in option)

    @property
    def plain(self) -> bool:
        return not self.coloured and not self.bounds


# --- drawing problems


def draw(rng: random.Random, kind: str | None = None, wide: str | None = None, width: int | None = None,
         where: str | None = None) -> Problem:
    """A random problem, biased to the word edges (see the module). The rest pin the draw: ``kind``
    ("plain", "secondary", "colours", "bounds"), and an item in exactly ``width`` options (``wide``:
    "primary" or "secondary") placed ``where`` ("first", "last", "any") in the options added for it."""
    kind = kind or rng.choice(("plain", "secondary", "colours", "bounds"))
    n1 = rng.choice(PRIMARY_COUNTS) if rng.random() < 0.25 else rng.randint(1, 6)
    n2 = 0 if kind == "plain" else rng.randint(1, 4)
    primary = [f"p{i}" for i in range(n1)]
    secondary = [f"s{i}" for i in range(n2)]
    items = primary + secondary
    colours = "ab"

    def entry(name: str) -> str | list:
        if kind == "colours" and name in secondary and rng.random() < 0.6:
            return [name, rng.choice(colours)]
        return name

    def option(must: str | None = None, where: str = "any") -> list:
        names = rng.sample(items, min(len(items), rng.randint(1, 3)))
        if must is not None:
            names = [n for n in names if n != must]
            names.insert({"first": 0, "last": len(names)}.get(where, rng.randint(0, len(names))), must)
        if not set(names) & set(primary):
            names.insert(rng.randint(0, len(names)), rng.choice(primary))
        return [entry(n) for n in names]

    options = [option() for _ in range(rng.randint(0, 12 + n1))]
    if width is not None or rng.random() < 0.7:
        if wide is None:
            wide = "secondary" if secondary and rng.random() < 0.5 else "primary"
        name = rng.choice(secondary if wide == "secondary" else primary)
        width = rng.choice(WIDTHS) if width is None else width
        where = where or rng.choice(("first", "last", "any"))
        options = [o for o in options if name not in _names(o)][:width - 1]
        for _ in range(width):
            options.insert(rng.randint(0, len(options)), option(name, where))
    bounds = {}
    if kind == "bounds":
        for name in rng.sample(primary, rng.randint(1, max(1, len(primary) // 2))):
            hi = rng.randint(1, 3)
            bounds[name] = [rng.randint(0, hi), hi]
    return Problem(primary, secondary, options, bounds)


def _names(option: list) -> list[str]:
    return [e[0] if isinstance(e, list) else e for e in option]


# --- the oracle


class TooBig(Exception):
    """The oracle's search is too large for a fuzz."""


@dataclass
class Oracle:
    """What the set-based search says: the solutions in the order of Knuth's program for the
    problem (DLX1 for a plain one, else DLX2/DLX3), and that program's figures."""

    solutions: list[tuple[int, ...]]
    nodes: int
    updates: int
    cleansings: int

    @property
    def as_set(self) -> set[tuple[int, ...]]:
        return set(self.solutions)


def oracle(p: Problem) -> Oracle:
    entries = p.entries()
    if p.plain:
        counts = Counts()
        found = _bounded(algorithm_x(entries, p.primary, p.secondary, counts), counts)
        return Oracle(found, counts.nodes, counts.updates, 0)
    tally = Tally()
    bounds = {k: tuple(v) for k, v in p.bounds.items()}
    found = _bounded(algorithm_m(entries, p.primary, p.secondary, bounds, tally), tally)
    return Oracle(found, tally.nodes, tally.updates, tally.cleansings)


def _bounded(solutions, counts) -> list[tuple[int, ...]]:
    found = []
    for s in solutions:
        found.append(s)
        if counts.nodes > ORACLE_NODES or len(found) > ORACLE_SOLUTIONS:
            raise TooBig
    if counts.nodes > ORACLE_NODES:
        raise TooBig
    return found


def machine_of(name: str, ec: ExactCover):
    """The machine ``name`` runs ``ec`` on, or None when it refuses the problem."""
    try:
        return engines.get(engines.resolve(name, ec.engine_input)).for_problem(ec.engine_input)
    except ValueError:
        return None


def ordered(machine) -> bool:
    """Whether the machine's solutions come in Knuth's DLX order (dancing cells has its own, and
    so have binary branching and domain consistency)."""
    return not machine.name.startswith(("cells", "binary", "dc"))


def figures(machine, ec: ExactCover, o: Oracle) -> str | None:
    """A disagreement between the run's stats and the oracle's, where Knuth defines them."""
    s = ec.stats
    if s.solutions != len(o.solutions) or not s.complete:
        return f"stats: {s.solutions} solutions, {s.status}; the oracle: {len(o.solutions)}"
    if machine.name in ("dlx1", "dlx3") and (s.nodes, s.updates, s.cleansings) != (o.nodes, o.updates, o.cleansings):
        return f"nodes, updates, cleansings {(s.nodes, s.updates, s.cleansings)}; the oracle: " \
               f"{(o.nodes, o.updates, o.cleansings)}"
    if machine.name == "compact" and s.nodes != o.nodes:
        return f"nodes {s.nodes}; the oracle: {o.nodes}"
    return None


def same(machine, found: list, o: Oracle, what: str) -> str | None:
    """A disagreement between solutions found and the oracle's (in order where it is defined)."""
    if len(found) != len(set(found)):
        return f"{what}: a solution found twice"
    if set(found) != o.as_set:
        missing, extra = sorted(o.as_set - set(found))[:3], sorted(set(found) - o.as_set)[:3]
        return f"{what}: {len(found)} solutions, the oracle {len(o.solutions)}; missing {missing}, extra {extra}"
    if ordered(machine) and found != o.solutions:
        return f"{what}: the same solutions in another order"
    return None


# --- the paths: each returns a disagreement (a message) or None


def path_search(name, p, ec, o, rng):
    machine = machine_of(name, ec)
    found = list(ec.solutions(engine=name))
    ec.check()
    return same(machine, found, o, "solutions") or figures(machine, ec, o)


def path_count(name, p, ec, o, rng):
    total = ec.count(engine=name)
    if total != len(o.solutions):
        return f"count {total}, the oracle {len(o.solutions)}"
    limit = rng.randint(1, 4)
    if ec.count(limit, engine=name) != min(limit, total):
        return f"count(limit={limit}) {ec.stats.solutions}, expected {min(limit, total)}"
    first = ec.first(engine=name)
    if total == 0 and first is not None or total and first not in o.as_set:
        return f"first {first}"
    if ordered(machine_of(name, ec)) and total and first != o.solutions[0]:
        return f"first {first}, the oracle's first {o.solutions[0]}"
    ec.check()
    return None


def path_pause(name, p, ec, o, rng):
    """Paused every ``budget`` nodes and after each solution, checked at each pause, resumed."""
    machine = machine_of(name, ec)
    budget = rng.randint(1, 5)
    found: list = []
    nodes = updates = 0
    run = ec.search(engine=name, max_nodes=budget, limit=1)
    with run:
        while True:
            found += list(run)
            run.check()
            nodes, updates = run.stats.nodes, run.stats.updates
            if run.status == "complete":
                break
            run.resume(max_nodes=budget, limit=1)
    ec.check()
    whole = list(ec.solutions(engine=name))
    if (nodes, updates) != (ec.stats.nodes, ec.stats.updates):
        return f"paused run: nodes, updates {(nodes, updates)}; one run {(ec.stats.nodes, ec.stats.updates)}"
    if found != whole:
        return "paused run: other solutions than one run's"
    return same(machine, found, o, "paused run")


def path_seed(name, p, ec, o, rng):
    seed = rng.randint(0, 1 << 20)
    found = list(ec.solutions(engine=name, seed=seed))
    ec.check()
    if sorted(found) != sorted(o.solutions):
        return f"seed {seed}: {len(found)} solutions, the oracle {len(o.solutions)}"
    return None


def path_split(name, p, ec, o, rng):
    machine = machine_of(name, ec)
    depth = rng.randint(1, 4)
    pieces, above, stats = parallel.split(ec, depth, engine=name, collect=True)
    prepared = ec.prepared(engines.resolve(name, ec.engine_input))
    outcomes = list(above)
    for piece in pieces:
        structure = prepared.engine.copy(prepared.pristine)
        outcomes.append(parallel.search_piece(prepared.engine, structure, piece, collect=True))
        prepared.engine.check(ec.engine_input, structure, None)
    result = parallel.merge(outcomes, machine.name, before=stats, collect=True)
    if not machine.exact_splits:
        return None if sorted(result.solutions) == sorted(o.solutions) else f"split at {depth}: other solutions"
    found = result.solutions
    why = same(machine, found, o, f"split at depth {depth}")
    s = result.stats
    if why is None and machine.name in ("dlx1", "dlx3") and (s.nodes, s.updates) != (o.nodes, o.updates):
        why = f"split at depth {depth}: nodes, updates {(s.nodes, s.updates)}; the oracle {(o.nodes, o.updates)}"
    return why


def path_threads(name, p, ec, o, rng):
    machine = machine_of(name, ec)
    found = list(ec.solutions(engine=name, jobs=2))
    count = ec.count(engine=name, jobs=2)
    ec.check()
    if count != len(o.solutions):
        return f"count on two threads {count}, the oracle {len(o.solutions)}"
    if not machine.exact_splits:
        return None if sorted(found) == sorted(o.solutions) else "two threads: other solutions"
    return same(machine, found, o, "two threads")


def groups(rng: random.Random, n_options: int) -> list[int]:
    """Group sizes that cover some of the first options (at most 255 each)."""
    sizes, left = [], rng.randint(1, n_options)
    while left:
        sizes.append(min(rng.randint(1, left), 255))
        left -= sizes[-1]
    return sizes


def batch_oracle(o: Oracle, starts: np.ndarray, row, limit: int) -> tuple[int, list]:
    chosen = {int(starts[j] + v - 1) for j, v in enumerate(row) if v}
    holding = [s for s in o.solutions if chosen <= set(s)]
    return min(len(holding), limit), holding


def agrees(solution, answer, starts) -> bool:
    for j, v in enumerate(answer):
        mine = [k for k in solution if starts[j] <= k < starts[j + 1]]
        if (v == 0 and mine) or (v and starts[j] + v - 1 not in mine):
            return False
    return True


def usable(ec: ExactCover, sizes: list[int]) -> bool:
    """Batch refuses a group holding an option with no primary item."""
    return not any(ec.engine_input.start[k + 1] == ec.engine_input.start[k] for k in range(sum(sizes)))


def path_batch(name, p, ec, o, rng):
    if not ec.n_options:
        return None
    sizes = groups(rng, ec.n_options)
    if not usable(ec, sizes):
        return None
    starts = np.concatenate([[0], np.cumsum(sizes)])
    rows = []
    for _ in range(rng.randint(1, 6)):
        if o.solutions and rng.random() < 0.5:      # a solution's values, some taken away
            s = set(rng.choice(o.solutions))
            rows.append([next((int(k - starts[j] + 1) for k in s if starts[j] <= k < starts[j + 1]), 0)
                         if rng.random() < 0.6 else 0 for j in range(len(sizes))])
        else:
            rows.append([rng.randint(0, size) if rng.random() < 0.4 else 0 for size in sizes])
    limit = rng.randint(1, 4)
    result = Batch(ec, sizes, engine=name).solve(np.array(rows), limit=limit)
    ec.check()
    for r, row in enumerate(rows):
        count, holding = batch_oracle(o, starts, row, limit)
        status = result.statuses()[r]
        if result.counts[r] != count:
            return f"row {row} (groups {sizes}, limit {limit}): count {result.counts[r]} ({status}), the oracle {count}"
        if count and (status != "solved" or not any(agrees(s, result.answers[r], starts) for s in holding)):
            return f"row {row} (groups {sizes}): answer {result.answers[r].tolist()} ({status}) is no solution's"
        if not count and (status not in ("no solution", "invalid") or result.answers[r].any()):
            return f"row {row} (groups {sizes}): no solution, but status {status}, answer {result.answers[r].tolist()}"
        chosen = {int(starts[j] + v - 1) for j, v in enumerate(row) if v}
        if status != "invalid" and p.plain and set(p.primary) - {n for k in chosen for n in _names(p.options[k])}:
            left = left_by(p, chosen)
            found = left.count(limit, engine=engines.batching(name, ec.engine_input))     # what "auto" ran
            if (found, left.stats.nodes) != (result.counts[r], result.nodes[r]):
                return (f"row {row} (groups {sizes}, limit {limit}): {result.counts[r]} solutions in "
                        f"{result.nodes[r]} nodes; a search of what its givens leave: {found} in {left.stats.nodes}")
    return None


def left_by(p: Problem, chosen: set[int]) -> ExactCover:
    """The problem that options ``chosen`` (compatible, no colours or bounds) leave: the items they do not
    cover and the options that share no item with them, in the order of ``p``."""
    covered = {n for k in chosen for n in _names(p.options[k])}
    kept = [o for k, o in enumerate(p.options) if k not in chosen and not covered & set(_names(o))]
    return Problem([n for n in p.primary if n not in covered], [n for n in p.secondary if n not in covered],
                   kept, {k: v for k, v in p.bounds.items() if k not in covered}).exact_cover()


def path_reduce(name, p, ec, o, rng):
    """A solution's row reduced: unique, minimal, and the same on every engine."""
    if not o.solutions or not ec.n_options:
        return None
    sizes = groups(rng, ec.n_options)
    if not usable(ec, sizes):
        return None
    starts = np.concatenate([[0], np.cumsum(sizes)])
    s = set(rng.choice(o.solutions))
    row = [next((int(k - starts[j] + 1) for k in sorted(s) if starts[j] <= k < starts[j + 1]), 0)
           for j in range(len(sizes))]
    if batch_oracle(o, starts, row, 2)[0] != 1:
        return None
    got = Batch(ec, sizes, engine=name).reduce(row).tolist()
    ec.check()
    if batch_oracle(o, starts, got, 2)[0] != 1:
        return f"reduced {row} (groups {sizes}) to {got}: not unique"
    for j in np.flatnonzero(got):
        fewer = list(got)
        fewer[j] = 0
        if batch_oracle(o, starts, fewer, 2)[0] == 1:
            return f"reduced {row} (groups {sizes}) to {got}: not minimal (group {j} can go)"
    others = {e: Batch(ec, sizes, engine=e).reduce(row).tolist() for e in ENGINES if applies(e, "reduce", ec)}
    if any(v != got for v in others.values()):
        return f"reduced {row} (groups {sizes}): {name} gives {got}, the engines {others}"
    return None


def path_zdd(name, p, ec, o, rng):
    z = ec.zdd()
    if z.count() != len(o.solutions):
        return f"ZDD count {z.count()}, the oracle {len(o.solutions)}"
    found = list(z.solutions())
    if (found if not p.bounds else sorted(found)) != (o.solutions if not p.bounds else sorted(o.solutions)):
        return "ZDD solutions: not the oracle's" + (" order" if sorted(found) == sorted(o.solutions) else "")
    if ec.zdd(jobs=2) != z and sorted(ec.zdd(jobs=2).solutions()) != sorted(found):
        return "ZDD on two threads: other solutions"
    if ec.count(memo=True) != len(o.solutions):
        return f"count(memo=True) {ec.count(memo=True)}"
    if o.solutions:
        rank = rng.randrange(len(o.solutions))
        if z.solution(rank) != found[rank]:
            return f"ZDD solution({rank}) {z.solution(rank)}, listed {found[rank]}"
    return None


PATHS: dict[str, Callable] = {"search": path_search, "count": path_count, "pause": path_pause, "seed": path_seed,
                              "split": path_split, "threads": path_threads, "batch": path_batch,
                              "reduce": path_reduce}
def path_cheapest(name, p, ec, o, rng):
    """DLX5 (``ExactCover.cheapest``) with costs drawn from the check's seed, beside the set-based
    DLX5: the improving solutions and the figures, a paused run, two threads."""
    costs = [rng.choice((0, 1, 2, 5, rng.randint(0, 50))) for _ in p.options]
    k = rng.choice((1, 1, 2, 3, 8))
    lenthresh = rng.choice((10, 10, 1, 2, 3))
    priced = ec.with_costs(costs)
    counts = CostCounts()
    expected = []
    for found in cheapest_x(p.entries(), costs, p.primary, p.secondary, k, lenthresh, counts):
        expected.append(found)
        if counts.nodes > ORACLE_NODES:
            return None
    run = dlx.cheapest.Cheapest(priced, k, lenthresh=lenthresh)
    got = [tuple(x) for x in run]
    if got != expected:
        return f"cheapest(k={k}, h={lenthresh}): {got[:3]}..., the oracle {expected[:3]}..."
    s = run.stats
    if (s.nodes, s.updates, s.cleansings) != (counts.nodes, counts.updates, counts.cleansings):
        return f"cheapest figures {(s.nodes, s.updates, s.cleansings)}, the oracle's {counts}"
    run.check()
    paused = dlx.cheapest.Cheapest(priced, k, lenthresh=lenthresh, max_nodes=rng.randint(1, 5))
    again = []
    while True:
        again += [tuple(x) for x in paused]
        if paused.status == "complete":
            break
        paused.resume(max_nodes=rng.randint(1, 5))
    if again != expected or paused.stats.nodes != s.nodes:
        return "cheapest paused and resumed: not one run"
    two = [q.cost for q in priced.cheapest(k, jobs=2)]
    if two != [q.cost for q in run.best]:
        return f"cheapest on two threads: costs {two}, one run {[q.cost for q in run.best]}"
    return None


#: The memoised search is one engine's path of its own (it chooses items as Dancing Links do).
MEMO = ("memo", "zdd")
#: The minimum-cost search: a machine of its own (problems without bounds).
CHEAPEST = ("dlx5", "cheapest")


#: The paths that need an engine's batch kernel.
BATCH_PATHS = ("batch", "reduce")


def applies(engine: str, path: str, ec: ExactCover) -> bool:
    """Whether ``engine`` takes ``ec`` (and, on a batch path, batches)."""
    machine = machine_of(engine, ec)
    return machine is not None and (path not in BATCH_PATHS or machine.batches)


def checks_for(p: Problem, ec: ExactCover) -> list[tuple[str, str]]:
    """The (engine, path) pairs that apply to ``p``."""
    pairs = [(e, path) for e in ENGINES for path in PATHS if applies(e, path, ec)]
    return pairs + [MEMO] + ([CHEAPEST] if not p.bounds else [])


def run_check(engine: str, path: str, p: Problem, seed: int) -> str | None:
    """One check of ``p``: a disagreement (a message) or None. A check that raises disagrees."""
    try:
        o = oracle(p)
    except TooBig:
        return None
    ec = p.exact_cover()
    rng = random.Random(seed)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", dlx.ProblemWarning)
            if (engine, path) == MEMO:
                return path_zdd(engine, p, ec, o, rng)
            if (engine, path) == CHEAPEST:
                return path_cheapest(engine, p, ec, o, rng)
            if machine_of(engine, ec) is None:
                return None
            return PATHS[path](engine, p, ec, o, rng)
    except KeyboardInterrupt:
        raise
    except Exception as e:  # noqa: BLE001 - any exception is a finding, reported with its type
        return f"raised {type(e).__name__}: {e}"


# --- shrinking and reporting


def smaller(p: Problem):
    """Problems one step smaller than ``p``: an option less, an item less, no bounds, no colours."""
    for k in range(len(p.options)):
        yield Problem(p.primary, p.secondary, p.options[:k] + p.options[k + 1:], p.bounds)
    used = {n for o in p.options for n in _names(o)}
    for name in p.primary + p.secondary:
        if name not in used and (name in p.secondary or len(p.primary) > 1):
            yield Problem([n for n in p.primary if n != name], [n for n in p.secondary if n != name], p.options,
                          {k: v for k, v in p.bounds.items() if k != name})
    for name in p.bounds:
        yield Problem(p.primary, p.secondary, p.options, {k: v for k, v in p.bounds.items() if k != name})
    if p.coloured:
        yield Problem(p.primary, p.secondary, [_names(o) for o in p.options], p.bounds)


def shrink(engine: str, path: str, p: Problem, seed: int) -> tuple[Problem, str]:
    """The smallest problem reached by one step at a time on which the check still fails."""
    message = run_check(engine, path, p, seed)
    assert message is not None
    progress = True
    while progress:
        progress = False
        for q in smaller(p):
            why = run_check(engine, path, q, seed)
            if why is not None:
                p, message, progress = q, why, True
                break
    return p, message


def write_case(out: Path, engine: str, path: str, p: Problem, seed: int, message: str) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    k = 1
    while (out / f"{engine}-{path}-{k}.json").exists():
        k += 1
    target = out / f"{engine}-{path}-{k}.json"
    target.write_text(json.dumps({"engine": engine, "path": path, "seed": seed, "message": message,
                                  "problem": asdict(p)}) + "\n")
    return target


def replay(file: Path) -> int:
    case = json.loads(file.read_text())
    p = Problem(**case["problem"])
    why = run_check(case["engine"], case["path"], p, case["seed"])
    print(f"{case['engine']} {case['path']}: " + (why or "agrees now"))
    return 1 if why else 0


def table(tried: Counter, problems: Counter, failed: Counter) -> str:
    lines = ["| engine | path | problems | disagreements |", "|---|---|---:|---:|"]
    for key in sorted(tried):
        lines.append(f"| {key[0]} | {key[1]} | {problems[key]:,} | {failed[key]} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=2.0, help="how long to run (default 2)")
    parser.add_argument("--problems", type=int, default=None, help="stop after this many problems instead")
    parser.add_argument("--seed", type=int, default=None, help="the first problem's seed (default: from the clock)")
    parser.add_argument("--out", type=Path, default=Path("fuzz-failures"), help="where reproducers go")
    parser.add_argument("--replay", type=Path, help="run the check of a reproducer again")
    args = parser.parse_args(argv)
    if args.replay:
        return replay(args.replay)
    seed = args.seed if args.seed is not None else int(time.time())
    size = f"{args.problems} problems" if args.problems else f"{args.minutes:g} minutes"
    print(f"fuzz: seed {seed}, {size}", flush=True)
    end = time.monotonic() + 60 * args.minutes
    tried: Counter = Counter()
    failed: Counter = Counter()
    drawn = too_big = 0
    try:
        while (drawn < args.problems) if args.problems else time.monotonic() < end:
            problem_seed = seed * 1_000_003 + drawn
            rng = random.Random(problem_seed)
            p = draw(rng)
            drawn += 1
            try:
                oracle(p)
            except TooBig:
                too_big += 1
                continue
            for engine, path in checks_for(p, p.exact_cover()):
                tried[engine, path] += 1
                check_seed = rng.randrange(1 << 30)
                if run_check(engine, path, p, check_seed) is None:
                    continue
                failed[engine, path] += 1
                small, message = shrink(engine, path, p, check_seed)
                where = write_case(args.out, engine, path, small, check_seed, message)
                print(f"DISAGREE {engine} {path} (problem seed {problem_seed}): {message}\n  -> {where}", flush=True)
            if drawn % 200 == 0:
                print(f"{drawn:,} problems, {sum(tried.values()):,} checks, {sum(failed.values())} disagreements",
                      flush=True)
    except KeyboardInterrupt:
        print("fuzz: interrupted", file=sys.stderr)
    print(f"\n{drawn:,} problems drawn ({too_big:,} too big for the oracle), {sum(tried.values()):,} checks, "
          f"{sum(failed.values())} disagreements\n")
    print(table(tried, tried, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
