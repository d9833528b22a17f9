"""A paper's protocol run as one Inspect eval set: its runs' tasks built and checked as single runs are, each with
its own roles, before any model is asked; the set run in its folder; its logs found there again.

An eval set needs a folder of its own (Inspect pairs each task with the logs there): `protocol.set_folder`. Running
the same set again finds each finished task there and asks nothing again; a task that stopped part-way goes on from
its log's completed samples (and the response cache).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Sequence
from typing import Any, cast

from figeval.benchmark import Benchmark
from figeval.errors import FigevalError
from figeval.running.protocol import PaperRun, SkippedRun, decoding_line, paper_decoding, protocol_runs
from figeval.running.protocol import refuse_set_options, set_task_ids

# A task of the set that fails is tried this many more times within the run (each attempt goes on from the samples
# done); Inspect's default, 10, would ask a persistently failing sample 10 times over. Running the command again
# goes on the same way.
RETRY_ATTEMPTS = 2


def selected_ids(task: Any, task_name: str, params: dict[str, Any]) -> list[str]:
    """The samples `--limit` selected for one run, each as `TASK:ID`: an eval set takes one `--sample-id` for
    all its tasks, and Inspect reads a selector with a task's name as that task's only."""
    from figeval.running.plan import planned_samples
    from figeval.subset import SampleId, sample_id_text

    # every figeval dataset gives each sample its id (Inspect numbers only the samples of a run it starts)
    ids = cast(list[SampleId], [sample.id for sample in planned_samples(task, task_name, params)[0]])
    sample_id_text(ids, [task.name, task_name])  # refuses an id Inspect would read as a pattern
    return [f"{task.name}:{id}" for id in ids]


def bind_roles(task: Any, roles: Sequence[str], models: dict[str, dict[str, Any]],
               made: Callable[[str], Any] | None = None) -> Any:
    """The task with its own run's `--model-role` bindings. An eval set binds `--model-role` to every task (each
    task's identity and log would name it), but the protocol's runs ask different roles: a judged run its grader,
    the others an extractor. `models` keeps each binding's model, made once for every run that asks it (a local
    judge is loaded once); `made` makes a model given by its name alone (with its own settings, in a set of
    several models), else Inspect makes it with the set's."""
    from inspect_ai import task_with

    from figeval._compat import parse_model_roles

    bound: dict[str, Any] = {}
    for given in roles:
        if given not in models:
            parsed = parse_model_roles((given,))
            models[given] = {role: made(model) if made and isinstance(model, str) else model
                             for role, model in parsed.items()}
        bound |= models[given]
    return task_with(task, model_roles=bound) if bound else task


def paper_setup(benchmark: Benchmark, args: dict[str, Any], roles: Sequence[str], params: dict[str, Any],
                given: Collection[str]) -> tuple[list[PaperRun], list[SkippedRun], dict[str, Any], list[str]]:
    """A paper run's runs and skipped runs (`protocol.protocol_runs`), its options with the paper's decoding applied
    where the user gave none, and the lines that say what was applied and where the user's own setting departs.

    Raises:
        FigevalError: an option an eval set cannot take (`protocol.refuse_set_options`), an argument or role the
            protocol refuses.
    """
    refuse_set_options(params)
    runs, skipped = protocol_runs(benchmark, args, roles)
    applied, departures = paper_decoding(benchmark.decoding, params, set(given))
    notes = [line for line in [decoding_line(benchmark.decoding, applied), *departures] if line]
    return runs, skipped, params | applied, notes


def prepare_tasks(benchmarks: Sequence[Benchmark], runs: Sequence[PaperRun], params: dict[str, Any], model: str,
                  run_name: str | None, role_models: dict[str, dict[str, Any]] | None = None,
                  made: Callable[[str], Any] | None = None) -> tuple[list[Any], list[str]]:
    """Each run's task built and checked as a single run's is (`launch.prepared_task`, and its judge's or roles'
    model files, `models.check_model_files`), bound to its own roles (`bind_roles`: each role's model made once in
    `role_models`), and the samples `--limit` selected (`TASK:ID`; empty without `--limit`).

    Raises:
        FigevalError: what `launch.prepared_task` refuses, for any run.
    """
    from figeval.running.launch import prepared_task
    from figeval.running.models import check_model_files

    tasks, ids = [], []
    role_models = {} if role_models is None else role_models
    for run in runs:
        task_params = dict(params)  # each run's own --limit subset
        task, _ = prepared_task(benchmarks, run.task, run.args, task_params, model, run_name, run.roles)
        check_model_files(run.args, run.roles)
        if params.get("limit") is not None:
            ids += selected_ids(task, run.task, task_params)
        tasks.append(bind_roles(task, run.roles, role_models, made))
    return tasks, ids


# A model's own run settings. Inspect merges an eval's generate config over every model's, so in a set of several
# models (each with its own cache rule, connections and timeouts, `launch.launch_params`) the set gives none of
# them and each model carries its own.
MODEL_SETTINGS = ("cache", "max_connections", "max_retries", "attempt_timeout")


def several_models_tasks(benchmarks: Sequence[Benchmark], runs: Sequence[PaperRun], params: dict[str, Any],
                         models: Sequence[str], given: Collection[str],
                         cache: bool = True) -> tuple[list[Any], list[str], dict[str, str]]:
    """Every (run, model) pair's task for one eval set: each run's task built and checked for each model as a
    single run's is (`prepare_tasks`), run on that model with that model's own settings; the samples `--limit`
    selected; and what each local server was given, by model. The set's own options leave the models' settings
    out (`without_model_settings`), so a role's model (a judge) has its own too, made once for every model's runs.

    Raises:
        FigevalError: what `launch.prepared_task` refuses, for any run and model.
    """
    from inspect_ai import task_with
    from inspect_ai.model import CachePolicy, GenerateConfig, get_model

    from figeval.arguments import parse_pairs
    from figeval.running.launch import eval_options, launch_params

    def own_config(model: str) -> tuple[GenerateConfig, str | None]:
        own, local = launch_params(params, model, given, cache=cache)
        settings = {name: own[name] for name in MODEL_SETTINGS[1:] if own.get(name) is not None}
        given_cache = "cache" in given and own.get("cache")
        settings["cache"] = CachePolicy(expiry=own["cache"]) if given_cache else eval_options(model, cache)["cache"]
        return GenerateConfig(**settings), local

    tasks: list[Any] = []
    ids: list[str] = []
    notes: dict[str, str] = {}
    role_models: dict[str, dict[str, Any]] = {}
    model_args = parse_pairs(params.get("m") or (), "-M")
    for model in models:
        config, local = own_config(model)
        # made for this set alone: a model memoized by name would keep a client of an earlier base URL
        bound = get_model(model, config=config, memoize=False, **model_args)
        built, selected = prepare_tasks(benchmarks, runs, params, model, None, role_models,
                                        lambda role: get_model(role, config=own_config(role)[0], memoize=False))
        tasks += [task_with(task, model=bound) for task in built]
        ids += selected
        notes |= {model: local} if local else {}
    return tasks, sorted(set(ids)), notes


def without_model_settings(params: dict[str, Any]) -> dict[str, Any]:
    """A set's launched options (`launch.launch_params`, of its first model) with no model's own settings: each
    model of a set of several carries its own (`several_models_tasks`)."""
    return params | dict.fromkeys(MODEL_SETTINGS)


def run_set(params: dict[str, Any], tasks: Sequence[Any], folder: str, sample_ids: Sequence[str] = ()) -> bool:
    """Inspect's eval-set over the prepared tasks in `folder`: tasks finished there are not run again; nothing there
    is removed but the earlier attempts of a task the set runs again (each holds nothing its newest attempt lacks).
    True when every task finished.

    Args:
        params: `inspect eval`'s options by their parameter names (`launch.launch_params`); any not given take
            Inspect's defaults.
        tasks: the runs' tasks, each with its own roles (`prepare_tasks`).
        folder: the set's folder (`protocol.set_folder`).
        sample_ids: the samples `--limit` selected, each as `TASK:ID` (empty: every sample).
    """
    import click

    from figeval._compat import (
        PrerequisiteError,
        prerequisite_line,
        quiet_ids_of_other_runs,
        run_inspect_eval_set_command,
    )

    # each task carries its own run's roles (bind_roles)
    params = params | {"log_dir": folder, "model_role": None, "tasks": tuple(tasks), "t": (), "task_config": None}
    if sample_ids:
        params |= {"sample_id": ",".join(sample_ids), "limit": None}
    # Inspect's command is invoked through a click context: the command's own under `figeval run`, else one made
    # here (a Python caller), where every option not given takes its default
    outside = click.get_current_context(silent=True) is None
    try:
        with click.Context(click.Command("figeval")) if outside else contextlib.nullcontext(), \
                quiet_ids_of_other_runs([id.partition(":")[2] for id in sample_ids]):
            said = run_inspect_eval_set_command(params, retry_attempts=RETRY_ATTEMPTS, log_dir_allow_dirty=True)
    except PrerequisiteError as error:
        raise FigevalError(prerequisite_line(str(error))) from None
    # Inspect's eval-set stopped by Ctrl-C returns as a success with its logs cancelled: the logs say
    return said and set_finished(folder, len(tasks))


def set_finished(folder: str, tasks: int) -> bool:
    """Every one of the set's `tasks` has a log in `folder` that ended in success."""
    from inspect_ai.log import read_eval_log

    logs = set_logs(folder)
    return len(logs) == tasks and all(read_eval_log(log, header_only=True).status == "success" for log in logs)


def set_logs(folder: str) -> list[str]:
    """The logs of the eval set Inspect last ran in `folder` (its `eval-set.json`), one per task, in the set's
    order; logs of other settings in the folder are left out."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    ids = set_task_ids(folder)
    found = {}
    for info in list_eval_logs(folder, recursive=False):
        header = read_eval_log(info, header_only=True)
        if header.eval.task_id in ids:
            found[header.eval.task_id] = info.name.removeprefix("file://")
    return sorted(found.values())


