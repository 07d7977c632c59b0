"""Argument rules shared by the API and the commands: whole numbers, limits and budgets, threads.

Python checks what a caller passes before a kernel sees it, with an error that names the argument;
these are the rules every module applies, written once.
"""
from __future__ import annotations

import operator
import os

import numpy as np

__all__ = ["UNLIMITED", "check_count", "cores", "jobs", "past", "whole"]

#: No limit, as the kernels take it (int64): no search gets this far.
UNLIMITED = np.iinfo(np.int64).max


def whole(value: object, name: str, minimum: int = 0) -> int:
    """``value`` as an int of at least ``minimum``. Anything else is a ValueError naming ``name``:
    a float, a string or a bool is refused, never truncated (``jobs=1.5`` is a mistake, not 1)."""
    if not isinstance(value, (bool, np.bool_)):
        try:
            number = operator.index(value)  # type: ignore[arg-type]  # TypeError below
        except TypeError:
            pass
        else:
            if number >= minimum:
                return number
    raise ValueError(f"{name} must be a whole number of at least {minimum}, not {value!r}")


def check_count(value: int | None, name: str, minimum: int = 0) -> int:
    """A solution limit or node budget as the kernels take it (int64): None means no limit, and so
    does any number from ``UNLIMITED`` (2**63 - 1) up, since no search gets that far."""
    if value is None:
        return UNLIMITED
    try:
        return min(whole(value, name, minimum), UNLIMITED)
    except ValueError:
        raise ValueError(f"{name} must be None (no limit) or a whole number of at least {minimum}, "
                         f"not {value!r}") from None


def past(done: int, more: int) -> int:
    """A limit ``more`` past ``done`` (a count so far, for a run that resumes), kept within the
    kernels' int64."""
    return min(done + more, UNLIMITED)


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:          # no affinity on macOS and Windows
        return os.cpu_count() or 1


def jobs(value: int | None) -> int:
    """``value`` as a number of threads: None or 0 means one per core, and more than the cores
    are that many: the kernels keep a core busy each, so more threads would only take turns, each
    with its own copy of the structure (``jobs=10**9`` is a mistake, not a billion threads)."""
    if value is None:
        return cores()
    return min(whole(value, "jobs", 0) or cores(), cores())
