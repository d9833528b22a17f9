"""Persian allusions data: PersPoems (couplets with poet, themes, entities, allusion, description), the
LLM-Generated passages (one allusion each), the knowledge list of distinct allusions, and multiple-choice options.

The upstream repository (https://github.com/MelikaNobakhtian/Allusion) could not be reached where this was
written: its file names and columns are assumptions kept in one table, `UPSTREAM_COLUMN`; a file in another
layout is refused with the columns found and expected.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Literal, get_args

import random
import re
from dataclasses import dataclass
from pathlib import Path

from inspect_ai.dataset import Sample

from figeval.benchmarks.persian_allusions.prompts import KNOWLEDGE_PROMPT, MC_PROMPT, OPEN_PROMPT
from figeval.benchmarks.persian_allusions.titles import (
    allusion_key,
    stories_apart,
    story_hint,
    title_merges,
    unnamed_story_of_one_figure,
)
from figeval.benchmarks.persian_allusions.source import SOURCE
from figeval.data.store import provenance, register_check, require
from figeval.data.table import Column, read_table
from figeval.errors import DataError, FigevalError
from figeval.text import expression_key, normalize_persian

DATASET_NAME = SOURCE.name
POEMS_FILE = "PersPoems.csv"
GENERATED_FILE = "LLM-Generated.csv"

# (file, our field) -> the upstream column (the one place to edit when the real headers are known).
UPSTREAM_COLUMN = {
    (POEMS_FILE, "poet"): "poet",
    (POEMS_FILE, "themes"): "themes",
    (POEMS_FILE, "entities"): "entities",
    (POEMS_FILE, "text"): "couplet",
    (POEMS_FILE, "allusion"): "allusion",
    (POEMS_FILE, "description"): "description",
    (GENERATED_FILE, "text"): "text",
    (GENERATED_FILE, "allusion"): "allusion",
}

# The six themes (Section 2). Distractors (Section 3): religious and Quranic allusions get distractors of their
# own theme; the other four share one pool.
THEMES = ("religious", "quranic", "mythical-historical", "romantic", "mystical", "other")  # Table 2's order
OWN_POOL_THEMES = ("religious", "quranic")
_THEME_SEPARATORS = re.compile(r"\s*[,،|;]\s*")
# The themes as a Persian file labels them (Table 1 prints "مذهبی (religious)"); compared after Persian
# normalization, with ZWNJ, hyphens and spaces alike.
PERSIAN_THEMES = {
    "مذهبی": "religious", "دینی": "religious",
    "قرآنی": "quranic",
    "اساطیری-تاریخی": "mythical-historical", "اسطوره‌ای-تاریخی": "mythical-historical",
    "تاریخی-اساطیری": "mythical-historical", "اساطیری": "mythical-historical", "تاریخی": "mythical-historical",
    "عرفانی": "mystical",
    "عاشقانه": "romantic", "غنایی": "romantic",
    "سایر": "other", "دیگر": "other",
}


def _theme_key(label: str) -> str:
    return re.sub(r"[\s\u200c_-]+", "-", normalize_persian(label).strip().lower())


_THEME_OF = {_theme_key(label): theme for label, theme in PERSIAN_THEMES.items()} | {_theme_key(t): t for t in THEMES}


def theme_of(label: str) -> str | None:
    """The theme a label names, in English ("Mythical-Historical", "mythical historical") or Persian ("مذهبی")."""
    return _THEME_OF.get(_theme_key(label))
N_OPTIONS = 5
DatasetName = Literal["perspoems", "generated"]
DATASETS = get_args(DatasetName)


@dataclass(frozen=True)
class AllusionText:
    id: str
    text: str
    allusion: str
    description: str
    themes: tuple[str, ...]
    poet: str = ""


@dataclass(frozen=True)
class Allusion:
    title: str
    description: str
    theme: str
    """The first theme of the first couplet it appears in: what its distractors are drawn by."""


def _columns(file: str, persian: set[str], optional: Collection[str] = frozenset()) -> tuple[Column, ...]:
    return tuple(
        Column(column, required=field not in optional, persian=field in persian)
        for (owner, field), column in UPSTREAM_COLUMN.items()
        if owner == file
    )


def _cells(file: str, row) -> dict[str, str]:
    return {field: row.cells[column] for (owner, field), column in UPSTREAM_COLUMN.items() if owner == file}


def load_poems(path: Path) -> list[AllusionText]:
    columns = _columns(POEMS_FILE, persian={"text", "allusion", "description"}, optional={"entities", "poet"})
    poems = []
    first_row: dict[tuple[str, str], int] = {}
    for row in read_table(path, columns):
        cells = _cells(POEMS_FILE, row)
        # The same couplet for the same allusion would be asked and counted twice (one couplet may allude to two
        # stories, in two rows).
        key = (expression_key(cells["text"]), allusion_key(cells["allusion"]))
        if key in first_row:
            raise DataError(f"{path.name}: rows {first_row[key]} and {row.number} are the same couplet for the same "
                            "allusion; remove one, so that it is not counted twice.")
        first_row[key] = row.number
        labels = [t for t in _THEME_SEPARATORS.split(cells["themes"]) if t.strip()]
        unknown = [label for label in labels if theme_of(label) is None]
        if unknown or not labels:
            raise DataError(
                f"{path.name}: row {row.number}, column '{UPSTREAM_COLUMN[(POEMS_FILE, 'themes')]}' has "
                f"{cells['themes']!r}; themes are among {list(THEMES)} or their Persian labels "
                f"{list(PERSIAN_THEMES)}, separated by commas."
            )
        # "mystical, Mystical" or "مذهبی, religious" names one theme once (every label is a theme: checked above)
        themes = tuple(dict.fromkeys(theme for theme in map(theme_of, labels) if theme is not None))
        poems.append(AllusionText(f"perspoems-{row.number:03d}", cells["text"], cells["allusion"],
                                  cells["description"], themes, cells["poet"]))
    return poems


def load_generated(path: Path, allusions: dict[str, Allusion]) -> list[AllusionText]:
    """Generated passages; each must allude to an allusion of the knowledge list (its description and theme
    come from there)."""
    texts = []
    for row in read_table(path, _columns(GENERATED_FILE, persian={"text", "allusion"})):
        cells = _cells(GENERATED_FILE, row)
        known = allusions.get(allusion_key(cells["allusion"]))
        if known is None:
            raise DataError(
                f"{path.name}: row {row.number} alludes to {cells['allusion']!r}, which is not an allusion of "
                f"{POEMS_FILE}; generated passages are built from the knowledge list."
                f"{story_hint(cells['allusion'], [a.title for a in allusions.values()], POEMS_FILE)}"
            )
        texts.append(AllusionText(f"generated-{row.number:03d}", cells["text"], known.title, known.description,
                                  (known.theme,)))
    return texts


def knowledge_list(poems: list[AllusionText]) -> dict[str, Allusion]:
    """Distinct allusions of PersPoems (127 in the paper), in order of first appearance; variant spellings of one
    allusion (`allusion_key`) are one entry, under their first spelling, so that a multiple-choice question
    never offers the answer twice; two stories of one figure are two entries."""
    allusions: dict[str, Allusion] = {}
    for poem in poems:
        allusions.setdefault(allusion_key(poem.allusion), Allusion(poem.allusion, poem.description, poem.themes[0]))
    return allusions


def distractor_pool(answer: Allusion, allusions: dict[str, Allusion]) -> list[Allusion]:
    """Religious and Quranic allusions: others of the same theme; the rest: others of the four related themes.
    Another story of the answer's figure is a fair distractor when both name their story ("سلیمان (مور)" for
    "سلیمان (انگشتری)"); the figure's bare name is not (it would be a right answer too)."""
    themes = {answer.theme} if answer.theme in OWN_POOL_THEMES else set(THEMES) - set(OWN_POOL_THEMES)
    key = allusion_key(answer.title)
    return [a for k, a in allusions.items()
            if k != key and a.theme in themes and not unnamed_story_of_one_figure(answer.title, a.title)]


def mc_options(answer: Allusion, allusions: dict[str, Allusion], position: int, rng: random.Random) -> list[str]:
    """Five option titles with the answer at `position` (1-5) and four distinct distractors from its pool.

    Raises:
        DataError: the pool has fewer than four other allusions (the paper's rule cannot be followed).
    """
    pool = distractor_pool(answer, allusions)
    if len(pool) < N_OPTIONS - 1:
        raise DataError(
            f"only {len(pool)} other allusions share the distractor pool of {answer.title!r} (theme "
            f"{answer.theme}); multiple choice needs {N_OPTIONS - 1}."
        )
    options = [a.title for a in rng.sample(pool, N_OPTIONS - 1)]
    options.insert(position - 1, answer.title)
    return options


def answer_positions(n: int, seed: int) -> list[int]:
    """Correct-option positions for n items: each of 1-5 used n/5 times (+-1), in a seeded order."""
    positions = [i % N_OPTIONS + 1 for i in range(n)]
    random.Random(f"positions:{seed}").shuffle(positions)
    return positions


def theme_slug(theme: str) -> str:
    """Metric-name form of a theme: "mythical-historical" -> "mythical_historical"."""
    return re.sub(r"[^a-z0-9]+", "_", theme).strip("_")


def _metadata(item: AllusionText, **extra: object) -> dict[str, object]:
    return {"text_id": item.id, "allusion": item.allusion, "description": item.description, "themes": list(item.themes),
            "theme_slugs": [theme_slug(theme) for theme in item.themes], "text": item.text,
            "references": [item.allusion], **extra}


def sample_id(item: AllusionText, task: str) -> str:
    """A text's sample id in one task ("perspoems-007/open"): the MC and open tasks ask the same texts, and one
    replay file or one annotation sheet of a model's answers must tell the two apart (the text is `text_id`)."""
    return f"{item.id}/{task}"


def mc_samples(items: list[AllusionText], allusions: dict[str, Allusion], prompt_lang: str, seed: int) -> list[Sample]:
    samples = []
    for item, position in zip(items, answer_positions(len(items), seed)):
        answer = allusions[allusion_key(item.allusion)]
        options = mc_options(answer, allusions, position, random.Random(f"{seed}:{item.id}"))
        listed = "\n".join(f"{i}. {title}" for i, title in enumerate(options, start=1))
        samples.append(Sample(
            id=sample_id(item, "mc"),
            input=MC_PROMPT[prompt_lang].format(text=item.text, options=listed),
            target=str(position),
            metadata=_metadata(item, options=options, answer_position=position),
        ))
    return samples


def open_samples(items: list[AllusionText], prompt_lang: str) -> list[Sample]:
    return [Sample(id=sample_id(item, "open"), input=OPEN_PROMPT[prompt_lang].format(text=item.text),
                   target=item.allusion, metadata=_metadata(item, meaning=item.text)) for item in items]


def knowledge_samples(allusions: dict[str, Allusion], prompt_lang: str) -> list[Sample]:
    return [
        Sample(
            id=f"allusion-{number:03d}",
            input=KNOWLEDGE_PROMPT[prompt_lang].format(allusion=allusion.title),
            target=allusion.title,
            # annotators see the description as the reference of a knowledge answer
            metadata={"allusion": allusion.title, "description": allusion.description, "themes": [allusion.theme],
                      "references": [allusion.description]},
        )
        for number, allusion in enumerate(allusions.values(), start=1)
    ]


@dataclass(frozen=True)
class AllusionData:
    poems: list[AllusionText]
    generated: list[AllusionText] | None
    allusions: dict[str, Allusion]
    provenance: dict[str, object]
    generated_error: str | None = None
    """Why the LLM-Generated file cannot be used (an allusion outside the knowledge list): only the tasks that
    use that file fail, with this line."""


def load_allusion_data(prompt_lang: str) -> AllusionData:
    """PersPoems, the knowledge list and upstream's generated passages, from the verified local copy (fetched
    first if missing)."""
    if prompt_lang not in KNOWLEDGE_PROMPT:
        raise FigevalError(f"prompt_lang must be one of {list(KNOWLEDGE_PROMPT)}, not {prompt_lang!r}.")
    source = SOURCE
    paths = require(source)
    poems = load_poems(paths[POEMS_FILE])
    allusions = knowledge_list(poems)
    # what the knowledge list's count (the paper's 127) is made of, for a reader to check against the paper
    recorded = provenance(source) | {"knowledge_entries": len(allusions),
                                     "titles_as_written": len({poem.allusion.strip() for poem in poems}),
                                     "merged_titles": title_merges([poem.allusion for poem in poems]),
                                     "stories_apart": stories_apart([a.title for a in allusions.values()])}
    try:
        return AllusionData(poems, load_generated(paths[GENERATED_FILE], allusions), allusions, recorded)
    except DataError as error:
        return AllusionData(poems, None, allusions, recorded, generated_error=str(error))


def texts_of(data: AllusionData, dataset: str) -> list[AllusionText]:
    if dataset not in DATASETS:
        raise FigevalError(f"dataset must be one of {list(DATASETS)}, not {dataset!r}.")
    if dataset == "generated" and data.generated_error:
        raise DataError(data.generated_error)
    return data.poems if dataset == "perspoems" else data.generated or []


def _check_files(paths: dict[str, Path]) -> None:
    """Both files read in their layout; a generated passage whose allusion PersPoems lacks is left to the tasks
    that use the file (it breaks only those)."""
    load_poems(paths[POEMS_FILE])
    list(read_table(paths[GENERATED_FILE], _columns(GENERATED_FILE, persian={"text", "allusion"})))


register_check("persian-allusions", _check_files)
