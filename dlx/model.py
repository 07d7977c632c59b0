"""The problem as data: item names <-> ids, options in CSR form, validation. Immutable; pickles.

An [`ExactCover`][dlx.model.ExactCover] knows nothing of how it is searched: each engine builds its own
structure from it when first asked ([`dlx.engines`][dlx.engines]), and each search is a
[`dlx.search.Search`][dlx.search.Search] that owns its state and its statistics.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import engines

if TYPE_CHECKING:
    from . import parallel
    from .cheapest import Cheapest, Priced
    from .zdd import ZDD
from .checks import whole
from .engines.problem import Structures, reorder, seeding
from .matrix import matrix_options
from .search import Search, SearchStats


class ProblemError(ValueError):
    """An exact-cover problem that cannot be built; the message says what is wrong and where.

    ``line`` is the line number in the input file when the problem was read from one, else None.
    """

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class ProblemWarning(UserWarning):
    """Something in a problem that is allowed but probably not meant, such as an option that no
    solution can use; the problem is built anyway."""


class ExactCover:
    """An exact-cover problem: choose options so that every primary item is covered exactly once
    (or between the bounds given for it) and every secondary item at most once (or by any number of
    options that give it the same colour).

    ``options`` are iterables of entries. An entry is an item name (any hashable), or a pair
    ``(item, colour)`` that names a secondary item with a colour (any hashable): options that share
    a secondary item must agree on its colour, and an entry without a colour excludes every other
    use of its item (Knuth's DLX2). The pair reading applies when ``item`` is a declared item and the
    pair itself is not one; a pair that could be read both ways (a declared item name whose first
    element is a secondary item) is a ProblemError, and so is a colour on a primary item.

    Items listed in ``secondary`` are secondary, every other item is primary. The item order (which
    breaks ties when the search chooses an item) is ``primary`` when given, else the order of first
    appearance in the options. ``bounds`` maps a primary item to ``(lo, hi)`` (or ``k`` for
    ``(k, k)``): it must then be covered between ``lo`` and ``hi`` times (Knuth's DLX3); every other
    primary item exactly once. ``costs`` gives each option a nonnegative whole cost (Knuth's DLX5),
    for [`cheapest`][dlx.cheapest]; the other searches do not read them.

    Examples:
        >>> ec = ExactCover([["c", "e"], ["a", "d", "g"], ["b", "c", "f"], ["a", "d", "f"],
        ...                  ["b", "g"], ["d", "e", "g"]])
        >>> ec
        ExactCover(7 items (7 primary, 0 secondary), 6 options)
        >>> ec.items
        ('c', 'e', 'a', 'd', 'g', 'b', 'f')
        >>> ec.option(3)
        ('a', 'd', 'f')
        >>> ec.first()
        (0, 3, 4)
        >>> ec.count()
        1
        >>> ec.stats.nodes, ec.stats.updates, ec.stats.complete
        (6, 30, True)

        An option without a primary item can be part of no solution: it keeps its number but is left
        out of the search, with a [`ProblemWarning`][dlx.model.ProblemWarning] (as Knuth's programs warn and skip it).

        The problem is immutable once built and pickles (names, options, colours and bounds; the
        engines' structures are built again where it is unpickled). ``option_colours`` holds a colour
        number per option entry (0: none; colour ``c`` is ``colours[c - 1]``), or is None when no entry
        has a colour; ``bounds`` holds ``(lo, hi)`` per primary item, or is None when every one is
        ``(1, 1)``. ``engine_input`` is what the engines build from: a read-only
        [`dlx.engines.Options`][dlx.engines.Options] record of the same options with those that no solution can use
        emptied.
    """

    items: tuple[Hashable, ...]
    n_primary: int
    option_start: np.ndarray
    option_items: np.ndarray
    option_colours: np.ndarray | None
    colours: tuple[Hashable, ...]
    bounds: np.ndarray | None
    option_costs: np.ndarray | None
    engine_input: engines.Options
    structures: Structures

    def __init__(
        self,
        options: Iterable[Iterable[Hashable]],
        *,
        primary: Sequence[Hashable] | None = None,
        secondary: Iterable[Hashable] = (),
        bounds: Mapping[Hashable, int | tuple[int, int]] | None = None,
        costs: Sequence[int] | None = None,
    ) -> None:
        if isinstance(options, (str, bytes)):
            raise ProblemError(f"options must be a list of options, each a list of items; got the "
                               f"string {options!r}")
        options = [_items_of(option, k) for k, option in enumerate(options)]
        secondary = list(secondary)
        declared = set(secondary) if primary is None else set(primary) | set(secondary)
        is_secondary = set(secondary)
        entries = [[_entry(e, declared, is_secondary, k) for e in option] for k, option in enumerate(options)]
        if primary is None:
            first_seen = dict.fromkeys(name for option in entries for name, _ in option)
            primary = [name for name in first_seen if name not in is_secondary]
        items = declare_items(list(primary), secondary, where="")
        index = {name: i for i, name in enumerate(items)}
        n_primary = len(items) - len(secondary)
        palette: dict = {}
        start, ids, colours, unusable = [0], [], [], []
        for k, option in enumerate(entries):
            coded = [(name, 0 if colour is _NO_COLOUR else palette.setdefault(colour, len(palette) + 1))
                     for name, colour in option]
            option_ids, option_colours = encode_option(coded, index, n_primary, f"option {k}")
            if not option_ids or min(option_ids) >= n_primary:
                unusable.append(f"option {k}")
            ids.extend(option_ids)
            colours.extend(option_colours)
            start.append(len(ids))
        warn_unusable(unusable)
        self._setup(items, n_primary, start, ids, colours if palette else None,
                    item_bounds(bounds, index, n_primary), tuple(palette), option_costs(costs, len(entries)))

    @classmethod
    def from_matrix(cls, m: Any, secondary: int = 0, costs: Sequence[int] | None = None) -> ExactCover:
        """A problem from a 0/1 matrix: rows are options, columns are items (named by their
        numbers), the last ``secondary`` columns secondary; ``costs``, one per row (see
        [`cheapest`][dlx.cheapest]).

        ``m`` is anything numpy makes a 2-D array of, or a scipy.sparse matrix or array in any
        format (it is never made dense). Every column is an item, used or not. A row without a
        primary item (an all-zero row, say) keeps its number but is never part of a solution, as
        Knuth drops such options. Solutions are row numbers.

        Examples:
            >>> import numpy as np
            >>> m = np.array([[0, 0, 1, 0, 1, 0, 0],
            ...               [1, 0, 0, 1, 0, 0, 1],
            ...               [0, 1, 1, 0, 0, 1, 0],
            ...               [1, 0, 0, 1, 0, 1, 0],
            ...               [0, 0, 0, 0, 0, 0, 0],
            ...               [0, 1, 0, 0, 0, 0, 1],
            ...               [0, 0, 0, 1, 1, 0, 1]])
            >>> import warnings
            >>> with warnings.catch_warnings(record=True) as caught:     # a warning, as on stderr
            ...     warnings.simplefilter("always")
            ...     ec = ExactCover.from_matrix(m)
            >>> print(caught[0].message)
            row 4: an option without a primary item, so no solution can use it; skipped (keeping its number)
            >>> ec.first()
            (0, 3, 5)
            >>> ec.option(3)
            (0, 3, 5)
        """
        n_cols, start, ids = matrix_options(m, ProblemError)
        secondary = whole(secondary, "secondary")
        if secondary > n_cols:
            raise ProblemError(f"secondary={secondary}, but the matrix has {n_cols} columns")
        n_primary = n_cols - secondary
        if n_primary >= 1:
            start = np.asarray(start)
            lengths = np.diff(start)
            owner = np.repeat(np.arange(lengths.size), lengths)
            has_primary = np.zeros(lengths.size, bool)
            has_primary[owner[np.asarray(ids) < n_primary]] = True
            warn_unusable([f"row {k}" for k in np.flatnonzero(~has_primary).tolist()])
        return cls._from_ids(range(n_cols), n_primary, start, ids,
                             costs=option_costs(costs, len(start) - 1))

    @classmethod
    def _from_ids(cls, items: Sequence[Hashable], n_primary: int, start: Any, ids: Any, colours: Any = None,
                  bounds: Any = None, colour_values: tuple = (), costs: Any = None) -> ExactCover:
        """Build from already validated item ids (the readers' path)."""
        self = cls.__new__(cls)
        self._setup(items, n_primary, start, ids, colours, bounds, colour_values, costs)
        return self

    def _setup(self, items: Any, n_primary: int, start: Any, ids: Any, colours: Any = None, bounds: Any = None,
               colour_values: Sequence[Hashable] = (), costs: Any = None) -> None:
        if n_primary < 1:
            raise ProblemError("no primary items")
        if len(ids) >= _MAX_ENTRIES:
            raise ProblemError(f"{len(ids):,} option entries: the engines index at most {_MAX_ENTRIES - 1:,}")
        if len(items) >= _MAX_ITEMS:
            raise ProblemError(f"{len(items):,} items: the engines number at most {_MAX_ITEMS - 1:,}")
        start = _frozen(np.asarray(start, dtype=np.int32))
        ids = _frozen(np.asarray(ids, dtype=np.int32))
        if colours is not None:
            colours = _frozen(np.asarray(colours, dtype=np.int32))
        if bounds is not None:
            bounds = _frozen(np.asarray(bounds, dtype=np.int32).reshape(n_primary, 2))
        if costs is not None:
            costs = _frozen(np.asarray(costs, dtype=np.int64))
        link_start, link_items, link_colours = _usable(start, ids, colours, n_primary)
        searched = engines.Options(_frozen(link_start), _frozen(link_items),
                                   None if link_colours is None else _frozen(link_colours), bounds,
                                   len(items), n_primary)
        fields = {"items": tuple(items), "n_primary": n_primary, "option_start": start,
                  "option_items": ids, "option_colours": colours, "colours": tuple(colour_values),
                  "bounds": bounds, "option_costs": costs, "engine_input": searched,
                  "structures": Structures(searched)}
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"an ExactCover is immutable (cannot set {name!r})")

    def __getstate__(self) -> dict:
        return {"items": self.items, "n_primary": self.n_primary, "option_start": self.option_start,
                "option_items": self.option_items, "option_colours": self.option_colours,
                "colours": self.colours, "bounds": self.bounds, "option_costs": self.option_costs}

    def __setstate__(self, state: dict) -> None:
        self._setup(state["items"], state["n_primary"], state["option_start"], state["option_items"],
                    state["option_colours"], state["bounds"], state.get("colours", ()), state.get("option_costs"))

    def prepared(self, engine: str) -> engines.Prepared:
        """The structure of engine ``engine`` (a name) for this problem, built from
        `engine_input` on first use and kept in `structures`: in place for one run at a
        time, copies for the others (`dlx.engines.Prepared`)."""
        return self.structures.prepared(engine)

    def seeded(self, seed: int) -> tuple[ExactCover, np.ndarray, np.ndarray]:
        """This problem with its options and items in an order drawn from ``seed`` (numpy's PCG64),
        and two maps back: option ``j`` of the copy is option ``order[j]`` of this one, item ``i``
        is item ``item_order[i]``.

        A search of the copy is a seeded search of this one: the options of every item are tried
        in a random order (the copy lists them in that order) and ties between items with as few
        options are broken at random (the copy lists primary items, and secondary items, in a
        random order); entries keep their order within an option. Cost: linear in the size of the
        problem (a seeded run reorders the engines' input alone, and keeps the last few)."""
        order, item_order = seeding(self.engine_input, whole(seed, "seed"))
        start, ids, colours = reorder(self.option_start, self.option_items, self.option_colours, order, item_order)
        bounds = None if self.bounds is None else self.bounds[item_order[:self.n_primary]]
        costs = None if self.option_costs is None else self.option_costs[order]
        copy = ExactCover._from_ids([self.items[i] for i in item_order.tolist()], self.n_primary, start, ids,
                                    colours, bounds, self.colours, costs)
        return copy, order, item_order

    def with_costs(self, costs: Sequence[int] | None) -> ExactCover:
        """This problem with ``costs`` (one nonnegative whole number per option; None: none) in
        place of its own, for [`cheapest`][dlx.cheapest].

        Examples:
            >>> ExactCover([["a"], ["a"]]).with_costs([3, 1]).cheapest()
            [Priced(cost=1, options=(1,))]
        """
        return ExactCover._from_ids(self.items, self.n_primary, self.option_start, self.option_items,
                                    self.option_colours, self.bounds, self.colours,
                                    option_costs(costs, self.n_options))

    @property
    def n_items(self) -> int:
        return len(self.items)

    @property
    def n_secondary(self) -> int:
        return len(self.items) - self.n_primary

    @property
    def n_options(self) -> int:
        return len(self.option_start) - 1

    @property
    def stats(self) -> SearchStats | None:
        """The statistics of the latest search this thread started on this problem (None before
        the first). Each search keeps its own (`Search.stats`); this is a shortcut to the
        latest, as Knuth's programs report after a run."""
        return self.structures.stats

    def option(self, k: int) -> tuple[Hashable, ...]:
        """The entries of option ``k``, in input order: item names, and ``(item, colour)`` pairs
        for the entries with a colour."""
        if not 0 <= k < self.n_options:
            raise IndexError(f"option {k} out of range (the problem has {self.n_options} options)")
        a, b = self.option_start[k], self.option_start[k + 1]
        ids = self.option_items[a:b].tolist()
        if self.option_colours is None:
            return tuple(self.items[i] for i in ids)
        return tuple(self.items[i] if c == 0 else (self.items[i], self.colours[c - 1])
                     for i, c in zip(ids, self.option_colours[a:b].tolist()))

    def bound(self, item: Hashable) -> tuple[int, int]:
        """``(lo, hi)``: how many chosen options must cover ``item`` (a primary item)."""
        i = self.items.index(item)
        if i >= self.n_primary:
            raise ValueError(f"item {item!r} is secondary: it has no bounds")
        return (1, 1) if self.bounds is None else tuple(self.bounds[i].tolist())

    def search(self, *, limit: int | None = None, max_nodes: int | None = None,
               engine: str = engines.DEFAULT, seed: int | None = None,
               trace: bool | Callable[[np.ndarray], None] = False, branching: str | None = None,
               heuristic: str | None = None) -> Search:
        """A search of this problem that pauses instead of ending: at ``limit`` solutions, at
        ``max_nodes`` nodes, on [`Search.stop`][dlx.search.Search.stop] or Ctrl-C, and can go on with
        [`Search.resume`][dlx.search.Search.resume]. Iterate it for solutions or call
        [`Search.count`][dlx.search.Search.count]; close it (or use ``with``) to put the links back at
        once.

        Examples:
            >>> from dlx import problems
            >>> with problems.queens(8).search(max_nodes=500) as run:
            ...     first = run.count()
            ...     status = run.status
            ...     rest = run.resume(max_nodes=None).count()
            >>> first, status, first + rest, run.stats.nodes     # the pieces add up to the whole run
            (44, 'max_nodes', 92, 1049)

            ``seed`` (a whole number) makes the search try options and break ties between items in a
            random order drawn from it: the same seed, the same order; None (the default) is the
            problem's own order, Knuth's. ``trace=True`` records every step of the run
            ([`Search.trace`][dlx.search.Search.trace], worded by
            [`dlx.tracing.lines`][dlx.tracing.lines]), or hands the steps to a function as they come;
            the Dancing Links engine on a problem without colours or multiplicities records traces
            (``"auto"`` then picks it).

            ``branching="binary"`` makes dancing cells branch on one option at a time (take it, or leave
            it out and choose again: Knuth's SSXCC-BINARY; multiplicities always do, as SSMCC), and
            ``heuristic`` steers the choice: ``"mrv"`` (fewest options, the default), ``"frb"`` (failure
            rates) or ``"wtd"`` (weighted degrees), which imply binary branching (see
            `dlx.engines.binary` and docs/engine.md). They apply to
            [`first`][dlx.model.ExactCover.first], [`solutions`][dlx.model.ExactCover.solutions] and
            [`count`][sudoku.count] alike; the run's ``stats.engine`` names them
            (``"cells/binary/frb"``).
        """
        engine = engines.named(engine, branching, heuristic)
        return Search(self, limit=limit, max_nodes=max_nodes, engine=engine, seed=seed, trace=trace)

    def first(self, *, max_nodes: int | None = None, engine: str = engines.DEFAULT,
              seed: int | None = None, jobs: int | None = 1, client: Any = None, branching: str | None = None,
              heuristic: str | None = None) -> tuple[int, ...] | None:
        """The first solution found (option numbers, ascending), or None when there is none (or
        none within ``max_nodes`` nodes: ``stats.status`` tells which). With a ``seed``, a random
        solution of sorts: the first in the order that seed draws (see [`search`][dlx.search]). With
        ``jobs`` threads (None: one per core) or a Dask ``client`` (see [`dlx.parallel`][dlx.parallel]), the
        first that any of them finds; the others stop.

        Examples:
            >>> from dlx import problems
            >>> queens = problems.queens(8)
            >>> queens.first() == queens.first(seed=None), queens.first(seed=1) == queens.first(seed=1)
            (True, True)
        """
        engine = engines.named(engine, branching, heuristic)
        if _split(jobs, client):
            found = self._parallel(jobs, client, collect=True, limit=1, max_nodes=max_nodes,
                                   engine=engine, seed=seed).solutions
            return found[0] if found else None
        return next(self.solutions(1, max_nodes=max_nodes, engine=engine, seed=seed), None)

    def solutions(self, limit: int | None = None, *, max_nodes: int | None = None,
                  engine: str = engines.DEFAULT, seed: int | None = None, jobs: int | None = 1,
                  client: Any = None, branching: str | None = None,
                  heuristic: str | None = None) -> Iterator[tuple[int, ...]]:
        """Every solution, lazily, in the order the search finds them (at most ``limit``, and
        within a budget of ``max_nodes`` search nodes).

        Each solution is a tuple of option numbers in ascending order. The search runs only as far
        as the iterator is consumed; abandoning it early leaves the problem as it was. When the
        budget runs out the iterator ends and its ``stats.status`` is ``"max_nodes"``. The iterator
        is a [`Search`][dlx.model.Search] that closes itself when it ends.

        Examples:
            >>> ec = ExactCover([["a"], ["b"], ["a", "b"], ["b", "c"], ["c"]])
            >>> list(ec.solutions())
            [(0, 1, 4), (0, 3), (2, 4)]
            >>> list(ec.solutions(limit=2))
            [(0, 1, 4), (0, 3)]

            With ``jobs`` threads (None: one per core) or a Dask ``client`` the search is split (see
            [`dlx.parallel`][dlx.parallel]) and the solutions come when it is over, in the order one run gives
            them (the Dancing Links engines; dancing cells gives the same solutions in another order).
            A ``limit`` then stops it once that many are found, not necessarily one run's first.
            ``branching`` and ``heuristic``: see [`search`][dlx.search].
        """
        engine = engines.named(engine, branching, heuristic)
        if _split(jobs, client):
            return iter(self._parallel(jobs, client, collect=True, limit=limit, max_nodes=max_nodes,
                                       engine=engine, seed=seed).solutions)
        return Search(self, limit=limit, max_nodes=max_nodes, engine=engine, seed=seed, close_at_end=True)

    def count(self, limit: int | None = None, *, max_nodes: int | None = None,
              engine: str = engines.DEFAULT, seed: int | None = None, jobs: int | None = 1,
              client: Any = None, memo: bool = False, branching: str | None = None,
              heuristic: str | None = None) -> int:
        """The number of solutions; counting stops at ``limit`` solutions or ``max_nodes`` search
        nodes. ``stats`` tells what it cost and whether the count is complete. With ``jobs``
        threads (None: one per core) or a Dask ``client``, the search is split (see
        [`dlx.parallel`][dlx.parallel]): the same count, and with the Dancing Links engines the same nodes and
        updates; ``stats.seconds`` is then the wall time.

        Examples:
            >>> from dlx import problems
            >>> queens = problems.queens(10)
            >>> queens.count(max_nodes=1000)          # a budget: the count so far, marked incomplete
            55
            >>> queens.stats.status, queens.stats.nodes
            ('max_nodes', 1000)
            >>> queens.count(), queens.stats.status
            (724, 'complete')

            ``memo=True`` counts through the ZDD of [`zdd`][dlx.zdd] (``max_nodes`` then bounds its nodes,
            and ``jobs`` are its threads): every subproblem is solved once, so a count can be far
            beyond what any search visits. ``stats`` is then left as it was; the ZDD's ``stats`` say
            what the memoised search did.

            >>> problems.dominoes(12, 12).count(memo=True)
            53060477521960000

            ``branching`` and ``heuristic``: see [`search`][dlx.search].
        """
        engine = engines.named(engine, branching, heuristic)
        if memo:
            if limit is not None or seed is not None or client is not None:
                raise ValueError("count(memo=True) counts every solution: it takes no limit, seed or client")
            from . import memo as memoised
            memoised.check_engine(engine)
            return self.zdd(max_nodes=max_nodes, jobs=jobs).count()
        if _split(jobs, client):
            return self._parallel(jobs, client, limit=limit, max_nodes=max_nodes, engine=engine,
                                  seed=seed).count
        with Search(self, limit=limit, max_nodes=max_nodes, engine=engine, seed=seed) as run:
            return run.count()

    def zdd(self, *, max_nodes: int | None = None, max_bytes: int | None = None, jobs: int | None = 1) -> ZDD:
        """A ZDD of all the solutions ([`dlx.zdd.ZDD`][dlx.zdd.ZDD]), built by a memoised search
        ([`dlx.memo`][dlx.memo], Knuth's DLX6): exact counts of any size, the solutions in order, ranks,
        uniform samples, Knuth's file format.

        Examples:
            >>> from dlx import problems
            >>> z = problems.dominoes(8, 8).zdd()
            >>> z.count()
            12988816
            >>> z.stats.states < 20_000
            True

            The search keys each subproblem by the items left to cover (with the colours given to
            secondary items and what each primary item may still take), stored whole, and solves each
            once, choosing items as Dancing Links do.
            ``max_nodes`` bounds the ZDD's nodes and ``max_bytes`` the memory of the memo and the ZDD
            together (default: half the machine's memory); past either it raises
            [`dlx.memo.TooLarge`][dlx.memo.TooLarge], a MemoryError that says which. ``jobs`` threads (None or 0: one
            per core) solve the states below the top of the search apart ([`dlx.memo.build`][dlx.memo.build]): the
            same solutions in the same order, a ZDD no smaller. Cost: each state once (with threads, at
            most once per thread), times the options tried there.
        """
        from .zdd import ZDD
        return ZDD.of(self.engine_input, max_nodes=max_nodes, max_bytes=max_bytes, jobs=jobs)

    def cheapest(self, k: int = 1, *, max_nodes: int | None = None, jobs: int | None = 1) -> list[Priced]:
        """The ``k`` cheapest solutions, cheapest first, as ``(cost, options)`` pairs
        ([`dlx.cheapest.Priced`][dlx.cheapest.Priced]): Knuth's DLX5, minimum-cost exact cover. Each option costs
        what ``costs`` gave it (0 without); a solution costs its options' sum. Fewer than ``k``
        when there are fewer solutions; ties in the order DLX5 finds them.

        Examples:
            >>> ec = ExactCover([["a", "b"], ["a"], ["b"], ["b", "c"], ["c"]], costs=[5, 1, 3, 2, 2])
            >>> ec.cheapest()
            [Priced(cost=3, options=(1, 3))]
            >>> ec.cheapest(k=5)
            [Priced(cost=3, options=(1, 3)), Priced(cost=6, options=(1, 2, 4)), Priced(cost=7, options=(0, 4))]
            >>> ec.stats.nodes, ec.stats.updates
            (7, 9)

            The search ([`dlx.engines.dlx5`][dlx.engines.dlx5]) branches on the item with the fewest options it can
            still afford and abandons a partial solution as soon as it costs as much as the ``k``-th
            best found so far: the figures in ``stats`` are DLX5's, node for node. ``max_nodes`` bounds
            it (``stats.status`` then says ``"max_nodes"``, and the answer is the best found, not
            proven); Ctrl-C raises [`dlx.cheapest.Interrupted`][dlx.cheapest.Interrupted] holding the best found so far.
            ``jobs`` threads (None: one per core) split the search at its first level; the pieces share
            the best costs they find as they go: the same ``k`` best costs, nodes of their own.
            [`improving`][dlx.model.ExactCover.improving] is the run itself, lazily. Colours work with costs; bounds
            (multiplicities) are refused.
        """
        from .cheapest import cheapest
        return cheapest(self, k, max_nodes=max_nodes, jobs=jobs)

    def improving(self, k: int = 1, *, max_nodes: int | None = None) -> Cheapest:
        """The run of [`cheapest`][dlx.cheapest], lazily: iterate it for each solution as DLX5 reports it
        (every one that beats the ``k``-th best so far), pause it with a budget or
        [`stop`][dlx.cheapest.Cheapest.stop] and resume it ([`dlx.cheapest.Cheapest`][dlx.cheapest.Cheapest])."""
        from .cheapest import Cheapest
        return Cheapest(self, k, max_nodes=max_nodes)

    def _parallel(self, jobs: int | None, client: Any, **how: Any) -> parallel.Result:
        from . import parallel
        return parallel.run(self, jobs=jobs, client=client, **how)

    def __len__(self) -> int:
        return self.n_options

    def cost(self, options: Iterable[int]) -> int:
        """The total cost of the options numbered ``options`` (0 for a problem without costs).

        Examples:
            >>> ExactCover([["a"], ["b"], ["a", "b"]], costs=[2, 3, 4]).cost([0, 1])
            5
        """
        chosen = [whole(k, "an option number") for k in options]
        for k in chosen:
            if k >= self.n_options:
                raise ValueError(f"option {k} out of range (the problem has {self.n_options} options)")
        return 0 if self.option_costs is None else int(self.option_costs[chosen].sum())

    def is_solution(self, options: Iterable[int], cost: int | None = None) -> bool:
        """Whether the options numbered ``options`` (in any order) are a solution: every primary
        item covered exactly once (or within its bounds), every secondary item at most once or
        only by entries of one colour, no option twice, and none without a primary item (such an
        option is never part of a solution, as in Knuth's programs). The verifier of the problem's
        definition, independent of every engine.

        Examples:
            >>> ec = ExactCover([["a", "b"], ["b", ("x", "red")], ["a", ("x", "red")], ["a"]],
            ...                 secondary=["x"])
            >>> ec.is_solution([0]), ec.is_solution([1, 2]), ec.is_solution([1, 3]), ec.is_solution([0, 3])
            (True, True, True, False)

            With ``cost``, the options must also cost exactly that in all
            ([`cost`][dlx.model.ExactCover.cost]), as a solution that [`cheapest`][dlx.cheapest] reports
            does.

            A number that is no option's is a ValueError. Cost: linear in the entries of ``options``.
        """
        chosen = [whole(k, "an option number") for k in options]
        if cost is not None and self.cost(chosen) != cost:
            return False
        for k in chosen:
            if k >= self.n_options:
                raise ValueError(f"option {k} out of range (the problem has {self.n_options} options)")
        if len(set(chosen)) != len(chosen):
            return False
        start = self.option_start
        ends = start[1:]
        covered = np.zeros(self.n_items, np.int64)
        colour_of: dict[int, int] = {}
        for k in chosen:
            ids = self.option_items[start[k]:ends[k]]
            if not (ids < self.n_primary).any():
                return False
            np.add.at(covered, ids, 1)
            if self.option_colours is not None:
                for i, c in zip(ids.tolist(), self.option_colours[start[k]:ends[k]].tolist()):
                    if c and colour_of.setdefault(i, c) != c:
                        return False
        lo, hi = ((1, 1) if self.bounds is None else (self.bounds[:, 0], self.bounds[:, 1]))
        primary = covered[:self.n_primary]
        if ((primary < lo) | (primary > hi)).any():
            return False
        for i in np.flatnonzero(covered[self.n_primary:] > 1).tolist():
            item = self.n_primary + i
            if item not in colour_of or self._uncoloured_use(chosen, item):
                return False        # shared, but not under one colour by every option
        return True

    def _uncoloured_use(self, chosen: list[int], item: int) -> bool:
        """Whether an option of ``chosen`` has ``item`` without a colour."""
        for k in chosen:
            a, b = self.option_start[k], self.option_start[k + 1]
            at = np.flatnonzero(self.option_items[a:b] == item)
            if at.size and self.option_colours is not None and self.option_colours[a + at[0]] == 0:
                return True
        return False

    def __eq__(self, other: object) -> bool:
        """The same problem as data: the same items in the same order (and which are primary), the
        same options in the same order, with the same colours and bounds. How it was built (a
        list, a matrix, a file) does not matter: ``read_dlx(write_dlx(p)) == p``."""
        if not isinstance(other, ExactCover):
            return NotImplemented
        if self is other:
            return True
        return (self.items == other.items and self.n_primary == other.n_primary
                and self.colours == other.colours
                and np.array_equal(self.option_start, other.option_start)
                and np.array_equal(self.option_items, other.option_items)
                and _same(self.option_colours, other.option_colours) and _same(self.bounds, other.bounds)
                and _same(self.option_costs, other.option_costs))

    def __hash__(self) -> int:
        """Consistent with ``==``; computed once (linear in the size of the problem)."""
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.items, self.n_primary, self.colours, self.option_start.tobytes(),
                           self.option_items.tobytes(),
                           None if self.option_colours is None else self.option_colours.tobytes(),
                           None if self.bounds is None else self.bounds.tobytes(),
                           None if self.option_costs is None else self.option_costs.tobytes()))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __repr__(self) -> str:
        extra = "" if self.option_colours is None else f", {len(self.colours)} colours"
        extra += "" if self.bounds is None else ", bounds"
        extra += "" if self.option_costs is None else ", costs"
        return (f"ExactCover({self.n_items} items ({self.n_primary} primary, "
                f"{self.n_secondary} secondary), {self.n_options} options{extra})")

    def check(self) -> None:
        """Raise [`dlx.engines.base.StructureError`][dlx.engines.base.StructureError] unless every
        engine's structure is exactly what it must be: as built, or, while a paused search holds it, as
        built with that search's options applied (Knuth's ``sanity()``, made exact). Tests call this
        after every step."""
        if not self.structures.built():
            self.prepared(engines.resolve(engines.DEFAULT, self.engine_input))
        for prepared in self.structures.built():
            prepared.check()


def _same(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and np.array_equal(a, b))


def _split(jobs: int | None, client: Any) -> bool:
    """Whether a search is for [`dlx.parallel`][dlx.parallel] (which checks ``jobs``): anything but one job."""
    return client is not None or type(jobs) is not int or jobs != 1


#: Options are kept with int32 offsets (and the links with uint32 ones), so a problem holds fewer
#: entries than this; more would wrap around, not fail.
_MAX_ENTRIES = 2 ** 31
#: Item numbers share a 32-bit word with two flag bits (a spacer, a cleansed node).
_MAX_ITEMS = 2 ** 30


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    if a.flags.writeable:
        a = a.copy() if a.base is not None else a
        a.flags.writeable = False
    return a


def _usable(start: np.ndarray, ids: np.ndarray, colours: np.ndarray | None,
            n_primary: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The options as the links hold them: an option without a primary item is emptied, so it keeps
    its number but sits in no item's list."""
    lengths = np.diff(start)
    owner = np.repeat(np.arange(lengths.size), lengths)
    has_primary = np.zeros(lengths.size, bool)
    has_primary[owner[ids < n_primary]] = True
    if has_primary.all():
        return start, ids, colours
    kept = np.zeros_like(start)
    np.cumsum(np.where(has_primary, lengths, 0), out=kept[1:])
    keep = has_primary[owner]
    return kept, ids[keep], None if colours is None else colours[keep]


def warn_unusable(where: list[str]) -> None:
    """One [`ProblemWarning`][dlx.model.ProblemWarning] naming the options (``where``: "option 3", "line
    7") that have no primary item."""
    if not where:
        return
    shown = ", ".join(where[:10]) + (f" and {len(where) - 10} more" if len(where) > 10 else "")
    one = len(where) == 1
    warnings.warn(f"{shown}: {'an option' if one else 'options'} without a primary item, so no solution "
                  f"can use {'it' if one else 'them'}; skipped (keeping {'its number' if one else 'their numbers'})",
                  ProblemWarning, stacklevel=3)


class _NoColour:
    def __repr__(self) -> str:
        return "no colour"


_NO_COLOUR = _NoColour()


def _items_of(option: Iterable[Hashable], k: int) -> list[Hashable]:
    """An option's entries; a bare string is refused rather than read as its letters."""
    if isinstance(option, (str, bytes)):
        words = option.split() if isinstance(option, str) else [option]
        raise ProblemError(f"option {k} is a string, {option!r}, where a list of items is expected: "
                           f"write {words!r} (or list({option!r}) for its letters)")
    try:
        return list(option)
    except TypeError:
        raise ProblemError(f"option {k} is {option!r}, where a list of items is expected: write "
                           f"[{option!r}] for an option of one item") from None


def _entry(e: Hashable, declared: set, secondary: set, k: int) -> tuple[Hashable, Hashable]:
    """``(name, colour)`` of one entry of option ``k`` (``_NO_COLOUR`` for a plain item name)."""
    if type(e) is tuple and len(e) == 2:
        name, colour = e
        if e in declared:
            if name in secondary:
                raise ProblemError(f"option {k}: {e!r} is both a declared item and item {name!r} with "
                                   f"colour {colour!r}; rename one of them")
            return e, _NO_COLOUR
        if name in declared:
            if name not in secondary:
                raise ProblemError(f"option {k}: primary item {name!r} cannot have a colour ({colour!r}); "
                                   "only secondary items take colours")
            return name, colour
    return e, _NO_COLOUR


def option_costs(costs: Sequence[int] | None, n_options: int, where: str = "costs") -> np.ndarray | None:
    """The costs of ``n_options`` options as int64, checked: whole numbers of at least 0 whose sum
    stays below 2**62 (so that no sum a search makes overflows); None for None. ``where`` begins
    the message of a sum too large."""
    if costs is None:
        return None
    if isinstance(costs, (str, bytes)):
        raise ProblemError(f"costs must be a list of whole numbers, one per option; got {costs!r}")
    costs = list(costs)
    if len(costs) != n_options:
        raise ProblemError(f"costs: {len(costs)} given for {n_options} options (one per option)")
    table = np.zeros(n_options, np.int64)
    total = 0
    for k, value in enumerate(costs):
        try:
            table[k] = cost = whole(value, "a cost")
        except (ValueError, OverflowError):
            raise ProblemError(f"costs: option {k} costs {value!r}; a cost is a whole number of at least 0") from None
        total += cost
        if total >= _MAX_COST:
            raise ProblemError(f"{where}: the costs add up to {total:,} or more; the costs of all options "
                               f"together must stay below 2**62")
    return table


#: The costs of all options together stay below this, so that no sum a search makes can overflow.
_MAX_COST = 2 ** 62


def item_bounds(bounds: Mapping | None, index: dict, n_primary: int) -> np.ndarray | None:
    """``(lo, hi)`` per primary item from ``{item: (lo, hi) or k}``; None when all are (1, 1)."""
    if not bounds:
        return None
    table = np.ones((n_primary, 2), np.int64)
    for item, value in bounds.items():
        i = index.get(item)
        if i is None:
            raise ProblemError(f"bounds: unknown item {item!r}")
        if i >= n_primary:
            raise ProblemError(f"bounds: item {item!r} is secondary; only primary items take bounds")
        table[i] = check_bounds(value, f"bounds of item {item!r}")
    return None if (table == 1).all() else table


def check_bounds(value: object, where: str, line: int | None = None) -> tuple[int, int]:
    """``(lo, hi)`` from ``k`` or ``(lo, hi)``: whole numbers with 0 <= lo <= hi and 1 <= hi < 2**31."""
    pair = (value, value) if not isinstance(value, (tuple, list)) else tuple(value)
    if len(pair) != 2:
        raise ProblemError(f"{where}: {value!r} is neither a number nor a pair (lo, hi)", line=line)
    try:
        lo, hi = (whole(v, "a bound") for v in pair)
    except ValueError:
        raise ProblemError(f"{where}: {value!r}: bounds must be whole numbers of at least 0", line=line) from None
    if lo > hi:
        raise ProblemError(f"{where}: the lower bound {lo} exceeds the upper bound {hi}", line=line)
    if hi == 0:
        raise ProblemError(f"{where}: the upper bound is 0 (an item no option may cover is no item)", line=line)
    if hi >= 2 ** 31:
        raise ProblemError(f"{where}: the upper bound {hi} is too large (at most {2 ** 31 - 1})", line=line)
    return lo, hi


def declare_items(primary: list, secondary: list, where: str, line: int | None = None) -> list:
    """Primary then secondary item names, refusing duplicates and an empty primary list."""
    prefix = f"{where}: " if where else ""
    if not primary:
        raise ProblemError(f"{prefix}no primary items", line=line)
    twice = first_repeat(primary + secondary)
    if twice is not None:
        raise ProblemError(f"{prefix}item {twice!r} is declared twice", line=line)
    return primary + secondary


def encode_option(entries: Sequence[tuple[Hashable, int]], index: dict, n_primary: int, where: str,
                  line: int | None = None) -> tuple[list[int], list[int]]:
    """Item ids and colour numbers of one option, from ``(name, colour number)`` pairs (0: no
    colour). An unknown or repeated item, or a colour on a primary item, is a ProblemError naming
    ``where``; an option without a primary item is the caller's to report."""
    ids, colours = [], []
    for name, colour in entries:
        i = index.get(name)
        if i is None:
            raise ProblemError(f"{where}: unknown item {name!r}", line=line)
        if colour and i < n_primary:
            raise ProblemError(f"{where}: primary item {name!r} cannot have a colour; only secondary "
                               "items take colours", line=line)
        ids.append(i)
        colours.append(colour)
    if len(set(ids)) != len(ids):
        twice = first_repeat([name for name, _ in entries])
        raise ProblemError(f"{where}: item {twice!r} appears twice in one option", line=line)
    return ids, colours


def first_repeat(names: list) -> Hashable | None:
    """The first name that occurs for the second time in ``names``, or None."""
    seen: set = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    return None
