"""Reducing a sample's epochs to one outcome: the most frequent answer, kept whole.

Inspect's default reducer averages each value key, which turns a label into fractions and keeps the first
epoch's metadata: metrics that count labels or pair samples (framing agreement, PerHalluEval's pairs) would
then read nonsense. `outcome_mode` keeps one epoch's whole score instead: the epoch whose outcome (label, or
unparsed / judge-unparsed) is most frequent; on a tie, the earliest such epoch. Every epoch's outcome is kept
in the metadata (`epoch_outcomes`), so ties are visible.
"""

from __future__ import annotations

from collections import Counter

from inspect_ai.scorer import Score, ScoreReducer, score_reducer

from figeval.scoring.outcome import outcome_key, outcome_of

EPOCH_OUTCOMES = "epoch_outcomes"


@score_reducer(name="outcome_mode")
def outcome_mode() -> ScoreReducer:
    def reduce(scores: list[Score]) -> Score:
        if len(scores) == 1:
            return scores[0]
        keys = [outcome_key(outcome_of(score)) for score in scores]
        counts = Counter(keys)
        top = max(counts.values())
        chosen = next(i for i, key in enumerate(keys) if counts[key] == top)
        kept = scores[chosen]
        return kept.model_copy(update={"metadata": {**(kept.metadata or {}), EPOCH_OUTCOMES: keys}})

    return reduce
