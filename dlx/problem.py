"""ExactCover: item names <-> ids, options -> flat arrays, validation."""
from __future__ import annotations

import operator
import threading
from collections.abc import Hashable, Iterable, Iterator, Sequence
from itertools import pairwise

import numpy as np

from . import search
from .kernels import SPACER, build_links
from .matrix import matrix_options
from .search import SearchStats


class ProblemError(ValueError):
    """An exact-cover problem that cannot be built; the message says what is wrong and where.

    ``line`` is the line number in the input file when the problem was read from one, else None.
    """

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class ExactCover:
    """An exact-cover problem: choose options so that every primary item is covered exactly once
    and every secondary item at most once.

    ``options`` are iterables of hashable item names. Items listed in ``secondary`` are secondary,
    every other item is primary. The item order (which breaks ties when the search chooses an item)
    is ``primary`` when given, else the order of first appearance in the options.

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
    """

    items: tuple[Hashable, ...]
    n_primary: int
    option_start: np.ndarray
    option_items: np.ndarray
    stats: SearchStats | None

    def __init__(
        self,
        options: Iterable[Iterable[Hashable]],
        *,
        primary: Sequence[Hashable] | None = None,
        secondary: Iterable[Hashable] = (),
    ) -> None:
        options = [list(option) for option in options]
        secondary = list(secondary)
        if primary is None:
            is_secondary = set(secondary)
            first_seen = dict.fromkeys(name for option in options for name in option)
            primary = [name for name in first_seen if name not in is_secondary]
        items = declare_items(list(primary), secondary, where="")
        index = {name: i for i, name in enumerate(items)}
        n_primary = len(items) - len(secondary)
        start, ids = [0], []
        for k, option in enumerate(options):
            ids.extend(encode_option(option, index, n_primary, f"option {k}"))
            start.append(len(ids))
        self._setup(items, n_primary, start, ids)

    @classmethod
    def from_matrix(cls, m, secondary: int = 0) -> ExactCover:
        """A problem from a 0/1 matrix: rows are options, columns are items (named by their
        numbers), the last ``secondary`` columns secondary.

        ``m`` is anything numpy makes a 2-D array of, or a scipy.sparse matrix or array in any
        format (it is never made dense). Every column is an item, used or not. A row without a
        primary item (an all-zero row, say) keeps its number but is never part of a solution, as
        Knuth drops such options. Solutions are row numbers.

        >>> import numpy as np
        >>> m = np.array([[0, 0, 1, 0, 1, 0, 0],
        ...               [1, 0, 0, 1, 0, 0, 1],
        ...               [0, 1, 1, 0, 0, 1, 0],
        ...               [1, 0, 0, 1, 0, 1, 0],
        ...               [0, 0, 0, 0, 0, 0, 0],
        ...               [0, 1, 0, 0, 0, 0, 1],
        ...               [0, 0, 0, 1, 1, 0, 1]])
        >>> ec = ExactCover.from_matrix(m)
        >>> ec.first()
        (0, 3, 5)
        >>> ec.option(3)
        (0, 3, 5)
        """
        n_cols, start, ids = matrix_options(m, ProblemError)
        secondary = operator.index(secondary)
        if not 0 <= secondary <= n_cols:
            raise ProblemError(f"secondary={secondary}, but the matrix has {n_cols} columns")
        return cls._from_ids(range(n_cols), n_cols - secondary, start, ids)

    @classmethod
    def _from_ids(cls, items: Sequence[Hashable], n_primary: int, start, ids) -> ExactCover:
        """Build from already validated item ids (the readers' path)."""
        self = cls.__new__(cls)
        self._setup(items, n_primary, start, ids)
        return self

    def _setup(self, items, n_primary, start, ids) -> None:
        self.items = tuple(items)
        if n_primary < 1:
            raise ProblemError("no primary items")
        self.n_primary = n_primary
        self.option_start = np.asarray(start, dtype=np.int32)
        self.option_items = np.asarray(ids, dtype=np.int32)
        self._link_start, self._link_items = _usable(self.option_start, self.option_items, n_primary)
        (self._llink, self._rlink, self._length,
         self._top, self._ulink, self._dlink) = self._build_links()
        self._lock = threading.Lock()     # held by the run searching in place on these links
        self.stats = None

    def _build_links(self) -> tuple[np.ndarray, ...]:
        """DLX1's arrays ``(llink, rlink, length, top, ulink, dlink)`` for this problem, fresh."""
        return build_links(self._link_start, self._link_items, len(self.items), self.n_primary)

    @property
    def n_items(self) -> int:
        return len(self.items)

    @property
    def n_secondary(self) -> int:
        return len(self.items) - self.n_primary

    @property
    def n_options(self) -> int:
        return len(self.option_start) - 1

    def option(self, k: int) -> tuple[Hashable, ...]:
        """The item names of option ``k``, in input order."""
        if not 0 <= k < self.n_options:
            raise IndexError(f"option {k} out of range (the problem has {self.n_options} options)")
        ids = self.option_items[self.option_start[k]:self.option_start[k + 1]]
        return tuple(self.items[i] for i in ids)

    def first(self, *, max_nodes: int | None = None) -> tuple[int, ...] | None:
        """The first solution found (option numbers, ascending), or None when there is none (or
        none within ``max_nodes`` nodes: ``stats.status`` tells which)."""
        return next(self.solutions(1, max_nodes=max_nodes), None)

    def solutions(self, limit: int | None = None, *, max_nodes: int | None = None
                  ) -> Iterator[tuple[int, ...]]:
        """Every solution, lazily, in the order the search finds them (at most ``limit``, and
        within a budget of ``max_nodes`` search nodes).

        Each solution is a tuple of option numbers in ascending order. The search runs only as far
        as the iterator is consumed; abandoning it early leaves the problem as it was. When the
        budget runs out the iterator ends and ``stats.status`` is ``"max_nodes"``.

        >>> ec = ExactCover([["a"], ["b"], ["a", "b"], ["b", "c"], ["c"]])
        >>> list(ec.solutions())
        [(0, 1, 4), (0, 3), (2, 4)]
        >>> list(ec.solutions(limit=2))
        [(0, 1, 4), (0, 3)]
        """
        return search.iterate(self, search.check_limit(limit),
                              search.check_limit(max_nodes, "max_nodes"))

    def count(self, limit: int | None = None, *, max_nodes: int | None = None) -> int:
        """The number of solutions; counting stops at ``limit`` solutions or ``max_nodes`` search
        nodes. ``stats`` tells what it cost and whether the count is complete.

        >>> from dlx import problems
        >>> queens = problems.queens(10)
        >>> queens.count(max_nodes=1000)          # a budget: the count so far, marked incomplete
        55
        >>> queens.stats.status, queens.stats.nodes
        ('max_nodes', 1000)
        >>> queens.count(), queens.stats.status
        (724, 'complete')
        """
        return search.count(self, search.check_limit(limit), search.check_limit(max_nodes, "max_nodes"))

    def __len__(self) -> int:
        return self.n_options

    def __repr__(self) -> str:
        return (f"ExactCover({self.n_items} items ({self.n_primary} primary, "
                f"{self.n_secondary} secondary), {self.n_options} options)")

    def check(self) -> None:
        """Assert that the links are exactly as built from the options (Knuth's ``sanity()``).

        Every search must leave the structure as it found it; tests call this after each run.
        """
        n, n1 = self.n_items, self.n_primary
        llink, rlink, length = self._llink, self._rlink, self._length
        top, ulink, dlink = self._top, self._ulink, self._dlink
        for root, members in ((0, range(1, n1 + 1)), (n + 1, range(n1 + 1, n + 1))):
            ring = [root, *members, root]
            for a, b in pairwise(ring):
                assert rlink[a] == b and llink[b] == a, f"item list broken between {a} and {b}"
        spacer = n + 1
        columns: list[list[int]] = [[] for _ in range(n + 1)]
        for k in range(self.n_options):
            first = spacer + 1
            ids = self._link_items[self._link_start[k]:self._link_start[k + 1]]
            for offset, i in enumerate(ids):
                assert top[first + offset] == i + 1, f"node {first + offset} has the wrong item"
                columns[i + 1].append(first + offset)
            last = first + len(ids) - 1
            assert dlink[spacer] == last, f"spacer {spacer} does not point at option {k}'s last node"
            spacer = last + 1
            assert top[spacer] == SPACER | k and ulink[spacer] == first, f"spacer {spacer} is wrong"
        for i in range(1, n + 1):
            ring = [i, *columns[i], i]
            for a, b in pairwise(ring):
                assert dlink[a] == b and ulink[b] == a, f"list of item {self.items[i - 1]!r} broken at node {a}"
            assert length[i] == len(columns[i]), f"length of item {self.items[i - 1]!r} is wrong"  # not COVERED
        empty = sum(not columns[i] for i in range(1, n1 + 1))
        assert length[0] == empty, f"length[0] is {length[0]}, but {empty} primary items have no options"


def _usable(start: np.ndarray, ids: np.ndarray, n_primary: int) -> tuple[np.ndarray, np.ndarray]:
    """The options as the links hold them: an option without a primary item (possible only from a
    matrix) is emptied, so it keeps its number but sits in no item's list."""
    lengths = np.diff(start)
    owner = np.repeat(np.arange(lengths.size), lengths)
    has_primary = np.zeros(lengths.size, bool)
    has_primary[owner[ids < n_primary]] = True
    if has_primary.all():
        return start, ids
    kept = np.zeros_like(start)
    np.cumsum(np.where(has_primary, lengths, 0), out=kept[1:])
    return kept, ids[has_primary[owner]]


def declare_items(primary: list, secondary: list, where: str, line: int | None = None) -> list:
    """Primary then secondary item names, refusing duplicates and an empty primary list."""
    prefix = f"{where}: " if where else ""
    if not primary:
        raise ProblemError(f"{prefix}no primary items", line=line)
    twice = first_repeat(primary + secondary)
    if twice is not None:
        raise ProblemError(f"{prefix}item {twice!r} is declared twice", line=line)
    return primary + secondary


def encode_option(names: list, index: dict, n_primary: int, where: str, line: int | None = None) -> list[int]:
    """Item ids of one option; an empty option, an unknown or repeated item, or an option without a
    primary item (it could never be part of a solution) is a ProblemError naming ``where``."""
    if not names:
        raise ProblemError(f"{where}: empty option", line=line)
    ids = []
    for name in names:
        i = index.get(name)
        if i is None:
            raise ProblemError(f"{where}: unknown item {name!r}", line=line)
        ids.append(i)
    if len(set(ids)) != len(ids):
        twice = first_repeat(names)
        raise ProblemError(f"{where}: item {twice!r} appears twice in one option", line=line)
    if min(ids) >= n_primary:
        raise ProblemError(f"{where}: option has no primary item, so no solution could use it", line=line)
    return ids


def first_repeat(names: list) -> Hashable | None:
    """The first name that occurs for the second time in ``names``, or None."""
    seen: set = set()
    return next((name for name in names if name in seen or seen.add(name)), None)
