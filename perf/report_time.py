"""What `figeval report` costs on 100 logs of 800 samples: one real ffe_detection log (the one `make run` writes)
copied under 100 model names, then the report built and rendered as text, as JSON, and as HTML with its figures.

Usage: .venv/bin/python perf/report_time.py [LOG, default: the newest ffe-detection log in logs/] [repetitions=3]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from inspect_ai.log import read_eval_log, write_eval_log

from figeval._registry import BENCHMARKS
from figeval.reporting.figures import close, figures
from figeval.reporting.html import render_html
from figeval.reporting.data_formats import render_json
from figeval.reporting.render import render_text
from figeval.results.report import build_report

COPIES = 100


def copies(source: Path, folder: Path) -> None:
    log = read_eval_log(str(source))
    assert log.results is not None and len(log.samples or []) == 800, "needs a finished log of 800 samples"
    for i in range(COPIES):
        log.eval.model = f"provider/model-{i:03d}"
        # Inspect's file-name pattern (time_task_id): names that do not follow it make Inspect's listing open
        # every log to find its task
        write_eval_log(log,
                       str(folder / f"2026-11-22T00-{i // 60:02d}-{i % 60:02d}-00-00_ffe-detection_copy{i:03d}.eval"))


def html_with_figures(folder: Path) -> str:
    report = build_report(folder, BENCHMARKS, paper=True)
    found = figures(report, BENCHMARKS)
    try:
        return render_html(report, found)
    finally:
        close(found)


def timed(step) -> float:
    start = time.perf_counter()
    step()
    return time.perf_counter() - start


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else max(Path("logs").glob("*ffe-detection*.eval"))
    repetitions = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"writing {COPIES} copies of {source} ({source.stat().st_size / 1e6:.1f} MB each) ...")
        copies(source, folder)
        steps = {
            "read + tables (build_report)": lambda: build_report(folder, BENCHMARKS),
            "... + text": lambda: render_text(build_report(folder, BENCHMARKS)),
            "... + json": lambda: render_json(build_report(folder, BENCHMARKS)),
            "... + html with figures": lambda: html_with_figures(folder),
        }
        for name, step in steps.items():
            times = [timed(step) for _ in range(repetitions)]
            print(f"{name:<32} min {min(times):.2f} s  median {statistics.median(times):.2f} s  max {max(times):.2f} s")


if __name__ == "__main__":
    main()
