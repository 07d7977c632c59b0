"""dlx: exact cover by Knuth's Algorithm X with Dancing Links, compiled with numba.

>>> import dlx
>>> dlx.ExactCover([["a", "b"], ["b"], ["a"]])
ExactCover(2 items (2 primary, 0 secondary), 3 options)
"""
from __future__ import annotations

import importlib

__version__ = "0.1.0"

#: The public names and the modules they live in. They load on first use (PEP 562), so that the
#: commands can set up the process (numpy's thread pool, say) before numpy and numba are imported.
_WHERE = {"Batch": "batch", "BatchResult": "batch", "ENGINES": "engines", "ExactCover": "model",
          "ProblemError": "model", "ProblemWarning": "model", "Search": "search", "SearchStats": "search",
          "Status": "status", "read_dlx": "formats", "write_dlx": "formats"}

__all__ = [*sorted(_WHERE, key=str.lower), "__version__"]


#: Submodules a user reaches as attributes (``dlx.problems.queens(8)``), loaded on first use too.
_SUBMODULES = {"batch", "cli", "engines", "formats", "matrix", "model", "problems", "search", "status"}


def __getattr__(name: str):
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'dlx' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})
