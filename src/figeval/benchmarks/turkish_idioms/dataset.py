"""Turkish idiom benchmark data: 200 idioms, each with a figurative sentence, its literal paraphrase (entailed),
a similar sentence (not entailed), and a sentence using the idiom's words literally (missing for 3 idioms).

The upstream repository (https://github.com/coltekin/turkish-idioms) could not be reached from where this was
written, so its exact layout is an assumption kept in one table, `UPSTREAM_COLUMN`: change the right-hand names
there when the real header is known. A file that does not match gets one error listing the columns found and
the columns expected.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from inspect_ai.dataset import Sample

from figeval.benchmarks.turkish_idioms.prompts import DETECTION_PROMPT, ENTAILMENT_PROMPT
from figeval.benchmarks.turkish_idioms.source import SOURCE
from figeval.data.store import provenance, register_check, require
from figeval.data.table import Column, read_table
from figeval.errors import DataError, FigevalError
from figeval.text import turkish_lower

DATASET_NAME = SOURCE.name
DATA_FILE = "idioms.tsv"

# Our field -> the upstream column holding it (the one place to edit when the real header is known).
UPSTREAM_COLUMN = {
    "idiom": "idiom",
    "description": "description",
    "figurative": "figurative",
    "paraphrase": "paraphrase",
    "similar": "similar",
    "literal": "literal",
    "frequency": "frequency",
}
# Every Turkish text column is checked for a damaged re-encoding (mojibake, letters turned into '?').
COLUMNS = (
    Column(UPSTREAM_COLUMN["idiom"], latin=True),
    Column(UPSTREAM_COLUMN["description"], required=False, latin=True),
    Column(UPSTREAM_COLUMN["figurative"], latin=True),
    Column(UPSTREAM_COLUMN["paraphrase"], latin=True),
    Column(UPSTREAM_COLUMN["similar"], latin=True),
    # Empty for the 3 idioms the paper found no literal use of.
    Column(UPSTREAM_COLUMN["literal"], required=False, latin=True),
    # A corpus frequency per idiom, when the file carries one.
    Column(UPSTREAM_COLUMN["frequency"], required=False, optional=True),
)

PROMPT_LANGUAGES = tuple(DETECTION_PROMPT)


class Label(str, Enum):
    YES = "yes"
    NO = "no"
    ENTAILMENT = "entailment"
    CONTRADICTION = "contradiction"


@dataclass(frozen=True)
class Idiom:
    row: int
    idiom: str
    figurative: str
    paraphrase: str
    similar: str
    literal: str
    frequency: float | None
    """Corpus frequency (the paper's are per million sentences of the Leipzig corpus); 0: unseen."""


def idiom_key(text: str) -> str:
    """Two spellings of one idiom form compare equal: Turkish casing (İ/i, I/ı), spaces, end punctuation."""
    return re.sub(r"\s+", " ", turkish_lower(text)).strip(" .!?")


def load_idioms(path: Path) -> list[Idiom]:
    rows = read_table(path, COLUMNS, unique=UPSTREAM_COLUMN["idiom"], key=idiom_key)
    idioms = []
    for row in rows:
        cells = {field: row.cells[column] for field, column in UPSTREAM_COLUMN.items()}
        frequency = None
        if cells["frequency"]:
            try:
                frequency = float(cells["frequency"])
            except ValueError:
                frequency = -1.0
            if not 0 <= frequency < math.inf:  # also refuses "nan"
                raise DataError(
                    f"{path.name}: row {row.number}, column '{UPSTREAM_COLUMN['frequency']}' is "
                    f"{cells['frequency']!r}; a corpus frequency is a number such as 0, 12 or 0.35 (0 for unseen)."
                )
        idioms.append(
            Idiom(row.number, cells["idiom"], cells["figurative"], cells["paraphrase"], cells["similar"],
                  cells["literal"], frequency)
        )
    return idioms


# Frequency bands for the per-band accuracy. Section 4: "For the idiom instances that were not found in the
# Leipzig corpus, performances of large models also drop to the level of a random baseline": unseen vs seen is
# the paper's analysis and the default; `fine` splits the seen ones further (ours). Upper bounds are exclusive.
FREQUENCY_BANDS = {
    "seen": (("unseen", 0, 0), ("seen", 0, None)),
    "fine": (("unseen", 0, 0), ("lt_1", 0, 1), ("1_9", 1, 10), ("10_99", 10, 100), ("100_999", 100, 1000),
             ("1000_plus", 1000, None)),
}


def frequency_band(frequency: float | None, bands: str = "seen") -> str | None:
    """The band of a frequency: 0 is `unseen`; a band (low, high) holds low < f < high, or f >= high=None."""
    if bands not in FREQUENCY_BANDS:
        raise FigevalError(f"frequency_bands must be one of {list(FREQUENCY_BANDS)}, not {bands!r}.")
    if frequency is None:
        return None
    if frequency == 0:
        return "unseen"
    return next(name for name, low, high in FREQUENCY_BANDS[bands][1:]
                if frequency >= max(low, 0) and (high is None or frequency < high))


def _sample(idiom: Idiom, variant: str, prompt: str, target: Label, question: str, bands: str) -> Sample:
    return Sample(
        id=f"tr-idiom-{idiom.row:03d}/{variant}",
        input=prompt,
        target=target.value,
        metadata={
            "item": f"tr-idiom-{idiom.row:03d}",
            "idiom": idiom.idiom,
            "variant": variant,
            "frequency": idiom.frequency,
            "frequency_band": frequency_band(idiom.frequency, bands),
            "question": question,
        },
    )


def detection_samples(idioms: list[Idiom], prompt_lang: str, balanced: bool = False,
                      bands: str = "seen") -> tuple[list[Sample], int]:
    """The figurative sentence (expects yes) and the literal-use one (expects no) of each idiom: every sentence, as
    Section 4's accuracies imply (each is k/397 cut to three decimals: the corpus's 200 figurative and 197
    literal sentences); with `balanced=True` the idioms without a literal sentence are left out whole.
    Returns (samples, idioms without a literal sentence)."""
    template = DETECTION_PROMPT[prompt_lang]
    samples, without_literal = [], 0
    for idiom in idioms:
        if not idiom.literal:
            without_literal += 1
            if balanced:
                continue
        for variant, sentence, target in (("figurative", idiom.figurative, Label.YES),
                                          ("literal", idiom.literal, Label.NO)):
            if sentence:
                samples.append(_sample(idiom, variant, template.format(sentence=sentence), target, sentence, bands))
    return samples, without_literal


def entailment_samples(idioms: list[Idiom], prompt_lang: str, bands: str = "seen") -> list[Sample]:
    """Premise: the figurative sentence; hypothesis: its literal paraphrase (entailment) or the similar
    sentence (contradiction)."""
    template = ENTAILMENT_PROMPT[prompt_lang]
    samples = []
    for idiom in idioms:
        for variant, hypothesis, target in (("paraphrase", idiom.paraphrase, Label.ENTAILMENT),
                                            ("similar", idiom.similar, Label.CONTRADICTION)):
            prompt = template.format(premise=idiom.figurative, hypothesis=hypothesis)
            samples.append(_sample(idiom, variant, prompt, target, f"{idiom.figurative}\n=> {hypothesis}", bands))
    return samples


def load_idiom_data(prompt_lang: str) -> tuple[list[Idiom], dict[str, object]]:
    """The idioms from the verified local copy (fetched first if missing) and their provenance for the log."""
    if prompt_lang not in PROMPT_LANGUAGES:
        raise FigevalError(f"prompt_lang must be one of {list(PROMPT_LANGUAGES)}, not {prompt_lang!r}.")
    source = SOURCE
    paths = require(source)
    return load_idioms(paths[DATA_FILE]), provenance(source)


register_check("turkish-idioms", lambda paths: load_idioms(paths["idioms.tsv"]))
