"""Resolving annotators' labels (two, and a third where they disagree), the labels file, and the runs it labels.

Two agreeing annotators decide; otherwise the third annotator's label decides; with no third annotator the answer
stays unresolved and is listed. Each resolved label keeps the digest of the answer people labelled, so that it is
applied only to that answer, never to another run's.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from inspect_ai.log import EvalLog

from figeval.annotation.answers import answer_digest, shown_answer, task_name
from figeval.annotation.sheets import Labels, SheetLabels, checked_key, parse_label, person_file_text
from figeval.annotation.spec import SpecOf
from figeval.errors import DataError
from figeval.output import atomic_open
from figeval.scoring.reducer import sample_outcomes
from figeval.spreadsheet import SheetWriter, from_row


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
            lacking_name = name if keys - set(labels) else first_name
            raise DataError(
                f"{lacking_name} has no row for {len(missing)} answer(s) the other sheets have "
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
    # only a sheet read from a file (`SheetLabels`) knows the answers it showed
    shown = [(labels.path, labels.answers[key]) for _, _, labels in sheets
             if isinstance(labels, SheetLabels) and key in labels.answers]
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

    A resolved label that no annotator of its row gave is refused (`_refuse_contradicted`); there is no override:
    an adjudicator's decision is given as the third annotator's sheet to `figeval annotate import`.
    """
    reader = csv.DictReader(person_file_text(path, "labels file", "`figeval annotate import`").splitlines())
    fields = list(reader.fieldnames or [])
    if fields[: len(LABELS_COLUMNS)] != LABELS_COLUMNS:
        raise DataError(f"{path.name}: not a labels file from `figeval annotate import` (columns {fields}).")
    with_answers = fields[len(LABELS_COLUMNS): len(LABELS_COLUMNS) + 1] == [ANSWER_COLUMN]
    annotators = fields[len(LABELS_COLUMNS) + with_answers:]
    labels = []
    seen: dict[tuple[str, str], int] = {}
    for number, row in enumerate(map(from_row, reader), start=2):  # the spreadsheet's row: the header is row 1
        if None in row or None in row.values():
            raise DataError(f"{path.name}: row {number} does not have one cell per column; re-run "
                            "`figeval annotate import`.")
        if not row["task"].strip():
            raise DataError(f"{path.name}: row {number} names no task; re-run `figeval annotate import`.")
        scheme = spec_of(row["task"]).scheme
        key = (row["model"], row["sample_id"])
        checked_key(path, number, key, seen)
        seen[key] = number
        # the third annotator may have labelled only the disagreements
        given = tuple(None if i >= 2 and not row[name].strip() else parse_label(path, number, key, row[name], scheme)
                      for i, name in enumerate(annotators))
        label = parse_label(path, number, key, row["label"], scheme) if row["label"].strip() else None
        _refuse_contradicted(path, number, key, label, dict(zip(annotators, given)))
        try:
            resolution = Resolution(row["resolution"])
        except ValueError:
            raise DataError(f"{path.name}: row {number} has resolution {row['resolution']!r}; re-run "
                            "`figeval annotate import`.") from None
        digest = row[ANSWER_COLUMN].strip() if with_answers else ""
        labels.append(HumanLabel(row["task"], row["model"], row["sample_id"], label, resolution, given, digest or None))
    return labels, annotators


def _refuse_contradicted(path: Path, number: int, key: tuple[str, str], label: Enum | None,
                         given: dict[str, Enum | None]) -> None:
    """Refuses a resolved label that contradicts every annotator of its row (all three gave one label, it is
    another): `resolve` always takes one annotator's label, so such a label was edited in by hand, and counting it
    would put in the people's numbers a label none of them gave.

    Raises:
        DataError: naming the file, the row, the labels and the fix.
    """
    said = {name: value for name, value in given.items() if value is not None}
    if label is None or not said or label in said.values():
        return
    people = ", ".join(f"{name} {value.value}" for name, value in said.items())
    raise DataError(f"{path.name}: row {number} (sample '{key[1]}' of {key[0]}) has resolved label "
                    f"{label.value!r}, which none of its annotators gave ({people}); correct its 'label' cell to "
                    "an annotator's, or give an adjudicator's label as the third annotator's sheet to `figeval "
                    "annotate import`.")


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
    differing = {id(log): other_answer(log, humans, labels) for log, _, ok in shares if ok}
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


def other_answer(log: EvalLog, humans: Sequence[HumanLabel], labels: Path) -> str | None:
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
