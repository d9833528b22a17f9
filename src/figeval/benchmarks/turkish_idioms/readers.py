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
("not confident enough to say whether ...", "... olup olmadığını söyleyemem") or a supposition ("if ..., it would
...") states no label. An entailment question answered only "yes" or "no" is not read: which label a "no" means is
not said. Round 3: a probability on a label ("Figurative use: 95% likely", "Entailment: 92%"; 50% is no lean); the
use named alone after an adverb ("Obviously figurative:"), True/False alone; linguistics' and logic's words
("compositional reading", "not licensed", "mutually exclusive", "P ⊨ H"); formal Turkish and Azerbaijani words
("istilzam", "tenakuz", "ziddiyyət", "Bəli"); a Turkish double negation ("kullanılmadığını söylemek mümkün
değil" = used); both answers offered and none chosen ("Yes / Hayır", "Entailment, yani çelişki") is unread.
"""

from __future__ import annotations

import re

from figeval.parsing import YES_NO_BY_LANGUAGE, YesNo, strip_reasoning, words_pattern
from figeval.verdict import HEDGE, Undecided, answer_body, cue, read_verdict, yes_no_sentence_cues

YES, NO, ENTAILMENT, CONTRADICTION = "yes", "no", "entailment", "contradiction"

_CLAUSE = r"[^.,;:!?]*"
# Words of a lean, by language ("Probably yes", "Muhtemelen evet", "Sanırım hayır"): a hedge that states the answer
# it leans to is read as that answer, as a forced choice is. "Maybe" / "belki" is no lean and is not listed.
_LEANS = {
    "en": ("probably", "most likely", "very likely", "likely", "i think", "i believe"),
    "tr": ("muhtemelen", "büyük ihtimalle", "büyük olasılıkla", "sanırım", "bence", "galiba", "herhalde"),
    "fa": ("احتمالا", "احتمالاً", "فکر می کنم"),
}
_LEAN_WORDS = words_pattern(w for words in _LEANS.values() for w in words)
_LEAN = rf"(?:{_LEAN_WORDS}\s*,?\s*)?"
_OPENING = (r"^(?:[-•]\s*|\(?[0-9]+[.)\-:]\s*)?(?:(?:the\s+|my\s+)?(?:final\s+)?(?:answer|label)(?:\s+is)?\s*[:\-]?\s*"
            rf"|(?:cevap|yanıt|yanit|etiket)\s*[:\-]?\s*)?{_LEAN}")
_END = r"(?=[\s.,!:;)،؛]|$)"  # a Persian comma «،» ends a word too
# "the answer is: no", "I would say: No", "cevap hayır", and a verdict right after a colon.
_ANSWER_IS = (r"(?:answer\s+(?:is|would be)\s*:?|answer\s*:|(?:would|i'd|i)\s+say\s*:?|cevap(?:ım)?\s*(?::|olarak)?"
              r"|yan[ıi]t\s*:?|:)\s*")
# Yes/no words by language (`parsing.YES_NO_BY_LANGUAGE`). The prompt's two languages are read wherever a verdict
# opens; the others (a Persian «بله.» to the English prompt) only set off by punctuation or alone, since «نه» also
# opens «نه تنها ...» (not only) and «لا» a clause.
_PROMPT_LANGUAGES = ("en", "tr")
_SET_OFF = r"(?=\s*[.,!:;،؛]|\s*$)"


def _yes_no(answer: YesNo, prompt_languages: bool | None) -> str:
    """The yes (or no) words of the prompt's languages (True), of the others (False), or of all (None)."""
    return words_pattern(w for lang, words in YES_NO_BY_LANGUAGE.items()
                         if prompt_languages is None or (lang in _PROMPT_LANGUAGES) == prompt_languages
                         for w in words[answer])


# Two answers joined ("Yes and no", "Yes / Hayır", "evet ya da hayır"), of any language: both, none chosen.
_OR = r"\s*(?:/|\||\bor\b|\band\b|\bve\b|\bveya\b|\bya\s+da\b|\byoxsa\b)\s*"
_BOTH = rf"(?!{_OR}(?:{_yes_no(YesNo.YES, None)}|{_yes_no(YesNo.NO, None)}|hay))"
_YES = rf"(?:{_yes_no(YesNo.YES, True)}(?:tir)?{_BOTH}|{_yes_no(YesNo.YES, False)}{_SET_OFF})"
_NO = (rf"(?:{_yes_no(YesNo.NO, True)}{_BOTH}(?!\s+(?:doubt|idea|question|comment)\b)"
       rf"|{_yes_no(YesNo.NO, False)}{_SET_OFF})")
# Turkish verb negation is bound in the verb: stem + -me/-ma + tense (-mez/-maz, -medi/-madı, -mediği/-madığı,
# -memiş, -memekte, -meyen, -meyecek, -memek) or -mıyor/-miyor/-muyor/-müyor. Not -ması/-mesi (the verbal noun:
# "mecaz anlamda kullanılması" is "its being used figuratively") nor -mak/-mek (the infinitive).
_TR_NEG = r"(?:m[ae](?:z|d[ıiuü]|m[ıiuü]ş|m[ae]kt[ae]|m[ae]k|y[ae]n|y[ae]c[ae]k)|m[ıiuü]yor)\w*"
# A clause whose main verb negates again ("... kullanılmadığı açık değil", "içermediği söylenemez") is not read
# by these: a double negation a pattern cannot weigh, save the one `_TR_SAYING_DENIED` reads (a denied saying).
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
# A probability on a label ("Figurative use: 95% likely", "Entailment: 92%\nContradiction: 8%", Turkish "%95"): over
# half leans to the label, under half away from it (in a two-label task, to the other), as a lean is read; exactly
# half leans nowhere (a hedge: unread). A distribution over both labels states one label twice when it is coherent
# (92% on one, 8% on the other) and two labels when it is not (70% and 70%: unread).
_OVER_HALF = r"(?:100|[6-9]\d|5[1-9]|50[.,]\d*[1-9])(?:[.,]\d+)?"
_UNDER_HALF = r"(?:[1-4]?\d)(?:[.,]\d+)?"
_HALF = r"50(?:[.,]0+)?"
_NOT_LIKELY = r"(?!\s*(?:un|not\s+|im)(?:likely|probable)\b)"  # "95% unlikely" says the opposite: no pair


def _percent(number: str) -> str:
    return rf"(?:(?:{number})\s*%|%\s*(?:{number})(?![\d.,]*\d)){_NOT_LIKELY}"


_YES_KEY = r"(?:yes|evet)\s*[:=]\s*"
_NO_KEY = r"(?:no|hay[ıi]r)\s*[:=]\s*"
_TR_CLAUSE = r"(?:^|(?<=[.,;:!?]))[^.,;:!?]*?"  # a Turkish clause from its start, its verb closing it
# What states no label, beyond the shared hedges (`verdict.HEDGES`), each taking the words it governs:
NO_LABEL_CUES = cue(
    HEDGE,
    # a refusal: "I'm not confident enough ... to say whether this pair is a contradiction"
    rf"\bnot\s+(?:\w+\s+)?confident\b{_CLAUSE}", rf"\bemin\s+olam\w*{_CLAUSE}",
    # a supposition inside a sentence ("3. Comparison: if he overlooked them, reporting them would seem to point
    # to a contradiction"): the shared reader skips only a sentence that opens with its condition
    r"(?<!even )(?<!as )\bif\b[^.;!?]*\bwould\b[^.;!?]*", r"(?<=\S )eğer\b[^.;!?]*",
    # a Turkish embedded yes/no question, the verb doubled as stem-(y)Ip stem-mAdIğ ("bir çelişki olup
    # olmadığını", "kullanılıp kullanılmadığını": whether it is ... or not), from its clause's start: it asks
    _TR_CLAUSE + r"\b(\w+)[ıiuü]?p\s+\1m[ae](?:d[ıiuü]ğ|y[ae]c[ae]ğ)\w*",
    # a Turkish refusal, the impotential of a saying/knowing verb closing the clause that holds the label
    # ("... çelişki olup olmadığını söyleyemem", "karar veremiyorum", "bilemem": I cannot say/decide/know)
    _TR_CLAUSE + r"\b(?:söyle|bil|karar\s+ver|di)y?[ae]m(?:[ae]m|[ıi]yorum|[ae]yiz|[ıi]yoruz)\b",
)

# "can be used figuratively to mean ..." describes the idiom, not its use in this sentence.
_GENERAL = r"(?<!can be )(?<!could be )(?<!may be )(?<!often )(?<!usually )(?<!typically )(?<!commonly )(?<!generally )"
_FIGURATIVE = (r"(?:figuratively|idiomatically|metaphorically|"
               r"in (?:a|its) (?:figurative|idiomatic|metaphorical) (?:sense|meaning|way))")
_LITERAL = r"(?:literally|in (?:a|its) literal (?:sense|meaning|way))"
# The use named alone as the sentence's verdict, an adverb or a lean before it ("Obviously figurative: ...",
# "Literal.", "Mecazi."), by language; negated ("Not figurative.") it is the other. A noun after it ("Figurative
# language is common") makes it no verdict.
_USE_WORDS = {
    YES: {"en": r"(?:figurative|idiomatic|metaphorical)(?:ly)?", "tr": r"mecaz(?:i|en)?(?:\s+anlam(?:da|ıyla))?"},
    NO: {"en": r"literal(?:ly)?", "tr": r"(?:gerçek|düz)\s+anlam(?:da|ıyla)"},
}
_SURELY_WORDS = r"(?:obviously|clearly|definitely|certainly|plainly|evidently|surely|açıkça|kesinlikle|elbette)"


def _use_alone(answer: str, negated: bool = False) -> str:
    """The use word alone as the sentence ("Figurative.", "Not literal!"), or after an adverb or a lean and then
    set off by a colon or a dash too ("Obviously figurative: ..."); a bare word before a colon is a heading
    ("Literally: 'to wait with four eyes'", "Idiomatic meaning: ..."), not a verdict."""
    words = "(?:" + "|".join(_USE_WORDS[answer].values()) + r")(?:\s+(?:use|usage))?\s*"
    negation = r"not\s+" if negated else ""
    return (rf"^\W*{negation}(?:{words}(?:[.!]|$)|(?:{_SURELY_WORDS}|{_LEAN_WORDS})\s*,?\s+{words}"
            r"(?:[.:!;—–]|\s-|$))")


# Linguistics' words for the two readings: the compositional (literal) and the non-compositional (idiomatic) one.
# A reading the phrase "receives"/"has" is its use; one "not licensed"/"not intended" is not.
_LITERAL_READING = r"(?<!non-)(?<!non )(?:literal|compositional)"
_IDIOM_READING = r"(?:non-?\s?compositional|idiomatic|figurative|metaphorical)"
_READING = r"\s+(?:reading|sense|interpretation|meaning)\b"
_HAS_READING = r"(?<!not )(?<!n't )(?<!never )\b(?:receives?|gets?|has|takes?|bears?|carries|keeps?)\s+(?:its|a|the)\s+"
_NOT_LICENSED = (r"[^.;!?]*?\b(?:is|are)\s+not\s+(?:licensed|intended|available|meant|triggered|evoked|possible"
                 r"|at play)\b")


def _reading_not_licensed(reading: str) -> str:
    return rf"\b{reading}(?:,?\s+{reading})*{_READING}{_NOT_LICENSED}"


# True/False to the question "is it used figuratively?" as a sentence of its own; "not untrue" is true.
_TRUE_ALONE = r"^\W*(?:true|doğru|not\s+(?:untrue|false))\W*$"
_FALSE_ALONE = r"^\W*(?:false|yanlış|not\s+true)\W*$"
# A Turkish double negation: a negated use verb under a denied saying ("kullanılmadığını söylemek mümkün değil",
# "kullanılmadığı söylenemez": it cannot be said that it is not used ...) affirms the use.
_TR_SAYING_DENIED = (r"\w*\s+(?:söylemek\s+(?:mümkün|doğru)\s+değil\w*|söylenemez\w*|denemez\w*"
                     r"|iddia\s+edilemez\w*)")

DETECTION_CUES = [
    *NO_LABEL_CUES,
    # label:value pairs first: the value answers the label's question
    *cue(NO, rf"{_LITERAL_KEY}{_AFFIRM}{_END}", rf"{_FIGURATIVE_KEY}{_DENY}{_END}"),
    *cue(YES, rf"{_LITERAL_KEY}{_DENY}{_END}", rf"{_FIGURATIVE_KEY}{_AFFIRM}{_END}"),
    # a probability on a label (see `_percent`): the key's label over half, the other under half
    *cue(HEDGE, *(rf"{key}{_percent(_HALF)}" for key in (_FIGURATIVE_KEY, _LITERAL_KEY, _YES_KEY, _NO_KEY))),
    *cue(YES, rf"{_FIGURATIVE_KEY}{_percent(_OVER_HALF)}", rf"{_YES_KEY}{_percent(_OVER_HALF)}",
         rf"{_LITERAL_KEY}{_percent(_UNDER_HALF)}", rf"{_NO_KEY}{_percent(_UNDER_HALF)}"),
    *cue(NO, rf"{_LITERAL_KEY}{_percent(_OVER_HALF)}", rf"{_NO_KEY}{_percent(_OVER_HALF)}",
         rf"{_FIGURATIVE_KEY}{_percent(_UNDER_HALF)}", rf"{_YES_KEY}{_percent(_UNDER_HALF)}"),
    # a Turkish double negation (see `_TR_SAYING_DENIED`): not used figuratively, denied -> used figuratively
    *cue(YES, rf"{_TR_FIGURATIVE}\s+kullanıl{_TR_NEG}{_TR_SAYING_DENIED}"),
    *cue(NO, rf"{_TR_LITERAL}\s+kullanıl{_TR_NEG}{_TR_SAYING_DENIED}"),
    # the use named alone ("Obviously figurative:"), negated first; linguistics' readings; True/False
    *cue(NO, _use_alone(YES, negated=True), _use_alone(NO), rf"{_HAS_READING}{_LITERAL_READING}{_READING}",
         _reading_not_licensed(_IDIOM_READING), _FALSE_ALONE),
    *cue(YES, _use_alone(NO, negated=True), _use_alone(YES), rf"{_HAS_READING}{_IDIOM_READING}{_READING}",
         _reading_not_licensed(_LITERAL_READING), _TRUE_ALONE),
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
# تناقض»). "incompatible"/"inconsistent" and logic's "mutually exclusive" say contradiction (so "isn't
# incompatible", negated, says entailment). Turkish of the formal/Ottoman register: "istilzam (eder)" (entails),
# "tenakuz/tenâkuz", "mütenakız" (contradiction/contradictory); Azerbaijani "ziddiyyət" (contradiction).
_ENTAIL_WORDS = {"en": r"entail\w*", "tr": r"(?:gerektir|istilzam)\w*", "fa": r"(?:استلزام|مستلزم)\w*"}
_CONTRADICT_WORDS = {"en": r"(?:(?:contradict|incompatib|inconsisten)\w*|mutually\s+exclusive)",
                     "tr": r"(?:çeliş|celis|tenakuz|tenâkuz|mütenakı[zs]|mütenâkı[zs])\w*",
                     "az": r"ziddiyy?ət\w*", "fa": r"(?:تناقض|متناقض|تضاد)\w*"}
_ENTAIL = "(?:" + "|".join(_ENTAIL_WORDS.values()) + ")"
_CONTRADICT = "(?:" + "|".join(_CONTRADICT_WORDS.values()) + ")"
# (Turkish "yok"/"değil" and their Azerbaijani forms "yox(dur)"/"deyil": "ziddiyyət yoxdur", no contradiction.)
_NOT_LABEL = (r"\s+(?:is not|isn't|is wrong|is incorrect|does not (?:hold|apply)|doesn't (?:hold|apply)|"
              r"yok(?:tur)?|değil(?:dir)?|degil(?:dir)?|yox(?:dur)?|deyil(?:dir)?|bulunmuyor|"
              r"söz konusu değil(?:dir)?)\b")
# Persian negation: «هیچ/عدم/بدون» before the label word, or «ندارد/نیست/نمی‌...» closing its clause
# («تناقضی وجود ندارد», «مستلزم آن نیست»).
_FA_NOT_BEFORE = r"(?:هیچ|عدم|بدون)\s+"
_FA_NOT_AFTER = r"[^.,;:!?،؛]*?\s(?:ندار|نیست|نمی\s)\S*"

ENTAILMENT_CUES = [
    *NO_LABEL_CUES,
    # label:value pairs first ("Contradiction: no"): in a two-label task a no to one is the other
    *cue(ENTAILMENT, rf"{_ENTAIL}\s*[:=]\s*{_AFFIRM}{_END}", rf"{_CONTRADICT}\s*[:=]\s*{_DENY}{_END}"),
    *cue(CONTRADICTION, rf"{_CONTRADICT}\s*[:=]\s*{_AFFIRM}{_END}", rf"{_ENTAIL}\s*[:=]\s*{_DENY}{_END}"),
    # a probability on a label (see `_percent`)
    *cue(HEDGE, rf"{_ENTAIL}\s*[:=]\s*{_percent(_HALF)}", rf"{_CONTRADICT}\s*[:=]\s*{_percent(_HALF)}"),
    *cue(ENTAILMENT, rf"{_ENTAIL}\s*[:=]\s*{_percent(_OVER_HALF)}",
         rf"{_CONTRADICT}\s*[:=]\s*{_percent(_UNDER_HALF)}"),
    *cue(CONTRADICTION, rf"{_CONTRADICT}\s*[:=]\s*{_percent(_OVER_HALF)}",
         rf"{_ENTAIL}\s*[:=]\s*{_percent(_UNDER_HALF)}"),
    # negated labels first: in a two-label task the negation of one is the other
    *cue(CONTRADICTION, rf"(?:\bnot|n't|never|no)\s+(?:\w+\s+){{0,2}}?{_ENTAIL}{_CLAUSE}", rf"{_ENTAIL}{_NOT_LABEL}",
         r"gerektirm(?:iyor|ez|emektedir)\b", rf"{_FA_NOT_BEFORE}{_ENTAIL}", rf"{_ENTAIL}{_FA_NOT_AFTER}",
         # the formal Turkish verb "istilzam et-" negated in the verb (-mez, -miyor): does not entail
         rf"\bistilzam\s+et{_TR_NEG}"),
    *cue(ENTAILMENT, rf"(?:\bnot|n't|never|no)\s+(?:\w+\s+){{0,2}}?{_CONTRADICT}{_CLAUSE}",
         rf"{_CONTRADICT}{_NOT_LABEL}", r"çelişm(?:iyor|ez|emektedir)\b", r"\bfollows\s+from\b",
         rf"{_FA_NOT_BEFORE}{_CONTRADICT}", rf"{_CONTRADICT}{_FA_NOT_AFTER}",
         # "tenakuz teşkil etmez" (does not constitute a contradiction): negated in the verb
         rf"\b{_CONTRADICT}\s+(?:teşkil\s+)?et{_TR_NEG}"),
    # logic's consequence signs: "P ⊨ H" (or ⊢) the premise entails the hypothesis; "P ⊭ H" it does not, and
    # "P ⊨ ¬H" it entails the hypothesis's negation: in a two-label task, contradiction
    *cue(CONTRADICTION, r"[⊭⊬]", r"[⊨⊢]\s*\S{0,3}\s*(?:¬|~|not\b)"),
    *cue(ENTAILMENT, r"[⊨⊢]"),
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


# Both answers offered and none chosen ("Yes / Hayır", "Entailment, yani çelişki": "that is" equating the two
# labels): when nothing else in the answer states a label, the answer is two answers, unread, though the paper's
# first/last-word rule would read one of its words. The yes/no words of every language are joined here: an answer
# in two languages is as undecided as one in one.
_JOINED = rf"(?:{_OR}|\s*=\s*|,?\s*(?:yani|i\.e\.|that\s+is)\b,?\s*)"


def _both(first: str, second: str, joined: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{first}{joined}{second}|{second}{joined}{first})(?!\w)")


_BOTH_OFFERED = {"detection": _both(_yes_no(YesNo.YES, None), _yes_no(YesNo.NO, None), _OR),
                 "entailment": _both(_ENTAIL, _CONTRADICT, _JOINED)}


def read_label(text: str, task: str) -> str | None:
    """figeval's reading of a detection (`yes`/`no`) or entailment (`entailment`/`contradiction`) answer.

    Raises:
        Undecided: two labels or a hedge with nothing concluding (`verdict.body_verdict`), or both answers
            offered and none chosen (`_BOTH_OFFERED`).
    """
    text = strip_reasoning(text)
    for revision in reversed(list(_REVISION.finditer(text))):
        revised = read_verdict(text[revision.start():], CUES[task])
        if revised is not None:
            return revised
    label = read_verdict(text, CUES[task])
    if label is None and (both := _BOTH_OFFERED[task].search(answer_body(text))):
        raise Undecided(f"both answers offered, none chosen: {both.group(0)!r}")
    return label
