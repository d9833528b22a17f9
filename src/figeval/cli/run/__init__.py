"""`figeval run`: a benchmark task on a model, with this field's defaults, ending with a summary table; or a
paper's protocol (`paper.py`) or the plan of either (`plan.py`).

This package is the command: what it reads from the command line and prints. What a run decides is the run
library's (`figeval.running`): the checks before the log is started, figeval's defaults for Inspect's options, a
paper's protocol, the dry run's plan. What Inspect prints during the run is set in `display.py`, and how the run
ends in `summary.py`.
"""

from __future__ import annotations

import os
from typing import Any

import click
from click.core import ParameterSource

from figeval._compat import PrerequisiteError, inspect_eval_options
from figeval.arguments import pairs_text, parse_pairs
from figeval.cli.run.display import progress_lines_without_terminal, quiet_inspect_output
from figeval.cli.run.summary import log_files, print_summary, successful_log
from figeval.errors import FigevalError
from figeval.models.gguf.weights import DEFAULT_MODEL
from figeval.running.launch import DEFAULTS_HELP, launch_params, prepared_task, with_judge
from figeval.running.models import check_provider, openai_name_warning
from figeval.running.options import check_config_files, check_counts, check_reducers, check_selection

# Inspect's help of the options figeval gives its own meaning or default, replaced by figeval's.
OPTIONS_HELP = DEFAULTS_HELP | {
    "model": f"The model under test, provider/name (figeval's default: {DEFAULT_MODEL}, the embedded base model).",
    "limit": "N: N samples that keep the task's design: each item with every way it is asked (a question's two "
             "framings, a pair's two versions) and every group the task reports by (categories, controls, "
             "frequency bands), in proportion, run by id (--sample-id), the rule printed and kept in the log; an N "
             "that cannot keep it is refused with the N that can (Inspect's: the first N). START-END: those "
             "samples, only for a task that asks each sample once and reports no groups.",
}


def figeval_help(command: Any) -> Any:
    """Gives Inspect's options in OPTIONS_HELP figeval's help (an option Inspect no longer has fails here, at
    import, rather than leaving its help unsaid)."""
    options = {param.name: param for param in command.__click_params__}
    for name, text in OPTIONS_HELP.items():
        options[name].help = text
    return command


@click.command(context_settings={"max_content_width": 120})
@click.argument("task_names", metavar="[TASK...]", nargs=-1)
@click.option("--paper", metavar="NAME", help="Run every task of that paper's evaluation protocol (an eval set in "
              "LOG_DIR/NAME/MODEL, or --name: a re-run asks nothing twice), then print its tables with the paper's "
              "rows; runs that need a file or judge not given are listed as skipped; --model A,B,C runs every "
              "model in one set, a row each. Papers: see `figeval list`.")
@click.option("--judge", metavar="MODEL", help="The judge of the judged tasks (the same as -T judge=MODEL).")
@click.option("-m", "model_short", default=None, hidden=True, help="Same as --model.")
@click.option("--no-cache", is_flag=True, help="Do not reuse or store model responses in Inspect's cache "
              "(figeval's default: cached, never expiring).")
@click.option("--log-realtime", is_flag=True, help="Stream each sample's events to `inspect view` while it runs "
              "(figeval's default: off, it costs about a quarter of the CPU per sample).")
@click.option("--name", "run_name", default=None, help="The run's name in reports (instead of the model's), recorded "
              "as the log's metadata display_name.")
@click.option("--baseline", metavar="MODEL", help="With --paper and several models: the paired differences are of "
              "every model against this one of them (default: every pair).")
@click.option("--dry-run", is_flag=True, help="Print what the run would ask, per task and in total: its samples, model "
              "calls (judge calls beside them; retries not counted) and prompt tokens (exact with a gguf model's "
              "own vocabulary, else estimated and labelled). No model is called or loaded, no log is written; "
              "several TASKs may be given.")
@figeval_help
@inspect_eval_options
@click.pass_context
def run(ctx: click.Context, task_names: tuple[str, ...], paper: str | None, judge: str | None,
        model_short: str | None, no_cache: bool, log_realtime: bool, run_name: str | None, baseline: str | None,
        dry_run: bool, **params: Any) -> None:
    """Run a benchmark task (TASK: see `figeval list`) and print its summary table, or with --paper NAME every task
    of a paper's protocol and its tables; with --dry-run, what the run of one or more tasks (or of a paper) would
    cost, without running it.

    Every option of `inspect eval` applies, with its environment variables (INSPECT_EVAL_MODEL, INSPECT_LOG_DIR,
    .env). An option whose default or meaning in figeval differs from Inspect's says figeval's in its help.

    --paper NAME runs the paper's protocol (`figeval list` lists the papers) as one Inspect eval set in
    LOG_DIR/NAME/MODEL (MODEL: --name, if given; several models, comma-separated: one set over every run and model,
    a row each in the tables): a task finished there is not run again, one that stopped goes on
    from its completed samples. -T NAME=VALUE goes to every run that takes it, -T TASK:NAME=VALUE to TASK's runs
    only (two tasks that each need their own file); a run whose file or judge is not given is skipped, with the
    argument that runs it.

    Inspect's own end-of-run panel is left out for the summary table; its progress display stays. Third-party
    log lines (Inspect's hook banner) show with --log-level info or lower.
    """
    import figeval._registry  # registers figeval's providers (gguf/, replay/) before check_provider
    from figeval._compat import (
        load_dotenv_as_inspect_does,
        preload_inspect_modules,
        run_inspect_eval_command,
    )
    from figeval.models.gguf import DEFAULT_MODEL
    from figeval.running.models import check_model_files

    benchmarks = figeval._registry.BENCHMARKS
    load_dotenv_as_inspect_does()  # as `inspect eval` does: a .env file's INSPECT_EVAL_MODEL, keys, log dir
    model = params["model"] or model_short or os.environ.get("INSPECT_EVAL_MODEL") or DEFAULT_MODEL
    # several models, comma-separated as `inspect eval` takes them, are one paper run's
    models = [name.strip() for name in model.split(",")]
    if len(models) > 1 and not all(models):
        raise FigevalError(f"--model {model}: a model name is empty (a comma too many); give the models "
                           "comma-separated, each once.")
    model = models[0]
    args = parse_pairs(params["t"], "-T", typed=False)
    for each in models:
        check_provider(each)
    check_counts(params)
    check_selection(params)
    check_reducers(params["epochs_reducer"])
    args = with_judge(check_config_files(params) | args, judge)  # -T overrides the file, as in `inspect eval`
    roles = params["model_role"] or ()
    if paper is not None:
        from figeval.cli.run.paper import run_paper

        if task_names:
            raise FigevalError(f"{' '.join(task_names)} and --paper {paper}: give the TASKs or the paper.")
        given = given_options(ctx, params)
        run_paper(benchmarks, paper, args, params, models, run_name, roles, given, dry_run,
                  lambda params: launch_options(given, params, model, no_cache, log_realtime), cache=not no_cache,
                  baseline=baseline)
        return
    if baseline is not None:
        raise FigevalError(f"--baseline {baseline}: a baseline is of a paper run of several models (--paper NAME "
                           "--model A,B); `figeval report --baseline` compares the runs of a folder.")
    if len(models) > 1:
        raise FigevalError(f"--model {','.join(models)}: several models run a paper's protocol together (--paper "
                           "NAME); give one model for a task.")
    if not task_names:
        raise FigevalError("give a TASK to run (`figeval list` lists them), or --paper NAME for a paper's protocol.")
    if dry_run:
        from figeval.cli.run.plan import plan_run
        from figeval.running.plan import task_settings

        settings = task_settings(benchmarks, task_names, args, roles)
        plan_run(benchmarks, [(name, given, bound) for name, (given, bound) in settings.items()], params, [model],
                 run_name)
        return
    if len(task_names) > 1:
        raise FigevalError(f"{' '.join(task_names)}: give one TASK to run (several are planned together with "
                           "--dry-run).")
    task_name = task_names[0]
    task, subset = prepared_task(benchmarks, task_name, args, params, model, run_name, roles)
    check_model_files(args, roles)
    if warning := openai_name_warning(model):
        click.echo(warning, err=True)
    preload_inspect_modules()
    quiet_inspect_output(params["log_level"])
    click.echo(f"figeval: {task_name} on {model} ({pairs_text(args, 'defaults')})")
    if subset is not None:
        click.echo(f"subset: {subset}")
    params, note = launch_options(given_options(ctx, params), params, model, no_cache, log_realtime)
    if note is not None:
        click.echo(note)
    # The task built above (Inspect would build it again from its name and -T): the same @task function and
    # arguments `inspect eval figeval/<task>` uses; the answer mode is decided per sample (answer_mode=auto).
    params |= {"tasks": (task,), "t": (), "task_config": None}
    log_dir = params["log_dir"]
    before = log_files(log_dir)
    try:
        run_inspect_eval_command(params)  # exactly `inspect eval figeval/<task>` with these options
    except PrerequisiteError as error:
        # Inspect's own "the user must fix this" error (a run config it cannot combine, a missing provider SDK):
        # one plain line, naming figeval's extra where Inspect names its own pip install.
        from figeval._compat import prerequisite_line

        raise FigevalError(prerequisite_line(str(error))) from None
    log, location = successful_log(log_dir, before)
    print_summary(benchmarks, log, location, log_dir, model, task_name)


def given_options(ctx: click.Context, params: dict[str, Any]) -> set[str]:
    """The options the user gave, on the command line or in their environment variables."""
    return {name for name in params if ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE,
                                                                          ParameterSource.ENVIRONMENT)}


def launch_options(given: set[str], params: dict[str, Any], model: str, no_cache: bool,
                   log_realtime: bool) -> tuple[dict[str, Any], str | None]:
    """Inspect's options for the run (`running.launch.launch_params`: figeval's defaults where the user gave none, a
    local server's own settings, the model) and what a local server was given; Inspect's output set for it
    (`display.py`)."""
    if log_realtime:
        params, given = params | {"no_log_realtime": False}, given | {"no_log_realtime"}
    params, note = launch_params(params, model, given, cache=not no_cache)
    progress_lines_without_terminal(given)
    return params, note
