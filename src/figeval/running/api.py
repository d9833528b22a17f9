"""The run command from Python: `plan` (what `figeval run --dry-run` prints, as data) and `run_paper` (what
`figeval run --paper NAME` runs, with its logs as the result). `figeval.plan` and `figeval.run_paper` are these,
given the registered benchmarks; docs/python-api.md shows them in use.

Both check what the command checks, in the same words, before any model is asked, and take the options the
command takes by their Python names; any other option of `inspect eval` goes in `options` by its parameter name
(`max_connections=8`, `temperature=0.5`).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from figeval.benchmark import Benchmark
from figeval.errors import FigevalError
from figeval.running.plan import Plan
from figeval.running.protocol import PaperRun, SkippedRun


@dataclass(frozen=True)
class PaperResult:
    """A paper run's eval set: where its logs are, which runs it made and skipped, and whether every run finished."""

    paper: str
    model: str
    """The model under test; several models joined by ", "."""
    folder: Path
    """The set's folder, LOG_DIR/<paper>/<name, or the models joined by "+">: running the same set again asks only
    what is missing."""
    runs: tuple[PaperRun, ...]
    skipped: tuple[SkippedRun, ...]
    logs: tuple[str, ...]
    """This set's logs, one per run (others of other settings in the folder are left out)."""
    finished: bool
    """False: some run did not finish; its completed samples are kept, and the same call goes on from them."""
    notes: tuple[str, ...] = ()
    """What was applied of the paper's decoding, a setting of the user's departing from it, a local server's
    settings."""


def plan(tasks: str | Sequence[str] = (), *, paper: str | None = None, model: str | None = None,
         models: Sequence[str] | None = None, args: Mapping[str, Any] | None = None, judge: str | None = None,
         roles: Sequence[str] = (), limit: int | str | None = None, sample_id: str | None = None,
         epochs: int | None = None, model_args: Mapping[str, Any] | None = None, name: str | None = None,
         log_dir: str | Path = "logs", benchmarks: Sequence[Benchmark]) -> Plan:
    """What a run of tasks, or of a paper's protocol, would ask, without asking any model or writing a log; a
    paper's plan is of what `run_paper` with the same arguments would still ask (samples its set's folder already
    holds answered are left out).

    Args:
        tasks: a task's name, or several (each argument goes to the tasks that take it).
        paper: a paper's name instead of tasks: every run of its protocol (`Plan.skipped`: those left out).
        model: the model under test (default: the embedded gguf/gemma-3-270m).
        models: several models instead, for a paper's protocol: every run on each (`Plan.by_service`: the calls
            and tokens each service is asked for).
        args: task arguments (`-T`), as text or values; `TASK:NAME` keys for one task of a paper's protocol.
        judge: the judge of judged tasks (`-T judge=`).
        roles: model role bindings (`--model-role`), as `ROLE=MODEL`.
        limit: N samples keeping each task's design, or "START-END".
        sample_id: samples by id (comma-separated), for single tasks.
        epochs: epochs of each sample (default: the task's).
        model_args: the model's own arguments (`-M`).
        name: the run's name in reports (`--name`).
        log_dir: where a paper run's folder is (as `run_paper`'s).
        benchmarks: the benchmarks the tasks or the paper are found in.

    Raises:
        FigevalError: anything the run would refuse before asking a model (one line).
    """
    from figeval.running.paper import paper_setup
    from figeval.running.plan import plan_runs, task_settings
    from figeval.running.protocol import paper_benchmark, set_folder, set_name

    names = given_models(model, models)
    several_refused(names, name, paper)
    params = checked_params(names[0], {"limit": limit, "sample_id": sample_id, "epochs": epochs,
                                       "m": m_pairs(model_args)})
    task_args, given = given_args(args, judge), {name for name in ("limit", "sample_id", "epochs") if params[name]}
    if paper is not None:
        if tasks:
            raise FigevalError(f"{tasks} and paper={paper}: give the tasks or the paper.")
        benchmark = paper_benchmark(paper, benchmarks)
        runs, skipped, params, notes = paper_setup(benchmark, task_args, roles, params | {"log_dir": str(log_dir)},
                                                   given)
        folder = set_folder(str(log_dir), benchmark.name, set_name(name, names))
        planned = [plan for each in names
                   for plan in plan_runs(benchmarks, [(run.task, run.args, run.roles) for run in runs], params, each,
                                         name, dict(model_args or {}), folder)]
        return Plan(tuple(names), tuple(planned), tuple(skipped), tuple(notes))
    task_names = [tasks] if isinstance(tasks, str) else list(tasks)
    if not task_names:
        raise FigevalError("give a task to plan (`figeval list` lists them), or paper=NAME for a paper's protocol.")
    settings = task_settings(benchmarks, task_names, task_args, roles)
    planned = plan_runs(benchmarks, [(task, given, bound) for task, (given, bound) in settings.items()], params,
                        names[0], name, dict(model_args or {}))
    return Plan(tuple(names), tuple(planned))


def run_paper(paper: str, *, model: str | None = None, models: Sequence[str] | None = None,
              log_dir: str | Path = "logs", args: Mapping[str, Any] | None = None, judge: str | None = None,
              roles: Sequence[str] = (), limit: int | str | None = None, epochs: int | None = None,
              model_args: Mapping[str, Any] | None = None, name: str | None = None, cache: bool = True,
              options: Mapping[str, Any] | None = None, benchmarks: Sequence[Benchmark]) -> PaperResult:
    """Every run of a paper's protocol on a model as one Inspect eval set in LOG_DIR/<paper>/<name or model>, as
    `figeval run --paper` runs it: a run finished there is not run again, one that stopped goes on from its
    completed samples. The paper's tables are `figeval.results.report.build_report(result.folder, ...)`'s.

    Args:
        paper: the paper's name (`figeval list` lists them).
        model: the model under test (default: the embedded gguf/gemma-3-270m).
        models: several models instead: one eval set over every (run, model) pair, each model with its own
            settings, in LOG_DIR/<paper>/<the models joined by "+">; its tables have a row per model.
        log_dir: where the paper's folder is made.
        args: task arguments (`-T`), as text or values; `TASK:NAME` keys for one task's runs.
        judge: the judge of the judged runs (`--judge`); without one they are skipped.
        roles: model role bindings (`--model-role`), as `ROLE=MODEL`.
        limit: N samples of each run, keeping each task's design.
        epochs: epochs of each sample (default: the task's).
        model_args: the model's own arguments (`-M`).
        name: the run's name in reports and its folder (`--name`).
        cache: reuse and store model responses (figeval's default: on, never expiring).
        options: other `inspect eval` options by their parameter names (`max_connections`, `temperature`, ...).
        benchmarks: the benchmarks the paper is found in.

    Raises:
        FigevalError: anything the run refuses before asking a model, and Inspect's prerequisite errors (one line).
    """
    from figeval._compat import preload_inspect_modules
    from figeval.running.launch import launch_params
    from figeval.running.models import openai_name_warning
    from figeval.running.paper import (
        paper_setup,
        prepare_tasks,
        run_set,
        set_logs,
        several_models_tasks,
        without_model_settings,
    )
    from figeval.running.protocol import paper_benchmark, set_folder, set_name

    names = given_models(model, models)
    several_refused(names, name, paper)
    check_options(options or {})
    chosen = {"limit": limit, "epochs": epochs, "m": m_pairs(model_args)} | dict(options or {})
    given = {option for option, value in chosen.items() if value is not None}
    params = checked_params(names[0], chosen | {"log_dir": str(log_dir)})
    benchmark = paper_benchmark(paper, benchmarks)
    runs, skipped, params, notes = paper_setup(benchmark, given_args(args, judge), roles, params, given)
    if len(names) > 1:
        tasks, ids, servers = several_models_tasks(benchmarks, runs, params, names, given, cache)
    else:
        tasks, ids = prepare_tasks(benchmarks, runs, params, names[0], name)
    params, first = launch_params(params, names[0], given, cache=cache)
    if len(names) > 1:
        params = without_model_settings(params)
        local = [f"{model}: {note}" for model, note in servers.items()]
    else:
        local = [first] if first else []
    for each in names:
        if warning := openai_name_warning(each):
            warnings.warn(warning, stacklevel=2)
    folder = set_folder(str(log_dir), benchmark.name, set_name(name, names))
    preload_inspect_modules()
    finished = run_set(params, tasks, folder, ids)
    return PaperResult(benchmark.name, ", ".join(names), Path(folder), tuple(runs), tuple(skipped),
                       tuple(set_logs(folder)), finished, tuple([*notes, *local]))


def given_models(model: str | None, models: Sequence[str] | None) -> list[str]:
    """The models under test, given as `model` or as a list (default: the embedded model).

    Raises:
        FigevalError: both given, an empty list or a text for a list, a model given twice, or a model whose
            provider Inspect does not know.
    """
    from figeval.models.gguf import DEFAULT_MODEL
    from figeval.running.models import check_provider

    if models is not None:
        if model is not None:
            raise FigevalError(f"model={model} and models={list(models)}: give one of them.")
        if isinstance(models, str) or not models:
            raise FigevalError(f"models={models!r}: give a list of models (model=NAME for one).")
        if len(set(models)) < len(models):
            raise FigevalError(f"models={list(models)}: a model is given twice; give each once.")
    found = list(models) if models is not None else [model or DEFAULT_MODEL]
    for each in found:
        check_provider(each)
    return found


def several_refused(models: Sequence[str], name: str | None, paper: str | None) -> None:
    """Several models are one paper run's, named by its models.

    Raises:
        FigevalError: several models beside a name, or for tasks rather than a paper.
    """
    if len(models) > 1 and name is not None:
        raise FigevalError(f"name={name!r}: a run of several models is named by its models; run each model in "
                           "turn to give it a name.")
    if len(models) > 1 and paper is None:
        raise FigevalError(f"models={list(models)}: several models run a paper's protocol together (paper=NAME); "
                           "give one model for tasks.")


# Options run_paper takes by its own parameters, or sets itself for every run of the set.
OWN_OPTIONS = ("model", "m", "t", "limit", "epochs", "log_dir", "model_role", "sample_id", "task_config", "run_config")


def check_options(options: Mapping[str, Any]) -> None:
    """Refuses an option that is not `inspect eval`'s, or one `run_paper` takes as its own parameter or sets.

    Raises:
        FigevalError: naming the option and what to give instead.
    """
    from figeval._compat import inspect_eval_options

    def command(**params: Any) -> None: ...

    known = {param.name for param in getattr(inspect_eval_options(command), "__click_params__", ())}
    for option in options:
        if option in OWN_OPTIONS:
            raise FigevalError(f"options={{{option!r}: ...}}: give it as run_paper's own argument, or leave it out "
                               "(a paper run sets it for every run).")
        if option not in known:
            raise FigevalError(f"options={{{option!r}: ...}}: no option of `inspect eval` is named so; give its "
                               "parameter names (max_connections, temperature, max_tokens, ...).")


def m_pairs(model_args: Mapping[str, Any] | None) -> tuple[str, ...] | None:
    """A model's arguments as `-M NAME=VALUE` pairs, each value in the YAML Inspect reads them as."""
    if not model_args:
        return None
    return tuple(f"{key}={value if isinstance(value, str) else json.dumps(value)}" for key, value in model_args.items())


def checked_params(model: str, chosen: dict[str, Any]) -> dict[str, Any]:
    """`inspect eval`'s options as the command reads them (a limit as text), checked as the command checks them.

    Raises:
        FigevalError: a count below 1, a limit that selects nothing, a limit beside sample ids.
    """
    from figeval.running.options import check_counts, check_selection

    params = {name: value for name, value in chosen.items() if value is not None} | {
        "limit": None if chosen.get("limit") is None else str(chosen["limit"]),
        "sample_id": chosen.get("sample_id"), "epochs": chosen.get("epochs"), "model": model}
    check_counts(params)
    check_selection(params)
    return params


def given_args(args: Mapping[str, Any] | None, judge: str | None) -> dict[str, Any]:
    from figeval.running.launch import with_judge

    return with_judge(dict(args or {}), judge)
