"""Paired comparisons of models evaluated on the same items: is one model's lead over another more than noise?

Two runs of one task with the same settings (the same identity: prompt version, judge, meaning source...) but
different models answered the same samples. Their difference in a headline metric is computed on the samples both
answered, with the task's own metric (made again from its definition in the log, so its unparsed policy and its
denominator are the paper's), and its 95% interval comes from a paired bootstrap over items (Miller 2024, "Adding
Error Bars to Evals", arXiv:2411.00640, on paired differences): each resample draws items, not samples, since one
item gives several samples (two framings of one question, a correct and an altered version of one answer), and both
models are scored on the same draw. Where the metric is a mean of 0/1 outcomes with at most one sample of an item in
it, McNemar's exact test is given too. The standard error is clustered by item (Miller 2024, clustered standard
errors) where the metric is a mean over its samples, else the bootstrap's.

The papers print no such test; these are figeval's columns and say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from inspect_ai.log import read_eval_log
from inspect_ai.scorer import SampleScore

from figeval._compat import metric_from_definition
from figeval.paired import PairedDifference, clustered_standard_error, mcnemar_exact, paired_bootstrap
from figeval.results.resampled import Drawn, Value, fast_value, metric_value, per_sample
from figeval.results.rows import shared_settings, shown_settings
from figeval.results.runs import RunSummary
from figeval.table_model import Cell, Column, ColumnHead, Row, Table
from figeval.results.tables import few_items_note
from figeval.stats import bootstrap_trusted, values_only
from figeval.subset import Design

RESAMPLES = 2000
SEED = 0
"""Every comparison uses the same seed: the same logs always give the same intervals."""


@dataclass(frozen=True)
class RunScores:
    """A run's per-sample scores as its metrics take them, the item of each sample, and its metrics."""

    scores: dict[str, SampleScore]
    """By sample id (as text)."""
    items: dict[str, str]
    """Sample id -> the item it asks about (the task's design; a sample is its own item without one)."""
    metrics: tuple[tuple[Any, Any], ...]
    """The task's metrics, each made again from its definition in the log, with that definition (registry name
    and options)."""
    epochs: int
    unit: str | None = None
    """The metadata key naming a sample's item (the task's design); None: each sample is its own item."""


@dataclass(frozen=True)
class Comparison:
    task: str
    metric: str
    model: str
    baseline: str
    difference: PairedDifference
    """model minus baseline."""
    standard_error: float
    clustered: bool
    """The standard error is the analytic one clustered by item (else the bootstrap's)."""
    mcnemar_p: float | None
    """McNemar's exact p, where the metric is a share of 0/1 outcomes, one per item (else None)."""
    discordant: tuple[int, int] | None = None
    """(only the baseline has the outcome, only the model has it) for McNemar."""
    note: str = ""
    identity: dict[str, str] = field(default_factory=dict)
    """The settings both runs share (a comparison is of runs with one identity): which of a model's runs it is."""

    @property
    def decided(self) -> bool:
        """Enough items for the bootstrap's interval to say anything (`stats.MIN_BOOTSTRAP_ITEMS`), and an interval
        of some width: where every item differs by the same amount every resample gives that difference, and an
        interval of no width would claim no uncertainty at all."""
        return bootstrap_trusted(self.difference.items) and not self.no_width

    @property
    def no_width(self) -> bool:
        """Every resample gave the same difference (or none was defined)."""
        return not self.difference.low < self.difference.high

    @property
    def significant(self) -> bool:
        """The 95% interval leaves out 0 (never over too few items to have one)."""
        return self.decided and (self.difference.low > 0 or self.difference.high < 0)


@dataclass
class ScoreCache:
    """Each log read once per report, however many comparisons use it."""

    read: dict[str, RunScores] = field(default_factory=dict)

    def of(self, run: RunSummary) -> RunScores:
        if run.log not in self.read:
            self.read[run.log] = run_scores(run.log)
        return self.read[run.log]


def run_scores(path: str) -> RunScores:
    """A log's per-sample scores (its figeval scorer's), items and metrics."""
    log = read_eval_log(path)
    [scorer] = log.eval.scorers or (None,)  # figeval tasks have one scorer
    design = Design.from_metadata(log.eval.metadata)
    scores, items = {}, {}
    for sample in log.samples or []:
        score = (sample.scores or {}).get(scorer.name) if scorer else None
        if score is None or sample.epoch != 1:
            continue
        key = str(sample.id)
        scores[key] = SampleScore(score=score, sample_id=sample.id, sample_metadata=sample.metadata)
        unit = (sample.metadata or {}).get(design.unit) if design.unit else None
        items[key] = str(unit) if unit is not None else key
    definitions = [m for m in (scorer.metrics if scorer and isinstance(scorer.metrics, list) else [])
                   if not isinstance(m, dict)]
    metrics = tuple((metric_from_definition(d.name, d.options), d) for d in definitions)
    return RunScores(scores, items, metrics, log.eval.config.epochs or 1, design.unit)


def compare(task: str, name: str, model: RunSummary, baseline: RunSummary, cache: ScoreCache,
            resamples: int = RESAMPLES, fast: bool = True) -> Comparison | str:
    """`name`'s difference, model minus baseline, on the samples both runs answered; or why it cannot be
    computed (a line for the report's notes). `fast=False` scores every resample with the metric itself (what
    the fast computations are checked to equal: `figeval.results.resampled`)."""
    # only the metric's value is read on each resample, never an interval a metric computes for itself
    with values_only():
        return _compare(task, name, model, baseline, cache, resamples, fast)


def _compare(task: str, name: str, model: RunSummary, baseline: RunSummary, cache: ScoreCache, resamples: int,
             fast: bool) -> Comparison | str:
    a, b = cache.of(baseline), cache.of(model)
    what = f"{task} {name}: {model.display_name} vs {baseline.display_name}"
    if a.epochs > 1 or b.epochs > 1:
        return f"{what}: not compared (runs of several epochs: figeval pairs single-epoch runs)"
    shared = [key for key in a.scores if key in b.scores]
    if not shared:
        return f"{what}: not compared (no sample answered by both)"
    a_scores, b_scores = [a.scores[key] for key in shared], [b.scores[key] for key in shared]
    found = _metric_of(a, name, a_scores)
    if found is None:
        return f"{what}: not compared ({name} is undefined on the shared samples)"
    metric, definition = found
    per_a, per_b = per_sample(metric, name, a_scores), per_sample(metric, name, b_scores)
    kept = _counted(metric, name, a_scores, b_scores, per_a, per_b)
    a_scores, b_scores = [a_scores[i] for i in kept], [b_scores[i] for i in kept]
    per_a, per_b = [per_a[i] for i in kept], [per_b[i] for i in kept]
    items = [a.items[shared[i]] for i in kept]
    drawn_a, drawn_b = Drawn(a_scores, a.unit), Drawn(b_scores, a.unit)
    fast_a = fast_value(metric, definition, name, a_scores, per_a, items, drawn_a) if fast else None
    fast_b = fast_value(metric, definition, name, b_scores, per_b, items, drawn_b) if fast else None
    if fast_a is not None and fast_b is not None:
        difference = _difference(fast_a[0], fast_b[0])
    else:
        difference = _difference(lambda chosen: metric_value(metric, name, drawn_a(chosen)),
                                 lambda chosen: metric_value(metric, name, drawn_b(chosen)))
    paired = paired_bootstrap(items, difference, resamples=resamples, seed=SEED)
    if paired is None:
        return f"{what}: not compared ({name} is undefined on the shared samples)"
    plain = bool(fast_a and fast_a[1] and fast_b and fast_b[1]) and \
        [v is None for v in per_a] == [v is None for v in per_b]
    error, mcnemar, discordant = paired.standard_error, None, None
    if plain:
        both = [i for i in range(len(items)) if per_a[i] is not None]
        error = clustered_standard_error([per_b[i] - per_a[i] for i in both], [items[i] for i in both])  # type: ignore[operator]
        binary = all(per_a[i] in (0.0, 1.0) and per_b[i] in (0.0, 1.0) for i in both)
        if binary and len({items[i] for i in both}) == len(both):
            only_a = sum(per_a[i] == 1.0 and per_b[i] == 0.0 for i in both)
            only_b = sum(per_a[i] == 0.0 and per_b[i] == 1.0 for i in both)
            mcnemar, discordant = mcnemar_exact(only_a, only_b), (only_a, only_b)
    notes = [] if len(shared) == len(a.scores) == len(b.scores) else [f"on the {len(shared)} samples both answered"]
    if paired.undefined:
        notes.append(f"{paired.undefined} of {paired.undefined + paired.resamples} resamples left out ({name} "
                     "undefined on them: no sample in its denominator)")
    note = "; ".join(notes)
    return Comparison(task, name, model.display_name, baseline.display_name, paired, error, plain, mcnemar,
                      discordant, note, dict(model.identity or {}))


def _difference(first: Value, second: Value) -> Value:
    """The second run's value minus the first's on the same resample; None where either is undefined."""

    def difference(indices: Sequence[int]) -> float | None:
        a, b = first(indices), second(indices)
        return None if a is None or b is None else b - a

    return difference


def _counted(metric: Any, name: str, a_scores: list[SampleScore], b_scores: list[SampleScore],
             per_a: Sequence[float | None], per_b: Sequence[float | None]) -> list[int]:
    """The indices of the samples the metric counts (its value on the sample alone, `per_a`/`per_b`, is defined,
    for either run),
    when the metric's value on those alone is its value on all, for both runs: the bootstrap then scores only
    those (a rate over 400 fakes of 800 samples: half the work). Otherwise every index (a measure over pairs of
    samples, such as agreement between two framings, is defined on no sample alone)."""
    every = list(range(len(a_scores)))
    counted = [i for i in every if per_a[i] is not None or per_b[i] is not None]
    if not counted or len(counted) == len(every):
        return every
    for scores in (a_scores, b_scores):
        if metric_value(metric, name, [scores[i] for i in counted]) != metric_value(metric, name, scores):
            return every
    return counted


def _metric_of(run: RunScores, name: str, scores: list[SampleScore]) -> tuple[Any, Any] | None:
    """The one metric of the task's (with its definition) whose output holds `name`."""
    for metric, definition in run.metrics:
        if metric_value(metric, name, scores) is not None:
            return metric, definition
    return None


def comparable(runs: Sequence[RunSummary], column: Column) -> list[RunSummary]:
    """The runs of the column's task and settings, one per model, in report order."""
    return [run for run in runs if run.task == column.task
            and all((run.identity or {}).get(key) == value for key, value in column.where.items())]


def groups(runs: Sequence[RunSummary]) -> list[list[RunSummary]]:
    """Runs with one task and one identity, of two models or more: those a comparison may pair."""
    by: dict[tuple, list[RunSummary]] = {}
    for run in runs:
        by.setdefault((run.task, tuple(sorted((run.identity or {}).items()))), []).append(run)
    return [group for group in by.values() if len({run.display_name for run in group}) > 1]


def comparisons(runs: Sequence[RunSummary], headlines: Sequence[Column], baseline: str | None = None,
                cache: ScoreCache | None = None) -> tuple[list[Comparison], list[str]]:
    """Each headline's paired differences among runs of one task and settings: every model against `baseline`
    (a display name), or, without one, every pair. Returns the comparisons and notes on those not computed."""
    cache = cache or ScoreCache()
    found: list[Comparison] = []
    notes: list[str] = []
    for group in groups(runs):
        for column in [c for c in headlines if c.task == group[0].task]:
            members = comparable(group, column)
            if baseline is not None:
                base = [run for run in members if run.display_name == baseline]
                pairs = [(run, base[0]) for run in members if base and run is not base[0]]
            else:
                pairs = [(second, first) for i, first in enumerate(members) for second in members[i + 1:]]
            for model, base_run in pairs:
                result = compare(column.task, column.metric, model, base_run, cache)
                if isinstance(result, Comparison):
                    found.append(result)
                else:
                    notes.append(result)
    if baseline is not None and not found and not notes:
        notes.append(nothing_compared(runs, baseline))
    return found, notes


def nothing_compared(runs: Sequence[RunSummary], baseline: str) -> str:
    """Why no model was compared with the baseline: a comparison pairs runs of one task and settings, and no other
    model has a run of the baseline's tasks with the baseline's settings (a line, never silence)."""
    own = [run for run in runs if run.display_name == baseline]
    tasks = ", ".join(dict.fromkeys(run.task for run in own))
    others = [run for run in runs if run.display_name != baseline and run.task in {r.task for r in own}]
    why = ("no other model has a run of " + tasks if not others else
           f"the other models' runs of {tasks} ({', '.join(sorted({r.display_name for r in others}))}) have other "
           "settings (a comparison pairs runs of one task and settings; see the tables' rows)")
    return (f"--baseline {baseline}: nothing compared: {why}; run another model with the same task and settings "
            f"as {baseline}'s runs.")


def comparison_table(found: Sequence[Comparison], notes: Sequence[str]) -> Table:
    """The paired differences as a report table, percentage points for rates."""
    table = Table("comparison", "Paired differences on the same items: model minus baseline (percentage points)",
                  "figeval", "percent",
                  [ColumnHead("task", "Task"), ColumnHead("metric", "Metric"), ColumnHead("baseline", "Baseline"),
                   ColumnHead("difference", "Difference", ours=True), ColumnHead("se", "SE", ours=True),
                   ColumnHead("p", "McNemar p", ours=True), ColumnHead("items", "Items", ours=True, unit="count")],
                  intervals=True)
    for comparison in found:
        paired = comparison.difference
        low, high = (paired.low, paired.high) if comparison.decided else (None, None)
        cells = {
            "task": Cell(comparison.task), "metric": Cell(comparison.metric), "baseline": Cell(comparison.baseline),
            "difference": Cell(paired.difference, low, high, n=paired.items,
                               label="*" if comparison.significant else ""),
            "se": Cell(comparison.standard_error),
            "p": Cell(p_text(comparison.mcnemar_p)),
            "items": Cell(float(paired.items)),
        }
        table.rows.append(Row(comparison.model, dict(comparison.identity), cells))
        if comparison.note:
            table.notes.append(f"{comparison.model} vs {comparison.baseline}, {comparison.metric}: {comparison.note}")
    if few := few_items_note(table):
        table.notes.append(few)
    if flat := [c for c in found if bootstrap_trusted(c.difference.items) and c.no_width]:
        table.notes.append("no interval and no (*) where every resample gave the same difference (each item differs "
                           "by the same amount: an interval of no width cannot say how uncertain it is): "
                           + "; ".join(f"{c.model} vs {c.baseline}, {c.metric}" for c in flat) + ".")
    # the settings that tell two comparisons of one model and task apart (a published and a fresh fake set) are
    # columns; those every comparison shares are said once
    table.identity_keys = shown_settings(table.rows)
    table.shared = shared_settings(table.rows, table.identity_keys)
    table.notes += [
        f"Difference: the model's value minus the baseline's on the same samples, with its 95% interval from a "
        f"paired bootstrap over items ({RESAMPLES} resamples, seed {SEED}; Miller 2024, 'Adding Error Bars to "
        "Evals'); (*) the interval leaves out 0. SE: clustered by item where the metric is a mean over its "
        "samples, else the bootstrap's. McNemar p: exact, where the metric is a share of 0/1 outcomes with one "
        "sample per item (else -). Pairs are not corrected for multiple comparisons.",
        *notes]
    return table


def p_text(p: float | None) -> str:
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


TIE = "≈"


def mark_ties(table: Table, runs: Sequence[RunSummary], columns: Sequence[Column],
              cache: ScoreCache | None = None) -> Table:
    """The leaderboard with each cell whose model is not significantly apart from the row above's (the paired
    95% interval holds 0) marked `≈`, so a reader does not over-read an order inside the noise."""
    cache = cache or ScoreCache()
    by_log = {run.log: run for run in runs}
    marked = False
    for above, row in zip(table.rows, table.rows[1:]):
        for column in columns:
            here, there = row.cells.get(column.key), above.cells.get(column.key)
            run = by_log.get(here.log or "") if here is not None else None
            base = by_log.get(there.log or "") if there is not None else None
            if here is None or run is None or base is None or run.identity != base.identity:
                continue
            result = compare(column.task, column.metric, run, base, cache)
            # an interval of no width at 0 (the two answered alike on every item) is a tie too
            if isinstance(result, Comparison) and bootstrap_trusted(result.difference.items) \
                    and result.difference.low <= 0.0 <= result.difference.high:
                row.cells[column.key] = replace(here, label=f"{here.label} {TIE}".strip())
                marked = True
    if marked:
        table.notes.append(f"({TIE}): not significantly different from the row above on the same items (paired "
                           f"bootstrap over items, 95%, {RESAMPLES} resamples; Miller 2024).")
    return table
