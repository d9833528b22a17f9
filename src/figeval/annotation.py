"""Human labels: sheets for annotators, reading them back, and resolving disagreements.

Export writes one row per judged answer of one or more runs (CSV in UTF-8 with a byte-order mark, so that
spreadsheets read the Persian text as Unicode and lay it out right-to-left; or Label Studio's task JSON). The CSV
sheet is plain CSV, its header on the first line, so that spreadsheets, `csv` and pandas read it as it is; its
instructions are a text file beside it (`instructions_path`).
Import reads one to three annotators' sheets, checks them, and resolves each answer (FFE-HALLU Section 3.5):
two agreeing annotators decide; otherwise the third annotator's label decides; with no third annotator the
answer stays unresolved and is listed.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from html import escape
from itertools import combinations
from pathlib import Path

from inspect_ai.log import EvalLog, EvalSample

from figeval.errors import DataError
from figeval.output import atomic_open, write_text
from figeval.scoring.judged import JUDGE_LABEL, JUDGE_MODEL
from figeval.scoring.labels import LabelScheme
from figeval.scoring.metrics import AS_WRONG, counted_label
from figeval.scoring.outcome import Outcome
from figeval.scoring.reducer import sample_outcomes
from figeval.stats import (
    AgreementRow,
    Interval,
    UndefinedStatistic,
    agreement_row,
    bootstrap_interval,
    confusion_matrix,
    fleiss_kappa,
)
from figeval.spreadsheet import SheetWriter, from_row

SHEET_COLUMNS = ("task", "model", "sample_id", "input", "reference", "output", "label")
COMMENT = "#"
"""How the instruction lines began in sheets written above their header; `read_annotators` skips them, since
people may be labelling such a sheet."""


@dataclass(frozen=True)
class AnnotationSpec:
    """What a task tells annotators, which answers it gives them, and how their labels are read."""

    scheme: LabelScheme
    instructions: tuple[str, ...]
    input_key: str
    """The sample metadata key whose text annotators see as the item's input (the meaning, the question)."""
    answers: str = "parsed"
    """Which answers annotators get: `parsed` (to check a judge), `unparsed` (what the parser could not read,
    to label by hand) or `all` (every output, as the paper's annotators labelled them)."""
    direction: str = "rtl"
    """The direction of the answers' script in annotation tools: `rtl` (Persian) or `ltr` (Turkish)."""


SpecOf = Callable[[str], AnnotationSpec]
"""The annotation spec of a task name (raises a FigevalError for a task without one)."""


@dataclass(frozen=True)
class AnnotationItem:
    task: str
    model: str
    sample_id: str
    input: str
    reference: str
    output: str


def task_name(log: EvalLog) -> str:
    return log.eval.task.split("/")[-1]  # "figeval/ffe_generation" -> "ffe_generation"


def shown_answer(sample: EvalSample, outcome: Outcome) -> str:
    """The answer annotators see for a sample: as read, or, when no reader read it, as the model wrote it."""
    return sample.output.completion if outcome.is_unparsed else (outcome.answer or "")


def normalized_answer(text: str) -> str:
    """An answer as compared between a sheet and a log: what a spreadsheet may change on saving is left out
    (Unicode composition, line endings, spaces around the text); everything else counts."""
    return unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n")).strip()


def answer_digest(text: str) -> str:
    """A short digest of an answer (the first 16 hex digits of the sha256 of its normalized text), written with
    each label so that a label is applied only to the answer people labelled, never to another run's."""
    return hashlib.sha256(normalized_answer(text).encode("utf-8")).hexdigest()[:16]


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


def judge_labels(log: EvalLog, scheme: LabelScheme, judge: str | None = None,
                 with_rules: bool = False) -> dict[tuple[str, str], Enum]:
    """Labels of a run's answers by (generator model, sample id).

    Args:
        log: a judged run.
        scheme: the task's labels.
        judge: only the answers this judge model labelled (None: any judge).
        with_rules: False: the label a judge model itself gave, before any rule overrode it, on every output it
            was asked about (with `judge_every_output`, also those a rule decided or that could not be read).
            True: the run's final label of every output as its metrics count it: rule shortcuts and overrides
            included, an unread output by the run's unparsed policy; the judge's failures left out.

    Raises:
        DataError: a label is not in the scheme (the log is of another task than the labels).
    """
    by_value = {label.value: label for label in scheme.labels}
    policy = counting_policy(log, scheme)
    found = {}
    for sample, outcome in sample_outcomes(log):
        if with_rules:
            label = counted_label(outcome, policy)[1]
        elif judge in (None, outcome.details.get(JUDGE_MODEL)):
            label = outcome.details.get(JUDGE_LABEL)
        else:
            continue
        if label is None:
            continue
        if label not in by_value:
            raise DataError(f"{log.location}: the label {label!r} is not one of {list(by_value)}; "
                            "give the labels of this log's task.")
        found[(log.eval.model, str(sample.id))] = by_value[label]
    return found


def counting_policy(log: EvalLog, scheme: LabelScheme) -> str:
    """How the run's rates count an unread output (its recorded unparsed policy; never in the model's favour)."""
    policies = (log.eval.metadata or {}).get("unparsed_policies", {})
    return next((policies[f"{label.value}_rate"] for label in scheme.labels if f"{label.value}_rate" in policies),
                AS_WRONG)


def judges_of(log: EvalLog) -> list[str]:
    """The judge models that labelled a run's answers."""
    return sorted({o.details[JUDGE_MODEL] for _, o in sample_outcomes(log) if JUDGE_MODEL in o.details})


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


class Resolution(str, Enum):
    SINGLE = "single"
    """One annotator: their label."""
    AGREED = "agreed"
    """The first two annotators agree."""
    THIRD = "third"
    """The first two disagree; the third annotator's label decides."""
    UNRESOLVED = "unresolved"
    """Two annotators disagree and there is no third."""


@dataclass(frozen=True)
class HumanLabel:
    task: str
    model: str
    sample_id: str
    label: Enum | None
    resolution: Resolution
    annotators: tuple[Enum | None, ...]
    """Each annotator's label, in sheet order; None where the third labelled only the disagreements."""
    answer_sha256: str | None = None
    """`answer_digest` of the answer the people labelled (None: not known, so not checked against a log)."""


def resolve(labels: Sequence[Enum | None]) -> tuple[Enum | None, Resolution]:
    """Two agreeing annotators decide; otherwise the third's label (with three, any agreeing pair includes the
    third when the first two differ); with two who disagree, nothing."""
    labels = [label for label in labels if label is not None]
    if len(labels) == 1:
        return labels[0], Resolution.SINGLE
    if labels[0] == labels[1]:
        return labels[0], Resolution.AGREED
    if len(labels) >= 3:
        return labels[2], Resolution.THIRD
    return None, Resolution.UNRESOLVED


Labels = dict[tuple[str, str], Enum]
"""One annotator's labels by (generator model, sample id)."""


class SheetLabels(dict):
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


def read_sheet(path: Path, spec_of: SpecOf) -> tuple[str, Labels]:
    """One annotator's task and labels, from a CSV sheet or a Label Studio JSON export of one annotator.

    Raises:
        DataError: unknown or empty label, duplicate row, missing columns (naming the file, the spreadsheet's row
            and the sample), or an export holding several annotators (`read_annotators` reads those).
    """
    task, by_annotator = read_annotators(path, spec_of)
    if len(by_annotator) != 1:
        raise DataError(f"{path.name}: holds the labels of {len(by_annotator)} annotators ({', '.join(by_annotator)}); "
                        "import it with `figeval annotate import`, which keeps each of them.")
    return task, next(iter(by_annotator.values()))


def read_annotators(path: Path, spec_of: SpecOf) -> tuple[str, dict[str, Labels]]:
    """A sheet's task and labels per annotator: a CSV sheet is one annotator (named "" here: the caller names
    it); a Label Studio export has one per person who annotated (`completed_by`), every one of them kept."""
    if path.suffix.lower() == ".json":
        return _read_label_studio(path, spec_of)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise DataError(f"{path}: cannot be read as UTF-8 ({error}).") from None
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
        key = _checked_key(path, number, (row["model"], row["sample_id"]), labels)
        labels[key] = _parse_label(path, number, key, row["label"], spec.scheme)
    return task, {"": labels}


def _checked_key(path: Path, number: int, key: tuple[str, str], seen: dict, unit: str = "row") -> tuple[str, str]:
    if key in seen:
        raise DataError(f"{path.name}: {unit} {number} repeats sample '{key[1]}' of {key[0]}; keep one {unit} per "
                        "sample.")
    return key


def _parse_label(path: Path, number: int, key: tuple[str, str], value: str, scheme: LabelScheme,
                 where: str | None = None) -> Enum:
    where = where or f"{path.name}: row {number} (sample '{key[1]}' of {key[0]})"
    if not isinstance(value, str) or not value.strip():
        raise DataError(f"{where} has no label; label every row (see the instructions on top).")
    # "-1" is no code ("1" with a sign would otherwise read as label 1)
    label = None if value.strip().startswith(("-", "+")) else scheme.read(value)
    if label is None:
        allowed = ", ".join(f"{code} ({label.value})" for code, label in scheme.codes.items())
        raise DataError(f"{where} has label {value!r}; use one of {allowed}.")
    return label


def _annotator_of(annotation: dict, position: int) -> str:
    """Who made a Label Studio annotation: the export's `completed_by` (an id, or a user with an email)."""
    person = annotation.get("completed_by")
    if isinstance(person, dict):
        person = person.get("email") or person.get("id")
    return str(person) if person not in (None, "") else f"annotator {position}"


def _read_label_studio(path: Path, spec_of: SpecOf) -> tuple[str, dict[str, Labels]]:
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
    by_annotator: dict[str, Labels] = {}
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
                labels[_checked_key(path, number, key, labels, "task")] = _parse_label(
                    path, number, key, choices[0], spec.scheme, where)
        except (AttributeError, TypeError):
            raise DataError(f"{path.name}: task {number} is not in Label Studio's export layout (data, annotations, "
                            "result, value, choices); export the project as JSON again.") from None
    if not by_annotator:
        raise DataError(f"{path.name}: no annotations in the export (skipped ones are left out); label the tasks in "
                        "Label Studio first.")
    return task, by_annotator


def combine(sheets: Sequence[tuple[str, str, Labels]]) -> list[HumanLabel]:
    """Resolve the labels of one to three annotators, given as (name, task, labels) in order: the third is
    the adjudicator, and may label only the answers the first two disagree on (the paper's protocol, Section
    3.5) or every answer.

    Raises:
        DataError: more than three sheets, sheets of different tasks, the first two sheets lack answers the other
            has, or the third lacks a disagreement (or has an answer the others do not).
    """
    if not 1 <= len(sheets) <= 3:
        raise DataError(f"give one to three annotators' sheets, not {len(sheets)}.")
    tasks = {task for _, task, _ in sheets}
    if len(tasks) != 1:
        raise DataError(f"the sheets are of different tasks {sorted(tasks)}; import each task's sheets separately.")
    task = tasks.pop()
    first_name, _, first = sheets[0]
    keys = set(first)
    for name, _, labels in sheets[1:2]:
        if set(labels) != keys:
            missing = sorted(keys - set(labels)) or sorted(set(labels) - keys)
            lacking = name if keys - set(labels) else first_name
            raise DataError(
                f"{lacking} has no row for {len(missing)} answer(s) the other sheets have "
                f"(first: sample '{missing[0][1]}' of {missing[0][0]}); every annotator labels the same rows."
            )
    if len(sheets) == 3:
        third_name, _, third = sheets[2]
        disagreements = {key for key in keys if first[key] != sheets[1][2][key]}
        lacking, extra = sorted(disagreements - set(third)), sorted(set(third) - keys)
        if lacking or extra:
            model, sample_id = (lacking or extra)[0]
            what = "has no row for" if lacking else "has a row the first two sheets do not have:"
            raise DataError(f"{third_name} {what} sample '{sample_id}' of {model} "
                            f"({len(lacking)} disagreement(s) unlabelled, {len(extra)} unknown row(s)); the third "
                            "annotator labels at least every answer the first two disagree on.")
    resolved = []
    for model, sample_id in sorted(keys):
        given = tuple(labels.get((model, sample_id)) for _, _, labels in sheets)
        label, resolution = resolve(given)
        digest = _labelled_answer(sheets, (model, sample_id))
        resolved.append(HumanLabel(task, model, sample_id, label, resolution, given, digest))
    return resolved


def _labelled_answer(sheets: Sequence[tuple[str, str, Labels]], key: tuple[str, str]) -> str | None:
    """The digest of the answer every sheet showed for `key` (None: no sheet showed one).

    Raises:
        DataError: two sheets showed different answers: their annotators labelled different answers.
    """
    shown = [(getattr(labels, "path", name), labels.answers[key]) for name, _, labels in sheets
             if key in getattr(labels, "answers", {})]
    for source, answer in shown[1:]:
        if answer_digest(answer) != answer_digest(shown[0][1]):
            raise DataError(f"{shown[0][0]} and {source} show different answers for sample '{key[1]}' of {key[0]}: "
                            "their annotators labelled different answers (sheets of different runs?); import the "
                            "sheets exported from one run.")
    return answer_digest(shown[0][1]) if shown else None


LABELS_COLUMNS = ["task", "model", "sample_id", "label", "resolution"]
ANSWER_COLUMN = "answer_sha256"
"""After LABELS_COLUMNS, before the annotators: `answer_digest` of the answer labelled (empty: not known)."""


def write_labels(labels: Sequence[HumanLabel], annotators: Sequence[str], path: Path) -> None:
    """The resolved labels with each annotator's own (for `figeval judge agreement --human`, or a task's
    `manual_labels`)."""
    with atomic_open(path, "utf-8-sig", newline="") as handle:
        writer = SheetWriter(handle)
        writer.writerow([*LABELS_COLUMNS, ANSWER_COLUMN, *annotators])
        for item in labels:
            writer.writerow([item.task, item.model, item.sample_id, item.label.value if item.label else "",
                             item.resolution.value, item.answer_sha256 or "",
                             *(a.value if a else "" for a in item.annotators)])


def read_labels(path: Path, spec_of: SpecOf) -> tuple[list[HumanLabel], list[str]]:
    """A labels file written by `write_labels`, and its annotators' names.

    Each label keeps the digest of the answer it labels (`answer_sha256`), which `labelled_runs` compares with
    the run's answer. A labels file written before that column existed is still read, its labels unchecked.
    """
    try:
        reader = csv.DictReader(path.read_text(encoding="utf-8-sig").splitlines())
    except (OSError, UnicodeDecodeError) as error:
        raise DataError(f"{path}: cannot be read as UTF-8 ({error}).") from None
    fields = reader.fieldnames or []
    if fields[: len(LABELS_COLUMNS)] != LABELS_COLUMNS:
        raise DataError(f"{path.name}: not a labels file from `figeval annotate import` (columns {fields}).")
    with_answers = fields[len(LABELS_COLUMNS): len(LABELS_COLUMNS) + 1] == [ANSWER_COLUMN]
    annotators = fields[len(LABELS_COLUMNS) + with_answers:]
    labels = []
    seen: dict[tuple[str, str], int] = {}
    for number, row in enumerate(map(from_row, reader), start=2):  # the spreadsheet's row: the header is row 1
        if None in row or None in row.values():
            raise DataError(f"{path.name}: row {number} does not have one cell per column; re-run `figeval annotate import`.")
        if not row["task"].strip():
            raise DataError(f"{path.name}: row {number} names no task; re-run `figeval annotate import`.")
        scheme = spec_of(row["task"]).scheme
        key = (row["model"], row["sample_id"])
        _checked_key(path, number, key, seen)
        seen[key] = number
        # the third annotator may have labelled only the disagreements
        given = tuple(None if i >= 2 and not row[name].strip() else _parse_label(path, number, key, row[name], scheme)
                      for i, name in enumerate(annotators))
        label = _parse_label(path, number, key, row["label"], scheme) if row["label"].strip() else None
        try:
            resolution = Resolution(row["resolution"])
        except ValueError:
            raise DataError(f"{path.name}: row {number} has resolution {row['resolution']!r}; re-run `figeval annotate import`.") from None
        digest = row[ANSWER_COLUMN].strip() if with_answers else ""
        labels.append(HumanLabel(row["task"], row["model"], row["sample_id"], label, resolution, given, digest or None))
    return labels, annotators


def read_task_labels(path: Path, spec_of: SpecOf) -> tuple[str, list[HumanLabel], list[str]]:
    """A labels file of one task: (task, labels, annotators' names).

    Raises:
        DataError: the file holds labels of several tasks.
    """
    labels, annotators = read_labels(path, spec_of)
    tasks = sorted({label.task for label in labels})
    if len(tasks) != 1:
        raise DataError(f"{path} holds labels of {len(tasks)} tasks {tasks}; give one task's labels.")
    return tasks[0], labels, annotators


def labelled_runs(found: Sequence[tuple[EvalLog, bool]], task: str, humans: Sequence[HumanLabel],
                  labels: Path) -> tuple[list[EvalLog], list[EvalLog]]:
    """The runs among `found` whose answers `labels` labels: runs of its task that share at least one labelled
    answer (generator model and sample id); and the directories' other runs of the task, left out (a command
    says so). Each log comes with whether it was named (a file given, rather than found in a log directory): a
    named log that is not one of them is refused, a directory's others are left out.

    A run whose answer to a labelled sample differs from the answer people labelled (`answer_sha256`: another run
    of the same model) is not one of them: labels are never applied to answers nobody labelled.

    Raises:
        DataError: no run's answers are labelled, or a named log's are not (another task, model or run, or other
            answers to the labelled samples).
    """
    labelled = {(h.model, h.sample_id) for h in humans}
    models = sorted({h.model for h in humans})
    shares = [(log, named, task_name(log) == task and bool(labelled & _answer_keys(log))) for log, named in found]
    differing = {id(log): _other_answer(log, humans, labels) for log, _, ok in shares if ok}
    belongs = [(log, named, ok and differing[id(log)] is None) for log, named, ok in shares]
    for log, named, ok in shares:
        if ok and differing[id(log)] and (named or not any(fits for _, _, fits in belongs)):
            raise DataError(differing[id(log)])
    if not any(ok for _, _, ok in belongs):
        runs = ", ".join(sorted({f"{task_name(log)} on {log.eval.model}" for log, _ in found}))
        raise DataError(f"{labels} labels answers of {task}, but "
                        + (f"the logs are runs of {runs}" if runs else f"no log given is a run of {task}")
                        + f"; give the runs of {task} whose answers it labels (its models: {', '.join(models)}).")
    for log, named, ok in belongs:
        if named and not ok:
            raise DataError(f"{log.location.removeprefix('file://')}: {_not_labelled(log, task, models, labels)}")
    return ([log for log, _, ok in belongs if ok],
            [log for log, _, ok in belongs if not ok and task_name(log) == task])


def unlabelled_note(log: EvalLog, labels: Path) -> str:
    """The line a command prints for a run of the labels' task left out: none of its answers is labelled."""
    location = log.location.removeprefix("file://")
    return f"{log.eval.model} ({location}): none of its answers is labelled in {labels.name}; left out"


def _other_answer(log: EvalLog, humans: Sequence[HumanLabel], labels: Path) -> str | None:
    """Why the run's answers are not those `labels` labels: the first labelled sample whose answer in the run
    (`shown_answer`, as `annotate export` shows it) has another digest than the one people labelled; None when
    every labelled answer of the run is the one labelled (labels without a digest are not checked)."""
    digests = {(h.model, h.sample_id): h.answer_sha256 for h in humans if h.answer_sha256}
    for sample, outcome in sample_outcomes(log):
        expected = digests.get((log.eval.model, str(sample.id)))
        if expected and answer_digest(shown_answer(sample, outcome)) != expected:
            return (f"{labels}: sample {sample.id} was labelled for another answer than the one in "
                    f"{log.location.removeprefix('file://')} (another run of {log.eval.model}); export this run's "
                    "answers with `figeval annotate export` and label them.")
    return None


def _answer_keys(log: EvalLog) -> set[tuple[str, str]]:
    return {(log.eval.model, str(sample.id)) for sample in log.samples or []}


def _not_labelled(log: EvalLog, task: str, models: Sequence[str], labels: Path) -> str:
    """Why none of a run's answers is among a labels file's, and what to do."""
    if task_name(log) != task:
        return f"a run of {task_name(log)}, but {labels.name} labels answers of {task}; give runs of {task} only."
    if log.eval.model not in models:
        return (f"a run of {log.eval.model}, but {labels.name} labels answers of {', '.join(models)}; leave it out, "
                "or give the labels of its answers.")
    return (f"none of its answers is among those {labels.name} labels (another run of {log.eval.model}?); give the "
            "run whose answers were exported for labelling.")


# --- Agreement: a judge against the resolved human labels (FFE-HALLU Table 6), annotators among themselves -----


@dataclass(frozen=True)
class JudgeAgreement:
    row: AgreementRow
    confusion: list[list[int]]
    """Counts, rows = the judge's label, columns = the humans', in the scheme's order."""


def judge_agreement(log: EvalLog, humans: Sequence[HumanLabel], scheme: LabelScheme) -> list[JudgeAgreement]:
    """How a run's labels agree with the resolved human labels (Table 6): for each judge model, its own raw
    labels over the outputs it labelled (every output, as in the paper, when the run judged every output); then,
    as a line of its own, the run's final labels as its rates count them, figeval's rule shortcuts and
    overrides and the unparsed policy included."""
    resolved = {(h.model, h.sample_id): h.label for h in humans if h.label is not None}

    def compared(group: str, labels: dict[tuple[str, str], Enum]) -> JudgeAgreement:
        keys = sorted(set(labels) & set(resolved))
        row = agreement_row(group, [labels[k] for k in keys], [resolved[k] for k in keys])
        return JudgeAgreement(row, confusion_matrix([(labels[k], resolved[k]) for k in keys], scheme.labels))

    rows = [compared(f"{log.eval.model} | judge {judge}", judge_labels(log, scheme, judge)) for judge in judges_of(log)]
    return rows + [compared(f"{log.eval.model} | with figeval's rules", judge_labels(log, scheme, with_rules=True))]


def annotator_agreement(humans: Sequence[HumanLabel], annotators: Sequence[str]) -> tuple[list[AgreementRow], Interval | str | None]:
    """Each pair of annotators' agreement per generator model (Tables 7 and 8, Appendix C), then pooled over
    the models as an extra line, each over the answers both labelled; and with three annotators, Fleiss' kappa
    over every answer's ratings, with a 95% bootstrap interval (or why it is undefined); None with fewer."""
    rows = []
    for (i, first), (j, second) in combinations(enumerate(annotators), 2):
        groups = [(model, [h for h in humans if h.model == model]) for model in sorted({h.model for h in humans})]
        for group, members in groups + [("all models", list(humans))]:
            both = [h for h in members if h.annotators[i] is not None and h.annotators[j] is not None]
            rows.append(agreement_row(f"{first} vs {second}: {group}", [h.annotators[i] for h in both],
                                      [h.annotators[j] for h in both]))
    if len(annotators) < 3:
        return rows, None
    units = [[label for label in h.annotators if label is not None] for h in humans]
    try:
        return rows, bootstrap_interval(lambda idx: fleiss_kappa([units[i] for i in idx]), len(units))
    except UndefinedStatistic as error:
        return rows, str(error)


# --- Tables 3 and 5: label rates from human labels, beside the run's own -----------------------------------------


@dataclass(frozen=True)
class LabelRates:
    model: str
    n: int
    """Answers counted: those the annotators resolved (and, for a run, that it labelled or counted)."""
    rates: dict[str, float]
    """Label value -> share of the n answers."""
    unresolved: int = 0


def human_rates(humans: Sequence[HumanLabel], scheme: LabelScheme) -> list[LabelRates]:
    """Each generator model's label rates from the resolved human labels (the paper's Tables 3 and 5 are
    human-labelled); answers left unresolved are counted apart, never in a rate."""
    found = []
    for model in sorted({h.model for h in humans}):
        mine = [h for h in humans if h.model == model]
        resolved = [h.label for h in mine if h.label is not None]
        rates = {label.value: sum(r is label for r in resolved) / len(resolved) for label in scheme.labels} if resolved else {}
        found.append(LabelRates(model, len(resolved), rates, len(mine) - len(resolved)))
    return found


def run_rates(log: EvalLog, humans: Sequence[HumanLabel], scheme: LabelScheme) -> LabelRates:
    """A run's label rates over the same answers the humans resolved: its final labels (judge and rules), an
    unparsed answer counted by the run's own unparsed policy (FFE-HALLU: hallucinated); the judge's failures
    are left out."""
    policy = counting_policy(log, scheme)
    resolved = {(h.model, h.sample_id) for h in humans if h.label is not None}
    counted = []
    for sample, outcome in sample_outcomes(log):
        if (log.eval.model, str(sample.id)) in resolved:
            included, label = counted_label(outcome, policy)
            if included:
                counted.append(label)
    rates = {label.value: sum(c == label.value for c in counted) / len(counted) for label in scheme.labels} if counted else {}
    return LabelRates(log.eval.model, len(counted), rates)
