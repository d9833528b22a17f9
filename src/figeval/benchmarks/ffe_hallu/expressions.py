"""Reading the expression FFE-HALLU's Tasks 1 and 3 ask for (documented in this benchmark's README, "How answers
are read"): one Persian expression taken out of what a model writes around it."""

from __future__ import annotations

import re

from figeval.benchmarks.ffe_hallu.expression_frames import (MARKED_ITEM, NOT_STRUCTURED, OTHER_CHOICE_MARKER,
                                                             last_revision, legend_marked, refused_after_candidate,
                                                             structured_answer, without_echo,
                                                             without_embedded_questions)
from figeval.benchmarks.ffe_hallu.expression_parts import (LIST_ITEM, PERSIAN_ITEM_LETTER, expression_in, is_refusal,
                                                            one_expression)
from figeval.benchmarks.ffe_hallu.prompts import GENERATION_EXAMPLES
from figeval.parsing import strip_reasoning
from figeval.text import expression_key, has_arabic_script, normalize_persian

# --- Tasks 1 and 3: the expression a model gives ----------------------------------------------------------------
# Task 1 asks "Output only the expression" (Appendix A 1.1): an answer that is one line of Persian with nothing
# but the expression is read as asked (layer 1). figeval's reader (layer 2) takes the expression out of what chat
# models write around it: labels ("Idiom:", "ضرب‌المثل:"), quotes, list numbers, glosses after a dash, arrow or
# parenthesis, a transliteration, a sentence around it ("A fitting proverb is «X», which means ..."), the restated
# meaning, a "Best:" / "The answer is:" line (in Arabic and Turkish too), `\boxed{}`, a marked item, a JSON answer's
# fields; a later revision replaces, a withdrawal or refusal after the candidate takes it back, the prompt echoed and
# an embedded question ("whether «X» ...") state nothing (`expression_frames`); Persian frames, glosses, hedges and
# "not X but Y" around the expression (`expression_parts`). Several expressions with none preferred are unread.
# Round 3: a pointer back to a mark or to bold chooses the marked item; a Persian item letter («الف») names its item;
# a label before «را» is no label; a line ending in «،» continues on the next; verse lines repeating one item's block
# are one expression; a dialogue illustrating the headword is no answer; «X بهتره» prefers X; «نیست» closing a clause
# negates every expression in it; two JSON expression fields are two answers; an Arabic expression is no answer.

_BOXED = re.compile(r"\\boxed\{(?:\\text\{)?([^{}]*)\}?\}")
# Lines that are not the answer: the restated meaning, a gloss, a translation, an explanation.
_NOT_ANSWER_LINE = re.compile(
    r"^\s*(?:[-*•>]\s*)?(?:meaning(?:\s*\(persian\))?|literal(?:ly)?|translation|gloss|explanation|usage|example|"
    r"transliteration|note|معنی|معنا|مفهوم|توضیح|ترجمه|کاربرد|مثال|یعنی)\b", re.IGNORECASE)
_ITEM_LETTERS = {letter: number for number, letter in enumerate("abcde", start=1)}
_NOT_OBJECT = r"(?!(?:[\s\u200c]*(?:گزینه|معادل|پاسخ|نهایی|برتر|من|ام))*[\s\u200c]*را(?:\s|$))"
_CHOICE_MARKER = re.compile(
    r"(?:(?:my|the)\s+)?(?:final\s+(?:answer|choice|pick|selection)|final|best(?:\s+(?:equivalent|choice|match|option|"
    r"answer))?|(?:the\s+)?answer(?:\s+is)?|i\s+(?:would\s+)?(?:go\s+with|choose|pick|select)|the\s+one\s+i'?d\s+pick\s+is"
    r"|(?:the\s+)?closest\s+(?:match|equivalent)(?:\s+is)?|best\s+fit"
    r"|i(?:'d|\s+would)\s+(?:rather\s+)?(?:go\s+with|choose|pick|select)"
    # «در نهایت:», «پیشنهاد من:» as labels only ("در نهایت X را انتخاب می‌کنم" is a sentence, not a label)
    r"|(?:در[\s\u200c]+نهایت|پیشنهاد(?:[\s\u200c]*(?:من|ام))?|انتخاب[\s\u200c]*(?:من|ام))(?=[ \t]*[:：])"
    # (not before the object marker «را»: «انتخاب نهایی را به شما واگذار می‌کنم» is a sentence about the choice)
    r"|(?:پاسخ|انتخاب|معادل|جواب|گزینه)(?:[\s\u200c]*(?:نهایی|برتر))(?:[\s\u200c]*(?:من|ام))?" + _NOT_OBJECT +
    r"|بهترین" + _NOT_OBJECT + r"(?:[\s\u200c]*(?:گزینه|معادل|پاسخ))?"
    rf"|{OTHER_CHOICE_MARKER})"
    r"[ \t]*(?:is|would[ \t]+be|است|:|：|=|->|=>|→|-|–|—|➡️?|[ \t])+",
    re.IGNORECASE,
)


# An expression can span lines: a line that ends in a Persian comma has not ended its clause, so the next Persian
# line (not a list item, not a gloss) continues it (family: a rhymed proverb laid out as verse, «سال به سال،\nدریغ از
# پارسال»). A line ending without a comma is complete: two such lines stay two.
_CONTINUED = re.compile(r"،[ \t]*\n[ \t]*(?=[\u0600-\u06FF])")


def _joined(text: str) -> str:
    def join(match: re.Match[str]) -> str:
        following = text[match.end():].split("\n", 1)[0]
        return match.group() if LIST_ITEM.match(following) or _NOT_ANSWER_LINE.match(following) else "، "
    return _CONTINUED.sub(join, text)


def _plain(text: str) -> str:
    """Text (its reasoning already set aside) without markup: \\boxed{}, emphasis, arrows, check marks; a line
    ending in a comma joined to the next."""
    text = _BOXED.sub(lambda m: m.group(1), text)
    return _joined(re.sub(r"[*`#_]+|^\s*>+\s*|➡️?|✓|✅|✔️?|☑️?", "", text, flags=re.MULTILINE))


# A usage example written as a dialogue: two or more consecutive turns, each a dash and a quotation («— «...»»), are
# an illustration of the answer, not answers (family: a headword then an exchange that uses it). One such line alone
# may be a quoted answer after a dash and is kept.
_TURN = re.compile(r"^\s*[—–-]\s*[«“\"]")


def _without_dialogue(raw: list[str]) -> list[str]:
    turns = [bool(_TURN.match(line)) for line in raw]
    return [line for at, line in enumerate(raw)
            if not (turns[at] and ((at > 0 and turns[at - 1]) or (at + 1 < len(raw) and turns[at + 1])))]


def _answer_lines(plain: str, meaning: str | None) -> list[str]:
    meaning_key = expression_key(meaning) if meaning else None
    lines = []
    raw = _without_dialogue([line for line in plain.splitlines() if line.strip()])
    for line in raw:
        if not has_arabic_script(line) or _NOT_ANSWER_LINE.match(line) or line.strip().endswith((":", "：")):
            continue  # not Persian, a gloss, or an introduction ("ضرب‌المثل مناسب:")
        if is_refusal(line) and not re.search(r"[«“\"]", line):
            continue  # a sentence saying the model has no (other) one names no expression
        if meaning_key and meaning_key in expression_key(line):
            continue  # the meaning restated
        lines.append(line)
    return lines


def bare_expression(text: str) -> str | None:
    """Layer 1 of Task 1: the output is the expression alone, as the prompt asks ("Output only the
    expression"): one line of Persian words, a final period aside. A line that figeval's reader finds more in (a
    Persian frame «اصطلاح مناسب ... X است», a gloss «X؛ یعنی ...», a hedge) is not the expression alone: the reader
    reads it."""
    lines = [line.strip() for line in strip_reasoning(text).splitlines() if line.strip()]
    if len(lines) != 1:
        return None
    line = lines[0].rstrip(".!").strip()
    if not line or not re.fullmatch(r"[\u0600-\u06FF\u200c\s،]+", line):
        return None
    inner = expression_in(line)
    return one_expression(line) if inner and expression_key(inner) == expression_key(line) else None


_UNREADABLE = "unreadable"
"""`_after_marker`'s value when the marker's sentence names Persian it cannot read as one expression (two)."""


def _marked_item(reasoned: str) -> str | None:
    """The one item marked as the choice ("1. X ✓ (most suitable)", "X ← مناسب‌ترین", a table's "Final: ✔", a
    symbol a legend defines: "⭐ = my final choice")."""
    marked = [line for line in reasoned.splitlines() if MARKED_ITEM.search(line) and has_arabic_script(line)]
    if len(marked) == 1:  # the one marked item, or no answer when it holds no one expression
        return expression_in(_plain(MARKED_ITEM.sub(" ", marked[0]))) or _UNREADABLE
    legend = legend_marked(reasoned)
    return (expression_in(_plain(legend)) or _UNREADABLE) if legend else None


# A number that names a list item: "2", "#3", "option 2", «گزینهٔ ۲ است», "the second one", "#3, because ..."
# (family: final choices given by number; a reason after a comma or "because" does not change the number).
# A Persian letter names the item lettered with it («انتخاب نهایی اینجانب گزینهٔ «الف» است»; the speaker «اینجانب»,
# «من», «بنده» before it and quotes around it are the sentence's, family: formal Persian lists lettered الف/ب/ج).
_NUMBER = re.compile(r"\s*(?:(?:اینجانب|من|بنده)\s+)?\(?"
                     r"(?:option|number|item|گزینه\S*)?\s*#?[«\"]?([0-9۰-۹]+|first|second|"
                     rf"third|one|two|three|[a-e]|{PERSIAN_ITEM_LETTER})\b[»\"]?\)?"
                     r"\s*(?:one|option)?\s*(?:است|هست|را)?\s*[.:]?\s*(?:(?:[,;—–-]\s*|\s)(?:because|since|as|for|چون|زیرا)\b.*)?$",
                     re.IGNORECASE)


def _numbered_item(named: str, lines: list[str]) -> str | None:
    """The list item a number or ordinal word names."""
    if re.fullmatch(PERSIAN_ITEM_LETTER, named):
        lettered = [line for line in lines if re.match(rf"\s*\(?{named}\s?[)\-]", normalize_persian(line))]
        return expression_in(lettered[0]) if len(lettered) == 1 else None
    named = named.lower()
    wanted = {"first": 1, "one": 1, "second": 2, "two": 2, "third": 3, "three": 3, **_ITEM_LETTERS}.get(named)
    wanted = wanted or int(named)
    items = [line for line in lines if LIST_ITEM.match(line)]
    return expression_in(items[wanted - 1]) if 0 < wanted <= len(items) else None


def _transliterated_item(latin: str, lines: list[str]) -> str | None:
    """The item whose transliteration in parentheses a choice written in Latin letters repeats (family: "Final
    choice: pool ke alaf-e khers nist" after "1. پول که علف خرس نیست (pool ke alaf-e khers nist)")."""
    key = re.sub(r"[^a-z]", "", latin.lower())
    named = [line for line in lines if key and any(re.sub(r"[^a-z]", "", t.lower()) == key
                                                   for t in re.findall(r"\(([^()]*)\)", line))]
    return expression_in(named[0]) if len(named) == 1 else None


def _repeated_block(following: str, before: str) -> str | None:
    """Verse lines after the marker that repeat, line for line, a block of lines written together above (the
    continuation lines of one list item): one expression over several lines (family: a couplet or quatrain given as
    the final choice under the label). Lines that were separate items above are two answers: not a block."""
    block: list[str] = []
    for line in following.split("\n"):
        if not line.strip():
            if block:
                break
            continue
        if not has_arabic_script(line) or LIST_ITEM.match(line):
            return None
        block.append(line.strip())
    if len(block) < 2:
        return None
    above = [line.strip() for line in before.split("\n")]
    for at in range(len(above) - len(block) + 1):
        if above[at:at + len(block)] == block and not any(LIST_ITEM.match(line) for line in block):
            parts = [part for part in map(expression_in, block) if part]  # a line naming none drops out
            return "\n".join(parts) if len(parts) == len(block) else None
    return None


def _two_lines_after(following: str) -> bool:
    """Two different expressions on the lines right under the marker (no blank line between; a gloss line and an
    introduction ("معادل فارسی:") aside):
    two answers under one label, nothing choosing (family: "Final choice:\nX\nY")."""
    first = following.strip("\n").split("\n\n", 1)[0].split("\n")
    found = {expression_key(e) for line in first if not _NOT_ANSWER_LINE.match(line)
             and not line.strip().endswith((":", "：")) and (e := expression_in(line))}  # (an introduction aside)
    return len(found) > 1


def _after_marker(plain: str, lines: list[str]) -> str | None:
    """The expression after the last choice marker, or the list item a number after it names."""
    markers = list(_CHOICE_MARKER.finditer(plain))
    if not markers:
        return None
    rest = plain[markers[-1].end():]
    same_line, _, following = rest.partition("\n")
    number = _NUMBER.match(normalize_persian(same_line))
    if number is not None:
        return _numbered_item(number.group(1), lines)
    # "Best equivalent: X. Other options: ...": the marker's own sentence
    sentence = re.split(r"(?<=[.!؟?])\s+(?![^«»\n]*»)|\n", same_line.strip(), maxsplit=1)[0]  # not inside «»
    if has_arabic_script(sentence) and not sentence.endswith((":", "：")):
        return expression_in(sentence) or _UNREADABLE
    if re.search(r"[A-Za-z]", sentence) and (named := _transliterated_item(sentence, lines)):
        return named
    block = _repeated_block(following, plain[:markers[-1].start()])
    if block:
        return block
    if _two_lines_after(following):
        return _UNREADABLE
    # the expression on a following line, an introduction ("معادل فارسی:") passed over
    after = [line for line in following.split("\n")
             if has_arabic_script(line) and not line.strip().endswith((":", "："))]
    return expression_in(after[0]) if after else None


def _ordinal_choice(plain: str, lines: list[str]) -> str | None:
    """"I would go with the second one", "I prefer the latter": the list item an ordinal names (the former: the
    first, the latter and the last: the last)."""
    # "The most natural is the second", "the best one would be the first" (family: a superlative naming an item)
    match = re.search(r"\b(?:go with|choose|pick|prefer|select|(?:best|closest|most\s+\w+)(?:\s+(?:one|option|fit|"
                      r"equivalent|choice))?\s+(?:is|would be))\s+the\s+(first|second|third|former|latter|last)\b"
                      r"(?!\s+(?:word|half|part|line|of)\b)", plain, re.IGNORECASE)
    if match is None:
        return None
    items = [line for line in lines if LIST_ITEM.match(line)]
    wanted = {"first": 1, "former": 1, "second": 2, "third": 3, "latter": len(items), "last": len(items)}[
        match.group(1).lower()]
    return expression_in(items[wanted - 1]) if 0 < wanted <= len(items) else None


# The prompt's own example expressions (Appendix A's [IDIOM_EX1], [PROVERB_EX2]): an answer that echoes the
# prompt first holds them, and they are the prompt's, never the model's answer.
_PROMPT_EXAMPLES = frozenset(expression_key(expression) for _, expression, _ in GENERATION_EXAMPLES)


# "(در نهایت) X را انتخاب می‌کنم / برمی‌گزینم / ترجیح می‌دهم": X is the choice.
_PERSIAN_CHOICE = re.compile(r"(?:^|[.:،]\s*)(?:در[\s\u200c]+نهایت[\s،]*)?(?:من\s+)?(.+?)\s+را\s+"
                             r"(?:انتخاب[\s\u200c]+می[\s\u200c]*کنم"
                             r"|برمی[\s\u200c]*گزینم|ترجیح[\s\u200c]+می[\s\u200c]*دهم)", re.MULTILINE)


# «(همون) «X» بهتره / بهتر است / مناسب‌تره»: a comparative said of one quoted expression prefers it (family: a choice in
# a colloquial or written Persian sentence). Not when the comparative is negated («بهتر نیست»), asked («بهتره؟»), put
# against another («X بهتره یا Y»), or conditional («اگر ...»).
_PREFERRED = re.compile(r"[«“\"]([^«»“”\"\n]+)[»”\"]\s*(?:بهتر|مناسب\s?تر|دقیق\s?تر|رسا\s?تر)(?:ه|ین(?:ه|\s+است)?)?"
                        r"(?:\s+(?:است|هست))?(?=\s|[.!،,]|$)(?!\s*(?:نیست|یا|نه)(?:\s|$|[.،,]))(?![^\n.!]*[؟?])")
_CONDITION = re.compile(r"(?:^|\s)(?:اگر|اگه|چنانچه)\s")


def _persian_choice(plain: str) -> str | None:
    """The expression a Persian sentence of choice or preference names, the last such sentence."""
    lines = "\n".join(normalize_persian(line) for line in plain.split("\n"))
    found = [(match.start(), expression_in(match.group(1))) for match in _PERSIAN_CHOICE.finditer(lines)]
    for match in _PREFERRED.finditer(lines):
        sentence_start = max(lines.rfind(mark, 0, match.start()) for mark in ".!؟?\n") + 1
        if not _CONDITION.search(lines[sentence_start:match.start()]):
            found.append((match.start(), match.group(1).strip()))
    return max(found)[1] if found else None  # the last sentence


def generated_expression(text: str, meaning: str | None = None) -> str | None:
    """figeval's reading of a Task 1 answer: the one expression given, or the one a marker chooses among several
    (the restated meaning and the prompt's own examples echoed are not an answer)."""
    reasoned = strip_reasoning(text)
    structured = structured_answer(reasoned)
    if structured is not NOT_STRUCTURED:
        return one_expression(structured)  # a JSON answer says what it chooses in its fields, or nothing
    # the prompt echoed and the expressions only asked about ("whether «X» is ...") state nothing
    reasoned = without_embedded_questions(without_echo(reasoned))
    revision = last_revision(reasoned)
    if revision is not None:
        after, withdrawing = revision
        revised = _read(after, meaning, _answer_lines(_plain(reasoned), meaning))
        if revised or withdrawing:
            return revised  # the revision's expression replaces the earlier one; a withdrawal with none: no answer
    if refused_after_candidate(reasoned):
        return None
    return _read(reasoned, meaning)


def _read(reasoned: str, meaning: str | None, items: list[str] | None = None) -> str | None:
    """The expression of an answer (or of the part after a revision, whose numbers name the `items` of the whole
    answer's list)."""
    plain = _plain(reasoned)
    lines = _answer_lines(plain, meaning)
    own = [line for line in lines if not ((e := expression_in(line)) and expression_key(e) in _PROMPT_EXAMPLES)]
    # an echo of the prompt's examples before the answer is set aside; an example alone is what the model said
    lines = own if any(expression_in(line) for line in own) else lines
    chosen = (_marked_item(reasoned) or _after_marker(plain, items or lines) or _ordinal_choice(plain, items or lines)
              or _persian_choice(plain))
    if chosen == _UNREADABLE:
        return None  # the final choice names two: no answer, whatever else the answer lists
    if chosen:
        return one_expression(chosen)
    found = {expression_key(e): e for line in lines if (e := expression_in(line))}
    if len(found) == 1:
        return one_expression(next(iter(found.values())))
    return one_expression(_last_line_choice(lines))


def _last_line_choice(lines: list[str]) -> str | None:
    """Candidates listed, then one of them alone on the last line (not a list item): the choice."""
    if len(lines) < 2 or LIST_ITEM.match(lines[-1]):
        return None
    last = expression_in(lines[-1])
    listed = {expression_key(e) for line in lines[:-1] if LIST_ITEM.match(line) and (e := expression_in(line))}
    return last if last and len(listed) > 1 and expression_key(last) in listed else None


def chosen_equivalent(text: str) -> str | None:
    """figeval's reading of a Task 3 answer ("in the end specify your final choice", Appendix A 1.3): the
    expression after the last final-choice marker (or the list item it numbers, or "the second one"); without a
    marker, the only equivalent given. Several equivalents and no choice: unread."""
    return generated_expression(text)
