"""sudoku: solve, count and check sudoku puzzles of any box size with the dlx exact-cover engine.

>>> import sudoku
>>> puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
>>> sudoku.solve(puzzle)
'417369825632158947958724316825437169791586432346912758289643571573291684164875293'
>>> sudoku.is_unique(puzzle)
True
"""
from .grid import PuzzleError, parse, pretty
from .solver import Result, count, is_unique, solve, solve_all, solve_many

__all__ = ["PuzzleError", "Result", "count", "is_unique", "parse", "pretty", "solve", "solve_all",
           "solve_many"]
