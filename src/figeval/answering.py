"""How a task asks for an answer: free generation, or the next token's log-probabilities.

`generate` lets the model write and parses the text. `logprob` asks for one token with its top
log-probabilities and compares the probability mass of the allowed answers, as lm-evaluation-harness does
for base models and a verifier reading P(yes) does; it needs a provider that returns logprobs (figeval's gguf
provider does, so do OpenAI-compatible servers such as vLLM).
"""

from __future__ import annotations

from typing import Literal

from enum import Enum

from inspect_ai.model import CachePolicy, GenerateConfig
from inspect_ai.solver import Generate, Solver, TaskState, solver

from figeval.errors import FigevalError
from figeval.providers import provider_of

# Decoding of every model call figeval makes (tasks, judges, builders) unless the user overrides it:
# deterministic, as the papers evaluate; recorded in every log. No max_tokens: each provider's own limit, so a
# reasoning model's think block (thousands of tokens for DeepSeek-R1, QwQ) is not cut off and counted against
# it; an answer the limit still stops is `truncated`. `--max-tokens N` sets one.
DETERMINISTIC = GenerateConfig(temperature=0.0, top_p=1.0)

# Generation settings that say how a run is carried out, not what the model is asked or how it answers: left out
# of a run's identity (every other setting, given or the task's, is part of it: figeval.results.runs).
SCORE_NEUTRAL_GENERATION = frozenset({
    "max_retries", "timeout", "attempt_timeout", "stream_idle_timeout", "max_connections", "adaptive_connections",
    "cache_prompt", "cache", "batch", "extra_headers", "max_tool_output",
})

# How many next-token candidates logprob mode reads; 20 is the most OpenAI-compatible APIs return.
TOP_LOGPROBS = 20


# "Never expires", written as a period: Inspect keys cache entries on the expiry, and a log cannot carry
# `expiry=None` (it is dropped when written and read back as the one-week default), so a run resumed with
# `inspect eval-retry` used other keys than the run it resumed, and paid again for what that run had cached.
NO_EXPIRY = "100Y"


def response_cache(model_name: str, enabled: bool = True) -> CachePolicy | bool:
    """Inspect's response cache for a model's calls: on, and kept (a re-run or a resume of the same prompts with
    the same model and settings never pays again), except for replay, whose answers are keyed by sample id: a
    prompt-keyed cache could give one sample another's recorded answer (`Provider.answers_by_sample_id`)."""
    if not enabled or provider_of(model_name).answers_by_sample_id:
        return False
    return CachePolicy(expiry=NO_EXPIRY)


class AnswerMode(str, Enum):
    GENERATE = "generate"
    LOGPROB = "logprob"
    AUTO = "auto"
    """Decided by the model, from its name alone (so every route and every re-scoring decides alike): `logprob`
    for providers that declare `answers_by_logprob` (`figeval.providers`: `gguf/`, run in process, whose default
    is a base model that continues text instead of answering); `generate` for every other provider. A base model
    behind an API (vLLM, llama.cpp server) needs `answer_mode=logprob`, an instruction-tuned GGUF file
    `answer_mode=generate`."""


# The answer modes as a task parameter's choices (`-T answer_mode=...`), in AnswerMode's order.
AnswerModeName = Literal["generate", "logprob", "auto"]

def resolved_answer_mode(mode: AnswerMode, model: str) -> AnswerMode:
    """The mode a task asks `model` in: the given one, or for AUTO the model's (see AnswerMode.AUTO)."""
    if mode is not AnswerMode.AUTO:
        return mode
    return AnswerMode.LOGPROB if provider_of(model).answers_by_logprob else AnswerMode.GENERATE


def answer_mode_of(value: str) -> AnswerMode:
    try:
        return AnswerMode(value)
    except ValueError:
        raise FigevalError(
            f"answer_mode must be one of {[m.value for m in AnswerMode]}, not {value!r} "
            "(logprob for base models and any provider with logprobs)."
        ) from None


# Logprob answers: one token and its top candidates.
ONE_TOKEN_LOGPROBS = GenerateConfig(max_tokens=1, logprobs=True, top_logprobs=TOP_LOGPROBS)


ASKED_IN = "asked_in"
"""Where the mode a sample's model is asked in is recorded: in the sample's state by the first solver that asks
(`asked_in`), and in every outcome read from its answer (`figeval.scoring.readers.read_answer`), whose shares the
log keeps (`asked/<mode>`, `figeval.scoring.reading_metrics`) and reports read."""


def asked_in(state: TaskState, mode: AnswerMode) -> AnswerMode:
    """The mode the sample's model is asked in: resolved once (`resolved_answer_mode`) by the first solver that
    asks, which records it in the sample's state; later solvers and the scorer read it."""
    if ASKED_IN not in state.metadata:
        state.metadata[ASKED_IN] = resolved_answer_mode(mode, str(state.model)).value
    return AnswerMode(state.metadata[ASKED_IN])


@solver
def answer_solver(mode: AnswerMode) -> Solver:
    """Asks for the answer in `mode` (AUTO: the sample's model decides, see AnswerMode.AUTO): free text, or one
    token with its top logprobs."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if asked_in(state, mode) is AnswerMode.LOGPROB:
            return await generate(state, **ONE_TOKEN_LOGPROBS.model_dump(exclude_none=True))
        return await generate(state)

    return solve


def unknown_provider(model: str, given: str | None = None) -> FigevalError | None:
    """The error for a model whose provider Inspect does not know, or None when it knows it: the one wording for
    every option that names a model (`--model`, `-T judge=`, `--model-role`, a builder's `--checker`...).

    Args:
        model: provider/model.
        given: how the user gave it, for the message (default `--model MODEL`).
    """
    from figeval._compat import model_api_names

    provider, slash, _ = model.partition("/")
    known = model_api_names()
    if slash and provider in known:
        return None
    return FigevalError(f"{given or f'--model {model}'}: unknown provider {provider!r}; give provider/model, e.g. "
                        f"openai/gpt-4.1, vllm/<model>, gguf/<file.gguf>, replay/<file.jsonl> (providers: "
                        f"{', '.join(sorted(known))}).")
