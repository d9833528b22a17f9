"""Progress of long work as plain lines at a steady pace: done/total, time so far, rate and time left.

Builders report through `Progress`, ticked on time while they work (`ticking`); `figeval run` without a terminal
(a batch job, CI, `nohup`, a pipe) turns on `RunProgress`, an Inspect hook, because Inspect's live display prints
nothing there until the run ends, and its plain display prints only when a solver step completes. The hook's lines
tick on time, from a thread of their own, so they keep coming while no sample finishes (a model loading, a long
answer) and while an in-process model holds the event loop. Each line also says how many answers Inspect's
response cache gave (`CacheCount`).
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from inspect_ai.event import Event, ModelEvent
from inspect_ai.hooks import Hooks, RunEnd, SampleEnd, TaskEnd, TaskStart, hooks

# One line this often while work goes on (and always the last): steady enough to show a job is alive, sparse
# enough for a log.
INTERVAL_S = 10.0
ENABLE_VARIABLE = "FIGEVAL_PROGRESS_LINES"
NO_ESTIMATE = "cannot estimate yet"


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


def progress_line(what: str, done: int, total: int, elapsed: float, rate: float | None = None,
                  wait: str = NO_ESTIMATE) -> str:
    """`what: done/total (percent)`, then: when all is done, the overall rate and the time it took; before that,
    the time so far and either `rate` (items per second, as observed: see `Progress`) with the time left at it, or
    why there is no estimate (`wait`)."""
    share = f" ({100 * done / total:.0f}%)" if total else ""
    line = f"{what}: {done}/{total}{share}"
    if done >= total and done and elapsed > 0:
        return line + f", {_rate(done / elapsed)}, done in {_duration(elapsed)}"
    line += f", {_duration(elapsed)} in"
    if rate:
        return line + f", {_rate(rate)}, about {_duration((total - done) / rate)} left"
    return line + f", time left: {wait}"


# When a rate is honest enough to say a time left. It is measured from the first finished item on: the first
# item's time holds the start-up (loading a model, the first connection, a cold cache), and a rate over it said
# "22 min left" for a two-minute run. It needs MIN_SHARE of all items (at least MIN_OBSERVED) finished after the
# first, over at least MIN_WINDOW_S: items finish in bursts (a batch decoded together, a round of concurrent
# requests; the embedded model finished 14 samples in 0.4 s, then none for 1.7 s) and vary widely (a local model's
# looping answers ran 1,950 tokens beside 20-token ones), so a handful of early items gave confident numbers off by
# a factor of 7-10 (issue 41). Before that, a line says it cannot estimate yet and how many more must finish.
MIN_OBSERVED = 5
MIN_SHARE = 0.1
MIN_WINDOW_S = 10.0


class Progress:
    """Counts finished items and reports a progress line at most every `interval` seconds, and at the end; `tick`
    reports one when `interval` has passed without an item finishing (`RunProgress` calls it on time). The rate and
    time left follow the rule above (`MIN_OBSERVED`, `MIN_SHARE`, `MIN_WINDOW_S`); `note` is said after each line
    when it gives any text."""

    def __init__(self, what: str, total: int, report: Callable[[str], None], interval: float | None = None,
                 clock: Callable[[], float] = time.monotonic, note: Callable[[], str] = lambda: "") -> None:
        self.what, self.total, self.report, self.clock = what, total, report, clock
        self.interval = INTERVAL_S if interval is None else interval
        self.note = note
        self.done = 0
        self.started = self.last = clock()
        self.first: tuple[float, int] | None = None
        """When the first item(s) finished, and how many were done then."""
        # `tick` runs on another thread than `advance`: one line at a time, from one state
        self._lock = threading.Lock()

    def estimate(self, now: float) -> tuple[float | None, str]:
        """Items per second since the first finished, once the rule above holds; else None and why not."""
        needed = max(MIN_OBSERVED, math.ceil(MIN_SHARE * self.total))
        counted = 0 if self.first is None else self.done - self.first[1]
        if self.first is None or counted < needed:
            more = needed - counted + (self.first is None)
            # fewer left than that: the work ends before any estimate, so no count is promised
            return None, f"{NO_ESTIMATE} (until {more} more finish)" if more < self.total - self.done else NO_ESTIMATE
        since = now - self.first[0]
        if since < MIN_WINDOW_S:
            return None, NO_ESTIMATE
        return counted / since, ""

    def rate(self, now: float) -> float | None:
        return self.estimate(now)[0]

    def advance(self, count: int = 1) -> None:
        with self._lock:
            self.done += count
            now = self.clock()
            if self.first is None:
                self.first = (now, self.done)
            if self.done >= self.total or now - self.last >= self.interval:
                self._say(now)

    def tick(self) -> None:
        """A line when `interval` has passed since the last one and work remains."""
        with self._lock:
            now = self.clock()
            if self.done < self.total and now - self.last >= self.interval:
                self._say(now)

    def _say(self, now: float) -> None:
        self.last = now
        rate, wait = self.estimate(now)
        line = progress_line(self.what, self.done, self.total, now - self.started, rate, wait)
        note = self.note()
        self.report(f"{line}; {note}" if note else line)


@dataclass
class CacheCount:
    """How many of a run's answers (model calls that returned: a judge's too) Inspect's response cache gave, from
    the model events Inspect records in every sample's transcript and log (`ModelEvent.cache`: "read" for a cache
    hit, "write" for a call made and stored, None with the cache off)."""

    cached: int = 0
    answers: int = 0
    cache_on: bool = False

    def add(self, events: Iterable[Event]) -> None:
        for event in events:
            if isinstance(event, ModelEvent) and event.error is None and not event.pending:
                self.answers += 1
                self.cached += event.cache == "read"
                self.cache_on |= event.cache is not None

    def text(self) -> str:
        """"40 of 40 answers from the response cache", or that the cache was off."""
        if self.answers and not self.cache_on:
            return "response cache off: no answer came from it"
        return f"{self.cached} of {self.answers} answers from the response cache"


@contextmanager
def ticking(progress: Progress) -> Iterator[Progress]:
    """`progress` ticked on time while the block runs: a line every interval though no item finishes (a builder's
    model loading, a long answer), checked a few times per interval so a line comes within a quarter of its time."""
    ticker = Ticker(progress.tick, progress.interval / 4)
    try:
        yield progress
    finally:
        ticker.stop()


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class Ticker:
    """Calls `tick` every `every` seconds on a daemon thread until `stop`."""

    def __init__(self, tick: Callable[[], None], every: float) -> None:
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(tick, every), name="figeval-progress", daemon=True)
        self._thread.start()

    def _run(self, tick: Callable[[], None], every: float) -> None:
        while not self._stopped.wait(every):
            tick()

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join()


@hooks(name="figeval_progress_lines", description="Plain progress lines for figeval run without a terminal.")
class RunProgress(Hooks):
    """One `Progress` per running task, fed by Inspect's sample-end events (each sample's model events counted
    for the cache) and ticked on time by one `Ticker` while any task runs (on when `figeval run` sets
    FIGEVAL_PROGRESS_LINES=1)."""

    interval = INTERVAL_S
    """Seconds between lines (a test sets a short one)."""

    def __init__(self) -> None:
        self.tasks: dict[str, Progress] = {}
        self.caches: dict[str, CacheCount] = {}
        self.ticker: Ticker | None = None

    def enabled(self) -> bool:
        return os.environ.get(ENABLE_VARIABLE) == "1"

    def tick(self) -> None:
        for progress in list(self.tasks.values()):
            progress.tick()

    async def on_task_start(self, data: TaskStart) -> None:
        samples = len(data.spec.dataset.sample_ids or []) or data.spec.dataset.samples or 0
        total = samples * (data.spec.config.epochs or 1)
        cache = self.caches[data.eval_id] = CacheCount()
        self.tasks[data.eval_id] = Progress(f"{data.spec.task.split('/')[-1]} samples", total, _stderr,
                                            self.interval, note=lambda: cache.text() if cache.cached else "")
        if self.ticker is None:
            # checks a few times per interval, so a line comes within a quarter interval of its time
            self.ticker = Ticker(self.tick, self.interval / 4)

    async def on_sample_end(self, data: SampleEnd) -> None:
        if data.eval_id in self.tasks:
            self.caches[data.eval_id].add(data.sample.events)
            self.tasks[data.eval_id].advance()

    async def on_task_end(self, data: TaskEnd) -> None:
        self.tasks.pop(data.eval_id, None)
        self.caches.pop(data.eval_id, None)
        if not self.tasks:
            self._stop()

    async def on_run_end(self, data: RunEnd) -> None:
        # Inspect ends a task that fails or is cancelled without a task-end event: its lines stop with the run (an
        # eval set's next attempt is a run of its own)
        self.tasks.clear()
        self.caches.clear()
        self._stop()

    def _stop(self) -> None:
        if self.ticker is not None:
            self.ticker.stop()
            self.ticker = None
