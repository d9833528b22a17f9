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


# Words that are a verdict on their own, after Turkish-aware lowercasing and Persian normalization, by the language
# a model answers in (whatever the prompt's: models answer a Persian prompt in Persian written in Latin letters, in
# Arabic, in English). One table: every benchmark's yes/no reading, in text and in logprob mode, maps into it.
YES_NO_BY_LANGUAGE: dict[str, dict[YesNo, frozenset[str]]] = {
    "en": {YesNo.YES: frozenset({"yes", "yeah", "yep"}), YesNo.NO: frozenset({"no", "nope"})},
    "fa": {YesNo.YES: frozenset({"بله", "بلی", "آری", "آره", "اره"}), YesNo.NO: frozenset({"خیر", "نه", "نخیر"})},
    # Persian in Latin letters (not "are" / "na": English words and syllables)
    "fa-Latn": {YesNo.YES: frozenset({"bale", "baleh", "bali"}), YesNo.NO: frozenset({"kheyr", "kheir", "nakheyr"})},
    "ar": {YesNo.YES: frozenset({"نعم"}), YesNo.NO: frozenset({"لا"})},
    "tr": {YesNo.YES: frozenset({"evet"}), YesNo.NO: frozenset({"hayır", "hayir"})},
    # Azerbaijani, which models write for a Turkish prompt ("yox" is left out: also "there is none" in a sentence)
    "az": {YesNo.YES: frozenset({"bəli"}), YesNo.NO: frozenset({"xeyr"})},
}
YES_NO_WORDS: dict[YesNo, frozenset[str]] = {
    answer: frozenset(word for words in YES_NO_BY_LANGUAGE.values() for word in words[answer]) for answer in YesNo
}


# A Likert scale's answers to a yes/no question, by language ("Strongly disagree." to "Is it real?"): agreeing is
# a yes, disagreeing a no; an intensifier may go first (`agreement_pattern`); neither-nor is a hedge
# (`AGREEMENT_NEUTRAL`). Each benchmark decides where they answer (alone, or governing a clause).
AGREEMENT_BY_LANGUAGE: dict[str, dict[YesNo, frozenset[str]]] = {
    "en": {YesNo.YES: frozenset({"agree", "i agree"}), YesNo.NO: frozenset({"disagree", "i disagree"})},
    "fa": {YesNo.YES: frozenset({"موافقم", "موافق هستم"}),
           YesNo.NO: frozenset({"مخالفم", "مخالف هستم", "موافق نیستم"})},
    "tr": {YesNo.YES: frozenset({"katılıyorum"}), YesNo.NO: frozenset({"katılmıyorum"})},
    "az": {YesNo.YES: frozenset({"razıyam"}), YesNo.NO: frozenset({"razı deyiləm"})},
}
_AGREEMENT_INTENSIFIERS = ("strongly", "somewhat", "completely", "totally", "fully", "mostly", "partly", "partially",
                           "کاملا", "کامل", "شدیدا", "قویا", "تا حدی", "تا حدودی", "kesinlikle", "tamamen", "kısmen",
                           "tamamilə")
AGREEMENT_NEUTRAL = (r"neither\s+agree\s+nor\s+disagree|نه\s+موافق(?:م)?[،,]?\s+(?:و\s+)?نه\s+مخالف(?:م)?"
                     r"|ne\s+katılıyorum\s+ne\s+(?:de\s+)?katılmıyorum")


def agreement_pattern(answer: YesNo) -> str:
    """A Likert answer meaning `answer` in any language, an intensifier allowed first (reading form: lowercased,
    «کاملاً» as «کاملا»)."""
    words = frozenset(word for table in AGREEMENT_BY_LANGUAGE.values() for word in table[answer])
    return rf"(?:{words_pattern(_AGREEMENT_INTENSIFIERS)}\s+)?{words_pattern(words)}"


# Whole sentences that answer a yes/no question, beyond the words above ("I don't think so.", "Absolutely.",
# «البته»): read only as a sentence of their own ("Negative." is a no; "a negative connotation" is not).
YES_NO_SENTENCES: dict[YesNo, frozenset[str]] = {
    YesNo.YES: frozenset({"absolutely", "affirmative", "certainly", "definitely", "indeed", "of course", "sure",
                          "correct", "i believe so", "i think so", "that's right", "البته", "قطعا", "درسته",
                          "kesinlikle", "elbette"}),
    YesNo.NO: frozenset({"nah", "negative", "absolutely not", "certainly not", "definitely not", "of course not",
                         "not really", "not at all", "i don't think so", "i do not think so", "not that i know of",
                         "i'm afraid not", "به هیچ وجه", "اصلا", "hiç de değil", "kesinlikle hayır"}),
}


def words_pattern(words: Iterable[str]) -> str:
    """A regular-expression alternation of words, the longest first (so "nakheyr" is not read as "kheyr")."""
    return "(?:" + "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True)) + ")"


# "Yes or no", "بله یا خیر", "evet ya da hayır": both verdicts offered, none chosen.
_CONNECTIVES = frozenset({"or", "and", "/", "یا", "و", "veya", "ya", "ve"})

_THINK_BLOCK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.DOTALL | re.IGNORECASE)
_UNCLOSED_THINK = re.compile(r"<(think|thinking|reasoning)>.*\Z", re.DOTALL | re.IGNORECASE)
# A closing tag with no opening one: servers that put "<think>" in the prompt (DeepSeek-R1's template) return
# the reasoning, then "</think>", then the answer.
_ORPHAN_THINK_END = re.compile(r"\A.*</(?:think|thinking|reasoning)>", re.DOTALL | re.IGNORECASE)
_CODE_FENCE = re.compile(r"```[a-zA-Z]*\s*(.*?)```", re.DOTALL)
_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)
_ANSWER_KEYS = ("answer", "verdict", "label", "response", "final_answer", "result", "output", "conclusion",
                "نتیجه", "پاسخ")
_MARKDOWN = re.compile(r"[*`#]|__|^\s*>+", re.MULTILINE)  # emphasis, code, headings, block quotes
_WORD = re.compile(r"[^\W_]+|/", re.UNICODE)


def strip_reasoning(text: str) -> str:
    """Remove `<think>...</think>` blocks, an unclosed one (which holds no answer yet), and the reasoning before
    a closing tag whose opening tag was in the prompt."""
    text = _THINK_BLOCK.sub(" ", text)
    text = _ORPHAN_THINK_END.sub(" ", text)
    return _UNCLOSED_THINK.sub(" ", text).strip()


_JSON_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")


def lenient_json(text: str) -> object:
    """JSON as models write it: as is, else with comments and trailing commas removed, and single quotes read as
    double where the text has no double quote (`{'output': 'Y',}`).

    Raises:
        json.JSONDecodeError: it is not JSON even so.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        repaired = _TRAILING_COMMA.sub(r"\1", _JSON_COMMENT.sub("", text))
        if '"' not in repaired:
            repaired = repaired.replace("'", '"')
        return json.loads(repaired)


def json_key(key: object) -> str:
    """A JSON key as a person reads it: without case, spaces, hyphens ("Full Explanation" is "full_explanation")."""
    return re.sub(r"[\s\-]+", "_", str(key).strip().lower())


def json_object(text: str) -> dict | None:
    """The JSON object in the text (bare or in a code fence, read leniently), if there is one."""
    fenced = _CODE_FENCE.search(text)
    match = _JSON_OBJECT.search(fenced.group(1) if fenced else text)
    if match is None:
        return None
    try:
        obj = lenient_json(match.group(0))
    except json.JSONDecodeError:
        return None
    return obj if isinstance(obj, dict) else None


def json_answer(text: str) -> str | None:
    """The answer field of a JSON object in the text (bare or in a code fence), if there is one."""
    obj = json_object(text)
    if obj is None:
        return None
    fields = {json_key(key): value for key, value in obj.items()}
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
        following = [tokens[i] for i in word_positions if i > position][:2]
        if (len(following) == 2 and following[0] in _CONNECTIVES
                and any(word_in(following[1], v) for v in labels.values())):
            continue  # "Yes and no", "entailment or contradiction": both offered, none chosen
        if len(named) == 1:
            return named[0]
    return None


def label_probabilities(
    top_logprobs: Iterable[tuple[str, float]], labels: Mapping[str, frozenset[str]], prefixes: bool = False
) -> dict[str, float]:
    """Probability mass of each label among a next-token distribution's top candidates.

    Each candidate token is lowercased (Turkish-aware), stripped of spaces and punctuation, and counted toward
    the label whose word set contains it; " Yes", "yes" and "YES" all add to the same label, as in
    lm-evaluation-harness's treatment of base models and verifiers that read P(yes).

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
            value = lenient_json(candidate)
        except json.JSONDecodeError:
            continue
        if value is None:
            return []
        if isinstance(value, dict):
            return [value]
        if isinstance(value, list) and all(isinstance(item, dict) or item is None for item in value):
            return [item for item in value if item is not None]
    return None
