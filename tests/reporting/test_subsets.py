"""A run on part of its dataset (`--limit`, `--sample-id`) never replaces a run of the whole dataset in a report:
the complete run's numbers fill the table, the subset is listed apart; a subset fills a cell only when no complete
run exists, and the table says so. And the run summary shows each rate's own n beside it.

Logs are real Inspect logs (written by Inspect, see `tests.metric_values.logged_outcomes`), copied with the
dataset size, the `--limit` and the metrics each case needs, so every expected value is known by construction.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.log import EvalMetric, EvalScore, write_eval_log

from figeval._registry import BENCHMARKS
from figeval.benchmarks.ffe_hallu.tables import TABLE_4
from figeval.reporting.data_formats import render_json
from figeval.reporting.render import render_text
from figeval.results.report import build_report
from figeval.results.runs import RunSummary, summarize
from figeval.results.summary import format_table
from figeval.scoring.outcome import DecidedBy, Outcome
from tests.command import figeval
from tests.metric_values import identity_metadata, logged_outcomes

A, B = "openai/gpt-4.1", "anthropic/claude-3-7-sonnet"
SETTINGS = {"prompt_version": "ffe-detection-v3", "answer_mode": "generate", "controls": True}


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    return logged_outcomes(tmp_path_factory.mktemp("subsets"), [Outcome("x", DecidedBy.PARSER)], ["x"])


def detection_log(template, *, fake_q: float, samples: int, created: str, eval_id: str, model: str = A,
                  limit=None, sample_id=None, dataset_samples: int = 800):
    """A copy of the template log as an ffe_detection run of `samples` of a dataset of `dataset_samples` (the
    ids Inspect records as run: the first `samples`), with `--limit`/`--sample-id` as given."""
    log = template.model_copy(deep=True)
    log.eval.task, log.eval.model, log.eval.created, log.eval.eval_id = "figeval/ffe_detection", model, created, eval_id
    log.eval.metadata, log.eval.task_args = identity_metadata(SETTINGS), {}
    log.eval.config.limit, log.eval.config.sample_id = limit, sample_id
    log.eval.dataset.samples = dataset_samples
    log.eval.dataset.sample_ids = [f"s{i}" for i in range(1, samples + 1)]
    log.results.total_samples = log.results.completed_samples = samples
    metrics = {"halluc_rate_fake_q": fake_q, "halluc_rate_fake_q/n": samples // 4, "unparsed_rate": 0.0,
               "unparsed_rate/n": samples // 2}
    log.results.scores = [EvalScore(name="scorer", scorer="scorer",
                                    metrics={k: EvalMetric(name=k, value=v) for k, v in metrics.items()})]
    return log


@pytest.fixture(scope="module")
def logs(template, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("subset-logs")
    # A: the 800-sample run at 09:00, then a 40-sample smoke test at 12:00 (newer, same settings)
    write_eval_log(detection_log(template, fake_q=0.215, samples=800, created="2026-11-01T09:00:00+00:00",
                                 eval_id="complete-a"), str(out / "a-complete.eval"))
    write_eval_log(detection_log(template, fake_q=0.9, samples=40, created="2026-11-01T12:00:00+00:00",
                                 eval_id="subset-a", limit=40), str(out / "a-subset.eval"))
    # B: only a smoke test (samples 11 to 50: Inspect keeps `--limit 11-50` as (10, 50))
    write_eval_log(detection_log(template, fake_q=0.6, samples=40, created="2026-11-01T12:00:00+00:00",
                                 eval_id="subset-b", model=B, limit=(10, 50)), str(out / "b-subset.eval"))
    return out


def table_4(report):
    [table] = [table for table in report.tables if table.key == "ffe-hallu/table-4"]
    return table


def test_a_newer_subset_never_replaces_the_complete_run(logs: Path):
    report = build_report(logs, BENCHMARKS)
    table = table_4(report)
    rows = {row.label: row for row in table.rows}
    # A's cell: the 09:00 complete run's 0.215 over its 200 fake-q answers (800 / 4), not the 12:00 subset's 0.9
    cell = rows[A].cells["fake_q"]
    assert (cell.value, cell.n) == (0.215, 200) and cell.log.endswith("a-complete.eval")
    # B has only a subset: its 0.6 over 10 answers (40 / 4) is used, and noted with how much of the data it ran
    assert (rows[B].cells["fake_q"].value, rows[B].cells["fake_q"].n) == (0.6, 10)
    # one note for the run, naming every column it fills (fake-q and unparsed: the metrics its log has)
    # (then Table 4's own note on figeval's columns)
    assert table.notes == [f"{B} Prompt-Fake Halluc.(%), Unparsed(%): from a subset run (limit 11-50: 40 of 800 "
                           f"samples; no complete run of ffe_detection with these settings): "
                           f"{rows[B].cells['fake_q'].log}.",
                           *TABLE_4.notes]
    assert table.shared == {"prompt_version": "ffe-detection-v3", "answer_mode": "generate", "controls": "True"}
    # the runs: A's complete run and B's subset used, A's subset listed apart as not used
    assert [(run.model, run.subset) for run in report.runs] == [(B, "limit 11-50: 40 of 800 samples"), (A, "")]
    [left_out] = report.superseded
    assert left_out.run.subset == "limit 40: 40 of 800 samples" and left_out.by.log.endswith("a-complete.eval")


def test_the_runs_list_shows_subsets_apart(logs: Path):
    text = render_text(build_report(logs, BENCHMARKS))
    runs = text[text.index("runs used:"):].splitlines()
    used_at = runs.index("subset runs used (no complete run with the same settings; see the tables' notes):")
    left_at = runs.index("subset runs not used (a complete run with the same settings is used):")
    # complete runs first, alone under "runs used"
    assert len(runs[1:used_at]) == 1 and runs[1].endswith("a-complete.eval") and "n=800" in runs[1]
    assert (f"ffe_detection {B}" in runs[used_at + 1]
            and "n=40 (subset: limit 11-50: 40 of 800 samples)" in runs[used_at + 1])
    assert (runs[left_at + 1].startswith(f"  ffe_detection {A}")
            and "(subset: limit 40: 40 of 800 samples)" in runs[left_at + 1])
    assert runs[left_at + 1].endswith("a-complete.eval)")
    assert not any(line.startswith("replaced by a newer run") for line in runs)  # the complete run is the older
    assert '"subset": "limit 40: 40 of 800 samples"' in render_json(build_report(logs, BENCHMARKS))


def test_the_newest_complete_run_wins_among_complete_runs(template, tmp_path: Path):
    for name, fake_q, samples, hour in (("old", 0.1, 800, 8), ("new", 0.2, 800, 10), ("smoke", 0.9, 40, 11)):
        write_eval_log(detection_log(template, fake_q=fake_q, samples=samples, eval_id=name,
                                     created=f"2026-11-01T{hour:02d}:00:00+00:00", limit=40 if samples == 40 else None),
                       str(tmp_path / f"{name}.eval"))
    report = build_report(tmp_path, BENCHMARKS)
    assert table_4(report).rows[0].cells["fake_q"].value == 0.2  # 10:00, complete; the 11:00 smoke test is a subset
    assert {s.run.log.split("/")[-1]: s.by.log.split("/")[-1] for s in report.superseded} == {
        "old.eval": "new.eval", "smoke.eval": "new.eval"}
    text = render_text(report)
    assert "replaced by a newer run with the same settings:" in text and "old.eval (by" in text


@pytest.mark.parametrize(("limit", "sample_id", "ran", "expected"), [
    (40, None, 40, "limit 40: 40 of 800 samples"),
    ((10, 50), None, 40, "limit 11-50: 40 of 800 samples"),
    (None, ["s1", "s2", "s3"], 3, "sample_id (3 ids): 3 of 800 samples"),
    (None, "s7", 1, "sample_id s7: 1 of 800 samples"),
    (1000, None, 800, ""),  # a limit over the dataset's size runs all of it
    (None, None, 800, ""),
    (None, None, 799, "part of the dataset: 799 of 800 samples"),  # fewer ids than the dataset, however chosen
])
def test_what_a_log_says_of_the_part_it_ran(template, limit, sample_id, ran, expected):
    log = detection_log(template, fake_q=0.1, samples=ran, created="2026-11-01T09:00:00+00:00", eval_id="x",
                        limit=limit, sample_id=sample_id)
    assert summarize(log).subset == expected


def test_a_real_limited_run_is_a_subset(tmp_path: Path):
    """Inspect's own record of `--limit 2` on a 3-sample dataset (not a hand-set field): 2 of 3 samples."""
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import get_model
    from inspect_ai.solver import generate

    task = Task(dataset=MemoryDataset([Sample(id=i, input="q") for i in (1, 2, 3)]), solver=generate())
    [log] = inspect_eval(task, model=get_model("mockllm/model"), limit=2, log_dir=str(tmp_path), display="none")
    assert summarize(log).subset == "limit 2: 2 of 3 samples"


def test_the_summary_shows_each_rates_n_beside_it():
    metrics = {"halluc_rate_fake_q": 0.15, "halluc_rate_fake_q/n": 200, "halluc_rate_fake_q/stderr": 0.025,
               "agreement": 0.9, "agreement/n": 200, "label_mass": 0.0591, "label_mass/n": 40, "orphan/n": 7}
    table = format_table(RunSummary("ffe_detection", A, 800, metrics, "success", "logs/run.eval",
                                    subset="limit 40: 40 of 800 samples"))
    lines = table.splitlines()
    # "halluc_rate_fake_q" (18 characters) is the longest name: every value starts at column 20. Wilson, z = 1.96,
    # 30 of 200: centre (30 + 1.92) / 203.84 = 0.1566, half-width 1.96 / 203.84 * sqrt(30 * 170 / 200 + 0.96)
    # = 0.04946 -> [0.107, 0.206]; 180 of 200 mirrors it around 0.5 with its own centre: [0.851, 0.934]. The
    # interval replaces the stderr line.
    assert "halluc_rate_fake_q  0.150 [0.107, 0.206] (n=200)" in lines
    assert "agreement           0.900 [0.851, 0.934] (n=200)" in lines
    # a mean of probabilities over 40 answers (0.0591 * 40 = 2.364 is no count of answers): n, no interval
    assert "label_mass          0.059 (n=40)" in lines
    assert not any(line.startswith("halluc_rate_fake_q/stderr") for line in lines)
    assert "orphan/n            7" in lines  # an n whose metric is absent stays a count of its own
    assert not any(line.startswith(("halluc_rate_fake_q/n", "agreement/n")) for line in lines)
    assert "subset              limit 40: 40 of 800 samples" in lines


def test_figeval_report_command_lists_the_subset(logs: Path):
    text = figeval("report", str(logs)).stdout
    assert "subset runs not used (a complete run with the same settings is used):" in text


def test_the_summary_names_a_named_run_and_wraps_a_long_subset_rule():
    rule = ("limit 40: 40 of 800 samples, 20 items x 2 framings (fake-q, real-q), in proportion by kind and category "
            "(fake Word Perturbation 3, real 10)")
    table = format_table(RunSummary("ffe_detection", "replay/runs/a.jsonl", 40, {"agreement": 0.9}, "success",
                                    "logs/run.eval", subset=rule, display_name="Gemma base"))
    lines = table.splitlines()
    assert "name       Gemma base" in lines  # "agreement" (9 characters) is the longest name
    # the rule (139 characters) wraps at 110 - 11 = 99 characters, each line under the first's value column
    subset = lines.index(next(line for line in lines if line.startswith("subset")))
    assert lines[subset + 1].startswith(" " * 11) and not lines[subset + 1][11].isspace()
    assert " ".join(line[11:] for line in lines[subset:subset + 2]) == rule
    assert max(len(line) for line in lines) <= 110


def test_the_summary_never_cuts_a_path():
    # a judge's replay file under a deep folder (xdist's popen-gw1 made one): 121 characters with no space, wider
    # than the 99 the value column has; cut at its hyphen, the path printed could not be copied
    judge = ("replay//tmp/pytest-of-root/pytest-570/popen-gw1/test_run_a_judged_task_with_th0/"
             "some/more/folders/judge.jsonl")
    table = format_table(RunSummary("ffe_generation", "replay/a.jsonl", 2, {"agreement": 0.5}, "success",
                                    "logs/run.eval", identity={"judge": judge}))
    assert f"judge      {judge}" in table.splitlines()


def test_runs_of_one_subset_filling_the_same_columns_share_one_note():
    # a paper run of three models on --limit 10: one note naming the three and each log, not three notes; a run of
    # another subset, or filling other columns, keeps a note of its own
    from figeval.results.tables import subset_notes

    def smoke(name: str, subset: str = "limit 10: 10 of 800 samples") -> RunSummary:
        return RunSummary("ffe_detection", f"replay/{name}.jsonl", 10, {}, "success", f"logs/{name}.eval",
                          subset=subset, display_name=name)

    notes = subset_notes([(smoke("yes"), ["Avg(%)"]), (smoke("no"), ["Avg(%)"]), (smoke("fake"), ["Agreement(%)"]),
                          (smoke("big", "limit 40: 40 of 800 samples"), ["Avg(%)"])])
    assert notes == [
        "yes, no Avg(%): each from a subset run (limit 10: 10 of 800 samples; no complete run of ffe_detection with "
        "these settings): logs/yes.eval; logs/no.eval.",
        "fake Agreement(%): from a subset run (limit 10: 10 of 800 samples; no complete run of ffe_detection with "
        "these settings): logs/fake.eval.",
        "big Avg(%): from a subset run (limit 40: 40 of 800 samples; no complete run of ffe_detection with these "
        "settings): logs/big.eval."]
