"""The Inspect model provider `gguf/`: Inspect's messages and settings to engine requests, and back to outputs.

Inspect sends many samples at once; `generate` queues each as a request and one task per event loop feeds the
queue to the engine, a step at a time in a worker thread, and answers each caller as its request finishes.
"""

from __future__ import annotations

import asyncio
import atexit
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Logprob,
    Logprobs,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    StopDetails,
    TopLogprob,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from figeval._compat import UnretryableError, fail_unretryable_errors_once
from figeval.errors import FigevalError
from figeval.models.gguf.engine import MAX_OUTPUTS, MIN_ROWS, Engine, Request
from figeval.models.gguf.sampling import NOT_APPLIED, UNASKED, top_k
from figeval.models.gguf.weights import ALIASES, provenance, resolve_model_path, weights_identity
from figeval.models.loops import stopped_looping

if TYPE_CHECKING:
    from figeval.models.gguf.bindings import Vocabulary

# How long the first request of a batch waits for others that arrive with it (Inspect starts samples together).
BATCH_WAIT_S = 0.003
MAX_PARALLEL = 64


@dataclass(eq=False)
class _Call(Request):
    """A request and its caller: who waits for the output, since when, and how many top logprobs it asked."""

    top_logprobs: int = 1
    started: float = 0.0
    future: asyncio.Future[ModelOutput] | None = None

    def caller(self) -> asyncio.Future[ModelOutput]:
        """The future its caller awaits: `generate` sets it before it queues the call."""
        if self.future is None:
            raise FigevalError("gguf: a request was queued without its caller; report it as a bug.")
        return self.future


class _Settings(TypedDict):
    """The model args, n_ctx resolved."""

    n_ctx: int
    n_parallel: int
    n_threads: int | None
    chat_template: bool | None


def context_fix(model_name: str, role: str | None) -> str:
    """How to give a gguf model more context: `-M` sets the model under test's arguments only; a role's model
    takes its own in its --model-role config (`model_args`, as Inspect's parse_model_role_cli_args reads it). Single
    quotes only: the message already
    has one, and Inspect records the error as its repr, which escapes one kind when both appear."""
    if role is None:
        return "pass -M n_ctx=<larger>, -M n_parallel=<fewer> or lower max_tokens"
    name = role if role != "judge" else "grader"
    return (f"this is the {role} model, which -M does not reach: bind it with --model-role "
            f"{name}='{{model: gguf/{model_name}, model_args: {{n_ctx: <larger>}}}}' (or fewer n_parallel)")


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
        self._settings: _Settings = {"n_ctx": n_ctx, "n_parallel": n_parallel, "n_threads": n_threads,
                                     "chat_template": chat_template}
        fail_unretryable_errors_once()  # a prompt too long for the context is as long on every retry
        self._lock = threading.Lock()
        self._llm: Any = None
        self._vocabulary: Vocabulary | None = None
        self._engine: Engine[_Call] | None = None
        self._formatter: Any = None
        # Requests waiting for a slot, the task feeding them to the engine, and the event loop both belong to.
        self._waiting: list[_Call] = []
        self._runner: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _ensure_loaded(self) -> None:
        """Load the weights on first use: Inspect also builds throwaway instances (model-info look-ups)."""
        if self._llm is not None:
            return
        from llama_cpp import Llama

        from figeval.models.gguf.bindings import Vocabulary, route_llama_cpp_logs, template_formatter

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
        if chat_template and not llm.metadata.get("tokenizer.chat_template"):
            llm.close()
            raise FigevalError(f"gguf: {path} has no chat template; drop -M chat_template=true.")
        self._formatter = template_formatter(llm, instruction_tuned, chat_template)
        self._llm = llm
        self._vocabulary = Vocabulary(llm)
        self._engine = Engine.open(llm, self._vocabulary, self._settings["n_ctx"], self._settings["n_parallel"])
        # Free the contexts before interpreter shutdown tears down the C bindings Llama.__del__ needs.
        atexit.register(self.close)
        # Recorded with every output, so a log names the exact weights.
        self._provenance = provenance(self.model_name, path)

    def close(self) -> None:
        with self._lock:
            if self._engine is not None:
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
        from figeval.models.gguf.bindings import prompt_tokens  # llama.cpp's bindings load with the weights

        return prompt_tokens(self._llm, self._formatter, messages)

    def _request(self, messages: list[ChatMessage], config: GenerateConfig) -> _Call:
        started = time.monotonic()
        with self._lock:
            self._ensure_loaded()
        tokens, template_stops = self._prompt_tokens(messages)
        share = self._loaded_engine().share
        # Unset: what the sequence's share of the context leaves (a reasoning model's think block needs room)
        max_tokens = config.max_tokens or max(1, share - len(tokens))
        if len(tokens) + max_tokens > share:
            raise UnretryableError(
                f"gguf: prompt of {len(tokens)} tokens plus max_tokens={max_tokens} exceeds a sequence's share of the "
                f"context ({self._settings['n_ctx']} tokens split among n_parallel={self._settings['n_parallel']}: "
                f"{share} each); {context_fix(self.model_name, self._role())}."
            )
        return _Call(
            tokens=tokens,
            max_tokens=max_tokens,
            temperature=config.temperature if config.temperature is not None else UNASKED["temperature"],
            top_p=config.top_p if config.top_p is not None else UNASKED["top_p"],
            rng=np.random.default_rng(config.seed),
            logprobs=bool(config.logprobs),
            stops=[stop for stop in list(config.stop_seqs or []) + template_stops if stop],
            one_line=self._formatter is None,
            top_logprobs=config.top_logprobs or 1,
            started=started,
        )

    def _loaded_engine(self) -> Engine[_Call]:
        """The engine `_ensure_loaded` opened (None before it, and after `close`)."""
        if self._engine is None:
            raise FigevalError("gguf: the model is not loaded (or was closed); report it as a bug.")
        return self._engine

    def _role(self) -> str | None:
        """The model role this provider serves in the running sample (a judge's `grader`), or None for the model
        under test (or outside a sample)."""
        from inspect_ai.model import model_roles

        from figeval._compat import active_model, running_sample

        # Inspect sets the active model when an eval starts and leaves it set after the eval ends, so outside a
        # sample it may name an earlier eval's model: the running sample says whether there is a sample at all
        under_test = active_model() if running_sample() is not None else None
        if under_test is None or under_test.api is self:
            return None
        for role, models in model_roles().items():
            if any(model.api is self for model in (models if isinstance(models, list) else [models])):
                return role
        return "judge"  # a model the scorer made itself (-T judge=gguf/...): -M does not reach it either

    def _output(self, call: _Call) -> ModelOutput:
        if self._vocabulary is None:  # loaded with the engine that finished `call`
            raise FigevalError("gguf: the model is not loaded; report it as a bug.")
        text = self._vocabulary.text
        choice_logprobs = None
        if call.first_logprobs is not None:
            first_logprobs = call.first_logprobs
            chosen = call.sampled[0]
            k = min(max(1, call.top_logprobs), len(first_logprobs))
            choice_logprobs = Logprobs(
                content=[
                    Logprob(
                        token=text([chosen]),
                        logprob=float(first_logprobs[chosen]),
                        top_logprobs=[
                            TopLogprob(token=text([int(t)]), logprob=float(first_logprobs[t]))
                            for t in top_k(first_logprobs, k)
                        ],
                    )
                ]
            )
        answer, stop_details = call.text, None
        if call.finish == "unknown" and (stopped := stopped_looping(answer)) is not None:
            # kept up to where the loop was first whole: the kept text, judged again, ends at the same place
            answer, stop_details = stopped[0], StopDetails(**stopped[1])
        output = ModelOutput.from_content(self.model_name, answer, stop_reason=call.finish, stop_details=stop_details)
        # the sampling this answer had, asked or not, so the log says what a run unasked did
        output.metadata = {**self._provenance,
                           "sampling": {"temperature": call.temperature, "top_p": call.top_p, **NOT_APPLIED}}
        output.choices[0].logprobs = choice_logprobs
        input_tokens, output_tokens = len(call.tokens), len(call.sampled)
        output.usage = ModelUsage(
            input_tokens=input_tokens, output_tokens=output_tokens, total_tokens=input_tokens + output_tokens
        )
        output.time = time.monotonic() - call.started
        return output

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        if tools:
            raise FigevalError("gguf: tool calling is not supported by the in-process llama.cpp provider.")
        call = self._request(input, config)
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            # A new event loop (each asyncio.run): what the old one left unanswered has no caller any more.
            self._loop, self._waiting, self._runner = loop, [], None
            self._loaded_engine().drop_active()
        call.future = loop.create_future()
        self._waiting.append(call)
        if self._runner is None or self._runner.done():
            self._runner = loop.create_task(self._serve())
        return await call.future

    def _step(self, admitted: list[_Call], dropped: list[_Call]) -> list[tuple[_Call, ModelOutput | Exception]]:
        """One engine step, and the output (or error) of each call it finished."""
        answered: list[tuple[_Call, ModelOutput | Exception]] = []
        for call, error in self._loaded_engine().step(admitted, dropped):
            try:
                answered.append((call, error if error is not None else self._output(call)))
            except Exception as output_error:
                answered.append((call, output_error))
        return answered

    async def _serve(self) -> None:
        """Feeds waiting requests to the engine and answers them, until none is left."""
        engine = self._loaded_engine()
        while self._waiting or engine.active:
            if not engine.active and len(self._waiting) < engine.n_parallel:
                await asyncio.sleep(BATCH_WAIT_S)  # let the requests that arrive together join one batch
            self._waiting = [call for call in self._waiting if not call.caller().done()]
            admitted = engine.admit(self._waiting)
            self._waiting = [call for call in self._waiting if call not in admitted]
            dropped = [call for call in engine.active if call.caller().done()]  # cancelled callers
            # In a worker thread: Inspect's own work (scoring, logging, the next prompts) goes on meanwhile.
            answered = await asyncio.to_thread(self._step, admitted, dropped)
            for call, result in answered:
                if call.caller().done():
                    continue
                if isinstance(result, Exception):
                    call.caller().set_exception(
                        result if isinstance(result, FigevalError) else FigevalError(f"gguf: {result}")
                    )
                else:
                    call.caller().set_result(result)
