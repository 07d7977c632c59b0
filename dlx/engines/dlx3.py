"""Colours and multiplicities: Knuth's DLX2 (Algorithm C) and DLX3 (Algorithm M) as one resumable,
stoppable state machine.

The structure is DLX1's (`links`) with three more arrays, as in DLX3:

* ``colour[x]`` per node: 0 for none, or a colour number > 0 on a secondary item (never changes);
  while a node is *cleansed* (its option already agrees with the colour its item was given, so it
  is left alone) its ``top`` carries the ``CLEANSED`` bit, where Knuth sets its colour to -1: the
  dancing loops then test one word per node, as DLX1's do;
* ``bound[i]`` per primary item: how many more options may still cover it;
* ``slack[i]``: its upper bound minus its lower bound (never changes).

A level either chooses an option for the chosen item or makes the *null move* (takes no more options
for an item whose lower bound is met): ``choice[level]`` then holds the item's header node. When the
item is not simply covered, its options are *tweaked* off its list one by one as they are tried and
``first_tweak[level]`` remembers where the list began, so that `untweak` can put it back.

Steps, as Knuth names them in DLX3:

* ``FORWARD``: enter a level; choose the active primary item with the least branching degree
  ``length + s - bound + 1`` (``s = min(slack, bound)``; ties: the smaller ``s``, then the longer list,
  then the leftmost); a degree <= 0 is a dead end, no active item is a solution;
* ``ADVANCE``: try the level's current option (tweak it, then cover, purify or count down its other
  items), or make the null move, or back up when the list has too few options left;
* ``BACKUP``: restore the level's item (uncover or untweak) and give back its bound;
* ``BACKDOWN``: leave the level: take back its option (or reactivate the item of a null move) and
  try the next option.

The search calls only leaves (see [`base`][dlx.engines.base]): `cover`, `uncover`, `purify`,
`unpurify`, `tweak`, `untweak`. The steps that combine them (commit an option's
other items, uncommit them, restore a level's item) are spelled out inside [`search`][dlx.search], and kept
as functions for `select` and `unwind`.

Counts follow Knuth. A node per level entered (dead ends and solutions included); an update per
item covered and per node unlinked (by cover, purify or tweak); a cleansing per purified item and
per option whose colour it satisfies. With every bound 1 the search is DLX2's, whose dead ends cover
their empty item and so count one update each; DLX3 backs up before covering (``dead_end_update``).
Without colours, too, the figures are DLX1's.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .. import status as st
from . import batch, links
from .base import (
    CLEANSINGS,
    FLOOR,
    LEAVE,
    LEVEL,
    NODES,
    ONE_SOLUTION,
    PHASE,
    POLL,
    STATE_SIZE,
    STEP,
    STOP,
    UPDATES,
    Machine,
    Options,
    StructureError,
    ceiling_of,
    put_back,
    refuse_trace,
    resumable,
    settle,
)
from .batch import CHOSEN, FIRST, MORE, NEW_ROW, NO_NODE, ROW, STAGE, TALLY
from .links import ONE, SPACER, ZERO, Links, option_of

FORWARD, ADVANCE, BACKUP, BACKDOWN = 0, 1, 2, 3
assert BACKDOWN == LEAVE
INFINITY = 1 << 30      # the branching degree when no primary item is active: a solution
CLEANSED = np.uint32(0x40000000)     # in ``top``: a cleansed node (below SPACER, above every item)
#: Two more slots of a DLX3 machine's ``state``: the updates and cleansings of the run under way
#: (purify adds to both), so that the search allocates nothing.
COUNTS = STATE_SIZE
DLX3_STATE_SIZE = STATE_SIZE + 2


class MLinks(NamedTuple):
    """DLX3's arrays for one problem (see the module's docstring): DLX1's links (items ``1..n1``
    primary; ``length[0]`` is not kept, and ``top`` changes by the CLEANSED bit) and three more."""

    links: Links
    colour: np.ndarray    # int32, nodes; never changes
    bound: np.ndarray     # int32, items 0..N (secondary: unused)
    slack: np.ndarray     # int32, items 0..N; never changes
    dead_end_update: np.int64   # 1: count DLX2's update at a dead end; 0: DLX3's rules
    depth: np.int64             # the most levels a search can need (max_depth)


def build(problem: Options) -> MLinks:
    """The structure of ``problem`` as built. Cost: linear in the size of the problem."""
    start, ids = problem.start, problem.items
    n_items, n_primary = problem.n_items, problem.n_primary
    base = links.build(start, ids, n_items, n_primary)
    colour = np.zeros(base.top.size, np.int32)
    if problem.colours is not None:
        owner = np.repeat(np.arange(start.size - 1), np.diff(start))
        colour[n_items + 2 + np.arange(ids.size) + owner] = problem.colours
    bound = np.ones(n_items + 1, np.int32)
    slack = np.zeros(n_items + 1, np.int32)
    if problem.bounds is not None:
        bound[1:n_primary + 1] = problem.bounds[:, 1]
        slack[1:n_primary + 1] = problem.bounds[:, 1] - problem.bounds[:, 0]
    base.length[0] = 0      # DLX1's count of empty items: not kept here
    return MLinks(base, colour, bound, slack, np.int64(problem.bounds is None), np.int64(max_depth(problem)))


def copy(L: MLinks) -> MLinks:
    """A copy to search on; ``colour`` and ``slack`` never change, so they are shared (``top``
    changes here, by the CLEANSED bit)."""
    return L._replace(links=links.copy(L.links)._replace(top=L.links.top.copy()), bound=L.bound.copy())


@njit(cache=True, nogil=True, _nrt=False)
def restore(L, pristine):
    """Copy the changing arrays of ``pristine`` back into ``L``: the structure as built, at once."""
    links.restore(L.links, pristine.links)
    put_back(L.links.top, pristine.links.top)
    put_back(L.bound, pristine.bound)


def max_depth(problem: Options) -> int:
    """Levels a search can need: each either takes an option (at most the sum of the upper bounds)
    or makes a null move, which retires a primary item."""
    hi = problem.n_primary if problem.bounds is None else int(problem.bounds[:, 1].sum())
    return min(hi, problem.n_options) + (0 if problem.bounds is None else problem.n_primary) + 1


def new_state(depth: int) -> Machine:
    return Machine(np.zeros(depth, np.uint32), np.zeros(DLX3_STATE_SIZE, np.int64), np.zeros(depth, np.uint32))


# --- the dance steps


@njit(cache=True, nogil=True, inline="always")
def hide(rr, top, ulink, dlink, length):
    """Unlink the nodes of ``rr``'s option other than ``rr`` from their lists, except cleansed ones;
    returns the updates. (The arrays, not the record: a record's field is a reference count up
    and down per call, and this runs once per option hidden.)"""
    updates = 0
    nn = rr + ONE
    while nn != rr:
        cc = top[nn]
        if cc >= CLEANSED:
            if cc >= SPACER:
                nn = ulink[nn]
                continue
        else:
            uu = ulink[nn]
            dd = dlink[nn]
            dlink[uu] = dd
            ulink[dd] = uu
            length[cc] -= 1
            updates += 1
        nn += ONE
    return updates


@njit(cache=True, nogil=True, inline="always")
def unhide(rr, top, ulink, dlink, length):
    """Undo `hide` (``rr``), right to left."""
    nn = rr - ONE
    while nn != rr:
        cc = top[nn]
        if cc >= CLEANSED:
            if cc >= SPACER:
                nn = dlink[nn]
                continue
        else:
            dlink[ulink[nn]] = nn
            ulink[dlink[nn]] = nn
            length[cc] += 1
        nn -= ONE


@njit(cache=True, nogil=True, _nrt=False)
def reactivate(c, L):
    L.links.rlink[L.links.llink[c]] = c
    L.links.llink[L.links.rlink[c]] = c


@njit(cache=True, nogil=True, _nrt=False)
def cover(c, DL):
    """Deactivate item ``c`` and hide every option in its list; returns the updates."""
    llink, rlink, length, top, ulink, dlink, _ = DL
    l = llink[c]
    r = rlink[c]
    rlink[l] = r
    llink[r] = l
    updates = 1
    rr = dlink[c]
    while rr != c:
        updates += hide(rr, top, ulink, dlink, length)
        rr = dlink[rr]
    return updates


@njit(cache=True, nogil=True, _nrt=False)
def uncover(c, DL, react):
    """Undo `cover` (``c``), bottom to top; ``react``: reactivate the item too."""
    top, ulink, dlink, length = DL.top, DL.ulink, DL.dlink, DL.length
    rr = ulink[c]
    while rr != c:
        unhide(rr, top, ulink, dlink, length)
        rr = ulink[rr]
    if react:
        llink, rlink = DL.llink, DL.rlink
        rlink[llink[c]] = c
        llink[rlink[c]] = c


@njit(cache=True, nogil=True, _nrt=False)
def purify(p, DL, colour, counts):
    """Give node ``p``'s secondary item the colour of ``p``: hide every option that wants another
    colour (or none) there, and cleanse those that want the same one. Counts go to ``counts``
    (updates, cleansings)."""
    dlink, top, ulink, length = DL.dlink, DL.top, DL.ulink, DL.length
    cc = top[p]
    x = colour[p]
    counts[1] += 1
    rr = dlink[cc]
    while rr != cc:
        if colour[rr] != x:
            counts[0] += hide(rr, top, ulink, dlink, length)
        else:
            top[rr] |= CLEANSED
            counts[1] += 1
        rr = dlink[rr]


@njit(cache=True, nogil=True, _nrt=False)
def unpurify(p, DL):
    """Undo `purify` (``p``), bottom to top."""
    ulink, top, dlink, length = DL.ulink, DL.top, DL.dlink, DL.length
    cc = top[p]
    rr = ulink[cc]
    while rr != cc:
        if top[rr] >= CLEANSED:
            top[rr] ^= CLEANSED
        else:
            unhide(rr, top, ulink, dlink, length)
        rr = ulink[rr]


@njit(cache=True, nogil=True, _nrt=False)
def tweak(n, DL, block):
    """Take option node ``n`` (the top of its item's list) off that list; with ``block``, hide the
    rest of its option too (without, the item is covered already). Returns the updates."""
    top, ulink, dlink, length = DL.top, DL.ulink, DL.dlink, DL.length
    updates = 0
    nn = n + ONE if block else n
    while True:
        cc = top[nn]
        if cc >= SPACER:
            nn = ulink[nn]
            continue
        if cc < CLEANSED:
            uu = ulink[nn]
            dd = dlink[nn]
            dlink[uu] = dd
            ulink[dd] = uu
            length[cc] -= 1
            updates += 1
        if nn == n:
            break
        nn += ONE
    return updates


@njit(cache=True, nogil=True, _nrt=False)
def untweak(c, x, DL, unblock):
    """Put back the options tweaked off item ``c``'s list since ``x`` was its top; with ``unblock``,
    unhide them too (without, ``c`` is covered and the caller uncovers it, so that this stays a
    leaf, see [`base`][dlx.engines.base])."""
    ulink, dlink, top, length = DL.ulink, DL.dlink, DL.top, DL.length
    z = dlink[c]
    dlink[c] = x
    rr = x
    qq = c
    k = 0
    while rr != z:
        ulink[rr] = qq
        k += 1
        if unblock:
            unhide(rr, top, ulink, dlink,
                   length)     # the nodes of one option lie in different lists: any order will do
        qq = rr
        rr = dlink[rr]
    ulink[rr] = qq
    DL.length[c] += k


@njit(cache=True, nogil=True, _nrt=False)
def commit(p, L, counts):
    """Apply the item of node ``p`` of a chosen option: a primary item's bound goes down (covered
    at 0); a secondary item is covered or, with a colour, purified (a cleansed node agrees with
    its item's colour already)."""
    top, bound, colour = L.links.top, L.bound, L.colour
    cc = top[p]
    if cc <= L.links.n1:
        bound[cc] -= 1
        if bound[cc] == 0:
            counts[0] += cover(cc, L.links)
    elif cc < CLEANSED:
        if colour[p] == 0:
            counts[0] += cover(cc, L.links)
        else:
            purify(p, L.links, L.colour, counts)


@njit(cache=True, nogil=True, _nrt=False)
def uncommit(p, L):
    """Undo `commit` (``p``)."""
    cc = L.links.top[p]
    if cc <= L.links.n1:
        if L.bound[cc] == 0:
            uncover(cc, L.links, True)
        L.bound[cc] += 1
    elif cc >= CLEANSED:
        pass
    elif L.colour[p] == 0:
        uncover(cc, L.links, True)
    else:
        unpurify(p, L.links)


@njit(cache=True, nogil=True, _nrt=False)
def uncommit_others(cur, L):
    """Undo the commits of ``cur``'s option other than its own, right to left."""
    top, dlink = L.links.top, L.links.dlink
    p = cur - ONE
    while p != cur:
        if top[p] >= SPACER:
            p = dlink[p]
            continue
        uncommit(p, L)
        p -= ONE


@njit(cache=True, nogil=True, _nrt=False)
def restore_item(best, first, L):
    """BACKUP's step: put the chosen item ``best`` of a level back as it was before the level
    (``first``: the level's first tweaked node, 0 when the item was simply covered)."""
    if first == 0:
        uncover(best, L.links, True)
    else:
        unblock = L.bound[best] != 0
        untweak(best, first, L.links, unblock)
        if not unblock:
            uncover(best, L.links, False)
    L.bound[best] += 1


@njit(cache=True, nogil=True, _nrt=False)
def select(x, L, counts):
    """Make the option whose first node is ``x`` part of every solution (a batch's option selected
    in advance): take it off every list it is on, then apply its items as a chosen option's other
    items are applied. Returns False (and changes nothing) when the option is no longer possible:
    one of its primary items is covered, or it was hidden by a covered or purified item."""
    top, ulink, dlink, n1 = L.links.top, L.links.ulink, L.links.dlink, L.links.n1
    p = x
    while top[p] < SPACER:
        c = top[p]
        if c <= n1 and (L.links.rlink[L.links.llink[c]] != c or dlink[ulink[p]] != p):
            return False
        p += ONE
    p = x
    while top[p] < SPACER:
        if top[p] < CLEANSED:
            c = top[p]
            dlink[ulink[p]] = dlink[p]
            ulink[dlink[p]] = ulink[p]
            L.links.length[c] -= 1
            counts[0] += 1
        p += ONE
    p = x
    while top[p] < SPACER:
        commit(p, L, counts)
        p += ONE
    return True


@njit(cache=True, nogil=True, _nrt=False)
def deselect(x, L):
    """Undo `select` (``x``)."""
    top, ulink, dlink = L.links.top, L.links.ulink, L.links.dlink
    p = x
    while top[p] < SPACER:
        p += ONE
    end = p
    while p != x:
        p -= ONE
        uncommit(p, L)
    p = end
    while p != x:
        p -= ONE
        if top[p] < CLEANSED:
            dlink[ulink[p]] = p
            ulink[dlink[p]] = p
            L.links.length[top[p]] += 1


# --- the search machine


@njit(cache=True, nogil=True, _nrt=False)
def search(L, choice, first_tweak, state, want, max_nodes, work, out, ends):
    """Run until ``want`` more solutions have been visited, the tree is exhausted, the node count
    reaches ``max_nodes``, ``state[STOP]`` is set, or about ``work`` updates are spent; returns how
    many solutions this call visited (see ``dlx1.search``: same phases, same ``out``/``ends``).

    Levels ``0..state[LEVEL]-1`` are applied whenever it returns. ``state[FLOOR]`` and
    ``state[CEILING]`` make it a piece of a split search (see [`base`][dlx.engines.base]): a forced level's
    option (or null move, an item's header) is in ``choice``; the options before it on a tweaked
    list are tweaked away first, as trying them would have left them, without counting.
    """
    DL = L.links          # DLX1's links, handed to the leaves whole
    llink, rlink, length, top, ulink, dlink, n1 = DL
    colour, bound, slack, dead_end_update = L.colour, L.bound, L.slack, L.dead_end_update
    if not resumable(state):
        return 0
    phase = st.RUNNING
    n_items = llink.size - 2
    record = ends.size > 0
    counts = state[COUNTS:COUNTS + 2]      # updates, cleansings: purify adds to both
    counts[0] = state[UPDATES]
    counts[1] = state[CLEANSINGS]
    floor = state[FLOOR]
    ceiling = ceiling_of(state)
    nodes = state[NODES]
    level = state[LEVEL]
    step = state[STEP]
    poll = counts[0]
    end = counts[0] + work
    found = 0
    used = 0
    best = ZERO
    cur = ZERO
    while True:
        if step == FORWARD:
            if counts[0] >= poll:
                poll = counts[0] + POLL
                if state[STOP] != 0:
                    phase = st.STOPPED
                    break
                if counts[0] >= end:
                    break
            if level < floor:
                # a forced level: its item is the given option's (or the null move's)
                best = choice[level] if choice[level] <= n_items else top[choice[level]]
                cur = dlink[best]
                first_tweak[level] = ZERO
                bound[best] -= 1
                if bound[best] == 0 and slack[best] == 0:
                    cover(best, DL)
                else:
                    first_tweak[level] = cur
                    if bound[best] == 0:
                        cover(best, DL)
                step = ADVANCE
                continue
            if nodes >= max_nodes:
                phase = st.MAX_NODES
                break
            if level == ceiling:
                phase = st.SPLIT
                step = BACKDOWN
                break
            nodes += 1
            score = INFINITY
            best_s = 0
            best_l = 0
            k = rlink[ZERO]
            while k != ZERO:
                b = bound[k]
                s = min(slack[k], b)
                t = length[k] + s - b + 1
                if t <= score:
                    if t < score or s < best_s or (s == best_s and length[k] > best_l):
                        score = t
                        best = k
                        best_s = s
                        best_l = length[k]
                    if t <= 0:
                        break        # a dead end whichever item shows it
                k = rlink[k]
            if score <= 0:
                counts[0] += dead_end_update
                step = BACKDOWN
                continue
            if score == INFINITY:
                found += 1
                if record:
                    n = 0
                    for l in range(level):
                        if choice[l] > n_items:      # an option's node, not a null move's header
                            out[used + n] = option_of(choice[l], top)
                            n += 1
                    used += n
                    ends[found - 1] = used
                step = BACKDOWN
                if found == want or (record and (found == ends.size or used + choice.size > out.size)):
                    break
                continue
            cur = dlink[best]
            choice[level] = cur
            first_tweak[level] = ZERO
            bound[best] -= 1
            if bound[best] == 0 and slack[best] == 0:
                counts[0] += cover(best, DL)
            else:
                first_tweak[level] = cur
                if bound[best] == 0:
                    counts[0] += cover(best, DL)
            step = ADVANCE
        elif step == ADVANCE:
            # a try counts only where it opens a level this run owns (not a forced one); the
            # counters are put back rather than a second array chosen, which would cost a reference
            # count up and down per try
            owned = floor <= level + 1 < ceiling
            if first_tweak[level] == ZERO:
                if cur == best:
                    step = BACKUP
                    continue
            elif length[best] <= bound[best] - slack[best]:
                step = BACKUP
                continue
            elif level < floor and cur != choice[level]:
                if cur == best:     # the forced move is not on the list: nothing lies below it
                    step = BACKUP
                    continue
                tweak(cur, DL, bound[best] != 0)     # passing an option to the forced one: uncounted
                cur = dlink[cur]
                continue
            elif cur != best:
                done = tweak(cur, DL, bound[best] != 0)
                if owned:
                    counts[0] += done
            elif bound[best] != 0:
                rlink[llink[best]] = rlink[best]       # deactivate(best)
                llink[rlink[best]] = llink[best]
            if level < floor and cur != choice[level]:
                cur = dlink[cur]        # an untweaked list: passing an option costs nothing
                continue
            if cur != best:
                before, cleansed = counts[0], counts[1]
                p = cur + ONE
                while p != cur:     # commit(p) for the option's other items, spelled out (see .base)
                    cc = top[p]
                    if cc >= SPACER:
                        p = ulink[p]
                        continue
                    if cc <= n1:
                        bound[cc] -= 1
                        if bound[cc] == 0:
                            counts[0] += cover(cc, DL)
                    elif cc < CLEANSED:
                        if colour[p] == 0:
                            counts[0] += cover(cc, DL)
                        else:
                            purify(p, DL, colour, counts)
                    p += ONE
                if not owned:
                    counts[0], counts[1] = before, cleansed
            level += 1
            step = FORWARD
        elif step == BACKUP:
            first = first_tweak[level]     # restore_item(best, first), spelled out
            if first == ZERO:
                uncover(best, DL, True)
            elif bound[best] != 0:
                untweak(best, first, DL, True)
            else:
                untweak(best, first, DL, False)
                uncover(best, DL, False)
            bound[best] += 1
            step = BACKDOWN
        else:  # BACKDOWN
            if level <= floor:
                phase = st.COMPLETE
                break
            level -= 1
            cur = choice[level]
            if cur <= n_items:      # the null move of item ``cur``
                best = cur
                rlink[llink[best]] = best
                llink[rlink[best]] = best
                step = BACKUP
                continue
            best = top[cur]
            p = cur - ONE
            while p != cur:     # uncommit_others(cur), spelled out
                cc = top[p]
                if cc >= SPACER:
                    p = dlink[p]
                    continue
                if cc <= n1:
                    if bound[cc] == 0:
                        uncover(cc, DL, True)
                    bound[cc] += 1
                elif cc < CLEANSED:
                    if colour[p] == 0:
                        uncover(cc, DL, True)
                    else:
                        unpurify(p, DL)
                p -= ONE
            cur = dlink[cur]
            choice[level] = cur
            step = ADVANCE
    settle(state, phase, level, step, nodes, counts[0], counts[1], found)
    return found


@njit(cache=True, nogil=True, _nrt=False)
def unwind(L, choice, first_tweak, state):
    """Take back every applied level: the structure is as built, and the search is over."""
    n_items = L.links.llink.size - 2
    for level in range(state[LEVEL] - 1, -1, -1):
        cur = choice[level]
        if cur <= n_items:
            best = cur
            reactivate(best, L)
        else:
            best = L.links.top[cur]
            uncommit_others(cur, L)
            if first_tweak[level] != ZERO and L.bound[best] == 0:
                reactivate(best, L)     # covered with slack left: the null move to come would do it
        restore_item(best, first_tweak[level], L)
    state[LEVEL] = 0
    state[STEP] = FORWARD
    if state[PHASE] != st.COMPLETE:
        state[PHASE] = st.STOPPED


def applied(L: MLinks, machine: Machine) -> list[int]:
    """The option numbers taken at the levels of a paused search, in level order (null moves
    take none)."""
    n_items = L.links.llink.size - 2
    return [int(option_of(c, L.links.top)) for c in machine.choice[:machine.state[LEVEL]].tolist()
            if c > n_items]


# --- many variants of the problem in one call (see `batch`)


@njit(cache=True, nogil=True, _nrt=False)
def solve_batch(L, pristine, G, R, rows, limit, max_nodes, work, where, chosen, choice, first_tweak, state,
                out, ends):
    """`dlx1.solve_batch` for this structure (colours, multiplicities): the same arguments
    and results, with this module's search. A selected option is taken off its lists and its items
    applied as a chosen option's are; an option that is no longer possible makes the row INVALID."""
    n_rows, n_groups = rows.shape
    first_node, group_start, option_group, option_value = G
    answers, counts, nodes, status = R
    no_ends = ends[:0]
    tally = where[TALLY:]
    r = where[ROW]
    stage = where[STAGE]
    n_chosen = where[CHOSEN]
    spent = 0
    while r < n_rows:
        if stage == NEW_ROW:
            if spent >= work:
                break
            batch.begin_row(answers, counts, nodes, status, r)
            n_chosen = 0
            for j in range(n_groups):
                x = batch.given(first_node, group_start, rows, r, j)
                if x == 0:
                    continue
                if x == NO_NODE or not select(x, L, tally):
                    status[r] = st.INVALID
                    break
                chosen[n_chosen] = x
                n_chosen += 1
                answers[r, j] = rows[r, j]
            if status[r] == st.SOLVED:
                state[:] = 0
                stage = FIRST
        if stage != NEW_ROW:
            before = state[UPDATES]
            if stage == FIRST:
                if search(L, choice, first_tweak, state, ONE_SOLUTION, max_nodes, work - spent, out, ends):
                    batch.first_found(option_group, option_value, answers, counts, r, out, ends)
                    stage = MORE
            if stage == MORE and counts[r] < limit:
                counts[r] += search(L, choice, first_tweak, state, limit - counts[r], max_nodes,
                                      work - spent, out, no_ends)
            spent += state[UPDATES] - before
            if batch.unfinished(state, counts, r, limit):
                break
            batch.row_done(state, counts, nodes, status, r, state[NODES])
            if state[PHASE] != st.COMPLETE:
                restore(L, pristine)      # options still applied: back to as built at once
                n_chosen = 0
        batch.end_row(answers, status, r)
        for k in range(n_chosen - 1, -1, -1):
            deselect(chosen[k], L)
        n_chosen = 0
        stage = NEW_ROW
        r += 1
    where[ROW] = r
    where[STAGE] = stage
    where[CHOSEN] = n_chosen
    return r == n_rows


def check(problem: Options, L: MLinks, machine: Machine | None = None) -> None:
    """Raise `StructureError` unless ``L`` is exactly what ``problem`` gives at the point
    where ``machine`` (None: no run) has paused: Knuth's ``sanity()`` on every active item (its
    list doubly linked, each node on it, its length right), then, on a copy, the run's levels
    taken back, which must leave the structure exactly as built. Cost: linear in the size of the
    problem (Python; for tests)."""
    n = L.links.llink.size - 2
    built = build(problem)
    if not ((L.colour == built.colour).all() and (L.slack == built.slack).all()):
        raise StructureError("colour or slack changed")
    for root, first in ((0, 1), (n + 1, int(L.links.n1) + 1)):
        seen: list[int] = []
        i = int(L.links.rlink[root])
        while i != root:
            if L.links.rlink[L.links.llink[i]] != i:
                raise StructureError(f"item list broken at item {i}")
            if not (first <= i <= (int(L.links.n1) if root == 0 else n) and len(seen) <= n):
                raise StructureError("item list runs wild")
            seen.append(i)
            i = int(L.links.rlink[i])
        if seen != sorted(seen):
            raise StructureError(f"items out of order: {seen}")
        for i in seen:
            count, x = 0, i
            while True:
                y = int(L.links.dlink[x])
                if L.links.ulink[y] != x:
                    raise StructureError(f"list of item {i} broken at node {x}")
                if y == i:
                    break
                if L.links.top[y] & ~CLEANSED != i:
                    raise StructureError(f"node {y} is on the list of item {i}, not its own")
                count += 1
                if not (count <= L.links.top.size):
                    raise StructureError(f"list of item {i} runs wild")
                x = y
            if L.links.length[i] != count:
                raise StructureError(f"length of item {i} is {L.links.length[i]}, not {count}")
    after = copy(L)
    if machine is not None:
        assert machine.first_tweak is not None, "a DLX3 machine keeps first_tweak"
        m = Machine(machine.choice.copy(), machine.state.copy(), machine.first_tweak.copy())
        unwind(after, m.choice, m.first_tweak, m.state)
    for field in ("llink", "rlink", "length", "top", "ulink", "dlink", "bound"):
        got, want = (getattr(a, field) if field == "bound" else getattr(a.links, field) for a in (after, built))
        wrong = np.flatnonzero(got != want)
        if wrong.size:
            raise StructureError(f"{field}[{wrong[0]}] is {got[wrong[0]]}, not {want[wrong[0]]} as built")


class DLX3:
    """Knuth's DLX2 and DLX3 (colours, multiplicities): nodes, updates and cleansings counted as
    his programs count them (DLX2's rules when every bound is 1, DLX3's otherwise)."""

    name = "dlx3"
    summary = "Knuth's DLX2 (colours) and DLX3 (multiplicities) on Dancing Links"
    counts = ("DLX2's, DLX3's with multiplicities: nodes: levels entered (dead ends and solutions "
              "included); updates: items covered plus nodes unlinked (by cover, purify or tweak); "
              "cleansings: purified items plus options whose colour a purification satisfied")
    refuses = "nothing"
    tunables = {f"{__name__}:POLL": 1}
    samples = (("k_queens", (5, 3)), ("graceful", ([(0, 1), (1, 2)],)))
    searches = (search,)
    traces = False
    batches = True
    exact_splits = True

    def refusal(self, options: Options) -> str | None:
        return None

    def prepare(self, options: Options) -> MLinks:
        L = build(options)
        return L

    def copy(self, structure: MLinks) -> MLinks:
        return copy(structure)

    def restore(self, structure: MLinks, pristine: MLinks) -> None:
        restore(structure, pristine)

    def start(self, structure: MLinks) -> Machine:
        return new_state(int(structure.depth))

    def advance(self, structure, machine, want, max_nodes, work, out, ends, *, early=False, trace=None) -> int:
        """``early`` is allowed and changes nothing: this machine always backs up the whole way."""
        refuse_trace(self, trace)
        return search(structure, machine.choice, machine.first_tweak, machine.state, want, max_nodes,
                      work, out, ends)

    def unwind(self, structure, machine) -> None:
        unwind(structure, machine.choice, machine.first_tweak, machine.state)

    def untried(self, structure, machine, level: int, pristine) -> list[int]:
        """The moves a paused run has yet to try at ``level``: the nodes below its choice and, on a
        tweaked list, the null move (the item's header) at the end. A tweaked item stays active,
        so deeper levels may have hidden some of its options for a while: its list is read as
        built, and a piece whose option the run would not reach (hidden then, or ruled out by
        the item's lower bound) ends at once, with nothing counted."""
        x = int(machine.choice[level])
        if x <= structure.links.llink.size - 2:
            return []           # the null move comes last
        tweaked = bool(machine.first_tweak[level])
        header = int(structure.links.top[x])
        dlink = pristine.links.dlink if tweaked else structure.links.dlink
        later = []
        x = int(dlink[x])
        while x != header:
            later.append(x)
            x = int(dlink[x])
        if tweaked:
            later.append(header)
        return later

    def applied(self, structure, machine) -> list[int]:
        return applied(structure, machine)

    def check(self, options: Options, structure, machine: Machine | None = None) -> None:
        check(options, structure, machine)

    def first_nodes(self, options: Options) -> np.ndarray:
        return links.first_nodes(options.start, options.n_items)

    def solve_batch(self, structure, pristine, scratch, groups, rows, limit, max_nodes, work, results) -> bool:
        m = scratch.machine
        return solve_batch(structure, pristine, groups, results, rows, limit, max_nodes, work, scratch.where,
                           scratch.chosen, m.choice, m.first_tweak, m.state, scratch.out, scratch.ends)

    def reduce_row(self, structure, pristine, scratch, groups, row, units, unit_ends, keep, minimal,
                   budget) -> int:
        """One batch row per test (`batch.reduce_by_rows`)."""
        return batch.reduce_by_rows(self, structure, pristine, scratch, groups, row, units, unit_ends, keep,
                                    minimal, budget)
