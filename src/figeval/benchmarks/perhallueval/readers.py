"""Reading PerHalluEval's answers (documented in this benchmark's README, "How answers are read").

Layer 1, the paper's: Figure 7's QA prompt allows only the letter «Y» or «N» as the output, so an answer that is
that letter (after a think block, a JSON wrapper, markdown, quotes and an "Output:" label) is read as asked.
Layer 2, figeval's reader, for the rest: Y/N opening or closing a sentence ("N. The answer names another city",
an explanation ending in «N»), yes/no and their Persian words (بله/خیر), label words in English and Persian
(correct, accurate, faithful / incorrect, hallucinated, fabricated; درست، صحیح، مطابقت دارد / نادرست، غلط،
تحریف‌شده), Persian negation after the adjective ("درست نیست": N), "no false information" / "اطلاعات نادرستی
ندارد" (Y), and the summarization prompt's two numbered questions answered in turn ("۱- بله ۲- خیر": all
information drawn from the article and none wrong: Y; a "no" to the first or a "yes" to the second: N; `criteria`).
Arabic, Turkish and Azerbaijani verdict words, Persian negation by scope, Persian hedges, Likert answers («کاملاً
موافقم», "I strongly disagree that the summary is accurate") and mentions (a comparative «دقیق‌تر», "the correct
summary would be") are in `vocabulary`; scores and probabilities («امتیاز وفاداری: ۵ از ۵», «احتمال درستی: ۹۵٪») and
irony (praise with 🙄 is no Y) in `scales`. A privative governs the wrong words after it («عاری از هرگونه خطا و
تحریف», "free of errors": Y); nouns of conformity are had or not («با واقعیت انطباق دارد»: Y); Tehrani colloquial
verbs are read as the written ones («اوکیه», «چیز اضافه‌ای نداره»).
Two answers are no answer (`verdict.Undecided`): the letter alone on its line against prose stating the other label
(«پاسخ صحیح است.\n\nN»), or "Answer: Yes" and "Answer: No" lines, with nothing revising either.
"""

from __future__ import annotations

import re

from figeval.benchmarks.perhallueval.criteria import (CONTRADICTORY, FIRST_YES, REVISION, Items, criteria_text,
                                                      headed_rows, items_verdict, without_items)
from figeval.benchmarks.perhallueval.scales import MARKER_CUES, MIDDLE, ironic, scaled
from figeval.benchmarks.perhallueval.vocabulary import plain_cues, scope_cues, without_mentions
from figeval.parsing import YES_NO_WORDS, YesNo, json_answer, strip_reasoning, words_pattern
from figeval.verdict import (Undecided, answer_body, body_verdict, cue, reading_form, sentences,
                             yes_no_sentence_cues)

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
_FA_BAD = r"(?:نادرست|غلط|اشتباه|تحریف\s?شده|تحریف|ساختگی|جعلی|نامعتبر|ناصحیح|توهم|مخدوش)"  # «مخدوش»: flawed (formal)
_FA_IS = r"(?:است|هست|می باشد|میباشد|بود)"
# Persian verbs "has not" / "is not" in the written and the colloquial (Tehrani) register: «نداره», «نیس».
_FA_HAS_NOT = r"(?:ندارد|نداره|نیست|نیس|وجود ندارد|وجود نداره|دیده نمی شود|نشده)"
# Nouns of conformity with the article or the facts, said to be had or not: «با واقعیت انطباق دارد» (conforms with
# the facts), «مطابقت ندارد» (does not match).
_FA_CONFORMS = r"(?:مطابقت|انطباق|تطابق|همخوانی|سازگاری|هماهنگی)"
# A privative governing a noun phrase of wrong words («عاری از هرگونه خطا و تحریف», «فاقد اطلاعات نادرست», "free of
# errors"): none of them is there. Only determiners and a noun of information may stand between, so that «بدون دلیل
# تحریف شده» (distorted without reason) is not read as "without distortion".
_FA_PRIVATIVE = (r"(?:عاری|خالی|فاقد|بری|مبرا|بدون)\s+(?:از\s+)?(?:(?:هرگونه|هر گونه|هیچ گونه|هیچ|هر نوع)\s+)?"
                 r"(?:(?:اطلاعات|مطلب|مورد|چیز)\s+)?")
_PRIVATIVE = rf"{_FA_PRIVATIVE}(?:{_FA_BAD}|خطا|ایراد|اشکال|نقص)\S*(?:\s+(?:و|یا)\s+\S+)*"

_BAD_ADJECTIVE = (r"(?:false|incorrect|wrong|fabricated|hallucinated|distorted|made[- ]up|extra|additional|"
                  r"unsupported|inaccurate|new|invented)")
_LISTED = r"(?:,?\s+(?:or\s+|and\s+)?[\w-]+){0,4}?"  # "no incorrect, distorted, or additional information"
CUES = [
    # hedges, negation by scope, Turkish and Arabic negated forms (`vocabulary`), then negated forms
    *scope_cues(_FA_GOOD, _FA_BAD),
    # the privative itself negated («بدون خطا نیست»: it is not without error): N
    *cue(NO, rf"{_PRIVATIVE}\s+(?:{_FA_IS}\s+)?(?:نیست|نیس|نمی باشد|نبود)"),
    *cue(YES, rf"\b(?:no|not any|without)\s+(?:[\w-]+\s+){{0,2}}?{_BAD_ADJECTIVE}{_LISTED}\s+"
              rf"(?:information|details?|claims?|facts?|content|data){_CLAUSE}",
         r"\b(?:doesn't|does not|do not|don't)\s+contain\s+(?:any\s+)?"
         rf"(?:false|incorrect|wrong|fabricated|hallucinated|distorted|extra|unsupported){_CLAUSE}",
         rf"{_FA_BAD}(?:ی)?[،,]?\s+(?:(?!است|هست)\S+\s+){{0,6}}?{_FA_HAS_NOT}",
         # «چیز اضافه‌ای هم نداره» (nothing extra, colloquial): extra content is what the prompt's criterion 2 asks
         rf"(?:اضافی|اضافه)(?:\s?ای|ی)?\s+(?:(?!است|هست)[^\s.,،؛;]+\s+){{0,3}}?{_FA_HAS_NOT}",
         rf"{_PRIVATIVE}{_CLAUSE}", rf"\bfree\s+(?:of|from)\s+(?:any\s+)?(?:{_BAD}|errors?|mistakes?|"
         rf"distortions?|fabrications?|hallucinations?|inaccurac\w+){_CLAUSE}", r"\bnot\s+(?:\w+\s+)?" + _BAD,
         r"boxed\{\s*(?:y|yes)\s*\}"),
    *cue(NO, rf"(?:\bnot|n't|never)\s+(?:\w+\s+){{0,2}}?{_GOOD}\b{_CLAUSE}", rf"{_FA_GOOD}\s+(?:نیست|نمی باشد|نبود)",
         # a negative prefix, bound or written apart ("نادرست", "نا درست", "غیر دقیق", "غیرواقعی")
         rf"(?:^|\s)(?:نا|غیر)\s?{_FA_GOOD}", r"(?:^|\s)بی\s?(?:اساس|پایه)", r"صحت\s+ندارد",
         rf"\b(?:partially|partly|mostly|largely|only partly)\s+(?:\w+\s+)?{_GOOD}\b{_CLAUSE}",
         r"boxed\{\s*(?:n|no)\s*\}",
         rf"{_FA_CONFORMS}\s+(?:\S+\s+)?(?:ندارد|نداره)", r"اوکی\s*(?:نیست|نیس)"),
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
    *cue(NO, rf"\b{_BAD}", _FA_BAD, rf"حاوی\s+(?:\S+\s+){{0,2}}?(?:{_FA_BAD}|اضافی)",
         r"(?:اطلاعات|چیز|مطلب)\s+(?:نادرست|اضافی|اضافه|غلط)\w*(?:\s?ای)?\s+(?:\S+\s+){0,2}?(?:وجود\s+)?(?:دارد|داره)"),
    *cue(YES, rf"\b{_GOOD}\b", rf"{_FA_GOOD}\s*{_FA_IS}?", rf"{_FA_CONFORMS}\s+(?:\S+\s+)?(?:دارد|داره)",
         r"(?:^|\s)اوکی(?:ه|\s+است)?(?=\s|$|[.,،؛!])"),  # «اوکیه» (it's OK, colloquial)
    *MARKER_CUES,  # scores and probabilities (`scales`)
    *plain_cues(),  # Turkish and Arabic words (`vocabulary.VERDICT_WORDS`)
]

# Both letters and nothing else ("Y N", "Y/N"): two answers, no answer.
_BOTH_LETTERS = re.compile(r"^\W*(?:y\W+n|n\W+y)\W*$")


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


# The letter alone on its line, as the prompt asks ("...\n\nN").
_LETTER_LINE = re.compile(r"^\s*[«\"']?([yn])[»\"'.]?\s*$", re.MULTILINE)
# A line that is a label and a yes/no word or letter ("answer: بله", "Output: N").
_YES_WORDS = frozenset({*YES_NO_WORDS[YesNo.YES], "y"})
_ANSWER_LINE = re.compile(rf"^\s*(?:final\s+)?(?:answer|output|پاسخ|خروجی)\s*:\s*[«\"']?"
                          rf"({words_pattern({*_YES_WORDS, *YES_NO_WORDS[YesNo.NO], 'n'})})[»\"'.]?\s*$", re.MULTILINE)
# A conclusion after the items ("نتیجه: ...", "Verdict: ...", "So the summary is ..."): the model's own reading of
# its items.
_CONCLUDES = re.compile(r"^(?:نتیجه(?: گیری)?|جمع بندی|پاسخ نهایی|verdict|conclusion|final (?:answer|verdict)|"
                        r"overall|sonuç)\s*:|^(?:so|therefore|thus|hence|in conclusion|overall|بنابراین|در نتیجه|"
                        r"در مجموع|پس|sonuç olarak|dolayısıyla)\b")


def _by_items(body: str, items: Items) -> str | None:
    """The verdict of an answer whose body answers the summarization prompt's items (`criteria.items_verdict`)."""
    after = [s for s in sentences(body[items.end:]) if _CONCLUDES.search(s)]
    concluded = body_verdict("\n".join(after), CUES) if after else None
    if concluded is not None:
        # a conclusion stated after the items decides (the model's own reading of its "yes, yes": «نتیجه: خلاصه
        # صحیح است»)
        return concluded
    if items.verdict in (CONTRADICTORY, FIRST_YES):
        # no to both contradicts itself; a yes to the first alone does not decide: the rest of the answer must
        return body_verdict(without_items(body), CUES) if items.verdict == FIRST_YES else None
    # the items' own yes/no are answers to the questions, not verdicts: read the rest for a disagreeing one
    try:
        rest = body_verdict(without_items(body), CUES)
    except Undecided:
        return None
    return items.verdict if rest in (None, items.verdict) else None


def _letter_against_prose(body: str) -> None:
    """Two answers, no answer: the letter alone on its line and the prose stating the other label, with no
    revision between them («پاسخ صحیح است.\\n\\nN»; the shared reader would take «پاسخ» as "the answer:").

    Raises:
        Undecided: they disagree and nothing revises either.
    """
    if REVISION.search(body):
        return
    # "Answer: Yes" then "Answer: No" (a table's question rows, unwrapped so): two answers with nothing revising
    answered = {match.group(1) in _YES_WORDS for match in _ANSWER_LINE.finditer(body)}
    if len(answered) > 1:
        raise Undecided("answer lines stating both Y and N")
    letters = {match.group(1) for match in _LETTER_LINE.finditer(body)}
    if len(letters) != 1:
        return
    letter = {"y": YES, "n": NO}[letters.pop()]
    try:
        prose = body_verdict(_LETTER_LINE.sub(" ", body), CUES)
    except Undecided:
        return  # a hedge beside the letter: the letter is the answer, as a lean is read
    if prose is not None and prose != letter:
        raise Undecided(f"the letter {letter} on its line, and prose stating {prose}")


def read_faithfulness(text: str) -> str | None:
    """figeval's reading of a PerHalluEval answer: Y, N or None.

    Raises:
        Undecided: two answers (see `_letter_against_prose`, `verdict.body_verdict`).
    """
    text = own_answer(text)
    body = scaled(without_mentions(headed_rows(answer_body(criteria_text(text) or text))))
    if _BOTH_LETTERS.match(body.strip()):
        return None
    items = items_verdict(body)
    if items is not None:
        verdict = _by_items(body, items)
    else:
        _letter_against_prose(body)
        verdict = body_verdict(body, CUES)
    if verdict == MIDDLE:
        raise Undecided("a score or probability in the middle of its scale")
    if verdict == YES and ironic(body):
        # praise marked as sarcasm («Very faithful. 🙄») may mean its opposite: not read as Y (nor guessed N)
        raise Undecided("praise marked as irony")
    return verdict
