"""Reasoning blocks removed before reading, and logprob label reading."""

import math

import pytest

from figeval.parsing import YES_NO_WORDS, YesNo, best_label, label_probabilities, strip_reasoning


def test_strip_reasoning_keeps_text_around_blocks():
    assert strip_reasoning("<think>a</think>Yes <thinking>b</thinking>") == "Yes"


def test_strip_reasoning_drops_the_reasoning_before_a_lone_closing_tag():
    # DeepSeek-R1's template puts "<think>" in the prompt: the output is reasoning, "</think>", the answer
    assert strip_reasoning("Okay, is it real? Maybe yes.\n</think>\n\nNo") == "No"


YES_NO_LABELS = {v.value: YES_NO_WORDS[v] for v in YesNo}


def test_label_probabilities_sum_variants_of_each_answer():
    # Gemma-style next-token candidates: " Yes" and "Yes" both mean yes; " No" means no; " The" is neither.
    # P(yes) = e^-0.5 + e^-2.0 = 0.60653 + 0.13534 = 0.74187; P(no) = e^-1.5 = 0.22313
    top = [(" Yes", -0.5), (" No", -1.5), ("Yes", -2.0), (" The", -3.0)]
    probabilities = label_probabilities(top, YES_NO_LABELS)
    assert probabilities["yes"] == pytest.approx(0.74187, abs=1e-5)
    assert probabilities["no"] == pytest.approx(0.22313, abs=1e-5)
    assert best_label(probabilities) == "yes"


def test_label_probabilities_read_persian_and_turkish_tokens():
    # "خیر" (no) at -0.1 outweighs "evet" (yes) at -2.3
    probabilities = label_probabilities([("خیر", -0.1), ("evet", -2.3)], YES_NO_LABELS)
    assert probabilities["no"] == pytest.approx(math.exp(-0.1))
    assert best_label(probabilities) == "no"


def test_best_label_is_none_without_any_answer_token_or_on_a_tie():
    assert best_label(label_probabilities([(" The", -0.1), ("\n", -1.0)], YES_NO_LABELS)) is None
    assert best_label({"yes": 0.3, "no": 0.3}) is None
