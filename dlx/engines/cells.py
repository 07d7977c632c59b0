"""Dancing cells: Knuth's SSXC1 and SSXCC (TAOCP 7.2.2.3), as one resumable, stoppable machine.

Every item keeps the options that still contain it as a sparse set: a slice of one array ``set``
whose first ``size`` entries are the live options (their nodes), the rest the ones taken out. An
option leaves a set by a swap with the last live entry, and comes back when the size is put back:
so instead of undoing, the search saves the sizes of the active items when it enters a branching
level and restores them when it tries the level's next option. Forced levels (one option) save
nothing: an ancestor's sizes put them back. When trying an option would leave an active primary
item without options, the attempt stops at once (an early abort) rather than a level deeper.

The layout follows SSXC1, with two arrays of 32-bit words:

* ``set``: item ``x`` (an index into ``set``) has ``colour(x) = set[x-3]`` (the colour it was purified
  with, 0 if covered), ``pos(x) = set[x-2]`` (its place in ``item``) and ``size(x) = set[x-1]``; its
  options are ``set[x .. x+size)``, each a node;
* ``nd``: node ``y`` (an even index) has ``itm = nd[y]`` and ``loc = nd[y+1]`` with ``set[loc] = y``;
  an option's nodes are consecutive and the spacer after it has ``itm = SPACER | 2t`` (``t`` nodes
  back to the option's first) and ``loc`` = the option's number;
* ``item``: the active primary items are ``item[0 .. active1)``, the active secondary ones
  ``item[n1 .. active2)``; the inactive ones lie beyond, where nothing moves them.

Colours (SSXCC): choosing an option purifies each secondary item it gives a colour, that is makes it
inactive and takes the options of any other colour out of every set. An option of the same colour
stays; when it is chosen in turn, its item is inactive already and is left alone. A purified item's
set is not touched again until its level is left (``frozen``), as Knuth's colour ``-1`` marks it.

Counts: ``nodes`` are levels entered (solutions included), as SSXC1 counts them; an attempt that
aborts early is no node. ``updates`` are items swapped out plus nodes taken out of a set;
``cleansings`` (with colours) purified items plus the options that kept their place in one. The
options at a level are tried in the order of their item's set, which changes as the sets dance, so
solutions come in another order than DLX1's (the same solutions, as sets).

Multiplicities (DLX3's bounds) are not for this engine: it raises ``ValueError`` for them.

Steps, as SSXC1 labels them (``forward``, ``advance``/``tryit``, ``abort``, ``backup``):

* ``FORWARD``: enter a level (a node, unless the level is forced); visit a solution when no
  primary item is active; else choose the active primary item with the smallest set, swap it out
  of the active list, hide its options and save the active sizes (a branching level only);
* ``ADVANCE`` (SSXC1's ``advance`` and ``tryit``): try the level's current option: swap out its
  other items and hide their other options, or abort early when a primary item would lose its
  last option;
* ``ABORT``: the try is over (it aborted, or the level below backed up to it): back up when the
  item has no option left, else restore the saved sizes and advance to the next option;
* ``BACKUP``: leave the level, and abort its try.

SSXC1's ``hide(c, check)`` hides every option of item ``c``: here that is `cover` (which
purifies too, with colours), and `hide` takes one option out of the sets of its other items
(SSXC1's "Remove the option from the other sets it's in").
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .. import status as st
from . import batch
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
    YES,
    Options,
    Single,
    StructureError,
    ceiling_of,
    put_back,
    refuse_trace,
    resumable,
    settle,
)
from .batch import FIRST, MORE, NEW_ROW, NO_NODE, ROW, STAGE, TALLY

FORWARD, ADVANCE, ABORT, BACKUP = 0, 1, 2, 3
assert BACKUP == LEAVE
#: More slots of a cells machine's ``state``: the ends of the active lists, and a request for a
#: larger save stack (the kernel returns with it set; `Cells.advance` grows the stack).
ACTIVE1, ACTIVE2, GROW = STATE_SIZE, STATE_SIZE + 1, STATE_SIZE + 2
CELLS_STATE_SIZE = STATE_SIZE + 3

ONE = np.uint32(1)
TWO = np.uint32(2)
THREE = np.uint32(3)
SPACER = np.uint32(0x80000000)
NONE = np.uint32(0xFFFFFFFF)
#: The save stack starts with room for ``STACK_LEVELS`` branching levels (at least ``STACK_START``
#: words, at most what the deepest search can need) and doubles when a search needs more.
STACK_LEVELS = 8
STACK_START = 1 << 12


class CellStructure(NamedTuple):
    """The sparse sets of one problem, and the arrays as built (``origin_*``, shared by copies)."""

    item: np.ndarray          # uint32: primary items, then secondary items, by their ``set`` index
    set: np.ndarray           # uint32: per item colour, pos, size, then its options' nodes
    nd: np.ndarray            # uint32: per node itm, loc (spacers: SPACER | 2t, option number)
    clr: np.ndarray           # uint32: per node the colour of its entry (empty without colours)
    origin_item: np.ndarray
    origin_set: np.ndarray
    origin_nd: np.ndarray
    n1: np.uint32             # primary items
    n_items: np.uint32
    second: np.uint32         # the first secondary item's ``set`` index (items below it are primary)


class CellMachine:
    """A run's state: ``choice[level]`` (the node tried at each level), ``state`` (the shared
    layout plus ``ACTIVE1``, ``ACTIVE2``, ``GROW``), ``saved[level]`` (where the level's saved sizes
    start in ``stack``) and ``stack`` (for each branching level: the two list ends, then item and
    size of every active item). The stack grows when a deep search needs more room."""

    first_tweak = None

    def __init__(self, structure: CellStructure) -> None:
        n1, n_items = int(structure.n1), int(structure.n_items)
        self.choice = np.zeros(n1 + 1, np.uint32)
        self.state = np.zeros(CELLS_STATE_SIZE, np.int64)
        self.state[ACTIVE1] = n1
        self.state[ACTIVE2] = n_items
        self.saved = np.zeros(n1 + 2, np.int64)
        words = 2 * (n_items + 1)         # a level's save: two list ends, two words per item
        self.stack = np.zeros(min(words * (n1 + 1), max(STACK_START, words * STACK_LEVELS)), np.uint32)

    def grow(self) -> None:
        """Double the save stack, keeping what it holds."""
        bigger = np.zeros(2 * self.stack.size, np.uint32)
        bigger[:self.stack.size] = self.stack
        self.stack = bigger
        self.state[GROW] = 0

    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.choice, self.saved, self.stack, self.state


def build(option_start: np.ndarray, option_items: np.ndarray, option_colours: np.ndarray | None,
          n_items: int, n_primary: int) -> CellStructure:
    """The sparse sets of a problem given in CSR form (0-based item ids, options without a primary
    item already emptied). Cost: linear in the size of the problem."""
    n_nodes = option_items.size + option_start.size
    if 2 * n_nodes >= 1 << 31:
        raise ValueError(f"{option_items.size:,} option entries are too many for the cells engine "
                         "(at most about 2**30): the dlx engine takes them")
    colours = np.zeros(0, np.uint32) if option_colours is None else option_colours
    item, sets, nd, clr, second = _build(option_start, option_items, colours, n_items, n_primary)
    return CellStructure(item, sets, nd, clr, item.copy(), sets.copy(), nd.copy(),
                         np.uint32(n_primary), np.uint32(n_items), np.uint32(second))


@njit(cache=True, nogil=True)
def _build(option_start, option_items, option_colours, n_items, n_primary):
    n_options = option_start.size - 1
    lengths = np.zeros(n_items, np.int64)
    for k in range(option_items.size):
        lengths[option_items[k]] += 1
    item = np.empty(n_items, np.uint32)
    x = 3
    second = 0
    for i in range(n_items):
        if i == n_primary:
            second = x
        item[i] = x
        x += lengths[i] + 3
    if n_primary == n_items:
        second = x
    sets = np.zeros(x, np.uint32)
    for i in range(n_items):
        sets[item[i] - 2] = i
    n_nodes = option_items.size + n_options + 1
    nd = np.zeros(2 * n_nodes, np.uint32)
    coloured = option_colours.size > 0
    clr = np.zeros(2 * n_nodes if coloured else 0, np.uint32)
    nd[0] = SPACER
    nd[1] = NONE
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
                clr[y] = option_colours[k]
            y += 2
        nd[y] = SPACER | np.uint32(y - first)
        nd[y + 1] = o
        y += 2
    return item, sets, nd, clr, second


def copy(cells: CellStructure) -> CellStructure:
    """A copy to search on; what never changes (``clr``, the origin) is shared."""
    return cells._replace(item=cells.item.copy(), set=cells.set.copy(), nd=cells.nd.copy())


@njit(cache=True, nogil=True, _nrt=False)
def restore(C):
    """The sets as built again (every array exactly, so the next run tries options in the same
    order as a first one)."""
    put_back(C.item, C.origin_item)
    put_back(C.set, C.origin_set)
    put_back(C.nd, C.origin_nd)


@njit(cache=True, nogil=True, _nrt=False)
def option_of(y, nd):
    """The number of the option that node ``y`` belongs to (read from the spacer after it)."""
    while nd[y] < SPACER:
        y += TWO
    return nd[y + ONE]


# The helpers below take the arrays themselves, never the record: taking a field of a record is
# a reference count up and down (an atomic operation) per call, which dwarfs a small helper.


@njit(cache=True, nogil=True, _nrt=False)
def swap_out(c, item, sets, second, state):
    """Make item ``c`` inactive: swap it with the last active item of its list (SSXC1's "Swap
    best_itm out of the active list", one item of "Swap out all other items of cur_node")."""
    if c < second:
        a = np.uint32(state[ACTIVE1] - 1)
        state[ACTIVE1] = a
    else:
        a = np.uint32(state[ACTIVE2] - 1)
        state[ACTIVE2] = a
    p = sets[c - TWO]
    cc = item[a]
    item[a] = c
    item[p] = cc
    sets[cc - TWO] = p
    sets[c - TWO] = a


@njit(cache=True, nogil=True, _nrt=False)
def is_active(c, sets, second, state):
    if c < second:
        return sets[c - TWO] < state[ACTIVE1]
    return sets[c - TWO] < state[ACTIVE2]


@njit(cache=True, nogil=True, _nrt=False)
def hide(tt, sets, nd, second, active1, check, coloured, frozen1, frozen2):
    """SSXC1's "Remove the option set[rr] from the other sets it's in": take the option of node
    ``tt`` out of the sets of its other items; returns ``(updates, ok)``,
    ok False when ``check`` is set and an active primary item would lose its last option (the sets
    are then partly changed, for the saved sizes to put back). With colours, a live option may hold an
    item purified earlier (``pos`` at or beyond ``frozen1``/``frozen2``, the list ends before this
    step): its set is left alone, as Knuth's colour ``-1`` marks such entries. Its size may not have
    been saved since, so taking an option out of it could not be undone; and no one reads the set
    of an inactive item before the size saved while it was active is put back. Without colours no
    live option has such an item."""
    updates = 0
    nn = tt + TWO
    while nn != tt:
        uu = nd[nn]
        if uu >= SPACER:
            nn -= uu ^ SPACER
            continue
        if coloured and sets[uu - TWO] >= (frozen1 if uu < second else frozen2):
            nn += TWO
            continue
        ss = sets[uu - ONE] - ONE
        if check and ss == 0 and uu < second and sets[uu - TWO] < active1:
            return updates, False
        vv = nd[nn + ONE]
        nnp = sets[uu + ss]
        sets[uu - ONE] = ss
        sets[uu + ss] = nn
        sets[vv] = nnp
        nd[nn + ONE] = uu + ss
        nd[nnp + ONE] = vv
        nn += TWO
        updates += 1
    return updates, True


@njit(cache=True, nogil=True, _nrt=False)
def cover(c, colour, sets, nd, clr, second, active1, check, frozen1, frozen2):
    """SSXC1's ``hide(c, check)``: hide the options of item ``c`` (inactive already), all of them
    when ``colour`` is 0, else those of another colour (SSXCC's purification). Returns ``(updates,
    cleansings, ok)``, ok False when ``check`` is set and an early abort is due. Cleansings as Knuth
    counts them: the item, and each option that keeps its place because it has the item's colour."""
    coloured = clr.size > 0
    sets[c - THREE] = colour
    end = c + sets[c - ONE]
    updates = 0
    cleansings = 0
    if colour != 0:
        cleansings = 1
    for rr in range(c, end):
        tt = sets[rr]
        if colour != 0 and clr[tt] == colour:
            cleansings += 1
            continue
        u, ok = hide(tt, sets, nd, second, active1, check, coloured, frozen1, frozen2)
        updates += u
        if not ok:
            return updates, cleansings, False
    return updates, cleansings, True


@njit(cache=True, nogil=True, _nrt=False)
def apply_others(x, item, sets, nd, clr, second, state, check):
    """SSXC1's ``tryit`` for the option of node ``x``, the item of ``x`` itself apart: "Swap out all
    other items of cur_node" (one update each), then "Hide the other options of those items, or
    goto abort" (or purify them). An item already inactive is one the option
    shares, purified with the same colour. The sets of items inactive before are left alone (see
    `hide`). Returns ``(updates, cleansings, ok)``, ok False on an early abort."""
    coloured = clr.size > 0
    lo1 = state[ACTIVE1]
    lo2 = state[ACTIVE2]
    updates = 0
    cleansings = 0
    q = x + TWO
    while q != x:
        c = nd[q]
        if c >= SPACER:
            q -= c ^ SPACER
            continue
        if not coloured or is_active(c, sets, second, state):
            swap_out(c, item, sets, second, state)
            updates += 1
        q += TWO
    active1 = state[ACTIVE1]
    active2 = state[ACTIVE2]
    q = x + TWO
    while q != x:
        c = nd[q]
        if c >= SPACER:
            q -= c ^ SPACER
            continue
        p = sets[c - TWO]
        if p >= (active1 if c < second else active2) and p < (lo1 if c < second else lo2):
            u, k, ok = cover(c, clr[q] if coloured else np.uint32(0), sets, nd, clr, second, active1,
                             check, lo1, lo2)
            updates += u
            cleansings += k
            if not ok:
                return updates, cleansings, False
        q += TWO
    return updates, cleansings, True


@njit(cache=True, nogil=True, _nrt=False)
def select(x, C, state, tally):
    """Make the option whose first node is ``x`` part of every solution (a batch's given): its
    items are made inactive and their other options hidden. False, with nothing changed, when one
    of its items is inactive already (and not purified with the same colour): the option clashes
    with one selected before. A primary item left without options is no error here: the search
    finds the dead end. Adds updates and cleansings to ``tally``."""
    item, nd, sets, clr, second = C.item, C.nd, C.set, C.clr, C.second
    coloured = clr.size > 0
    q = x
    while nd[q] < SPACER:
        c = nd[q]
        if not is_active(c, sets, second, state) and (not coloured or clr[q] == 0 or sets[c - THREE] != clr[q]):
            return False
        q += TWO
    c = nd[x]
    if is_active(c, sets, second, state):
        f1, f2 = state[ACTIVE1], state[ACTIVE2]
        swap_out(c, item, sets, second, state)
        u, k, _ = cover(c, clr[x] if coloured else np.uint32(0), sets, nd, clr, second, state[ACTIVE1],
                        False, f1, f2)
        tally[0] += u + 1
        tally[1] += k
    u, k, _ = apply_others(x, item, sets, nd, clr, second, state, False)
    tally[0] += u
    tally[1] += k
    return True


@njit(cache=True, nogil=True, _nrt=False)
def in_order(C, state):
    """Put the active items back in the order of the problem (each list), and the live options of
    each active item back in option order: after options are selected (a batch row's givens),
    the sets are then as a fresh build of what is left would have them, so the search that follows
    makes the choices, and counts the nodes, of a search of that problem. Selecting swaps items
    and options around, and the item choice breaks ties by that order: without this, one 16x16
    sudoku row took 2,778,968 nodes, a search of its givens 331. Cost: a pass over the items and
    a sort of each active item's live options."""
    item, sets, nd = C.item, C.set, C.nd
    _items_in_order(item, sets, C.origin_item, 0, state[ACTIVE1], C.n1)
    _items_in_order(item, sets, C.origin_item, C.n1, state[ACTIVE2], C.n_items)
    for k in range(state[ACTIVE1]):
        _options_in_order(item[k], sets, nd)
    for k in range(C.n1, state[ACTIVE2]):
        _options_in_order(item[k], sets, nd)


@njit(cache=True, nogil=True, _nrt=False)
def _items_in_order(item, sets, origin_item, start, active, end):
    """Positions ``start..end`` of ``item`` (one list): its first ``active`` ones in the order they
    were built in, the inactive ones after them (also in that order). Reads ``origin_item`` only,
    so ``item`` is rewritten in place; an active item's new place is below ``active``, an inactive
    one's stays at or above it until the second pass moves it."""
    k = start
    for p in range(start, end):
        x = origin_item[p]
        if sets[x - TWO] < active:
            item[k] = x
            sets[x - TWO] = k
            k += 1
    for p in range(start, end):
        x = origin_item[p]
        if sets[x - TWO] >= active:
            item[k] = x
            sets[x - TWO] = k
            k += 1


@njit(cache=True, nogil=True, _nrt=False)
def _options_in_order(x, sets, nd):
    """The live options of item ``x`` (its set's first ``size`` nodes) sorted by node, that is in
    option order, each node's ``loc`` following it: an insertion sort in place (the sets are
    short and mostly in order still)."""
    size = sets[x - ONE]
    for j in range(x + ONE, x + size):
        y = sets[j]
        i = j
        while i > x and sets[i - ONE] > y:
            sets[i] = sets[i - ONE]
            i -= ONE
        sets[i] = y
    for j in range(x, x + size):
        nd[sets[j] + ONE] = j


@njit(cache=True, nogil=True, _nrt=False)
def search(C, choice, saved, stack, state, want, max_nodes, work, early, out, ends):
    """Run until ``want`` more solutions have been visited, the tree is exhausted, the node count
    reaches ``max_nodes``, ``state[STOP]`` is set, about ``work`` updates are spent, or the save
    stack is full (``state[GROW]`` set: grow it and call again); returns how many solutions this
    call visited. Phases, ``early``, ``out`` and ``ends`` as in `dlx1.search`.

    Item choice: the active primary item with the fewest options, the first in ``item`` on ties
    (the order of ``item`` changes as items are swapped out and in). ``state[FLOOR]`` and
    ``state[CEILING]`` make it a piece of a split search (see [`base`][dlx.engines.base]); a forced level takes
    the item of its given node."""
    item, sets, nd, clr = C.item, C.set, C.nd, C.clr
    second = C.second
    n1 = np.int64(C.n1)
    coloured = clr.size > 0
    if not resumable(state):
        return 0
    phase = st.RUNNING
    record = ends.size > 0
    updates = state[UPDATES]
    cleansings = state[CLEANSINGS]
    nodes = state[NODES]
    level = state[LEVEL]
    step = state[STEP]
    floor = state[FLOOR]
    ceiling = ceiling_of(state)
    poll = updates
    end = updates + work
    found = 0
    used = 0
    best = np.uint32(0)
    cur = np.uint32(0)
    branching = 0
    for l in range(level):
        y = choice[l]
        b = nd[y]
        if nd[y + ONE] + ONE < b + sets[b - ONE]:
            branching += 1
    while True:
        if step == FORWARD:
            if updates >= poll:
                poll = updates + POLL
                if state[STOP] != 0:
                    phase = st.STOPPED
                    break
                if updates >= end:
                    break
            active1 = state[ACTIVE1]
            if saved[level] + 2 * (active1 + state[ACTIVE2] - n1 + 1) > stack.size:
                state[GROW] = 1
                break
            if level < floor:
                best = nd[choice[level]]      # a forced level: the item of the given node
                t = sets[best - ONE]
            else:
                if nodes >= max_nodes:
                    phase = st.MAX_NODES
                    break
                if level == ceiling:
                    phase = st.SPLIT
                    step = BACKUP
                    break
                nodes += 1
                t = NONE
                for k in range(active1):
                    x = item[k]
                    s = sets[x - ONE]
                    if s < t:
                        best = x
                        t = s
                        if s <= 1:
                            break
                if t == NONE:
                    # every primary item is covered: visit the solution of levels 0..level-1
                    found += 1
                    if record:
                        for l in range(level):
                            out[used + l] = option_of(choice[l], nd)
                        used += level
                        ends[found - 1] = used
                    step = BACKUP
                    if found == want or (record and (found == ends.size or used + choice.size > out.size)):
                        break
                    continue
                if t == 0:
                    step = BACKUP         # only where a batch's givens left an item without options
                    continue
            f1, f2 = state[ACTIVE1], state[ACTIVE2]
            swap_out(best, item, sets, second, state)
            u, k, _ = cover(best, np.uint32(0), sets, nd, clr, second, state[ACTIVE1], False, f1, f2)
            if level >= floor:
                updates += u + 1
            sp = saved[level]
            if t > 1:       # SSXC1's "Save the currently active sizes"
                branching += 1
                a1 = state[ACTIVE1]
                a2 = state[ACTIVE2]
                stack[sp] = a1
                stack[sp + 1] = a2
                p = sp + 2
                for k in range(a1):
                    x = item[k]
                    stack[p] = x
                    stack[p + 1] = sets[x - ONE]
                    p += 2
                for k in range(n1, a2):
                    x = item[k]
                    stack[p] = x
                    stack[p + 1] = sets[x - ONE]
                    p += 2
                saved[level + 1] = p
            else:
                saved[level + 1] = sp
            cur = best
            step = ADVANCE
        elif step == ADVANCE:
            if level < floor:
                cur = nd[choice[level] + ONE]     # the forced node's place in its item's set
            y = sets[cur]
            choice[level] = y
            # apply_others(y, ...) spelled out: the search calls leaves only (see .base)
            lo1 = state[ACTIVE1]
            lo2 = state[ACTIVE2]
            u = 0
            k = 0
            ok = True
            q = y + TWO
            while q != y:
                c = nd[q]
                if c >= SPACER:
                    q -= c ^ SPACER
                    continue
                if not coloured or is_active(c, sets, second, state):
                    swap_out(c, item, sets, second, state)
                    u += 1
                q += TWO
            active1 = state[ACTIVE1]
            active2 = state[ACTIVE2]
            q = y + TWO
            while q != y:
                c = nd[q]
                if c >= SPACER:
                    q -= c ^ SPACER
                    continue
                p = sets[c - TWO]
                if p >= (active1 if c < second else active2) and p < (lo1 if c < second else lo2):
                    du, dk, ok = cover(c, clr[q] if coloured else np.uint32(0), sets, nd, clr, second, active1,
                                       True, lo1, lo2)
                    u += du
                    k += dk
                    if not ok:
                        break
                q += TWO
            if floor <= level + 1 < ceiling:      # the try opens a level this run owns
                updates += u
                cleansings += k
            if ok:
                level += 1
                step = FORWARD
            else:
                step = ABORT
        elif step == ABORT:
            if level < floor or cur + ONE >= best + sets[best - ONE]:
                step = BACKUP
                continue
            sp = saved[level]       # SSXC1's "Restore the currently active sizes"
            state[ACTIVE1] = stack[sp]
            state[ACTIVE2] = stack[sp + 1]
            for p in range(sp + 2, saved[level + 1], 2):
                sets[stack[p] - ONE] = stack[p + 1]
            cur += ONE
            if cur + ONE >= best + sets[best - ONE]:
                branching -= 1      # this level tries its last option now
            step = ADVANCE
        else:  # BACKUP
            if level <= floor:
                phase = st.COMPLETE
                break
            if early and branching == 0:
                phase = st.EXHAUSTED
                break
            level -= 1
            y = choice[level]
            best = nd[y]
            cur = nd[y + ONE]
            step = ABORT
    settle(state, phase, level, step, nodes, updates, cleansings, found)
    return found


@njit(cache=True, nogil=True, _nrt=False)
def unwind(C, state):
    """Put the sets back as built: the search is over."""
    restore(C)
    state[LEVEL] = 0
    state[STEP] = FORWARD
    state[ACTIVE1] = C.n1
    state[ACTIVE2] = C.n_items
    if state[PHASE] != st.COMPLETE:
        state[PHASE] = st.STOPPED


# --- many variants of the problem in one call (see `batch`)


@njit(cache=True, nogil=True, _nrt=False)
def solve_batch(C, G, R, rows, limit, max_nodes, work, where, choice, saved, stack, state, out, ends):
    """`dlx1.solve_batch` for dancing cells: the same arguments and results (less
    ``pristine``: the sets keep their origin), with this module's search. After every row the sets
    are put back as built, exactly, so a row's answer never depends on the rows before it. Returns
    False also when the search needs a larger save stack (``state[GROW]``)."""
    n_rows, n_groups = rows.shape
    first_node, group_start, option_group, option_value = G
    answers, counts, nodes, status = R
    no_ends = ends[:0]
    tally = where[TALLY:]
    r = where[ROW]
    stage = where[STAGE]
    spent = 0
    while r < n_rows:
        if stage == NEW_ROW:
            if spent >= work:
                break
            batch.begin_row(answers, counts, nodes, status, r)
            state[:] = 0
            state[ACTIVE1] = C.n1
            state[ACTIVE2] = C.n_items
            for j in range(n_groups):
                x = batch.given(first_node, group_start, rows, r, j)
                if x == 0:
                    continue
                if x == NO_NODE or not select(x, C, state, tally):
                    status[r] = st.INVALID
                    break
                answers[r, j] = rows[r, j]
            if status[r] == st.SOLVED and state[ACTIVE1] == 0:
                counts[r] = 1     # the selected options cover everything already
            elif status[r] == st.SOLVED:
                in_order(C, state)
                stage = FIRST
        if stage != NEW_ROW:
            before = state[UPDATES]
            if stage == FIRST:
                if search(C, choice, saved, stack, state, ONE_SOLUTION, max_nodes, work - spent, YES, out, ends):
                    batch.first_found(option_group, option_value, answers, counts, r, out, ends)
                    stage = MORE
            if stage == MORE and counts[r] < limit:
                counts[r] += search(C, choice, saved, stack, state, limit - counts[r], max_nodes,
                                      work - spent, YES, out, no_ends)
            spent += state[UPDATES] - before
            if batch.unfinished(state, counts, r, limit):
                break
            batch.row_done(state, counts, nodes, status, r, state[NODES])
        batch.end_row(answers, status, r)
        restore(C)
        stage = NEW_ROW
        r += 1
    where[ROW] = r
    where[STAGE] = stage
    return r == n_rows


def applied(C: CellStructure, choice: np.ndarray, state: np.ndarray) -> list[int]:
    """The option numbers applied at the levels of a paused search, in level order."""
    return [int(option_of(choice[level], C.nd)) for level in range(state[LEVEL])]


def first_nodes(option_start: np.ndarray) -> np.ndarray:
    """The first node of every option (uint32); for an empty option, the spacer after it. Node 0
    is a spacer and each option is followed by one, two words per node."""
    n_options = option_start.size - 1
    return (2 * (1 + option_start[:-1] + np.arange(n_options))).astype(np.uint32)


def check(C: CellStructure, problem: Options, applied_options = ()) -> None:
    """Raise `StructureError` unless the sets are exactly what ``problem`` gives with
    ``applied_options`` (numbers) chosen, as sets (the order within a set dances): SSXC1's
    ``sanity()`` (``pos`` inverts ``item``, ``loc`` inverts ``set``), made exact. The active
    items are those no applied option has; each active item's live options are those still
    compatible with every applied option; a purified item carries its colour. Valid at any point
    a search pauses. Cost: linear in the size of the problem times the applied options."""
    start, ids = problem.start, problem.items
    colours = problem.colours
    n1, n_items = int(C.n1), int(C.n_items)
    item, sets, nd = C.item.tolist(), C.set.tolist(), C.nd.tolist()
    base = C.origin_item.tolist()
    index = {x: i for i, x in enumerate(base)}
    for k, x in enumerate(item):
        if x not in index:
            raise StructureError(f"item[{k}] is {x}, the place of no item")
        if sets[x - 2] != k:
            raise StructureError(f"pos of item {index[x]} is {sets[x - 2]}, not {k}")
    n_nodes = len(nd) // 2
    for o in range(start.size - 1):
        first = 1 + int(start[o]) + o
        for j, k in enumerate(range(start[o], start[o + 1])):
            y = 2 * (first + j)
            x = base[ids[k]]
            if nd[y] != x:
                raise StructureError(f"node {y} belongs to item {index.get(nd[y])}, not {ids[k]}")
            loc = nd[y + 1]
            if not (x <= loc < x + int(C.origin_set[x - 1]) and sets[loc] == y):
                raise StructureError(f"bad loc of node {y}")
        spacer = first + int(start[o + 1] - start[o])
        if nd[2 * spacer] != 0x80000000 | 2 * int(start[o + 1] - start[o]) or nd[2 * spacer + 1] != o:
            raise StructureError(f"the spacer after option {o} is wrong")
    if n_nodes != start.size + ids.size:
        raise StructureError(f"{n_nodes} nodes, not {start.size + ids.size}")
    # which items are taken, and with which colour
    taken: dict[int, int] = {}
    for o in applied_options:
        for k in range(start[o], start[o + 1]):
            taken[int(ids[k])] = 0 if colours is None else int(colours[k])
    active = {i for i in range(n_items) if i not in taken}
    expect1 = sum(1 for i in active if i < n1)
    expect2 = n1 + sum(1 for i in active if i >= n1)
    got_active = {index[x] for x in item[:expect1]} | {index[x] for x in item[n1:expect2]}
    if got_active != active:
        raise StructureError(f"active items {sorted(got_active)}, expected {sorted(active)}")
    for i, colour in taken.items():
        if colour:
            if sets[base[i] - 3] != colour:
                raise StructureError(f"item {i} purified with {sets[base[i] - 3]}, not {colour}")

    def compatible(o: int) -> bool:
        for k in range(start[o], start[o + 1]):
            i = int(ids[k])
            if i in taken and (taken[i] == 0 or colours is None or int(colours[k]) != taken[i]):
                return False
        return True

    for i in sorted(active):
        x = base[i]
        live = sorted(option_of(np.uint32(sets[p]), C.nd) for p in range(x, x + sets[x - 1]))
        want = sorted(o for o in range(start.size - 1) if i in ids[start[o]:start[o + 1]] and compatible(o))
        if live != want:
            raise StructureError(f"item {i} has options {live}, expected {want}")


class Cells(Single):
    """Dancing cells: SSXC1 for plain problems and secondary items, SSXCC with colours."""

    name = "cells"
    summary = "dancing cells: Knuth's SSXC1, or SSXCC with colours"
    counts = ("SSXC1's (SSXCC's): nodes: levels entered, solutions included (an option whose trial aborts "
              "early, because it would leave a primary item without options, makes no node); updates: items "
              "made inactive plus options taken out of a set; cleansings: purified items plus options that "
              "kept their place in one")
    refuses = "multiplicities (bounds other than 1)"
    tunables = {f"{__name__}:POLL": 1, f"{__name__}:STACK_START": 2, f"{__name__}:STACK_LEVELS": 1}
    samples = (("langford", (4,)), ("graceful", ([(0, 1), (1, 2)],)))
    searches = (search,)
    traces = False
    batches = True
    #: a piece's sets are as built, not as the run left them: options come in another order
    exact_splits = False

    def refusal(self, options: Options) -> str | None:
        if options.bounds is not None:
            return ("the d-way cells machine takes no multiplicities (bounds other than 1): the cells engine gives "
                    "them to SSMCC, which branches binary, and the dlx engine to DLX3")
        return None

    def prepare(self, options: Options) -> CellStructure:
        C = build(options.start, options.items, options.colours, options.n_items, options.n_primary)
        return C

    def copy(self, structure: CellStructure) -> CellStructure:
        return copy(structure)

    def restore(self, structure: CellStructure, pristine: CellStructure) -> None:
        restore(structure)

    def start(self, structure: CellStructure) -> CellMachine:
        return CellMachine(structure)

    def advance(self, structure, machine, want, max_nodes, work, out, ends, *, early=False, trace=None) -> int:
        refuse_trace(self, trace)
        early = bool(early)
        found = 0
        while True:
            found += search(structure, *machine.arrays(), want - found, max_nodes, work, early, out, ends)
            if not machine.state[GROW]:
                return found
            machine.grow()
            if ends.size and found:
                return found

    def unwind(self, structure, machine) -> None:
        unwind(structure, machine.state)

    def untried(self, structure, machine, level: int, pristine = None) -> list[int]:
        """The nodes a paused run has yet to try at ``level``: those after its choice in the chosen
        item's set (frozen while the item is inactive)."""
        y = int(machine.choice[level])
        best, at = int(structure.nd[y]), int(structure.nd[y + 1])
        return structure.set[at + 1:best + int(structure.set[best - 1])].tolist()

    def applied(self, structure, machine) -> list[int]:
        return applied(structure, machine.choice, machine.state)

    def check(self, options: Options, structure, machine = None) -> None:
        done = [] if machine is None else self.applied(structure, machine)
        check(structure, options, done)

    def first_nodes(self, options: Options) -> np.ndarray:
        return first_nodes(options.start)

    def solve_batch(self, structure, pristine, scratch, groups, rows, limit, max_nodes, work, results) -> bool:
        m = scratch.machine
        done = solve_batch(structure, groups, results, rows, limit, max_nodes, work, scratch.where, m.choice,
                           m.saved, m.stack, m.state, scratch.out, scratch.ends)
        if m.state[GROW]:
            m.grow()
        return done

    def reduce_row(self, structure, pristine, scratch, groups, row, units, unit_ends, keep, minimal,
                   budget) -> int:
        """One batch row per test (`batch.reduce_by_rows`)."""
        return batch.reduce_by_rows(self, structure, pristine, scratch, groups, row, units, unit_ends, keep,
                                    minimal, budget)
