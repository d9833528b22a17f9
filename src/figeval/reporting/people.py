"""A paper's human-labelled tables from people's labels: where a paper's column is people's labels of a task's
answers (`Column.human_label`, declared by each benchmark's tables), `figeval report --human LABELS` puts under
each of the user's rows (its judge's labels) a row of the people's labels of the very answers that row's runs
gave, in the paper's layout, each row saying who labelled it
(`LABELLED_BY`). A people's cell is the share of the answers people resolved that they gave the column's label,
over those answers (its n), with the Wilson interval; unresolved answers are left out and counted in a note.
Without labels for a table, its note says its rows are the judge's where the paper's are people's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from inspect_ai.log import EvalLog

from figeval.annotation.labels import HumanLabel, other_answer, read_task_labels
from figeval.benchmark import Benchmark, annotation_spec
from figeval.reporting.logs import read_log
from figeval.reporting.runs import RunSummary
from figeval.reporting.tables import LABELLED_BY, Cell, Row, Table, TableSpec, proportion_interval


@dataclass(frozen=True)
class PeopleLabels:
    """One labels file of `figeval annotate import`: its task's resolved and unresolved labels."""

    path: Path
    task: str
    labels: list[HumanLabel]


def people_of(table: Table, spec: TableSpec, runs: Sequence[RunSummary], people: Sequence[PeopleLabels]) -> None:
    """Adds to `table` (built from `spec`) the people's row under each of the user's rows whose runs' answers
    `people` label; a table whose paper columns are people's but for which no labels are given says so in a note.

    A row whose runs' answers are not those people labelled (another run of the model, the same samples) has no
    people's row.
    """
    columns = [column for column in spec.columns if column.human_label]
    if not columns:
        return
    by_task = {labels.task: labels for labels in people}
    if not any(column.task in by_task for column in columns):
        table.notes.append("the paper's columns marked by people's labels are people's labels of every output; these "
                           "rows are the judge's (labelled by: judge): `figeval report --human LABELS` adds the "
                           "people's of the same answers (`figeval annotate export`, then `annotate import`).")
        return
    by_log = {run.log: run for run in runs}
    logs: dict[str, EvalLog] = {}
    rows, unresolved = [], 0
    for row in table.rows:
        rows.append(row)
        if row.reference:
            continue
        cells = {}
        for column in columns:
            cell, labels = row.cells.get(column.key), by_task.get(column.task)
            run = by_log.get(cell.log or "") if cell is not None else None
            if run is None or labels is None:
                continue
            mine = _labels_of(run, labels, logs)
            resolved = [h.label.value for h in mine if h.label is not None]
            unresolved += len(mine) - len(resolved)
            if resolved:
                share = resolved.count(column.human_label) / len(resolved)
                cells[column.key] = Cell(share, *proportion_interval(share, len(resolved)), len(resolved),
                                         str(labels.path), samples=run.samples)
        if cells:
            sources = sorted({by_task[column.task].path.name for column in columns if column.key in cells})
            rows.append(Row(row.label, {**row.identity, LABELLED_BY: f"people ({', '.join(sources)})"}, cells))
    table.rows = rows
    if unresolved:
        table.notes.append(f"people's rows: {unresolved} labelled answer(s) unresolved (two annotators disagree, no "
                           "third) are left out of their n.")


def _labels_of(run: RunSummary, labels: PeopleLabels, logs: dict[str, EvalLog]) -> list[HumanLabel]:
    """The people's labels of the run's answers: of its model and samples, each of the very answer the run gave;
    none for a run whose answers to the labelled samples are not those people labelled (`other_answer`)."""
    if run.log not in logs:
        logs[run.log] = read_log(run.log)
    log = logs[run.log]
    ids = {str(sample.id) for sample in log.samples or []}
    mine = [h for h in labels.labels if h.model == log.eval.model and h.sample_id in ids]
    if mine and other_answer(log, labels.labels, labels.path) is not None:
        return []  # the labels are of another run's answers to the same samples: not this run's people's
    return mine


def read_people(paths: Sequence[Path], benchmarks: Sequence[Benchmark]) -> list[PeopleLabels]:
    """The labels files given to `figeval report --human`, each of one task.

    Raises:
        FigevalError: a file is unreadable, of several tasks or of a task with no annotation scheme.
    """
    found = []
    for path in paths:
        task, labels, _ = read_task_labels(path, lambda name: annotation_spec(benchmarks, name))
        found.append(PeopleLabels(path, task, labels))
    return found


