"""`figeval run` without a terminal prints progress lines on time, not only when a sample finishes: a slow
stand-in model (the replay provider, each answer held 0.6 s while the event loop waits, as the in-process model
holds it) still gets a line every tick, each saying it cannot estimate the time left yet."""

from __future__ import annotations

import os
import re
import threading
import time
from pathlib import Path

import pytest

from figeval.models.replay import ReplayModelAPI
from figeval.progress import ENABLE_VARIABLE, RunProgress
from tests.command import figeval
from tests.ffe_hallu.test_tasks import write_replay

IDS = [f"ffe-fake-{row:03d}/fake-q" for row in range(1, 4)]
HOLD_S = 0.6
TICK_S = 0.2


@pytest.fixture
def slow_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    answer = ReplayModelAPI.generate

    async def slowly(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        time.sleep(HOLD_S)  # blocks the event loop: only a line from another thread can come meanwhile
        return await answer(self, *args, **kwargs)

    monkeypatch.setattr(ReplayModelAPI, "generate", slowly)
    monkeypatch.setattr(RunProgress, "interval", TICK_S)


def test_lines_come_on_time_while_samples_are_slow(slow_replay: None, ffe_hallu_imported: Path, tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", {id: "Yes" for id in IDS})
    # the variable `figeval run` sets where there is no terminal (tests/test_progress.py runs that in a process of
    # its own); set here, as this process's display is the tests' "none"
    env = {**os.environ, ENABLE_VARIABLE: "1"}
    started = time.monotonic()
    result = figeval("run", "ffe_detection", "--model", f"replay/{replay}", "--sample-id", ",".join(IDS),
                     "--log-dir", str(tmp_path / "logs"), env=env)
    took = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("ffe_detection samples: ")]
    # 3 answers held 0.6 s each, one after another (the loop is held; the three samples started together and
    # finish together at the end): 1.8 s at least, a tick every 0.2 s; lines while none had finished, and no
    # estimate from 3 samples (5 must finish after the first)
    assert took >= 3 * HOLD_S
    waiting = [line for line in lines if line.startswith("ffe_detection samples: 0/3 (0%), ")]
    assert len(waiting) >= 2, lines
    assert all(line.endswith("time left: cannot estimate yet") for line in lines[:-1]), lines
    assert re.fullmatch(r"ffe_detection samples: 3/3 \(100%\), [0-9.]+/(s|min), done in \d+ s", lines[-1]), lines
    # about 1.8 / 0.2 = 9 lines (11 seen), where lines on samples alone would be one
    assert len(lines) >= 6, lines
    assert not ticking(), "the ticker outlived its run"


def ticking() -> bool:
    return any(thread.name == "figeval-progress" and thread.is_alive() for thread in threading.enumerate())


def test_lines_stop_with_a_run_that_fails(slow_replay: None, ffe_hallu_imported: Path, tmp_path: Path):
    """Inspect sends no task-end event for a task that fails: the run's end stops its lines, or a process that
    goes on (an eval set's next attempt, a notebook) would print them for ever."""
    replay = write_replay(tmp_path / "answers.jsonl", {id: "Yes" for id in IDS[:2]})  # the third id has no answer
    env = {**os.environ, ENABLE_VARIABLE: "1"}
    result = figeval("run", "ffe_detection", "--model", f"replay/{replay}", "--sample-id", ",".join(IDS),
                     "--log-dir", str(tmp_path / "logs"), "--retry-on-error", "0", env=env)
    assert result.returncode != 0
    assert "ffe_detection samples: 0/3 (0%), " in result.stderr  # it ticked while the answers were held
    assert not ticking()
