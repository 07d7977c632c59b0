"""dlx: exact cover by Knuth's Algorithm X with Dancing Links, compiled with numba.

>>> import dlx
>>> dlx.ExactCover([["a", "b"], ["b"], ["a"]])
ExactCover(2 items (2 primary, 0 secondary), 3 options)
"""
__version__ = "0.1.0"

# after __version__, which formats reads
from .batch import Batch, BatchResult
from .formats import read_dlx, write_dlx
from .problem import ExactCover, ProblemError
from .search import SearchStats

__all__ = ["Batch", "BatchResult", "ExactCover", "ProblemError", "SearchStats", "__version__", "read_dlx", "write_dlx"]
