"""Reading a closed-label verdict from prose, the way a person does: figeval's second reading layer.

A benchmark describes its labels as cues (patterns of the words and phrases that state each label, negated
forms listed before the plain ones) and this module finds them: in each sentence of the answer, after reasoning
blocks, a JSON wrapper, markdown and the text the question quoted (the expression asked about) are removed.

- A question ("Is this a fake idiom?", restated before the answer) states nothing.
- A sentence whose cues name two labels states no verdict ("Although it sounds real, it is made up" is left to
  the other sentences).
- A sentence that opens with "But" / "اما" / "با این حال" states the answer's position, as a conclusion does.
- The answer's verdict is the one label all its verdict sentences state. When they disagree, the last sentence
  that draws a conclusion ("so", "therefore", "final answer", "بنابراین", "sonuç olarak") decides, as a person
  reads the conclusion of a changed mind; with no such sentence the answer is ambiguous: None, never a guess.
- An embedded question ("I can't verify whether it is a real idiom", «نمی‌دانم آیا ...») states nothing, and a
  hedge ("I can't confirm it is real", "not sure", «مطمئن نیستم», "emin değilim") states no label: the words it
  governs are not read as a verdict. A lean stated beside a hedge ("I can't verify it, but it is most likely
  fabricated", "probably real") is the answer, as a forced choice is read; a hedge with no lean is unread.
- A sentence that opens with a condition ("If it were ...", «اگر ...», "Eğer ...") supposes, it does not answer.
- Two answers are no answer: labels stated with nothing concluding, or a hedge with no lean, raise `Undecided`,
  which names the cues; the answer is then unread whatever a rule would read of one of its words.
- A revision ("Wait, ...", "Correction:", "On second thought", «اصلاح:», "Aslında") concludes: the label it
  states replaces the earlier one.

Pure functions; None means the reader found no verdict (it becomes `unparsed`, or a paper's rule reads it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from figeval.parsing import YES_NO_SENTENCES, YesNo, json_answer, strip_reasoning, words_pattern
from figeval.text import normalize_persian


class Undecided(Exception):
    """The answer states no single verdict though it speaks to the question: two labels with nothing concluding,
    or a hedge with no lean. Unread, whatever a rule would read of one of its words; the message names the cues."""


@dataclass(frozen=True)
class Cue:
    """Words that state a label: `pattern` is searched in a sentence's reading form (`reading_form`)."""

    pattern: re.Pattern[str]
    label: str
    weak: bool = False
    """A weak cue states its label only in a sentence with no other cue: a "Yes," that opens "Yes, the summary
    contains false information" answers a question the prompt asked, not which label holds."""


def cue(label: str, *patterns: str, weak: bool = False) -> list[Cue]:
    """One cue per pattern (regular expressions over `reading_form` text), each stating `label`."""
    return [Cue(re.compile(pattern), label, weak) for pattern in patterns]


HEDGE = "hedge"
"""What a hedge states: no label. Its cues take the words they govern, so that "can't confirm it is real" is not
read as "real" (nor, by a negation, as "not real")."""
# A hedge governs the rest of its clause; read before every benchmark's cues (`body_verdict`).
_HEDGE_CLAUSE = r"[^.,;:!?،؛]*"
HEDGES = cue(
    HEDGE,
    r"\b(?:can't|cannot|can not|couldn't|could not|unable to|not able to|am not in a position to)\s+(?:\w+\s+){0,2}?"
    rf"(?:verify|confirm|determine|say|tell|be sure|be certain|judge|know)\b{_HEDGE_CLAUSE}",
    rf"\b(?:not|n't)\s+(?:\w+\s+)?(?:sure|certain)\b{_HEDGE_CLAUSE}",
    rf"\b(?:hard|difficult|impossible) to (?:say|tell|determine|know)\b{_HEDGE_CLAUSE}",
    rf"\bit depends\b{_HEDGE_CLAUSE}",
    rf"مطمئن\s+نیستم{_HEDGE_CLAUSE}", rf"نمی\s?(?:توانم|دانم)\s+(?:\S+\s+){{0,2}}?(?:تأیید|تایید|بگویم|تشخیص)"
    rf"{_HEDGE_CLAUSE}",
    rf"\bemin\s+değilim\b{_HEDGE_CLAUSE}", rf"\b(?:bilmiyorum|söyleyemem|doğrulayamam)\b{_HEDGE_CLAUSE}",
)


def yes_no_sentence_cues(yes: str, no: str) -> list[Cue]:
    """Cues of the whole-sentence yes/no answers (`parsing.YES_NO_SENTENCES`), stating `yes` or `no`."""
    return [*cue(yes, rf"^{words_pattern(YES_NO_SENTENCES[YesNo.YES])}\W*$"),
            *cue(no, rf"^{words_pattern(YES_NO_SENTENCES[YesNo.NO])}\W*$")]


# A question embedded in a sentence ("whether it is a real idiom", «آیا ... است یا نه» after other words) asks, it
# does not answer.
_EMBEDDED_QUESTION = re.compile(r"\bwhether\b[^.;!?\n]*|(?<=\S )آیا[^.;!?؟\n]*")


# A quoted phrase of two words or more is a mention (the sentence asked about, an idiom, "used figuratively"),
# not the model's verdict; a quoted single word may be ("Answer: "No"").
# A quotation hugs its text: `" is a ... to "` between two quotations is not one.
_QUOTED_PHRASE = re.compile(r'"(?=\S)[^"\n]*\s[^"\n]*(?<=\S)"|“[^”\n]*\s[^”\n]*”|«[^»\n]*\s[^»\n]*»')
# A parenthesized aside of three words or more ("(there is a real proverb ...)") comments, it does not answer.
_ASIDE = re.compile(r"\((?:[^()\n]*\s){2,}[^()\n]*\)")
# A supposition: the sentence opens with its condition.
_CONDITION = re.compile(r"^(?:if|suppose|supposing|assuming|were it|had it)\b|^(?:اگر|چنانچه|درصورتی که)\s|^eğer\b")
_MARKDOWN = re.compile(r"[*`#_]+|^\s*>+", re.MULTILINE)
_SENTENCE_END = re.compile(r"(?<=[.!?؟;؛])\s+|\n+|(?<=[.!?؟])(?=[«\"“A-Z])")
_CONCLUSION = re.compile(
    r"\b(?:so|therefore|thus|hence|overall|in conclusion|in summary|to conclude|final(?:ly)?|my answer|the answer)\b"
    r"|\banswer\s*:|^(?:but|actually)\b|^wait\b|\bcorrect(?:ion|ed)\b|\bi made a mistake\b"
    r"|\bon (?:second thought|reflection)\b"
    r"|\blet me reconsider\b|(?:^|\s)(?:اصلاح|تصحیح|در واقع)(?:\s|:|$)|\b(?:düzeltme|aslında)\b"
    r"|(?:^|\s)(?:بنابراین|پس|در نتیجه|در مجموع|نتیجه|خلاصه اینکه|پاسخ نهایی|جواب نهایی|پاسخ)(?:\s|:|$)"
    r"|^(?:اما|ولی|با این حال)(?:\s|،)"
    r"|\b(?:sonuç olarak|yani|dolayısıyla|kısacası|bu yüzden|bu nedenle|bu sebeple|cevap|yanıt)\b",
)


def reading_form(text: str) -> str:
    """Text as cues read it: Persian-normalized (Arabic letters and digits unified, ZWNJ kept as a space),
    lowercased (a Turkish capital İ becomes i; other text as Python lowercases it), markdown removed, spaces
    collapsed."""
    # line by line: normalize_persian collapses all whitespace, and a line break ends a sentence
    text = "\n".join(normalize_persian(line) for line in text.split("\n"))
    text = text.replace("\u200c", " ").replace("İ", "i").lower()
    text = text.replace("’", "'").replace("‘", "'")
    return re.sub(r"[ \t]+", " ", _MARKDOWN.sub("", text))


def answer_body(text: str, quoted: Iterable[str] = ()) -> str:
    """The part of an output that states the answer: reasoning blocks removed, the answer field of a JSON
    answer if there is one, and every occurrence of the `quoted` texts (what the question asked about, which is
    data, not a verdict: an expression beginning with «نه» must not read as "no") and every quoted phrase of two
    words or more replaced by a placeholder; asides in parentheses of three words or more removed."""
    text = strip_reasoning(text)
    from_json = json_answer(text)
    if from_json is not None:
        text = from_json
    text = reading_form(text)
    for item in quoted:
        form = reading_form(item).strip()
        if form:
            text = text.replace(form, " «…» ")
    return _EMBEDDED_QUESTION.sub(" ", _ASIDE.sub(" ", _QUOTED_PHRASE.sub(" «…» ", text)))


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def sentence_labels(sentence: str, cues: Sequence[Cue]) -> set[str]:
    """The labels a sentence's cues state; a span matched by an earlier cue is not matched again (so "not a real
    idiom" is not also read as "real idiom")."""
    taken: list[tuple[int, int]] = []
    strong: set[str] = set()
    weak: set[str] = set()
    for item in cues:
        for match in item.pattern.finditer(sentence):
            start, end = match.span()
            if any(start < e and s < end for s, e in taken):
                continue
            taken.append((start, end))
            (weak if item.weak else strong).add(item.label)
    return strong or weak


def read_verdict(text: str, cues: Sequence[Cue], quoted: Iterable[str] = ()) -> str | None:
    """The one label the answer states (see the module docstring), or None."""
    return body_verdict(answer_body(text, quoted), cues)


def _shown(sentence: str) -> str:
    return repr(sentence if len(sentence) <= 60 else sentence[:57] + "...")


def body_verdict(body: str, cues: Sequence[Cue]) -> str | None:
    """`read_verdict` of an answer already made its `answer_body`.

    Raises:
        Undecided: labels stated with nothing concluding, or a hedge with no lean.
    """
    stated: list[tuple[str, bool, str]] = []
    hedged = ""
    for sentence in sentences(body):
        if sentence.endswith(("?", "؟")) or _CONDITION.match(sentence):
            continue  # a question (the model restating the one it was asked) or a supposition states no verdict
        labels = sentence_labels(sentence, [*HEDGES, *cues])
        if HEDGE in labels:
            hedged = hedged or sentence
        labels.discard(HEDGE)
        if len(labels) == 1:
            stated.append((labels.pop(), bool(_CONCLUSION.search(sentence)), sentence))
    distinct = {label for label, _, _ in stated}
    if len(distinct) == 1:
        return distinct.pop()
    concluded = [label for label, conclusion, _ in stated if conclusion]
    if concluded:
        return concluded[-1]
    if distinct:
        named = "; ".join(f"{label} in {_shown(sentence)}" for label, _, sentence in stated)
        raise Undecided(f"two answers, nothing concluding: {named}")
    if hedged:
        raise Undecided(f"a hedge with no lean: {_shown(hedged)}")
    return None
