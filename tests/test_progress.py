"""Progress lines: the pure line, the pace, and `figeval run` without a terminal."""

from __future__ import annotations

import os
from pathlib import Path

from inspect_ai.event import ModelEvent
from inspect_ai.model import GenerateConfig, ModelOutput

from figeval.progress import CacheCount, Progress, progress_line
from tests.command import figeval_subprocess
from tests.ffe_hallu.test_tasks import write_replay


def test_progress_line_gives_time_so_far_rate_and_time_left():
    # rate 2.0/s; 680 left at 2.0/s = 340 s = 5 min 40 s
    assert progress_line("run", 120, 800, 60.0, 2.0) == (
        "run: 120/800 (15%), 1 min 00 s in, 2.0/s, about 5 min 40 s left")
    # 0.025/s = 1.5/min; 7 left take 280 s = 4 min 40 s
    assert progress_line("build", 3, 10, 120.0, 0.025) == (
        "build: 3/10 (30%), 2 min 00 s in, 1.5/min, about 4 min 40 s left")
    # at the end, the overall rate: 10 in 4000 s = 0.0025/s = 9.0/h; 4000 s = 1 h 06 min (40 s dropped)
    assert progress_line("build", 10, 10, 4000.0) == "build: 10/10 (100%), 9.0/h, done in 1 h 06 min"
    # no rate: no number, but says so
    assert progress_line("run", 0, 800, 5.0) == "run: 0/800 (0%), 5 s in, time left: cannot estimate yet"


def test_time_left_comes_from_the_rate_after_the_first_item():
    """A model that loads for 20 s, then answers every 0.5 s: 101 items end at 20 + 100 x 0.5 = 70 s. An estimate
    needs max(5, 10% of 101 = 10.1 -> 11) items after the first over 10 s: at 30 s, 20 have (in 10 s). Over the
    whole time that is 0.7/s and 80 left would take 1 min 54 s; since the first it is 2.0/s and 40 s, which is
    right (70 - 30)."""
    now = [0.0]
    lines: list[str] = []
    progress = Progress("run", 101, lines.append, interval=10.0, clock=lambda: now[0])
    for item in range(101):
        now[0] = 20.0 + 0.5 * item
        progress.advance()
    assert lines == [
        "run: 1/101 (1%), 20 s in, time left: cannot estimate yet (until 11 more finish)",  # 20 s: the first item
        "run: 21/101 (21%), 30 s in, 2.0/s, about 40 s left",
        "run: 41/101 (41%), 40 s in, 2.0/s, about 30 s left",
        "run: 61/101 (60%), 50 s in, 2.0/s, about 20 s left",
        "run: 81/101 (80%), 1 min 00 s in, 2.0/s, about 10 s left",
        "run: 101/101 (100%), 1.4/s, done in 1 min 10 s",  # 101 in 70 s overall
    ]


def test_no_estimate_before_enough_items_after_the_first():
    # 10 items: MIN_OBSERVED = 5 after the first (10% would be 1) over MIN_WINDOW_S = 10 s. One item every 2 s from
    # 2 s: at 12 s, 5 have followed the first in 10 s: 0.5/s = 30.0/min, 4 left take 8 s
    now = [0.0]
    lines: list[str] = []
    progress = Progress("x", 10, lines.append, interval=0.0, clock=lambda: now[0])
    for second in (2, 4, 6, 8, 10, 12):
        now[0] = float(second)
        progress.advance()
    assert lines == [f"x: {done}/10 ({10 * done}%), {2 * done} s in, time left: cannot estimate yet (until "
                     f"{6 - done} more finish)" for done in range(1, 6)] + [
        "x: 6/10 (60%), 12 s in, 30.0/min, about 8 s left"]


def test_no_estimate_from_one_burst():
    # 10 items at once after a start-up (a batch decoded together): 9 follow the first within 0.9 s, enough items
    # but too short a time to say anything; the 11th at 20 s makes 10 in 10 s: 1.0/s, 9 left take 9 s
    now = [0.0]
    lines: list[str] = []
    progress = Progress("x", 20, lines.append, interval=0.0, clock=lambda: now[0])
    for at in [10.0 + 0.1 * i for i in range(10)] + [20.0]:
        now[0] = at
        progress.advance()
    assert all(line.endswith("time left: cannot estimate yet") for line in lines[5:10])
    assert lines[-1] == "x: 11/20 (55%), 20 s in, 1.0/s, about 9 s left"


def test_progress_reports_at_a_steady_pace_and_at_the_end():
    now = [0.0]
    lines: list[str] = []
    progress = Progress("step", 5, lines.append, interval=10.0, clock=lambda: now[0])
    for at in (1.0, 4.0, 11.0, 12.0, 13.0):  # one line at 11 s (10 s after the start), then the last
        now[0] = at
        progress.advance()
    # 3 done at 11 s: an estimate needs 5 after the first, more than the 2 left, so none is promised; 5 in 13 s =
    # 23.1/min
    assert lines == ["step: 3/5 (60%), 11 s in, time left: cannot estimate yet",
                     "step: 5/5 (100%), 23.1/min, done in 13 s"]


def test_lines_tick_on_time_while_no_item_finishes():
    now = [0.0]
    lines: list[str] = []
    progress = Progress("x", 10, lines.append, interval=10.0, clock=lambda: now[0], note=lambda: "a note")
    for at, finished in ((5.0, 0), (10.0, 0), (15.0, 0), (17.0, 1), (20.0, 0), (29.0, 0)):
        now[0] = at
        if finished:
            progress.advance()
        progress.tick()
    # lines at 10 s (nothing done: 6 must finish, the first and 5 after it) and 20 s (10 s after it); none at
    # 5, 15 (5 s after a line), 17 (the item finished 7 s after it) or 29 s
    assert lines == ["x: 0/10 (0%), 10 s in, time left: cannot estimate yet (until 6 more finish); a note",
                     "x: 1/10 (10%), 20 s in, time left: cannot estimate yet (until 5 more finish); a note"]
    progress.advance(9)  # at 29 s: 10 in 29 s = 20.7/min
    now[0] = 100.0
    progress.tick()  # all done: the last line was said by advance, no tick after it
    assert lines[2:] == ["x: 10/10 (100%), 20.7/min, done in 29 s; a note"]


def model_event(cache: str | None, error: str | None = None) -> ModelEvent:
    return ModelEvent(model="m", input=[], tools=[], tool_choice="none", config=GenerateConfig(),
                      output=ModelOutput.from_content("m", "Yes"), cache=cache, error=error)  # type: ignore[arg-type]


def test_the_cache_count_reads_inspects_model_events():
    count = CacheCount()
    count.add([model_event("read"), model_event("write"), model_event("read"), model_event("read", "failed")])
    # the failed call is no answer: 2 of the 3 answers came from the cache
    assert count.text() == "2 of 3 answers from the response cache"
    off = CacheCount()
    off.add([model_event(None)])
    assert off.text() == "response cache off: no answer came from it"


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
