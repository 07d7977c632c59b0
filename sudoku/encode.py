"""Sudoku as exact cover, for any box size ``n`` (an ``N x N`` grid, ``N = n*n``).

Items (all primary, ``4*N*N``), named as in Knuth's sudoku encoding: ``p<r><c>`` (cell r,c is
filled), ``r<r><d>`` (row r has digit d), ``c<c><d>`` (column c has d), ``b<b><d>`` (box b has d).
Options (``N**3``): digit ``d`` in cell (r, c) covers ``p<r><c> r<r><d> c<c><d> b<b><d>``, listed
cell by cell, digits in order, so option ``cell * N + d - 1`` puts ``d`` in ``cell``: the options of
one cell form a group, and a puzzle is a row of values, one per group, for :class:`dlx.Batch`.
"""
from __future__ import annotations

from functools import cache

import dlx

from .grid import SYMBOLS

_NAMES = "0123456789" + SYMBOLS[9:]     # positions 0..24 as single characters


@cache
def problem(n: int) -> dlx.ExactCover:
    """The exact-cover problem of the empty ``n*n x n*n`` grid (built once per process).

    >>> p = problem(3)
    >>> p
    ExactCover(324 items (324 primary, 0 secondary), 729 options)
    >>> p.option(9 * 10 + 4)            # cell 10 (row 1, column 1) holds 5
    ('p11', 'r15', 'c15', 'b05')
    """
    size = n * n
    pos, sym = _NAMES[:size], SYMBOLS[:size]
    options = [(f"p{pos[r]}{pos[c]}", f"r{pos[r]}{d}", f"c{pos[c]}{d}", f"b{pos[r // n * n + c // n]}{d}")
               for r in range(size) for c in range(size) for d in sym]
    # Knuth's item order (it breaks ties when the search chooses an item): cells, rows, columns, boxes
    primary = [f"{kind}{i}{j}" for kind, second in (("p", pos), ("r", sym), ("c", sym), ("b", sym))
               for i in pos for j in second]
    return dlx.ExactCover(options, primary=primary)


@cache
def batch(n: int) -> dlx.Batch:
    """The reusable solver for puzzles of box size ``n``: one group of ``N`` options per cell."""
    size = n * n
    return dlx.Batch(problem(n), [size] * (size * size))
