"""The puzzle sets the sudoku benchmarks run on, and xcover solving one sudoku (see rivals.py).

Sets come from ``../shared/data`` (beside the project); when that is absent, the shipped sample
``examples/top20.txt`` stands in, so every benchmark still runs.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
#: Arto Inkala's "world's hardest sudoku" (2012): the single-puzzle benchmark.
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
SETS = ["17clue", "top1465", "forum_hardest_1905_11plus", "forum_hardest_1106", "kaggle_10k"]


def load(name: str, limit: int | None = None) -> tuple[list[str], list[str] | None]:
    """Puzzles of a set and their solutions (counts for serg_benchmark), at most ``limit``."""
    path = SHARED / f"{name}.txt"
    if not path.is_file():
        path = ROOT / "examples" / "top20.txt"
    answers = path.with_name(path.stem + (".counts.txt" if "serg" in name else ".solutions.txt"))
    puzzles = path.read_text().split()[:limit]
    return puzzles, answers.read_text().split()[:limit] if answers.is_file() else None


def available() -> list[str]:
    """The sets present in ../shared/data, or the sample's name when none is."""
    found = [name for name in SETS if (SHARED / f"{name}.txt").is_file()]
    return found or ["top20 (sample)"]


def solve_set(puzzles: list[str], limit: int, jobs: int = 1) -> list[str | None]:
    """The first solution of each puzzle (``limit`` 2 also proves it unique), in order."""
    import sudoku
    return [r.solution for r in sudoku.solve_all(puzzles, limit=limit, jobs=jobs)]


def xcover_solver():
    """A function puzzle -> (first solution, count up to ``limit``) with xcover, as rivals.py runs it.
    Raises ImportError when xcover is not installed."""
    import xcover  # noqa: F401 -- fail here, not at the first puzzle
    from rivals import xcover_sudoku

    return lambda puzzle, limit=2: xcover_sudoku([puzzle], limit, float("inf"))[0]
