"""Reading and validating the CSV files benchmarks are built from.

A file is checked whole before any row is used: its encoding, its header, that required cells are filled,
that columns meant to hold Persian actually hold Persian script, and that no expression appears twice. Each
problem is one `DataError` line naming the file, the row (data rows counted from 1, as in sample ids) and
the column, and what to do about it.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from figeval.errors import DataError
from figeval.text import expression_key, has_arabic_script


@dataclass(frozen=True)
class Column:
    name: str
    required: bool = True
    """Every cell must be filled."""
    persian: bool = False
    """Cells must contain Arabic-script letters (a damaged re-encoding turns them into '_' or '?')."""
    optional: bool = False
    """The column may be absent from the file (its cells then read as empty)."""


@dataclass(frozen=True)
class Row:
    number: int
    """1-based data row number (the header is not counted)."""
    cells: dict[str, str]


# What a reviewer may type in a yes/no column of a sheet ("verified", "keep", "persian_specific").
AFFIRMATIVE_CELLS = frozenset({"yes", "y", "true", "1", "ok", "keep", "بله"})
NEGATIVE_CELLS = frozenset({"no", "n", "false", "0", "خیر"})


def affirmative(cell: str) -> bool:
    """Whether a reviewer's cell says yes."""
    return cell.strip().lower() in AFFIRMATIVE_CELLS


def negative(cell: str) -> bool:
    """Whether a reviewer's cell says no."""
    return cell.strip().lower() in NEGATIVE_CELLS


def _preview(text: str, limit: int = 30) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _rows_phrase(numbers: Sequence[int], limit: int = 5) -> str:
    shown = ", ".join(str(n) for n in numbers[:limit])
    return shown + (f" and {len(numbers) - limit} more" if len(numbers) > limit else "")


def delimiter_of(text: str) -> str:
    """The delimiter of a table: a tab if its header line has more tabs than commas, else a comma."""
    header = text.split("\n", 1)[0]
    return "\t" if header.count("\t") > header.count(",") else ","


def read_table(
    path: Path, columns: Sequence[Column], unique: str | None = None, key: Callable[[str], str] = expression_key
) -> list[Row]:
    """Read a comma- or tab-separated file and validate it against the expected columns. The delimiter is the
    header line's (PN-Summary ships tab-separated files named .csv), whatever the file's suffix.

    Args:
        path: The file (UTF-8, with or without a byte-order mark).
        columns: The columns the file must have; other columns are ignored.
        unique: A column whose values must not repeat once normalized by `key`.
        key: The normalization for `unique` (default: Persian expressions; Turkish needs Turkish casing).

    Raises:
        DataError: one line naming the file, row and column of the first problem found.
    """
    name = path.name
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise DataError(
            f"{name}: not UTF-8 (invalid byte at offset {error.start}); re-save the file as UTF-8 CSV."
        ) from None
    except OSError as error:
        raise DataError(f"{path}: cannot be read ({error.strerror}).") from None

    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter_of(text))
    header = [cell.strip() for cell in next(reader, [])]
    expected = [c.name for c in columns]
    missing = [c.name for c in columns if c.name not in header and not c.optional]
    if missing:
        raise DataError(
            f"{name}: expected columns {expected}, found {header}; missing {missing}. "
            "Check that this is the right file and that its first line is the header."
        )
    index = {column: header.index(column) for column in expected if column in header}

    rows: list[Row] = []
    for number, fields in enumerate(reader, start=1):
        if not any(field.strip() for field in fields):
            continue  # blank line (e.g. a trailing newline): not a data row
        if len(fields) > len(header):
            raise DataError(
                f"{name}: row {number} has {len(fields)} fields but the header has {len(header)}; "
                "a value containing a comma must be quoted."
            )
        cells = {column: (fields[index[column]].strip() if column in index and index[column] < len(fields) else "")
                 for column in expected}
        for column in columns:
            if column.required and not cells[column.name]:
                raise DataError(f"{name}: row {number}, column '{column.name}' is empty; fill it or remove the row.")
        rows.append(Row(number, cells))
    if not rows:
        raise DataError(f"{name}: has a header but no data rows.")

    for column in (c for c in columns if c.persian):
        filled = [row for row in rows if row.cells[column.name]]
        scriptless = [row for row in filled if not has_arabic_script(row.cells[column.name])]
        if not scriptless:
            continue
        first = scriptless[0]
        if len(scriptless) * 2 > len(filled):
            raise DataError(
                f"{name}: column '{column.name}' has no Persian letters in {len(scriptless)} of {len(filled)} rows "
                f"(row {first.number}: {_preview(first.cells[column.name])}); the file was damaged by a re-encoding "
                "that replaced Persian letters. Use an intact UTF-8 copy."
            )
        raise DataError(
            f"{name}: column '{column.name}' has no Persian letters in row(s) "
            f"{_rows_phrase([r.number for r in scriptless])} (row {first.number}: "
            f"{_preview(first.cells[column.name])}); correct or remove those rows."
        )

    if unique is not None:
        seen: dict[str, list[int]] = defaultdict(list)
        for row in rows:
            seen[key(row.cells[unique])].append(row.number)
        repeated = [numbers for numbers in seen.values() if len(numbers) > 1]
        if repeated:
            described = "; ".join(f"rows {_rows_phrase(numbers)}" for numbers in repeated[:3])
            raise DataError(
                f"{name}: {len(repeated)} expression(s) in column '{unique}' appear more than once ({described}); "
                "remove the duplicates so that no item is counted twice."
            )
    return rows
