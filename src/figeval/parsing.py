"""Answer extraction shared by all benchmarks.

Parsers are pure functions that return a value or None; None means the answer could not be read and is
counted as `unparsed` by the scorer, never as right or wrong. Reasoning blocks are removed before parsing.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from enum import Enum

from figeval.text import normalize_persian, turkish_lower


class YesNo(str, Enum):
    YES = "yes"
    NO = "no"


# Words that are a verdict on their own, after Turkish-aware lowercasing and Persian normalization.
YES_NO_WORDS: dict[YesNo, frozenset[str]] = {
    YesNo.YES: frozenset({"yes", "yeah", "yep", "بله", "بلی", "آری", "آره", "اره", "evet"}),
    YesNo.NO: frozenset({"no", "nope", "خیر", "نه", "نخیر", "hayır", "hayir"}),
}
# "Y" and "N" are verdicts only as the whole answer: as a first word they may start anything.
_LETTER_VERDICTS = {"y": YesNo.YES, "n": YesNo.NO}
# Openings that look like a verdict but are not one.
_NOT_A_VERDICT = {("idea", YesNo.NO), ("comment", YesNo.NO), ("doubt", YesNo.NO)}
# "Yes or no", "بله یا خیر", "evet ya da hayır": both verdicts offered, none chosen.
_CONNECTIVES = frozenset({"or", "and", "/", "یا", "و", "veya", "ya", "ve"})

_THINK_BLOCK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.DOTALL | re.IGNORECASE)
_UNCLOSED_THINK = re.compile(r"<(think|thinking|reasoning)>.*\Z", re.DOTALL | re.IGNORECASE)
_CODE_FENCE = re.compile(r"```[a-zA-Z]*\s*(.*?)```", re.DOTALL)
_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)
_ANSWER_KEYS = ("answer", "verdict", "label", "response", "final_answer", "result")
_MARKDOWN = re.compile(r"[*`#]|__|^\s*>+", re.MULTILINE)  # emphasis, code, headings, block quotes
# A leading label before the verdict: "Answer:", "Final answer -", "پاسخ:", "جواب:", "Cevap:", "Yanıt:".
# Matched on `str.lower` text, which keeps "ı" and turns "YANIT" into "yanit".
_LEADING_LABEL = re.compile(
    r"^\s*(?:(?:the\s+)?(?:final\s+)?answer(?:\s+is)?|verdict|response|پاسخ(?:\s+نهایی)?|جواب|cevap|yanıt|yanit)"
    r"\s*[:：\-–]?\s*"
)
# "... so the answer is no", "answer: yes" anywhere in the text.
_ANSWER_IS = re.compile(r"\banswer\s*(?:is|:)\s*(\w+)")
_WORD = re.compile(r"[^\W_]+|/", re.UNICODE)


def strip_reasoning(text: str) -> str:
    """Remove `<think>...</think>` blocks (and an unclosed one, which holds no answer yet)."""
    text = _THINK_BLOCK.sub(" ", text)
    return _UNCLOSED_THINK.sub(" ", text).strip()


def _json_answer(text: str) -> str | None:
    """The answer field of a JSON object in the text (bare or in a code fence), if there is one."""
    fenced = _CODE_FENCE.search(text)
    match = _JSON_OBJECT.search(fenced.group(1) if fenced else text)
    if match is None:
        return None
    try:
        obj = json.loads(match.group(0))
    except json.JSONDecodeError:
        return None
    if not isinstance(obj, dict):
        return None
    fields = {str(key).lower(): value for key, value in obj.items()}
    for key in _ANSWER_KEYS:
        value = fields.get(key)
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, str):
            return value
    return None


def answer_words(text: str) -> list[str]:
    """Words of a text as verdict words are compared: Persian-normalized, Turkish-aware lowercase."""
    return _WORD.findall(turkish_lower(normalize_persian(text)))


def word_in(word: str, variants: frozenset[str]) -> bool:
    """Whether an `answer_words` word is one of the variants.

    English in capitals lowercases to dotless words under Turkish rules ("NO" is fine, "HI" becomes "hı"),
    so the dotted spelling is tried too.
    """
    return word in variants or word.replace("ı", "i") in variants


def _verdict_of_word(word: str) -> YesNo | None:
    for verdict, words in YES_NO_WORDS.items():
        if word_in(word, words):
            return verdict
    return None


def parse_yes_no(text: str) -> YesNo | None:
    """Read a yes/no verdict (English, Persian or Turkish) from a model's free-text answer.

    The verdict is the first word (after reasoning blocks, a JSON wrapper, markdown and a label such as
    "Answer:" are removed), else the word after "answer is", else the last word. An answer whose first and
    last words are opposite verdicts ("Yes... actually no"), that offers both ("Yes or no"), or that has
    none, is None.
    """
    text = strip_reasoning(text)
    from_json = _json_answer(text)
    if from_json is not None:
        text = from_json
    text = _LEADING_LABEL.sub("", _MARKDOWN.sub("", text).lower(), count=1)
    words = answer_words(text)
    if not words:
        return None
    if len(words) == 1 and words[0] in _LETTER_VERDICTS:
        return _LETTER_VERDICTS[words[0]]
    first, last = _verdict_of_word(words[0]), _verdict_of_word(words[-1])
    if first is not None:
        if len(words) > 1 and (words[1], first) in _NOT_A_VERDICT:
            return None  # "No idea", "No comment"
        if len(words) > 2 and words[1] in _CONNECTIVES and _verdict_of_word(words[2]) not in (None, first):
            return None
        return first if last in (None, first) else None
    after_answer = {_verdict_of_word(w) for w in answer_words(" ".join(_ANSWER_IS.findall(text)))} - {None}
    if after_answer:
        return after_answer.pop() if len(after_answer) == 1 else None
    # The last word decides only if the answer does not name both ("I cannot answer yes or no").
    named = {_verdict_of_word(w) for w in words} - {None}
    return last if len(named) == 1 else None


_NEGATIONS = frozenset({"not", "no", "never", "نه", "değil", "yok"})
# Words, and each punctuation mark as a token of its own (it ends a negation's reach).
_TOKEN = re.compile(r"[^\W_]+|[^\w\s]", re.UNICODE)


def first_or_last_label(text: str, labels: Mapping[str, frozenset[str]], negation: bool = False) -> str | None:
    """The label named by the answer's first word, else by its last word (the protocol of Cavusoglu and
    Coltekin's Turkish idiom benchmark, Section 4), after reasoning blocks and markdown are removed.

    Unlike `parse_yes_no`, a first word that is a label wins even if the last word names another one: that is
    how the paper read its models' answers. A label written as one of alternatives ("Y/N", "N/A") names nothing.

    Args:
        text: the model's answer.
        labels: label -> the words that mean it (as `answer_words` spells them: lowercase, Persian-normalized).
        negation: also refuse a label right after a negation ("not entailment", "no contradiction"); a
            punctuation mark between them ends the negation's reach ("deyim yok, hayır" is "hayır"). Off in the
            paper's protocol.
    """
    tokens = _TOKEN.findall(turkish_lower(normalize_persian(_MARKDOWN.sub("", strip_reasoning(text)))))
    word_positions = [i for i, token in enumerate(tokens) if token[0].isalnum()]
    for position in word_positions[:1] + word_positions[-1:] if word_positions else ():
        word = tokens[position]
        named = [label for label, variants in labels.items() if word_in(word, variants)]
        before = tokens[position - 1] if position > 0 else ""
        after = tokens[position + 1] if position + 1 < len(tokens) else ""
        if "/" in (before, after) or (negation and before in _NEGATIONS):
            continue
        if len(named) == 1:
            return named[0]
    return None


def label_probabilities(
    top_logprobs: Iterable[tuple[str, float]], labels: Mapping[str, frozenset[str]], prefixes: bool = False
) -> dict[str, float]:
    """Probability mass of each label among a next-token distribution's top candidates.

    Each candidate token is lowercased (Turkish-aware), stripped of spaces and punctuation, and counted toward
    the label whose word set contains it; " Yes", "yes" and "YES" all add to the same label, as in
    lm-evaluation-harness's treatment of base models and PerHalluEval's verifier.

    Args:
        top_logprobs: (token, log-probability) pairs of the next token.
        labels: label -> the normalized token strings that mean it.
        prefixes: also count a token of two or more letters that begins a label word (" ent" for
            "entailment", " çel" for "çelişki"), for labels longer than one token. A token that begins words
            of two labels counts for neither.
    """
    mass = {label: 0.0 for label in labels}
    for token, logprob in top_logprobs:
        words = answer_words(token)
        if len(words) != 1:
            continue
        word = words[0]
        named = [label for label, variants in labels.items() if word_in(word, variants)]
        if not named and prefixes and len(word) >= 2:
            named = [label for label, variants in labels.items() if any(v.startswith(word) for v in variants)]
        if len(named) == 1:
            mass[named[0]] += math.exp(logprob)
    return mass


def best_label(probabilities: Mapping[str, float]) -> str | None:
    """The label with the most probability; None if no label got any or the top two tie."""
    ranked = sorted(probabilities.items(), key=lambda item: item[1], reverse=True)
    if not ranked or ranked[0][1] <= 0.0:
        return None
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return None
    return ranked[0][0]


_LIST_MARKER = re.compile(r"^\s*(?:[-*•]+|\(?[0-9۰-۹]+[.)\-:]|[0-9۰-۹]+\s*[-–])\s*")
_EXPRESSION_LABEL = re.compile(
    r"^\s*(?:persian\s+)?(?:idiom|proverb|expression|answer|final\s+answer|translation|equivalent"
    r"|اصطلاح|ضرب[\s\u200c]?المثل|مثل|کنایه|پاسخ|جواب|معادل)\s*[:：\-–]\s*",
    re.IGNORECASE,
)
_QUOTES = "\"'«»“”‘’„`*_"
# "Final answer:", "My final choice is: X", "final choice is X", "Final choice -> X", "The final choice would be X",
# "Best equivalent: X", and the Persian "انتخاب نهایی (من):", "پاسخ نهایی:", "گزینه نهایی:", "معادل نهایی‌ام:".
_FINAL_MARKER = re.compile(
    r"(?:(?:my|the)\s+)?final\s+(?:answer|choice|pick|selection)|best\s+(?:equivalent|choice)"
    r"|(?:پاسخ|انتخاب|معادل|جواب|گزینه)[\s\u200c]*نهایی(?:[\s\u200c]*(?:من|ام))?",
    re.IGNORECASE,
)
# What may stand between the marker and the expression: "is", "would be", "=", ":", "->", "→", "-", "—".
_FINAL_GLUE = re.compile(r"^(?:\s*(?:is|would\s+be|will\s+be|است|:|：|=|->|=>|→|-|–|—))*\s*", re.IGNORECASE)
_LATIN = re.compile(r"[A-Za-z]")
_NUMBERED_ITEM = re.compile(r"^\s*(\d+)[.)\-:]\s*(.+)$", re.MULTILINE)
_QUOTED = re.compile(r"[«“\"']([^«»“”\"']+)[»”\"']")


def clean_expression(text: str) -> str | None:
    """The expression a model gave, without reasoning, quotes, numbering, a label ("Idiom:") or trailing period.

    Takes the first line with Persian (Arabic-script) letters; None when there is none (a refusal, an English
    answer): such an answer is unparsed, not a hallucination.
    """
    from figeval.text import has_arabic_script

    for line in strip_reasoning(text).splitlines():
        # An introduction ("ضرب‌المثل مناسب:", "Persian equivalent:") is not the expression.
        if not has_arabic_script(line) or _MARKDOWN.sub("", line).strip().endswith((":", "：")):
            continue
        line = _MARKDOWN.sub("", line)
        line = _LIST_MARKER.sub("", line, count=1)
        line = _EXPRESSION_LABEL.sub("", line, count=1)
        # A gloss after the expression: "آب در هاون کوبیدن (to do useless work)" or "... - meaning ..."
        line = re.split(r"\s+[(\[]|\s+[-–—:]\s+", line, maxsplit=1)[0]
        line = line.strip().strip(_QUOTES).strip().rstrip(".,،;؛!").strip().strip(_QUOTES).strip()
        return line if has_arabic_script(line) else None
    return None


def final_choice(text: str) -> str | None:
    """The final choice a translation answer ends with (FFE-HALLU Task 3 asks to "specify your final choice"),
    cleaned; None if there is none.

    Read: the last "final choice" marker in English or Persian, with whatever joins it to the expression ("is",
    ":", "->", "→"), the expression on the same line or the next ones (a quoted expression within the line is
    taken as quoted: "انتخاب نهایی من «...» است"); a number after the marker names an item of the answer's
    numbered list. Without a marker, an answer whose last line is a bare Persian expression (no list number, no
    Latin words) has chosen it.
    """
    from figeval.text import has_arabic_script

    text = _MARKDOWN.sub("", strip_reasoning(text))
    markers = list(_FINAL_MARKER.finditer(text))
    if not markers:
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        if lines and not _LATIN.search(lines[-1]) and not _LIST_MARKER.match(lines[-1]):
            return clean_expression(lines[-1])
        return None
    same_line, _, following = text[markers[-1].end():].partition("\n")
    same_line = _FINAL_GLUE.sub("", same_line).strip()
    if same_line.rstrip(".").isdecimal():
        listed = {int(m.group(1)): m.group(2) for m in _NUMBERED_ITEM.finditer(text)}
        item = listed.get(int(same_line.rstrip(".")))
        return clean_expression(item) if item else None
    quoted = _QUOTED.search(same_line)
    if quoted and has_arabic_script(quoted.group(1)):
        return clean_expression(quoted.group(1))
    return clean_expression(f"{same_line}\n{following}")


_OPTION_WORDS = re.compile(r"\b(?:option|choice|answer|گزینه|پاسخ|جواب)\s*[:#]?\s*(\d+)", re.IGNORECASE)
_SELECTED_OPTION = re.compile(r"[\"']?selected_option[\"']?\s*[:=]\s*[\"']?(\d+)", re.IGNORECASE)
_STANDALONE_NUMBER = re.compile(r"(?<![\w.])(\d+)(?![\w]|\.\d)")


def parse_option(text: str, n_options: int) -> int | None:
    """The option a model chose among 1..n_options, or 0 for "none of them".

    Accepts `{"selected_option": n}` (bare, fenced or amid prose; n a number or a string), "Option 3",
    "گزینه ۳", a bare number, with Persian or Arabic-Indic digits. None when no option is named, the number is
    out of range, or two different options are named.
    """
    text = normalize_persian(strip_reasoning(text))  # Persian digits become ASCII
    for pattern in (_SELECTED_OPTION, _OPTION_WORDS, _STANDALONE_NUMBER):
        named = {int(n) for n in pattern.findall(text)}
        if named:
            if len(named) > 1:
                return None
            choice = named.pop()
            return choice if 0 <= choice <= n_options else None
    return None


def parse_json_list(text: str) -> list[dict] | None:
    """A JSON list of objects in a model's answer (bare, fenced, or amid prose); a single object counts as a
    list of one; JSON `null` or an empty list is []. None when there is no such JSON."""
    text = strip_reasoning(text)
    fenced = _CODE_FENCE.search(text)
    candidates = [fenced.group(1)] if fenced else []
    start, end = text.find("["), text.rfind("]")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    candidates += _JSON_OBJECT.findall(text) + [text.strip()]
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if value is None:
            return []
        if isinstance(value, dict):
            return [value]
        if isinstance(value, list) and all(isinstance(item, dict) or item is None for item in value):
            return [item for item in value if item is not None]
    return None
