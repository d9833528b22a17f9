"""Progress lines: the pure line, the pace, and `figeval run` without a terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from figeval.progress import Progress, progress_line
from tests.ffe_hallu.test_tasks import write_replay


def test_progress_line_gives_rate_and_time_left():
    # 120 of 800 in 60 s: 2.0/s; 680 left at 2.0/s = 340 s = 5 min 40 s
    assert progress_line("run", 120, 800, 60.0) == "run: 120/800 (15%), 2.0/s, about 5 min 40 s left"
    # 3 of 10 in 120 s: 0.025/s = 1.5/min; 7 left take 280 s = 4 min 40 s
    assert progress_line("build", 3, 10, 120.0) == "build: 3/10 (30%), 1.5/min, about 4 min 40 s left"
    # 10 in 4000 s: 0.0025/s = 9.0/h; 4000 s = 1 h 06 min (40 s dropped)
    assert progress_line("build", 10, 10, 4000.0) == "build: 10/10 (100%), 9.0/h, done in 1 h 06 min"
    assert progress_line("run", 0, 800, 5.0) == "run: 0/800 (0%)"


def test_progress_reports_at_a_steady_pace_and_at_the_end():
    now = [0.0]
    lines: list[str] = []
    progress = Progress("step", 5, lines.append, interval=10.0, clock=lambda: now[0])
    for at in (1.0, 4.0, 11.0, 12.0, 13.0):  # one line at 11 s (10 s after the start), then the last
        now[0] = at
        progress.advance()
    # 3 in 11 s = 16.4/min, 2 left take 7.3 s; 5 in 13 s = 23.1/min
    assert lines == ["step: 3/5 (60%), 16.4/min, about 7 s left", "step: 5/5 (100%), 23.1/min, done in 13 s"]


def test_run_without_a_terminal_prints_progress_lines(ffe_hallu_imported: Path, tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", {f"ffe-fake-{row:03d}/fake-q": "Yes" for row in range(1, 4)})
    env = {name: value for name, value in os.environ.items() if name != "INSPECT_DISPLAY"}
    result = subprocess.run([sys.executable, "-m", "figeval", "run", "ffe_detection", "--model", f"replay/{replay}",
                             "--limit", "3", "--log-dir", str(tmp_path / "logs")],
                            capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    [last] = [line for line in result.stderr.splitlines() if line.startswith("ffe_detection samples: ")]
    assert last.startswith("ffe_detection samples: 3/3 (100%), ") and "done in" in last
