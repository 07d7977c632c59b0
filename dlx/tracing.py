"""Traces of a search: every step the engine takes, as Knuth's DLX programs print with ``v2``.

A traced run (``search(trace=True)``, ``dlx FILE --trace``) records its steps into an array in the
kernel, four int64 numbers per event, ``(kind, level, a, b)``:

========  =====================================================================
CHOOSE    the search chose item ``a`` at ``level``; it has ``b`` options
TRY       option ``a`` is tried at ``level``: the ``b``-th of the item's options
DEAD      a dead end at ``level``: item ``a`` has no option left
SOLUTION  solution number ``a``: levels ``0 .. level-1`` hold its options
BACKUP    every option of item ``a`` at ``level`` has been tried: back to ``level - 1``
========  =====================================================================

Item and option numbers are the problem's (a seeded run's are mapped back). Nothing is recorded
per event in Python: the kernel pauses when its buffer is full and the recorder empties it. Only
the Dancing Links engine on a problem without colours or multiplicities (Knuth's DLX1) records
traces; an untraced search runs a kernel compiled without any of this.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from .engines.base import BACKUP_EVENT, CHOOSE_EVENT, DEAD_EVENT, SOLUTION_EVENT, TRY_EVENT, refuse_trace

__all__ = ["BACKUP", "CHOOSE", "DEAD", "SOLUTION", "TRY", "Recorder", "lines"]

CHOOSE, TRY, DEAD, SOLUTION, BACKUP = CHOOSE_EVENT, TRY_EVENT, DEAD_EVENT, SOLUTION_EVENT, BACKUP_EVENT
#: Events per kernel call at least (the buffer also holds a whole backtrack from the deepest level).
BUFFER = 1 << 14


class Recorder:
    """Runs an engine's kernel with a trace buffer and keeps (or hands on) what it records.

    ``keep`` is True to keep every event ([`events`][dlx.tracing.Recorder.events]), or a function called with each batch
    of events as an ``(n, 4)`` array, to print or count them as they come. ``order`` and
    ``item_order`` map the searched problem's option and item numbers back to the caller's (a
    seeded run searches a reordered copy)."""

    def __init__(self, engine: Any, keep: bool | Callable[[np.ndarray], None], order: np.ndarray | None = None,
                 item_order: np.ndarray | None = None) -> None:
        if not engine.traces:
            refuse_trace(engine, True)
        self.engine = engine
        self._buffer: np.ndarray | None = None
        self._kept: list[np.ndarray] = []
        self._order = order
        self._item_order = item_order
        self._handle = keep if callable(keep) else self._kept.append

    def advance(self, structure: Any, machine: Any, want: int, max_nodes: int, work: int, out: np.ndarray,
                ends: np.ndarray) -> int:
        """The engine's ``advance`` with the trace on; the events go out before it returns, even
        when it is interrupted."""
        if self._buffer is None:
            self._buffer = np.zeros(1 + 4 * (BUFFER + machine.choice.size + 8), np.int64)
        buffer = self._buffer
        buffer[0] = 0
        try:
            return self.engine.advance(structure, machine, want, max_nodes, work, out, ends, trace=buffer)
        finally:
            n = int(buffer[0])
            if n:
                events = buffer[1:1 + 4 * n].reshape(n, 4).copy()
                if self._order is not None and self._item_order is not None:
                    tried = events[:, 0] == TRY
                    named = (events[:, 0] != TRY) & (events[:, 0] != SOLUTION)
                    events[tried, 2] = self._order[events[tried, 2]]
                    events[named, 2] = self._item_order[events[named, 2]]
                self._handle(events)

    def events(self) -> np.ndarray:
        """Every event kept so far, one row each."""
        if len(self._kept) > 1:
            self._kept[:] = [np.concatenate(self._kept)]
        return self._kept[0] if self._kept else np.zeros((0, 4), np.int64)


def lines(problem: Any, events: Iterable, choices: dict[int, int] | None = None) -> Iterator[str]:
    """The events in words, one line each, options as their item names (as ``dlx --trace`` prints).
    ``choices`` (level -> options of the item chosen there) carries what a TRY needs from one
    batch of events to the next: pass the same dict with every batch of a run.

    Examples:
        >>> from dlx import ExactCover
        >>> ec = ExactCover([["a", "b"], ["a"], ["b"]])
        >>> with ec.search(trace=True) as run:
        ...     n = run.count()
        >>> print("\\n".join(lines(ec, run.trace)))
        L0: choose a (2 options)
        L0: try 1 of 2: a b
        L1: solution 1
        L0: try 2 of 2: a
        L1: choose b (1 option)
        L1: try 1 of 1: b
        L2: solution 2
        L1: backtrack from b
        L0: backtrack from a
    """
    items = problem.items
    options = {} if choices is None else choices
    for kind, level, a, b in np.asarray(events).reshape(-1, 4).tolist():
        if kind == CHOOSE:
            options[level] = b
            yield f"L{level}: choose {items[a]} ({b} option{'' if b == 1 else 's'})"
        elif kind == TRY:
            yield f"L{level}: try {b} of {options.get(level, '?')}: {' '.join(map(_entry, problem.option(a)))}"
        elif kind == DEAD:
            yield f"L{level}: dead end: {items[a]} has no options"
        elif kind == SOLUTION:
            yield f"L{level}: solution {a}"
        elif kind == BACKUP:
            yield f"L{level}: backtrack from {items[a]}"
        else:
            raise ValueError(f"not a trace event: kind {kind}")


def _entry(entry: Any) -> str:
    return f"{entry[0]}:{entry[1]}" if isinstance(entry, tuple) and len(entry) == 2 else str(entry)
