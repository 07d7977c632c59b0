"""Binary branching on dancing cells: Knuth's SSXCC-BINARY (2023) and SSMCC (Stappers and Knuth,
2023), with the heuristics of his change files ssxcc-frb/ssxcc-wtd and ssmcc-frb/ssmcc-wtd.

Every node of the search tree is an item ``i`` and an option ``o`` of it. The left child takes ``o``
(covers ``i`` with it: one more *stage*); the right child drops ``o`` and leaves ``i`` to be covered
by another option (the same stage, one more *level*), unless ``o`` was ``i``'s last. The d-way
search of `cells` tries the ``d`` options of ``i`` one after another; here the right child
chooses its item again, so a heuristic that learns from the search can turn elsewhere:

* ``mrv`` (minimum remaining values, Knuth's default): the active primary item with the fewest
  options (with multiplicities: the least branching degree ``size + min(slack, bound) - bound + 1``,
  then the least slack, then the longest list);
* ``frb`` (failure-rate based, Li, Yin and Li 2021): each item's failure rate, the share of its
  assignments that wiped out another primary item, starts at 1/2 (one assignment); the item with
  the least ``size / rate`` is chosen;
* ``wtd`` (weighted degree, Boussemart, Hemery, Lecoutre and Sais 2004): an item's weight grows by
  ``dw`` each time an assignment wipes it out (``dw`` then multiplied by ``dwfactor``); the item
  with the least ``size / weight`` is chosen.

Ties go to the first item of the problem. An item with one option left (with multiplicities: as
many as its bound less its slack) is *forced*: it is taken without branching (``deg`` 1, no right
child). A weight is 32-bit floating point, computed as Knuth's C computes it, so the searches are
his, node for node.

The layout is Knuth's. ``set`` holds per item, before its options, ``slack`` (``x-5``), ``bound``
(``x-4``: the options it still needs at most), its number (``x-3``), ``pos`` (``x-2``: its place in
``item``) and ``size`` (``x-1``); its live options are ``set[x .. x+size)``. One list ``item``
holds the active items, primary and secondary mixed, in its first ``active`` places. Node ``y`` (an
even index of ``nd``) has ``itm = nd[y]`` and ``loc = nd[y+1]`` with ``set[loc] = y``; the spacer
after an option of ``t`` entries has ``itm = SPACER | t`` (Knuth's ``-t``) and ``loc`` the option's
number; every index is unsigned (as in `cells`). Taking an option swaps the options that clash
with it out of their other items' sets (each an *update*) and its items out of the active list;
with multiplicities a primary item's bound goes down by one and the item stays active (only the
option leaves its set) until the bound reaches 0. Leaving an option out
(the right child) swaps it out of its items' sets. On entering a branching node the sizes (and
bounds) of the active items are saved per stage; a backtrack restores them.

Counts, as the programs count: a node per level entered (solutions and forced levels included), an
update per option swapped out of a set. Solutions come in another order than the d-way search's
(the same solutions, as sets).

Steps, as ssxcc-binary.w's labels: ``FORWARD`` (a node: a forced move, a solution, or choose and
save), ``ADVANCE`` (take the level's option; learn from success or failure), ``PURGEIT`` (the right
child: restore the stage's sizes and drop the option), ``BACKUP`` (leave the stage; Knuth's
``backup``), ``PREBACKUP`` (pop the stage's saves first). A level of a split search's path is its
choice, a node; the high bit ``REJECTED`` marks a right child (the node was dropped, not taken).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .. import status as st
from .base import (
    FLOOR,
    LEAVE,
    LEVEL,
    NODES,
    PHASE,
    POLL,
    STATE_SIZE,
    STEP,
    STOP,
    UPDATES,
    BinarySearch,
    Options,
    StructureError,
    ceiling_of,
    refuse_trace,
    resumable,
    settle,
)

FORWARD, ADVANCE, PURGEIT, BACKUP, PREBACKUP = range(5)
assert BACKUP == LEAVE
#: More slots of the machine's ``state``: Knuth's ``stage``, ``saveptr``, ``active``, ``forced``,
#: ``best_itm`` and ``t`` (the degree of the current node), and a request for a larger save stack.
STAGE, SAVEPTR, ACTIVE, FORCED, BEST, DEGREE, GROW = range(STATE_SIZE, STATE_SIZE + 7)
BINARY_STATE_SIZE = STATE_SIZE + 7
#: Words of ``set`` before each item's options.
EXTRA = 5
#: The bit of a choice that marks a dropped option (a right child) in a path, and the node's bits.
REJECTED = np.uint32(0x80000000)
NODE = np.uint32(0x7FFFFFFF)
#: A spacer's ``itm``: this bit and the length of the option before it.
SPACER = np.uint32(0x80000000)
NO_OPTION = np.uint32(0xFFFFFFFF)
ZERO, ONE, TWO, THREE, FOUR, FIVE = (np.uint32(k) for k in range(6))
INF_SIZE = 0x7FFFFFFF
MRV, FRB, WTD = 0, 1, 2
HEURISTICS = {"mrv": MRV, "frb": FRB, "wtd": WTD}
DANGEROUS = np.float32(1e32)
INFTY = np.float32(2e32)
WMIN = np.float32(1e-30)
RESCALE = np.float32(1e-20)
#: The save stack starts with room for this many words, and doubles when a search needs more.
STACK_START = 1 << 12


class BinaryStructure(NamedTuple):
    """The sparse sets of one problem (``origin_*``: as built, shared by copies)."""

    item: np.ndarray          # uint32: set index of each item; the first ``active`` are active
    set: np.ndarray           # uint32: per item slack, bound, number, pos, size, then its options' nodes
    nd: np.ndarray            # uint32: per node itm, loc (spacers: SPACER | length, option number)
    clr: np.ndarray           # uint32: per node (index y // 2) its colour; empty without colours
    origin_item: np.ndarray
    origin_set: np.ndarray
    origin_nd: np.ndarray
    second: np.int64          # the first secondary item's set index (primary items lie below)
    active: np.int64          # active items as built (items without options are not)
    mcc: bool                 # multiplicities: SSMCC's rules
    bad: bool                 # a primary item has too few options: no search
    stages: int               # the most options a solution can hold


class BinaryMachine:
    """A run's state: ``choice[level]`` (a node; ``REJECTED`` set on a right child), ``deg[level]``,
    ``stagelevel[level]``, ``levelstage[stage]``, ``saved[stage]`` (where the stage's saves start in
    ``stack``), ``stack`` (item, size and, with multiplicities, bound of every active item), ``force``
    (Knuth's stack of forced items), ``weight`` (per item number: the failure rate or the weight,
    then the assignments; float32) and ``knobs`` (``dw``, ``dwfactor``)."""

    first_tweak = None

    def __init__(self, structure: BinaryStructure, heuristic: int, dw: float, dwfactor: float) -> None:
        n_items = structure.item.size
        levels = structure.nd.size // 2 + 2      # a path takes or drops each option at most once
        self.choice = np.zeros(levels, np.uint32)
        self.deg = np.zeros(levels, np.int32)
        self.stagelevel = np.zeros(levels, np.int64)
        self.levelstage = np.zeros(structure.stages + 2, np.int64)
        self.saved = np.zeros(structure.stages + 2, np.int64)
        self.stack = np.zeros(STACK_START, np.uint32)
        self.force = np.zeros(structure.set.size + 1, np.uint32)
        self.weight = np.zeros((n_items, 2), np.float32)
        self.weight[:, 0] = 0.5 if heuristic == FRB else 1.0
        self.weight[:, 1] = 1.0
        self.knobs = np.array([dw, dwfactor], np.float32)
        self.heuristic = heuristic
        self.state = np.zeros(BINARY_STATE_SIZE, np.int64)
        self.state[ACTIVE] = structure.active

    def grow(self) -> None:
        """Double the save stack, keeping what it holds."""
        bigger = np.zeros(2 * self.stack.size, np.uint32)
        bigger[:self.stack.size] = self.stack
        self.stack = bigger
        self.state[GROW] = 0

    def arrays(self) -> tuple:
        return (self.choice, self.deg, self.stagelevel, self.levelstage, self.saved, self.stack, self.force,
                self.weight, self.knobs, self.state)


def build(options: Options) -> BinaryStructure:
    """The sparse sets of a problem, as Knuth's programs read it: items in order, each item's
    options in option order. Cost: linear in the size of the problem."""
    n_nodes = options.items.size + options.start.size
    if 2 * n_nodes >= 1 << 31:
        raise ValueError(f"{options.items.size:,} option entries are too many for binary branching "
                         "(at most about 2**30): the dlx engine takes them")
    bounds = options.bounds
    mcc = bounds is not None
    n1 = options.n_primary
    if bounds is not None:
        lo = bounds[:, 0].astype(np.int64)
        hi = bounds[:, 1].astype(np.int64)
    else:
        lo = hi = np.ones(n1, np.int64)
    colours = np.zeros(0, np.uint32) if options.colours is None else options.colours.astype(np.uint32)
    item, sets, nd, clr, second, active, bad = _build(options.start, options.items, colours, options.n_items,
                                                      n1, lo, hi, mcc)
    stages = n1 if not mcc else min(int(hi.sum()), options.start.size - 1)
    return BinaryStructure(item, sets, nd, clr, item.copy(), sets.copy(), nd.copy(), np.int64(second),
                           np.int64(active), mcc, bool(bad), stages)


@njit(cache=True, nogil=True)
def _build(option_start, option_items, option_colours, n_items, n_primary, lo, hi, mcc):
    n_options = option_start.size - 1
    lengths = np.zeros(n_items, np.int64)
    for k in range(option_items.size):
        lengths[option_items[k]] += 1
    item = np.empty(n_items, np.uint32)
    x = EXTRA
    second = 0
    for i in range(n_items):
        if i == n_primary:
            second = x
        item[i] = x
        x += lengths[i] + EXTRA
    if n_primary == n_items:
        second = x
    sets = np.zeros(x, np.uint32)
    for i in range(n_items):
        x = item[i]
        sets[x - 3] = i
        sets[x - 2] = i
        if i < n_primary:
            sets[x - 4] = hi[i]
            sets[x - 5] = hi[i] - lo[i]
    n_nodes = option_items.size + n_options + 1
    nd = np.zeros(2 * n_nodes, np.uint32)
    coloured = option_colours.size > 0
    clr = np.zeros(n_nodes if coloured else 0, np.uint32)
    nd[0] = SPACER
    nd[1] = NO_OPTION
    y = 2
    for o in range(n_options):
        first = y
        for k in range(option_start[o], option_start[o + 1]):
            c = item[option_items[k]]
            loc = c + sets[c - 1]
            sets[c - 1] += 1
            sets[loc] = y
            nd[y] = c
            nd[y + 1] = loc
            if coloured:
                clr[y >> 1] = option_colours[k]
            y += 2
        nd[y] = SPACER | ((y - first) >> 1)
        nd[y + 1] = o
        y += 2
    active = n_items
    bad = False
    for i in range(n_primary):
        x = item[i]
        if np.int64(sets[x - 1]) < np.int64(sets[x - 4]) - np.int64(sets[x - 5]) or (not mcc and sets[x - 1] == 0):
            bad = True
    if mcc:
        # SSMCC makes the items without options invisible, the first item first
        for x in item.copy():
            if sets[x - 1] == 0:
                active -= 1
                p = sets[x - 2]
                other = item[active]
                item[active] = x
                item[p] = other
                sets[x - 2] = active
                sets[other - 2] = p
    return item, sets, nd, clr, second, active, bad


def copy(structure: BinaryStructure) -> BinaryStructure:
    """A copy to search on; what never changes (``clr``, the origin) is shared."""
    return structure._replace(item=structure.item.copy(), set=structure.set.copy(), nd=structure.nd.copy())


@njit(cache=True, nogil=True)
def restore(item, sets, nd, origin_item, origin_set, origin_nd):
    """The sets exactly as built."""
    item[:] = origin_item
    sets[:] = origin_set
    nd[:] = origin_nd


@njit(cache=True, nogil=True)
def option_of(y, nd):
    """The number of the option that node ``y`` belongs to (read from the spacer after it; the
    ``REJECTED`` bit of a choice is ignored)."""
    y = np.uint32(y) & NODE
    while nd[y] < SPACER:
        y += TWO
    return nd[y + ONE]


# The leaves below take arrays, never the record (see .base: a search calls leaves only). Every
# index is unsigned, as in .cells: numba then spends no test on a negative index.


@njit(cache=True, nogil=True)
def include(opt, item, sets, nd, clr, second, state, force):
    """SSXCC-BINARY's ``include_option``: take the option of node ``opt``. Each active item of it
    in turn: swap the options that clash with ``opt`` out of their other sets (from the end of the
    item's set down), then swap the item out of the active list. An item left with one option is
    pushed on ``force``; one left with none stops the take (``forced`` emptied). Returns ``(ok,
    updates, tough)``, ``tough`` the item wiped out."""
    coloured = clr.size > 0
    active = np.uint32(state[ACTIVE])
    forced = np.uint32(state[FORCED])
    updates = 0
    while nd[opt - TWO] < SPACER:
        opt -= TWO
    while nd[opt] < SPACER:
        ii = nd[opt]
        pp = nd[opt + ONE]
        p = sets[ii - TWO]
        if p < active:
            c = ZERO
            if ii >= second and coloured:
                c = clr[opt >> ONE]
            s = ii + sets[ii - ONE]
            while s > ii:
                s -= ONE
                if s == pp:
                    continue
                optp = sets[s]
                if c != 0 and clr[optp >> ONE] == c:
                    continue
                nn = optp
                while nd[nn - TWO] < SPACER:
                    nn -= TWO
                while nd[nn] < SPACER:
                    if nn != optp:
                        i2 = nd[nn]
                        p2 = nd[nn + ONE]
                        if p2 >= second and sets[i2 - TWO] >= active:
                            nn += TWO
                            continue
                        s2 = sets[i2 - ONE] - ONE
                        if s2 <= ONE and p2 < second:
                            if s2 == 0:
                                state[ACTIVE] = active
                                state[FORCED] = 0
                                return False, updates, i2
                            force[forced] = i2
                            forced += ONE
                        nnp = sets[i2 + s2]
                        sets[i2 - ONE] = s2
                        sets[i2 + s2] = nn
                        sets[p2] = nnp
                        nd[nn + ONE] = i2 + s2
                        nd[nnp + ONE] = p2
                        updates += 1
                    nn += TWO
            active -= ONE
            iii = item[active]
            item[active] = ii
            item[p] = iii
            sets[ii - TWO] = active
            sets[iii - TWO] = p
        opt += TWO
    state[ACTIVE] = active
    state[FORCED] = forced
    return True, updates, ZERO


@njit(cache=True, nogil=True)
def include_mcc(opt, item, sets, nd, clr, second, state):
    """SSMCC's ``include_option``: take the option of node ``opt``. Each active item of it in
    order: a primary item's bound drops by one; an item whose bound reaches 0 (every secondary
    item) is covered: the options that clash with ``opt`` leave every set they are in, then the item
    leaves the active list; an item still open only loses ``opt`` from its set. An item left with
    fewer options than its bound needs beyond its slack stops the take (``forced`` emptied).
    Returns ``(ok, updates, tough)``, ``tough`` the item that could not be covered. Its own leaf
    (not spelled out in [`search`][dlx.search]): the cover's loops then get registers of their own."""
    coloured = clr.size > 0
    active = np.uint32(state[ACTIVE])
    updates = 0
    tough = ZERO      # (a flag, not early returns: numba counts references in a leaf with those)
    while nd[opt - TWO] < SPACER:
        opt -= TWO
    while nd[opt] < SPACER and tough == 0:
        ii = nd[opt]
        pp = nd[opt + ONE]
        p = sets[ii - TWO]
        if p >= active:
            opt += TWO            # a secondary item purified already (a primary one cannot be)
            continue
        if ii < second:
            sets[ii - FOUR] -= ONE
        if ii >= second or sets[ii - FOUR] == 0:
            c = ZERO
            if ii >= second and coloured:
                c = clr[opt >> ONE]
            s = ii + sets[ii - ONE]
            while s > ii and tough == 0:
                s -= ONE
                if s == pp:
                    continue
                optp = sets[s]
                if c != 0 and clr[optp >> ONE] == c:
                    continue
                nn = optp
                while nd[nn - TWO] < SPACER:
                    nn -= TWO
                while nd[nn] < SPACER and tough == 0:
                    i2 = nd[nn]
                    p2 = nd[nn + ONE]
                    if p2 >= second and sets[i2 - TWO] >= active:
                        nn += TWO
                        continue
                    s2 = sets[i2 - ONE] - ONE
                    if p2 < second and s2 + sets[i2 - FIVE] < sets[i2 - FOUR]:
                        tough = i2
                        continue
                    if p2 < second and s2 == 0:
                        active -= ONE
                        iii = item[active]
                        r = sets[i2 - TWO]
                        item[active] = i2
                        item[r] = iii
                        sets[i2 - TWO] = active
                        sets[iii - TWO] = r
                    if s2 > 0:
                        nnp = sets[i2 + s2]
                        sets[i2 - ONE] = s2
                        sets[i2 + s2] = nn
                        sets[p2] = nnp
                        nd[nn + ONE] = i2 + s2
                        nd[nnp + ONE] = p2
                        updates += 1
                    nn += TWO
            if tough == 0:
                p = sets[ii - TWO]
                active -= ONE
                iii = item[active]
                item[active] = ii
                item[p] = iii
                sets[ii - TWO] = active
                sets[iii - TWO] = p
        else:
            ss = sets[ii - ONE] - ONE
            if ss + sets[ii - FIVE] < sets[ii - FOUR]:
                tough = ii
            elif ss == 0:   # the item's last option: it leaves the active list
                active -= ONE
                iii = item[active]
                item[active] = ii
                item[p] = iii
                sets[ii - TWO] = active
                sets[iii - TWO] = p
            else:           # the option leaves the item's set
                nnp = sets[ii + ss]
                sets[ii - ONE] = ss
                sets[ii + ss] = opt
                sets[pp] = nnp
                nd[opt + ONE] = ii + ss
                nd[nnp + ONE] = pp
                updates += 1
        opt += TWO
    state[ACTIVE] = active
    state[FORCED] *= tough == 0
    return tough == 0, updates, tough


@njit(cache=True, nogil=True)
def drop(cur, item, sets, nd, second, state, mcc):
    """``Remove the option cur_choice``: swap the option of node ``cur`` out of the sets of its
    active items (the right child). With multiplicities an item left with fewer options than it
    needs stops it (returns ``ok`` False: the stage is over), and one left with none leaves the
    active list. Returns ``(ok, updates)``."""
    active = np.uint32(state[ACTIVE])
    updates = 0
    while nd[cur - TWO] < SPACER:
        cur -= TWO
    while nd[cur] < SPACER:
        ii = nd[cur]
        p = nd[cur + ONE]
        if p >= second and sets[ii - TWO] >= active:
            cur += TWO
            continue
        ss = sets[ii - ONE] - ONE
        if mcc and p < second:
            if ss + sets[ii - FIVE] < sets[ii - FOUR]:      # fewer options than the item needs
                state[ACTIVE] = active
                return False, updates
            if ss == 0:
                active -= ONE
                iii = item[active]
                q = sets[ii - TWO]
                item[active] = ii
                item[q] = iii
                sets[ii - TWO] = active
                sets[iii - TWO] = q
        if not mcc or ss > 0:
            nnp = sets[ii + ss]
            sets[ii - ONE] = ss
            sets[ii + ss] = cur
            sets[p] = nnp
            nd[cur + ONE] = ii + ss
            nd[nnp + ONE] = p
            updates += 1
        cur += TWO
    state[ACTIVE] = active
    return True, updates


@njit(cache=True, nogil=True, error_model="numpy")
def choose(item, sets, second, state, force, weight, heuristic, mcc):
    """``Set best_itm to the best item for branching``: push every forced item on ``force`` (with
    multiplicities, as many times as it needs options), and set ``state[BEST]`` to the item to
    branch on and ``state[DEGREE]`` to its degree (``INF_SIZE``: no primary item is active, a
    solution). The score is the degree (``mrv``), or the degree divided by the item's weight or
    failure rate, in 32-bit floating point as Knuth's C divides. (numpy's error model: a weight is
    never 0, and a division that could raise would keep reference counts in the search's loop.)"""
    active = np.uint32(state[ACTIVE])
    forced = np.uint32(state[FORCED])
    score = INF_SIZE
    fscore = INFTY
    best = ZERO
    best_s = 0
    best_l = 0
    k = ZERO
    while k < active:
        x = item[k]
        k += ONE
        if x >= second:
            continue
        size = np.int64(sets[x - ONE])
        length = 0
        if mcc:
            length = size
            b = np.int64(sets[x - FOUR])
            s = np.int64(sets[x - FIVE])
            if s > b:
                s = b
            t = size + s - b + 1
            if t == 1:
                for _ in range(b - np.int64(sets[x - FIVE])):
                    force[forced] = x
                    forced += ONE
                continue
        else:
            s = 0
            t = size
            if t <= 1:
                if t == 1:
                    force[forced] = x
                    forced += ONE
                continue
        if heuristic == MRV:
            if t <= score and (t < score or (s <= best_s and (s < best_s or (
                    length >= best_l and (length > best_l or x < best))))):
                score = t
                best = x
                best_s = s
                best_l = length
        else:
            w = weight[sets[x - THREE], 0]
            tscore = np.float32(np.float64(np.float32(t)) / np.float64(w))
            if tscore >= INFTY:
                tscore = DANGEROUS
            if tscore <= fscore and (tscore < fscore or (s <= best_s and (s < best_s or (
                    length >= best_l and (length > best_l or x < best))))):
                score = t
                fscore = tscore
                best = x
                best_s = s
                best_l = length
    state[FORCED] = forced
    state[BEST] = best
    state[DEGREE] = score


@njit(cache=True, nogil=True)
def choose_mrv(item, sets, second, active, force, forced):
    """[`choose`][dlx.engines.choose] for SSXCC-BINARY's own heuristic, the common case, in fewer steps: the item
    with the fewest options (at least two), the first item on ties, every item with one option
    pushed on ``force``. Returns ``(best, size, forced)``, size ``INF_SIZE`` when no primary item
    is active."""
    t = np.uint32(INF_SIZE)
    best = ZERO
    k = ZERO
    while k < active:
        x = item[k]
        k += ONE
        if x < second:
            s = sets[x - ONE]
            if s <= ONE:
                if s == ONE:
                    force[forced] = x
                    forced += ONE
            elif s <= t:
                if s < t:
                    best = x
                    t = s
                elif x < best:
                    best = x
    return best, t, forced


@njit(cache=True, nogil=True)
def choose_mcc(item, sets, second, active, force, forced):
    """[`choose`][dlx.engines.choose] for SSMCC's own heuristic: the least branching degree ``size + min(slack,
    bound) - bound + 1``, then the least slack, then the longest list, then the first item; an item
    of degree 1 pushed on ``force`` as many times as it needs options. Returns ``(best, degree,
    forced)``."""
    score = INF_SIZE
    best = ZERO
    best_s = 0
    best_l = 0
    k = ZERO
    while k < active:
        x = item[k]
        k += ONE
        if x < second:
            size = np.int64(sets[x - ONE])
            b = np.int64(sets[x - FOUR])
            slack = np.int64(sets[x - FIVE])
            s = slack if slack < b else b
            t = size + s - b + 1
            if t == 1:
                for _ in range(b - slack):
                    force[forced] = x
                    forced += ONE
            elif t <= score and (t < score or (s <= best_s and (s < best_s or (
                    size >= best_l and (size > best_l or x < best))))):
                score = t
                best = x
                best_s = s
                best_l = size
    return best, score, forced


@njit(cache=True, nogil=True, error_model="numpy")
def learn_frb(ok, i, weight):
    """FRB: one more assignment to item number ``i``; its failure rate moves towards 1 (a failure)
    or 0, as ssxcc-frb.ch computes it (the float sums in double, as C promotes ``1.0``)."""
    assigns = np.float32(np.float64(weight[i, 1]) + 1.0)
    weight[i, 1] = assigns
    rate = weight[i, 0]
    if ok:
        weight[i, 0] = np.float32(rate - np.float32(rate / assigns))
    else:
        r = np.float64(rate)
        weight[i, 0] = np.float32(r + (1.0 - r) / np.float64(assigns))


@njit(cache=True, nogil=True, error_model="numpy")
def learn_wtd(i, weight, knobs):
    """WTD: item number ``i`` was wiped out: its weight grows by ``dw``, and ``dw`` by its factor.
    True when the weight has grown dangerously large (`rescale` is due)."""
    dw = knobs[0]
    w = np.float32(weight[i, 0] + dw)
    weight[i, 0] = w
    knobs[0] = np.float32(dw * knobs[1])
    return w >= DANGEROUS


@njit(cache=True, nogil=True, error_model="numpy")
def rescale(sets, weight, knobs, item, second):
    """Every primary item's weight, and ``dw``, times 1e-20 (at least 1e-30), as Knuth rescales."""
    for k in range(item.size):
        x = item[k]
        if x < second:
            j = sets[x - THREE]
            t = np.float32(weight[j, 0] * RESCALE)
            if t < WMIN:
                t = WMIN
            weight[j, 0] = t
    dw = np.float32(knobs[0] * RESCALE)
    if dw < WMIN:
        dw = WMIN
    knobs[0] = dw


@njit(cache=True, nogil=True)
def search(B, choice, deg, stagelevel, levelstage, saved, stack, force, weight, knobs, state, heuristic, want,
           max_nodes, work, out, ends):
    """Run until ``want`` more solutions, the end, ``max_nodes`` nodes, ``state[STOP]``, about
    ``work`` updates, or a full save stack (``state[GROW]`` set: grow it and call again); returns
    the solutions this call visited, written as in `dlx1.search` (the options taken, in stage
    order). ``state[FLOOR] = f``: levels ``0..f-1`` replay the path in ``choice`` (a node taken, or
    dropped when ``REJECTED``) and the run ends when it backs up to one of them;
    ``state[CEILING]`` pauses it (phase SPLIT) at a level, as [`base`][dlx.engines.base] says."""
    item, sets, nd, clr = B.item, B.set, B.nd, B.clr
    second = np.uint32(B.second)
    mcc = B.mcc
    if not resumable(state):
        return 0
    phase = st.RUNNING
    record = ends.size > 0
    updates = state[UPDATES]
    nodes = state[NODES]
    level = state[LEVEL]
    step = state[STEP]
    floor = state[FLOOR]
    ceiling = ceiling_of(state)
    stage = state[STAGE]
    saveptr = np.uint64(state[SAVEPTR])
    best = np.uint32(state[BEST])
    t = state[DEGREE]
    stride = THREE if mcc else TWO
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
            if saveptr + stride * np.uint64(state[ACTIVE]) > np.uint64(stack.size):
                state[GROW] = 1
                break
            if level < floor:
                # a level of the path: take its node, or drop it
                v = choice[level]
                if v < REJECTED:
                    step = ADVANCE
                    continue
                ok, u = drop(v & NODE, item, sets, nd, second, state, mcc)
                if level + 1 >= floor:
                    updates += u
                if not ok:
                    phase = st.COMPLETE
                    break
                level += 1
                stagelevel[level] = stage
                levelstage[stage] = level
                continue
            if nodes >= max_nodes:
                phase = st.MAX_NODES
                break
            if B.bad:
                phase = st.COMPLETE     # a primary item with too few options: no search, as Knuth's
                break
            if level == ceiling:
                phase = st.SPLIT
                step = BACKUP
                state[FORCED] = 0       # the piece's forced moves, not this run's
                break
            nodes += 1
            # Maybe do a forced move
            while state[FORCED] > 0:
                f = state[FORCED] - 1
                state[FORCED] = f
                x = force[f]
                if sets[x - TWO] < np.uint32(state[ACTIVE]):
                    best = x
                    step = ADVANCE
                    break
            if step != ADVANCE:
                if heuristic != MRV:
                    choose(item, sets, second, state, force, weight, heuristic, mcc)
                elif mcc:
                    b, degree, f = choose_mcc(item, sets, second, np.uint32(state[ACTIVE]), force,
                                              np.uint32(state[FORCED]))
                    state[BEST] = b
                    state[DEGREE] = degree
                    state[FORCED] = f
                else:
                    b, size, f = choose_mrv(item, sets, second, np.uint32(state[ACTIVE]), force,
                                            np.uint32(state[FORCED]))
                    state[BEST] = b
                    state[DEGREE] = size
                    state[FORCED] = f
                if state[FORCED] > 0:
                    f = state[FORCED] - 1
                    state[FORCED] = f
                    best = force[f]
                    step = ADVANCE
            if step == ADVANCE:
                saved[stage] = saveptr       # a forced move saves nothing
                t = 1
                continue
            best = np.uint32(state[BEST])
            t = state[DEGREE]
            if t == INF_SIZE:
                # every primary item is covered: visit the options of stages 0..stage-1
                found += 1
                if record:
                    for k in range(stage):
                        out[used + k] = option_of(choice[levelstage[k]], nd)
                    used += stage
                    ends[found - 1] = used
                step = BACKUP
                if found == want or (record and (found == ends.size or used + levelstage.size > out.size)):
                    break
                continue
            saved[stage] = saveptr           # Save the currently active items and their sizes
            a = np.uint32(state[ACTIVE])
            k = ZERO
            while k < a:
                x = item[k]
                k += ONE
                stack[saveptr] = x
                stack[saveptr + ONE] = sets[x - ONE]
                if mcc:
                    stack[saveptr + TWO] = sets[x - FOUR]
                saveptr += stride
            step = ADVANCE
        elif step == ADVANCE:
            if level < floor:
                v = choice[level]
                deg[level] = 1
            else:
                v = sets[best]
                choice[level] = v
                deg[level] = t
            if mcc:
                ok, u, tough = include_mcc(v, item, sets, nd, clr, second, state)
            else:
                ok, u, tough = include(v, item, sets, nd, clr, second, state, force)
            if floor <= level + 1 < ceiling:
                updates += u
            if level >= floor:
                if heuristic == FRB:
                    learn_frb(ok, sets[best - THREE], weight)
                elif heuristic == WTD and not ok:
                    if learn_wtd(sets[tough - THREE], weight, knobs):
                        rescale(sets, weight, knobs, item, second)
            if ok:
                stage += 1
                level += 1
                stagelevel[level] = stage
                levelstage[stage] = level
                step = FORWARD
            elif level < floor:
                phase = st.COMPLETE         # the path clashes: the piece is empty
                break
            else:
                step = PURGEIT        # Knuth's tryagain: the same test of the degree
        elif step == PURGEIT:
            if deg[level] == 1:
                step = PREBACKUP
                continue
            n = 0                   # Restore the currently active items and their sizes
            p = np.uint64(saved[stage])
            while p < saveptr:
                x = stack[p]
                sets[x - ONE] = stack[p + ONE]
                if mcc and x < second:
                    sets[x - FOUR] = stack[p + TWO]
                n += 1
                p += stride
            state[ACTIVE] = n
            saveptr = np.uint64(saved[stage])
            cur = choice[level]
            choice[level] = cur | REJECTED
            ok, u = drop(cur, item, sets, nd, second, state, mcc)
            if floor <= level + 1 < ceiling:
                updates += u
            if not ok:
                step = PREBACKUP
                continue
            level += 1
            stagelevel[level] = stage
            levelstage[stage] = level
            step = FORWARD
        elif step == PREBACKUP:
            saveptr = np.uint64(saved[stage])
            step = BACKUP
        else:  # BACKUP
            stage -= 1
            if stage < 0 or levelstage[stage] < floor:
                stage += 1
                phase = st.COMPLETE
                break
            level = levelstage[stage]
            step = PURGEIT
    state[STAGE] = stage
    state[SAVEPTR] = saveptr
    state[BEST] = best
    state[DEGREE] = t
    settle(state, phase, level, step, nodes, updates, 0, found)
    return found


@njit(cache=True, nogil=True)
def unwind(item, sets, nd, origin_item, origin_set, origin_nd, state, active):
    """Put the sets back as built: the search is over."""
    restore(item, sets, nd, origin_item, origin_set, origin_nd)
    state[LEVEL] = 0
    state[STEP] = FORWARD
    state[STAGE] = 0
    state[SAVEPTR] = 0
    state[FORCED] = 0
    state[ACTIVE] = active
    if state[PHASE] != st.COMPLETE:
        state[PHASE] = st.STOPPED


def applied(B: BinaryStructure, machine: BinaryMachine) -> tuple[list[int], list[int]]:
    """The options a paused run has taken and those it has dropped (numbers), in level order."""
    taken: list[int] = []
    dropped: list[int] = []
    for level in range(int(machine.state[LEVEL])):
        v = int(machine.choice[level])
        (dropped if v & int(REJECTED) else taken).append(int(option_of(np.uint32(v), B.nd)))
    return taken, dropped


def check(B: BinaryStructure, problem: Options, machine: BinaryMachine | None = None) -> None:
    """Raise `StructureError` unless the sets are exactly what ``problem`` gives with the
    options the paused run ``machine`` has taken and dropped (none: as built), as sets (the order
    within a set dances): ``pos`` inverts ``item``, ``loc`` inverts ``set``, the active items are
    those still to be covered (with multiplicities: those with a bound and options left), each with
    its bound and the live options that every taken option allows. Cost: linear in the size of the
    problem times the options taken (Python; for tests)."""
    taken, dropped = applied(B, machine) if machine is not None else ([], [])
    active = int(B.active if machine is None else machine.state[ACTIVE])
    start, ids, colours = problem.start, problem.items, problem.colours
    n1, n_items = problem.n_primary, problem.n_items
    item, sets, nd = B.item.tolist(), B.set.tolist(), B.nd.tolist()
    index = {int(x): int(B.origin_set[x - 3]) for x in B.origin_item}
    base = sorted(index, key=index.__getitem__)       # each item's set index, by its number
    for k, x in enumerate(item):
        if x not in index or sets[x - 2] != k:
            raise StructureError(f"item[{k}] = {x} and pos disagree")
    for o in range(start.size - 1):
        first = 2 * (1 + int(start[o]) + o)
        for j, k in enumerate(range(start[o], start[o + 1])):
            y = first + 2 * j
            x = base[ids[k]]
            if nd[y] != x or not x <= nd[y + 1] < x + int(B.origin_set[x - 1]) or sets[nd[y + 1]] != y:
                raise StructureError(f"node {y} of option {o} is wrong")
        spacer = first + 2 * int(start[o + 1] - start[o])
        if nd[spacer] != int(SPACER) | int(start[o + 1] - start[o]) or nd[spacer + 1] != o:
            raise StructureError(f"the spacer after option {o} is wrong")
    hi = [1] * n1 if problem.bounds is None else problem.bounds[:, 1].tolist()
    uses = [0] * n_items
    colour_of: dict[int, int] = {}
    for o in taken:
        for k in range(start[o], start[o + 1]):
            i = int(ids[k])
            uses[i] += 1
            if i >= n1:
                colour_of[i] = 0 if colours is None else int(colours[k])
    gone = set(taken) | set(dropped)

    def live(o: int) -> bool:
        for k in range(start[o], start[o + 1]):
            i = int(ids[k])
            if i < n1 and uses[i] >= hi[i]:
                return False
            if i in colour_of and (colour_of[i] == 0 or colours is None or int(colours[k]) != colour_of[i]):
                return False
        return o not in gone

    options_of: list[list[int]] = [[] for _ in range(n_items)]
    for o in range(start.size - 1):
        if live(o):
            for k in range(start[o], start[o + 1]):
                options_of[int(ids[k])].append(o)
    expected = set()
    for i in range(n_items):
        if i >= n1:
            # SSMCC leaves out the secondary items without options from the start
            if i not in colour_of and not (B.mcc and B.origin_set[base[i] - 1] == 0):
                expected.add(i)
        elif uses[i] < hi[i] and (options_of[i] or not B.mcc):
            expected.add(i)       # SSMCC deactivates a primary item when its last option goes
    got = {index[x] for x in item[:active]}
    if got != expected:
        raise StructureError(f"active items {sorted(got)}, expected {sorted(expected)}")
    for i in expected:
        x = base[i]
        found = sorted(int(option_of(np.uint32(sets[p]), B.nd)) for p in range(x, x + sets[x - 1]))
        if B.mcc and i >= n1 and not options_of[i] and len(found) == 1:
            continue              # SSMCC keeps a secondary item's last option in its set when it goes
        if found != options_of[i]:
            raise StructureError(f"item {i} has options {found}, expected {options_of[i]}")
        if i < n1 and B.mcc and sets[x - 4] != hi[i] - uses[i]:
            raise StructureError(f"item {i} has bound {sets[x - 4]}, expected {hi[i] - uses[i]}")


def parse_heuristic(spec: str) -> tuple[int, float, float]:
    """``"mrv"``, ``"frb"``, ``"wtd"`` or ``"wtd:DW:FACTOR"`` (Knuth's ``w`` and ``W``: the weight
    added when an item is wiped out, 1 by default, and the factor it grows by each time, 1 by
    default) as ``(code, dw, dwfactor)``; a ValueError naming the choices for anything else."""
    name, *knobs = str(spec).split(":")
    if name not in HEURISTICS or (knobs and (name != "wtd" or len(knobs) != 2)):
        raise ValueError(f"unknown heuristic {spec!r}; the heuristics are mrv, frb, wtd "
                         "(or wtd:DW:FACTOR, a weight increment and its growth factor)")
    try:
        dw, factor = (float(k) for k in knobs) if knobs else (1.0, 1.0)
    except ValueError:
        raise ValueError(f"heuristic {spec!r}: DW and FACTOR are numbers, as in wtd:0.5:1.1") from None
    if not (dw > 0 and factor > 0) or not np.isfinite([dw, factor]).all():
        raise ValueError(f"heuristic {spec!r}: DW and FACTOR are positive numbers")
    return HEURISTICS[name], dw, factor


NO_BATCHES = ("binary branching (SSXCC-BINARY, SSMCC) takes no batches: Batch searches with the cells "
              "engine's d-way search, or with the dlx engine (DLX3) for multiplicities")


class Binary(BinarySearch):
    """Binary branching on dancing cells: SSXCC-BINARY, or SSMCC with multiplicities, steered by
    one heuristic (``mrv``, ``frb`` or ``wtd``)."""

    counts = ("SSXCC-BINARY's (SSMCC's with multiplicities): nodes: levels entered, each a take or a drop "
              "of one option (solutions and forced moves included); updates: options swapped out of a set")
    refuses = "batches (Batch) and traces"
    tunables = {f"{__name__}:POLL": 1, f"{__name__}:STACK_START": 4}
    samples = (("langford", (4,)), ("graceful", ([(0, 1), (1, 2)],)), ("k_queens", (4, 3)))
    searches = (search,)
    traces = False
    batches = False
    no_batches = NO_BATCHES
    exact_splits = False

    def __init__(self, heuristic: str = "mrv") -> None:
        self.heuristic, self.dw, self.dwfactor = parse_heuristic(heuristic)
        self.name = "binary" if heuristic == "mrv" else f"binary/{heuristic}"
        self.summary = (f"dancing cells branching binary, {heuristic}: Knuth's SSXCC-BINARY, or SSMCC with "
                        "multiplicities" + ("" if heuristic == "mrv" else f", with his ssxcc-{heuristic} change"))

    def refusal(self, options: Options) -> str | None:
        return None

    def prepare(self, options: Options) -> BinaryStructure:
        B = build(options)
        return B

    def copy(self, structure: BinaryStructure) -> BinaryStructure:
        return copy(structure)

    def restore(self, structure: BinaryStructure, pristine: BinaryStructure) -> None:
        B = structure
        restore(B.item, B.set, B.nd, B.origin_item, B.origin_set, B.origin_nd)

    def start(self, structure: BinaryStructure) -> BinaryMachine:
        return BinaryMachine(structure, self.heuristic, self.dw, self.dwfactor)

    def advance(self, structure, machine, want, max_nodes, work, out, ends, *, early=False, trace=None) -> int:
        refuse_trace(self, trace)
        found = 0
        while True:
            found += search(structure, *machine.arrays(), machine.heuristic, want - found, max_nodes, work, out, ends)
            if not machine.state[GROW]:
                return found
            machine.grow()
            if ends.size and found:
                return found

    def unwind(self, structure, machine) -> None:
        B = structure
        unwind(B.item, B.set, B.nd, B.origin_item, B.origin_set, B.origin_nd, machine.state, B.active)

    def applied(self, structure, machine) -> list[int]:
        return applied(structure, machine)[0]

    def check(self, options: Options, structure, machine = None) -> None:
        check(structure, options, machine)
