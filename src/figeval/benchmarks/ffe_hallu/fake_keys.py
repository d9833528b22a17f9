"""How FFE-HALLU compares expressions, fake or authentic: their words, punctuation stripped, under `expression_key`.
Apart from `fakes.py` (the fakes' checks) so that the dataset's own check of a fakes file reads it too, without
the dataset depending on the fakes' builder."""

from __future__ import annotations

import unicodedata

from figeval.text import expression_key

PUNCTUATION = "،,.!?؟:;؛«»\"'“”()[]…-–—"


def words_of(text: str) -> list[str]:
    """The words of an expression: split at spaces (a half-space, ZWNJ, stays inside its word), punctuation
    stripped."""
    words = (word.strip(PUNCTUATION) for word in unicodedata.normalize("NFC", text).split())
    return [word for word in words if word]


def fake_key(text: str) -> str:
    """The key under which the checks compare expressions: `expression_key` of its words, so that punctuation
    ("آسمان همه‌جا یک‌رنگ است." and without the period) makes no difference either."""
    return expression_key(" ".join(words_of(text)))
