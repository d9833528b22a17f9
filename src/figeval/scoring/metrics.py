"""Metrics over outcomes, each with an explicit unparsed policy, and per-group breakdowns.

An unparsed answer (the model's answer could not be read) counts in a rate by the rate's **unparsed policy**:

- `as_wrong`: in the denominator, and never the label or target being counted (accuracy: wrong);
- `as_label:<x>`: as if the model had answered label <x> (FFE-HALLU: a response that does not reject a fake
  is a hallucination, so an unparsed one counts as accepting it);
- `excluded`: left out of the denominator (used only where a paper does so, and reported beside
  `unparsed_rate`, which every task has).

A judge-unparsed outcome (the judge failed twice) is the instrument's failure, not the model's: every rate
leaves it out and `judge_unparsed_rate` reports it. A rate with an empty denominator is left out of the
results, never reported as zero.

Every proportion a report shows records its own denominator beside it, `<name>/n` (the answers it counted under
its policy and selection; for a group, `<group's name>/n`), so that a report's n and interval are that metric's,
not the run's sample count.

Each task records its policies in its metadata (`unparsed_policies`) and each metric's parameters are in the
log. Breakdowns use Inspect's `grouped()`; `grouped_by` adds what it lacks: samples that belong to several
groups (an allusion with two themes counts in both).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Score, grouped, metric, stderr
from inspect_ai.scorer._metric import MetricProtocol

from figeval.errors import FigevalError
from figeval.scoring.outcome import DecidedBy, Outcome, ReadBy, Status, outcome_of
from figeval.scoring.readers import LABEL_MASS

AS_WRONG = "as_wrong"
EXCLUDED = "excluded"
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


# Inspect calls every metric of a task (about 50 for FFE-HALLU detection) with the same Score objects, and again
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


def _matches(where: Mapping[str, Any] | None, metadata: Mapping[str, Any] | None) -> bool:
    return not where or all((metadata or {}).get(key) == value for key, value in where.items())


def counted_values(scores: Sequence[SampleScore], of: str, unparsed: str,
                   where: Mapping[str, Any] | None = None) -> list[int]:
    """One 0/1 value per counted answer: whether it is `of` (a label value, or TARGET: the outcome's own
    target) under the unparsed policy; answers the policy leaves out are not listed."""
    found = []
    for s in scores:
        if not _matches(where, s.sample_metadata):
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
        return float(_call(inspect_stderr, counted)) if len(counted) >= 2 else None

    return compute  # type: ignore[return-value]


def _has_status(outcome: Outcome, status: str) -> bool:
    # a truncated answer is also an unparsed one (it was not read)
    return outcome.is_unparsed if status == Status.UNPARSED.value else outcome.status.value == status


@metric
def status_rate(status: str = "unparsed", where: dict[str, Any] | None = None) -> Metric:
    """The share of all answers with a status: `unparsed` (not read, truncated ones included), `truncated` or
    `judge_unparsed`."""

    def compute(scores: list[SampleScore]) -> float | None:
        chosen = [sample_outcome(s.score) for s in scores if _matches(where, s.sample_metadata)]
        return sum(_has_status(o, status) for o in chosen) / len(chosen) if chosen else None

    return compute  # type: ignore[return-value]


@metric
def answer_count(where: dict[str, Any] | None = None) -> Metric:
    """How many answers `where` selects (judge-unparsed ones included): `status_rate`'s denominator; undefined
    (left out) with none."""

    def compute(scores: list[SampleScore]) -> float | None:
        return sum(_matches(where, s.sample_metadata) for s in scores) or None

    return compute  # type: ignore[return-value]


def counted_status(status: str, name: str, where: dict[str, Any] | None = None) -> list[Metric]:
    """`status_rate` named `name`, with its denominator (`<name>/n`)."""
    return [named(status_rate(status, where), name), named(answer_count(where), denominator_name(name))]


UNREAD = "unread"
"""`read/unread`: the share of answers no layer read (unparsed and truncated)."""


def read_layer(outcome: Outcome) -> str:
    """How an answer was read, as the run summary and the report count it: a `ReadBy` value, `unread`, or
    `rule` (nothing to read: a rule decided on an answer that names nothing)."""
    if outcome.is_unparsed:
        return UNREAD
    return outcome.read_by.value if outcome.read_by is not None else DecidedBy.RULE.value


@metric
def reading_shares(where: dict[str, Any] | None = None) -> Metric:
    """The share of answers each layer read (`read/paper_rule`, `read/figeval_reader`, `read/logprob`,
    `read/extractor`, `read/manual`) and `read/unread`, over the answers `where` selects, whose number is `read/n`:
    how a task's numbers were read."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        chosen = [sample_outcome(s.score) for s in scores if _matches(where, s.sample_metadata)]
        if not chosen:
            return {}
        counts = Counter(read_layer(o) for o in chosen)
        shares = {f"read/{layer.value}": 0.0 for layer in ReadBy} | {f"read/{UNREAD}": 0.0}
        return shares | {f"read/{layer}": n / len(chosen) for layer, n in counts.items()} | {"read/n": len(chosen)}

    return compute


def reading_metrics(where: dict[str, Any] | None = None, prefix: str = "") -> list[Metric]:
    """What every task reports about reading its answers: `unparsed_rate` (truncated included),
    `truncated_rate` (each with its `/n`) and the shares of each reading layer (`reading_shares`); with a prefix for a subset
    (`control_unparsed_rate`)."""
    return [*counted_status(Status.UNPARSED.value, f"{prefix}unparsed_rate", where),
            *counted_status(Status.TRUNCATED.value, f"{prefix}truncated_rate", where),
            *([reading_shares(where)] if not prefix else [])]


@metric
def named(inner: Metric, name: str) -> Metric:
    """The inner metric's value under `name` (a scalar), or its dict as is; undefined values left out.

    Inspect names a metric by its function; this lets one `rate` be `accuracy` and another `yes_rate`.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        value = _call(inner, scores)
        values = value if isinstance(value, dict) else {name: value}
        return {key: v for key, v in values.items() if v is not None}

    return compute


def _call(inner: Metric, scores: list[SampleScore]) -> Any:
    protocol: MetricProtocol = inner  # type: ignore[assignment]
    return protocol(scores)


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
        return {name: v for name, v in _call(per_group, present).items() if v is not None}

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
    a scalar; undefined unless `inner` is defined in every one of them (FFE-HALLU's average of two framings
    needs both)."""
    per_group = grouped(inner, key, all=False)

    def compute(scores: list[SampleScore]) -> float | None:
        if not scores:
            return None
        found = _call(per_group, scores)
        values = [found.get(group) for group in groups]
        return None if any(v is None for v in values) else sum(values) / len(values)

    return compute  # type: ignore[return-value]


@metric
def total_over_groups(inner: Metric, key: str, groups: list[str]) -> Metric:
    """The sum of `inner` (a count: `rate_n`) over the `groups` of sample metadata `key`, undefined unless it is
    defined in every one of them: the n of a `mean_over_groups` over the same groups, present exactly when it is."""
    per_group = grouped(inner, key, all=False)

    def compute(scores: list[SampleScore]) -> float | None:
        found = _call(per_group, scores) if scores else {}
        values = [found.get(group) for group in groups]
        return None if any(v is None for v in values) else sum(values)

    return compute  # type: ignore[return-value]


@metric
def decided_by_counts() -> Metric:
    """How many answers each way decided (`decided_by/<parser|logprob|rule|judge|manual>`), and each named
    rule (`rule/<name>`)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        found = outcomes(scores)
        counts = Counter(f"decided_by/{o.decided_by.value}" for o in found)
        counts.update(f"rule/{o.rule}" for o in found if o.rule)
        return {**{f"decided_by/{d.value}": 0.0 for d in DecidedBy}, **{k: float(v) for k, v in counts.items()}}

    return compute


def policy_metrics(policies: Mapping[str, tuple[str, str]], where: dict[str, Any] | None = None) -> list[Metric]:
    """One named `rate` per entry of a task's declaration {metric name: (of, unparsed policy)}, each with its
    standard error (`<name>/stderr`) and its denominator (`<name>/n`)."""
    return [metric for name, (of, policy) in policies.items()
            for metric in (named(rate(of, policy, where), name), named(rate_stderr(of, policy, where), f"{name}/stderr"),
                           named(rate_n(of, policy, where), denominator_name(name)))]


def recorded_policies(policies: Mapping[str, tuple[str, str]]) -> dict[str, str]:
    """What a task writes in its metadata: each metric's unparsed policy."""
    return {name: policy for name, (_, policy) in policies.items()}


@metric
def label_mass() -> Metric:
    """Logprob answers: the mean probability mass the next token puts on all the labels' words together
    (`label_mass`), and the share of answers where it is under one half (`label_mass/under_half`), each over the
    answers read from log-probabilities (its `/n`; a generated answer has no mass). A small mass says the model
    barely answered with a label: its answers rest on the tail of its distribution."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        masses = [o.details[LABEL_MASS] for o in outcomes(scores) if LABEL_MASS in o.details]
        if not masses:
            return {}
        return {"label_mass": sum(masses) / len(masses), denominator_name("label_mass"): len(masses),
                "label_mass/under_half": sum(m < 0.5 for m in masses) / len(masses),
                denominator_name("label_mass/under_half"): len(masses)}

    return compute
