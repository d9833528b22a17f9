"""Reducing a sample's epochs to one outcome: the most frequent answer, kept whole.

Inspect's default reducer averages each value key, which turns a label into fractions and keeps the first
epoch's metadata: metrics that count labels or pair samples (agreement across framings, paired versions) would
then read nonsense. `outcome_mode` keeps one epoch's whole score instead: the epoch whose outcome (label, or
unparsed / judge-unparsed) is most frequent; on a tie, the earliest such epoch. Every epoch's outcome is kept
in the metadata (`epoch_outcomes`), so ties are visible.

A log keeps every epoch's sample; `sample_outcomes` gives what everything reading a log sample by sample
(annotation sheets, judge agreement, analyses) must use: one outcome per sample, the one the metrics saw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.scorer import Score, ScoreReducer, score_reducer

from figeval.scoring.outcome import Outcome, outcome_key, outcome_of

EPOCH_OUTCOMES = "epoch_outcomes"


def modal_epoch(outcomes: Sequence[Outcome]) -> int:
    """The index of the earliest epoch whose outcome is the most frequent one."""
    keys = [outcome_key(outcome) for outcome in outcomes]
    counts = Counter(keys)
    top = max(counts.values())
    return next(i for i, key in enumerate(keys) if counts[key] == top)


@score_reducer(name="outcome_mode")
def outcome_mode() -> ScoreReducer:
    def reduce(scores: list[Score]) -> Score:
        if len(scores) == 1:
            return scores[0]
        outcomes = [outcome_of(score) for score in scores]
        kept = scores[modal_epoch(outcomes)]
        return kept.model_copy(update={"metadata": {**(kept.metadata or {}),
                                                    EPOCH_OUTCOMES: [outcome_key(o) for o in outcomes]}})

    return reduce


def sample_outcomes(log: EvalLog) -> list[tuple[EvalSample, Outcome]]:
    """One (sample, outcome) per sample id of a log, in log order: with several epochs, the epoch
    `outcome_mode` keeps (its own sample, so its output text goes with its outcome). Samples without a score
    (errors) are left out."""
    epochs: dict[str, list[tuple[EvalSample, Outcome]]] = {}
    for sample in log.samples or []:
        score = next(iter((sample.scores or {}).values()), None)
        if score is not None:
            epochs.setdefault(str(sample.id), []).append((sample, outcome_of(score)))
    return [found[modal_epoch([outcome for _, outcome in found])] for found in epochs.values()]
