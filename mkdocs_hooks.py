"""MkDocs hooks: the example grids of docs/techniques.md, drawn when the site is built.

Each ``<!-- picture: Technique -->`` becomes the pencil marks of the position where HoDoKu took
that technique in a real puzzle (tests/data/hodoku_steps.tsv), with the step's eliminations in
red and placements in green, so no generated picture is kept in git.
"""
from __future__ import annotations

import re
from pathlib import Path

STEPS = Path(__file__).parent / "tests" / "data" / "hodoku_steps.tsv"
MARK = re.compile(r"<!-- picture: (.+?) -->")


def _picture(technique: str) -> str:
    from sudoku import techniques
    from sudoku.techniques import human
    from sudoku.techniques.picture import picture
    for line in STEPS.read_text().splitlines():
        if line.startswith("#"):
            continue
        puzzle, number, name, _ = line.split("\t")
        if name == technique:
            board, solution = techniques.start(puzzle)
            for _ in range(int(number) - 1):
                human.apply(board, human.next_step(board, solution)[1])
            step = human.next_step(board, solution)[1]
            return f'<figure markdown="0">{picture(board, step)}<figcaption>{step.text}</figcaption></figure>'
    raise ValueError(f"no example of {technique!r} in {STEPS.name}")


def on_page_markdown(markdown: str, page, config, files) -> str:
    if page.file.src_path != "techniques.md":
        return markdown
    return MARK.sub(lambda m: _picture(m.group(1)), markdown)
