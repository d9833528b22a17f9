"""Analyses across runs of the allusion tasks (paper Section 4, Appendix B), for `figeval report`.

- the MC-minus-open-ended accuracy gap per model and dataset;
- per model, knowledge (the knowledge task's "complete") crossed with recognition (open-ended and MC correct),
  with example ids: knowing an allusion but failing to name it in a text, and not knowing it but picking it in
  MC (the paper's lexical-overlap cases);
- per model, dataset and judge mode, every text the model knows the allusion of and gets right in MC but wrong
  open-ended (the cases of Section 4's qualitative analysis), and the texts it gets right in MC, wrong open-ended
  without knowing the allusion (Appendix B).
- per run, accuracy and the number of texts per theme in Table 2's order (a text counts in each of its themes,
  so on PersPoems the n column is Table 2's distribution).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from inspect_ai.log import EvalLog, EvalSample

from figeval.benchmarks.persian_allusions.dataset import THEMES
from figeval.benchmarks.persian_allusions.titles import allusion_key
from figeval.benchmarks.persian_allusions.scorer import (
    KNOWLEDGE_POLICIES,
    MC_POLICIES,
    OPEN_POLICIES,
    KnowledgeLabel,
    OpenLabel,
)
from figeval.reporting.tables import Cell, ColumnHead, Row, Table
from figeval.scoring.metrics import counted_label
from figeval.scoring.outcome import Outcome
from figeval.scoring.reducer import sample_outcomes

TASKS = ("allusion_knowledge", "allusion_mc", "allusion_open")


def _task(log: EvalLog) -> str:
    return log.eval.task.split("/")[-1]


def _metric(log: EvalLog, name: str) -> float | None:
    for score in log.results.scores if log.results else []:
        if name in score.metrics:
            return score.metrics[name].value
    return None


@dataclass
class CrossTable:
    """Counts of text samples by (knows the allusion, recognized it), and up to three example ids per cell."""

    counts: dict[tuple[bool, bool], int] = field(default_factory=lambda: defaultdict(int))
    examples: dict[tuple[bool, bool], list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, knows: bool, recognized: bool, sample_id: str) -> None:
        self.counts[(knows, recognized)] += 1
        if len(self.examples[(knows, recognized)]) < 3:
            self.examples[(knows, recognized)].append(sample_id)


def _counted(log: EvalLog, policy: str) -> list[tuple[EvalSample, Outcome, str | None]]:
    """Each scored sample (one per sample id, its epochs reduced as the metrics reduce them), its outcome, and
    the label it counts as under an unparsed policy; samples the policy leaves out (the judge's failures) are
    not listed."""
    rows = []
    for sample, outcome in sample_outcomes(log):
        included, label = counted_label(outcome, policy)
        if included:
            rows.append((sample, outcome, label))
    return rows


def _knowledge(log: EvalLog) -> dict[str, bool]:
    """Whether the model knows each allusion: a complete explanation (the paper's rule), by the knowledge rate's
    unparsed policy (an unreadable answer shows no knowledge)."""
    _, policy = KNOWLEDGE_POLICIES["knowledge_rate"]
    return {allusion_key(sample.metadata["allusion"]): label == KnowledgeLabel.COMPLETE.value
            for sample, _, label in _counted(log, policy)}


def _recognition(log: EvalLog) -> list[tuple[str, str, bool]]:
    """(sample id, allusion key, recognized) for each counted text sample of an MC run (the right option) or an
    open run (judged correct), by the accuracy's unparsed policy."""
    return [(str(sample.id), allusion_key(sample.metadata["allusion"]), recognized)
            for sample, recognized in _recognized_samples(log)]


def _recognized_samples(log: EvalLog) -> list[tuple[EvalSample, bool]]:
    mc = _task(log) == "allusion_mc"
    _, policy = (MC_POLICIES if mc else OPEN_POLICIES)["accuracy"]
    return [(sample, label is not None and label == (outcome.target if mc else OpenLabel.CORRECT.value))
            for sample, outcome, label in _counted(log, policy)]


def theme_accuracy(log: EvalLog) -> dict[str, tuple[float, int]]:
    """Per theme (Table 2's order), (accuracy, number of texts) of an MC or open run, counted as the run's
    accuracy counts them; a text with several themes counts in each of them once."""
    per_theme: dict[str, list[bool]] = defaultdict(list)
    for sample, recognized in _recognized_samples(log):
        for theme in dict.fromkeys(sample.metadata.get("themes") or []):
            per_theme[theme].append(recognized)
    return {theme: (sum(found) / len(found), len(found)) for theme in THEMES if (found := per_theme.get(theme))}


def _judge_mode(log: EvalLog) -> str:
    """The open-ended run's judge mode ("gt" / "no_gt"); "" for the other tasks."""
    return str((log.eval.metadata or {}).get("judge_mode", "")) if _task(log) == "allusion_open" else ""


def _newest(runs: list[EvalLog]) -> dict[tuple[str, str, str, str], EvalLog]:
    """One run per (model, task, dataset, judge mode): the newest, so that no run is counted twice or silently
    mixed with another."""
    chosen: dict[tuple[str, str, str, str], EvalLog] = {}
    for log in sorted(runs, key=lambda log: log.eval.created):
        dataset = str((log.eval.metadata or {}).get("dataset_variant", "perspoems"))
        chosen[(log.eval.model, _task(log), dataset, _judge_mode(log))] = log
    return chosen


SECTION_4 = "Persian allusions Section 4"


def _row(model: str, **identity: str) -> Row:
    return Row(model, {k: v for k, v in identity.items() if v}, {})


def allusion_tables(logs: list[EvalLog]) -> list[Table]:
    """Section 4's analyses over the allusion runs among `logs` (full logs), one run per model, task, dataset and
    judge mode (the newest): the MC-minus-open-ended gap per judge mode, accuracy and text count per theme
    (Table 2's themes), the PersPoems -> LLM-Generated drop, knowledge x recognition per model (each text once),
    and the texts right in MC but wrong open-ended."""
    runs = _newest([log for log in logs if _task(log) in TASKS and log.status == "success"])
    if not runs:
        return []
    accuracy = {key: acc for key, log in runs.items() if (acc := _metric(log, "accuracy")) is not None}
    gap = Table("persian-allusions/gap", "MC minus open-ended accuracy", SECTION_4, "percent",
                [ColumnHead("mc", "MC"), ColumnHead("open", "Open-ended"), ColumnHead("gap", "Gap")],
                identity_keys=["dataset", "judge_mode"])
    for model, task, dataset, mode in sorted(accuracy):
        mc = accuracy.get((model, "allusion_mc", dataset, ""))
        if task == "allusion_open" and mc is not None:
            open_ = accuracy[(model, task, dataset, mode)]
            row = _row(model, dataset=dataset, judge_mode=mode)
            row.cells = {"mc": Cell(mc), "open": Cell(open_), "gap": Cell(mc - open_)}
            gap.rows.append(row)
    themes = Table("persian-allusions/themes", "Accuracy per theme (n: texts with the theme; on PersPoems the counts "
                   "are Table 2)", SECTION_4, "percent", [ColumnHead(theme, theme) for theme in THEMES],
                   identity_keys=["task", "dataset", "judge_mode"], cell_n=True)
    for (model, task, dataset, mode), log in sorted(runs.items()):
        if task != "allusion_knowledge":
            row = _row(model, task=task, dataset=dataset, judge_mode=mode)
            row.cells = {theme: Cell(acc, n=n) for theme, (acc, n) in theme_accuracy(log).items()}
            themes.rows.append(row)
    drop = Table("persian-allusions/drop", "PersPoems -> LLM-Generated accuracy", SECTION_4, "percent",
                 [ColumnHead("perspoems", "PersPoems"), ColumnHead("generated", "LLM-Generated"),
                  ColumnHead("drop", "Drop")], identity_keys=["task", "judge_mode"])
    for model, task, dataset, mode in sorted(accuracy):
        if dataset == "perspoems" and (model, task, "generated", mode) in accuracy:
            poems, generated = accuracy[(model, task, dataset, mode)], accuracy[(model, task, "generated", mode)]
            row = _row(model, task=task, judge_mode=mode)
            row.cells = {"perspoems": Cell(poems), "generated": Cell(generated), "drop": Cell(poems - generated)}
            drop.rows.append(row)
    cross = Table("persian-allusions/knowledge-x-recognition", "Knowledge (complete explanation) x recognition: texts, "
                  "with example ids", SECTION_4, "count",
                  [ColumnHead(f"{k}/{r}", f"{'knows' if k == 'knows' else 'does not know'}, {r}")
                   for k in ("knows", "not") for r in ("recognized", "missed")],
                  identity_keys=["task", "dataset", "judge_mode"])
    listing = Table("persian-allusions/mc-not-open", "Texts right in MC but wrong open-ended", SECTION_4, "count",
                    [ColumnHead("knows", "knows the allusion (Section 4)"),
                     ColumnHead("not", "does not know it (Appendix B)")], identity_keys=["dataset", "judge_mode"])
    for model in sorted({key[0] for key in runs}):
        knowledge = {}
        for (owner, task, _, _), log in runs.items():
            if owner == model and task == "allusion_knowledge":
                knowledge.update(_knowledge(log))
        if not knowledge:
            continue
        for (owner, task, dataset, mode), log in sorted(runs.items()):
            if owner != model or task == "allusion_knowledge":
                continue
            counted = CrossTable()
            for sample_id, key, recognized in _recognition(log):
                if key in knowledge:
                    counted.add(knowledge[key], recognized, sample_id)
            if counted.counts:
                row = _row(model, task=task, dataset=dataset, judge_mode=mode)
                row.cells = {f"{'knows' if k else 'not'}/{'recognized' if r else 'missed'}":
                             Cell(counted.counts[(k, r)], label=", ".join(counted.examples[(k, r)]))
                             for k in (True, False) for r in (True, False)}
                cross.rows.append(row)
            mc = runs.get((model, "allusion_mc", dataset, ""))
            if task == "allusion_open" and mc is not None:
                found = mc_right_open_wrong(knowledge, mc, log)
                row = _row(model, dataset=dataset, judge_mode=mode)
                row.cells = {"knows" if knows else "not": Cell(len(ids), label=", ".join(ids)) for knows, ids in found.items()}
                listing.rows.append(row)
    return [table for table in (gap, themes, drop, cross, listing) if table.rows]


def mc_right_open_wrong(knowledge: dict[str, bool], mc: EvalLog, open_: EvalLog) -> dict[bool, list[str]]:
    """Text ids (sorted) a model gets right in MC and wrong open-ended, split by whether it knows the allusion
    (Section 4: knows; Appendix B: does not know). A text missing from either run, or whose allusion has no
    knowledge verdict, is left out."""
    in_mc = {sample_id: (key, recognized) for sample_id, key, recognized in _recognition(mc)}
    found: dict[bool, list[str]] = {True: [], False: []}
    for sample_id, key, recognized in _recognition(open_):
        if sample_id in in_mc and in_mc[sample_id][1] and not recognized and key in knowledge:
            found[knowledge[key]].append(sample_id)
    return {knows: sorted(ids) for knows, ids in found.items()}
