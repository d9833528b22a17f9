"""PerHalluEval's verdict words beyond English and Persian, by language, and the scope rules that read them.

Models answer the Persian prompt in Arabic («خطأ», «الملخص صحيح») and in Turkish («Doğru.», «Özet yanlış bilgi
içeriyor»): their words are one table (`VERDICT_WORDS`), each language with its own negation, read by cues built
from it. Persian negation by scope (a negative verb closing the clause that holds the label word: «نمی‌توان درست
دانست», «درست به نظر نمی‌رسد») and the hedges a Persian answer makes («ممکن است ... باشد و ممکن است نباشد»,
«بستگی دارد») are here too. Patterns are searched in `verdict.reading_form` text (Arabic letters unified with
Persian ones: «صحيح» is «صحیح»; lowercased; ZWNJ a space)."""

from __future__ import annotations

import re

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
}
_AR_GOOD, _AR_BAD = VERDICT_WORDS["ar"]


def _dotless(pattern: str) -> str:
    """A Turkish pattern that also reads capitals: `reading_form` lowercases "YANLIŞ" to "yanliş" (Python's rule,
    not Turkish's), so each dotless ı may be a dotted i."""
    return pattern.replace("ı", "[ıi]")


_TR_GOOD, _TR_BAD = (_dotless(words) for words in VERDICT_WORDS["tr"])
# Turkish "there is / contains none": the verb negated by -me/-ma (içermiyor, içermez, bulunmuyor) or "yok".
_TR_NONE = _dotless(r"(?:içermiyor|içermez|içermemektedir|içermemiş|bulunmuyor|bulunmamaktadır|yok|yoktur)")

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
        # Turkish: "değil" after the adjective negates it; a wrong word with a negated "contains" / "yok" is Y
        *cue(YES, rf"\b{_TR_BAD}\s+değil\w*", rf"\b{_TR_BAD}\s+(?:\S+\s+){{0,4}}?{_TR_NONE}\b",
             rf"(?:لیس|لیست)\s+{_AR_BAD}"),
        *cue(NO, rf"\b{_TR_GOOD}\s+değil\w*", rf"\b{_TR_GOOD}\s+olmayan\b",
             # Arabic «ليس صحيحا», «ليست مطابقة»: the negation before the adjective
             rf"(?:لیس|لیست)\s+(?:\S+\s+)?{_AR_GOOD}"),
    ]


def plain_cues() -> list[Cue]:
    """The plain words of `VERDICT_WORDS` (read after the negated forms)."""
    return [*cue(NO, rf"\b{_TR_BAD}", rf"(?:^|\s){_AR_BAD}"), *cue(YES, rf"\b{_TR_GOOD}")]


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
    r"|\bthe\s+(?:correct|right|true|accurate)\s+answer\s+(?:to\s+(?:the|this)\s+question\s+)?(?:is|would be|should be)\b"
    r"|(?:^|\s)(?:پاسخ|جواب)\s+(?:درست|صحیح)(?:\s+(?:این\s+)?(?:سوال|سؤال))?"
    r"(?=\s+(?!(?:و|یا|است|هست|نیست|بود|نبود|می|نمی|به|را|بوده|باشد|نباشد)(?:\s|$))(?:«[^»\n]*»|\S+)\s+(?:است|می باشد)\b)"
    r"|\bdoğru\s+(?:cevap|yan[ıi]t)(?=\s*:|\s+\w)",  # "Doğru cevap Kanberra" (not "Doğru cevap.": a verdict)
)


def without_mentions(body: str) -> str:
    """The `answer_body` with the mentions that state no verdict removed."""
    return _MENTIONS.sub(" ", body)
