"""Reading and validating the CSV files benchmarks are built from.

A file is checked whole before any row is used: its encoding, its header, that required cells are filled and
no longer than their column allows, that text columns show no damage of their script (`script_damage`: one rule
for every Persian or Turkish column), and that no expression appears twice. Each problem is one `DataError` line
naming the file, the row (data rows counted from 1, as in sample ids) and the column, and what to do about it.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from figeval.errors import DataError
from figeval.spreadsheet import from_cell
from figeval.text import expression_key, has_arabic_script


class Script(str, Enum):
    """The script a text column is written in, which decides what a damaged re-encoding looks like in it."""

    PERSIAN = "Persian"
    LATIN = "Latin"
    """Turkish and English."""


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
    max_chars: int | None = None
    """The longest cell the column holds (None: no limit); a longer one means a damaged row or another file."""

    @property
    def script(self) -> Script | None:
        return Script.PERSIAN if self.persian else Script.LATIN if self.latin else None


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


# A Persian letter a code page lacks turned into '?' inside a word: Windows-1256, the Arabic code page, has no
# Persian YEH (ی), so a round trip through it writes 'رس?دن' for 'رسیدن' while the other letters survive. ('_' is
# left out: some published Persian texts join words with it.)
_PERSIAN_LETTER = "[\u0621-\u063a\u0641-\u064a\u0671-\u06d3\u06fa-\u06ff]"
_REPLACED_PERSIAN_LETTER = re.compile(f"{_PERSIAN_LETTER}\\?+{_PERSIAN_LETTER}")
NO_PERSIAN_LETTERS = "no Persian letters"


def damaged_latin(text: str) -> bool:
    """Whether Latin-script text shows a damaged re-encoding (mojibake or letters replaced by '?')."""
    return bool(_MOJIBAKE.search(text) or _REPLACED_LETTER.search(text))


def script_damage(text: str, script: Script) -> str | None:
    """What a damaged re-encoding left in a cell of text in `script`, or None for an intact one: the one rule
    every Persian or Turkish text column is checked by (a file's reader and an import alike).

    Persian: no Arabic-script letter at all (every letter became '?' or '_'), or a Persian letter replaced by
    '?' between two others. Latin: mojibake ('sÃ¼rmek') or a letter replaced by '?' or '_' ('s?rmek')."""
    if script is Script.PERSIAN:
        if not has_arabic_script(text):
            return NO_PERSIAN_LETTERS
        return "Persian letters replaced by '?'" if _REPLACED_PERSIAN_LETTER.search(text) else None
    return "letters damaged by a wrong re-encoding" if damaged_latin(text) else None


def delimiter_of(text: str) -> str:
    """The delimiter of a table: a tab if its header line has more tabs than commas, else a comma."""
    header = text.split("\n", 1)[0]
    return "\t" if header.count("\t") > header.count(",") else ","


def read_table(
    path: Path, columns: Sequence[Column], unique: str | None = None, key: Callable[[str], str] = expression_key,
    filled_by_person: bool = False,
) -> list[Row]:
    """Read a comma- or tab-separated file and validate it against the expected columns. The delimiter is the
    header line's (datasets ship tab-separated files named .csv too), whatever the file's suffix.

    Args:
        path: The file (UTF-8, with or without a byte-order mark).
        columns: The columns the file must have; other columns are ignored.
        unique: A column whose values must not repeat once normalized by `key`.
        key: The normalization for `unique` (default: Persian expressions; Turkish needs Turkish casing).
        filled_by_person: The file is one a person wrote or filled (a sheet, a list of their own), not a published
            one: a cell longer than its column's `max_chars` is corrected there, not replaced by an intact copy.

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

    _check_lengths(name, rows, columns, filled_by_person)
    _check_scripts(name, rows, columns)

    if unique is not None:
        seen: dict[str, list[int]] = defaultdict(list)
        for row in rows:
            seen[key(row.cells[unique])].append(row.number)
        duplicates = [numbers for numbers in seen.values() if len(numbers) > 1]
        if duplicates:
            described = "; ".join(f"rows {_rows_phrase(numbers)}" for numbers in duplicates[:3])
            raise DataError(
                f"{name}: {len(duplicates)} expression(s) in column '{unique}' appear more than once ({described}); "
                "remove the duplicates so that no item is counted twice."
            )
    return rows


def _check_lengths(name: str, rows: Sequence[Row], columns: Sequence[Column], filled_by_person: bool) -> None:
    """No cell longer than its column's `max_chars`; the first too long is named with its row, and the fix: a
    person's file is corrected, a published one replaced by an intact copy."""
    fix = ("a quote left open or text pasted into the wrong cell; correct the cell" if filled_by_person else
           "the row is damaged or this is not the dataset's file; use an intact copy of the published file")
    for column in columns:
        limit = column.max_chars
        if limit is None:
            continue
        long = [row for row in rows if len(row.cells[column.name]) > limit]
        if long:
            first = long[0]
            raise DataError(
                f"{name}: row {first.number}, column '{column.name}' holds "
                f"{len(first.cells[column.name]):,} characters "
                f"({_preview(first.cells[column.name])}), more than the {limit:,} its cells can hold: {fix}."
            )


def _check_scripts(name: str, rows: Sequence[Row], columns: Sequence[Column]) -> None:
    """Every cell of a text column passes `script_damage`; the first damaged column (Persian ones first: a
    Persian file's damage is what its user needs to hear of) is named with its rows."""
    texts = sorted(((c, c.script) for c in columns if c.script is not None), key=lambda cs: cs[1] is not Script.PERSIAN)
    for column, script in texts:
        filled = [row for row in rows if row.cells[column.name]]
        damage = {row.number: script_damage(row.cells[column.name], script) for row in filled}
        damaged = [row for row in filled if damage[row.number]]
        if not damaged:
            continue
        kind = NO_PERSIAN_LETTERS if NO_PERSIAN_LETTERS in damage.values() else damage[damaged[0].number]
        same = [row.number for row in damaged if damage[row.number] == kind]
        first = next(row for row in damaged if damage[row.number] == kind)
        example = f"row {first.number}: {_preview(first.cells[column.name])}"
        if kind == NO_PERSIAN_LETTERS and len(same) * 2 > len(filled):
            raise DataError(
                f"{name}: column '{column.name}' has no Persian letters in {len(same)} of {len(filled)} rows "
                f"({example}); the file was damaged by a re-encoding that replaced Persian letters. Use an intact "
                "UTF-8 copy."
            )
        if kind == NO_PERSIAN_LETTERS:
            raise DataError(f"{name}: column '{column.name}' has no Persian letters in row(s) {_rows_phrase(same)} "
                            f"({example}); correct or remove those rows.")
        raise DataError(
            f"{name}: column '{column.name}' has {kind} in row(s) {_rows_phrase(same)} ({example}); the file went "
            "through a wrong re-encoding: use an intact UTF-8 copy of the file."
        )


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
