"""How a paper's table is built from runs (the table model itself is `figeval.table_model`).

A `TableSpec` names a paper's table and its columns (task, metric, the run settings a column needs); `build_table`
fills it from runs: one row per model and the run settings that split it, each cell from the newest matching run
that ran its whole dataset. A run that lacks a row setting (an MC run has no judge) fills every row of its model it
is compatible with, so the columns of several tasks line up; when two different runs compete for one cell, a
complete run wins over a subset (`--limit`, `--sample-id`) whatever their times, then the newest, and the table says
so in a note, never silently; a cell that only a subset run fills is noted with how much of the dataset it ran.

Values are kept as the metrics give them (rates in [0, 1], never rounded here); a table's `unit` says how to show
them (percent where the paper prints percent). A cell's n is its metric's own denominator (`<metric>/n`: the fakes
one framing asked, the answers a judge could label), not the run's sample count, and a proportion's interval is
the metric's own bootstrap interval or else the Wilson score interval over that n (Wilson 1927): a Wald interval
(p +- 1.96 se) collapses to a point at 0% and 100%.

Beside every rate read from answers a table shows its run's unparsed share, and beside a judged rate the share
whose judge answer was unreadable (`unparsed_column`, `judge_unreadable_column`): a judged rate leaves those
answers out of its n, so "Correct 100.0" over 2 of 10 answers is never shown without the 8 the judge could not
label. These are figeval's columns (`ours`, a `*` on their header), and the spec's `notes` say what they count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, overload

from figeval.table_model import JUDGE_LABELS, LABELLED_BY, Cell, Column, ColumnHead, Row, Table, TableSpec
from figeval.results.rows import RowRuns, model_rows, setting_names, shared_settings, shown_settings
from figeval.results.runs import RunSummary, preference
from figeval.scoring.metrics import denominator_name
from figeval.stats import FEW_ITEMS, bootstrap_trusted, wilson_interval

Z_95 = 1.959964
T = TypeVar("T")


def proportion_interval(value: float, n: int | None) -> tuple[float | None, float | None]:
    """The 95% Wilson score interval of a proportion over n answers (its successes: value * n, rounded); no
    interval without n, with n = 0, or for a value that is not a proportion."""
    if not n or not 0.0 <= value <= 1.0:
        return None, None
    return wilson_interval(round(value * n), n, Z_95)


def metric_cell(run: RunSummary, metric: str, complement: bool = False) -> Cell | None:
    """A run's metric with its n (its own denominator, `<metric>/n`) and its 95% interval (`RunSummary.interval`);
    with `complement`, 1 - the metric and the interval flipped. No n when the log does not record the metric's n;
    None if the run lacks the metric."""
    value = run.metrics.get(metric)
    if value is None:
        return None
    recorded_n = run.metrics.get(denominator_name(metric))
    n = None if recorded_n is None else int(recorded_n)
    low, high = run.interval(metric) or (None, None)
    if complement:
        value, low, high = 1 - value, None if high is None else 1 - high, None if low is None else 1 - low
    return Cell(value, low, high, n, run.log, samples=run.samples)


def few_items_note(table: Table) -> str:
    """What a table says of its cells with no interval over a small n (`stats.FEW_ITEMS`); empty with none."""
    cells = [(row.label, column.header) for row in table.rows if not row.reference for column in table.columns
             if (cell := row.cells.get(column.key)) is not None and isinstance(cell.value, float) and cell.low is None
             and cell.n is not None and not bootstrap_trusted(cell.n) and not cell.label]
    if not cells:
        return ""
    return f"no interval where {FEW_ITEMS} (" + "; ".join(f"{label} {header}" for label, header in cells) + ")."


def _matches(run: RunSummary, column: Column) -> bool:
    identity = run.identity or {}
    return run.task == column.task and all(identity.get(k) == v for k, v in column.where.items())


def build_table(spec: TableSpec, runs: Sequence[RunSummary], scope_of: Callable[[str], str] = lambda task: "") -> Table:
    """The spec's table from runs (already one per task, model and identity): one row per model and identity
    (`figeval.results.rows`), rows sorted by model. The settings shown as columns are those that tell rows apart,
    the spec's `shown_settings` and every file of the user's (data other than the paper's); the settings every row
    shares are said in a note. `scope_of` gives the scope of a task's settings (a table across benchmarks: its
    benchmark, so that one benchmark's `prompt_lang` is never compared with another's)."""
    table = Table(spec.key, spec.title, f"{spec.paper} {spec.source}".strip(), spec.unit,
                  [ColumnHead(c.key, c.header, c.better, c.ours) for c in spec.columns], intervals=spec.intervals)
    used = [(column, run) for column in spec.columns for run in runs if _matches(run, column)]
    picked = {name for column in spec.columns for name in column.where}
    from_subsets: dict[str, tuple[RunSummary, list[str]]] = {}  # log -> the run and the columns it fills
    found: list[tuple[str, RowRuns]] = []
    for model in sorted({run.display_name for _, run in used}):
        filled: dict[str, tuple[RunSummary, set[int]]] = {}
        for index, column in enumerate(spec.columns):
            for run in (run for c, run in used if c is column and run.display_name == model):
                filled.setdefault(run.log, (run, set()))[1].add(index)
        found += [(model, row) for row in model_rows(list(filled.values()), picked, scope_of)]
    names = setting_names(list(dict.fromkeys(key for _, row in found for key in row.settings)))
    files = {key for _, row in found for key in row.settings
             if any(key[0] in run.files for runs in row.candidates.values() for run in runs)}
    people_columns = any(column.human_label for column in spec.columns)
    for model, found_row in found:
        row = Row(model, {names[key]: value for key, value in found_row.settings.items()}, {})
        row.other_data = {names[key]: value for key, value in found_row.settings.items() if key in files}
        for index, candidates in sorted(found_row.candidates.items()):
            column = spec.columns[index]
            chosen = preferred(candidates)
            cell = metric_cell(chosen, column.metric, column.complement)
            if cell is not None:
                row.cells[column.key] = cell
                if not chosen.complete:
                    from_subsets.setdefault(chosen.log, (chosen, []))[1].append(column.header)
            if len(candidates) > 1:
                table.notes.append(f"{model} {column.header}: {len(candidates)} runs with these settings; the "
                                   f"{preferred_text(candidates)} is used ({chosen.log}).")
        if any(column.human_label and column.key in row.cells for column in spec.columns):
            # the paper's columns are people's labels; this row's are its judge's (and its rules')
            row.identity = {LABELLED_BY: JUDGE_LABELS, **row.identity}
        table.rows.append(row)
    table.notes += subset_notes(list(from_subsets.values()))
    if few := few_items_note(table):
        table.notes.append(few)
    table.identity_keys = shown_settings(table.rows, [names[key] for key in names if key in files],
                                         [name for key, name in names.items() if key[0] in spec.shown_settings]
                                         + [LABELLED_BY] * people_columns)
    table.shared = shared_settings(table.rows, table.identity_keys)
    table.notes += spec.notes  # what figeval's columns count: after what is particular to these runs
    return table


@overload
def preferred(candidates: Sequence[RunSummary]) -> RunSummary: ...


@overload
def preferred(candidates: Sequence[T], run_of: Callable[[T], RunSummary]) -> T: ...


def preferred(candidates: Sequence[Any], run_of: Callable[[Any], RunSummary] = lambda run: run) -> Any:
    """The candidate whose run is preferred (`preference`: a complete run over any subset, then the newest); of
    runs equal by both, the last given (as `newest_runs` keeps the last of runs sorted by time)."""
    return sorted(candidates, key=lambda candidate: preference(run_of(candidate)))[-1]


def preferred_text(candidates: Sequence[RunSummary]) -> str:
    """Which of competing runs a cell uses, in words (`preference`)."""
    if all(run.complete for run in candidates):
        return "newest"
    if any(run.complete for run in candidates):
        return "newest complete run (over the subset runs)"
    return "newest of these subset runs"


def subset_notes(used: Sequence[tuple[RunSummary, Sequence[str]]]) -> list[str]:
    """`subset_note` once for runs that fill the same columns from the same subset of one task (a paper run of
    several models on `--limit 10`): the models named together and each run's log, instead of a note per model."""
    groups: dict[tuple, list[RunSummary]] = {}
    for run, headers in used:
        groups.setdefault((run.task, run.subset, tuple(headers)), []).append(run)
    notes = []
    for (task, subset, headers), runs in groups.items():
        if len(runs) == 1:
            notes.append(subset_note(runs[0], headers))
            continue
        names = ", ".join(run.display_name for run in runs)
        notes.append(f"{names} {', '.join(headers)}: each from a subset run ({subset}; no complete run of {task} with "
                     f"these settings): {'; '.join(run.log for run in runs)}.")
    return notes


def subset_note(run: RunSummary, headers: Sequence[str]) -> str:
    """What a table says of cells filled from a subset run (no run of the whole dataset): which, and how much of
    the dataset the run answered, so a smoke test's number is never read as the full run's."""
    return (f"{run.display_name} {', '.join(headers)}: from a subset run ({run.subset}; no complete run of "
            f"{run.task} with these settings): {run.log}.")

