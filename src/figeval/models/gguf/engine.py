"""Answers requests in batches on one llama.cpp context of several sequences, each answer independent of the
others.

The caller hands the engine `Request`s: `admit` says which waiting ones to start, and each `step` starts them,
evaluates one decode's worth of every active request and returns those finished (their `text`, `sampled` tokens,
`finish` reason and, when asked, `first_logprobs`). Requests that generate advance together, one decode per
step; a finished one is returned at once, whatever the others still do, and a dropped one (its caller left) is
stopped at the next step. Each sequence keeps the KV cache of its previous prompt and evaluates only the part
that differs, so an instruction shared by every prompt is evaluated once per sequence, not once per prompt.

Answers do not depend on batching, order or history: a request gets the same logprobs and text alone
(n_parallel=1) as with others. This needs care: llama.cpp's CPU kernels round differently with the shape of a
batch (the 4-row matrix kernel versus the 1-row one, a decode of fewer than 8 rows, a decode reading 8 rows'
logits or more), and Gemma 3 270M turns that rounding into log-probability differences of up to 0.6 nat
(perf/gguf_batching_ceiling.py). So each sequence has its own cache stream (its tokens at the cells they would
have alone), is evaluated from a multiple of 4 in blocks of 4 rows padded after its last real token (no real
row attends to padding); a decode holds sequences of equal block size only (waiting requests are started by
groups of equal size), at most 7 of them, and at least 8 rows. perf/gguf_batch_exactness.py checks it on
a detection task's 800 samples.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

import numpy as np

from figeval.models.gguf.sampling import log_softmax, sample_token
from figeval.models.loops import loop_period

if TYPE_CHECKING:
    from figeval.models.gguf.bindings import MultiSequenceContext, Vocabulary

# A sequence's rows in a decode come in blocks of ROW_BLOCK, starting at a position that is a multiple of
# ROW_BLOCK, and a decode has at least MIN_ROWS rows (llama.cpp's CPU kernels take other code paths for fewer).
ROW_BLOCK = 4
MIN_ROWS = 8
# A decode that reads the logits of 8 rows or more computes them another way, which now and then (1 prompt in
# 300 measured) moves a log-probability by up to 0.015: so a decode holds at most 7 requests, each reading one row.
MAX_OUTPUTS = 7
# Cells each sequence's cache stream has beyond its share, for the padding rows of its last block.
PADDING_CELLS = MIN_ROWS


def round_up(n: int, multiple: int) -> int:
    return -(-n // multiple) * multiple


def common_prefix(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def end_of_first_line(text: str) -> int | None:
    """Where a base model's answer ends: at the line break after its first text (a leading break is kept, as
    " Yes" follows "Answer:" on the same line and an expression may follow "Meaning: ...\n" on the next)."""
    started = len(text) - len(text.lstrip())
    end = text.find("\n", started) if started < len(text) else -1
    return end if end >= 0 else None


@dataclass(eq=False)
class Request:
    """One prompt to answer, and its decoding state while the engine answers it."""

    tokens: list[int]
    max_tokens: int
    temperature: float
    top_p: float
    rng: np.random.Generator
    logprobs: bool  # keep the first token's log-probabilities (`first_logprobs`)
    stops: list[str]
    one_line: bool = False  # a base model's answer: it ends at the end of its first line of text
    waited: int = 0  # steps it was passed over
    slot: int = -1
    pending: list[int] = field(default_factory=list)  # tokens to evaluate next, the first at position `start`
    start: int = 0
    generated: list[int] = field(default_factory=list)
    sampled: list[int] = field(default_factory=list)  # what the model produced, end-of-generation token included
    first_logprobs: np.ndarray | None = None
    text: str = ""
    # Inspect's stop reasons: "unknown" is the loop guard's stop (`loops.py`), which Inspect has no reason for
    finish: Literal["stop", "max_tokens", "unknown"] = "max_tokens"


R = TypeVar("R", bound=Request)


class Engine(Generic[R]):
    """Answers requests in batches on one llama.cpp context of n_parallel sequences (one per slot); every
    method that touches the context holds `lock`, so one thread at a time uses it."""

    def __init__(self, context: MultiSequenceContext, vocabulary: Vocabulary, share: int) -> None:
        self.context = context
        self.vocabulary = vocabulary
        self.share = share  # the tokens a sequence holds: its prompt plus max_tokens
        self.n_parallel = context.n_seq
        # Per slot: the prompt tokens whose KV the slot's stream holds (generated tokens are not reused).
        self.cached: list[list[int]] = [[] for _ in range(self.n_parallel)]
        self.free = list(range(self.n_parallel))
        self.active: list[R] = []
        self.lock = threading.Lock()

    @classmethod
    def open(cls, llm: Any, vocabulary: Vocabulary, n_ctx: int, n_parallel: int) -> Engine[R]:
        """An engine on a new context of `llm`'s weights: n_parallel sequences of n_ctx / n_parallel tokens."""
        # Imported here: llama-cpp-python is an optional extra, needed once a model loads, not on import.
        from figeval.models.gguf.bindings import MultiSequenceContext

        share = n_ctx // n_parallel
        # llama.cpp gives each sequence a stream of n_ctx / n_parallel cells, rounded up to a multiple of 256.
        stream = round_up(share + PADDING_CELLS, 256)
        return cls(MultiSequenceContext(llm, n_ctx=n_parallel * stream, n_seq=n_parallel), vocabulary, share)

    def reset(self) -> None:
        """Forgets every cached prompt (and drops the requests being answered)."""
        self.context.clear()
        self.cached = [[] for _ in range(self.n_parallel)]
        self.free = list(range(self.n_parallel))
        self.active = []

    def drop_active(self) -> None:
        """Stops every request being answered (their callers are gone); the cached prompts stay."""
        with self.lock:
            for request in list(self.active):
                self._release(request)

    def close(self) -> None:
        with self.lock:  # after a decode running in another thread, never during it
            self.context.close()

    def step(self, admitted: list[R], dropped: list[R]) -> list[tuple[R, Exception | None]]:
        """Starts `admitted` (at most the free slots), stops `dropped` (their callers left), and evaluates one
        decode's worth of every active request; returns the requests finished, each with None or its error
        (a failed decode fails every active request, and those finished before it keep their answers)."""
        with self.lock:
            for request in dropped:
                if request in self.active:
                    self._release(request)
            for request in admitted:
                self._start(request)
            finished: list[tuple[R, Exception | None]] = []
            try:
                for rows in self.plan() if self.active else []:
                    finished += [(request, None) for request in self._decode_rows(rows)]
            except Exception as error:  # the cache state is unknown now: start again from an empty one
                finished += [(request, error) for request in self.active]
                self.reset()
            return finished

    def admit(self, waiting: list[R]) -> list[R]:
        """Which waiting requests to start now (no decode runs meanwhile).

        A decode takes the requests that need the same number of rows (see `plan`), and a decode of few rows
        is slow: so requests are started by groups of equal need, the largest first. A request alone with its
        need waits one step for companions, unless nothing else can start."""
        free = len(self.free)
        if not free or not waiting:
            return []
        groups: dict[int, list[R]] = {}
        for request in waiting:
            keep = max(self._keep(slot, request.tokens) for slot in self.free)
            groups.setdefault(round_up(len(request.tokens) - keep, ROW_BLOCK), []).append(request)
        admitted: list[R] = []
        for need, group in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
            if len(group) == 1 and group[0].waited == 0 and (admitted or self.active):
                group[0].waited += 1
                continue
            admitted += group[: free - len(admitted)]
            if len(admitted) == free:
                break
        return admitted

    def plan(self) -> list[list[tuple[R, int]]]:
        """The decodes of one step: for each, its requests and the rows each evaluates.

        Over separate cache streams llama.cpp splits a decode into parts, each of sequences with consecutive ids
        (in the order of the batch's rows) and the same number of rows of each. Measured: a part gives every
        sequence the answer it gets alone only when none of them is padded beyond its own block, and a part of
        one sequence needs MIN_ROWS rows. So a decode takes the requests that need the same number of rows,
        ordered by slot, at most MAX_OUTPUTS of them; a run of consecutive slots is one part, and a request whose
        neighbouring slots are not in the decode is a part of its own, of at least MIN_ROWS rows. A prompt longer
        than its share of a decode goes on in the next step."""
        cap = max(MIN_ROWS, (self.context.n_batch - MIN_ROWS) // len(self.active) // ROW_BLOCK * ROW_BLOCK)
        by_need: dict[int, list[R]] = {}
        for request in sorted(self.active, key=lambda request: request.slot):
            by_need.setdefault(min(round_up(len(request.pending), ROW_BLOCK), cap), []).append(request)
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

    def _keep(self, slot: int, tokens: list[int]) -> int:
        """How much of `tokens` the slot's cache can keep: the shared prefix, down to a multiple of ROW_BLOCK,
        and at least the last token to evaluate again."""
        return min(common_prefix(self.cached[slot], tokens), len(tokens) - 1) // ROW_BLOCK * ROW_BLOCK

    def _start(self, request: R) -> None:
        tokens = request.tokens
        # The free slot whose cached prompt shares most with this one.
        slot = max(self.free, key=lambda s: (common_prefix(self.cached[s], tokens), -s))
        self.free.remove(slot)
        keep = self._keep(slot, tokens)
        if not self.context.seq_rm(slot, keep, -1):
            self.context.seq_rm(slot, -1, -1)
            keep = 0
        self.cached[slot] = tokens[:keep]
        request.slot, request.pending, request.start = slot, tokens[keep:], keep
        self.active.append(request)

    def _release(self, request: R) -> None:
        self.active.remove(request)
        self.free.append(request.slot)

    def _decode_rows(self, plan: list[tuple[R, int]]) -> list[R]:
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
        finished = []
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
                finished.append(request)
        return finished

    def _next_token(self, request: R, logits: np.ndarray) -> bool:
        """Chooses the next token from `logits`; True when the request is finished."""
        if not request.sampled and request.logprobs:
            request.first_logprobs = log_softmax(logits)
        token = sample_token(logits, request.temperature, request.top_p, request.rng)
        request.sampled.append(token)
        if self.vocabulary.is_end_of_generation(token):
            request.finish = "stop"
            return True
        request.generated.append(token)
        request.text = self.vocabulary.text(request.generated)
        hit = min((request.text.index(stop) for stop in request.stops if stop in request.text), default=None)
        if request.one_line and hit is None:
            hit = end_of_first_line(request.text)
        if hit is not None:
            request.text, request.finish = request.text[:hit], "stop"
            return True
        if loop_period(request.text) is not None:  # it would go on repeating itself to max_tokens
            request.finish = "unknown"
            return True
        if len(request.sampled) >= request.max_tokens:
            return True
        request.pending = [token]
        return False
