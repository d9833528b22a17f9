"""Progress lines: the pure line, the pace, and `figeval run` without a terminal."""

from __future__ import annotations

import os
from pathlib import Path

from figeval.progress import Progress, progress_line
from tests.command import figeval_subprocess
from tests.ffe_hallu.test_tasks import write_replay


def test_progress_line_gives_rate_and_time_left():
    # rate 2.0/s; 680 left at 2.0/s = 340 s = 5 min 40 s
    assert progress_line("run", 120, 800, 60.0, 2.0) == "run: 120/800 (15%), 2.0/s, about 5 min 40 s left"
    # 0.025/s = 1.5/min; 7 left take 280 s = 4 min 40 s
    assert progress_line("build", 3, 10, 120.0, 0.025) == "build: 3/10 (30%), 1.5/min, about 4 min 40 s left"
    # at the end, the overall rate: 10 in 4000 s = 0.0025/s = 9.0/h; 4000 s = 1 h 06 min (40 s dropped)
    assert progress_line("build", 10, 10, 4000.0) == "build: 10/10 (100%), 9.0/h, done in 1 h 06 min"
    # no rate observed yet: no estimate
    assert progress_line("run", 0, 800, 5.0) == "run: 0/800 (0%)"
    assert progress_line("run", 3, 800, 25.0) == "run: 3/800 (0%)"


def test_time_left_comes_from_the_rate_after_the_first_item():
    """A model that loads for 20 s, then answers every 0.5 s: 101 items end at 20 + 100 x 0.5 = 70 s. At 30 s, 21
    are done: over the whole time that is 0.7/s and 80 left would take 1 min 54 s; since the first (20 done in
    10 s) it is 2.0/s and 40 s, which is right (70 - 30)."""
    now = [0.0]
    lines: list[str] = []
    progress = Progress("run", 101, lines.append, interval=10.0, clock=lambda: now[0])
    for item in range(101):
        now[0] = 20.0 + 0.5 * item
        progress.advance()
    assert lines == [
        "run: 1/101 (1%)",  # 20 s: the first item, nothing observed after it
        "run: 21/101 (21%), 2.0/s, about 40 s left",  # 30 s
        "run: 41/101 (41%), 2.0/s, about 30 s left",  # 40 s
        "run: 61/101 (60%), 2.0/s, about 20 s left",
        "run: 81/101 (80%), 2.0/s, about 10 s left",
        "run: 101/101 (100%), 1.4/s, done in 1 min 10 s",  # 101 in 70 s overall
    ]


def test_no_estimate_before_enough_items_after_the_first():
    # MIN_OBSERVED = 3 over MIN_WINDOW_S = 5 s: one item every 2 s from 2 s; at 6 s 2 have followed the first (in
    # 4 s), at 8 s 3 in 6 s: 0.5/s = 30.0/min, 6 left take 12 s
    now = [0.0]
    lines: list[str] = []
    progress = Progress("x", 10, lines.append, interval=0.0, clock=lambda: now[0])
    for second in (2, 4, 6, 8):
        now[0] = float(second)
        progress.advance()
    assert lines == ["x: 1/10 (10%)", "x: 2/10 (20%)", "x: 3/10 (30%)", "x: 4/10 (40%), 30.0/min, about 12 s left"]


def test_no_estimate_from_one_burst():
    # 10 items at once after a start-up (a batch decoded together): 9 follow the first within 0.9 s, too short a
    # time to say anything; the 11th at 16 s makes 10 in 6 s: 1.7/s, 9 left take 5.4 s
    now = [0.0]
    lines: list[str] = []
    progress = Progress("x", 20, lines.append, interval=0.0, clock=lambda: now[0])
    for at in [10.0 + 0.1 * i for i in range(10)] + [16.0]:
        now[0] = at
        progress.advance()
    assert all("left" not in line for line in lines[:10])
    assert lines[-1] == "x: 11/20 (55%), 1.7/s, about 5 s left"


def test_progress_reports_at_a_steady_pace_and_at_the_end():
    now = [0.0]
    lines: list[str] = []
    progress = Progress("step", 5, lines.append, interval=10.0, clock=lambda: now[0])
    for at in (1.0, 4.0, 11.0, 12.0, 13.0):  # one line at 11 s (10 s after the start), then the last
        now[0] = at
        progress.advance()
    # 3 done at 11 s, too few after the first for a rate; 5 in 13 s = 23.1/min
    assert lines == ["step: 3/5 (60%)", "step: 5/5 (100%), 23.1/min, done in 13 s"]


def test_run_without_a_terminal_prints_progress_lines(ffe_hallu_imported: Path, tmp_path: Path):
    ids = [f"ffe-fake-{row:03d}/fake-q" for row in range(1, 4)]
    replay = write_replay(tmp_path / "answers.jsonl", {id: "Yes" for id in ids})
    # Inspect's own display, as a user without a terminal gets it: a process of its own, since Inspect picks its
    # display once per process (this one's is the tests' "none")
    env = {name: value for name, value in os.environ.items() if name != "INSPECT_DISPLAY"}
    result = figeval_subprocess("run", "ffe_detection", "--model", f"replay/{replay}", "--sample-id", ",".join(ids),
                                "--log-dir", str(tmp_path / "logs"), env=env)
    assert result.returncode == 0, result.stderr
    [last] = [line for line in result.stderr.splitlines() if line.startswith("ffe_detection samples: ")]
    assert last.startswith("ffe_detection samples: 3/3 (100%), ") and "done in" in last
