"""The one way a figeval benchmark builds its Inspect `Task`: what every task shares is set here once.

Every task decodes deterministically (as the papers evaluate), reduces epochs with `outcome_mode` (so metrics
that count labels or pair samples stay right under `--epochs N`), carries its prompt/protocol version as
Inspect's `Task(version=...)` and in its metadata, and records its unparsed policies, answer mode, subset design
and the figeval version in the log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai import Epochs, Task
from inspect_ai.dataset import Dataset
from inspect_ai.scorer import Metric, Scorer
from inspect_ai.solver import Solver

from figeval import __version__
from figeval.answering import DETERMINISTIC, AnswerMode
from figeval.scoring.reducer import outcome_mode
from figeval.subset import DESIGN_KEY, PLAIN, Design


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
        **settings: the task's own arguments worth recording (dataset variant, judge mode).
    """
    metadata: dict[str, Any] = {"benchmark": benchmark, **provenance, **settings}
    if answer_mode is not None:
        metadata["answer_mode"] = answer_mode.value
    if (recorded := design.as_metadata()) is not None:
        metadata[DESIGN_KEY] = recorded
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
