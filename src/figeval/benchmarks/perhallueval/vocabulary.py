"""PerHalluEval's verdict words beyond English and Persian, by language, and the scope rules that read them.

Models answer the Persian prompt in Arabic («خطأ», «الملخص صحيح») and in Turkish («Doğru.», «Özet yanlış bilgi
içeriyor»): their words are one table (`VERDICT_WORDS`), each language with its own negation, read by cues built
from it. Persian negation by scope (a negative verb closing the clause that holds the label word: «نمی‌توان درست
دانست», «درست به نظر نمی‌رسد») and the hedges a Persian answer makes («ممکن است ... باشد و ممکن است نباشد»,
«بستگی دارد») are here too. Patterns are searched in `verdict.reading_form` text (Arabic letters unified with
Persian ones: «صحيح» is «صحیح»; lowercased; ZWNJ a space)."""

from __future__ import annotations

import re

from figeval.parsing import AGREEMENT_NEUTRAL, YesNo, agreement_pattern
from figeval.verdict import HEDGE, Cue, cue

YES, NO = "Y", "N"
_CLAUSE = r"[^.,;:!?،؛]*"

# (words that say the answer or summary is right, words that say it is wrong), by the language of the answer.
# Persian and English live in `readers.CUES`; Arabic's «صحیح», «مطابق», «دقیق» are spelled as Persian's after
# `reading_form`, so they are read there. Arabic's wrong words keep the hamza («خطأ», «خاطئ»), which Persian's «خطا»
# does not: a Persian «بدون خطا» (without error) is not read as wrong.
VERDICT_WORDS: dict[str, tuple[str, str]] = {
    "ar": (r"(?:صحیح|صواب|مطابق|دقیق)\w*", r"(?:خطأ|خاطئ)\w*"),
    "tr": (r"(?:doğru|tutarlı|sadık|isabetli)\w*",
           r"(?:yanlış|hatalı|uydurma|çarpıtılmış|asılsız|yanıltıcı|uydurulmuş)\w*"),
    # Azerbaijani (aya answers the Persian prompt in it): «Düzgündür» (it is correct), «Səhvdir» (it is wrong),
    # «təhrif olunmuş» (distorted); its negation is "deyil", its "there is none" «yoxdur» (`_NONE`)
    "az": (r"(?:düzgün|doğru)\w*", r"(?:səhv|yanlış|təhrif|uydurma)\w*"),
}
_AR_GOOD, _AR_BAD = VERDICT_WORDS["ar"]


def _dotless(pattern: str) -> str:
    """A Turkish pattern that also reads capitals: `reading_form` lowercases "YANLIŞ" to "yanliş" (Python's rule,
    not Turkish's), so each dotless ı may be a dotted i."""
    return pattern.replace("ı", "[ıi]")


# Turkic languages by their negation: "değil" / "deyil" after the adjective negates it; the verb of containing
# negated by -me/-ma (içermiyor, içermez, bulunmuyor) or "yok" / «yoxdur» (there is none) says a wrong word is absent.
_NEGATOR = {"tr": r"değil\w*", "az": r"deyil\w*"}
_NONE = {"tr": r"(?:içermiyor|içermez|içermemektedir|içermemiş|bulunmuyor|bulunmamaktadır|yok|yoktur)",
         "az": r"(?:yoxdur|yox|ehtiva etmir|yoxdu)"}
_TURKIC = {language: (_dotless(VERDICT_WORDS[language][0]), _dotless(VERDICT_WORDS[language][1]),
                      _NEGATOR[language], _dotless(_NONE[language])) for language in _NEGATOR}

# Agreement (a Likert answer; `parsing.AGREEMENT_BY_LANGUAGE`). The prompt asks whether the answer / summary is
# right, so "I agree" alone is Y and "I disagree" alone N; said of a clause ("I disagree that the summary is
# accurate") it is that clause's label, negated by "disagree" (`scope_cues`).
# The phrase is the whole sentence, or opens it before a comma, colon or dash ("Agree: the answer is right").
_ALONE = r"(?=[\s.!]*$|\s*[,:;،؛—–-])"

# The clause's verb of judging, closed by a negation («نمی‌توان درست دانست»: it cannot be deemed correct).
_FA_DEEM = r"(?:دانست|شمرد|خواند|تلقی کرد|قلمداد کرد|به شمار آورد|به حساب آورد)"
_FA_NEG_SEEM = (r"(?:به نظر\s+)?نمی ?(?:رسد|آید|باشد|دانم|شود)|(?:دانسته|شمرده|تلقی)\s+نمی ?شود"
                r"|نباشد|نبوده(?:\s+است)?")  # the subjunctive «ممکن است دقیق نباشد» (it may not be accurate): a lean


def scope_cues(fa_good: str, fa_bad: str) -> list[Cue]:
    """Cues read before every other (spans they take are not read again), negated and hedged forms first.

    Args:
        fa_good, fa_bad: Persian's right / wrong words (`readers`), so the scope rules read the same words.
    """
    return [
        # hedges: the words they govern state no label (`verdict.HEDGE`). «ممکن است دقیق باشد و ممکن است نباشد»
        # / "may or may not be accurate" offers both sides; «نمی‌توان (با قطعیت) گفت/نظر داد» is "one cannot say";
        # «بستگی دارد» / "bağlıdır" is "it depends". A hedge with no lean is read as no answer.
        *cue(HEDGE, rf"ممکن است\s+(?:\S+\s+){{0,5}}?(?:باشد|است)\s+(?:و|یا)\s+(?:ممکن است\s+)?نباشد{_CLAUSE}",
             rf"\b(?:may|might|could)\s+(?:\w+\s+){{0,4}}?or\s+(?:\w+\s+)?(?:may|might|could)\s+not\b{_CLAUSE}",
             rf"\bolabilir\s+de\s+olmayabilir(?:\s+de)?{_CLAUSE}",
             rf"نمی ?توان\s+(?:با قطعیت\s+|به طور قطع\s+|به طور قطعی\s+|قطعا\s+)?(?:گفت|نظر داد|تشخیص داد|تایید کرد|"
             rf"تأیید کرد|قضاوت کرد){_CLAUSE}",
             rf"بستگی\s+(?:دارد|دارد که){_CLAUSE}", rf"\bbağlı(?:dır)?\b{_CLAUSE}"),
        # Persian double negative by scope: a wrong word under a negated verb of judging is "not wrong" (Y).
        *cue(YES, rf"نمی ?توان\s+(?:\S+\s+){{0,3}}?{fa_bad}\s+{_FA_DEEM}", rf"{fa_bad}\s+(?:{_FA_NEG_SEEM})"),
        # a right word under a negated verb of judging or seeming is N («نمی‌توان درست دانست», «درست به نظر
        # نمی‌رسد», «صحیح دانسته نمی‌شود»); the right word itself is bound first (not «نادرست», read above)
        *cue(NO, rf"نمی ?توان\s+(?:\S+\s+){{0,3}}?{fa_good}\s+{_FA_DEEM}", rf"{fa_good}\s+(?:{_FA_NEG_SEEM})"),
        # Turkic ("değil" / "deyil" after the adjective negates it; a wrong word with a negated "contains" or "yok" /
        # «yoxdur» is Y) and Arabic («ليس صحيحا», «ليست مطابقة»: the negation before the adjective)
        *[item for good, bad, negator, none in _TURKIC.values() for item in [
            *cue(YES, rf"\b{bad}\s+{negator}", rf"\b{bad}\s+(?:\S+\s+){{0,4}}?{none}\b"),
            *cue(NO, rf"\b{good}\s+{negator}", rf"\b{good}\s+olmayan\b")]],
        *cue(YES, rf"(?:لیس|لیست)\s+{_AR_BAD}"), *cue(NO, rf"(?:لیس|لیست)\s+(?:\S+\s+)?{_AR_GOOD}"),
        *agreement_cues(),
    ]


def agreement_cues() -> list[Cue]:
    """Likert answers (`parsing.AGREEMENT_BY_LANGUAGE`): neither-nor is a hedge (its first «نه» is not "no");
    "disagree that" a clause negates the clause's label ("I strongly disagree that the summary is accurate": N; "...
    is inaccurate": Y); "I agree" / «کاملاً موافقم» / "Strongly disagree" standing alone answer the prompt's
    question (Y / N). "agree that" is not a cue: the clause it governs states its own label ("I agree that it is
    wrong": N)."""
    agree, disagree = agreement_pattern(YesNo.YES), agreement_pattern(YesNo.NO)
    good = r"(?:correct|accurate|faithful|true|right|valid|consistent|supported|factual)"
    bad = r"(?:incorrect|inaccurate|unfaithful|wrong|false|invalid|inconsistent|unsupported|hallucinat\w*|fabricat\w*)"
    clause = r"\bdisagree\w*\s+(?:with\s+(?:the\s+)?(?:claim|statement|view)\s+)?that\s+[^.,;:!?]*?"
    return [
        *cue(HEDGE, rf"(?:{AGREEMENT_NEUTRAL}){_CLAUSE}"),
        *cue(YES, rf"{clause}(?:\bnot\s+(?:\w+\s+)?{good}|\b{bad})\b{_CLAUSE}"),
        *cue(NO, rf"{clause}\b{good}\b{_CLAUSE}"),
        *cue(NO, rf"^(?:{disagree}){_ALONE}"),
        *cue(YES, rf"^(?:{agree}){_ALONE}"),
    ]


def plain_cues() -> list[Cue]:
    """The plain words of `VERDICT_WORDS` (read after the negated forms)."""
    return [*(item for good, bad, _, _ in _TURKIC.values()
              for item in [*cue(NO, rf"\b{bad}"), *cue(YES, rf"\b{good}")]),
            *cue(NO, rf"(?:^|\s){_AR_BAD}")]


# Mentions that state nothing, removed before the cues read a sentence:
_MENTIONS = re.compile(
    # an embedded question «اینکه ... یا نه» (whether ... or not), Turkish "doğru olup olmadığı"
    r"(?:^|\s)اینکه\s[^.;!?؟\n]*?\s(?:یا نه|یا خیر|یا نیست|یا نادرست|یا غلط)"
    r"|\b\w+\s+olup\s+olmad[ıi]ğ[ıi]\w*"
    # an alternative question "doğru mu yanlış mı", "doğru mu değil mi", "doğru mu yoksa yanlış mı" (a lone "mi" may
    # be Persian's verb prefix in Latin letters: "dorost mi bashad")
    r"|\b\w+\s+(?:m[ıi]|mu|mü)\s+(?:yoksa\s+)?\w+\s+(?:m[ıi]|mu|mü)\b"
    # "the correct answer is X" / «پاسخ درست «X» است» / "doğru cevap X": "correct" names the right answer to the
    # question, another entity than the verdict on the answer shown (which the reader does not see)
    r"|\bthe\s+(?:correct|right|true|accurate)\s+answer\s+(?:to\s+(?:the|this)\s+question\s+)?"
    r"(?:is|would be|should be)\b"
    r"|(?:^|\s)(?:پاسخ|جواب)\s+(?:درست|صحیح)(?:\s+(?:این\s+)?(?:سوال|سؤال))?"
    r"(?=\s+(?!(?:و|یا|است|هست|نیست|بود|نبود|می|نمی|به|را|بوده|باشد|نباشد)(?:\s|$))"
    r"(?:«[^»\n]*»|\S+)\s+(?:است|می باشد)\b)"
    r"|\bdoğru\s+(?:cevap|yan[ıi]t)(?=\s*:|\s+\w)"  # "Doğru cevap Kanberra" (not "Doğru cevap.": a verdict)
    # "the correct summary would be: ...", «خلاصهٔ درست باید چنین باشد»: an attributive label word offering a
    # replacement; it may or may not differ from the summary shown, which the reader does not see (as above)
    r"|\bthe\s+(?:correct|right|accurate|faithful)\s+(?:answer|summary|version)\s+(?:would|should|must)\s+(?:be|read)\b"
    r"|(?:^|\s)(?:پاسخ|جواب|خلاصه)\s+(?:درست|صحیح|دقیق|وفادار)\s+(?:باید|می بایست|می بایستی)\b"
    # a comparative of a label word («می‌توانست دقیق‌تر بیاید», "could be more accurate") grades, it does not judge
    r"|(?:^|\s)(?:درست|صحیح|دقیق|وفادار)\s?تر(?:ین)?(?=\s|$|[.,،؛!])|\b(?:more|less)\s+(?:accurate|correct|faithful)\b",
)


def without_mentions(body: str) -> str:
    """The `answer_body` with the mentions that state no verdict removed."""
    return _MENTIONS.sub(" ", body)
