"""A run's checks of the models it names, before its log is started: every model's provider is one
Inspect knows, each `--model-role` is bound once and asked by the task, a judged task has its judge, hand labels
are of the run's model, and an `openai/` name that is not OpenAI's is warned about.

Inspect would find each of these out at the first sample, after the log was started, or not at all.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from pathlib import Path

from figeval.benchmark import Benchmark
from figeval.errors import FigevalError

# OpenAI's own model names; any other name under openai/ is treated by Inspect as an unknown (reasoning) model.
OPENAI_MODEL = re.compile(r"^(gpt-|chatgpt-|o\d|ft:|text-|davinci|babbage|codex|computer-use)")


class JudgeOption(str):
    """A judge given as `--judge MODEL`: the task takes it as the model name it is, and a refusal names the option
    the user typed (`judge_given`) rather than the `-T judge=` it stands for."""


def judge_given(model: str) -> str:
    """The judge as the user gave it: `--judge MODEL` or `-T judge=MODEL`."""
    return f"--judge {model}" if isinstance(model, JudgeOption) else f"-T judge={model}"


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
        check_provider(args["judge"], judge_given(args["judge"]))
    for given in roles:
        role, _, value = given.partition("=")
        check_role_config(given, value)
        for model in role_models(value):
            check_provider(model, f"--model-role {role.strip()}={model}")


def check_model_files(args: dict[str, str], roles: tuple[str, ...]) -> None:
    """Makes the judge and each role's model that names a file (`providers.model_file`: gguf weights, a replay)
    once, without asking it, so that its provider checks the file before the run's log is started: a scorer makes
    its judge at the first answer it judges, after the log was started (an empty .gguf judge ended a run that had
    written its log). A dry run asks no model and does not make them.

    Raises:
        FigevalError: the provider's refusal of the file (it names the file and the fix).
    """
    from inspect_ai.model import get_model

    from figeval.providers import model_file

    models = [args["judge"]] if args.get("judge") else []
    models += [model for given in roles for model in role_models(given.partition("=")[2])]
    for model in dict.fromkeys(models):
        if model_file(model) is not None:
            get_model(model, memoize=False)


def check_role_config(given: str, value: str) -> None:
    """Refuses a `--model-role` config (`{model: ..., ...}`) that Inspect would refuse with a traceback once the
    run's tasks are built: a key that is neither `model`, `model_args` (the model's own arguments, -M's) nor a
    generation setting, or `model_args` that is not a mapping.

    Raises:
        FigevalError: naming the option, the key and what to give.
    """
    import yaml
    from inspect_ai.model import GenerateConfigArgs

    try:
        found = yaml.safe_load(value)
    except yaml.YAMLError:
        return  # not a config: a model name, as Inspect reads it
    settings = {"model", "model_args", *GenerateConfigArgs.__annotations__}
    for config in found if isinstance(found, list) else [found]:
        if not isinstance(config, dict):
            continue
        if unknown := sorted(str(key) for key in set(config) - settings):
            raise FigevalError(f"--model-role {given}: {', '.join(unknown)} is not a setting of a model role; give "
                               "the model's own arguments (-M's) as model_args: {...} and generation settings by "
                               "name (temperature, max_tokens, ...).")
        if not isinstance(config.get("model_args", {}), dict):
            raise FigevalError(f"--model-role {given}: model_args must be name: value pairs "
                               "(model_args: {n_ctx: 8192}).")


def used_roles(task_parameters: Collection[str], args: dict[str, str]) -> set[str]:
    """The model roles a figeval task asks a model of: a judged task (one with a `judge` argument) its `grader`
    when no -T judge is given (judge.resolve_judge); every other task its `extractor`, for the answers its readers
    could not read (scoring.extractor.with_extractor, called by each non-judged scorer and by no judged one)."""
    from figeval.scoring.extractor import EXTRACTOR_ROLE

    if "judge" in task_parameters:
        return set() if args.get("judge") else {"grader"}
    return {EXTRACTOR_ROLE}


def roles_of_runs(roles: Sequence[str], asks: Sequence[Collection[str]], none_asks: str) -> list[tuple[str, ...]]:
    """Each of several runs' `--model-role` bindings: those of the roles it asks (`used_roles`), in the order given.

    Raises:
        FigevalError: a binding no run asks (`none_asks` names who does not: "none of a, b").
    """
    bound = {role: role.partition("=")[0].strip() for role in roles}
    if unused := [role for role, name in bound.items() if not any(name in asked for asked in asks)]:
        raise FigevalError(f"--model-role {unused[0]}: {none_asks} asks it; leave it out.")
    return [tuple(role for role in roles if bound[role] in asked) for asked in asks]


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
            raise FigevalError(f"--model-role grader= is not used: {judge_given(args['judge'])} is {task_name}'s "
                               "judge; give one of them.")
        asks = f"only the role{'s' if len(used) > 1 else ''} {', '.join(sorted(used))}" if used else "no model role"
        raise FigevalError(f"--model-role {name}= is not used: {task_name} asks {asks}; leave it out"
                           + (f" or bind {' or '.join(sorted(used))}." if used else "."))


def check_manual_labels(benchmarks: Sequence[Benchmark], args: dict[str, str], model: str) -> None:
    """Refuses `-T manual_labels=FILE` whose hand labels are all of other models' answers: the scorer applies a
    label to the answer of the same model and sample, so they would be ignored without a word.

    Raises:
        FigevalError: naming the file, the models it labels and the run's model.
    """
    from figeval.annotation.labels import read_labels
    from figeval.benchmark import annotation_spec

    if not args.get("manual_labels"):
        return
    labels, _ = read_labels(Path(args["manual_labels"]), lambda task: annotation_spec(benchmarks, task))
    models = sorted({label.model for label in labels if label.label is not None})
    if model not in models:
        raise FigevalError(f"-T manual_labels={args['manual_labels']}: its labels are of "
                           f"{', '.join(models) or 'no answer'}, not of {model}; give the labels of this model's "
                           "answers (`figeval annotate export` of its run, then `figeval annotate import`).")


def check_judge_given(task_name: str, task_parameters: Collection[str], args: dict[str, str],
                      roles: tuple[str, ...]) -> None:
    """Refuses a judged task (one with a `judge` argument) given neither `-T judge=` nor `--model-role grader=`:
    it would fail at its first sample.

    Raises:
        FigevalError: naming the task and the two ways to give its judge.
    """
    from figeval.scoring.judge import NO_JUDGE

    bound = {role.split("=", 1)[0].strip() for role in roles}
    if "judge" in task_parameters and "judge" not in args and "grader" not in bound:
        raise FigevalError(f"{task_name}: {NO_JUDGE}")


def openai_name_warning(model: str) -> str | None:
    """A warning for `openai/<name>` where the name is not one of OpenAI's: an OpenAI-compatible server (vLLM,
    llama.cpp's server, Ollama) needs its own provider prefix, or Inspect sends it OpenAI-only requests."""
    provider, _, name = model.partition("/")
    if provider != "openai" or OPENAI_MODEL.match(name):
        return None
    return (f"warning: '{name}' is not an OpenAI model name; for an OpenAI-compatible server use "
            f"openai-api/<service>/{name} (with <SERVICE>_BASE_URL and <SERVICE>_API_KEY), vllm/{name}, "
            f"ollama/{name} or llama-cpp-python/{name}.")
