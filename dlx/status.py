"""Why a search or a batch row stopped: one vocabulary from the kernels to the API, the commands and
sudoku.

Each outcome has a name (a `Status`, a ``str``, so ``stats.status == "max_nodes"`` reads as
before) and a small integer code, which is what the kernels write. The kernels import the codes
from here and the layers above translate them once, with [`of_code`][dlx.status.of_code].

======  ===============  ==============================================================
code    name             meaning
======  ===============  ==============================================================
0       ``running``      a search that can go on (paused after a solution, or between calls)
1       ``complete``     the whole search tree was explored
2       ``limit``        the solution limit was reached
3       ``max_nodes``    the node budget ran out; the search can resume with a new budget
4       ``stopped``      stopped on request (``stop()``, Ctrl-C, an iterator closed early)
5       ``solved``       a batch row with at least one solution
6       ``no solution``  a batch row without one
7       ``invalid``      a batch row whose selected options do not exist or clash
======  ===============  ==============================================================
"""
from __future__ import annotations

from enum import Enum


class Status(str, Enum):
    RUNNING = "running"
    COMPLETE = "complete"
    LIMIT = "limit"
    MAX_NODES = "max_nodes"
    STOPPED = "stopped"
    SOLVED = "solved"
    NO_SOLUTION = "no solution"
    INVALID = "invalid"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return repr(self.value)

    @property
    def code(self) -> int:
        return _CODES[self]


RUNNING, COMPLETE, LIMIT, MAX_NODES, STOPPED, SOLVED, NO_SOLUTION, INVALID = range(8)
_BY_CODE = tuple(Status)
_CODES = {status: code for code, status in enumerate(_BY_CODE)}


def of_code(code: int) -> Status:
    """The `Status` a kernel means by ``code``."""
    return _BY_CODE[code]

#: A kernel's phase, not an outcome: the search has nothing left to try but still has options
#: applied (a batch row ends so and puts the links back wholesale). Never leaves the engines.
EXHAUSTED = 8
#: A kernel's phase: the run is about to enter the level ``state[CEILING]``; the path to it is in
#: ``choice`` and the next call goes on past it (see ``engines.base``). Never leaves dlx.parallel.
SPLIT = 9
