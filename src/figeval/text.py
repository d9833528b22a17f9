"""Persian and Turkish text normalization and script checks.

Every string comparison in figeval (duplicate detection, matching an answer to a reference, parsing verdicts)
goes through these functions, so that spelling variants that are the same text to a reader compare equal:

- Persian text on the web mixes Arabic YEH/KAF with the Persian letters, carries optional diacritics and
  tatweel, and writes the half-space (ZWNJ) as a ZWNJ, a space or nothing (published Persian datasets do all three).
- Turkish lowercasing maps I to dotless ı and İ to i; Python's `str.lower` and `str.casefold` do not.
"""

from __future__ import annotations

import re
import unicodedata

_PERSIAN_LETTER_MAP = str.maketrans(
    {
        "\u064a": "\u06cc",  # ARABIC YEH -> FARSI YEH
        "\u0649": "\u06cc",  # ALEF MAKSURA -> FARSI YEH
        "\u0643": "\u06a9",  # ARABIC KAF -> KEHEH
        # Persian and Arabic-Indic digits -> ASCII, so "۱۲" and "12" compare equal.
        **{chr(0x06F0 + d): str(d) for d in range(10)},
        **{chr(0x0660 + d): str(d) for d in range(10)},
    }
)
# Harakat, tanwin, shadda, sukun, superscript alef and Quranic marks: optional in Persian writing.
_DIACRITICS = re.compile("[\u064b-\u065f\u0670\u06d6-\u06ed]")
_TATWEEL = "\u0640"
# Invisible characters that carry no letters: ZWSP, ZWJ, LRM, RLM, BOM, and the bidi embedding controls.
_INVISIBLES = re.compile("[\u200b\u200d\u200e\u200f\ufeff\u202a-\u202e\u2066-\u2069]")
_ZWNJ = "\u200c"
_WHITESPACE = re.compile(r"\s+")
# Alef with madda or hamza is often written as bare alef ("اب" for "آب" in published Persian datasets).
_ALEF_VARIANTS = str.maketrans({"\u0622": "\u0627", "\u0623": "\u0627", "\u0625": "\u0627", "\u0671": "\u0627"})

# Letters of the Arabic script blocks (basic, supplement, extended-A, presentation forms).
_ARABIC_SCRIPT_LETTER = re.compile(
    "[\u0621-\u063a\u0641-\u064a\u0671-\u06d3\u06fa-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufefc]"
)


def normalize_persian(text: str) -> str:
    """Canonical form of Persian text for display and comparison.

    Arabic YEH/KAF become Persian, diacritics, tatweel and invisible marks are removed, a ZWNJ becomes a space,
    runs of whitespace become one space, Persian and Arabic-Indic digits become ASCII.
    """
    text = unicodedata.normalize("NFC", text)
    text = text.translate(_PERSIAN_LETTER_MAP)
    text = _DIACRITICS.sub("", text).replace(_TATWEEL, "")
    text = _INVISIBLES.sub("", text).replace(_ZWNJ, " ")
    return _WHITESPACE.sub(" ", text).strip()


def expression_key(text: str) -> str:
    """Key under which two writings of the same Persian expression are equal.

    On top of `normalize_persian`, spaces are dropped (the half-space is written as space, ZWNJ or nothing,
    so "می رود", "می‌رود" and "میرود" are one word) and alef variants are unified.
    """
    return normalize_persian(text).translate(_ALEF_VARIANTS).replace(" ", "")


def turkish_lower(text: str) -> str:
    """Lowercase with Turkish rules: I -> ı and İ -> i (Python maps I -> i and İ -> i + combining dot)."""
    return text.replace("I", "ı").replace("İ", "i").lower()


def has_arabic_script(text: str) -> bool:
    """Whether the text contains at least one letter of the Arabic script (which Persian is written in)."""
    return _ARABIC_SCRIPT_LETTER.search(text) is not None
