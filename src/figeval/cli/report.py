"""`figeval report`: the results of the runs in a log directory."""

from __future__ import annotations

import json
from pathlib import Path

import click

from figeval.errors import FigevalError


@click.command()
@click.argument("log_dir", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help='Print {"runs": [...]} instead of tables.')
def report(log_dir: Path, as_json: bool) -> None:
    """Print one table per task and model for the successful runs in LOG_DIR (and, for Persian allusion runs,
    the MC-minus-open gap and the knowledge x recognition tables)."""
    from inspect_ai.log import read_eval_log

    from figeval.benchmarks.persian_allusions.analysis import TASKS as ALLUSION_TASKS
    from figeval.benchmarks.persian_allusions.analysis import allusion_report
    from figeval.report import format_table, read_runs

    if not log_dir.is_dir():
        raise FigevalError(f"no log directory at '{log_dir}'; pass the --log-dir a run wrote to (default: logs).")
    runs, skipped = read_runs(log_dir)
    if as_json:
        click.echo(json.dumps({"runs": [run.as_json() for run in runs]}, ensure_ascii=False, indent=2))
    else:
        for run_summary in runs:
            click.echo(format_table(run_summary))
            click.echo(f"log: {run_summary.log}\n")
        allusion_logs = [read_eval_log(run.log) for run in runs if run.task in ALLUSION_TASKS]
        for line in allusion_report(allusion_logs):
            click.echo(line)
    if not runs:
        click.echo(f"no successful runs in {log_dir}", err=True)
    if skipped:
        click.echo(f"skipped {skipped} unfinished or failed log(s) in {log_dir}", err=True)
