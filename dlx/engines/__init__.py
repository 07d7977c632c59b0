"""The engines, by name: ``engine="auto"`` (the default), ``"dlx"``, ``"cells"``, ``"compact"`` or
``"dc"`` everywhere an engine can be chosen (with a strategy: ``"cells/binary/frb"``, ``"dc/wtd"``,
see `named`).

An engine is one search machine behind the small interface of [`base.Engine`][dlx.engines.base.Engine], facts included
(its summary, what it counts, what it refuses, its tunables, its test samples); a new one goes into
a module of its own here and into [`ENGINES`][dlx.engines.ENGINES], and everything else reads it from there. A name
may stand for a family whose member is picked by the problem: ``"dlx"`` runs DLX1 on a plain
exact-cover problem and the machine of DLX2/DLX3 on one with colours or multiplicities, so that every
figure is the one Knuth's program for that kind of problem reports. ``"cells"`` is dancing cells
(Knuth's SSXC1, SSXCC with colours). ``"compact"`` is Algorithm X for small problems with each
item's live options in one machine word (DLX1's choices and nodes). ``"dc"`` is XCCDC, domain
consistency at every node. ``"auto"`` picks one by the shape of the problem ([`choose`][dlx.engines.choose]), by
measurement.
"""
from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .base import Engine, Machine, Options, Prepared, Single

if TYPE_CHECKING:
    from .binary import Binary
    from .compact import CompactEngine
    from .dc import DomainConsistent

#: The heuristics that steer binary branching, by name (`dlx.engines.binary` holds what they do).
HEURISTICS = ("mrv", "frb", "wtd")

T = TypeVar("T")
_building = threading.Lock()


def _once(owner: Any, key: str, build: Callable[[], T]) -> T:
    """``owner``'s ``key``, built on first use: an engine's module is imported when a program first
    asks for that engine (a process that solves sudokus never loads the other engines' kernels,
    about 0.3 ms of start-up each)."""
    found = owner.__dict__.get(key)
    if found is None:
        with _building:
            found = owner.__dict__.get(key)
            if found is None:
                found = owner.__dict__[key] = build()
    return found


class Family(Protocol):
    """What a name stands for: the engine that searches a given problem."""

    name: str

    @property
    def summary(self) -> str:
        """One line: what the name stands for (``--help``, the docs)."""

    @property
    def machines(self) -> tuple[Engine, ...]:
        """Every engine the name may stand for."""

    def for_problem(self, problem: Options) -> Engine: ...


class DancingLinks:
    """Knuth's Dancing Links programs: DLX1 (plain), DLX2 (colours), DLX3 (multiplicities)."""

    name = "dlx"
    summary = "Dancing Links: Knuth's DLX1, or DLX2/DLX3 for colours and multiplicities"

    @property
    def plain(self) -> Engine:
        from .dlx1 import DLX1
        return _once(self, "_plain", DLX1)

    @property
    def general(self) -> Engine:
        from .dlx3 import DLX3
        return _once(self, "_general", DLX3)

    @property
    def machines(self) -> tuple[Engine, ...]:
        return (self.plain, self.general)

    def for_problem(self, problem: Options) -> Engine:
        """The machine that searches ``problem``."""
        if self.plain.refusal(problem) is None:
            return self.plain
        return self.general


class DancingCells:
    """Knuth's dancing cells: SSXC1 (plain), SSXCC (colours), both d-way; binary branching on
    request (SSXCC-BINARY, with a heuristic: ``"cells/binary"``, ``"cells/binary/frb"``, ...); SSMCC,
    which branches binary, for multiplicities."""

    name = "cells"
    summary = ("dancing cells: Knuth's SSXC1, or SSXCC with colours; SSXCC-BINARY with branching='binary' "
               "(heuristics mrv, frb, wtd); SSMCC for multiplicities")

    @property
    def dway(self) -> Engine:
        from .cells import Cells
        return _once(self, "_dway", Cells)

    @property
    def binary(self) -> dict[str, Binary]:
        from .binary import Binary
        return _once(self, "_binary", lambda: {heuristic: Binary(heuristic) for heuristic in HEURISTICS})

    @property
    def machines(self) -> tuple[Engine, ...]:
        return (self.dway, *self.binary.values())

    def for_problem(self, problem: Options) -> Engine:
        """SSMCC (binary, mrv) for multiplicities, else the d-way machine."""
        return self.binary["mrv"] if problem.bounds is not None else self.dway

    def strategy(self, strategy: str) -> Family:
        """The family of one strategy: ``"binary"`` or ``"binary/HEURISTIC"``."""
        branching, _, heuristic = strategy.partition("/")
        if branching != "binary":
            raise ValueError(f"unknown engine 'cells/{strategy}': the strategies of the cells engine are binary "
                             "and binary/HEURISTIC")
        from .binary import Binary
        machine = self.binary.get(heuristic or "mrv") or Binary(heuristic)
        return Strategy(f"{self.name}/{strategy}", machine.summary, machine)


class DomainConsistency:
    """Knuth's XCCDC: binary branching that keeps every domain consistent, steered by a heuristic
    (``"dc"``, ``"dc/frb"``, ``"dc/wtd"``)."""

    name = "dc"
    summary = ("domain consistency: Knuth's XCCDC, binary branching that purges every option without "
               "support at every node (heuristics mrv, frb, wtd)")

    @property
    def by_heuristic(self) -> dict[str, DomainConsistent]:
        from .dc import DomainConsistent
        return _once(self, "_by_heuristic", lambda: {heuristic: DomainConsistent(heuristic)
                                                     for heuristic in HEURISTICS})

    @property
    def machines(self) -> tuple[Engine, ...]:
        return tuple(self.by_heuristic.values())

    def for_problem(self, problem: Options) -> Engine:
        return self.by_heuristic["mrv"].for_problem(problem)

    def strategy(self, strategy: str) -> Family:
        """The family of one heuristic: ``"frb"`` or ``"wtd"`` (or ``"mrv"``)."""
        machine = self.by_heuristic.get(strategy)
        if machine is None:
            raise ValueError(f"unknown engine 'dc/{strategy}': the heuristics of domain consistency are "
                             f"{', '.join(HEURISTICS)}")
        return Strategy(f"{self.name}/{strategy}", machine.summary, machine)


class Strategy:
    """A family of one machine: a search strategy of an engine (its name says which)."""

    def __init__(self, name: str, summary: str, machine: Engine) -> None:
        self.name, self.summary, self.machine = name, summary, machine
        self.machines = (machine,)

    def for_problem(self, problem: Options) -> Engine:
        why = self.machine.refusal(problem)
        if why:
            raise ValueError(why)
        return self.machine


#: Options at least this long on average (entries per option) make a problem one for dancing
#: cells: hiding an option costs cells less the longer it is, and an early abort saves more.
LONG_OPTIONS = 5
#: Items at least this long on average (entries per item) make a small problem of primary items
#: alone (``COMPACT_ITEMS`` at most) one for dancing cells: Langford pairs (14.5 and 16 entries an
#: item) 1.10-1.15x faster than with DLX1; below it Dancing Links win: random set partitions (12 an
#: item, 1.2-1.5x), Latin squares (5, 1.85x), domino tilings (3.4, 2x). Cells save the size of
#: every active item at a branching level, so many items favour Dancing Links however long: 3x on
#: a random matrix of 10,000 items and 30 entries an item. The table is in docs/engine.md.
LONG_ITEMS = 14
#: A problem of primary items only, at most this many, each in at most 63 options, with options of
#: 4 entries or more on average (and fewer than ``LONG_OPTIONS``) is one for the compact engine:
#: its words of a branching level are copied whole, so they must be few.
COMPACT_ITEMS = 1024
#: A problem with colours and at least this many options (that can be in a solution) is one for
#: binary branching with failure rates (``"cells/binary/frb"``): on graceful labellings of cycles
#: (1,872 and 3,600 options) it beats the d-way search 1.3x and 3.6x; on smaller coloured problems
#: (810 and 390 options) it loses up to 2.1x, in milliseconds (bench/strategies.py).
LEARNING_OPTIONS = 1500


def choose(problem: Options) -> str:
    """The engine ``"auto"`` runs ``problem`` on, by its shape. Measured side by side (CPU time, one
    thread, see bench/compare.py and docs/performance.md): dancing cells win where options are long
    (pentominoes, 6 items an option: 1.3-1.5x) and with colours (graceful labellings: 1.3-1.9x over
    DLX2); the compact engine wins on small problems of primary items and options of 4 entries
    (sudoku 9x9: 1.2-1.4x over DLX1; 16x16: 1.0-1.4x) and not beyond them (queens, with secondary
    items, 1.0-0.94x; Langford, 3 entries, 0.95-1.05x; sudoku 25x25, 2,500 items, 0.86-1.5x). Among
    the other short options, dancing cells win where there are few primary items alone and they are
    long (``LONG_ITEMS`` entries or more: Langford pairs, 1.10-1.15x over DLX1), Dancing Links the
    rest (queens 1.7-2.2x over cells; set partitions, Latin squares, domino tilings 1.2-2x; 10,000
    items, 3x).
    Multiplicities are for DLX3 alone (SSMCC, its binary rival, is 1.2-2.1x slower on every MCC row
    measured). With colours and at least ``LEARNING_OPTIONS`` options, binary branching steered by
    failure rates wins (``"cells/binary/frb"``: graceful labellings of C15 3.6x over the d-way
    search); domain consistency (``"dc"``) takes up to 24x fewer nodes than the other searches but
    2-46x more time on every row measured, so ``auto`` never picks it. A batch takes the d-way cells engine
    where this rule says binary (`batching`)."""
    if problem.bounds is not None:
        return "dlx"
    if problem.colours is not None:
        live = int((problem.start[1:] > problem.start[:-1]).sum())
        return "cells/binary/frb" if live >= LEARNING_OPTIONS else "cells"
    options = max(int((problem.start[1:] > problem.start[:-1]).sum()), 1)
    if problem.items.size >= LONG_OPTIONS * options:
        return "cells"
    from .compact import limits
    if (problem.n_primary == problem.n_items <= COMPACT_ITEMS and problem.items.size >= 4 * options
            and limits(problem) is None):
        return "compact"
    if problem.n_primary == problem.n_items <= COMPACT_ITEMS and problem.items.size >= LONG_ITEMS * problem.n_items:
        return "cells"
    return "dlx"


class Auto:
    """Not an engine but a choice between two (see [`choose`][dlx.engines.choose])."""

    name = "auto"
    summary = ("picks one by the shape of the problem, as measured: cells for long options (5 entries or more "
               "on average) or colours (binary with failure rates from 1,500 options with colours); compact for "
               "small problems of primary items and options of 4 entries; cells for other small problems of "
               "primary items whose items are long (14 entries or more); dlx for the rest and for multiplicities")
    machines = ()

    def for_problem(self, problem: Options) -> Engine:
        return ENGINES[choose(problem)].for_problem(problem)


class Compact:
    """The compact engine, a family of one machine (`dlx.engines.compact`)."""

    name = "compact"

    @property
    def engine(self) -> CompactEngine:
        from .compact import CompactEngine
        return _once(self, "_engine", CompactEngine)

    @property
    def summary(self) -> str:
        return self.engine.summary

    @property
    def machines(self) -> tuple[Engine, ...]:
        return (self.engine,)

    def for_problem(self, problem: Options) -> Engine:
        return self.engine.for_problem(problem)


#: Every engine there is, by the name the API and the commands take.
ENGINES: dict[str, Family] = {"auto": Auto(), "dlx": DancingLinks(), "cells": DancingCells(),
                              "compact": Compact(), "dc": DomainConsistency()}
#: How the engines that can branch binary do: ``branching="all"`` (d-way, the default) or ``"binary"``.
BRANCHINGS = ("all", "binary")
DEFAULT = "auto"
#: The searches for the cheapest solutions (`dlx.ExactCover.cheapest`), by name: machines
#: that keep the k best rather than visit every solution, so not engines of `ENGINES`; they
#: state the same facts, which the docs, the tests and the coverage run read.
if TYPE_CHECKING:
    OPTIMISERS: dict[str, Any]


_optimisers: list[dict[str, Any]] = []


def __getattr__(name: str) -> Any:
    """``OPTIMISERS``, built on first use (its module is imported then, as an engine's is)."""
    if name == "OPTIMISERS":
        with _building:
            if not _optimisers:
                from .dlx5 import DLX5
                _optimisers.append({"dlx5": DLX5()})
        return _optimisers[0]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def machines() -> list[Engine]:
    """Every engine that a name of the registry can resolve to, once each (the engine contract's
    tests run over these)."""
    found: dict[int, Engine] = {}
    for family in ENGINES.values():
        for machine in family.machines:
            found.setdefault(id(machine), machine)
    return list(found.values())


def get(name: str) -> Family:
    """The engine called ``name`` (with a strategy: ``"cells/binary/frb"``, see `named`); a
    ValueError listing the names there are for any other."""
    base, slash, strategy = name.partition("/") if isinstance(name, str) else (name, "", "")
    try:
        family = ENGINES[base]
    except (KeyError, TypeError):
        raise ValueError(f"unknown engine {name!r}; the engines are: {', '.join(ENGINES)}") from None
    if not slash:
        return family
    if not hasattr(family, "strategy"):
        raise ValueError(f"unknown engine {name!r}: the {base} engine has one strategy only")
    return family.strategy(strategy)


def named(engine: str, branching: str | None = None, heuristic: str | None = None) -> str:
    """The registry name of ``engine`` searching by ``branching`` (``"all"``: d-way, the default;
    ``"binary"``) steered by ``heuristic`` (``"mrv"``, the default; ``"frb"``, ``"wtd"``, which
    imply binary branching): ``"cells/binary/frb"`` and the like; domain consistency always branches
    binary (``"dc"``, ``"dc/frb"``, ``"dc/wtd"``). ``"auto"`` with either is dancing cells. A
    ValueError names what does not fit."""
    get(engine)
    if branching is None and heuristic is None:
        return engine
    if branching not in (None, *BRANCHINGS):
        raise ValueError(f"unknown branching {branching!r}; the branchings are: {', '.join(BRANCHINGS)}")
    if heuristic is not None:
        from .binary import parse_heuristic
        parse_heuristic(heuristic)
    base = "cells" if engine == "auto" else engine.partition("/")[0]
    if base == "dc":
        if branching == "all":
            raise ValueError("domain consistency (engine='dc') branches binary: it takes no branching='all'")
        if heuristic not in (None, *HEURISTICS):
            raise ValueError(f"the heuristics of domain consistency are {', '.join(HEURISTICS)} (no knobs)")
        return "dc" if heuristic in (None, "mrv") else f"dc/{heuristic}"
    if branching in (None, "all") and heuristic in (None, "mrv"):
        return engine
    if branching == "all":
        raise ValueError(f"the heuristic {heuristic!r} steers binary branching: pass branching='binary' (or "
                         "leave branching out)")
    if not hasattr(ENGINES[base], "strategy"):
        raise ValueError(f"the {base} engine branches d-way only: binary branching and its heuristics are the "
                         "cells engine's (engine='cells')")
    return f"{base}/binary" + ("" if heuristic in (None, "mrv") else f"/{heuristic}")


def names() -> list[str]:
    """Every name of the registry, with each strategy of each engine (Knuth's heuristics at their
    defaults)."""
    found = list(ENGINES)
    for name, family in ENGINES.items():
        if hasattr(family, "strategy"):
            found += [n for n in (named(name, "binary", heuristic) for heuristic in HEURISTICS) if n not in found]
    return found


def batching(name: str, problem: Options) -> str:
    """The name of the engine a [`dlx.Batch`][dlx.Batch] runs when ``name`` is asked for: ``"auto"``
    chooses as for a search, but a strategy without batches (binary branching) gives way to its
    engine's own d-way search."""
    chosen = resolve(name, problem)
    if name == "auto" and not get(chosen).for_problem(problem).batches:
        chosen = chosen.partition("/")[0]
    return chosen


def resolve(name: str, problem: Options) -> str:
    """The name of the engine that runs ``problem`` when ``name`` is asked for (``"auto"`` chooses)."""
    get(name)
    return choose(problem) if name == "auto" else name


def tracer(problem: Options) -> str:
    """The name ``"auto"`` stands for in a traced run of ``problem``: the first engine of the
    registry that records a trace of it, else the first that records any (which refuses it)."""
    tracing = [name for name, family in ENGINES.items() if any(m.traces for m in family.machines)]
    for name in tracing:
        try:
            if ENGINES[name].for_problem(problem).traces:
                return name
        except ValueError:
            continue
    return tracing[0]


def help_text() -> str:
    """What ``--engine`` says of every name (the commands' help)."""
    return "; ".join(f"{name}: {family.summary}" for name, family in ENGINES.items())


def counting() -> str:
    """What the figures of each engine count, as [`dlx.SearchStats`][dlx.SearchStats] says."""
    lines = []
    for name, family in ENGINES.items():
        for machine in family.machines:
            label = f'``"{name}"``' if len(family.machines) == 1 else f'``"{name}"`` on machine {machine.name}'
            lines.append(f"With {label} the figures are {machine.counts}.")
    for name, machine in __getattr__("OPTIMISERS").items():
        lines.append(f"The cheapest solutions (``cheapest``, engine ``\"{name}\"``) are counted as {machine.counts}.")
    return "\n".join(lines)


def table() -> str:
    """The engines as a Markdown table (docs/architecture.md holds it between two markers)."""
    rows = ["| name | machine | module | what it is | nodes and updates | refuses | tunables |",
            "|---|---|---|---|---|---|---|"]
    for name, family in ENGINES.items():
        if not family.machines:
            rows.append(f"| `{name}` | | | {family.summary} | the chosen engine's | | |")
        for machine in family.machines:
            tunables = ", ".join(f"`{key.split(':')[1]}`" for key in machine.tunables)
            rows.append(f"| `{name}` | `{machine.name}` | `{type(machine).__module__}` | {machine.summary} | "
                        f"{machine.counts} | {machine.refuses} | {tunables} |")
    for name, machine in __getattr__("OPTIMISERS").items():
        tunables = ", ".join(f"`{key.split(':')[1]}`" for key in machine.tunables)
        rows.append(f"| `cheapest()` | `{name}` | `{type(machine).__module__}` | {machine.summary} | "
                    f"{machine.counts} | {machine.refuses} | {tunables} |")
    return "\n".join(rows)


def tunables() -> list[tuple[Any, str, Any]]:
    """Every engine's tunables as ``(module, name, tiny value)``: what the coverage run shrinks."""
    found = []
    for machine in [*machines(), *__getattr__("OPTIMISERS").values()]:
        for key, value in machine.tunables.items():
            module, name = key.split(":")
            found.append((importlib.import_module(module), name, value))
    return found


__all__ = ["BRANCHINGS", "DEFAULT", "ENGINES", "OPTIMISERS", "Engine", "Machine", "Options", "Prepared", "Single",
           "batching", "choose", "counting", "get", "help_text", "machines", "named", "names", "resolve", "table",
           "tracer", "tunables"]
