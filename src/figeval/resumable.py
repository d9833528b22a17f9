"""Resumable build steps: each answer is written the moment it arrives, to a JSONL step file (`resumable_step`)
or a CSV sheet (`fill_sheet`), so an interrupted build loses no finished call, and a re-run asks only for what is
missing (the calls also go through Inspect's response cache, so even lost output is not paid for twice).

A build killed while writing leaves the last record of such a file cut off. One rule reads every file a build
appends to (`whole_length`): that cut record is dropped and its item asked again; a record damaged anywhere
else is an error naming the file and line, since only an edit or a damaged disk puts it there.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections.abc import Awaitable, Callable, Collection, Hashable, Iterable, Sequence
from pathlib import Path
from typing import TypeVar

from figeval.data.table import Column, Row, delimiter_of, read_table
from figeval.errors import DataError
from figeval.output import atomic_open, open_append
from figeval.progress import Progress, ticking
from figeval.spreadsheet import SheetWriter

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
Report = Callable[[str], None]
"""Where a build's progress lines go (`click.echo` on the command line)."""
BOM = b"\xef\xbb\xbf"


# --- The one rule for files a build appends to --------------------------------------------------------------

def _csv_records(text: str) -> list[tuple[int, list[str]]]:
    """(where it starts in `text`, its fields) for each record of a CSV text, a record spanning the lines its
    quoted cells hold."""
    ends = [0]  # where each line the reader took ends

    def lines() -> Iterable[str]:
        for line in io.StringIO(text, newline=""):
            ends.append(ends[-1] + len(line))
            yield line

    records, taken = [], 0
    for fields in csv.reader(lines(), delimiter=delimiter_of(text)):
        records.append((ends[taken], fields))
        taken = len(ends) - 1
    return records


def whole_length(data: bytes, sheet: bool) -> int:
    """How many bytes at the start of a file a build appends to hold whole records: all of them, unless the file
    ends in a record a kill cut off (the bytes before it).

    Every record a build appends ends with a line end, so a file that ends with one is whole. A step file's
    (JSONL) last line without one is the cut record. A sheet (CSV) is also a file people edit and save, maybe
    without a final line end: its last row is cut only when it is not whole, with fewer cells than the header
    or inside an open quote (rows end in a person's column, which the build writes empty, so a row cut by a kill
    always lacks a cell or a closing quote).
    """
    if not data or data.endswith(b"\n"):
        return len(data)
    if not sheet:
        return data.rfind(b"\n") + 1
    text = data.decode("utf-8", "surrogateescape")  # bytes back exactly, whatever a cut left of a letter
    records = _csv_records(text)
    start, fields = records[-1]
    if len(records) > 1 and len(fields) >= len(records[0][1]) and text[start:].count('"') % 2 == 0:
        return len(data)
    return len(text[:start].encode("utf-8", "surrogateescape"))


def resume_file(path: Path, sheet: bool = False) -> None:
    """Ready a file a build appends to for more: the record a kill cut off is removed (its item is asked again,
    from the response cache), and a missing final line end added, so the next record starts on its own line."""
    if not path.is_file():
        return
    data = path.read_bytes()
    keep = whole_length(data, sheet)
    if not data[:keep].removeprefix(BOM).strip():
        keep = 0  # nothing whole: the file starts over (a sheet with its header)
    if keep < len(data):
        with open_append(path) as handle:
            handle.truncate(keep)
    elif not data.endswith(b"\n"):
        with open_append(path) as handle:
            handle.write("\n")


def read_jsonl(path: Path, fields: Collection[str] = ()) -> dict[str, dict]:
    """Records of a step file by their "key". A last line cut off mid-write (the build was killed while writing it)
    is dropped: its item is asked again, from the response cache.

    Args:
        path: the step file (missing: no records).
        fields: what every record of this step holds besides its key.

    Raises:
        DataError: another line is not a record of this step (the file was edited or damaged), naming the line.
    """
    records: dict[str, dict] = {}
    if not path.is_file():
        return records
    data = path.read_bytes()
    for number, line in enumerate(data[:whole_length(data, sheet=False)].split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:  # not JSON, or not UTF-8
            record = None
        if not (isinstance(record, dict) and isinstance(record.get("key"), str) and all(f in record for f in fields)):
            raise DataError(f"{path}: line {number} is not a record this step wrote; delete that line (its item is "
                            "asked again) or the file (the step starts over).")
        records[record["key"]] = record
    return records


def resumed_rows(path: Path, columns: Sequence[Column]) -> list[Row]:
    """The rows of a sheet a build appends to, as a re-run resumes it (readied by `resume_file` for more rows):
    none for a missing or empty sheet or one holding only its header (a build stopped before its first answer).

    Raises:
        DataError: the file is not such a sheet (its columns are not these: it is left as it is), or a row is
            damaged (`read_table`'s message, naming the row).
    """
    if not path.is_file():
        return []
    text = path.read_bytes().removeprefix(BOM).decode("utf-8", "surrogateescape")
    records = _csv_records(text)
    header = [cell.strip() for cell in records[0][1]] if records else []
    cut_header = len(records) == 1 and not text.endswith("\n") and ",".join(c.name for c in columns).startswith(text)
    if records and not cut_header and any(column.name not in header for column in columns if not column.optional):
        return read_table(path, columns, filled_by_person=True)  # names the columns it expected
    resume_file(path, sheet=True)
    text = path.read_bytes().removeprefix(BOM).decode("utf-8", "surrogateescape")
    if not any(any(cell.strip() for cell in fields) for _, fields in _csv_records(text)[1:]):
        return []
    # a person reads and fills the sheet a build appends to: a damaged cell is theirs to correct
    return read_table(path, columns, filled_by_person=True)


# --- Work -----------------------------------------------------------------------------------------------------

def fill_sheet(
    out: Path,
    header: Sequence[str],
    rows: dict[K, dict[str, str]],
    todo: Sequence[T],
    key_of: Callable[[T], K],
    work: Callable[[T], Awaitable[dict[str, str] | None]],
    order: Sequence[K],
    report: Report,
) -> list[K]:
    """Add a row to the CSV sheet `out` for each item of `todo`, then rewrite the sheet in `order`; returns the keys
    of the items `work` had nothing for (in `todo`'s order), which get no row.

    Args:
        out: the sheet; rows are appended as `work` returns them (a row asked again is appended again, and the
            later copy wins when the sheet is read back), then the whole sheet is rewritten atomically.
        header: its columns.
        rows: the rows already there, by key, as `resumed_rows` read them (which readied the sheet for more rows);
            kept as they are, with any cells a person filled; updated.
        todo: the items still to ask for.
        key_of: an item's key in `rows`.
        work: asks the model for one item's row; None when the answer holds nothing to write (no row is kept
            that a person could review or mark as if it held something).
        order: the keys in the order of the final sheet.
        report: progress lines.
    """
    new_sheet = not out.is_file() or out.stat().st_size == 0
    with open_append(out, "utf-8-sig" if new_sheet else "utf-8", newline="") as handle:
        writer = SheetWriter(handle)
        if new_sheet:
            writer.writerow(header)

        progress = Progress(f"  {out.name}", len(todo), report)

        async def one(item: T) -> None:
            cells = await work(item)
            if cells is not None:
                rows[key_of(item)] = cells
                writer.writerow([cells[name] for name in header])
                handle.flush()
            progress.advance()

        async def run_all() -> None:
            await asyncio.gather(*(one(item) for item in todo))

        with ticking(progress):
            asyncio.run(run_all())
    with atomic_open(out, "utf-8-sig", newline="") as handle:
        writer = SheetWriter(handle)
        writer.writerow(header)
        for key in order:
            if key in rows:
                writer.writerow([rows[key][name] for name in header])
    return [key_of(item) for item in todo if key_of(item) not in rows]


def resumable_step(path: Path, keys: Sequence[str], work: Callable[[str], Awaitable[dict]], what: str,
                   report: Report, fields: Collection[str] = ()) -> dict[str, dict]:
    """Run `work` for every key not yet in the JSONL file `path`, appending each record as it completes.

    Args:
        fields: what every record `work` returns holds (`read_jsonl` checks the records already there).
    """
    done = read_jsonl(path, fields)
    resume_file(path)
    todo = [key for key in keys if key not in done]
    report(f"{what}: {len(todo)} to do, {len(keys) - len(todo)} already done")
    progress = Progress(f"  {what}", len(todo), report)
    with open_append(path) as handle:

        async def one(key: str) -> None:
            record = {"key": key, **await work(key)}
            done[key] = record
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            handle.flush()
            progress.advance()

        async def run_all() -> None:
            await asyncio.gather(*(one(key) for key in todo))

        with ticking(progress):
            asyncio.run(run_all())
    return done
