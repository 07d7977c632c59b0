"""What every engine provides, and the one place that decides whether a run searches in place.

An engine turns a problem into its own structure (DLX1: the links) and runs a resumable search
machine on it. The machine's ``state`` array has the same layout for every engine, so the layers
above read a run's phase and counters without knowing the engine:
``state[PHASE]`` (a [`dlx.status`][dlx.status] code), ``state[LEVEL]``, ``state[STEP]``, ``state[STOP]`` (set
it to stop the run at its next poll), ``state[NODES]``, ``state[UPDATES]``, ``state[SOLUTIONS]``,
``state[CLEANSINGS]`` (0 for an engine without colours).

Two more slots let a search be split into pieces that run apart ([`dlx.parallel`][dlx.parallel]) and still
count exactly what one run counts:

* ``state[FLOOR] = f``: levels ``0..f-1`` are *forced*: level ``l`` takes the option (the engine's
  choice value) already in ``choice[l]`` without choosing, and the run is complete when it backs
  up to level ``f``. Forced levels count nothing but the try of level ``f-1``: the piece owns the
  subtree that try opens.
* ``state[CEILING] = c`` (0: none): a run about to enter level ``c`` pauses with phase
  `dlx.status.SPLIT`, ``choice[0..c-1]`` the path there, and goes on past it when called
  again; it counts nothing of that subtree, nor the try that opens it.

Every engine numbers the step that leaves a level ``LEAVE``, so a paused run can be told to back
out of the level it is about to enter.

A search kernel calls only *leaves* in its loop: kernels that call no other (cover, hide, purify).
A kernel that calls another keeps numba's reference counts on every array it takes, one up and one
down per call (the pass that removes them gives up where a callee may fail); called per item of
every option tried, that was 60% of DLX3's time (8 queens on a 10x10 board, 1.74 s against 0.70 s
once its search called leaves only) and 10% of dancing cells' on Langford's problem. So the steps
that combine leaves are spelled out inside the search, and kept as functions for the cold paths
(a batch's givens, unwinding). ``inline="always"`` is no way out: numba binds the inlined
function's arguments to new variables, with the same counts. tests/test_kernels.py reads the
compiled search of every engine and fails on a reference count inside its loop.

The kernels of a run (search, a batch's row loop, restore and the steps they call) go further:
they are compiled without numba's runtime (``_nrt=False``), so they count no references at all.
They allocate nothing and return no array, which is all the runtime is for; a view such as
``ends[:0]`` is fine. This matters where a kernel is called often for little work: in a batch
every row called ``given``, ``take`` and the search, each call a few counts up and down (atomic
instructions), a quarter of the time on an easy sudoku set (kaggle_10k: 0.111 s against 0.085 s).
A kernel compiled without the runtime compiles what it calls the same way, unless that kernel says
otherwise; one that allocates then fails to compile, so the rule cannot break silently.
tests/test_kernels.py checks every batch kernel's compiled code. Spelling the steps out inside
the search still pays without the counts: the compact search calling its `select` took 1.10-1.15x
the time on every sudoku set (2026-11-29).
"""
from __future__ import annotations

import threading
import weakref
from collections.abc import Mapping
from typing import Any, NamedTuple, Protocol

import numpy as np
from numba import njit

from .. import status as st

PHASE, LEVEL, STEP, STOP, NODES, UPDATES, SOLUTIONS, CLEANSINGS, FLOOR, CEILING = range(10)
STATE_SIZE = 10
#: The step, in every engine, that leaves the current level (DLX1's BACKUP, DLX3's BACKDOWN).
LEAVE = 3
#: A ceiling beyond any level: what ``state[CEILING] == 0`` means.
NO_CEILING = 1 << 40
#: Every search kernel reads the stop flag (and checks ``work``) once per ``POLL`` updates, about
#: every 0.2 ms.
POLL = 1 << 16
#: The kinds of event a traced search records (dlx.tracing words them).
CHOOSE_EVENT, TRY_EVENT, DEAD_EVENT, SOLUTION_EVENT, BACKUP_EVENT = 1, 2, 3, 4, 5
#: What one kernel passes another as a constant: numpy scalars, not Python literals. numba types a
#: literal ``1`` or ``True`` as a type of its own and compiles the callee once more for each, a
#: whole search's compile (seconds) for nothing.
ONE_SOLUTION = np.int64(1)
TWO_SOLUTIONS = np.int64(2)
YES = np.bool_(True)
NO = np.bool_(False)


class Options(NamedTuple):
    """A problem as the engines read it (``ExactCover.engine_input``), read-only: the options in
    CSR form, option ``k`` being ``items[start[k]:start[k+1]]`` (0-based item ids, primary items
    ``0..n_primary-1`` first); an option without a primary item is empty, so it keeps its number
    but no solution holds it. ``colours``: int32 per entry (0: none) or None; ``bounds``: ``(lo,
    hi)`` per primary item or None (every one ``(1, 1)``)."""

    start: np.ndarray
    items: np.ndarray
    colours: np.ndarray | None
    bounds: np.ndarray | None
    n_items: int
    n_primary: int

    @property
    def n_options(self) -> int:
        return self.start.size - 1


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


class StructureError(AssertionError):
    """An engine's structure is not what the problem and the run's applied options make it: a bug (in an
    engine, or in a caller that changed its arrays), found by
    [`Engine.check`][dlx.engines.base.Engine.check]. Raised, never asserted, so a check checks under
    ``python -O`` too."""


class TraceRefused(ValueError):
    """A trace asked of an engine that records none."""


class Engine(Protocol):
    """The contract of an engine (what ``dlx.engines.ENGINES`` resolves to). An engine is a module
    of [`dlx.engines`][dlx.engines] holding its structure, its search machine, its batch kernel (built on
    [`batch`][dlx.batch]) and its check, and a class with these facts and methods; one line in the registry
    names it. Everything else reads the facts from the registry: the ``--engine`` help, the
    docstring of [`dlx.SearchStats`][dlx.SearchStats], the engines' table in docs/architecture.md, the columns
    of bench/compare.py, and the tests (tests/test_engines.py runs the whole contract over every
    engine there is, tests/test_kernels.py compiles its ``searches`` for its ``samples``, the
    coverage run shrinks its ``tunables``).

    A structure and a machine are each engine's own types (a [`Machine`][dlx.engines.base.Machine], or one with its
    ``choice``, ``state`` and ``first_tweak``): typed Any here, so an engine can name its own."""

    name: str
    #: Whether `advance` records a trace (else it raises `TraceRefused` for one).
    traces: bool
    #: Whether it solves batches (`solve_batch`, `reduce_row`; else they raise a ValueError
    #: that says which engine does).
    batches: bool
    #: Whether the pieces of a split search find one run's solutions in its order, with its nodes
    #: and updates exactly (else the same solutions in another order, counted otherwise).
    exact_splits: bool

    @property
    def summary(self) -> str:
        """One line: what the engine is."""

    @property
    def counts(self) -> str:
        """What its ``nodes`` and ``updates`` count (and ``cleansings``, when it keeps them)."""

    @property
    def refuses(self) -> str:
        """The problems it cannot take, in words ([`refusal`][dlx.engines.base.Engine.refusal] is the test)."""

    @property
    def tunables(self) -> Mapping[str, Any]:
        """Its kernels' tunables as ``"module:NAME"``, each with a tiny value that makes small
        problems take every branch when the kernels run as plain Python (the coverage run)."""

    @property
    def samples(self) -> tuple[tuple[str, tuple], ...]:
        """Small problems its search is compiled for by tests/test_kernels.py: the name of a
        function of [`dlx.problems`][dlx.problems] and its arguments."""

    @property
    def searches(self) -> tuple[Any, ...]:
        """Its compiled searches, whose loops must keep no reference count (see above)."""


    def refusal(self, options: Options) -> str | None:
        """Why this engine cannot search ``options`` (None: it can)."""

    def prepare(self, options: Options) -> Any:
        """The engine's structure for ``options``, as built (its kernels are loaded by the first
        run that calls them: `Prepared.warm`)."""

    def copy(self, structure) -> Any:
        """A fresh copy of an as-built structure, to search on."""

    def restore(self, structure, pristine) -> None:
        """Make ``structure`` as built again by copying ``pristine`` over it."""

    def start(self, structure) -> Any:
        """A machine for a new run on ``structure``."""

    def advance(self, structure, machine: Any, want: int, max_nodes: int, work: int,
                out: np.ndarray, ends: np.ndarray, *, early: bool = False,
                trace: np.ndarray | None = None) -> int:
        """Run until ``want`` more solutions, the end, ``max_nodes`` nodes in all, a stop request or
        about ``work`` units of work; return the solutions visited (see ``dlx1.search``). With
        ``early`` the run may end (phase EXHAUSTED) without taking back the levels still applied,
        when no level has an option left: the caller unwinds or restores. ``trace``: a buffer for
        the steps (see [`dlx.tracing`][dlx.tracing]), or [`TraceRefused`][dlx.engines.base.TraceRefused]."""

    def unwind(self, structure, machine: Any) -> None:
        """Take back whatever the run still has applied; the structure is as built again."""

    def untried(self, structure, machine: Any, level: int, pristine) -> list[int]:
        """The choice values a paused run has yet to try at ``level`` (below its current one), in
        the order it would try them: each, forced after ``choice[:level]``, is a piece of the rest
        of the run (see [`dlx.parallel`][dlx.parallel]). ``pristine``: the structure as built. A value the
        run would not reach may be listed (its piece finds nothing); none it would is left out."""

    def applied(self, structure, machine: Any) -> list[int]:
        """The options (numbers) a paused run has applied, in level order."""

    def check(self, options: Options, structure, machine: Any = None) -> None:
        """Raise [`StructureError`][dlx.engines.base.StructureError] unless ``structure`` is exactly
        what ``options`` give at the point where ``machine`` (None: no run) has paused. Cost: linear in
        the size of the problem (Python; for tests)."""

    def first_nodes(self, options: Options) -> np.ndarray:
        """What the batch kernel needs per option to select it (DLX1: its first node)."""

    def solve_batch(self, structure, pristine, scratch, groups, rows: np.ndarray, limit: int,
                    max_nodes: int, work: int, results) -> bool:
        """One slice of a batch (see [`batch`][dlx.batch]; ``scratch`` a `batch.Scratch` of this
        engine's machine, ``groups`` a `batch.Groups`, ``results`` a
        `batch.Results`): True when every row is done."""

    def reduce_row(self, structure, pristine, scratch, groups, row: np.ndarray, units: np.ndarray,
                   unit_ends: np.ndarray, keep: int, minimal: bool, budget: int) -> int:
        """``row`` with values taken away, unit by unit, while it keeps one solution (see
        [`dlx.Batch.reduce`][dlx.batch.Batch.reduce]), in place; returns the solutions of the row as given, up to 2,
        or -1 when its values clash. `batch.reduce_by_rows` does it with
        [`solve_batch`][dlx.engines.base.Engine.solve_batch], for an engine without a kernel of its own."""


class Single:
    """What makes an engine a name of its own in the registry: a family of one machine."""

    @property
    def machines(self) -> tuple[Engine, ...]:
        return (self,)  # type: ignore[return-value]  # the engine classes that mix this in are engines

    def for_problem(self, problem: Options) -> Engine:
        """This engine, or a ValueError saying why it cannot take ``problem``."""
        why = self.refusal(problem)  # type: ignore[attr-defined]  # every engine has one
        if why:
            raise ValueError(why)
        return self  # type: ignore[return-value]


class BinarySearch:
    """What the machines that branch binary share (SSXCC-BINARY and SSMCC, XCCDC): a level's choice
    is a node, with the bit ``REJECTED`` where the level dropped its option (a right branch), and
    ``deg[level]`` the degree it had; they take no batches (``no_batches`` says what does)."""

    no_batches = "this engine takes no batches"
    #: The bit of a choice that marks a dropped option.
    REJECTED = 0x80000000

    @property
    def machines(self) -> tuple:
        return (self,)

    def for_problem(self, problem: Options):
        why = self.refusal(problem)  # type: ignore[attr-defined]  # every engine has one
        if why:
            raise ValueError(why)
        return self

    def untried(self, structure, machine, level: int, pristine = None) -> list[int]:
        """What a paused run has yet to do at ``level``: drop the option it took there and go on
        (its right branch), unless the level dropped one already or was forced (degree 1)."""
        v = int(machine.choice[level])
        if v & self.REJECTED or machine.deg[level] == 1:
            return []
        return [v | self.REJECTED]

    def first_nodes(self, options: Options) -> np.ndarray:
        raise ValueError(self.no_batches)

    def solve_batch(self, structure, pristine, scratch, groups, rows: np.ndarray, limit: int,
                    max_nodes: int, work: int, results) -> bool:
        raise ValueError(self.no_batches)

    def reduce_row(self, structure, pristine, scratch, groups, row: np.ndarray, units: np.ndarray,
                   unit_ends: np.ndarray, keep: int, minimal: bool, budget: int) -> int:
        raise ValueError(self.no_batches)


def warm_up(engine: Engine, structure, trace: np.ndarray | None = None) -> None:
    """Load ``engine``'s compiled search for these types (from numba's cache, on a process's first
    search; compiled when the cache has none) by a call that does nothing, a budget of 0 nodes, on
    ``structure`` (a copy: it stays as built); the traced search when ``trace`` (a trace buffer) is
    given. Keeps the loading out of a search's time."""
    machine = engine.start(structure)
    empty = np.zeros(0, np.int32)
    if trace is None:
        engine.advance(structure, machine, 1, 0, 1, empty, empty)
    else:
        engine.advance(structure, machine, 1, 0, 1, empty, empty, trace=trace)
    state = machine.state
    if state[PHASE] != st.MAX_NODES or state[NODES] != 0:
        raise StructureError(f"{engine.name}: a search with no nodes to spend did something")


def refuse_trace(engine: Engine, trace) -> None:
    """Raise [`TraceRefused`][dlx.engines.base.TraceRefused] when a trace is asked of ``engine``, which records none."""
    if trace is not None:
        raise TraceRefused(f"a trace is recorded by the dlx engine on problems without colours or "
                           f"multiplicities (Knuth's DLX1), not by {engine.name}")


@njit(cache=True, nogil=True, _nrt=False)
def put_back(target, source):
    """``target[:] = source`` for two arrays of one size, in a kernel compiled without numba's
    runtime (a slice assignment there would need it, for the temporary it makes when the two
    overlap). Cost: one pass."""
    for k in range(source.size):
        target[k] = source[k]


@njit(cache=True, nogil=True, _nrt=False)
def resumable(state):
    """Whether a run in ``state`` can go on (phase RUNNING, MAX_NODES or STOPPED): the first thing
    every search kernel asks."""
    phase = state[PHASE]
    return phase == st.RUNNING or phase == st.MAX_NODES or phase == st.STOPPED


@njit(cache=True, nogil=True, _nrt=False)
def ceiling_of(state):
    """The level a piece of a split search pauses at (``NO_CEILING``: none)."""
    return state[CEILING] if state[CEILING] > 0 else NO_CEILING


@njit(cache=True, nogil=True, _nrt=False)
def settle(state, phase, level, step, nodes, updates, cleansings, found):
    """The last thing every search kernel does: write its registers back into ``state``."""
    state[PHASE] = phase
    state[LEVEL] = level
    state[STEP] = step
    state[NODES] = nodes
    state[UPDATES] = updates
    state[CLEANSINGS] = cleansings
    state[SOLUTIONS] += found


class Prepared:
    """An engine's structure for one problem: one built in place, used by whichever run (or batch
    call) takes it first, and fresh copies of a pristine one for every other run at the same time.
    So iterators may be interleaved and threads may search one problem at once.

    Cost: building is linear in the size of the problem, once per problem and engine; a copy is a
    few array copies of that size.
    """

    def __init__(self, engine: Engine, options: Options) -> None:
        self.engine = engine
        self.options = options
        try:
            self.structure = engine.prepare(options)
        except SystemError as e:
            # Ctrl-C while a kernel boxes a new array: numba calls back into Python for its dtype,
            # the interrupt lands there and comes out as a SystemError caused by it
            if _interrupted(e):
                raise KeyboardInterrupt from None
            raise
        self.pristine = engine.copy(self.structure)
        self._lock = threading.Lock()
        self._holder: weakref.ref | None = None
        self._warm: set[bool] = set()

    def warm(self, traced: bool = False) -> None:
        """Load the engine's search (its traced search when ``traced``) before a run's clock
        starts, once per problem: only the searches a program runs are loaded, or compiled (a
        batch never needs the search of a single run, nor an untraced run the traced one)."""
        if traced not in self._warm:
            trace = np.zeros(1 + 4 * 64, np.int64) if traced else None
            warm_up(self.engine, self.engine.copy(self.pristine), trace)
            self._warm.add(traced)

    def acquire(self, holder=None):
        """The structure in place when no one holds it (``holder``, if given, is remembered so that
        `check` can ask it what it has applied), else a fresh copy."""
        if self._lock.acquire(blocking=False):
            self._holder = None if holder is None else weakref.ref(holder)
            return self.structure
        return self.engine.copy(self.pristine)

    def release(self, structure) -> None:
        """Hand back what `acquire` gave, as built again."""
        if structure is self.structure:
            self._holder = None
            self._lock.release()

    def check(self) -> None:
        """Check the structure in place at whatever point its holder has paused, and the pristine
        copy as built."""
        holder = self._holder() if self._holder is not None else None
        machine = holder.machine() if holder is not None else None
        self.engine.check(self.options, self.structure, machine)
        self.engine.check(self.options, self.pristine, None)


def _interrupted(error: BaseException) -> bool:
    """Whether ``error`` was caused, at any depth, by a KeyboardInterrupt."""
    seen = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False
