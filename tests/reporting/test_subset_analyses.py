"""The report's tables outside the papers' TableSpecs choose runs as those do (issue 25): the contamination check,
judge-vs-people agreement and the allusion analyses use a complete run over a newer subset run (`--limit`,
`--sample-id`) of the same thing, say so when runs competed, and note a subset used for want of a complete run.

Logs are real Inspect logs scored from hand-built outcomes (`tests.metric_values.logged_outcomes`), so every
expected value is known by construction; which run a table used shows in a value only that run gives.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from inspect_ai.log import write_eval_log

from figeval._registry import BENCHMARKS
from figeval.results.runs import RunSummary, summarize
from figeval.scoring.outcome import DecidedBy, Outcome
from figeval.stats import FEW_ITEMS
from tests.metric_values import logged_outcomes

MORNING, NOON = "2026-11-01T09:00:00+00:00", "2026-11-01T12:00:00+00:00"
SUBSET = "limit 2: 2 of 800 samples"
PREFERRED = "the newest complete run (over the subset runs) is used"


# --- FFE-HALLU's contamination check ----------------------------------------------------------------------------


def detection_run(tmp_path: Path, name: str, accepted: list[bool], created: str, subset: str = "",
                  fakes: str | None = None) -> RunSummary:
    """An ffe_detection run whose fakes (all Word Perturbation, one answer each) were accepted as real or not."""
    from figeval.benchmarks.ffe_hallu.dataset import FAKE_CATEGORIES
    from figeval.benchmarks.ffe_hallu.scorer import VERDICTS

    outcomes = [Outcome("real" if yes else "fake", DecidedBy.PARSER, target="fake") for yes in accepted]
    metadata = [{"kind": "fake", "item": f"fake-{i}", "category": FAKE_CATEGORIES[0]} for i in range(len(accepted))]
    log = logged_outcomes(tmp_path / name, outcomes, VERDICTS, metadata, "ffe_detection")
    for sample in log.samples:  # the contamination check reads detection_scorer's scores
        sample.scores = {"detection_scorer": sample.scores["replayed_outcomes"]}
    log.reductions = None
    path = tmp_path / f"{name}.eval"
    write_eval_log(log, str(path))
    identity = {"prompt_version": "ffe-detection-v3"} | ({"fakes": fakes} if fakes else {})
    return RunSummary("ffe_detection", "openai/gpt-4.1", len(accepted), {}, "success", str(path), identity=identity,
                      created=created, subset=subset, files=("fakes",) if fakes else ())


def test_contamination_uses_the_complete_published_run_over_a_newer_subset(tmp_path: Path):
    from figeval.benchmarks.ffe_hallu.tables import contamination_table

    # published: the complete run accepted 1 of 4 fakes (0.25); a newer 2-fake smoke test accepted both (1.0)
    complete = detection_run(tmp_path, "complete", [True, False, False, False], MORNING)
    smoke = detection_run(tmp_path, "smoke", [True, True], NOON, subset=SUBSET)
    fresh = detection_run(tmp_path, "fresh", [True, True, False, False], MORNING, fakes="mine.csv@0123abcd")
    table = contamination_table([complete, smoke, fresh])
    word = table.rows[0]
    # the complete run's 0.25 (4 items), not the smoke test's 1.0; fresh 0.5: difference 0.25
    assert (word.cells["published"].value, word.cells["published"].n) == (0.25, 4)
    assert word.cells["published"].log == complete.log
    assert word.cells["difference"].value == pytest.approx(0.25)
    assert f"openai/gpt-4.1 Published fakes(%): 2 runs; {PREFERRED} ({complete.log})." in table.notes
    assert not any("from a subset run" in note for note in table.notes)


def test_contamination_notes_a_subset_used_for_want_of_a_complete_run(tmp_path: Path):
    from figeval.benchmarks.ffe_hallu.tables import contamination_table

    smoke = detection_run(tmp_path, "smoke", [True, True], NOON, subset=SUBSET)
    fresh = detection_run(tmp_path, "fresh", [True, False], MORNING, fakes="mine.csv@0123abcd")
    table = contamination_table([smoke, fresh])
    assert table.rows[0].cells["published"].value == 1.0  # the smoke test's 2 of 2: the only published run
    assert (f"openai/gpt-4.1 Published fakes(%): from a subset run ({SUBSET}; no complete run of ffe_detection with "
            f"these settings): {smoke.log}.") in table.notes


# --- Judge vs people (FFE-HALLU Table 6) --------------------------------------------------------------------------


def generation_run(tmp_path: Path, name: str, judged: str, count: int, created: str, subset: str = "") -> RunSummary:
    """An ffe_generation run whose judge labelled each of `count` outputs `judged`."""
    from figeval.benchmarks.ffe_hallu.scorer import FFE_LABELS
    from figeval.scoring.judged import JUDGE_LABEL, JUDGE_MODEL

    outcomes = [Outcome(judged, DecidedBy.JUDGE, details={JUDGE_MODEL: "openai/gpt-4.1", JUDGE_LABEL: judged})] * count
    log = logged_outcomes(tmp_path / name, outcomes, FFE_LABELS.values, task_name="ffe_generation",
                          settings={"meaning": "human", "judge": "openai/gpt-4.1"})
    return replace(summarize(log), created=created, subset=subset)


def people_labels(tmp_path: Path, model: str) -> Path:
    """One person labelled the 4 outputs s1-s4 correct."""
    labels = tmp_path / "labels.csv"
    labels.write_text("task,model,sample_id,label,resolution,ann1\n" + "".join(
        f"ffe_generation,{model},s{i},correct,single,correct\n" for i in range(1, 5)), encoding="utf-8")
    return labels


def test_agreement_uses_the_complete_run_over_a_newer_subset(tmp_path: Path):
    from figeval.results.agreement import agreement_tables
    from figeval.results.labelled import read_labelled

    # the complete run's judge said correct to s1-s4 (agreement 4/4); a newer smoke test's said hallucinated to
    # s1-s2 (0/2): both runs' answers are labelled, the same model and settings
    complete = generation_run(tmp_path, "complete", "correct", 4, MORNING)
    smoke = generation_run(tmp_path, "smoke", "hallucinated", 2, NOON, subset=SUBSET)
    [labelled] = read_labelled([people_labels(tmp_path, complete.model)], [complete, smoke], BENCHMARKS)
    [table] = agreement_tables(labelled)
    # one run's rows: its judge's and its final labels', each 4 of 4 and its Wilson interval: centre
    # (4 + 1.920730) / 7.841459 = 0.755055, half-width 1.959964 / 7.841459 * sqrt(0 + 0.960365) = 0.244946:
    # [0.510109, 1]
    assert [(row.cells["agreement"].value, row.cells["agreement"].n) for row in table.rows] == [(1.0, 4), (1.0, 4)]
    assert (table.rows[0].cells["agreement"].low, table.rows[0].cells["agreement"].high) == pytest.approx(
        (0.510109, 1.0), abs=1e-6)
    assert table.notes == [f"{complete.model}: 2 runs with these settings have labelled answers; {PREFERRED} "
                           f"({complete.log})."]


def test_agreement_notes_a_subset_used_for_want_of_a_complete_run(tmp_path: Path):
    from figeval.results.agreement import agreement_tables
    from figeval.results.labelled import read_labelled

    smoke = generation_run(tmp_path, "smoke", "hallucinated", 2, NOON, subset=SUBSET)
    [labelled] = read_labelled([people_labels(tmp_path, smoke.model)], [smoke], BENCHMARKS)
    [table] = agreement_tables(labelled)
    assert {row.cells["agreement"].value for row in table.rows} == {0.0}  # hallucinated vs people's correct
    assert table.notes[0] == (f"{smoke.model} agreement: from a subset run ({SUBSET}; no complete run of "
                              f"ffe_generation with these settings): {smoke.log}.")
    assert table.notes[1:] == [f"no interval where {FEW_ITEMS} ({smoke.model} Cohen's kappa; {smoke.model} Cohen's "
                               "kappa)."]


# --- Persian allusions' Section 4 analyses ------------------------------------------------------------------------


def allusion_log(tmp_path: Path, name: str, task: str, outcomes: list[Outcome], labels, created: str,
                 limit: int | None = None, **metadata):
    """An allusion run (accuracy and unparsed rate logged); with `limit`, a subset: the log records the limit and a
    dataset of 10 samples."""
    from figeval.benchmarks.persian_allusions.scorer import MC_POLICIES, OPEN_POLICIES
    from figeval.scoring.metrics import policy_metrics
    from figeval.scoring.reading_metrics import reading_metrics

    policies = MC_POLICIES if task == "allusion_mc" else OPEN_POLICIES
    texts = [{"allusion": "A", "themes": ["religious"]}] * len(outcomes)
    log = logged_outcomes(tmp_path / name, outcomes, labels, texts, task,
                          task_metadata={"dataset_variant": "perspoems", **metadata},
                          settings={"dataset": "perspoems", **metadata},
                          metrics=[*policy_metrics(policies), *reading_metrics()])
    log.eval.created = created
    if limit is not None:
        log.eval.config.limit = limit
        log.eval.dataset.samples = 10
    return log


def test_allusion_analyses_use_the_complete_run_over_a_newer_subset(tmp_path: Path):
    from figeval.benchmarks.persian_allusions.analysis import allusion_tables
    from figeval.benchmarks.persian_allusions.scorer import OPEN_LABELS, OPTION_LABELS

    right, wrong = Outcome("1", DecidedBy.PARSER, target="1"), Outcome("2", DecidedBy.PARSER, target="1")
    complete = allusion_log(tmp_path, "mc", "allusion_mc", [right, right], OPTION_LABELS, MORNING)
    smoke = allusion_log(tmp_path, "smoke", "allusion_mc", [wrong], OPTION_LABELS, NOON, limit=1)
    opened = allusion_log(tmp_path, "open", "allusion_open",
                          [Outcome("correct", DecidedBy.JUDGE), Outcome.unparsed(DecidedBy.PARSER, "no answer")],
                          OPEN_LABELS.values, MORNING, judge_mode="gt")
    [gap] = [t for t in allusion_tables([complete, smoke, opened]) if t.key == "persian-allusions/gap"]
    [row] = gap.rows
    # MC: the complete run's 2 of 2 (the smoke test's 0 of 1 is newer); open 1 of 2 (the unparsed one wrong)
    assert {key: (cell.value, cell.n) for key, cell in row.cells.items() if key != "gap"} == {
        "mc": (1.0, 2), "open": (0.5, 2), "mc_unparsed": (0.0, 2), "open_unparsed": (0.5, 2)}
    assert row.cells["gap"].value == 0.5
    assert f"{complete.eval.model} allusion_mc on perspoems: 2 runs; {PREFERRED} ({complete.location})." in gap.notes
    assert not any("from a subset run" in note for note in gap.notes)


def test_allusion_analyses_note_a_subset_used_for_want_of_a_complete_run(tmp_path: Path):
    from figeval.benchmarks.persian_allusions.analysis import allusion_tables
    from figeval.benchmarks.persian_allusions.scorer import OPEN_LABELS, OPTION_LABELS

    smoke = allusion_log(tmp_path, "smoke", "allusion_mc", [Outcome("2", DecidedBy.PARSER, target="1")],
                         OPTION_LABELS, NOON, limit=1)
    opened = allusion_log(tmp_path, "open", "allusion_open", [Outcome("correct", DecidedBy.JUDGE)], OPEN_LABELS.values,
                          MORNING, judge_mode="gt")
    [gap] = [t for t in allusion_tables([smoke, opened]) if t.key == "persian-allusions/gap"]
    assert gap.rows[0].cells["mc"].value == 0.0
    assert (f"{smoke.eval.model} allusion_mc on perspoems: from a subset run (limit 1: 1 of 10 samples; no complete "
            f"run of allusion_mc with these settings): {smoke.location}.") in gap.notes
