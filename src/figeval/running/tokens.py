"""Prompt tokens for a dry run's plan, counted without calling or loading any model: exactly with the
model's own tokenizer where it is on this machine (a `gguf/` model's vocabulary, read alone), otherwise estimated
and said to be.

An API model's tokenizer is not available offline (tiktoken downloads its encodings), so its count is an
estimate of characters/4, named as one wherever it is printed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from math import ceil
from typing import Any

from inspect_ai.model import ChatMessage

from figeval.providers import provider_of

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


def offline_mock_model_counts() -> None:
    """Inspect's test model (`mockllm/model`) counts its made-up usage with this estimate rather than tiktoken,
    which needs the network on first use (`_compat.count_mockllm_tokens_with`)."""
    from figeval._compat import count_mockllm_tokens_with

    count_mockllm_tokens_with(lambda text: max(1, ceil(len(text) / CHARS_PER_TOKEN)))


def estimated(model: str, why: str | None = None) -> Tokenizer:
    return Tokenizer(estimate, False, f"estimate: characters/{CHARS_PER_TOKEN}; "
                                      f"{why or f'no offline tokenizer for {model}'}")


def tokenizer_for(model: str, model_args: dict[str, Any] | None = None) -> Tokenizer:
    """The tokenizer `model`'s prompts are counted with: its provider's own counter where it declares one
    (`providers.Provider.token_counter`: a gguf model's vocabulary, its weights not loaded), else the estimate.

    Args:
        model: provider/model.
        model_args: the model's `-M` arguments (a gguf model's `chat_template` decides how messages are joined).

    Raises:
        FigevalError: a model file that does not exist (as the run would refuse it).
    """
    declared = provider_of(model).token_counter
    if declared is None:
        return estimated(model)
    module, _, function = declared.partition(":")
    try:
        count = getattr(import_module(module), function)(model.partition("/")[2], model_args or {})
    except LookupError as missing:
        return estimated(model, str(missing))
    return Tokenizer(count, True, f"{model}'s own vocabulary")
