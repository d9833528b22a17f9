"""Reading and validating the CSV files benchmarks are built from.

A file is checked whole before any row is used: its encoding, its header, that required cells are filled,
that columns meant to hold Persian actually hold Persian script, and that no expression appears twice. Each
problem is one `DataError` line naming the file, the row (data rows counted from 1, as in sample ids) and
the column, and what to do about it.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from figeval.errors import DataError
from figeval.spreadsheet import from_cell
from figeval.text import expression_key, has_arabic_script


@dataclass(frozen=True)
class Column:
    name: str
    required: bool = True
    """Every cell must be filled."""
    persian: bool = False
    """Cells must contain Arabic-script letters (a damaged re-encoding turns them into '_' or '?')."""
    latin: bool = False
    """Cells are Latin-script text (Turkish, English): no mojibake of a wrong re-encoding ('sÃ¼rmek',
    's√ºrmek') and no letters replaced by '?' ('s?rmek')."""
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


# A UTF-8 letter read as Latin-1/cp1252 or Mac Roman and saved again turns into these lead characters followed
# by another non-ASCII one ('ü' -> 'Ã¼' or '√º', 'ş' -> 'ÅŸ' or '≈ü'); no Turkish or English word has them.
_MOJIBAKE = re.compile("[ÃÄÅÆÐÑÞ√≈ƒ∆][\u0080-\uffff]")
# A letter replaced by '?' or '_' by a legacy code page: the mark inside a word.
_REPLACED_LETTER = re.compile(r"[^\W\d_][?_]+[^\W\d_]")


def damaged_latin(text: str) -> bool:
    """Whether Latin-script text shows a damaged re-encoding (mojibake or letters replaced by '?')."""
    return bool(_MOJIBAKE.search(text) or _REPLACED_LETTER.search(text))


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
    repeated = [column for column in expected if header.count(column) > 1]
    if repeated:
        positions = [i + 1 for i, cell in enumerate(header) if cell == repeated[0]]
        raise DataError(
            f"{name}: column '{repeated[0]}' appears {len(positions)} times in the header (columns "
            f"{_rows_phrase(positions)}); keep one, so that it is clear which values to read."
        )
    index = {column: header.index(column) for column in expected if column in header}

    rows: list[Row] = []
    last: tuple[int, list[str]] = (0, [])
    for number, fields in enumerate(reader, start=1):
        last = (number, fields)
        if not any(field.strip() for field in fields):
            continue  # blank line (e.g. a trailing newline): not a data row
        if len(fields) > len(header):
            raise DataError(
                f"{name}: row {number} has {len(fields)} fields but the header has {len(header)}; "
                "a value containing a comma must be quoted."
            )
        # a cell figeval wrote with a text mark before a formula-like start reads back as it was (`spreadsheet`)
        cells = {column: (from_cell(fields[index[column]].strip()) if column in index and index[column] < len(fields)
                          else "") for column in expected}
        for column in columns:
            if column.required and not cells[column.name]:
                raise DataError(f"{name}: row {number}, column '{column.name}' is empty; fill it or remove the row.")
        rows.append(Row(number, cells))
    if any("\n" in field for field in last[1]) and _ends_inside_quotes(text, delimiter_of(text)):
        raise DataError(
            f"{name}: row {last[0]} opens a quote (\") that is never closed, so every line after it was read into "
            "one cell; close the quote or remove it."
        )
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

    for column in (c for c in columns if c.latin):
        damaged = [row for row in rows if damaged_latin(row.cells[column.name])]
        if damaged:
            first = damaged[0]
            raise DataError(
                f"{name}: column '{column.name}' has letters damaged by a wrong re-encoding in row(s) "
                f"{_rows_phrase([r.number for r in damaged])} (row {first.number}: {_preview(first.cells[column.name])}); "
                "use an intact UTF-8 copy of the file."
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


def _ends_inside_quotes(text: str, delimiter: str) -> bool:
    """Whether the file ends inside a quoted field (the lenient reader returns the rest of the file as one cell;
    the strict one names the problem)."""
    try:
        for _ in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True):
            pass
    except csv.Error as error:
        return "unexpected end of data" in str(error)
    return False


def refuse_same_content(paths: Sequence[Path]) -> None:
    """Raises DataError when two of the people's sheets hold the same bytes: one person's sheet given twice (or
    copied under two names) would count as two people agreeing perfectly.

    Raises:
        DataError: naming both files.
    """
    seen: dict[bytes, Path] = {}
    for path in paths:
        try:
            content = path.read_bytes()
        except OSError:
            continue  # the reader that follows names the file and what is wrong with it
        if content in seen:
            raise DataError(f"{seen[content]} and {path} have the same content: one annotator's sheet given twice "
                            "would count as two people agreeing; give each annotator's own sheet (two people's "
                            "identical work: add a column naming the annotator to each).")
        seen[content] = path
