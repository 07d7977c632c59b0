"""dlx: exact cover by Knuth's Algorithm X with Dancing Links, compiled with numba.

>>> import dlx
>>> dlx.ExactCover([["a", "b"], ["b"], ["a"]])
ExactCover(2 items (2 primary, 0 secondary), 3 options)
"""
__version__ = "0.1.0"

# after __version__, which formats reads
from .batch import Batch, BatchResult
from .engines import ENGINES
from .formats import read_dlx, write_dlx
from .model import ExactCover, ProblemError, ProblemWarning
from .search import Search, SearchStats
from .status import Status

__all__ = ["ENGINES", "Batch", "BatchResult", "ExactCover", "ProblemError", "ProblemWarning", "Search", "SearchStats",
           "Status", "__version__", "read_dlx", "write_dlx"]
