"""Epochs reduce to each sample's most frequent outcome, kept whole, so label and pair metrics stay right."""

from figeval.scoring.outcome import DecidedBy, Outcome, outcome_of, to_score
from figeval.scoring.reducer import outcome_mode

LABELS = ["yes", "no"]


def score(label: str | None, explanation: str = ""):
    if label is None:
        return to_score(Outcome.unparsed(DecidedBy.PARSER, explanation or "no label", "yes"), LABELS)
    return to_score(Outcome(label, DecidedBy.PARSER, target="yes", explanation=explanation or label), LABELS)


def test_the_most_frequent_outcome_is_kept_whole():
    reduce = outcome_mode()
    reduced = reduce([score("yes", "first"), score("no", "second"), score("no", "third")])
    outcome = outcome_of(reduced)
    assert outcome.label == "no" and outcome.explanation == "second"  # the earliest epoch with the mode
    assert reduced.value == {"yes": 0, "no": 1, "unparsed": 0, "truncated": 0, "judge_unparsed": 0,
                             "correct": 0}  # not averaged
    assert reduced.metadata["epoch_outcomes"] == ["yes", "no", "no"]


def test_unparsed_is_an_outcome_of_its_own():
    reduced = outcome_mode()([score(None), score(None), score("yes")])
    assert outcome_of(reduced).is_unparsed and reduced.reason == "invalid_response_format"


def test_a_tie_keeps_the_earliest_epoch_and_shows_the_tie():
    reduced = outcome_mode()([score("no"), score("yes")])
    assert outcome_of(reduced).label == "no" and reduced.metadata["epoch_outcomes"] == ["no", "yes"]


def test_one_epoch_is_left_as_it_is():
    single = score("yes")
    assert outcome_mode()([single]) is single
