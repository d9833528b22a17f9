"""What every task reports about how its answers were read, beside its rates: the share of answers with each
status (`unparsed_rate`, truncated ones included; `truncated_rate`; `judge_unparsed_rate`), each with its `/n`;
the share each reading layer read (`read/<layer>`); the share asked in each answer mode (`asked/<mode>`); how many
answers each way decided (`decided_by/<way>`); and, for answers read from log-probabilities, the probability mass
the labels had (`label_mass`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, metric

from figeval.answering import ASKED_IN, AnswerMode
from figeval.scoring.metrics import denominator_name, matches_where, named, outcomes, sample_outcome
from figeval.scoring.outcome import DecidedBy, Outcome, ReadBy, Status
from figeval.scoring.readers import LABEL_MASS


def _has_status(outcome: Outcome, status: str) -> bool:
    # a truncated answer is also an unparsed one (it was not read)
    return outcome.is_unparsed if status == Status.UNPARSED.value else outcome.status.value == status


@metric
def status_rate(status: str = "unparsed", where: dict[str, Any] | None = None) -> Metric:
    """The share of all answers with a status: `unparsed` (not read, truncated ones included), `truncated` or
    `judge_unparsed`."""

    def compute(scores: list[SampleScore]) -> float | None:
        chosen = [sample_outcome(s.score) for s in scores if matches_where(where, s.sample_metadata)]
        return sum(_has_status(o, status) for o in chosen) / len(chosen) if chosen else None

    return compute  # type: ignore[return-value]


@metric
def answer_count(where: dict[str, Any] | None = None) -> Metric:
    """How many answers `where` selects (judge-unparsed ones included): `status_rate`'s denominator; undefined
    (left out) with none."""

    def compute(scores: list[SampleScore]) -> float | None:
        return sum(matches_where(where, s.sample_metadata) for s in scores) or None

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
    `read/extractor`, `read/manual`) and `read/unread`, over the answers `where` selects, whose number is `read/n`,
    and the share asked in each answer mode (`asked/<mode>`): how a task's numbers were read."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        chosen = [sample_outcome(s.score) for s in scores if matches_where(where, s.sample_metadata)]
        if not chosen:
            return {}
        counts = Counter(read_layer(o) for o in chosen)
        shares = {f"read/{layer.value}": 0.0 for layer in ReadBy} | {f"read/{UNREAD}": 0.0}
        return (shares | {f"read/{layer}": n / len(chosen) for layer, n in counts.items()} | {"read/n": len(chosen)}
                | _asked_shares(chosen))

    return compute


def _asked_shares(outcomes: list[Outcome]) -> dict[str, float]:
    """The share of answers asked in each answer mode (`asked/generate`, `asked/logprob`), over those that record
    one (`figeval.answering.ASKED_IN`): how the run asked, as its log keeps it for reports."""
    asked = Counter(mode for o in outcomes if (mode := o.details.get(ASKED_IN)) is not None)
    total = sum(asked.values())
    return {f"asked/{mode.value}": asked[mode.value] / total for mode in AnswerMode
            if mode is not AnswerMode.AUTO} if total else {}


def reading_metrics(where: dict[str, Any] | None = None, prefix: str = "") -> list[Metric]:
    """What every task reports about reading its answers: `unparsed_rate` (truncated included),
    `truncated_rate` (each with its `/n`) and the shares of each reading layer (`reading_shares`); with a prefix
    for a subset (`control_unparsed_rate`)."""
    return [*counted_status(Status.UNPARSED.value, f"{prefix}unparsed_rate", where),
            *counted_status(Status.TRUNCATED.value, f"{prefix}truncated_rate", where),
            *([reading_shares(where)] if not prefix else [])]


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
