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
    """The lines a successful run ends with: its summary table, a warning when a local server echoed the prompts
    back as answers, the log's place and the command that reports every run in `log_dir`."""
    from figeval.models.echo import answers_of_log, echo_warning
    from figeval.results.runs import summarize
    from figeval.results.summary import format_table
    from figeval.running.tasks import takes_answer_mode

    click.echo("\n" + format_table(summarize(log)))
    if echoed := echo_warning(answers_of_log(log), model, takes_answer_mode(benchmarks, task_name)):
        click.echo(echoed, err=True)
    click.echo(f"log: {location} (view with `{shlex.join(['inspect', 'view', '--log-dir', log_dir])}`)")
    click.echo(f"report: `{report_command(log_dir)}` (tables and figures of every run in {log_dir})")
