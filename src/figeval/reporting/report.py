"""`figeval report`: the papers' tables (or a leaderboard) from the runs in a log directory, with the papers' own
numbers as reference rows on request, the runs used, the runs replaced by newer ones with the same settings, and
the runs that did not finish."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from inspect_ai.log import read_eval_log

from figeval.errors import FigevalError
from figeval.reporting.agreement import agreement_tables
from figeval.reporting.paper import count_row, paper_notes, reference_rows, text_numbers
from figeval.reporting.runs import READ_LAYERS, RunSummary, Superseded, newest_runs, read_runs, unread_warning
from figeval.reporting.tables import (
    JUDGE_UNPARSED_RATE,
    Cell,
    ColumnHead,
    Row,
    Table,
    TableSpec,
    build_table,
    metric_cell,
    preferred,
    subset_note,
)


@dataclass
class Report:
    tables: list[Table]
    runs: list[RunSummary]
    """The runs the tables read (per task, model and settings the newest complete run, else the newest subset)."""
    superseded: list[Superseded] = field(default_factory=list)
    """The other runs with the same task, model and settings: older ones, and subsets beside a complete run."""
    not_successful: list[RunSummary] = field(default_factory=list)


def build_report(log_dir: Path, tasks: Sequence[str] = (), paper: bool = False, leaderboard: bool = False,
                 human: Sequence[Path] = (), families: Mapping[str, str] | None = None,
                 note: Callable[[str], None] = lambda _: None) -> Report:
    """The report over a log directory's runs (of `tasks` only, when given); with `human` label files (from
    `figeval annotate import`), the judge-vs-people and annotator agreement tables of their tasks; `families`
    names the family of models a table grouped by family does not know ({model: family}); `note` is told of
    a run found twice (a copy, counted once).

    Raises:
        FigevalError: the directory does not exist, or a task name is unknown.
    """
    from figeval._registry import HEADLINES, TABLES, TASKS
    from figeval.benchmarks.ffe_hallu.tables import contamination_table
    from figeval.benchmarks.perhallueval.families import FAMILIES, family_label, family_notes
    from figeval.benchmarks.perhallueval.tables import TABLE_1 as PERHALLUEVAL_TABLE_1
    from figeval.benchmarks.perhallueval.tables import TABLE_4 as PERHALLUEVAL_TABLE_4

    if not log_dir.is_dir():
        raise FigevalError(f"no log directory at '{log_dir}'; pass the --log-dir a run wrote to (default: logs).")
    unknown = sorted(set(tasks) - set(TASKS))
    if unknown:
        raise FigevalError(f"unknown task {', '.join(unknown)} in --task; known tasks: {', '.join(sorted(TASKS))}.")
    done, other = read_runs(log_dir, note)
    if tasks:
        done, other = [r for r in done if r.task in tasks], [r for r in other if r.task in tasks]
    runs, superseded = newest_runs(done)
    present = {run.task for run in runs}
    if leaderboard:
        spec = TableSpec("leaderboard", "", "", "Leaderboard: each task's headline metric (percent)", "percent",
                         tuple(c for c in HEADLINES if c.task in present or not tasks), (), intervals=True)
        tables = [build_table(spec, runs)]
    else:
        tables = []
        built = [(spec, build_table(spec, runs)) for spec in TABLES if spec.tasks & present]
        if PERHALLUEVAL_TABLE_1.tasks & present and (table := generator_shares(PERHALLUEVAL_TABLE_1, runs)).rows:
            built.append((PERHALLUEVAL_TABLE_1, table))
        if PERHALLUEVAL_TABLE_4.tasks & present:
            named = dict(families or {})
            # --family takes a model as the report names it or as its log records it
            named |= {run.model: named[run.display_name] for run in runs
                      if run.display_name in named and run.model not in named}
            table = best_per_family(PERHALLUEVAL_TABLE_4, runs, lambda model: family_label(model, named), FAMILIES)
            table.notes += family_notes([run.model for run in runs if run.task in PERHALLUEVAL_TABLE_4.tasks], named)
            built.append((PERHALLUEVAL_TABLE_4, table))
        for spec, table in built:
            if paper:
                table.rows += reference_rows(spec, table)
                table.notes += paper_notes(spec.paper, spec.source)
            tables.append(table)
        if "ffe_detection" in present and (table := contamination_table(runs)) is not None:
            tables.append(table)  # FFE-HALLU on the published fakes beside a fresh set (figeval's own table)
        for table in _allusion_tables([run for run in runs if run.task.startswith("allusion_")]):
            if paper and table.key == "persian-allusions/themes":
                table.rows.append(count_row("persian-allusions", "Table 2", "PersPoems"))
            tables.append(table)
        for labels in human:
            tables += agreement_tables(labels, runs, paper)
        if paper and (table := text_numbers({spec.paper for spec in TABLES if spec.tasks & present})) is not None:
            tables.append(table)
    if (table := reading_table(runs)).rows:
        tables.append(table)
    return Report(tables, runs, superseded, other)


def reading_table(runs: Sequence[RunSummary]) -> Table:
    """How each run's answers were read: the share each layer read, and the unread ones (with the commands that
    resolve them when over the limit); for judged runs, the share whose judge answer was unreadable, so that a
    leaderboard's judged headline (which leaves those answers out) is never read without it."""
    layers = [layer for layer in READ_LAYERS if any(f"read/{layer}" in run.metrics for run in runs)]
    judged = any(JUDGE_UNPARSED_RATE in run.metrics for run in runs)
    table = Table("reading", "How the answers were read (share of answers; figeval's reading layers)", "figeval",
                  "percent", [ColumnHead("task", "Task")] + [ColumnHead(layer, READ_LAYERS[layer]) for layer in layers]
                  + [ColumnHead("truncated", "truncated", ours=True)]
                  + ([ColumnHead("judge_unreadable", "judge unreadable", ours=True)] if judged else []))
    for run in runs:
        if not any(f"read/{layer}" in run.metrics for layer in layers):
            continue
        n = int(run.metrics.get("read/n", run.samples))  # detection reads its fakes' answers: its own n
        cells = {layer: Cell(run.metrics[f"read/{layer}"], n=n, log=run.log)
                 for layer in layers if f"read/{layer}" in run.metrics}
        cells["task"] = Cell(run.task)
        if "truncated_rate" in run.metrics:
            cells["truncated"] = Cell(run.metrics["truncated_rate"], n=n, log=run.log)
        if (judge := metric_cell(run, JUDGE_UNPARSED_RATE)) is not None:
            cells["judge_unreadable"] = replace(judge, samples=None)
        table.rows.append(Row(run.display_name, {}, cells))
        if (warning := unread_warning(run)) is not None:
            table.notes.append(f"{run.task} on {run.display_name}: {warning}")
    return table


def best_per_family(spec: TableSpec, runs: Sequence[RunSummary], family_of: Callable[[str], str],
                    order: Sequence[str] = ()) -> Table:
    """PerHalluEval Table 4: per family (`family_of` a run's model, the row's label) and column, the highest value
    among the family's runs and its model (ties: the first model by name). Rows: the families in `order` (the
    paper's) first, then the others by name."""
    table = build_table(spec, [])
    best: dict[str, dict[str, Cell]] = {}
    chosen: dict[tuple[str, str], RunSummary] = {}  # (family, column key) -> the run of the best cell
    runs = without_covered_subsets(runs)
    for column in spec.columns:
        for run in sorted(runs, key=lambda run: run.model):
            cell = metric_cell(run, column.metric) if run.task == column.task else None
            family = best.setdefault(family_of(run.model), {})
            if cell is not None and (column.key not in family or cell.value > family[column.key].value):
                family[column.key] = replace(cell, label=run.display_name)
                chosen[(family_of(run.model), column.key)] = run
    rank = {family: i for i, family in enumerate(order)}
    table.rows = [Row(family, {}, cells) for family, cells in
                  sorted(best.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0])) if cells]
    headers = {column.key: column.header for column in spec.columns}
    from_subsets: dict[str, tuple[RunSummary, list[str]]] = {}
    for (_, key), run in chosen.items():
        if not run.complete:
            from_subsets.setdefault(run.log, (run, []))[1].append(headers[key])
    table.notes += [subset_note(run, found) for run, found in from_subsets.values()]
    return table


def without_covered_subsets(runs: Sequence[RunSummary]) -> list[RunSummary]:
    """`runs` without the subset runs of a task and model that also has a complete run (with any settings): where
    a table picks among a model's runs by value, a smoke test's number never stands for the model."""
    complete = {(run.task, run.display_name) for run in runs if run.complete}
    return [run for run in runs if run.complete or (run.task, run.display_name) not in complete]


def generator_shares(spec: TableSpec, runs: Sequence[RunSummary]) -> Table:
    """PerHalluEval Table 1 from the items of the newest run of each task (complete over subset, `preference`): per generator (the data file's
    `generator` column), the share of items whose hallucinated version it wrote. No rows when the file does not
    name generators."""
    table = build_table(spec, [])
    shares: dict[str, dict[str, Cell]] = {}
    for column in spec.columns:
        found = [run for run in runs if run.task == column.task]
        if not found:
            continue
        newest = preferred(found)  # the newest complete run: a subset only when none is
        if not newest.complete:
            table.notes.append(subset_note(newest, [column.header]))
        generator_of = {sample.metadata.get("item"): sample.metadata.get("generator")
                        for sample in read_eval_log(newest.log).samples or []}
        named = [g for g in generator_of.values() if g]
        for generator in sorted(set(named)):
            shares.setdefault(generator, {})[column.key] = Cell(named.count(generator) / len(generator_of),
                                                                n=len(generator_of), log=newest.log)
        if named:
            table.notes.append(f"{column.header}: items of {newest.log}" + (
                f"; {len(generator_of) - len(named)} items name no generator" if len(named) < len(generator_of) else ""))
    table.rows = [Row(generator, {}, cells) for generator, cells in sorted(shares.items())]
    return table


def _allusion_tables(runs: Sequence[RunSummary]) -> list[Table]:
    if not runs:
        return []
    from figeval.benchmarks.persian_allusions.analysis import allusion_tables

    return allusion_tables([read_eval_log(run.log) for run in runs], {run.log: run.display_name for run in runs})


