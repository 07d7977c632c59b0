"""``python -m dlx.engines [FILE]``: print the engines' table, or write it into FILE between the
lines ``<!-- engines -->`` and ``<!-- /engines -->`` (docs/architecture.md holds it so)."""
from __future__ import annotations

import sys
from pathlib import Path

from . import table

START, END = "<!-- engines -->", "<!-- /engines -->"


def rewrite(text: str) -> str:
    """``text`` with the block between the markers made the registry's table."""
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{table()}\n{END}{tail}"


if __name__ == "__main__":
    if len(sys.argv) > 1:
        path = Path(sys.argv[1])
        path.write_text(rewrite(path.read_text(encoding="utf-8")), encoding="utf-8")
    else:
        print(table())
