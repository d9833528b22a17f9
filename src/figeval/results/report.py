"""`figeval report`: the papers' tables (or a leaderboard) from the runs in a log directory, with the papers' own
numbers as reference rows on request, the runs used, the runs replaced by newer ones with the same settings, and
the runs that did not finish."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from inspect_ai.log import EvalLog

from figeval.benchmark import Benchmark
from figeval.errors import FigevalError
from figeval.results.agreement import agreement_tables
from figeval.results.comparison import ScoreCache, comparison_table, comparisons, mark_ties
from figeval.results.paper import other_data_note, paper_notes, printed_precision, reference_rows, text_numbers
from figeval.results.labelled import LabelledAnswers, read_labelled
from figeval.results.logs import read_runs
from figeval.results.people import people_of
from figeval.results.rows import shared_settings
from figeval.results.runs import RunSummary, Superseded, newest_runs
from figeval.results.summary import READ_LAYERS, unread_warning
from figeval.table_model import JUDGE_UNPARSED_RATE, Cell, ColumnHead, Row, Table, TableContext, TableSpec
from figeval.results.tables import build_table, metric_cell


@dataclass
class Report:
    tables: list[Table]
    runs: list[RunSummary]
    """The runs the tables read (per task, model and settings the newest complete run, else the newest subset)."""
    superseded: list[Superseded] = field(default_factory=list)
    """The other runs with the same task, model and settings: older ones, and subsets beside a complete run."""
    not_successful: list[RunSummary] = field(default_factory=list)


@dataclass(frozen=True)
class FoundRuns:
    """The runs a report reads, as `newest_runs` picks them, and those it lists without reading."""

    runs: list[RunSummary]
    superseded: list[Superseded]
    not_successful: list[RunSummary]


def found_runs(log_dir: Path, benchmarks: Sequence[Benchmark], tasks: Sequence[str] = (),
               note: Callable[[str], None] = lambda _: None,
               keep: Callable[[EvalLog], bool] | None = None) -> FoundRuns:
    """A log directory's runs (of `tasks` only, when given), every log checked as it is read: a file that is not a
    log, or a log figeval cannot read, is refused before any table is built; `note` is told of a run found twice (a
    copy, counted once); `keep`, when given, says which logs' runs to read (by header).

    Raises:
        FigevalError: the directory does not exist, a task name is unknown, or a log is refused (`read_runs`).
    """
    if log_dir.exists() and not log_dir.is_dir():
        # a log file (.eval, or a run's .json) or any other file: the folder that holds the logs is what is read
        raise FigevalError(f"no log directory at '{log_dir}': it is a file; give the folder `figeval run --log-dir` "
                           f"wrote to (default: logs; for a log file, the folder it is in: '{log_dir.parent}'); "
                           "nothing was written.")
    if not log_dir.is_dir():
        raise FigevalError(f"no log directory at '{log_dir}'; give the folder a run wrote to (`figeval run "
                           "--log-dir`, default: logs).")
    known = [name for benchmark in benchmarks for name in benchmark.task_names()]
    unknown = sorted(set(tasks) - set(known))
    if unknown:
        raise FigevalError(f"unknown task {', '.join(unknown)} in --task; known tasks: {', '.join(sorted(known))}.")
    done, other = read_runs(log_dir, note, keep)
    if tasks:
        done, other = [r for r in done if r.task in tasks], [r for r in other if r.task in tasks]
    runs, superseded = newest_runs(done)
    return FoundRuns(runs, superseded, other)


def build_report(log_dir: Path, benchmarks: Sequence[Benchmark], tasks: Sequence[str] = (), paper: bool = False,
                 leaderboard: bool = False, human: Sequence[Path] = (), families: Mapping[str, str] | None = None,
                 baseline: str | None = None, note: Callable[[str], None] = lambda _: None,
                 keep: Callable[[EvalLog], bool] | None = None, refuse_empty: bool = False) -> Report:
    """The report over a log directory's runs (`found_runs`) with the tables `benchmarks` declare; with `human`
    label files (from `figeval annotate import`), read with the runs whose answers they label before any table,
    the judge-vs-people and annotator agreement tables of their tasks (`report_of`).

    Raises:
        FigevalError: as `found_runs` and `report_of` do; with `refuse_empty`, no finished run was found.
    """
    found = found_runs(log_dir, benchmarks, tasks, note, keep)
    labelled = read_labelled(human, found.runs, benchmarks) if not leaderboard else []
    if refuse_empty and not found.runs:
        raise FigevalError(nothing_to_report(log_dir, found.not_successful, tasks))
    return report_of(found, benchmarks, labelled, tasks, paper=paper, leaderboard=leaderboard, families=families,
                     baseline=baseline)


def nothing_to_report(log_dir: Path, unfinished: Sequence[RunSummary], tasks: Sequence[str]) -> str:
    """Why a report would be empty, and what to do, in one line."""
    of_tasks = f" of {', '.join(tasks)}" if tasks else ""
    if not unfinished:
        return (f"no Inspect logs{of_tasks} in {log_dir}; give the folder `figeval run` wrote to (its --log-dir, "
                "default: logs); nothing was written.")
    listed = "; ".join(f"{run.task} on {run.model} ({run.status}): {run.log.removeprefix('file://')}"
                       for run in unfinished[:3])
    more = f"; and {len(unfinished) - 3} more" if len(unfinished) > 3 else ""
    return (f"no finished run{of_tasks} in {log_dir}, only {len(unfinished)} that did not finish: {listed}{more}. "
            "Finish one with `inspect eval-retry LOG` (the samples it completed are kept); nothing was written.")


def report_of(found: FoundRuns, benchmarks: Sequence[Benchmark], labelled: Sequence[LabelledAnswers] = (),
              tasks: Sequence[str] = (), paper: bool = False, leaderboard: bool = False,
              families: Mapping[str, str] | None = None, baseline: str | None = None) -> Report:
    """The tables over runs already read: `benchmarks`' own tables, with the people's rows and agreement tables of
    `labelled`; `families` names the family of models a table grouped by family does not know ({model: family}).
    Where runs of several models share a task and its settings, their paired differences in each headline
    (`figeval.results.comparison`): every model against `baseline` (a model as the report names it), or every
    pair; in the leaderboard, a mark where a model is not significantly apart from the row above.

    Raises:
        FigevalError: no run is of the baseline model.
    """
    # what the benchmarks declare, gathered before the runs are looked at
    headlines = tuple(column for benchmark in benchmarks for column in benchmark.headlines)
    tasks_of = {benchmark.name: set(benchmark.task_names()) for benchmark in benchmarks}
    benchmark_of = {task: name for name, names in tasks_of.items() for task in names}
    contexts = {benchmark.name: TableContext(paper, benchmark.numbers(), families or {}) for benchmark in benchmarks}
    runs = found.runs
    present = {run.task for run in runs}
    if baseline is not None:
        baseline = baseline_name(baseline, runs)
    scores = ScoreCache()
    if leaderboard:
        spec = TableSpec("leaderboard", "", "", "Leaderboard: each task's headline metric (percent)", "percent",
                         tuple(c for c in headlines if c.task in present or not tasks), (), intervals=True)
        # one benchmark's settings are never compared with another's (each paper's prompt_lang is its own)
        tables = [mark_ties(build_table(spec, runs, lambda task: benchmark_of.get(task, "")), runs, spec.columns,
                            scores)]
    else:
        tables = []
        for benchmark in benchmarks:
            tables += benchmark_tables(benchmark, runs, present, contexts[benchmark.name], labelled)
        for labels in labelled:
            tables += agreement_tables(labels, paper)
        shown = [line for name, context in contexts.items() if present & tasks_of[name] for line in context.numbers]
        if paper and (table := text_numbers(shown)) is not None:
            tables.append(table)
        compared, not_compared = comparisons(runs, headlines, baseline, scores)
        if compared or (baseline is not None and not_compared):
            tables.append(comparison_table(compared, not_compared))
    if (table := reading_table(runs)).rows:
        tables.append(table)
    return Report(tables, runs, found.superseded, found.not_successful)


def baseline_name(baseline: str, runs: Sequence[RunSummary]) -> str:
    """The baseline model as the report names it, given so or as its runs record it (`openai-api/lab/m`).

    Raises:
        FigevalError: no run is of that model, or its runs are named two ways (runs given two --name).
    """
    if baseline in {run.display_name for run in runs}:
        return baseline
    named = sorted({run.display_name for run in runs if run.model == baseline})
    if len(named) == 1:
        return named[0]
    if named:
        raise FigevalError(f"--baseline {baseline}: its runs are named {' and '.join(named)}; give one of those.")
    raise FigevalError(f"--baseline {baseline}: no run of that model; the models, as the report names them: "
                       f"{', '.join(sorted({run.display_name for run in runs}))}.")


def benchmark_tables(benchmark: Benchmark, runs: Sequence[RunSummary], present: set[str],
                     context: TableContext, people: Sequence[LabelledAnswers] = ()) -> list[Table]:
    """The benchmark's tables that the runs' tasks (`present`) fill, in its order, each column in the unit and at
    the precision the paper prints it (`printed_precision`), with the rows of `people`'s labels where the paper's
    columns are people's (`figeval.results.people`); with the papers' numbers asked for, each with the paper's
    rows and its notes on itself."""
    tables = []
    for spec in benchmark.tables:
        if not spec.tasks & present:
            continue
        for table in spec.build(spec, runs, context) if spec.build else [build_table(spec, runs)]:
            if table.key == spec.key:
                printed_precision(context.numbers, spec.source, table)
                people_of(table, spec, runs, people)
            if context.paper and table.key == spec.key:
                if other := other_data_note(table):
                    table.notes.append(other)
                table.rows += reference_rows(context.numbers, spec, table)
                table.notes += paper_notes(benchmark.inconsistencies(), spec.source)
            tables.append(table)
    return tables


def reading_table(runs: Sequence[RunSummary]) -> Table:
    """How each run's answers were read: the share each layer read, and the unread ones (with the commands that
    resolve them when over the limit), over every answer of the run (`read/n`); for judged runs, the share whose
    judge answer was unreadable, so that a leaderboard's judged headline (which leaves those answers out) is never
    read without it. A row per run, its settings shown where they tell two runs apart."""
    layers = [layer for layer in READ_LAYERS if any(f"read/{layer}" in run.metrics for run in runs)]
    judged = any(JUDGE_UNPARSED_RATE in run.metrics for run in runs)
    table = Table("reading", "How the answers were read (share of answers; figeval's reading layers)", "figeval",
                  "percent", [ColumnHead("task", "Task")] + [ColumnHead(layer, READ_LAYERS[layer]) for layer in layers]
                  + [ColumnHead("truncated", "truncated", ours=True)]
                  + ([ColumnHead("judge_unreadable", "judge unreadable", ours=True)] if judged else []))
    for run in runs:
        if not any(f"read/{layer}" in run.metrics for layer in layers):
            continue
        n = int(run.metrics.get("read/n", run.samples))
        cells = {layer: Cell(run.metrics[f"read/{layer}"], n=n, log=run.log)
                 for layer in layers if f"read/{layer}" in run.metrics}
        cells["task"] = Cell(run.task)
        if "truncated_rate" in run.metrics:
            cells["truncated"] = Cell(run.metrics["truncated_rate"], n=int(run.metrics.get("truncated_rate/n", n)),
                                      log=run.log)
        if (judge := metric_cell(run, JUDGE_UNPARSED_RATE)) is not None:
            cells["judge_unreadable"] = replace(judge, samples=None)
        table.rows.append(Row(run.display_name, dict(run.identity or {}), cells))
        if (warning := unread_warning(run)) is not None:
            table.notes.append(f"{run.task} on {run.display_name}: {warning}")
    names = list(dict.fromkeys(key for row in table.rows for key in row.identity))
    table.identity_keys = [key for key in names if _tells_apart(table.rows, key)]
    table.shared = shared_settings(table.rows, table.identity_keys)
    return table


def _tells_apart(rows: Sequence[Row], key: str) -> bool:
    """Whether two rows of one model and task differ in the setting (the rows of other tasks have settings of
    their own: a setting shown only where it tells a model's runs of one task apart)."""
    seen: dict[tuple, set] = {}
    for row in rows:
        seen.setdefault((row.label, row.cells["task"].value), set()).add(row.identity.get(key))
    return any(len(values) > 1 for values in seen.values())
