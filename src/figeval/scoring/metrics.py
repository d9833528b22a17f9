"""Rates over outcomes, each with an explicit unparsed policy and its own denominator.

An unparsed answer (the model's answer could not be read) counts in a rate by the rate's **unparsed policy**:

- `as_wrong`: in the denominator, and never the label or target being counted (accuracy: wrong);
- `as_label:<x>`: as if the model had answered label <x> (where a paper counts every response that does not
  reject a fabricated item as a hallucination, an unparsed one counts as accepting it);
- `excluded`: left out of the denominator (used only where a paper does so, and reported beside
  `unparsed_rate`, which every task has).

A judge-unparsed outcome (the judge failed twice) is the instrument's failure, not the model's: every rate
leaves it out and `judge_unparsed_rate` reports it. A rate with an empty denominator is left out of the
results, never reported as zero.

Every proportion a report shows records its own denominator beside it, `<name>/n` (the answers it counted under
its policy and selection; for a group, `<group's name>/n`), so that a report's n and interval are that metric's,
not the run's sample count.

Each task records its policies in its metadata (`unparsed_policies`) and each metric's parameters are in the
log. Per-group breakdowns are in `breakdowns`; what every task reports about how its answers were read
(`unparsed_rate`, the reading layers, decided-by counts, label mass) is in `reading_metrics`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from inspect_ai.scorer import Metric, MetricProtocol, SampleScore, Score, metric, stderr

from figeval.errors import FigevalError
from figeval.scoring.outcome import Outcome, outcome_of

AS_WRONG: Final = "as_wrong"
EXCLUDED: Final = "excluded"
_AS_LABEL = "as_label:"
TARGET = "target"
"""`rate(of=TARGET)`: the share of answers that are the expected label (accuracy)."""


def as_label(label: str) -> str:
    """The policy that counts an unparsed answer as `label`."""
    return f"{_AS_LABEL}{label}"


def check_policy(policy: str) -> str:
    """The policy, if it is one of the three forms; a FigevalError otherwise."""
    if policy in (AS_WRONG, EXCLUDED) or (policy.startswith(_AS_LABEL) and len(policy) > len(_AS_LABEL)):
        return policy
    raise FigevalError(f"unparsed policy must be {AS_WRONG}, {EXCLUDED} or {_AS_LABEL}<label>, not {policy!r}.")


def counted_label(outcome: Outcome, policy: str) -> tuple[bool, str | None]:
    """(whether the outcome is in the denominator, the label it counts as; None matches nothing)."""
    if outcome.is_judge_unparsed:
        return False, None
    if not outcome.is_unparsed:
        return True, outcome.label
    if policy == EXCLUDED:
        return False, None
    if policy.startswith(_AS_LABEL):
        return True, policy.removeprefix(_AS_LABEL)
    return True, None


# Inspect calls every metric of a task (about 50 for the largest) with the same Score objects, and again
# for each display refresh: each score is read back into its Outcome once, not once per metric. The cache holds
# the score itself, so its id cannot be reused by another object while the entry lives.
_OUTCOMES: dict[int, tuple[Score, Outcome]] = {}
_OUTCOMES_LIMIT = 200_000


def sample_outcome(score: Score) -> Outcome:
    """`outcome_of(score)`, read once per Score object."""
    cached = _OUTCOMES.get(id(score))
    if cached is not None and cached[0] is score:
        return cached[1]
    if len(_OUTCOMES) >= _OUTCOMES_LIMIT:
        _OUTCOMES.clear()
    outcome = outcome_of(score)
    _OUTCOMES[id(score)] = (score, outcome)
    return outcome


def outcomes(scores: Sequence[SampleScore]) -> list[Outcome]:
    return [sample_outcome(s.score) for s in scores]


def matches_where(where: Mapping[str, Any] | None, metadata: Mapping[str, Any] | None) -> bool:
    """Whether a sample's metadata has every value of the selection `where` (None or empty: every sample)."""
    return not where or all((metadata or {}).get(key) == value for key, value in where.items())


def counted_values(scores: Sequence[SampleScore], of: str, unparsed: str,
                   where: Mapping[str, Any] | None = None) -> list[int]:
    """One 0/1 value per counted answer: whether it is `of` (a label value, or TARGET: the outcome's own
    target) under the unparsed policy; answers the policy leaves out are not listed."""
    found = []
    for s in scores:
        if not matches_where(where, s.sample_metadata):
            continue
        outcome = sample_outcome(s.score)
        included, label = counted_label(outcome, unparsed)
        if included:
            expected = outcome.target if of == TARGET else of
            found.append(int(label is not None and label == expected))
    return found


# Shared by every indicator score (Inspect's stderr reads only the value): one Score per value, not per sample.
_INDICATOR_SCORES = (Score(value=0), Score(value=1))


def indicators(scores: Sequence[SampleScore], of: str, unparsed: str,
               where: Mapping[str, Any] | None = None) -> list[SampleScore]:
    """`counted_values` as the SampleScores Inspect's own metrics take."""
    return [SampleScore(score=_INDICATOR_SCORES[value]) for value in counted_values(scores, of, unparsed, where)]


@metric
def rate(of: str = TARGET, unparsed: str = AS_WRONG, where: dict[str, Any] | None = None) -> Metric:
    """The share of answers that are `of` (TARGET: accuracy; or a label value), under an unparsed policy.

    Args:
        of: TARGET, or the label value whose share is measured.
        unparsed: the unparsed policy (`as_wrong`, `as_label:<x>`, `excluded`).
        where: only samples whose metadata has these values (e.g. {"kind": "fake"}).
    """
    check_policy(unparsed)

    def compute(scores: list[SampleScore]) -> float | None:
        counted = counted_values(scores, of, unparsed, where)
        return sum(counted) / len(counted) if counted else None

    return compute  # type: ignore[return-value]


@metric
def rate_n(of: str = TARGET, unparsed: str = AS_WRONG, where: dict[str, Any] | None = None) -> Metric:
    """The denominator of `rate` with the same arguments: how many answers it counted; undefined (left out)
    with none, as `rate` is."""
    check_policy(unparsed)

    def compute(scores: list[SampleScore]) -> float | None:
        return len(counted_values(scores, of, unparsed, where)) or None

    return compute  # type: ignore[return-value]


N_SUFFIX = "/n"


def denominator_name(name: str) -> str:
    """The name under which the metric `name` records its denominator (`accuracy/n`, `accuracy/freq_high/n`)."""
    return f"{name}{N_SUFFIX}"


@metric
def rate_stderr(of: str = TARGET, unparsed: str = AS_WRONG, where: dict[str, Any] | None = None) -> Metric:
    """The standard error of `rate` with the same arguments, by Inspect's own `stderr()` over the counted
    answers; undefined (left out) with fewer than two, where Inspect would say 0."""
    check_policy(unparsed)
    inspect_stderr = stderr()

    def compute(scores: list[SampleScore]) -> float | None:
        counted = indicators(scores, of, unparsed, where)
        return float(apply_metric(inspect_stderr, counted)) if len(counted) >= 2 else None

    return compute  # type: ignore[return-value]


@metric
def named(inner: Metric, name: str) -> Metric:
    """The inner metric's value under `name` (a scalar), or its dict as is; undefined values left out.

    Inspect names a metric by its function; this lets one `rate` be `accuracy` and another `yes_rate`.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        value = apply_metric(inner, scores)
        values = value if isinstance(value, dict) else {name: value}
        return {key: v for key, v in values.items() if v is not None}

    return compute


def apply_metric(inner: Metric, scores: list[SampleScore]) -> Any:
    """`inner`'s value on the scores (Inspect's `Metric` type does not declare the call its metrics take)."""
    protocol: MetricProtocol = inner  # type: ignore[assignment]
    return protocol(scores)


def policy_metrics(policies: Mapping[str, tuple[str, str]], where: dict[str, Any] | None = None) -> list[Metric]:
    """One named `rate` per entry of a task's declaration {metric name: (of, unparsed policy)}, each with its
    standard error (`<name>/stderr`) and its denominator (`<name>/n`)."""
    return [metric for name, (of, policy) in policies.items()
            for metric in (named(rate(of, policy, where), name),
                           named(rate_stderr(of, policy, where), f"{name}/stderr"),
                           named(rate_n(of, policy, where), denominator_name(name)))]


def recorded_policies(policies: Mapping[str, tuple[str, str]]) -> dict[str, str]:
    """What a task writes in its metadata: each metric's unparsed policy."""
    return {name: policy for name, (_, policy) in policies.items()}
