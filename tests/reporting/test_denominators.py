"""Each cell's n is its metric's own denominator and its interval the metric's bootstrap or Wilson's over that n
(issue 25): never the run's sample count, never a Wald interval collapsed at 0% or 100%; numbers rounded once,
when written."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from figeval._registry import BENCHMARKS
from figeval.benchmarks.ffe_hallu.scorer import FFE_LABELS, judged_metrics
from figeval.benchmarks.ffe_hallu.tables import FIGURE_1, TABLE_3
from figeval.reporting.cells import cell_text, grid
from figeval.reporting.data_formats import render_csv
from figeval.results.report import Report, build_report
from figeval.results.runs import RunSummary
from figeval.table_model import Cell, ColumnHead, Row, Table
from figeval.results.tables import build_table, metric_cell
from figeval.scoring.outcome import DecidedBy, Outcome, Status
from figeval.version import __version__
from tests.command import figeval
from tests.metric_values import logged_outcomes

MODEL = "openai/gpt-4.1"


def detection_run(metrics: dict[str, float], log: str = "logs/detection.eval") -> RunSummary:
    return RunSummary("ffe_detection", MODEL, 800, metrics, "success", log)


def test_fake_q_over_200_fakes_in_an_800_sample_run_has_n_200():
    # 0 of 200 fakes accepted: Wilson (z = 1.959964) [0, 0.018846] (tests/test_stats.py derives it at z = 1.96;
    # the last digit agrees), not Wald's collapsed [0, 0]
    cell = metric_cell(detection_run({"halluc_rate_fake_q": 0.0, "halluc_rate_fake_q/stderr": 0.0,
                                      "halluc_rate_fake_q/n": 200}), "halluc_rate_fake_q")
    assert (cell.value, cell.n, cell.samples) == (0.0, 200, 800)
    assert (cell.low, cell.high) == pytest.approx((0.0, 0.018846), abs=1e-6)


def test_a_complement_flips_the_interval():
    # Figure 1's accuracy = 1 - hallucination rate: 0/50 accepted is 100% accuracy; Wilson of 0/50:
    # centre 1.920730 / 53.841459 = 0.035674, half-width 1.959964 / 53.841459 * sqrt(0.960365) = 0.035674:
    # [0, 0.071348] -> accuracy [1 - 0.071348, 1] = [0.928652, 1]
    run = detection_run({"halluc_rate_fake_q/word_perturbation": 0.0, "halluc_rate_fake_q/word_perturbation/n": 50})
    cell = metric_cell(run, "halluc_rate_fake_q/word_perturbation", complement=True)
    assert (cell.value, cell.n) == (1.0, 50)
    assert (cell.low, cell.high) == pytest.approx((0.928652, 1.0), abs=1e-6)
    # n = 50 < 100: the interval is shown, the upper bound 100.0 and the lower one not collapsed onto it
    table = build_table(FIGURE_1, [run])
    assert cell_text(table, table.rows[0].cells["fake_q/word_perturbation"]) == "100.0 [92.9, 100.0] (n=50)"


def test_a_bootstrap_interval_is_kept():
    run = RunSummary("perhallueval_qa", MODEL, 8000, {"hamming_score": 0.64, "hamming_score/ci_low": 0.62,
                                                      "hamming_score/ci_high": 0.65, "hamming_score/n": 4000},
                     "success", "logs/qa.eval")
    cell = metric_cell(run, "hamming_score")
    assert (cell.low, cell.high, cell.n) == (0.62, 0.65, 4000)


def test_a_log_of_a_build_before_the_log_format_is_refused_in_one_line_by_every_reader(tmp_path: Path):
    # a figeval log as a build before the format wrote it: no recorded identity in its task metadata; its numbers
    # cannot be read as today's, so nothing is shown from it
    from inspect_ai.log import write_eval_log

    log = logged_outcomes(tmp_path, [Outcome("hallucinated", DecidedBy.PARSER)], FFE_LABELS.values)
    log.eval.task = "figeval/ffe_detection"
    old = tmp_path / "old" / "run.eval"
    old.parent.mkdir()
    write_eval_log(log, str(old))
    for command in (["report", str(old.parent)], ["annotate", "export", str(old), "--out", str(tmp_path / "s.csv")]):
        result = figeval(*command)
        assert result.returncode == 2 and result.stdout == "", (command, result.stdout)
        [line] = result.stderr.splitlines()
        assert line == (f"error: {old} was written by a figeval build earlier than its log format (it records no "
                        f"run identity), which figeval {__version__} cannot read; run its task again with this "
                        "release (answers in Inspect's response cache are reused).")
    assert not (tmp_path / "s.csv").exists()


def test_a_judged_rate_over_2_answers_of_10_has_n_2(tmp_path: Path):
    # 10 outputs: 2 labelled correct, 8 the judge could not label (left out of every rate)
    outcomes = [Outcome("correct", DecidedBy.JUDGE)] * 2 + [Outcome(None, DecidedBy.JUDGE, Status.JUDGE_UNPARSED)] * 8
    log = logged_outcomes(tmp_path, outcomes, FFE_LABELS.values, task_name="ffe_generation",
                          settings={"meaning": "human", "judge": MODEL}, metrics=judged_metrics())
    report = build_report(Path(log.location.removeprefix("file://")).parent, BENCHMARKS)
    table = next(t for t in report.tables if t.key == TABLE_3.key)
    [row] = table.rows
    correct = row.cells["human/correct"]
    # 2/2 correct: Wilson (z = 1.959964) centre 3.920730 / 5.841459 = 0.671190, half-width 1.959964 / 5.841459
    # * sqrt(0 + 0.960365) = 0.328810: [0.342380, 1]
    assert (correct.value, correct.n, correct.samples) == (1.0, 2, 10)
    assert (correct.low, correct.high) == pytest.approx((0.342380, 1.0), abs=1e-6)
    assert cell_text(table, correct) == "100.0 [34.2, 100.0] (n=2)"
    # the unparsed rate is over all 10 outputs: the row's samples, so no (n=...) of its own; Wilson of 0/10: centre
    # 1.920730 / 13.841459 = 0.138767 = half-width: [0, 0.277534]
    assert (row.cells["human/unparsed"].n, cell_text(table, row.cells["human/unparsed"])) == (10, "0.0 [0.0, 27.8]")
    # figeval's judge-unreadable column beside it: 8 of the 10 outputs, 0.8 over n = 10 (all outputs, the row's
    # samples: no (n=...) of its own). Wilson of 8/10: centre (8 + 1.920730) / 13.841459 = 0.716740, half-width
    # 1.959964 / 13.841459 * sqrt(8 * 2 / 10 + 0.960365) = 0.141601 * 1.600114 = 0.226577: [0.490162, 0.943318]
    unreadable = row.cells["human/judge_unreadable"]
    assert (unreadable.value, unreadable.n, unreadable.samples) == (0.8, 10, 10)
    assert (unreadable.low, unreadable.high) == pytest.approx((0.490162, 0.943318), abs=1e-6)
    assert cell_text(table, unreadable) == "80.0 [49.0, 94.3]"
    # "Correct 100.0" can no longer be read alone: the rendered row shows the 10 samples, the 2 the judge labelled
    # and the 8 it could not
    [head, line] = grid(table)
    shown = dict(zip(head, line))
    assert (shown["samples"], shown["human Correct(%) ↑"], shown["human Judge unreadable(%) *"]) == (
        "10", "100.0 [34.2, 100.0] (n=2)", "80.0 [49.0, 94.3]")
    # a log of today's scorer: nothing to re-score; the notes say what figeval's columns count, and that the row is
    # the judge's where the paper's are people's
    assert table.notes[:-1] == list(TABLE_3.notes) and "--human LABELS" in table.notes[-1]
    assert "Judge unreadable: the share of answers whose judge answer could not be read (asked twice)" in table.notes[0]


def test_csv_values_are_rounded_once_when_written():
    # 0.14 * 100 is 14.000000000000002 in floating point; the CSV keeps two decimals of a percent
    table = Table("t", "title", "source", "percent", [ColumnHead("rate", "Rate")],
                  [Row("m", {}, {"rate": Cell(0.14, 0.1, 0.18000000000000002, 200, "logs/a.eval", samples=800)})])
    [line] = list(csv.DictReader(io.StringIO(render_csv(Report([table], [])))))
    assert (line["value"], line["ci_low"], line["ci_high"], line["n"]) == ("14.0", "10.0", "18.0", "200")
