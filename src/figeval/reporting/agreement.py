"""Judge-vs-human and annotator agreement as report tables, from the label files `figeval annotate import` writes:
each judge against the resolved human labels, per generator model, and the annotators against each other, with
the paper's rows where its benchmark declares the paper's tables (`Benchmark.agreement`). The numbers are those
`figeval judge agreement` prints."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from inspect_ai.log import EvalLog

from figeval.annotation.labels import HumanLabel
from figeval.benchmark import AgreementTables, Benchmark, annotation_spec
from figeval.reporting.logs import read_log
from figeval.reporting.paper import Lines, paper_notes, paper_rows
from figeval.reporting.runs import RunSummary, distinguishing_settings
from figeval.reporting.tables import (
    Cell,
    ColumnHead,
    Row,
    Table,
    preferred,
    preferred_text,
    few_items_note,
    proportion_interval,
    subset_note,
)
from figeval.stats import FEW_ITEMS, AgreementRow, Interval, bootstrap_trusted

def _columns(unit: str) -> list[ColumnHead]:
    # a paper printing agreement as a fraction calls it "EM" (exact match); in percent, "Agr."
    agreement = (ColumnHead("em", "EM", "higher") if unit == "fraction"
                 else ColumnHead("agreement", "Agreement(%)", "higher"))
    return [agreement, ColumnHead("kappa", "Cohen's kappa", "higher", unit="fraction")]


@dataclass(frozen=True)
class LabelGroup:
    """People's labels of one set of a model's answers, with the runs whose answers they are."""

    model: str
    """The model as reports name it (as its labels name it where no run given has its answers)."""
    settings: dict[str, str]
    """What tells these answers from the model's other labelled answers: the settings their runs alone share
    (meaning=paraphrased); empty when the model has one set."""
    labels: list[HumanLabel]
    runs: list[tuple[RunSummary, EvalLog]]
    """The runs whose answers these are (several: the same answers judged twice); none: no run given has them."""

    @property
    def name(self) -> str:
        if not self.runs:
            return f"{self.model} (no run given)"
        return self.model + (f" ({settings_text(self.settings)})" if self.settings else "")


def settings_text(settings: Mapping[str, str]) -> str:
    return ", ".join(f"{key}={value}" for key, value in settings.items())


def label_groups(humans: Sequence[HumanLabel], labelled: Sequence[tuple[RunSummary, EvalLog]]) -> list[LabelGroup]:
    """People's labels split by the runs whose answers they label (`labelled`, from `labelled_runs`): one group per
    model and set of answers, so that a model's dictionary-meaning and paraphrased-meaning answers are never one
    line; runs of the same answers (one output judged twice) share a group. Labels of answers no run given has are
    a group per model of their own. Groups in the order of model, then settings."""
    by_key = {(h.model, h.sample_id): h for h in humans}
    found: dict[tuple, tuple[list[HumanLabel], list[tuple[RunSummary, EvalLog]]]] = {}
    claimed: set[tuple[str, str]] = set()
    for run, log in labelled:
        keys = tuple(sorted({key for sample in log.samples or []
                             if (key := (log.eval.model, str(sample.id))) in by_key}))
        if keys:
            claimed |= set(keys)
            found.setdefault((log.eval.model, keys), ([by_key[key] for key in keys], []))[1].append((run, log))
    shared = {key: dict(sorted(set.intersection(*(set((run.identity or {}).items()) for run, _ in runs))))
              for key, (_, runs) in found.items()}
    groups = []
    for key, (labels, runs) in found.items():
        # the settings that tell this group from the model's other groups; the model as reports name it
        others = [settings for other, settings in shared.items() if other[0] == key[0] and other != key]
        told = {name: value for name, value in shared[key].items() if any(o.get(name) != value for o in others)}
        groups.append(LabelGroup(runs[0][0].display_name, told, labels, runs))
    for model in sorted({h.model for h in humans}):
        if rest := [h for h in humans if h.model == model and (h.model, h.sample_id) not in claimed]:
            groups.append(LabelGroup(model, {}, rest, []))
    return sorted(groups, key=lambda group: (group.model, not group.runs, settings_text(group.settings)))


def kappa_text(kappa: Interval, n: int) -> str:
    """A kappa with its 95% bootstrap interval ("0.712 [0.604, 0.810]"), or why it has none over n items."""
    if bootstrap_trusted(n):
        return f"{kappa.estimate:.3f} [{kappa.low:.3f}, {kappa.high:.3f}]"
    return f"{kappa.estimate:.3f} (no interval: {FEW_ITEMS})"


def _cells(row: AgreementRow, agreement_key: str) -> dict[str, Cell]:
    # percent agreement is a share of the n items both labelled: the Wilson interval over them (kappa: bootstrap)
    cells = {agreement_key: Cell(row.percent, *proportion_interval(row.percent, row.n), row.n)} if row.n else {}
    if row.kappa is not None:
        trusted = bootstrap_trusted(row.n)
        cells["kappa"] = Cell(row.kappa.estimate, row.kappa.low if trusted else None,
                              row.kappa.high if trusted else None, row.n)
    return cells


def agreement_tables(labels: Path, runs: Sequence[RunSummary], benchmarks: Sequence[Benchmark],
                     paper: bool = False) -> list[Table]:
    """The judge table for the runs of the task `labels` labels (only their logs are read in full), and the
    annotators' table when two or more people labelled.

    Raises:
        FigevalError: the labels file is unreadable or of a task with no annotation scheme, or no run of the
            report is one whose answers it labels.
    """
    from figeval.annotation.agreement import judge_agreement
    from figeval.annotation.labels import labelled_runs, read_task_labels, unlabelled_note

    task, humans, annotators = read_task_labels(labels, lambda name: annotation_spec(benchmarks, name))
    benchmark = next(b for b in benchmarks if task in b.annotated)
    printed = benchmark.agreement.get(task)
    unit = printed.unit if printed else "percent"
    judge_source = f"{benchmark.title} {printed.judge_source}" if printed else ""
    annotator_source = f"{benchmark.title} {printed.annotator_table}" if printed and printed.annotator_table else ""
    columns = _columns(unit)
    key = columns[0].key
    # the runs whose answers the labels label; the log dir's other runs of the task are left out, and said so
    read = [(run, read_log(run.log)) for run in runs if run.task == task]
    labelled, unlabelled = labelled_runs([(log, False) for _, log in read], task, humans, labels)
    kept = {id(log) for log in labelled}
    mine, preferred_notes = _preferred([(run, log) for run, log in read if id(log) in kept])
    # each setting that tells a model's runs apart is a column, so that two runs' rows are never taken for each
    # other; the judge has its own column, where a run's rules line names the run's judge when judges differ
    differing = distinguishing_settings([run for run, _ in mine])
    judges_differ = "judge" in differing
    settings = [name for name in differing if name != "judge"]
    judged = Table(f"judge-agreement/{task}", f"{task}: judge vs people ({labels.name})", judge_source, unit, columns,
                   identity_keys=["judge", *settings], intervals=True)
    judged.notes += [unlabelled_note(log, labels) for log in unlabelled] + preferred_notes
    for run, log in mine:
        found = judge_agreement(log, humans, benchmark.annotated[task].scheme)
        setting = {name: str((run.identity or {}).get(name, "")) for name in settings}
        for agreement in found[:-1]:
            judge = agreement.row.group.partition(" | ")[2].removeprefix("judge ")
            judged.rows.append(Row(run.display_name, {"judge": judge, **setting}, _cells(agreement.row, key)))
        rules = found[-1].row.group.partition(" | ")[2]
        rules += f" (judge {(run.identity or {}).get('judge', '')})" if judges_differ else ""
        judged.rows.append(Row(run.display_name, {"judge": rules, **setting}, _cells(found[-1].row, key)))
        judged.notes += _partial_judge_notes(run, found)
    tables = [judged] if judged.rows else []
    groups = label_groups(humans, mine)
    tables += [people] if (people := _annotator_table(task, groups, annotators, labels, annotator_source, unit)) else []
    for table in tables:
        if few := few_items_note(table):
            table.notes.append(few)
    if paper and printed:
        numbers, notes = benchmark.numbers(), benchmark.inconsistencies()
        if judged.rows and printed.judges:
            judged.rows += _per_judge_rows(numbers, printed, judged.source)
        elif judged.rows:
            judged.rows += paper_rows(numbers, printed.judge_table, {c.key for c in columns}, judged.source)
            judged.notes += paper_notes(notes, printed.judge_table)
        if people is not None and printed.annotator_table:
            people.rows += paper_rows(numbers, printed.annotator_table, {c.key for c in columns}, people.source)
            people.notes += paper_notes(notes, printed.annotator_table)
    return tables


def _preferred(labelled: Sequence[tuple[RunSummary, EvalLog]]) -> tuple[list[tuple[RunSummary, EvalLog]], list[str]]:
    """Of the labelled runs, one per model and settings: a complete run over any subset (`--limit`,
    `--sample-id`), whatever their times, then the newest (`preference`, as the papers' tables choose), so that a
    smoke test never stands in for the run people's labels also cover; and what the table says: which run was used
    where several competed, and that a subset was used for want of a complete one."""
    found: dict[tuple, list[tuple[RunSummary, EvalLog]]] = {}
    for run, log in labelled:
        found.setdefault((run.model, tuple(sorted((run.identity or {}).items()))), []).append((run, log))
    kept, notes = [], []
    for candidates in found.values():
        run, log = preferred(candidates, lambda pair: pair[0])
        kept.append((run, log))
        if len(candidates) > 1:
            notes.append(f"{run.model}: {len(candidates)} runs with these settings have labelled answers; the "
                         f"{preferred_text([r for r, _ in candidates])} is used ({run.log}).")
        if not run.complete:
            notes.append(subset_note(run, ["agreement"]))
    return kept, notes


def _partial_judge_notes(run: RunSummary, found: Sequence) -> list[str]:
    """A note where a judge's row rests on fewer answers than the run's labels: the judge was not asked about
    every output (`judge_every_output=false`), unlike the paper's judges."""
    everything = found[-1].row.n  # the run's own labels, as its rates count them
    return [f"{run.model}, {agreement.row.group.partition(' | ')[2]}: labelled {agreement.row.n} of the {everything} "
            "outputs people resolved (the others were decided by a rule or unread and not shown to it, or its "
            "answer was unreadable); the paper's judges labelled every output (-T judge_every_output=true, the "
            "default)" for agreement in found[:-1] if agreement.row.n < everything]


def _per_judge_rows(numbers: Lines, printed: AgreementTables, source: str) -> list[Row]:
    """A judge table's numbers for one task where the paper prints a column pair per judge: one row per generator
    model and judge."""
    rows = []
    for judge in printed.judges:
        keys = {f"{printed.judge_columns}/{judge}/agreement", f"{printed.judge_columns}/{judge}/kappa"}
        for row in paper_rows(numbers, printed.judge_table, keys, source):
            cells = {key.rsplit("/", 1)[1]: cell for key, cell in row.cells.items()}
            rows.append(Row(row.label, {"judge": judge}, cells, reference=source))
    return rows


def _annotator_table(task: str, groups: Sequence[LabelGroup], annotators: Sequence[str], labels: Path, source: str,
                     unit: str) -> Table | None:
    """Each pair of annotators per group of answers (a model, and the settings that tell its labelled runs apart),
    then over all labels."""
    from figeval.annotation.agreement import annotator_agreement

    columns = _columns(unit)
    key = columns[0].key
    if len(annotators) < 2:
        return None
    rows, fleiss = annotator_agreement([(group.name, group.labels) for group in groups], annotators)
    people = Table(f"annotator-agreement/{task}", f"{task}: annotators ({labels.name})", source, unit, columns,
                   identity_keys=["annotators"], intervals=True)
    for row in rows:
        pair, _, group = row.group.partition(": ")
        people.rows.append(Row(group, {"annotators": pair}, _cells(row, key)))
    if isinstance(fleiss, str):
        people.notes.append(f"Fleiss' kappa over all {len(annotators)} annotators: n/a ({fleiss})")
    elif fleiss is not None:
        everything = {(h.model, h.sample_id) for group in groups for h in group.labels}
        people.notes.append(f"Fleiss' kappa over all {len(annotators)} annotators: "
                            f"{kappa_text(fleiss, len(everything))}")
    return people
