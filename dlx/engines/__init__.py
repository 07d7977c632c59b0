"""The engines, by name: ``engine="dlx"`` everywhere an engine can be chosen.

An engine is one search machine behind the small interface of :class:`base.Engine`; a new one
goes into a module of its own here and into :data:`ENGINES`.
"""
from __future__ import annotations

from .base import Engine, Machine, Prepared
from .dlx1 import DLX1

#: Every engine there is, by the name the API and the commands take.
ENGINES: dict[str, Engine] = {"dlx": DLX1()}
DEFAULT = "dlx"


def get(name: str) -> Engine:
    """The engine called ``name``; a ValueError listing the names there are for any other."""
    try:
        return ENGINES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown engine {name!r}; the engines are: {', '.join(ENGINES)}") from None


__all__ = ["DEFAULT", "ENGINES", "Engine", "Machine", "Prepared", "get"]
