"""The installed distribution's version, the one written in pyproject.toml (read on first use:
importlib.metadata costs about 60 ms, too much for every command's start-up)."""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__: str = version("numba-dlx")
except PackageNotFoundError:        # a source tree that was never installed
    __version__ = "0+unknown"
