"""Reading PerHalluEval's answers (documented in this benchmark's README, "How answers are read").

Layer 1, the paper's: Figure 7's QA prompt allows only the letter «Y» or «N» as the output, so an answer that is
that letter (after a think block, a JSON wrapper, markdown, quotes and an "Output:" label) is read as asked.
Layer 2, figeval's reader, for the rest: Y/N opening or closing a sentence ("N. The answer names another city",
an explanation ending in «N»), yes/no and their Persian words (بله/خیر), label words in English and Persian
(correct, accurate, faithful / incorrect, hallucinated, fabricated; درست، صحیح، مطابقت دارد / نادرست، غلط،
تحریف‌شده), Persian negation after the adjective ("درست نیست": N), "no false information" / "اطلاعات نادرستی
ندارد" (Y), and the summarization prompt's two numbered questions answered in turn ("۱- بله ۲- خیر": all
information drawn from the article and none wrong: Y; a "no" to the first or a "yes" to the second: N).
"""

from __future__ import annotations

import re

from figeval.parsing import YES_NO_WORDS, YesNo, json_answer, strip_reasoning, words_pattern
from figeval.verdict import answer_body, body_verdict, cue, reading_form, yes_no_sentence_cues

YES, NO = "Y", "N"

_CLAUSE = r"[^.,;:!?،؛]*"
_LABEL = r"(?:(?:final\s+)?(?:output|answer|verdict|label)|خروجی|پاسخ|جواب|نتیجه)"
_LETTER_END = r"[»\"']?(?=\s*(?:$|[.,:;!)\-–—]))"
_LEAD = rf"^(?:[-•]\s*)?(?:{_LABEL}\s*(?:is\s*)?[:\-]?\s*)?[«\"']?"
_LEAN = (r"\b(?:lean(?:ing)?(?:\s+towards?)?|probably|likely|i'?d (?:say|go with|answer)|would (?:say|answer))"
         r"\s*[:\-]?\s*[«\"']?")
_GOOD = (r"(?:correct(?:ly)?|accurate(?:ly)?|faithful(?:ly)?|true|right|valid|consistent|supported|factual|dorost|"
         r"sahih)")  # the last two: Persian in Latin letters
_BAD = (r"(?:incorrect|inaccurate|unfaithful|wrong|false|invalid|inconsistent|unsupported|hallucinat\w*|fabricat\w*|"
        r"distort\w*|misrepresent\w*|contradict\w*|made[- ]up|not supported|nadorost|ghalat|eshtebah)")
_FA_GOOD = r"(?:درست|صحیح|دقیق|مطابق|منطبق|سازگار|همخوان|معتبر|وفادار)"
_FA_BAD = r"(?:نادرست|غلط|اشتباه|تحریف\s?شده|تحریف|ساختگی|جعلی|نامعتبر|ناصحیح|توهم)"
_FA_IS = r"(?:است|هست|می باشد|میباشد|بود)"

_BAD_ADJECTIVE = (r"(?:false|incorrect|wrong|fabricated|hallucinated|distorted|made[- ]up|extra|additional|"
                  r"unsupported|inaccurate|new|invented)")
_LISTED = r"(?:,?\s+(?:or\s+|and\s+)?[\w-]+){0,4}?"  # "no incorrect, distorted, or additional information"
CUES = [
    # negated forms first
    *cue(YES, rf"\b(?:no|not any|without)\s+(?:[\w-]+\s+){{0,2}}?{_BAD_ADJECTIVE}{_LISTED}\s+"
              rf"(?:information|details?|claims?|facts?|content|data){_CLAUSE}",
         rf"\b(?:doesn't|does not|do not|don't)\s+contain\s+(?:any\s+)?(?:false|incorrect|wrong|fabricated|hallucinated|"
         rf"distorted|extra|unsupported){_CLAUSE}",
         rf"{_FA_BAD}(?:ی)?[،,]?\s+(?:(?!است|هست)\S+\s+){{0,6}}?(?:ندارد|نیست|وجود ندارد|دیده نمی شود|نشده)", r"\bnot\s+(?:\w+\s+)?" + _BAD,
         r"boxed\{\s*(?:y|yes)\s*\}"),
    *cue(NO, rf"(?:\bnot|n't|never)\s+(?:\w+\s+){{0,2}}?{_GOOD}\b{_CLAUSE}", rf"{_FA_GOOD}\s+(?:نیست|نمی باشد|نبود)",
         # a negative prefix, bound or written apart ("نادرست", "نا درست", "غیر دقیق", "غیرواقعی")
         rf"(?:^|\s)(?:نا|غیر)\s?{_FA_GOOD}", r"(?:^|\s)بی\s?(?:اساس|پایه)", r"صحت\s+ندارد",
         rf"\b(?:partially|partly|mostly|largely|only partly)\s+(?:\w+\s+)?{_GOOD}\b{_CLAUSE}", r"boxed\{\s*(?:n|no)\s*\}",
         r"مطابقت\s+ندارد", r"همخوانی\s+ندارد"),
    *yes_no_sentence_cues(YES, NO),
    # yes/no opening a sentence is weak: the summarization prompt asks two questions, and "Yes, the summary
    # contains extra information" answers the second
    # a lean stated as the answer ("I'd lean N", "Probably Y"): the model's choice, as a forced choice is read
    *cue(YES, rf"{_LEAN}(?:y|yes){_LETTER_END}"),
    *cue(NO, rf"{_LEAN}(?:n|no){_LETTER_END}"),
    *cue(YES, rf"{_LEAD}(?:y|{words_pattern(YES_NO_WORDS[YesNo.YES])}){_LETTER_END}", r"(?:^|\s)y[»\"']?\s*$",
         weak=True),
    *cue(NO, rf"{_LEAD}(?:n|{words_pattern(YES_NO_WORDS[YesNo.NO])})(?!\s+(?:تنها|فقط|به))(?![\w/])",
         r"(?:^|\s)n[»\"']?\s*$", weak=True),
    *cue(NO, rf"\b(?:contains?|includes?|adds?|has|introduces?)\s+(?:\w+\s+){{0,3}}?{_BAD_ADJECTIVE}{_LISTED}\s+"
             r"(?:information|details?|claims?|facts?|content|data)\b"),
    *cue(NO, rf"\b{_BAD}", _FA_BAD, rf"حاوی\s+(?:\S+\s+){{0,2}}?(?:{_FA_BAD}|اضافی)", r"اطلاعات\s+(?:نادرست|اضافی|غلط)\w*\s+(?:\S+\s+){0,2}?(?:وجود\s+)?دارد"),
    *cue(YES, rf"\b{_GOOD}\b", rf"{_FA_GOOD}\s*{_FA_IS}?", r"مطابقت\s+دارد"),
]

# The yes/no words of every language models answer in (`parsing.YES_NO_BY_LANGUAGE`), and the letters.
_YES_WORDS = frozenset({*YES_NO_WORDS[YesNo.YES], "y"})
_ANSWERED = f"({words_pattern({*_YES_WORDS, *YES_NO_WORDS[YesNo.NO], 'n'})})"
# Both letters and nothing else ("Y N", "Y/N"): two answers, no answer.
_BOTH_LETTERS = re.compile(r"^\W*(?:y\W+n|n\W+y)\W*$")
# "۱- بله ۲- خیر", "1. Yes 2. No", "معیار ۱ – صحت استخراج: خیر", "1. All information ... extracted: Yes", each item
# on its line or both on one.
_ITEM = r"(?:^|\s)(?:(?:criterion|criteria|question|معیار|سوال|سؤال)\s*)?{n}\s*[-.):–]\s*(?:[^\n:]{{0,120}}:\s*)?"
_CRITERIA = re.compile(rf"{_ITEM.format(n=1)}{_ANSWERED}\b.*?{_ITEM.format(n=2)}{_ANSWERED}\b", re.DOTALL)
# The second question answered alone ("۲- خیر", "2. No"): a no to "is there false information?" is faithful.
_SECOND_ONLY = re.compile(rf"{_ITEM.format(n=2)}{_ANSWERED}\b")
_FIRST_ITEM = re.compile(_ITEM.format(n=1))
_CRITERION_ITEM = re.compile(r"^\s*(?:(?:criterion|criteria|question|معیار|سوال|سؤال)\s*)?[12]\s*[-.):–].*$",
                             re.MULTILINE)
CONTRADICTORY = "contradictory"


# A small model that goes on writing the prompt's pattern ("Input: Question: ... Output: Y") after its answer.
_CONTINUATION = re.compile(r"\n\s*(?:input|question|article|ورودی|سوال|سؤال|متن)\s*:.*\Z", re.DOTALL | re.IGNORECASE)


def own_answer(text: str) -> str:
    """The output without the prompt pattern a model may go on writing after its answer."""
    return _CONTINUATION.sub("", strip_reasoning(text))


def bare_letter(text: str) -> str | None:
    """The paper's reading: the output is the letter Y or N, as Figure 7's prompt asks (a think block, a JSON
    wrapper, markdown, quotes and an "Output:" label aside)."""
    text = own_answer(text)
    text = json_answer(text) or text
    form = re.sub(rf"^\s*{_LABEL}\s*[:\-]?\s*", "", reading_form(text).strip())
    letter = form.strip(" «»\"'.[]()").strip()  # "[N]", "(Y)"
    return {"y": YES, "n": NO}.get(letter)


def criteria_verdict(body: str) -> str | None:
    """The verdict of the summarization prompt's two questions answered in turn, in an answer's `answer_body`:
    (1) is all information drawn correctly from the article? (2) is there false, distorted or extra information?
    Y only for yes, then no; CONTRADICTORY for no, then no; the second answered alone: Y for no, N for yes; None
    when the questions are not answered by number."""
    match = _CRITERIA.search(body)
    if match is None:
        second_only = _SECOND_ONLY.search(body)
        if second_only is None or _FIRST_ITEM.search(body):
            return None
        return NO if second_only.group(1) in _YES_WORDS else YES
    first, second = (answer in _YES_WORDS for answer in match.groups())
    if not first and not second:
        return CONTRADICTORY  # "not all drawn from the article" but "nothing false or extra"
    return YES if first and not second else NO


def read_faithfulness(text: str) -> str | None:
    """figeval's reading of a PerHalluEval answer: Y, N or None."""
    body = answer_body(own_answer(text))
    if _BOTH_LETTERS.match(body.strip()):
        return None
    by_criteria = criteria_verdict(body)
    if by_criteria is None:
        return body_verdict(body, CUES)
    if by_criteria == CONTRADICTORY:
        return None
    # the items' own yes/no are answers to the questions, not verdicts: read the rest for a disagreeing one
    rest = body_verdict(_CRITERION_ITEM.sub(" ", body), CUES)
    return by_criteria if rest in (None, by_criteria) else None
