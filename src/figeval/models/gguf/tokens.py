"""A gguf model's prompt tokens counted without loading its weights (the dry run's exact count; the provider's
`token_counter` trait in `figeval.providers` names `prompt_counter`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib.util import find_spec
from typing import Any

from inspect_ai.model import ChatMessage


def prompt_counter(name: str, model_args: dict[str, Any]) -> Callable[[Sequence[ChatMessage]], int]:
    """The counter of `gguf/<name>`'s prompts under its `-M` arguments (`chat_template` decides how messages are
    joined).

    Raises:
        LookupError: the tokenizer is not on this machine (llama-cpp-python is not installed).
        FigevalError: a gguf path with no file (as the run would refuse it).
    """
    if find_spec("llama_cpp") is None:
        raise LookupError("llama-cpp-python is not installed")
    chat_template = model_args.get("chat_template")
    return _counter(name, chat_template if isinstance(chat_template, bool) else None)


@lru_cache(maxsize=4)
def _counter(name: str, chat_template: bool | None) -> Callable[[Sequence[ChatMessage]], int]:
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
