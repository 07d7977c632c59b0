"""The memoised search: Algorithm X that remembers every subproblem it solved, and so builds a ZDD
of all solutions (Knuth's DLX6, after Nishino, Yasuda, Minato and Nagata, "Dancing with decision
diagrams", AAAI 2017).

What is left to do below a node of the search depends only on which items are still to be
covered: an option is still live exactly when none of its items is covered. So the search keys each node
by that state and solves each state once; a second visit reuses the first one's answer, a node of
the ZDD. The search tree folds into a diagram that can be exponentially smaller than the number of
solutions (domino tilings of a 12x12 board: 53,060,477,521,960,000 of them).

**The key** of a state is an array of 64-bit words holding one field per item, the whole of it
stored in the memo (compared word by word on every lookup; the hash only picks the slot), so two
different states never share an entry:

* a primary item: how many more options may cover it (``hi`` minus its cover so far; 0 once it is
  settled). One bit for an exact-cover item, ``hi.bit_length()`` bits with multiplicities.
* a secondary item: 0 when no live option holds it any more (so it constrains nothing: covered,
  or unused), 1 when it is free, ``1 + c`` when an option gave it colour ``c`` (the item's own
  colours are numbered ``1..k``). Knuth's DLX6 keys secondary items the same way.

**Branching**: the item chosen is DLX's (an unsettled primary item with the fewest live options,
the first of ties; with multiplicities, the fewest beyond those it still needs), and its options
are tried in order, as DLX1 and DLX2 try them. So without multiplicities the ZDD's solutions, read
taking the option before the rest, come in the order DLX1 (DLX2) finds them. With multiplicities
a node decides, option by option in the item's list, which of its options the solution takes
(between what the item still needs and what it may still take), then settles the item: no later
option may cover it. Every option taken thereby holds a settled item, so the live options are a
function of the key again.

**The ZDD** grows as the search backs out of a node whose options gave solutions: a chain of nodes
``(option, lo, hi)`` in the order tried, ``hi`` the ZDD of the state after that option, ``lo`` the
rest of the chain; options that led nowhere make no node, so every node's ``hi`` has a solution.

The search is an iterative state machine whose state lives in arrays ([`Builder`][dlx.memo.Builder]), so it
returns to Python every ``WORK`` options tried (where Ctrl-C is noticed), and whenever the ZDD or
the memo needs more room: Python grows the arrays, after checking them against the caller's
bounds (nodes, bytes), and calls it again.
"""
from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
from numba import njit

from .engines.base import Options

# The frame stack: one frame per node of the search (an item being decided), columns:
ITEM, POS, SLOT, BASE, ACT, OPTION, SAVED = range(7)
FRAME = 7
# A frame's acts: ENTER looks its state up and picks an item; SCAN tries the item's next live
# option; TOOK puts that option back; CLOSED puts back the settled item; BUILD makes the chain.
ENTER, SCAN, TOOK, CLOSED, BUILD = range(5)
# Counters (``ctr``): frames in use, pending chain links, ZDD nodes (the sinks 0 and 1 included),
# memo entries, memo hits, options tried, the result of the frame that ended last.
SP, PTOP, NZDD, ENTRIES, HITS, TRIES, RESULT = range(7)
# What the kernel returns: finished, or why it paused.
DONE, MORE_ZDD, MORE_MEMO, POLLED = range(4)
#: The sinks: the empty family (no solution) and the family of the empty set (done).
BOTTOM, TOP = 0, 1
#: A memo entry's value while its state is being searched, and for a state left to another thread.
SEARCHING, FRONTIER = -1, -2
#: No frontier: every state is searched, however deep.
NO_FRONTIER = 1 << 62
#: Options tried per kernel call, so that Ctrl-C is noticed within milliseconds.
WORK = 1 << 18
#: Room the ZDD and the memo start with; each doubles when full.
FIRST_NODES = 1 << 12
FIRST_STATES = 1 << 10


@njit(cache=True, nogil=True)
def _hash(key: np.ndarray) -> np.uint64:
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(key.size):
        h ^= key[w]
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@njit(cache=True, nogil=True)
def _rehash(keys: np.ndarray, entries: int, table: np.ndarray) -> None:
    """Put memo entries ``0..entries-1`` into an empty ``table`` (its size a power of 2)."""
    mask = table.size - 1
    for e in range(entries):
        slot = np.int64(_hash(keys[e]) & np.uint64(mask))
        while table[slot] != 0:
            slot = (slot + 1) & mask
        table[slot] = e + 1


class Rules(NamedTuple):
    """The problem as the memoised search reads it (never changes): each option's items and the
    colours it gives them, each item's options, the bounds ``lo``/``hi`` of the primary items, and
    where each item's field sits in a key (``fword``, ``fshift``, ``fmask``)."""

    opt_start: np.ndarray
    opt_items: np.ndarray
    opt_col: np.ndarray
    item_start: np.ndarray
    item_opts: np.ndarray
    item_col: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    fword: np.ndarray
    fshift: np.ndarray
    fmask: np.ndarray


class Walk(NamedTuple):
    """The search's own state: what is blocked, the live lengths, what each item may still take
    (``r``), the colours given (``sec``, ``purifier``), the current ``key``, the frames, the
    pending chain links and the counters (``ctr``)."""

    blocked: np.ndarray
    length: np.ndarray
    r: np.ndarray
    sec: np.ndarray
    purifier: np.ndarray
    key: np.ndarray
    frames: np.ndarray
    pend_opt: np.ndarray
    pend_node: np.ndarray
    ctr: np.ndarray


class Memo(NamedTuple):
    """The ZDD's nodes (``zvar``, ``zlo``, ``zhi``) and the memo: ``keys`` and ``vals`` of the
    states met, and the open-addressing ``table`` over them."""

    zvar: np.ndarray
    zlo: np.ndarray
    zhi: np.ndarray
    keys: np.ndarray
    vals: np.ndarray
    table: np.ndarray


@njit(cache=True, nogil=True)
def _run(rules, walk, memo, work, ceiling):
    """Run the memoised search until it is done or must pause (see the module's docstring). Every
    step that blocks or frees an option is spelled out here: the search calls leaves only (see
    dlx.engines.base). A new state met with ``ceiling`` frames or more below it is not searched
    but marked ``FRONTIER`` in the memo, and counts as having no solution."""
    opt_start, opt_items, opt_col, item_start, item_opts, item_col, lo, hi, fword, fshift, fmask = rules
    blocked, length, r, sec, purifier, key, frames, pend_opt, pend_node, ctr = walk
    zvar, zlo, zhi, keys, vals, table = memo
    n1 = lo.size
    nw = key.size
    tmask = table.size - 1
    zero = np.uint64(0)
    while ctr[SP] > 0:
        if work <= 0:
            return POLLED
        f = ctr[SP] - 1
        phase = frames[f, ACT]
        result = -1
        if phase == ENTER:
            if ctr[ENTRIES] >= vals.size or 2 * (ctr[ENTRIES] + 1) > table.size:
                return MORE_MEMO
            slot = np.int64(_hash(key) & np.uint64(tmask))
            found = -1
            while table[slot] != 0:
                e = table[slot] - 1
                same = True
                for w in range(nw):
                    if keys[e, w] != key[w]:
                        same = False
                        break
                if same:
                    found = e
                    break
                slot = (slot + 1) & tmask
            if found >= 0:
                ctr[HITS] += 1
                ctr[RESULT] = vals[found] if vals[found] >= 0 else BOTTOM
                ctr[SP] -= 1
                continue
            e = ctr[ENTRIES]
            ctr[ENTRIES] = e + 1
            for w in range(nw):
                keys[e, w] = key[w]
            vals[e] = SEARCHING
            table[slot] = e + 1
            if f >= ceiling:
                vals[e] = FRONTIER
                ctr[RESULT] = BOTTOM
                ctr[SP] -= 1
                continue
            frames[f, SLOT] = e
            best = -1
            best_score = 1 << 62
            for p in range(n1):
                if r[p] > 0:
                    need = lo[p] - (hi[p] - r[p])
                    score = length[p] - (need if need > 0 else 0)
                    if score < best_score:
                        best, best_score = p, score
                        if score < 0:
                            break
            if best < 0:
                result = TOP
            elif best_score < 0:
                result = BOTTOM
            else:
                frames[f, ITEM] = best
                frames[f, POS] = item_start[best]
                frames[f, BASE] = ctr[PTOP]
                frames[f, ACT] = SCAN
                continue
        elif phase == SCAN:
            p = frames[f, ITEM]
            if r[p] == 0:                   # settled by the options taken: a new state
                frames[f, ACT] = ENTER
                continue
            pos = frames[f, POS]
            end = item_start[p + 1]
            while pos < end and blocked[item_opts[pos]] != 0:
                pos += 1
            if pos < end:
                o = item_opts[pos]
                frames[f, POS] = pos + 1
                frames[f, OPTION] = o
                frames[f, ACT] = TOOK
                ctr[TRIES] += 1
                work -= 1
                # take option o: it is used up, and each of its items loses a place (a primary
                # item that can take no more, or a secondary item without colour, blocks its
                # options; a colour blocks the item's options of other colours)
                blocked[o] += 1
                if blocked[o] == 1:
                    for e2 in range(opt_start[o], opt_start[o + 1]):
                        j = opt_items[e2]
                        length[j] -= 1
                        if length[j] == 0 and j >= n1:
                            key[fword[j]] &= ~(fmask[j] << fshift[j])
                for e in range(opt_start[o], opt_start[o + 1]):
                    i = opt_items[e]
                    c = opt_col[e]
                    if i < n1:
                        r[i] -= 1
                        key[fword[i]] = (key[fword[i]] & ~(fmask[i] << fshift[i])) | (np.uint64(r[i]) << fshift[i])
                        if r[i] != 0:
                            continue
                    elif c != 0 and sec[i] != 1:
                        continue                    # already given this colour
                    elif c != 0:
                        sec[i] = 1 + c
                        purifier[i] = o
                    else:
                        sec[i] = 0
                    for q in range(item_start[i], item_start[i + 1]):
                        if c != 0 and item_col[q] == c:
                            continue
                        o2 = item_opts[q]
                        blocked[o2] += 1
                        if blocked[o2] == 1:
                            for e2 in range(opt_start[o2], opt_start[o2 + 1]):
                                j = opt_items[e2]
                                length[j] -= 1
                                if length[j] == 0 and j >= n1:
                                    key[fword[j]] &= ~(fmask[j] << fshift[j])
                    if i >= n1:
                        v = np.uint64(sec[i]) if length[i] > 0 else zero
                        key[fword[i]] = (key[fword[i]] & ~(fmask[i] << fshift[i])) | (v << fshift[i])
                g = f + 1
                frames[g, ITEM] = p
                frames[g, POS] = pos + 1
                frames[g, SLOT] = -1
                frames[g, BASE] = ctr[PTOP]
                frames[g, ACT] = SCAN
                ctr[SP] += 1
                continue
            need = lo[p] - (hi[p] - r[p])
            if need > 0:
                frames[f, SAVED] = BOTTOM
                frames[f, ACT] = BUILD
                continue
            # settle the item: none of its options may be taken any more
            frames[f, SAVED] = r[p]
            r[p] = 0
            key[fword[p]] &= ~(fmask[p] << fshift[p])
            for q in range(item_start[p], item_start[p + 1]):
                o2 = item_opts[q]
                blocked[o2] += 1
                if blocked[o2] == 1:
                    for e2 in range(opt_start[o2], opt_start[o2 + 1]):
                        j = opt_items[e2]
                        length[j] -= 1
                        if length[j] == 0 and j >= n1:
                            key[fword[j]] &= ~(fmask[j] << fshift[j])
            frames[f, ACT] = CLOSED
            g = f + 1
            frames[g, ITEM] = p
            frames[g, SLOT] = -1
            frames[g, ACT] = ENTER
            ctr[SP] += 1
            continue
        elif phase == TOOK:
            o = frames[f, OPTION]
            for e in range(opt_start[o + 1] - 1, opt_start[o] - 1, -1):
                i = opt_items[e]
                c = opt_col[e]
                if i < n1:
                    if r[i] != 0:
                        r[i] += 1
                        key[fword[i]] = (key[fword[i]] & ~(fmask[i] << fshift[i])) | (np.uint64(r[i]) << fshift[i])
                        continue
                    r[i] = 1
                    key[fword[i]] = (key[fword[i]] & ~(fmask[i] << fshift[i])) | (np.uint64(1) << fshift[i])
                elif c != 0 and purifier[i] != o:
                    continue
                else:
                    sec[i] = 1
                    purifier[i] = -1
                for q in range(item_start[i], item_start[i + 1]):
                    if c != 0 and i >= n1 and item_col[q] == c:
                        continue
                    o2 = item_opts[q]
                    blocked[o2] -= 1
                    if blocked[o2] == 0:
                        for e2 in range(opt_start[o2], opt_start[o2 + 1]):
                            j = opt_items[e2]
                            length[j] += 1
                            if length[j] == 1 and j >= n1:
                                key[fword[j]] = ((key[fword[j]] & ~(fmask[j] << fshift[j]))
                                                 | (np.uint64(sec[j]) << fshift[j]))
                if i >= n1:
                    v = np.uint64(sec[i]) if length[i] > 0 else zero
                    key[fword[i]] = (key[fword[i]] & ~(fmask[i] << fshift[i])) | (v << fshift[i])
            blocked[o] -= 1
            if blocked[o] == 0:
                for e2 in range(opt_start[o], opt_start[o + 1]):
                    j = opt_items[e2]
                    length[j] += 1
                    if length[j] == 1 and j >= n1:
                        key[fword[j]] = ((key[fword[j]] & ~(fmask[j] << fshift[j]))
                                         | (np.uint64(sec[j]) << fshift[j]))
            if ctr[RESULT] != BOTTOM:
                pend_opt[ctr[PTOP]] = o
                pend_node[ctr[PTOP]] = ctr[RESULT]
                ctr[PTOP] += 1
            frames[f, ACT] = SCAN
            continue
        elif phase == CLOSED:
            p = frames[f, ITEM]
            for q in range(item_start[p], item_start[p + 1]):
                o2 = item_opts[q]
                blocked[o2] -= 1
                if blocked[o2] == 0:
                    for e2 in range(opt_start[o2], opt_start[o2 + 1]):
                        j = opt_items[e2]
                        length[j] += 1
                        if length[j] == 1 and j >= n1:
                            key[fword[j]] = ((key[fword[j]] & ~(fmask[j] << fshift[j]))
                                             | (np.uint64(sec[j]) << fshift[j]))
            r[p] = frames[f, SAVED]
            key[fword[p]] = (key[fword[p]] & ~(fmask[p] << fshift[p])) | (np.uint64(r[p]) << fshift[p])
            frames[f, SAVED] = ctr[RESULT]
            frames[f, ACT] = BUILD
            continue
        else:       # BUILD: the chain of this node's options, the first one tried at its top
            base = frames[f, BASE]
            if ctr[NZDD] + ctr[PTOP] - base > zvar.size:
                return MORE_ZDD
            node = frames[f, SAVED]
            for q in range(ctr[PTOP] - 1, base - 1, -1):
                z = ctr[NZDD]
                zvar[z] = pend_opt[q]
                zlo[z] = node
                zhi[z] = pend_node[q]
                node = z
                ctr[NZDD] = z + 1
            ctr[PTOP] = base
            result = node
        # the frame is done with ``result``
        if frames[f, SLOT] >= 0:
            vals[frames[f, SLOT]] = result
        ctr[RESULT] = result
        ctr[SP] -= 1
    return DONE


#: The engine whose choices the memoised search makes (its item choice is DLX1's, DLX3's with
#: bounds): ``engine=`` may name it, or the default, beside ``memo=True``.
CHOOSES_AS = "dlx"


def check_engine(engine: str) -> None:
    """A ValueError unless ``engine`` names the choices the memoised search makes."""
    from . import engines
    engines.get(engine)
    if engine not in (engines.DEFAULT, CHOOSES_AS):
        raise ValueError(f"the memoised search chooses items as Dancing Links do: engine must be "
                         f"{engines.DEFAULT!r} or {CHOOSES_AS!r}, not {engine!r}")


class TooLarge(MemoryError):
    """A memoised search that needs more ZDD nodes or memory than it may have. The message says
    which bound, how far the search got, and what to do instead; ``bound`` is the name of the one
    it passed: ``"max_nodes"`` or ``"max_bytes"``."""

    def __init__(self, message: str, bound: str) -> None:
        super().__init__(message)
        self.bound = bound


class Room:
    """The bytes that the memoised searches of one build may hold together: the caller's
    ``max_bytes``, shared by every thread's [`Builder`][dlx.memo.Builder]. An array is paid for before it is
    made, and while an array grows the old one and the new one are both paid for (both are alive
    during the copy), so the bound holds at every moment, not only between steps."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self._lock = threading.Lock()

    def take(self, more: int, what: str) -> None:
        """Pay for ``more`` bytes, or raise [`TooLarge`][dlx.memo.TooLarge] (``what``: how far the search got)."""
        with self._lock:
            if self.used + more > self.limit:
                raise TooLarge(f"the memo and the ZDD need more than max_bytes={self.limit:,} bytes ({what}); "
                               "give a larger max_bytes, or count without the memo", "max_bytes")
            self.used += more

    def give(self, bytes_: int) -> None:
        with self._lock:
            self.used -= bytes_


class Stopped(Exception):
    """A search stopped by [`Builder.stop`][dlx.memo.Builder.stop] (another thread's Ctrl-C)."""


@dataclass(frozen=True)
class MemoStats:
    """What a memoised search did: ``states`` solved (memo entries), ``hits`` (states met again and
    not searched), ``tries`` (options taken), ``zdd_nodes`` (nodes of the ZDD, sinks not counted),
    ``bytes`` (the arrays of the memo and the ZDD at their largest, summed over threads),
    ``seconds`` (search time; wall time with threads), ``jobs`` (threads)."""

    states: int
    hits: int
    tries: int
    zdd_nodes: int
    bytes: int
    seconds: float
    jobs: int = 1


def default_bytes() -> int:
    """Bytes the memo and the ZDD may take when the caller gives no bound: half the machine's memory."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")) // 2
    except (ValueError, OSError, AttributeError):
        return 8 << 30


def warm() -> None:
    """Load the kernels (compile them the first time) so that a timed search times searching:
    a memoised search of a problem of one option."""
    if not _warmed:
        Builder(Options(np.array([0, 1], np.int32), np.array([0], np.int32), None, None, 1, 1),
                max_nodes=8, room=Room(1 << 20)).run()
        _warmed.append(True)


_warmed: list[bool] = []


class Builder:
    """One memoised search of a problem (``Options``, as the engines read it), from start to the
    ZDD's arrays. ``max_nodes`` bounds the ZDD's nodes and ``room`` (a `Room`, shared by
    the builders of one build) the memory of every array the search makes; past either, it raises
    [`TooLarge`][dlx.memo.TooLarge], before the array is made. ``key``: start from the state with that key (a
    frontier state of another search) instead of the problem's start. [`release`][dlx.memo.Builder.release] gives its
    bytes back to the room."""

    def __init__(self, problem: Options, *, max_nodes: int, room: Room, key: np.ndarray | None = None) -> None:
        self.max_nodes, self.room = max_nodes, room
        self.held = 0
        self.ctr = np.zeros(7, np.int64)
        n_entries = problem.items.size
        self._pay(8 * (12 * n_entries + 16 * problem.n_items + 3 * problem.start.size), "before the search began")
        self.ceiling = NO_FRONTIER
        self.stopped = False
        n, n1 = problem.n_items, problem.n_primary
        start = problem.start.astype(np.int64)
        items = problem.items.astype(np.int64)
        n_options = start.size - 1
        bounds = np.ones((n1, 2), np.int64) if problem.bounds is None else problem.bounds.astype(np.int64)
        self.lo, self.hi = np.ascontiguousarray(bounds[:, 0]), np.ascontiguousarray(bounds[:, 1])
        # each secondary item's colours, numbered 1..k in order of first use
        colours = np.zeros(items.size, np.int64) if problem.colours is None else problem.colours.astype(np.int64)
        local = np.zeros(items.size, np.int64)
        kinds = np.zeros(n, np.int64)
        seen: dict[tuple[int, int], int] = {}
        for e in np.flatnonzero(colours).tolist():
            i, c = int(items[e]), int(colours[e])
            code = seen.get((i, c))
            if code is None:
                kinds[i] += 1
                code = seen[(i, c)] = int(kinds[i])
            local[e] = code
        self.opt_start, self.opt_items, self.opt_col = start, items, local
        # each item's options, ascending, with the colour each gives the item
        owner = np.repeat(np.arange(n_options, dtype=np.int64), np.diff(start))
        order = np.lexsort((owner, items))
        self.item_opts = owner[order]
        self.item_col = local[order]
        self.item_start = np.zeros(n + 1, np.int64)
        np.cumsum(np.bincount(items, minlength=n), out=self.item_start[1:])
        # the key's fields: widths, packed into words without straddling one
        top = np.concatenate([self.hi, 1 + kinds[n1:]])
        widths = [max(int(v).bit_length(), 1) for v in top.tolist()]
        fword, fshift, word, used = [], [], 0, 0
        for width in widths:
            if used + width > 64:
                word, used = word + 1, 0
            fword.append(word)
            fshift.append(used)
            used += width
        self.fword = np.array(fword, np.int64)
        self.fshift = np.array(fshift, np.uint64)
        self.fmask = np.array([(1 << w) - 1 for w in widths], np.uint64)
        self.n_words = word + 1
        # the state: what each primary item may still take, each secondary item's colour (0: no
        # live option, 1: free), and the live options, with each item's count of them
        if key is None:
            self.r = self.hi.copy()
            self.sec = np.ones(n, np.int64)
        else:
            fields = ((key[self.fword] >> self.fshift) & self.fmask).astype(np.int64)
            self.r = np.ascontiguousarray(fields[:n1])
            self.sec = np.ones(n, np.int64)
            self.sec[n1:] = fields[n1:]
        entry_item = items
        if items.size:
            s_of = self.sec[entry_item]
            fits = np.where(entry_item < n1, self.r[np.minimum(entry_item, max(n1 - 1, 0))] > 0,
                            (s_of == 1) | ((local > 0) & (s_of == 1 + local)))
        else:
            fits = np.zeros(0, bool)
        unfit = np.bincount(owner, weights=~fits, minlength=n_options) if items.size else np.zeros(n_options)
        self.blocked = ((unfit > 0) | (np.diff(start) == 0)).astype(np.int64)
        live_entries = self.blocked[owner] == 0
        self.length = np.bincount(items[live_entries], minlength=n).astype(np.int64)
        self.purifier = np.full(n, -1, np.int64)
        self.key = np.zeros(self.n_words, np.uint64)
        values = np.concatenate([self.r, np.where(self.length[n1:] > 0, self.sec[n1:], 0)])
        for i in range(n):
            self.key[self.fword[i]] |= np.uint64(values[i]) << self.fshift[i]
        if key is not None and not np.array_equal(self.key, key):
            raise AssertionError("a frontier state does not rebuild to its own key")
        depth = n_options + n1 + 2
        first = min(FIRST_NODES, max_nodes + 2)
        self._pay(8 * (FRAME * depth + 2 * items.size + 2) + 20 * first
                  + (8 * self.n_words + 8 + 32) * FIRST_STATES, "before the search began")
        self.frames = np.zeros((depth, FRAME), np.int64)
        self.frames[0, ACT] = ENTER
        self.frames[0, SLOT] = -1
        self.pend_opt = np.zeros(items.size + 1, np.int64)
        self.pend_node = np.zeros(items.size + 1, np.int64)
        # the kernel's records (the memo's arrays grow, so its record is made per call)
        self.rules = Rules(self.opt_start, self.opt_items, self.opt_col, self.item_start, self.item_opts,
                           self.item_col, self.lo, self.hi, self.fword, self.fshift, self.fmask)
        self.walk = Walk(self.blocked, self.length, self.r, self.sec, self.purifier, self.key, self.frames,
                         self.pend_opt, self.pend_node, self.ctr)
        self.zvar: np.ndarray = np.zeros(first, np.int32)
        self.zlo: np.ndarray = np.zeros(first, np.int64)
        self.zhi: np.ndarray = np.zeros(first, np.int64)
        self.keys = np.zeros((FIRST_STATES, self.n_words), np.uint64)
        self.vals = np.zeros(FIRST_STATES, np.int64)
        self.table = np.zeros(4 * FIRST_STATES, np.int64)
        self.ctr[SP] = 1
        self.ctr[NZDD] = 2
        self.peak = self.bytes()

    def bytes(self) -> int:
        """Bytes of the arrays that grow: the ZDD's, the memo's keys and values, its table."""
        return sum(a.nbytes for a in (self.zvar, self.zlo, self.zhi, self.keys, self.vals, self.table))

    def stop(self) -> None:
        """Ask [`run`][dlx.memo.Builder.run] (in another thread) to end with `Stopped` within ``WORK`` tries."""
        self.stopped = True

    def release(self) -> None:
        """Give every byte this builder paid for back to the room (its arrays are dropped)."""
        self.room.give(self.held)
        self.held = 0

    def _pay(self, more: int, what: str | None = None) -> None:
        """Pay the room for ``more`` bytes (a negative ``more`` gives some back)."""
        if more > 0:
            self.room.take(more, what or f"after {int(self.ctr[ENTRIES]):,} states and "
                                         f"{max(int(self.ctr[NZDD]) - 2, 0):,} ZDD nodes")
        else:
            self.room.give(-more)
        self.held += more

    def preload(self, zvar: np.ndarray, zlo: np.ndarray, zhi: np.ndarray, keys: np.ndarray,
                nodes: np.ndarray) -> None:
        """Start with these ZDD nodes (sinks included) and these states solved: state ``keys[k]``
        is node ``nodes[k]``."""
        size = max(zvar.size, FIRST_NODES)
        entries = keys.shape[0]
        room = max(FIRST_STATES, 1 << (2 * entries).bit_length())
        old = self.bytes()
        self._pay(20 * size + (8 * self.n_words + 8 + 16) * room)
        self.zvar, self.zlo, self.zhi = (np.resize(a, size) for a in (zvar, zlo, zhi))
        self.ctr[NZDD] = zvar.size
        self.keys = np.zeros((room, self.n_words), np.uint64)
        self.keys[:entries] = keys
        self.vals = np.zeros(room, np.int64)
        self.vals[:entries] = nodes
        self.table = np.zeros(2 * room, np.int64)
        _rehash(self.keys, entries, self.table)
        self.ctr[ENTRIES] = entries
        self._pay(-old)
        self.peak = max(self.peak, self.bytes())

    def run(self) -> tuple[int, MemoStats]:
        """Search to the end; the root of the ZDD (a node of ``zvar``/``zlo``/``zhi``, or a sink)
        and the statistics. Raises [`TooLarge`][dlx.memo.TooLarge] past a bound; Ctrl-C stops it within
        ``WORK`` options tried (KeyboardInterrupt), [`stop`][dlx.memo.Builder.stop] with `Stopped`."""
        started = time.perf_counter()
        while True:
            if self.stopped:
                raise Stopped("stopped")
            why = _run(self.rules, self.walk, Memo(self.zvar, self.zlo, self.zhi, self.keys, self.vals, self.table),
                       WORK, self.ceiling)
            if why == DONE:
                break
            if why == MORE_ZDD:
                self._grow_zdd()
            elif why == MORE_MEMO:
                self._grow_memo()
        n = int(self.ctr[NZDD])
        stats = MemoStats(int(self.ctr[ENTRIES]), int(self.ctr[HITS]), int(self.ctr[TRIES]), n - 2,
                          self.peak, time.perf_counter() - started)
        return int(self.ctr[RESULT]), stats

    def zdd_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = int(self.ctr[NZDD])
        return self.zvar[:n].copy(), self.zlo[:n].copy(), self.zhi[:n].copy()

    def frontier_size(self) -> int:
        entries = int(self.ctr[ENTRIES])
        return int(np.count_nonzero(self.vals[:entries] == FRONTIER))

    def frontier(self) -> np.ndarray:
        """The keys of the states a run under a ceiling left unsearched, in the order met."""
        entries = int(self.ctr[ENTRIES])
        return self.keys[:entries][self.vals[:entries] == FRONTIER].copy()

    def _grow_zdd(self) -> None:
        base = int(self.frames[int(self.ctr[SP]) - 1, BASE])
        want = int(self.ctr[NZDD]) + int(self.ctr[PTOP]) - base
        if want - 2 > self.max_nodes:
            raise TooLarge(f"the ZDD needs more than max_nodes={self.max_nodes:,} nodes (after "
                           f"{int(self.ctr[ENTRIES]):,} states); give a larger max_nodes, or count "
                           "without the memo", "max_nodes")
        size = min(max(2 * self.zvar.size, want), self.max_nodes + 2)
        old = 20 * self.zvar.size
        self._pay(20 * size)
        self.zvar, self.zlo, self.zhi = (np.resize(a, size) for a in (self.zvar, self.zlo, self.zhi))
        self._pay(-old)
        self.peak = max(self.peak, self.bytes())

    def _grow_memo(self) -> None:
        entries = int(self.ctr[ENTRIES])
        if entries >= self.vals.size:
            size = 2 * self.vals.size
            old = self.keys.nbytes + self.vals.nbytes
            self._pay(size * (8 + 8 * self.n_words))
            keys = np.zeros((size, self.n_words), np.uint64)
            keys[:entries] = self.keys[:entries]
            self.keys, self.vals = keys, np.resize(self.vals, size)
            self._pay(-old)
        if 2 * (entries + 1) > self.table.size:
            old = self.table.nbytes
            self._pay(2 * old)
            self.table = np.zeros(2 * self.table.size, np.int64)
            _rehash(self.keys, entries, self.table)
            self._pay(-old)
        self.peak = max(self.peak, self.bytes())


#: Frontier states per thread that a split aims at: enough to even out unequal ones.
TASKS_PER_JOB = 8
#: The deepest ceiling a split tries before it settles for the frontier it has.
MAX_CEILING = 24


def build(problem: Options, *, max_nodes: int, max_bytes: int,
          jobs: int = 1) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], int, MemoStats]:
    """The ZDD's arrays, its root and the statistics of a memoised search of ``problem``, on
    ``jobs`` threads.

    With threads, a first run under a ceiling (raised until the frontier holds ``TASKS_PER_JOB``
    states per thread) finds the states below the top of the search; the threads solve them, each
    with a memo of its own (so a state below two frontier states may be solved twice, and the ZDD
    is no smaller than one thread's); then the top is searched again with their answers in its
    memo. The solutions, their order and the count are one thread's.

    ``max_bytes`` bounds every array of every search of the build at once (a `Room`
    shared by the threads), the ZDD's copies that outlive a search included."""
    room = Room(max_bytes)
    if jobs == 1:
        builder = Builder(problem, max_nodes=max_nodes, room=room)
        root, stats = builder.run()
        return _kept(builder, room), root, stats
    started = time.perf_counter()
    for ceiling in range(1, MAX_CEILING + 1):
        scout = Builder(problem, max_nodes=max_nodes, room=room)
        scout.ceiling = ceiling
        scout_root, scout_stats = scout.run()
        if scout.frontier_size() == 0:      # the whole search lies above the ceiling: it is done
            return _kept(scout, room), scout_root, replace(scout_stats, jobs=jobs)
        if scout.frontier_size() >= TASKS_PER_JOB * jobs or ceiling == MAX_CEILING:
            break
        scout.release()
    room.take(scout.frontier_size() * 8 * scout.n_words, "while splitting the search")
    frontier = scout.frontier()
    scout.release()
    results = _solve_apart(problem, frontier, max_nodes=max_nodes, room=room, jobs=jobs)
    kept = sum(arrays[0].nbytes + arrays[1].nbytes + arrays[2].nbytes for _, _, arrays in results)
    room.take(2 * kept, "joining the threads' ZDDs")      # the parts renumbered, then joined
    zvar, zlo, zhi, roots = _side_by_side([(root, arrays) for root, _, arrays in results])
    parts = [stats for _, stats, _ in results]
    del results
    room.give(2 * kept)     # the threads' copies and the renumbered parts are gone: the joined one
                            # is paid as the copies were
    if zvar.size - 2 > max_nodes:
        raise TooLarge(f"the ZDD needs more than max_nodes={max_nodes:,} nodes; give a larger max_nodes, "
                       "or count without the memo", "max_nodes")
    top = Builder(problem, max_nodes=max_nodes, room=room)
    top.preload(zvar, zlo, zhi, frontier, roots)
    room.give(kept + frontier.nbytes)
    del zvar, zlo, zhi
    root, last = top.run()
    stats = MemoStats(last.states - roots.size + sum(p.states for p in parts), last.hits + sum(p.hits for p in parts),
                      last.tries + sum(p.tries for p in parts), int(top.ctr[NZDD]) - 2,
                      top.peak + sum(p.bytes for p in parts), time.perf_counter() - started, jobs)
    return _kept(top, room), root, stats


def _kept(builder: Builder, room: Room) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ZDD's arrays of a finished search, paid for, and the search's own given back."""
    room.take(20 * int(builder.ctr[NZDD]), "copying the ZDD")      # int32, int64, int64 per node
    arrays = builder.zdd_arrays()
    builder.release()
    return arrays


def _solve_apart(problem: Options, frontier: np.ndarray, *, max_nodes: int, room: Room,
                 jobs: int) -> list[tuple[int, MemoStats, tuple[np.ndarray, np.ndarray, np.ndarray]]]:
    """Each frontier state's ZDD (root, stats, arrays), searched on ``jobs`` threads, each state
    with a memo of its own. An exception in one (Ctrl-C in the caller's) stops them all."""
    running: dict[int, Builder] = {}
    results: list = [None] * frontier.shape[0]
    given_up = [False]

    def solve(k: int) -> None:
        if given_up[0]:
            return
        builder = running[k] = Builder(problem, max_nodes=max_nodes, room=room, key=frontier[k])
        try:
            if given_up[0]:             # stopped while this one was being made
                builder.stop()
            root, stats = builder.run()
            results[k] = (root, stats, _kept(builder, room))
        finally:
            builder.release()
            del running[k]              # its memo is no longer needed

    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        for future in [pool.submit(solve, k) for k in range(frontier.shape[0])]:
            future.result()
    except BaseException:
        given_up[0] = True
        for builder in list(running.values()):
            builder.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()
    return results


def _side_by_side(parts: list[tuple[int, tuple[np.ndarray, np.ndarray, np.ndarray]]]
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Several ZDDs' arrays as one (the sinks shared, each part's nodes renumbered past the ones
    before it), and each part's root in it."""
    var, lo, hi, roots = [np.zeros(2, np.int32)], [np.zeros(2, np.int64)], [np.zeros(2, np.int64)], []
    offset = 2
    for root, (zvar, zlo, zhi) in parts:
        shift = offset - 2
        var.append(zvar[2:])
        lo.append(np.where(zlo[2:] >= 2, zlo[2:] + shift, zlo[2:]))
        hi.append(np.where(zhi[2:] >= 2, zhi[2:] + shift, zhi[2:]))
        roots.append(root + shift if root >= 2 else root)
        offset += zvar.size - 2
    return np.concatenate(var), np.concatenate(lo), np.concatenate(hi), np.array(roots, np.int64)
