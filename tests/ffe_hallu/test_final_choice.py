"""Task 3's final choice (Appendix A: "Just output the closest equivalents and in the end specify your final
choice"), read from the phrasings that instruction invites."""

import pytest

from figeval.benchmarks.ffe_hallu.expressions import chosen_equivalent

E = "یخ جلسه را شکستن"  # break the ice
F = "مثل آب خوردن"  # a piece of cake
Q = "آب از سرچشمه گل‌آلود است"
L1, L2 = "این قافلهٔ عمر عجب می‌گذرد", "دریاب دمی که با طرب می‌گذرد"  # two lines of one quatrain (Khayyam)
H1, H2 = "صبح است ساقیا قدحی پر شراب کن", "دور فلک درنگ ندارد شتاب کن"  # one couplet (Hafez)

ANSWERS = [
    # English markers, and what joins them to the expression
    (f"Final answer: {E}", E),
    (f"My final choice is: {E}", E),
    (f"final choice is {E}", E),
    (f"Final choice -> {E}", E),
    (f"Final choice → {E}", E),
    (f"**Final choice:** {E}", E),
    (f"Final Choice — «{E}»", E),
    (f"The final choice would be {E}.", E),
    (f"Final choice = {E}", E),
    (f"Best equivalent: {E}", E),
    (f"Final answer: '{E}'", E),
    (f"Final answer: {F}.", F),
    # a gloss after the expression is not part of it
    (f"My final choice: {E} (to break the ice)", E),
    (f"Final choice: {E} - it means making people comfortable", E),
    # the expression on the next line(s)
    (f"Final choice:\n{E}", E),
    (f"Final answer:\n- {E}", E),
    # after a list of candidates
    (f"1. {F}\n2. {E}\n\nFinal choice: {E}", E),
    (f"Closest equivalents:\n1. {F}\n2. {E}\nانتخاب نهایی: {E}", E),
    # a number names an item of the list
    (f"1. {E}\n2. {F}\nFinal choice: 1", E),
    (f"1. {E}\n2. {F}\nMy final choice is 2.", F),
    (f"1. {E}\n2. {F}\nFinal choice: 3", None),  # no third item
    # a number with "#" and a reason after it: item 1 (by hand: "#1" names the first list line)
    (f"1. {E}\n2. {F}\nFinal answer: #1, because it keeps the image.", E),
    # a superlative naming an ordinal: "the second" is item 2, F
    (f"1. {E}\n2. {F}\n\nThe most natural is the second.", F),
    # the choice field of a JSON answer: E, whatever the list order
    (f'{{"equivalents": ["{F}", "{E}"], "final_choice": "{E}"}}', E),
    # an Arabic frame's "final choice:" marker: F
    (f"1. {E}\n2. {F}\n\nالاختيار النهائي: {F}", F),
    # a marker inside the prompt echoed chooses nothing: two items, none chosen
    (f"Just output the closest equivalents and in the end specify your final choice.\n1. {E}\n2. {F}", None),
    # Persian markers
    (f"انتخاب نهایی من: {E}", E),
    (f"پاسخ نهایی: «{E}»", E),
    (f"گزینه نهایی: {E}", E),
    (f"معادل نهایی\u200cام: {E}", E),
    (f"انتخاب نهایی من «{E}» است.", E),
    # the last marker decides
    (f"Final choice: {F}\nOn reflection, my final choice is {E}", E),
    # reasoning blocks are not the answer
    (f"<think>maybe {F}</think>\nFinal choice: {E}", E),
    # no marker: a last line that is a bare expression is the choice
    (E, E),
    (f"Candidates: {F}, {E}\n\n{E}", E),
    # no choice
    # one equivalent given and no marker: that one is the choice
    ("با یک تیر دو نشان زدن is the closest Persian proverb.", "با یک تیر دو نشان زدن"),
    (f"1. {F}\n2. {E}", None),  # a list, nothing chosen
    ("Final choice: I am not sure.", None),  # no Persian expression
    ("", None),
    (f"The closest Persian equivalent is probably {F} or {E}.", None),
    # round 3: items lettered in Persian; the letter names the item lettered with it (not a position)
    (f"الف) {F}\nب) {E}\n\nانتخاب نهایی اینجانب گزینهٔ «الف» است.", F),  # «الف» labels F
    (f"الف- {F}\nب- {E}\nج- {Q}\n\nپاسخ نهایی: ج", Q),  # «ج» labels the third line
    (f"الف) {F}\nب) {E}\n\nانتخاب نهایی: گزینهٔ «د»", None),  # adversarial: no item lettered «د»
    # round 3: a label followed by the object marker «را» is a sentence about the choice, not a label
    (f"۱. {F}\n۲. {E}\n\nانتخاب نهایی را به شما واگذار می‌کنم، چون هر دو مناسب‌اند.", None),
    (f"بهترین گزینه را خودتان انتخاب کنید:\n۱. {F}\n۲. {E}", None),
    (f"۱. {F}\n۲. {E}\n\nانتخاب نهایی: {E}", E),  # adversarial: the label with a colon still marks
    # round 3: verse lines under the label that repeat one item's continuation lines: one expression, both lines
    (f"1. {F}\n2. از خیام:\n   {L1}\n   {L2}\n\nFinal choice:\n{L1}\n{L2}", f"{L1}\n{L2}"),
    (f"1. {E}\n2. از حافظ:\n   {H1}\n   {H2}\n\nانتخاب نهایی:\n{H1}\n{H2}", f"{H1}\n{H2}"),
    # adversarial: the two lines were two separate items: two answers under the label
    (f"1. {L1}\n2. {L2}\n\nFinal choice:\n{L1}\n{L2}", None),
]


@pytest.mark.parametrize("answer, expected", ANSWERS, ids=[repr(a)[:40] for a, _ in ANSWERS])
def test_final_choice(answer, expected):
    assert chosen_equivalent(answer) == expected


def test_table_is_large_enough():
    assert len(ANSWERS) >= 30
