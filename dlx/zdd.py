"""A ZDD of all the solutions of a problem: counted exactly, listed, ranked, sampled uniformly, and
written in Knuth's text format. Built by [`dlx.ExactCover.zdd`][dlx.model.ExactCover.zdd] (the memoised search,
[`dlx.memo`][dlx.memo]), or read back from a file.

A node is ``(option, lo, hi)``: the family of solutions ``lo`` together with option ``option``
added to each solution of ``hi``. Node 0 is the empty family (no solution) and node 1 the family
of one empty solution. Nodes are numbered so that a node's children come before it, and no node's
``hi`` is node 0. An option appears at most once on any path (the ZDD is not *ordered*: the
options along a path come in the order the search chose them, as in Knuth's DLX6).

Examples:
    >>> from dlx import problems
    >>> z = problems.dominoes(4, 4).zdd()
    >>> z.count(), z.count_by_size()
    (36, {8: 36})
    >>> z.solution(0) == next(z.solutions())
    True
"""
from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

import numpy as np
from numba import njit

from .checks import whole

if TYPE_CHECKING:
    from .engines.base import Options
    from .memo import MemoStats


@njit(cache=True, nogil=True)
def _log2_counts(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """log2 of each node's count (-inf for node 0), in float: how many bits the exact counts need."""
    lg = np.empty(lo.size, np.float64)
    lg[0] = -np.inf
    lg[1] = 0.0
    for z in range(2, lo.size):
        a, b = lg[lo[z]], lg[hi[z]]
        m = max(a, b)
        lg[z] = m + np.log2(1.0 + 2.0 ** (min(a, b) - m))
    return lg


@njit(cache=True, nogil=True)
def _limb_counts(lo: np.ndarray, hi: np.ndarray, limbs: int) -> np.ndarray:
    """Each node's exact count in ``limbs`` 64-bit words, least significant first."""
    c = np.zeros((lo.size, limbs), np.uint64)
    c[1, 0] = 1
    for z in range(2, lo.size):
        a, b = lo[z], hi[z]
        carry = np.uint64(0)
        for k in range(limbs):
            s = c[a, k] + c[b, k]
            c1 = s < c[a, k]
            t = s + carry
            c2 = t < s
            c[z, k] = t
            carry = np.uint64(1) if (c1 or c2) else np.uint64(0)
    return c


@njit(cache=True, nogil=True)
def _postorder(lo: np.ndarray, hi: np.ndarray, root: int) -> np.ndarray:
    """The nodes reachable from ``root`` (sinks excepted), each after its ``hi`` then its ``lo``:
    one numbering of a ZDD that depends only on its shape."""
    order = np.empty(lo.size, np.int64)
    seen = np.zeros(lo.size, np.bool_)
    seen[0] = seen[1] = True
    stack = np.empty(2 * lo.size + 2, np.int64)
    stage = np.empty(2 * lo.size + 2, np.int64)
    n = 0
    top = 0
    if not seen[root]:
        stack[0], stage[0], top = root, 0, 1
    while top > 0:
        z = stack[top - 1]
        s = stage[top - 1]
        if s == 2:
            top -= 1
            order[n] = z
            n += 1
            continue
        stage[top - 1] = s + 1
        child = hi[z] if s == 0 else lo[z]
        if not seen[child]:
            seen[child] = True
            stack[top], stage[top] = child, 0
            top += 1
    return order[:n]


#: A node line: ``id: (~v?lo:hi)``, ids in hexadecimal, ``v`` a decimal option number (ASCII only).
_NODE = re.compile(r"\s*([0-9a-fA-F]+):\s*\(~([0-9]+)\?([0-9a-fA-F]+):([0-9a-fA-F]+)\)\s*$", re.ASCII)
#: The largest option number a file may give (option numbers are 32-bit).
MAX_VAR = 1 << 31


def _read_node(text: str, number: int, name: str, nodes: dict[int, tuple[int, int, int, int]]) -> None:
    """Add the node of one line of a ZDD file to ``nodes`` (a blank line adds nothing)."""
    if not text.strip():
        return
    m = _NODE.match(text)
    if m is None:
        raise ZDDError(f"{name}, line {number}: not a ZDD node 'id: (~v?lo:hi)': {text.strip()[:60]!r}", line=number)
    z, v, a, b = int(m[1], 16), int(m[2]), int(m[3], 16), int(m[4], 16)
    if v > MAX_VAR:
        raise ZDDError(f"{name}, line {number}: option {m[2][:30]} is beyond the largest, {MAX_VAR:,}", line=number)
    if z < 2 or z in nodes:
        raise ZDDError(f"{name}, line {number}: node {z:x} {'is a sink' if z < 2 else 'is defined twice'}",
                       line=number)
    nodes[z] = (v, a, b, number)


def _repeated_option(var: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> int | None:
    """An option that some path of the ZDD (children before parents) takes twice, or None: one
    whose node has it again below its ``hi``. The options at or below each node as a bitset."""
    below = [0, 0]
    for z in range(2, var.size):
        v = int(var[z])
        under_hi = below[int(hi[z])]
        if under_hi >> v & 1:
            return v
        below.append(under_hi | below[int(lo[z])] | 1 << v)
    return None


class ZDDError(ValueError):
    """A ZDD file that cannot be read; ``line`` is the line number."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class ZDD:
    """The solutions of a problem as a zero-suppressed decision diagram (see the module).

    ``var``, ``lo``, ``hi``: a node's option and children, nodes ``0`` and ``1`` being the sinks;
    ``root``: the node of all solutions; ``stats``: what the memoised search that built it did
    (None for a ZDD read from a file). Counting walks the nodes once; each count, each solution
    and each sample then costs the length of its path.
    """

    def __init__(self, var: np.ndarray, lo: np.ndarray, hi: np.ndarray, root: int,
                 stats: MemoStats | None = None) -> None:
        self.var, self.lo, self.hi, self.root = var, lo, hi, int(root)
        self.stats = stats
        self._counts: np.ndarray | None = None

    @classmethod
    def of(cls, problem: Options, *, max_nodes: int | None = None, max_bytes: int | None = None,
           jobs: int | None = 1) -> ZDD:
        """The ZDD of every solution of ``problem`` (the engines' input), built by the memoised search
        ([`dlx.memo.build`][dlx.memo.build]); the arguments as
        [`dlx.ExactCover.zdd`][dlx.model.ExactCover.zdd] takes them."""
        from . import memo
        from .checks import check_count
        from .checks import jobs as threads
        workers = threads(jobs)
        nodes = check_count(max_nodes, "max_nodes", 1)
        room = memo.default_bytes() if max_bytes is None else whole(max_bytes, "max_bytes", 1)
        memo.warm()
        arrays, root, stats = memo.build(problem, max_nodes=nodes, max_bytes=room, jobs=workers)
        return cls(*arrays, root, stats)

    @property
    def size(self) -> int:
        """Nodes of the ZDD, the two sinks not counted."""
        return self.var.size - 2

    def __repr__(self) -> str:
        return f"ZDD({self.size:,} nodes, {self.count():,} solutions)"

    def _node_counts(self) -> np.ndarray:
        if self._counts is None:
            if self.root < 2:
                self._counts = np.array([[0], [1]], np.uint64)
            else:
                bits = _log2_counts(self.lo, self.hi)[self.root]
                self._counts = _limb_counts(self.lo, self.hi, int(bits) // 64 + 1)
        return self._counts

    def _count_of(self, z: int) -> int:
        return int.from_bytes(self._node_counts()[z].tobytes(), "little")

    def count(self) -> int:
        """The number of solutions, exactly (a Python int of any size). Cost: one pass over the
        nodes (then kept), with as many 64-bit words per node as the count needs."""
        return self._count_of(self.root)

    def count_by_size(self) -> dict[int, int]:
        """``{k: solutions of k options}`` for every size that has solutions (Knuth's generating
        function). Cost: one pass over the nodes, times the spread of sizes below each."""
        lows: list[int] = [0, 0]
        polys: list[list[int]] = [[], [1]]
        lo, hi = self.lo.tolist(), self.hi.tolist()
        for z in range(2, self.var.size):
            a, b = lo[z], hi[z]
            pa, pb, la, lb = polys[a], polys[b], lows[a], lows[b] + 1
            if not pa:
                lows.append(lb)
                polys.append(pb)
                continue
            low = min(la, lb)
            merged = [0] * (max(la + len(pa), lb + len(pb)) - low)
            for k, v in enumerate(pa):
                merged[la - low + k] += v
            for k, v in enumerate(pb):
                merged[lb - low + k] += v
            lows.append(low)
            polys.append(merged)
        return {lows[self.root] + k: v for k, v in enumerate(polys[self.root]) if v}

    def solutions(self) -> Iterator[tuple[int, ...]]:
        """Every solution (option numbers, ascending), lazily, each path taking a node's option
        before its ``lo``: for a problem without multiplicities, the order in which DLX1 (DLX2)
        finds them. Cost: the length of each solution's path."""
        var, lo, hi = self.var, self.lo, self.hi
        path: list[int] = []
        stack = [(self.root, 0)]
        while stack:
            z, depth = stack.pop()
            del path[depth:]
            while z > 1:
                stack.append((int(lo[z]), len(path)))
                path.append(int(var[z]))
                z = int(hi[z])
            if z == 1:
                yield tuple(sorted(path))

    def solution(self, rank: int) -> tuple[int, ...]:
        """Solution number ``rank`` (from 0) in the order of [`solutions`][dlx.zdd.ZDD.solutions], without listing
        the ones before it. Cost: the length of its path."""
        rank = whole(rank, "rank")
        if rank >= self.count():
            raise IndexError(f"rank {rank} out of range (there are {self.count():,} solutions)")
        path, z = [], self.root
        while z > 1:
            above = self._count_of(int(self.hi[z]))
            if rank < above:
                path.append(int(self.var[z]))
                z = int(self.hi[z])
            else:
                rank -= above
                z = int(self.lo[z])
        return tuple(sorted(path))

    def sample(self, k: int = 1, *, seed: int | None = None) -> list[tuple[int, ...]]:
        """``k`` solutions drawn uniformly at random, independently (so with repeats): each is
        [`solution`][dlx.zdd.ZDD.solution] of a rank drawn uniformly below [`count`][sudoku.count] by
        Python's ``random`` (exact for counts of any size), seeded with ``seed`` (None: from the
        system)."""
        k = whole(k, "k")
        total = self.count()
        if total == 0 and k:
            raise ValueError("the problem has no solution to sample")
        rng = random.Random(seed if seed is None else whole(seed, "seed"))
        return [self.solution(rng.randrange(total)) for _ in range(k)]

    def _canonical(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        order = _postorder(self.lo, self.hi, self.root)
        number = np.zeros(self.var.size, np.int64)
        number[1] = 1
        number[order] = np.arange(2, order.size + 2)
        return (self.var[order], number[self.lo[order]], number[self.hi[order]], int(number[self.root]))

    def __eq__(self, other: object) -> bool:
        """The same diagram: nodes with the same options and the same shape below the root
        (however they are numbered)."""
        if not isinstance(other, ZDD):
            return NotImplemented
        a, b = self._canonical(), other._canonical()
        return a[3] == b[3] and all(np.array_equal(x, y) for x, y in zip(a[:3], b[:3]))

    __hash__ = None  # type: ignore[assignment]

    def write(self, path: str | os.PathLike | TextIO) -> None:
        """Write the ZDD in the text format of Knuth's DLX6 (read by his ZDDREAD programs): a line
        ``id: (~v?lo:hi)`` per node, ids in hexadecimal, a node's children before it, ``v`` the
        option's number from 1 in input order; the sinks are 0 and 1; a last node with ``v = 0``
        and ``hi`` the root marks where the ZDD starts. ``path``: a file name, or a text stream."""
        lines = [f"{z:x}: (~{v + 1}?{a:x}:{b:x})\n"
                 for z, v, a, b in zip(range(2, self.var.size), self.var[2:].tolist(),
                                       self.lo[2:].tolist(), self.hi[2:].tolist())]
        lines.append(f"{self.var.size:x}: (~0?0:{self.root:x})\n")
        if not isinstance(path, (str, os.PathLike)):
            path.writelines(lines)
            return
        with open(path, "w") as out:
            out.writelines(lines)

    @classmethod
    def read(cls, path: str | os.PathLike | TextIO) -> ZDD:
        """A ZDD from a file in Knuth's format (see [`write`][dlx.zdd.ZDD.write]): a file name, or a text stream.
        The root is the ``hi`` of the node of variable 0, as DLX6 writes it, or else (as ZDDREAD
        does) the node of the least variable. The file must mean a family of sets of distinct
        options: a malformed line, a node defined twice, a child not defined, a ``hi`` that is the
        empty sink, a second node of variable 0 or one that another node points to, an option
        met twice on one path, a cycle, bytes that are not UTF-8: each is a [`ZDDError`][dlx.zdd.ZDDError]
        naming its line where it has one. Cost: linear in the file, plus a bitset of the options
        below each node (nodes times options bits) for the check of distinct options."""
        name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else getattr(path, "name", "<stream>")
        nodes: dict[int, tuple[int, int, int, int]] = {}
        if isinstance(path, (str, os.PathLike)):
            with open(path, "rb") as stream:
                for number, raw in enumerate(stream, 1):
                    try:
                        text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
                    except UnicodeDecodeError:
                        raise ZDDError(f"{name}, line {number}: not UTF-8 text", line=number) from None
                    _read_node(text, number, name, nodes)
        else:
            for number, text in enumerate(path, 1):
                _read_node(text.lstrip("\ufeff") if number == 1 else text, number, name, nodes)
        if not nodes:
            raise ZDDError(f"{name}: no ZDD nodes", line=None)
        markers = [z for z, node in nodes.items() if node[0] == 0]
        if len(markers) > 1:
            raise ZDDError(f"{name}, line {nodes[markers[1]][3]}: a second node of variable 0 (the root's "
                           f"marker is node {markers[0]:x})", line=nodes[markers[1]][3])
        for z, (_, a, b, number) in nodes.items():
            for child in (a, b):
                if child >= 2 and child not in nodes:
                    raise ZDDError(f"{name}, line {number}: node {z:x} points to node {child:x}, which the "
                                   "file does not define", line=number)
                if child in markers:
                    raise ZDDError(f"{name}, line {number}: node {z:x} points to node {child:x}, the root's "
                                   "marker (variable 0)", line=number)
            if b == 0 and z not in markers:
                raise ZDDError(f"{name}, line {number}: node {z:x} has the empty sink as hi (no solution "
                               "takes its option)", line=number)
        start = min(nodes, key=lambda z: (nodes[z][0], z))
        v, a, b, number = nodes[start]
        if v == 0 and a != 0:
            raise ZDDError(f"{name}, line {number}: the root's marker (variable 0) has lo {a:x}, not 0",
                           line=number)
        root = b if v == 0 else start
        if v == 0:
            del nodes[start]
        ids = sorted(nodes)
        index = {z: k + 2 for k, z in enumerate(ids)}
        index[0], index[1] = 0, 1
        var = np.array([0, 0] + [nodes[z][0] - 1 for z in ids], np.int32)
        lo = np.array([0, 0] + [index[nodes[z][1]] for z in ids], np.int64)
        hi = np.array([0, 0] + [index[nodes[z][2]] for z in ids], np.int64)
        zdd = cls(var, lo, hi, index[root])
        canon = zdd._canonical()            # children first, unreachable nodes dropped
        var, lo, hi, root = (np.concatenate([[0, 0], canon[0]]).astype(np.int32),
                             np.concatenate([[0, 0], canon[1]]), np.concatenate([[0, 0], canon[2]]), canon[3])
        below = np.arange(2, var.size)
        if (lo[2:] >= below).any() or (hi[2:] >= below).any():
            raise ZDDError(f"{name}: the nodes form a cycle", line=None)
        twice = _repeated_option(var, lo, hi)
        if twice is not None:
            raise ZDDError(f"{name}: option {twice + 1} is met twice on one path (a solution would take it "
                           "twice)", line=None)
        return cls(var, lo, hi, root)
