"""How `figeval run` ends: the log the run wrote, then figeval's summary table, any warning about echoed answers,
where the log is and the `figeval report` command; for a run that did not succeed, one line saying why, where
its completed samples are and the `inspect eval-retry` command that resumes it."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from figeval.benchmark import Benchmark
from figeval.errors import FigevalError


def log_files(log_dir: str) -> set[str]:
    from inspect_ai.log import list_eval_logs

    return {info.name for info in list_eval_logs(log_dir, recursive=False)} if Path(log_dir).is_dir() else set()


def successful_log(log_dir: str, before: set[str]) -> tuple[Any, str]:
    """The log the run wrote in `log_dir` (the newest of the files not among `before`, the log files there before
    the run) and where it is.

    Raises:
        FigevalError: no log was written, or the run did not succeed (`unfinished_run_message`).
    """
    from inspect_ai.log import read_eval_log

    from figeval.results.logs import newest_log

    written = sorted(log_files(log_dir) - before)
    if not written:
        raise FigevalError("run interrupted before its log was written; nothing to resume in "
                           f"{newest_log(Path(log_dir))}.")
    log = read_eval_log(written[-1])
    location = written[-1].removeprefix("file://")
    if log.status != "success":
        raise FigevalError(unfinished_run_message(log, location, log_dir))
    return log, location


def unfinished_run_message(log: Any, location: str, log_dir: str) -> str:
    """The one line for a run that did not succeed: why (when Inspect recorded an error), where its completed
    samples are, and the command that resumes it."""
    reason = f": {error_reason(log)}" if log.error else ""
    return (f"run {log.status}{reason} | completed samples are kept in {location}; resume with "
            f"`{shlex.join(['inspect', 'eval-retry', '--log-dir', log_dir, location])}`.")


def error_reason(log: Any) -> str:
    """The last line of the error a log records, as its exception's message: Inspect records an exception as its
    repr (`FigevalError("replay file r.jsonl has no output ...")`)."""
    last = log.error.message.strip().splitlines()[-1]
    return re.sub(r"^\w*Error\((['\"])(.*)\1\)$", r"\2", last)


def report_command(log_dir: str) -> str:
    return shlex.join(["figeval", "report", log_dir])


def print_summary(benchmarks: Sequence[Benchmark], log: Any, location: str, log_dir: str, model: str,
                  task_name: str) -> None:
    """The lines a successful run ends with: its summary table (`summary_table`), how many answers came from the
    response cache, a warning when a local server echoed the prompts back as answers, the log's place and the
    command that reports every run in `log_dir`."""
    from figeval.models.echo import answers_of_log, echo_warning
    from figeval.results.runs import summarize
    from figeval.running.tasks import takes_answer_mode

    click.echo("\n" + summary_table(benchmarks, summarize(log)))
    click.echo(cache_line(log))
    if echoed := echo_warning(answers_of_log(log), model, takes_answer_mode(benchmarks, task_name)):
        click.echo(echoed, err=True)
    click.echo(f"log: {location} (view with `{shlex.join(['inspect', 'view', '--log-dir', log_dir])}`)")
    click.echo(f"report: `{report_command(log_dir)}` (tables and figures of every run in {log_dir})")


def cache_line(*logs: Any) -> str:
    """How many of the runs' answers Inspect's response cache gave, as their logs' model events record it
    (`figeval.progress.CacheCount`); when it gave them all, that no model was asked."""
    from figeval.progress import CacheCount

    count = CacheCount()
    for log in logs:
        for sample in log.samples or []:
            count.add(sample.events)
    every = count.answers and count.cached == count.answers
    return count.text() + (": no model was asked (`--no-cache` asks again)" if every else "")


# What a table's unit says of its values, in the summary's words.
UNIT_WORDS = {"percent": "in percent", "fraction": "as fractions (0 to 1)", "count": "as counts"}
DIRECTION_WORDS = {"higher": "higher is better", "lower": "lower is better", "": ""}
LEGEND = "[ ]: 95% interval, n: answers counted, *: figeval's column, not the paper's; every metric: `inspect view`"


def summary_table(benchmarks: Sequence[Benchmark], run: Any) -> str:
    """The run's summary table with its numbers as its benchmark reports them (`reported_rows`) and what the
    brackets and marks mean; every metric under its own name for a task whose benchmark declares no table of it."""
    from figeval.results.summary import format_table

    reported = reported_rows(benchmarks, run)
    table = format_table(run, reported)
    if reported is None:
        return table
    # the legend goes under the table's last rule, before how the answers were read
    lines = table.splitlines()
    last = max(index for index, line in enumerate(lines) if line == lines[0])
    return "\n".join([*lines[:last + 1], LEGEND, *lines[last + 1:]])


def reported_rows(benchmarks: Sequence[Benchmark], run: Any) -> list[tuple[str, str]] | None:
    """The run's numbers as its benchmark's tables show them: under each table that has a column of the run (its
    task, and the settings the column needs), in the benchmark's order, the table's source and title and its unit
    in words, then one line per column: its header (`*` on figeval's own), the value in the table's unit with its
    95% interval (`RunSummary.interval`) and n, the direction that is better, whether its labels are a judge's where
    the paper's are people's, and whether it is the task's headline. A metric shown under one table is not
    repeated under another; a table with its own build (a best model per family, an analysis across tasks) is left
    to `figeval report`. None when no table has a column of the run."""
    from figeval.reporting.cells import number
    from figeval.results.tables import build_table
    from figeval.stats import FEW_ITEMS, bootstrap_trusted

    rows: list[tuple[str, str]] = []
    shown: set[tuple[str, bool]] = set()
    for benchmark in benchmarks:
        headlines = {(column.task, column.metric, tuple(sorted(column.where.items())))
                     for column in benchmark.headlines}
        for spec in benchmark.tables:
            if spec.build is not None or run.task not in spec.tasks:
                continue
            built = build_table(spec, [run])
            cells = built.rows[0].cells if built.rows else {}
            lines = []
            for column in spec.columns:
                cell = cells.get(column.key)
                number_of = (column.metric, column.complement)
                if cell is None or not isinstance(cell.value, int | float) or number_of in shown:
                    continue
                shown.add(number_of)
                value = number(cell.value, spec.unit)
                if cell.low is not None and cell.high is not None:
                    value += f" [{number(cell.low, spec.unit)}, {number(cell.high, spec.unit)}]"
                few = cell.low is None and cell.n is not None and run.is_item_mean(column.metric) \
                    and not bootstrap_trusted(cell.n)
                if cell.n is not None:
                    value += f" (n={cell.n}{f'; {FEW_ITEMS}' if few else ''})"
                said = [DIRECTION_WORDS[column.better]] * bool(column.better)
                if column.human_label:  # as the report's "labelled by" row setting says
                    said.append("the judge's labels (the paper's are people's)")
                if (column.task, column.metric, tuple(sorted(column.where.items()))) in headlines \
                        and not column.complement:
                    said.append("the task's headline")
                lines.append((f"  {column.header}{' *' if column.ours else ''}", ", ".join([value, *said])))
            if lines:
                rows += [(f"{spec.paper} {spec.source}".strip(), f"{spec.title}, {UNIT_WORDS[spec.unit]}"), *lines]
    return rows or None
