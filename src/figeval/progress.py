"""Progress of long work as plain lines at a steady pace: done/total, rate and time left.

Builders report through `Progress`; `figeval run` without a terminal (a batch job, CI, `nohup`, a pipe) turns on
`RunProgress`, an Inspect hook, because Inspect's live display prints nothing there until the run ends.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from inspect_ai.hooks import Hooks, SampleEnd, TaskEnd, TaskStart, hooks

# One line at most this often (and always the last): steady enough to show a job is alive, sparse enough for a log.
INTERVAL_S = 10.0
ENABLE_VARIABLE = "FIGEVAL_PROGRESS_LINES"


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def progress_line(what: str, done: int, total: int, elapsed: float) -> str:
    """`what: done/total (percent), rate/s, time left` (rate and time left once something is done)."""
    share = f" ({100 * done / total:.0f}%)" if total else ""
    line = f"{what}: {done}/{total}{share}"
    if done and elapsed > 0:
        rate = done / elapsed
        line += (f", {rate:.1f}/s" if rate >= 1 else f", {60 * rate:.1f}/min" if 60 * rate >= 1
                 else f", {3600 * rate:.1f}/h")
        if done < total:
            line += f", about {_duration((total - done) / rate)} left"
        else:
            line += f", done in {_duration(elapsed)}"
    return line


class Progress:
    """Counts finished items and reports a progress line at most every `interval` seconds, and at the end."""

    def __init__(self, what: str, total: int, report: Callable[[str], None], interval: float = INTERVAL_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.what, self.total, self.report, self.interval, self.clock = what, total, report, interval, clock
        self.done = 0
        self.started = self.last = clock()

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = self.clock()
        if self.done >= self.total or now - self.last >= self.interval:
            self.last = now
            self.report(progress_line(self.what, self.done, self.total, now - self.started))


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@hooks(name="figeval_progress_lines", description="Plain progress lines for figeval run without a terminal.")
class RunProgress(Hooks):
    """One `Progress` per running task, fed by Inspect's sample-end events (on when `figeval run` sets
    FIGEVAL_PROGRESS_LINES=1)."""

    def __init__(self) -> None:
        self.tasks: dict[str, Progress] = {}

    def enabled(self) -> bool:
        return os.environ.get(ENABLE_VARIABLE) == "1"

    async def on_task_start(self, data: TaskStart) -> None:
        samples = len(data.spec.dataset.sample_ids or []) or data.spec.dataset.samples or 0
        total = samples * (data.spec.config.epochs or 1)
        self.tasks[data.eval_id] = Progress(f"{data.spec.task.split('/')[-1]} samples", total, _stderr)

    async def on_sample_end(self, data: SampleEnd) -> None:
        if data.eval_id in self.tasks:
            self.tasks[data.eval_id].advance()

    async def on_task_end(self, data: TaskEnd) -> None:
        self.tasks.pop(data.eval_id, None)
