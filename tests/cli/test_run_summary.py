"""One summary per `figeval run`: figeval's table (each rate with its n), not Inspect's end-of-task panel above it
too; no hook banner before the run unless --log-level asks for more; the last line is the `figeval report`
command for the run's log dir. A run that did not succeed ends in one line: why, only when Inspect recorded why,
and how to resume it (figeval.cli.run.summary)."""

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
    assert [line.split() for line in result.stdout.splitlines() if line.startswith("halluc_rate_real_q ")] == [
        ["halluc_rate_real_q", "1.000", "[0.510,", "1.000]", "(n=4)"]]
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
