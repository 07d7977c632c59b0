"""The compact engine: Algorithm X for small problems, each item's live options one machine word.

Nothing is linked or counted. Item ``i`` keeps ``mask[i]``, a word with bit ``b`` set while the
``b``-th option of its list (in option order) is live, so its number of live options is a popcount
and its live options are its set bits. Taking an option covers its items; covering an item blocks
each of its live options, and blocking option ``p`` clears ``p``'s bit in the word of every other
item of ``p``. Blocking reads ``item_entry`` (for each entry of an item's list, where that option's
entries start) and ``opt_entry`` (per entry: its item, its bit's place in that item's word, and
``LAST`` on an option's last entry), so a blocked option costs one load before its entries, not
three (its number, then where its entries start and end). A covered primary
item's word becomes ``ALL`` (every bit: more than any item's options, so a least popcount over the
primary items is an uncovered item's); while an option is being taken its primary items carry the
top bit, ``SPARE``, so that none reads as empty on the way. A secondary item's word carries
``SPARE`` while it is uncovered, so it never reads as empty either, and is never chosen.

Past the items' words, ``mask`` holds the bitset ``single``: the uncovered primary items with one
live option, kept as their words lose bits. The item to branch on is the first of them, found in
a few words; only when there is none does the search take a popcount pass over the primary items
(and stops at the first with two). A try that leaves a primary item without live options makes
the next level a dead end, known without a pass.

There is no undo. A level that branches (its item has two live options or more) saves the whole of
``mask``, a few hundred bytes for a 9x9 sudoku, onto ``stack`` before its first try, and copies it
back before the next; a forced level (one live option) saves nothing, and backing up through a
chain of forced levels costs nothing until the level that branched, whose copy puts back all of
them at once. A batch row is put back by copying the words as built.

Colours: covering a secondary item with colour ``c`` blocks only its options of another colour (or
none) and clears its ``SPARE`` bit, so its word keeps the options of colour ``c``; an option of that
colour, taken later, is live, so it finds the item covered and leaves it alone.

The static arrays: ``opt_start``/``opt_items``/``opt_bit`` (with ``opt_clr``, each entry's colour;
``opt_entry`` packs an entry's item and bit), the items of each option; ``item_start``/``item_opts``
(with ``item_clr``, and ``item_entry``), the options of each item in option order. Item and option
ids are 16-bit, so what a 9x9 sudoku's search reads (2,916 entries each way, 345 words of 16 bits)
is about 25 kilobytes and stays in the first-level cache.

The choices are DLX1's (and DLX2's): the uncovered primary item with the fewest live options, the
first in item order on ties; its live options in option order. So solutions come in DLX1's order
and ``nodes`` equals DLX1's count: a node per level entered, dead ends and solutions included.
``updates`` are this engine's own: one per item covered plus one per option blocked.

Limits: at most 65,536 items and 65,536 options (16-bit ids), at most 63 options on one item (one
64-bit word; the word is 16, 32 or 64 bits, the narrowest that holds the longest item and
``SPARE``), no multiplicities (bounds other than 1: the dlx engine takes them), no traces.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit
from numba.core import types
from numba.extending import intrinsic, overload

from .. import status as st
from . import batch
from .base import (
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
    TWO_SOLUTIONS,
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
from .batch import FIRST, MORE, NEW_ROW, NO_NODE, ROW, STAGE

FORWARD, ADVANCE, RECOVER, BACKUP = 0, 1, 2, 3
assert BACKUP == LEAVE
#: One more slot of a compact machine's ``state``: a request for a larger save stack (the kernel
#: returns with it set; the engine grows the stack and calls again).
GROW = STATE_SIZE
COMPACT_STATE_SIZE = STATE_SIZE + 1

MAX_IDS = 1 << 16
MAX_PER_ITEM = 63
#: ``opt_entry``: the item in the low 16 bits, the place of the option's bit in that item's word
#: from bit ``PLACE`` (6 bits), and ``LAST`` on the option's last entry.
ITEM = np.uint32(MAX_IDS - 1)
PLACE = np.uint32(16)
PLACES = np.uint32(63)
LAST = np.uint32(1 << 31)
#: The word widths, each a compile of every kernel (seconds): 8 bits would save a 6x6 sudoku a
#: few hundred bytes of copying per branch, not worth a compile of its own.
WORDS = (np.uint16, np.uint32, np.uint64)
ONE = np.uint32(1)
#: More than the bits of the widest word.
WIDER = np.uint32(65)
#: ``saved[level]`` of a forced level: it saved nothing.
FORCED = -1
#: The save stack starts with room for this many branching levels (at most what the deepest
#: search can need, at least ``STACK_START`` bytes) and doubles when a search needs more.
STACK_LEVELS = 16
STACK_START = 1 << 16
#: `CompactEngine.reduce_row` keeps the words of every level and unit when they fit here.
REDUCE_BYTES = 1 << 26


def popcount(x):
    """The number of bits set in the integer ``x`` (in a kernel: one instruction)."""
    return bin(int(x)).count("1")


def lowest_bit(x):
    """The index of the lowest bit set in ``x`` (which must not be 0), as a uint32 (in a kernel:
    one instruction)."""
    return np.uint32((int(x) & -int(x)).bit_length() - 1)


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return x(x), codegen


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        index = builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
        width = args[0].type.width
        if width < 32:
            return builder.zext(index, ir.IntType(32))
        return builder.trunc(index, ir.IntType(32)) if width > 32 else index
    return types.uint32(x), codegen


@overload(popcount)
def _popcount(x):
    if isinstance(x, types.Integer):
        return lambda x: _ctpop(x)
    return None


@overload(lowest_bit)
def _lowest_bit(x):
    if isinstance(x, types.Integer):
        return lambda x: _cttz(x)
    return None


class Compact(NamedTuple):
    """The words of one problem and its static CSR arrays (shared by copies)."""

    mask: np.ndarray          # word per item: its live options (``ALL`` once covered, primary);
                              # then the words of ``single``
    opt_start: np.ndarray     # uint32, options + 1
    opt_items: np.ndarray     # uint16 per entry
    opt_bit: np.ndarray       # word per entry: the option's bit in that item's word
    opt_clr: np.ndarray       # int32 per entry (empty without colours)
    item_start: np.ndarray    # uint32, items + 1
    item_opts: np.ndarray     # uint16 per entry, in option order within an item
    item_clr: np.ndarray      # int32 per entry (empty without colours)
    origin: np.ndarray        # ``mask`` as built
    n1: np.uint32             # primary items (items ``0..n1-1``)
    every: np.integer         # a word with every bit set (``ALL``)
    spare: np.integer         # a word with the top bit set (``SPARE``)
    n_items: np.uint32        # items: ``mask[n_items:]`` is the bitset ``single``
    shift: np.uint32          # log2 of the bits in a word
    item_entry: np.ndarray    # uint32 per entry of ``item_opts``: where that option's entries start
    opt_entry: np.ndarray     # uint32 per entry: item | place of its bit << PLACE | LAST on the last
    unit: np.integer          # the word 1


class CompactMachine:
    """A run's state: ``choice[level]`` (the position in ``item_opts`` of the option tried at each
    level), ``itm[level]`` (the level's item), ``saved[level]`` (where the level's saved words start
    in ``stack``, or ``FORCED``) and the shared ``state`` (plus ``GROW``). Every level covers a
    primary item, so ``n1 + 1`` levels suffice."""

    first_tweak = None

    def __init__(self, structure: Compact) -> None:
        depth = int(structure.n1) + 1
        n_items = structure.mask.size
        self.choice = np.zeros(depth, np.uint32)
        self.itm = np.zeros(depth, np.uint32)
        self.saved = np.full(depth, FORCED, np.int64)
        self.state = np.zeros(COMPACT_STATE_SIZE, np.int64)
        levels = min(depth, max(STACK_LEVELS, STACK_START // max(n_items * structure.mask.itemsize, 1)))
        self.stack = np.zeros(max(levels * n_items, 1), structure.mask.dtype)

    def grow(self) -> None:
        """Double the save stack, keeping what it holds."""
        bigger = np.zeros(2 * self.stack.size, self.stack.dtype)
        bigger[:self.stack.size] = self.stack
        self.stack = bigger
        self.state[GROW] = 0

    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.choice, self.itm, self.saved, self.stack, self.state


def limits(options: Options) -> str | None:
    """Why ``options`` is too large for this engine (None: it fits)."""
    per_item = int(np.bincount(options.items, minlength=options.n_items).max(initial=0))
    if options.n_items > MAX_IDS or options.n_options > MAX_IDS or per_item > MAX_PER_ITEM:
        return (f"the compact engine takes at most {MAX_IDS:,} items, {MAX_IDS:,} options and "
                f"{MAX_PER_ITEM} options on one item (this problem: {options.n_items:,} items, "
                f"{options.n_options:,} options, {per_item:,} on one item): the dlx engine takes it")
    return None


def word_for(per_item: int) -> type:
    """The narrowest word that holds ``per_item`` options and ``SPARE``."""
    return next(w for w in WORDS if np.dtype(w).itemsize * 8 > per_item)


def build(options: Options) -> Compact:
    """The words and CSR arrays of ``options`` (which must fit `limits`). Cost: linear in
    the size of the problem."""
    n_items, n1 = options.n_items, options.n_primary
    counts = np.bincount(options.items, minlength=n_items)
    word = word_for(int(counts.max(initial=0)))
    bits = np.dtype(word).itemsize * 8
    coloured = options.colours is not None
    opt_clr = np.zeros(0, np.int32) if options.colours is None else options.colours.astype(np.int32)
    owners = np.repeat(np.arange(options.n_options, dtype=np.int64), np.diff(options.start))
    by_item = np.argsort(options.items, kind="stable")          # entries grouped by item, option order
    item_start = np.zeros(n_items + 1, np.uint32)
    np.cumsum(counts, out=item_start[1:])
    place = np.empty(options.items.size, np.int64)             # each entry's place in its item's list
    place[by_item] = np.arange(options.items.size) - item_start[options.items[by_item]]
    opt_bit: np.ndarray = (np.ones(options.items.size, np.uint64) << place.astype(np.uint64)).astype(word)
    full = (np.ones(n_items, np.uint64) << counts.astype(np.uint64)) - np.uint64(1)
    full[n1:] |= np.uint64(1) << np.uint64(bits - 1)
    mask = np.concatenate([full.astype(word), singles(counts[:n1] == 1, word)])
    return Compact(mask, options.start.astype(np.uint32), options.items.astype(np.uint16), opt_bit, opt_clr,
                   item_start, owners[by_item].astype(np.uint16), opt_clr[by_item] if coloured else opt_clr,
                   mask.copy(), np.uint32(n1), word(~word(0)), word(1 << (bits - 1)), np.uint32(n_items),
                   np.uint32(bits.bit_length() - 1), options.start[owners[by_item]].astype(np.uint32),
                   entries(options, place), word(1))


def entries(options: Options, place: np.ndarray) -> np.ndarray:
    """``opt_entry``: each entry's item, the ``place`` of its option's bit in that item's word, and
    ``LAST`` on every option's last entry."""
    last = np.zeros(options.items.size, np.uint32)
    last[options.start[1:][np.diff(options.start) > 0] - 1] = LAST
    return options.items.astype(np.uint32) | (place.astype(np.uint32) << PLACE) | last


def singles(flags: np.ndarray, word: type) -> np.ndarray:
    """The bitset of the primary items flagged (item ``i``: bit ``i % bits`` of word ``i // bits``),
    in words of type ``word``, one word more than it needs (so it is never empty)."""
    bits = np.dtype(word).itemsize * 8
    padded = np.zeros(flags.size // bits * bits + bits, bool)
    padded[:flags.size] = flags
    weights = np.uint64(1) << np.arange(bits, dtype=np.uint64)
    return (padded.reshape(-1, bits).astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64).astype(word)


def copy(C: Compact) -> Compact:
    """A copy to search on: the words are copied, the static arrays shared."""
    return C._replace(mask=C.mask.copy())


@njit(cache=True, nogil=True, _nrt=False)
def restore(C):
    """The words as built again: one small copy."""
    put_back(C.mask, C.origin)


@njit(cache=True, nogil=True, _nrt=False)
def is_live(o, C):
    """Whether option ``o`` (not empty) can still be taken: its bit is set in the word of its
    first item, and that item is not a covered primary one (word ``ALL``). Only a primary word
    means "covered" by ``ALL``: an uncovered secondary item with ``2^k - 1`` options in a word of
    ``2^k`` bits reads ``ALL`` too (its options and ``SPARE``), and its options are live."""
    k = C.opt_start[o]
    i = C.opt_items[k]
    w = C.mask[i]
    return w & C.opt_bit[k] != 0 and (i >= C.n1 or w != C.every)


@njit(cache=True, nogil=True, _nrt=False)
def select(o, C):
    """Take option ``o`` (live): cover its items, blocking their live options (see the module).
    Returns the updates (items covered plus options blocked) and whether a primary item was left
    with no live option."""
    mask, n1 = C.mask, C.n1
    opt_start, opt_items, opt_clr = C.opt_start, C.opt_items, C.opt_clr
    item_start, item_clr = C.item_start, C.item_clr
    coloured = opt_clr.size > 0
    spare, every, n_items, shift = C.spare, C.every, C.n_items, C.shift
    item_entry, opt_entry, unit = C.item_entry, C.opt_entry, C.unit
    low = (ONE << shift) - ONE
    updates = 0
    dead = False
    for k in range(opt_start[o], opt_start[o + ONE]):
        i = opt_items[k]
        if i < n1:
            mask[i] |= spare          # o's own primary items are never empty: they are covered
    for k in range(opt_start[o], opt_start[o + ONE]):
        i = opt_items[k]
        m = mask[i] ^ spare
        c = 0
        if i >= n1:
            if m & spare != 0:
                continue          # covered by an option of o's colour
            if coloured:
                c = opt_clr[k]
        updates += 1
        while m != 0:
            q = item_start[i] + lowest_bit(m)
            m &= m - ONE
            if c != 0 and item_clr[q] == c:
                continue
            updates += 1
            e = item_entry[q]
            while True:
                x = opt_entry[e]
                e += ONE
                j = x & ITEM
                if j != i or c != 0:          # i's own word is set below
                    w = mask[j] & ~(unit << ((x >> PLACE) & PLACES))
                    mask[j] = w
                    if w & (w - ONE) == 0 and j < n1:
                        if w == 0:
                            dead = True
                            mask[n_items + (j >> shift)] &= ~(ONE << (j & low))
                        else:
                            mask[n_items + (j >> shift)] |= ONE << (j & low)
                if x >= LAST:
                    break
        if i < n1:
            mask[i] = every
            mask[n_items + (i >> shift)] &= ~(ONE << (i & low))
        elif c == 0:
            mask[i] = 0
        else:
            mask[i] &= ~spare
    return updates, dead


@njit(cache=True, nogil=True, _nrt=False)
def take(o, C):
    """`select` without keeping ``single`` or looking for dead ends: for many options taken
    at once (a batch row's givens), after which `recount` makes ``single`` exact. Returns the
    updates."""
    mask, n1 = C.mask, C.n1
    opt_start, opt_items, opt_clr = C.opt_start, C.opt_items, C.opt_clr
    item_start, item_clr = C.item_start, C.item_clr
    coloured = opt_clr.size > 0
    spare, every = C.spare, C.every
    item_entry, opt_entry, unit = C.item_entry, C.opt_entry, C.unit
    updates = 0
    for k in range(opt_start[o], opt_start[o + ONE]):
        i = opt_items[k]
        m = mask[i]
        c = 0
        if i >= n1:
            if m & spare == 0:
                continue          # covered by an option of o's colour
            m ^= spare
            if coloured:
                c = opt_clr[k]
        updates += 1
        while m != 0:
            q = item_start[i] + lowest_bit(m)
            m &= m - ONE
            if c != 0 and item_clr[q] == c:
                continue
            updates += 1
            e = item_entry[q]
            while True:
                x = opt_entry[e]
                e += ONE
                j = x & ITEM
                if j != i or c != 0:
                    mask[j] &= ~(unit << ((x >> PLACE) & PLACES))
                if x >= LAST:
                    break
        if i < n1:
            mask[i] = every
        elif c == 0:
            mask[i] = 0
        else:
            mask[i] &= ~spare
    return updates


@njit(cache=True, nogil=True, _nrt=False)
def recount(C):
    """Make ``single`` exact again (after `take`): the uncovered primary items with one live
    option. One pass over the primary items."""
    mask, n_items, shift = C.mask, C.n_items, C.shift
    low = (ONE << shift) - ONE
    for k in range(n_items, mask.size):
        mask[k] = 0
    for i in range(C.n1):
        w = mask[i]
        if w != 0 and w & (w - ONE) == 0:
            mask[n_items + (i >> shift)] |= ONE << (i & low)


@njit(cache=True, nogil=True, _nrt=False)
def search(C, choice, itm, saved, stack, state, want, max_nodes, work, early, out, ends):
    """Run until ``want`` more solutions have been visited, the tree is exhausted, the node count
    reaches ``max_nodes``, ``state[STOP]`` is set, about ``work`` updates are spent, or the save
    stack is full (``state[GROW]`` set: grow it and call again); returns how many solutions this
    call visited. Phases, ``early``, ``out``, ``ends``, ``state[FLOOR]`` and ``state[CEILING]`` as
    in `dlx1.search`; a forced level takes the option at position ``choice[level]``, and a
    piece that completes puts the words back as built (`retake` takes its forced levels
    again).
    `select` is spelled out here: the search calls leaves only (see [`base`][dlx.engines.base])."""
    mask, n1 = C.mask, C.n1
    opt_start, opt_items, opt_clr = C.opt_start, C.opt_items, C.opt_clr
    item_start, item_opts, item_clr = C.item_start, C.item_opts, C.item_clr
    coloured = opt_clr.size > 0
    spare, every, n_items, shift = C.spare, C.every, C.n_items, C.shift
    item_entry, opt_entry, unit = C.item_entry, C.opt_entry, C.unit
    low = (ONE << shift) - ONE
    size = np.uint32(mask.size)      # the words saved: the items', then ``single``'s
    if not resumable(state):
        return 0
    phase = st.RUNNING
    record = ends.size > 0
    nodes = state[NODES]
    updates = state[UPDATES]
    level = state[LEVEL]
    step = state[STEP]
    floor = state[FLOOR]
    ceiling = ceiling_of(state)
    poll = updates
    end = updates + work
    found = 0
    used = 0
    best = np.uint32(0)
    pos = np.uint32(0)
    top = 0               # where the next level's saved words go
    branching = 0         # applied levels with an option left to try after the current one
    for l in range(level):
        if saved[l] != FORCED:
            top = saved[l] + size
            b = choice[l] - item_start[itm[l]]
            if stack[saved[l] + itm[l]] >> b >> ONE != 0:
                branching += 1
    dead = False          # a primary item has no live option: the level is a dead end
    for i in range(n1):
        if mask[i] == 0:
            dead = True
    while True:
        if step == FORWARD:
            if updates >= poll:
                poll = updates + POLL
                if state[STOP] != 0:
                    phase = st.STOPPED
                    break
                if updates >= end:
                    break
            if level < floor:
                pos = choice[level]       # a forced level of a piece: its option is given
                saved[level] = FORCED
                step = ADVANCE
                continue
            if nodes >= max_nodes:
                phase = st.MAX_NODES
                break
            if level == ceiling:
                phase = st.SPLIT
                step = BACKUP
                break
            if top + size > stack.size:
                state[GROW] = 1
                break
            nodes += 1
            if dead:
                step = BACKUP
                continue
            # no word is empty: the first item with one live option, if any, is a least one;
            # else the first with two
            t = WIDER      # beyond any word's popcount (every + 1 wraps to 0 in uint32 without numba)
            for k in range(n_items, size):
                if mask[k] != 0:
                    best = ((k - n_items) << shift) + lowest_bit(mask[k])
                    t = ONE
                    break
            if t != ONE:
                for i in range(n1):
                    v = popcount(mask[i])
                    if v < t:
                        t = v
                        best = i
                        if v == 2:
                            break
            if t >= popcount(every):
                # every primary item is covered: visit the solution of levels 0..level-1
                found += 1
                if record:
                    for l in range(level):
                        out[used + l] = item_opts[choice[l]]
                    used += level
                    ends[found - 1] = used
                step = BACKUP
                if found == want or (record and (found == ends.size or used + choice.size > out.size)):
                    break
                continue
            itm[level] = best
            pos = item_start[best] + lowest_bit(mask[best])
            if t > 1:
                branching += 1
                saved[level] = top
                for k in range(size):
                    stack[top + k] = mask[k]
                top += size
            else:
                saved[level] = FORCED
            step = ADVANCE
        elif step == ADVANCE:
            choice[level] = pos
            o = item_opts[pos]
            # select(o, C), spelled out
            u = 0
            for k in range(opt_start[o], opt_start[o + ONE]):
                i = opt_items[k]
                if i < n1:
                    mask[i] |= spare
            for k in range(opt_start[o], opt_start[o + ONE]):
                i = opt_items[k]
                m = mask[i] ^ spare
                c = 0
                if i >= n1:
                    if m & spare != 0:
                        continue
                    if coloured:
                        c = opt_clr[k]
                u += 1
                while m != 0:
                    q = item_start[i] + lowest_bit(m)
                    m &= m - ONE
                    if c != 0 and item_clr[q] == c:
                        continue
                    u += 1
                    e = item_entry[q]
                    while True:
                        x = opt_entry[e]
                        e += ONE
                        j = x & ITEM
                        if j != i or c != 0:          # i's own word is set below
                            w = mask[j] & ~(unit << ((x >> PLACE) & PLACES))
                            mask[j] = w
                            if w & (w - ONE) == 0 and j < n1:
                                if w == 0:
                                    dead = True
                                    mask[n_items + (j >> shift)] &= ~(ONE << (j & low))
                                else:
                                    mask[n_items + (j >> shift)] |= ONE << (j & low)
                        if x >= LAST:
                            break
                if i < n1:
                    mask[i] = every
                    mask[n_items + (i >> shift)] &= ~(ONE << (i & low))
                elif c == 0:
                    mask[i] = 0
                else:
                    mask[i] &= ~spare
            if floor <= level + 1 < ceiling:      # the try opens a level this run owns
                updates += u
            level += 1
            step = FORWARD
        elif step == RECOVER:
            sp = saved[level]
            if sp == FORCED:
                step = BACKUP         # an ancestor's saved words will put this level back
                continue
            best = itm[level]
            b = choice[level] - item_start[best] + ONE
            later = stack[sp + best] >> b
            if later == 0:
                top = sp          # the level is done; an ancestor's saved words put it back
                step = BACKUP
                continue
            for k in range(size):
                mask[k] = stack[sp + k]
            dead = False
            pos = item_start[best] + b + lowest_bit(later)
            if later >> lowest_bit(later) >> ONE == 0:
                branching -= 1      # this level tries its last option now
            step = ADVANCE
        else:  # BACKUP
            if level <= floor:
                phase = st.COMPLETE
                # the words may hold levels below the floor: put them back (the engine takes the
                # forced levels again, see CompactEngine.advance)
                for k in range(size):
                    mask[k] = C.origin[k]
                break
            if early and branching == 0:
                phase = st.EXHAUSTED
                break
            level -= 1
            step = RECOVER
    settle(state, phase, level, step, nodes, updates, 0, found)
    return found


@njit(cache=True, nogil=True, _nrt=False)
def retake(C, choice, state):
    """Take the forced levels of a completed piece again, so that levels ``0..floor-1`` are
    applied, as a run that completes leaves them."""
    for level in range(state[FLOOR]):
        select(C.item_opts[choice[level]], C)


@njit(cache=True, nogil=True, _nrt=False)
def unwind(C, state):
    """Put the words back as built: the search is over."""
    restore(C)
    state[LEVEL] = 0
    state[STEP] = FORWARD
    if state[PHASE] != st.COMPLETE:
        state[PHASE] = st.STOPPED


# --- many variants of the problem in one call (see `batch`)


@njit(cache=True, nogil=True, _nrt=False)
def covers_all(C):
    """Whether every primary item is covered (a scan that stops at the first uncovered one)."""
    for i in range(C.n1):
        if C.mask[i] != C.every:
            return False
    return True


@njit(cache=True, nogil=True, _nrt=False)
def solve_batch(C, G, R, rows, limit, max_nodes, work, where, choice, itm, saved, stack, state, out, ends):
    """`dlx1.solve_batch` for the compact engine: the same arguments and results (less
    ``pristine`` and ``chosen``). A row's givens are taken as the search takes an option (a given
    no longer live clashes with one before it: INVALID); after the row the words are copied back
    as built. Returns False also when the search needs a larger save stack (``state[GROW]``)."""
    n_rows, n_groups = rows.shape
    first_node, group_start, option_group, option_value = G
    answers, counts, nodes, status = R
    no_ends = ends[:0]
    r = where[ROW]
    stage = where[STAGE]
    spent = 0
    while r < n_rows:
        if stage == NEW_ROW:
            if spent >= work:
                break
            batch.begin_row(answers, counts, nodes, status, r)
            for j in range(n_groups):
                x = batch.given(first_node, group_start, rows, r, j)
                if x == 0:
                    continue
                if x == NO_NODE or not is_live(x - ONE, C):
                    status[r] = st.INVALID
                    break
                spent += take(x - ONE, C)
                answers[r, j] = rows[r, j]
            if status[r] == st.SOLVED:
                recount(C)
            if status[r] == st.SOLVED and covers_all(C):
                counts[r] = 1     # the selected options cover everything already
            elif status[r] == st.SOLVED and limit > 0:
                state[:] = 0
                stage = FIRST
        if stage != NEW_ROW:
            before = state[UPDATES]
            if stage == FIRST:
                if search(C, choice, itm, saved, stack, state, ONE_SOLUTION, max_nodes, work - spent, YES, out, ends):
                    batch.first_found(option_group, option_value, answers, counts, r, out, ends)
                    stage = MORE
            if stage == MORE and counts[r] < limit:
                counts[r] += search(C, choice, itm, saved, stack, state, limit - counts[r], max_nodes,
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


@njit(cache=True, nogil=True, _nrt=False)
def _take_unit(u, units, unit_ends, row, G, C):
    """Take the options of unit ``u`` of ``row`` (its groups with a value); False when one clashes
    (some may be taken by then: the caller copies words back)."""
    for k in range(unit_ends[u - 1] if u else 0, unit_ends[u]):
        j = units[k]
        if row[j] == 0:
            continue
        o = G.group_start[j] + row[j] - 1
        if not is_live(o, C):
            return False
        take(o, C)
    return True


@njit(cache=True, nogil=True)
def _count2(C, choice, itm, saved, stack, state, budget):
    """Solutions of what is taken, up to 2, within ``budget`` nodes (2 when it runs out: not proven
    unique). The words are left as the search leaves them."""
    state[:] = 0
    recount(C)
    none = np.zeros(0, np.int32)
    found = search(C, choice, itm, saved, stack, state, TWO_SOLUTIONS, budget, np.int64(1) << 62, YES, none, none)
    return 2 if state[PHASE] == st.MAX_NODES else found


@njit(cache=True, nogil=True)
def reduce_row(C, G, row, units, unit_ends, keep, minimal, budget, choice, itm, saved, stack, state, snaps):
    """`dlx1.reduce_row` for the compact engine: the same arguments, result and order of
    tests. The units are taken in reverse order, the words saved before each (``snaps``, a row of
    words per unit), so that testing unit ``t`` starts from the words with the units after it
    taken: copy them back, take the units before it that had to stay, search. ``stack`` must hold
    the deepest search (``n1 + 1`` levels of words). The words are as built when it returns."""
    n_groups = row.size
    n_units = unit_ends.size
    in_unit = np.zeros(n_groups, np.bool_)
    for k in range(units.size):
        in_unit[units[k]] = True
    given = 0
    clash = False
    for j in range(n_groups):
        if row[j] == 0:
            continue
        given += 1
        if not in_unit[j] and not clash:
            o = G.group_start[j] + row[j] - 1
            if not is_live(o, C):
                clash = True
            else:
                take(o, C)
    sizes = np.zeros(n_units, np.int64)
    if not clash:
        for u in range(n_units - 1, -1, -1):
            snaps[u, :] = C.mask
            for k in range(unit_ends[u - 1] if u else 0, unit_ends[u]):
                if row[units[k]] != 0:
                    sizes[u] += 1
            if not _take_unit(u, units, unit_ends, row, G, C):
                clash = True
                break
    if clash:
        restore(C)
        return -1
    count = _count2(C, choice, itm, saved, stack, state, np.int64(1) << 62)
    if count != 1:
        restore(C)
        return count
    kept = np.zeros(n_units, np.int64)
    n_kept = 0
    for t in range(n_units):
        if given <= keep:
            break
        if sizes[t] == 0:
            continue
        removed = False
        if given - sizes[t] >= keep:
            C.mask[:] = snaps[t]
            for f in range(n_kept):
                _take_unit(kept[f], units, unit_ends, row, G, C)
            removed = _count2(C, choice, itm, saved, stack, state, budget) == 1
        if removed:
            for k in range(unit_ends[t - 1] if t else 0, unit_ends[t]):
                row[units[k]] = 0
            given -= sizes[t]
        else:
            kept[n_kept] = t
            n_kept += 1
            if not minimal and given - sizes[t] >= keep:
                break
    restore(C)
    return 1


def first_nodes(n_options: int) -> np.ndarray:
    """What a batch selects option ``o`` by: ``o + 1`` (0 means none)."""
    return np.arange(1, n_options + 1, dtype=np.uint32)


def applied(C: Compact, choice: np.ndarray, state: np.ndarray) -> list[int]:
    """The option numbers applied at the levels of a paused search, in level order."""
    return [int(C.item_opts[choice[level]]) for level in range(state[LEVEL])]


def expected_mask(C: Compact, problem: Options, applied_options=()) -> np.ndarray:
    """The words ``problem`` gives with ``applied_options`` taken, computed from scratch, then the
    bitset ``single`` (the uncovered primary items with one live option)."""
    start, ids = problem.start, problem.items
    colours = problem.colours
    n1 = int(C.n1)
    bits = C.mask.itemsize * 8
    tint: dict[int, int] = {}
    for o in applied_options:
        for k in range(start[o], start[o + 1]):
            i, c = int(ids[k]), 0 if colours is None else int(colours[k])
            if i in tint and (c == 0 or tint[i] != c):
                raise StructureError(f"option {o} clashes with an option taken before it on item {i}")
            tint.setdefault(i, c)
    taken = set(applied_options)
    words = [0] * problem.n_items
    for o in range(problem.n_options):
        here = range(start[o], start[o + 1])
        if o in taken or any(int(ids[k]) in tint and (tint[int(ids[k])] == 0 or colours is None
                                                      or int(colours[k]) != tint[int(ids[k])]) for k in here):
            continue
        for k in here:
            words[int(ids[k])] |= int(C.opt_bit[k])
    ones = np.zeros(n1, bool)
    for i in range(problem.n_items):
        if i < n1 and i in tint:
            words[i] = (1 << bits) - 1
        elif i < n1:
            ones[i] = words[i].bit_count() == 1
        elif i not in tint:
            words[i] |= 1 << (bits - 1)
    word = C.mask.dtype.type
    return np.concatenate([np.array(words, dtype=np.uint64).astype(word), singles(ones, word)])


def check(C: Compact, problem: Options, applied_options=()) -> None:
    """Raise `StructureError` unless the arrays are exactly what ``problem`` gives with
    ``applied_options`` (numbers) taken: the static arrays as built, and every word recomputed from
    scratch. Cost: linear in the size of the problem times the applied options (Python; for tests)."""
    fresh = build(problem)
    for name in ("opt_start", "opt_items", "opt_bit", "opt_clr", "item_start", "item_opts", "item_clr", "origin",
                 "every", "spare", "item_entry", "opt_entry", "unit"):
        if not np.array_equal(getattr(C, name), getattr(fresh, name)):
            raise StructureError(f"{name} is not as built")
    want = expected_mask(C, problem, applied_options)
    if C.mask.dtype != want.dtype or not np.array_equal(C.mask, want):
        bad = int(np.flatnonzero(C.mask != want)[0])
        what = f"item {bad}" if bad < int(C.n_items) else f"single[{bad - int(C.n_items)}]"
        raise StructureError(f"the word of {what} is {int(C.mask[bad]):#x}, expected {int(want[bad]):#x}")


class CompactEngine(Single):
    """Small problems, each item's live options one word (see the module): DLX1's choices and
    nodes, its own updates."""

    name = "compact"
    summary = "Algorithm X for small problems, each item's live options one machine word"
    counts = ("DLX1's nodes and choices (DLX2's with colours): levels entered, dead ends included, plus one "
              "per solution; its own updates: items covered plus options blocked")
    refuses = (f"multiplicities, more than {MAX_IDS:,} items or options, more than {MAX_PER_ITEM} options "
               "on one item")
    tunables = {f"{__name__}:POLL": 1, f"{__name__}:STACK_START": 2, f"{__name__}:STACK_LEVELS": 1}
    samples = (("queens", (5,)), ("graceful", ([(0, 1), (1, 2)],)))
    searches = (search,)
    traces = False
    batches = True
    exact_splits = True

    def refusal(self, options: Options) -> str | None:
        if options.bounds is not None:
            return ("the compact engine takes no multiplicities (bounds other than 1): "
                    "the dlx engine (DLX3) takes them")
        return limits(options)

    def prepare(self, options: Options) -> Compact:
        C = build(options)
        return C

    def copy(self, structure: Compact) -> Compact:
        return copy(structure)

    def restore(self, structure: Compact, pristine: Compact) -> None:
        restore(structure)

    def start(self, structure: Compact) -> CompactMachine:
        return CompactMachine(structure)

    def advance(self, structure, machine, want, max_nodes, work, out, ends, *, early=False, trace=None) -> int:
        refuse_trace(self, trace)
        early = bool(early)
        found = 0
        while True:
            found += search(structure, *machine.arrays(), want - found, max_nodes, work, early, out, ends)
            if machine.state[PHASE] == st.COMPLETE and machine.state[FLOOR]:
                retake(structure, machine.choice, machine.state)
            if not machine.state[GROW]:
                return found
            machine.grow()
            if ends.size and found:
                return found

    def unwind(self, structure, machine) -> None:
        unwind(structure, machine.state)

    def untried(self, structure, machine, level: int, pristine=None) -> list[int]:
        """The positions a paused run has yet to try at ``level``: the live options (in the words
        the level saved) after its current one; none at a forced level."""
        sp = int(machine.saved[level])
        if sp == FORCED:
            return []
        item = int(machine.itm[level])
        first = int(structure.item_start[item])
        word = int(machine.stack[sp + item])
        return [first + b for b in range(int(machine.choice[level]) - first + 1, 64) if word >> b & 1]

    def applied(self, structure, machine) -> list[int]:
        return applied(structure, machine.choice, machine.state)

    def check(self, options: Options, structure, machine=None) -> None:
        done = [] if machine is None else self.applied(structure, machine)
        check(structure, options, done)

    def first_nodes(self, options: Options) -> np.ndarray:
        return first_nodes(options.n_options)

    def solve_batch(self, structure, pristine, scratch, groups, rows, limit, max_nodes, work, results) -> bool:
        m = scratch.machine
        done = solve_batch(structure, groups, results, rows, limit, max_nodes, work, scratch.where, m.choice, m.itm,
                           m.saved, m.stack, m.state, scratch.out, scratch.ends)
        if m.state[GROW]:
            m.grow()
        return done

    def reduce_row(self, structure, pristine, scratch, groups, row, units, unit_ends, keep, minimal,
                   budget) -> int:
        """See `reduce_row`: the values of ``row`` taken away while it stays unique, each test
        starting from saved words. Where the words of every level and unit would take more than
        ``REDUCE_BYTES``, one batch row per test (`batch.reduce_by_rows`)."""
        m = scratch.machine
        size = structure.mask.size
        deepest = m.choice.size * size
        if (deepest + unit_ends.size * size) * structure.mask.itemsize > REDUCE_BYTES:
            return batch.reduce_by_rows(self, structure, pristine, scratch, groups, row, units, unit_ends, keep,
                                        minimal, budget)
        if m.stack.size < deepest:
            m.stack = np.zeros(deepest, m.stack.dtype)
        snaps = np.empty((unit_ends.size, size), structure.mask.dtype)
        return reduce_row(structure, groups, row, units, unit_ends, keep, minimal, np.int64(budget), m.choice, m.itm,
                          m.saved, m.stack, m.state, snaps)
