"""What every engine provides, and the one place that decides whether a run searches in place.

An engine turns a problem into its own structure (DLX1: the links) and runs a resumable search
machine on it. The machine's ``state`` array has the same layout for every engine, so the layers
above read a run's phase and counters without knowing the engine:
``state[PHASE]`` (a :mod:`dlx.status` code), ``state[LEVEL]``, ``state[STEP]``, ``state[STOP]`` (set
it to stop the run at its next poll), ``state[NODES]``, ``state[UPDATES]``, ``state[SOLUTIONS]``,
``state[CLEANSINGS]`` (0 for an engine without colours).

Two more slots let a search be split into pieces that run apart (:mod:`dlx.parallel`) and still
count exactly what one run counts:

* ``state[FLOOR] = f``: levels ``0..f-1`` are *forced*: level ``l`` takes the option (the engine's
  choice value) already in ``choice[l]`` without choosing, and the run is complete when it backs
  up to level ``f``. Forced levels count nothing but the try of level ``f-1``: the piece owns the
  subtree that try opens.
* ``state[CEILING] = c`` (0: none): a run about to enter level ``c`` pauses with phase
  :data:`dlx.status.SPLIT`, ``choice[0..c-1]`` the path there, and goes on past it when called
  again; it counts nothing of that subtree, nor the try that opens it.

Every engine numbers the step that leaves a level ``LEAVE``, so a paused run can be told to back
out of the level it is about to enter.
"""
from __future__ import annotations

import threading
import weakref
from typing import Any, NamedTuple, Protocol

import numpy as np

PHASE, LEVEL, STEP, STOP, NODES, UPDATES, SOLUTIONS, CLEANSINGS, FLOOR, CEILING = range(10)
STATE_SIZE = 10
#: The step, in every engine, that leaves the current level (DLX1's BACKUP, DLX3's BACKDOWN).
LEAVE = 3
#: A ceiling beyond any level: what ``state[CEILING] == 0`` means.
NO_CEILING = 1 << 40


class Machine(NamedTuple):
    """A run's state: ``choice[level]`` (engine-defined; its size bounds the levels, so a solution
    has at most that many options), the shared ``state`` array and, for engines that tweak,
    ``first_tweak[level]``."""

    choice: np.ndarray
    state: np.ndarray
    first_tweak: np.ndarray | None = None

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays the engine's kernels take, in their order."""
        if self.first_tweak is None:
            return self.choice, self.state
        return self.choice, self.first_tweak, self.state


class Engine(Protocol):
    """The interface of an engine; ``dlx.engines.ENGINES`` maps names to instances."""

    name: str

    def prepare(self, problem) -> Any:
        """The engine's structure for ``problem``, as built, with its kernels loaded."""

    def copy(self, structure) -> Any:
        """A fresh copy of an as-built structure, to search on."""

    def restore(self, structure, pristine) -> None:
        """Make ``structure`` as built again by copying ``pristine`` over it."""

    def start(self, structure) -> Machine:
        """A machine for a new run on ``structure``."""

    def advance(self, structure, machine: Machine, want: int, max_nodes: int, work: int,
                out: np.ndarray, ends: np.ndarray) -> int:
        """Run until ``want`` more solutions, the end, ``max_nodes`` nodes in all, a stop request or
        about ``work`` units of work; return the solutions visited (see ``dlx1.search``)."""

    def unwind(self, structure, machine: Machine) -> None:
        """Take back whatever the run still has applied; the structure is as built again."""

    def untried(self, structure, machine: Machine, level: int, pristine) -> list[int]:
        """The choice values a paused run has yet to try at ``level`` (below its current one), in
        the order it would try them: each, forced after ``choice[:level]``, is a piece of the rest
        of the run (see :mod:`dlx.parallel`). ``pristine``: the structure as built. A value the
        run would not reach may be listed (its piece finds nothing); none it would is left out."""

    def applied(self, structure, machine: Machine) -> list[int]:
        """The options (numbers) a paused run has applied, in level order."""

    def check(self, problem, structure, machine: Machine | None) -> None:
        """Assert that ``structure`` is exactly what ``problem`` gives at the point where ``machine``
        (None: no run) has paused."""

    def first_nodes(self, problem) -> np.ndarray:
        """What the batch kernel needs per option to select it (DLX1: its first node)."""

    def solve_batch(self, structure, pristine, scratch, *arrays) -> bool:
        """One slice of a batch (see ``batch.solve_batch``; ``scratch`` a :class:`batch.Scratch`
        of this engine's machine): True when every row is done."""


class Prepared:
    """An engine's structure for one problem: one built in place, used by whichever run (or batch
    call) takes it first, and fresh copies of a pristine one for every other run at the same time.
    So iterators may be interleaved and threads may search one problem at once.

    Cost: building is linear in the size of the problem, once per problem and engine; a copy is a
    few array copies of that size.
    """

    def __init__(self, engine: Engine, problem) -> None:
        self.engine = engine
        self.problem = problem
        self.structure = engine.prepare(problem)
        self.pristine = engine.copy(self.structure)
        self._lock = threading.Lock()
        self._holder: weakref.ref | None = None

    def acquire(self, holder=None):
        """The structure in place when no one holds it (``holder``, if given, is remembered so that
        :meth:`check` can ask it what it has applied), else a fresh copy."""
        if self._lock.acquire(blocking=False):
            self._holder = None if holder is None else weakref.ref(holder)
            return self.structure
        return self.engine.copy(self.pristine)

    def release(self, structure) -> None:
        """Hand back what :meth:`acquire` gave, as built again."""
        if structure is self.structure:
            self._holder = None
            self._lock.release()

    def check(self) -> None:
        """Check the structure in place at whatever point its holder has paused, and the pristine
        copy as built."""
        holder = self._holder() if self._holder is not None else None
        machine = holder.machine() if holder is not None else None
        self.engine.check(self.problem, self.structure, machine)
        self.engine.check(self.problem, self.pristine, None)
