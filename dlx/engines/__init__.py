"""The engines, by name: ``engine="auto"`` (the default), ``"dlx"`` or ``"cells"`` everywhere an engine
can be chosen.

An engine is one search machine behind the small interface of :class:`base.Engine`; a new one
goes into a module of its own here and into :data:`ENGINES`. A name may stand for a family whose
member is picked by the problem: ``"dlx"`` runs DLX1 on a plain exact-cover problem and the machine
of DLX2/DLX3 on one with colours or multiplicities, so that every figure is the one Knuth's program
for that kind of problem reports. ``"cells"`` is dancing cells (Knuth's SSXC1, SSXCC with colours).
``"auto"`` picks one of the two by the shape of the problem (:func:`choose`), by measurement.
"""
from __future__ import annotations

from typing import Protocol

from .base import Engine, Machine, Options, Prepared
from .cells import Cells
from .compact import CompactEngine
from .dlx1 import DLX1
from .dlx3 import DLX3


class Family(Protocol):
    """What a name stands for: the engine that searches a given problem."""

    name: str

    @property
    def machines(self) -> tuple[Engine, ...]:
        """Every engine the name may stand for."""

    def for_problem(self, problem: Options) -> Engine: ...


class DancingLinks:
    """Knuth's Dancing Links programs: DLX1 (plain), DLX2 (colours), DLX3 (multiplicities)."""

    name = "dlx"

    def __init__(self) -> None:
        self.plain = DLX1()
        self.general = DLX3()
        self.machines = (self.plain, self.general)

    def for_problem(self, problem: Options) -> Engine:
        """The machine that searches ``problem``."""
        if self.plain.refusal(problem) is None:
            return self.plain
        return self.general


#: Options at least this long on average (entries per option) make a problem one for dancing
#: cells: hiding an option costs cells less the longer it is, and an early abort saves more.
LONG_OPTIONS = 5


def choose(problem: Options) -> str:
    """The engine ``"auto"`` runs ``problem`` on, by its shape. Measured side by side (CPU time, one
    thread, see bench/compare.py): dancing cells win where options are long (pentominoes, 6 items
    an option: 1.3-1.5x) and with colours (graceful labellings: 1.3-1.9x over DLX2); Dancing Links
    win on short options (queens and sudoku, 4 items: 1.7-2.2x; Langford, 3: 1.4x). Multiplicities
    are for DLX3 alone."""
    if problem.bounds is not None:
        return "dlx"
    if problem.colours is not None:
        return "cells"
    options = int((problem.start[1:] > problem.start[:-1]).sum())
    return "cells" if problem.items.size >= LONG_OPTIONS * max(options, 1) else "dlx"


class Auto:
    """Not an engine but a choice between two (see :func:`choose`)."""

    name = "auto"
    machines = ()

    def for_problem(self, problem: Options) -> Engine:
        return ENGINES[choose(problem)].for_problem(problem)


#: Every engine there is, by the name the API and the commands take.
ENGINES: dict[str, Family] = {"auto": Auto(), "dlx": DancingLinks(), "cells": Cells(), "compact": CompactEngine()}
DEFAULT = "auto"


def machines() -> list[Engine]:
    """Every engine that a name of the registry can resolve to, once each (the engine contract's
    tests run over these)."""
    found: dict[int, Engine] = {}
    for family in ENGINES.values():
        for machine in family.machines:
            found.setdefault(id(machine), machine)
    return list(found.values())


def get(name: str) -> Family:
    """The engine called ``name``; a ValueError listing the names there are for any other."""
    try:
        return ENGINES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown engine {name!r}; the engines are: {', '.join(ENGINES)}") from None


def resolve(name: str, problem: Options) -> str:
    """The name of the engine that runs ``problem`` when ``name`` is asked for (``"auto"`` chooses)."""
    get(name)
    return choose(problem) if name == "auto" else name


__all__ = ["DEFAULT", "ENGINES", "Engine", "Machine", "Options", "Prepared", "choose", "get", "machines", "resolve"]
