"""Reading FFE-HALLU's free-text answers (documented in this benchmark's README, "How answers are read").

Task 2 (detection). Layer 1, the paper's: Section 4 assumes YES/NO answers, so an answer that is a bare yes/no
word (after a think block, a JSON wrapper, markdown and an "Answer:" label) is read as the paper reads it.
Layer 2, figeval's reader, for what chat models write instead: a yes/no opening a sentence ("No, it is a
well-known proverb"), "the answer is no", True/False, and what the answer says the expression is, in English
or Persian: fake / fabricated / made up / not a real ... / does not exist / I don't recognize it / a distorted
version of ..., versus real / genuine / authentic / well known / exists; جعلی، ساختگی، ساخته‌شده، وجود ندارد،
واقعی نیست versus واقعی است، اصیل، رایج، معروف، وجود دارد. A yes/no is turned into real or fake by the framing
(fake-q: yes = fake; real-q: yes = real). Not verdicts: "نه تنها ... بلکه" (not only ... but), "No idea",
a restated question ("Is this a fake idiom? ..."), and the expression itself when it begins with «نه» (the
quoted expression is removed before reading). See `figeval.verdict` for how sentences are combined.
"""

from __future__ import annotations

import functools
import re

from figeval.benchmarks.ffe_hallu.prompts import GENERATION_EXAMPLES
from figeval.parsing import YES_NO_WORDS, YesNo, answer_words, json_answer, strip_reasoning, words_pattern
from figeval.scoring.readers import Parse
from figeval.text import expression_key, has_arabic_script, normalize_persian
from figeval.verdict import Cue, cue, read_verdict, reading_form, yes_no_sentence_cues

REAL, FAKE = "real", "fake"

# What may open a sentence before its yes/no: a list marker, "Answer:", "Final answer is", "پاسخ:", "جواب:".
_OPENING = (r"^(?:[-•]\s*|\(?[0-9]+[.)\-:]\s*)?(?:«…»\s*[—–\-:,]?\s*)?(?:(?:actually|well|so|ok(?:ay)?),?\s+)?(?:(?:the\s+|my\s+)?(?:final\s+|short\s+)?answer(?:\s+is)?\s*[:\-]?\s*"
            r"|(?:پاسخ|جواب)(?:\s+نهایی)?\s*[:\-]?\s*|verdict\s*[:\-]?\s*)?")
# The yes/no words of every language models answer in (`parsing.YES_NO_BY_LANGUAGE`), and True/False.
# "Yeah, no" (a no) and "yes or no" are not a yes.
_YES = (rf"(?:{words_pattern(YES_NO_WORDS[YesNo.YES])}|true)(?!\s+(?:or|and|یا|و)\s)"
        rf"(?!\W{{1,3}}{words_pattern(YES_NO_WORDS[YesNo.NO])}\b)")
# "no" that is not "No idea", "no doubt", "No, or ...", "نه تنها" (not only), "نه فقط", «لا به لا» (an idiom).
_NO = (rf"(?:{words_pattern(YES_NO_WORDS[YesNo.NO])}|false)"
       r"(?!\s+(?:or|idea|doubt|comment|تنها|فقط|یا|چندان|به)\b)")
_END = r"(?=[\s.,!:;،؛)]|$)"
_ANSWER_IS = (r"(?:answer\b[^.:]{0,40}?\b(?:is|would be)\s*:?|answer\s*:|پاسخ\s*(?:من\s*)?(?:است|:)|جواب\s*:"
              r"|boxed\{\s*(?:\\text\{)?)\s*")

_SUBJECT_WORDS = r"(?:persian\s+|farsi\s+)?(?:idiom|proverb|expression|saying|phrase|ffe|one)"
_REAL_WORDS = (r"(?:real|true|genuine|authentic|actual|legitimate|recogni[sz]ed|known|established|attested|existing|"
               r"valid|traditional|common|commonly used|widely used|well[- ]known|famous|popular|standard|classic|"
               r"vaghei|vagheei|asil|raayej|rayej)")  # the last: Persian in Latin letters
_FAKE_WORDS = (r"(?:fake(?:ry)?|fabricat(?:ed|ion)|made[- ]up|invent(?:ed|ion)|fictional|fictitious|non[- ]?existent|"
               r"bogus|spurious|artificial|coined|forgery|hoax|jaali|jali|sakhtegi)")  # the last: Persian in Latin letters
_PERSIAN_REAL = r"(?:واقعی|اصیل|رایج|معروف|مشهور|شناخته شده|معتبر|متداول|پرکاربرد|مصطلح)"
_PERSIAN_FAKE = r"(?:جعلی|ساختگی|ساخته شده|من درآوردی|تحریف شده|دستکاری شده)"
_COPULA = r"(?:است|هست|می باشد|میباشد)"
# A Persian clause closes with its verb: «نیست» / «نمی‌باشد» negates the label word of its clause however many words
# come between («این یک ضرب‌المثل واقعی فارسی نیست»), but not across another verb or a conjunction.
_NEGATED_CLOSE = r"(?:\s+(?!(?:است|هست|و|ولی|اما|که|بلکه|یا)(?:\s|$))[^\s.,;:!?،؛]+){0,4}?\s+(?:نیست|نمی ?باشد)"
# The rest of a negated clause belongs to the negation ("I don't recognize this as a real Persian idiom").
_CLAUSE = r"[^.,;:!?،؛]*"


def detection_cues(framing_yes_means: str) -> list[Cue]:
    """The cues of a detection answer under a framing whose "yes" says the expression is `framing_yes_means`."""
    yes, no = framing_yes_means, (FAKE if framing_yes_means == REAL else REAL)
    return [
        # negated forms first: a span a cue took is not read again
        *cue(REAL, rf"(?:\bnot|n't|never|rather than|instead of)\s+(?:\w+\s+){{0,3}}?{_FAKE_WORDS}\b{_CLAUSE}",
             rf"{_PERSIAN_FAKE}{_NEGATED_CLOSE}", rf"(?:^|\s)نه\s+{_PERSIAN_FAKE}"),
        *cue(FAKE, rf"(?:\bnot|n't|never|rather than|instead of)\s+(?!sure\b|certain\b|only\b|just\b)(?:\w+\s+){{0,4}}?"
                   rf"{_REAL_WORDS}\b{_CLAUSE}",
             rf"\b(?:not aware|not familiar|unaware|(?:don't|do not|can't|cannot) recall|(?:can't|cannot|couldn't|"
             rf"could not) find|never heard|(?:haven't|have not) heard|no record){_CLAUSE}",
             rf"\bnot\s+(?:\w+\s+){{0,2}}?(?:used|in use|exist)\b{_CLAUSE}",
             rf"\b(?:is not|isn't|'s not)\s+(?:a|an)\s+(?:persian|farsi)\s+{_SUBJECT_WORDS}\b{_CLAUSE}",
             r"\b(?:don't|do not|doesn't|does not|cannot|can't|couldn't|could not|didn't|did not|am not able to)\s+"
             rf"(?:\w+\s+){{0,2}}?(?:recogni[sz]e|know of|exist|seem to exist|appear (?:to exist|in))\b{_CLAUSE}",
             r"\bno\s+(?:such|known|record of|evidence)\b",
             r"\b(?:distorted|altered|modified|corrupted|garbled|mangled|perturbed|twisted|misquoted|scrambled)\s+"
             r"(?:version|form|variant|rendering|variation)\b",
             rf"{_PERSIAN_REAL}{_NEGATED_CLOSE}", rf"(?:^|\s)نه\s+{_PERSIAN_REAL}", r"وجود\s+ندار", r"(?:نشنیده|ندیده)\s*ام",
             r"نمی\s?شناسم", r"ثبت\s+نشده", r"شنیده\s+نمی\s?شود", r"به\s+تقلید"),
        *yes_no_sentence_cues(yes, no),
        *cue(yes, rf"{_OPENING}{_YES}{_END}", rf"{_ANSWER_IS}{_YES}{_END}"),
        *cue(no, rf"{_OPENING}{_NO}{_END}", rf"{_ANSWER_IS}{_NO}{_END}"),
        *cue(FAKE, rf"\b{_FAKE_WORDS}\b", _PERSIAN_FAKE),
        # "is a real idiom", "It is genuine.", but not "is a traditional occupation"
        *cue(REAL, rf"\b(?:is|'s|are|seems|appears)\s+(?:to\s+be\s+)?(?:(?:indeed|definitely|certainly|actually|"
                   rf"quite|very|a|an|the|truly|clearly)\s+)*{_REAL_WORDS}\b(?=\s*$|\s*[^\w\s]|\s+(?:and|or)\b|"
                   rf"\s+{_SUBJECT_WORDS}\b|\s+(?:in|among)\s+persian\b)",
             rf"(?<!of )(?<!on )(?<!from )(?<!to )(?<!in )(?<!as )(?<!like )(?<!than )\b(?:a|an)\s+{_REAL_WORDS}\s+"
             rf"{_SUBJECT_WORDS}\b",
             r"^(?:it'?s\s+)?(?:real|genuine|authentic)\W*$",
             rf"\b(?:is|'s)\s+(?:a|an)\s+(?:\w+\s+){{0,2}}?example\s+of\s+(?:a|an)\s+(?:\w+\s+)?{_SUBJECT_WORDS}\b",
             # "X is a Persian proverb that ...": says it exists (not "a common idiomatic expression in Persian",
             # which small models write of expressions they call fake in the same breath)
             rf"\b(?:is|'s)\s+(?:(?:indeed|definitely|certainly|actually|truly|clearly)\s+)*(?:a|an)\s+"
             rf"(?:(?:common|classic|traditional|old)\s+)?(?:persian|farsi)\s+{_SUBJECT_WORDS}\b",
             r"\b(?:does\s+)?exists?\b(?!\s+in\s+(?:a|another))",
             rf"{_PERSIAN_REAL}\s*(?:ی\s+)?{_COPULA}", rf"{_PERSIAN_REAL}\s+{_COPULA}?", r"وجود\s+دار"),
    ]


_CUES = {REAL: detection_cues(REAL), FAKE: detection_cues(FAKE)}


def bare_yes_no(text: str) -> YesNo | None:
    """The paper's reading (FFE-HALLU Section 4 assumes YES/NO answers): an answer that is one yes/no word, after
    reasoning, a JSON wrapper, markdown and an "Answer:" label are removed; None for anything longer."""
    text = strip_reasoning(text)
    text = json_answer(text) or text
    words = answer_words(reading_form(text))
    if words[:1] == ["answer"]:
        words = words[1:]
    if len(words) != 1:
        return None
    letters = {"y": YesNo.YES, "n": YesNo.NO}  # the whole answer a letter: "Y"
    return letters.get(words[0]) or next((v for v, variants in YES_NO_WORDS.items() if words[0] in variants), None)


def detection_verdict(text: str, yes_means: str, expression: str) -> tuple[str | None, str | None]:
    """(the paper's reading, figeval's reading) of a detection answer, each `real`, `fake` or None.

    Args:
        text: the model's answer.
        yes_means: what a "yes" says the expression is under the framing asked (`fake` for fake-q).
        expression: the expression asked about (removed before reading: it is not a verdict).
    """
    no_means = FAKE if yes_means == REAL else REAL
    bare = bare_yes_no(text)
    paper = None if bare is None else (yes_means if bare is YesNo.YES else no_means)
    return paper, read_verdict(text, _CUES[yes_means], quoted=[expression])


def detection_readers(yes_means: str, expression: str) -> tuple[Parse, Parse]:
    """The paper's rule and figeval's reader of one detection answer (see `detection_verdict`), as `read_answer`
    takes them: the answer is read once for both."""
    readings = functools.lru_cache(maxsize=1)(lambda text: detection_verdict(text, yes_means, expression))
    return (lambda text: readings(text)[0]), (lambda text: readings(text)[1])


# --- Tasks 1 and 3: the expression a model gives ----------------------------------------------------------------
# Task 1 asks "Output only the expression" (Appendix A 1.1): an answer that is one line of Persian with nothing
# but the expression is read as asked (layer 1). figeval's reader (layer 2) takes the expression out of what chat
# models write around it: labels ("Idiom:", "ضرب‌المثل:"), quotes, list numbers, glosses after a dash, arrow or
# parenthesis, a transliteration, a sentence around it ("A fitting proverb is «X», which means ..."), the restated
# meaning, a "Best:" / "The answer is:" line, `\boxed{}`. Several expressions with none preferred are unread.

_BOXED = re.compile(r"\\boxed\{(?:\\text\{)?([^{}]*)\}?\}")
_ARABIC_RUN = re.compile(r"[\u0600-\u06FF\u200c][\u0600-\u06FF\u200c\s،]*[\u0600-\u06FF\u200c]|[\u0600-\u06FF]")
# Lines that are not the answer: the restated meaning, a gloss, a translation, an explanation.
_NOT_ANSWER_LINE = re.compile(
    r"^\s*(?:[-*•>]\s*)?(?:meaning(?:\s*\(persian\))?|literal(?:ly)?|translation|gloss|explanation|usage|example|"
    r"transliteration|note|معنی|معنا|مفهوم|توضیح|ترجمه|کاربرد|مثال|یعنی)\b", re.IGNORECASE)
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\(?[0-9۰-۹]+[.)\-:]|[0-9۰-۹]+\s*[-–]|\(?[a-e][.)])\s+")
_ITEM_LETTERS = {letter: number for number, letter in enumerate("abcde", start=1)}
_CHOICE_MARKER = re.compile(
    r"(?:(?:my|the)\s+)?(?:final\s+(?:answer|choice|pick|selection)|final|best(?:\s+(?:equivalent|choice|match|option|"
    r"answer))?|(?:the\s+)?answer(?:\s+is)?|i\s+(?:would\s+)?(?:go\s+with|choose|pick|select)|the\s+one\s+i'?d\s+pick\s+is"
    r"|(?:the\s+)?closest\s+(?:match|equivalent)(?:\s+is)?|best\s+fit"
    r"|i(?:'d|\s+would)\s+(?:rather\s+)?(?:go\s+with|choose|pick|select)"
    # «در نهایت:», «پیشنهاد من:» as labels only ("در نهایت X را انتخاب می‌کنم" is a sentence, not a label)
    r"|(?:در[\s\u200c]+نهایت|پیشنهاد(?:[\s\u200c]*(?:من|ام))?|انتخاب[\s\u200c]*(?:من|ام))(?=[ \t]*[:：])"
    r"|(?:پاسخ|انتخاب|معادل|جواب|گزینه)(?:[\s\u200c]*(?:نهایی|برتر))(?:[\s\u200c]*(?:من|ام))?|بهترین(?:[\s\u200c]*(?:گزینه|معادل|پاسخ))?)"
    r"[ \t]*(?:is|would[ \t]+be|است|:|：|=|->|=>|→|-|–|—|➡️?|[ \t])+",
    re.IGNORECASE,
)


def _plain(text: str) -> str:
    """Text (its reasoning already set aside) without markup: \\boxed{}, emphasis, arrows, check marks."""
    text = _BOXED.sub(lambda m: m.group(1), text)
    return re.sub(r"[*`#_]+|^\s*>+\s*|➡️?|✓|✅", "", text, flags=re.MULTILINE)


_LABEL = re.compile(r"^\s*(?:persian\s+)?(?:idiom|proverb|expression|saying|answer|equivalent|translation|"
                    r"اصطلاح|ضرب[\s\u200c]?المثل|مثل|کنایه|پاسخ|جواب|معادل)\s*[:：\-–]\s*", re.IGNORECASE)
# An item marked as the choice: "1. X ✓ (most suitable)".
_MARKED_ITEM = re.compile(r"✓|✅|\((?:most suitable|best|recommended|my choice|preferred)\)|←\s*best", re.IGNORECASE)


def _expression_in(segment: str) -> str | None:
    """The expression a line or a clause names: its one quoted Persian span, else its one run of Persian words
    (a label before it and a gloss after a dash, arrow or parenthesis cut off first; of "X, although Y", X)."""
    segment = re.split(r"[,،;]\s*(?:although|though|but|while|however|اما|ولی)\b|\s—\s", segment, maxsplit=1)[0]
    quoted = {q.strip() for q in re.findall(r"[«“\"]([^«»“”\"]+)[»”\"]", segment) if has_arabic_script(q)}
    if len(quoted) == 1:
        return quoted.pop()
    if len(quoted) > 1:
        return None
    segment = _LABEL.sub("", _LIST_ITEM.sub("", segment, count=1), count=1)
    segment = re.split(r"\s+[(\[]|\s*[→⟶]|\s+[-–—:]\s+|\s+/\s+", segment, maxsplit=1)[0]
    runs = [run.strip(" ،") for run in _ARABIC_RUN.findall(segment) if len(run.strip(" ،")) > 1]
    return runs[0] if len(runs) == 1 else None


def _answer_lines(plain: str, meaning: str | None) -> list[str]:
    meaning_key = expression_key(meaning) if meaning else None
    lines = []
    for line in plain.splitlines():
        if not has_arabic_script(line) or _NOT_ANSWER_LINE.match(line) or line.strip().endswith((":", "：")):
            continue  # not Persian, a gloss, or an introduction ("ضرب‌المثل مناسب:")
        if meaning_key and meaning_key in expression_key(line):
            continue  # the meaning restated
        lines.append(line)
    return lines


# A sentence saying the model has none ("متاسفانه نمی‌توانم ... پیدا کنم") is no answer.
_REFUSAL = re.compile(r"^(?:متاسفانه|متأسفانه|با عرض پوزش|پوزش)|نمی\s?(?:توانم|دانم|شناسم)|پیدا\s+نکردم|سراغ\s+ندارم")
# The slots of an idiom's dictionary form: "حال و هوای کسی یا کاری را نداشتن" is one expression.
_SLOTS = frozenset({"کسی", "چیزی", "جایی", "کاری", "کس", "چیز"})


def _two_offered(plain: str) -> bool:
    """Two expressions offered as one: "X یا Y", one «یا» between two spans of two words or more. Not: a proverb
    built on «یا ... یا» ("either ... or": «یا رومی روم یا زنگی زنگ», «آش یا شور می‌شود یا بی‌نمک»), the slots of a
    dictionary form («کسی یا کاری»), or two forms of one expression, the same words but one («چوب دوسرطلا یا چوب
    دوسرگهی»)."""
    words = plain.split()
    if words.count("یا") != 1 or words[0] == "یا":
        return False
    at = words.index("یا")
    left, right = words[:at], words[at + 1:]
    one_form = len(left) == len(right) and sum(a != b for a, b in zip(left, right)) == 1
    return len(left) > 1 and len(right) > 1 and left[-1] not in _SLOTS and right[0] not in _SLOTS and not one_form


def one_expression(found: str | None) -> str | None:
    """`found` when it is one expression, None when it is two offered as one or a refusal."""
    if found is None:
        return None
    plain = normalize_persian(found).replace("\u200c", " ")
    return None if _two_offered(plain) or _REFUSAL.search(plain) else found


def bare_expression(text: str) -> str | None:
    """Layer 1 of Task 1: the output is the expression alone, as the prompt asks ("Output only the
    expression"): one line of Persian words, a final period aside."""
    lines = [line.strip() for line in strip_reasoning(text).splitlines() if line.strip()]
    if len(lines) != 1:
        return None
    line = lines[0].rstrip(".!").strip()
    return one_expression(line) if line and re.fullmatch(r"[\u0600-\u06FF\u200c\s،]+", line) else None


def _marked_item(reasoned: str) -> str | None:
    """The one item marked as the choice ("1. X ✓ (most suitable)")."""
    marked = [line for line in reasoned.splitlines() if _MARKED_ITEM.search(line) and has_arabic_script(line)]
    return _expression_in(_plain(_MARKED_ITEM.sub(" ", marked[0]))) if len(marked) == 1 else None


def _after_marker(plain: str, lines: list[str]) -> str | None:
    """The expression after the last choice marker, or the list item a number after it names."""
    markers = list(_CHOICE_MARKER.finditer(plain))
    if not markers:
        return None
    rest = plain[markers[-1].end():]
    same_line, _, following = rest.partition("\n")
    number = re.match(r"\s*\(?(?:option|گزینه|number)?\s*([0-9۰-۹]+|first|second|third|one|two|three|[a-e])\b\)?\s*"
                      r"(?:one|option)?\s*[.:]?\s*$", normalize_persian(same_line), re.IGNORECASE)
    if number is not None:
        named = number.group(1).lower()
        wanted = {"first": 1, "one": 1, "second": 2, "two": 2, "third": 3, "three": 3, **_ITEM_LETTERS}.get(named)
        wanted = wanted or int(named)
        items = [line for line in lines if _LIST_ITEM.match(line)]
        return _expression_in(items[wanted - 1]) if 0 < wanted <= len(items) else None
    # "Best equivalent: X. Other options: ...": the marker's own sentence
    sentence = re.split(r"(?<=[.!؟?])\s+|\n", same_line.strip(), maxsplit=1)[0]
    if has_arabic_script(sentence) and not sentence.endswith((":", "：")):
        return _expression_in(sentence)
    # the expression on a following line, an introduction ("معادل فارسی:") passed over
    after = [line for line in following.split("\n") if has_arabic_script(line) and not line.strip().endswith((":", "："))]
    return _expression_in(after[0]) if after else None


def _ordinal_choice(plain: str, lines: list[str]) -> str | None:
    """"I would go with the second one", "I prefer the latter": the list item an ordinal names (the former: the
    first, the latter and the last: the last)."""
    match = re.search(r"\b(?:go with|choose|pick|prefer|select)\s+the\s+(first|second|third|former|latter|last)\b",
                      plain, re.IGNORECASE)
    if match is None:
        return None
    items = [line for line in lines if _LIST_ITEM.match(line)]
    wanted = {"first": 1, "former": 1, "second": 2, "third": 3, "latter": len(items), "last": len(items)}[
        match.group(1).lower()]
    return _expression_in(items[wanted - 1]) if 0 < wanted <= len(items) else None


# The prompt's own example expressions (Appendix A's [IDIOM_EX1], [PROVERB_EX2]): an answer that echoes the
# prompt first holds them, and they are the prompt's, never the model's answer.
_PROMPT_EXAMPLES = frozenset(expression_key(expression) for _, expression, _ in GENERATION_EXAMPLES)


# "(در نهایت) X را انتخاب می‌کنم / برمی‌گزینم / ترجیح می‌دهم": X is the choice.
_PERSIAN_CHOICE = re.compile(r"(?:^|[.:،]\s*)(?:در[\s\u200c]+نهایت[\s،]*)?(?:من\s+)?(.+?)\s+را\s+(?:انتخاب[\s\u200c]+می[\s\u200c]*کنم"
                             r"|برمی[\s\u200c]*گزینم|ترجیح[\s\u200c]+می[\s\u200c]*دهم)", re.MULTILINE)


def _persian_choice(plain: str) -> str | None:
    """The expression a Persian sentence of choice names, the last such sentence."""
    lines = "\n".join(normalize_persian(line) for line in plain.split("\n"))
    found = [_expression_in(match.group(1)) for match in _PERSIAN_CHOICE.finditer(lines)]
    return found[-1] if found else None


def generated_expression(text: str, meaning: str | None = None) -> str | None:
    """figeval's reading of a Task 1 answer: the one expression given, or the one a marker chooses among several
    (the restated meaning and the prompt's own examples echoed are not an answer)."""
    reasoned = strip_reasoning(text)
    plain = _plain(reasoned)
    lines = _answer_lines(plain, meaning)
    own = [line for line in lines if not ((e := _expression_in(line)) and expression_key(e) in _PROMPT_EXAMPLES)]
    # an echo of the prompt's examples before the answer is set aside; an example alone is what the model said
    lines = own if any(_expression_in(line) for line in own) else lines
    chosen = (_marked_item(reasoned) or _after_marker(plain, lines) or _ordinal_choice(plain, lines)
              or _persian_choice(plain))
    if chosen:
        return one_expression(chosen)
    found = {expression_key(e): e for line in lines if (e := _expression_in(line))}
    if len(found) == 1:
        return one_expression(next(iter(found.values())))
    return one_expression(_last_line_choice(lines))


def _last_line_choice(lines: list[str]) -> str | None:
    """Candidates listed, then one of them alone on the last line (not a list item): the choice."""
    if len(lines) < 2 or _LIST_ITEM.match(lines[-1]):
        return None
    last = _expression_in(lines[-1])
    listed = {expression_key(e) for line in lines[:-1] if _LIST_ITEM.match(line) and (e := _expression_in(line))}
    return last if last and len(listed) > 1 and expression_key(last) in listed else None


def chosen_equivalent(text: str) -> str | None:
    """figeval's reading of a Task 3 answer ("in the end specify your final choice", Appendix A 1.3): the
    expression after the last final-choice marker (or the list item it numbers, or "the second one"); without a
    marker, the only equivalent given. Several equivalents and no choice: unread."""
    return generated_expression(text)
