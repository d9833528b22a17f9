"""What a fresh fake-FFE build makes (paper Section 3.4, Appendix B 2.1): the planned candidates of each of the
four categories, in sheet order, and their ids in the review sheet. Pure: the same sources and seed give the same
plan, and a larger plan extends a smaller one, so a grown build keeps every candidate it had."""

from __future__ import annotations

import random
from dataclasses import dataclass

from figeval.benchmarks.ffe_hallu.dataset import FAKE_CATEGORIES, category_slug
from figeval.benchmarks.ffe_hallu.fake_keys import fake_key
from figeval.benchmarks.ffe_hallu.fakes import (
    CULTURAL,
    DERIVED,
    MIMICRY,
    SEMANTIC_INVERSION,
    WORD_PERTURBATION,
    Inversion,
    invert,
)
from figeval.benchmarks.ffe_hallu.prompts import (
    CULTURAL_ELEMENTS,
    FAKE_CULTURAL_PROMPT,
    FAKE_INVERSION_PROMPT,
    FAKE_MIMICRY_PROMPT,
    FAKE_PERTURBATION_PROMPT,
    MIMICRY_CONSTRUCTIONS,
    MIMICRY_THEMES,
)
from figeval.resumable import Report


@dataclass(frozen=True)
class PlannedFake:
    key: str
    """Its record's key in candidates.jsonl: the category and what it is made from (a source, a prompt's fill)."""
    category: str
    source: str = ""
    prompt: str = ""
    inversion: Inversion | None = None
    """Made by a rule, with no model call."""


def _seeded(items: list, seed: int, salt: str) -> list:
    shuffled = list(items)
    random.Random(f"{seed}|{salt}").shuffle(shuffled)
    return shuffled


def plan_fakes(sources: list[str], per_category: int, seed: int, report: Report = lambda _: None) -> list[PlannedFake]:
    """What to build, `per_category` per category, in sheet order. The same seed gives the same plan, and a
    larger `per_category` extends it (a grown build keeps every candidate it had).

    Args:
        sources: authentic FFEs the derived categories start from (duplicates after normalization dropped).
        per_category: how many candidates per category.
        seed: orders the sources and the synthetic prompts' fills.
    """
    unique = list({fake_key(source): source for source in reversed(sources)}.values())[::-1]
    plan: list[PlannedFake] = []
    perturbed = _seeded(unique, seed, category_slug(WORD_PERTURBATION))[:per_category]
    plan += [PlannedFake(f"{category_slug(WORD_PERTURBATION)}|{s}", WORD_PERTURBATION, s,
                         FAKE_PERTURBATION_PROMPT.format(source=s)) for s in perturbed]
    # Inversions a rule can make come first (no model call, and the paper's own shape); a model does the rest.
    shuffled = [(s, invert(s)) for s in _seeded(unique, seed, category_slug(SEMANTIC_INVERSION))]
    ordered = [pair for pair in shuffled if pair[1]] + [pair for pair in shuffled if not pair[1]]
    plan += [PlannedFake(f"{category_slug(SEMANTIC_INVERSION)}|{s}", SEMANTIC_INVERSION, s,
                         "" if inversion else FAKE_INVERSION_PROMPT.format(source=s), inversion)
             for s, inversion in ordered[:per_category]]
    # Synthetic prompts: every pair of the paper's construction and a theme of ours, or of the paper's kind of
    # element and an instance of ours, interleaved so that the first N cover every construction / kind.
    themes = _seeded(list(MIMICRY_THEMES), seed, "themes")
    pairs = [(MIMICRY_CONSTRUCTIONS[i % len(MIMICRY_CONSTRUCTIONS)], themes[i % len(themes)])
             for i in range(len(MIMICRY_CONSTRUCTIONS) * len(themes))]  # all distinct: 3 and 40 are coprime
    plan += [PlannedFake(f"{category_slug(MIMICRY)}|{construction}|{theme}", MIMICRY,
                         prompt=FAKE_MIMICRY_PROMPT.format(construction=construction, theme=theme))
             for construction, theme in pairs[:per_category]]
    kinds = list(CULTURAL_ELEMENTS)
    elements = {kind: _seeded(list(CULTURAL_ELEMENTS[kind]), seed, kind) for kind in kinds}
    fills = [(kinds[i % len(kinds)], elements[kinds[i % len(kinds)]][i // len(kinds)])
             for i in range(len(kinds) * min(len(e) for e in elements.values()))]
    plan += [PlannedFake(f"{category_slug(CULTURAL)}|{kind}|{element}", CULTURAL,
                         prompt=FAKE_CULTURAL_PROMPT.format(element_kind=kind, element=element))
             for kind, element in fills[:per_category]]
    for category in FAKE_CATEGORIES:
        made = sum(item.category == category for item in plan)
        if made < per_category:
            limit = "authentic FFEs to start from (add more with --authentic-extra)" if category in DERIVED else \
                "distinct prompts"
            report(f"{category}: {made} candidates, not {per_category}: there are only {made} {limit}")
    return plan


def sheet_ids(plan: list[PlannedFake]) -> dict[str, str]:
    """Each planned candidate's id in the review sheet, by its key: its category's slug and its number there
    ("word_perturbation-001")."""
    counters: dict[str, int] = {}
    ids = {}
    for item in plan:
        counters[item.category] = counters.get(item.category, 0) + 1
        ids[item.key] = f"{category_slug(item.category)}-{counters[item.category]:03d}"
    return ids
