"""CSV cells that a spreadsheet opens as text, never as a formula, and read back as they were.

Files figeval writes for people (annotation and review sheets, CSV reports) copy model output and data into
cells. A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return runs as a formula when the file is
opened in Excel, LibreOffice or Sheets (OWASP, "CSV Injection"): such a cell is written with a leading `'`, the
mark spreadsheets read as "this is text". Every sheet figeval reads back goes through `from_cell`, which removes
that one mark, so an answer that began with "=" is "=" again after a round trip through a spreadsheet.

A cell that is a number ("-3.2", "+1") is left as it is: a spreadsheet reads it as a number, not a formula.
A cell that already begins with apostrophes before a formula character gets one more, so that reading removes
exactly the one added.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import IO

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
TEXT_MARK = "'"


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _runs_as_formula(text: str) -> bool:
    return text.lstrip(TEXT_MARK).startswith(FORMULA_STARTS) and not _is_number(text)


def to_cell(value: object) -> object:
    """A value as written into a sheet: text that would run as a formula gets the text mark."""
    return TEXT_MARK + value if isinstance(value, str) and _runs_as_formula(value) else value


def from_cell(text: str) -> str:
    """A cell as read from a sheet: the text mark `to_cell` added is removed (the rest is as written)."""
    return text[1:] if text.startswith(TEXT_MARK) and _runs_as_formula(text) else text


def from_row(row: dict) -> dict:
    """A row read by `csv.DictReader` with `from_cell` applied to each text cell."""
    return {key: from_cell(value) if isinstance(value, str) else value for key, value in row.items()}


class SheetWriter:
    """`csv.writer` for files people open: every cell through `to_cell`, lines ending in a newline.

    A row with a carriage return in a cell is written with every cell quoted: with "\n" as the line end, the csv
    module quotes only cells holding a newline, and an unquoted carriage return splits the row on reading."""

    def __init__(self, handle: IO[str]) -> None:
        self._writer = csv.writer(handle, lineterminator="\n")
        self._quoted = csv.writer(handle, lineterminator="\n", quoting=csv.QUOTE_ALL)

    def writerow(self, row: Iterable[object]) -> None:
        cells = [to_cell(cell) for cell in row]
        writer = self._quoted if any(isinstance(cell, str) and "\r" in cell for cell in cells) else self._writer
        writer.writerow(cells)

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)
