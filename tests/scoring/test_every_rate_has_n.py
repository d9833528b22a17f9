"""Every rate a task logs records its own denominator beside it (`<metric>/n`), so a report's n and interval are
that metric's: checked over every metric of every benchmark's scorer (issue 25), on answers that give each metric
a value, so a metric added without its n fails here."""

from __future__ import annotations

import pytest
from inspect_ai.scorer._scorer import scorer_metrics  # the metrics a @scorer declares; not exported in 0.3.285

from figeval.scoring.metrics import denominator_name
from figeval.scoring.outcome import DecidedBy, Outcome, Status
from figeval.scoring.readers import LABEL_MASS
from tests.metric_values import metric_values, sample_score

# Values that are not shares of answers: counts, their spread, intervals, and the n themselves.
NOT_RATES = ("/n", "/stderr", "/ci_low", "/ci_high")
COUNTS = ("tp", "fp", "tn", "fn")
COUNT_PREFIXES = ("decided_by/", "rule/")


def rates_without_n(values: dict[str, float]) -> list[str]:
    """The logged values that are rates and have no `<name>/n` (how answers were read share `read/n`)."""
    missing = []
    for name in values:
        if name.endswith(NOT_RATES) or name in COUNTS or name.startswith(COUNT_PREFIXES):
            continue
        n = "read/n" if name.startswith("read/") else denominator_name(name)
        if n not in values:
            missing.append(name)
    return missing


def with_mass(outcome: Outcome, mass: float) -> Outcome:
    from dataclasses import replace

    return replace(outcome, details={**outcome.details, LABEL_MASS: mass})


def ffe_detection_scores():
    from figeval.benchmarks.ffe_hallu.scorer import VERDICTS

    scores = []
    for i, (kind, framing, label) in enumerate([("fake", "fake-q", "real"), ("fake", "real-q", "fake"),
                                                 ("fake", "fake-q", None), ("fake", "real-q", "real"),
                                                 ("real", "real-q", "fake")]):
        target = "fake" if kind == "fake" else "real"
        outcome = (Outcome(label, DecidedBy.LOGPROB, target=target) if label
                   else Outcome.unparsed(DecidedBy.LOGPROB, "no yes/no", target))
        scores.append(sample_score(with_mass(outcome, 0.4 + 0.1 * i), VERDICTS, f"s{i}", kind=kind, framing=framing,
                                   item=f"fake-{i // 2}", category_slug="word_perturbation"))
    return scores


def ffe_judged_scores():
    from figeval.benchmarks.ffe_hallu.scorer import FFE_LABELS

    outcomes = [Outcome("correct", DecidedBy.JUDGE), Outcome("hallucinated", DecidedBy.RULE, rule="x"),
                Outcome.unparsed(DecidedBy.PARSER, "no Persian expression"),
                Outcome(None, DecidedBy.JUDGE, Status.JUDGE_UNPARSED)]
    return [sample_score(o, FFE_LABELS.values, f"s{i}") for i, o in enumerate(outcomes)]


def idiom_scores():
    outcomes = [Outcome("yes", DecidedBy.PARSER, target="yes"), Outcome("no", DecidedBy.PARSER, target="no"),
                Outcome.unparsed(DecidedBy.PARSER, "no label", "yes"), Outcome("yes", DecidedBy.PARSER, target="no")]
    variants = ["figurative", "literal", "figurative", "literal"]
    return [sample_score(with_mass(o, 0.7), ["yes", "no"], f"s{i}", variant=v, frequency_band="seen")
            for i, (o, v) in enumerate(zip(outcomes, variants))]


def perhallueval_scores():
    from figeval.benchmarks.perhallueval.dataset import SUBSETS

    subset = next(iter(SUBSETS.values()))
    scores = []
    for i, (item, version, label) in enumerate([("q1", "correct", "Y"), ("q1", "hallucinated", "N"),
                                                ("q2", "correct", "Y"), ("q2", "hallucinated", "Y")]):
        target = "Y" if version == "correct" else "N"
        scores.append(sample_score(with_mass(Outcome(label, DecidedBy.PARSER, target=target), 0.9), ["Y", "N"],
                                   f"s{i}", item=item, version=version, persian_specific=item == "q1", subset=subset))
    return scores


def allusion_mc_scores():
    from figeval.benchmarks.persian_allusions.scorer import OPTION_LABELS

    outcomes = [Outcome("1", DecidedBy.PARSER, target="1"), Outcome("0", DecidedBy.PARSER, target="2"),
                Outcome.unparsed(DecidedBy.PARSER, "no option", "3")]
    return [sample_score(o, OPTION_LABELS, f"s{i}", theme_slugs=["religious", "quranic"][: i % 2 + 1])
            for i, o in enumerate(outcomes)]


def allusion_judged_scores(labels: list[str], good: str):
    outcomes = [Outcome(good, DecidedBy.JUDGE), Outcome(labels[-1], DecidedBy.JUDGE),
                Outcome.unparsed(DecidedBy.PARSER, "no answer"), Outcome(None, DecidedBy.JUDGE, Status.JUDGE_UNPARSED)]
    return [sample_score(o, labels, f"s{i}", theme_slugs=["religious"]) for i, o in enumerate(outcomes)]


def flatten(metrics) -> list:
    return [m for entry in metrics for m in (entry if isinstance(entry, list) else [entry])]


def cases():
    from figeval.benchmarks.ffe_hallu.scorer import detection_metrics, judged_metrics
    from figeval.benchmarks.perhallueval.scorer import perhallueval_metrics
    from figeval.benchmarks.persian_allusions.scorer import (
        KNOWLEDGE_LABELS,
        OPEN_LABELS,
        knowledge_scorer,
        mc_scorer,
        open_scorer,
    )
    from figeval.benchmarks.turkish_idioms.scorer import idiom_metrics

    return {
        "ffe_detection": (detection_metrics(), ffe_detection_scores()),
        "ffe_generation/translation": (judged_metrics(), ffe_judged_scores()),
        "tr_idiom_detection (unbalanced)": (idiom_metrics("detection", True, balanced=False), idiom_scores()),
        "perhallueval": (perhallueval_metrics(), perhallueval_scores()),
        "allusion_mc": (flatten(scorer_metrics(mc_scorer())), allusion_mc_scores()),
        "allusion_knowledge": (flatten(scorer_metrics(knowledge_scorer())),
                               allusion_judged_scores(KNOWLEDGE_LABELS.values, "complete")),
        "allusion_open": (flatten(scorer_metrics(open_scorer())),
                          allusion_judged_scores(OPEN_LABELS.values, "correct")),
    }


@pytest.mark.parametrize("case", list(cases()))
def test_every_rate_records_its_n(case):
    metrics, scores = cases()[case]
    values = metric_values(metrics, scores)
    assert rates_without_n(values) == []


def test_the_check_finds_a_rate_without_n():
    # a rate and a count pass only with their n; counts and intervals need none
    assert rates_without_n({"accuracy": 0.5, "accuracy/n": 4, "tp": 2, "f1": 0.4, "f1/ci_low": 0.1}) == ["f1"]
