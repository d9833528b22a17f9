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
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

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
from figeval.reporting.runs import RunSummary, summarize
from figeval.reporting.tables import (
    JUDGE_UNPARSED_RATE,
    UNPARSED_RATE,
    Cell,
    ColumnHead,
    Row,
    Table,
    metric_cell,
    preferred,
    preferred_text,
    proportion_interval,
    subset_note,
    unread_note,
)
from figeval.scoring.metrics import counted_label
from figeval.scoring.outcome import Outcome
from figeval.scoring.reducer import sample_outcomes

TASKS = ("allusion_knowledge", "allusion_mc", "allusion_open")


def _task(log: EvalLog) -> str:
    return log.eval.task.split("/")[-1]


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


Key = tuple[str, str, str, str]
"""(model, task, dataset, judge mode): one run each."""


@dataclass
class Chosen:
    """The run used for a key, its summary (its metrics, and the part of its dataset it ran), and what a table
    using it says of the choice."""

    log: EvalLog
    run: RunSummary
    notes: list[str]


def _key(log: EvalLog, names: Mapping[str, str]) -> Key:
    dataset = str((log.eval.metadata or {}).get("dataset_variant", "perspoems"))
    return names.get(log.location, log.eval.model), _task(log), dataset, _judge_mode(log)


def _what(key: Key) -> str:
    model, task, dataset, mode = key
    return f"{model} {task} on {dataset}" + (f", judge_mode {mode}" if mode else "")


def _chosen(logs: list[EvalLog], names: Mapping[str, str]) -> dict[Key, Chosen]:
    """One run per (model, task, dataset, judge mode), so that no run is counted twice or silently mixed with
    another: a complete run over any subset (`--limit`, `--sample-id`), whatever their times, then the newest
    (`preference`, as the papers' tables choose), so a smoke test never stands in for a whole run. Where runs
    competed the tables say which was used, and a subset used for want of a complete run is noted with how much
    of the dataset it ran."""
    found: dict[Key, list[tuple[RunSummary, EvalLog]]] = defaultdict(list)
    for log in logs:
        key = _key(log, names)
        found[key].append((replace(summarize(log), display_name=key[0]), log))  # the report's name for the model
    chosen = {}
    for key, candidates in found.items():
        run, log = preferred(candidates, lambda pair: pair[0])
        notes = [f"{_what(key)}: {len(candidates)} runs; the {preferred_text([r for r, _ in candidates])} is used "
                 f"({run.log})."] if len(candidates) > 1 else []
        notes += [] if run.complete else [subset_note(run, [_what(key).removeprefix(f"{run.display_name} ")])]
        chosen[key] = Chosen(log, run, notes)
    return chosen


def _noted(table: Table, used: list[Chosen]) -> None:
    """The notes of the runs a table used, each once."""
    for chosen in used:
        table.notes += [note for note in chosen.notes if note not in table.notes]


def _cell(chosen: Chosen | None, metric: str) -> Cell | None:
    """A run's rate with its n and 95% interval (`metric_cell`), None when absent."""
    return None if chosen is None else metric_cell(chosen.run, metric)


def _cells(found: dict[str, Cell | None]) -> dict[str, Cell]:
    return {key: cell for key, cell in found.items() if cell is not None}


SECTION_4 = "Persian allusions Section 4"
# figeval's columns beside the accuracies, as in Table 3 (tables.py): MC counts an unreadable answer wrong; the
# open-ended judge's unreadable answers are left out of its accuracy.
_UNREAD = unread_note("The unparsed and judge unreadable columns", "counted as wrong", judged=True)


def _row(model: str, **identity: str) -> Row:
    return Row(model, {k: v for k, v in identity.items() if v}, {})


def allusion_tables(logs: list[EvalLog], names: Mapping[str, str] | None = None) -> list[Table]:
    """Section 4's analyses over the allusion runs among `logs` (full logs), one run per model, task, dataset and
    judge mode (`_chosen`: a complete run over a subset, then the newest): the MC-minus-open-ended gap per judge
    mode, accuracy and text count per theme (Table 2's themes), the PersPoems -> LLM-Generated drop, knowledge x
    recognition per model (each text once), and the texts right in MC but wrong open-ended. Each accuracy has its
    n and interval, beside the unparsed and judge-unreadable shares of its run (figeval's columns, as in Table 3)."""
    runs = _chosen([log for log in logs if _task(log) in TASKS and log.status == "success"], names or {})
    if not runs:
        return []
    accuracy = {key: chosen for key, chosen in runs.items() if "accuracy" in chosen.run.metrics}
    gap = Table("persian-allusions/gap", "MC minus open-ended accuracy", SECTION_4, "percent",
                [ColumnHead("mc", "MC"), ColumnHead("open", "Open-ended"), ColumnHead("gap", "Gap"),
                 ColumnHead("mc_unparsed", "MC unparsed", ours=True),
                 ColumnHead("open_unparsed", "Open-ended unparsed", ours=True),
                 ColumnHead("open_judge_unreadable", "Open-ended judge unreadable", ours=True)],
                identity_keys=["dataset", "judge_mode"])
    for model, task, dataset, mode in sorted(accuracy):
        mc = accuracy.get((model, "allusion_mc", dataset, ""))
        if task == "allusion_open" and mc is not None:
            open_ = accuracy[(model, task, dataset, mode)]
            row = _row(model, dataset=dataset, judge_mode=mode)
            row.cells = _cells({"mc": _cell(mc, "accuracy"), "open": _cell(open_, "accuracy"),
                                "gap": Cell(mc.run.metrics["accuracy"] - open_.run.metrics["accuracy"]),
                                "mc_unparsed": _cell(mc, UNPARSED_RATE), "open_unparsed": _cell(open_, UNPARSED_RATE),
                                "open_judge_unreadable": _cell(open_, JUDGE_UNPARSED_RATE)})
            gap.rows.append(row)
            _noted(gap, [mc, open_])
    themes = Table("persian-allusions/themes", "Accuracy per theme (n: texts with the theme; on PersPoems the counts "
                   "are Table 2)", SECTION_4, "percent", [ColumnHead(theme, theme) for theme in THEMES],
                   identity_keys=["task", "dataset", "judge_mode"], cell_n=True)
    for (model, task, dataset, mode), chosen in sorted(runs.items()):
        if task != "allusion_knowledge":
            row = _row(model, task=task, dataset=dataset, judge_mode=mode)
            row.cells = {theme: Cell(acc, *proportion_interval(acc, n), n=n)
                         for theme, (acc, n) in theme_accuracy(chosen.log).items()}
            themes.rows.append(row)
            _noted(themes, [chosen])
    drop = Table("persian-allusions/drop", "PersPoems -> LLM-Generated accuracy", SECTION_4, "percent",
                 [ColumnHead("perspoems", "PersPoems"), ColumnHead("generated", "LLM-Generated"),
                  ColumnHead("drop", "Drop"),
                  *(ColumnHead(f"{dataset}_{what}", f"{name} {header}", ours=True)
                    for what, header in (("unparsed", "unparsed"), ("judge_unreadable", "judge unreadable"))
                    for dataset, name in (("perspoems", "PersPoems"), ("generated", "LLM-Generated")))],
                 identity_keys=["task", "judge_mode"])
    for model, task, dataset, mode in sorted(accuracy):
        if dataset == "perspoems" and (model, task, "generated", mode) in accuracy:
            poems, generated = accuracy[(model, task, dataset, mode)], accuracy[(model, task, "generated", mode)]
            row = _row(model, task=task, judge_mode=mode)
            row.cells = _cells({
                "perspoems": _cell(poems, "accuracy"), "generated": _cell(generated, "accuracy"),
                "drop": Cell(poems.run.metrics["accuracy"] - generated.run.metrics["accuracy"]),
                **{f"{name}_{what}": _cell(chosen, metric)
                   for name, chosen in (("perspoems", poems), ("generated", generated))
                   for what, metric in (("unparsed", UNPARSED_RATE), ("judge_unreadable", JUDGE_UNPARSED_RATE))}})
            drop.rows.append(row)
            _noted(drop, [poems, generated])
    cross = Table("persian-allusions/knowledge-x-recognition", "Knowledge (complete explanation) x recognition: texts, "
                  "with example ids", SECTION_4, "count",
                  [ColumnHead(f"{k}/{r}", f"{'knows' if k == 'knows' else 'does not know'}, {r}")
                   for k in ("knows", "not") for r in ("recognized", "missed")],
                  identity_keys=["task", "dataset", "judge_mode"])
    listing = Table("persian-allusions/mc-not-open", "Texts right in MC but wrong open-ended", SECTION_4, "count",
                    [ColumnHead("knows", "knows the allusion (Section 4)"),
                     ColumnHead("not", "does not know it (Appendix B)")], identity_keys=["dataset", "judge_mode"])
    for model in sorted({key[0] for key in runs}):
        knowledge: dict[str, bool] = {}
        known_from = [chosen for (owner, task, _, _), chosen in runs.items()
                      if owner == model and task == "allusion_knowledge"]
        for chosen in known_from:
            knowledge.update(_knowledge(chosen.log))
        if not knowledge:
            continue
        for (owner, task, dataset, mode), chosen in sorted(runs.items()):
            if owner != model or task == "allusion_knowledge":
                continue
            counted = CrossTable()
            for sample_id, key, recognized in _recognition(chosen.log):
                if key in knowledge:
                    counted.add(knowledge[key], recognized, sample_id)
            if counted.counts:
                row = _row(model, task=task, dataset=dataset, judge_mode=mode)
                row.cells = {f"{'knows' if k else 'not'}/{'recognized' if r else 'missed'}":
                             Cell(counted.counts[(k, r)], label=", ".join(counted.examples[(k, r)]))
                             for k in (True, False) for r in (True, False)}
                cross.rows.append(row)
                _noted(cross, [*known_from, chosen])
            mc = runs.get((model, "allusion_mc", dataset, ""))
            if task == "allusion_open" and mc is not None:
                found = mc_right_open_wrong(knowledge, mc.log, chosen.log)
                row = _row(model, dataset=dataset, judge_mode=mode)
                row.cells = {"knows" if knows else "not": Cell(len(ids), label=", ".join(ids)) for knows, ids in found.items()}
                listing.rows.append(row)
                _noted(listing, [*known_from, mc, chosen])
    for table in (gap, drop):
        table.notes.append(_UNREAD)  # what figeval's columns count: after what is particular to these runs
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
