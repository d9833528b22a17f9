"""The one way a figeval benchmark builds its Inspect `Task`: what every task shares is set here once.

Every task decodes deterministically (as the papers evaluate), reduces epochs with `outcome_mode` (so metrics
that count labels or pair samples stay right under `--epochs N`), carries its prompt/protocol version as
Inspect's `Task(version=...)` and in its metadata, and records its unparsed policies, answer mode, subset design
and the figeval version in the log.

Every task function is registered with `identified_task`, which records the run's identity in the log: every
parameter of the task is part of it (a file by its name and checksum) unless the task declares it score-neutral,
with the reason. Reports, comparisons and labels read the identity from the log, so a new parameter can never be
silently left out of what tells two runs apart.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import Dataset
from inspect_ai.scorer import Metric, Scorer
from inspect_ai.solver import Solver

from figeval.version import __version__
from figeval.answering import DETERMINISTIC, AnswerMode
from figeval.data.stored import sha256_of
from figeval.scoring.reducer import outcome_mode
from figeval.subset import DESIGN_KEY, PLAIN, Design

IDENTITY_KEY = "run_identity"
"""The task metadata key a run's identity is recorded under (`RecordedIdentity.as_metadata`)."""
ITEM_MEANS_KEY = "item_means"
"""The task metadata key of the metrics that are no share of their n (`benchmark_task`'s `item_means`)."""
PROMPT_VERSION = "prompt_version"
"""The setting that holds a task's prompt version: each task's own (two tasks' versions are never one setting)."""


@dataclass(frozen=True)
class IdentityDeclaration:
    """What a task says of its parameters, beyond "each is part of the run's identity"."""

    neutral: Mapping[str, str] = field(default_factory=dict)
    """Parameters that cannot change a number of the run, each with the reason (recorded in the log)."""
    files: Collection[str] = ()
    """Parameters naming a file: recorded as its name and the first 8 hex digits of its sha256, so two versions
    of one file never count as one setting; a run with one is on data other than the paper's."""
    own: Collection[str] = ()
    """Parameters that are this task's own even where another task of the benchmark has one of the same name (a
    data file each task reads for itself): a table never compares them across tasks."""


def identified_task(neutral: Mapping[str, str] | None = None, files: Collection[str] = (),
                    own: Collection[str] = ()) -> Callable[[Callable[..., Task]], Callable[..., Task]]:
    """`@task`, recording the run's identity: every parameter's value (None: not given, left out) but those
    declared `neutral`, and the task's prompt version. The declaration is kept on the task function
    (`identity_declaration`) for the contract test and `figeval list`.

    Raises:
        TypeError: a declared name is not a parameter of the task (a typo would silently leave it in).
    """
    declaration = IdentityDeclaration(dict(neutral or {}), tuple(files), tuple(own))

    def register(function: Callable[..., Task]) -> Callable[..., Task]:
        signature = inspect.signature(function)
        unknown = sorted({*declaration.neutral, *declaration.files, *declaration.own} - set(signature.parameters))
        if unknown:
            raise TypeError(f"{function.__name__} declares {unknown} in its identity, but has no such parameter")

        @functools.wraps(function)
        def build(*args: Any, **kwargs: Any) -> Task:
            arguments = signature.bind(*args, **kwargs)
            arguments.apply_defaults()
            built = function(*args, **kwargs)
            recorded = recorded_identity(dict(arguments.arguments), declaration, built.version)
            built.metadata = {**(built.metadata or {}), IDENTITY_KEY: recorded.as_metadata()}
            return built

        build.identity_declaration = declaration  # type: ignore[attr-defined]
        return task(build)

    return register


def identity_declaration(task_function: Callable[..., Task]) -> IdentityDeclaration | None:
    """The task's declaration (`identified_task`), or None for a task registered without one."""
    return getattr(task_function, "identity_declaration", None)


@dataclass(frozen=True)
class RecordedIdentity:
    settings: dict[str, str]
    files: tuple[str, ...] = ()
    own: tuple[str, ...] = ()
    neutral: dict[str, str] = field(default_factory=dict)

    def as_metadata(self) -> dict[str, Any]:
        return {"settings": dict(self.settings), "files": list(self.files), "own": list(self.own),
                "neutral": dict(self.neutral)}

    @staticmethod
    def from_metadata(recorded: Mapping[str, Any]) -> RecordedIdentity:
        return RecordedIdentity({str(k): str(v) for k, v in dict(recorded.get("settings") or {}).items()},
                                tuple(recorded.get("files") or ()), tuple(recorded.get("own") or ()),
                                dict(recorded.get("neutral") or {}))


def recorded_identity(arguments: Mapping[str, Any], declaration: IdentityDeclaration,
                      version: Any) -> RecordedIdentity:
    """The identity of a task built with `arguments` (every parameter, defaults applied)."""
    settings = {PROMPT_VERSION: str(version)} if version not in (None, 0) else {}
    files = []
    for name, value in arguments.items():
        if name in declaration.neutral or value is None:
            continue
        if name in declaration.files:
            settings[name] = file_setting(Path(str(value)))
            files.append(name)
        else:
            settings[name] = str(value)
    own = tuple(name for name in (PROMPT_VERSION, *declaration.own) if name in settings)
    return RecordedIdentity(settings, tuple(files), own, dict(declaration.neutral))


def file_setting(path: Path) -> str:
    """A file as a setting: its name and the first 8 hex digits of its sha256 ("qa.csv@1a2b3c4d"); the name alone
    when it cannot be read (the task refuses it, with its own message)."""
    try:
        return f"{path.name}@{sha256_of(path)[:8]}"
    except OSError:
        return path.name


def benchmark_task(
    *,
    benchmark: str,
    dataset: Dataset,
    solver: Solver | Sequence[Solver],
    scorer: Scorer,
    version: str,
    unparsed_policies: Mapping[str, str],
    provenance: Mapping[str, Any],
    answer_mode: AnswerMode | None = None,
    metrics: Sequence[Metric] | None = None,
    design: Design = PLAIN,
    item_means: Sequence[str] = (),
    **settings: Any,
) -> Task:
    """A benchmark task.

    Args:
        benchmark: what the task is, with the paper's task name ("<paper> Task 2 (detection ...)").
        dataset: the samples.
        solver: how the model is asked.
        scorer: how an answer becomes an outcome.
        version: the prompt/protocol version (bumped with any change to a prompt or rule).
        unparsed_policies: metric name -> how it counts an unparsed answer.
        provenance: the dataset pins and checksums of every file used.
        answer_mode: generate or logprob, for tasks that offer both.
        metrics: metrics that depend on the data (replacing the scorer's).
        design: how the samples hang together (items asked several ways, the groups reported), so that
            `figeval run --limit N` keeps it (figeval.subset); the default, PLAIN, says the first N samples are a
            fair subset.
        item_means: metrics that are no share of their n (a mean of per-item scores, an F1), with the metrics
            grouped under them ("hamming_score/generic"): reports put no Wilson interval on them
            (`figeval.results.tables.metric_cell`).
        **settings: the task's own arguments worth recording (dataset variant, judge mode).
    """
    metadata: dict[str, Any] = {"benchmark": benchmark, **provenance, **settings}
    if answer_mode is not None:
        metadata["answer_mode"] = answer_mode.value
    if (recorded := design.as_metadata()) is not None:
        metadata[DESIGN_KEY] = recorded
    if item_means:
        metadata[ITEM_MEANS_KEY] = list(item_means)
    metadata |= {"prompt_version": version, "unparsed_policies": dict(unparsed_policies),
                 "figeval_version": __version__}
    return Task(
        dataset=dataset,
        solver=list(solver) if isinstance(solver, Sequence) else solver,
        scorer=scorer,
        metrics=list(metrics) if metrics is not None else None,
        config=DETERMINISTIC,
        epochs=Epochs(1, outcome_mode()),
        version=version,
        metadata=metadata,
    )
