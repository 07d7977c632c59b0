"""Every output format of the ``sudoku`` command, for every subcommand: one writer.

Each input entry (a puzzle, or a line kept as it came) gets one `Answer` from the command,
and `Writer` turns it into text in the format asked for:

- ``line``: the answer's line, a kept line as it came, a failed puzzle echoed with ``# `` in front;
- ``pretty``: the answer's grid where it has one (then a blank line), else as ``line``;
- ``svg`` (solve): a picture of each solved puzzle, one ``<svg>`` element per line, else as ``line``;
- ``csv``: a header, then one row per entry: for CSV input the input's fields plus the answer's
  columns and the status, else ``line``, ``puzzle``, the answer's columns and ``status``;
- ``jsonl``: one JSON object per entry (a CSV input's header is no record; each record carries the
  row's fields by name).

Problems go to standard error as ``sudoku: [SOURCE: ]line N: reason``.
"""
from __future__ import annotations

import csv
import io
import json
import sys
from typing import NamedTuple

from .files import Entry

FORMATS = ("line", "pretty", "csv", "jsonl")


class Answer(NamedTuple):
    """What a command made of one entry. ``status`` is empty for a line kept as it came;
    ``values`` the answer's columns by name; ``line`` the text of the line format (None: the
    entry failed, and is echoed); ``grid`` the pretty format's text where there is one;
    ``error`` why it failed (reported on stderr by the command); ``nodes`` the search's nodes."""

    status: str
    values: dict
    line: str | None
    grid: str | None = None
    error: str | None = None
    nodes: int | None = None


KEPT = Answer("", {}, "")


class Writer:
    """Answers as text in format ``fmt`` (None: csv for CSV input, else line). ``columns``: the
    names of the answer's values, in order; ``label``: the source's name in messages and records
    when there are several."""

    def __init__(self, fmt: str | None, columns: list[str], label: str | None = None) -> None:
        self.fmt, self.columns, self.label = fmt, columns, label
        self.header_done = False
        self.names: list[str] | None = None       # a CSV input's header

    def __call__(self, entry: Entry, answer: Answer) -> str:
        fmt = self.fmt or ("csv" if entry.fields is not None else "line")
        if fmt == "jsonl":
            return self.jsonl(entry, answer)
        if fmt == "csv":
            return self.csv(entry, answer)
        if not answer.status:
            return entry.text + "\n"
        if answer.line is None:
            return echo(entry)
        if fmt == "pretty" and answer.grid is not None:
            return answer.grid + "\n\n"
        if fmt == "svg" and answer.grid is not None:
            return answer.grid + "\n"
        return answer.line + "\n"

    def csv(self, entry: Entry, answer: Answer) -> str:
        values = [answer.values.get(name, "") for name in self.columns]
        if entry.fields is None:               # lines, not CSV: one row each, a header first
            header = ""
            if not self.header_done:
                header = csv_row(["line", "puzzle", *self.columns, "status"])
                self.header_done = True
            text = entry.puzzle if entry.puzzle is not None else entry.text
            return header + csv_row([entry.line, text, *values, answer.status])
        if _is_header(entry, answer):
            names = list(entry.fields)
            return csv_row(names + [_free(name, names) for name in [*self.columns, "status"]])
        return csv_row(list(entry.fields) + values + [answer.status])

    def jsonl(self, entry: Entry, answer: Answer) -> str:
        if entry.fields is not None and _is_header(entry, answer):
            self.names = list(entry.fields)
            return ""
        record: dict = {"line": entry.line}
        if self.label:
            record["source"] = self.label
        if not answer.status:
            record["text"] = entry.text
        else:
            record["puzzle"] = entry.puzzle if entry.puzzle is not None else entry.text
            record["status"] = answer.status
            record.update(answer.values)
            if answer.nodes is not None:
                record["nodes"] = answer.nodes
            if answer.error is not None:
                record["error"] = answer.error
        if entry.fields is not None and self.names is not None:
            record["fields"] = dict(zip(self.names, entry.fields))
        return json.dumps(record) + "\n"

    def warn(self, entry: Entry | None, reason: str) -> None:
        """``sudoku: [SOURCE: ]line N: reason``, or ``sudoku: argument K: reason``."""
        where = f"{self.label}: " if self.label else ""
        if entry is not None and not where.startswith("argument"):
            where += f"line {entry.line}: "
        print(f"sudoku: {where}{reason}", file=sys.stderr)


def _is_header(entry: Entry, answer: Answer) -> bool:
    return entry.line == 1 and entry.puzzle is None and entry.error is None and not answer.status


def echo(entry: Entry) -> str:
    """A failed entry's input, each line marked so it can't pass for an answer."""
    return "".join(f"# {line}\n" for line in entry.text.split("\n"))


def csv_row(fields: list) -> str:
    """One CSV row ending in LF. A field holding a CR is quoted too: the csv module quotes only the
    characters of its line terminator (before Python 3.12), so the row is written with CRLF."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(fields)
    return out.getvalue()[:-2] + "\n"


def _free(name: str, taken: list[str]) -> str:
    """``name``, or ``name_found`` when the input already has a column of that name."""
    return name if name not in taken else f"{name}_found"
