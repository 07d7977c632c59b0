"""Compiled kernels on Knuth's DLX1 data structure.

Everything here takes and returns flat int32 numpy arrays and plain ints; names of items never reach a
kernel. The layout follows DLX1 (TAOCP 7.2.2.1, "Dancing links"):

* items ``0..N+1``: ``llink``/``rlink`` form two circular lists, the active primary items headed by the
  root ``0`` and the secondary items headed by ``N+1`` (so secondary items are never chosen); item
  ``i`` (1-based) has ``length[i]`` options;
* nodes: ``1..N`` are the item headers of the vertical lists, ``N+1`` is the first spacer, then each
  option's nodes followed by a spacer. ``top[x]`` is the item of node ``x``; a spacer's ``top`` has
  the ``SPACER`` bit set (where DLX1 has ``top <= 0``) and holds the number of the option before it
  in the other bits; its ``ulink`` points at the first node of the option before it and its
  ``dlink`` at the last node of the option after it.

The links, ``top`` and the search's ``choice`` stack are uint32, and index arithmetic stays unsigned
(``ONE``): numba must wrap negative indices round for signed ones, a test and a select on every
access of a pointer-chasing loop. Unsigned indices make the dancing about 1.8x faster.
"""
from __future__ import annotations

import numpy as np
from numba import njit

ZERO = np.uint32(0)
ONE = np.uint32(1)
SPACER = np.uint32(0x80000000)           # the bit that marks a spacer in ``top``
NO_OPTION = np.uint32(0xFFFFFFFF)        # the first spacer's ``top``: no option before it
COVERED = 1 << 30     # added to the length of a covered primary item, so a plain scan skips it
FLAT_SCAN = 1023      # up to this many primary items (10 bits), the choice may scan ``length`` as an array
LENGTH_CAP = np.int32((1 << 21) - 1)


@njit(cache=True, nogil=True)
def build_links(option_start, option_items, n_items, n_primary):
    """Lay out DLX1's links for options given in CSR form (0-based item ids).

    Returns ``(llink, rlink, length, top, ulink, dlink)``. Options are appended to each item's
    vertical list in input order, which is the order the search will try them in.
    """
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
            # append x at the bottom of item i's list
            u = ulink[i]
            ulink[x] = u
            dlink[u] = x
            dlink[x] = i
            ulink[i] = x
        dlink[spacer] = x
        spacer = x + 1
        top[spacer] = SPACER | o
        ulink[spacer] = first
    for i in range(1, n_primary + 1):
        if length[i] == 0:
            length[0] += 1    # primary items without options (see search)
    return llink, rlink, length, top, ulink, dlink


# The phases of a search, kept in ``state[PHASE]`` between calls of :func:`search`.
START = 0      # nothing done yet: the next call enters level 0
PAUSED = 1     # stopped just after visiting a solution: the next call resumes at step "recover"
DONE = 2       # the search is over; the links are as built
SPENT = 3      # the node budget ran out: levels 0..LEVEL are still applied (unwind undoes them)
EXHAUSTED = 4  # no solution is left, but levels 0..LEVEL are still applied (see ``early``)

PHASE, LEVEL = 0, 1                   # indices into ``state``
NODES, UPDATES, SOLUTIONS = 0, 1, 2   # indices into ``counters``


@njit(cache=True, nogil=True)
def cover(c, llink, rlink, length, top, ulink, dlink, n1):
    """Remove item ``c`` from its item list and hide every option in its vertical list.

    Returns the number of updates: one for the item, one per node unlinked (DLX1's count). Keeps
    ``length[0]``, the number of active primary items without options, and marks the length of a
    covered primary item with ``COVERED`` (see :func:`search`).
    """
    if c <= n1:
        if length[c] == 0:
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
            if length[cc] == 0 and cc <= n1:
                length[0] += 1
            updates += 1
            nn += ONE
        rr = dlink[rr]
    return updates


@njit(cache=True, nogil=True)
def uncover(c, llink, rlink, length, top, ulink, dlink, n1):
    """Undo :func:`cover` (``c``), visiting everything in exactly the reverse order."""
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
            if length[cc] == 0 and cc <= n1:
                length[0] -= 1
            length[cc] += 1
            nn -= ONE
        rr = ulink[rr]
    rlink[llink[c]] = c
    llink[rlink[c]] = c
    if c <= n1:
        length[c] -= COVERED
        if length[c] == 0:
            length[0] += 1


@njit(cache=True, nogil=True)
def cover_others(x, llink, rlink, length, top, ulink, dlink, n1):
    """Cover the items of node ``x``'s option other than ``top[x]``, left to right; returns updates."""
    updates = 0
    p = x + ONE
    while p != x:
        c = top[p]
        if c >= SPACER:
            p = ulink[p]
        else:
            updates += cover(c, llink, rlink, length, top, ulink, dlink, n1)
            p += ONE
    return updates


@njit(cache=True, nogil=True)
def uncover_others(x, llink, rlink, length, top, ulink, dlink, n1):
    """Undo :func:`cover_others` (``x``), right to left."""
    p = x - ONE
    while p != x:
        c = top[p]
        if c >= SPACER:
            p = dlink[p]
        else:
            uncover(c, llink, rlink, length, top, ulink, dlink, n1)
            p -= ONE


@njit(cache=True, nogil=True)
def option_of(x, top):
    """The number (0-based) of the option that node ``x`` belongs to: the spacer after it says."""
    while top[x] < SPACER:
        x += ONE
    return top[x] ^ SPACER


@njit(cache=True, nogil=True)
def search(llink, rlink, length, top, ulink, dlink, n1, choice, state, counters, want, max_nodes, early,
           out, ends):
    """Algorithm X (TAOCP 7.2.2.1, DLX1's steps), resumable: run until ``want`` more solutions have
    been visited or the tree is exhausted, and return how many were visited in this call.

    The search never counts more than ``max_nodes`` nodes: when the next node would exceed it,
    the phase becomes SPENT and the search cannot resume (``unwind`` restores the links).

    With ``early`` set, the search stops as soon as no level has an option left to try, without
    taking back the options still applied: the phase becomes EXHAUSTED and the caller either calls
    ``unwind`` or, faster, restores a copy of the links. On an easy puzzle every level is forced, so
    this saves the whole way back.

    The whole search state lives in the arrays: ``choice[level]`` is the node chosen at each level,
    ``state`` holds the phase and the level, ``counters`` the running nodes, updates and solutions.
    When ``ends`` is not empty, solution ``j`` of this call is written as option numbers (in level
    order) to ``out[ends[j-1]:ends[j]]``; the call also pauses when ``out`` could not hold one more
    solution of the largest possible size (``choice.size`` options).

    Counts follow DLX1 exactly: a node per level entered (dead ends included) and per solution; an
    update per item covered and per node unlinked. Item choice: the active primary item with the
    fewest options, the leftmost on ties; its options are tried top to bottom.

    The search walks DLX1's tree but spends less on choosing: ``length[0]`` (the root has no
    options of its own) counts the active primary items that have no options left, kept by
    :func:`cover` and :func:`uncover`. When it is not zero the level is a dead end and is left at
    once; otherwise the scan stops at the first item with one option, since none has fewer. When
    the first few active items have more, and there are at most ``FLAT_SCAN`` primary items, the
    minimum is taken over ``length`` as a plain array (covered items carry ``COVERED``), which the
    compiler vectorises, instead of chasing ``rlink`` item by item.
    """
    phase = state[PHASE]
    if phase == DONE or phase == SPENT or phase == EXHAUSTED:
        return 0
    record = ends.size > 0
    nodes = counters[NODES]
    updates = counters[UPDATES]
    found = 0
    used = 0
    level = state[LEVEL]
    best = ZERO
    cur = ZERO
    branching = 0     # levels whose item has an option after the one being tried
    if phase == START:
        level = 0
        step = 0      # forward
    else:
        cur = choice[level]
        best = top[cur]
        step = 2      # recover
        for l in range(level + 1):
            if dlink[choice[l]] != top[choice[l]]:
                branching += 1
    while True:
        if step == 0:
            # forward: enter a level, choose the item with the fewest options, cover it
            if nodes == max_nodes:
                state[PHASE] = SPENT
                level -= 1
                break
            nodes += 1
            if length[0] != 0:
                # an active primary item has no options left: DLX1 would choose it, cover it (one
                # update) and back up at once; do the same without the scan and the cover
                updates += 1
                if level == 0:
                    state[PHASE] = DONE
                    break
                level -= 1
                cur = choice[level]
                best = top[cur]
                step = 2
                continue
            # every active primary item has an option, so the first with just one is a minimum
            t = COVERED
            k = rlink[ZERO]
            steps = 0
            while k != ZERO and (steps < 12 or n1 > FLAT_SCAN):
                if length[k] < t:
                    best = k
                    t = length[k]
                    if t == 1:
                        break
                k = rlink[k]
                steps += 1
            if t != 1 and k != ZERO:
                # no quick single: one vectorised pass over the whole array for the least key
                # (length, item), covered items out of the running; lengths are capped so that
                # the key fits 31 bits, and if the cap is reached the list scan finishes the job
                key = np.int32(0x7FFFFFFF)
                for i in range(1, n1 + 1):
                    key = min(key, (min(length[i], LENGTH_CAP) << np.int32(10)) | np.int32(i))
                if key >> 10 < LENGTH_CAP:
                    best = np.uint32(key & 1023)
                else:
                    while k != ZERO:
                        if length[k] < t:
                            best = k
                            t = length[k]
                        k = rlink[k]
            updates += cover(best, llink, rlink, length, top, ulink, dlink, n1)
            cur = dlink[best]
            choice[level] = cur
            if dlink[cur] != best:
                branching += 1
            step = 1
        elif step == 1:
            # advance: try option cur, or back up when best's options are exhausted
            if cur == best:
                uncover(best, llink, rlink, length, top, ulink, dlink, n1)
                if level == 0:
                    state[PHASE] = DONE
                    break
                level -= 1
                cur = choice[level]
                best = top[cur]
                step = 2
                continue
            updates += cover_others(cur, llink, rlink, length, top, ulink, dlink, n1)
            if rlink[ZERO] != ZERO:
                level += 1
                step = 0
                continue
            # every primary item is covered: visit a solution (a node of its own, as in DLX1)
            if nodes == max_nodes:
                state[PHASE] = SPENT
                break
            nodes += 1
            found += 1
            if record:
                for l in range(level + 1):
                    out[used + l] = option_of(choice[l], top)
                used += level + 1
                ends[found - 1] = used
            if found == want or (record and (found == ends.size or used + choice.size > out.size)):
                state[PHASE] = PAUSED
                break
            step = 2
        else:
            # recover: take back option cur and move down to the next option of best
            if early and branching == 0:
                state[PHASE] = EXHAUSTED
                break
            uncover_others(cur, llink, rlink, length, top, ulink, dlink, n1)
            cur = dlink[cur]
            choice[level] = cur
            if cur != best and dlink[cur] == best:
                branching -= 1      # this level tries its last option now
            step = 1
    state[LEVEL] = level
    counters[NODES] = nodes
    counters[UPDATES] = updates
    counters[SOLUTIONS] += found
    return found


@njit(cache=True, nogil=True)
def unwind(llink, rlink, length, top, ulink, dlink, n1, choice, state):
    """Put the links back as built, from a search paused after a solution, stopped by its node
    budget or exhausted early; the search is then over."""
    if state[PHASE] == PAUSED or state[PHASE] == SPENT or state[PHASE] == EXHAUSTED:
        for level in range(state[LEVEL], -1, -1):
            cur = choice[level]
            uncover_others(cur, llink, rlink, length, top, ulink, dlink, n1)
            uncover(top[cur], llink, rlink, length, top, ulink, dlink, n1)
    state[PHASE] = DONE


@njit(cache=True, nogil=True)
def is_active(c, llink, rlink):
    """True when item ``c`` is still in its item list (not covered). Dancing links keep the links of a
    removed item frozen, and its neighbours never point back at it until it is put back."""
    return rlink[llink[c]] == c


@njit(cache=True, nogil=True)
def select(x, llink, rlink, length, top, ulink, dlink, n1):
    """Make the option whose first node is ``x`` part of every solution: cover its items, left to
    right. Returns the updates, or -1 (and changes nothing) when one of its items is covered already,
    that is when the option clashes with an option selected before."""
    p = x
    while top[p] < SPACER:
        if not is_active(top[p], llink, rlink):
            return -1
        p += ONE
    updates = 0
    p = x
    while top[p] < SPACER:
        updates += cover(top[p], llink, rlink, length, top, ulink, dlink, n1)
        p += ONE
    return updates


@njit(cache=True, nogil=True)
def deselect(x, llink, rlink, length, top, ulink, dlink, n1):
    """Undo :func:`select` (``x``): uncover the option's items right to left."""
    p = x
    while top[p] < SPACER:
        p += ONE
    while p != x:
        p -= ONE
        uncover(top[p], llink, rlink, length, top, ulink, dlink, n1)


# What :func:`solve_batch` says about each row.
NO_SOLUTION = 0
SOLVED = 1
INVALID = 2       # the row selects an option that does not exist or clashes with another one
OUT_OF_NODES = 3  # the node budget ran out before the answer was known


@njit(cache=True, nogil=True)
def solve_batch(llink, rlink, length, top, ulink, dlink, n1, pristine_llink, pristine_rlink,
                pristine_length, pristine_ulink, pristine_dlink, group_start, first_node, option_group,
                option_value, rows, limit, max_nodes, answers, counts, nodes, status):
    """Solve many variants of one problem, each a choice of options selected in advance.

    The options are split into groups of consecutive options (group ``j`` is options
    ``group_start[j]`` to ``group_start[j+1]-1``); in row ``r`` of ``rows``, a value ``v > 0`` in
    column ``j`` selects option ``group_start[j] + v - 1`` and 0 selects nothing. For each row the
    kernel selects those options, counts the solutions of what is left (up to ``limit``), writes
    the first one into ``answers[r]`` in the same form (the value of the option each group got, 0
    for none), then deselects: the links are as built again after every row. ``first_node[o]`` is
    the first node of option ``o``; ``option_group``/``option_value`` map an option back to its
    group and value (-1/0 for an option outside every group).

    ``counts[r]``, ``nodes[r]`` and ``status[r]`` (SOLVED, NO_SOLUTION, INVALID, OUT_OF_NODES) say
    how it went. Nothing is allocated per row.

    A search that ends with options still applied (paused at the last solution wanted, out of
    nodes, or exhausted early) is not unwound step by step: the ``pristine_`` copies of the links
    (as built) are copied back, which costs less than undoing every level of an easy puzzle.
    """
    n_rows, n_groups = rows.shape
    depth = length.size
    choice = np.zeros(depth, np.uint32)
    state = np.zeros(2, np.int64)
    counters = np.zeros(3, np.int64)
    out = np.zeros(depth, np.int32)
    ends = np.zeros(1, np.int32)
    no_ends = np.zeros(0, np.int32)
    chosen = np.zeros(n_groups, np.uint32)
    for r in range(n_rows):
        answers[r, :] = 0
        counts[r] = 0
        nodes[r] = 0
        n_chosen = 0
        status[r] = SOLVED
        for j in range(n_groups):
            v = rows[r, j]
            if v == 0:
                continue
            if v > group_start[j + 1] - group_start[j]:
                status[r] = INVALID
                break
            x = first_node[group_start[j] + v - 1]
            if select(x, llink, rlink, length, top, ulink, dlink, n1) < 0:
                status[r] = INVALID
                break
            chosen[n_chosen] = x
            n_chosen += 1
            answers[r, j] = v
        if status[r] == SOLVED:
            if rlink[ZERO] == ZERO:
                counts[r] = 1     # the selected options cover everything already
            elif limit > 0:
                state[PHASE] = START
                counters[:] = 0
                found = search(llink, rlink, length, top, ulink, dlink, n1, choice, state, counters,
                               1, max_nodes, True, out, ends)
                if found:
                    for k in range(ends[0]):
                        o = out[k]
                        if option_group[o] >= 0:
                            answers[r, option_group[o]] = option_value[o]
                    if limit > 1:
                        found += search(llink, rlink, length, top, ulink, dlink, n1, choice, state,
                                        counters, limit - 1, max_nodes, True, out, no_ends)
                if state[PHASE] == SPENT:
                    status[r] = OUT_OF_NODES
                elif found == 0:
                    status[r] = NO_SOLUTION
                if state[PHASE] != DONE:
                    # options are still applied: put the links back wholesale, givens and all
                    llink[:] = pristine_llink
                    rlink[:] = pristine_rlink
                    length[:] = pristine_length
                    ulink[:] = pristine_ulink
                    dlink[:] = pristine_dlink
                    n_chosen = 0
                counts[r] = found
                nodes[r] = counters[NODES]
        if status[r] == INVALID or status[r] == NO_SOLUTION:
            answers[r, :] = 0
        for k in range(n_chosen - 1, -1, -1):
            deselect(chosen[k], llink, rlink, length, top, ulink, dlink, n1)
