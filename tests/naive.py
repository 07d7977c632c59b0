"""Obviously-right references the engine is checked against.

``algorithm_x`` is Algorithm X on plain sets: no links, no compilation. It makes the same choices as
DLX1 (the uncovered primary item with the fewest live options, the first in item order on ties; its
options in input order), so it yields the same solutions in the same order and counts the same nodes
and updates. ``brute_force`` tries every subset of options and checks the reference itself.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations


@dataclass
class Counts:
    nodes: int = 0
    updates: int = 0


def algorithm_x(options, primary, secondary=(), counts=None, events=None):
    """Yield every solution (sorted tuple of option indices), in DLX1's order. ``events``, a list,
    receives the trace DLX1 records (dlx.tracing): ``(kind, level, a, b)`` per step."""
    from dlx.tracing import BACKUP, CHOOSE, DEAD, SOLUTION, TRY
    events = [] if events is None else events
    options = [list(option) for option in options]
    counts = Counts() if counts is None else counts
    items = list(primary) + list(secondary)
    has = {item: [k for k, option in enumerate(options) if item in option] for item in items}

    def cover(item, live):
        # An option dies when one of its items is covered; DLX1 unlinks its other nodes.
        dying = [k for k in has[item] if k in live]
        counts.updates += 1 + sum(len(options[k]) - 1 for k in dying)
        return live - set(dying)

    def search(uncovered, live, chosen):
        counts.nodes += 1
        level = len(chosen)
        best = min(uncovered, key=lambda item: (sum(k in live for k in has[item]), primary.index(item)))
        tries = [k for k in has[best] if k in live]
        events.append((CHOOSE, level, items.index(best), len(tries)) if tries else
                      (DEAD, level, items.index(best), 0))
        live = cover(best, live)
        for j, k in enumerate(tries, 1):
            events.append((TRY, level, k, j))
            rest = live
            for item in options[k]:
                if item != best:
                    rest = cover(item, rest)
            left = uncovered - set(options[k])
            if left:
                yield from search(left, rest, chosen + [k])
            else:
                counts.nodes += 1
                solved[0] += 1
                events.append((SOLUTION, level + 1, solved[0], 0))
                yield tuple(sorted(chosen + [k]))
        if tries:
            events.append((BACKUP, level, items.index(best), 0))

    solved = [0]

    yield from search(set(primary), set(range(len(options))), [])


def brute_force(options, primary, secondary=()):
    """Every exact cover, by trying all subsets of options: exponential and obviously right."""
    options = [set(option) for option in options]
    found = set()
    for size in range(len(options) + 1):
        for subset in combinations(range(len(options)), size):
            if is_exact_cover([options[k] for k in subset], primary, secondary):
                found.add(subset)
    return found


def is_exact_cover(chosen, primary, secondary=()):
    """True when the chosen options cover every primary item once and every secondary at most once."""
    covered = [item for option in chosen for item in option]
    return (len(covered) == len(set(covered)) and set(primary) <= set(covered)
            and set(covered) <= set(primary) | set(secondary))


@dataclass
class Tally:
    nodes: int = 0
    updates: int = 0
    cleansings: int = 0


def algorithm_m(options, primary, secondary=(), bounds=None, counts=None, dlx2_dead_ends=None):
    """Yield every solution of an exact-cover problem with colours and bounds (sorted tuples of
    option indices) in DLX2/DLX3's order, counting nodes, updates and cleansings as they count them.

    ``options`` hold item names and ``(item, colour)`` pairs; ``bounds`` maps primary items to
    ``(lo, hi)``. This is Algorithm M on plain Python lists and sets: each item's list is the
    ordered list of the options whose entry for it is still linked there, and the steps (cover,
    purify, tweak and their inverses, the branching degree and its ties) are Knuth's, so the search
    tree and the figures must equal the engine's. Dead ends count DLX2's update when
    ``dlx2_dead_ends`` (default: when no bounds are given).
    """
    counts = Tally() if counts is None else counts
    bounds = dict(bounds or {})
    if dlx2_dead_ends is None:
        dlx2_dead_ends = not any(tuple(v) != (1, 1) for v in bounds.values())
    entries = []            # per option: [(item, colour or None)]
    for option in options:
        entries.append([(e[0], e[1]) if isinstance(e, tuple) and e[0] in secondary else (e, None)
                        for e in option])
    usable = [k for k, option in enumerate(entries) if any(item in primary for item, _ in option)]
    lst = {item: [k for k in usable if any(i == item for i, _ in entries[k])] for item in [*primary, *secondary]}
    colour = {(k, i): c for k in usable for i, c in entries[k]}
    cleansed: set = set()
    bound = {i: tuple(bounds.get(i, (1, 1)))[1] for i in primary}
    slack = {i: tuple(bounds.get(i, (1, 1)))[1] - tuple(bounds.get(i, (1, 1)))[0] for i in primary}
    active = list(primary)

    def others(k, own):
        items = [i for i, _ in entries[k]]
        pos = items.index(own)
        return items[pos + 1:] + items[:pos]

    def hide(k, own):
        for i in others(k, own):
            if (k, i) not in cleansed:
                lst[i].remove(k)
                counts.updates += 1

    def unhide(k, own):
        for i in others(k, own):
            if (k, i) not in cleansed:
                lst[i].append(k)
                lst[i].sort()

    def cover(c):
        if c in active:
            active.remove(c)
        counts.updates += 1
        for k in list(lst[c]):
            hide(k, c)

    def uncover(c, react=True):
        for k in lst[c]:
            unhide(k, c)
        if react:
            reactivate(c)

    def reactivate(c):
        if c in primary and c not in active:
            active.append(c)
            active.sort(key=primary.index)

    def current_colour(k, i):
        return -1 if (k, i) in cleansed else colour[(k, i)]

    def purify(k, c):
        x = colour[(k, c)]
        counts.cleansings += 1
        for r in list(lst[c]):
            if current_colour(r, c) != x:
                hide(r, c)
            else:
                cleansed.add((r, c))
                counts.cleansings += 1

    def unpurify(k, c):
        for r in lst[c]:
            if (r, c) in cleansed:
                cleansed.discard((r, c))
            else:
                unhide(r, c)

    def commit(k, own):
        for i in others(k, own):
            if i in primary:
                bound[i] -= 1
                if bound[i] == 0:
                    cover(i)
            elif colour[(k, i)] is None:
                cover(i)
            elif (k, i) not in cleansed:
                purify(k, i)

    def uncommit(k, own):
        for i in reversed(others(k, own)):
            if i in primary:
                if bound[i] == 0:
                    uncover(i)
                bound[i] += 1
            elif colour[(k, i)] is None:
                uncover(i)
            elif (k, i) not in cleansed:
                unpurify(k, i)

    def choose():
        best, key = None, None
        for i in active:
            b = bound[i]
            s = min(slack[i], b)
            t = len(lst[i]) + s - b + 1
            if key is None or (t, s, -len(lst[i])) < key:
                best, key = i, (t, s, -len(lst[i]))
        return best, key[0]

    def search(chosen):
        counts.nodes += 1
        if not active:
            yield tuple(sorted(chosen))
            return
        best, score = choose()
        if score <= 0:
            counts.updates += dlx2_dead_ends
            return
        bound[best] -= 1
        if bound[best] == 0 and slack[best] == 0:
            cover(best)
            for k in list(lst[best]):
                commit(k, best)
                yield from search(chosen + [k])
                uncommit(k, best)
            uncover(best)
        else:
            block = bound[best] != 0
            if not block:
                cover(best)
            tried = []
            for k in list(lst[best]):
                if len(lst[best]) <= bound[best] - slack[best]:
                    break
                tried.append(k)
                lst[best].remove(k)
                counts.updates += 1
                if block:
                    hide(k, best)
                commit(k, best)
                yield from search(chosen + [k])
                uncommit(k, best)
            else:
                if len(lst[best]) > bound[best] - slack[best]:
                    if block:
                        active.remove(best)
                    yield from search(chosen)
                    reactivate(best)
            for k in tried:
                lst[best].append(k)
                if block:
                    unhide(k, best)
            lst[best].sort()
            if not block:
                uncover(best, react=False)
        bound[best] += 1

    yield from search([])


def brute_force_m(options, primary, secondary=(), bounds=None):
    """Every solution with colours and bounds, by trying all subsets of options."""
    bounds = dict(bounds or {})
    found = set()
    for size in range(len(options) + 1):
        for subset in combinations(range(len(options)), size):
            if is_cover_m([options[k] for k in subset], primary, secondary, bounds):
                found.add(subset)
    return found


def is_cover_m(chosen, primary, secondary=(), bounds=None):
    """True when every primary item is covered within its bounds ((1, 1) by default) and every
    secondary item by at most one option, or by options that all give it the same colour; every
    chosen option must have a primary item."""
    bounds = dict(bounds or {})
    uses: dict = {}
    for option in chosen:
        names = [e[0] if isinstance(e, tuple) and e[0] in secondary else e for e in option]
        if not set(names) & set(primary):
            return False
        for e in option:
            if isinstance(e, tuple) and e[0] in secondary:
                uses.setdefault(e[0], []).append(e[1])
            else:
                uses.setdefault(e, []).append(None)
    for item in primary:
        lo, hi = tuple(bounds.get(item, (1, 1)))
        if not lo <= len(uses.get(item, [])) <= hi:
            return False
    for item in secondary:
        colours = uses.get(item, [])
        if len(colours) > 1 and (None in colours or len(set(colours)) > 1):
            return False
    return set(uses) <= set(primary) | set(secondary)


@dataclass
class CostCounts:
    nodes: int = 0
    updates: int = 0
    cleansings: int = 0


def cheapest_x(options, costs, primary, secondary=(), k=1, lenthresh=10, counts=None):
    """Knuth's DLX5 on plain sets: yield ``(cost, options)`` for every solution that beats the
    ``k``-th best so far, in DLX5's order, counting its nodes, updates and cleansings.

    ``options`` hold item names and ``(item, colour)`` pairs. Each item's list is a set of option
    numbers, read in DLX5's order: by net cost, input order among equals. A node (an option's entry
    for an item) is in its item's list or not, and cleansed or not; covering an item with a
    threshold hides only the options below it, so an option can be out of some lists and in others
    (as in the links)."""
    counts = CostCounts() if counts is None else counts
    primary = list(primary)
    entries = [[(e[0], e[1]) if isinstance(e, tuple) else (e, None) for e in option] for option in options]
    usable = [k_ for k_, option in enumerate(entries) if any(item in primary for item, _ in option)]
    net = list(costs)
    tax = 0
    for item in primary:        # each item taxed the least net cost of its options, in order
        those = [o for o in usable if any(i == item for i, _ in entries[o])]
        if those:
            least = min(net[o] for o in those)
            tax += least
            for o in those:
                net[o] -= least
    lists = {item: {o for o in usable if any(i == item for i, _ in entries[o])}
             for item in primary + list(secondary)}
    cleansed = set()            # (option, item)
    done = set()                # primary items covered
    best = [math.inf] * k       # the k best net costs so far

    def in_order(item):
        return sorted(lists[item], key=lambda o: (net[o], o))

    def cutoff():
        return max(best)

    def others(o, item):
        """The entries of option ``o`` after ``item``'s, round the option (DLX5's order)."""
        at = next(j for j, (i, _) in enumerate(entries[o]) if i == item)
        return entries[o][at + 1:] + entries[o][:at]

    def hide(o, item, undo):
        for other, _ in others(o, item):
            if (o, other) not in cleansed:
                assert o in lists[other]            # a node is never removed twice
                lists[other].discard(o)
                undo.append((other, o))
                counts.updates += 1

    def active():
        return [item for item in primary if item not in done]

    def cover(item, thresh, undo):
        if item in primary:
            done.add(item)
            undo.append(("done", item))
        counts.updates += 1
        for o in in_order(item):
            if net[o] >= thresh:
                break
            hide(o, item, undo)

    def purify(o, item, colour, thresh, undo):
        counts.cleansings += 1
        for r in in_order(item):
            if net[r] >= thresh:
                break
            if dict(entries[r])[item] != colour:
                hide(r, item, undo)
            elif r != o:
                counts.cleansings += 1
                cleansed.add((r, item))
                undo.append(("cleansed", (r, item)))

    def take_back(undo):
        for kind, what in reversed(undo):
            if kind == "done":
                done.discard(what)
            elif kind == "cleansed":
                cleansed.discard(what)
            else:
                lists[kind].add(what)

    def choose(curcost):
        t, chosen, most = math.inf, None, 0
        for item in active():
            order = in_order(item)
            if not order or net[order[0]] >= cutoff() - curcost:
                return 0, item
            s, counted = 1, True
            while True:
                if s >= len(order) or net[order[s]] >= cutoff() - curcost:
                    break
                if s == t:
                    counted = False
                    break
                if s >= lenthresh:
                    s = len(order)
                    break
                s += 1
            if counted and (s < t or (s == t and net[order[0]] > most)):
                t, chosen, most = s, item, net[order[0]]
        return t, chosen

    def search(curcost, chosen):
        counts.nodes += 1
        t, item = choose(curcost)
        if t == 0:
            return
        tries = in_order(item)
        undo_item: list = []
        cover(item, cutoff() - (curcost + net[tries[0]]), undo_item)
        for j, o in enumerate(tries):
            nextcost = curcost + net[o]
            if j and nextcost >= cutoff():
                break
            undo: list = []
            thresh = cutoff() - nextcost
            for other, colour in others(o, item):
                if colour is None:
                    cover(other, thresh, undo)
                elif (o, other) not in cleansed:
                    purify(o, other, colour, thresh, undo)
            if not active():
                counts.nodes += 1
                best.remove(max(best))
                best.append(nextcost)
                yield tax + nextcost, tuple(sorted(chosen + [o]))
            else:
                yield from search(nextcost, chosen + [o])
            take_back(undo)
        take_back(undo_item)

    yield from search(0, [])


def cheapest_brute_force(options, costs, primary, secondary=(), k=1):
    """The ``k`` least costs of all solutions (with repeats), by trying every subset of the options
    that have a primary item; colours allowed (``(item, colour)`` entries)."""
    entries = [[(e[0], e[1]) if isinstance(e, tuple) else (e, None) for e in option] for option in options]
    usable = [o for o, option in enumerate(entries) if any(item in primary for item, _ in option)]
    found = []
    for size in range(len(usable) + 1):
        for subset in combinations(usable, size):
            if is_coloured_cover([entries[o] for o in subset], primary):
                found.append(sum(costs[o] for o in subset))
    return sorted(found)[:k]


def is_coloured_cover(chosen, primary):
    """Every primary item once; a secondary item at most once, or only by entries of one colour."""
    uses: dict = {}
    for option in chosen:
        for item, colour in option:
            uses.setdefault(item, []).append(colour)
    if any(len(uses.get(item, [])) != 1 for item in primary):
        return False
    return all(len(colours) == 1 or (None not in colours and len(set(colours)) == 1)
               for item, colours in uses.items() if item not in primary)
