"""sudoku: solve, count and check sudoku puzzles of any box size with the dlx exact-cover engine.

>>> import sudoku
>>> puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
>>> sudoku.solve(puzzle)
'417369825632158947958724316825437169791586432346912758289643571573291684164875293'
>>> sudoku.is_unique(puzzle)
True
"""
from __future__ import annotations

import importlib

#: The public names and their modules, loaded on first use (as in dlx/__init__.py).
_WHERE = {"PuzzleError": "grid", "parse": "grid", "pretty": "grid", "Result": "solver", "count": "solver",
          "is_unique": "solver", "solve": "solver", "solve_all": "solver", "solve_many": "solver"}

__all__ = sorted(_WHERE, key=str.lower)


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'sudoku' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})
