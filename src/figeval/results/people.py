"""A paper's human-labelled tables from people's labels: where a paper's column is people's labels of a task's
answers (`Column.human_label`, declared by each benchmark's tables), `figeval report --human LABELS` puts under
each of the user's rows (its judge's labels) a row of the people's labels of the very answers that row's runs
gave, in the paper's layout, each row saying who labelled it
(`LABELLED_BY`). A people's cell is the share of the answers people resolved that they gave the column's label,
over those answers (its n), with the Wilson interval; unresolved answers are left out and counted in a note.
Without labels for a table, its note says its rows are the judge's where the paper's are people's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from figeval.results.labelled import LabelledAnswers
from figeval.results.runs import RunSummary
from figeval.table_model import LABELLED_BY, Row, Table, TableSpec


def people_of(table: Table, spec: TableSpec, runs: Sequence[RunSummary], people: Sequence[LabelledAnswers]) -> None:
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
            unresolved += labels.unresolved.get(run.log, 0)
            if (share := labels.shares.get(run.log, {}).get(column.human_label)) is not None:
                cells[column.key] = replace(share, samples=run.samples)
        if cells:
            sources = sorted({by_task[column.task].path.name for column in columns if column.key in cells})
            rows.append(Row(row.label, {**row.identity, LABELLED_BY: f"people ({', '.join(sources)})"}, cells))
    table.rows = rows
    if unresolved:
        table.notes.append(f"people's rows: {unresolved} labelled answer(s) unresolved (two annotators disagree, no "
                           "third) are left out of their n.")
