"""Metrics applied to hand-built outcomes, as Inspect applies them to a run's scores."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from inspect_ai.scorer import Metric, SampleScore

from figeval.scoring.outcome import Outcome, to_score


def sample_score(outcome: Outcome, labels: Sequence[str], sample_id: str = "s", **metadata: Any) -> SampleScore:
    return SampleScore(score=to_score(outcome, labels), sample_id=sample_id, sample_metadata=metadata)


def metric_values(metrics: Iterable[Metric], scores: list[SampleScore]) -> dict[str, float]:
    """Every named value the metrics give (each of figeval's top-level metrics returns a dict of them)."""
    values: dict[str, float] = {}
    for metric in metrics:
        result = metric(scores)  # type: ignore[operator]
        assert isinstance(result, dict), f"a top-level metric returned {result!r}, not a dict of named values"
        values |= result
    return values


def identity_metadata(settings: dict[str, Any], files: Sequence[str] = (), own: Sequence[str] = ()) -> dict[str, Any]:
    """Task metadata recording a run's identity as `figeval.task.identified_task` does (the settings also as plain
    metadata, as tasks record them), for a log built by hand."""
    from figeval.task import IDENTITY_KEY, PROMPT_VERSION, RecordedIdentity

    own = (*own, *((PROMPT_VERSION,) if PROMPT_VERSION in settings else ()))
    recorded = RecordedIdentity({k: str(v) for k, v in settings.items() if v is not None}, tuple(files), tuple(own))
    return {**settings, IDENTITY_KEY: recorded.as_metadata()}


def logged_outcomes(tmp_path, outcomes: Sequence[Outcome], labels: Sequence[str],
                    metadata: Sequence[dict[str, Any]] | None = None, task_name: str = "outcomes",
                    task_metadata: dict[str, Any] | None = None, metrics: list | None = None,
                    settings: dict[str, Any] | None = None):
    """A real `.eval` log, written by Inspect, whose samples were scored with the given outcomes (in order); with
    `settings`, the run's identity (`identity_metadata`) beside `task_metadata`."""
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.log import read_eval_log
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import scorer
    from inspect_ai.solver import generate

    from figeval.scoring.metrics import named
    from figeval.scoring.reading_metrics import status_rate

    by_id = {f"s{i}": outcome for i, outcome in enumerate(outcomes, start=1)}

    @scorer(metrics=metrics or [named(status_rate("unparsed"), "unparsed_rate")])
    def replayed_outcomes():
        async def score(state, target):
            return to_score(by_id[str(state.sample_id)], labels)

        return score

    def reply(messages, tools, tool_choice, config):
        output = ModelOutput.from_content("mockllm/model", "an answer")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tiktoken offline
        return output

    samples = [Sample(id=sample_id, input="question", metadata=(metadata[i] if metadata else {}))
               for i, sample_id in enumerate(by_id)]
    if settings is not None:
        task_metadata = {**(task_metadata or {}), **identity_metadata(settings)}
    task = Task(name=task_name, dataset=MemoryDataset(samples), solver=generate(), scorer=replayed_outcomes(),
                metadata=task_metadata)
    [log] = inspect_eval(task, model=get_model("mockllm/model", custom_outputs=reply, memoize=False),
                         log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    return read_eval_log(log.location)


READING_KEYS = ("read/", "asked/", "truncated_rate", "control_truncated_rate")


def without_reading(values: dict[str, float]) -> dict[str, float]:
    """A run's metrics without how its answers were read (the shares of each reading layer and the truncated
    rate), which tests/*/test_real_answers.py check on the corpus of real answers."""
    return {name: value for name, value in values.items() if not name.startswith(READING_KEYS)}


def run_metrics(log) -> dict[str, float]:
    """Every metric value of a run's log, how its answers were read aside (`without_reading`)."""
    return without_reading({name: m.value for score in log.results.scores for name, m in score.metrics.items()})
