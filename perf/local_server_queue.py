"""40 samples of ffe_detection against a local server that runs one generation at a time (llama-server with one
slot), with the settings an API gets and with figeval.models.local_server's, at a scale where it takes seconds.

The server is the one-slot stub of tests/models/test_local_server_queue.py, in this process: each prompt takes
0.15-0.45 s (seeded per prompt, mean 0.3 s; issue 25's server took ~11 s a generation, so every duration here is
about 1/37 of that run's) and a request whose client has gone is still generated, as llama-server does with a
request it has started. Settings compared:
- api-defaults: what `figeval run` gives an API (eval_options: attempt timeout 120 s, 10 retries; connections
  Inspect's adaptive default, 20 at first), the attempt timeout scaled to 3 s (120 s / 37 ~ 3.2 s);
- api-10: the same with 10 connections, as in issue 25;
- local: eval_options merged with local_server_settings (1 connection from /props, no attempt timeout, 5 retries).
For each: wall time, samples finished without error, requests the server received, prompts sent more than once,
generations it ran, the most requests it held at once.

With `--dead`, also the time one request to a server that is not running takes to fail with the local settings
(5 retries and Inspect's backoff: 93-108 s expected), sample retries off.

Usage: .venv/bin/python perf/local_server_queue.py [--dead]   (needs the ffe-hallu data: `figeval data list`)
"""

from __future__ import annotations

import os
import random
import socket
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("INSPECT_DISPLAY", "none")

from figeval._compat import preload_inspect_modules  # noqa: E402

preload_inspect_modules()

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.model import get_model  # noqa: E402

from figeval._registry import make_task  # noqa: E402
from figeval.running.launch import eval_options  # noqa: E402
from figeval.models.local_server import local_server_settings  # noqa: E402
from tests.models.test_local_server_queue import MODEL, OneSlotServer  # noqa: E402

SAMPLES = 40
SCALED_ATTEMPT_TIMEOUT = 3


def generation_s(prompt: str) -> float:
    return random.Random(prompt).uniform(0.15, 0.45)


def run(name: str, options: dict, log_dir: str) -> None:
    with OneSlotServer(latency=generation_s) as server:
        os.environ.update(server.env("llamacpp"))
        settings = local_server_settings(MODEL)
        chosen = {"api-defaults": {"attempt_timeout": SCALED_ATTEMPT_TIMEOUT},
                  "api-10": {"attempt_timeout": SCALED_ATTEMPT_TIMEOUT, "max_connections": 10},
                  "local": settings.options if settings else {}}[name]
        started = time.monotonic()
        [log] = inspect_eval(make_task("ffe_detection", {}), model=get_model(MODEL, memoize=False), limit=SAMPLES,
                             **(options | chosen | {"log_dir": log_dir, "display": "none", "fail_on_error": False}))
        took = time.monotonic() - started
        done = sum(sample.error is None for sample in log.samples or [])
        print(f"{name:13} {took:7.1f} s  {done:2}/{SAMPLES} done  {sum(server.arrived.values()):3} requests  "
              f"{len(server.resent()):2} prompts re-sent  {server.generations:3} generations  "
              f"{server.most_waiting:2} held at once", flush=True)


def dead_server(log_dir: str) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    os.environ["LLAMACPP_BASE_URL"] = f"http://127.0.0.1:{port}/v1"
    settings = local_server_settings(MODEL)
    assert settings is not None
    print(settings.note, flush=True)
    started = time.monotonic()
    [log] = inspect_eval(make_task("ffe_detection", {}), model=get_model(MODEL, memoize=False), limit=1,
                         **(eval_options(MODEL, cache=False) | settings.options
                            | {"retry_on_error": 0, "log_dir": log_dir, "display": "none", "fail_on_error": False}))
    error = log.samples[0].error.message.splitlines()[0] if log.samples and log.samples[0].error else log.status
    print(f"dead server: one request failed after {time.monotonic() - started:.1f} s ({error})", flush=True)


def main() -> None:
    log_dir = tempfile.mkdtemp(prefix="local-server-queue-")
    os.environ["INSPECT_CACHE_DIR"] = tempfile.mkdtemp(prefix="local-server-cache-")
    os.environ["LLAMACPP_API_KEY"] = "stub-key"
    for name in ("api-defaults", "api-10", "local"):
        run(name, eval_options(MODEL, cache=False), log_dir)
    if "--dead" in sys.argv:
        dead_server(log_dir)


if __name__ == "__main__":
    main()
