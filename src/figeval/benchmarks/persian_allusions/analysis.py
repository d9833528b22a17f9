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
from figeval.results.rows import run_settings, runs_agree, setting_names, shared_settings, shown_settings
from figeval.results.runs import RunSummary, newest_runs, summarize
from figeval.table_model import JUDGE_UNPARSED_RATE, UNPARSED_RATE, Cell, ColumnHead, Row, Table, unread_note
from figeval.results.tables import metric_cell, preferred_text, proportion_interval, subset_note
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

    def add(self, knows: bool, recognized: bool, text_id: str) -> None:
        self.counts[(knows, recognized)] += 1
        if len(self.examples[(knows, recognized)]) < 3:
            self.examples[(knows, recognized)].append(text_id)


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
    """(text id, allusion key, recognized) for each counted text sample of an MC run (the right option) or an
    open run (judged correct), by the accuracy's unparsed policy: the text id pairs a text's MC and open samples."""
    return [(str(sample.metadata.get("text_id", sample.id)), allusion_key(sample.metadata["allusion"]), recognized)
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


@dataclass(frozen=True)
class Analysed:
    """A run the analyses read: its summary (settings, metrics, the part of its dataset it ran), its log, and what
    a table using it says of the choice (other runs of its settings, a subset used for want of a complete run)."""

    run: RunSummary
    log: EvalLog
    notes: tuple[str, ...] = ()

    @property
    def model(self) -> str:
        return self.run.display_name

    @property
    def task(self) -> str:
        return self.run.task

    @property
    def dataset(self) -> str:
        return (self.run.identity or {}).get("dataset", "perspoems") if self.task != "allusion_knowledge" else ""

    @property
    def mode(self) -> str:
        """The open-ended run's judge mode ("gt" / "no_gt"); "" for the other tasks."""
        return (self.run.identity or {}).get("judge_mode", "") if self.task == "allusion_open" else ""

    def what(self) -> str:
        return f"{self.model} {self.task}" + (f" on {self.dataset}" if self.dataset else "") + (
            f", judge_mode {self.mode}" if self.mode else "")


def _analysed(logs: list[EvalLog], names: Mapping[str, str]) -> list[Analysed]:
    """One run per model, task and settings (`newest_runs`: a complete run over any subset, whatever their times,
    then the newest), so that no run is counted twice or silently mixed with another; where runs competed the
    tables say which was used, and a subset used for want of a complete run is noted with how much it ran."""
    summaries = []
    for log in logs:
        run = summarize(log)
        if log.location in names:
            run = replace(run, display_name=names[log.location])  # the report's name for the model
        summaries.append(run)
    kept, superseded = newest_runs(summaries)
    by_log = {log.location: log for log in logs}
    found = []
    for run in kept:
        rivals = [s.run for s in superseded if s.by is run]
        analysed = Analysed(run, by_log[run.log])
        notes = [f"{analysed.what()}: {len(rivals) + 1} runs; the {preferred_text([run, *rivals])} is used "
                 f"({run.log})."] if rivals else []
        notes += [] if run.complete else [subset_note(run, [analysed.what().removeprefix(f"{run.display_name} ")])]
        found.append(replace(analysed, notes=tuple(notes)))
    return found


def _noted(table: Table, used: list[Analysed]) -> None:
    """The notes of the runs a table used, each once."""
    for analysed in used:
        table.notes += [note for note in analysed.notes if note not in table.notes]


def _cell(analysed: Analysed | None, metric: str) -> Cell | None:
    """A run's rate with its n and 95% interval (`metric_cell`), None when absent."""
    return None if analysed is None else metric_cell(analysed.run, metric)


def _cells(found: dict[str, Cell | None]) -> dict[str, Cell]:
    return {key: cell for key, cell in found.items() if cell is not None}


SECTION_4 = "Persian allusions Section 4"
# figeval's columns beside the accuracies, as in Table 3 (tables.py): MC counts an unreadable answer wrong; the
# open-ended judge's unreadable answers are left out of its accuracy.
_UNREAD = unread_note("The unparsed and judge unreadable columns", "counted as wrong", judged=True)
# What sets an analysis's runs apart on purpose (a row's own columns): they are not compared as settings.
_PICKED = frozenset({"dataset", "judge_mode"})


def _row(model: str, members: list[Analysed], **fixed: str) -> tuple[Row, dict]:
    """A row of runs read together: its fixed settings (task, dataset, judge mode) and, apart, every other
    setting of its runs, named once the table's rows are known (`_settled`)."""
    settings: dict = {}
    for member in members:
        settings |= run_settings(member.run, set(_PICKED), lambda task: "")
    return Row(model, {key: value for key, value in fixed.items() if value}, {}), settings


def _settled(table: Table, rows: list[tuple[Row, dict]], fixed: list[str]) -> Table:
    """The table with its rows' settings named as every report names them (a task's own prompt version with its
    task where two tasks' are shown), the fixed ones and those that differ between rows shown as columns, the
    rest said once."""
    names = setting_names(list(dict.fromkeys(key for _, settings in rows for key in settings)))
    for row, settings in rows:
        row.identity |= {names[key]: value for key, value in settings.items()}
        table.rows.append(row)
    table.identity_keys = shown_settings(table.rows, declared=fixed)
    table.shared = shared_settings(table.rows, table.identity_keys)
    return table


def allusion_tables(logs: list[EvalLog], names: Mapping[str, str] | None = None) -> list[Table]:
    """Section 4's analyses over the allusion runs among `logs` (full logs), one run per model, task and settings
    (`_analysed`): the MC-minus-open-ended gap per judge mode, accuracy and text count per theme (Table 2's themes),
    the PersPoems -> LLM-Generated drop, knowledge x recognition per model (each text once), and the texts right in
    MC but wrong open-ended. Runs are read together only where they agree on every setting both have (one prompt
    language, one judge: `runs_agree`), each combination a row, so that no analysis pairs an English-prompt run with
    a Persian-prompt one. Each accuracy has its n and interval, beside the unparsed and judge-unreadable shares of
    its run (figeval's columns, as in Table 3)."""
    runs = _analysed([log for log in logs if _task(log) in TASKS and log.status == "success"], names or {})
    if not runs:
        return []
    scored = [run for run in runs if "accuracy" in run.run.metrics]
    by_task = {task: sorted((r for r in runs if r.task == task), key=lambda r: (r.model, r.what())) for task in TASKS}
    gap = Table("persian-allusions/gap", "MC minus open-ended accuracy", SECTION_4, "percent",
                [ColumnHead("mc", "MC"), ColumnHead("open", "Open-ended"), ColumnHead("gap", "Gap"),
                 ColumnHead("mc_unparsed", "MC unparsed", ours=True),
                 ColumnHead("open_unparsed", "Open-ended unparsed", ours=True),
                 ColumnHead("open_judge_unreadable", "Open-ended judge unreadable", ours=True)])
    rows = []
    for open_ in (r for r in by_task["allusion_open"] if r in scored):
        for mc in (r for r in by_task["allusion_mc"] if r in scored):
            if mc.model == open_.model and mc.dataset == open_.dataset and runs_agree([mc.run, open_.run]):
                row, settings = _row(open_.model, [mc, open_], dataset=open_.dataset, judge_mode=open_.mode)
                row.cells = _cells({"mc": _cell(mc, "accuracy"), "open": _cell(open_, "accuracy"),
                                    "gap": Cell(mc.run.metrics["accuracy"] - open_.run.metrics["accuracy"]),
                                    "mc_unparsed": _cell(mc, UNPARSED_RATE),
                                    "open_unparsed": _cell(open_, UNPARSED_RATE),
                                    "open_judge_unreadable": _cell(open_, JUDGE_UNPARSED_RATE)})
                rows.append((row, settings))
                _noted(gap, [mc, open_])
    _settled(gap, rows, ["dataset", "judge_mode"])
    themes = Table("persian-allusions/themes", "Accuracy per theme (n: texts with the theme; on PersPoems the counts "
                   "are Table 2)", SECTION_4, "percent", [ColumnHead(theme, theme) for theme in THEMES], cell_n=True)
    rows = []
    for analysed in (r for task in ("allusion_mc", "allusion_open") for r in by_task[task]):
        row, settings = _row(analysed.model, [analysed], task=analysed.task, dataset=analysed.dataset,
                             judge_mode=analysed.mode)
        row.cells = {theme: Cell(acc, *proportion_interval(acc, n), n=n)
                     for theme, (acc, n) in theme_accuracy(analysed.log).items()}
        rows.append((row, settings))
        _noted(themes, [analysed])
    _settled(themes, sorted(rows, key=lambda pair: pair[0].label), ["task", "dataset", "judge_mode"])
    drop = Table("persian-allusions/drop", "PersPoems -> LLM-Generated accuracy", SECTION_4, "percent",
                 [ColumnHead("perspoems", "PersPoems"), ColumnHead("generated", "LLM-Generated"),
                  ColumnHead("drop", "Drop"),
                  *(ColumnHead(f"{dataset}_{what}", f"{name} {header}", ours=True)
                    for what, header in (("unparsed", "unparsed"), ("judge_unreadable", "judge unreadable"))
                    for dataset, name in (("perspoems", "PersPoems"), ("generated", "LLM-Generated")))])
    rows = []
    for poems in (r for r in scored if r.dataset == "perspoems"):
        for generated in (r for r in scored if r.dataset == "generated"):
            if (generated.model, generated.task, generated.mode) == (poems.model, poems.task, poems.mode) \
                    and runs_agree([poems.run, generated.run], {"dataset"}):
                row, settings = _row(poems.model, [poems, generated], task=poems.task, judge_mode=poems.mode)
                row.cells = _cells({
                    "perspoems": _cell(poems, "accuracy"), "generated": _cell(generated, "accuracy"),
                    "drop": Cell(poems.run.metrics["accuracy"] - generated.run.metrics["accuracy"]),
                    **{f"{name}_{what}": _cell(analysed, metric)
                       for name, analysed in (("perspoems", poems), ("generated", generated))
                       for what, metric in (("unparsed", UNPARSED_RATE), ("judge_unreadable", JUDGE_UNPARSED_RATE))}})
                rows.append((row, settings))
                _noted(drop, [poems, generated])
    _settled(drop, sorted(rows, key=lambda pair: pair[0].label), ["task", "judge_mode"])
    cross = Table("persian-allusions/knowledge-x-recognition", "Knowledge (complete explanation) x recognition: texts, "
                  "with example ids", SECTION_4, "count",
                  [ColumnHead(f"{k}/{r}", f"{'knows' if k == 'knows' else 'does not know'}, {r}")
                   for k in ("knows", "not") for r in ("recognized", "missed")])
    listing = Table("persian-allusions/mc-not-open", "Texts right in MC but wrong open-ended", SECTION_4, "count",
                    [ColumnHead("knows", "knows the allusion (Section 4)"),
                     ColumnHead("not", "does not know it (Appendix B)")])
    crossed, listed = [], []
    for known_from in by_task["allusion_knowledge"]:
        knowledge = _knowledge(known_from.log)
        for analysed in (r for task in ("allusion_mc", "allusion_open") for r in by_task[task]):
            if analysed.model != known_from.model or not runs_agree([known_from.run, analysed.run]):
                continue
            counted = CrossTable()
            for text_id, key, recognized in _recognition(analysed.log):
                if key in knowledge:
                    counted.add(knowledge[key], recognized, text_id)
            if counted.counts:
                row, settings = _row(analysed.model, [known_from, analysed], task=analysed.task,
                                     dataset=analysed.dataset, judge_mode=analysed.mode)
                row.cells = {f"{'knows' if k else 'not'}/{'recognized' if r else 'missed'}":
                             Cell(counted.counts[(k, r)], label=", ".join(counted.examples[(k, r)]))
                             for k in (True, False) for r in (True, False)}
                crossed.append((row, settings))
                _noted(cross, [known_from, analysed])
            if analysed.task != "allusion_open":
                continue
            for mc in by_task["allusion_mc"]:
                if mc.model == analysed.model and mc.dataset == analysed.dataset and \
                        runs_agree([known_from.run, mc.run, analysed.run]):
                    found = mc_right_open_wrong(knowledge, mc.log, analysed.log)
                    row, settings = _row(analysed.model, [known_from, mc, analysed], dataset=analysed.dataset,
                                         judge_mode=analysed.mode)
                    row.cells = {"knows" if knows else "not": Cell(len(ids), label=", ".join(ids))
                                 for knows, ids in found.items()}
                    listed.append((row, settings))
                    _noted(listing, [known_from, mc, analysed])
    _settled(cross, crossed, ["task", "dataset", "judge_mode"])
    _settled(listing, listed, ["dataset", "judge_mode"])
    for table in (gap, drop):
        table.notes.append(_UNREAD)  # what figeval's columns count: after what is particular to these runs
    return [table for table in (gap, themes, drop, cross, listing) if table.rows]


def mc_right_open_wrong(knowledge: dict[str, bool], mc: EvalLog, open_: EvalLog) -> dict[bool, list[str]]:
    """Text ids (sorted) a model gets right in MC and wrong open-ended, split by whether it knows the allusion
    (Section 4: knows; Appendix B: does not know). A text missing from either run, or whose allusion has no
    knowledge verdict, is left out."""
    in_mc = {text_id: (key, recognized) for text_id, key, recognized in _recognition(mc)}
    found: dict[bool, list[str]] = {True: [], False: []}
    for text_id, key, recognized in _recognition(open_):
        if text_id in in_mc and in_mc[text_id][1] and not recognized and key in knowledge:
            found[knowledge[key]].append(text_id)
    return {knows: sorted(ids) for knows, ids in found.items()}
