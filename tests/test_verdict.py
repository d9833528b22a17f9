"""The principles every closed-label reader shares (`figeval.verdict`), on a two-label toy vocabulary: two
answers are no answer, a hedge with no lean is none, a supposition or a question states nothing, a revision
concludes; and `read_layers` leaves an undecided answer unread whatever the paper's one-word rule reads."""

import pytest

from figeval.scoring.readers import read_layers
from figeval.verdict import Undecided, cue, read_verdict

CUES = [*cue("fake", r"\bfake\b", r"\bmade up\b"), *cue("real", r"\breal\b", r"\bgenuine\b")]


@pytest.mark.parametrize("answer, expected", [
    ("It is made up.", "fake"),
    # a revision concludes: the later label replaces the earlier one
    ("It is real. Wait, I was wrong: it is made up.", "fake"),
    ("It is fake. On second thought, it is genuine.", "real"),
    ("It is fake. Correction: it is real.", "real"),
    ("جعلی است. اصلاح: it is real.", "real"),
    # a supposition states nothing; the sentence after it answers
    ("If it were genuine, it would be in dictionaries. It is made up.", "fake"),
    ("اگر real بود، در فرهنگ‌ها می‌آمد. It is fake.", "fake"),
    # a question (restated) states nothing
    ("Is it real? It is fake.", "fake"),
    # a lean beside a hedge is the answer
    ("I am not sure, but it is probably fake.", "fake"),
    # nothing about the question at all
    ("The expression talks about a cat.", None),
])
def test_a_verdict_is_read_by_what_each_sentence_asserts(answer, expected):
    assert read_verdict(answer, CUES) == expected


@pytest.mark.parametrize("answer, named", [
    # two answers, nothing concluding: both cues named
    ("It is real. It is made up.", "real in 'it is real.'; fake in 'it is made up.'"),
    ("Fake. There is a genuine one like it.", "fake in 'fake.'; real in 'there is a genuine one like it.'"),
    # a hedge with no lean: the hedge named
    ("I cannot verify this.", "a hedge with no lean: 'i cannot verify this.'"),
    ("It depends on the region.", "a hedge with no lean"),
])
def test_two_answers_or_a_hedge_alone_are_undecided_and_named(answer, named):
    with pytest.raises(Undecided, match=None) as raised:
        read_verdict(answer, CUES)
    assert named in str(raised.value)


def test_an_undecided_answer_is_unread_whatever_the_paper_s_rule_reads():
    # the paper's rule reads the last word ("fake"); the reader sees two answers: unread, and the explanation says so
    def paper(text):
        return "fake" if text.rstrip(".").split()[-1] == "fake" else None

    label, layer, how = read_layers("It is real. I think it is fake.", paper, lambda t: read_verdict(t, CUES))
    assert (label, layer) == (None, None)
    assert how.startswith("no label: two answers, nothing concluding: real in 'it is real.'")
    # adversarial negative: the same last word after a conclusion is read (by the reader, which saw the conclusion)
    label, layer, _ = read_layers("It looks real. So it is fake.", paper, lambda t: read_verdict(t, CUES))
    assert label == "fake"
