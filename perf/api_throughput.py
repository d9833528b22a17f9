"""Throughput of ffe_detection against an OpenAI-compatible server: figeval (Inspect) vs a bare openai loop.

Both sides send the same N chat requests (the first N `ffe_detection(controls=False)` prompts, with figeval's
decoding settings) to a local server that answers "Yes" after a fixed latency (tests/api_stub.py, run in its own
process so that it takes no CPU from the side measured), 32 at a time: the bare side is an `openai.AsyncOpenAI`
loop under a semaphore, figeval is `inspect_ai.eval` of the task with the settings `figeval run` uses
(`eval_options`, response cache off, `max_connections=32`), in process, after one warm-up eval (Inspect's lazy
imports are paid once per process and are not what is measured). Each is repeated, at each latency.

Then figeval's CPU per sample: an in-process eval under cProfile at zero latency, its time split by package, and
figeval's own functions by inclusive time.

Usage: .venv/bin/python perf/api_throughput.py [N] [REPS] (needs `pip install openai` and the ffe-hallu data:
`figeval data list`)
"""

from __future__ import annotations

import asyncio
import cProfile
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
MODEL = "openai-api/stub/m"
CONCURRENCY = 32
LATENCIES = (1.0, 0.5)

STUB = """
import sys
sys.path.insert(0, sys.argv[2])
from tests.api_stub import StubServer
stub = StubServer(latency=float(sys.argv[1])).start()
print(stub.port, flush=True)
sys.stdin.read()
"""


class Stub:
    """tests/api_stub.py in a child process, with `openai-api/stub/...`'s variables set in this one."""

    def __init__(self, latency: float) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", STUB, str(latency), str(REPO)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        self.base_url = f"http://127.0.0.1:{int(self.process.stdout.readline())}/v1"
        os.environ["STUB_BASE_URL"], os.environ["STUB_API_KEY"] = self.base_url, "stub-key"

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(10)


def prompts(n: int) -> list[list[dict[str, str]]]:
    """The first n prompts of ffe_detection(controls=False), as the chat messages the provider sends."""
    from figeval.benchmarks.ffe_hallu.dataset import load_detection_data

    samples = list(load_detection_data(controls=False).dataset)[:n]
    if len(samples) < n:
        raise SystemExit(f"ffe_detection(controls=False) has {len(samples)} samples; ask for at most that many.")
    return [[{"role": "user", "content": sample.input}] if isinstance(sample.input, str)
            else [{"role": m.role, "content": m.text} for m in sample.input] for sample in samples]


def bare_rate(messages: list[list[dict[str, str]]], base_url: str) -> float:
    """Samples/s of a plain AsyncOpenAI loop, CONCURRENCY requests in flight."""
    import openai

    from figeval.answering import DETERMINISTIC

    async def main() -> float:
        client = openai.AsyncOpenAI(base_url=base_url, api_key="stub-key")
        limit = asyncio.Semaphore(CONCURRENCY)

        async def ask(message: list[dict[str, str]]) -> str | None:
            async with limit:
                completion = await client.chat.completions.create(
                    model="m", messages=message, temperature=DETERMINISTIC.temperature, top_p=DETERMINISTIC.top_p,
                    max_tokens=DETERMINISTIC.max_tokens)
                return completion.choices[0].message.content

        await ask(messages[0])  # connection set-up
        started = time.perf_counter()
        answers = await asyncio.gather(*(ask(message) for message in messages))
        elapsed = time.perf_counter() - started
        await client.close()
        assert all(answer == "Yes" for answer in answers)
        return len(messages) / elapsed

    return asyncio.run(main())


def figeval_eval(n: int, log_dir: str, **overrides: Any):
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from figeval.benchmarks.ffe_hallu.tasks import ffe_detection
    from figeval.running.launch import eval_options

    options = eval_options(MODEL, cache=False) | {"max_connections": CONCURRENCY} | overrides
    # Not memoized: Inspect would keep the first model it built, with the first stub's address.
    model = get_model(MODEL, base_url=os.environ["STUB_BASE_URL"], memoize=False)
    [log] = inspect_eval(ffe_detection(controls=False), model=model, limit=n, log_dir=log_dir, display="none",
                         **options)
    assert log.status == "success" and log.results is not None and log.results.completed_samples == n, log.error
    return log


def figeval_rate(n: int, **overrides: Any) -> float:
    """Samples/s of ffe_detection through Inspect with `figeval run`'s settings."""
    with tempfile.TemporaryDirectory() as log_dir:
        started = time.perf_counter()
        figeval_eval(n, log_dir, **overrides)
        return n / (time.perf_counter() - started)


def spread(rates: list[float]) -> str:
    return f"min {min(rates):6.2f}  median {statistics.median(rates):6.2f}  max {max(rates):6.2f} samples/s"


def package_of(filename: str) -> str:
    if f"{os.sep}figeval{os.sep}" in filename and "site-packages" not in filename:
        return "figeval"
    if "site-packages" in filename:
        return filename.split("site-packages" + os.sep)[1].split(os.sep)[0].removesuffix(".py")
    if filename == "~":
        return "(built-ins: C code called from the above)"
    return "stdlib"


def profile(n: int) -> None:
    """figeval's CPU per sample at zero latency: where Inspect's and figeval's time goes."""
    stub = Stub(0.0)
    try:
        with tempfile.TemporaryDirectory() as log_dir:
            figeval_eval(5, log_dir)  # warm-up
            rate = figeval_rate(n)
            quiet = figeval_rate(n, log_realtime=False)
            profiler = cProfile.Profile()
            started = time.perf_counter()
            profiler.enable()
            figeval_eval(n, log_dir)
            profiler.disable()
            wall = time.perf_counter() - started
        bare = bare_rate(prompts(n), stub.base_url)
    finally:
        stub.close()

    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(tt for _, _, tt, _, _ in stats.values())
    print(f"\nCPU at zero latency, N={n}: figeval {rate:.1f} samples/s ({1000 / rate:.1f} ms a sample), "
          f"{quiet:.1f} with log_realtime=False; bare loop {bare:.1f} samples/s ({1000 / bare:.1f} ms)")
    print(f"profiled run: {wall:.2f} s, {1000 * total / n:.1f} ms of profiled time a sample; own "
          f"(self) time by package:")
    by_package: Counter[str] = Counter()
    for (filename, _, _), (_, _, tt, _, _) in stats.items():
        by_package[package_of(filename)] += tt
    for package, seconds in by_package.most_common(10):
        print(f"  {100 * seconds / total:5.1f}%  {1000 * seconds / n:6.2f} ms/sample  {package}")
    if "figeval" not in dict(by_package.most_common(10)):
        print(f"  {100 * by_package['figeval'] / total:5.1f}%  "
              f"{1000 * by_package['figeval'] / n:6.2f} ms/sample  figeval")

    def inclusive(path_end: str, name: str) -> tuple[float, int]:
        found = [(ct, nc) for (f, _, fn), (_, nc, _, ct, _) in stats.items() if f.endswith(path_end) and fn == name]
        return (sum(ct for ct, _ in found), sum(nc for _, nc in found))

    scoring, scored = inclusive(os.path.join("ffe_hallu", "scorer.py"), "score")
    metrics, _ = inclusive(os.path.join("task", "results.py"), "eval_results")
    print(f"figeval's scorer (parse and score each answer), inclusive: {1000 * scoring / max(scored, 1):.2f} ms a "
          f"sample ({scored} calls)")
    print(f"end-of-run metrics (Inspect's eval_results with figeval's metrics inside), once a run: {metrics:.3f} s "
          f"= {1000 * metrics / n:.2f} ms a sample at N={n}")
    for package, marker in (("inspect_ai", "site-packages" + os.sep), ("figeval", "src" + os.sep)):
        print(f"{package}'s functions by own time:")
        own = sorted(((tt, nc, f"{f.split(marker)[-1]}:{line} {name}")
                      for (f, line, name), (_, nc, tt, _, _) in stats.items() if package_of(f) == package),
                     reverse=True)
        for tt, nc, label in own[:8]:
            print(f"  {1000 * tt:7.1f} ms  {nc:7d} calls  {label}")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    os.environ.setdefault("INSPECT_DISPLAY", "none")
    from figeval._compat import preload_inspect_modules

    preload_inspect_modules()
    messages = prompts(n)
    results = []
    for latency in LATENCIES:
        stub = Stub(latency)
        try:
            with tempfile.TemporaryDirectory() as log_dir:
                figeval_eval(5, log_dir)  # warm-up: Inspect's one-time start
            bare, ours = [], []
            for _ in range(reps):  # interleaved, so drift hits both sides alike
                bare.append(bare_rate(messages, stub.base_url))
                ours.append(figeval_rate(n))
        finally:
            stub.close()
        ceiling = CONCURRENCY / latency
        ratio = statistics.median(ours) / statistics.median(bare)
        results.append((latency, ratio))
        print(f"latency {latency:.1f} s, N={n}, {CONCURRENCY} concurrent (ceiling {ceiling:.0f} "
              f"samples/s), {reps} runs each:")
        print(f"  bare AsyncOpenAI loop: {spread(bare)}")
        print(f"  figeval ffe_detection: {spread(ours)}")
        print(f"  ratio figeval/bare (medians): {ratio:.3f}")
    profile(n)
    print("\nsummary: " + ", ".join(f"figeval/bare at {latency:.1f} s = {ratio:.3f}" for latency, ratio in results))


if __name__ == "__main__":
    main()
