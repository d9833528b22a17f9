"""The outcome contract: Score form, lossless round trips (in memory and through a real .eval log)."""

import pytest
from inspect_ai.scorer import Score

from figeval.errors import FigevalError
from figeval.scoring.outcome import DecidedBy, Outcome, Status, outcome_key, outcome_of, to_score
from tests.metric_values import logged_outcomes

FFE = ["hallucinated", "correct", "incorrect"]
YES_NO = ["yes", "no"]

OUTCOMES = [
    # a parsed answer with a target (accuracy tasks)
    (Outcome("yes", DecidedBy.PARSER, target="no", answer="yes", explanation="read yes from 'Yes.'"), YES_NO),
    # logprob reading, with its probabilities kept
    (Outcome("no", DecidedBy.LOGPROB, target="no", answer="no", explanation="P(no)=0.7",
             details={"probabilities": {"yes": 0.2, "no": 0.7}}), YES_NO),
    # the model's answer could not be read
    (Outcome.unparsed(DecidedBy.PARSER, "no label in 'Hmm'", "yes"), YES_NO),
    # a rule decided without a judge
    (Outcome("correct", DecidedBy.RULE, answer="آب در هاون کوبیدن", rule="reference_match",
             explanation="equals the reference"), FFE),
    # a judge labelled under a named rule
    (Outcome("incorrect", DecidedBy.JUDGE, answer="پا پس کشیدن", rule="judge_existing", explanation="another meaning",
             details={"judge_answers": ['{"label": 0}']}), FFE),
    # the judge failed twice
    (Outcome(None, DecidedBy.JUDGE, Status.JUDGE_UNPARSED, answer="x", explanation="judge answer unreadable twice",
             details={"judge_answers": ["?", "?"]}), FFE),
    # labelled by hand
    (Outcome("yes", DecidedBy.MANUAL, target="yes", answer="yes", explanation="labelled by hand"), YES_NO),
]


@pytest.mark.parametrize("outcome, labels", OUTCOMES,
                         ids=[f"{o.decided_by.value}-{o.status.value}" for o, _ in OUTCOMES])
def test_round_trip_in_memory(outcome, labels):
    assert outcome_of(to_score(outcome, labels)) == outcome


def test_score_form():
    score = to_score(Outcome.unparsed(DecidedBy.PARSER, "no label in 'Hmm'", "yes"), YES_NO)
    # everything averaged is in the value; the failure has Inspect's reason; nothing was read
    assert score.value == {"yes": 0, "no": 0, "unparsed": 1, "truncated": 0, "judge_unparsed": 0, "correct": 0}
    assert score.reason == "invalid_response_format" and score.answer is None
    assert score.metadata == {"decided_by": "parser", "labels": YES_NO, "target": "yes"}
    judged = to_score(OUTCOMES[5][0], FFE)
    assert judged.reason == "grader_failed" and "correct" in judged.value and judged.value["correct"] == 0
    assert set(judged.value) == {"hallucinated", "correct", "incorrect", "unparsed", "truncated", "judge_unparsed"}


def test_round_trip_through_an_eval_log(tmp_path):
    outcomes = [outcome for outcome, labels in OUTCOMES if labels is YES_NO]
    log = logged_outcomes(tmp_path, outcomes, YES_NO)
    read_back = [outcome_of(sample.scores["replayed_outcomes"]) for sample in log.samples]
    assert read_back == outcomes
    # 1 unparsed of 4
    assert log.results.scores[0].metrics["unparsed_rate"].value == pytest.approx(1 / 4)


def test_an_outcome_has_a_label_exactly_when_labelled():
    with pytest.raises(ValueError):
        Outcome(None, DecidedBy.PARSER)
    with pytest.raises(ValueError):
        Outcome("yes", DecidedBy.PARSER, Status.UNPARSED)


def test_a_label_outside_the_task_labels_is_refused():
    with pytest.raises(ValueError, match="not one of the task's labels"):
        to_score(Outcome("maybe", DecidedBy.PARSER), YES_NO)


def test_scores_averaged_across_epochs_are_refused_with_the_fix():
    averaged = to_score(Outcome("yes", DecidedBy.PARSER, target="yes"), YES_NO).model_copy(
        update={"value": {"yes": 0.5, "no": 0.5, "unparsed": 0, "judge_unparsed": 0, "correct": 0.5}})
    with pytest.raises(FigevalError, match="averaged across epochs .* without --epochs-reducer"):
        outcome_of(averaged)


def test_a_score_not_written_by_figeval_is_refused():
    with pytest.raises(FigevalError, match="not written by a figeval scorer"):
        outcome_of(Score(value="C"))


def test_outcome_key_separates_the_two_failures_from_labels():
    assert outcome_key(OUTCOMES[0][0]) == "yes"
    assert outcome_key(OUTCOMES[2][0]) == "unparsed"
    assert outcome_key(OUTCOMES[5][0]) == "judge_unparsed"
