"""A local OpenAI-compatible chat-completions server for tests and perf/: answers every request with a fixed text
after a configurable latency, and can fail a share of requests the way real APIs do.

Faults (`FAULTS`): `rate_limit` (429 with Retry-After: 1), `server_error` (500), `drop` (the connection is closed
with no response), `empty` (200 with an empty body), `malformed` (200 with a body that is not JSON), `hang` (no
answer for `hang_s` seconds, longer than the client's timeout). Which request fails, and how, is decided by a
seeded RNG from the prompt and how many times that prompt was asked before, so the same run meets the same
faults whatever order concurrent requests arrive in. After `max_consecutive` faults in a row a prompt is answered,
so a client that retries always gets through.

Every response carries an `x-request-id` header (Inspect records it, with the status, on the model event).

    with StubServer(latency=0.1, faults=FaultPlan(rate=0.2, seed=1)) as stub:
        env = stub.env("stub")   # STUB_BASE_URL, STUB_API_KEY for `--model openai-api/stub/m`
        ...
        stub.counts              # Counter: requests by kind on arrival ("ok" and each fault; "abandoned")
        stub.answered            # Counter: prompt -> times answered with a valid completion

Stdlib only (asyncio in a background thread), HTTP/1.1 with keep-alive; no streaming.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

FAULTS = ("rate_limit", "server_error", "drop", "empty", "malformed", "hang")


@dataclass(frozen=True)
class FaultPlan:
    """`rate` of requests fail (0..1), each with one of `kinds`, chosen by an RNG seeded with `seed`."""

    rate: float = 0.0
    seed: int = 0
    kinds: tuple[str, ...] = FAULTS
    max_consecutive: int = 3

    def __post_init__(self) -> None:
        unknown = set(self.kinds) - set(FAULTS)
        if unknown:
            raise ValueError(f"unknown fault kinds {sorted(unknown)}; known: {FAULTS}")

    def fault_for(self, prompt: str, attempt: int, faults_in_a_row: int) -> str | None:
        """The fault (or None) for the `attempt`-th request (0-based) of `prompt`."""
        if self.rate <= 0 or faults_in_a_row >= self.max_consecutive:
            return None
        rng = random.Random(f"{self.seed}\x00{attempt}\x00{prompt}")
        if rng.random() >= self.rate:
            return None
        return self.kinds[rng.randrange(len(self.kinds))]


@dataclass
class StubServer:
    latency: float = 0.0
    answer: str = "Yes"
    faults: FaultPlan = field(default_factory=FaultPlan)
    hang_s: float = 30.0
    host: str = "127.0.0.1"

    def __post_init__(self) -> None:
        self.port = 0
        self.counts: Counter[str] = Counter()  # requests by kind: "ok" or a fault
        self.asked: Counter[str] = Counter()  # prompt -> requests
        self.answered: Counter[str] = Counter()  # prompt -> valid completions sent
        self.log: list[tuple[float, str, str, str]] = []  # (time, request id, kind, prompt) per request
        self._in_a_row: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.AbstractServer | None = None
        self._next_id = 0
        self._hold: int | None = None
        self._abandon_held = False
        self._released: asyncio.Event | None = None

    # lifecycle

    def start(self) -> StubServer:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, 0))
        sock.listen(512)
        sock.setblocking(False)
        self.port = sock.getsockname()[1]
        self._loop = asyncio.new_event_loop()
        started = threading.Event()

        def serve() -> None:
            assert self._loop is not None
            asyncio.set_event_loop(self._loop)

            async def main() -> None:
                self._released = asyncio.Event()
                self._released.set()
                self._server = await asyncio.start_server(self._connection, sock=sock, backlog=512)
                started.set()

            self._loop.run_until_complete(main())
            self._loop.run_forever()

        self._thread = threading.Thread(target=serve, name="api-stub", daemon=True)
        self._thread.start()
        if not started.wait(10):
            raise RuntimeError("api stub did not start")
        return self

    def stop(self) -> None:
        if self._loop is None:
            return
        loop = self._loop

        async def shutdown() -> None:
            if self._server is not None:
                self._server.close()
            tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(shutdown(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(10)
        self._loop = None

    def __enter__(self) -> StubServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def env(self, service: str = "stub") -> dict[str, str]:
        """The environment variables of `openai-api/<service>/<model>` for this server."""
        name = service.upper().replace("-", "_")
        return {f"{name}_BASE_URL": self.base_url, f"{name}_API_KEY": "stub-key"}

    # control

    def hold_after(self, answers: int | None) -> None:
        """Once `answers` completions have been sent in all, hold every further answer until `release()`: a test
        can then stop the client at a moment where exactly that many answers went out (each long delivered)."""
        with self._lock:
            self._hold = answers
            self._abandon_held = False

    def release(self, answer_held: bool = True) -> None:
        """End `hold_after`: the held requests are answered, or with `answer_held=False` (their client is gone)
        closed unanswered and counted as "abandoned"."""
        with self._lock:
            self._hold = None
            self._abandon_held = not answer_held
        if self._loop is not None and self._released is not None:
            self._loop.call_soon_threadsafe(self._released.set)

    def reset(self) -> None:
        """Forget counts and prompts (the fault plan starts over too)."""
        with self._lock:
            self.counts.clear()
            self.asked.clear()
            self.answered.clear()
            self._in_a_row.clear()
            self.log.clear()

    def total_answered(self) -> int:
        with self._lock:
            return sum(self.answered.values())

    # HTTP

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                request = await _read_request(reader)
                if request is None:
                    break
                method, path, body = request
                keep_open = await self._respond(method, path, body, writer)
                if not keep_open:
                    break
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass  # the client went away, or the server is stopping
        finally:
            writer.close()

    async def _respond(self, method: str, path: str, body: bytes, writer: asyncio.StreamWriter) -> bool:
        """Answer one request; False when the connection is to be closed."""
        with self._lock:
            self._next_id += 1
            request_id = f"stub-{self._next_id}"
        if method != "POST" or not path.rstrip("/").endswith("/chat/completions"):
            _write(writer, 404, {"error": {"message": f"no route {method} {path}"}}, request_id)
            await writer.drain()
            return True
        try:
            payload = json.loads(body)
            prompt = json.dumps(payload["messages"], ensure_ascii=False, sort_keys=True)
        except (ValueError, KeyError, TypeError):
            _write(writer, 400, {"error": {"message": "bad request body"}}, request_id)
            await writer.drain()
            return True

        with self._lock:
            attempt = self.asked[prompt]
            self.asked[prompt] += 1
            kind = self.faults.fault_for(prompt, attempt, self._in_a_row[prompt]) or "ok"
            self._in_a_row[prompt] = self._in_a_row[prompt] + 1 if kind != "ok" else 0
            self.counts[kind] += 1
            self.log.append((time.monotonic(), request_id, kind, prompt))

        if kind == "hang":
            await asyncio.sleep(self.hang_s)
            return False
        if self.latency > 0:
            await asyncio.sleep(self.latency)
        if kind == "rate_limit":
            _write(writer, 429, {"error": {"message": "rate limited", "type": "rate_limit_exceeded"}}, request_id,
                   {"Retry-After": "1"})
        elif kind == "server_error":
            _write(writer, 500, {"error": {"message": "internal error", "type": "server_error"}}, request_id)
        elif kind == "drop":
            transport = writer.transport
            transport.abort()
            return False
        elif kind == "empty":
            _write_raw(writer, 200, b"", request_id)
        elif kind == "malformed":
            _write_raw(writer, 200, b'{"id": "chatcmpl-x", "choices": [{"index": 0, "mess', request_id)
        else:
            if not await self._wait_for_hold():
                with self._lock:
                    self.counts["abandoned"] += 1
                return False
            with self._lock:
                self.answered[prompt] += 1
            _write(writer, 200, self._completion(payload, request_id), request_id)
        await writer.drain()
        return True

    async def _wait_for_hold(self) -> bool:
        """Wait while answers are held; False when this request is to go unanswered."""
        waited = False
        while True:
            with self._lock:
                held = self._hold is not None and sum(self.answered.values()) >= self._hold
                if held and self._released is not None:
                    self._released.clear()
                abandon = waited and self._abandon_held
            if not held:
                return not abandon
            assert self._released is not None
            waited = True
            await self._released.wait()

    def _completion(self, payload: dict[str, Any], request_id: str) -> dict[str, Any]:
        prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in payload.get("messages", []))
        completion_tokens = len(self.answer.split())
        choice: dict[str, Any] = {
            "index": 0,
            "message": {"role": "assistant", "content": self.answer},
            "finish_reason": "stop",
            "logprobs": None,
        }
        return {
            "id": f"chatcmpl-{request_id}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": payload.get("model", "stub"),
            "choices": [choice],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens},
        }


async def _read_request(reader: asyncio.StreamReader) -> tuple[str, str, bytes] | None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    lines = head.decode("latin-1").split("\r\n")
    method, path, _ = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    body = await reader.readexactly(length) if length else b""
    return method, path, body


REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error"}


def _write(writer: asyncio.StreamWriter, status: int, body: dict[str, Any], request_id: str,
           headers: dict[str, str] | None = None) -> None:
    _write_raw(writer, status, json.dumps(body).encode(), request_id, headers)


def _write_raw(writer: asyncio.StreamWriter, status: int, body: bytes, request_id: str,
               headers: dict[str, str] | None = None) -> None:
    head = [f"HTTP/1.1 {status} {REASONS.get(status, 'Status')}", "Content-Type: application/json",
            f"Content-Length: {len(body)}", f"x-request-id: {request_id}", "Connection: keep-alive"]
    head += [f"{name}: {value}" for name, value in (headers or {}).items()]
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
