"""FFE-HALLU detection answers read as a person reads them, under the fake-q framing ("Is this expression a fake
idiom or proverb?": yes says fake, no says real), and the yes/no of the fakes builder's checker."""

import pytest

from figeval.benchmarks.ffe_hallu.readers import FAKE, REAL, detection_verdict
from figeval.parsing import YesNo

Y, N = YesNo.YES, YesNo.NO
SAYS = {Y: FAKE, N: REAL, None: None}

ANSWERS = [
    # --- English: bare, capitalized, punctuated, emphasized
    ("Yes", Y),
    ("No", N),
    ("yes", Y),
    ("NO", N),
    ("YES.", Y),
    ("No.", N),
    ("**Yes**", Y),
    ("*No*", N),
    ("`Yes`", Y),
    ("  \n\nNo\n", N),
    ("Yes!", Y),
    ("'No'", N),
    # --- a label before the verdict
    ("Answer: Yes", Y),
    ("Answer: no", N),
    ("**Answer:** No", N),
    ("Final answer: Yes", Y),
    ("The answer is: No", N),
    # --- a sentence after the verdict
    ("Yes, this is a fabricated expression; it is not used in Persian.", Y),
    ("No. This is a well-known Persian proverb about patience.", N),
    ("Yes\n\nExplanation: the original proverb uses 'cat', not 'rabbit'.", Y),
    # --- the verdict at the end
    ("Based on my knowledge of Persian proverbs, my answer is no", N),
    ("This expression does not appear in any dictionary I know, so: Yes.", Y),
    ("I have not seen this expression before. The answer is yes, it is fake.", Y),
    # --- JSON and code fences
    ('{"answer": "Yes"}', Y),
    ('```json\n{"answer": "No", "reason": "a real idiom"}\n```', N),
    ('{"verdict": "no"}', N),
    ('{"is_fake": true, "answer": true}', Y),
    # --- reasoning blocks are removed first
    ("<think>It sounds like a real proverb... no wait, it's a perturbation</think>Yes", Y),
    ("<think>\nThe idiom exists, so the answer is yes.\n</think>\n\nNo", N),
    ("<think>still thinking about whether this is real", None),
    # --- Persian
    ("بله", Y),
    ("خیر", N),
    ("نه", N),
    ("بله، این یک ضرب‌المثل ساختگی است.", Y),
    ("خیر. این ضرب‌المثل واقعی است.", N),
    ("پاسخ: بله", Y),
    ("آره", Y),
    ("نخیر", N),
    # --- single letters only as the whole answer
    ("Y", Y),
    ("N", N),
    # --- ambiguous or no verdict: unparsed
    ("Yes or no?", None),
    ("Yes/No", None),
    ("بله یا خیر", None),
    ("Yes... actually, no", N),  # the model corrects itself: a person reads the correction
    ("I'm not sure.", None),
    ("This is a common expression in Persian.", N),  # says what it is: real (under fake-q, a no)
    ("", None),
    ("   ", None),
    ("Maybe", None),
    ("There is no such idiom in Persian", Y),  # "no such idiom": fake (under fake-q, a yes)
    ("N/A", None),
    # refusals whose last word is a verdict (found in review)
    ("I cannot answer yes or no.", None),
    ("من نمی‌دانم، شاید بله شاید نه", None),
    ("No idea.", None),
]


@pytest.mark.parametrize("answer, expected", ANSWERS, ids=[repr(a)[:40] for a, _ in ANSWERS])
def test_detection_answers(answer, expected):
    by_paper, by_reader = detection_verdict(answer, FAKE, expression="")
    assert (by_reader if by_reader is not None else by_paper) == SAYS[expected]
    assert by_paper in (None, SAYS[expected])  # the paper's bare yes/no, where it reads, agrees


@pytest.mark.parametrize("answer, expected", [
    ("«نه به باره نه به داره» یک ضرب‌المثل واقعی است.", REAL),  # the expression's «نه» is not a no
    ("نه تنها واقعی است بلکه بسیار رایج است.", REAL),  # "not only ... but": not a no
    ("این عبارت جعلی است.", FAKE),
    ("I don't recognize this as a real Persian idiom.", FAKE),
    ("Yes, it's fake.", FAKE),  # under fake-q both parts say fake
    ("No, it is not fake. It's a well-known proverb.", REAL),
    ("This appears to be a distorted version of the well-known proverb «...».", FAKE),
])
def test_persian_and_descriptive_verdicts(answer, expected):
    assert detection_verdict(answer, FAKE, expression="نه به باره نه به داره")[1] == expected


def test_a_yes_that_contradicts_what_the_answer_says_is_unread():
    # under real-q "Yes" says real, "it's fake" says fake: a person cannot tell (tests/real_answers)
    assert detection_verdict("Yes, it's fake.", REAL, expression="") == (None, None)
