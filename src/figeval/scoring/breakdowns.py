"""Per-group breakdowns of a metric over sample metadata, through Inspect's `grouped()`: each group's value under
a name of its own (with its `/n` for a rate), and a mean or total over named groups. `grouped_by` adds what
Inspect's `grouped()` lacks: samples that belong to several groups (an allusion with two themes counts in both).
"""

from __future__ import annotations

from typing import Any

from inspect_ai.scorer import Metric, SampleScore, grouped, metric

from figeval.scoring.metrics import apply_metric, denominator_name, rate, rate_n


@metric
def grouped_by(inner: Metric, key: str, name_template: str, many: bool = False) -> Metric:
    """`inner` per value of the sample metadata `key`, through Inspect's `grouped()`, named by `name_template`
    ("accuracy/freq_{group_name}"); groups where `inner` is undefined are left out.

    Args:
        many: the key holds a list and a sample counts in each of its groups (multi-label themes).
    """
    per_group = grouped(inner, key, all=False, name_template=name_template)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        if many:
            # once per distinct group: a list that repeats a theme does not count the sample twice
            scores = [s.model_copy(update={"sample_metadata": {**(s.sample_metadata or {}), key: group}})
                      for s in scores for group in dict.fromkeys((s.sample_metadata or {}).get(key) or [])]
        present = [s for s in scores if (s.sample_metadata or {}).get(key) is not None]
        if not present:
            return {}
        return {name: v for name, v in apply_metric(per_group, present).items() if v is not None}

    return compute


def grouped_rate(of: str, unparsed: str, key: str, name_template: str, where: dict[str, Any] | None = None,
                 many: bool = False) -> list[Metric]:
    """`rate` per group of the sample metadata `key` (`grouped_by`), each group's with its denominator named
    `<group's name>/n` ("accuracy/freq_high/n")."""
    return [grouped_by(rate(of, unparsed, where), key, name_template, many),
            grouped_by(rate_n(of, unparsed, where), key, denominator_name(name_template), many)]


@metric
def mean_over_groups(inner: Metric, key: str, groups: list[str]) -> Metric:
    """The mean of `inner` over the `groups` of sample metadata `key` (as Inspect's `grouped(all="groups")`),
    a scalar; undefined unless `inner` is defined in every one of them (an average over two framings of one
    question needs both)."""
    per_group = grouped(inner, key, all=False)

    def compute(scores: list[SampleScore]) -> float | None:
        if not scores:
            return None
        found = apply_metric(per_group, scores)
        values = [found.get(group) for group in groups]
        return None if any(v is None for v in values) else sum(values) / len(values)

    return compute  # type: ignore[return-value]


@metric
def total_over_groups(inner: Metric, key: str, groups: list[str]) -> Metric:
    """The sum of `inner` (a count: `rate_n`) over the `groups` of sample metadata `key`, undefined unless it is
    defined in every one of them: the n of a `mean_over_groups` over the same groups, present exactly when it is."""
    per_group = grouped(inner, key, all=False)

    def compute(scores: list[SampleScore]) -> float | None:
        found = apply_metric(per_group, scores) if scores else {}
        values = [found.get(group) for group in groups]
        defined = [v for v in values if v is not None]
        return sum(defined) if len(defined) == len(values) else None

    return compute  # type: ignore[return-value]
