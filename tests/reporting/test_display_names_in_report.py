"""A report names each model once, by its display name: the same replay file run under two spellings of its path is
one row (the newer run used, the older listed as replaced), a run given its own name (`display_name` in its log, as
`figeval run --name` records it) is a row of that name, and the figures' legends say the same names.

Logs are real Inspect logs (`tests.metric_values.logged_outcomes`), copied as Table 4 runs of three models with
the metrics each needs, so the expected rows are known by construction.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.log import EvalMetric, EvalScore, write_eval_log

from figeval._registry import BENCHMARKS
from figeval.reporting.figures import close, figures
from figeval.reporting.render import render_text
from figeval.results.report import build_report
from figeval.scoring.outcome import DecidedBy, Outcome
from tests.metric_values import identity_metadata, logged_outcomes

SETTINGS = {"prompt_version": "ffe-detection-v3", "answer_mode": "generate", "controls": True}


@pytest.fixture
def logs(tmp_path: Path, monkeypatch) -> Path:
    """In a project folder with runs/a.jsonl: the file run as replay/./runs/a.jsonl at 09:00 (fake-q 0.5) and as
    its absolute path at 12:00 (fake-q 0.2), and openai/gpt-4.1 named "GPT-4.1 (June)" (fake-q 0.1)."""
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "a.jsonl").write_text('{"id": "s1", "output": "x"}\n', encoding="utf-8")
    template = logged_outcomes(tmp_path / "template", [Outcome("x", DecidedBy.PARSER)], ["x"])
    out = tmp_path / "logs"
    out.mkdir()
    for i, (model, hour, fake_q, name) in enumerate((("replay/./runs/a.jsonl", 9, 0.5, None),
                                                     (f"replay/{tmp_path}/runs/a.jsonl", 12, 0.2, None),
                                                     ("openai/gpt-4.1", 10, 0.1, "GPT-4.1 (June)"))):
        log = template.model_copy(deep=True)
        log.eval.task, log.eval.model, log.eval.eval_id = "figeval/ffe_detection", model, f"named-{i}"
        log.eval.created = f"2026-11-01T{hour:02d}:00:00+00:00"
        log.eval.metadata = {**identity_metadata(SETTINGS), **({"display_name": name} if name else {})}
        log.eval.task_args = {}
        log.results.total_samples = log.results.completed_samples = 800
        metrics = {"halluc_rate_fake_q": fake_q, "halluc_rate_fake_q/n": 200, "unparsed_rate": 0.0,
                   "unparsed_rate/n": 400, "halluc_rate_fake_q/word_perturbation": fake_q,
                   "halluc_rate_fake_q/word_perturbation/n": 50}
        log.results.scores = [EvalScore(name="scorer", scorer="scorer",
                                        metrics={k: EvalMetric(name=k, value=v) for k, v in metrics.items()})]
        write_eval_log(log, str(out / f"run-{i}.eval"))
    monkeypatch.chdir(tmp_path)  # the report runs where the runs did
    return out


def test_two_spellings_of_one_replay_file_are_one_row(logs: Path):
    report = build_report(logs, BENCHMARKS)
    table_4 = next(table for table in report.tables if table.key == "ffe-hallu/table-4")
    # rows sorted by display name: "GPT-4.1 (June)" before "a"; the file's newer run (12:00) fills its row
    assert [(row.label, round(row.cells["fake_q"].value, 4)) for row in table_4.rows] == [("GPT-4.1 (June)", 0.1),
                                                                                         ("a", 0.2)]
    [replaced] = report.superseded
    assert (replaced.run.model, replaced.by.model) == ("replay/./runs/a.jsonl", f"replay/{logs.parent}/runs/a.jsonl")
    text = render_text(report)
    assert f"ffe_detection a (replay/{logs.parent}/runs/a.jsonl)" in text  # the run used: name and recorded model


def test_figures_name_the_models_as_the_tables_do(logs: Path):
    found = figures(build_report(logs, BENCHMARKS), BENCHMARKS)
    fake_q = next(f for f in found if f.name == "ffe-hallu-figure-1-fake-q")
    [legend] = fake_q.figure.legends
    assert [text.get_text() for text in legend.get_texts()] == ["GPT-4.1 (June)", "a"]
    close(found)
