"""What the `inspect_ai` entry point imports: every benchmark (its tasks register with Inspect on import) and
figeval's model providers; and the look-ups that `figeval` commands need.

Adding a benchmark is its folder, which exports one `BENCHMARK` (figeval/benchmark.py), and one line here. The
look-ups read `BENCHMARKS` when called, never a copy taken at import.

Providers are registered with factories that import their module lazily, so that listing tasks does not
load llama.cpp.
"""

from __future__ import annotations

from collections.abc import Callable

from inspect_ai import Task
from inspect_ai.model import ModelAPI, modelapi

from figeval import benchmark
from figeval.annotation.spec import AnnotationSpec
from figeval.benchmark import Benchmark
from figeval.benchmarks import ffe_hallu, perhallueval, persian_allusions, turkish_idioms
from figeval.data.source import DatasetSource
from figeval.errors import DataError, FigevalError
from figeval.running.tokens import offline_mock_model_counts

BENCHMARKS: tuple[Benchmark, ...] = (
    ffe_hallu.BENCHMARK,
    turkish_idioms.BENCHMARK,
    persian_allusions.BENCHMARK,
    perhallueval.BENCHMARK,
)


def tasks() -> dict[str, Callable[..., Task]]:
    """Every benchmark's tasks, by the name Inspect registers them under (figeval/<name>)."""
    return {task.__name__: task for found in BENCHMARKS for task in found.tasks}


def datasets() -> dict[str, DatasetSource]:
    """Every benchmark's pinned datasets, by name, in the order of the benchmarks (`figeval data list`'s)."""
    return {source.name: source for found in BENCHMARKS for source in found.datasets()}


def get_source(name: str) -> DatasetSource:
    """The pinned dataset of that name.

    Raises:
        DataError: no benchmark declares it (the message lists those that do).
    """
    known = datasets()
    if name not in known:
        raise DataError(f"unknown dataset '{name}'; known: {', '.join(sorted(known))}")
    return known[name]


def annotation_spec(task: str) -> AnnotationSpec:
    """What people label of a task's answers (what annotators see, how their labels read)."""
    return benchmark.annotation_spec(BENCHMARKS, task)


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


# Inspect's test model (`mockllm/model`) counts its made-up token usage with tiktoken, which downloads its encoding
# on first use: counted offline instead, for every command (runs, paper runs, builds) and Inspect's entry point.
offline_mock_model_counts()

__all__ = ["BENCHMARKS", "annotation_spec", "datasets", "get_source", "gguf", "replay", "tasks"]
