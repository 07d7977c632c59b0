"""dlx: exact cover by Knuth's Algorithm X with Dancing Links, compiled with numba.

Examples:
    >>> import dlx
    >>> dlx.ExactCover([["a", "b"], ["b"], ["a"]])
    ExactCover(2 items (2 primary, 0 secondary), 3 options)
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import loader

if TYPE_CHECKING:       # what a type checker sees: the names _WHERE loads on first use
    # the submodules a user reaches as attributes (dlx.problems.queens(8))
    from . import batch as batch
    from . import cheapest as cheapest
    from . import cli as cli
    from . import engines as engines
    from . import formats as formats
    from . import matrix as matrix
    from . import memo as memo
    from . import model as model
    from . import problems as problems
    from . import search as search
    from . import status as status
    from . import zdd as zdd
    from ._version import __version__ as __version__
    from .batch import Batch as Batch
    from .batch import BatchResult as BatchResult
    from .engines import ENGINES as ENGINES
    from .formats import read_dlx as read_dlx
    from .formats import write_dlx as write_dlx
    from .model import ExactCover as ExactCover
    from .model import ProblemError as ProblemError
    from .model import ProblemWarning as ProblemWarning
    from .search import Search as Search
    from .search import SearchStats as SearchStats
    from .status import Status as Status
    from .zdd import ZDD as ZDD

#: The public names and the modules they live in, loaded on first use (see `dlx.lazy`).
_WHERE = {"__version__": "dlx._version", "Batch": "batch", "BatchResult": "batch",
          "ENGINES": "engines", "ExactCover": "model", "ProblemError": "model",
          "ProblemWarning": "model", "Search": "search", "SearchStats": "search",
          "Status": "status", "ZDD": "zdd", "read_dlx": "formats", "write_dlx": "formats"}
#: Submodules a user reaches as attributes (``dlx.problems.queens(8)``).
_SUBMODULES = ("batch", "cheapest", "cli", "engines", "formats", "matrix", "memo", "model", "problems", "search",
               "status", "zdd")

__all__ = sorted(_WHERE, key=str.lower)
__getattr__, __dir__ = loader(__name__, _WHERE, _SUBMODULES)
