"""A local OpenAI-compatible server that runs one generation at a time (llama-server with one slot): figeval's
settings for it (figeval.models.local_server) finish a real task without sending any request twice, where the API
settings (many connections, a short attempt timeout) abandon queued requests and send them again; and the server
is asked how many slots it has, as llama-server answers."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("openai")  # Inspect's openai-api provider needs it

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.model import Model, get_model  # noqa: E402

from tests.command import make_task  # noqa: E402
from figeval.running.launch import eval_options  # noqa: E402
from figeval.models.echo import answers_of_log, echo_warning  # noqa: E402
from figeval.models.local_server import LOCAL_MAX_RETRIES, Probe, local_server_settings, probe_server  # noqa: E402
from tests.api_stub import StubServer, _write  # noqa: E402

MODEL = "openai-api/llamacpp/gemma-3-1b"


class OneSlotServer(StubServer):
    """tests/api_stub.StubServer serving `slots` chat completions at a time, each taking `latency` seconds (or
    `latency(prompt)`); the others wait in its queue, and a request whose client has gone is still generated (the
    waste of issue 25: 94 generations for 11 samples). GET /props answers as llama-server does (`total_slots`),
    GET /slots with one entry per slot unless `slots_endpoint` is False (llama-server --no-slots: 501).

    Counts: `arrived` (prompt -> requests received, counted on arrival, before the queue), `most_waiting` (the most
    requests the server held at once, queued or running), `generations` (completions it ran).
    With `echo`, each answer is its prompt coming back inside a ChatML turn, as a base model behind the fallback
    template writes it."""

    def __init__(self, latency: float | Callable[[str], float] = 0.2, slots: int = 1, props: bool = True,
                 slots_endpoint: bool = True, echo: bool = False) -> None:
        super().__init__(latency=0.0)
        self.generation_s = latency if callable(latency) else lambda prompt: latency  # seconds a prompt takes
        self.slots, self.props, self.slots_endpoint, self.echo = slots, props, slots_endpoint, echo
        self.arrived: Counter[str] = Counter()
        self.most_waiting = 0
        self.generations = 0
        self._waiting = 0
        self._slot: asyncio.Semaphore | None = None

    async def _respond(self, method: str, path: str, body: bytes, writer: asyncio.StreamWriter) -> bool:
        if method == "GET":
            return await self._introspect(path.rstrip("/"), writer)
        with self._lock:
            prompt = json.dumps(json.loads(body).get("messages"), ensure_ascii=False, sort_keys=True)
            self.arrived[prompt] += 1
            self._waiting += 1
            self.most_waiting = max(self.most_waiting, self._waiting)
        if self._slot is None:
            self._slot = asyncio.Semaphore(self.slots)  # in the server's own event loop
        try:
            async with self._slot:
                with self._lock:
                    self.generations += 1
                await asyncio.sleep(self.generation_s(prompt))
                return await super()._respond(method, path, body, writer)
        finally:
            with self._lock:
                self._waiting -= 1

    async def _introspect(self, path: str, writer: asyncio.StreamWriter) -> bool:
        if path == "/props" and self.props:
            # the fields llama-server's /props carries (build b5xxx), trimmed
            _write(writer, 200, {"default_generation_settings": {"n_ctx": 4096, "temperature": 0.8},
                                 "total_slots": self.slots, "model_path": "gemma-3-1b-pt-Q4_K_M.gguf",
                                 "chat_template": "{% for message in messages %}...", "build_info": "b5000"}, "props")
        elif path == "/slots" and self.slots_endpoint:
            _write(writer, 200, [{"id": i, "n_ctx": 4096, "is_processing": False} for i in range(self.slots)],
                   "slots")
        elif path == "/slots":
            _write(writer, 501, {"error": {"message": "This server does not support slots endpoint."}}, "slots")
        else:
            _write(writer, 404, {"error": {"message": "File Not Found"}}, "get")
        await writer.drain()
        return True

    def _completion(self, payload: dict, request_id: str) -> dict:
        completion = super()._completion(payload, request_id)
        if self.echo:
            user = [m["content"] for m in payload["messages"] if m["role"] == "user"][-1]
            completion["choices"][0]["message"]["content"] = f"{user}<|im_end|>\n<|im_start|>user\n{user}"
        return completion

    def resent(self) -> dict[str, int]:
        with self._lock:
            return {prompt: n for prompt, n in self.arrived.items() if n > 1}


def server_env(server: StubServer, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in server.env("llamacpp").items():
        monkeypatch.setenv(name, value)


def served_model() -> Model:
    """MODEL at the server the environment names now: Inspect memoizes a model by its name and settings, so a
    second test's eval would reuse the first test's client, bound to a server that has stopped."""
    return get_model(MODEL, memoize=False)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_forty_samples_on_a_one_slot_server_are_each_asked_once(ffe_hallu_imported: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch):
    with OneSlotServer(latency=0.2) as server:
        server_env(server, monkeypatch)
        settings = local_server_settings(MODEL)
        assert settings is not None
        # /props says 1 slot: one connection; no attempt timeout; LOCAL_MAX_RETRIES (5) retries
        assert settings.options == {"max_connections": 1, "attempt_timeout": None, "max_retries": 5}
        options = eval_options(MODEL) | settings.options | {"log_dir": str(tmp_path / "logs"), "display": "none"}
        started = time.monotonic()
        [log] = inspect_eval(make_task("ffe_detection", {}), model=served_model(), limit=40, **options)
        took = time.monotonic() - started

    assert log.status == "success" and len(log.samples) == 40
    assert all(sample.error is None for sample in log.samples)
    # 40 distinct prompts (20 expressions x 2 framings or 40 of one framing: each prompt differs), each received
    # once; one connection, so the server never held more than the one request it was generating
    assert len(server.arrived) == 40 and server.resent() == {}
    assert server.generations == 40 and server.most_waiting == 1
    assert took < 30, f"{took:.1f} s for 40 samples of 0.2 s"


def test_the_api_settings_abandon_queued_requests_and_send_them_again(ffe_hallu_imported: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch):
    """The failure the settings above prevent, at a small scale: 10 connections to one slot of 0.2 s a request,
    each attempt abandoned after 1 s (issue 25's run had 10 connections and 120 s, against ~11 s a generation;
    Inspect's adaptive default starts at 20). The k-th request of the first ten is answered after 0.2k s, so the 6th
    to the 10th (answered after 1.2-2.0 s) are abandoned at 1 s and sent again, while the server still generates
    them."""
    with OneSlotServer(latency=0.2) as server:
        server_env(server, monkeypatch)
        options = eval_options(MODEL, cache=False) | {
            "max_connections": 10, "attempt_timeout": 1, "max_retries": 1, "retry_on_error": 0,
            "fail_on_error": False, "log_dir": str(tmp_path / "logs"), "display": "none"}
        inspect_eval(make_task("ffe_detection", {}), model=served_model(), limit=10, **options)

    # the 6th to the 10th for certain (the 5th, answered at 1.0 s plus the HTTP round trip, was abandoned too in
    # each of 3 runs here: 6 sent twice, 16 generations)
    assert len(server.resent()) >= 5, server.arrived
    # every request sent was generated, the abandoned ones included: 10 + the re-sent ones, for 10 samples
    # (and at least 6 were in its queue at once: the 6th waits 1.2 s)
    assert server.generations == sum(server.arrived.values()) >= 15 and server.most_waiting >= 6


def test_probe_reads_llama_server_slots(monkeypatch: pytest.MonkeyPatch):
    with OneSlotServer(slots=4) as server:
        assert probe_server(server.base_url) == Probe(reachable=True, slots=4)  # /props total_slots
    with OneSlotServer(slots=2, props=False) as server:
        assert probe_server(server.base_url) == Probe(reachable=True, slots=2)  # /slots: one entry per slot
    # neither endpoint (llama-server --no-slots with an old /props, or another server): reachable, slots unknown;
    # /v1/models is a POST-only 404 here, so no owner either
    with OneSlotServer(props=False, slots_endpoint=False) as server:
        assert probe_server(server.base_url) == Probe(reachable=True)
    closed = probe_server(f"http://127.0.0.1:{free_port()}/v1")
    assert not closed.reachable and "refused" in str(closed.error).lower()


def test_settings_from_a_probe_of_a_real_server(monkeypatch: pytest.MonkeyPatch):
    with OneSlotServer(slots=2) as server:
        server_env(server, monkeypatch)
        settings = local_server_settings(MODEL, given={"max_connections": 6})
    assert settings is not None
    # the user's 6 connections win; 6 to 2 slots: 3 rounds, so a request may wait for ceil(6 / 2) - 1 = 2
    # generations before its own
    assert settings.options == {"attempt_timeout": None, "max_retries": LOCAL_MAX_RETRIES}
    assert f"llama.cpp server at {server.base_url}" in settings.note
    assert ("--max-connections 6 (given)" in settings.note
            and "may wait for 2 generations before its own" in settings.note)


def test_a_base_model_behind_a_chat_template_is_warned_about_after_its_run(ffe_hallu_imported: Path,
                                                                             tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch):
    with OneSlotServer(latency=0.0, echo=True) as server:
        server_env(server, monkeypatch)
        settings = local_server_settings(MODEL)
        assert settings is not None
        options = eval_options(MODEL) | settings.options | {"log_dir": str(tmp_path / "logs"), "display": "none"}
        [log] = inspect_eval(make_task("ffe_detection", {}), model=served_model(), limit=6, **options)
    assert log.status == "success"
    answered = answers_of_log(log)
    assert len(answered) == 6 and all(one.prompts and not one.has_system for one in answered)
    # every answer holds <|im_start|> and its prompt: 6 of 6 echo; ffe_detection takes answer_mode; no system
    # message, so the completions endpoint can take the prompt too
    assert echo_warning(answered, MODEL, takes_answer_mode=True) == (
        "warning: 6 of 6 answers repeat the prompt or chat-template markers (<|im_end|>): "
        f"{MODEL} looks like a base model behind a chat template; ask it with -T answer_mode=logprob (its answer "
        "read from the next token's log-probabilities) or --model openai-api-completions/llamacpp/gemma-3-1b (the "
        "prompt sent as raw text, without a chat template), or use an instruction-tuned model.")
