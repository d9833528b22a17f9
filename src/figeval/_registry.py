"""What the `inspect_ai` entry point imports: each benchmark package's exported tasks, and figeval's model
providers; and the look-ups by task name that `figeval` commands need.

Providers are registered with factories that import their module lazily, so that listing tasks does not
load llama.cpp.
"""

from __future__ import annotations

from collections.abc import Callable

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
