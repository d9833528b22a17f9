"""Does batching change the embedded model's answers? ffe_detection with n_parallel=P against n_parallel=1.

Runs the first N `ffe_detection(controls=True)` samples (logprob mode, response cache off) in one process, with
the gguf provider answering one request at a time and then P together (each P given), and compares every sample:
its completion, its scores and its top-20 log-probabilities (the issue's bar: equal to 1e-4). Prints the samples
that differ and each run's time.

Usage: .venv/bin/python perf/gguf_batch_exactness.py [N] [P,P,...] (default 800 and the provider's default
n_parallel; needs the ffe-hallu data)
"""

from __future__ import annotations

import inspect
import sys
import tempfile
import time

from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model

from figeval.benchmarks.ffe_hallu.tasks import ffe_detection
from figeval.running.launch import eval_options
from figeval.models.gguf import GGUFModelAPI

TOLERANCE = 1e-4


def run(n: int, n_parallel: int) -> tuple[dict, float]:
    model = get_model("gguf/gemma-3-270m", n_parallel=n_parallel, memoize=False)
    with tempfile.TemporaryDirectory() as log_dir:
        started = time.perf_counter()
        [log] = inspect_eval(ffe_detection(controls=True, answer_mode="logprob"), model=model, limit=n,
                             log_dir=log_dir, display="none", **eval_options("gguf/gemma-3-270m", cache=False))
        elapsed = time.perf_counter() - started
        assert log.status == "success", log.error
        samples = {(sample.id, sample.epoch): sample for sample in log.samples}  # read before the folder goes
    return samples, elapsed


def top_logprobs(sample) -> dict[str, float]:
    return {top.token: top.logprob for top in sample.output.choices[0].logprobs.content[0].top_logprobs}


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 800
    default = inspect.signature(GGUFModelAPI).parameters["n_parallel"].default
    parallels = [int(p) for p in sys.argv[2].split(",")] if len(sys.argv) > 2 else [default]
    alone, alone_s = run(n, 1)
    print(f"{n} samples: n_parallel=1 {alone_s:.1f} s")
    for n_parallel in parallels:
        batched, batched_s = run(n, n_parallel)
        differing = []
        for key, sample in batched.items():
            ours, reference = top_logprobs(sample), top_logprobs(alone[key])
            difference = max(abs(ours[t] - reference[t]) if t in reference else float("inf") for t in ours)
            completion = sample.output.completion != alone[key].output.completion
            scores = any(sample.scores[name].value != alone[key].scores[name].value for name in sample.scores)
            if difference > TOLERANCE or completion or scores:
                differing.append(f"  {key[0]}: top-20 logprobs {difference:.2e} apart"
                                 f"{', completion differs' if completion else ''}{', scores differ' if scores else ''}")
        print(f"n_parallel={n_parallel} {batched_s:.1f} s ({alone_s / batched_s:.2f}x): "
              f"{len(differing)} samples differ "
              f"(top-20 logprobs more than {TOLERANCE} apart, or completion or scores)", flush=True)
        print("\n".join(differing))


if __name__ == "__main__":
    main()
