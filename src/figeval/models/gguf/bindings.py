"""The llama.cpp calls figeval needs and llama-cpp-python's `Llama` class lacks: the one place figeval uses
llama-cpp-python's low-level ctypes bindings and internals, for the pinned llama-cpp-python 0.3.36.

`Llama` evaluates one sequence; answering several requests at once takes a context that holds several
sequences, a batch whose rows name their sequence, and the logits of chosen rows of that batch. Beside these:
which tokens end a generation, the model's BOS/EOS texts for its chat template, and where llama.cpp's log lines
go. tests/models/test_gguf_batch.py checks every signature and structure used here, so a changed binding fails
there, loudly, instead of corrupting memory.

What the bindings mean (llama.h of that release):
- `llama_batch_init(n_tokens, 0, n_seq_max)` allocates a batch; each row has a token, a position, up to
  n_seq_max sequence ids and a flag asking for its logits; `llama_batch_free` releases it.
- `llama_decode(ctx, batch)` evaluates the rows into the KV cache: 0 is success, 1 "no room in the KV cache",
  2 aborted, negative an error.
- `llama_get_logits_ith(ctx, i)` is row i's logits (NULL when row i did not ask for them).
- `llama_memory_seq_rm(mem, seq, p0, p1)` drops a sequence's positions [p0, p1) (negative: from the start, to
  the end); `llama_memory_clear(mem, True)` empties the cache.
- With `kv_unified=False` (the context parameter) each of the n_seq_max sequences has a cache stream of its own,
  n_ctx / n_seq_max cells, where its tokens sit at the cells they would have in a context of their own.
- `llama_vocab_is_eog(vocab, token)`: whether a token ends a generation (EOS, EOT and the like);
  `llama_log_set(callback, user_data)` replaces llama.cpp's log output.
"""

from __future__ import annotations

import ctypes
import inspect
import logging
from collections.abc import Sequence
from typing import Any

import numpy as np

import llama_cpp
from llama_cpp import _internals

# name -> (argtypes, restype) as this module calls them.
SIGNATURES: dict[str, tuple[list[Any], Any]] = {
    "llama_batch_init": ([ctypes.c_int32, ctypes.c_int32, ctypes.c_int32], llama_cpp.llama_batch),
    "llama_batch_free": ([llama_cpp.llama_batch], None),
    "llama_decode": ([ctypes.c_void_p, llama_cpp.llama_batch], ctypes.c_int32),
    "llama_get_logits_ith": ([ctypes.c_void_p, ctypes.c_int32], ctypes.POINTER(ctypes.c_float)),
    "llama_get_memory": ([ctypes.c_void_p], ctypes.c_void_p),
    "llama_n_ctx": ([ctypes.c_void_p], ctypes.c_uint32),
    "llama_memory_clear": ([ctypes.c_void_p, ctypes.c_bool], None),
    "llama_memory_seq_rm": ([ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32], ctypes.c_bool),
    "llama_vocab_is_eog": ([ctypes.c_void_p, ctypes.c_int32], ctypes.c_bool),
    "llama_log_set": ([llama_cpp.llama_log_callback, ctypes.c_void_p], None),
}
BATCH_FIELDS: list[tuple[str, Any]] = [
    ("n_tokens", ctypes.c_int32),
    ("token", ctypes.POINTER(ctypes.c_int32)),
    ("embd", ctypes.POINTER(ctypes.c_float)),
    ("pos", ctypes.POINTER(ctypes.c_int32)),
    ("n_seq_id", ctypes.POINTER(ctypes.c_int32)),
    ("seq_id", ctypes.POINTER(ctypes.POINTER(ctypes.c_int32))),
    ("logits", ctypes.POINTER(ctypes.c_int8)),
]
# The context parameters set here, beyond those `Llama` sets itself.
CONTEXT_FIELDS: dict[str, Any] = {
    "n_ctx": ctypes.c_uint32, "n_batch": ctypes.c_uint32, "n_ubatch": ctypes.c_uint32,
    "n_seq_max": ctypes.c_uint32, "kv_unified": ctypes.c_bool,
}
DECODE_ERRORS = {1: "no room in the KV cache", 2: "aborted", -1: "invalid batch"}


def binding_mismatches() -> list[str]:
    """What differs between the installed bindings and what this module was written against (empty: none)."""
    problems = []
    for name, (argtypes, restype) in SIGNATURES.items():
        function = getattr(llama_cpp, name, None)
        if function is None:
            problems.append(f"{name} is missing")
            continue
        if list(function.argtypes or []) != argtypes or function.restype != restype:
            problems.append(f"{name}{tuple(function.argtypes or [])} -> {function.restype} is not "
                            f"{name}{tuple(argtypes)} -> {restype}")
    if list(llama_cpp.llama_batch._fields_) != BATCH_FIELDS:
        problems.append(f"llama_batch fields {llama_cpp.llama_batch._fields_} are not {BATCH_FIELDS}")
    if list(inspect.signature(_internals.LlamaContext).parameters) != ["model", "params", "verbose"]:
        problems.append(f"llama_cpp._internals.LlamaContext{inspect.signature(_internals.LlamaContext)} is not "
                        "(*, model, params, verbose)")
    # a ctypes field is (name, type), or (name, type, bits) for a bit field
    context_fields = {field[0]: field[1] for field in llama_cpp.llama_context_params._fields_}
    for name, ctype in CONTEXT_FIELDS.items():
        if context_fields.get(name) != ctype:
            problems.append(f"llama_context_params.{name} is {context_fields.get(name)}, not {ctype}")
    return problems


class Batch:
    """Rows for one `llama_decode`: each a token at a position in one or more sequences."""

    def __init__(self, capacity: int, n_seq_max: int) -> None:
        self.capacity, self.n_seq_max = capacity, n_seq_max
        self._batch: Any = llama_cpp.llama_batch_init(capacity, 0, n_seq_max)
        self.n_rows = 0

    def clear(self) -> None:
        self.n_rows = 0

    def add(self, token: int, pos: int, seq_ids: Sequence[int], logits: bool) -> int:
        """Appends a row; returns its index (the index its logits are read by)."""
        if self.n_rows >= self.capacity or not 0 < len(seq_ids) <= self.n_seq_max:
            raise ValueError(f"batch row {self.n_rows} with sequences {list(seq_ids)} does not fit "
                             f"{self.capacity} rows of {self.n_seq_max} sequences")
        batch, row = self._batch, self.n_rows
        batch.token[row] = token
        batch.pos[row] = pos
        batch.n_seq_id[row] = len(seq_ids)
        for i, seq_id in enumerate(seq_ids):
            batch.seq_id[row][i] = seq_id
        batch.logits[row] = logits
        self.n_rows += 1
        return row

    def close(self) -> None:
        if self._batch is not None:
            llama_cpp.llama_batch_free(self._batch)
            self._batch = None


class MultiSequenceContext:
    """A llama.cpp context of n_seq sequences, each with a cache stream of n_ctx / n_seq cells (unless
    kv_unified), on a loaded `Llama`'s weights (its own context is not used)."""

    def __init__(self, llm: Any, n_ctx: int, n_seq: int, n_batch: int = 512, kv_unified: bool = False) -> None:
        params = type(llm.context_params).from_buffer_copy(llm.context_params)  # n_threads etc. as given
        params.n_ctx, params.n_batch, params.n_ubatch = n_ctx, n_batch, n_batch
        # False: a cache stream per sequence (what exact answers need). True, one cache shared by every
        # sequence, is what llama.cpp's server does; perf/gguf_batching_ceiling.py measures it.
        params.n_seq_max, params.kv_unified = n_seq, kv_unified
        # Freed before the model by the model's own exit stack (LlamaContext registers itself there).
        self._context = _internals.LlamaContext(model=llm._model, params=params, verbose=False)
        self.ctx = self._context.ctx
        self.memory = llama_cpp.llama_get_memory(self.ctx)
        self.n_ctx, self.n_seq, self.n_batch = llama_cpp.llama_n_ctx(self.ctx), n_seq, n_batch
        self.n_vocab = llm.n_vocab()
        self.batch = Batch(n_batch, n_seq)

    def decode(self) -> None:
        """Evaluates the rows of `self.batch` (at most n_batch) and empties it."""
        rows, self.batch.n_rows = self.batch.n_rows, 0
        self.batch._batch.n_tokens = rows
        code = llama_cpp.llama_decode(self.ctx, self.batch._batch)
        if code != 0:
            raise RuntimeError(f"llama_decode returned {code} ({DECODE_ERRORS.get(code, 'error')}) on {rows} rows")

    def logits(self, row: int) -> np.ndarray:
        """Row `row`'s next-token logits from the last decode, as float64 (a copy)."""
        pointer = llama_cpp.llama_get_logits_ith(self.ctx, row)
        if not pointer:
            raise RuntimeError(f"no logits for batch row {row}")
        return np.ctypeslib.as_array(pointer, shape=(self.n_vocab,)).astype(np.float64)

    def seq_rm(self, seq_id: int, p0: int = -1, p1: int = -1) -> bool:
        return bool(llama_cpp.llama_memory_seq_rm(self.memory, seq_id, p0, p1))

    def clear(self) -> None:
        llama_cpp.llama_memory_clear(self.memory, True)

    def close(self) -> None:
        self.batch.close()
        self._context.close()


class Vocabulary:
    """A loaded model's tokens as text, and which of them end a generation."""

    def __init__(self, llm: Any) -> None:
        self._llm = llm

    def text(self, tokens: list[int]) -> str:
        # Decoded together: one Persian letter can span two tokens, and a lone piece is not valid UTF-8.
        return self._llm.detokenize(tokens).decode("utf-8", errors="replace")

    def is_end_of_generation(self, token: int) -> bool:
        return bool(llama_cpp.llama_vocab_is_eog(self._llm._model.vocab, token))


def chat_formatter(llm: Any, template: str) -> Any:
    """llama-cpp-python's renderer of the GGUF's own chat template, with the model's BOS and EOS texts."""
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    return Jinja2ChatFormatter(
        template=template,
        eos_token=llm._model.token_get_text(llm.token_eos()),
        bos_token=llm._model.token_get_text(llm.token_bos()),
    )


def template_formatter(llm: Any, instruction_tuned: bool | None, chat_template: bool | None) -> Any | None:
    """The renderer a gguf model's prompts go through, or None (the messages joined as plain text): the GGUF's own
    chat template when `-M chat_template=true` asks for it or, unasked, unless the model is known to be a base
    model (which continues text rather than answering turns)."""
    template = llm.metadata.get("tokenizer.chat_template")
    use_template = chat_template if chat_template is not None else instruction_tuned is not False
    return chat_formatter(llm, template) if use_template and template else None


def prompt_tokens(llm: Any, formatter: Any | None, messages: Sequence[Any]) -> tuple[list[int], list[str]]:
    """A prompt's tokens as the gguf provider sends it, and the stop strings its chat template adds: rendered by
    the template (`template_formatter`), or, for a base model, the texts joined by a blank line after BOS, so the
    prompt's own cue ("Answer:") leads."""
    if formatter is not None:
        rendered = formatter(messages=[{"role": m.role, "content": m.text} for m in messages])
        stops = rendered.stop if isinstance(rendered.stop, list) else [rendered.stop] if rendered.stop else []
        return llm.tokenize(rendered.prompt.encode("utf-8"), add_bos=not rendered.added_special, special=True), stops
    text = "\n\n".join(m.text for m in messages)
    return llm.tokenize(text.encode("utf-8"), add_bos=True, special=False), []


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
    logger = logging.getLogger("llama_cpp")

    @llama_cpp.llama_log_callback
    def to_debug_log(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
        logger.debug(text.decode("utf-8", errors="replace").rstrip("\n"))

    _LLAMA_CPP_LOG_CALLBACK = to_debug_log
    llama_cpp.llama_log_set(to_debug_log, ctypes.c_void_p(0))
