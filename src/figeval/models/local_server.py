"""How many requests to send at once, and how long to wait for one, to an OpenAI-compatible server on this machine
or this network (llama.cpp's llama-server, llama-cpp-python's server, Ollama, vLLM, SGLang), chosen from what the
server says about itself.

Why the settings differ from an API's. A local server runs a fixed number of generations at once (llama-server's
slots, `-np`); a request beyond them waits in the server's queue. figeval's API defaults (each attempt abandoned
after 120 s; Inspect 0.3.285's adaptive connection count, 20 at first and 10-100, when none is given) send ten or
more requests to a one-slot server: the k-th waits k-1 generations before its own starts. With generations of ten
seconds or more (a small model on a CPU), the tail of the queue passes 120 s: those requests are abandoned and
sent again, to the back of a queue in which the server still runs the abandoned ones, so one sample's generation
is paid for several times (perf/local_server_queue.py shows it at a small scale). So:

- connections = the server's slots (read from llama-server's `/props`); a request is then sent only when a slot
  is free, and the queue is on figeval's side, where waiting costs nothing. Inspect's attempt timeout starts only
  once a request holds a connection (`Model._connection_concurrency` wraps the attempt), so it measures one
  generation, not the wait for the others;
- no attempt timeout: an attempt is one generation, and a local generation has no short bound. figeval sets no
  max_tokens, so a base model runs to the server's limit (llama-server: until its context is full): 2,048 tokens at
  the 10-30 tokens/s of a small model on a CPU are 70-200 s, past 120 s, and an abandoned generation is paid twice
  (the server finishes it or starts it over). A server that hangs is still bounded by the HTTP client's read
  timeout (Inspect: 600 s, INSPECT_HTTP_REQUEST_TIMEOUT);
- LOCAL_MAX_RETRIES retries of a failed request, not figeval's 10 for APIs: a stopped local server refuses at once,
  there is no rate limit to wait out, and Inspect's backoff (3 s doubling, plus up to 3 s jitter) makes 10 retries
  51 minutes (3 x (2^10 - 1) = 3,069 s) for each request, holding its connection; 5 make 93-108 s, long enough for
  a server that is restarting to load its model.

A user's `--max-connections`, `--attempt-timeout` and `--max-retries` always win (`local_server_settings`' `given`).
After a run, `figeval.models.echo` checks that the answers are not the prompt coming back.
"""

from __future__ import annotations

import ipaddress
import json
import os
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

LOCAL_MAX_RETRIES = 5
# Requests at once to a server that batches every request it holds (vLLM, SGLang: continuous batching, up to
# vLLM's max_num_seqs, in the hundreds) and does not say how many it takes: each is generated at once, none queues;
# kept low so that a small GPU's KV cache is not exhausted (vLLM then preempts and recomputes requests). Not
# measured here (no GPU): `--max-connections` raises it.
BATCHING_SERVER_CONNECTIONS = 8
# Requests at once to a server that does not say how many it runs and may run one (llama-cpp-python's server
# answers one request at a time behind a lock; Ollama's OLLAMA_NUM_PARALLEL, 1 or 4 by default by memory, is not
# exposed by its API; LM Studio and others): one at a time is never queued behind another.
UNKNOWN_SERVER_CONNECTIONS = 1
# The options chosen here; any of them the user gives wins.
OPTIONS = ("max_connections", "attempt_timeout", "max_retries")
PROBE_TIMEOUT_S = 2.0
# What Inspect's HTTP client waits for a response (figeval does not change it).
HTTP_TIMEOUT_S = 600


@dataclass(frozen=True)
class Provider:
    kind: str  # what the server is, for the user
    base_url_variables: tuple[str, ...]
    default_url: str | None  # the provider's own default; None: Inspect starts the server on localhost itself
    connections: int  # when the server does not say


# Inspect's providers of OpenAI-compatible servers, with the variables and defaults their source reads (inspect_ai
# 0.3.285, model/_providers: llama_cpp_python.py, ollama.py, vllm.py, sglang.py; openai-api's <SERVICE>_BASE_URL
# in openai_compatible.py), then INSPECT_EVAL_MODEL_BASE_URL (util.model_base_url).
_VLLM = Provider("vLLM", ("VLLM_BASE_URL",), None, BATCHING_SERVER_CONNECTIONS)
_SGLANG = Provider("SGLang", ("SGLANG_BASE_URL",), None, BATCHING_SERVER_CONNECTIONS)
PROVIDERS: dict[str, Provider] = {
    "llama-cpp-python": Provider("llama-cpp-python's server", ("LLAMA_CPP_PYTHON_BASE_URL",),
                                 "http://localhost:8000/v1", 1),
    "ollama": Provider("Ollama", ("OLLAMA_BASE_URL",), "http://localhost:11434/v1", UNKNOWN_SERVER_CONNECTIONS),
    "vllm": _VLLM,
    "vllm-completions": _VLLM,
    "sglang": _SGLANG,
}
OPENAI_COMPATIBLE = ("openai-api", "openai-api-completions")  # openai-api/<service>/<model>
# /v1/models `owned_by` of the batching servers (vLLM and SGLang write their own names there).
BATCHING_OWNERS = ("vllm", "sglang")


@dataclass(frozen=True)
class Probe:
    """What a server says about itself."""

    reachable: bool
    slots: int | None = None  # llama-server's total_slots
    owner: str | None = None  # /v1/models' owned_by: "vllm", "sglang", "llamacpp", ...
    error: str | None = None  # why nothing answered


@dataclass(frozen=True)
class LocalSettings:
    options: dict[str, Any]  # Inspect eval options, the ones the user gave left out
    note: str  # the line that says what was chosen and why


def is_local_url(url: str) -> bool:
    """Whether a URL names this machine or a private network (loopback, 10/8, 172.16/12, 192.168/16, fc00::/7,
    link-local, CGNAT): a server someone runs for themselves, not a provider's API. Host names other than
    localhost are not resolved (no DNS look-up before a run)."""
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith((".localhost", ".local")) or host == "host.docker.internal":
        return True
    try:
        return not ipaddress.ip_address(host).is_global
    except ValueError:
        return False


def server_url(model: str, base_url: str | None = None, environ: Mapping[str, str] | None = None,
               ) -> tuple[Provider, str | None] | None:
    """The provider of `model` when it is an OpenAI-compatible server, and the base URL Inspect will use (None:
    Inspect starts the server itself); None for any other provider.

    Args:
        model: provider/model, e.g. openai-api/llamacpp/gemma-3-1b, vllm/Qwen/Qwen2.5-7B-Instruct.
        base_url: `--model-base-url` or `-M base_url=`, which come before any variable.
        environ: the environment (default os.environ).
    """
    env = os.environ if environ is None else environ
    provider_name, _, rest = model.partition("/")
    if provider_name in OPENAI_COMPATIBLE:
        service = rest.partition("/")[0]
        variable = f"{service.upper().replace('-', '_')}_BASE_URL"
        provider = Provider(f"the '{service}' server", (variable,), None, UNKNOWN_SERVER_CONNECTIONS)
    elif provider_name in PROVIDERS:
        provider = PROVIDERS[provider_name]
    else:
        return None
    found = base_url or next((env[name] for name in provider.base_url_variables if env.get(name)), None)
    return provider, found or env.get("INSPECT_EVAL_MODEL_BASE_URL") or provider.default_url


def server_root(base_url: str) -> str:
    """The server's own address: llama-server serves /props beside /v1, not under it."""
    root = base_url.rstrip("/")
    return root[: -len("/v1")] if root.endswith("/v1") else root


def _get_json(url: str, api_key: str | None, timeout: float) -> Any:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {api_key}"} if api_key else {})
    with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (a local http URL)
        return json.loads(response.read().decode("utf-8"))


def probe_server(base_url: str, api_key: str | None = None, timeout: float = PROBE_TIMEOUT_S) -> Probe:
    """Ask a server how many requests it runs at once: llama-server's GET /props (`total_slots`) or GET /slots
    (one entry per slot), else who serves its models (GET /v1/models `owned_by`)."""
    root = server_root(base_url)
    reached = False
    for path, read in (("/props", lambda body: body.get("total_slots") if isinstance(body, dict) else None),
                       ("/slots", lambda body: len(body) if isinstance(body, list) and body else None)):
        try:
            slots = read(_get_json(root + path, api_key, timeout))
        except (urllib.error.HTTPError, ValueError):  # it answered, without this endpoint (llama-server --no-slots)
            reached = True
            continue
        except (urllib.error.URLError, OSError) as error:
            return Probe(reachable=False, error=str(getattr(error, "reason", error)))
        reached = True
        if isinstance(slots, int) and not isinstance(slots, bool) and slots > 0:
            return Probe(reachable=True, slots=slots)
    try:
        models = _get_json(root + "/v1/models", api_key, timeout)
        owners = {str(entry.get("owned_by")) for entry in models.get("data", []) if isinstance(entry, dict)}
        return Probe(reachable=True, owner=next(iter(sorted(owners)), None))
    except (urllib.error.URLError, OSError, ValueError, AttributeError):
        return Probe(reachable=reached)


def _api_key(model: str, environ: Mapping[str, str]) -> str | None:
    provider_name, _, rest = model.partition("/")
    service = rest.partition("/")[0] if provider_name in OPENAI_COMPATIBLE else provider_name
    return environ.get(f"{service.removesuffix('-completions').upper().replace('-', '_')}_API_KEY")


def _parallelism(provider: Provider, server: Probe) -> tuple[int, str]:
    """How many requests to send the server at once, and why."""
    if server.slots is not None:
        return server.slots, f"it runs {_count(server.slots, 'request')} at once (its slots)"
    if server.owner in BATCHING_OWNERS or provider.connections == BATCHING_SERVER_CONNECTIONS:
        return BATCHING_SERVER_CONNECTIONS, "it batches requests and does not say how many it takes"
    return provider.connections, "it does not say how many requests it runs at once"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"


def local_server_settings(model: str, given: Mapping[str, Any] | None = None, base_url: str | None = None,
                          environ: Mapping[str, str] | None = None,
                          probe: Callable[[str, str | None], Probe] = probe_server) -> LocalSettings | None:
    """The eval options for a model served on this machine or network, and the one line to print about them;
    None for any other model (an API keeps figeval's API defaults).

    Args:
        model: provider/model.
        given: the options the user gave (max_connections, attempt_timeout, max_retries; None is not given): they
            are kept, and left out of the returned options.
        base_url: `--model-base-url` or `-M base_url=`.
        environ: the environment (default os.environ).
        probe: asks the server about itself (a test passes its own).
    """
    env = os.environ if environ is None else environ
    given = {name: value for name, value in (given or {}).items() if value is not None}
    found = server_url(model, base_url, env)
    if found is None or (found[1] is not None and not is_local_url(found[1])):
        return None
    provider, url = found
    server = probe(url, _api_key(model, env)) if url is not None else Probe(reachable=True)
    connections, why = _parallelism(provider, server)
    chosen = {"max_connections": connections, "attempt_timeout": None, "max_retries": LOCAL_MAX_RETRIES}
    used = chosen | given

    def shown(name: str, text: str) -> str:
        return text + (" (given)" if name in given else "")

    where = ("llama.cpp server" if server.slots is not None else provider.kind) + (
        f" at {url}" if url else " started by Inspect on localhost")
    settings = [shown("max_connections", f"--max-connections {used['max_connections']}"),
                "no attempt timeout (a queued request is never abandoned and sent again)"
                if used["attempt_timeout"] is None
                else shown("attempt_timeout", f"attempt timeout {used['attempt_timeout']} s"),
                shown("max_retries", f"{used['max_retries']} retr{'y' if used['max_retries'] == 1 else 'ies'} of a "
                      "failed request")]
    note = f"local server: {where}; {why}: {', '.join(settings)}"
    queued = -(-used["max_connections"] // connections) - 1  # rounds of generations a request may wait behind
    if server.slots is not None and queued > 0:
        note += (f"; with {used['max_connections']} connections to {_count(connections, 'slot')} a request may "
                 f"wait for {_count(queued, 'generation')} before its own, all within Inspect's HTTP timeout "
                 f"({HTTP_TIMEOUT_S} s, INSPECT_HTTP_REQUEST_TIMEOUT)")
    if not server.reachable:
        note += f"; nothing answers there yet ({server.error}): start the server first"
    return LocalSettings(options={name: value for name, value in chosen.items() if name not in given},
                         note=note + ".")
