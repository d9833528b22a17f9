"""`figeval run`: a benchmark task on a model, with this field's defaults, ending with a summary table."""

from __future__ import annotations

import os
import re
import shlex
import sys
from collections.abc import Collection
from inspect import signature
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource
from inspect_ai._util.error import PrerequisiteError
from inspect_ai.model import CachePolicy

from figeval._compat import inspect_eval_options
from figeval.cli.options import parse_pairs
from figeval.errors import FigevalError


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
IN_PROCESS = ("gguf/", "replay/", "mockllm/")
# OpenAI's own model names; any other name under openai/ is treated by Inspect as an unknown (reasoning) model.
OPENAI_MODEL = re.compile(r"^(gpt-|chatgpt-|o\d|ft:|text-|davinci|babbage|codex|computer-use)")


def check_provider(model: str, given: str | None = None) -> None:
    """Raises FigevalError for a model whose provider Inspect does not know (before any task is built)."""
    from figeval.answering import unknown_provider

    if (error := unknown_provider(model, given)) is not None:
        raise error


def role_models(value: str) -> list[str]:
    """The models a `--model-role role=VALUE` binds, as Inspect reads VALUE: a name, names separated by commas,
    or a YAML/JSON config (`{model: ..., temperature: ...}`) or list of configs."""
    import yaml

    try:
        found = yaml.safe_load(value)
    except yaml.YAMLError:
        found = value
    configs = found if isinstance(found, list) else [found] if isinstance(found, dict) else value.split(",")
    return [str(config.get("model", "")) if isinstance(config, dict) else str(config).strip() for config in configs]


def check_other_models(args: dict[str, str], roles: tuple[str, ...]) -> None:
    """Refuses, before the run's log is started, a judge or any model bound to a role whose provider Inspect does
    not know: Inspect would find out at the first sample, after the log was started.

    Raises:
        FigevalError: naming the option, the model and the providers there are.
    """
    if args.get("judge"):
        check_provider(args["judge"], f"-T judge={args['judge']}")
    for given in roles:
        role, _, value = given.partition("=")
        for model in role_models(value):
            check_provider(model, f"--model-role {role.strip()}={model}")


def used_roles(task_parameters: Collection[str], args: dict[str, str]) -> set[str]:
    """The model roles a figeval task asks a model of: a judged task (one with a `judge` argument) its `grader`
    when no -T judge is given (judge.resolve_judge); every other task its `extractor`, for the answers its readers
    could not read (scoring.extractor.with_extractor, called by each non-judged scorer and by no judged one)."""
    from figeval.scoring.extractor import EXTRACTOR_ROLE

    if "judge" in task_parameters:
        return set() if args.get("judge") else {"grader"}
    return {EXTRACTOR_ROLE}


def check_roles(task_name: str, task_parameters: Collection[str], args: dict[str, str], roles: tuple[str, ...]) -> None:
    """Refuses a `--model-role` given twice for one role (Inspect keeps the last without a word) and one the task
    never asks (its model would be bound and never used, the run looking judged or checked by it).

    Raises:
        FigevalError: naming the option and what to do.
    """
    names = [given.partition("=")[0].strip() for given in roles]
    if repeated := next((name for name in names if names.count(name) > 1), None):
        raise FigevalError(f"--model-role {repeated}= is given {names.count(repeated)} times; bind each role once "
                           "(several models for one role: --model-role ROLE=model1,model2).")
    used = used_roles(task_parameters, args)
    for name in names:
        if name in used:
            continue
        if name == "grader" and "judge" in task_parameters:
            raise FigevalError(f"--model-role grader= is not used: -T judge={args['judge']} is {task_name}'s judge; "
                               "give one of them.")
        asks = f"only the role{'s' if len(used) > 1 else ''} {', '.join(sorted(used))}" if used else "no model role"
        raise FigevalError(f"--model-role {name}= is not used: {task_name} asks {asks}; leave it out"
                           + (f" or bind {' or '.join(sorted(used))}." if used else "."))


def check_manual_labels(args: dict[str, str], model: str) -> None:
    """Refuses `-T manual_labels=FILE` whose hand labels are all of other models' answers: the scorer applies a
    label to the answer of the same model and sample, so they would be ignored without a word.

    Raises:
        FigevalError: naming the file, the models it labels and the run's model.
    """
    from figeval._registry import annotation_spec
    from figeval.annotation.labels import read_labels

    if not args.get("manual_labels"):
        return
    labels, _ = read_labels(Path(args["manual_labels"]), annotation_spec)
    models = sorted({label.model for label in labels if label.label is not None})
    if model not in models:
        raise FigevalError(f"-T manual_labels={args['manual_labels']}: its labels are of "
                           f"{', '.join(models) or 'no answer'}, not of {model}; give the labels of this model's "
                           "answers (`figeval annotate export` of its run, then `figeval annotate import`).")


# Options that count things at once or in turn, and per-sample limits: Inspect waits for ever on a count of 0
# (--max-connections, --max-samples) or fails after the log is started (--epochs -1, an ExceptionGroup; a
# --time-limit or --message-limit of 0, "list index out of range"), so figeval refuses them first.
POSITIVE_COUNTS = ("max_connections", "max_samples", "max_tasks", "max_subprocesses", "max_sandboxes", "epochs",
                   "time_limit", "working_limit", "message_limit")
REDUCERS = "mean, median, mode, majority, max, pass_at_K or at_least_K"
LIMIT_FORMS = ("give N (N samples: whole items of every group the task reports by) or START-END (samples START to "
               "END, counted from 1)")


def option_name(param: str) -> str:
    return "--" + param.replace("_", "-")


def check_counts(params: dict[str, Any]) -> None:
    """Refuses a count option below 1 (see POSITIVE_COUNTS).

    Raises:
        FigevalError: naming the option and its value.
    """
    for param in POSITIVE_COUNTS:
        if (value := params.get(param)) is not None and value < 1:
            raise FigevalError(f"{option_name(param)} {value}: give a whole number of 1 or more.")


def limit_bounds(limit: str) -> tuple[int, int | None]:
    """`--limit`'s first and last sample numbers (from 1; last None: N samples from the first), as Inspect reads
    it (`parse_samples_limit`: N, or START-END taken as samples START to END).

    Raises:
        FigevalError: for text that is neither form, a number below 1 or a range that selects nothing.
    """
    text = limit.strip()
    if text.lstrip("-").isdigit():
        if int(text) < 1:
            raise FigevalError(f"--limit {limit}: give a number of samples of 1 or more.")
        return 1, int(text)
    start, _, end = (part.strip() for part in text.partition("-"))
    if not (start.isdigit() and end.isdigit()):
        raise FigevalError(f"--limit {limit}: {LIMIT_FORMS}.")
    if int(start) < 1:
        raise FigevalError(f"--limit {limit}: samples are counted from 1; {LIMIT_FORMS}.")
    if int(start) > int(end):
        raise FigevalError(f"--limit {limit} selects no sample; give N or START-END with START <= END.")
    return int(start), int(end)


def check_selection(params: dict[str, Any]) -> None:
    """Refuses a `--limit` Inspect cannot read or that selects nothing, and `--limit` with `--sample-id` (Inspect
    refuses the pair only once the log is started).

    Raises:
        FigevalError: naming the option and the form to give.
    """
    if params.get("limit") is None:
        return
    limit_bounds(params["limit"])
    if params.get("sample_id") is not None:
        raise FigevalError(f"--limit {params['limit']} and --sample-id {params['sample_id']}: give one of them.")


def check_reducers(value: str | None) -> None:
    """Refuses an `--epochs-reducer` Inspect has no reducer of (it raises LookupError once the run is set up).

    Raises:
        FigevalError: naming the reducer and the ones there are.
    """
    from figeval._compat import create_reducers

    for name in [name.strip() for name in (value or "").split(",") if name.strip()]:
        try:
            create_reducers([name])
        except LookupError:
            raise FigevalError(f"--epochs-reducer {value}: no reducer '{name}'; give {REDUCERS} "
                               "(comma-separated for several).") from None


def read_config_file(option: str, path: str) -> dict[str, Any]:
    """A `--task-config`/`--model-config`/`--generate-config` file as Inspect reads it (`read_config_object`: JSON
    when it starts with `{`, else YAML), refused in one line where Inspect would print a traceback.

    Raises:
        FigevalError: a missing or unreadable file, text that is not YAML/JSON, or not a mapping of names to values.
    """
    import json

    import yaml

    fix = "give a YAML or JSON file of name: value pairs"
    if "://" in path:  # a remote file (s3://...): only Inspect's filesystem can read it
        from inspect_ai._util.config import resolve_args

        return resolve_args(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise FigevalError(f"{option} {path}: no such file; {fix}.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise FigevalError(f"{option} {path}: cannot be read ({error}); {fix}.") from None
    try:
        config = json.loads(text) if text.strip().startswith("{") else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as error:
        where = getattr(error, "problem_mark", None) or getattr(error, "lineno", None)
        line = f" at line {where.line + 1}" if hasattr(where, "line") else f" at line {where}" if where else ""
        raise FigevalError(f"{option} {path}: not valid YAML or JSON{line}; {fix}.") from None
    if not isinstance(config, dict):
        raise FigevalError(f"{option} {path}: holds {type(config).__name__}, not name: value pairs; {fix}.")
    return config


def check_generate_config(path: str) -> None:
    """Refuses a `--generate-config` file with a field or value Inspect's GenerateConfig does not take (Inspect
    checks it the same way, with a traceback).

    Raises:
        FigevalError: naming the file, the field and the fix.
    """
    from inspect_ai.model import GenerateConfigArgs
    from pydantic import TypeAdapter, ValidationError

    config = read_config_file("--generate-config", path)
    if unknown := sorted(set(config) - set(GenerateConfigArgs.__annotations__)):
        raise FigevalError(f"--generate-config {path}: no generation setting {', '.join(unknown)}; see "
                           "`inspect eval --help` for the settings (temperature, max_tokens, seed, ...).")
    try:
        TypeAdapter(GenerateConfigArgs).validate_python(config, strict=True)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        raise FigevalError(f"--generate-config {path}: {field} is {first.get('input')!r}: {first['msg']}.") from None


def check_config_files(params: dict[str, Any]) -> dict[str, Any]:
    """Reads the config files given, before any task is built; returns `--task-config`'s arguments (empty when
    not given), which `figeval run` applies itself (Inspect applies none to a task it is handed built).

    Raises:
        FigevalError: `--run-config` with another config file (Inspect's rule: it holds those settings itself).
    """
    if params.get("run_config"):
        for other in ("task_config", "generate_config", "solver_config"):
            if params.get(other):
                raise FigevalError(f"--run-config {params['run_config']} and {option_name(other)} {params[other]}: "
                                   "give one of them (a run config holds those settings itself).")
    if params.get("model_config"):
        read_config_file("--model-config", params["model_config"])
    if params.get("generate_config"):
        check_generate_config(params["generate_config"])
    return read_config_file("--task-config", params["task_config"]) if params.get("task_config") else {}


def check_sample_ids(task: Any, task_name: str, sample_id: str | None) -> None:
    """Refuses a `--sample-id` that matches no sample of the task (Inspect logs a warning and runs nothing).

    Raises:
        FigevalError: naming the id, the task and what its ids look like.
    """
    from figeval._compat import parse_sample_id, resolve_task_sample_ids, sample_id_filter

    if sample_id is None:
        return
    ids = [sample.id for sample in task.dataset]
    for given in parse_sample_id(sample_id) or []:
        selected = resolve_task_sample_ids(task.name, given, [task.name, task_name])
        if selected == [] or not any(sample_id_filter(selected).matches(id) for id in ids):
            example = f"; ids look like {ids[0]}" if ids else ""
            raise FigevalError(f"no sample '{given}' in {task_name}{example}")


def check_limit_in_dataset(task: Any, task_name: str, limit: str | None) -> None:
    """Refuses a `--limit START-END` starting after the task's last sample (it would select nothing).

    Raises:
        FigevalError: naming the option and the task's number of samples.
    """
    if limit is None:
        return
    start, _ = limit_bounds(limit)
    if start > (count := len(task.dataset)):
        raise FigevalError(f"--limit {limit} selects no sample: {task_name} has {count}; give START of {count} or less.")


def apply_subset(task: Any, task_name: str, params: dict[str, Any]) -> str | None:
    """Turns `--limit N` into the samples that keep the task's design (figeval.subset): their ids become
    `--sample-id` (so Inspect records which ran) and the rule goes into the log's metadata (`subset`); a task
    without a design keeps Inspect's own `--limit`. Returns the rule, or None when nothing is left out.

    Raises:
        FigevalError: an N or range that cannot keep the design (naming the N that can, and --sample-id).
    """
    from figeval.subset import SUBSET_KEY, Design, limit_subset, sample_id_text

    if params.get("limit") is None:
        return None
    subset = limit_subset(task_name, list(task.dataset), Design.from_metadata(task.metadata), params["limit"])
    if subset is None:
        return None
    if subset.ids is not None:
        params["sample_id"], params["limit"] = sample_id_text(subset.ids, [task.name, task_name]), None
    task.metadata = {**(task.metadata or {}), SUBSET_KEY: subset.rule}
    return subset.rule


# Log levels under which Inspect's hook banner is noise (it lists figeval's own progress hook before every run).
QUIET_LOG_LEVELS = ("warning", "error", "critical", "notset")


def apply_display_name(task: Any, name: str | None, metadata: tuple[str, ...] | None) -> None:
    """Records `--name` as the run's `display_name` in the log's metadata (beside any `--metadata` given, which
    Inspect merges with the task's own). The task's metadata carries it: `--metadata`'s values are read as YAML
    lists at commas, which would split a name such as "Gemma 3, base".

    Raises:
        FigevalError: an empty name, or `--name` beside `--metadata display_name=...`.
    """
    from figeval.reporting.runs import DISPLAY_NAME_KEY

    if name is None:
        return
    if not name.strip():
        raise FigevalError("--name is empty; give the name reports should show for this run.")
    if any(item.partition("=")[0].strip().replace("-", "_") == DISPLAY_NAME_KEY for item in metadata or ()):
        raise FigevalError(f"--name {name} and --metadata {DISPLAY_NAME_KEY}=...: give one of them.")
    task.metadata = {**(task.metadata or {}), DISPLAY_NAME_KEY: name.strip()}


def report_command(log_dir: str) -> str:
    return shlex.join(["figeval", "report", log_dir])


def openai_name_warning(model: str) -> str | None:
    """A warning for `openai/<name>` where the name is not one of OpenAI's: an OpenAI-compatible server (vLLM,
    llama.cpp's server, Ollama) needs its own provider prefix, or Inspect sends it OpenAI-only requests."""
    provider, _, name = model.partition("/")
    if provider != "openai" or OPENAI_MODEL.match(name):
        return None
    return (f"warning: '{name}' is not an OpenAI model name; for an OpenAI-compatible server use "
            f"openai-api/<service>/{name} (with <SERVICE>_BASE_URL and <SERVICE>_API_KEY), vllm/{name}, "
            f"ollama/{name} or llama-cpp-python/{name}.")


def eval_options(model: str, cache: bool = True) -> dict[str, Any]:
    """The Inspect eval settings `figeval run` adds for a model (also used by perf/ to measure the same thing)."""
    from figeval.answering import response_cache

    options: dict[str, Any] = {
        "cache": response_cache(model, enabled=cache),
        # Live streaming of every sample's events to the viewer is Inspect's largest per-sample cost on 2 cores:
        # without it an API run's CPU capacity rose from 42 to 55 samples/s, and an in-process model lost ~5% of
        # its throughput to it (perf/). Finished samples are still written to the log every few samples (Inspect's
        # log_buffer) for eval-retry, and any a crash kept from the log are answered again from the response
        # cache, not paid for again. `--log-realtime` turns it back on.
        "log_realtime": False,
        "retry_on_error": RETRY_ON_ERROR,
    }
    if not model.startswith(IN_PROCESS):
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


def unfinished_run_message(log: Any, location: str, log_dir: str) -> str:
    """The one line for a run that did not succeed: why (when Inspect recorded an error), where its completed
    samples are, and the command that resumes it."""
    reason = ""
    if log.error:
        reason = log.error.message.strip().splitlines()[-1]
        # Inspect records an exception as its repr: FigevalError("replay file r.jsonl has no output ...")
        reason = ": " + re.sub(r"^\w*Error\((['\"])(.*)\1\)$", r"\2", reason)
    return (f"run {log.status}{reason} | completed samples are kept in {location}; resume with "
            f"`{shlex.join(['inspect', 'eval-retry', '--log-dir', log_dir, location])}`.")


def log_files(log_dir: str) -> set[str]:
    from inspect_ai.log import list_eval_logs

    return {info.name for info in list_eval_logs(log_dir, recursive=False)} if Path(log_dir).is_dir() else set()


@click.command(context_settings={"max_content_width": 120})
@click.argument("task_name", metavar="TASK")
@click.option("-m", "model_short", default=None, hidden=True, help="Same as --model.")
@click.option("--no-cache", is_flag=True, help="Do not reuse or store model responses in Inspect's cache "
              "(figeval's default: cached, never expiring).")
@click.option("--log-realtime", is_flag=True, help="Stream each sample's events to `inspect view` while it runs "
              "(figeval's default: off, it costs about a quarter of the CPU per sample).")
@click.option("--name", "run_name", default=None, help="The run's name in reports (instead of the model's), recorded as the "
              "log's metadata display_name.")
@inspect_eval_options
@click.pass_context
def run(ctx: click.Context, task_name: str, model_short: str | None, no_cache: bool, log_realtime: bool,
        run_name: str | None, **params: Any) -> None:
    """Run a benchmark task (TASK: see `figeval list`) and print its summary table.

    Every option of `inspect eval` applies, with its environment variables (INSPECT_EVAL_MODEL, INSPECT_LOG_DIR,
    .env). figeval's defaults, where the option is not given: the embedded model gguf/gemma-3-270m; the response
    cache on and never expiring; 3 retries of a failed sample; API requests abandoned and retried after 120 s,
    at most 10 times (an OpenAI-compatible server on this machine or network: as many requests at once as it runs,
    read from llama-server's /props, never abandoned, at most 5 retries);
    no live sample streaming (finished samples are written to the log every few samples).

    --limit N keeps the task's design: each item with every way it is asked (a question's two framings, a pair's
    two versions) and every group the task reports by (categories, controls, frequency bands), in proportion; the
    samples chosen are run by id (--sample-id) and the rule is printed and kept in the log. An N that cannot keep it is refused with the
    N that can. START-END applies only to tasks that ask each sample once and report no groups.

    Inspect's own end-of-run panel is left out for the summary table; its progress display stays. Third-party
    log lines (Inspect's hook banner) show with --log-level info or lower.
    """
    from inspect_ai._util.dotenv import init_dotenv

    from figeval._compat import (
        brief_figeval_errors,
        preload_inspect_modules,
        quiet_hook_banner,
        quiet_inspect_results,
        run_inspect_eval_command,
    )
    from figeval._registry import TASKS
    from figeval.cli.options import make_task, takes_answer_mode
    from figeval.scoring.judge import NO_JUDGE
    from figeval.models.gguf import DEFAULT_MODEL
    from figeval.models.local_server import OPTIONS as LOCAL_OPTIONS
    from figeval.models.local_server import answers_of_log, echo_warning, local_server_settings
    from figeval.reporting.runs import format_table, newest_log, summarize

    init_dotenv()  # as `inspect eval` does: a .env file's INSPECT_EVAL_MODEL, keys, log dir
    model = params["model"] or model_short or os.environ.get("INSPECT_EVAL_MODEL") or DEFAULT_MODEL
    args = parse_pairs(params["t"], "-T", typed=False)
    check_provider(model)
    check_counts(params)
    check_selection(params)
    check_reducers(params["epochs_reducer"])
    args = check_config_files(params) | args  # -T overrides the file, as in `inspect eval`
    task = make_task(task_name, args)  # unknown task or arguments, missing data: one line, before any model call
    check_sample_ids(task, task_name, params["sample_id"])
    check_limit_in_dataset(task, task_name, params["limit"])
    subset = apply_subset(task, task_name, params)
    apply_display_name(task, run_name, params["metadata"])
    check_roles(task_name, signature(TASKS[task_name]).parameters, args, params["model_role"] or ())
    check_other_models(args, params["model_role"] or ())
    check_manual_labels(args, model)
    roles = {role.split("=", 1)[0].strip() for role in params["model_role"] or ()}
    if "judge" in signature(TASKS[task_name]).parameters and "judge" not in args and "grader" not in roles:
        raise FigevalError(f"{task_name}: {NO_JUDGE}")
    if warning := openai_name_warning(model):
        click.echo(warning, err=True)
    preload_inspect_modules()
    brief_figeval_errors()
    quiet_inspect_results()
    if str(params["log_level"]).lower() in QUIET_LOG_LEVELS:
        quiet_hook_banner()
    click.echo(f"figeval: {task_name} on {model} ({', '.join(f'{k}={v}' for k, v in args.items()) or 'defaults'})")
    if subset is not None:
        click.echo(f"subset: {subset}")

    given = {name for name in params if ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE,
                                                                           ParameterSource.ENVIRONMENT)}
    if log_realtime:
        params["no_log_realtime"], given = False, given | {"no_log_realtime"}
    params |= {name: value for name, value in cli_defaults(model, cache=not no_cache).items() if name not in given}
    model_args = parse_pairs(params["m"] or (), "-M")
    local = local_server_settings(model, given={name: params[name] for name in LOCAL_OPTIONS if name in given},
                                  base_url=params["model_base_url"] or model_args.get("base_url"))
    if local is not None:  # a server on this machine or network: its slots as connections, nothing abandoned
        click.echo(local.note)
        params |= local.options
    # The task built above (Inspect would build it again from its name and -T): the same @task function and
    # arguments `inspect eval figeval/<task>` uses; the answer mode is decided per sample (answer_mode=auto).
    params |= {"tasks": (task,), "t": (), "task_config": None, "model": model}
    if "display" not in given and not sys.stdout.isatty():
        # No terminal: Inspect's live display would print nothing until the end; plain lines instead.
        import figeval.progress

        os.environ[figeval.progress.ENABLE_VARIABLE] = "1"
    log_dir = params["log_dir"]
    before = log_files(log_dir)
    try:
        run_inspect_eval_command(params)  # exactly `inspect eval figeval/<task>` with these options
    except PrerequisiteError as error:
        # Inspect's own "the user must fix this" error (a run config it cannot combine, a missing provider SDK):
        # one plain line, naming figeval's extra where Inspect names its own pip install.
        from figeval._compat import prerequisite_line

        raise FigevalError(prerequisite_line(str(error))) from None

    written = sorted(log_files(log_dir) - before)
    if not written:
        raise FigevalError(f"run interrupted before its log was written; nothing to resume in {newest_log(Path(log_dir))}.")
    from inspect_ai.log import read_eval_log

    log = read_eval_log(written[-1])
    location = written[-1].removeprefix("file://")
    if log.status != "success":
        raise FigevalError(unfinished_run_message(log, location, log_dir))
    click.echo("\n" + format_table(summarize(log)))
    if echoed := echo_warning(answers_of_log(log), model, takes_answer_mode(task_name)):
        click.echo(echoed, err=True)
    click.echo(f"log: {location} (view with `{shlex.join(['inspect', 'view', '--log-dir', log_dir])}`)")
    click.echo(f"report: `{report_command(log_dir)}` (tables and figures of every run in {log_dir})")
