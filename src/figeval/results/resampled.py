"""A metric's value on a bootstrap resample, fast where that is provably the same number.

A paired bootstrap scores both runs on 2000 resamples; calling a task's metric on each (about 1 ms over 400
samples) costs seconds per pair. Three shapes of figeval metric are means, which numpy averages in microseconds: a
rate over its samples (`rate`: the mean of each counted sample's 0/1), a mean of such a rate over groups
(`mean_over_groups`: the average of two framings' rates), and a mean over items of a value each item has alone (a
score of a pair of answers to one item, such as a Hamming score, counted where both answers are). Each fast value
is checked against the metric itself on all samples and on `CHECKS` resamples before it is used; any other metric,
or one that fails a check, is scored by the metric on every resample.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from math import isclose
from typing import Any

import numpy as np
from inspect_ai.scorer import SampleScore

from figeval._compat import metric_from_definition
from figeval.scoring.metrics import apply_metric

CHECKS = 20
Value = Callable[[Sequence[int]], float | None]


def metric_value(metric: Any, name: str, scores: list[SampleScore]) -> float | None:
    """The metric's value `name` on these scores (a metric's dict entry, or its scalar); None: undefined."""
    value = apply_metric(metric, scores)
    if isinstance(value, Mapping):
        value = value.get(name)
    return None if value is None else float(value)


def per_sample(metric: Any, name: str, scores: list[SampleScore]) -> list[float | None]:
    """The metric on each sample alone (a rate: 1 or 0 where the sample is counted, None where it is not)."""
    return [metric_value(metric, name, [score]) for score in scores]


class Drawn:
    """The scores at a resample's indices (`Drawn(scores, unit)(indices)`), each further draw of an item given as an
    item of its own: its samples' `unit` metadata (the key the task's design names the item by) marked with the
    draw. A metric that pairs an item's samples by that key (two answers to one item) would otherwise take an item
    drawn twice for one item, and score the resample on its distinct items: not the bootstrap over items."""

    def __init__(self, scores: Sequence[SampleScore], unit: str | None) -> None:
        self.scores, self.unit = scores, unit
        self.copies: dict[tuple[int, int], SampleScore] = {}

    def __call__(self, indices: Sequence[int]) -> list[SampleScore]:
        if self.unit is None:
            return [self.scores[i] for i in indices]
        draws: dict[int, int] = {}
        drawn = []
        for index in indices:
            draw = draws[index] = draws.get(index, -1) + 1
            drawn.append(self.scores[index] if draw == 0 else self._copy(index, draw))
        return drawn

    def _copy(self, index: int, draw: int) -> SampleScore:
        if (index, draw) not in self.copies:
            score = self.scores[index]
            metadata = dict(score.sample_metadata or {})
            if self.unit in metadata:
                metadata[self.unit] = f"{metadata[self.unit]}#{draw}"
            self.copies[index, draw] = SampleScore(score=score.score, sample_id=score.sample_id,
                                                   sample_metadata=metadata)
        return self.copies[index, draw]


def fast_value(metric: Any, definition: Any, name: str, scores: list[SampleScore], values: Sequence[float | None],
               items: Sequence[str], drawn: Drawn) -> tuple[Value, bool] | None:
    """A fast computation of the metric on a resample (indices into `scores`), checked to give the metric's own
    value on the `drawn` scores, and whether it is the plain mean of `values` (the metric on each sample alone,
    `per_sample`): then the clustered standard error and McNemar's test apply to it. None: no fast computation
    holds."""
    plain = _means_by_group(values, [""] * len(values), [""])
    if _agrees(plain, metric, name, drawn, items):
        return plain, True
    parts = _group_parts(definition)
    if parts is not None:
        inner, key, groups = parts
        inner_values = per_sample(inner, name, scores)
        grouped = _means_by_group(inner_values, [str((s.sample_metadata or {}).get(key)) for s in scores], groups)
        if _agrees(grouped, metric, name, drawn, items):
            return grouped, False
    if len(set(items)) == len(items):
        return None  # each sample is its own item: the per-sample mean above was the per-item one
    by_item = _means_by_group(per_item(metric, name, scores, items), [""] * len(scores), [""])
    return (by_item, False) if _agrees(by_item, metric, name, drawn, items) else None


def per_item(metric: Any, name: str, scores: list[SampleScore], items: Sequence[str]) -> list[float | None]:
    """The metric on each item's samples alone, at the item's first sample (None at its other samples): a
    resample holds every sample of each item it draws, so the mean of these over a resample's defined values is
    the mean over its drawn items, each counted as often as it was drawn."""
    members: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        members.setdefault(item, []).append(index)
    values: list[float | None] = [None] * len(scores)
    for indices in members.values():
        values[indices[0]] = metric_value(metric, name, [scores[i] for i in indices])
    return values


def _means_by_group(values: Sequence[float | None], group_of: Sequence[str], groups: Sequence[str]) -> Value:
    """The mean over `groups` of each group's mean of its defined values; None where a group has none."""
    array = np.array([np.nan if v is None else v for v in values], dtype=float)
    labels = np.array(group_of, dtype=object)
    members = [(labels == group) & ~np.isnan(array) for group in groups]

    def value(indices: Sequence[int]) -> float | None:
        chosen = np.asarray(indices, dtype=int)
        means = []
        for member in members:
            picked = chosen[member[chosen]]
            if not len(picked):
                return None
            means.append(float(array[picked].mean()))
        return sum(means) / len(means)

    return value


def _group_parts(definition: Any) -> tuple[Any, str, list[str]] | None:
    """For a metric logged as `named(mean_over_groups(<leaf metric>, key, groups))`, the leaf metric (made again),
    the key and the groups."""
    options = getattr(definition, "options", None) or {}
    inner = options.get("inner")
    if not isinstance(inner, dict) or str(inner.get("name", "")).split("/")[-1] != "mean_over_groups":
        return None
    params = inner.get("params") or {}
    leaf = params.get("inner")
    if not isinstance(leaf, dict) or leaf.get("type") != "metric" or not params.get("key"):
        return None
    return metric_from_definition(leaf["name"], leaf.get("params")), str(params["key"]), list(params["groups"])


def _agrees(value: Value, metric: Any, name: str, drawn: Drawn, items: Sequence[str]) -> bool:
    """The fast value equals the metric's on all samples and on CHECKS resamples of items (seeded)."""
    members: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        members.setdefault(item, []).append(index)
    keys = list(members)
    draws = random.Random(0)
    if metric_value(metric, name, drawn(range(len(items)))) is None:
        return False
    trials = [list(range(len(items)))] + [[i for _ in keys for i in members[draws.choice(keys)]]
                                            for _ in range(CHECKS)]
    for indices in trials:
        fast, slow = value(indices), metric_value(metric, name, drawn(indices))
        if (fast is None) != (slow is None) or (fast is not None and not isclose(fast, slow, abs_tol=1e-12)):  # type: ignore[arg-type]
            return False
    return True
