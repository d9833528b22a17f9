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


def _rate(per_second: float) -> str:
    return (f"{per_second:.1f}/s" if per_second >= 1 else f"{60 * per_second:.1f}/min" if 60 * per_second >= 1
            else f"{3600 * per_second:.1f}/h")


def progress_line(what: str, done: int, total: int, elapsed: float, rate: float | None = None) -> str:
    """`what: done/total (percent)`, then: when all is done, the overall rate and the time it took; before that,
    `rate` (items per second, as observed: see `Progress`) and the time left at it, when there is a rate yet."""
    share = f" ({100 * done / total:.0f}%)" if total else ""
    line = f"{what}: {done}/{total}{share}"
    if done >= total and done and elapsed > 0:
        return line + f", {_rate(done / elapsed)}, done in {_duration(elapsed)}"
    if rate:
        line += f", {_rate(rate)}, about {_duration((total - done) / rate)} left"
    return line


# A rate is estimated from the first finished item on, once this many more have finished over at least this
# many seconds. The first item's time holds the start-up (loading a model, the first connection, a cold cache): a
# rate over it said "22 min left" for a two-minute run. Items also finish in bursts (a batch of prompts decoded
# together, a round of concurrent requests): the embedded model finished 14 samples in 0.4 s, then none for
# 1.7 s, so a rate over less than a few seconds promised "1 s left" with 4 s to go.
MIN_OBSERVED = 3
MIN_WINDOW_S = 5.0


class Progress:
    """Counts finished items and reports a progress line at most every `interval` seconds, and at the end; the rate
    and time left are estimated from the items finished since the first one (`MIN_OBSERVED`, `MIN_WINDOW_S`)."""

    def __init__(self, what: str, total: int, report: Callable[[str], None], interval: float = INTERVAL_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.what, self.total, self.report, self.interval, self.clock = what, total, report, interval, clock
        self.done = 0
        self.started = self.last = clock()
        self.first: tuple[float, int] | None = None
        """When the first item(s) finished, and how many were done then."""

    def rate(self, now: float) -> float | None:
        """Items per second since the first finished, once MIN_OBSERVED more have over MIN_WINDOW_S; None before."""
        if self.first is None:
            return None
        since, counted = now - self.first[0], self.done - self.first[1]
        return counted / since if counted >= MIN_OBSERVED and since >= MIN_WINDOW_S else None

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = self.clock()
        if self.first is None:
            self.first = (now, self.done)
        if self.done >= self.total or now - self.last >= self.interval:
            self.last = now
            self.report(progress_line(self.what, self.done, self.total, now - self.started, self.rate(now)))


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
