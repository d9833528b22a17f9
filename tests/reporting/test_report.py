"""`figeval report` over logs of three models across the benchmarks: every table's cells against hand-derived
values, newest-run-wins, unfinished runs listed, the papers' numbers, each export format read back, the figures
read back from their SVG, and the HTML parsed.

Logs are real Inspect logs: one written by Inspect (a scored run), copied per task and model with the metrics and
settings each case needs, so that every expected value below is known by construction. The allusion runs are
scored from outcomes, as their analyses read samples.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import signal
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
from inspect_ai.log import EvalMetric, EvalScore, write_eval_log

from figeval._registry import BENCHMARKS
from figeval.benchmarks.persian_allusions.scorer import (KNOWLEDGE_LABELS, KNOWLEDGE_POLICIES, MC_POLICIES, OPEN_LABELS,
                                                         OPEN_POLICIES, OPTION_LABELS)
from figeval.results.report import build_report
from figeval.scoring.metrics import policy_metrics
from figeval.scoring.outcome import DecidedBy, Outcome
from tests.command import assert_one_line_error, figeval
from tests.metric_values import identity_metadata, logged_outcomes

A, B, C = "openai/gpt-4.1", "anthropic/claude-3-7-sonnet", "vllm/google/gemma-3-27b"
CATEGORIES = ("word_perturbation", "semantic_inversion_contradiction",
              "phonetic_poetic_mimicry", "cultural_fabrication")


def detection(fake_q: float, real_q: float, agreement: float, fake_q_stderr: float = 0.02) -> dict[str, float]:
    """Table 4's metrics; per category, fake-q rates 0.1, 0.2, 0.3, 0.4 and real-q 0.0 for every model. Each with
    its own n, as a run of 800 samples records them: 200 fakes under each framing (400 answers to fakes: the
    average and the unparsed rate), 200 paired fakes (agreement), 100 controls, 50 fakes per category."""
    metrics = {"halluc_rate_fake_q": fake_q, "halluc_rate_fake_q/stderr": fake_q_stderr, "halluc_rate_real_q": real_q,
               "halluc_rate_avg": (fake_q + real_q) / 2, "agreement": agreement, "unparsed_rate": 0.01,
               "false_rejection_rate": 0.05, "halluc_rate_fake_q/n": 200, "halluc_rate_real_q/n": 200,
               "halluc_rate_avg/n": 400, "agreement/n": 200, "unparsed_rate/n": 400, "false_rejection_rate/n": 100}
    for i, category in enumerate(CATEGORIES, start=1):
        metrics |= {f"halluc_rate_fake_q/{category}": i / 10, f"halluc_rate_real_q/{category}": 0.0,
                    f"halluc_rate_fake_q/{category}/n": 50, f"halluc_rate_real_q/{category}/n": 50}
    return metrics


def perhallueval(hamming: float, factual: float, hallucinated: float, precision: float, f1: float) -> dict[str, float]:
    metrics = {"hamming_score": hamming, "hamming_score/ci_low": hamming - 0.02,
               "hamming_score/ci_high": hamming + 0.01,
               "factual_recall": factual, "factual_recall/ci_low": factual - 0.02,
               "factual_recall/ci_high": factual + 0.02,
               "hallucinated_recall": hallucinated, "hallucinated_recall/ci_low": hallucinated - 0.02,
               "hallucinated_recall/ci_high": hallucinated + 0.02, "unparsed_rate": 0.0,
               "precision": precision, "f1": f1,
               "hamming_score/persian_specific": hamming + 0.05, "hamming_score/persian_specific/ci_low": hamming,
               "hamming_score/persian_specific/ci_high": hamming + 0.1, "hamming_score/generic": hamming - 0.05,
               "hamming_score/generic/ci_low": hamming - 0.1, "hamming_score/generic/ci_high": hamming,
               "persian_specific_share": 0.38}
    return metrics


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("report")
    template = logged_outcomes(tmp / "template", [Outcome("x", DecidedBy.PARSER)], ["x"])
    out = tmp / "logs"
    out.mkdir()
    count = iter(range(1000))

    def run(task, model, metrics, samples=800, status="success", hour=12, **metadata):
        log = template.model_copy(deep=True)
        log.eval.task, log.eval.model, log.status = f"figeval/{task}", model, status
        log.eval.created = f"2026-11-01T{hour:02d}:{next(count) % 60:02d}:00+00:00"
        log.eval.eval_id = f"report-{next(count)}"  # each copy its own run (one eval id in two files is one run)
        log.eval.metadata = identity_metadata(metadata)
        log.eval.task_args = {}
        log.results.total_samples = log.results.completed_samples = samples
        log.results.scores = [EvalScore(name="scorer", scorer="scorer",
                                        metrics={k: EvalMetric(name=k, value=v) for k, v in metrics.items()})]
        write_eval_log(log, str(out / f"{task}-{next(count)}.eval"))

    detection_settings = {"prompt_version": "ffe-detection-v3", "answer_mode": "generate", "controls": True}
    run("ffe_detection", A, detection(0.5, 0.5, 0.5), hour=9, **detection_settings)  # replaced by the newer A run
    run("ffe_detection", A, detection(0.215, 0.075, 0.86), **detection_settings)
    run("ffe_detection", B, detection(0.785, 0.45, 0.635), **detection_settings)
    run("ffe_detection", C, detection(0.945, 0.72, 0.755), **detection_settings)
    run("ffe_detection", C, {}, status="cancelled", **detection_settings)  # listed, never used
    generation = {"prompt_version": "ffe-generation-v3+ffe-judge-v2", "judge_prompt": "paper"}
    judged = {"correct_rate": 0.605, "incorrect_rate": 0.19, "hallucinated_rate": 0.205, "unparsed_rate": 0.0}
    run("ffe_generation", A, judged, samples=200, meaning="human", judge="openai/gpt-4.1", **generation)
    run("ffe_generation", A, {"correct_rate": 0.595, "incorrect_rate": 0.235, "hallucinated_rate": 0.17},
        samples=200, meaning="paraphrased", judge="openai/gpt-4.1", **generation)
    run("ffe_generation", B, {"correct_rate": 0.5, "incorrect_rate": 0.35, "hallucinated_rate": 0.15}, samples=200,
        meaning="human", judge="google/gemini-2.5-pro", **generation)
    # n = 50: below 100, so the interval is shown: Wilson of 15/50, z = 1.959964 (z^2 = 3.841459): centre
    # (15 + 1.920730) / 53.841459 = 0.314270, half-width 1.959964 / 53.841459 * sqrt(15 * 35 / 50 + 0.960365)
    # = 0.036402 * 3.385316 = 0.123234: [0.1910, 0.4375]
    run("ffe_translation", C, {"correct_rate": 0.3, "correct_rate/stderr": 0.0655, "correct_rate/n": 50,
                               "incorrect_rate": 0.1, "hallucinated_rate": 0.6}, samples=50, judge="openai/gpt-4.1",
        judge_prompt="paper")
    turkish = {"prompt_version": "tr-idioms-v2", "prompt_lang": "en", "answer_mode": "generate"}
    run("tr_idiom_detection", A, {"accuracy": 0.594, "yes_rate": 0.8, "unparsed_rate": 0.0}, samples=400, **turkish)
    run("tr_idiom_entailment", A,
        {"accuracy": 0.52, "entailment_rate": 0.3, "unparsed_rate": 0.02}, samples=400, **turkish)
    run("tr_idiom_entailment", B, {"accuracy": 0.545, "entailment_rate": 0.6}, samples=400, **turkish)
    qa = {"prompt_version": "perhallueval-v3", "answer_mode": "generate", "unparsed": "as_wrong"}
    run("perhallueval_qa", A, perhallueval(0.64, 0.47, 0.81, 0.7, 0.56), samples=8000, **qa)
    run("perhallueval_qa", B, perhallueval(0.57, 0.8, 0.34, 0.55, 0.66), samples=8000, **qa)
    run("perhallueval_qa", C, perhallueval(0.52, 0.9, 0.14, 0.5, 0.65), samples=8000, **qa)
    run("perhallueval_summarization", A, perhallueval(0.9, 0.92, 0.88, 0.88, 0.9), samples=8000, **qa)

    # Allusions: one model, scored from outcomes (its analyses read samples). MC 2 of 2 right, open 1 of 2.
    allusions = [{"allusion": a, "themes": [theme]} for a, theme in (("A", "religious"), ("B", "quranic"))]
    right = Outcome("1", DecidedBy.PARSER, target="1")
    settings = {"prompt_version": "allusions-v3", "prompt_lang": "en", "dataset": "perspoems"}
    for name, outcomes, labels, policies, task, extra in (
        ("k", [Outcome("complete", DecidedBy.JUDGE), Outcome("partial", DecidedBy.JUDGE)], KNOWLEDGE_LABELS.values,
         KNOWLEDGE_POLICIES, "allusion_knowledge", {"judge": "openai/gpt-4o"}),
        ("mc", [right, right], OPTION_LABELS, MC_POLICIES, "allusion_mc", {}),
        ("open", [Outcome("correct", DecidedBy.JUDGE), Outcome("incorrect", DecidedBy.JUDGE)], OPEN_LABELS.values,
         OPEN_POLICIES, "allusion_open", {"judge": "openai/gpt-4o", "judge_mode": "gt"}),
    ):
        log = logged_outcomes(tmp / name, outcomes, labels, allusions, task,
                              task_metadata={"dataset_variant": "perspoems"}, settings={**settings, **extra},
                              metrics=policy_metrics(policies))
        log.eval.model = B
        log.eval.eval_id = f"report-{task}"
        write_eval_log(log, str(out / f"{task}.eval"))
    return out


def by_key(report):
    return {table.key: table for table in report.tables}


def cells(table, label, **identity):
    """{column: value} of the row for a model (and settings), values in [0, 1] as the metrics give them."""
    [row] = [r for r in table.rows if r.label == label and not r.reference
             and all(r.identity.get(k) == v for k, v in identity.items())]
    return {key: round(cell.value, 4) for key, cell in row.cells.items()}


def test_every_table_from_the_runs(logs: Path):
    report = build_report(logs, BENCHMARKS)
    tables = by_key(report)
    # Table 4: the newer of A's two runs; B and C as logged
    table_4 = tables["ffe-hallu/table-4"]
    assert [row.label for row in table_4.rows] == [B, A, C]  # sorted by model name
    assert cells(table_4, A) == {"fake_q": 0.215, "real_q": 0.075, "avg": 0.145, "agreement": 0.86, "unparsed": 0.01,
                                 "false_rejection": 0.05}
    assert cells(table_4, C)["avg"] == 0.8325  # (0.945 + 0.72) / 2
    # Figure 1: accuracy = 1 - hallucination rate: fake-q 0.9, 0.8, 0.7, 0.6 by category; real-q 1.0
    figure_1 = cells(tables["ffe-hallu/figure-1"], B)
    assert [figure_1[f"fake_q/{c}"] for c in CATEGORIES] == [0.9, 0.8, 0.7, 0.6]
    assert {figure_1[f"real_q/{c}"] for c in CATEGORIES} == {1.0}
    assert figure_1["unparsed"] == 0.01  # figeval's column: the run's unparsed share of the fakes' answers
    # Table 3: A's human and paraphrased runs share a row (same judge); B's other judge is its own row
    table_3 = tables["ffe-hallu/table-3"]
    assert cells(table_3, A) == {"human/correct": 0.605, "human/incorrect": 0.19, "human/hallucinated": 0.205,
                                 "paraphrased/correct": 0.595, "paraphrased/incorrect": 0.235,
                                 "paraphrased/hallucinated": 0.17, "human/unparsed": 0.0}
    assert cells(table_3, B, judge="google/gemini-2.5-pro") == {"human/correct": 0.5, "human/incorrect": 0.35,
                                                                "human/hallucinated": 0.15}
    # Table 5: C only, with its interval
    [row] = tables["ffe-hallu/table-5"].rows
    assert (row.label, round(row.cells["correct"].low, 4), round(row.cells["correct"].high, 4)) == (C, 0.1910, 0.4375)
    # Turkish Table 2: detection and entailment of A on one row; B has entailment only
    turkish = tables["turkish-idioms/table-2"]
    assert cells(turkish, A) == {"detection": 0.594, "entailment": 0.52, "yes_rate": 0.8, "entailment_rate": 0.3,
                                 "detection_unparsed": 0.0, "entailment_unparsed": 0.02}
    assert cells(turkish, B) == {"entailment": 0.545, "entailment_rate": 0.6}
    # Allusions Table 3: knowledge 1 of 2 complete, MC 2 of 2, open (GT judge) 1 of 2, all on one row
    assert cells(tables["persian-allusions/table-3"], B) == {"knowledge": 0.5,
                                                             "perspoems/mc": 1.0, "perspoems/open": 0.5}
    assert cells(tables["persian-allusions/gap"], B) == {"mc": 1.0, "open": 0.5, "gap": 0.5}
    # PerHalluEval: Table 2 (QA and TS of A on one row), Figures 3, 5, 8, Table 4 by family
    # (with figeval's unparsed column of each task: both runs logged unparsed_rate 0.0)
    assert cells(tables["perhallueval/table-2"], A) == {"qa/hamming_score": 0.64, "summarization/hamming_score": 0.9,
                                                        "qa/unparsed": 0.0, "summarization/unparsed": 0.0}
    assert tables["perhallueval/table-2"].rows[0].cells["qa/hamming_score"].low is not None
    assert cells(tables["perhallueval/figure-3"], C) == {"factual_recall": 0.9, "hallucinated_recall": 0.14,
                                                         "hamming_score": 0.52, "unparsed": 0.0}
    assert cells(tables["perhallueval/figure-5"], A) == {"persian_specific": 0.69, "generic": 0.59,
                                                         "persian_specific_share": 0.38, "unparsed": 0.0}
    assert cells(tables["perhallueval/figure-8"], A) == {"qa/precision": 0.7, "qa/recall": 0.47, "qa/f1": 0.56,
                                                         "summarization/precision": 0.88, "summarization/recall": 0.92,
                                                         "summarization/f1": 0.9, "qa/unparsed": 0.0,
                                                         "summarization/unparsed": 0.0}
    # Table 4 by the paper's families: A (gpt-4.1, Appendix A's identifier of its GPT-4o) OpenAI, B (Claude Sonnet
    # 3.7) Anthropic; C is none of the paper's models, a row of its own; the paper's families first
    family = {row.label: row for row in tables["perhallueval/table-4"].rows}
    assert list(family) == ["Anthropic", "OpenAI", f"unknown family: {C}"]
    unknown = family[f"unknown family: {C}"].cells["qa/factual_recall"]
    assert (unknown.value, unknown.label) == (0.9, C)


def test_newest_run_wins_and_unfinished_runs_are_listed(logs: Path):
    report = build_report(logs, BENCHMARKS)
    [replaced] = report.superseded
    assert replaced.run.model == A and replaced.run.metrics["halluc_rate_fake_q"] == 0.5
    assert replaced.by.metrics["halluc_rate_fake_q"] == 0.215
    [cancelled] = report.not_successful
    assert (cancelled.task, cancelled.model, cancelled.status) == ("ffe_detection", C, "cancelled")
    text = figeval("report", str(logs)).stdout
    assert f"replaced by a newer run with the same settings: {replaced.run.log}" in text
    assert f"not used (cancelled): ffe_detection {C}" in text


def test_a_folder_of_only_unfinished_runs_is_refused_with_the_runs_named(logs: Path, tmp_path: Path):
    [cancelled] = build_report(logs, BENCHMARKS).not_successful
    alone = tmp_path / "unfinished"
    alone.mkdir()
    shutil.copy(cancelled.log.removeprefix("file://"), alone)
    result = figeval("report", str(alone), "--format", "html", "--out", str(tmp_path / "site"))
    assert result.returncode == 2 and result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: no finished run in {alone}, only 1 that did not finish: ffe_detection on {C} "
                           "(cancelled): ")
    assert "inspect eval-retry LOG" in line and line.endswith("nothing was written.")
    assert not (tmp_path / "site").exists()


def test_a_file_given_as_the_log_folder_is_one_line_naming_it_and_the_folder_to_give(tmp_path: Path):
    # a run's JSON log (or any file) given where the folder of logs goes
    given = tmp_path / "logs" / "run.json"
    given.parent.mkdir()
    given.write_text('{"version": 2, "status": "success"}', encoding="utf-8")
    result = figeval("report", str(given), "--out", str(tmp_path / "site"))
    assert_one_line_error(result, f"no log directory at '{given}': it is a file",
                          "give the folder `figeval run --log-dir` wrote to", f"the folder it is in: '{given.parent}'",
                          "nothing was written")
    assert not (tmp_path / "site").exists()


def test_task_filter_and_leaderboard(logs: Path):
    only = build_report(logs, BENCHMARKS, tasks=["tr_idiom_entailment"])
    # Table 2 and Section 4's frequency finding (the fixture's data carries corpus frequencies)
    assert [t.key for t in only.tables] == ["turkish-idioms/table-2", "turkish-idioms/frequency"]
    assert {row.label for row in only.tables[0].rows} == {A, B}
    [board] = build_report(logs, BENCHMARKS, leaderboard=True).tables
    assert [row.label for row in board.rows] == [B, A, C]
    # one headline per task; missing cells stay missing (A has no allusion runs; C no Turkish)
    assert cells(board, A) == {"ffe_generation": 0.605, "ffe_detection": 0.145, "tr_idiom_detection": 0.594,
                               "tr_idiom_entailment": 0.52, "perhallueval_qa": 0.64, "perhallueval_summarization": 0.9}
    assert cells(board, C) == {"ffe_detection": 0.8325, "ffe_translation": 0.3, "perhallueval_qa": 0.52}
    assert [c.better for c in board.columns if c.key == "ffe_detection"] == ["lower"]


def test_paper_rows_are_the_papers_numbers(logs: Path):
    tables = by_key(build_report(logs, BENCHMARKS, paper=True))
    reference = {row.label: row for row in tables["ffe-hallu/table-4"].rows if row.reference}
    # FFE-HALLU Table 4, GPT-4.1: 21.50 / 7.50 / 14.50 / 86.00 (percent in the paper, stored as rates)
    assert {k: round(c.value, 4) for k, c in reference["GPT-4.1"].cells.items()} == {
        "fake_q": 0.215, "real_q": 0.075, "avg": 0.145, "agreement": 0.86}
    assert reference["GPT-4.1"].reference == "FFE-HALLU Table 4"
    # PerHalluEval Table 2, Claude Sonnet 4 QA: 0.64 (0.62-0.64)
    claude = next(r for r in tables["perhallueval/table-2"].rows if r.label == "Claude Sonnet 4")
    cell = claude.cells["qa/hamming_score"]
    assert (cell.value, cell.low, cell.high) == (0.64, 0.62, 0.64)
    # Allusions Table 3 has no LLM-Generated numbers for Claude; Table 2's theme counts sit under the theme table
    claude_35 = next(r for r in tables["persian-allusions/table-3"].rows if r.label == "Claude 3.5-Sonnet")
    assert "generated/open" not in claude_35.cells and claude_35.cells["knowledge"].value == 1.0
    counts = next(r for r in tables["persian-allusions/themes"].rows if r.reference)
    assert {k: c.n for k, c in counts.cells.items()} == {"religious": 112, "quranic": 58, "mythical-historical": 31,
                                                         "romantic": 19, "mystical": 12, "other": 2}
    # Table 4 by family keeps the paper's best variant as the cell's label
    gemini = next(r for r in tables["perhallueval/table-4"].rows if r.reference and r.label == "Gemini")
    assert (gemini.cells["summarization/hamming_score"].value, gemini.cells["summarization/hamming_score"].label) == (
        0.90, "Gemini 2.0 Flash / Gemini 1.5 Flash")


def test_paper_numbers_are_shown_as_printed_with_the_paper_s_own_inconsistencies(logs: Path):
    from figeval.reporting.data_formats import render_csv
    from figeval.reporting.render import render_text

    report = build_report(logs, BENCHMARKS, paper=True)
    tables = by_key(report)
    # FFE-HALLU Table 4, Claude 3.7: avg printed 61.75 (two decimals), not 61.8; Table 3's DeepSeek-V3 paraphrased
    # correct printed "18" (no decimal)
    text = render_text(report)
    claude = next(line for line in text.splitlines() if line.startswith("Claude 3.7 (paper)") and "61.75" in line)
    assert "78.50" in claude and "45.00" in claude and "63.50" in claude
    assert re.search(r"^DeepSeek-V3 \(paper\) .* 18 ", text, re.MULTILINE)
    rows = list(csv.DictReader(io.StringIO(render_csv(report))))
    avg = next(r for r in rows if r["table"] == "ffe-hallu/table-4" and r["row"] == "Claude 3.7"
               and r["column"] == "avg")
    assert avg["value"] == "61.75"  # exactly as printed, no float noise (0.6175 * 100 = 61.750000000000014)
    # a model's row beside the paper's is as precise as the paper's: A's average 14.5 shows as 14.50, as 61.75 does
    a_line = next(line for line in text.split("FFE-HALLU Table 4")[1].splitlines() if line.startswith(A))
    assert "14.50 (n=400)" in a_line
    # PerHalluEval Table 4 prints its recalls in percent (81.3) and its Hamming scores as fractions (0.64): each
    # column in the paper's unit, not 0.8 (the percent's one decimal applied to the fraction)
    anthropic = next(line for line in text.split("PerHalluEval Table 4")[1].splitlines()
                     if line.startswith("Anthropic (paper)"))
    assert "81.3 (Claude Sonnet 4)" in anthropic and "0.64 (Claude Sonnet 4)" in anthropic
    recall = next(r for r in rows if r["table"] == "perhallueval/table-4" and r["row"] == "Anthropic" and r["paper"]
                  and r["column"] == "qa/hallucinated_recall")
    assert (recall["value"], recall["unit"]) == ("81.3", "percent")
    # Table 3 as printed: DeepSeek-R1 paraphrased 47.0 + 27.5 + 25.0 = 99.5, DeepSeek-V3 18 + 24.5 + 47.5 = 90.0
    notes = tables["ffe-hallu/table-3"].notes
    assert any("DeepSeek-R1" in n and "99.5" in n for n in notes) and any("DeepSeek-V3" in n
                                                                          and "90.0" in n for n in notes)
    assert any("193" in n for n in tables["ffe-hallu/table-5"].notes)
    assert any("Table 2 prints 0.62" in n for n in tables["perhallueval/table-4"].notes)
    # Table 4's best Gemini summarization Hamming is "2.0 Flash / 1.5 Flash" at 0.90, where Table 2 gives 2.0 Flash
    # 0.91; Section 5.3's "three lowest" QA scores are not the Persian-tuned models' by Table 2 (Qwen's 0.47 is)
    assert any("0.91 for Gemini 2.0 Flash" in n for n in tables["perhallueval/table-4"].notes)
    assert any("Section 4.1 gives 96.7%" in n for n in tables["perhallueval/table-4"].notes)
    assert any("three lowest" in n and "0.47" in n for n in tables["perhallueval/table-2"].notes)
    # what the papers say in their text: PerHalluEval Section 5.1 (38% Persian-specific, Fleiss' kappa 0.87) and
    # Section 3.4 (3,829 of 4,000 QA items kept, AC1 0.89); the allusions' judge without ground truth (Section 4)
    said = {(row.identity["section"], row.label, row.identity["what"]): row.cells["value"].value
            for row in tables["paper-text"].rows}
    assert said[("perhallueval Section 5.1", "PerHalluEval QA", "persian_specific_share")] == "38%"
    assert said[("perhallueval Section 5.1", "PerHalluEval QA", "persian_specific_fleiss_kappa")] == "0.87"
    assert (said[("perhallueval Section 3.4", "QA items kept by the annotators' majority", "items_kept")]
            == "3829 of 4000")
    assert said[("perhallueval Section 3.4", "QA annotators", "gwet_ac1")] == "0.89"
    assert said[("persian-allusions Section 4", "QwQ-32B judged without ground truth", "kappa")] == "0.62"
    assert said[("persian-allusions Section 4", "Two annotators on Claude 3.5-Sonnet outputs", "em")] == "91.0%"
    assert "paper-text" not in by_key(build_report(logs, BENCHMARKS))  # only with --paper
    # Figure 1 names the categories as the paper does (Section 3.4), not as upstream's file spells them
    headers = [column.header for column in tables["ffe-hallu/figure-1"].columns]
    assert headers[:4] == ["Is it fake? Word Perturbation", "Is it fake? Semantic Inversion",
                           "Is it fake? Structural/Syntactic Mimicry", "Is it fake? Cultural/Historical Fabrication"]


def test_paper_numbers_match_the_papers_text():
    """A sample of the entered numbers, each found in its paper's table line."""
    from tests.conftest import paper_text

    lines = {(n["paper"], n["table"], n["row"], n["column"]): n["value"]
             for benchmark in BENCHMARKS for n in benchmark.numbers()}
    checks = [
        ("ffe-hallu.md", ("ffe-hallu", "Table 3", "Qwen3-235B", "human/hallucinated"), "Qwen3-235B\t"),
        ("ffe-hallu.md",
         ("ffe-hallu", "Table 6", "Claude 3.7", "translation/gemini-2.5-pro/kappa"), "Claude 3.7\t71.5"),
        ("turkish-idioms.md", ("turkish-idioms", "Table 2", "GPT-4o", "entailment"), "GPT-4o\t"),
        ("persian-allusions.md", ("persian-allusions", "Table 4", "o1-mini", "kappa"), "o1-mini\t0.91"),
        ("perhallueval.md", ("perhallueval", "Table 2", "Dorna", "summarization/hamming_score/ci_high"), "\tTS\t0.96"),
    ]
    for paper, key, line_start in checks:
        text = paper_text(paper).replace("<b>", "").replace("</b>", "")
        value = lines[key]
        assert any(line.startswith(line_start) or line_start in line
                   for line in text.splitlines()
                   if re.search(rf"(^|\s|–){re.escape(value)}(\s|$|–)", line)), (key, value)
    # hand-read: Table 3 Qwen3-235B human hallucination 69.5; Table 6 Claude 3.7 translation Gemini kappa 0.41;
    # Turkish GPT-4o entailment 0.520; allusions Table 4 o1-mini kappa 0.81; PerHalluEval Dorna TS CI 0.95-0.96
    assert [lines[key] for _, key, _ in checks] == ["69.5", "0.41", "0.520", "0.81", "0.96"]


def test_formats_carry_the_same_cells(logs: Path, tmp_path: Path):
    def report(*args):
        result = figeval("report", str(logs), *args)
        assert result.returncode == 0, result.stderr
        return result.stdout

    document = json.loads(report("--format", "json"))
    assert set(document) == {"figeval_version", "tables", "runs", "superseded", "not_successful"}
    table_4 = next(t for t in document["tables"] if t["key"] == "ffe-hallu/table-4")
    assert set(table_4) == {"key", "title", "source", "unit", "intervals", "identity_keys", "shared_settings", "notes",
                           "columns", "rows"}
    a_row = next(r for r in table_4["rows"] if r["label"] == A)
    # fake_q's n is its 200 fakes, not the run's 800 samples
    assert (a_row["cells"]["fake_q"]["value"], a_row["cells"]["fake_q"]["n"], a_row["cells"]["fake_q"]["samples"]) == (
        0.215, 200, 800)
    assert a_row["identity"] == {"prompt_version": "ffe-detection-v3", "answer_mode": "generate", "controls": "True"}
    # the allusion analyses are in the JSON too
    assert {"persian-allusions/gap", "persian-allusions/themes"} <= {t["key"] for t in document["tables"]}

    # CSV: one line per cell, in the table's unit: every JSON cell once, percent tables x 100
    rows = list(csv.DictReader(io.StringIO(report("--format", "csv"))))
    from_json = {(t["key"], r["label"], ";".join(f"{k}={v}" for k, v in r["identity"].items()), key):
                 (next(column["unit"] for column in t["columns"] if column["key"] == key), c)
                 for t in document["tables"] for r in t["rows"] for key, c in r["cells"].items()}
    from_csv = {(r["table"], r["row"], r["settings"], r["column"]): r for r in rows}
    assert from_csv.keys() == from_json.keys() and len(rows) == len(from_json)
    for key, (unit, cell) in from_json.items():
        line, scale = from_csv[key], 100 if unit == "percent" else 1
        if cell["value"] is None:
            assert line["value"] == "" and int(line["n"]) == cell["n"], key
        elif isinstance(cell["value"], str):
            assert line["value"] == cell["value"], key
        else:
            assert float(line["value"]) == pytest.approx(cell["value"] * scale), key
            if cell["ci_low"] is not None:
                assert float(line["ci_low"]) == pytest.approx(cell["ci_low"] * scale), key

    # Markdown: the text table's cells, row for row
    markdown = report("--format", "markdown", "--no-paper")
    section = markdown.split("### FFE-HALLU Table 4", 1)[1].split("\n\n###", 1)[0]
    md_rows = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines()
               if line.startswith(f"| {A}")]
    # each cell's own n beside the row's 800 samples; n >= 100, so no interval (Table 4 prints none)
    # (the paper prints Table 4's four columns with two decimals, so a model's row beside them has two; figeval's
    # two columns, which the paper has not, the usual one)
    shown = ["21.50 (n=200)", "7.50 (n=200)", "14.50 (n=400)", "86.00 (n=200)", "1.0 (n=400)", "5.0 (n=100)"]
    assert md_rows == [[A, "800", *shown]]  # the settings every row shares are said in a note, not in columns
    # LaTeX: one table per table, the same row, escaped; Table 4's six columns split over tabulars that fit the
    # line (each repeats the model and samples), the settings every run shares said once under it
    latex = report("--format", "latex")
    assert latex.count(r"\begin{table}[t]") == len(document["tables"])
    table_4_latex = latex[latex.index(r"\caption{FFE-HALLU Table 3"):latex.index(r"\caption{FFE-HALLU Table 4")]
    a_lines = [line.removeprefix(f"{A} & 800 & ").removesuffix(r" \\").split(" & ")
               for line in table_4_latex.splitlines() if line.startswith(f"{A} & 800 & ")]
    assert len(a_lines) > 1 and [unwrapped(cell) for line in a_lines for cell in line] == shown
    assert "Every run: prompt\\_version=ffe-detection-v3, answer\\_mode=generate, controls=True." in latex
    assert r"Unparsed(\%) *" in latex and r"*: figeval's column, not the paper's" in latex
    # --out writes a file and never over a log; text names the file it wrote
    written = report("--format", "markdown", "--out", str(tmp_path / "out"))
    assert written.strip() == f"wrote {tmp_path / 'out' / 'report.md'}"


def unwrapped(latex_cell: str) -> str:
    """A LaTeX cell's text as one line: a value wrapped in a tabular of lines ("21.50 \\\\ (n=200)") unwrapped."""
    inner = re.sub(r"^\\begin\{tabular\}\[t\]\{@\{\}[lr]@\{\}\}(.*)\\end\{tabular\}$", r"\1", latex_cell)
    return inner.replace(r" \\ ", " ").replace("{[}", "[").replace("{]}", "]")


def test_figures_and_html(logs: Path, tmp_path: Path):
    result = figeval("report", str(logs), "--figures", str(tmp_path / "fig"), "--format", "html", "--out",
                     str(tmp_path / "html"))
    assert result.returncode == 0, result.stderr
    files = {path.name: path for path in (tmp_path / "fig").iterdir()}
    for path in files.values():
        assert path.stat().st_size > 1000
    svg = {name.removesuffix(".svg"): path.read_text(encoding="utf-8") for name, path in files.items()
           if name.endswith(".svg")}
    assert {name.removesuffix(".png") for name in files if name.endswith(".png")} == set(svg)

    def ids(name, prefix):
        return re.findall(rf'id="({prefix}-[^"]+)"', svg[name])

    # Figure 1 (fake-q): 4 categories x 3 models
    assert len(ids("ffe-hallu-figure-1-fake-q", "bar")) == 12
    # Turkish label preference: A has both shares, B entailment only
    assert len(ids("turkish-idioms-label-preference", "bar")) == 3
    # PerHalluEval Figure 3: 3 statistics x 3 models; Figure 4: A only; Figure 5: 2 splits x 3 models
    assert len(ids("perhallueval-figure-3", "bar")) == 9
    assert len(ids("perhallueval-figure-4", "bar")) == 3
    assert len(ids("perhallueval-figure-5", "bar")) == 6
    # Figure 8: A on QA and TS, B and C on QA
    assert len(ids("perhallueval-figure-8", "point")) == 4
    # allusions per theme: MC and open rows x their themes (MC: religious and quranic; open: the same two)
    assert len(ids("persian-allusions-themes", "bar")) == 4

    page = (tmp_path / "html" / "report.html").read_text(encoding="utf-8")

    class Collect(HTMLParser):
        def __init__(self):
            super().__init__()
            self.tags, self.ids = [], set()

        def handle_starttag(self, tag, attrs):
            self.tags.append(tag)
            self.ids |= {value for name, value in attrs if name == "id"}

    parser = Collect()
    parser.feed(page)
    tables = by_key(build_report(logs, BENCHMARKS))
    assert set(tables) <= parser.ids  # every table, by its key
    assert set(svg) <= parser.ids  # every figure, inline
    # nothing fetched when it opens: no remote src/href, stylesheet import or url() (XML namespaces are names)
    assert not re.search(r'(src|href)="https?:|@import|url\(\s*["\']?https?:', page)
    assert "<script" not in page


def test_a_report_killed_while_drawing_leaves_only_whole_files_and_a_rerun_completes(logs: Path, tmp_path: Path):
    figures = tmp_path / "fig"
    args = ["report", str(logs), "--figures", str(figures), "--out", str(tmp_path)]
    # a process of its own: the test kills it
    drawing = subprocess.Popen([sys.executable, "-m", "figeval", *args], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        while drawing.poll() is None and not any(figures.glob("*.png")):
            time.sleep(0.01)
    finally:
        drawing.send_signal(signal.SIGKILL)
        drawing.wait()

    def whole(path: Path) -> bool:
        data = path.read_bytes().rstrip()
        return data.endswith({".png": b"IEND\xaeB`\x82", ".svg": b"</svg>", ".pdf": b"%%EOF"}[path.suffix])

    # the kill came after the first figure was renamed into place: every file under its own name is whole (a file
    # being written was still under a hidden temporary name)
    assert all(whole(path) for path in figures.glob("*.*") if not path.name.startswith("."))
    rerun = figeval(*args)
    assert rerun.returncode == 0, rerun.stderr
    drawn = sorted(path for path in figures.iterdir() if not path.name.startswith("."))
    assert len(drawn) == 3 * 9 and all(whole(path) for path in drawn)  # 9 figures, each as PNG, SVG and PDF
    assert (tmp_path / "report.txt").is_file()


def test_persian_labels_are_shaped_and_ordered():
    """The figures' font lays Persian out joined and right to left: matplotlib's own layout of "مذهبی" (م ذ ه ب ی),
    read glyph by glyph (a private matplotlib helper; matplotlib is bounded to 3.x in pyproject)."""
    from matplotlib import _text_helpers
    from matplotlib.font_manager import FontProperties, findfont, get_font

    from figeval.reporting.figures import _pyplot, persian_font_path

    plt = _pyplot()
    assert Path(findfont(FontProperties(family=plt.rcParams["font.family"]))) == persian_font_path()
    font = get_font(str(persian_font_path()))
    font.set_size(12, 72)
    glyphs = list(_text_helpers.layout("مذهبی", font))
    # visual order, left to right: the word's last letter first (a letter may add a dot glyph of its own)
    assert "".join(dict.fromkeys(g.char for g in glyphs)) == "یبهذم"
    first_x = {}
    for g in glyphs:
        first_x.setdefault(g.char, g.x)
    assert list(first_x.values()) == sorted(first_x.values())
    # joined forms, not the isolated letters: final Farsi yeh (U+FBFD), initial heh (U+FEEB), initial meem (U+FEE3)
    charmap = font.get_charmap()
    drawn = {g.char: g.glyph_index for g in glyphs}
    assert (drawn["ی"], drawn["ه"], drawn["م"]) == (charmap[0xFBFD], charmap[0xFEEB], charmap[0xFEE3])
    assert drawn["ی"] != charmap[0x06CC] and drawn["م"] != charmap[0x0645]


def test_markdown_prints_data_strings_literally():
    """A model name or data string with Markdown or HTML in it is shown as written, never rendered."""
    from figeval.reporting.render import markdown_table
    from figeval.table_model import Cell, ColumnHead, Row, Table

    table = Table("t", "Title", "src", "percent", [ColumnHead("a", "A")])
    table.rows.append(Row("[click](http://x.example) <script>*_#|`\\", {}, {"a": Cell(0.5)}))
    table.notes.append("line one\nline two")
    text = markdown_table(table)
    row = next(line for line in text.splitlines() if "click" in line)
    # every special character backslash-escaped: a link, a tag, emphasis, a heading, a cell break, code, a backslash
    assert row.startswith(r"| \[click\](http://x.example) \<script\>\*\_\#\|\`\\ | ")
    assert "- line one line two" in text  # a note stays one list item


def test_latex_prints_data_strings_literally():
    """A model name with TeX specials or a line break stays inside its cell; a note stays inside its comment."""
    from figeval.reporting.latex import latex_table
    from figeval.table_model import Cell, ColumnHead, Row, Table

    table = Table("t", "Title", "src", "percent", [ColumnHead("a", "A")])
    table.rows.append(Row("org/m_1 & 50%\n\\end{tabular}", {}, {"a": Cell(0.5)}))
    table.notes.append("line one\n\\end{document}")
    text = latex_table(table)
    # the line break is a space, the specials escaped: the row cannot end the tabular; the name, 27 characters,
    # wraps at a space into a cell of two lines (a stack of its own, closed before the row's next cell)
    assert (r"\begin{tabular}[t]{@{}l@{}}org/m\_1 \& 50\% \\ \textbackslash{}end\{tabular\}\end{tabular} &  & "
            r"50.0 \\") in text  # model, n (none), A
    assert text.endswith(r"% line one \textbackslash{}end\{document\}")




@pytest.mark.parametrize(("value", "unit", "decimals", "shown"), [
    (0.1425, "percent", None, "14.3"),  # 57/400: 14.25 half up, though 0.1425 * 100 is 14.249999999999998
    ((0.215 + 0.43) / 2, "percent", 2, "32.25"),  # 0.32249999999999995 in floating point: 32.25 as computed exactly
    ((0.215 + 0.43) / 2, "percent", None, "32.3"),
    (0.99995, "fraction", None, "1.000"),
    (0.0004, "fraction", None, "0.000"),
    (-0.0, "percent", None, "0.0"),
    (0.6175, "percent", 2, "61.75"),
    (0.9, "fraction", 2, "0.90"),
    (0.18, "percent", 0, "18"),
    (12.0, "count", None, "12"),
])
def test_one_rounding_rule_for_every_shown_number(value, unit, decimals, shown):
    from figeval.reporting.cells import number

    assert number(value, unit, decimals) == shown


def test_the_text_report_s_notes_fit_a_120_column_terminal(logs: Path):
    # notes (a subset's, the paper's own inconsistencies) ran to 790 columns on one line; each now wraps at its
    # spaces under "note: ", a word with no space (a log's path) whole on its own line
    from figeval.reporting.render import render_text

    text = render_text(build_report(logs, BENCHMARKS, paper=True))
    notes = [line for line in text.splitlines() if line.startswith(("note: ", "    "))]
    assert any(line.startswith("    ") for line in notes)  # some note was long enough to wrap
    assert all(len(line) <= 120 or " " not in line.strip() for line in notes)
    # and nothing was lost: the notes read back as they were written
    joined = " ".join(" ".join(text.split("\n")).split())
    assert all(" ".join(note.split()) in joined for table in build_report(logs, BENCHMARKS, paper=True).tables
               for note in table.notes)
