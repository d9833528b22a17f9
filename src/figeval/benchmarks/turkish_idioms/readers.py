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
kullanılmış", "gerçek anlamda"). An entailment question answered only "yes" or "no" is not read: which label a
"no" means is not said.
"""

from __future__ import annotations

from figeval.verdict import cue, read_verdict, yes_no_sentence_cues

YES, NO, ENTAILMENT, CONTRADICTION = "yes", "no", "entailment", "contradiction"

_CLAUSE = r"[^.,;:!?]*"
_OPENING = (r"^(?:[-•]\s*|\(?[0-9]+[.)\-:]\s*)?(?:(?:the\s+|my\s+)?(?:final\s+)?(?:answer|label)(?:\s+is)?\s*[:\-]?\s*"
            r"|(?:cevap|yanıt|yanit|etiket)\s*[:\-]?\s*)?")
_END = r"(?=[\s.,!:;)]|$)"
# "the answer is: no", "I would say: No", "cevap hayır", and a verdict right after a colon.
_ANSWER_IS = (r"(?:answer\s+(?:is|would be)\s*:?|answer\s*:|(?:would|i'd|i)\s+say\s*:?|cevap(?:ım)?\s*(?::|olarak)?"
              r"|yan[ıi]t\s*:?|:)\s*")
_BOTH = r"(?!\s+(?:and|or|ve|veya|ya da)\s+(?:yes|no|evet|hay))"  # "Yes and no": both, none chosen
_YES = rf"(?:yes|evet(?:tir)?){_BOTH}"
_NO = rf"(?:no|hay[ıi]r){_BOTH}(?!\s+(?:doubt|idea|question|comment)\b)"
# Turkish answers to "does it contain ...?" without the label word, each the whole sentence: "Var" (there is),
# "İçeriyor" (it contains), "Olumlu" (positive) / "Yok", "İçermiyor", "Olumsuz".
_TR_YES_ALONE = r"^(?:var(?:dır)?|içeriyor|içermektedir|olumlu)\W*$"
_TR_NO_ALONE = r"^(?:yok(?:tur)?|içermiyor|içermemektedir|olumsuz)\W*$"
# A label:value pair ("Literal use: yes") is read as the pair: yes to literal use is a no to figurative use.
_AFFIRM = r"(?:yes|evet|true|doğru)"
_DENY = r"(?:no|hay[ıi]r|false|yanlış)"
_LITERAL_KEY = r"(?:literal|gerçek anlam|düz anlam)\w*(?:\s+(?:use|usage|meaning|sense|kullanım))?\s*[:=\-]\s*"
_FIGURATIVE_KEY = (r"(?:figurative|idiomatic|metaphorical|mecaz)\w*(?:\s+(?:use|usage|meaning|sense|kullanım))?"
                   r"\s*[:=\-]\s*")

# "can be used figuratively to mean ..." describes the idiom, not its use in this sentence.
_GENERAL = r"(?<!can be )(?<!could be )(?<!may be )(?<!often )(?<!usually )(?<!typically )(?<!commonly )(?<!generally )"
_FIGURATIVE = r"(?:figuratively|idiomatically|metaphorically|in (?:a|its) (?:figurative|idiomatic|metaphorical) (?:sense|meaning|way))"
_LITERAL = r"(?:literally|in (?:a|its) literal (?:sense|meaning|way))"

DETECTION_CUES = [
    # label:value pairs first: the value answers the label's question
    *cue(NO, rf"{_LITERAL_KEY}{_AFFIRM}{_END}", rf"{_FIGURATIVE_KEY}{_DENY}{_END}"),
    *cue(YES, rf"{_LITERAL_KEY}{_DENY}{_END}", rf"{_FIGURATIVE_KEY}{_AFFIRM}{_END}"),
    *cue(NO, rf"(?:\bnot|n't|never|no)\s+(?:\w+\s+){{0,3}}?used\s+(?:\w+\s+){{0,2}}?{_FIGURATIVE}{_CLAUSE}",
         rf"\bno\s+idiom\s+is\s+used{_CLAUSE}", rf"\bused\s+(?:\w+\s+){{0,2}}?{_LITERAL}",
         r"\b(?:is|it's|a|the)\s+(?:\w+\s+)?literal\s+(?:use|usage)\b",
         r"(?:gerçek|düz)\s+anlam(?:da|ıyla)\s+kullanıl", r"mecaz(?:i)?\s+anlam(?:da|ıyla)\s+kullanılma",
         r"deyim\s+(?:olarak\s+)?kullanılma", r"mecaz\w*\s+(?:anlamda\s+)?kullanılmış\s+bir\s+deyim\s+(?:yok|içermiyor)",
         r"deyim\s+(?:yok|içermiyor|bulunmuyor)"),
    *cue(YES, rf"{_GENERAL}\bused\s+(?:\w+\s+){{0,2}}?{_FIGURATIVE}", r"mecaz(?:i)?\s+anlam(?:da|ıyla)\s+kullanıl",
         r"deyim\s+(?:içeriyor|içermektedir|vardır|var)\b"),
    *yes_no_sentence_cues(YES, NO),
    *cue(YES, rf"{_OPENING}{_YES}{_END}", rf"{_ANSWER_IS}{_YES}{_END}", _TR_YES_ALONE),
    *cue(NO, rf"{_OPENING}{_NO}{_END}", rf"{_ANSWER_IS}{_NO}{_END}", _TR_NO_ALONE),
]

_ENTAIL = r"(?:entail\w*|gerektir\w*)"
_CONTRADICT = r"(?:contradict\w*|çeliş\w*|celis\w*)"
_NOT_LABEL = (r"\s+(?:is not|isn't|is wrong|is incorrect|does not (?:hold|apply)|doesn't (?:hold|apply)|"
              r"yok(?:tur)?|değil(?:dir)?|degil(?:dir)?|bulunmuyor|söz konusu değil(?:dir)?)\b")

ENTAILMENT_CUES = [
    # label:value pairs first ("Contradiction: no"): in a two-label task a no to one is the other
    *cue(ENTAILMENT, rf"{_ENTAIL}\s*[:=]\s*{_AFFIRM}{_END}", rf"{_CONTRADICT}\s*[:=]\s*{_DENY}{_END}"),
    *cue(CONTRADICTION, rf"{_CONTRADICT}\s*[:=]\s*{_AFFIRM}{_END}", rf"{_ENTAIL}\s*[:=]\s*{_DENY}{_END}"),
    # negated labels first: in a two-label task the negation of one is the other
    *cue(CONTRADICTION, rf"(?:\bnot|n't|never|no)\s+(?:\w+\s+){{0,2}}?{_ENTAIL}{_CLAUSE}", rf"{_ENTAIL}{_NOT_LABEL}",
         r"gerektirm(?:iyor|ez|emektedir)\b"),
    *cue(ENTAILMENT, rf"(?:\bnot|n't|never|no)\s+(?:\w+\s+){{0,2}}?{_CONTRADICT}{_CLAUSE}", rf"{_CONTRADICT}{_NOT_LABEL}",
         r"çelişm(?:iyor|ez|emektedir)\b", r"\bfollows\s+from\b"),
    *cue(ENTAILMENT, rf"\b{_ENTAIL}"),
    *cue(CONTRADICTION, rf"\b{_CONTRADICT}"),
]

CUES = {"detection": DETECTION_CUES, "entailment": ENTAILMENT_CUES}


def read_label(text: str, task: str) -> str | None:
    """figeval's reading of a detection (`yes`/`no`) or entailment (`entailment`/`contradiction`) answer."""
    return read_verdict(text, CUES[task])
