"""Algorithm X on a dict of sets: the pure-Python exact-cover solver a Python user writes by hand.

Ali Assaf's formulation ("Algorithm X in 30 lines!"): ``X`` maps each item to the set of options
that still cover it, ``Y`` maps each option to its items; selecting an option pops its items from
``X`` and removes the options that clash with it. Secondary items (covered at most once) are in
``X`` too but are never chosen to branch on, and the search ends when no primary item is left.

>>> options = {"A": ["c", "e"], "B": ["a", "d", "g"], "C": ["b", "c", "f"], "D": ["a", "d", "f"],
...            "E": ["b", "g"], "F": ["d", "e", "g"]}
>>> [sorted(s) for s in solutions(options, primary="abcdefg")]
[['A', 'D', 'E']]
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator


def solutions(options: dict[Hashable, list], primary: Iterable[Hashable],
              given: Iterable[Hashable] = ()) -> Iterator[list]:
    """Every exact cover of ``primary`` (each once, other items at most once) by ``options``,
    which maps option names to their items, with the ``given`` options selected first."""
    X: dict[Hashable, set] = {}
    for name, items in options.items():
        for item in items:
            X.setdefault(item, set()).add(name)
    for item in primary:
        X.setdefault(item, set())
    primary = set(primary)
    chosen = []
    for name in given:
        if any(item not in X for item in options[name]):
            return  # a given clashes with an earlier one
        select(X, options, name)
        chosen.append(name)
    yield from search(X, options, primary, chosen)


def search(X: dict, Y: dict, primary: set, solution: list) -> Iterator[list]:
    """Algorithm X: branch on the primary item with fewest options left, try each of them."""
    open_items = [item for item in X if item in primary]
    if not open_items:
        yield list(solution)
        return
    item = min(open_items, key=lambda i: len(X[i]))
    for option in list(X[item]):
        solution.append(option)
        removed = select(X, Y, option)
        yield from search(X, Y, primary, solution)
        deselect(X, Y, option, removed)
        solution.pop()


def select(X: dict, Y: dict, option: Hashable) -> list[set]:
    """Cover the option's items: drop them from X and every clashing option from the others."""
    removed = []
    for item in Y[option]:
        for other in X[item]:
            for k in Y[other]:
                if k != item:
                    X[k].remove(other)
        removed.append(X.pop(item))
    return removed


def deselect(X: dict, Y: dict, option: Hashable, removed: list[set]) -> None:
    """Undo :func:`select`, in reverse order."""
    for item in reversed(Y[option]):
        X[item] = removed.pop()
        for other in X[item]:
            for k in Y[other]:
                if k != item:
                    X[k].add(other)
