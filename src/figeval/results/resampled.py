"""A metric's value on a bootstrap resample, fast where that is provably the same number.

A paired bootstrap scores both runs on 2000 resamples; calling a task's metric on each (about 1 ms over 400
samples) costs seconds per pair. Two shapes of figeval metric are means of per-sample values, which numpy averages
in microseconds: a rate over its samples (`rate`: the mean of each counted sample's 0/1), and a mean of such a rate
over groups (`mean_over_groups`: the average of two framings' rates). Each fast value is checked against the
metric itself on all samples and on `CHECKS` resamples before it is used; any other metric, or one that fails a
check, is scored by the metric on every resample.
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


def fast_value(metric: Any, definition: Any, name: str, scores: list[SampleScore], values: Sequence[float | None],
               items: Sequence[str]) -> tuple[Value, bool] | None:
    """A fast computation of the metric on a resample (indices into `scores`), checked to give the metric's own
    value, and whether it is the plain mean of `values` (the metric on each sample alone, `per_sample`): then the
    clustered standard error and McNemar's test apply to it. None: no fast computation holds."""
    plain = _means_by_group(values, [""] * len(values), [""])
    if _agrees(plain, metric, name, scores, items):
        return plain, True
    parts = _group_parts(definition)
    if parts is None:
        return None
    inner, key, groups = parts
    inner_values = per_sample(inner, name, scores)
    grouped = _means_by_group(inner_values, [str((s.sample_metadata or {}).get(key)) for s in scores], groups)
    return (grouped, False) if _agrees(grouped, metric, name, scores, items) else None


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


def _agrees(value: Value, metric: Any, name: str, scores: list[SampleScore], items: Sequence[str]) -> bool:
    """The fast value equals the metric's on all samples and on CHECKS resamples of items (seeded)."""
    members: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        members.setdefault(item, []).append(index)
    keys = list(members)
    draws = random.Random(0)
    if metric_value(metric, name, scores) is None:
        return False
    trials = [list(range(len(scores)))] + [[i for _ in keys for i in members[draws.choice(keys)]]
                                            for _ in range(CHECKS)]
    for indices in trials:
        fast, slow = value(indices), metric_value(metric, name, [scores[i] for i in indices])
        if (fast is None) != (slow is None) or (fast is not None and not isclose(fast, slow, abs_tol=1e-12)):  # type: ignore[arg-type]
            return False
    return True
