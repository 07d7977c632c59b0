"""DLX5: minimum-cost exact cover (Knuth's dlx5.w), as one resumable, stoppable state machine.

Every option has a nonnegative whole cost, and the search finds the ``k`` cheapest solutions: the
set-partitioning problem. DLX5 extends DLX2 (colours) with three things, each named here as in the
text:

* **taxes**: every primary item, in order, is taxed the least net cost of its options, which is
  taken off each of them. A solution's net cost is then its cost less the total tax (a constant),
  every item has an option of net cost 0 and no option a negative one ([`taxed`][dlx.engines.dlx5.taxed]);
* **sorted item lists**: each item's options, cheapest first (a stable sort by net cost), so that a
  scan down a list stops at the first option too dear to matter ([`build`][dlx.engines.dlx5.build]);
* **the cutoff**: ``bestcost`` is a heap of the ``k`` least net costs seen so far, its root
  ``cutoffcost`` the one to beat. A partial solution that costs as much is abandoned, an item's
  options from the first that would cost as much are neither hidden nor counted, and every
  solution that gets through beats the cutoff, so it is recorded: the solutions come out as they
  improve.

The item to branch on has the fewest usable options (those under the cutoff), the one whose
cheapest option costs most on ties (it must be paid somehow), the leftmost after that; after
``lenthresh`` options the scan takes the item's whole length as an upper bound (Knuth's ``h``).

Steps, as dlx5.w's labels: ``FORWARD`` (a node: choose the item, cover it with the level's
threshold), ``ADVANCE`` (try the level's option: cover or purify its other items; a solution when
no primary item is left, visited in ``VISIT``), ``RECOVER`` (take the option back, move down to the
next one while it is cheap enough), ``BACKUP`` (uncover the item), ``BACKDOWN`` (leave the level).
Uncovering walks an item's list in the same direction as covering, with the same threshold as
covering used (``coverthresh0`` and ``coverthresh`` per level), though the cutoff may have fallen
since: the dance still returns every link (Knuth's remark in dlx5.w).

The counts are DLX5's: a node per level entered and per solution; an update per item covered and
per node unlinked; a cleansing per purification and per node cleansed.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .. import status as st
from .base import (
    CLEANSINGS,
    FLOOR,
    LEVEL,
    NODES,
    POLL,
    STATE_SIZE,
    STEP,
    STOP,
    UPDATES,
    Options,
    StructureError,
    resumable,
    settle,
)
from .links import NO_OPTION, ONE, SPACER, ZERO, option_of

FORWARD, ADVANCE, RECOVER, BACKUP, BACKDOWN, VISIT = range(6)
#: Net costs are int64; a cost this large or more is "infinite" (no cutoff yet).
INFINITE = np.int64(2 ** 63 - 1)
#: The largest cost of one option, and of all of them together, so that no sum overflows.
MAX_TOTAL = 2 ** 62
#: Knuth's ``lenthresh`` (command-line ``h``): at most this many options of an item are counted
#: when choosing the item to branch on; past that its length stands for the count.
LENTHRESH = 10
#: Knuth's ``maxk``: the most solutions a search keeps.
MAX_K = 15000
# the registers that are not counters, in ``money``
CURCOST, NEXTCOST, BEST = range(3)


class CostLinks(NamedTuple):
    """DLX5's arrays. Items ``1..N`` (primary ``1..second-1``) in ``prev``/``next``: the root ``0``
    heads the active primary items, ``N+1`` the secondary ones. Nodes ``1..N`` are the item headers,
    ``N+1`` the first spacer, then each option's nodes and a spacer. ``itm[x]``: the item of node
    ``x`` (a header's own number), or for a spacer ``SPACER`` plus the number of the option before
    it (DLX1's ``top`` encoding, so `links.option_of` reads it); a spacer's ``up`` is the
    first node of that option, its ``down`` the last node of the next.
    ``color[x]``: 0 none, > 0 a colour, -1 cleansed. ``cost[x]``: the net cost of node ``x``'s
    option (a header's: its item's tax). ``length[i]``: the options left to primary item ``i``."""

    prev: np.ndarray      # uint32, items 0..N+1
    next: np.ndarray      # uint32, items 0..N+1
    length: np.ndarray    # int64, items 0..N
    itm: np.ndarray       # uint32, nodes; never changes after the build
    up: np.ndarray        # uint32, nodes
    down: np.ndarray      # uint32, nodes
    color: np.ndarray     # int32, nodes
    cost: np.ndarray      # int64, nodes; never changes after the build
    second: np.uint32     # the first secondary item (N+1 when there is none)
    last_itm: np.uint32   # N+1: the first spacer; every node from here on is an option's


class Machine(NamedTuple):
    """A run's state: ``choice``, ``partcost``, ``coverthresh0`` and ``coverthresh`` per level (as in
    dlx5.w), ``bestcost`` (the heap of the ``k`` least net costs, ``bestcost[k]`` a 0 that the heap
    reads when ``k`` is even), ``money`` (``CURCOST``, ``NEXTCOST``, ``BEST``) and the shared
    ``state`` of [`base`][dlx.engines.base]."""

    choice: np.ndarray
    partcost: np.ndarray
    coverthresh0: np.ndarray
    coverthresh: np.ndarray
    bestcost: np.ndarray
    money: np.ndarray
    state: np.ndarray


def taxed(options: Options, costs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(net cost per option, tax per primary item)``: each primary item in turn is taxed the least
    net cost of its options (so far), which is taken off each of them (dlx5.w, "Assign taxes"). An
    item without options is taxed nothing. Cost: linear in the entries."""
    net = np.array(costs, dtype=np.int64)
    lengths = np.diff(options.start)
    owner = np.repeat(np.arange(lengths.size), lengths)
    primary = options.items < options.n_primary
    by_item = np.argsort(options.items[primary], kind="stable")
    item_of = options.items[primary][by_item]
    owner_of = owner[primary][by_item]
    bounds = np.searchsorted(item_of, np.arange(options.n_primary + 1))
    tax = np.zeros(options.n_primary, np.int64)
    for i in range(options.n_primary):
        those = owner_of[bounds[i]:bounds[i + 1]]
        if those.size:
            tax[i] = net[those].min()
            if tax[i]:
                net[those] -= tax[i]
    return net, tax


def build(options: Options, costs: np.ndarray) -> CostLinks:
    """DLX5's structure for ``options`` with ``costs`` (one per option): the options taxed, each
    item's list sorted by net cost (stable: input order among equals). Cost: O(entries log)."""
    net, tax = taxed(options, costs)
    n, n1 = options.n_items, options.n_primary
    lengths = np.diff(options.start)
    used = lengths > 0
    count = int(used.sum())
    n_nodes = n + 2 + options.items.size + count
    itm = np.zeros(n_nodes, np.uint32)
    up = np.zeros(n_nodes, np.uint32)
    down = np.zeros(n_nodes, np.uint32)
    color = np.zeros(n_nodes, np.int32)
    cost = np.zeros(n_nodes, np.int64)
    itm[1:n + 1] = np.arange(1, n + 1, dtype=np.uint32)
    cost[1:n1 + 1] = tax
    # each used option's nodes follow the spacer after the option before it
    first = n + 2 + options.start[:-1] + np.cumsum(used) - used
    node_of_entry = np.repeat(first - options.start[:-1], lengths) + np.arange(options.items.size)
    owner = np.repeat(np.arange(lengths.size), lengths)
    itm[node_of_entry] = options.items.astype(np.uint32) + ONE
    cost[node_of_entry] = net[owner]
    if options.colours is not None:
        color[node_of_entry] = options.colours
    itm[n + 1] = NO_OPTION
    kept = np.flatnonzero(used)
    after = first[kept] + lengths[kept]                     # the spacer after each used option
    itm[after] = SPACER | kept.astype(np.uint32)
    up[after] = first[kept]
    before = np.concatenate([[n + 1], after[:-1]]).astype(np.int64)[:kept.size]
    down[before] = first[kept] + lengths[kept] - 1
    # each item's list: its nodes by net cost, input order among equals
    order = np.lexsort((node_of_entry, cost[node_of_entry], options.items))
    nodes = node_of_entry[order]
    items = options.items[order].astype(np.int64) + 1
    length = np.zeros(n + 1, np.int64)
    starts = np.searchsorted(items, np.arange(1, n + 2))
    for i in range(1, n + 1):
        ring = np.concatenate([[i], nodes[starts[i - 1]:starts[i]]]).astype(np.uint32)
        down[ring] = np.roll(ring, -1)
        up[ring] = np.roll(ring, 1)
        if i <= n1:
            length[i] = ring.size - 1
    prev = np.zeros(n + 2, np.uint32)
    nxt = np.zeros(n + 2, np.uint32)
    primary = np.arange(0, n1 + 1, dtype=np.uint32)          # the root and the primary items
    nxt[primary] = np.roll(primary, -1)
    prev[primary] = np.roll(primary, 1)
    secondary = np.concatenate([np.arange(n1 + 1, n + 1), [n + 1]]).astype(np.uint32)
    nxt[secondary] = np.roll(secondary, -1)
    prev[secondary] = np.roll(secondary, 1)
    return CostLinks(prev, nxt, length, itm, up, down, color, cost, np.uint32(n1 + 1), np.uint32(n + 1))


def copy(links: CostLinks) -> CostLinks:
    """A copy to search on (``itm`` and ``cost`` never change, so they are shared)."""
    return links._replace(prev=links.prev.copy(), next=links.next.copy(), length=links.length.copy(),
                          up=links.up.copy(), down=links.down.copy(), color=links.color.copy())


def start(links: CostLinks, k: int) -> Machine:
    """A machine for a new run that keeps the ``k`` cheapest solutions."""
    levels = int(links.second)                  # a solution has at most one option per primary item
    bestcost = np.full(k + 1, INFINITE, np.int64)
    bestcost[k] = 0
    return Machine(np.zeros(levels, np.uint32), np.zeros(levels, np.int64), np.zeros(levels, np.int64),
                   np.zeros(levels, np.int64), bestcost, np.zeros(3, np.int64), np.zeros(STATE_SIZE, np.int64))


@njit(cache=True, nogil=True)
def cover(c, thresh, L):
    """dlx5.w's ``cover(c, thresh)``: take item ``c`` out of its list and unlink from the other
    lists every option of ``c`` cheaper than ``thresh`` (cleansed nodes stay where they are);
    returns the updates."""
    prev, nxt, length, itm, up, down, color, cost, second, last_itm = L
    l = prev[c]
    r = nxt[c]
    nxt[l] = r
    prev[r] = l
    updates = 1
    rr = down[c]
    while rr >= last_itm and cost[rr] < thresh:
        nn = rr + ONE
        while nn != rr:
            if color[nn] >= 0:
                cc = itm[nn]
                if cc >= SPACER:
                    nn = up[nn]
                    continue
                uu = up[nn]
                dd = down[nn]
                down[uu] = dd
                up[dd] = uu
                updates += 1
                if cc < second:
                    length[cc] -= 1
            nn += ONE
        rr = down[rr]
    return updates


@njit(cache=True, nogil=True)
def uncover(c, thresh, L):
    """dlx5.w's ``uncover(c, thresh)``: the options cheaper than ``thresh`` back, going down as
    [`cover`][dlx.engines.dlx5.cover] did, then the item."""
    prev, nxt, length, itm, up, down, color, cost, second, last_itm = L
    rr = down[c]
    while rr >= last_itm and cost[rr] < thresh:
        nn = rr + ONE
        while nn != rr:
            if color[nn] >= 0:
                cc = itm[nn]
                if cc >= SPACER:
                    nn = up[nn]
                    continue
                uu = up[nn]
                dd = down[nn]
                down[uu] = nn
                up[dd] = nn
                if cc < second:
                    length[cc] += 1
            nn += ONE
        rr = down[rr]
    l = prev[c]
    r = nxt[c]
    nxt[l] = c
    prev[r] = c


@njit(cache=True, nogil=True)
def purify(p, thresh, L):
    """dlx5.w's ``purify(p, thresh)``: node ``p`` gives its secondary item colour ``x``; every
    option of that item cheaper than ``thresh`` with another colour is hidden, every other one
    with ``x`` cleansed. Returns ``(updates, cleansings)``."""
    prev, nxt, length, itm, up, down, color, cost, second, last_itm = L
    cc = itm[p]
    x = color[p]
    updates = 0
    cleansings = 1
    rr = down[cc]
    while rr >= last_itm and cost[rr] < thresh:
        if color[rr] != x:
            nn = rr + ONE
            while nn != rr:
                if color[nn] >= 0:
                    c = itm[nn]
                    if c >= SPACER:
                        nn = up[nn]
                        continue
                    uu = up[nn]
                    dd = down[nn]
                    down[uu] = dd
                    up[dd] = uu
                    updates += 1
                    if c < second:
                        length[c] -= 1
                nn += ONE
        elif rr != p:
            cleansings += 1
            color[rr] = -1
        rr = down[rr]
    return updates, cleansings


@njit(cache=True, nogil=True)
def unpurify(p, thresh, L):
    """dlx5.w's ``unpurify(p, thresh)``: [`purify`][dlx.engines.dlx5.purify] taken back, going down as it did."""
    prev, nxt, length, itm, up, down, color, cost, second, last_itm = L
    cc = itm[p]
    x = color[p]
    rr = down[cc]
    while rr >= last_itm and cost[rr] < thresh:
        if color[rr] < 0:
            color[rr] = x
        elif rr != p:
            nn = rr + ONE
            while nn != rr:
                if color[nn] >= 0:
                    c = itm[nn]
                    if c >= SPACER:
                        nn = up[nn]
                        continue
                    uu = up[nn]
                    dd = down[nn]
                    down[uu] = nn
                    up[dd] = nn
                    if c < second:
                        length[c] += 1
                nn += ONE
        rr = down[rr]


@njit(cache=True, nogil=True)
def choose(L, curcost, cutoffcost, lenthresh):
    """dlx5.w's "Set best_itm": ``(t, best)``, the usable options of the item to branch on and the
    item; ``t == 0`` when some active primary item has no usable option (the level is a dead end).
    (No early return or break: numba then keeps no reference counts in a leaf.)"""
    prev, nxt, length, itm, up, down, color, cost, second, last_itm = L
    t = np.int64(1) << 62
    tmpcost = np.int64(0)
    best = ZERO
    room = cutoffcost - curcost
    k = nxt[ZERO]
    while k != ZERO and t != 0:
        p = down[k]
        if p == k or cost[p] >= room:
            t = np.int64(0)         # no usable option: the level is a dead end
            best = k
        else:
            mincost = cost[p]
            s = np.int64(1)
            p = down[p]
            counted = True
            scanning = True
            while scanning:
                if p < last_itm or cost[p] >= room:
                    scanning = False        # s usable options in k's list
                elif s == t:
                    counted = False         # more than t: k cannot win
                    scanning = False
                elif s >= lenthresh:
                    s = length[k]           # content with an upper bound
                    scanning = False
                else:
                    p = down[p]
                    s += 1
            if counted and (s < t or (s == t and mincost > tmpcost)):
                t = s
                best = k
                tmpcost = mincost
            k = nxt[k]
    return t, best


@njit(cache=True, nogil=True)
def search(L, M, want, max_nodes, work, lenthresh, out, ends, paid):
    """Run until ``want`` more solutions, the end, ``max_nodes`` nodes, ``state[STOP]`` or about
    ``work`` updates; returns the solutions this call visited. Solution ``j`` is written as option
    numbers (level order) to ``out[ends[j-1]:ends[j]]`` and its net cost to ``paid[j]``; the call
    pauses when ``out`` could not hold one more. ``state[FLOOR] = f``: levels ``0..f-1`` take the
    nodes already in ``choice`` (a piece of a split search) and the run ends when it backs down to
    level ``f``."""
    choice, partcost, coverthresh0, coverthresh, bestcost, money, state = M
    nxt, itm, up, down, color, cost = L.next, L.itm, L.up, L.down, L.color, L.cost
    if not resumable(state):
        return 0
    phase = st.RUNNING
    nodes = state[NODES]
    updates = state[UPDATES]
    cleansings = state[CLEANSINGS]
    level = state[LEVEL]
    step = state[STEP]
    floor = state[FLOOR]
    curcost = money[CURCOST]
    nextcost = money[NEXTCOST]
    best = np.uint32(money[BEST])
    k = bestcost.size - 1
    cur = choice[level] if level < choice.size else ZERO
    poll = updates
    end = updates + work
    found = 0
    used = 0
    while True:
        if step == FORWARD:
            if updates >= poll:
                poll = updates + POLL
                if state[STOP] != 0:
                    phase = st.STOPPED
                    break
                if updates >= end:
                    break
            cutoffcost = bestcost[0]
            if level < floor:
                cur = choice[level]
                best = itm[cur]
            else:
                if nodes >= max_nodes:
                    phase = st.MAX_NODES
                    break
                nodes += 1
                t, best = choose(L, curcost, cutoffcost, lenthresh)
                if t == 0:
                    step = BACKDOWN
                    continue
                cur = down[best]
            partcost[level] = curcost
            choice[level] = cur
            nextcost = curcost + cost[cur]
            coverthresh0[level] = cutoffcost - nextcost
            updates += cover(best, coverthresh0[level], L)
            step = ADVANCE
        elif step == ADVANCE:
            thresh = bestcost[0] - nextcost
            coverthresh[level] = thresh
            pp = cur + ONE
            while pp != cur:
                cc = itm[pp]
                if cc >= SPACER:
                    pp = up[pp]
                    continue
                if color[pp] == 0:
                    updates += cover(cc, thresh, L)
                elif color[pp] > 0:
                    u, c = purify(pp, thresh, L)
                    updates += u
                    cleansings += c
                pp += ONE
            if nxt[ZERO] == ZERO:
                step = VISIT
                continue
            level += 1
            curcost = nextcost
            step = FORWARD
        elif step == VISIT:
            if nodes >= max_nodes:
                phase = st.MAX_NODES
                break
            nodes += 1              # a solution is a special node (7.2.2-(4))
            # the heap of the k best: the root (the dearest) leaves, nextcost sifts down
            h = 0
            hh = 2
            while hh <= k:
                if bestcost[hh] > bestcost[hh - 1]:
                    if nextcost < bestcost[hh]:
                        bestcost[h] = bestcost[hh]
                        h = hh
                    else:
                        break
                elif nextcost < bestcost[hh - 1]:
                    bestcost[h] = bestcost[hh - 1]
                    h = hh - 1
                else:
                    break
                hh = h + h + 2
            bestcost[h] = nextcost
            for l in range(level + 1):
                out[used + l] = option_of(choice[l], itm)
            used += level + 1
            paid[found] = nextcost
            found += 1
            ends[found - 1] = used
            step = RECOVER
            if found == want or found == ends.size or used + choice.size > out.size:
                break
        elif step == RECOVER:
            thresh = coverthresh[level]
            pp = cur - ONE
            while pp != cur:
                cc = itm[pp]
                if cc >= SPACER:
                    pp = down[pp]
                    continue
                if color[pp] == 0:
                    uncover(cc, thresh, L)
                elif color[pp] > 0:
                    unpurify(pp, thresh, L)
                pp -= ONE
            if level < floor:
                phase = st.COMPLETE     # a forced level has no other option in this piece
                break
            cur = down[cur]
            choice[level] = cur
            if cur == best:
                step = BACKUP
                continue
            nextcost = curcost + cost[cur]
            if nextcost >= bestcost[0]:
                step = BACKUP
                continue
            step = ADVANCE
        elif step == BACKUP:
            uncover(best, coverthresh0[level], L)
            step = BACKDOWN
        else:   # BACKDOWN
            if level == floor:
                phase = st.COMPLETE
                break
            level -= 1
            cur = choice[level]
            best = itm[cur]
            curcost = partcost[level]
            step = RECOVER
    money[CURCOST] = curcost
    money[NEXTCOST] = nextcost
    money[BEST] = best
    settle(state, phase, level, step, nodes, updates, cleansings, found)
    return found


@njit(cache=True, nogil=True)
def root_options(L, lenthresh):
    """The nodes of the item a run would branch on at level 0, in the order it tries them (the
    pieces of a split search); empty when the root is a dead end."""
    t, best = choose(L, np.int64(0), INFINITE, lenthresh)
    if t == 0:
        return np.zeros(0, np.uint32)
    found = []
    p = L.down[best]
    while p != best:
        found.append(p)
        p = L.down[p]
    return np.array(found, dtype=np.uint32)


def check(links: CostLinks, pristine: CostLinks) -> None:
    """Raise [`StructureError`][dlx.engines.dlx5.StructureError] unless ``links`` equal the structure as
    built (``pristine``) in every array: what a run leaves behind. Cost: linear in the size of the
    problem."""
    for name in ("prev", "next", "length", "up", "down", "color"):
        if not np.array_equal(getattr(links, name), getattr(pristine, name)):
            raise StructureError(f"dlx5: {name} differs from the structure as built")


class DLX5:
    """Knuth's DLX5: the facts the registry reads ([`dlx.engines.OPTIMISERS`][dlx.engines.OPTIMISERS]). Not an engine of
    [`dlx.engines.ENGINES`][dlx.engines.ENGINES]: it keeps the ``k`` cheapest solutions rather than visit every one,
    and [`dlx.cheapest`][dlx.cheapest] drives it."""

    name = "dlx5"
    summary = "Knuth's DLX5: the k cheapest solutions of a problem whose options have costs (DLX2's colours too)"
    counts = ("DLX5's: nodes: levels entered (dead ends included) plus one per solution found (each beats the "
              "k-th best so far); updates: items covered plus nodes unlinked, only options under the cutoff "
              "hidden; cleansings: items purified plus nodes cleansed")
    refuses = "multiplicities (bounds)"
    tunables: dict = {}
    samples = (("weighted_queens", (5,)), ("weighted_graceful", (((0, 1), (1, 2)),)))
    searches = (search,)
