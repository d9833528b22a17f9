"""FFE-HALLU data: the authentic and fabricated expression lists, validated, and the detection samples.

Upstream files (pinned in source.py): `Authentic FFEs.csv` (farsi_idiom, Meaning) and
`Fake FFEs.csv` (Fake Idiom, Source Idiom, Category). "Source Idiom" is empty for the two fully synthetic
categories. The upstream third file, "En->Fa FFE translation.csv", is damaged at the pinned commit (saved in a
legacy 8-bit encoding that turned every Persian letter into "_"); the Persian-script check refuses it.
"""

from __future__ import annotations

from typing import Literal, get_args

import re
from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from inspect_ai.dataset import MemoryDataset, Sample

from figeval.benchmarks.ffe_hallu.prompts import (
    FAKE_QUESTION,
    GENERATION_USER_PROMPT,
    REAL_QUESTION,
    TRANSLATION_USER_PROMPT,
)
from figeval.building import review_answer
from figeval.benchmarks.ffe_hallu.fake_keys import fake_key
from figeval.benchmarks.ffe_hallu.source import EXPRESSION_CHARS, MEANING_CHARS, SOURCE
from figeval.data.store import provenance, register_check, require
from figeval.data.stored import sha256_of
from figeval.data.table import Column, read_table
from figeval.errors import DataError, FigevalError

DATASET_NAME = SOURCE.name
AUTHENTIC_FILE = "Authentic FFEs.csv"
FAKE_FILE = "Fake FFEs.csv"

AUTHENTIC_COLUMNS = (Column("farsi_idiom", persian=True), Column("Meaning", persian=True))
FAKE_COLUMNS = (  # the published file's, and a person's own fake set (`-T fakes=`)
    Column("Fake Idiom", persian=True, max_chars=EXPRESSION_CHARS),
    Column("Source Idiom", required=False, persian=True, max_chars=EXPRESSION_CHARS),
    Column("Category", max_chars=EXPRESSION_CHARS),
)

# The four construction categories as the upstream file spells them (its `Category` values, and so the metric
# names' slugs).
FAKE_CATEGORIES = (
    "Word Perturbation",
    "Semantic Inversion / Contradiction",
    "Phonetic / Poetic Mimicry",
    "Cultural Fabrication",
)
# The same categories as the paper names them (Section 3.4, Appendix B, Figure 1), for tables and figures.
PAPER_CATEGORY_NAMES = {
    "Word Perturbation": "Word Perturbation",
    "Semantic Inversion / Contradiction": "Semantic Inversion",
    "Phonetic / Poetic Mimicry": "Structural/Syntactic Mimicry",
    "Cultural Fabrication": "Cultural/Historical Fabrication",
}


def category_slug(category: str) -> str:
    """Metric-name form of a category: "Semantic Inversion / Contradiction" -> "semantic_inversion_contradiction"."""
    return re.sub(r"[^a-z0-9]+", "_", category.lower()).strip("_")


class Framing(str, Enum):
    FAKE_Q = "fake-q"
    """Is this a fake idiom or proverb in Persian? (a fabricated expression's correct answer: Yes)"""
    REAL_Q = "real-q"
    """Is this a real idiom or proverb in Persian? (a fabricated expression's correct answer: No)"""


class ItemKind(str, Enum):
    FAKE = "fake"
    REAL = "real"


QUESTION_OF_FRAMING = {Framing.FAKE_Q: FAKE_QUESTION, Framing.REAL_Q: REAL_QUESTION}


@dataclass(frozen=True)
class AuthenticFFE:
    row: int
    expression: str
    meaning: str


@dataclass(frozen=True)
class FakeFFE:
    row: int
    expression: str
    source_expression: str
    """The authentic FFE it was derived from; empty for the fully synthetic categories."""
    category: str


def load_authentic(path: Path) -> list[AuthenticFFE]:
    rows = read_table(path, AUTHENTIC_COLUMNS, unique="farsi_idiom")
    return [AuthenticFFE(r.number, r.cells["farsi_idiom"], r.cells["Meaning"]) for r in rows]


def load_fake(path: Path, filled_by_person: bool = False) -> list[FakeFFE]:
    rows = read_table(path, FAKE_COLUMNS, unique="Fake Idiom", filled_by_person=filled_by_person)
    for row in rows:
        if row.cells["Category"] not in FAKE_CATEGORIES:
            raise DataError(
                f"{path.name}: row {row.number}, column 'Category' is {row.cells['Category']!r}; "
                f"expected one of {list(FAKE_CATEGORIES)}."
            )
    return [FakeFFE(r.number, r.cells["Fake Idiom"], r.cells["Source Idiom"], r.cells["Category"]) for r in rows]


def refuse_authentic_fakes(path: Path, fakes: list[FakeFFE], authentic: list[AuthenticFFE]) -> None:
    """Raises DataError naming the first fake that is an authentic FFE (compared by `fake_key`, as the fakes' checks
    compare: spacing, half-spaces and punctuation aside): asked as a fake, knowing it would count as hallucinating."""

    authentic_row = {fake_key(item.expression): item.row for item in authentic}
    for fake in fakes:
        if (row := authentic_row.get(fake_key(fake.expression))) is not None:
            raise DataError(f"{path.name}: row {fake.row}, column 'Fake Idiom' is {fake.expression!r}, an authentic "
                            f"FFE ({AUTHENTIC_FILE} row {row}): asked as a fake, a model that knows it would be "
                            "counted as hallucinating; remove the row or replace it with a fabricated expression.")


def item_id(kind: ItemKind, row: int) -> str:
    return f"ffe-{kind.value}-{row:03d}"


def detection_samples(fakes: list[FakeFFE], authentic: list[AuthenticFFE] | None) -> list[Sample]:
    """Each expression asked under both framings; `target` is the correct Yes/No answer.

    Samples are ordered framing-major (every item under fake-q, then every item under real-q) so that
    consecutive prompts share their longest prefix.
    """
    items: list[tuple[ItemKind, int, str, dict[str, str]]] = [
        (ItemKind.FAKE, f.row, f.expression,
         {"category": f.category, "category_slug": category_slug(f.category), "source_expression": f.source_expression})
        for f in fakes
    ]
    items += [(ItemKind.REAL, a.row, a.expression, {"meaning": a.meaning}) for a in authentic or []]
    samples = []
    for framing in Framing:
        for kind, row, expression, extra in items:
            is_fake_question = framing is Framing.FAKE_Q
            says_fake_is_correct = kind is ItemKind.FAKE
            samples.append(
                Sample(
                    id=f"{item_id(kind, row)}/{framing.value}",
                    input=QUESTION_OF_FRAMING[framing].format(expression=expression),
                    target="Yes" if is_fake_question == says_fake_is_correct else "No",
                    metadata={
                        "item": item_id(kind, row),
                        "kind": kind.value,
                        "framing": framing.value,
                        "expression": expression,
                        **extra,
                    },
                )
            )
    return samples


@dataclass(frozen=True)
class DetectionData:
    dataset: MemoryDataset
    provenance: dict[str, object]
    """Dataset name, pin and the sha256 of each file used, for the log."""
    fake_set: str = "published"
    """`published` (the benchmark's 200) or `custom` (a file of the user's)."""


def load_detection_data(controls: bool, fakes_file: Path | None = None) -> DetectionData:
    """The FFE-HALLU detection dataset from the verified local copy (fetched first if missing).

    Args:
        controls: also the authentic FFEs (always the benchmark's own).
        fakes_file: a fake set of the user's in the layout of `Fake FFEs.csv` (e.g. `figeval build
            ffe-hallu-fakes-final`) instead of the published one; the log records its path and sha256 and that
            the set is custom.
    """
    source = SOURCE
    if fakes_file is None:
        paths = require(source)
        fakes = load_fake(paths[FAKE_FILE])
        used = [FAKE_FILE, AUTHENTIC_FILE] if controls else [FAKE_FILE]
        recorded: dict[str, object] = provenance(source, used)
    else:
        fakes = load_fake(fakes_file, filled_by_person=True)
        paths = require(source)
        refuse_authentic_fakes(fakes_file, fakes, load_authentic(paths[AUTHENTIC_FILE]))
        recorded = {**(provenance(source, [AUTHENTIC_FILE]) if controls else {}),
                    # data_file / data_sha256: the report's run identity (a row per file and version)
                    "data_file": str(fakes_file), "data_sha256": sha256_of(fakes_file)}
    authentic = load_authentic(paths[AUTHENTIC_FILE]) if controls else None
    name = DATASET_NAME if fakes_file is None else f"{DATASET_NAME}-custom-fakes"
    return DetectionData(MemoryDataset(detection_samples(fakes, authentic), name=name), recorded,
                         "published" if fakes_file is None else "custom")


def published_data() -> tuple[list[AuthenticFFE], list[FakeFFE], dict[str, object]]:
    """The benchmark's authentic and fake lists, verified, and their provenance (for building fresh fakes)."""
    source = SOURCE
    paths = require(source)
    return load_authentic(paths[AUTHENTIC_FILE]), load_fake(paths[FAKE_FILE]), provenance(source)


# --- Task 1: generation -------------------------------------------------------------------------------------

PARAPHRASE_COLUMNS = (
    Column("row", max_chars=EXPRESSION_CHARS),
    Column("farsi_idiom", persian=True, max_chars=EXPRESSION_CHARS),
    Column("Meaning", persian=True, max_chars=MEANING_CHARS),
    Column("paraphrase", required=False, persian=True, max_chars=MEANING_CHARS),
    Column("verified", required=False, max_chars=EXPRESSION_CHARS),
)


def authentic_dataset() -> tuple[list[AuthenticFFE], dict[str, object]]:
    """The verified authentic list and its provenance for the log."""
    source = SOURCE
    paths = require(source)
    return load_authentic(paths[AUTHENTIC_FILE]), provenance(source, [AUTHENTIC_FILE])


# Where Task 1's meanings come from (Section 3.1): the dictionary's, or paraphrases a person verified.
Meaning = Literal["human", "paraphrased"]
MEANINGS = get_args(Meaning)


def load_verified_paraphrases(path: Path, authentic_rows: Collection[int]) -> tuple[dict[int, str], int]:
    """Paraphrased meanings by authentic row, from a sheet written by `figeval build ffe-hallu-paraphrases` and
    checked by a person; rows whose `verified` cell is no or empty (not verified yet) are dropped. Returns
    (paraphrases, dropped).

    Args:
        path: The sheet.
        authentic_rows: The authentic FFEs' row numbers: each `row` cell must name one of them, once.

    Raises:
        DataError: a `row` cell that is not such a number or repeats one, or a `verified` cell that is not yes, no
            or empty (a mark such as "✓" is not taken for either), naming the row.
    """
    rows = read_table(path, PARAPHRASE_COLUMNS, filled_by_person=True)
    kept: dict[int, str] = {}
    dropped = 0
    first_seen: dict[int, int] = {}
    for row in rows:
        cell = row.cells["row"]
        number = int(cell) if cell.isascii() and cell.isdigit() else 0
        if number not in authentic_rows:
            raise DataError(
                f"{path.name}: row {row.number}, column 'row' is {cell!r}, not a row number of the authentic "
                f"FFEs ({min(authentic_rows)}-{max(authentic_rows)}); restore the value "
                "`figeval build ffe-hallu-paraphrases` wrote."
            )
        if number in first_seen:
            raise DataError(
                f"{path.name}: rows {first_seen[number]} and {row.number} both paraphrase authentic row {number}; "
                "keep one of them."
            )
        first_seen[number] = row.number
        if review_answer(path, row, "verified", "not verified yet: the row is dropped") and row.cells["paraphrase"]:
            kept[number] = row.cells["paraphrase"]
        else:
            dropped += 1
    return kept, dropped


def generation_samples(items: list[AuthenticFFE], meanings: dict[int, str] | None = None) -> list[Sample]:
    """One sample per authentic FFE: its meaning (the dictionary one, or a verified paraphrase) in, the FFE
    as the reference. With paraphrases, rows without one are left out.

    The meaning source ends the id (`ffe-gen-017/human`, `ffe-gen-017/paraphrased`): one model's two runs answer
    different questions about the same FFE, and their answers, sheets and labels must never be taken for each
    other's."""
    source = "human" if meanings is None else "paraphrased"
    samples = []
    for item in items:
        meaning = item.meaning if meanings is None else meanings.get(item.row)
        if meaning is None:
            continue
        samples.append(
            Sample(
                id=f"ffe-gen-{item.row:03d}/{source}",
                input=GENERATION_USER_PROMPT.format(meaning=meaning),
                target=item.expression,
                metadata={"meaning": meaning, "meaning_source": source, "references": [item.expression]},
            )
        )
    return samples


# --- Task 3: translation ------------------------------------------------------------------------------------

TRANSLATION_COLUMNS = (Column("English Idiom", latin=True, max_chars=EXPRESSION_CHARS),
                       Column("Farsi Idiom", persian=True, max_chars=MEANING_CHARS))
EQUIVALENT_SEPARATOR = "|"
PAIRS_HELP = (
    "ffe_translation needs -T pairs=PATH: a UTF-8 CSV with columns 'English Idiom' and 'Farsi Idiom', one "
    "English idiom or proverb per row and its Persian equivalents separated by '|'. FFE-HALLU's own pairs file "
    "('En->Fa FFE translation.csv' at the pinned commit) is damaged upstream (every Persian letter became '_'): "
    "ask the authors for an intact copy or build a file of your own."
)


@dataclass(frozen=True)
class TranslationPair:
    row: int
    english: str
    persian: tuple[str, ...]


def load_translation_pairs(path: Path | None) -> list[TranslationPair]:
    if path is None:
        raise FigevalError(PAIRS_HELP)
    # "Break the Ice" and "break the ice" are one idiom: asked twice, it would count twice.
    rows = read_table(path, TRANSLATION_COLUMNS, unique="English Idiom",
                      key=lambda text: " ".join(text.casefold().split()), filled_by_person=True)
    pairs = []
    for row in rows:
        equivalents = tuple(e.strip() for e in row.cells["Farsi Idiom"].split(EQUIVALENT_SEPARATOR) if e.strip())
        pairs.append(TranslationPair(row.number, row.cells["English Idiom"], equivalents))
    return pairs


def translation_samples(pairs: list[TranslationPair]) -> list[Sample]:
    return [
        Sample(
            id=f"ffe-tr-{pair.row:03d}",
            input=TRANSLATION_USER_PROMPT.format(english=pair.english),
            target=list(pair.persian),
            metadata={"english": pair.english, "references": list(pair.persian)},
        )
        for pair in pairs
    ]


def _check_files(paths: dict[str, Path]) -> None:
    load_authentic(paths["Authentic FFEs.csv"])
    load_fake(paths["Fake FFEs.csv"])


register_check("ffe-hallu", _check_files)
