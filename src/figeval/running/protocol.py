"""A paper's evaluation protocol (`Benchmark.protocol`) routed to its runs on one model: which runs are made, with
which of the user's arguments and role bindings, which are skipped and why, the paper's decoding, and the eval
set's folder. `paper.py` builds and runs them; `figeval run --paper NAME` and `figeval.run_paper` are both this.

The user's arguments go to the runs that take them: `--judge` (as `-T judge=`) and `-T NAME=VALUE` to every run whose
task takes NAME, except an argument a run needs that other runs do not take (a file: `-T paraphrases=` goes to the
paraphrased-meaning run only); `-T TASK:NAME=VALUE` to TASK's runs only (two tasks that each need their own file),
over a value given for every run. A task may declare that it takes an argument only with other arguments of its
run (`CONDITIONS`: a file of generated passages only where the run's dataset is those passages), and the argument goes
to those runs alone. An argument the protocol sets for a run, or that no run takes, is refused. A run
whose needed file or judge is not given is skipped, and the paper run says which argument would run it.

An eval set needs a folder of its own (Inspect pairs each task with the logs there): the runs are logged in
LOG_DIR/<paper>/<--name, else the model>. Running the same command again finds each finished task there and asks
nothing again; a task that stopped part-way, or ran on fewer samples (a smaller `--limit`), goes on from its log's
completed samples (and the response cache). A finished log is used as it is: `--metadata` and `--tags` given later
do not reach it. Logs of other settings in that folder (another judge, temperature or `-M`) stay there; the tables
printed are of this command's runs only.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from inspect import signature
from pathlib import Path
from typing import Any

from figeval.arguments import pairs_text
from figeval.benchmark import Benchmark, Decoding, ProtocolRun
from figeval.errors import FigevalError
from figeval.running.tasks import task_parameters


@dataclass(frozen=True)
class PaperRun:
    """A protocol run with the user's arguments it takes."""

    task: str
    args: dict[str, Any]
    roles: tuple[str, ...]
    fills: str

    def describe(self) -> str:
        return f"{self.task} ({pairs_text(self.args, 'defaults')}): {self.fills}"


@dataclass(frozen=True)
class SkippedRun:
    task: str
    args: dict[str, Any]
    fills: str
    enabled_by: str
    """The argument that would run it, with what to give."""

    def line(self) -> str:
        given = f" ({pairs_text(self.args)})" if self.args else ""
        return f"skipped {self.task}{given}, {self.fills}: give {self.enabled_by}"


CONDITIONS = "argument_conditions"
"""The attribute a task function may carry: argument name -> {other argument: value} under which a run takes it
(`TASK.argument_conditions = {"passages": {"dataset": "generated"}}`); a standalone run refuses the argument
otherwise, so a paper run gives it only to the runs that meet the condition."""


def _run_takes(benchmark: Benchmark, run: ProtocolRun, name: str) -> bool:
    """Whether the run's task has the parameter and the run's own arguments meet the task's condition for it (a
    condition's argument the run does not set is the task's default)."""
    from figeval.running.tasks import task_functions

    function = task_functions([benchmark]).get(run.task)
    if function is None or name not in signature(function).parameters:
        return False
    condition = getattr(function, CONDITIONS, {}).get(name, {})
    parameters = signature(function).parameters
    return all(str(run.args.get(other, parameters[other].default)) == value for other, value in condition.items())


def paper_benchmark(name: str, benchmarks: Sequence[Benchmark]) -> Benchmark:
    """The benchmark whose paper is `name`.

    Raises:
        FigevalError: no benchmark of that name declares a protocol (the message lists those that do).
    """
    papers = {benchmark.name: benchmark for benchmark in benchmarks if benchmark.protocol}
    if name not in papers:
        raise FigevalError(f"--paper {name}: no such paper; the papers: {', '.join(papers)}.")
    return papers[name]


def _split_arguments(benchmark: Benchmark, args: dict[str, Any]) -> list[tuple[str | None, str, Any]]:
    """The user's `-T` arguments as (task or None, name, value), checked against the protocol; those given for
    every run first, so that a value given for one task is applied after them and wins.

    Raises:
        FigevalError: a TASK: that is no task of the protocol, a name the protocol sets, a name no run takes, or a
            file two tasks each need given without its task.
    """
    protocol = benchmark.protocol
    tasks = list(dict.fromkeys(run.task for run in protocol))
    split = []
    for key, value in args.items():
        task, _, name = key.rpartition(":")
        if task and task not in tasks:
            raise FigevalError(f"-T {key}: {task} is not a task of {benchmark.name}'s protocol; its tasks: "
                               f"{', '.join(tasks)}.")
        runs = [run for run in protocol if run.task == task] if task else list(protocol)
        if setting := [f"{name}={run.args[name]}" for run in runs if name in run.args]:
            raise FigevalError(f"-T {key}: the paper's protocol sets {name} itself ({', '.join(setting)}); leave it "
                               "out, or run the task alone with `figeval run TASK`.")
        if not any(name in task_parameters([benchmark], run.task) for run in runs):
            raise FigevalError(f"-T {key}: no task of {benchmark.name}'s protocol"
                               f"{f' named {task}' if task else ''} takes {name}; leave it out.")
        if not any(_run_takes(benchmark, run, name) for run in runs):
            raise FigevalError(f"-T {key}: no run of {benchmark.name}'s protocol{f' of {task}' if task else ''} "
                               f"takes {name} with the arguments the paper sets; leave it out.")
        needing = list(dict.fromkeys(run.task for run in runs if name in run.needs))
        if not task and len(needing) > 1:
            raise FigevalError(f"-T {key}: {' and '.join(needing)} each need their own {name}; give "
                               f"{' and '.join(f'-T {need}:{name}=PATH' for need in needing)}.")
        split.append((task or None, name, value))
    return sorted(split, key=lambda given: given[0] is not None)


def _enabling(benchmark: Benchmark, run: ProtocolRun, name: str) -> str:
    """How to give a needed argument: `-T TASK:NAME=PATH` where runs of other tasks need a NAME of their own."""
    others = {other.task for other in benchmark.protocol if name in other.needs and other.task != run.task}
    return f"-T {f'{run.task}:' if others else ''}{name}=PATH, {run.needs[name]}"


def protocol_runs(benchmark: Benchmark, args: dict[str, Any],
                  roles: Sequence[str]) -> tuple[list[PaperRun], list[SkippedRun]]:
    """The paper's protocol with the user's arguments (`-T`, `--judge` as `judge`) and `--model-role` bindings
    given to the runs that take them: the runs to make, and those skipped for a file or judge not given.

    Raises:
        FigevalError: an argument refused by `_split_arguments`, or a role no run asks.
    """
    from figeval.running.judge_plan import judge_model
    from figeval.running.models import roles_of_runs, used_roles

    def parameters_of(task: str) -> set[str]:
        return task_parameters([benchmark], task)

    if args.get("judge") and not any("judge" in parameters_of(run.task) for run in benchmark.protocol):
        raise FigevalError(f"judge {args['judge']} (--judge, -T judge=): no run of {benchmark.name}'s protocol is "
                           "judged; leave it out.")
    split = _split_arguments(benchmark, args)
    needed_somewhere = {name for run in benchmark.protocol for name in run.needs}
    givens = []
    for run in benchmark.protocol:
        given = dict(run.args)
        for task, name, value in split:
            if task in (None, run.task) and _run_takes(benchmark, run, name) \
                    and (name in run.needs or name not in needed_somewhere):
                given[name] = value
        givens.append(given)
    bound = roles_of_runs(roles, [used_roles(parameters_of(run.task), given)
                                  for run, given in zip(benchmark.protocol, givens)],
                          f"no run of {benchmark.name}'s protocol")
    runs, skipped = [], []
    for run, given, run_roles in zip(benchmark.protocol, givens, bound):
        if missing := [name for name in run.needs if name not in given]:
            skipped.append(SkippedRun(run.task, dict(run.args), run.fills, _enabling(benchmark, run, missing[0])))
        elif "judge" in parameters_of(run.task) and judge_model(given, run_roles) is None:
            skipped.append(SkippedRun(run.task, dict(run.args), run.fills, "--judge MODEL, the judge of its answers"))
        else:
            runs.append(PaperRun(run.task, given, run_roles, run.fills))
    if not runs:
        raise FigevalError(f"--paper {benchmark.name}: every run of its protocol needs an argument not given; "
                           + "; ".join(f"{run.task} needs {run.enabled_by}" for run in skipped) + ".")
    return runs, skipped


def paper_decoding(decoding: Decoding | None, params: dict[str, Any],
                   given: set[str]) -> tuple[dict[str, Any], list[str]]:
    """The paper's decoding for its runs: each setting it states that the user did not give (as options to apply), and
    one line for each the user gave another value of (theirs is kept, and the runs' logs record it; their rows in
    the tables say the setting beside the paper's)."""
    if decoding is None:
        return {}, []
    applied, departures = {}, []
    for name, value in decoding.settings.items():
        if name not in given or params.get(name) is None:
            applied[name] = value
        elif float(params[name]) != float(value):
            departures.append(f"--{name.replace('_', '-')} {params[name]} is yours: the paper's is {value} "
                              f"({decoding.source}); the runs use yours and record it.")
    return applied, departures


def decoding_line(decoding: Decoding | None, applied: dict[str, Any]) -> str | None:
    """What a paper run applies of the paper's decoding, and where the paper states it; None when nothing."""
    if decoding is None or not applied:
        return None
    return f"decoding: {pairs_text(applied)}, the paper's ({decoding.source})"


def set_name(run_name: str | None, models: Sequence[str]) -> str:
    """What names a paper run's set (`set_folder`): the run's `--name`, its one model, or its several models
    (`models_name`)."""
    return run_name.strip() if run_name else models_name(models) if len(models) > 1 else models[0]


def models_name(models: Sequence[str]) -> str:
    """The name of a set of several models, for its folder: their short names (a file's stem) joined by "+", cut to
    a folder name's length, then 8 hex digits of the models as given, so that two sets of other files with the
    same stems never share a folder."""
    from figeval.results.model_names import short_name

    joined = "+".join(short_name(model) for model in models)[:100]
    return f"{joined}+{hashlib.sha256(chr(10).join(models).encode('utf-8')).hexdigest()[:8]}"


def set_folder(log_dir: str, paper: str, name: str) -> str:
    """The eval set's folder: LOG_DIR/<paper>/<name> (the run's `--name`, else the model). A name that is not a safe
    folder name as it is ("gguf/gemma-3-270m", "مدل الف" with its space) becomes its letters, digits, `.`, `_` and
    `-` in any script, each other run of characters one `-`, then `-` and 8 hex digits of the name's sha256: two
    names never share a folder, since a run's name is in its log, not in Inspect's identity of its task, and a set
    finding another name's finished tasks in its folder would ask nothing and report them as its own."""
    name = unicodedata.normalize("NFC", name)
    safe = re.sub(r"[^\w.-]+", "-", name).strip("-.")
    if safe != name:
        safe = f"{safe}-{hashlib.sha256(name.encode('utf-8')).hexdigest()[:8]}".lstrip("-")
    return str(Path(log_dir) / paper / safe)


def set_task_ids(folder: str) -> set[str]:
    """The task ids of the eval set Inspect last ran in `folder`, from the `eval-set.json` it writes there (each of
    the set's logs has its task's id); empty when there is none."""
    import json

    try:
        manifest = json.loads((Path(folder) / "eval-set.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    return {str(task.get("task_id")) for task in manifest.get("tasks", []) if isinstance(task, dict)}


def refuse_set_options(params: dict[str, Any]) -> None:
    """Refuses what an eval set cannot combine with a paper run.

    Raises:
        FigevalError: `--sample-id` (ids are a task's own), `--sample-shuffle` with `--limit`, `--run-config`
            (Inspect's eval-set takes none) or a remote `--log-dir` (the tables are read from the logs here).
    """
    if params.get("run_config"):
        raise FigevalError(f"--run-config {params['run_config']} and --paper: Inspect's eval-set takes no run config; "
                           "give its settings as options.")
    if "://" in str(params.get("log_dir") or ""):
        raise FigevalError(f"--log-dir {params['log_dir']} and --paper: a paper run's tables are read from its logs "
                           "on this machine; give a local folder.")
    if params.get("sample_id") is not None:
        raise FigevalError(f"--sample-id {params['sample_id']} and --paper: sample ids are each task's own; give "
                           "--limit N (whole items of every task), or run one task with `figeval run TASK`.")
    if params.get("sample_shuffle") and params.get("limit") is not None:
        raise FigevalError(f"--sample-shuffle and --limit {params['limit']} with --paper: the samples --limit keeps "
                           "are named by id, which Inspect does not shuffle; give one of them.")


