"""Obviously-right references the engine is checked against.

``algorithm_x`` is Algorithm X on plain sets: no links, no compilation. It makes the same choices as
DLX1 (the uncovered primary item with the fewest live options, the first in item order on ties; its
options in input order), so it yields the same solutions in the same order and counts the same nodes
and updates. ``brute_force`` tries every subset of options and checks the reference itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations


@dataclass
class Counts:
    nodes: int = 0
    updates: int = 0


def algorithm_x(options, primary, secondary=(), counts=None):
    """Yield every solution (sorted tuple of option indices), in DLX1's order."""
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
        best = min(uncovered, key=lambda item: (sum(k in live for k in has[item]), primary.index(item)))
        tries = [k for k in has[best] if k in live]
        live = cover(best, live)
        for k in tries:
            rest = live
            for item in options[k]:
                if item != best:
                    rest = cover(item, rest)
            left = uncovered - set(options[k])
            if left:
                yield from search(left, rest, chosen + [k])
            else:
                counts.nodes += 1
                yield tuple(sorted(chosen + [k]))

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
