"""How generate mode reads an answer that was stopped before it ended: by the token limit (its complete sentences,
else truncated) or by the loop guard (truncated, whatever it said, with the reason named)."""

from inspect_ai.model import ModelOutput, ModelUsage, StopDetails

from figeval.answering import AnswerMode
from figeval.models.loops import LOOP_STOP
from figeval.scoring.outcome import Status, outcome_of, to_score
from figeval.scoring.readers import is_truncated, read_answer

LABELS = ("real", "fake")


def reader(text: str) -> str | None:
    return "fake" if "not a real idiom" in text else "real" if "is a real idiom" in text else None


def output(text: str, stop_reason: str, stop_details: StopDetails | None = None) -> ModelOutput:
    made = ModelOutput.from_content("m", text, stop_reason=stop_reason, stop_details=stop_details)  # type: ignore[arg-type]
    made.usage = ModelUsage(input_tokens=10, output_tokens=57, total_tokens=67)
    return made


def read(made: ModelOutput):
    return read_answer(made, AnswerMode.GENERATE, paper=None, reader=reader, words={}, target="fake")


LOOPING = "The expression is not a real idiom in Persian. " * 5
LOOP = StopDetails(type=LOOP_STOP, explanation="stopped: repeating itself: a passage of 47 characters repeated "
                                               "back to back")


def test_a_looping_answer_is_truncated_with_its_reason_even_when_its_sentences_say_something():
    made = output(LOOPING, "unknown", LOOP)
    assert is_truncated(made)
    outcome = read(made)
    assert outcome.status is Status.TRUNCATED and outcome.label is None and outcome.is_unparsed
    assert len(LOOPING) == 235  # 5 x 47
    assert outcome.explanation == ("stopped: repeating itself: a passage of 47 characters repeated back to back, "
                                   "after 235 characters, before an answer was read")
    assert outcome.details["stopped"] == "stopped: repeating itself"
    score = to_score(outcome, LABELS)
    assert score.value == {"real": 0, "fake": 0, "unparsed": 1, "truncated": 1, "judge_unparsed": 0, "correct": 0}
    assert outcome_of(score).status is Status.TRUNCATED


def test_the_same_text_cut_by_the_token_limit_is_read_from_its_complete_sentences():
    outcome = read(output(LOOPING + "The expression", "max_tokens"))
    assert outcome.label == "fake" and outcome.status is Status.LABELLED


def test_an_answer_cut_by_the_token_limit_before_a_verdict_is_told_to_raise_the_limit():
    outcome = read(output("Let me think about the expression and its", "max_tokens"))
    assert outcome.status is Status.TRUNCATED
    assert outcome.explanation == ("stopped by the token limit (57 tokens) before an answer was read: raise "
                                   "max_tokens (--max-tokens) and re-run")
    assert "stopped" not in outcome.details


def test_an_unknown_stop_without_the_guard_is_read_as_a_whole_answer():
    made = output("It is a real idiom.", "unknown")
    assert not is_truncated(made) and read(made).label == "real"
    other = output("It is a real idiom.", "unknown", StopDetails(type="refusal", explanation="policy"))
    assert not is_truncated(other) and read(other).label == "real"
