"""Domain consistency: Knuth's XCCDC (2025), with the heuristics of his change files xccdc-frb.ch
and xccdc-wtd.ch, as one resumable, stoppable machine.

XCCDC reads an exact-cover problem as a constraint problem whose variables are the primary items,
each with the options that contain it as its domain. It keeps every domain *consistent*: an option
stays only while, for every other primary item, some compatible option still covers that item (its
*support*). An option without support is purged, which may leave other options without theirs, and
so on; when a domain empties, the branch fails. This is DLX-PRE's reduction at every node of the
search: far fewer nodes, more work per node.

Supports are found by AC-6 with AC3rm's reuse (Bessière; Lecoutre and Hemery), as Knuth keeps them:

* the *trigger list* of an option ``o'`` holds the pairs ``(o, p)`` it supports (``o'`` covers
  primary item ``p``, is compatible with ``o``); purging ``o'`` moves each pair to the *fixit
  list* of ``o`` and puts ``o`` in the queue, unless ``o`` or ``p`` is inactive already;
* [`search`][dlx.search]'s ``EMPTY`` part takes each queued option and looks for new supports in the sets
  of its holes' items; an option with a hole no option can fill is purged in turn;
* every purged option gets an *age* (``2s`` when purged in stage ``s`` before its choice, ``2s+1``
  after), and a trigger list is reordered, youngest entries last, with *hints* (stamped by the
  stage) saying that the rest of the list is younger than some age, so that a later purge skips it.

The lists live in one array ``pool`` of (info, link) cells, with an avail stack, as in the text.
The search branches binary like SSXCC-BINARY: take the first option of the item with the fewest
options, else purge it and choose again in the same stage.

Layout, as xccdc.w: node ``y`` has four words ``nd[4y .. 4y+3]``: ``itm``, ``loc``, ``clr``,
``xtra``; an option is named by the spacer before it, whose ``clr`` is its trigger list, ``xtra``
its fixit list, and its first node's ``xtra`` its age; the first item of every option is primary
(the first primary item of an option is moved to its front, the items before it one place on).
``set`` holds per item ``match`` (``x-5``: the colour a purified item needs), ``mark`` (``x-4``:
a stamp for compatibility tests), its number (``x-3``), ``pos`` (``x-2``) and ``size`` (``x-1``).

Counts, as the program counts: a node per level (solutions included), an update per option
swapped out of a set and per item made inactive.
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
from .binary import HEURISTICS, REJECTED

START, TAKE, PURGEIT, BACKUP, NEWSTAGE, NEWLEVEL, EMPTY, FAILED = range(8)
#: What EMPTY does when the queue is empty: the step that filled it.
C_START, C_TAKE, C_PURGE, C_REPLAY = range(4)
assert BACKUP == LEAVE
MRV, FRB, WTD = 0, 1, 2
#: The machine's registers beyond the shared layout (``regs``, int64).
(R_STAGE, R_LEVEL, R_AGE, R_SAVEPTR, R_ACTIVE, R_QFRONT, R_QREAR, R_POOLPTR, R_TOUGH, R_BIGSTAMP, R_COMPAT,
 R_BEST, R_DEGREE, R_OUT_OF_POOL, R_GROW) = range(15)
N_REGS = 15
EXTRA = 5
INFTY = 0x7FFFFFFF
DANGEROUS = np.float32(1e32)
FINFTY = np.float32(2e32)
STAMPS = 1 << 32
U0, U1, U2, U3, U4, U5, U7 = (np.uint64(k) for k in (0, 1, 2, 3, 4, 5, 7))


class DCStructure(NamedTuple):
    """The problem as XCCDC reads it (``origin_*``: as built, for restores)."""

    item: np.ndarray          # int32: set index of each item; the first ``active`` are active
    set: np.ndarray           # int32: per item match, mark, number, pos, size, then its options' nodes
    nd: np.ndarray            # int32: per node itm, loc, clr, xtra (spacers: -length before, length after)
    onum: np.ndarray          # int32: per spacer before an option, the option's number
    origin_item: np.ndarray
    origin_set: np.ndarray
    origin_nd: np.ndarray
    second: np.int64          # the first secondary item's set index
    n1: np.int64              # primary items
    last_node: np.int64       # the spacer after the last option
    options: np.int64         # options with a primary item
    bad: bool                 # a primary item has no option: no search


class DCMachine:
    """A run's state: ``choice[level]`` (a node; ``REJECTED`` set where the option was purged, a
    right branch), ``deg``, ``stagelevel``, ``levelstage``, ``saved`` and ``stack`` (item, size
    pairs), ``stagestamp``, ``trig_head``/``trig_tail`` (opt_out's buckets by age), ``pool`` (the
    lists' cells, info then link), ``weight`` (per item number: FRB's assigns and fails, WTD's
    weight in the first column), ``regs`` and the shared ``state``."""

    first_tweak = None

    def __init__(self, structure: DCStructure, heuristic: int) -> None:
        levels = structure.options + 2
        stages = int(structure.n1) + 2
        self.choice = np.zeros(levels, np.uint32)
        self.deg = np.zeros(levels, np.int64)
        self.stagelevel = np.zeros(levels, np.int64)
        self.levelstage = np.zeros(stages, np.int64)
        self.saved = np.zeros(stages + 1, np.int64)
        self.stack = np.zeros(2 * (structure.item.size + 1) * min(stages, 8), np.int32)
        self.stagestamp = np.zeros(stages + 1, np.int64)
        ages = 2 * stages + 4
        self.trig_head = np.zeros(ages, np.int64)
        self.trig_tail = np.zeros(ages, np.int64)
        cells = 2 * int(structure.options) * (int(structure.n1) + 3) + 2 * ages * int(structure.options) + 64
        self.pool = np.zeros(2 * cells, np.int32)
        self.weight = np.zeros((structure.item.size, 2), np.int64)
        self.weight[:, 0] = 1 if heuristic == WTD else 0
        self.weight[:, 1] = 1
        self.heuristic = heuristic
        self.regs = np.zeros(N_REGS, np.int64)
        self.regs[R_LEVEL] = -1             # Knuth's level before the first: no path yet
        self.state = np.zeros(STATE_SIZE, np.int64)

    def arrays(self) -> tuple:
        return (self.choice, self.deg, self.stagelevel, self.levelstage, self.saved, self.stack, self.stagestamp,
                self.trig_head, self.trig_tail, self.pool, self.weight, self.regs, self.state)


def build(options: Options) -> DCStructure:
    """The problem as XCCDC reads it. Cost: linear in its size."""
    colours = np.zeros(0, np.int32) if options.colours is None else options.colours.astype(np.int32)
    item, sets, nd, onum, second, last_node, n_options, bad = _build(
        options.start, options.items, colours, options.n_items, options.n_primary)
    return DCStructure(item, sets, nd, onum, item.copy(), sets.copy(), nd.copy(), np.int64(second),
                       np.int64(options.n_primary), np.int64(last_node), np.int64(n_options), bool(bad))


@njit(cache=True, nogil=True)
def _build(option_start, option_items, option_colours, n_items, n_primary):
    n_options = option_start.size - 1
    lengths = np.zeros(n_items, np.int64)
    kept = 0
    entries = 0
    for o in range(n_options):
        if option_start[o + 1] > option_start[o]:
            kept += 1
            entries += option_start[o + 1] - option_start[o]
        for k in range(option_start[o], option_start[o + 1]):
            lengths[option_items[k]] += 1
    item = np.empty(n_items, np.int32)
    x = EXTRA
    second = 0
    for i in range(n_items):
        if i == n_primary:
            second = x
        item[i] = x
        x += lengths[i] + EXTRA
    if n_primary == n_items:
        second = x
    sets = np.zeros(x, np.int32)
    for i in range(n_items):
        sets[item[i] - 3] = i
        sets[item[i] - 2] = i
    n_nodes = entries + kept + 1
    nd = np.zeros(4 * n_nodes, np.int32)
    onum = np.full(n_nodes, -1, np.int32)
    coloured = option_colours.size > 0
    y = 0                     # the spacer before the option
    for o in range(n_options):
        a, b = option_start[o], option_start[o + 1]
        if a == b:
            continue
        first = a                                  # the first primary item goes first
        while option_items[first] >= n_primary:
            first += 1
        onum[y] = o
        nd[4 * y + 1] = b - a
        z = y + 1
        for k in range(a, b):
            if k == first:
                at = y + 1
            elif k < first:
                at = y + 2 + (k - a)
            else:
                at = y + 1 + (k - a)
            c = item[option_items[k]]
            loc = c + sets[c - 1]
            sets[c - 1] += 1
            sets[loc] = at
            nd[4 * at] = c
            nd[4 * at + 1] = loc
            if coloured:
                nd[4 * at + 2] = option_colours[k]
            z += 1
        nd[4 * z] = -(b - a)
        y = z
    bad = False
    for i in range(n_primary):
        if sets[item[i] - 1] == 0:
            bad = True
    return item, sets, nd, onum, second, y, kept, bad


def copy(structure: DCStructure) -> DCStructure:
    return structure._replace(item=structure.item.copy(), set=structure.set.copy(), nd=structure.nd.copy())


@njit(cache=True, nogil=True)
def restore(item, sets, nd, origin_item, origin_set, origin_nd):
    item[:] = origin_item
    sets[:] = origin_set
    nd[:] = origin_nd


@njit(cache=True, nogil=True)
def option_of(y, nd, onum):
    """The number of the option of node ``y`` (a choice: the ``REJECTED`` bit is ignored)."""
    y = np.int64(y & 0x7FFFFFFF)
    while nd[4 * y] > 0:
        y -= 1
    return onum[y]


@njit(cache=True, nogil=True)
def delete(opt, act, nd, sets, second):
    """The first part of xccdc.w's ``opt_out``: delete option ``opt`` (its spacer) from the sets of
    its unpurified items (``act``: the secondary items at or beyond it in ``item`` are purified),
    an update each. Returns ``(ok, updates, tough)``: not ok, with ``tough`` the item, when it was
    a primary item's last option (the sets then partly changed, for a restore to undo)."""
    updates = 0
    nn = np.uint64(opt) + U1
    while nd[U4 * nn] > 0:
        ii = np.uint64(nd[U4 * nn])
        p = nd[U4 * nn + U1]
        if p >= second and sets[ii - U2] >= act:
            nn += U1
            continue
        ss = np.uint64(sets[ii - U1] - 1)
        if ss == 0 and p < second:
            return False, updates, np.int64(ii)
        nnp = np.uint64(sets[ii + ss])
        sets[ii - U1] = ss
        sets[ii + ss] = nn
        sets[np.uint64(p)] = nnp
        nd[U4 * nn + U1] = ii + ss
        nd[U4 * nnp + U1] = p
        updates += 1
        nn += U1
    return True, updates, np.int64(0)


@njit(cache=True, nogil=True)
def clear_queue(nd, pool, regs):
    """``Clear the queue``: after a failed purge every fixit list goes back to the trigger lists
    its entries came from."""
    qfront = regs[R_QFRONT]
    qrear = regs[R_QREAR]
    while qfront != qrear:
        cell = qfront
        o = pool[2 * cell]
        qfront = pool[2 * cell + 1]
        pool[2 * cell + 1] = pool[1]
        pool[1] = cell
        f = nd[4 * o + 3]
        while f:
            optp = pool[2 * f]
            q = pool[2 * f + 1]
            pool[2 * f] = o
            nxt = pool[2 * q + 1]
            pool[2 * q + 1] = nd[4 * optp + 2]
            nd[4 * optp + 2] = f
            f = nxt
        nd[4 * o + 3] = 0
    regs[R_QFRONT] = qfront


@njit(cache=True, nogil=True)
def retrigger(opt, nd, sets, pool, trig_head, trig_tail, stagestamp, regs):
    """The rest of ``opt_out``, once option ``opt`` is deleted: it gets the current age; each live
    entry ``(o, p)`` of its trigger list moves to the fixit list of ``o`` (queued if it was not);
    the entries of inactive options go to ``trig_head[age]`` by their age (`rehint` puts
    them back); a hint still valid ends the scan. The pool's cells come from and go back to its
    avail stack, as getavail and putavail do. Returns what `rehint` needs: ``(pp, p, q,
    cutoff, tmin)``."""
    cur_age = regs[R_AGE]
    active = regs[R_ACTIVE]
    infinite = trig_head.size - 1
    tmin = infinite
    nd[4 * (opt + 1) + 3] = cur_age
    cutoff = -1
    # pool indices are unsigned throughout: numba then tests none of them for a negative value
    p = np.uint64(nd[4 * opt + 2])
    pp = U0
    q = U0
    hint = U0
    while p:
        optp = pool[U2 * p]
        q = np.uint64(pool[U2 * p + U1])
        ii = pool[U2 * q]
        pp = np.uint64(pool[U2 * q + U1])
        if optp < 0:
            cutoff = -optp - 1
            if cutoff < cur_age and (ii & 0xFFFFFFFF) == stagestamp[np.uint64(cutoff + 1) >> U1]:
                pp = p              # a valid hint: the rest is younger (no break: numba keeps counts then)
                hint = p
                p = U0
                continue
            pool[U2 * p + U1] = pool[1]          # discard an obsolete hint
            pool[U2 * q + U1] = p
            pool[1] = q
            p = pp
            continue
        ou = np.uint64(optp)
        t = nd[U4 * ou + U7]
        inactive = False
        if t <= cur_age:
            jj = nd[U4 * ou + U4]
            if nd[U4 * ou + U5] >= jj + sets[np.uint64(jj) - U1]:
                inactive = True
        if not inactive and sets[np.uint64(ii) - U2] >= active:
            t = cur_age
            inactive = True
        if not inactive:
            pool[U2 * p] = opt                 # change trigger to fixit
            fix = nd[U4 * ou + U3]
            pool[U2 * q + U1] = fix
            if fix == 0:                        # enqueue optp
                cell = np.uint64(pool[1])
                if cell:
                    pool[1] = pool[U2 * cell + U1]
                else:
                    cell = np.uint64(regs[R_POOLPTR])
                    regs[R_POOLPTR] += 1
                    if U2 * cell + U1 >= np.uint64(pool.size):
                        regs[R_OUT_OF_POOL] = 1
                        cell = U0
                qrear = np.uint64(regs[R_QREAR])
                pool[U2 * qrear + U1] = cell
                pool[U2 * qrear] = optp
                regs[R_QREAR] = cell
                nd[U4 * ou + U7] = infinite
            nd[U4 * ou + U3] = p
            p = pp
            continue
        if t < 0:
            pool[U2 * p + U1] = pool[1]
            pool[U2 * q + U1] = p
            pool[1] = q
            p = pp
            continue
        tu = np.uint64(t)
        if trig_head[tu] == 0:
            trig_tail[tu] = q
        pool[U2 * q + U1] = trig_head[tu]
        trig_head[tu] = p
        if t < tmin:
            tmin = t
        p = pp
    return np.int64(pp), np.int64(hint), np.int64(q), cutoff, tmin


@njit(cache=True, nogil=True)
def rehint(opt, scanned, nd, pool, trig_head, trig_tail, stagestamp, regs):
    """``Replace trigger(opt) by its unused entries, reordered and hinted``: the entries bucketed
    by `retrigger` come back youngest last, each age's behind a hint stamped with its stage
    (none for the current age); a valid hint met by the scan (``pp``) is not doubled. ``scanned``:
    what `retrigger` returned."""
    pp, p, q, cutoff, tmin = scanned
    cur_age = regs[R_AGE]
    if pp == 0:
        cutoff = -1
    if tmin <= cutoff:
        pp = pool[2 * q + 1]
        pool[2 * p + 1] = pool[1]
        pool[1] = p
        pool[2 * q + 1] = pool[1]
        pool[1] = q
    for t in range(tmin, cur_age):
        if trig_head[t]:
            pool[2 * trig_tail[t] + 1] = pp
            a = pool[1]                     # getavail, twice
            if a:
                pool[1] = pool[2 * a + 1]
            else:
                a = regs[R_POOLPTR]
                regs[R_POOLPTR] = a + 1
            b = pool[1]
            if b:
                pool[1] = pool[2 * b + 1]
            else:
                b = regs[R_POOLPTR]
                regs[R_POOLPTR] = b + 1
            pool[2 * a + 1] = b
            pool[2 * a] = -t - 1
            pool[2 * b] = stagestamp[(t + 1) >> 1]
            pool[2 * b + 1] = trig_head[t]
            trig_head[t] = 0
            pp = a
    t = cur_age if cur_age >= 0 else 0      # (during establish_dc every bucket is empty)
    head = trig_head[t]
    tail = trig_tail[t]
    # no hint for the inactive options of the current age; written without a branch (pool[0], an
    # info no cell uses, takes the write when the bucket is empty), as a branch here made numba
    # keep reference counts
    pool[2 * tail + 1 if head else 0] = pp
    trig_head[t] = 0
    nd[4 * opt + 2] = head if head else pp


@njit(cache=True, nogil=True)
def reset_marks(item, sets):
    """Every item's mark back to 0 (``compatstamp`` has wrapped around)."""
    for k in range(item.size):
        sets[item[k] - 4] = 0


@njit(cache=True, nogil=True)
def mark_option(opt, nd, sets, second, mark):
    """``Prepare the mark fields for testing compatibility with opt``: ``mark`` (the new
    ``compatstamp``) on each item of ``opt``; a secondary item's ``match`` is its colour there, or
    -1 (which matches no colour)."""
    nn = np.uint64(opt) + U1
    while nd[U4 * nn] > 0:
        ii = nd[U4 * nn]
        sets[np.uint64(ii) - U4] = mark
        if ii >= second:
            c = nd[U4 * nn + U2]
            sets[np.uint64(ii) - U5] = c if c else -1
        nn += U1


@njit(cache=True, nogil=True)
def support(ii, nd, sets, regs, second):
    """The spacer of the first option in item ``ii``'s set that is compatible with the option whose
    items are marked (`mark_option`), or -1: ``If optp is compatible with opt, break``. The
    indices are unsigned (numba then tests no index for a negative value): the hottest loop of
    XCCDC."""
    stamp = regs[R_COMPAT]
    mark = np.int32(stamp - STAMPS if stamp >= STAMPS // 2 else stamp)
    found = -1
    s = np.uint64(ii)
    end = s + np.uint64(sets[ii - 1])
    while s < end and found < 0:
        optp = np.uint64(sets[s])
        qq = optp
        nn = qq + U1
        clash = False
        while nn != qq and not clash:
            jj = nd[U4 * nn]
            if jj <= 0:
                optp = nn - np.uint64(-jj) - U1
                nn = optp
            elif sets[np.uint64(jj) - U4] == mark:
                c = nd[U4 * nn + U2]
                clash = jj < second or c == 0 or c != sets[np.uint64(jj) - U5]
            nn += U1
        if not clash:
            found = np.int64(optp)
        s += U1
    return found


@njit(cache=True, nogil=True)
def to_triggers(opt, nd, pool):
    """``Change the entries of fixit(opt) back to triggers``."""
    f = nd[4 * opt + 3]
    while f:
        fu = np.uint64(f)
        optp = np.uint64(pool[U2 * fu])
        q = np.uint64(pool[U2 * fu + U1])
        pool[U2 * fu] = opt
        nxt = pool[U2 * q + U1]
        pool[U2 * q + U1] = nd[U4 * optp + U2]
        nd[U4 * optp + U2] = f
        f = nxt
    nd[4 * opt + 3] = 0


@njit(cache=True, nogil=True)
def record(p, q, opt, optp, nd, pool):
    """``Record optp as the support for opt and ii``: the pair's cells ``p``, ``q`` go on top of
    ``optp``'s trigger list."""
    pu = np.uint64(p)
    ou = np.uint64(optp)
    pool[U2 * pu] = opt
    pool[U2 * np.uint64(q) + U1] = nd[U4 * ou + U2]
    nd[U4 * ou + U2] = pu


@njit(cache=True, nogil=True)
def get_cell(pool, regs):
    """getavail: a cell from the avail stack, else a fresh one (0, with ``R_OUT_OF_POOL`` set,
    when the pool is full)."""
    # written without branches around the writes: numba keeps reference counts otherwise
    cell = pool[1]
    empty = cell == 0
    fresh = regs[R_POOLPTR]
    pool[1] = 0 if empty else pool[2 * cell + 1]
    cell = fresh if empty else cell
    regs[R_POOLPTR] = fresh + empty
    over = 2 * cell + 1 >= pool.size
    regs[R_OUT_OF_POOL] |= over
    return 0 if over else cell


@njit(cache=True, nogil=True, error_model="numpy")
def choose(item, sets, second, active, weight, heuristic):
    """``Set best_itm to the best item for branching and t to its size``: the active primary item
    with the fewest options (the first item on ties), or the least options divided by the failure
    rate (FRB: ``(fails + 1/2) / assigns``) or by the weight (WTD), the first found on ties, in
    32-bit floating point as Knuth's C computes it; an item with one option ends the scan. Returns
    ``(best, t)``, ``t`` = ``INFTY`` when no primary item is active."""
    t = INFTY
    best = 0
    score = FINFTY
    k = np.uint64(0)
    n = np.uint64(active)
    while t > 1 and k < n:
        x = item[k]
        k += U1
        if x >= second:
            continue
        s = sets[np.uint64(x) - U1]
        if heuristic == MRV:
            if s <= t:
                if s < t:
                    best = x
                    t = s
                elif x < best:
                    best = x
        elif s <= 1:
            t = 1
            best = x
        else:
            i = sets[np.uint64(x) - U3]
            if heuristic == FRB:
                w = np.float32(np.float64(np.float32(weight[i, 0])) + 0.5)
                w = np.float32(np.float64(w) / np.float64(np.float32(weight[i, 1])))
            else:
                w = np.float32(weight[i, 0])
            tscore = np.float32(np.float64(np.float32(s)) / np.float64(w))
            if tscore >= FINFTY:
                tscore = DANGEROUS
            if tscore < score:
                best = x
                score = tscore
                t = s
    return best, t


@njit(cache=True, nogil=True)
def search(D, choice, deg, stagelevel, levelstage, saved, stack, stagestamp, trig_head, trig_tail, pool, weight,
           regs, state, heuristic, want, max_nodes, work, out, ends):
    """Run until ``want`` more solutions, the end, ``max_nodes`` nodes, ``state[STOP]`` or about
    ``work`` updates; returns the solutions this call visited, written as in `dlx1.search`.
    The first call makes the domains consistent (``START``: establish_dc); a problem whose domains
    cannot be is done with no node. ``state[FLOOR] = f``: levels ``0..f-1`` replay the path in
    ``choice`` (an option taken, or purged when ``REJECTED``), as XCCDC resumes a partial solution,
    and the run ends when it backs up into it; ``state[CEILING]`` pauses it (phase SPLIT) at a
    level. The program's subroutines that call others (establish_dc, include_option,
    empty_the_queue) are spelled out as steps: the search calls leaves only (see .base)."""
    item, sets, nd = D.item, D.set, D.nd
    second = D.second
    infinite = trig_head.size - 1
    if not resumable(state):
        return 0
    phase = st.RUNNING
    record_ = ends.size > 0
    updates = state[UPDATES]
    nodes = state[NODES]
    step = state[STEP]
    floor = state[FLOOR]
    ceiling = ceiling_of(state)
    stage = regs[R_STAGE]
    level = regs[R_LEVEL]
    saveptr = regs[R_SAVEPTR]
    best = regs[R_BEST]
    t = regs[R_DEGREE]
    poll = updates
    end = updates + work
    found = 0
    used = 0
    context = C_START
    u = 0
    while True:
        if step == START:
            if nodes >= max_nodes:
                phase = st.MAX_NODES        # no node to spend: not even domain consistency
                break
            if D.bad:
                phase = st.COMPLETE
                break
            # establish_dc: every option's supports, then the queue
            regs[R_ACTIVE] = item.size
            regs[R_POOLPTR] = 1
            regs[R_AGE] = -1
            cell = get_cell(pool, regs)
            regs[R_QFRONT] = cell
            regs[R_QREAR] = cell
            u = 0
            ok = True
            opt = 0
            while opt < D.last_node:
                stamp = (regs[R_COMPAT] + 1) % STAMPS     # Bump compatstamp
                if stamp == 0:
                    reset_marks(item, sets)
                    stamp = 1
                regs[R_COMPAT] = stamp
                mark = np.int32(stamp - STAMPS if stamp >= STAMPS // 2 else stamp)
                mark_option(opt, nd, sets, second, mark)
                for k in range(D.n1):
                    ii = item[k]
                    if sets[ii - 4] != mark:
                        optp = support(ii, nd, sets, regs, second)
                        if optp < 0:
                            ok, du, tough = delete(opt, regs[R_ACTIVE], nd, sets, second)     # opt_out
                            if ok:
                                h = retrigger(opt, nd, sets, pool, trig_head, trig_tail, stagestamp, regs)
                                rehint(opt, h, nd, pool, trig_head, trig_tail, stagestamp, regs)
                            else:
                                regs[R_TOUGH] = tough
                                clear_queue(nd, pool, regs)
                            u += du
                            break
                        p = get_cell(pool, regs)
                        q = get_cell(pool, regs)
                        pool[2 * p + 1] = q
                        pool[2 * q] = ii
                        record(p, q, opt, optp, nd, pool)
                if not ok:
                    break
                opt += nd[4 * opt + 1] + 1
            updates += u
            u = 0
            if not ok:
                phase = st.COMPLETE
                break
            context = C_START
            step = EMPTY
        elif step == EMPTY:
            # empty_the_queue: each queued option still active looks for new supports for its
            # holes; one that finds none is purged
            ok = True
            while ok and regs[R_QFRONT] != regs[R_QREAR]:
                cell = np.uint64(regs[R_QFRONT])
                opt = np.int64(pool[U2 * cell])
                regs[R_QFRONT] = pool[U2 * cell + U1]
                pool[U2 * cell + U1] = pool[1]
                pool[1] = cell
                if nd[4 * (opt + 1) + 3] != infinite:
                    to_triggers(opt, nd, pool)
                    continue
                stamp = (regs[R_COMPAT] + 1) % STAMPS     # Bump compatstamp
                if stamp == 0:
                    reset_marks(item, sets)
                    stamp = 1
                regs[R_COMPAT] = stamp
                mark_option(opt, nd, sets, second, np.int32(stamp - STAMPS if stamp >= STAMPS // 2 else stamp))
                p = np.uint64(nd[4 * opt + 3])
                while p:
                    q = np.uint64(pool[U2 * p + U1])
                    ii = pool[U2 * q]
                    pp = np.uint64(pool[U2 * q + U1])
                    optp = support(ii, nd, sets, regs, second)
                    if optp < 0:
                        nd[4 * opt + 3] = p
                        to_triggers(opt, nd, pool)
                        ok, du, tough = delete(opt, regs[R_ACTIVE], nd, sets, second)     # opt_out
                        if ok:
                            h = retrigger(opt, nd, sets, pool, trig_head, trig_tail, stagestamp, regs)
                            rehint(opt, h, nd, pool, trig_head, trig_tail, stagestamp, regs)
                        else:
                            regs[R_TOUGH] = tough
                            clear_queue(nd, pool, regs)
                        u += du
                        break
                    record(p, q, opt, optp, nd, pool)
                    p = pp
                nd[4 * opt + 3] = 0
            if context == C_START:
                updates += u
                if not ok:
                    phase = st.COMPLETE
                    break
                tidy(nd, pool, D.last_node)
                level = -1
                stage = -1
                step = NEWSTAGE
            elif context == C_REPLAY:
                if level + 1 >= floor:
                    updates += u
                if not ok:
                    phase = st.COMPLETE
                    break
                step = NEWSTAGE if not choice[level] & REJECTED else NEWLEVEL
            elif context == C_TAKE:
                if level + 1 < ceiling:
                    updates += u
                if heuristic == FRB:
                    i = sets[best - 3]
                    weight[i, 1] += 1
                    if not ok:
                        weight[i, 0] += 1
                elif heuristic == WTD and not ok:
                    weight[sets[regs[R_TOUGH] - 3], 0] += 1
                if ok:
                    step = NEWSTAGE
                elif t == 1:            # tryagain
                    step = BACKUP
                else:
                    step = PURGEIT
            else:  # C_PURGE
                if level + 1 < ceiling:
                    updates += u
                if heuristic == WTD and not ok:
                    weight[sets[regs[R_TOUGH] - 3], 0] += 1
                step = NEWLEVEL if ok else BACKUP
            u = 0
        elif step == NEWSTAGE:
            stage += 1
            stamp = (regs[R_BIGSTAMP] + 1) % STAMPS
            if stamp == 0:
                unhint(nd, pool, D.last_node)     # the stamps wrapped: the hints go, the stages get fresh ones
                for k in range(stage):
                    stagestamp[k] = k
                stamp = stage
            regs[R_BIGSTAMP] = stamp
            stagestamp[stage] = stamp
            step = NEWLEVEL
        elif step == NEWLEVEL:
            if level + 1 < floor:
                # a level of the path: take its option, or purge it
                level += 1
                stagelevel[level] = stage
                levelstage[stage] = level
                v = np.int64(choice[level])
                context = C_REPLAY
                if v & REJECTED:
                    regs[R_AGE] = 2 * stage
                    opt = (v & 0x7FFFFFFF) - 1
                    while nd[4 * opt] > 0:
                        opt -= 1
                    ok, u, tough = delete(opt, regs[R_ACTIVE], nd, sets, second)     # opt_out
                    if ok:
                        h = retrigger(opt, nd, sets, pool, trig_head, trig_tail, stagestamp, regs)
                        rehint(opt, h, nd, pool, trig_head, trig_tail, stagestamp, regs)
                    else:
                        regs[R_TOUGH] = tough
                        clear_queue(nd, pool, regs)
                    if not ok:
                        phase = st.COMPLETE
                        break
                    step = EMPTY
                    continue
                deg[level] = 1
                saved[stage] = saveptr
                regs[R_AGE] = 2 * stage + 1
                step = TAKE
                continue
            if nodes >= max_nodes:
                phase = st.MAX_NODES
                break
            if updates >= poll:
                poll = updates + POLL
                if state[STOP] != 0:
                    phase = st.STOPPED
                    break
                if updates >= end:
                    break
            if level + 1 == ceiling:
                phase = st.SPLIT
                step = BACKUP
                break
            if saveptr + 2 * regs[R_ACTIVE] > stack.size:
                regs[R_GROW] = 1
                break
            nodes += 1
            level += 1
            stagelevel[level] = stage
            levelstage[stage] = level
            best, t = choose(item, sets, second, regs[R_ACTIVE], weight, heuristic)
            if t == INFTY:
                # every primary item is covered: visit the options of stages 0..stage-1
                found += 1
                if record_:
                    for k in range(stage):
                        out[used + k] = option_of(choice[levelstage[k]], nd, D.onum)
                    used += stage
                    ends[found - 1] = used
                level -= 1          # the solution's level has no choice: the path is the levels below
                step = BACKUP
                if found == want or (record_ and (found == ends.size or used + levelstage.size > out.size)):
                    break
                continue
            choice[level] = sets[best]
            deg[level] = t
            saved[stage] = saveptr
            if t != 1:              # Save the currently active sizes
                sp = np.uint64(saveptr)
                for p in range(np.uint64(regs[R_ACTIVE])):
                    x = item[p]
                    stack[sp] = x
                    stack[sp + U1] = sets[np.uint64(x) - U1]
                    sp += U2
                saveptr = np.int64(sp)
            regs[R_AGE] = 2 * stage + 1
            context = C_TAKE
            step = TAKE
        elif step == TAKE:
            # include_option: the option's items leave the active list (an update each), then every
            # option that clashes with it is purged (the sets from right to left: purged options move
            # right as they leave), and it is made inactive itself
            opt = np.int64(choice[level]) - 1
            while nd[4 * opt] > 0:
                opt -= 1
            oactive = regs[R_ACTIVE]
            p = oactive
            q = opt + 1
            u = 0
            while nd[4 * q] > 0:
                c = nd[4 * q]
                pp = sets[c - 2]
                if pp < p:
                    p -= 1
                    cc = item[p]
                    item[p] = c
                    item[pp] = cc
                    if c >= second:
                        sets[c - 5] = nd[4 * q + 2]
                    sets[cc - 2] = pp
                    sets[c - 2] = p
                    u += 1
                q += 1
            regs[R_ACTIVE] = p
            ok = True
            for k in range(p, oactive):
                s = item[k]
                ss = s + sets[s - 1] - 1
                c = sets[s - 5] if s >= second else 0
                while ok and ss >= s:
                    node = np.uint64(sets[ss])
                    if c == 0 or nd[U4 * node + U2] != c:
                        node -= U1
                        while nd[U4 * node] > 0:
                            node -= U1
                        optp = np.int64(node)
                        if optp != opt:
                            ok, du, tough = delete(optp, oactive, nd, sets, second)     # opt_out
                            if ok:
                                h = retrigger(optp, nd, sets, pool, trig_head, trig_tail, stagestamp, regs)
                                rehint(optp, h, nd, pool, trig_head, trig_tail, stagestamp, regs)
                            else:
                                regs[R_TOUGH] = tough
                                clear_queue(nd, pool, regs)
                            u += du
                    ss -= 1
                if not ok:
                    break
            if ok:
                for k in range(p, oactive):
                    s = item[k]
                    if s < second:
                        sets[s - 1] = 0
                nd[4 * (opt + 1) + 3] = regs[R_AGE]
                step = EMPTY
            elif context == C_REPLAY:
                phase = st.COMPLETE
                break
            else:
                step = FAILED       # opt_out has emptied the queue
        elif step == FAILED:
            # a failed take: the bookkeeping EMPTY does after one
            if level + 1 < ceiling:
                updates += u
            u = 0
            if heuristic == FRB:
                i = sets[best - 3]
                weight[i, 1] += 1
                weight[i, 0] += 1
            elif heuristic == WTD:
                weight[sets[regs[R_TOUGH] - 3], 0] += 1
            step = BACKUP if t == 1 else PURGEIT
        elif step == BACKUP:
            stage -= 1
            if stage < 0 or levelstage[stage] < floor:
                stage += 1
                phase = st.COMPLETE
                break
            level = levelstage[stage]
            if deg[level] == 1:
                continue
            step = PURGEIT
        else:  # PURGEIT
            n = (saveptr - saved[stage]) >> 1       # Restore the currently active sizes
            regs[R_ACTIVE] = n
            saveptr = saved[stage]
            sp = np.uint64(saveptr)
            for _ in range(n):
                sets[np.uint64(stack[sp]) - U1] = stack[sp + U1]
                sp += U2
            regs[R_AGE] = 2 * stage
            cur = np.int64(choice[level])
            choice[level] = cur | REJECTED
            opt = cur - 1
            while nd[4 * opt] > 0:
                opt -= 1
            ok, u, tough = delete(opt, regs[R_ACTIVE], nd, sets, second)     # opt_out
            if ok:
                h = retrigger(opt, nd, sets, pool, trig_head, trig_tail, stagestamp, regs)
                rehint(opt, h, nd, pool, trig_head, trig_tail, stagestamp, regs)
            else:
                regs[R_TOUGH] = tough
                clear_queue(nd, pool, regs)
            context = C_PURGE
            if ok:
                step = EMPTY
                continue
            if level + 1 < ceiling:
                updates += u
            u = 0
            if heuristic == WTD:
                weight[sets[regs[R_TOUGH] - 3], 0] += 1
            step = BACKUP
    regs[R_STAGE] = stage
    regs[R_LEVEL] = level
    regs[R_SAVEPTR] = saveptr
    regs[R_BEST] = best
    regs[R_DEGREE] = t
    settle(state, phase, level + 1, step, nodes, updates, 0, found)
    return found


@njit(cache=True, nogil=True)
def tidy(nd, pool, last_node):
    """``Tidy up the initial trigger lists``: the entries of options purged before the search go."""
    opt = 0
    while opt < last_node:
        if nd[4 * (opt + 1) + 3] >= 0:
            p = nd[4 * opt + 2]
            qq = -1
            while p:
                optp = pool[2 * p]
                q = pool[2 * p + 1]
                pp = pool[2 * q + 1]
                if nd[4 * (optp + 1) + 3] < 0:
                    pool[2 * p + 1] = pool[1]
                    pool[1] = p
                    pool[2 * q + 1] = pool[1]
                    pool[1] = q
                    if qq < 0:
                        nd[4 * opt + 2] = pp
                    else:
                        pool[2 * qq + 1] = pp
                else:
                    qq = q
                p = pp
        opt += nd[4 * opt + 1] + 1


@njit(cache=True, nogil=True)
def unhint(nd, pool, last_node):
    """``Remove all hints from all trigger lists`` (when the stage stamps wrap around)."""
    opt = 0
    while opt < last_node:
        p = nd[4 * opt + 2]
        while p:
            if pool[2 * p] < 0:
                q = pool[2 * p + 1]
                r = pool[2 * q + 1]
                pool[2 * p] = pool[2 * r]
                pool[2 * p + 1] = pool[2 * r + 1]
                pool[2 * q + 1] = pool[1]
                pool[1] = q
                pool[2 * r + 1] = pool[1]
                pool[1] = r
            p = pool[2 * p + 1]
        opt += nd[4 * opt + 1] + 1


@njit(cache=True, nogil=True)
def unwind(item, sets, nd, origin_item, origin_set, origin_nd, state):
    """Put the problem back as built: the search is over."""
    restore(item, sets, nd, origin_item, origin_set, origin_nd)
    state[LEVEL] = 0
    state[STEP] = START
    if state[PHASE] != st.COMPLETE:
        state[PHASE] = st.STOPPED


def applied(D: DCStructure, machine: DCMachine) -> tuple[list[int], list[int]]:
    """The options a paused run has taken and those it has purged at a level of its own (right
    branches), in level order."""
    taken: list[int] = []
    dropped: list[int] = []
    for level in range(int(machine.state[LEVEL])):
        v = int(machine.choice[level])
        (dropped if v & int(REJECTED) else taken).append(int(option_of(np.uint32(v), D.nd, D.onum)))
    return taken, dropped


def check(D: DCStructure, problem: Options, machine: DCMachine | None = None) -> None:
    """Raise `StructureError` unless the structure is sound: ``pos`` inverts ``item``, every
    node's ``loc`` inverts ``set``, every option's nodes hold its items (its first primary item
    first); as built (no machine, or one that has not started) every set holds every option of its
    item and every item is active; at a pause, each active item's live options are options of it
    that every taken option allows and no purged level dropped, and each active primary item has
    one at least (domain consistency keeps every domain nonempty). Cost: linear in the size of the
    problem times the options taken (Python; for tests)."""
    start, ids, colours = problem.start, problem.items, problem.colours
    n1, n_items = problem.n_primary, problem.n_items
    item, sets, nd = D.item.tolist(), D.set.tolist(), D.nd.tolist()
    index = {int(x): int(D.origin_set[x - 3]) for x in D.origin_item}
    base = sorted(index, key=index.__getitem__)
    for k, x in enumerate(item):
        if x not in index or sets[x - 2] != k:
            raise StructureError(f"item[{k}] = {x} and pos disagree")
    spacer = 0
    node_option: dict[int, int] = {}
    for o in range(start.size - 1):
        mine = [int(i) for i in ids[start[o]:start[o + 1]]]
        if not mine:
            continue
        first = next(j for j, i in enumerate(mine) if i < n1)
        order = [mine[first], *mine[:first], *mine[first + 1:]]
        if D.onum[spacer] != o or nd[4 * spacer + 1] != len(mine):
            raise StructureError(f"the spacer before option {o} is wrong")
        for j, i in enumerate(order):
            y = spacer + 1 + j
            x = base[i]
            if nd[4 * y] != x or not x <= nd[4 * y + 1] < x + int(D.origin_set[x - 1]) or sets[nd[4 * y + 1]] != y:
                raise StructureError(f"node {y} of option {o} is wrong")
            node_option[y] = o
        spacer += len(mine) + 1
        if nd[4 * spacer] != -len(mine):
            raise StructureError(f"the spacer after option {o} is wrong")
    taken: list[int] = []
    dropped: list[int] = []
    active = n_items
    started = machine is not None and machine.state[STEP] != START
    if machine is not None and started:
        taken, dropped = applied(D, machine)
        active = int(machine.regs[R_ACTIVE])
    expected = set(range(n_items))
    colour_of: dict[int, int] = {}
    for o in taken:
        for k in range(start[o], start[o + 1]):
            i = int(ids[k])
            expected.discard(i)
            colour_of[i] = 0 if colours is None else int(colours[k])
    got = {index[x] for x in item[:active]}
    if got != expected:
        raise StructureError(f"active items {sorted(got)}, expected {sorted(expected)}")
    for i in expected:
        x = base[i]
        live = [node_option[sets[p]] for p in range(x, x + sets[x - 1])]
        every = sorted(o for o in range(start.size - 1) if i in ids[start[o]:start[o + 1]].tolist())
        if not started:
            if sorted(live) != every:
                raise StructureError(f"item {i} has options {sorted(live)}, expected {every}")
            continue
        for o in live:
            if o not in every or o in taken or o in dropped:
                raise StructureError(f"item {i} holds option {o}, which is not live")
            for k in range(start[o], start[o + 1]):
                j = int(ids[k])
                if j in colour_of and (colour_of[j] == 0 or colours is None or int(colours[k]) != colour_of[j]):
                    raise StructureError(f"item {i} holds option {o}, which clashes with a taken option")
        if i < n1 and not live:
            raise StructureError(f"active primary item {i} has no options")


NO_BATCHES = ("domain consistency (XCCDC) takes no batches: Batch searches with the cells engine's d-way "
              "search or the dlx engine")


class DomainConsistent(BinarySearch):
    """XCCDC: binary branching that keeps every domain consistent, steered by one heuristic."""

    counts = ("XCCDC's: nodes: levels entered, each a take or a purge of one option (solutions included); "
              "updates: options swapped out of a set, plus items made inactive")
    refuses = "multiplicities (bounds other than 1), batches (Batch) and traces"
    tunables = {f"{__name__}:POLL": 1}
    samples = (("langford", (4,)), ("graceful", ([(0, 1), (1, 2)],)))
    searches = (search,)
    traces = False
    batches = False
    no_batches = NO_BATCHES
    exact_splits = False

    def __init__(self, heuristic: str = "mrv") -> None:
        if heuristic not in HEURISTICS:
            raise ValueError(f"unknown heuristic {heuristic!r} for domain consistency; the heuristics are mrv, frb, "
                             "wtd")
        self.heuristic = HEURISTICS[heuristic]
        self.name = "dc" if heuristic == "mrv" else f"dc/{heuristic}"
        self.summary = ("domain consistency: Knuth's XCCDC, binary branching after every option without support "
                        "is purged" + ("" if heuristic == "mrv" else f", with his xccdc-{heuristic} change"))

    def refusal(self, options: Options) -> str | None:
        if options.bounds is not None:
            return ("domain consistency (XCCDC) takes no multiplicities (bounds other than 1): the cells engine "
                    "(SSMCC) and the dlx engine (DLX3) take them")
        cells = 2 * (options.start.size - 1) * (options.n_primary + 3)
        if cells > 1 << 28:
            return (f"domain consistency keeps a support per option and primary item: {cells:,} cells are too "
                    "many; the cells engine takes this problem")
        return None

    def prepare(self, options: Options) -> DCStructure:
        D = build(options)
        return D

    def copy(self, structure: DCStructure) -> DCStructure:
        return copy(structure)

    def restore(self, structure: DCStructure, pristine: DCStructure) -> None:
        D = structure
        restore(D.item, D.set, D.nd, D.origin_item, D.origin_set, D.origin_nd)

    def start(self, structure: DCStructure) -> DCMachine:
        return DCMachine(structure, self.heuristic)

    def advance(self, structure, machine, want, max_nodes, work, out, ends, *, early=False, trace=None) -> int:
        refuse_trace(self, trace)
        found = 0
        while True:
            found += search(structure, *machine.arrays(), machine.heuristic, want - found, max_nodes, work, out, ends)
            if machine.regs[R_OUT_OF_POOL]:
                raise MemoryError("domain consistency ran out of room for its supports")
            if not machine.regs[R_GROW]:
                return found
            bigger = np.zeros(2 * machine.stack.size, np.int32)
            bigger[:machine.stack.size] = machine.stack
            machine.stack = bigger
            machine.regs[R_GROW] = 0
            if ends.size and found:
                return found

    def unwind(self, structure, machine) -> None:
        D = structure
        unwind(D.item, D.set, D.nd, D.origin_item, D.origin_set, D.origin_nd, machine.state)

    def applied(self, structure, machine) -> list[int]:
        return applied(structure, machine)[0]

    def check(self, options: Options, structure, machine = None) -> None:
        check(structure, options, machine)
