"""The outcome contract: what the model said, how it was decided, and whether it could be read.

Every scorer in figeval turns a model's answer into one `Outcome` and stores it as an Inspect `Score` with
`to_score`; everything downstream (metrics, epoch reduction, annotation sheets, judge agreement, analyses,
reports) reads it back with `outcome_of`, never through raw value keys or metadata strings.

The `Score` form: `value` holds everything that is averaged (one 0/1 entry per label of the task's label set,
`unparsed`, `judge_unparsed`, and `correct` when the task has a right answer), so Inspect's viewer shows it;
`answer` is the text the label was read from; `reason` is set for failures; `metadata` holds how the outcome
was decided (`decided_by`, `rule`), how the model's answer was read (`read_by`), the expected label (`target`) and
details such as the judge's raw answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from inspect_ai.scorer import Score

from figeval.errors import FigevalError


class DecidedBy(str, Enum):
    """What gave an outcome its label (or failed to)."""

    PARSER = "parser"
    """A parser read the model's text."""
    LOGPROB = "logprob"
    """The next-token probabilities of the labels' words."""
    RULE = "rule"
    """A rule, without a model: an exact match with the reference, an answer that names nothing."""
    JUDGE = "judge"
    """A judge model."""
    MANUAL = "manual"
    """A person (hand labels of answers the readers could not read)."""
    EXTRACTOR = "extractor"
    """An extractor model, asked only about answers the readers could not read."""


class ReadBy(str, Enum):
    """Which layer read the model's answer (for a judged task: found the answer the judge was shown).

    The layers are tried in this order; the shares of each are reported with every run, because a number read
    by the paper's own rule is comparable with the paper's and one read by figeval's reader is ours.
    """

    PAPER_RULE = "paper_rule"
    """Layer 1: the answer in the form the paper's prompt asks for, read by the paper's stated rule."""
    FIGEVAL_READER = "figeval_reader"
    """Layer 2: figeval's reader (documented in the benchmark's README): what a person reads without hesitation."""
    LOGPROB = "logprob"
    """The next-token probabilities of the labels' words (logprob answer mode)."""
    EXTRACTOR = "extractor"
    """An extractor model read an answer the readers could not."""
    MANUAL = "manual"
    """A person read an answer the readers could not (hand labels)."""


class Status(str, Enum):
    LABELLED = "labelled"
    UNPARSED = "unparsed"
    """The model's answer could not be read: the model's failure, counted by each metric's unparsed policy."""
    TRUNCATED = "truncated"
    """The model's answer was stopped by the token limit before it was read: counted as unparsed (the model's
    failure, by each metric's unparsed policy), named on its own so that a user raises the limit."""
    JUDGE_UNPARSED = "judge_unparsed"
    """The judge's answer could not be read, even after one retry: the instrument's failure, not the model's."""


# Inspect `Score.reason` of the two failures (machine-readable; the explanation says what was seen).
UNPARSED_REASON = "invalid_response_format"
TRUNCATED_REASON = "max_tokens"
JUDGE_UNPARSED_REASON = "grader_failed"

# Keys of `Score.value` that are not labels. A truncated answer is also unparsed (`unparsed` 1, `truncated` 1).
UNPARSED, TRUNCATED, JUDGE_UNPARSED, CORRECT = "unparsed", "truncated", "judge_unparsed", "correct"
# Keys of `Score.metadata` that the contract owns.
_DECIDED_BY, _READ_BY, _RULE, _TARGET, _LABELS = "decided_by", "read_by", "rule", "target", "labels"


@dataclass(frozen=True)
class Outcome:
    """One scored answer."""

    label: str | None
    """The label's value (e.g. "hallucinated", "yes", "3"); None unless `status` is LABELLED."""
    decided_by: DecidedBy
    status: Status = Status.LABELLED
    read_by: ReadBy | None = None
    """Which layer read the model's answer; None when no layer did (unparsed, truncated) or nothing was read
    (a rule on an empty answer)."""
    target: str | None = None
    """The expected label, for tasks with a right answer (accuracy); None for judged tasks."""
    answer: str | None = None
    """The text the label was read from (the extracted expression, the model's verdict); None when unparsed."""
    explanation: str = ""
    rule: str | None = None
    """The named rule that decided, or under which the judge was asked (e.g. "reference_match")."""
    details: Mapping[str, Any] = field(default_factory=dict)
    """Anything else worth keeping in the log (the judge's raw answers, label probabilities)."""

    def __post_init__(self) -> None:
        if (self.label is None) != (self.status is not Status.LABELLED):
            raise ValueError(f"an outcome has a label exactly when it is labelled: {self.label!r}, {self.status}")

    @classmethod
    def unparsed(cls, decided_by: DecidedBy, explanation: str, target: str | None = None, **details: Any) -> Outcome:
        return cls(None, decided_by, Status.UNPARSED, target=target, explanation=explanation, details=details)

    @classmethod
    def truncated(cls, decided_by: DecidedBy, explanation: str, target: str | None = None, **details: Any) -> Outcome:
        return cls(None, decided_by, Status.TRUNCATED, target=target, explanation=explanation, details=details)

    def by_hand(self, label: str) -> Outcome:
        """This answer as a person labelled it: decided and read by hand, what no layer could read kept in the
        explanation."""
        return replace(self, label=label, status=Status.LABELLED, decided_by=DecidedBy.MANUAL, read_by=ReadBy.MANUAL,
                       answer=label, explanation=f"labelled by hand ({self.explanation})")

    @property
    def is_unparsed(self) -> bool:
        """Whether the model's answer was not read (truncated answers included): each metric's unparsed policy
        counts it."""
        return self.status in (Status.UNPARSED, Status.TRUNCATED)

    @property
    def is_judge_unparsed(self) -> bool:
        return self.status is Status.JUDGE_UNPARSED

    @property
    def correct(self) -> bool | None:
        """Whether the label is the target (an unparsed answer is not); None for a task without targets."""
        return None if self.target is None else self.label == self.target


def to_score(outcome: Outcome, labels: Sequence[str]) -> Score:
    """The Inspect `Score` of an outcome, for a task whose label set is `labels` (in the order they are shown)."""
    if outcome.label is not None and outcome.label not in labels:
        raise ValueError(f"label {outcome.label!r} is not one of the task's labels {list(labels)}")
    if outcome.target is not None and CORRECT in labels:
        raise ValueError(f"a task with targets cannot have a label named {CORRECT!r}")
    value: dict[str, int] = {label: int(outcome.label == label) for label in labels}
    value[UNPARSED] = int(outcome.is_unparsed)
    value[TRUNCATED] = int(outcome.status is Status.TRUNCATED)
    value[JUDGE_UNPARSED] = int(outcome.is_judge_unparsed)
    if outcome.target is not None:
        value[CORRECT] = int(bool(outcome.correct))
    metadata: dict[str, Any] = {_DECIDED_BY: outcome.decided_by.value, _LABELS: list(labels), **outcome.details}
    if outcome.read_by is not None:
        metadata[_READ_BY] = outcome.read_by.value
    if outcome.rule is not None:
        metadata[_RULE] = outcome.rule
    if outcome.target is not None:
        metadata[_TARGET] = outcome.target
    reason = {Status.UNPARSED: UNPARSED_REASON, Status.TRUNCATED: TRUNCATED_REASON,
              Status.JUDGE_UNPARSED: JUDGE_UNPARSED_REASON}.get(outcome.status)
    return Score(value=value, answer=outcome.answer, explanation=outcome.explanation or None, reason=reason,
                 metadata=metadata)


def is_outcome(score: Score) -> bool:
    """Whether a score holds an outcome in the form `to_score` writes (a log re-scored by another scorer does
    not)."""
    metadata = score.metadata or {}
    return isinstance(score.value, dict) and _DECIDED_BY in metadata and _LABELS in metadata


def outcome_of(score: Score) -> Outcome:
    """The outcome a `to_score` Score holds (also after Inspect wrote it to a log and read it back).

    Raises:
        FigevalError: the score is not an outcome, or its value was averaged across epochs by a reducer other
            than figeval's `outcome_mode` (values between 0 and 1 hold no single label).
    """
    value, metadata = score.value, score.metadata or {}
    if not is_outcome(score) or not isinstance(value, dict):  # (is_outcome checks the dict: this tells mypy)
        # a figeval log re-scored by another scorer keeps its header (figeval.results.logs accepts it): its
        # samples' scores are refused here, the first place they are read
        raise FigevalError(f"a score not written by a figeval scorer (no outcome metadata {_DECIDED_BY}, {_LABELS}): "
                           "its log was re-scored by another scorer; re-score it with its figeval scorer "
                           "(`inspect score LOG --scorer figeval/<scorer> --action overwrite`).")
    if any(v not in (0, 1) for v in value.values()):
        raise FigevalError(
            "scores were averaged across epochs (values between 0 and 1); figeval tasks reduce epochs with their "
            "own `outcome_mode` reducer: run the task again without --epochs-reducer."
        )
    chosen = [label for label in metadata[_LABELS] if value.get(label) == 1]
    if value.get(TRUNCATED):
        status = Status.TRUNCATED
    elif value.get(UNPARSED):
        status = Status.UNPARSED
    elif value.get(JUDGE_UNPARSED):
        status = Status.JUDGE_UNPARSED
    else:
        status = Status.LABELLED
    if len(chosen) != (status is Status.LABELLED):
        raise FigevalError(f"score value {value} names {len(chosen)} labels; it was not written by a figeval scorer.")
    owned = {_DECIDED_BY, _READ_BY, _RULE, _TARGET, _LABELS}
    return Outcome(
        label=chosen[0] if chosen else None,
        decided_by=DecidedBy(metadata[_DECIDED_BY]),
        status=status,
        read_by=ReadBy(metadata[_READ_BY]) if metadata.get(_READ_BY) else None,
        target=metadata.get(_TARGET),
        answer=score.answer,
        explanation=score.explanation or "",
        rule=metadata.get(_RULE),
        details={key: item for key, item in metadata.items() if key not in owned},
    )


def outcome_key(outcome: Outcome) -> str:
    """What two outcomes must share to be "the same answer": a label, "unparsed" (truncated answers included:
    neither was read) or "judge_unparsed"."""
    if outcome.label is not None:
        return outcome.label
    return Status.UNPARSED.value if outcome.is_unparsed else outcome.status.value
