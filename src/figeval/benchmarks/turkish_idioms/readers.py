"""Reading the Turkish idiom benchmark's answers (documented in this benchmark's README, "How answers are read").

Layer 1, the paper's (Section 4): the first word, else the last word, if it is one of the labels the prompt asks
for ("yes"/"no", "entailment"/"contradiction"; in the Turkish prompt "evet"/"hayır", "gerektirme"/"çelişki"), as
printed; a label offered as an alternative ("yes/no", "Yes and no") is none. Where it reads a label the reader
below contradicts ("Not entailment.": last word "entailment"), the reader decides.
Layer 2, figeval's reader, for the "unsolicited reasoning" the paper read by hand: the labels of either prompt
language (models answer "Evet" to the English prompt), their inflections (entails, entailed, contradictory,
contradicts; gerektirir, çelişir, çelişkili), negated labels in a two-label task ("not entailment", "no
contradiction", "çelişki yok", "gerektirme değil"), yes/no and "the answer is ..." in sentences, and for
detection what the answer says of the use ("used literally", "used figuratively", "mecaz anlamda
kullanılmış", "gerçek anlamda"), its negation bound in the Turkish verb ("kullanılmadığı", "içermez"); a lean
before the label ("Muhtemelen evet"); the yes/no and label words of Persian (an answer in Persian to the English
prompt); a later explicit revision ("Wait, I made a mistake ... Contradiction") over the earlier answer. A refusal
("not confident enough to say whether ...") or a supposition ("if ..., it would ...") states no label. An
entailment question answered only "yes" or "no" is not read: which label a "no" means is not said.
"""

from __future__ import annotations

import re

from figeval.parsing import YES_NO_BY_LANGUAGE, YesNo, strip_reasoning, words_pattern
from figeval.verdict import HEDGE, cue, read_verdict, yes_no_sentence_cues

YES, NO, ENTAILMENT, CONTRADICTION = "yes", "no", "entailment", "contradiction"

_CLAUSE = r"[^.,;:!?]*"
# Words of a lean, by language ("Probably yes", "Muhtemelen evet", "Sanırım hayır"): a hedge that states the answer
# it leans to is read as that answer, as a forced choice is. "Maybe" / "belki" is no lean and is not listed.
_LEANS = {
    "en": ("probably", "most likely", "very likely", "likely", "i think", "i believe"),
    "tr": ("muhtemelen", "büyük ihtimalle", "büyük olasılıkla", "sanırım", "bence", "galiba", "herhalde"),
    "fa": ("احتمالا", "احتمالاً", "فکر می کنم"),
}
_LEAN = rf"(?:{words_pattern(w for words in _LEANS.values() for w in words)}\s*,?\s*)?"
_OPENING = (r"^(?:[-•]\s*|\(?[0-9]+[.)\-:]\s*)?(?:(?:the\s+|my\s+)?(?:final\s+)?(?:answer|label)(?:\s+is)?\s*[:\-]?\s*"
            rf"|(?:cevap|yanıt|yanit|etiket)\s*[:\-]?\s*)?{_LEAN}")
_END = r"(?=[\s.,!:;)،؛]|$)"  # a Persian comma «،» ends a word too
# "the answer is: no", "I would say: No", "cevap hayır", and a verdict right after a colon.
_ANSWER_IS = (r"(?:answer\s+(?:is|would be)\s*:?|answer\s*:|(?:would|i'd|i)\s+say\s*:?|cevap(?:ım)?\s*(?::|olarak)?"
              r"|yan[ıi]t\s*:?|:)\s*")
_BOTH = r"(?!\s+(?:and|or|ve|veya|ya da)\s+(?:yes|no|evet|hay))"  # "Yes and no": both, none chosen
# Yes/no words by language (`parsing.YES_NO_BY_LANGUAGE`). The prompt's two languages are read wherever a verdict
# opens; the others (a Persian «بله.» to the English prompt) only set off by punctuation or alone, since «نه» also
# opens «نه تنها ...» (not only) and «لا» a clause.
_PROMPT_LANGUAGES = ("en", "tr")
_SET_OFF = r"(?=\s*[.,!:;،؛]|\s*$)"


def _yes_no(answer: YesNo, prompt_languages: bool) -> str:
    return words_pattern(w for lang, words in YES_NO_BY_LANGUAGE.items()
                         if (lang in _PROMPT_LANGUAGES) == prompt_languages for w in words[answer])


_YES = rf"(?:{_yes_no(YesNo.YES, True)}(?:tir)?{_BOTH}|{_yes_no(YesNo.YES, False)}{_SET_OFF})"
_NO = (rf"(?:{_yes_no(YesNo.NO, True)}{_BOTH}(?!\s+(?:doubt|idea|question|comment)\b)"
       rf"|{_yes_no(YesNo.NO, False)}{_SET_OFF})")
# Turkish verb negation is bound in the verb: stem + -me/-ma + tense (-mez/-maz, -medi/-madı, -mediği/-madığı,
# -memiş, -memekte, -meyen, -meyecek, -memek) or -mıyor/-miyor/-muyor/-müyor. Not -ması/-mesi (the verbal noun:
# "mecaz anlamda kullanılması" is "its being used figuratively") nor -mak/-mek (the infinitive).
_TR_NEG = r"(?:m[ae](?:z|d[ıiuü]|m[ıiuü]ş|m[ae]kt[ae]|m[ae]k|y[ae]n|y[ae]c[ae]k)|m[ıiuü]yor)\w*"
# A clause whose main verb negates again ("kullanılmadığı söylenemez", "... açık değil") is not read: a double
# negation a pattern cannot weigh.
_TR_NOT_AGAIN = r"(?![^.,;:!?]*(?:\bdeğil|\w(?:m[ae]z|m[ıiuü]yor)\b))"
_TR_NOT_USED = rf"\s+kullanıl(?:{_TR_NEG}|\w*\s+değil\w*){_TR_NOT_AGAIN}"
_TR_IS_USED = rf"\s+kullanıl(?!{_TR_NEG})\w*(?!\s+değil){_TR_NOT_AGAIN}"
_TR_FIGURATIVE = r"(?:mecaz(?:i)?\s+anlam(?:da|ıyla)|mecazi\s+olarak|deyim\s+(?:olarak|anlamıyla))"
_TR_LITERAL = r"(?:(?:gerçek|düz)\s+anlam(?:da|ıyla)|kelime\s+anlamıyla)"
# "... mecaz anlamda kullanılmış bir deyim içermez": the clause-final verb carries the assertion (Turkish is
# verb-final), so a negated "contain" verb denies the whole clause, participles in it included; the match takes
# the clause from its start so that "kullanılmış" inside it is not read as a use. A clause that speaks of the
# literal sense ("gerçek anlamda kullanılmış bir deyim içermez") is not this denial.
_TR_CONTAINS_NOT = (r"(?:^|(?<=[.,;:!?]))(?![^.,;:!?]*\b(?:gerçek|düz)\s+anlam)[^.,;:!?]*?\b(?:deyim|mecaz)"
                    rf"[^.,;:!?]*?(?:\b(?:içer|barındır|bulun|taşı){_TR_NEG}|\byok(?:tur)?\b){_TR_NOT_AGAIN}")
# Turkish answers to "does it contain ...?" without the label word, each the whole sentence: "Var" (there is),
# "İçeriyor" (it contains), "Olumlu" (positive) / "Yok", "İçermiyor", "İçermez", "Olumsuz".
_TR_YES_ALONE = r"^(?:var(?:dır)?|içeriyor|içermektedir|olumlu)\W*$"
_TR_NO_ALONE = rf"^(?:yok(?:tur)?|içer{_TR_NEG}|olumsuz)\W*$"
# A label:value pair ("Literal use: yes") is read as the pair: yes to literal use is a no to figurative use.
_AFFIRM = r"(?:yes|evet|true|doğru)"
_DENY = r"(?:no|hay[ıi]r|false|yanlış)"
_LITERAL_KEY = r"(?:literal|gerçek anlam|düz anlam)\w*(?:\s+(?:use|usage|meaning|sense|kullanım))?\s*[:=\-]\s*"
_FIGURATIVE_KEY = (r"(?:figurative|idiomatic|metaphorical|mecaz)\w*(?:\s+(?:use|usage|meaning|sense|kullanım))?"
                   r"\s*[:=\-]\s*")
# What states no label, beyond the shared hedges (`verdict.HEDGES`), each taking the words it governs:
NO_LABEL_CUES = cue(
    HEDGE,
    # a refusal: "I'm not confident enough ... to say whether this pair is a contradiction"
    rf"\bnot\s+(?:\w+\s+)?confident\b{_CLAUSE}", rf"\bemin\s+olam\w*{_CLAUSE}",
    # a supposition inside a sentence ("3. Comparison: if he overlooked them, reporting them would seem to point
    # to a contradiction"): the shared reader skips only a sentence that opens with its condition
    r"(?<!even )(?<!as )\bif\b[^.;!?]*\bwould\b[^.;!?]*", r"(?<=\S )eğer\b[^.;!?]*",
)

# "can be used figuratively to mean ..." describes the idiom, not its use in this sentence.
_GENERAL = r"(?<!can be )(?<!could be )(?<!may be )(?<!often )(?<!usually )(?<!typically )(?<!commonly )(?<!generally )"
_FIGURATIVE = r"(?:figuratively|idiomatically|metaphorically|in (?:a|its) (?:figurative|idiomatic|metaphorical) (?:sense|meaning|way))"
_LITERAL = r"(?:literally|in (?:a|its) literal (?:sense|meaning|way))"

DETECTION_CUES = [
    *NO_LABEL_CUES,
    # label:value pairs first: the value answers the label's question
    *cue(NO, rf"{_LITERAL_KEY}{_AFFIRM}{_END}", rf"{_FIGURATIVE_KEY}{_DENY}{_END}"),
    *cue(YES, rf"{_LITERAL_KEY}{_DENY}{_END}", rf"{_FIGURATIVE_KEY}{_AFFIRM}{_END}"),
    *cue(NO, rf"(?:\bnot|n't|never|no)\s+(?:\w+\s+){{0,3}}?used\s+(?:\w+\s+){{0,2}}?{_FIGURATIVE}{_CLAUSE}",
         rf"\bno\s+idiom\s+is\s+used{_CLAUSE}", rf"\bused\s+(?:\w+\s+){{0,2}}?{_LITERAL}",
         r"\b(?:is|it's|a|the)\s+(?:\w+\s+)?literal\s+(?:use|usage)\b",
         # Turkish: what the clause's verb says of the use, its negation bound in the verb (-ma-) or "değil"
         _TR_CONTAINS_NOT, rf"{_TR_LITERAL}{_TR_IS_USED}", rf"{_TR_FIGURATIVE}{_TR_NOT_USED}"),
    *cue(YES, rf"{_GENERAL}\bused\s+(?:\w+\s+){{0,2}}?{_FIGURATIVE}", rf"{_TR_FIGURATIVE}{_TR_IS_USED}",
         rf"{_TR_LITERAL}{_TR_NOT_USED}", r"deyim\s+(?:içeriyor|içermektedir|vardır|var)\b"),
    *yes_no_sentence_cues(YES, NO),
    *cue(YES, rf"{_OPENING}{_YES}{_END}", rf"{_ANSWER_IS}{_YES}{_END}", _TR_YES_ALONE),
    *cue(NO, rf"{_OPENING}{_NO}{_END}", rf"{_ANSWER_IS}{_NO}{_END}", _TR_NO_ALONE),
]

# The label words by language: the prompt's two, and Persian (an answer in Persian to the English prompt: «پاسخ:
# تناقض»). "incompatible"/"inconsistent" say contradiction (so "isn't incompatible", negated, says entailment).
_ENTAIL_WORDS = {"en": r"entail\w*", "tr": r"gerektir\w*", "fa": r"(?:استلزام|مستلزم)\w*"}
_CONTRADICT_WORDS = {"en": r"(?:contradict|incompatib|inconsisten)\w*", "tr": r"(?:çeliş|celis)\w*",
                     "fa": r"(?:تناقض|متناقض|تضاد)\w*"}
_ENTAIL = "(?:" + "|".join(_ENTAIL_WORDS.values()) + ")"
_CONTRADICT = "(?:" + "|".join(_CONTRADICT_WORDS.values()) + ")"
_NOT_LABEL = (r"\s+(?:is not|isn't|is wrong|is incorrect|does not (?:hold|apply)|doesn't (?:hold|apply)|"
              r"yok(?:tur)?|değil(?:dir)?|degil(?:dir)?|bulunmuyor|söz konusu değil(?:dir)?)\b")
# Persian negation: «هیچ/عدم/بدون» before the label word, or «ندارد/نیست/نمی‌...» closing its clause
# («تناقضی وجود ندارد», «مستلزم آن نیست»).
_FA_NOT_BEFORE = r"(?:هیچ|عدم|بدون)\s+"
_FA_NOT_AFTER = r"[^.,;:!?،؛]*?\s(?:ندار|نیست|نمی\s)\S*"

ENTAILMENT_CUES = [
    *NO_LABEL_CUES,
    # label:value pairs first ("Contradiction: no"): in a two-label task a no to one is the other
    *cue(ENTAILMENT, rf"{_ENTAIL}\s*[:=]\s*{_AFFIRM}{_END}", rf"{_CONTRADICT}\s*[:=]\s*{_DENY}{_END}"),
    *cue(CONTRADICTION, rf"{_CONTRADICT}\s*[:=]\s*{_AFFIRM}{_END}", rf"{_ENTAIL}\s*[:=]\s*{_DENY}{_END}"),
    # negated labels first: in a two-label task the negation of one is the other
    *cue(CONTRADICTION, rf"(?:\bnot|n't|never|no)\s+(?:\w+\s+){{0,2}}?{_ENTAIL}{_CLAUSE}", rf"{_ENTAIL}{_NOT_LABEL}",
         r"gerektirm(?:iyor|ez|emektedir)\b", rf"{_FA_NOT_BEFORE}{_ENTAIL}", rf"{_ENTAIL}{_FA_NOT_AFTER}"),
    *cue(ENTAILMENT, rf"(?:\bnot|n't|never|no)\s+(?:\w+\s+){{0,2}}?{_CONTRADICT}{_CLAUSE}", rf"{_CONTRADICT}{_NOT_LABEL}",
         r"çelişm(?:iyor|ez|emektedir)\b", r"\bfollows\s+from\b", rf"{_FA_NOT_BEFORE}{_CONTRADICT}",
         rf"{_CONTRADICT}{_FA_NOT_AFTER}"),
    *cue(ENTAILMENT, rf"\b{_ENTAIL}"),
    *cue(CONTRADICTION, rf"\b{_CONTRADICT}"),
]

CUES = {"detection": DETECTION_CUES, "entailment": ENTAILMENT_CUES}

# A later explicit revision replaces the earlier answer: "Entailment ... Wait, I made a mistake ... The correct
# label is:\n\nContradiction" is read from the revision on. The shared reader lets a revision conclude only in its
# own sentence; here the revised label often stands on a line of its own. The latest revision that states a label
# decides; one that states none (an explanation after "Actually,") leaves the whole answer to be read.
_REVISION = re.compile(
    r"(?:^|(?<=[.!?]\s)|(?<=\n))[\s*_>-]*(?:wait|actually|correction|on second thought|let me reconsider|"
    r"bekle|düzeltme|aslında|pardon|اصلاح|تصحیح)\b|\bi made a (?:mistake|error)\b", re.IGNORECASE)


def read_label(text: str, task: str) -> str | None:
    """figeval's reading of a detection (`yes`/`no`) or entailment (`entailment`/`contradiction`) answer."""
    text = strip_reasoning(text)
    for revision in reversed(list(_REVISION.finditer(text))):
        revised = read_verdict(text[revision.start():], CUES[task])
        if revised is not None:
            return revised
    return read_verdict(text, CUES[task])
