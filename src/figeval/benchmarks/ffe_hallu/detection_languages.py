"""The words of the other languages and registers detection answers are written in, one table by language: label
words with their negations (`LANGUAGES`; yes/no words are the shared table's, `parsing.YES_NO_BY_LANGUAGE`), and
the Likert answers' patterns (`likert_sentence`, `LIKERT_NEUTRAL`; their words are the shared table's). `readers` and
`detection_slots` read them; nothing here knows a framing.
"""

from __future__ import annotations

from typing import Final, TypedDict

from figeval.parsing import AGREEMENT_NEUTRAL, YesNo, agreement_pattern

REAL: Final = "real"
FAKE: Final = "fake"


class _Words(TypedDict):
    """One language's patterns; `closing` and `before` are None where the language has no such negation."""

    real: str
    fake: str
    suffix: str
    closing: str | None
    before: str | None
    unused: str


# Label words of the other languages models answer an English or Persian prompt in, one table by language: (real
# words, fake words, the negation that closes the clause holding a label word, a negation that goes before it).
# Persian in Latin letters: "vaghei nist" (not real); Turkish: "gerçek bir Farsça deyim değildir" (not real), "sahte
# değil" (real); Arabic (after Persian normalization: ی for ي, diacritics removed): «مزيّف» fake, «ليس حقيقيًا» not
# real, «غير حقيقي» unreal; Azerbaijani (aya, Azerbaijani users): "həqiqi atalar sözü deyil" (not a real proverb).
LANGUAGES: dict[str, _Words] = {
    "fa-Latn": {"real": r"(?:vaghei|vagheei|vagh'ei|asil|raayej|rayej|ma'ruf|maaruf|mashhur|mashhoor|motabar)",
                "fake": r"(?:jaali|jali|ja'li|sakhtegi|saakhtegi|dorugh|doroogh)", "suffix": "",
                "closing": r"(?:nist|nistesh|nemibashad|nemibashe)", "before": None,
                "unused": r"\b(?:vojud|vojood) nadar\w*|\bestefade nemish\w*"},
    # the copula suffix only: "gerçektir", "uydurmadır" (not "gerçekten", really)
    "tr": {"real": r"(?:gerçek|otantik|bilinen|yaygın|meşhur|ünlü|geçerli|mevcut)",
           "fake": r"(?:sahte|uydurma|uydurulmuş|yapay|asılsız)", "suffix": r"(?:[dt][ıiuü]r)?",
           "closing": r"(?:değil|yok)", "before": None,
           # verb negation -me/-ma (-miyor, -maz, -mamakta, -mamış) of "used / known / heard / found"
           "unused": r"\b(?:kullanıl|bilin|duyul|rastlan|bulun)(?:m[ıi]yor|maz|mez|mamakta|memekte|mam[ıi]ş)\w*"},
    # Azerbaijani: "deyil" closes the clause as Turkish "değil" does, "yoxdur" (there is none) as "yok"; "əsl"
    # (original) is not a label word: "Əsl forması «…»dır" (its original form is «…») names the source idiom
    "az": {"real": r"(?:həqiqi|mövcud|məşhur|tanınmış|yayğın|işlək)",
           "fake": r"(?:saxta|uydurma|uydurulmuş|qondarma|süni)", "suffix": r"(?:d[ıiuü]r)?",
           "closing": r"(?:deyil|yoxdur)", "before": None,
           # verb negation of "used / known / met": "işlənmir", "istifadə olunmur", "rast gəlinmir"
           "unused": r"\b(?:işlənmir|istifadə olunmur|rast gəlinmir|bilinmir)\w*"},
    # (words Arabic shares with Persian, «معروف», «اصیل», «متداول», are Persian's above) the case ending only, no
    # article: «المثل الحقيقي» (the real proverb) names the source, not the answer
    "ar": {"real": r"(?:حقیقی|شائع)", "fake": r"(?:مزیف|مختلق|مصطنع|ملفق|مزور)",
           "suffix": r"(?:ا|ة|ه)?", "closing": None, "before": r"(?:لیس|لیست|غیر)",
           "unused": r"(?<!\S)لا\s+(?:یوجد|یستخدم|یعرف)"},
}


def language_cues(label: str) -> list[str]:
    """Patterns that state `label` in the other languages by negating the other label's word."""
    patterns = []
    for words in LANGUAGES.values():
        other = words[FAKE if label == REAL else REAL] + words["suffix"]
        if words["closing"]:  # the negation closes the clause: "gerçek bir Farsça deyim değildir", "vaghei nist"
            patterns.append(rf"(?<!\w){other}(?:\s+(?!ve\b|ama\b|va\b|vali\b)[^\s.,;:!?،]+){{0,4}}?\s+"
                            rf"{words['closing']}\w*")
        if words["before"]:  # the negation goes before: «ليس حقيقيًا», «غير حقيقي»
            patterns.append(rf"(?<!\S){words['before']}\s+(?:\S+\s+)?{other}(?!\w)")
    if label == FAKE:  # not used, not known, does not exist: "Farsçada kullanılmıyor", «لا يوجد»
        patterns += [words["unused"] for words in LANGUAGES.values()]
    return patterns


def language_words(label: str) -> list[str]:
    """Patterns of `label`'s own words in the other languages."""
    # `label` is REAL or FAKE (as in `language_cues`): the table is read by a literal key
    return [rf"(?<!\w){words[REAL if label == REAL else FAKE]}{words['suffix']}(?!\w)" for words in LANGUAGES.values()]


# A Likert-scale answer to the yes/no question ("Strongly disagree." for "Is it real?";
# `parsing.AGREEMENT_BY_LANGUAGE`), read only as a sentence of its own (like `parsing.YES_NO_SENTENCES`): "I disagree
# with the proverb's advice" is no answer. "Neither agree nor disagree" and "Neutral." are a hedge (`LIKERT_NEUTRAL`).
def likert_sentence(answer: YesNo) -> str:
    """The whole-sentence pattern of a Likert answer meaning `answer`."""
    return rf"^{agreement_pattern(answer)}\W*$"


LIKERT_NEUTRAL = rf"^(?:{AGREEMENT_NEUTRAL}|neutral)\W*$"
