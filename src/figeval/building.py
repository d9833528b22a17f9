"""Resumable model-driven building steps, shared by every `figeval build` command.

Each answer is written the moment it arrives, so an interrupted build loses no finished call, and a re-run asks
only for what is missing (the calls also go through Inspect's response cache, so even lost output is not paid
for twice).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Hashable, Sequence
from pathlib import Path
from typing import TypeVar

from figeval.errors import DataError
from figeval.output import atomic_open, open_append
from figeval.progress import Progress
from figeval.spreadsheet import SheetWriter

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
Report = Callable[[str], None]


def fill_sheet(
    out: Path,
    header: Sequence[str],
    rows: dict[K, dict[str, str]],
    todo: Sequence[T],
    key_of: Callable[[T], K],
    work: Callable[[T], Awaitable[dict[str, str]]],
    order: Sequence[K],
    report: Report,
) -> None:
    """Add a row to the CSV sheet `out` for each item of `todo`, then rewrite the sheet in `order`.

    Args:
        out: the sheet; rows are appended as `work` returns them (a row asked again is appended again, and the
            later copy wins when the sheet is read back), then the whole sheet is rewritten atomically.
        header: its columns.
        rows: the rows already there, by key (kept as they are, with any cells a person filled); updated.
        todo: the items still to ask for.
        key_of: an item's key in `rows`.
        work: asks the model for one item's row.
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
            rows[key_of(item)] = cells
            writer.writerow([cells[name] for name in header])
            handle.flush()
            progress.advance()

        async def run_all() -> None:
            await asyncio.gather(*(one(item) for item in todo))

        asyncio.run(run_all())
    with atomic_open(out, "utf-8-sig", newline="") as handle:
        writer = SheetWriter(handle)
        writer.writerow(header)
        for key in order:
            if key in rows:
                writer.writerow([rows[key][name] for name in header])


def read_jsonl(path: Path) -> dict[str, dict]:
    """Records of a step file by their "key". A last line cut off mid-write (the build was killed while writing it)
    is dropped: its item is asked again, from the response cache.

    Raises:
        DataError: another line is not a record (the file was edited or damaged), naming the line.
    """
    records: dict[str, dict] = {}
    if not path.is_file():
        return records
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            records[record["key"]] = record
        except (json.JSONDecodeError, TypeError, KeyError):
            if number == len(lines) and not text.endswith("\n"):
                break  # the unfinished last write
            raise DataError(f"{path}: line {number} is not a record this step wrote; delete that line (its item is "
                            "asked again) or the file (the step starts over).") from None
    return records


def resumable_step(path: Path, keys: Sequence[str], work: Callable[[str], Awaitable[dict]], what: str,
                   report: Report) -> dict[str, dict]:
    """Run `work` for every key not yet in the JSONL file `path`, appending each record as it completes."""
    done = read_jsonl(path)
    if path.is_file():
        written = path.read_bytes()
        if written and not written.endswith(b"\n"):  # drop an unfinished last write before appending after it
            path.write_bytes(written[: written.rfind(b"\n") + 1])
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

        asyncio.run(run_all())
    return done
