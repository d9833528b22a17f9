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
quoted expression is removed before reading). Also: a negative prefix bound or apart («غیر‌واقعی», «نا معتبر») and
its litotes («بی‌اساس نیست»: real); Turkish, Azerbaijani, Arabic and Finglish label words and negations, yes/no
words and Likert answers ("Strongly disagree.": a no) of languages the shared table lacks (`detection_languages`);
a matrix verb of denial ("I doubt / disagree that it is real": fake) and two negations cancelling ("I don't doubt
it is real"); "the answer to the question is negative"; «جعلی چیه!» (a dismissal: real); "about as real as a ...";
label:value slots ("Real Persian idiom: ❌"); "a garbled «…»"; "the dictionary form of «…»"; and, restated first by
`detection_slots`, JSON verdict keys, a yes/no to the model's own question, a probability, a proposal of another
expression and a hedge reached as a conclusion. See `figeval.verdict` for how sentences are combined.
"""

from __future__ import annotations

import re

from figeval.benchmarks.ffe_hallu.detection_languages import (LIKERT_NEUTRAL, language_cues,
                                                               language_words, likert_sentence)
from figeval.benchmarks.ffe_hallu.detection_slots import MARKER, json_slot_verdict, restate
from figeval.parsing import YES_NO_WORDS, YesNo, answer_words, json_answer, strip_reasoning, words_pattern
from figeval.scoring.readers import Parse
from figeval.verdict import (HEDGE, Cue, Undecided, answer_body, body_verdict, cue, reading_form,
                             yes_no_sentence_cues)

REAL, FAKE = "real", "fake"

# What may open a sentence before its yes/no: a list marker, "Answer:", "Final answer is", "پاسخ:", "جواب:".
_OPENING = (r"^(?:[-•]\s*|\(?[0-9]+[.)\-:]\s*)?(?:«…»\s*[—–\-:,]?\s*)?(?:(?:actually|well|so|ok(?:ay)?),?\s+)?"
            r"(?:(?:the\s+|my\s+)?(?:final\s+|short\s+)?answer(?:\s+is)?\s*[:\-]?\s*"
            r"|(?:پاسخ|جواب)(?:\s+نهایی)?\s*[:\-]?\s*|verdict\s*[:\-]?\s*)?")
# The yes/no words of every language models answer in (`parsing.YES_NO_BY_LANGUAGE`), and True/False. "Yeah, no" (a
# no) and "yes or no" are not a yes.
_YES = (rf"(?:{words_pattern(YES_NO_WORDS[YesNo.YES])}|true)(?!\s+(?:or|and|یا|و|yoxsa|ya)\s)"
        rf"(?!\W{{1,3}}{words_pattern(YES_NO_WORDS[YesNo.NO])}\b)")
# "no" that is not "No idea", "no doubt", "No, or ...", "نه تنها" (not only), "نه فقط", «لا به لا» (an idiom).
_NO = (rf"(?:{words_pattern(YES_NO_WORDS[YesNo.NO])}|false)"
       r"(?!\s+(?:or|idea|doubt|comment|تنها|فقط|یا|چندان|به)\b)")
_END = r"(?=[\s.,!:;،؛)]|$)"
_ANSWER_IS = (r"(?:answer\b[^.:]{0,40}?\b(?:is|would be)\s*:?|answer\s*:|پاسخ\s*(?:من\s*)?(?:است|:)|جواب\s*:"
              r"|boxed\{\s*(?:\\text\{)?)\s*")

# What "the answer" is to, between it and its value ("to your question", «پرسش مطروحه»): words, not a verb.
_ANSWER_TO = r"(?:\s+(?:to|for)\s+[^.,;:!?]{0,40}?)?"
_PERSIAN_ANSWER = r"(?:پاسخ|جواب)(?:\s+(?!است|نیست|هست|باشد|که|اگر)[^\s.,;:!?،؛]+){0,3}?\s+"
_NOT_NEGATED = r"(?!\s+(?:نیست|نمی|نبود))"
_SUBJECT_WORDS = r"(?:persian\s+|farsi\s+)?(?:idiom|proverb|expression|saying|phrase|ffe|one)"
_REAL_WORDS = (r"(?:real|true|genuine|authentic|actual|legitimate|recogni[sz]ed|known|established|attested|existing|"
               r"valid|traditional|common|commonly used|widely used|well[- ]known|famous|popular|standard|classic|"
               r"vaghei|vagheei|asil|raayej|rayej)")  # the last: Persian in Latin letters
_FAKE_WORDS = (r"(?:fake(?:ry)?|fabricat(?:ed|ion)|made[- ]up|invent(?:ed|ion)|fictional|fictitious|non[- ]?existent|"
               r"bogus|spurious|artificial|coined|forgery|hoax|knock-?offs?|counterfeit|copycat|"
               r"jaali|jali|sakhtegi)")  # the last: Persian in Latin letters
# A distorted form of an idiom ("a garbled «…»", "a distorted version of", "a corruption of"): not the idiom.
_DISTORTED = (r"(?:\b(?:distorted|altered|modified|corrupted|garbled|mangled|perturbed|twisted|misquoted|scrambled)\s+"
              r"(?:version|form|variant|rendering|variation|«…»)|\b(?:distortion|corruption|garbling|misquotation|"
              r"mangling|perturbation)\s+of\b)")
_PERSIAN_REAL = r"(?:واقعی|اصیل|رایج|معروف|مشهور|شناخته شده|معتبر|متداول|پرکاربرد|مصطلح)"
# A negative prefix bound to a real word or written apart («غیر‌واقعی», «نا معتبر», «ناشناخته»), and the negative
# adjectives «بی‌اساس / بی‌پایه» (baseless): they say fake, and «... نیست» after them says real (litotes).
_PERSIAN_UNREAL = rf"(?<!\S)(?:(?:نا|غیر)\s?(?:{_PERSIAN_REAL}|شناخته)|بی\s?(?:اساس|پایه|ریشه))"
_PERSIAN_FAKE = rf"(?:جعلی|ساختگی|ساخته شده|من درآوردی|تحریف شده|دستکاری شده|{_PERSIAN_UNREAL})"
_COPULA = r"(?:است|هست|می باشد|میباشد)"
# A slot and its value ("Real Persian idiom: ❌", "Verdict: Authentic ✔️", "Fake: false"): the pair is read, the
# label word alone is not.
_TICK = r"(?:yes|true|✅|✔\ufe0f?|☑\ufe0f?|👍|✓)"
_CROSS = r"(?:no|false|❌|✖\ufe0f?|❎|👎|✗|×)"
_VERDICT_SLOT = (r"^(?:verdict|label|classification|status|assessment|result|judg(?:e)?ment|(?:final\s+)?answer)"
                 r"\s*[:\-–—]\s*")


def _slot(label_words: str, value: str) -> str:
    return rf"^(?:is\s+(?:it\s+)?)?(?:an?\s+)?{label_words}(?:\s+[^\s:]+){{0,3}}\s*[:\-–—]\s*{value}\W*$"


# A Persian clause closes with its verb: «نیست» / «نمی‌باشد» negates the label word of its clause however many words
# come between («این یک ضرب‌المثل واقعی فارسی نیست»), but not across another verb or a conjunction.
_NEGATED_CLOSE = r"(?:\s+(?!(?:است|هست|و|ولی|اما|که|بلکه|یا)(?:\s|$))[^\s.,;:!?،؛]+){0,4}?\s+(?:نیست|نمی ?باشد)"
# What negates the label word after it: "not", "never", "rather than", and a matrix verb of denial ("I disagree /
# doubt / deny that it is a real idiom": the clause it governs is denied).
_NEGATOR = (r"(?:\bnot|n't|never|rather than|instead of|"
            r"\b(?:disagree[sd]?|doubt(?:s|ed)?|den(?:y|ies|ied))(?:\s+that)?)")
# Two negations cancel: "I don't doubt that it is real", "There is no doubt it is fabricated", "it is not untrue
# that it is real": the label after them is asserted (a third "not" in the gap is left to the other cues).
_DOUBLE_NEGATION = (r"(?:\bno|\bnot|n't|never|without)\s+(?:\w+\s+){0,2}?(?:doubt(?:s|ed)?|den(?:y|ies|ied)|"
                    r"disagree[sd]?|untrue|false|wrong|incorrect)\b(?:\s+that)?\s+(?:(?!not\b)\w+'?\w*\s+){0,4}?")
# The same in Persian: «شک دارم که ... واقعی باشد» (I doubt it is real) denies, «شکی ندارم / شکی نیست که» affirms.
_PERSIAN_DOUBT, _PERSIAN_NO_DOUBT = r"(?:شک|تردید)\s+دارم", r"(?:شک|تردید)(?:\s?ی)?\s+(?:ندارم|نیست)"
_PERSIAN_GAP = r"(?:\s+که)?(?:\s+(?!نه|نیست)\S+){0,4}?\s+"
# The rest of a negated clause belongs to the negation ("I don't recognize this as a real Persian idiom").
_CLAUSE = r"[^.,;:!?،؛]*"


def detection_cues(framing_yes_means: str) -> list[Cue]:
    """The cues of a detection answer under a framing whose "yes" says the expression is `framing_yes_means`."""
    yes, no = framing_yes_means, (FAKE if framing_yes_means == REAL else REAL)
    return [
        # restated slots first (`detection_slots`): "⟦real⟧" and "⟦fake⟧", "⟦no lean⟧" a hedge with no lean
        *cue(REAL, re.escape(MARKER[REAL])), *cue(FAKE, re.escape(MARKER[FAKE])), *cue(HEDGE, re.escape(MARKER[None])),
        # "Which answer applies depends on ...", «بستگی دارد»: the choice is left open (a hedge, no lean)
        *cue(HEDGE, rf"\bdepends\s+on\b{_CLAUSE}", rf"بستگی\s+دار{_CLAUSE}"),
        # a Likert scale's middle ("Neither agree nor disagree", «نه موافقم، نه مخالف»): no lean
        *cue(HEDGE, LIKERT_NEUTRAL),
        # slots: "Real Persian idiom: ❌" (not real), "Fake: ✅", "Verdict: Authentic ✔️"
        *cue(REAL, _slot(_REAL_WORDS, _TICK), _slot(_FAKE_WORDS, _CROSS),
             rf"{_VERDICT_SLOT}(?:it'?s\s+)?(?:an?\s+)?{_REAL_WORDS}(?:\s+{_SUBJECT_WORDS})?\s*{_TICK}?\W*$"),
        *cue(FAKE, _slot(_REAL_WORDS, _CROSS), _slot(_FAKE_WORDS, _TICK)),
        # negated forms first: a span a cue took is not read again
        *cue(REAL, *language_cues(REAL)),
        *cue(FAKE, *language_cues(FAKE)),
        # two negations first: they assert the label they govern
        *cue(REAL, rf"{_DOUBLE_NEGATION}{_REAL_WORDS}\b{_CLAUSE}",
             rf"{_PERSIAN_NO_DOUBT}{_PERSIAN_GAP}{_PERSIAN_REAL}"),
        *cue(FAKE, rf"{_DOUBLE_NEGATION}{_FAKE_WORDS}\b{_CLAUSE}",
             rf"{_PERSIAN_NO_DOUBT}{_PERSIAN_GAP}{_PERSIAN_FAKE}"),
        # a colloquial rhetorical dismissal of a label opening its clause: «نه بابا، جعلی چیه!» ("fake? what fake!",
        # real), «واقعی کدومه!»; asked with «؟» it is a question and states nothing (`verdict.body_verdict`)
        *cue(REAL, rf"(?:^|[،,!:]\s*|(?<!\S)بابا\s+){_PERSIAN_FAKE}\s+(?:چیه|کدومه)(?=\W*$|\s*[!.،,])"),
        *cue(FAKE, rf"(?:^|[،,!:]\s*|(?<!\S)بابا\s+){_PERSIAN_REAL}\s+(?:چیه|کدومه)(?=\W*$|\s*[!.،,])"),
        # the ironic comparison "about as real as a camel hiding behind a tulip" (an understatement against an
        # absurd thing: not real); "as real as it gets" (an idiom of emphasis: real)
        *cue(FAKE, rf"\babout\s+as\s+{_REAL_WORDS}\s+as\s+(?:a|an)\b{_CLAUSE}"),
        *cue(REAL, rf"\bas\s+{_REAL_WORDS}\s+as\s+(?:it|they)\s+(?:gets?|come)\b"),
        *cue(REAL, rf"{_NEGATOR}\s+(?:\w+\s+){{0,3}}?{_FAKE_WORDS}\b{_CLAUSE}",
             rf"{_PERSIAN_DOUBT}{_PERSIAN_GAP}{_PERSIAN_FAKE}",
             rf"(?:\bnot|n't|never)\s+(?:\w+\s+){{0,3}}?{_DISTORTED}",
             rf"{_PERSIAN_FAKE}{_NEGATED_CLOSE}", rf"(?:^|\s)نه\s+{_PERSIAN_FAKE}"),
        *cue(FAKE, rf"{_NEGATOR}\s+(?!sure\b|certain\b|only\b|just\b)(?:\w+\s+){{0,4}}?{_REAL_WORDS}\b{_CLAUSE}",
             rf"{_PERSIAN_DOUBT}{_PERSIAN_GAP}{_PERSIAN_REAL}",
             rf"\b(?:not aware|not familiar|unaware|(?:don't|do not|can't|cannot) recall|(?:can't|cannot|couldn't|"
             rf"could not) find|never heard|(?:haven't|have not) heard|no record){_CLAUSE}",
             rf"\bnot\s+(?:\w+\s+){{0,2}}?(?:used|in use|exist)\b{_CLAUSE}",
             rf"\b(?:is not|isn't|'s not)\s+(?:a|an)\s+(?:persian|farsi)\s+{_SUBJECT_WORDS}\b{_CLAUSE}",
             r"\b(?:don't|do not|doesn't|does not|cannot|can't|couldn't|could not|didn't|did not|am not able to)\s+"
             rf"(?:\w+\s+){{0,2}}?(?:recogni[sz]e|know of|exist|seem to exist|appear (?:to exist|in))\b{_CLAUSE}",
             r"\bno\s+(?:such|known|record of|evidence)\b",
             _DISTORTED,
             rf"{_PERSIAN_REAL}{_NEGATED_CLOSE}", rf"(?:^|\s)نه\s+{_PERSIAN_REAL}", r"وجود\s+ندار",
             r"(?:نشنیده|ندیده)\s*ام", r"نمی\s?شناسم", r"ثبت\s+نشده", r"شنیده\s+نمی\s?شود", r"به\s+تقلید"),
        *yes_no_sentence_cues(yes, no),
        # a Likert answer as a sentence of its own ("Strongly disagree.", «کاملاً موافقم»): agree is a yes
        *cue(yes, likert_sentence(YesNo.YES)), *cue(no, likert_sentence(YesNo.NO)),
        # "the answer is positive", «پاسخ مثبت است»: a yes (negative / «منفی»: a no)
# and what the answer is "to" may come between ("the answer to your question is negative", «پاسخ پرسش
        # مطروحه منفی است»), not a verb; a negated one («پاسخ منفی نیست») is left to the other sentences
        *cue(yes, rf"\banswer\b{_ANSWER_TO}\s+is\s+(?:positive|affirmative)\b",
             rf"{_PERSIAN_ANSWER}مثبت{_NOT_NEGATED}"),
        *cue(no, rf"\banswer\b{_ANSWER_TO}\s+is\s+negative\b", rf"{_PERSIAN_ANSWER}منفی{_NOT_NEGATED}"),
        *cue(yes, rf"{_OPENING}{_YES}{_END}", rf"{_ANSWER_IS}{_YES}{_END}"),
        *cue(no, rf"{_OPENING}{_NO}{_END}", rf"{_ANSWER_IS}{_NO}{_END}"),
        *cue(FAKE, rf"\b{_FAKE_WORDS}\b", _PERSIAN_FAKE, *language_words(FAKE)),
        *cue(REAL, *language_words(REAL),
             # the citation form of a saying ("the dictionary (infinitive) form of the colloquial «…»"), a
             # spelling variant of it: the same expression, recognised
             r"\b(?:is|'s|was)\s+(?:just\s+|simply\s+|only\s+)?the\s+(?:dictionary|infinitive|citation|standard|formal|"
             r"written|literary|full|canonical|verbal)\s+(?:\(\w+\)\s+)?form\s+of\b",
             r"\b(?:just|only|merely|simply)\s+an?\s+(?:typing|spelling|orthographic|typographic(?:al)?)\s+variant\b",
             # a label opening a sentence under a qualification: "Real as a colloquial phrase: ..."
             r"^(?:real|genuine|authentic)\s+(?:as|in)\b"),
        # "is a real idiom", "It is genuine.", but not "is a traditional occupation"
        *cue(REAL, rf"\b(?:is|'s|are|seems|appears)\s+(?:to\s+be\s+)?(?:(?:indeed|definitely|certainly|actually|"
                   rf"quite|very|a|an|the|truly|clearly)\s+)*{_REAL_WORDS}\b(?=\s*$|\s*[^\w\s]|\s+(?:and|or)\b|"
                   rf"\s+{_SUBJECT_WORDS}\b|\s+(?:in|among)\s+persian\b)",
             rf"(?<!of )(?<!on )(?<!from )(?<!to )(?<!in )(?<!as )(?<!like )(?<!than )\b(?:a|an)\s+{_REAL_WORDS}\s+"
             rf"{_SUBJECT_WORDS}\b",
             r"^(?:it'?s\s+)?(?:real|genuine|authentic)\W*$",
             rf"\b(?:is|'s)\s+(?:a|an)\s+(?:\w+\s+){{0,2}}?example\s+of\s+(?:a|an)\s+(?:\w+\s+)?{_SUBJECT_WORDS}\b",
             # "X is a Persian proverb that ...": says it exists
             rf"\b(?:is|'s)\s+(?:(?:indeed|definitely|certainly|actually|truly|clearly)\s+)*(?:a|an)\s+"
             rf"(?:(?:common|classic|traditional|old)\s+)?(?:persian|farsi)\s+{_SUBJECT_WORDS}\b",
             # "It is a common idiomatic expression in Persian": says it is in use, as a person reads it; small models
             # write it of expressions they call fake in the same breath ("..., but it is not a genuine idiom": the
             # sentence then names both labels and states neither; with nothing turning it back, two answers)
             r"\b(?:is|'s)\s+(?:a|an)\s+(?:common|well[- ]known|popular|famous)\s+(?:idiomatic\s+)?"
             r"(?:expression|idiom|proverb|saying|phrase)\s+in\s+(?:the\s+)?persian\b",
             r"\b(?:does\s+)?exists?\b(?!\s+in\s+(?:a|another))",
             rf"{_PERSIAN_REAL}\s*(?:ی\s+)?{_COPULA}", rf"{_PERSIAN_REAL}\s+{_COPULA}?", r"وجود\s+دار"),
    ]


_CUES = {REAL: detection_cues(REAL), FAKE: detection_cues(FAKE)}
# The words of each label in every language, for the label a self-posed question asks about ("Real?").
_LABEL_WORDS = {
    label: re.compile("|".join([rf"\b{words}\b", persian, *language_words(label)]))
    for label, words, persian in ((REAL, _REAL_WORDS, _PERSIAN_REAL), (FAKE, _FAKE_WORDS, _PERSIAN_FAKE))
}


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
    """(the paper's reading, figeval's reading) of a detection answer, each `real`, `fake` or None (figeval's reader
    None also where it finds the answer undecided, which `read_answer` leaves unread whatever the paper's reads).

    Args:
        text: the model's answer.
        yes_means: what a "yes" says the expression is under the framing asked (`fake` for fake-q).
        expression: the expression asked about (removed before reading: it is not a verdict).
    """
    paper, reader = detection_readers(yes_means, expression)
    try:
        return paper(text), reader(text)
    except Undecided:
        return paper(text), None


def detection_readers(yes_means: str, expression: str) -> tuple[Parse, Parse]:
    """The paper's rule and figeval's reader of one detection answer (see `detection_verdict`), as `read_answer`
    takes them: the answer is read once for both."""
    no_means = FAKE if yes_means == REAL else REAL

    def paper(text: str) -> str | None:
        bare = bare_yes_no(text)
        return None if bare is None else (yes_means if bare is YesNo.YES else no_means)

    def reader(text: str) -> str | None:
        # a JSON answer's verdict keys are read as key-value pairs (`detection_slots.json_slot_verdict`)
        from_json, prose = json_slot_verdict(strip_reasoning(text), reader)
        if from_json is None:
            return body_verdict(restate(answer_body(text, quoted=[expression]), _LABEL_WORDS), _CUES[yes_means])
        # prose beside the JSON that states the other label: two answers
        try:
            beside = body_verdict(restate(answer_body(prose, quoted=[expression]), _LABEL_WORDS), _CUES[yes_means])
        except Undecided:
            beside = None
        if beside not in (None, from_json):
            raise Undecided(f"the JSON says {from_json}, the prose beside it {beside}")
        return from_json

    return paper, reader
