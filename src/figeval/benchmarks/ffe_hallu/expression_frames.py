"""What surrounds the expression in FFE-HALLU's Task 1 and 3 answers (documented in this benchmark's README, "How
answers are read"), read by principle for `expressions`: the words by language that frame, revise, withdraw or
refuse an answer; a structured (JSON) answer's own fields; a legend that defines a choice mark; the prompt echoed.
"""

from __future__ import annotations

import enum
import json
import re
from typing import Final

from figeval.benchmarks.ffe_hallu.prompts import TRANSLATION_SYSTEM_PROMPT, GENERATION_SYSTEM_PROMPT
from figeval.parsing import json_key, lenient_json
from figeval.text import has_arabic_script, normalize_persian


def spelled(words: str) -> str:
    """A pattern of Arabic-script words however they are typed: Arabic or Persian yeh and kaf, a space, a
    half-space or nothing between words, a final hamza («گزینهٔ») or none."""
    forms = {" ": r"[\s\u200c]*", "\u200c": r"[\s\u200c]*", "ی": "[یي]", "ي": "[یي]", "ک": "[کك]", "ك": "[کك]"}
    return "".join(forms.get(char, re.escape(char)) for char in words) + "\u0654?"


# --- Final-choice markers of other languages (Arabic frames around Persian equivalents; Turkish) -----------------
# Family: answers whose frame is in another language than English or Persian ("الاختيار النهائي: X"). A label that
# says "final choice" in any language marks the choice as the English one does.
OTHER_CHOICE_MARKERS = {
    "ar": ("الاختيار النهائي", "الإجابة النهائية", "الجواب النهائي", "اختياري النهائي", "أفضل معادل"),
    "tr": ("nihai seçim", "son seçim", "nihai seçimim", "son seçimim", "nihai cevap"),
}
OTHER_CHOICE_MARKER = "|".join(spelled(w) for words in OTHER_CHOICE_MARKERS.values() for w in words)

# --- Item marks: a symbol or word after an item that says it is the one chosen ----------------------------------
# Family: lists with one item marked ("X ✓", "X ← مناسب‌ترین", "X (best)"), and a table's column "Final: ✔" (the
# shared unwrapper reads a cell with its column's header). A cross or an empty cell marks nothing.
_CHOSEN_WORDS = {
    "en": ("most suitable", "best", "recommended", "my choice", "preferred", "final choice", "my pick"),
    "fa": ("مناسب‌ترین", "بهترین", "انتخاب من", "انتخاب نهایی", "پیشنهاد من"),
}
_CHOSEN = "|".join(spelled(w) for words in _CHOSEN_WORDS.values() for w in words)
MARKED_ITEM = re.compile(rf"✓|✅|✔️?|☑️?|\((?:{_CHOSEN})\)|←\s*(?:{_CHOSEN})", re.IGNORECASE)

# A legend that defines a symbol as the choice: "⭐ = my final choice", "★: best". Family: answers that mark one
# item with a symbol of their own and explain it at the end; without a legend a star is decoration.
_LEGEND = re.compile(r"^\s*([^\w\s\u0600-\u06FF]{1,3})\s*(?:=|:|means|->|→)\s*(?:my\s+|the\s+)?(?:final\s+)?"
                     rf"(?:choice|pick|answer|selection|best|{spelled('انتخاب')})", re.IGNORECASE | re.MULTILINE)


# A pointer back to a mark defines it as a legend does: "My choice is the one marked with (*) above", "Final
# choice: the one in bold above" (family: a choice given by pointing at the one item that carries the mark). Only
# with a pointer: a mark or bold alone chooses nothing (a bold headword is emphasis).
_POINTER = re.compile(r"\b(?:the\s+one|the\s+item|the\s+option|the\s+expression|the\s+line)\s+(?:(?:marked|flagged|"
                      r"starred|tagged)\s+(?:with|by)\s+(?P<symbol>[^\w\s\u0600-\u06FF]{1,4})|(?:in|written\s+in|"
                      r"shown\s+in|set\s+in)\s+(?P<bold>bold))", re.IGNORECASE)
_BOLD = "**"


def legend_marked(text: str) -> str | None:
    """The one line a legend's symbol (or a pointer's mark, or bold) marks (the legend line aside), or None."""
    legend = _LEGEND.search(text) or _POINTER.search(text)
    if legend is None:
        return None
    symbol = _BOLD if legend.groupdict().get("bold") else legend.group(legend.re.groupindex.get("symbol", 1)).strip()
    symbol = symbol.rstrip(".,;:") or symbol
    marked = [line for line in text.splitlines()
              if symbol in line and not _LEGEND.match(line) and not _POINTER.search(line) and has_arabic_script(line)]
    return marked[0].replace(symbol, " ") if len(marked) == 1 else None


# --- A structured answer: its own fields --------------------------------------------------------------------------
# Family: JSON answers (fenced or bare, strict or as models write it: single quotes, comments, trailing commas,
# "Final_Choice" or "final choice"). The choice field decides; without one, the one expression field of the one
# object (a list of one object included); a list of several with nothing chosen is no answer.
_CHOICE_KEYS = ("final_choice", "final", "choice", "final_answer", "best", "best_equivalent", "selected", "answer",
                "انتخاب_نهایی", "پاسخ_نهایی", "پاسخ")
_EXPRESSION_KEYS = ("idiom", "proverb", "expression", "equivalent", "persian", "persian_idiom", "persian_proverb",
                    "persian_equivalent", "اصطلاح", "ضرب_المثل", "معادل")


class _NotStructured(enum.Enum):
    # a one-member enum, not a bare object(): a type checker tells the sentinel from the answer's str or None
    NOT_STRUCTURED = enum.auto()


NOT_STRUCTURED: Final = _NotStructured.NOT_STRUCTURED
"""`structured_answer`'s value for an answer that is not JSON (read as text)."""


def _json_of(text: str) -> object:
    body = text.strip()
    if not body.startswith(("{", "[")):
        return NOT_STRUCTURED
    try:
        return lenient_json(body)
    except json.JSONDecodeError:
        return NOT_STRUCTURED


def structured_answer(text: str) -> str | None | _NotStructured:
    """The expression a JSON answer chooses or gives alone; None when it gives several and chooses none;
    `NOT_STRUCTURED` when the answer is not JSON."""
    value = _json_of(text)
    if value is NOT_STRUCTURED:
        return NOT_STRUCTURED
    objects = [value] if isinstance(value, dict) else value if isinstance(value, list) else []
    if not all(isinstance(item, (dict, str)) for item in objects):
        return None
    found: list[str] = []
    for item in objects:
        if isinstance(item, str):
            found.append(item)
            continue
        fields = {json_key(key): field for key, field in item.items()}
        choice = [fields[key] for key in _CHOICE_KEYS if isinstance(fields.get(key), str)]
        if choice and has_arabic_script(choice[0]):
            return choice[0].strip()
        # every expression field counts: "Idiom": X and "Proverb": Y, two different ones filled and neither chosen,
        # are two answers (family: the prompt's two example slots both filled); the same one twice is one
        found += [fields[key] for key in _EXPRESSION_KEYS if isinstance(fields.get(key), str)]
    distinct = {normalize_persian(f).replace(" ", ""): f.strip() for f in found if has_arabic_script(f)}
    return next(iter(distinct.values())) if len(distinct) == 1 else None


# --- The prompt echoed ----------------------------------------------------------------------------------------------
# Family: small models that repeat the system prompt before answering ("Your task is to return ... specify your
# final choice."): its words ("final choice", "closest equivalent") are the prompt's, not a choice.
def _prompt_sentences(prompt: str) -> list[str]:
    # the instructions only: the prompt's example expressions echoed are set aside by `expressions` (an example
    # alone is what the model said)
    return [s.strip().lower() for s in re.split(r"(?<=[.:])\s+", prompt)
            if len(s.split()) >= 6 and not has_arabic_script(s)]


_PROMPT_SENTENCES = _prompt_sentences(TRANSLATION_SYSTEM_PROMPT) + _prompt_sentences(GENERATION_SYSTEM_PROMPT)
_PROMPT_LABEL = re.compile(r"^\s*(?:english_ffe|meaning\s*\(persian\))\s*:", re.IGNORECASE)


def without_echo(text: str) -> str:
    """The answer without the lines that repeat a sentence of the task's prompt or its user-message label."""
    kept = [line for line in text.splitlines()
            if not _PROMPT_LABEL.match(line) and not any(s in line.lower() for s in _PROMPT_SENTENCES)]
    return "\n".join(kept)


# --- A mention is not an assertion: embedded questions ---------------------------------------------------------------
# Family: "Whether «X» is the expression you want is hard to say", «نمی‌دانم آیا «X» درست است یا نه»: the
# expression is asked about, not given. The clause runs to the end of its sentence or to a ", but" that answers.
_EMBEDDED_QUESTION = re.compile(
    r"\bwhether\b.*?(?=[.;!?\n]|[,،]\s*(?:but|yet|however|so|اما|ولی)\b|$)"
    r"|(?:(?<=\S\s)آیا|اینکه)[^.!؟?\n]*?یا\s+نه", re.IGNORECASE)


def without_embedded_questions(text: str) -> str:
    return _EMBEDDED_QUESTION.sub(" ", text)


# --- A later revision replaces, a withdrawal takes back ---------------------------------------------------------------
# Family: "Actually, a better fit is: Y", "Correction: Y", «نه، اصطلاح دقیق‌تر این است: Y», «اصلاح: گزینهٔ ۲»: what
# follows the last revision is the answer. "Wait, no — that only describes ..." with no expression after it takes
# the answer back: no answer. A plain "Actually," that revises nothing (no "no", no comparative) is not a revision.
_WITHDRAWING = (r"\b(?:wait|actually|no)\s*[,.!]?\s*no\b|\bscratch that\b|\bi take (?:that|it) back\b"
                r"|(?:^|[.!?]\s+)نه\s*[،,]|" + spelled("اشتباه کردم"))
_REPLACING = (r"\bactually\s*,?\s*(?:a|the)?\s*(?:better|closer|more\s+\w+)\b|\bcorrection\s*:|\bon second thought\b"
              r"|^\s*wait\b|" + "|".join(rf"(?:^|\s){spelled(w)}\s*:" for w in ("اصلاح", "تصحیح", "تصحيح", "düzeltme")))
_REVISION = re.compile(rf"(?P<withdraw>{_WITHDRAWING})|(?P<replace>{_REPLACING})", re.IGNORECASE | re.MULTILINE)


def last_revision(text: str) -> tuple[str, bool] | None:
    """(the text after the last revision, whether that revision takes the earlier answer back), or None."""
    found = list(_REVISION.finditer(text))
    if not found:
        return None
    last = found[-1]
    return text[last.end():], last.group("withdraw") is not None


# --- A refusal after the only candidate -------------------------------------------------------------------------------
# Family: "I considered «X», but I'd rather not give you an expression I can't vouch for": the candidate is named,
# then declined. Order decides: "There is no exact idiom; the closest is «X»" declines before it gives, and a
# refusal clause that goes on to a "but" leans ("no exact equivalent, but this is close").
_REFUSALS = {
    "en": (r"\b(?:i'?d|i would) rather not\b", r"\bcan(?:'t|not) vouch\b",
           r"\bnot aware of (?:a|an|any)\b[^.\n]*?\b(?:idiom|expression|proverb|equivalent)",
           r"\b(?:can't|cannot|unable to) (?:give|provide|offer|suggest|think of)\b"),
    "fa": (spelled("سراغ ندارم"), spelled("پیدا نکردم"), spelled("نمی‌توانم") + r"[^.\n]{0,30}?(?:پیشنهاد|ارائه)"),
}
_REFUSAL = re.compile("|".join(p for patterns in _REFUSALS.values() for p in patterns), re.IGNORECASE)
# A lean after the refusal ("no exact idiom, but «X» is close"), or a refusal of another one than the candidate
# ("no closer one", «معادل دیگری سراغ ندارم») anywhere in its sentence, does not take the candidate back.
_LEAN = re.compile(r"\b(?:but|however|closest)\b|(?:^|\s)(?:اما|ولی|نزدیک[\s\u200c]*ترین)(?:\s|$)", re.IGNORECASE)
_OTHER_ONE = re.compile(r"\b(?:other|another|better|closer)\b|(?:^|\s)(?:دیگر\S*|بهتر\S*)(?:\s|$)", re.IGNORECASE)


def refused_after_candidate(text: str) -> bool:
    """Whether a refusal with no lean follows every Persian word of the answer (its own sentence's words aside)."""
    for refusal in _REFUSAL.finditer(text):
        start = max(text.rfind(mark, 0, refusal.start()) for mark in ".!?\n") + 1
        end = min((at for mark in ".!?\n" if (at := text.find(mark, refusal.end())) >= 0), default=len(text))
        if (has_arabic_script(text[:refusal.start()]) and not has_arabic_script(text[end:])
                and not _LEAN.search(text[refusal.start():end]) and not _OTHER_ONE.search(text[start:end])):
            return True
    return False
