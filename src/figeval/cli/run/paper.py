"""`figeval run --paper NAME`: every run of a paper's evaluation protocol on one model, through Inspect's eval-set
(`figeval.running.protocol` routes the arguments, `figeval.running.paper` builds and runs the set), then that
paper's tables with its published rows beside the model's.

The tables printed are of this command's runs only: logs of other settings in the set's folder (another judge,
temperature or `-M`) stay there.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any

import click

from figeval.benchmark import Benchmark
from figeval.errors import FigevalError
from figeval.running.paper import without_model_settings
from figeval.running.protocol import PaperRun, SkippedRun, set_task_ids
from figeval.terminal import hanging


def run_paper(benchmarks: Sequence[Benchmark], paper: str, args: dict[str, Any], params: dict[str, Any],
              models: Sequence[str], run_name: str | None, roles: tuple[str, ...], given: Collection[str],
              dry_run: bool, launch_options: Callable[[dict[str, Any]], tuple[dict[str, Any], str | None]],
              cache: bool = True,
              baseline: str | None = None) -> None:
    """`--paper NAME`: the protocol's runs built and checked as single runs are, before any model is asked, then
    planned (`--dry-run`) or run as one eval set; with several models, one set over every (run, model) pair, each
    model with its own settings (`running.paper.several_models_tasks`).

    Args:
        launch_options: Inspect's options for the set from the run's (the command's defaults applied), and what a
            local server was given.
        baseline: one of `models`, the others' paired differences taken against it.
    """
    from figeval._compat import preload_inspect_modules
    from figeval.cli.run.display import quiet_inspect_output
    from figeval.running.models import openai_name_warning
    from figeval.running.paper import paper_setup, prepare_tasks, run_set, several_models_tasks
    from figeval.running.protocol import paper_benchmark, set_folder, set_name

    benchmark = paper_benchmark(paper, benchmarks)
    if len(models) > 1 and run_name is not None:
        raise FigevalError(f"--name {run_name}: a run of several models is named by its models; run each model in "
                           "turn to give it a name.")
    if len(set(models)) < len(models):
        raise FigevalError(f"--model {','.join(models)}: a model is given twice; give each once.")
    if baseline is not None and (len(models) < 2 or baseline not in models):
        raise FigevalError(f"--baseline {baseline}: not one of the models run (--model {','.join(models)}); give "
                           "one of several models, as --model gives it.")
    runs, skipped, params, notes = paper_setup(benchmark, args, roles, params, given)
    for line in notes:
        click.echo(line)
    if dry_run:
        from figeval.cli.run.plan import plan_run

        # what is left: a sample a log of this set already answered is not asked again
        plan_run(benchmarks, [(run.task, run.args, run.roles) for run in runs], params, models, run_name,
                 set_folder(params["log_dir"], benchmark.name, set_name(run_name, models)))
        for skip in skipped:
            click.echo(skip.line())
        return
    servers: dict[str, str] = {}
    if len(models) > 1:
        tasks, ids, servers = several_models_tasks(benchmarks, runs, params, models, given, cache)
    else:
        tasks, ids = prepare_tasks(benchmarks, runs, params, models[0], run_name)
    for model in models:
        if warning := openai_name_warning(model):
            click.echo(warning, err=True)
    log_dir = params["log_dir"]
    # prepare_tasks has refused an empty --name
    folder = set_folder(log_dir, benchmark.name, set_name(run_name, models))
    preload_inspect_modules()
    quiet_inspect_output(params["log_level"])
    print_runs(benchmark, ", ".join(models), runs, skipped, folder)
    set_params, note = launch_options(params)
    if len(models) > 1:
        set_params = without_model_settings(set_params)
        for model in models:  # each model says what its local server was given (`several_models_tasks`)
            if model in servers:
                click.echo(f"{model}: {servers[model]}")
    elif note is not None:
        click.echo(note)
    finished = run_set(set_params, tasks, folder, ids)
    print_outcome(benchmark, folder, log_dir, skipped, finished, ["figeval", *sys.argv[1:]], several=len(models) > 1,
                  baseline=baseline)


def print_runs(benchmark: Benchmark, model: str, runs: Sequence[PaperRun], skipped: Sequence[SkippedRun],
               folder: str) -> None:
    click.echo(f"figeval: {benchmark.title}'s protocol on {model}, {len(runs)} run{'s' if len(runs) != 1 else ''} "
               f"logged in {folder}")
    for run in runs:
        click.echo(hanging(f"  {run.describe()}"))
    for skip in skipped:
        click.echo(hanging(f"  {skip.line()}"))


def print_outcome(benchmark: Benchmark, folder: str, log_dir: str, skipped: Sequence[SkippedRun],
                  finished: bool, command: Sequence[str], several: bool = False, baseline: str | None = None) -> None:
    """The paper's tables over the set's runs with its published rows (with `several` models, their paired
    differences, against `baseline` if given, and the leaderboard after them), what was skipped, and where the logs
    are; for a set that did not finish, the runs that did not and the command that goes on with them.

    Raises:
        FigevalError: some run did not finish (after the tables of those that did).
    """
    from inspect_ai.log import read_eval_log

    from figeval.cli.run.summary import cache_line, report_command
    from figeval.reporting.render import text_table
    from figeval.results.report import found_runs, report_of

    ids = set_task_ids(folder)  # this command's runs, not those of other settings in the folder
    # the set's logs read once, for the paper's tables and the leaderboard alike
    found = found_runs(Path(folder), [benchmark], benchmark.task_names(), keep=lambda log: log.eval.task_id in ids)
    result = report_of(found, [benchmark], tasks=benchmark.task_names(), paper=True, baseline=baseline)
    if result.runs:
        # the tables alone: the runs they rest on are the set's logs, said below
        click.echo("\n" + "\n\n".join(text_table(table) for table in result.tables) + "\n")
        if several:
            [board] = report_of(found, [benchmark], tasks=benchmark.task_names(), leaderboard=True).tables[:1]
            click.echo("\n" + text_table(board))
        # with a terminal, Inspect's live display (not figeval's progress lines) showed the run: said here
        click.echo(cache_line(*(read_eval_log(run.log) for run in result.runs)))
    for run in skipped:
        click.echo(hanging(run.line()))
    click.echo(f"logs: {folder} (view with `{shlex.join(['inspect', 'view', '--log-dir', folder])}`)")
    click.echo(f"report: `{report_command(log_dir)}` (tables and figures of every run in {log_dir})")
    if not finished:
        listed = "; ".join(sorted({_unfinished(run, several) for run in result.not_successful})) or "some runs"
        raise FigevalError(f"did not finish: {listed} | their completed samples are kept in {folder}; run "
                           f"`{shlex.join(command)}` again to go on from them.")


def _unfinished(run: Any, several: bool) -> str:
    """A run that did not finish (with `several` models, on which), with its status and the error its log
    records."""
    from inspect_ai.log import read_eval_log

    from figeval.cli.run.summary import error_reason

    log = read_eval_log(run.log, header_only=True)
    on = f" on {log.eval.model}" if several else ""
    return f"{run.task}{on} ({run.status}{f': {error_reason(log)}' if log.error else ''})"
