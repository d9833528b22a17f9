"""Sheets for annotators, written and read back.

Export writes one row per answer of one or more runs (CSV in UTF-8 with a byte-order mark, so that spreadsheets
read the Persian text as Unicode and lay it out right-to-left; or Label Studio's task JSON). The CSV sheet is
plain CSV, its header on the first line, so that spreadsheets, `csv` and pandas read it as it is; its
instructions are a text file beside it (`instructions_path`). Import reads a filled sheet, or a Label Studio
export of one or more people, and checks every label against the task's scheme.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from html import escape
from pathlib import Path

from inspect_ai.log import EvalLog

from figeval.annotation.answers import shown_answer, task_name
from figeval.annotation.spec import AnnotationSpec, SpecOf
from figeval.errors import DataError
from figeval.output import atomic_open, write_text
from figeval.scoring.labels import LabelScheme
from figeval.scoring.reducer import sample_outcomes
from figeval.spreadsheet import SheetWriter, from_row

SHEET_COLUMNS = ("task", "model", "sample_id", "input", "reference", "output", "label")
COMMENT = "#"
"""How the instruction lines began in sheets written above their header; `read_annotators` skips them, since
people may be labelling such a sheet."""


@dataclass(frozen=True)
class AnnotationItem:
    task: str
    model: str
    sample_id: str
    input: str
    reference: str
    output: str


def items_from_log(log: EvalLog, spec: AnnotationSpec) -> tuple[list[AnnotationItem], int]:
    """The answers of a run to give annotators, and how many were left out: the parsed answers (for checking a
    judge), the raw outputs the parser could not read (to label by hand), or all of them (`spec.answers`). An
    answer read from the output shows as read; an unreadable one as the model wrote it.

    Raises:
        DataError: a sample lacks the task's declared input key (the log is not of this task's version).
    """
    items, skipped = [], 0
    for sample, outcome in sample_outcomes(log):
        if spec.answers != "all" and outcome.is_unparsed != (spec.answers == "unparsed"):
            skipped += 1
            continue
        metadata = sample.metadata or {}
        if spec.input_key not in metadata:
            raise DataError(f"{log.location}: sample {sample.id} has no '{spec.input_key}' in its metadata; "
                            "re-run the task with this version of figeval.")
        items.append(
            AnnotationItem(
                task=task_name(log),
                model=log.eval.model,
                sample_id=str(sample.id),
                input=str(metadata[spec.input_key]),
                reference=" | ".join(metadata.get("references", [])),
                output=shown_answer(sample, outcome),
            )
        )
    return items, skipped


def instructions_path(sheet: Path) -> Path:
    """Where `write_sheet` writes the instructions of the sheet at `sheet`: beside it, `<name>.instructions.txt`.

    Plain text rather than Markdown: the instructions are plain lines, and a .txt file opens with a double click
    in any system's text editor."""
    return sheet.with_suffix(".instructions.txt")


def write_sheet(items: Sequence[AnnotationItem], path: Path, instructions: Sequence[str]) -> Path:
    """A CSV sheet, header first, one row per answer with the label left empty; and its instructions in a text
    file beside it (`instructions_path`), which it returns. Each file is written whole or not at all.

    The instructions are not lines above the header: spreadsheets and pandas take a sheet's first line for its
    header, and lines before it break their reading."""
    # The byte-order mark tells spreadsheet programs the file is UTF-8 (without it Excel shows mojibake); the
    # cells are the texts as they are, so a spreadsheet lays Persian out right-to-left from the text itself.
    with atomic_open(path, "utf-8-sig", newline="") as handle:
        writer = SheetWriter(handle)
        writer.writerow(SHEET_COLUMNS)
        for item in items:
            writer.writerow([item.task, item.model, item.sample_id, item.input, item.reference, item.output, ""])
    guide = instructions_path(path)
    # a byte-order mark here too, so that Notepad and browsers read any letter beyond ASCII as UTF-8
    write_text(guide, f"Instructions for {path.name}\n\n" + "".join(f"{line}\n" for line in instructions)
               + f"\nSave {path.name} as CSV UTF-8 (comma-delimited), its header row first, then give it to "
               "`figeval annotate import`.\n", encoding="utf-8-sig")
    return guide


def label_studio_config(path: Path) -> Path:
    """Where `write_label_studio` writes the labelling config of the tasks at `path`."""
    return path.with_suffix(".xml")


def write_label_studio(items: Sequence[AnnotationItem], path: Path, spec: AnnotationSpec) -> Path:
    """Label Studio task JSON, plus its labelling config beside it (`<name>.xml`: the instructions, the texts in
    their script's direction, the labels); returns the config path. Each file is written whole or not at all."""
    tasks = [{"data": {"task": i.task, "model": i.model, "sample_id": i.sample_id, "input": i.input,
                       "reference": i.reference, "output": i.output}} for i in items]
    write_text(path, json.dumps(tasks, ensure_ascii=False, indent=1))
    choices = "\n".join(f'    <Choice value="{escape(name)}"/>' for name in spec.scheme.values)
    instructions = "\n".join(f'  <Header value="{escape(line, quote=True)}" size="6"/>' for line in spec.instructions)
    style = f"direction: {spec.direction}"
    config = label_studio_config(path)
    write_text(config,
               "<View>\n"
               f"{instructions}\n"
               f'  <Text name="input" value="$input" style="{style}"/>\n'
               f'  <Text name="reference" value="$reference" style="{style}"/>\n'
               f'  <Text name="output" value="$output" style="{style}"/>\n'
               f'  <Choices name="label" toName="output" choice="single" required="true">\n{choices}\n  </Choices>\n'
               "</View>\n")
    return config


Labels = dict[tuple[str, str], Enum]
"""One annotator's labels by (generator model, sample id)."""


class SheetLabels(Labels):
    """One annotator's labels (a `Labels`), with the sheet they came from and the answer it showed for each
    (its `output` cells, as exported): `combine` checks that every annotator labelled the same answers."""

    def __init__(self, path: Path, answers: dict[tuple[str, str], str]) -> None:
        super().__init__()
        self.path = path
        self.answers = answers


def _task_of(path: Path, tasks: set[str], spec_of: SpecOf) -> tuple[str, AnnotationSpec]:
    if len(tasks) != 1:
        raise DataError(f"{path.name}: rows of {len(tasks)} tasks {sorted(tasks)}; give each task its own sheet.")
    task = tasks.pop()
    return task, spec_of(task)


def person_file_text(path: Path, what: str, made_by: str) -> str:
    """The text of a file a person labelled (a `what`, written by `made_by`), UTF-8 with or without a BOM.

    Raises:
        DataError: it is missing, a folder, unreadable or not UTF-8, each with its fix.
    """
    try:
        return path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise DataError(f"{path}: no such file; give the {what} {made_by} wrote.") from None
    except IsADirectoryError as error:
        raise DataError(f"{path}: a folder, not a {what} ({error.strerror}); give the {what} {made_by} "
                        "wrote.") from None
    except OSError as error:
        raise DataError(f"{path}: cannot be read ({error.strerror}); give a readable {what}.") from None
    except UnicodeDecodeError as error:
        raise DataError(f"{path}: not UTF-8 (byte {error.start:,}); save the {what} as CSV UTF-8.") from None


def read_annotators(path: Path, spec_of: SpecOf) -> tuple[str, dict[str, SheetLabels]]:
    """A sheet's task and labels per annotator: a CSV sheet is one annotator (named "" here: the caller names
    it); a Label Studio export has one per person who annotated (`completed_by`), every one of them kept."""
    if path.suffix.lower() == ".json":
        return _read_label_studio(path, spec_of)
    text = person_file_text(path, "sheet", "`figeval annotate export`")
    lines = text.splitlines(keepends=True)
    comments = 0
    # A sheet written with its instructions above the header (and the blank line a script may leave where they
    # were) is read as well; only lines before the header are skipped: a '#' inside a cell is data.
    while lines and (lines[0].startswith(COMMENT) or not lines[0].strip()):
        lines.pop(0)
        comments += 1
    rows = [from_row(row) for row in csv.DictReader(io.StringIO("".join(lines), newline=""))]
    # a spreadsheet's blank rows (every cell empty) are not answers; DictReader already skips empty lines
    rows = [row for row in rows if any((cell or "").strip() for cell in row.values() if isinstance(cell, str))]
    missing = [c for c in ("task", "model", "sample_id", "label") if rows and c not in rows[0]]
    if not rows or missing:
        raise DataError(f"{path.name}: no rows, or missing columns {missing}; export a fresh sheet.")
    # the row number a spreadsheet shows: the lines skipped above (if any), then the header, then the rows
    first_row = comments + 2
    for number, row in enumerate(rows, start=first_row):
        if None in row.values() or None in row:
            raise DataError(f"{path.name}: row {number} does not have one cell per column; was the sheet edited "
                            "outside a spreadsheet? Export a fresh one.")
    task, spec = _task_of(path, {row["task"] for row in rows}, spec_of)
    # a sheet without the output column (made by hand) gives no answers to check
    labels = SheetLabels(path, {(row["model"], row["sample_id"]): row["output"] for row in rows if "output" in row})
    for number, row in enumerate(rows, start=first_row):
        key = checked_key(path, number, (row["model"], row["sample_id"]), labels)
        labels[key] = parse_label(path, number, key, row["label"], spec.scheme)
    return task, {"": labels}


def checked_key(path: Path, number: int, key: tuple[str, str], seen: dict, unit: str = "row") -> tuple[str, str]:
    """`key` (generator model, sample id), refused when `seen` has it already: one row (or task) per sample, in a
    sheet as in a labels file."""
    if key in seen:
        raise DataError(f"{path.name}: {unit} {number} repeats sample '{key[1]}' of {key[0]}; keep one {unit} per "
                        "sample.")
    return key


def parse_label(path: Path, number: int, key: tuple[str, str], value: str, scheme: LabelScheme,
                where: str | None = None) -> Enum:
    """The label a cell gives (a code or a label's name, as `scheme.read` reads them), or a DataError naming the
    file, the row and the sample (`where`, when given, names them instead)."""
    where = where or f"{path.name}: row {number} (sample '{key[1]}' of {key[0]})"
    allowed = ", ".join(f"{code} ({label.value})" for code, label in scheme.codes.items())
    if not isinstance(value, str) or not value.strip():
        # the sheet's instructions are in a file beside it, which a labels file does not have: the codes are named
        raise DataError(f"{where} has no label; label every row with one of {allowed}.")
    # "-1" is no code ("1" with a sign would otherwise read as label 1)
    label = None if value.strip().startswith(("-", "+")) else scheme.read(value)
    if label is None:
        raise DataError(f"{where} has label {value!r}; use one of {allowed}.")
    return label


def _annotator_of(annotation: dict, position: int) -> str:
    """Who made a Label Studio annotation: the export's `completed_by` (an id, or a user with an email)."""
    person = annotation.get("completed_by")
    if isinstance(person, dict):
        person = person.get("email") or person.get("id")
    return str(person) if person not in (None, "") else f"annotator {position}"


def _read_label_studio(path: Path, spec_of: SpecOf) -> tuple[str, dict[str, SheetLabels]]:
    try:
        tasks = json.loads(path.read_text(encoding="utf-8-sig"))  # a byte-order mark is accepted
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DataError(f"{path}: not a Label Studio JSON export ({error}).") from None
    if not isinstance(tasks, list) or not all(isinstance(t, dict) for t in tasks):
        raise DataError(f"{path}: not a Label Studio JSON export (a list of tasks); export the project as JSON.")
    try:
        task, spec = _task_of(path, {t.get("data", {}).get("task", "") for t in tasks}, spec_of)
    except AttributeError:
        raise DataError(f"{path}: a task's 'data' is not an object; export the project as JSON again.") from None
    by_annotator: dict[str, SheetLabels] = {}
    for number, item in enumerate(tasks, start=1):
        try:
            data = item.get("data", {})
            key = (data.get("model", ""), data.get("sample_id", ""))
            for position, annotation in enumerate(item.get("annotations", []), start=1):
                if annotation.get("was_cancelled"):
                    continue  # skipped in Label Studio: the annotator gave no label, so there is none to count
                annotator = _annotator_of(annotation, position)
                where = (f"{path.name}: task {item.get('id', '?')} (number {number} in the export, sample "
                         f"'{key[1]}' of {key[0]}), annotation by {annotator}")
                choices = [choice for result in annotation.get("result", [])
                           for choice in result.get("value", {}).get("choices", [])]
                if not choices:
                    raise DataError(f"{where} has no choice; choose the label in Label Studio (or skip the task "
                                    "there, which figeval leaves out) and export the project again.")
                labels = by_annotator.setdefault(annotator, SheetLabels(path, {}))
                if "output" in data:
                    labels.answers[key] = str(data["output"])  # JSON text, never marked as a cell is
                labels[checked_key(path, number, key, labels, "task")] = parse_label(
                    path, number, key, choices[0], spec.scheme, where)
        except (AttributeError, TypeError):
            raise DataError(f"{path.name}: task {number} is not in Label Studio's export layout (data, annotations, "
                            "result, value, choices); export the project as JSON again.") from None
    if not by_annotator:
        raise DataError(f"{path.name}: no annotations in the export (skipped ones are left out); label the tasks in "
                        "Label Studio first.")
    return task, by_annotator
