"""FFE-HALLU's results tables (Tables 3-5, Figure 1 as a table) and its leaderboard headlines, for `figeval report`.
Tables 3 and 5 are human labels in the paper; a run's rows are its judge's, and with `figeval report --human` the
people's labels of the same answers are rows beside them (Table 6 is how far the two agree)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from figeval.benchmarks.ffe_hallu.dataset import (FAKE_CATEGORIES, MEANINGS, PAPER_CATEGORY_NAMES, ItemKind,
                                                  category_slug)
from figeval.results.rows import shared_settings, shown_settings
from figeval.results.runs import RunSummary
from figeval.table_model import (
    Cell,
    Column,
    ColumnHead,
    Row,
    Table,
    TableSpec,
    judge_unreadable_column,
    unparsed_column,
    unread_note,
)
from figeval.results.tables import few_items_note, preferred, preferred_text, proportion_interval, subset_notes
from figeval.stats import bootstrap_interval, bootstrap_trusted

# How the report names the paper (the benchmark's title).
PAPER = "FFE-HALLU"


def _judged(task: str, prefix: str = "", **where: str) -> tuple[Column, ...]:
    """The three label shares of Tables 3 and 5: people's labels in the paper (Section 3.5), a run's judge's."""
    head, key = (f"{prefix} ", f"{prefix}/") if prefix else ("", "")
    return (Column(f"{key}correct", f"{head}Correct(%)", task, "correct_rate", where, "higher", human_label="correct"),
            Column(f"{key}incorrect", f"{head}Incorrect(%)", task, "incorrect_rate", where, human_label="incorrect"),
            Column(f"{key}hallucinated", f"{head}Hallucination(%)", task, "hallucinated_rate", where, "lower",
                   human_label="hallucinated"))


# Tasks 1 and 3 count an output with no Persian expression as hallucinated: it "does not exist as a Persian FFE"
# (Section 3.3; Section 3.1: a literal phrase or a fabricated expression is hallucinated).
_JUDGED_UNREAD = unread_note("Unparsed(%), Judge unreadable(%)", "counted as hallucinated (an output with no Persian "
                             "expression is not an existing FFE, Sections 3.1 and 3.3)", judged=True)

TABLE_3 = TableSpec(
    "ffe-hallu/table-3", PAPER, "Table 3", "Task 1, FFE generation from meaning", "percent",
    tuple(column for meaning in MEANINGS for column in (
        *_judged("ffe_generation", meaning, meaning=meaning),
        unparsed_column(f"{meaning}/unparsed", f"{meaning} Unparsed(%)", "ffe_generation", {"meaning": meaning}),
        judge_unreadable_column(f"{meaning}/judge_unreadable", f"{meaning} Judge unreadable(%)", "ffe_generation",
                                {"meaning": meaning}))),
    ("judge", "judge_prompt"),
    notes=(_JUDGED_UNREAD,),
)

# Section 4: a response is correct only if it identifies the fake as fake, "otherwise hallucinated".
_DETECTION_UNREAD = unread_note("Unparsed(%) (of the fakes' answers) and Real FFEs rejected(%)",
                                "counted as accepting the fake (Section 4: correct only if the fake is identified as "
                                "fake), in the rates and in Agreement alike (the two labels Section 3.2 gives a "
                                "response, compared across framings); Real FFEs rejected: the authentic controls "
                                "(-T controls) called fake, an unparsed answer counted as a rejection")

TABLE_4 = TableSpec(
    "ffe-hallu/table-4", PAPER, "Table 4", "Task 2, fake FFE detection: hallucination rates and agreement",
    "percent",
    (Column("fake_q", "Prompt-Fake Halluc.(%)", "ffe_detection", "halluc_rate_fake_q", better="lower"),
     Column("real_q", "Prompt-Real Halluc.(%)", "ffe_detection", "halluc_rate_real_q", better="lower"),
     Column("avg", "Avg(%)", "ffe_detection", "halluc_rate_avg", better="lower"),
     Column("agreement", "Agreement(%)", "ffe_detection", "agreement", better="higher"),
     unparsed_column("unparsed", "Unparsed(%)", "ffe_detection"),
     Column("false_rejection", "Real FFEs rejected(%)", "ffe_detection", "false_rejection_rate", better="lower",
            ours=True)),
    (),
    notes=(_DETECTION_UNREAD,),
)

FIGURE_1 = TableSpec(
    "ffe-hallu/figure-1", PAPER, "Figure 1", "Task 2, detection accuracy (1 - hallucination rate) by category and "
    "prompt", "percent",
    (*(Column(f"{framing}/{category_slug(category)}", f"{label} {PAPER_CATEGORY_NAMES[category]}", "ffe_detection",
              f"halluc_rate_{framing}/{category_slug(category)}", better="higher", complement=True)
       for framing, label in (("fake_q", "Is it fake?"), ("real_q", "Is it real?")) for category in FAKE_CATEGORIES),
     unparsed_column("unparsed", "Unparsed(%)", "ffe_detection")),
    (),
    notes=(unread_note("Unparsed(%) (of the fakes' answers, all categories and both framings)",
                       "counted as accepting the fake, so as inaccurate (Section 4)"),),
)

TABLE_5 = TableSpec(
    "ffe-hallu/table-5", PAPER, "Table 5", "Task 3, FFE to FFE translation", "percent",
    (*_judged("ffe_translation"), unparsed_column("unparsed", "Unparsed(%)", "ffe_translation"),
     judge_unreadable_column("judge_unreadable", "Judge unreadable(%)", "ffe_translation")),
    ("judge", "judge_prompt"),
    notes=(_JUDGED_UNREAD,),
)


# The headline of each task (the paper's lead number) for the leaderboard.
HEADLINES = (
    Column("ffe_generation", "FFE gen. correct", "ffe_generation", "correct_rate", {"meaning": "human"}, "higher"),
    Column("ffe_detection", "FFE detect. halluc. avg", "ffe_detection", "halluc_rate_avg", better="lower"),
    Column("ffe_translation", "FFE transl. correct", "ffe_translation", "correct_rate", better="higher"),
)


# --- The contamination check: one model's detection on the published fakes and on a fresh set (ours) ----------

CONTAMINATION_KEY = "ffe-hallu/contamination"
RESAMPLES = 2000
_ALL = "all categories"


Answer = tuple[float, float]
"""One framing's answer to a fake: (accepted it as real, was unparsed), each 0 or 1."""


def _answers_by_item(log_path: str) -> dict[str, tuple[str, list[Answer]]]:
    """Per fake item: its category and its answers, one per framing: whether each accepted the fake as real
    (Table 4's hallucination; an unparsed answer counts as accepting, Section 4) and whether it was unparsed.
    Reads the log's reduced scores (one per sample, over epochs)."""
    from inspect_ai.log import read_eval_log

    log = read_eval_log(log_path)
    # keyed as `scores` is: a reduced score's sample_id may be None (then no metadata)
    metadata: dict[str | int | None, dict[str, Any]] = {sample.id: sample.metadata for sample in log.samples or []}
    reduced = next((r.samples for r in log.reductions or [] if r.scorer == "detection_scorer"), None)
    scores = ({s.sample_id: s.value for s in reduced} if reduced is not None else
              {sample.id: sample.scores["detection_scorer"].value for sample in log.samples or []
               if sample.scores and "detection_scorer" in sample.scores})
    items: dict[str, tuple[str, list[Answer]]] = {}
    for sample_id, value in scores.items():
        info = metadata.get(sample_id) or {}
        if info.get("kind") != ItemKind.FAKE.value or not isinstance(value, dict):
            continue
        unparsed = float(value.get("unparsed", 0) or 0)
        accepted = float(value.get("real", 0) or unparsed)
        items.setdefault(info["item"], (info["category"], []))[1].append((accepted, unparsed))
    return items


def _item_rates(items: dict[str, tuple[str, list[Answer]]], category: str) -> list[float]:
    return [sum(accepted for accepted, _ in answers) / len(answers) for cat, answers in items.values()
            if category in (_ALL, cat)]


def _unparsed_cell(items: dict[str, tuple[str, list[Answer]]], category: str, log: str) -> Cell | None:
    """The share of the category's answers that were unparsed (each counted as accepting the fake), over its
    answers (both framings), with the Wilson interval."""
    unparsed = [flag for cat, answers in items.values() if category in (_ALL, cat) for _, flag in answers]
    if not unparsed:
        return None
    share = sum(unparsed) / len(unparsed)
    return Cell(share, *proportion_interval(share, len(unparsed)), len(unparsed), log)


def _rate_cell(values: list[float], log: str) -> Cell | None:
    """The mean of the items' rates with its bootstrap interval over items (none over too few items: the mean of
    an item's two answers is no share a Wilson interval fits)."""
    if not values:
        return None
    if not bootstrap_trusted(len(values)):
        return Cell(sum(values) / len(values), n=len(values), log=log)
    interval = bootstrap_interval(lambda idx: sum(values[i] for i in idx) / len(idx), len(values), resamples=RESAMPLES)
    return Cell(interval.estimate, interval.low, interval.high, len(values), log)


def _difference_cell(published: list[float], fresh: list[float]) -> Cell | None:
    """Fresh minus published, with a percentile bootstrap interval resampling each set's items independently (none
    when either set has too few items for one; its n is the smaller set's)."""
    if not published or not fresh:
        return None
    if not bootstrap_trusted(min(len(published), len(fresh))):
        return Cell(sum(fresh) / len(fresh) - sum(published) / len(published), n=min(len(published), len(fresh)))
    rng = np.random.default_rng(0)
    a, b = np.array(published), np.array(fresh)
    draws = [b[rng.integers(0, len(b), len(b))].mean() - a[rng.integers(0, len(a), len(a))].mean()
             for _ in range(RESAMPLES)]
    low, high = np.quantile(draws, [0.025, 0.975])
    return Cell(float(b.mean() - a.mean()), float(low), float(high))


_PUBLISHED, _FRESH = "Published fakes(%)", "Fresh fakes(%)"
_FAKES = "fakes"  # ffe_detection's parameter: the fake set of the user's a run asked


def _preferred(runs: Sequence[RunSummary], key: Callable[[RunSummary], Hashable]) -> dict[Hashable, Choice]:
    """Per key, the run used: a complete run over any subset, then the newest (`preference`, as the papers' tables
    choose), with the runs that competed for it."""
    found: dict[Hashable, list[RunSummary]] = {}
    for run in runs:
        found.setdefault(key(run), []).append(run)
    return {k: Choice(preferred(candidates), candidates) for k, candidates in found.items()}


@dataclass(frozen=True)
class Choice:
    run: RunSummary
    candidates: list[RunSummary]

    def note(self, header: str) -> str | None:
        """Where several runs competed, which one the column uses."""
        if len(self.candidates) < 2:
            return None
        return (f"{self.run.model} {header}: {len(self.candidates)} runs; the {preferred_text(self.candidates)} is "
                f"used ({self.run.log}).")


def contamination_table(runs: Sequence[RunSummary]) -> Table | None:
    """Each model's `ffe_detection` on the published fakes beside the same model and settings on a fake set of
    the user's (`-T fakes=FILE`, a run whose identity carries `fakes`), per category: hallucination rate averaged
    over both framings (Table 4's Avg), each with a 95% bootstrap interval over items, and their difference, and
    the share of each set's answers that were unparsed. A model that does clearly better on the published fakes
    than on fresh ones of the same categories may have seen the published set in training (FFE-HALLU's data is
    public). Of several runs of one set, a complete run is used over a subset run, whatever their times (a subset
    asked other fakes: its rate is not the set's), and a subset used for want of a complete run is noted. None
    when no run pairs up."""
    detection = [run for run in runs if run.task == "ffe_detection"]

    def settings(run: RunSummary) -> tuple:
        return run.display_name, tuple(sorted((k, v) for k, v in (run.identity or {}).items() if k != _FAKES))

    published = _preferred([run for run in detection if _FAKES not in (run.identity or {})], settings)
    fresh = _preferred([run for run in detection if _FAKES in (run.identity or {})],
                       lambda run: (settings(run), (run.identity or {})[_FAKES]))
    chosen = [(published[settings(new.run)], new) for new in fresh.values() if settings(new.run) in published]
    pairs = [(old.run, new.run) for old, new in chosen]
    if not pairs:
        return None
    table = Table(CONTAMINATION_KEY, "Task 2 on the published fakes and on a fresh set: hallucination rate (mean of "
                  "both framings) per category", "FFE-HALLU (figeval's contamination check)", "percent",
                  [ColumnHead("published", _PUBLISHED, "lower", ours=True),
                   ColumnHead("fresh", _FRESH, "lower", ours=True),
                   ColumnHead("difference", "Fresh - published (points)", ours=True),
                   ColumnHead("published_unparsed", "Published unparsed(%)", ours=True),
                   ColumnHead("fresh_unparsed", "Fresh unparsed(%)", ours=True)], intervals=True)
    cache: dict[str, dict] = {}
    subsets: dict[str, tuple[RunSummary, list[str]]] = {}
    for old, new in sorted(pairs, key=lambda pair: (pair[1].display_name, (pair[1].identity or {})[_FAKES])):
        for run, header in ((old, _PUBLISHED), (new, _FRESH)):
            cache.setdefault(run.log, _answers_by_item(run.log))
            if not run.complete and header not in subsets.setdefault(run.log, (run, []))[1]:
                subsets[run.log][1].append(header)
        for category in (*FAKE_CATEGORIES, _ALL):
            before, after = _item_rates(cache[old.log], category), _item_rates(cache[new.log], category)
            found = (("published", _rate_cell(before, old.log)), ("fresh", _rate_cell(after, new.log)),
                     ("difference", _difference_cell(before, after)),
                     ("published_unparsed", _unparsed_cell(cache[old.log], category, old.log)),
                     ("fresh_unparsed", _unparsed_cell(cache[new.log], category, new.log)))
            cells = {key: cell for key, cell in found if cell}
            if cells:
                table.rows.append(Row(new.display_name, {**dict(settings(new)[1]), _FAKES: (new.identity or {})[_FAKES],
                                                  "category": PAPER_CATEGORY_NAMES.get(category, category)}, cells))
        table.notes.append(f"{new.display_name}: published {old.log}, fresh {new.log}")
    choices = {id(choice): (choice, header) for pair in chosen for choice, header in zip(pair, (_PUBLISHED, _FRESH))}
    table.notes += [note for choice, header in choices.values() if (note := choice.note(header)) is not None]
    table.notes += subset_notes([(run, headers) for run, headers in subsets.values() if headers])
    if few := few_items_note(table):
        table.notes.append(few)
    table.identity_keys = shown_settings(table.rows, [_FAKES, "category"])
    table.shared = shared_settings(table.rows, table.identity_keys)
    table.notes.append(f"95% percentile bootstrap intervals over items ({RESAMPLES} resamples); an unparsed answer "
                       "counts as accepting the fake, as in Table 4; the unparsed columns (figeval's, over both "
                       "framings' answers) say how much of each rate rests on that rule.")
    return table


# figeval's own table, after the paper's: the same model on the published fakes and on a fresh set.
CONTAMINATION = TableSpec(
    CONTAMINATION_KEY, PAPER, "(figeval's contamination check)", "Task 2 on the published fakes and on a fresh set",
    "percent", (), (), reads=frozenset({"ffe_detection"}),
    build=lambda spec, runs, context: [table] if (table := contamination_table(runs)) is not None else [],
)

TABLES = (TABLE_3, TABLE_4, FIGURE_1, TABLE_5, CONTAMINATION)
