"""One paper run of three models against three paper runs of one model each, one after another (issue 42).

Three local OpenAI-compatible stub servers (tests/api_stub.py), each answering every request after 0.5 s; figeval
reads each as a server on this machine that does not say its slots, so each model gets its own one connection
(figeval.models.local_server). FFE-HALLU's protocol with --limit 40 runs its detection task on each model (the
other runs need files and are skipped); the response cache is off, so both ways ask every model every sample.

Prints the wall time of each way, their ratio, and the requests each server received (the same both ways).

Then a half-finished set: the same three-model command in a process of its own, each server holding its answers
after its first 7, 19 and 30, the command stopped there as a user stops it (Ctrl-C); the dry run's plan of what
is left (`figeval.plan`, per service) against the requests each server receives when the set is run again.

Usage: .venv/bin/python perf/paper_models.py   (needs the ffe-hallu data: `figeval data list`)
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("INSPECT_DISPLAY", "none")

import figeval  # noqa: E402
from tests.api_stub import StubServer  # noqa: E402

LATENCY_S = 0.5
LIMIT = 40


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="paper-models-"))
    os.environ["INSPECT_CACHE_DIR"] = str(folder / "cache")
    servers = [StubServer(latency=LATENCY_S).start() for _ in range(3)]
    try:
        models = []
        for number, server in enumerate(servers, start=1):
            os.environ.update(server.env(f"stub{number}"))
            models.append(f"openai-api/stub{number}/m")
        started = time.monotonic()
        for model in models:
            alone = figeval.run_paper("ffe-hallu", model=model, limit=LIMIT, log_dir=folder / "one", cache=False)
            assert alone.finished
        one_by_one = time.monotonic() - started
        asked_one = [server.counts["ok"] for server in servers]
        for server in servers:
            server.reset()
        started = time.monotonic()
        assert figeval.run_paper("ffe-hallu", models=models, limit=LIMIT, log_dir=folder / "set", cache=False).finished
        together = time.monotonic() - started
        asked_set = [server.counts["ok"] for server in servers]
    finally:
        for server in servers:
            server.stop()
    print(f"three single-model paper runs one after another: {one_by_one:6.1f} s  (requests per server {asked_one})")
    print(f"one paper run of the three models:               {together:6.1f} s  (requests per server {asked_set})")
    print(f"ratio: {one_by_one / together:.2f}x")
    half_finished(folder / "half")


def half_finished(folder: Path) -> None:
    """The plan of a set stopped part-way against the requests its re-run makes, per server."""
    servers = [StubServer(latency=LATENCY_S).start() for _ in range(3)]
    held = (7, 19, 30)
    try:
        models = []
        for number, server in enumerate(servers, start=1):
            os.environ.update(server.env(f"stub{number}"))
            models.append(f"openai-api/stub{number}/m")
        for server, answers in zip(servers, held):
            server.hold_after(answers)
        command = [sys.executable, "-m", "figeval", "run", "--paper", "ffe-hallu", "--model", ",".join(models),
                   "--limit", str(LIMIT), "--no-cache", "--log-dir", str(folder)]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        while sum(server.total_answered() for server in servers) < sum(held):
            if process.poll() is not None:
                raise SystemExit(f"the command ended before it was stopped: {process.communicate()[0]}")
            time.sleep(0.2)
        time.sleep(2)  # the answers written to the logs
        process.send_signal(signal.SIGINT)
        said = process.communicate(timeout=120)[0].strip().splitlines()
        for server in servers:
            server.release(answer_held=False)
            server.reset()
        plan = figeval.plan(paper="ffe-hallu", models=models, limit=LIMIT, log_dir=folder)
        planned = {service: total.calls for service, total in plan.by_service().items()}
        finished = figeval.run_paper("ffe-hallu", models=models, limit=LIMIT, log_dir=folder, cache=False).finished
        asked = {f"openai-api/stub{number}": server.counts["ok"] for number, server in enumerate(servers, start=1)}
    finally:
        for server in servers:
            server.stop()
    print(f"stopped after {held} answers (exit {process.returncode}, last line: {said[-1] if said else None!r}); "
          f"the re-run finished: {finished}")
    print(f"plan of what is left, calls per service: {planned}")
    print(f"requests the re-run made, per server:    {asked}")
    print(f"equal: {planned == asked}")


if __name__ == "__main__":
    main()
