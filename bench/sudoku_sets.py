"""The puzzle sets the sudoku benchmarks run on, and xcover solving a sudoku as its users would.

Sets come from ``../shared/data`` (beside the project); when that is absent, the shipped sample
``examples/top20.txt`` stands in, so every benchmark still runs.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
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


def xcover_solver():
    """A function puzzle -> (first solution, count up to 2) with xcover, built the way its README
    builds sudoku: one option per possible (cell, digit), givens restricting their cell."""
    from xcover import covers

    items = list(range(324))

    def solve(puzzle: str, limit: int = 2):
        options, chosen = [], []
        for cell, ch in enumerate(puzzle):
            r, c = divmod(cell, 9)
            b = r // 3 * 3 + c // 3
            digits = range(9) if ch in ".0" else (int(ch) - 1,)
            for d in digits:
                options.append((cell, 81 + r * 9 + d, 162 + c * 9 + d, 243 + b * 9 + d))
                chosen.append((cell, d))
        found = []
        for solution in covers(options, primary=items):
            found.append(solution)
            if len(found) == limit:
                break
        if not found:
            return None, 0
        grid = ["0"] * 81
        for k in found[0]:
            cell, d = chosen[k]
            grid[cell] = str(d + 1)
        return "".join(grid), len(found)

    return solve
