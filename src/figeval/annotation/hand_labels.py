"""Answers no reader could read, labelled by hand: a sheet of a run's unread answers, and the run with a person's
labels applied, written as a new log (the model is not asked again; the old log is left as it was).

Every figeval task can be resolved this way: the sheet offers the task's own labels (the ones its scores count),
a person writes the label the model's answer gives (the model's answer, not the right one), and each applied
label becomes an outcome decided by hand (`decided_by` and `read_by` `manual`), recorded through Inspect's score
edits, so the log keeps the unread outcome in the score's history. The metrics are recomputed by Inspect from the
log's own metric declarations.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from inspect_ai.log import EvalLog, EvalSample, edit_score, recompute_metrics, write_eval_log
from inspect_ai.model import ChatMessage
from inspect_ai.scorer import Score, ScoreEdit

from figeval.annotation.answers import answer_digest, normalized_answer, shown_answer, task_name
from figeval.annotation.labels import ANSWER_COLUMN
from figeval.annotation.sheets import person_file_text
from figeval.errors import DataError, FigevalError
from figeval.output import atomic_open, check_outputs, refuse_missing_folder, umask_mode
from figeval.scoring.outcome import Outcome, ReadBy, outcome_of, to_score
from figeval.spreadsheet import SheetWriter, from_row

SHEET_COLUMNS = ("task", "model", "sample_id", "read", "labels", "input", "output", "label")


@dataclass(frozen=True)
class UnreadAnswer:
    task: str
    model: str
    sample_id: str
    labels: tuple[str, ...]
    input: str
    output: str
    read: str = "unread"
    """`unread`, or `extractor` for an answer only the extractor model read (a person's label checks it)."""


def _score_name(log: EvalLog) -> str:
    names = {name for sample in log.samples or [] for name in (sample.scores or {})}
    if len(names) != 1:
        raise FigevalError(f"{log.location}: expected one figeval score per sample, found {sorted(names)}; give a "
                           "log of a figeval task.")
    return names.pop()


def _to_label(outcome: Outcome) -> bool:
    return outcome.is_unparsed or outcome.read_by is ReadBy.EXTRACTOR


def _task_labels(score: Score) -> list[str]:
    """The task's labels a score lists: `outcome_of`, called on the score first, refused one without them."""
    return (score.metadata or {})["labels"]


def unread_answers(log: EvalLog) -> list[UnreadAnswer]:
    """The answers of a run that no reader read (unparsed and truncated), and those only the extractor model
    read (shown without its label), one per sample id (with several epochs, one row stands for every such epoch
    of the sample)."""
    found: dict[str, UnreadAnswer] = {}
    for sample in log.samples or []:
        for score in (sample.scores or {}).values():
            outcome = outcome_of(score)
            if _to_label(outcome) and str(sample.id) not in found:
                found[str(sample.id)] = UnreadAnswer(
                    task=task_name(log), model=log.eval.model, sample_id=str(sample.id),
                    labels=tuple(_task_labels(score)), input=_input_text(sample.input),
                    output=sample.output.completion, read="unread" if outcome.is_unparsed else "extractor")
    return list(found.values())


def _input_text(value: str | list[ChatMessage]) -> str:
    if isinstance(value, str):
        return value
    return "\n".join(getattr(message, "text", str(message)) for message in value)


def write_unread_sheet(answers: list[UnreadAnswer], path: Path) -> None:
    """A CSV sheet (UTF-8 with a byte-order mark, so spreadsheets read Persian as Unicode), header first, one row
    per unread answer, `label` left empty."""
    with atomic_open(path, "utf-8-sig", newline="") as handle:
        writer = SheetWriter(handle)
        writer.writerow(SHEET_COLUMNS)
        for a in answers:
            writer.writerow([a.task, a.model, a.sample_id, a.read, " | ".join(a.labels), a.input, a.output,
                             ""])


class HandLabels(dict):
    """{(task, model, sample id): label} of a sheet's filled rows, with the answer the sheet showed for each
    (`answers`, its `output` cells after `from_cell`), or, for a labels file of `figeval annotate import`, the
    digest of the answer its people labelled (`digests`, its `answer_sha256` cells)."""

    def __init__(self) -> None:
        super().__init__()
        self.answers: dict[tuple[str, str, str], str] = {}
        self.digests: dict[tuple[str, str, str], str] = {}
        self.rows: dict[tuple[str, str, str], int] = {}
        """The row of each label, as a spreadsheet numbers it (the header is row 1), for the messages."""


def read_hand_labels(path: Path) -> HandLabels:
    """{(task, model, sample id): label} of the filled rows of a sheet (empty labels skipped), with their answers.

    Raises:
        DataError: the file is missing or a folder, not a sheet of unread answers, or a row repeats a sample.
    """
    text = person_file_text(path, "sheet", "`figeval annotate unread`")
    rows = [from_row(row) for row in csv.DictReader(io.StringIO(text))]
    missing = [c for c in ("task", "model", "sample_id", "label") if rows and c not in rows[0]]
    if not rows or missing:
        raise DataError(f"{path}: not a sheet of unread answers (columns {', '.join(SHEET_COLUMNS)}); write one "
                        "with `figeval annotate unread LOG --out SHEET`.")
    labels, seen = HandLabels(), set()
    for number, row in enumerate(rows, start=2):
        key = (row["task"], row["model"], row["sample_id"])
        if key in seen:
            raise DataError(f"{path}, row {number}: sample {row['sample_id']} appears twice; keep one row per answer.")
        seen.add(key)
        if (row.get("label") or "").strip():
            labels[key] = row["label"].strip()
            labels.rows[key] = number
            if isinstance(row.get("output"), str):
                labels.answers[key] = row["output"]
            elif (row.get(ANSWER_COLUMN) or "").strip():
                labels.digests[key] = row[ANSWER_COLUMN].strip()
            else:
                # nothing says which answer the label is of: it could be another run's answer to the same sample
                raise DataError(f"{path}, row {number}: sample {row['sample_id']} has a label but no answer "
                                "(no 'output' or 'answer_sha256' cell), so which answer it labels cannot be "
                                "checked; write this run's sheet with `figeval annotate unread` and label it.")
    return labels


@dataclass(frozen=True)
class Applied:
    log: EvalLog
    """The run, every labelled answer decided by hand, its metrics recomputed."""
    labelled: int
    extractor_pairs: list[tuple[str, str]]
    """(the extractor's label, the person's) of each answer only the extractor had read."""


def apply_hand_labels(log: EvalLog, labels: dict[tuple[str, str, str], str], sheet: Path) -> Applied:
    """The log with every unread (or extractor-read) answer that has a label decided by hand, its metrics
    recomputed.

    A label of an answer a reader read (every epoch of its sample read) is refused, not skipped: applying it to
    some read answers and not to others would mix two ways of reading in one number, and skipping it would drop
    a person's work without a word. With several epochs, a row stands for the sample's unread epochs only; its
    read ones keep their reading.

    Raises:
        DataError: a label is not one of the task's labels, names a sample the run does not have, one that was
            read (naming the sheet's row), or one whose answer in the run is not the one the sheet showed (the
            sheet is of another run of the same model, or was edited).
    """
    task, model, name = task_name(log), log.eval.model, _score_name(log)
    mine = {key[2]: label for key, label in labels.items() if key[:2] == (task, model)}
    others = [key for key in labels if key[:2] != (task, model)]
    if not labels:
        raise DataError(f"{sheet}: no row has a label; fill the 'label' column with the label each answer gives.")
    if others:
        # a label of another run would otherwise be ignored without a word
        other_task, other_model, sample_id = others[0]
        raise DataError(f"{_row_of(sheet, labels, others[0])}: {len(others)} labelled row(s) are answers of "
                        f"another run than {task} on {model} "
                        f"(first: sample {sample_id} of {other_task} on {other_model}); give the sheet `figeval "
                        "annotate unread` wrote for this run, or clear those rows' labels.")
    _refuse_other_answers(log, labels, sheet)
    epochs: dict[str, list[EvalSample]] = {}
    for sample in log.samples or []:
        epochs.setdefault(str(sample.id), []).append(sample)
    applied, pairs = 0, []
    for sample_id, label in mine.items():
        if sample_id not in epochs:
            raise DataError(f"{sheet}: sample {sample_id} is not in {log.location}; give the sheet of this run.")
        scored = [(sample, score, outcome_of(score)) for sample in epochs[sample_id]
                  # an epoch without a score (it failed) has no answer to label
                  if (score := (sample.scores or {}).get(name)) is not None]
        if scored and not any(_to_label(outcome) for _, _, outcome in scored):
            raise DataError(_read_already(sheet, log, sample_id, label, scored[0][2],
                                          _row_of(sheet, labels, (task, model, sample_id))))
        for sample, score, outcome in scored:
            if not _to_label(outcome):
                continue  # this epoch was read; the row stands for the sample's unread epochs
            allowed = {value.lower(): value for value in _task_labels(score)}
            if label.lower() not in allowed:
                raise DataError(f"{sheet}: sample {sample_id}: label {label!r} is not one of {list(allowed.values())}; "
                                "write the label the model's answer gives.")
            if outcome.read_by is ReadBy.EXTRACTOR and outcome.label is not None:  # the extractor names a label
                pairs.append((outcome.label, allowed[label.lower()]))
            new = to_score(outcome.by_hand(allowed[label.lower()]), _task_labels(score))
            # `to_score` always writes metadata (the task's labels and who decided)
            edit_score(log, sample.id, name, ScoreEdit(value=new.value, answer=new.answer,
                                                       explanation=new.explanation, metadata=new.metadata or {}),
                       recompute_metrics=False, epoch=sample.epoch)
            applied += 1
    if not applied and mine:
        raise DataError(f"{sheet}: none of its labelled answers is unread in {log.location}; it was read already.")
    recompute_metrics(log)
    return Applied(log, applied, pairs)


def _row_of(sheet: Path, labels: dict[tuple[str, str, str], str], key: tuple[str, str, str]) -> str:
    """Where a label is, for a message: the sheet and its row (when the labels were read from a sheet)."""
    row = getattr(labels, "rows", {}).get(key)
    return f"{sheet}, row {row}" if row else str(sheet)


def _read_already(sheet: Path, log: EvalLog, sample_id: str, label: str, outcome: Outcome, where: str) -> str:
    """The refusal of a hand label of an answer a reader read: where the label is, what read the answer, the fix."""
    return (f"{where}: sample {sample_id} is labelled {label!r} by hand, but its answer in "
            f"{log.location.removeprefix('file://')} was read ({outcome.read_by.value if outcome.read_by else 'read'}"
            f"{f': {outcome.label}' if outcome.label else ''}); a hand label replaces only an answer no reader read: "
            "clear that row's label (`figeval annotate unread` lists the unread answers).")


def _refuse_other_answers(log: EvalLog, labels: dict[tuple[str, str, str], str], sheet: Path) -> None:
    """Refuses a label of an answer the sheet showed otherwise than the run has it (`unread_answers` wrote the
    sheet's output, so the same function gives the run's side), or, for a labels file, whose people labelled an
    answer of another digest (`answer_digest` of the answer as `annotate export` showed it)."""
    shown = getattr(labels, "answers", {})
    in_run = {answer.sample_id: answer.output for answer in unread_answers(log)}
    digests = {str(sample.id): answer_digest(shown_answer(sample, outcome_of(score)))
               for sample in log.samples or [] for score in (sample.scores or {}).values()}
    differing = [key for key, answer in shown.items()
                 if key[2] in in_run and normalized_answer(answer) != normalized_answer(in_run[key[2]])]
    differing += [key for key, digest in getattr(labels, "digests", {}).items()
                  if key[2] in digests and digest != digests[key[2]]]
    if differing:
        _, model, sample_id = differing[0]
        raise DataError(f"{_row_of(sheet, labels, differing[0])}: sample {sample_id} was labelled for another "
                        "answer than the one in "
                        f"{log.location.removeprefix('file://')} (another run of {model}?); write this run's sheet "
                        "with `figeval annotate unread` and label it.")


def check_new_log(out: Path, inputs: list[Path]) -> None:
    """Refuses, before any work, an `out` for the labelled run that is one of the command's inputs, a symbolic
    link, an existing file (the labelled run is a new log), not an `.eval` name, or in a missing folder.

    Raises:
        FigevalError: naming `out` and what to do.
    """
    check_outputs([out], inputs)
    if out.suffix != ".eval":
        raise FigevalError(f"--out {out}: an Inspect log is written as .eval; choose a name ending in .eval.")
    if out.exists():
        raise FigevalError(f"--out {out} exists; choose a new name (the labelled run is a new log).")
    refuse_missing_folder(out)


def write_log(log: EvalLog, out: Path, source: Path) -> None:
    """The labelled run as a new `.eval` log (`check_new_log`), whole or not at all: written to a temporary name
    beside `out` (not a log's name, so no log reader lists it) and renamed when complete, so a kill leaves no
    log at `out` and the same command can be run again.

    Raises:
        FigevalError: as `check_new_log`.
    """
    check_new_log(out, [source])
    folder = out.parent if str(out.parent) else Path(".")
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{out.name}.", suffix=".tmp")
    os.close(descriptor)
    try:
        write_eval_log(log, temporary, format="eval")
        os.chmod(temporary, umask_mode())
        os.replace(temporary, out)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    log.location = str(out)
