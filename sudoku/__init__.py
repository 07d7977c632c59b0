"""sudoku: solve, count, rate, make and explain sudoku puzzles of any shape with the dlx exact-cover engine.

Examples:
    >>> import sudoku
    >>> puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> sudoku.solve(puzzle)
    '417369825632158947958724316825437169791586432346912758289643571573291684164875293'
    >>> sudoku.is_unique(puzzle)
    True
    >>> sudoku.hint(puzzle).text
    'Hidden Single: r8c6=1'
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from dlx.lazy import loader

if TYPE_CHECKING:       # what a type checker sees: the names _WHERE loads on first use
    from dlx._version import __version__ as __version__

    from .explainer import explain as explain
    from .files import read_puzzles as read_puzzles
    from .generator import generate as generate
    from .grid import PuzzleError as PuzzleError
    from .grid import Shape as Shape
    from .grid import parse as parse
    from .grid import picture as picture
    from .grid import pretty as pretty
    from .grid import read_array as read_array
    from .rating import Rating as Rating
    from .rating import rate as rate
    from .rating import rate_all as rate_all
    from .solver import Interrupted as Interrupted
    from .solver import OutOfNodes as OutOfNodes
    from .solver import Result as Result
    from .solver import Solved as Solved
    from .solver import count as count
    from .solver import count_one as count_one
    from .solver import is_unique as is_unique
    from .solver import solve as solve
    from .solver import solve_all as solve_all
    from .solver import solve_array as solve_array
    from .solver import solve_many as solve_many
    from .techniques import hint as hint
    from .transform import shuffle as shuffle
    from .variants import Variant as Variant
    from .variants import jigsaw as jigsaw
    from .variants import killer as killer

#: The public names and their modules, loaded on first use (as dlx's are).
_WHERE = {"__version__": "dlx._version", "PuzzleError": "grid", "parse": "grid", "picture": "grid", "pretty": "grid",
          "Result": "solver", "count": "solver", "is_unique": "solver", "solve": "solver",
          "solve_all": "solver", "solve_array": "solver", "Solved": "solver",
          "solve_many": "solver", "read_array": "grid", "generate": "generator",
          "shuffle": "transform", "Rating": "rating", "rate": "rating", "rate_all": "rating",
          "explain": "explainer", "read_puzzles": "files", "Variant": "variants",
          "jigsaw": "variants", "killer": "variants", "OutOfNodes": "solver", "Shape": "grid",
          "Interrupted": "solver", "count_one": "solver", "hint": "techniques"}

__all__ = sorted(_WHERE, key=str.lower)
__getattr__, __dir__ = loader(__name__, _WHERE, ("cli", "encode", "explainer", "files", "generator", "grid", "output",
                                             "pipeline", "rating", "solver", "techniques", "transform", "variants"))
