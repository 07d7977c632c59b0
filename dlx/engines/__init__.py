"""The engines, by name: ``engine="dlx"`` or ``engine="cells"`` everywhere an engine can be chosen.

An engine is one search machine behind the small interface of :class:`base.Engine`; a new one
goes into a module of its own here and into :data:`ENGINES`. A name may stand for a family whose
member is picked by the problem: ``"dlx"`` runs DLX1 on a plain exact-cover problem and the machine
of DLX2/DLX3 on one with colours or multiplicities, so that every figure is the one Knuth's program
for that kind of problem reports. ``"cells"`` is dancing cells (Knuth's SSXC1, SSXCC with colours).
"""
from __future__ import annotations

from typing import Protocol

from .base import Engine, Machine, Prepared
from .cells import Cells
from .dlx1 import DLX1
from .dlx3 import DLX3


class Family(Protocol):
    """What a name stands for: the engine that searches a given problem."""

    name: str

    def for_problem(self, problem) -> Engine: ...


class DancingLinks:
    """Knuth's Dancing Links programs: DLX1 (plain), DLX2 (colours), DLX3 (multiplicities)."""

    name = "dlx"

    def __init__(self) -> None:
        self.plain = DLX1()
        self.general = DLX3()

    def for_problem(self, problem) -> Engine:
        """The machine that searches ``problem``."""
        if problem.option_colours is None and problem.bounds is None:
            return self.plain
        return self.general


#: Every engine there is, by the name the API and the commands take.
ENGINES: dict[str, Family] = {"dlx": DancingLinks(), "cells": Cells()}
DEFAULT = "dlx"


def get(name: str) -> Family:
    """The engine called ``name``; a ValueError listing the names there are for any other."""
    try:
        return ENGINES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown engine {name!r}; the engines are: {', '.join(ENGINES)}") from None


__all__ = ["DEFAULT", "ENGINES", "Engine", "Machine", "Prepared", "get"]
