"""What figeval needs to know about a model provider, declared once per provider and read by everything that
treats providers differently: the answer mode `auto` picks (solver, scorer, reports), the response cache, the
run's timeouts and retries, a model's display name and the files a build reads, the dry run's token counts.

A provider not declared here is an API provider with none of these traits (Inspect's own: openai, anthropic,
vllm, ...). figeval's own providers are registered in `figeval.models` (`gguf/`, `replay/`); Inspect's `mockllm/`
runs in process too.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Provider:
    answers_by_logprob: bool = False
    """`answer_mode=auto` asks by logprob: its default models are base models that continue text."""
    in_process: bool = False
    """Runs in this process: no connection to hang, so no request timeout and no retries of a request."""
    names_a_file: bool = False
    """The model's name after the prefix is a file path: an input of a build, and one model under any spelling of
    its path (shown by the file's stem)."""
    answers_by_sample_id: bool = False
    """Answers are looked up by sample id, not by prompt: a prompt-keyed response cache could give one sample
    another's answer, and a build (which asks outside any sample) cannot use it."""
    token_counter: str | None = None
    """`module:function(name, model_args)` giving a counter of its prompts' tokens without calling the model (the
    dry run's exact count; LookupError when its tokenizer is not on this machine); None: the dry run estimates."""


PROVIDERS: dict[str, Provider] = {
    "gguf": Provider(answers_by_logprob=True, in_process=True, names_a_file=True,
                     token_counter="figeval.models.gguf.tokens:prompt_counter"),
    "replay": Provider(in_process=True, names_a_file=True, answers_by_sample_id=True),
    "mockllm": Provider(in_process=True),
}
API_PROVIDER = Provider()


def provider_of(model: str) -> Provider:
    """The traits of `model`'s provider (`provider/name`); an undeclared provider's are an API provider's."""
    return PROVIDERS.get(model.partition("/")[0], API_PROVIDER)


def model_file(model: str) -> str | None:
    """The file a model of a file-naming provider reads (`replay/runs/a.jsonl` -> `runs/a.jsonl`), else None."""
    provider, _, name = model.partition("/")
    return name if provider_of(model).names_a_file and name else None


def service_of(model: str) -> str:
    """Where a model's calls go, for counting them by destination: its provider, or for an OpenAI-compatible
    server its service (`openai-api/lab/m` -> `openai-api/lab`, each service its own base URL and key)."""
    provider, _, rest = model.partition("/")
    service = rest.partition("/")[0] if provider == "openai-api" and "/" in rest else None
    return f"{provider}/{service}" if service else provider
