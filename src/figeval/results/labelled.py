"""People's labels read for a report before any table is built: each labels file given to `figeval report --human`
with the runs whose answers it labels (their logs read in full, once), each run's labels of its own answers, and the
agreement of judges and annotators computed over them. The tables (`agreement.py`, `people.py`) only lay these out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from inspect_ai.log import EvalLog

from figeval.annotation.agreement import JudgeAgreement, annotator_agreement, judge_agreement
from figeval.annotation.labels import HumanLabel, labelled_runs, other_answer, read_task_labels, unlabelled_note
from figeval.benchmark import Benchmark, annotation_spec
from figeval.results.agreement_groups import LabelGroup, label_groups
from figeval.results.logs import read_log
from figeval.results.runs import RunSummary
from figeval.table_model import Cell
from figeval.results.tables import preferred, preferred_text, proportion_interval, subset_note
from figeval.stats import AgreementRow, Interval


@dataclass(frozen=True)
class JudgedRun:
    run: RunSummary
    agreements: list[JudgeAgreement]
    """Each judge's own labels against the people's, then the run's final labels (`judge_agreement`)."""


@dataclass(frozen=True)
class LabelledAnswers:
    """One labels file of `figeval annotate import`, with what the report's tables show of it."""

    path: Path
    task: str
    benchmark: Benchmark
    annotators: list[str]
    shares: dict[str, dict[str, Cell]]
    """Per run of the task (by log), each label's share of the answers of the run people resolved, over those
    answers (its n), with the Wilson interval; none for a run whose answers to the labelled samples are another
    run's (`other_answer`), or with no answer resolved."""
    unresolved: dict[str, int]
    """Per run of the task (by log), its labelled answers people left unresolved (two disagree, no third)."""
    judged: list[JudgedRun]
    """The labelled runs, one per model and settings (`_preferred`)."""
    notes: list[str]
    """What the judge table says of the runs: those left out (none of their answers labelled), and which of
    several competing runs was used."""
    groups: list[LabelGroup]
    annotator_rows: list[AgreementRow]
    fleiss: Interval | str | None


def read_labelled(paths: Sequence[Path], runs: Sequence[RunSummary],
                  benchmarks: Sequence[Benchmark]) -> list[LabelledAnswers]:
    """Each labels file with the report's runs whose answers it labels.

    Raises:
        FigevalError: a file is unreadable, of several tasks or of a task with no annotation scheme, or no run
            of the report is one whose answers it labels.
    """
    found = []
    logs: dict[str, EvalLog] = {}
    for path in paths:
        task, humans, annotators = read_task_labels(path, lambda name: annotation_spec(benchmarks, name))
        read = [(run, logs.get(run.log) or logs.setdefault(run.log, read_log(run.log)))
                for run in runs if run.task == task]
        labelled, unlabelled = labelled_runs([(log, False) for _, log in read], task, humans, path)
        kept = {id(log) for log in labelled}
        mine, notes = _preferred([(run, log) for run, log in read if id(log) in kept])
        benchmark = next(b for b in benchmarks if task in b.annotated)
        scheme = benchmark.annotated[task].scheme
        groups = label_groups(humans, mine)
        rows, fleiss = (annotator_agreement([(group.name, group.labels) for group in groups], annotators)
                        if len(annotators) >= 2 else ([], None))
        own = {run.log: _labels_of(log, humans, path) for run, log in read}
        found.append(LabelledAnswers(
            path, task, benchmark, annotators,
            {run: _shares(labels, scheme.values, path) for run, labels in own.items()},
            {run: sum(h.label is None for h in labels) for run, labels in own.items()},
            [JudgedRun(run, judge_agreement(log, humans, scheme)) for run, log in mine],
            [unlabelled_note(log, path) for log in unlabelled] + notes, groups, rows, fleiss))
    return found


def _shares(labels: Sequence[HumanLabel], values: Sequence[str], path: Path) -> dict[str, Cell]:
    """Each label's share of the resolved labels, over them, with its Wilson interval; none with none resolved."""
    resolved = [h.label.value for h in labels if h.label is not None]
    if not resolved:
        return {}
    shares = {value: resolved.count(value) / len(resolved) for value in values}
    return {value: Cell(share, *proportion_interval(share, len(resolved)), len(resolved), str(path))
            for value, share in shares.items()}


def _labels_of(log: EvalLog, humans: Sequence[HumanLabel], path: Path) -> list[HumanLabel]:
    """The people's labels of the run's answers: of its model and samples, each of the very answer the run gave;
    none for a run whose answers to the labelled samples are not those people labelled (`other_answer`)."""
    ids = {str(sample.id) for sample in log.samples or []}
    mine = [h for h in humans if h.model == log.eval.model and h.sample_id in ids]
    if mine and other_answer(log, humans, path) is not None:
        return []
    return mine


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
