"""A pytest plugin that counts the processes the tests start, by the command's first word, and the seconds they
take until waited for: what the in-process CLI helper (tests/command.py) saves is measured by it.

Usage: .venv/bin/pytest -p perf.count_subprocesses tests/test_cli.py ... -q
The last lines say, e.g. "subprocesses: 12 (python -m figeval 10, inspect 2), 41.3 s".
"""

from __future__ import annotations

import collections
import subprocess
import time
from pathlib import Path

STARTED: list[tuple[str, float]] = []
"""Each process started: its command's name and the time it started."""
FINISHED: dict[int, float] = {}
"""Seconds each process ran, by its pid, once waited for."""

_popen_init = subprocess.Popen.__init__
_popen_wait = subprocess.Popen.wait


def command_name(args) -> str:
    """`python -m figeval`, `python -c`, `inspect`, `pdflatex`...: what a reader recognises of a command line."""
    words = [args] if isinstance(args, (str, Path)) else [str(word) for word in args]
    first = Path(str(words[0]).split()[0]).name
    if first.startswith("python") and len(words) > 1:
        return f"python {' '.join(words[1:3]) if words[1] == '-m' else words[1] if words[1] == '-c' else 'script'}"
    return first


def counting_init(self, args, *rest, **options) -> None:
    _popen_init(self, args, *rest, **options)
    self._counted_start = time.perf_counter()
    STARTED.append((command_name(args), self._counted_start))


def counting_wait(self, *rest, **options):
    code = _popen_wait(self, *rest, **options)
    if self.pid not in FINISHED and hasattr(self, "_counted_start"):
        FINISHED[self.pid] = time.perf_counter() - self._counted_start
    return code


subprocess.Popen.__init__ = counting_init
subprocess.Popen.wait = counting_wait


def pytest_terminal_summary(terminalreporter) -> None:
    by_name = collections.Counter(name for name, _ in STARTED)
    names = ", ".join(f"{name} {count}" for name, count in by_name.most_common())
    terminalreporter.write_line(f"subprocesses: {len(STARTED)} ({names}), {sum(FINISHED.values()):.1f} s")
