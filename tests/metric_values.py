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
