"""One summary per `figeval run`: figeval's table (each number its benchmark reports, in the paper's unit and words,
with its n and interval), not Inspect's end-of-task panel above it too; no hook banner before the run unless
--log-level asks for more; the last line is the `figeval report` command for the run's log dir. A run that did not
succeed ends in one line: why, only when Inspect recorded why, and how to resume it (figeval.cli.run.summary)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.command import figeval_subprocess
from tests.ffe_hallu.test_tasks import write_replay

IDS = [f"ffe-fake-{row:03d}/{framing}" for row in (1, 51, 101, 151) for framing in ("fake-q", "real-q")]


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """`figeval run` in a process of its own: Inspect sets its display, its log level and its hooks (with their
    banner) once per process, and these tests are about them."""
    replay = write_replay(tmp_path / "answers.jsonl", {id: "Yes" for id in IDS})
    env = {name: value for name, value in os.environ.items() if name != "INSPECT_DISPLAY"}
    return figeval_subprocess("run", "ffe_detection", "--model", f"replay/{replay}", "-T", "controls=false",
                              "--limit", "8", "--log-dir", str(tmp_path / "logs"), *args, env=env)


@pytest.mark.parametrize("display", ["plain", "rich"])
def test_one_summary_ending_with_the_report_command(display: str, ffe_hallu_imported: Path, tmp_path: Path):
    result = run(tmp_path, "--display", display)
    assert result.returncode == 0, result.stderr
    # --limit 8 without controls: fakes 1, 51, 101, 151 (one per category) under both framings (tests/test_subset.py)
    assert "subset: limit 8: 8 of 400 samples, 4 items x 2 framings (fake-q, real-q)" in result.stdout
    # Inspect's panel printed the scorer's name over its metrics, each `/n` as a float: gone; figeval's table once.
    # "Yes" to all 4 fakes: rejected under fake-q (0 of 4), accepted under real-q (4 of 4)
    assert "detection_scorer" not in result.stdout and "halluc_rate_fake_q/n" not in result.stdout
    # in Table 4's words and unit (percent), with its direction; Wilson over 4 of 4: [0.510, 1.000]
    assert [line.split() for line in result.stdout.splitlines() if line.startswith("  Prompt-Real Halluc.(%) ")] == [
        ["Prompt-Real", "Halluc.(%)", "100.0", "[51.0,", "100.0]", "(n=4),", "lower", "is", "better"]]
    assert "halluc_rate_real_q" not in result.stdout
    # replay answers are keyed by sample id, never cached (figeval.answering.response_cache)
    assert "response cache off: no answer came from it" in result.stdout.splitlines()
    assert "hooks enabled" not in result.stdout + result.stderr
    logs = str(tmp_path / "logs")
    last = result.stdout.splitlines()[-1]
    assert last == f"report: `figeval report {logs}` (tables and figures of every run in {logs})"


def test_log_level_info_shows_the_hook_banner(ffe_hallu_imported: Path, tmp_path: Path):
    result = run(tmp_path, "--display", "plain", "--log-level", "info")
    assert result.returncode == 0, result.stderr
    assert "hooks enabled" in result.stdout + result.stderr


def test_an_unfinished_run_keeps_inspects_panel():
    """Only a successful task's panel is left out: a failed or cancelled one keeps Inspect's (its error, the
    eval-retry command), in every display that prints it."""
    import importlib

    from inspect_ai._display.core.display import TaskCancelled, TaskError, TaskSuccess, TaskWithResult

    from figeval._compat import _RESULT_DISPLAYS, quiet_inspect_results, unsuccessful

    success, error, cancelled = (object.__new__(kind) for kind in (TaskSuccess, TaskError, TaskCancelled))
    tasks = [TaskWithResult(None, result) for result in (success, error, cancelled)]  # type: ignore[arg-type]
    assert [task.result for task in unsuccessful(tasks)] == [error, cancelled]
    quiet_inspect_results()
    quiet_inspect_results()  # twice is once
    for name in _RESULT_DISPLAYS:
        assert getattr(importlib.import_module(name).tasks_results, "figeval_quiet", False), name


def test_an_unfinished_run_says_why_only_when_inspect_recorded_why():
    """Ctrl-C leaves a cancelled log with no error: its status alone says what happened, so no reason follows it
    (a reason would only repeat 'cancelled')."""
    from inspect_ai.log import EvalError, EvalLog

    from figeval.cli.run.summary import unfinished_run_message

    resume = "completed samples are kept in logs/x.eval; resume with `inspect eval-retry --log-dir logs logs/x.eval`."
    cancelled = EvalLog.model_construct(status="cancelled", error=None)
    assert unfinished_run_message(cancelled, "logs/x.eval", "logs") == f"run cancelled | {resume}"
    # an error as Inspect records it: the exception's repr, after a traceback
    error = EvalError(message='FigevalError("replay file r.jsonl has no output for sample id \'a\'")',
                      traceback="Traceback ...", traceback_ansi="Traceback ...")
    failed = EvalLog.model_construct(status="error", error=error)
    assert unfinished_run_message(failed, "logs/x.eval", "logs") == (
        f"run error: replay file r.jsonl has no output for sample id 'a' | {resume}")


def summary(benchmarks: list, task: str, metrics: dict, samples: int = 80) -> list[str]:
    from figeval.cli.run.summary import summary_table
    from figeval.results.runs import RunSummary

    return summary_table(benchmarks, RunSummary(task, "openai/gpt-4.1", samples, metrics, "success",
                                                "logs/run.eval")).splitlines()


def test_the_summary_says_each_number_as_the_paper_reports_it():
    """Turkish idioms' tables are fractions: each column under its table with the header, its direction and
    whether it is the headline; a metric no table reports (label_mass) is left to the log."""
    from figeval._registry import BENCHMARKS

    metrics = {"accuracy": 0.7125, "accuracy/n": 80, "accuracy/ci_low": 0.6, "accuracy/ci_high": 0.81,
               "accuracy/stderr": 0.05, "yes_rate": 0.5, "yes_rate/n": 80, "unparsed_rate": 0.0, "unparsed_rate/n": 80,
               "accuracy/freq_unseen": 0.5, "accuracy/freq_unseen/n": 10, "label_mass": 0.31, "label_mass/n": 80}
    lines = summary(list(BENCHMARKS), "tr_idiom_detection", metrics)
    body = [" ".join(line.split()) for line in lines]
    # 0.7125 rounds half up to 0.713; 80 answers: its own bootstrap interval. Wilson (z = 1.96) for the rest:
    # 40 of 80: 0.5 +- 1.96 / 83.8416 * sqrt(80 / 4 + 0.9604) = 0.5 +- 0.1070 -> [0.393, 0.607]; 0 of 80: up to
    # (1.9208 + 1.96 * 0.98) / 83.8416 = 0.0458 -> 0.046; 5 of 10: 0.5 +- 1.96 / 13.8416 * sqrt(2.5 + 0.9604)
    # = 0.5 +- 0.2634 -> [0.237, 0.763]
    assert body[body.index("Turkish idioms Table 2 Idiom detection and entailment accuracy, with the label "
                           "preference, as fractions") + 1:][:4] == [
        "(0 to 1)",
        "Detection 0.713 [0.600, 0.810] (n=80), higher is better, the task's headline",
        "'yes' share (detection) * 0.500 [0.393, 0.607] (n=80)",
        "Unparsed (detection) * 0.000 [0.000, 0.046] (n=80)"]
    assert "Detection (unseen) 0.500 [0.237, 0.763] (n=10), higher is better" in body
    assert not any(line.startswith(("label_mass", "accuracy")) or "label_mass" in line for line in lines)
    assert body[-1] == "[ ]: 95% interval, n: answers counted, *: figeval's column, not the paper's; every " \
                       "metric: `inspect view`"


def test_the_summary_shows_percent_where_the_paper_prints_percent_and_each_metric_once():
    """FFE-HALLU's Table 4 and Figure 1 are percent; Figure 1 shows 1 - the hallucination rate of a category;
    the unparsed share, a column of both, is said once (under Table 4)."""
    from figeval._registry import BENCHMARKS

    metrics = {"halluc_rate_fake_q": 0.25, "halluc_rate_fake_q/n": 4, "halluc_rate_avg": 0.5, "halluc_rate_avg/n": 8,
               "halluc_rate_fake_q/word_perturbation": 0.25, "halluc_rate_fake_q/word_perturbation/n": 4,
               "unparsed_rate": 0.125, "unparsed_rate/n": 8}
    body = [" ".join(line.split()) for line in summary(list(BENCHMARKS), "ffe_detection", metrics, 8)]
    # Wilson over 1 of 4: centre (1 + 1.9208) / 7.8416 = 0.3725, half 1.96 / 7.8416 * sqrt(0.75 + 0.9604) = 0.3269
    # -> [4.6, 69.9]; 4 of 8: 0.5 +- 1.96 / 11.8416 * sqrt(2 + 0.9604) = 0.5 +- 0.2848 -> [21.5, 78.5]; 1 of 8:
    # centre 2.9208 / 11.8416 = 0.2467, half 1.96 / 11.8416 * sqrt(0.875 + 0.9604) = 0.2242 -> [2.2, 47.1]; the
    # complement of [4.6, 69.9] is [30.1, 95.4]
    assert "Prompt-Fake Halluc.(%) 25.0 [4.6, 69.9] (n=4), lower is better" in body
    assert "Avg(%) 50.0 [21.5, 78.5] (n=8), lower is better, the task's headline" in body
    assert "Unparsed(%) * 12.5 [2.2, 47.1] (n=8)" in body
    assert "Is it fake? Word Perturbation 75.0 [30.1, 95.4] (n=4), higher is better" in body
    assert sum(line.startswith("Unparsed(%)") for line in body) == 1


def test_a_task_no_table_reports_keeps_every_metric_under_its_name():
    from figeval.cli.run.summary import reported_rows
    from figeval.results.runs import RunSummary

    run = RunSummary("someone_elses_task", "m", 2, {"accuracy": 0.5}, "success", "logs/run.eval")
    assert reported_rows([], run) is None
    assert "accuracy  0.500" in " ".join(summary([], "someone_elses_task", {"accuracy": 0.5}, 2))


def test_a_judged_rate_says_its_labels_are_the_judges():
    """FFE-HALLU's Table 3 is people's labels in the paper; a run's are its judge's, as the report's row says.
    Only the columns of the run's own meaning source (meaning=human) are its."""
    from figeval._registry import BENCHMARKS
    from figeval.cli.run.summary import summary_table
    from figeval.results.runs import RunSummary

    metrics = {"correct_rate": 0.5, "correct_rate/n": 2, "hallucinated_rate": 0.0, "hallucinated_rate/n": 2}
    run = RunSummary("ffe_generation", "openai/gpt-4.1", 2, metrics, "success", "logs/run.eval",
                     identity={"meaning": "human", "judge": "openai/gpt-4.1"})
    table = summary_table(list(BENCHMARKS), run)
    text = " ".join(table.split())  # a value too long for its column wraps under itself
    # Wilson over 1 of 2: 0.5 +- 1.96 / 5.8416 * sqrt(0.5 + 0.9604) = 0.5 +- 0.4055 -> [9.5, 90.5]; 0 of 2: up to
    # (1.9208 + 1.96 * 0.98) / 5.8416 = 0.6576 -> 65.8
    assert "human Correct(%) 50.0 [9.5, 90.5] (n=2), higher is better, the judge's labels (the paper's are " \
           "people's), the task's headline" in text
    assert "human Hallucination(%) 0.0 [0.0, 65.8] (n=2), lower is better, the judge's labels (the paper's are " \
           "people's) ---" in text
    assert "paraphrased" not in table
