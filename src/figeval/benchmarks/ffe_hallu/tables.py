"""FFE-HALLU's results tables (Tables 3-5, Figure 1 as a table) and its leaderboard headlines, for `figeval report`.
Tables 3 and 5 are human labels in the paper; a run's are its judge's (Table 6 is how far the two agree)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from figeval.benchmarks.ffe_hallu.dataset import FAKE_CATEGORIES, MEANINGS, PAPER_CATEGORY_NAMES, ItemKind, category_slug
from figeval.reporting.runs import RunSummary
from figeval.reporting.tables import Cell, Column, ColumnHead, Row, Table, TableSpec
from figeval.stats import bootstrap_interval

def _judged(task: str, prefix: str = "", **where: str) -> tuple[Column, ...]:
    head = f"{prefix} " if prefix else ""
    return (Column(f"{prefix}{'/' if prefix else ''}correct", f"{head}Correct(%)", task, "correct_rate", where, "higher"),
            Column(f"{prefix}{'/' if prefix else ''}incorrect", f"{head}Incorrect(%)", task, "incorrect_rate", where),
            Column(f"{prefix}{'/' if prefix else ''}hallucinated", f"{head}Hallucination(%)", task, "hallucinated_rate",
                   where, "lower"))


TABLE_3 = TableSpec(
    "ffe-hallu/table-3", "ffe-hallu", "Table 3", "Task 1, FFE generation from meaning (judge labels)", "percent",
    tuple(column for meaning in MEANINGS for column in (
        *_judged("ffe_generation", meaning, meaning=meaning),
        Column(f"{meaning}/unparsed", f"{meaning} Unparsed(%)", "ffe_generation", "unparsed_rate", {"meaning": meaning},
               ours=True))),
    ("judge", "judge_prompt", "prompt_version", "answer_mode"),
)

TABLE_4 = TableSpec(
    "ffe-hallu/table-4", "ffe-hallu", "Table 4", "Task 2, fake FFE detection: hallucination rates and agreement",
    "percent",
    (Column("fake_q", "Prompt-Fake Halluc.(%)", "ffe_detection", "halluc_rate_fake_q", better="lower"),
     Column("real_q", "Prompt-Real Halluc.(%)", "ffe_detection", "halluc_rate_real_q", better="lower"),
     Column("avg", "Avg(%)", "ffe_detection", "halluc_rate_avg", better="lower"),
     Column("agreement", "Agreement(%)", "ffe_detection", "agreement", better="higher"),
     Column("unparsed", "Unparsed(%)", "ffe_detection", "unparsed_rate", ours=True),
     Column("false_rejection", "Real FFEs rejected(%)", "ffe_detection", "false_rejection_rate", better="lower",
            ours=True)),
    ("prompt_version", "answer_mode", "controls", "data"),
)

FIGURE_1 = TableSpec(
    "ffe-hallu/figure-1", "ffe-hallu", "Figure 1", "Task 2, detection accuracy (1 - hallucination rate) by category and "
    "prompt", "percent",
    tuple(Column(f"{framing}/{category_slug(category)}", f"{label} {PAPER_CATEGORY_NAMES[category]}", "ffe_detection",
                 f"halluc_rate_{framing}/{category_slug(category)}", better="higher", complement=True)
          for framing, label in (("fake_q", "Is it fake?"), ("real_q", "Is it real?")) for category in FAKE_CATEGORIES),
    ("prompt_version", "answer_mode", "data"),
)

TABLE_5 = TableSpec(
    "ffe-hallu/table-5", "ffe-hallu", "Table 5", "Task 3, FFE to FFE translation (judge labels)", "percent",
    (*_judged("ffe_translation"), Column("unparsed", "Unparsed(%)", "ffe_translation", "unparsed_rate", ours=True)),
    ("judge", "judge_prompt", "prompt_version", "answer_mode"),
)

TABLES = (TABLE_3, TABLE_4, FIGURE_1, TABLE_5)

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


def _accepted_by_item(log_path: str) -> dict[str, tuple[str, list[float]]]:
    """Per fake item: its category and, per framing, whether the answer accepted it as real (Table 4's
    hallucination; an unparsed answer counts as accepting, Section 4). Reads the log's reduced scores (one per
    sample, over epochs)."""
    from inspect_ai.log import read_eval_log

    log = read_eval_log(log_path)
    metadata = {sample.id: sample.metadata for sample in log.samples or []}
    reduced = next((r.samples for r in log.reductions or [] if r.scorer == "detection_scorer"), None)
    scores = ({s.sample_id: s.value for s in reduced} if reduced is not None else
              {sample.id: sample.scores["detection_scorer"].value for sample in log.samples or []
               if sample.scores and "detection_scorer" in sample.scores})
    items: dict[str, tuple[str, list[float]]] = {}
    for sample_id, value in scores.items():
        info = metadata.get(sample_id) or {}
        if info.get("kind") != ItemKind.FAKE.value or not isinstance(value, dict):
            continue
        accepted = float(value.get("real", 0) or value.get("unparsed", 0))
        items.setdefault(info["item"], (info["category"], []))[1].append(accepted)
    return items


def _item_rates(items: dict[str, tuple[str, list[float]]], category: str) -> list[float]:
    return [sum(answers) / len(answers) for cat, answers in items.values() if category in (_ALL, cat)]


def _rate_cell(values: list[float], log: str) -> Cell | None:
    if not values:
        return None
    interval = bootstrap_interval(lambda idx: sum(values[i] for i in idx) / len(idx), len(values), resamples=RESAMPLES)
    return Cell(interval.estimate, interval.low, interval.high, len(values), log)


def _difference_cell(published: list[float], fresh: list[float]) -> Cell | None:
    """Fresh minus published, with a percentile bootstrap interval resampling each set's items independently."""
    if not published or not fresh:
        return None
    rng = np.random.default_rng(0)
    a, b = np.array(published), np.array(fresh)
    draws = [b[rng.integers(0, len(b), len(b))].mean() - a[rng.integers(0, len(a), len(a))].mean()
             for _ in range(RESAMPLES)]
    low, high = np.quantile(draws, [0.025, 0.975])
    return Cell(float(b.mean() - a.mean()), float(low), float(high))


def contamination_table(runs: Sequence[RunSummary]) -> Table | None:
    """Each model's `ffe_detection` on the published fakes beside the same model and settings on a fake set of
    the user's (`-T fakes=FILE`, a run whose identity carries `data`), per category: hallucination rate averaged
    over both framings (Table 4's Avg), each with a 95% bootstrap interval over items, and their difference. A
    model that does clearly better on the published fakes than on fresh ones of the same categories may have
    seen the published set in training (FFE-HALLU's data is public). None when no run pairs up."""
    detection = [run for run in runs if run.task == "ffe_detection"]

    def settings(run: RunSummary) -> tuple:
        return run.model, tuple(sorted((k, v) for k, v in (run.identity or {}).items() if k != "data"))

    published = {settings(run): run for run in detection if "data" not in (run.identity or {})}
    pairs = [(published[settings(run)], run) for run in detection
             if "data" in (run.identity or {}) and settings(run) in published]
    if not pairs:
        return None
    table = Table(CONTAMINATION_KEY, "Task 2 on the published fakes and on a fresh set: hallucination rate (mean of "
                  "both framings) per category", "FFE-HALLU (figeval's contamination check)", "percent",
                  [ColumnHead("published", "Published fakes(%)", "lower", ours=True),
                   ColumnHead("fresh", "Fresh fakes(%)", "lower", ours=True),
                   ColumnHead("difference", "Fresh - published (points)", ours=True)], intervals=True)
    cache: dict[str, dict] = {}
    for old, new in sorted(pairs, key=lambda pair: (pair[1].model, (pair[1].identity or {})["data"])):
        for run in (old, new):
            cache.setdefault(run.log, _accepted_by_item(run.log))
        for category in (*FAKE_CATEGORIES, _ALL):
            before, after = _item_rates(cache[old.log], category), _item_rates(cache[new.log], category)
            cells = {key: cell for key, cell in (("published", _rate_cell(before, old.log)),
                                                 ("fresh", _rate_cell(after, new.log)),
                                                 ("difference", _difference_cell(before, after))) if cell}
            if cells:
                table.rows.append(Row(new.model, {**dict(settings(new)[1]), "data": new.identity["data"],
                                                  "category": PAPER_CATEGORY_NAMES.get(category, category)}, cells))
        table.notes.append(f"{new.model}: published {old.log}, fresh {new.log}")
    present = {key for row in table.rows for key in row.identity}
    table.identity_keys = [key for key in dict.fromkeys((*TABLE_4.row_keys, "data", "category")) if key in present]
    table.notes.append(f"95% percentile bootstrap intervals over items ({RESAMPLES} resamples); an unparsed answer "
                       "counts as accepting the fake, as in Table 4.")
    return table
