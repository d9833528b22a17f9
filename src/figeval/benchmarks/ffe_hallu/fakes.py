"""Fresh fabricated FFEs for Task 2: the rule-based inversions and the automatic checks (paper Section 3.4,
Appendix B 2.1). `build.build_fakes` asks the model and writes the review sheet; this module is the pure part.

The four categories (as `Fake FFEs.csv` spells them):
- Word Perturbation (3.4 (1), B 2.1 1): an authentic FFE with one key word replaced. A model proposes the
  replacement; the candidate must differ from its source by exactly one word (`one_word_change`).
- Semantic Inversion / Contradiction (3.4 (2), B 2.1 2): an authentic FFE with its meaning flipped. Where a rule
  can do it, `invert` does it without a model: the paper's own example swaps the halves around "به از"
  ("دشمن دانا به از دوست نادان" -> "دوست نادان به از دشمن دانا"); the same swap around "بهتر از" and of the two
  ends of "از X به Y" are the issue's rules; negating the final verb or copula is ours. A model does the rest.
- Phonetic / Poetic Mimicry (the paper's Structural/Syntactic Mimicry, 3.4 (3), B 2.1 3) and Cultural Fabrication
  (Cultural/Historical Fabrication, 3.4 (4), B 2.1 4): fully synthetic, written by a model.

Every candidate is checked (each check is recorded, none silently drops a row): Persian script only; not an
authentic FFE after normalization, nor within a small edit distance of one (the source of a derived candidate
excepted: its category requires closeness); for word perturbation, exactly one word changed; not a duplicate of
another candidate or of a published fake, and not a near-duplicate of a published fake (flagged); length within
the range of real FFEs. The paper's expert review (Section 3.5) stays with people: the sheet's `keep` column.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher

from figeval.benchmarks.ffe_hallu.dataset import FAKE_CATEGORIES
from figeval.benchmarks.ffe_hallu.fake_keys import PUNCTUATION, fake_key, words_of
from figeval.text import expression_key, has_arabic_script

WORD_PERTURBATION, SEMANTIC_INVERSION, MIMICRY, CULTURAL = FAKE_CATEGORIES
DERIVED = (WORD_PERTURBATION, SEMANTIC_INVERSION)
"""Built from an authentic FFE, whose text the candidate records as its source (Section 3.4 (1)-(2))."""

# Ours: two keys (spaces removed, letters unified) at most this many letters apart are "near": a variant spelling,
# a dialect ending, one letter changed. A perturbed word usually changes more than that.
NEAR_EDIT_DISTANCE = 3

# What a check cell says: the check passed, failed (with the reason after a colon), flagged for a person, or does
# not apply to the candidate's category.
PASS, FAIL, FLAG, NOT_APPLICABLE = "pass", "fail", "flag", "n/a"

_TRAILING_PUNCTUATION = re.compile(r"[\s.!?؟،,;؛…]+$")


# --- Semantic inversion by rule ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Inversion:
    text: str
    rule: str
    """Which rule made it (recorded in the sheet's `method` column)."""


# "A به از B" (the paper's example), its poetic "به ز", and "A بهتر از B": a comparison whose halves swap.
_COMPARATIVE = re.compile(r"(?<!\S)(به\s+از|به\s+ز|بهتر\s+از)(?=\s)")
_COPULAS = ("است", "هست")
# The final verb or copula, negated or not (ours: the paper's inversions include such flips, e.g. its file's
# "بار کج به منزل نمی‌رسد" -> "بار کج به منزل میرسد").
_NEGATION_PAIRS = (("است", "نیست"), ("دارد", "ندارد"), ("بود", "نبود"))
_MI = re.compile(r"^(ن?)(می)(\u200c?)(.+)$")


def _swap_comparative(body: str) -> str | None:
    found = list(_COMPARATIVE.finditer(body))
    if len(found) != 1:
        return None  # none, or two comparisons: which halves swap is not clear
    match = found[0]
    first, second = body[: match.start()].strip(), body[match.end():].strip()
    copula = ""
    second_words = second.split()
    if len(second_words) > 1 and second_words[-1] in _COPULAS:
        second, copula = " ".join(second_words[:-1]), f" {second_words[-1]}"
    if not first or not second or expression_key(first) == expression_key(second):
        return None
    return f"{second} {match.group(1)} {first}{copula}"


def _swap_from_to(body: str) -> str | None:
    """"از X به Y ..." -> "از Y به X ...", X and Y of one to three words each (Y as long as X)."""
    words = body.split()
    found = []
    for i, word in enumerate(words):
        if word != "از" or (i > 0 and (words[i - 1].endswith("تر") or words[i - 1] == "به")):
            continue  # "نازک تر از گل": a comparison, not a from-to
        for j in range(i + 2, min(i + 5, len(words))):
            if words[j] == "از":
                break
            if words[j] == "به":
                found.append((i, j))
                break
    if len(found) != 1:
        return None
    i, j = found[0]
    x = words[i + 1: j]
    y = words[j + 1: j + 1 + len(x)]
    if len(y) != len(x) or {"از", "به"} & set(y) or expression_key(" ".join(x)) == expression_key(" ".join(y)):
        return None
    return " ".join(words[: i + 1] + y + ["به"] + x + words[j + 1 + len(x):])


# A question ("حیای گربه کجا رفته است؟") does not flip by negating its verb.
_QUESTION_WORDS = frozenset({"کجا", "چرا", "چه", "چقدر", "چطور", "کی", "آیا", "کدام"})


def _negate_final_verb(body: str) -> str | None:
    words = body.split()
    if len(words) < 2 or _QUESTION_WORDS & {word.strip(PUNCTUATION) for word in words} or "؟" in body or "?" in body:
        return None
    last = words[-1]
    for plain, negated in _NEGATION_PAIRS:
        if last in (plain, negated):
            return " ".join(words[:-1] + [negated if last == plain else plain])
    if words[-2] in ("می", "نمی"):  # "نمی رسد", written with a space
        return " ".join(words[:-2] + ["نمی" if words[-2] == "می" else "می", last])
    match = _MI.match(last)
    # "می‌رسد" / "نمی‌رسد"; written joined ("میرسد") only a 3rd-person verb in -د is taken ("میوه" is a noun)
    if match and (match.group(3) or (last.endswith("د") and len(match.group(4)) >= 2)):
        negation, mi, zwnj, stem = match.groups()
        return " ".join(words[:-1] + [("" if negation else "ن") + mi + zwnj + stem])
    return None


INVERSION_RULES = (
    ("swap around به از / بهتر از", _swap_comparative),
    ("swap of از ... به", _swap_from_to),
    ("negated final verb (ours)", _negate_final_verb),
)


def invert(expression: str) -> Inversion | None:
    """The semantic inversion of an authentic FFE by the first rule that applies, or None (a model's job).

    Args:
        expression: the authentic FFE; its spelling is kept, final punctuation stays at the end.
    """
    text = unicodedata.normalize("NFC", expression).strip()
    tail = _TRAILING_PUNCTUATION.search(text)
    body, end = (text[: tail.start()], tail.group().strip()) if tail else (text, "")
    for rule, apply in INVERSION_RULES:
        inverted = apply(body)
        if inverted is not None:
            return Inversion(inverted + end, rule)
    return None


# --- The checks -----------------------------------------------------------------------------------------------


# The Persian alphabet, the Arabic letters Persian text also writes (ي ك ى ة أ إ ؤ ئ ء ۀ), and Persian and
# Arabic-Indic digits. Letters of other languages in the Arabic script (Urdu ہ ے ٹ, Arabic ٱ) are not Persian.
PERSIAN_CHARACTERS = frozenset("اآبپتثجچحخدذرزژسشصضطظعغفقکگلمنوهی" "يكىةأإؤئءۀ" "۰۱۲۳۴۵۶۷۸۹" "٠١٢٣٤٥٦٧٨٩")


def script_problem(text: str) -> str | None:
    """Why the text is not Persian script only (None if it is): every letter and digit of the Persian alphabet
    (diacritics, the half-space, punctuation and spaces are not letters)."""
    if not text.strip():
        return "no Persian expression in the model's answer"
    if not has_arabic_script(text):
        return "no Persian letters"
    foreign = dict.fromkeys(ch for ch in unicodedata.normalize("NFC", text)
                            if (ch.isalpha() or ch.isdigit()) and ch not in PERSIAN_CHARACTERS)
    return f"characters not of the Persian alphabet: {''.join(foreign)}" if foreign else None


@dataclass(frozen=True)
class WordChange:
    old: tuple[str, ...]
    new: tuple[str, ...]

    def __str__(self) -> str:
        return f"{' '.join(self.old) or '(nothing)'} -> {' '.join(self.new) or '(nothing)'}"


def word_changes(source: str, candidate: str) -> list[WordChange]:
    """The words that differ between two expressions, in order; writing a word with a space, a half-space or
    joined ("نمی ماند", "نمی‌ماند", "نمیماند") is no difference."""
    old, new = words_of(source), words_of(candidate)
    old_keys, new_keys = [expression_key(w) for w in old], [expression_key(w) for w in new]
    changes = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old_keys, new_keys, autojunk=False).get_opcodes():
        if tag == "equal" or "".join(old_keys[i1:i2]) == "".join(new_keys[j1:j2]):
            continue
        changes.append(WordChange(tuple(old[i1:i2]), tuple(new[j1:j2])))
    return changes


def one_word_change(source: str, candidate: str) -> tuple[bool, str]:
    """Whether the candidate replaces exactly one word of its source by one other word (Appendix B 2.1 1: "changed
    just one important word"), and the change(s) as text."""
    changes = word_changes(source, candidate)
    described = "; ".join(str(change) for change in changes) or "no word changed"
    ok = len(changes) == 1 and len(changes[0].old) == 1 and len(changes[0].new) == 1
    return ok, described


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance between two strings, or `limit + 1` as soon as it is known to exceed `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def _word_bag(text: str) -> tuple[str, ...]:
    return tuple(sorted(fake_key(word) for word in words_of(text)))


@dataclass(frozen=True)
class Known:
    """An expression the checks compare against: an authentic FFE or a published fake."""

    text: str
    where: str
    """Where it comes from, for the sheet: "authentic row 12", "published fake row 7", "extra list row 3"."""
    key: str
    word_bag: tuple[str, ...]

    @classmethod
    def of(cls, text: str, where: str) -> Known:
        return cls(text, where, fake_key(text), _word_bag(text))


def nearest(candidate: str, known: Iterable[Known], exclude: str = "") -> tuple[Known, str] | None:
    """The first known expression the candidate is near (not equal to): within NEAR_EDIT_DISTANCE letters of it
    after normalization, or the same words in another order; with how. `exclude`: a key to skip (the source)."""
    key, bag = fake_key(candidate), _word_bag(candidate)
    for item in known:
        if item.key in (key, exclude):
            continue
        distance = edit_distance(key, item.key, NEAR_EDIT_DISTANCE)
        if distance <= NEAR_EDIT_DISTANCE:
            return item, f"{distance} letter(s) apart"
        if bag == item.word_bag:
            return item, "the same words in another order"
    return None


@dataclass(frozen=True)
class LengthRange:
    """The range of real FFEs' lengths, in words and in letters (spaces and marks not counted)."""

    min_words: int
    max_words: int
    min_letters: int
    max_letters: int

    @classmethod
    def of(cls, expressions: Iterable[str]) -> LengthRange:
        words = [len(words_of(e)) for e in expressions]
        letters = [len(fake_key(e)) for e in expressions]
        return cls(min(words), max(words), min(letters), max(letters))

    def problem(self, text: str) -> str | None:
        words, letters = len(words_of(text)), len(fake_key(text))
        if self.min_words <= words <= self.max_words and self.min_letters <= letters <= self.max_letters:
            return None
        return (f"{words} words, {letters} letters; real FFEs have {self.min_words}-{self.max_words} words, "
                f"{self.min_letters}-{self.max_letters} letters")


CHECKS = ("script", "not_authentic", "far_from_authentic", "one_word", "unique", "near_published", "length")
"""The sheet's check columns, in order."""


@dataclass(frozen=True)
class Candidate:
    id: str
    category: str
    text: str
    source: str = ""


def check_candidates(candidates: list[Candidate], authentic: list[Known], published: list[Known],
                     lengths: LengthRange) -> dict[str, dict[str, str]]:
    """Each candidate's check cells (CHECKS -> "pass", "n/a", "fail: why" or "flag: why"), by candidate id.

    Args:
        candidates: in sheet order; of two equal candidates the first is kept, the second fails `unique`.
        authentic: every authentic FFE known (the benchmark's, the published fakes' sources, a user's list).
        published: the published fakes.
        lengths: the range of real FFEs' lengths.
    """
    authentic_by_key: dict[str, Known] = {}
    published_by_key: dict[str, Known] = {}
    for by_key, items in ((authentic_by_key, authentic), (published_by_key, published)):
        for item in items:
            by_key.setdefault(item.key, item)  # the first (the benchmark's own row) names it
    first_of: dict[str, str] = {}
    results = {}
    for candidate in candidates:
        cells = dict.fromkeys(CHECKS, NOT_APPLICABLE)
        results[candidate.id] = cells
        problem = script_problem(candidate.text)
        cells["script"] = f"{FAIL}: {problem}" if problem else PASS
        if not candidate.text.strip():
            continue
        key = fake_key(candidate.text)
        source_key = fake_key(candidate.source) if candidate.source else ""
        same = authentic_by_key.get(key) or (Known.of(candidate.source, "its source") if key == source_key else None)
        cells["not_authentic"] = f"{FAIL}: equals {same.where}: {same.text}" if same else PASS
        near = nearest(candidate.text, authentic, exclude=source_key)
        cells["far_from_authentic"] = f"{FAIL}: near {near[0].where} ({near[1]}): {near[0].text}" if near else PASS
        if candidate.category == WORD_PERTURBATION:
            ok, described = one_word_change(candidate.source, candidate.text)
            cells["one_word"] = PASS if ok else f"{FAIL}: {described}"
        if key in published_by_key:
            cells["unique"] = f"{FAIL}: equals {published_by_key[key].where}: {published_by_key[key].text}"
        elif key in first_of:
            cells["unique"] = f"{FAIL}: equals {first_of[key]}"
        else:
            cells["unique"] = PASS
            first_of[key] = candidate.id
        near_published = nearest(candidate.text, published)
        cells["near_published"] = (f"{FLAG}: near {near_published[0].where} ({near_published[1]}): "
                                   f"{near_published[0].text}" if near_published else PASS)
        length = lengths.problem(candidate.text)
        cells["length"] = f"{FAIL}: {length}" if length else PASS
    return results


def passes(cells: dict[str, str]) -> bool:
    """Whether every check passed or does not apply (a flag is not a pass: a person looks first)."""
    return all(cells[check] in (PASS, NOT_APPLICABLE) for check in CHECKS)
