"""Analyses across runs of the allusion tasks (paper Section 4, Appendix B), for `figeval report`.

- the MC-minus-open-ended accuracy gap per model and dataset;
- per model, knowledge (the knowledge task's "complete") crossed with recognition (open-ended and MC correct),
  with example ids: knowing an allusion but failing to name it in a text, and not knowing it but picking it in
  MC (the paper's lexical-overlap cases).
Per-theme accuracy is a metric of each run already (`accuracy/theme_<theme>`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from inspect_ai.log import EvalLog, EvalSample

from figeval.benchmarks.persian_allusions.dataset import allusion_key
from figeval.benchmarks.persian_allusions.scorer import (
    KNOWLEDGE_POLICIES,
    MC_POLICIES,
    OPEN_POLICIES,
    KnowledgeLabel,
    OpenLabel,
)
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
    mc = _task(log) == "allusion_mc"
    _, policy = (MC_POLICIES if mc else OPEN_POLICIES)["accuracy"]
    return [(str(sample.id), allusion_key(sample.metadata["allusion"]),
             label is not None and label == (outcome.target if mc else OpenLabel.CORRECT.value))
            for sample, outcome, label in _counted(log, policy)]


def allusion_report(logs: list[EvalLog]) -> list[str]:
    """Lines of text: the gap table and the cross tables, for the allusion runs among `logs` (full logs)."""
    runs = [log for log in logs if _task(log) in TASKS and log.status == "success"]
    if not runs:
        return []
    lines = ["Persian allusions: MC minus open-ended accuracy", f"{'model':<40} {'dataset':<10} {'MC':>6} {'open':>6} {'gap':>6}"]
    accuracy: dict[tuple[str, str, str], float] = {}
    for log in runs:
        if _task(log) != "allusion_knowledge":
            acc = _metric(log, "accuracy")
            if acc is not None:
                accuracy[(log.eval.model, log.eval.metadata.get("dataset_variant", "?"), _task(log))] = acc
    for model, dataset in sorted({(m, d) for m, d, _ in accuracy}):
        mc, open_ = accuracy.get((model, dataset, "allusion_mc")), accuracy.get((model, dataset, "allusion_open"))
        if mc is not None and open_ is not None:
            lines.append(f"{model:<40} {dataset:<10} {mc:>6.3f} {open_:>6.3f} {mc - open_:>+6.3f}")
    for model in sorted({log.eval.model for log in runs}):
        knowledge = {}
        for log in runs:
            if log.eval.model == model and _task(log) == "allusion_knowledge":
                knowledge.update(_knowledge(log))
        if not knowledge:
            continue
        for task in ("allusion_open", "allusion_mc"):
            table = CrossTable()
            for log in runs:
                if log.eval.model == model and _task(log) == task:
                    for sample_id, key, recognized in _recognition(log):
                        if key in knowledge:
                            table.add(knowledge[key], recognized, sample_id)
            if not table.counts:
                continue
            lines.append(f"\n{model}: knowledge x {task.removeprefix('allusion_')} recognition (text samples)")
            for knows in (True, False):
                for recognized in (True, False):
                    cell = (knows, recognized)
                    label = f"{'knows' if knows else 'does not know'}, {'recognized' if recognized else 'missed'}"
                    examples = ", ".join(table.examples[cell])
                    lines.append(f"  {label:<32} {table.counts[cell]:>4}" + (f"   e.g. {examples}" if examples else ""))
    return lines
