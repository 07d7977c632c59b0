"""Compiled kernels on Knuth's DLX1 data structure.

Everything here takes and returns flat int32 numpy arrays and plain ints; names of items never reach a
kernel. The layout follows DLX1 (TAOCP 7.2.2.1, "Dancing links"):

* items ``0..N+1``: ``llink``/``rlink`` form two circular lists, the active primary items headed by the
  root ``0`` and the secondary items headed by ``N+1`` (so secondary items are never chosen); item
  ``i`` (1-based) has ``length[i]`` options;
* nodes: ``1..N`` are the item headers of the vertical lists, ``N+1`` is the first spacer, then each
  option's nodes followed by a spacer. ``top[x]`` is the item of node ``x``; a spacer has
  ``top <= 0`` (minus the number of the option before it), ``ulink`` pointing at the first node of
  the option before it and ``dlink`` at the last node of the option after it.
"""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def build_links(option_start, option_items, n_items, n_primary):
    """Lay out DLX1's links for options given in CSR form (0-based item ids).

    Returns ``(llink, rlink, length, top, ulink, dlink)``. Options are appended to each item's
    vertical list in input order, which is the order the search will try them in.
    """
    n_options = option_start.size - 1
    n_nodes = n_items + 2 + option_items.size + n_options
    llink = np.empty(n_items + 2, np.int32)
    rlink = np.empty(n_items + 2, np.int32)
    length = np.zeros(n_items + 1, np.int32)
    top = np.zeros(n_nodes, np.int32)
    ulink = np.zeros(n_nodes, np.int32)
    dlink = np.zeros(n_nodes, np.int32)

    # The two circular item lists: primary items after root 0, secondary after root N+1.
    second = n_items + 1
    for i in range(n_items + 2):
        llink[i] = i - 1
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
    for o in range(n_options):
        first = spacer + 1
        x = spacer
        for k in range(option_start[o], option_start[o + 1]):
            x += 1
            i = option_items[k] + 1
            length[i] += 1
            top[x] = i
            # append x at the bottom of item i's list
            u = ulink[i]
            ulink[x] = u
            dlink[u] = x
            dlink[x] = i
            ulink[i] = x
        dlink[spacer] = x
        spacer = x + 1
        top[spacer] = -(o + 1)
        ulink[spacer] = first
    return llink, rlink, length, top, ulink, dlink
