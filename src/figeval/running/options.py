"""A run's reading of Inspect's options (by their `inspect eval` names), before its log is started: counts below
1, a `--limit` or `--sample-id` that selects nothing, an unknown `--epochs-reducer`, config files Inspect cannot
read or combine (each refused in one line where Inspect would wait for ever, print a traceback or fail once the
log is started); and what figeval applies to the task it builds itself: `--task-config`'s arguments, `--limit N`
as a subset that keeps the task's design, `--name` as the run's display name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from figeval.errors import FigevalError

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
        from figeval._compat import task_args_file

        return task_args_file(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise FigevalError(f"{option} {path}: no such file; {fix}.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise FigevalError(f"{option} {path}: cannot be read ({error}); {fix}.") from None
    try:
        config = json.loads(text) if text.strip().startswith("{") else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as error:
        # a YAML error's mark (its `line` counted from 0) or a JSON error's line number
        where: Any = getattr(error, "problem_mark", None) or getattr(error, "lineno", None)
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
        # never None: `given` is an id (None stands for no --sample-id)
        if selected is None or selected == [] or not any(sample_id_filter(selected).matches(id) for id in ids):
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
        raise FigevalError(f"--limit {limit} selects no sample: {task_name} has {count}; "
                           f"give START of {count} or less.")


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


def apply_display_name(task: Any, name: str | None, metadata: tuple[str, ...] | None) -> None:
    """Records `--name` as the run's `display_name` in the log's metadata (beside any `--metadata` given, which
    Inspect merges with the task's own). The task's metadata carries it: `--metadata`'s values are read as YAML
    lists at commas, which would split a name such as "Gemma 3, base".

    Raises:
        FigevalError: an empty name, or `--name` beside `--metadata display_name=...`.
    """
    from figeval.results.model_names import DISPLAY_NAME_KEY

    if name is None:
        return
    if not name.strip():
        raise FigevalError("--name is empty; give the name reports should show for this run.")
    if any(item.partition("=")[0].strip().replace("-", "_") == DISPLAY_NAME_KEY for item in metadata or ()):
        raise FigevalError(f"--name {name} and --metadata {DISPLAY_NAME_KEY}=...: give one of them.")
    task.metadata = {**(task.metadata or {}), DISPLAY_NAME_KEY: name.strip()}
