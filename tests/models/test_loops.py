"""The loop rule (`figeval.models.loops`) on hand-made texts: a passage of p characters repeated back to back over
max(3p, 200) characters is a loop, for p up to 600; ordinary prose with repeated phrases is not."""

import pytest

from figeval.models.loops import LOOP_STOP, loop_end, loop_period, stopped_looping


@pytest.mark.parametrize(("unit", "period"), [("!", 1), ("ha", 2), ("Yes no ", 7)])
def test_a_short_period_is_a_loop_once_it_covers_200_characters(unit: str, period: int):
    assert len(unit) == period
    looping = unit * (1000 // period)
    assert loop_period(looping[:199]) is None  # 199 characters of it: not yet
    assert loop_period(looping[:200]) == period
    assert loop_period(looping) == period


def test_where_a_text_first_loops():
    # "Answer: " is 8 characters, then "ab" repeated: the first prefix whose last 200 characters have period 2
    # starts its window at the loop's first character, index 8: it is 208 characters long
    assert loop_end("Answer: " + "ab" * 300) == 208
    # "Q?" then "Yes no " (period 7): the window of max(3 x 7, 200) = 200 characters starts at index 2 -> 202
    assert loop_end("Q?" + "Yes no " * 60) == 202
    # a sentence of 100 characters said three times: its window is 3 x 100 = 300, from the start
    sentence = "The expression is not a real idiom in Persian, and nobody in Iran says it in any form at all, ever. "
    assert len(sentence) == 100
    assert loop_end(sentence * 2 + sentence[:99]) is None  # three times but for its last character
    assert loop_end(sentence * 3) == 300 and loop_period(sentence * 3) == 100
    assert loop_end(sentence * 3 + "But it is.") == 300  # a loop left late was still a loop


def test_a_loop_is_cut_where_it_was_first_whole():
    text = "Real. " + "خراب " * 100
    kept, details = stopped_looping(text)
    # the space ending "Real. " is the loop's too ("خراب " ends in one): the period-5 run starts at index 5, so
    # its 200 characters end at 205
    assert kept == text[:205] and loop_period(kept) == 5
    assert details == {"type": LOOP_STOP, "explanation": "stopped: repeating itself: a passage of 5 characters "
                                                         "repeated back to back"}
    assert stopped_looping(kept) == (kept, details)  # the cut text, replayed, is cut at the same place


def test_a_passage_longer_than_600_characters_is_never_a_loop():
    paragraph = "".join(f"Sentence {i} of a long paragraph says something new. " for i in range(13))[:601]
    assert len(paragraph) == 601 and loop_end(paragraph * 4) is None


def test_a_long_normal_answer_with_repeated_phrases_is_not_a_loop():
    # phrases said twice, a quoted gloss repeated, a table rule, a horizontal rule, indented lines, "no, no, no"
    answer = (
        'The expression "آب پاک خورده" translates to "The Best of the Best" or "The Best of the Best" in English. '
        "It is a common idiomatic expression in Persian. It is a common idiomatic expression in Persian.\n\n"
        "| expression | real | meaning |\n|---|---|---|\n| آب پاک خورده | no | none |\n\n" + "-" * 40 + "\n"
        "No, no, no: it is not real. Very, very, very few people would say it.\n"
        "        Answer: No\n        Answer: No\n\n"
        + "".join(f"Reason {i}: the words are common, the phrase is not; the phrase is not in any dictionary.\n"
                  for i in range(1, 8))
        + "So it is a fabricated idiom. Answer: Yes"
    )
    assert len(answer) > 1000
    assert loop_end(answer) is None
    assert all(loop_period(answer[:n]) is None for n in range(len(answer) + 1))


def test_a_text_too_short_to_loop():
    assert loop_end("") is None and loop_period("") is None and stopped_looping("Yes") is None
