"""dlx: exact cover by Knuth's Algorithm X with Dancing Links, compiled with numba.

>>> import dlx
>>> dlx.ExactCover([["a", "b"], ["b"], ["a"]])
ExactCover(2 items (2 primary, 0 secondary), 3 options)
"""
from __future__ import annotations

from ._lazy import loader

__version__ = "0.1.0"

#: The public names and the modules they live in, loaded on first use (see ``_lazy``).
_WHERE = {"Batch": "batch", "BatchResult": "batch", "ENGINES": "engines", "ExactCover": "model",
          "ProblemError": "model", "ProblemWarning": "model", "Search": "search", "SearchStats": "search",
          "Status": "status", "read_dlx": "formats", "write_dlx": "formats"}
#: Submodules a user reaches as attributes (``dlx.problems.queens(8)``).
_SUBMODULES = ("batch", "cli", "engines", "formats", "matrix", "model", "problems", "search", "status")

__all__ = [*sorted(_WHERE, key=str.lower), "__version__"]
__getattr__, __dir__ = loader(__name__, _WHERE, _SUBMODULES)
