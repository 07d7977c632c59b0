"""sudoku: solve, count, rate, make and explain sudoku puzzles of any shape with the dlx exact-cover engine.

>>> import sudoku
>>> puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
>>> sudoku.solve(puzzle)
'417369825632158947958724316825437169791586432346912758289643571573291684164875293'
>>> sudoku.is_unique(puzzle)
True
"""
from __future__ import annotations

from dlx._lazy import loader

#: The public names and their modules, loaded on first use (as dlx's are).
_WHERE = {"PuzzleError": "grid", "parse": "grid", "pretty": "grid", "Result": "solver", "count": "solver",
          "is_unique": "solver", "solve": "solver", "solve_all": "solver", "solve_array": "solver",
          "Solved": "solver", "solve_many": "solver", "read_array": "grid",
          "generate": "generator", "shuffle": "transform", "Rating": "rating", "rate": "rating",
          "rate_all": "rating", "explain": "explainer", "read_puzzles": "files", "Variant": "variants", "jigsaw": "variants",
          "killer": "variants", "OutOfNodes": "solver", "Shape": "grid"}

__all__ = sorted(_WHERE, key=str.lower)
__getattr__, __dir__ = loader(__name__, _WHERE, ("cli", "encode", "explainer", "files", "generator", "grid", "output",
                                             "pipeline", "rating", "solver", "transform", "variants"))
