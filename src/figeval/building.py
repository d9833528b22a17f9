"""Resumable model-driven building steps, shared by every `figeval build` command.

A build first checks every file it will write against every input it reads (`check_build_outputs`: nothing is
written over an input or through a link) and opens every model it will ask (`open_model`: a model Inspect cannot
open, or a replay file, which cannot answer a build, is one line naming the option), before it reads, asks or
writes anything else. A resumed build keeps the settings that decide its content (`refuse_other_settings`, against
the build's record): resumed with another model or list, one sheet would hold two builds' outputs. Each answer is then written
the moment it arrives, to a JSONL step file (`resumable_step`) or a CSV sheet (`fill_sheet`), so an interrupted
build loses no finished call, and a re-run asks only for what is missing (the calls also go through Inspect's
response cache, so even lost output is not paid for twice).

A build killed while writing leaves the last record of such a file cut off. One rule reads every file a build
appends to (`whole_length`): that cut record is dropped and its item asked again; a record damaged anywhere
else is an error naming the file and line, since only an edit or a damaged disk puts it there.
"""

from __future__ import annotations

import asyncio
import csv
import hashlib
import io
import json
import re
import shlex
from collections.abc import Awaitable, Callable, Collection, Hashable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from inspect_ai.model import Model, get_model

from figeval.answering import unknown_provider
from figeval.data.table import (
    AFFIRMATIVE_CELLS,
    NEGATIVE_CELLS,
    Column,
    Row,
    affirmative,
    delimiter_of,
    negative,
    read_table,
)
from figeval.errors import DataError, FigevalError
from figeval.output import (
    atomic_open,
    check_outputs,
    open_append,
    refuse_folder,
    refuse_link,
    refuse_missing_folder,
    refuse_non_folder,
)
from figeval.progress import Progress
from figeval.spreadsheet import SheetWriter

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
Report = Callable[[str], None]
BOM = b"\xef\xbb\xbf"


# --- Before anything: outputs and models --------------------------------------------------------------------

def sheet_record(sheet: Path) -> Path:
    """The build record of a build that writes one sheet, beside it (a folder build's is DIR/build_record.json)."""
    return sheet.with_name(f"{sheet.name}.build_record.json")


def check_build_outputs(out: Path, inputs: Iterable[Path | None], files: Sequence[str] = ()) -> None:
    """Refuses, before a build reads, asks or writes anything, an `--out` that would replace one of the build's
    inputs, write through a symbolic link, or fail only once the answers are paid for.

    Args:
        out: the sheet the build writes (and its record, `sheet_record`), or (with `files`) the folder it builds
            in (created if missing).
        inputs: every file or folder the build reads (None: an option not given); model files included
            (`model_files`).
        files: the names of every file a folder build writes in `out`.

    Raises:
        FigevalError: one line naming the output and what to do.
    """
    if files:
        refuse_non_folder(out)
        outputs = [out / name for name in files]
    else:
        refuse_link(out)
        refuse_folder(out)
        refuse_missing_folder(out)
        outputs = [out, sheet_record(out)]
    check_outputs(outputs, [path for path in inputs if path is not None])


def model_files(models: Iterable[str | Model]) -> list[Path]:
    """The files that models named `replay/<file.jsonl>` or `gguf/<file.gguf>` read: inputs of the build."""
    return [Path(name.split("/", 1)[1]) for name in models
            if isinstance(name, str) and name.startswith(("replay/", "gguf/"))]


def _plain(message: str) -> str:
    """Inspect's prerequisite message on one line, without its console markup ("[bold]KEY[/bold]")."""
    text = re.sub(r"\[/?[a-z ]+\]", "", message).removeprefix("ERROR: ")
    return ". ".join(line.strip().rstrip(".") for line in text.splitlines() if line.strip()) + "."


def open_model(model: str | Model, option: str, **model_args: Any) -> Model:
    """The model a build asks, opened before the build writes or asks anything.

    Args:
        model: provider/model, or a Model (returned as it is).
        option: the option that named it ("--model", "--generator", "--checker"...), for the message.
        model_args: the model's arguments (-M).

    Raises:
        FigevalError: an unknown provider, or one that cannot start (a missing API key or package).
    """
    if isinstance(model, Model):
        return model
    if model.startswith("replay/"):
        # A replay file's answers are keyed by the id of an evaluation sample; a build asks outside any sample.
        raise FigevalError(f"{option} {model}: a replay file answers evaluation samples by their ids and has no answer "
                           "for a build's prompts; a build needs a model that writes (e.g. gguf/gemma-3-270m, "
                           "openai/gpt-4.1).")
    from inspect_ai._util.error import PrerequisiteError

    try:
        return get_model(model, **model_args)
    except PrerequisiteError as error:
        raise FigevalError(f"{option} {model}: {_plain(str(error))}") from None
    except ValueError as error:
        # Inspect: "Model API x of model 'x/y' not recognized." / "... should be in the format of <api_name>/..."
        if "not recognized" not in str(error) and "format of" not in str(error):
            raise
        raise unknown_provider(model, f"{option} {model}") or FigevalError(f"{option} {model}: {error}") from None


# --- What a resumed build must keep -------------------------------------------------------------------------

def read_build_record(path: Path) -> dict[str, Any]:
    """A build's record ({} when there is none yet).

    Raises:
        FigevalError: the file is not a JSON object (edited or damaged), naming it and what to do.
    """
    if not path.is_file():
        return {}
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        record = None
    if not isinstance(record, dict):
        raise FigevalError(f"{path} is not a build record (a JSON object); remove it (the build writes it again) or "
                           "build into a new --out.")
    return record


def file_setting(name: str, entries: Sequence[object]) -> dict[str, Any]:
    """A file option as a build records it: its name, and the sha256 of what the build takes from it (`entries`,
    as JSON: the same entries saved again, or given by another name, compare equal), with the first 16 hex digits
    of each entry's (`grown_list` compares those)."""

    def digest(value: object) -> str:
        return hashlib.sha256(json.dumps(value, ensure_ascii=False).encode("utf-8")).hexdigest()

    return {"file": name, "sha256": digest(list(entries)), "entries": [digest(entry)[:16] for entry in entries]}


def grown_list(recorded: Any, given: Any) -> bool:
    """Whether a list option (`file_setting`) is the recorded one, or it with entries added at its end (a record
    without the entries: the same content)."""
    if not (isinstance(recorded, dict) and isinstance(recorded.get("entries"), list)):
        return _same_setting(recorded, given)
    return recorded["entries"] == given["entries"][:len(recorded["entries"])]


def text_sha256(text: str) -> str:
    """The first 16 hex digits of the sha256 of a text (a prompt a build records)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _same_setting(recorded: object, given: object) -> bool:
    if isinstance(recorded, dict) and isinstance(given, dict) and "sha256" in recorded:
        return recorded["sha256"] == given.get("sha256")  # a file: the same content under any name
    return recorded == given


def _as_option(option: str, value: object) -> str:
    """A recorded setting as the option that gives it ("--model openai/gpt-4.1", "--allusions a.csv (sha256 ..)")."""
    if value is None:
        return f"no {option}"
    if isinstance(value, dict) and "sha256" in value:
        return f"{option} {shlex.quote(str(value.get('file')))} (sha256 {str(value['sha256'])[:12]})"
    return f"{option} {shlex.quote(str(value)) if option.startswith('--') else value}"


def refuse_other_settings(built: Path, recorded: Mapping[str, Any], given: Mapping[str, Any],
                          options: Mapping[str, str],
                          same: Mapping[str, Callable[[Any, Any], bool]] | None = None) -> None:
    """Refuses to resume a build with settings that decide its content other than those it was built with.

    A record written before a setting was recorded lacks it: there is nothing to compare, and the build resumes.

    Args:
        built: the sheet or folder being resumed, for the message.
        recorded: its build record (`read_build_record`).
        given: this run's settings, by record field.
        options: the fields compared, each with the option that gives it ("--model"), or, for what no option
            changes, what it is ("the prompt").
        same: for a field resumed with more than an equal value (a list grown at its end), whether the recorded
            value and the given one go together; others must be equal (a file: the same content).

    Raises:
        FigevalError: naming the option, the recorded value, the given one and the fix.
    """
    for name, option in options.items():
        agree = (same or {}).get(name, _same_setting)
        if name in recorded and not agree(recorded[name], given[name]):
            fix = ("give the same to resume it, or build into a new --out" if option.startswith("--") else
                   "it changed with figeval: build into a new --out, or resume with the figeval that built it")
            raise FigevalError(f"{built} was built with {_as_option(option, recorded[name])}, not "
                               f"{_as_option(option, given[name])}; {fix}.")


# --- A person's answers in a sheet a build wrote ----------------------------------------------------------------

def review_answer(path: Path, row: Row, column: str, empty: str = "not reviewed yet") -> bool | None:
    """A reviewer's yes/no cell: True for yes, False for no, None for empty (`empty` says what that means).

    Raises:
        DataError: any other value (a mark such as "✓" is not read as yes or no), naming the file, row, column,
            value and the values to use.
    """
    cell = row.cells[column].strip()
    if not cell:
        return None
    if affirmative(cell) or negative(cell):
        return affirmative(cell)
    raise DataError(f"{path.name}: row {row.number}, column '{column}' is {cell!r}; use yes or no (also read as "
                    f"yes: {', '.join(sorted(AFFIRMATIVE_CELLS - {'yes'}))}; as no: "
                    f"{', '.join(sorted(NEGATIVE_CELLS - {'no'}))}), or leave it empty ({empty}).")


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
        return read_table(path, columns)  # names the columns it expected
    resume_file(path, sheet=True)
    text = path.read_bytes().removeprefix(BOM).decode("utf-8", "surrogateescape")
    if not any(any(cell.strip() for cell in fields) for _, fields in _csv_records(text)[1:]):
        return []
    return read_table(path, columns)


# --- Work -----------------------------------------------------------------------------------------------------

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
        rows: the rows already there, by key, as `resumed_rows` read them (which readied the sheet for more rows);
            kept as they are, with any cells a person filled; updated.
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

        asyncio.run(run_all())
    return done
