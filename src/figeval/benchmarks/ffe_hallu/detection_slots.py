"""Detection answers whose verdict is the value of a slot, or whose clauses bind to each other: restated before
the detection cues read them (`readers.detection_readers`), as a person reads them.

- A JSON object (or a list of them) with a verdict key: "is_real": false, "fake": false, "status": "authentic".
  The key's name is not an assertion ("fake": false says real); its value is read as the pair.
- A yes/no answering a question the model asked itself ("Fake? No. Real? Yes.", «آیا ... واقعی است یا نه؟ پاسخ
  مثبت است»): it answers that question, not the prompt's framing.
- A probability given to a label ("P(real) ≈ 0.1"): over one half leans to that label, under one half to the
  other, one half states no lean (a hedge): a lean is read as a forced choice is, as every benchmark reads a
  stated probability.
- A proposal of another expression ("Did you mean «…»?") makes the next sentence that refers back to it ("That is
  a real proverb") a statement about the proposal, not about the expression asked: it states nothing.
- A hedge reached as a conclusion ("I'm not aware of it, so I can't say ...") governs its whole sentence: what
  came before the "so" is its reason, not a lean.

Restated slots become the markers `⟦real⟧`, `⟦fake⟧` (read by a cue of their own) or `⟦no lean⟧` (a hedge).
"""

from __future__ import annotations

import json
import re

from figeval.benchmarks.ffe_hallu.detection_languages import likert_sentence
from figeval.parsing import YES_NO_SENTENCES, YES_NO_WORDS, YesNo, json_key, lenient_json, words_pattern
from figeval.verdict import Undecided, sentences

REAL, FAKE = "real", "fake"
MARKER = {REAL: "⟦real⟧", FAKE: "⟦fake⟧", None: "⟦no lean⟧"}

# --- JSON verdict keys (by what a true value says; `parsing.json_key` spelling)
_REAL_KEYS = frozenset({"real", "is_real", "authentic", "is_authentic", "genuine", "is_genuine", "exists",
                        "is_existing", "attested", "is_attested"})
_FAKE_KEYS = frozenset({"fake", "is_fake", "fabricated", "is_fabricated", "made_up", "is_made_up", "invented",
                        "is_invented", "hallucinated", "is_hallucinated"})
# keys whose string value is a verdict to read ("status": "authentic", "answer": "No")
_VALUE_KEYS = frozenset({"status", "verdict", "label", "classification", "category", "assessment", "answer",
                         "final_answer", "result", "conclusion", "نتیجه", "پاسخ"})
_TRUE_STRINGS, _FALSE_STRINGS = frozenset({"true", "yes"}), frozenset({"false", "no"})
_JSON = re.compile(r"\[\s*\{.*\}\s*\]|\{.*\}", re.DOTALL)


def json_slot_verdict(text: str, read_value) -> tuple[str | None, str]:
    """(the verdict the verdict keys of a JSON answer state, the text beside the JSON); `read_value` reads a string
    value. The verdict is None where the text holds no JSON or no verdict key.

    Raises:
        Undecided: two keys state different labels.
    """
    match = _JSON.search(text)
    if match is None:
        return None, text
    try:
        data = lenient_json(match.group(0))
    except json.JSONDecodeError:
        return None, text
    items = data if isinstance(data, list) else [data]
    objects = [item for item in items if isinstance(item, dict)]
    stated: dict[str, str] = {}
    for obj in objects:
        for key, value in obj.items():
            key = json_key(key)
            if isinstance(value, str) and value.strip().lower() in _TRUE_STRINGS | _FALSE_STRINGS and (
                    key in _REAL_KEYS or key in _FAKE_KEYS):
                value = value.strip().lower() in _TRUE_STRINGS
            if isinstance(value, bool) and (key in _REAL_KEYS or key in _FAKE_KEYS):
                says_real = value if key in _REAL_KEYS else not value
                stated[key] = REAL if says_real else FAKE
            elif isinstance(value, str) and key in _VALUE_KEYS:
                label = read_value(value)
                if label is not None:
                    stated[key] = label
    if len(set(stated.values())) > 1:
        raise Undecided(f"JSON keys state two labels: {stated}")
    return next(iter(stated.values()), None), text[:match.start()] + "\n" + text[match.end():]


# --- a yes/no bound to the model's own question
_NEGATION = re.compile(r"\bnot\b|n't\b|\bnever\b|نیست|نمی|(?<!یا )(?<!\S)نه(?!\S)|(?<!\S)(?:غیر|نا)\s?|değil|لیس")
# The yes/no words and sentences of every language (`parsing.YES_NO_WORDS`, `YES_NO_SENTENCES`), True/False, a
# check mark or cross, "the answer is positive" / «پاسخ مثبت است», and a Likert answer ("Real? Strongly disagree."
# says not real: `detection_languages.likert_sentence`).
_YES_WORDS = YES_NO_WORDS[YesNo.YES] | YES_NO_SENTENCES[YesNo.YES]
_NO_WORDS = YES_NO_WORDS[YesNo.NO] | YES_NO_SENTENCES[YesNo.NO]
_YES_ANSWER = re.compile(rf"^(?:{words_pattern(_YES_WORDS)}"
                         r"|true|✅|✔\ufe0f?|☑\ufe0f?|👍|(?:the\s+)?answer\s+is\s+(?:positive|affirmative)"
                         rf"|(?:پاسخ|جواب)\s+(?:من\s+)?مثبت\s+است)\W*$|{likert_sentence(YesNo.YES)}")
_NO_ANSWER = re.compile(rf"^(?:{words_pattern(_NO_WORDS)}"
                        r"|false|❌|✖\ufe0f?|❎|👎|(?:the\s+)?answer\s+is\s+negative"
                        rf"|(?:پاسخ|جواب)\s+(?:من\s+)?منفی\s+است)\W*$|{likert_sentence(YesNo.NO)}")


def _question_label(question: str, label_words: dict[str, re.Pattern[str]]) -> str | None:
    """The one label a self-posed question asks about ("Real?", «آیا ... واقعی است یا نه؟»): None if it names
    both, none, or a negated one."""
    if _NEGATION.search(question):
        return None
    named = [label for label, pattern in label_words.items() if pattern.search(question)]
    return named[0] if len(named) == 1 else None


# --- a probability given to a label: "P(real) ≈ 0.1", "probability of being fake: 90%"
_PROBABILITY = re.compile(r"\bp\s*\(\s*(?:it\s+is\s+|is\s+)?(?P<label>real|fake|genuine|authentic|fabricated)\s*\)"
                          r"|\bprobability\s+(?:that\s+it\s+is\s+|of\s+being\s+|it'?s\s+|)(?:a\s+)?"
                          r"(?P<label2>real|fake|genuine|authentic|fabricated)\b")
_VALUE = re.compile(r"\s*(?:≈|=|~|:|is|of|≃|about|around)?\s*(?:≈|~|about|around)?\s*"
                    r"(?P<number>(?:0|1)?\.\d+|[01](?:\.0+)?(?!\d)|\d{1,3}(?:\.\d+)?\s*%)")


def _probability_marker(match: re.Match[str], value: re.Match[str]) -> str:
    word = match.group("label") or match.group("label2")
    label = FAKE if word in ("fake", "fabricated") else REAL
    number = value.group("number")
    p = float(number.rstrip("% ")) / 100 if "%" in number else float(number)
    if p > 0.5:
        return MARKER[label]
    if p < 0.5:
        return MARKER[FAKE if label == REAL else REAL]
    return MARKER[None]


def _restate_probabilities(sentence: str) -> str:
    for match in reversed(list(_PROBABILITY.finditer(sentence))):
        value = _VALUE.match(sentence, match.end())
        if value is not None and value.group("number").strip():
            sentence = sentence[:match.start()] + _probability_marker(match, value) + sentence[value.end():]
    return sentence


# --- a proposal of another expression, and the sentence that refers back to it
_PROPOSAL = re.compile(r"^(?:did|do) you mean\b|^(?:perhaps|maybe) you mean|\byou (?:may|might) (?:be thinking of|mean)"
                       r"|\bare you thinking of\b|^(?:منظورتان|منظورت|منظور شما)\b")
_REFERS_BACK = re.compile(r"^(?:that|which|the latter|آن)\b")

# --- a hedge reached as a conclusion: "..., so I can't say whether ..."
_HEDGE_CONCLUSION = re.compile(
    r"(?:,\s*|\s)(?:and\s+)?(?:so|therefore|thus|hence|which is why|بنابراین|پس|از این رو)\s+"
    r"(?=(?:i\s*)?(?:(?:can't|cannot|can not|couldn't|could not|am unable to|am not able to)\s+(?:\w+\s+){0,2}?"
    r"(?:say|tell|determine|verify|confirm|judge|know|be sure|be certain)\b|(?:am|'m) not (?:\w+\s+)?(?:sure|certain)\b"
    r"|نمی\s?(?:توانم|دانم)\s+(?:\S+\s+){0,2}?(?:تأیید|تایید|بگویم|تشخیص)|مطمئن نیستم))")


def restate(body: str, label_words: dict[str, re.Pattern[str]]) -> str:
    """The answer body (`verdict.answer_body`) with its slots and bound clauses restated (see the module
    docstring); one sentence a line."""
    parts = sentences(body)
    out: list[str] = []
    skip_reference = False
    for i, sentence in enumerate(parts):
        if skip_reference and _REFERS_BACK.search(sentence):
            skip_reference = False
            continue  # about the expression proposed in the sentence before
        skip_reference = bool(_PROPOSAL.search(sentence))
        if out and out[-1].endswith(("?", "؟")) and (_YES_ANSWER.match(sentence) or _NO_ANSWER.match(sentence)):
            label = _question_label(out[-1], label_words)
            if label is not None:
                says = label if _YES_ANSWER.match(sentence) else (FAKE if label == REAL else REAL)
                out[-1] = MARKER[says] + "."
                continue
            if all(pattern.search(out[-1]) for pattern in label_words.values()):
                continue  # a yes/no to "Real or fake?" chooses neither
        hedge = _HEDGE_CONCLUSION.search(sentence)
        if hedge is not None:
            sentence = sentence[hedge.end():]
        out.append(_restate_probabilities(sentence))
    return "\n".join(out)
