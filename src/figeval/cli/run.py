"""`figeval run`: a benchmark task on a model, with this field's defaults, ending with a summary table.

This module is the command and the defaults it adds to `inspect eval`'s options; the checks before the log is
started are in `run_options.py` (Inspect's options) and `run_models.py` (the models and roles), what Inspect
prints during the run in `run_display.py`, and how the run ends in `run_summary.py`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import click
from click.core import ParameterSource
from inspect_ai.model import CachePolicy

from figeval._compat import PrerequisiteError, inspect_eval_options
from figeval.arguments import pairs_text, parse_pairs
from figeval.cli.run_display import progress_lines_without_terminal, quiet_inspect_output
from figeval.cli.run_models import (
    check_judge_given,
    check_manual_labels,
    check_other_models,
    check_provider,
    check_roles,
    openai_name_warning,
)
from figeval.cli.run_options import (
    apply_display_name,
    apply_subset,
    check_config_files,
    check_counts,
    check_limit_in_dataset,
    check_reducers,
    check_sample_ids,
    check_selection,
)
from figeval.cli.run_summary import log_files, print_summary, successful_log
from figeval.errors import FigevalError
from figeval.providers import provider_of


# A sample whose model call failed (a dropped connection, an empty or malformed response the provider could not
# parse) is asked again this many times before it counts as an error; Inspect's default, 0, ends a long API run
# at the first such response.
RETRY_ON_ERROR = 3
# Seconds one request may take before it is abandoned and retried (Inspect waits 600 s by default); API models
# only: an in-process model has no connection to hang.
REQUEST_TIMEOUT_S = 120
# Retries of one request (with Inspect's backoff) before its sample fails; Inspect's default is unlimited, so a
# server that has stopped would be retried for ever. API models only.
MAX_RETRIES = 10


def eval_options(model: str, cache: bool = True) -> dict[str, Any]:
    """The Inspect eval settings `figeval run` adds for a model (also used by perf/ to measure the same thing)."""
    from figeval.answering import response_cache

    options: dict[str, Any] = {
        "cache": response_cache(model, enabled=cache),
        # Live streaming of every sample's events to the viewer is Inspect's largest per-sample cost on 2 cores,
        # for API and in-process models alike (perf/api_throughput.py measures it). Finished samples are still
        # written to the log every few samples (Inspect's log_buffer) for eval-retry, and any a crash kept from the
        # log are answered again from the response cache, not paid for again. `--log-realtime` turns it back on.
        "log_realtime": False,
        "retry_on_error": RETRY_ON_ERROR,
    }
    if not provider_of(model).in_process:
        options |= {"attempt_timeout": REQUEST_TIMEOUT_S, "max_retries": MAX_RETRIES}
    return options


def cli_defaults(model: str, cache: bool) -> dict[str, Any]:
    """`eval_options` as the values of `inspect eval`'s own command-line parameters."""
    params: dict[str, Any] = {}
    for name, value in eval_options(model, cache).items():
        if name == "cache":
            params["cache"] = value.expiry if isinstance(value, CachePolicy) else None
        elif name == "log_realtime":
            params["no_log_realtime"] = not value
        else:
            params[name] = value
    return params


@click.command(context_settings={"max_content_width": 120})
@click.argument("task_names", metavar="[TASK...]", nargs=-1)
@click.option("--paper", metavar="NAME", help="Run every task of that paper's evaluation protocol (an eval set in "
              "LOG_DIR/NAME/MODEL, or --name: a re-run asks nothing twice), then print its tables with the paper's "
              "rows; runs that need a file or judge not given are listed as skipped. Papers: see `figeval list`.")
@click.option("--judge", metavar="MODEL", help="The judge of the judged tasks (the same as -T judge=MODEL).")
@click.option("-m", "model_short", default=None, hidden=True, help="Same as --model.")
@click.option("--no-cache", is_flag=True, help="Do not reuse or store model responses in Inspect's cache "
              "(figeval's default: cached, never expiring).")
@click.option("--log-realtime", is_flag=True, help="Stream each sample's events to `inspect view` while it runs "
              "(figeval's default: off, it costs about a quarter of the CPU per sample).")
@click.option("--name", "run_name", default=None, help="The run's name in reports (instead of the model's), recorded "
              "as the log's metadata display_name.")
@click.option("--dry-run", is_flag=True, help="Print what the run would ask, per task and in total: its samples, model "
              "calls (judge calls beside them; retries not counted) and prompt tokens (exact with a gguf model's "
              "own vocabulary, else estimated and labelled). No model is called or loaded, no log is written; "
              "several TASKs may be given.")
@inspect_eval_options
@click.pass_context
def run(ctx: click.Context, task_names: tuple[str, ...], paper: str | None, judge: str | None,
        model_short: str | None, no_cache: bool, log_realtime: bool, run_name: str | None, dry_run: bool,
        **params: Any) -> None:
    """Run a benchmark task (TASK: see `figeval list`) and print its summary table, or with --paper NAME every task
    of a paper's protocol and its tables; with --dry-run, what the run of one or more tasks (or of a paper) would
    cost, without running it.

    Every option of `inspect eval` applies, with its environment variables (INSPECT_EVAL_MODEL, INSPECT_LOG_DIR,
    .env). figeval's defaults, where the option is not given: the embedded model gguf/gemma-3-270m; the response
    cache on and never expiring; 3 retries of a failed sample; API requests abandoned and retried after 120 s,
    at most 10 times (an OpenAI-compatible server on this machine or network: as many requests at once as it runs,
    read from llama-server's /props, never abandoned, at most 5 retries);
    no live sample streaming (finished samples are written to the log every few samples).

    --limit N keeps the task's design: each item with every way it is asked (a question's two framings, a pair's
    two versions) and every group the task reports by (categories, controls, frequency bands), in proportion; the
    samples chosen are run by id (--sample-id) and the rule is printed and kept in the log. An N that cannot keep
    it is refused with the N that can. START-END applies only to tasks that ask each sample once and report no
    groups.

    --paper NAME runs the paper's protocol (`figeval list` lists the papers) as one Inspect eval set in
    LOG_DIR/NAME/MODEL (MODEL: --name, if given): a task finished there is not run again, one that stopped goes on
    from its completed samples. -T NAME=VALUE goes to every run that takes it, -T TASK:NAME=VALUE to TASK's runs
    only (two tasks that each need their own file); a run whose file or judge is not given is skipped, with the
    argument that runs it.

    Inspect's own end-of-run panel is left out for the summary table; its progress display stays. Third-party
    log lines (Inspect's hook banner) show with --log-level info or lower.
    """
    import figeval._registry  # noqa: F401  registers figeval's providers (gguf/, replay/) before check_provider
    from figeval._compat import load_dotenv_as_inspect_does, preload_inspect_modules, run_inspect_eval_command
    from figeval.models.gguf import DEFAULT_MODEL

    load_dotenv_as_inspect_does()  # as `inspect eval` does: a .env file's INSPECT_EVAL_MODEL, keys, log dir
    model = params["model"] or model_short or os.environ.get("INSPECT_EVAL_MODEL") or DEFAULT_MODEL
    args = parse_pairs(params["t"], "-T", typed=False)
    check_provider(model)
    check_counts(params)
    check_selection(params)
    check_reducers(params["epochs_reducer"])
    args = with_judge(check_config_files(params) | args, judge)  # -T overrides the file, as in `inspect eval`
    roles = params["model_role"] or ()
    if paper is not None:
        if task_names:
            raise FigevalError(f"{' '.join(task_names)} and --paper {paper}: give the TASKs or the paper.")
        run_paper(ctx, paper, args, params, model, run_name, roles, dry_run, no_cache, log_realtime)
        return
    if not task_names:
        raise FigevalError("give a TASK to run (`figeval list` lists them), or --paper NAME for a paper's protocol.")
    if dry_run:
        from figeval.cli.run_plan import task_settings

        settings = task_settings(task_names, args, roles)
        plan_run([(name, given, bound) for name, (given, bound) in settings.items()], params, model, run_name)
        return
    if len(task_names) > 1:
        raise FigevalError(f"{' '.join(task_names)}: give one TASK to run (several are planned together with "
                           "--dry-run).")
    task_name = task_names[0]
    task, subset = prepared_task(task_name, args, params, model, run_name, roles)
    if warning := openai_name_warning(model):
        click.echo(warning, err=True)
    preload_inspect_modules()
    quiet_inspect_output(params["log_level"])
    click.echo(f"figeval: {task_name} on {model} ({pairs_text(args, 'defaults')})")
    if subset is not None:
        click.echo(f"subset: {subset}")
    params = launch_options(ctx, params, model, no_cache, log_realtime)
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
    print_summary(log, location, log_dir, model, task_name)


def with_judge(args: dict[str, Any], judge: str | None) -> dict[str, Any]:
    """`--judge MODEL` as the task argument it stands for.

    Raises:
        FigevalError: `--judge` beside a different `-T judge=`.
    """
    if judge is None:
        return args
    if args.get("judge", judge) != judge:
        raise FigevalError(f"--judge {judge} and -T judge={args['judge']}: give the judge once.")
    return args | {"judge": judge}


def given_options(ctx: click.Context, params: dict[str, Any]) -> set[str]:
    """The options the user gave, on the command line or in their environment variables."""
    return {name for name in params if ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE,
                                                                          ParameterSource.ENVIRONMENT)}


def launch_options(ctx: click.Context, params: dict[str, Any], model: str, no_cache: bool,
                   log_realtime: bool) -> dict[str, Any]:
    """Inspect's options for the run: figeval's defaults where the user gave none (`cli_defaults`), a local
    server's own settings, the model; Inspect's output set for it (`run_display.py`)."""
    from figeval.models.local_server import OPTIONS as LOCAL_OPTIONS
    from figeval.models.local_server import local_server_settings

    given = given_options(ctx, params)
    if log_realtime:
        params["no_log_realtime"], given = False, given | {"no_log_realtime"}
    params |= {name: value for name, value in cli_defaults(model, cache=not no_cache).items() if name not in given}
    model_args = parse_pairs(params["m"] or (), "-M")
    local = local_server_settings(model, given={name: params[name] for name in LOCAL_OPTIONS if name in given},
                                  base_url=params["model_base_url"] or model_args.get("base_url"))
    if local is not None:  # a server on this machine or network: its slots as connections, nothing abandoned
        click.echo(local.note)
        params |= local.options
    progress_lines_without_terminal(given)
    return params | {"model": model}


def prepared_task(task_name: str, args: dict[str, Any], params: dict[str, Any], model: str, run_name: str | None,
                  roles: tuple[str, ...]) -> tuple[Any, str | None]:
    """The task built and checked as its run needs it, before any model is asked, and the rule of the subset
    `--limit N` selects (None: no subset); `params` gets the subset's `--sample-id`.

    Raises:
        FigevalError: an unknown task or argument, missing data, a selection, model or role the run would fail
            on (each in one line).
    """
    from figeval.cli.options import make_task, task_parameters

    task = make_task(task_name, args)  # unknown task or arguments, missing data: one line, before any model call
    check_sample_ids(task, task_name, params["sample_id"])
    check_limit_in_dataset(task, task_name, params["limit"])
    subset = apply_subset(task, task_name, params)
    apply_display_name(task, run_name, params["metadata"])
    parameters = task_parameters(task_name)
    check_roles(task_name, parameters, args, roles)
    check_other_models(args, roles)
    check_manual_labels(args, model)
    check_judge_given(task_name, parameters, args, roles)
    return task, subset


def plan_run(runs: Sequence[tuple[str, dict[str, Any], tuple[str, ...]]], params: dict[str, Any], model: str,
             run_name: str | None) -> None:
    """`--dry-run`: each run (a task, its arguments and role bindings) built and checked as it would be, then its
    plan printed (cli/run_plan.py)."""
    from figeval.cli.run_plan import plan_task, print_plan

    plans = []
    for task_name, given, bound in runs:
        task_params = dict(params)  # each task's own --limit subset
        task, subset = prepared_task(task_name, given, task_params, model, run_name, bound)
        plans.append(plan_task(task_name, task, given, task_params, model, bound, subset))
    if warning := openai_name_warning(model):
        click.echo(warning, err=True)
    print_plan(plans, model)


def run_paper(ctx: click.Context, paper: str, args: dict[str, Any], params: dict[str, Any], model: str,
              run_name: str | None, roles: tuple[str, ...], dry_run: bool, no_cache: bool, log_realtime: bool) -> None:
    """`--paper NAME`: the protocol's runs built and checked as single runs are, before any model is asked, then
    planned (`--dry-run`) or run as one eval set (cli/run_paper.py)."""
    import sys

    from figeval._compat import preload_inspect_modules, quiet_ids_of_other_runs
    from figeval._registry import BENCHMARKS
    from figeval.cli.run_paper import (
        bind_roles,
        decoding_line,
        paper_benchmark,
        paper_decoding,
        print_outcome,
        print_runs,
        protocol_runs,
        refuse_set_options,
        run_set,
        selected_ids,
        set_folder,
    )
    benchmark = paper_benchmark(paper, BENCHMARKS)
    refuse_set_options(params)
    runs, skipped = protocol_runs(benchmark, args, roles)
    applied, departures = paper_decoding(benchmark.decoding, params, given_options(ctx, params))
    params = params | applied
    for line in filter(None, [decoding_line(benchmark.decoding, applied), *departures]):
        click.echo(line)
    if dry_run:
        plan_run([(run.task, run.args, run.roles) for run in runs], params, model, run_name)
        for skip in skipped:
            click.echo(skip.line())
        return
    prepared, ids = [], []
    role_models: dict[str, dict[str, Any]] = {}
    for run in runs:
        task_params = dict(params)  # each run's own --limit subset
        task, _ = prepared_task(run.task, run.args, task_params, model, run_name, run.roles)
        if params.get("limit") is not None:
            ids += selected_ids(task, run.task, task_params)
        prepared.append(bind_roles(task, run.roles, role_models))
    if warning := openai_name_warning(model):
        click.echo(warning, err=True)
    log_dir = params["log_dir"]
    # prepared_task has refused an empty --name
    folder = set_folder(log_dir, benchmark.name, run_name.strip() if run_name else model)
    preload_inspect_modules()
    quiet_inspect_output(params["log_level"])
    print_runs(benchmark, model, runs, skipped, folder)
    # each task carries its own run's roles (bind_roles)
    params = launch_options(ctx, params, model, no_cache, log_realtime) | {"log_dir": folder, "model_role": None}
    if ids:
        params |= {"sample_id": ",".join(ids), "limit": None}
    with quiet_ids_of_other_runs([id.partition(":")[2] for id in ids]):
        finished = run_set(params, prepared)
    print_outcome(benchmark, folder, log_dir, skipped, finished, ["figeval", *sys.argv[1:]])
