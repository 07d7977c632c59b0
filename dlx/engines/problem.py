"""What a run reads of a problem: [`Problem`][dlx.engines.problem.Problem], a small protocol
([`dlx.ExactCover`][dlx.ExactCover] is one), and [`Structures`][dlx.engines.problem.Structures], the
caches of a problem's runs.

A run ([`dlx.search`][dlx.search]), a split search ([`dlx.pieces`][dlx.pieces], [`dlx.parallel`][dlx.parallel],
`dlx.distributed`) and a batch ([`dlx.batch`][dlx.batch]) read two things of a problem: its
``engine_input`` (the [`Options`][dlx.engines.base.Options] every engine builds from) and its ``structures``.
They never see item names, so they depend on this module and not on the problem's class, and the
problem's module depends on them: the imports run one way.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Protocol

import numpy as np

from . import get
from .base import Options, Prepared

#: Seeded copies of a problem kept for reuse (each holds its engines' structures once searched).
SEEDED_COPIES = 4


class Problem(Protocol):
    """What a run reads of a problem."""

    @property
    def engine_input(self) -> Options:
        """The problem as the engines read it."""

    @property
    def structures(self) -> Structures:
        """The caches of its runs."""


class Structures:
    """A problem's engine structures, built on first use and kept (`Prepared`: in
    place for one run at a time, copies for the others), its seeded copies (the last
    ``SEEDED_COPIES``) and the statistics of the latest run each thread started on it. Thread-safe.

    Cost: nothing until a run asks; a structure is built once per engine, a seeded copy once per
    seed kept (linear in the size of the problem)."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self._prepared: dict[str, Prepared] = {}
        self._kept: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._local = threading.local()
        self._seeded: OrderedDict[int, tuple[Structures, np.ndarray, np.ndarray]] = OrderedDict()

    def __getstate__(self) -> Options:
        """Only the options travel (a seeded copy is scattered to Dask's workers); the caches are
        built again where they are used."""
        return self.options

    def __setstate__(self, options: Options) -> None:
        self.__init__(options)  # type: ignore[misc]

    @property
    def engine_input(self) -> Options:
        """The options (so that a seeded copy's structures are a [`Problem`][dlx.engines.problem.Problem] too)."""
        return self.options

    @property
    def structures(self) -> Structures:
        return self

    def prepared(self, engine: str) -> Prepared:
        """The structure of engine ``engine`` (a name of the registry, not ``"auto"``)."""
        prepared = self._prepared.get(engine)
        if prepared is None:
            with self._lock:
                prepared = self._prepared.get(engine)
                if prepared is None:
                    prepared = Prepared(get(engine).for_problem(self.options), self.options)
                    self._prepared[engine] = prepared
        return prepared

    def kept(self, key: str, build: Any) -> Any:
        """What ``build()`` returns, built once per ``key`` and kept: a structure that is no
        registry engine's (DLX5's, for the cheapest solutions)."""
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                found = self._kept[key] = build()
        return found

    def built(self) -> list[Prepared]:
        """The structures built so far."""
        return list(self._prepared.values())

    def seeded(self, seed: int) -> tuple[Structures, np.ndarray, np.ndarray]:
        """The structures of the problem reordered by ``seed`` (see
        [`seeding`][dlx.engines.problem.seeding]), and the two maps back: option ``j`` of the copy is
        option ``order[j]``, item ``i`` is ``item_order[i]``."""
        with self._lock:
            found = self._seeded.get(seed)
            if found is not None:
                self._seeded.move_to_end(seed)
                return found
        options, order, item_order = reordered(self.options, seed)
        found = Structures(options), order, item_order
        with self._lock:
            self._seeded[seed] = found
            while len(self._seeded) > SEEDED_COPIES:
                self._seeded.popitem(last=False)
        return found

    @property
    def stats(self) -> Any:
        """The statistics of the latest run this thread started (a [`dlx.SearchStats`][dlx.SearchStats]; None
        before the first)."""
        return getattr(self._local, "stats", None)

    def note(self, stats: Any) -> None:
        """Make ``stats`` what [`stats`][dlx.engines.problem.Structures.stats] says in this thread
        (every run calls it as it goes)."""
        self._local.stats = stats


def seeding(options: Options, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The order of options and of items that ``seed`` draws (numpy's PCG64): option ``j`` of a
    seeded copy is option ``order[j]``, item ``i`` is item ``item_order[i]``; primary items stay
    first. A seeded search tries the options of every item in a random order and breaks ties
    between items at random."""
    rng = np.random.default_rng(seed)
    n1 = options.n_primary
    order = rng.permutation(options.n_options).astype(np.int64)
    item_order = np.concatenate([rng.permutation(n1), n1 + rng.permutation(options.n_items - n1)])
    order.flags.writeable = item_order.flags.writeable = False
    return order, item_order


def reorder(start: np.ndarray, ids: np.ndarray, colours: np.ndarray | None, order: np.ndarray,
            item_order: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Options in CSR form (``start``, item ``ids``, ``colours`` per entry) in the order ``order``,
    with items renumbered by ``item_order``; entries keep their order within an option."""
    new_id = np.empty(item_order.size, np.int32)
    new_id[item_order] = np.arange(item_order.size, dtype=np.int32)
    lengths = np.diff(start)[order]
    new_start = np.zeros(order.size + 1, np.int64)
    np.cumsum(lengths, out=new_start[1:])
    at = np.arange(new_start[-1]) + np.repeat(start[:-1][order] - new_start[:-1], lengths)
    return new_start, new_id[ids[at]], None if colours is None else colours[at]


def reordered(options: Options, seed: int) -> tuple[Options, np.ndarray, np.ndarray]:
    """``options`` in the order ``seed`` draws, and the two maps back (see [`seeding`][dlx.engines.problem.seeding])."""
    order, item_order = seeding(options, seed)
    start, items, colours = reorder(options.start, options.items, options.colours, order, item_order)
    bounds = None if options.bounds is None else options.bounds[item_order[:options.n_primary]]
    start = start.astype(np.int32)
    for a in (start, items, colours, bounds):
        if a is not None:
            a.flags.writeable = False
    return Options(start, items, colours, bounds, options.n_items, options.n_primary), order, item_order
