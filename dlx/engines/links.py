"""Knuth's DLX1 data structure as one record, and the operations every Dancing Links engine shares.

The layout follows DLX1 (TAOCP 7.2.2.1, "Dancing links"):

* items ``0..N+1``: ``llink``/``rlink`` form two circular lists, the active primary items headed by the
  root ``0`` and the secondary items headed by ``N+1`` (so secondary items are never chosen); item
  ``i`` (1-based) has ``length[i]`` options;
* nodes: ``1..N`` are the item headers of the vertical lists, ``N+1`` is the first spacer, then each
  option's nodes followed by a spacer. ``top[x]`` is the item of node ``x``; a spacer's ``top`` has
  the ``SPACER`` bit set (where DLX1 has ``top <= 0``) and holds the number of the option before it
  in the other bits; its ``ulink`` points at the first node of the option before it and its
  ``dlink`` at the last node of the option after it.

The arrays travel together as `Links`, so a kernel takes one argument and adding an array
(colours, bounds) touches this record alone. The links, ``top`` and a search's ``choice`` stack are
uint32 and index arithmetic stays unsigned (``ONE``): numba must wrap negative indices round for
signed ones, a test and a select on every access of a pointer-chasing loop. Unsigned indices make
the dancing about 1.8x faster.

``length[0]`` (the root has no options of its own) counts the active primary items that have no
option left, and a covered primary item carries ``COVERED`` in its length, so the search can see a
dead end at once and can take a minimum over ``length`` as a plain array. Keeping the count costs a
test per update; where a search makes many updates per node it scans every item instead (see
``dlx1.keeps_count``) and counts afresh before it returns.
"""
from __future__ import annotations

from itertools import pairwise
from typing import NamedTuple

import numpy as np
from numba import njit

from .base import StructureError, put_back

ZERO = np.uint32(0)
ONE = np.uint32(1)
SPACER = np.uint32(0x80000000)           # the bit that marks a spacer in ``top``
NO_OPTION = np.uint32(0xFFFFFFFF)        # the first spacer's ``top``: no option before it
COVERED = 1 << 30     # added to the length of a covered primary item, so a plain scan skips it


class Links(NamedTuple):
    """DLX1's arrays for one problem; ``n1`` is the number of primary items (items ``1..n1``)."""

    llink: np.ndarray     # uint32, items 0..N+1
    rlink: np.ndarray     # uint32, items 0..N+1
    length: np.ndarray    # int32, items 0..N (0: active primary items without options)
    top: np.ndarray       # uint32, nodes; never changes after the build
    ulink: np.ndarray     # uint32, nodes
    dlink: np.ndarray     # uint32, nodes
    n1: np.uint32


def build(option_start: np.ndarray, option_items: np.ndarray, n_items: int, n_primary: int) -> Links:
    """The links of a problem given in CSR form (0-based item ids, options without a primary item
    already emptied), fresh. Cost: linear in the size of the problem."""
    llink, rlink, length, top, ulink, dlink = _build(option_start, option_items, n_items, n_primary)
    return Links(llink, rlink, length, top, ulink, dlink, np.uint32(n_primary))


def first_nodes(option_start: np.ndarray, n_items: int) -> np.ndarray:
    """The first node of every option (uint32); for an empty option, the spacer after it.

    Nodes ``1..N`` are the item headers and ``N+1`` the first spacer; each option is followed by a
    spacer, so option ``k`` starts ``k`` spacers after its first entry."""
    n_options = option_start.size - 1
    return (n_items + 2 + option_start[:-1] + np.arange(n_options)).astype(np.uint32)


def copy(links: Links) -> Links:
    """A copy to search on; ``top`` never changes, so it is shared."""
    return links._replace(llink=links.llink.copy(), rlink=links.rlink.copy(),
                          length=links.length.copy(), ulink=links.ulink.copy(),
                          dlink=links.dlink.copy())


@njit(cache=True, nogil=True, _nrt=False)
def restore(links, pristine):
    """Copy the changing arrays of ``pristine`` back into ``links``: the links as built, at once."""
    put_back(links.llink, pristine.llink)
    put_back(links.rlink, pristine.rlink)
    put_back(links.length, pristine.length)
    put_back(links.ulink, pristine.ulink)
    put_back(links.dlink, pristine.dlink)


@njit(cache=True, nogil=True)
def _build(option_start, option_items, n_items, n_primary):
    n_options = option_start.size - 1
    n_nodes = n_items + 2 + option_items.size + n_options
    llink = np.empty(n_items + 2, np.uint32)
    rlink = np.empty(n_items + 2, np.uint32)
    length = np.zeros(n_items + 1, np.int32)
    top = np.zeros(n_nodes, np.uint32)
    ulink = np.zeros(n_nodes, np.uint32)
    dlink = np.zeros(n_nodes, np.uint32)

    # The two circular item lists: primary items after root 0, secondary after root N+1.
    second = n_items + 1
    for i in range(n_items + 2):
        llink[i] = max(i - 1, 0)
        rlink[i] = i + 1
    llink[0] = n_primary
    rlink[n_primary] = 0
    llink[second] = n_items if n_items > n_primary else second
    rlink[second] = n_primary + 1 if n_items > n_primary else second
    if n_items > n_primary:
        llink[n_primary + 1] = second
        rlink[n_items] = second

    for i in range(1, n_items + 1):
        ulink[i] = i
        dlink[i] = i

    spacer = n_items + 1
    top[spacer] = NO_OPTION
    for o in range(n_options):
        first = spacer + 1
        x = spacer
        for k in range(option_start[o], option_start[o + 1]):
            x += 1
            i = option_items[k] + 1
            length[i] += 1
            top[x] = i
            # append x at the bottom of item i's list: options are tried in input order
            u = ulink[i]
            ulink[x] = u
            dlink[u] = x
            dlink[x] = i
            ulink[i] = x
        dlink[spacer] = x
        spacer = x + 1
        top[spacer] = SPACER | np.uint32(o)
        ulink[spacer] = first
    for i in range(1, n_primary + 1):
        if length[i] == 0:
            length[0] += 1
    return llink, rlink, length, top, ulink, dlink


@njit(cache=True, nogil=True, _nrt=False)
def cover(c, L, counting=True):
    """Remove item ``c`` from its item list and hide every option in its vertical list.

    Returns the number of updates: one for the item, one per node unlinked (DLX1's count). Marks a
    covered primary item's length with ``COVERED``, and keeps ``length[0]`` when ``counting`` (a
    constant where it is passed on from a default: numba compiles a version for each value).
    """
    llink, rlink, length, top, ulink, dlink, n1 = L
    if c <= n1:
        if length[c] == 0 and counting:
            length[0] -= 1
        length[c] += COVERED
    l = llink[c]
    r = rlink[c]
    rlink[l] = r
    llink[r] = l
    updates = 1
    rr = dlink[c]
    while rr != c:
        # hide(rr): unlink the other nodes of rr's option from their items' lists
        nn = rr + ONE
        while nn != rr:
            cc = top[nn]
            if cc >= SPACER:      # wrap round to the first node of the option
                nn = ulink[nn]
                continue
            uu = ulink[nn]
            dd = dlink[nn]
            dlink[uu] = dd
            ulink[dd] = uu
            length[cc] -= 1
            if counting and length[cc] == 0 and cc <= n1:
                length[0] += 1
            updates += 1
            nn += ONE
        rr = dlink[rr]
    return updates


@njit(cache=True, nogil=True, _nrt=False)
def uncover(c, L, counting=True):
    """Undo `cover` (``c``), visiting everything in exactly the reverse order."""
    llink, rlink, length, top, ulink, dlink, n1 = L
    rr = ulink[c]
    while rr != c:
        # unhide(rr)
        nn = rr - ONE
        while nn != rr:
            cc = top[nn]
            if cc >= SPACER:      # wrap round to the last node of the option
                nn = dlink[nn]
                continue
            dlink[ulink[nn]] = nn
            ulink[dlink[nn]] = nn
            if counting and length[cc] == 0 and cc <= n1:
                length[0] -= 1
            length[cc] += 1
            nn -= ONE
        rr = ulink[rr]
    rlink[llink[c]] = c
    llink[rlink[c]] = c
    if c <= n1:
        length[c] -= COVERED
        if length[c] == 0 and counting:
            length[0] += 1


@njit(cache=True, nogil=True, _nrt=False)
def cover_others(x, L, counting=True):
    """Cover the items of node ``x``'s option other than ``top[x]``, left to right; returns updates."""
    top, ulink = L.top, L.ulink
    updates = 0
    p = x + ONE
    while p != x:
        c = top[p]
        if c >= SPACER:
            p = ulink[p]
        else:
            updates += cover(c, L, counting)
            p += ONE
    return updates


@njit(cache=True, nogil=True, _nrt=False)
def uncover_others(x, L, counting=True):
    """Undo `cover_others` (``x``), right to left."""
    top, dlink = L.top, L.dlink
    p = x - ONE
    while p != x:
        c = top[p]
        if c >= SPACER:
            p = dlink[p]
        else:
            uncover(c, L, counting)
            p -= ONE


@njit(cache=True, nogil=True, _nrt=False)
def option_of(x, top):
    """The number (0-based) of the option that node ``x`` belongs to: the spacer after it says."""
    while top[x] < SPACER:
        x += ONE
    return top[x] ^ SPACER


@njit(cache=True, nogil=True, _nrt=False)
def is_active(c, L):
    """True when item ``c`` is still in its item list (not covered). Dancing links keep the links of a
    removed item frozen, and its neighbours never point back at it until it is put back."""
    return L.rlink[L.llink[c]] == c


@njit(cache=True, nogil=True, _nrt=False)
def select(x, L):
    """Make the option whose first node is ``x`` part of every solution: cover its items, left to
    right. Returns the updates, or -1 (and changes nothing) when one of its items is covered already,
    that is when the option clashes with an option selected before."""
    top = L.top
    p = x
    while top[p] < SPACER:
        if not is_active(top[p], L):
            return -1
        p += ONE
    updates = 0
    p = x
    while top[p] < SPACER:
        updates += cover(top[p], L)
        p += ONE
    return updates


@njit(cache=True, nogil=True, _nrt=False)
def deselect(x, L):
    """Undo `select` (``x``): uncover the option's items right to left."""
    top = L.top
    p = x
    while top[p] < SPACER:
        p += ONE
    while p != x:
        p -= ONE
        uncover(top[p], L)


def check(links: Links, option_start: np.ndarray, option_items: np.ndarray, applied = ()) -> None:
    """Raise `StructureError` unless ``links`` are exactly what the options, with the options
    ``applied`` (numbers) covered, must give: Knuth's ``sanity()``, made exact, valid at any
    paused point of a search.

    ``option_start``/``option_items`` are the options as the links hold them (CSR, 0-based ids).
    Every active item's list must hold exactly the live options (those without a covered item) in
    input order, with the right ``top``, ``length`` and back links; the two item lists must hold
    exactly the uncovered items in order; spacers and ``top`` never change; ``length[0]`` and the
    ``COVERED`` marks must match. The lists of covered items are frozen and only undoing reads them,
    so the check after a search is closed (``applied=()``) covers them. Cost: linear in the size of
    the problem (Python; for tests).
    """
    llink, rlink, length, top, ulink, dlink, _ = links
    n1 = int(links.n1)
    n = llink.size - 2
    options = [option_items[option_start[k]:option_start[k + 1]].tolist()
               for k in range(option_start.size - 1)]
    covered = {i + 1 for k in applied for i in options[k]}
    if sum(len(options[k]) for k in applied) != len(covered):
        raise StructureError(f"applied options {list(applied)} clash")
    for root, members in ((0, range(1, n1 + 1)), (n + 1, range(n1 + 1, n + 1))):
        ring = [root, *(i for i in members if i not in covered), root]
        for a, b in pairwise(ring):
            if not (rlink[a] == b and llink[b] == a):
                raise StructureError(f"item list broken between {a} and {b}")
    spacer = n + 1
    if top[spacer] != NO_OPTION:
        raise StructureError("the first spacer is wrong")
    columns: list[list[int]] = [[] for _ in range(n + 1)]
    for k, ids in enumerate(options):
        first = spacer + 1
        live = not covered.intersection(i + 1 for i in ids)
        for offset, i in enumerate(ids):
            if top[first + offset] != i + 1:
                raise StructureError(f"node {first + offset} has the wrong item")
            if live:
                columns[i + 1].append(first + offset)
        last = first + len(ids) - 1
        if dlink[spacer] != last:
            raise StructureError(f"spacer {spacer} does not point at option {k}'s last node")
        spacer = last + 1
        if not (top[spacer] == SPACER | k and ulink[spacer] == first):
            raise StructureError(f"spacer {spacer} is wrong")
    if spacer != top.size - 1:
        raise StructureError("nodes after the last spacer")
    empty = 0
    for i in range(1, n + 1):
        if i in covered:
            if not (i > n1 or length[i] >= COVERED):
                raise StructureError(f"covered item {i} is not marked")
            continue
        ring = [i, *columns[i], i]
        for a, b in pairwise(ring):
            if not (dlink[a] == b and ulink[b] == a):
                raise StructureError(f"list of item {i} broken at node {a}")
        if length[i] != len(columns[i]):
            raise StructureError(f"length of item {i} is {length[i]}, not {len(columns[i])}")
        empty += int(i <= n1 and not columns[i])
    if length[0] != empty:
        raise StructureError(f"length[0] is {length[0]}, but {empty} active primary items have no options")
