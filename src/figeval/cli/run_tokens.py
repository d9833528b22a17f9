"""Prompt tokens for `figeval run --dry-run`, counted without calling or loading any model: exactly with the
model's own tokenizer where it is on this machine (a `gguf/` model's vocabulary, read alone), otherwise estimated
and said to be.

An API model's tokenizer is not available offline (tiktoken downloads its encodings), so its count is an
estimate of characters/4, named as one wherever it is printed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import ceil
from typing import Any

from inspect_ai.model import ChatMessage

CHARS_PER_TOKEN = 4
"""The estimate's rule of thumb for English; Persian and Turkish text usually takes more tokens than this."""

Messages = Sequence[ChatMessage]


@dataclass(frozen=True)
class Tokenizer:
    """How a model's prompts are counted."""

    count: Callable[[Messages], int]
    """The tokens of one prompt (its messages as the model receives them)."""
    exact: bool
    how: str
    """What counted them, for people ("gguf/gemma-3-270m's own vocabulary", "estimate: characters/4; ...")."""


def estimate(messages: Messages) -> int:
    """characters/4 of the messages' text, rounded up per prompt."""
    return ceil(sum(len(message.text) for message in messages) / CHARS_PER_TOKEN)


def estimated(model: str, why: str | None = None) -> Tokenizer:
    return Tokenizer(estimate, False, f"estimate: characters/{CHARS_PER_TOKEN}; "
                                      f"{why or f'no offline tokenizer for {model}'}")


def tokenizer_for(model: str, model_args: dict[str, Any] | None = None) -> Tokenizer:
    """The tokenizer `model`'s prompts are counted with: a gguf model's own vocabulary (its weights are not
    loaded), else the estimate.

    Args:
        model: provider/model.
        model_args: the model's `-M` arguments (a gguf model's `chat_template` decides how messages are joined).

    Raises:
        FigevalError: a gguf path with no file (as the run would refuse it).
    """
    provider, _, name = model.partition("/")
    if provider != "gguf":
        return estimated(model)
    from importlib.util import find_spec

    if find_spec("llama_cpp") is None:
        return estimated(model, "llama-cpp-python is not installed")
    chat_template = (model_args or {}).get("chat_template")
    return Tokenizer(gguf_counter(name, chat_template if isinstance(chat_template, bool) else None), True,
                     f"{model}'s own vocabulary")


@lru_cache(maxsize=4)
def gguf_counter(name: str, chat_template: bool | None) -> Callable[[Messages], int]:
    """A gguf model's prompt length in tokens, by the gguf provider's own rule (`bindings.prompt_tokens`); the
    tests compare it with a real run's input tokens. Only the vocabulary is read (`vocab_only=True`: under a
    second for the embedded model, no weights)."""
    from llama_cpp import Llama

    from figeval.models.gguf.bindings import prompt_tokens, route_llama_cpp_logs, template_formatter
    from figeval.models.gguf.weights import resolve_model_path

    route_llama_cpp_logs()
    path, instruction_tuned = resolve_model_path(name)
    llm = Llama(model_path=str(path), vocab_only=True, verbose=False)
    formatter = template_formatter(llm, instruction_tuned, chat_template)
    return lambda messages: len(prompt_tokens(llm, formatter, messages)[0])
