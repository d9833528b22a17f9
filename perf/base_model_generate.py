"""Seconds per sample of a base GGUF model answering in generate mode, and the tokens it writes.

A base model (the embedded Gemma 3 270M) continues text and never stops by itself; figeval ends its answer at the
end of its first line of text. Run this script on the current code and on a checkout before that rule (put its
`src` first on PYTHONPATH) to compare.

Usage: .venv/bin/python perf/base_model_generate.py [N]   (N detection samples, default 12; needs the ffe-hallu
data: `figeval data list`)
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time

from inspect_ai import eval as inspect_eval

from figeval.benchmarks.ffe_hallu.tasks import ffe_detection


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    with tempfile.TemporaryDirectory() as logs:
        started = time.monotonic()
        [log] = inspect_eval(ffe_detection(controls=False, answer_mode="generate"), model="gguf/gemma-3-270m",
                             limit=n, log_dir=logs, display="none", max_connections=1)
        elapsed = time.monotonic() - started
        assert log.status == "success", log.error
        tokens = [sample.output.usage.output_tokens for sample in log.samples]
    print(f"{n} samples, one at a time: {elapsed / n:.2f} s a sample (load included), "
          f"output tokens median {statistics.median(tokens)}, max {max(tokens)}")


if __name__ == "__main__":
    main()
