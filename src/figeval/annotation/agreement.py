"""A judge against the resolved human labels, annotators among themselves (Tables 7 and 8,
Appendix C), and label rates from human labels beside a run's own (Tables 3 and 5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations

from inspect_ai.log import EvalLog

from figeval.annotation.labels import HumanLabel
from figeval.errors import DataError
from figeval.scoring.judged import JUDGE_LABEL, JUDGE_MODEL
from figeval.scoring.labels import LabelScheme
from figeval.scoring.metrics import AS_WRONG, counted_label
from figeval.scoring.reducer import sample_outcomes
from figeval.stats import (
    AgreementRow,
    Interval,
    UndefinedStatistic,
    agreement_row,
    bootstrap_interval,
    confusion_matrix,
    fleiss_kappa,
)


def judge_labels(log: EvalLog, scheme: LabelScheme, judge: str | None = None,
                 with_rules: bool = False) -> dict[tuple[str, str], Enum]:
    """Labels of a run's answers by (generator model, sample id).

    Args:
        log: a judged run.
        scheme: the task's labels.
        judge: only the answers this judge model labelled (None: any judge).
        with_rules: False: the label a judge model itself gave, before any rule overrode it, on every output it
            was asked about (with `judge_every_output`, also those a rule decided or that could not be read).
            True: the run's final label of every output as its metrics count it: rule shortcuts and overrides
            included, an unread output by the run's unparsed policy; the judge's failures left out.

    Raises:
        DataError: a label is not in the scheme (the log is of another task than the labels).
    """
    by_value = {label.value: label for label in scheme.labels}
    policy = counting_policy(log, scheme)
    found = {}
    for sample, outcome in sample_outcomes(log):
        if with_rules:
            label = counted_label(outcome, policy)[1]
        elif judge in (None, outcome.details.get(JUDGE_MODEL)):
            label = outcome.details.get(JUDGE_LABEL)
        else:
            continue
        if label is None:
            continue
        if label not in by_value:
            raise DataError(f"{log.location}: the label {label!r} is not one of {list(by_value)}; "
                            "give the labels of this log's task.")
        found[(log.eval.model, str(sample.id))] = by_value[label]
    return found


def counting_policy(log: EvalLog, scheme: LabelScheme) -> str:
    """How the run's rates count an unread output (its recorded unparsed policy; never in the model's favour)."""
    policies = (log.eval.metadata or {}).get("unparsed_policies", {})
    return next((policies[f"{label.value}_rate"] for label in scheme.labels if f"{label.value}_rate" in policies),
                AS_WRONG)


def judges_of(log: EvalLog) -> list[str]:
    """The judge models that labelled a run's answers."""
    return sorted({o.details[JUDGE_MODEL] for _, o in sample_outcomes(log) if JUDGE_MODEL in o.details})


@dataclass(frozen=True)
class JudgeAgreement:
    row: AgreementRow
    confusion: list[list[int]]
    """Counts, rows = the judge's label, columns = the humans', in the scheme's order."""


def judge_agreement(log: EvalLog, humans: Sequence[HumanLabel], scheme: LabelScheme) -> list[JudgeAgreement]:
    """How a run's labels agree with the resolved human labels (Table 6): for each judge model, its own raw
    labels over the outputs it labelled (every output, as in the paper, when the run judged every output); then,
    as a line of its own, the run's final labels as its rates count them, figeval's rule shortcuts and
    overrides and the unparsed policy included."""
    resolved = {(h.model, h.sample_id): h.label for h in humans if h.label is not None}

    def compared(group: str, labels: dict[tuple[str, str], Enum]) -> JudgeAgreement:
        keys = sorted(set(labels) & set(resolved))
        row = agreement_row(group, [labels[k] for k in keys], [resolved[k] for k in keys])
        return JudgeAgreement(row, confusion_matrix([(labels[k], resolved[k]) for k in keys], scheme.labels))

    rows = [compared(f"{log.eval.model} | judge {judge}", judge_labels(log, scheme, judge)) for judge in judges_of(log)]
    return rows + [compared(f"{log.eval.model} | with figeval's rules", judge_labels(log, scheme, with_rules=True))]


def annotator_agreement(groups: Sequence[tuple[str, Sequence[HumanLabel]]],
                        annotators: Sequence[str]) -> tuple[list[AgreementRow], Interval | str | None]:
    """Each pair of annotators' agreement per group of answers (Tables 7 and 8, Appendix C: per generator model;
    `groups` are (name, labels), one per model and set of answers, never two runs' answers pooled), then over every
    labelled answer as an extra line ("all labels"), each over the answers both labelled; and with three
    annotators, Fleiss' kappa over every answer's ratings, with a 95% bootstrap interval (or why it is undefined);
    None with fewer."""
    everything = list({(h.model, h.sample_id): h for _, labels in groups for h in labels}.values())
    rows = []
    for (i, first), (j, second) in combinations(enumerate(annotators), 2):
        for group, members in [*groups, ("all labels", everything)]:
            both = [h for h in members if h.annotators[i] is not None and h.annotators[j] is not None]
            rows.append(agreement_row(f"{first} vs {second}: {group}", [h.annotators[i] for h in both],
                                      [h.annotators[j] for h in both]))
    if len(annotators) < 3:
        return rows, None
    units = [[label for label in h.annotators if label is not None] for h in everything]
    try:
        return rows, bootstrap_interval(lambda idx: fleiss_kappa([units[i] for i in idx]), len(units))
    except UndefinedStatistic as error:
        return rows, str(error)


@dataclass(frozen=True)
class LabelRates:
    model: str
    """The model, or the group of its answers the rates are of."""
    n: int
    """Answers counted: those the annotators resolved (and, for a run, that it labelled or counted)."""
    rates: dict[str, float]
    """Label value -> share of the n answers."""
    unresolved: int = 0


def human_rates(group: str, humans: Sequence[HumanLabel], scheme: LabelScheme) -> LabelRates:
    """The label rates of a group of answers from their resolved human labels (the paper's Tables 3 and 5 are
    human-labelled); answers left unresolved are counted apart, never in a rate."""
    resolved = [h.label for h in humans if h.label is not None]
    rates = ({label.value: sum(r is label for r in resolved) / len(resolved) for label in scheme.labels}
             if resolved else {})
    return LabelRates(group, len(resolved), rates, len(humans) - len(resolved))


def run_rates(log: EvalLog, humans: Sequence[HumanLabel], scheme: LabelScheme) -> LabelRates:
    """A run's label rates over the same answers the humans resolved: its final labels (judge and rules), an
    unparsed answer counted by the run's own unparsed policy (e.g. counted as hallucinated); the judge's failures
    are left out."""
    policy = counting_policy(log, scheme)
    resolved = {(h.model, h.sample_id) for h in humans if h.label is not None}
    counted = []
    for sample, outcome in sample_outcomes(log):
        if (log.eval.model, str(sample.id)) in resolved:
            included, label = counted_label(outcome, policy)
            if included:
                counted.append(label)
    rates = ({label.value: sum(c == label.value for c in counted) / len(counted) for label in scheme.labels}
             if counted else {})
    return LabelRates(log.eval.model, len(counted), rates)
