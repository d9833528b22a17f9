"""What the `inspect_ai` entry point imports: each benchmark package's exported tasks, and figeval's model
providers; and the look-ups by task name that `figeval` commands need.

Providers are registered with factories that import their module lazily, so that listing tasks does not
load llama.cpp.
"""

from __future__ import annotations

from collections.abc import Callable
from inspect import signature
from typing import Any

from inspect_ai import Task
from inspect_ai.model import ModelAPI, modelapi

from figeval.annotation.spec import AnnotationSpec
from figeval.benchmarks import ffe_hallu, perhallueval, persian_allusions, turkish_idioms
from figeval.benchmarks.ffe_hallu import ffe_detection, ffe_generation, ffe_translation
from figeval.benchmarks.perhallueval import perhallueval_qa, perhallueval_summarization
from figeval.benchmarks.persian_allusions import allusion_knowledge, allusion_mc, allusion_open
from figeval.benchmarks.turkish_idioms import tr_idiom_detection, tr_idiom_entailment
from figeval.errors import FigevalError
from figeval.reporting.tables import Column, TableSpec

BENCHMARKS = (ffe_hallu, turkish_idioms, persian_allusions, perhallueval)

# The tasks, by the name Inspect registers them under (figeval/<name>).
TASKS: dict[str, Callable[..., Task]] = {task.__name__: task for package in BENCHMARKS for task in package.TASKS}
# Tasks whose answers people label: what `figeval annotate` and `figeval judge agreement` need.
ANNOTATED: dict[str, AnnotationSpec] = {
    task.__name__: spec for package in BENCHMARKS for task, spec in package.ANNOTATED.items()
}

# The papers' results tables and each task's headline (the leaderboard's columns), for `figeval report`.
TABLES: tuple[TableSpec, ...] = tuple(spec for package in BENCHMARKS for spec in package.TABLES)
HEADLINES: tuple[Column, ...] = tuple(column for package in BENCHMARKS for column in package.HEADLINES)


def annotation_spec(task: str) -> AnnotationSpec:
    """The annotation spec of a task (what annotators see, how their labels read)."""
    if task not in ANNOTATED:
        raise FigevalError(f"task '{task}' has no human-label scheme; tasks with one: {', '.join(ANNOTATED)}.")
    return ANNOTATED[task]


def make_task(name: str, args: dict[str, Any]) -> Task:
    """The task `name` with arguments given on the command line, checked against its signature first.

    Raises:
        FigevalError: unknown task or argument, or a word given for a bool or int argument.
    """
    if name not in TASKS:
        raise FigevalError(f"unknown task '{name}'; known tasks: {', '.join(sorted(TASKS))}.")
    parameters = signature(TASKS[name]).parameters
    unknown = sorted(set(args) - set(parameters))
    if unknown:
        raise FigevalError(f"{name} has no parameter {', '.join(unknown)}; it takes: {', '.join(parameters)}.")
    typed = {arg: _typed(name, arg, value, parameters[arg].default) for arg, value in args.items()}
    return TASKS[name](**typed)


def _typed(task: str, arg: str, value: Any, default: Any) -> Any:
    """A task argument as its parameter takes it: text from the command line is read as a bool or a number only
    where the parameter is one (`-T pairs=2024` is a file name, `-T seed=7` a number).

    Raises:
        FigevalError: a word for a bool or a number parameter ("controls=maybe" must not run the controls).
    """
    from figeval.cli.options import parse_value

    expected = "true or false" if isinstance(default, bool) else "a whole number" if isinstance(default, int) else None
    if expected is None:
        return value
    read = parse_value(value.strip()) if isinstance(value, str) else value
    if type(read) is type(default):
        return read
    raise FigevalError(f"{task}: -T {arg}={value!r} must be {expected}.")


def takes_answer_mode(name: str) -> bool:
    return name in TASKS and "answer_mode" in signature(TASKS[name]).parameters


@modelapi(name="gguf")
def gguf() -> type[ModelAPI]:
    from importlib.util import find_spec

    # llama.cpp and the embedded model are an extra (about 300 MB and a C++ build): say how to get them before
    # a run starts, not with an import error at its first sample.
    if find_spec("llama_cpp") is None:
        raise FigevalError("gguf models (the embedded default included) need llama-cpp-python: "
                           "pip install 'figeval[embedded]'.")
    from figeval.models.gguf import GGUFModelAPI

    return GGUFModelAPI


@modelapi(name="replay")
def replay() -> type[ModelAPI]:
    from figeval.models.replay import ReplayModelAPI

    return ReplayModelAPI


__all__ = ["allusion_knowledge", "allusion_mc", "allusion_open", "ffe_detection", "ffe_generation", "ffe_translation",
           "gguf", "perhallueval_qa", "perhallueval_summarization", "replay", "tr_idiom_detection",
           "tr_idiom_entailment"]
