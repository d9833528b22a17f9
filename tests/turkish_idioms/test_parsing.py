"""The paper's answer protocol: first word, else last word, must be one of the prompt's label words (Section 4);
reading yes/no for entailment and refusing negated labels are options, off by default."""

import pytest

from figeval.benchmarks.turkish_idioms.scorer import label_words
from figeval.parsing import first_or_last_label

# (answer, expected) for the English prompt (Appendix A: 'Answer only with "yes" or "no"')
DETECTION = [
    ("Yes", "yes"),
    ("No", "no"),
    ("yes.", "yes"),
    ("NO!", "no"),
    ("**Yes**", "yes"),
    ("No, the words are used literally.", "no"),
    ("Yes\n\nThe idiom 'kulak vermek' means to listen carefully.", "yes"),
    # only the last word is a label
    ("The sentence uses the idiom figuratively, so: yes", "yes"),
    ("I think the answer is No.", "no"),
    ("<think>Burnu sürtülmek is an idiom... used literally here.</think>\nNo", "no"),
    # the first word wins even when the last word differs (the paper's reading)
    ("Yes, although one might say no", "yes"),
    # not the prompt's words: a Turkish answer to the English prompt goes to manual reading
    ("Evet", None),
    ("Hayır", None),
    ("Evet, cümlede 'burnu sürtülmek' deyimi mecaz anlamda kullanılmış.", None),
    # alternatives offered, not chosen
    ("yes/no", None),
    # neither first nor last word is a label: unparsed
    ("The sentence contains an idiom.", None),
    ("", None),
    ("Maybe", None),
]

# the Turkish prompt (ours) asks for "evet" or "hayır"
DETECTION_TR = [
    ("Evet", "yes"),
    ("HAYIR", "no"),
    ("EVET.", "yes"),
    ("hayir", "no"),  # typed without the dotless ı
    ("Bu cümlede deyim gerçek anlamıyla kullanılmış, bu yüzden cevabım hayır.", "no"),
    ("<think>figurative</think> Evet", "yes"),
    ("Yes", None),
    ("Cümlede deyim var ama emin değilim.", None),
]

ENTAILMENT = [
    ("entailment", "entailment"),
    ("Contradiction", "contradiction"),
    ("ENTAILMENT.", "entailment"),
    ("**Contradiction** - the second sentence says the opposite.", "contradiction"),
    ("The premise states he listened carefully, which matches: entailment", "entailment"),
    ("Yes", None),  # not the prompt's words (see the option below)
    ("entails", None),
    ("neutral", None),
    ("The hypothesis follows from the premise.", None),
    # the paper's reading has no negation rule: the last word is the label
    ("Not entailment", "entailment"),
    ("There is no contradiction", "contradiction"),
]

# options, off by default: (answer, yes_no_entailment, negation, expected)
OPTIONS = [
    ("Yes", True, False, "entailment"),
    ("No.", True, False, "contradiction"),
    ("Not entailment", False, True, None),  # negated
    ("There is no contradiction", False, True, None),
    ("Entailment, not contradiction", False, True, "entailment"),  # the first word decides
]


@pytest.mark.parametrize("answer, expected", DETECTION, ids=[repr(a)[:40] for a, _ in DETECTION])
def test_detection_answers(answer, expected):
    assert first_or_last_label(answer, {k.value: v for k, v in label_words("detection", "en").items()}) == expected


@pytest.mark.parametrize("answer, expected", DETECTION_TR, ids=[repr(a)[:40] for a, _ in DETECTION_TR])
def test_detection_answers_to_the_turkish_prompt(answer, expected):
    assert first_or_last_label(answer, {k.value: v for k, v in label_words("detection", "tr").items()}) == expected


@pytest.mark.parametrize("answer, expected", ENTAILMENT, ids=[repr(a)[:40] for a, _ in ENTAILMENT])
def test_entailment_answers(answer, expected):
    assert first_or_last_label(answer, {k.value: v for k, v in label_words("entailment", "en").items()}) == expected


@pytest.mark.parametrize("answer, yes_no, negation, expected", OPTIONS, ids=[repr(o[0])[:40] for o in OPTIONS])
def test_the_options(answer, yes_no, negation, expected):
    words = {k.value: v for k, v in label_words("entailment", "en", yes_no).items()}
    assert first_or_last_label(answer, words, negation) == expected


def test_a_punctuation_mark_ends_a_negation_s_reach():
    words = {k.value: v for k, v in label_words("detection", "tr").items()}
    # "yok" (there is not) ends a clause; the comma separates it from the verdict "hayır" (no)
    assert first_or_last_label("Bu cümlede deyim yok, hayır", words, negation=True) == "no"
    assert first_or_last_label("Bu cümlede deyim yok hayır", words, negation=True) is None


def test_table_is_large_enough():
    assert len(DETECTION) + len(DETECTION_TR) + len(ENTAILMENT) + len(OPTIONS) >= 30
