"""The summarization prompt's two questions answered in turn (Figure 7): (1) is all information in the summary
drawn correctly from the article? (2) is there false, distorted or extra information in it?

"۱- بله ۲- خیر", "1. Yes 2. No", "معیار ۱ (استخراج صحیح): بله", "1. All information ... extracted: ❌ No": yes then
no is faithful (Y); a no to the first or a yes to the second is N; no to both contradicts itself. Numbered items are
found in an answer's `answer_body` (reading form); a JSON object of the criteria ({"criterion_1": true, ...}) and a
table whose header names the criteria and whose rows are questions (unwrapped to "answer: بله" rows) are first made
numbered items (`criteria_text`). Items may be answered by English truth values ("1. True\n2. False": Y) and in
either order, each with its number ("۲- خیر\n۱- بله": Y).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from figeval.parsing import YES_NO_WORDS, YesNo, json_answer, json_key, json_object, words_pattern

YES, NO = "Y", "N"
CONTRADICTORY = "contradictory"
FIRST_YES = "first yes"
"""Criterion 1 answered yes and criterion 2 not at all: necessary, not sufficient (a yes to 2 would make it N)."""

_YES_WORDS = frozenset({*YES_NO_WORDS[YesNo.YES], "y"})
_WORDS = words_pattern({*_YES_WORDS, *YES_NO_WORDS[YesNo.NO], "n"})
# A check mark or cross with the answer ("❌ No", "✅ Yes", or alone): the same answer; a mark that disagrees with
# its word ("✅ No") answers nothing.
# An item answered by a truth value ("1. True\n2. False") is that answer, when the value ends its line: "2. False
# information was added" states, it does not answer. Persian «درست / نادرست» are not truth values here: «معیار ۲:
# نادرست» may answer "no" or call the information wrong (a person cannot tell).
_TRUTH = {"true": True, "false": False}
_MARKS = {"✅": True, "✔": True, "☑": True, "❌": False, "✖": False, "❎": False}
_KEYWORD = r"(?:criterion|criteria|question|معیار|سوال|سؤال)"
# An item: "1." / "۱-" / "2)" or a keyword and its number ("معیار ۱ (استخراج صحیح اطلاعات):", "criterion 2:"), then
# optionally the criterion restated up to a colon (within the sentence: "Criterion 1: yes. Criterion 2: no" is
# two items), then the answer.
_ITEM = re.compile(
    rf"(?:^|(?<=\s))(?:{_KEYWORD}[ \t]*(?P<k>[12])[ \t]*(?:\([^()\n]{{0,80}}\))?[ \t]*[-.):–]?"
    r"|(?P<n>[12])[ \t]*[-.):–])"
    rf"[ \t]*(?:[^\n:.;!?؟]{{0,120}}:[ \t]*)?(?:(?P<mark>[{''.join(_MARKS)}])\ufe0f?[ \t]*)?"
    rf"(?:(?P<word>{_WORDS}(?![\w/]))|(?P<truth>true|false)(?=[ \t]*[.!]?[ \t]*(?:\n|$)))?")
_ITEM_LINE = re.compile(rf"^\s*(?:{_KEYWORD}\s*)?[12]\s*[-.):–(].*$", re.MULTILINE)
# A later explicit revision (of the items, or of any answer) ("Wait", "Correction:", «اصلاح»): the items after it
# replace those before.
REVISION = re.compile(r"\b(?:wait|actually|correction|corrected|i made a mistake|on second thought|on re-?reading|"
                      r"let me reconsider)\b|(?:^|\s)(?:اصلاح|تصحیح|در واقع)(?:\s|:|$)|\b(?:düzeltme|aslında)\b")


@dataclass(frozen=True)
class Items:
    """What the numbered items state: a verdict (Y, N, CONTRADICTORY, FIRST_YES) and where the last one ends."""

    verdict: str
    end: int


def _answers(body: str) -> list[tuple[int, bool, int, int]]:
    """(criterion, yes?, start, end) of each answered item, in order."""
    found = []
    for match in _ITEM.finditer(body):
        word, mark, truth = match.group("word"), match.group("mark"), match.group("truth")
        by_word = _TRUTH[truth] if truth else None if word is None else word in _YES_WORDS
        by_mark = None if mark is None else _MARKS[mark]
        yes = by_mark if by_word is None else by_word  # None only when neither says
        if yes is None or None not in (by_word, by_mark) and by_word != by_mark:
            continue
        found.append((int(match.group("k") or match.group("n")), yes, match.start(), match.end()))
    return found


def _pair_verdict(first: bool, second: bool) -> str:
    if not first and not second:
        return CONTRADICTORY  # "not all drawn from the article" but "nothing false or extra"
    return YES if first and not second else NO


def _pairs(answers: list[tuple[int, bool, int, int]]) -> list[tuple[str, int, int]]:
    """(verdict, start, end) of each pair of consecutive answers to criteria 1 and 2, taken in turn without overlap.
    A pair may come in either order, each item with its number ("۲- خیر\n۱- بله" is 1 yes, 2 no: the numbers say
    which is which), so a repeat in the other order ("1. yes 2. no ... 2. yes 1. yes") is a second pair."""
    pairs, i = [], 0
    while i + 1 < len(answers):
        a, b = answers[i], answers[i + 1]
        if {a[0], b[0]} == {1, 2}:
            first, second = (a, b) if a[0] == 1 else (b, a)
            pairs.append((_pair_verdict(first[1], second[1]), a[2], b[3]))
            i += 2
        else:
            i += 1
    return pairs


def items_verdict(body: str) -> Items | None:
    """What the items in `body` state, or None when the questions are not answered by number.

    Answered twice, the last pair decides where a revision ("Wait ... Correction:") precedes it; pairs that
    disagree with nothing revising are None (two answers). The second answered alone: Y for no, N for yes. The
    first alone: N for no (not all drawn from the article), FIRST_YES for yes."""
    answers = _answers(body)
    pairs = _pairs(answers)
    if pairs:
        verdicts = {verdict for verdict, _, _ in pairs}
        last, start, end = pairs[-1]
        if len(verdicts) == 1 or REVISION.search(body, pairs[-2][2], start):
            return Items(last, end)
        return None
    numbers = {number for number, _, _, _ in answers}
    if numbers == {2} and not re.search(rf"(?:^|\s)(?:{_KEYWORD}\s*)?1\s*[-.):–(]", body):
        answer = answers[-1]
        return Items(NO if answer[1] else YES, answer[3])
    if numbers == {1} and len({answer for _, answer, _, _ in answers}) == 1:
        answer = answers[-1]
        return Items(FIRST_YES if answer[1] else NO, answer[3])
    return None


def without_items(body: str) -> str:
    """The body with the items' lines removed (their yes/no answer questions, they are not verdicts)."""
    return _ITEM_LINE.sub(" ", body)


# A table whose header names the criteria, its rows questions answered in turn: "criterion: answer", then exactly
# two "answer: X" rows (`markup.unwrapped` writes a question row so) are criteria 1 and 2.
_HEADED_ROWS = re.compile(rf"^\s*{_KEYWORD}s?\s*:[^\n]*\n\s*answer:\s*({_WORDS})\W*\n\s*answer:\s*({_WORDS})\W*$"
                          r"(?!\n\s*answer:)", re.MULTILINE)
_JSON_CRITERION = re.compile(r"^(?:criterion|criteria|question|q|c|معیار|سوال|سؤال)_?([12])$")


def _yes_no(value: object) -> str | None:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value.strip().lower() if isinstance(value, str) and re.fullmatch(_WORDS, value.strip().lower()) else None


def criteria_text(text: str) -> str | None:
    """A JSON object whose keys are the criteria ({"criterion_1": true, "criterion_2": false}, booleans or yes/no
    words) as numbered items ("1. yes\\n2. no"; one key alone is one item), or None when the text is no such object
    or has an answer field (`parsing.json_answer` reads that: the model's own verdict)."""
    if json_answer(text) is not None:
        return None
    obj = json_object(text)
    if obj is None:
        return None
    answers = {}
    for key, value in obj.items():
        criterion = _JSON_CRITERION.match(json_key(key))
        if criterion and _yes_no(value):
            answers[criterion.group(1)] = _yes_no(value)
    return "\n".join(f"{number}. {answers[number]}" for number in sorted(answers)) or None


def headed_rows(body: str) -> str:
    """The body with a criteria table's two answer rows numbered ("1- بله\\n2- خیر")."""
    return _HEADED_ROWS.sub(r"1- \1\n2- \2", body)
