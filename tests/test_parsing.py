"""Reasoning blocks removed before reading, and logprob label reading."""

import json
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


@pytest.mark.parametrize("text, expected, done", [
    ("Ｙｅｓ", "Yes", ["full-width letters"]),
    # look-alike letters inside a Latin word, or as the whole answer; a Cyrillic (Tajik) word stays as written
    ("Contr\u0430diction", "Contradiction", ["look-alike letters"]),
    ("\u041dayır", "Hayır", ["look-alike letters"]),
    ("\u039d", "N", ["look-alike letters"]),
    ("Ҳар кӣ бо мо нест, бар мост", "Ҳар кӣ бо мо нест, бар мост", []),
    ("<answer>No</answer>", "No", ["markup"]),
    ("<p>Final answer:<br/>3</p>", "Final answer:\n3\n", ["markup"]),
    ("Yes<|im_end|>", "Yes ", ["template tokens"]),
    ("[INST] ignored [/INST]\nN", "  ignored  \nN", ["template tokens"]),
    ("| Verdict | Fake |\n|---|---|", "Verdict: Fake\n", ["a table"]),
    ("| Is it real? | No |", "answer: No", ["a table"]),
    # rows of a table with a header: each cell by its column ("Final: ✔"); rows stay lines
    ("| # | Equivalent | Final |\n|---|---|---|\n| 1 | آب | ✔ |\n| 2 | نان | |\n",
     "#: 1 ; Equivalent: آب ; Final: ✔\n#: 2 ; Equivalent: نان\n", ["a table"]),
    ("| Q | A |\n|--|--|\n| Verdict | Fake |", "Q: A\n\nVerdict: Fake", ["a table"]),
    # the model's turn ends at its end-of-turn token: a next turn it invented is not its answer
    ('{"selected_option": 2}<|im_end|>\nuser: sure?\nassistant: {"selected_option": 4}', '{"selected_option": 2}',
     ["an invented next turn"]),
    ("N<end_of_turn>\n<start_of_turn>user\nWhy?<end_of_turn>", "N", ["an invented next turn"]),
    ("```text\nN\n```", "N\n", ["a code fence"]),
    ("❌", "no", ["a check mark"]),
    ("✅ 3. عصای موسی", "✅ 3. عصای موسی", []),  # a check mark marking a line is left to the reader
    ("\u200fبله\u200f", "بله", ["invisible marks"]),
    ("نیم\u200cفاصله", "نیم\u200cفاصله", []),  # the zero-width non-joiner is Persian spelling
    ("<think>no</think>Yes", "<think>no</think>Yes", []),  # reasoning stays for strip_reasoning
    ("محمد ﷺ", "محمد ﷺ", []),  # no NFKC beyond the full-width block
])
def test_every_answer_is_unwrapped_once_before_its_readers(text, expected, done):
    from figeval.markup import unwrapped

    assert unwrapped(text) == (expected, done)


def test_json_is_read_as_models_write_it():
    from figeval.parsing import json_answer, json_key, lenient_json

    assert lenient_json('{"answer": "N", // the date is wrong\n}') == {"answer": "N"}
    assert lenient_json("{'output': 'Y',}") == {"output": "Y"}
    assert lenient_json('[{"a": 1,},]') == [{"a": 1}]
    # single quotes are left alone where the text has double ones (an apostrophe in a value)
    assert lenient_json('{"reason": "it\'s wrong", "answer": "N"}') == {"reason": "it's wrong", "answer": "N"}
    with pytest.raises(json.JSONDecodeError):
        lenient_json("It is N.")
    assert json_key("Full Explanation") == json_key("full-explanation") == "full_explanation"
    assert json_answer('{"Final Answer": "No"}') == "No"
