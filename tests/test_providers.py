"""A provider's traits are declared once (`figeval.providers`) and every part that treats providers differently
reads them: a provider declared with a trait is treated so everywhere, an undeclared one as an API provider."""

from pathlib import Path

import pytest

from figeval import providers
from figeval.answering import AnswerMode, response_cache, resolved_answer_mode
from figeval.building import model_files, open_model
from figeval.running.launch import eval_options
from figeval.running.tokens import tokenizer_for
from figeval.errors import FigevalError
from figeval.results.model_names import short_name


@pytest.fixture
def local_provider(monkeypatch):
    # a new in-process provider whose models are files and answer by logprob: one declaration
    monkeypatch.setitem(providers.PROVIDERS, "localfile",
                        providers.Provider(answers_by_logprob=True, in_process=True, names_a_file=True))
    monkeypatch.setitem(providers.PROVIDERS, "byid", providers.Provider(in_process=True, answers_by_sample_id=True))


def test_a_declared_provider_is_treated_by_its_traits_everywhere(local_provider):
    model = "localfile/runs/model-a.bin"
    assert resolved_answer_mode(AnswerMode.AUTO, model) is AnswerMode.LOGPROB
    assert "attempt_timeout" not in eval_options(model) and "max_retries" not in eval_options(model)
    assert short_name(model) == "model-a"
    assert model_files([model, "openai/gpt-4.1"]) == [Path("runs/model-a.bin")]
    # answers looked up by sample id: no prompt-keyed cache, and no build can ask it
    assert response_cache("byid/answers.jsonl") is False
    with pytest.raises(FigevalError, match="--generator byid/answers.jsonl"):
        open_model("byid/answers.jsonl", "--generator")
    # no token counter declared: the dry run estimates, and says so
    assert not tokenizer_for(model).exact


def test_an_undeclared_provider_is_an_api_provider():
    model = "someapi/model-x"
    assert providers.provider_of(model) == providers.API_PROVIDER
    assert resolved_answer_mode(AnswerMode.AUTO, model) is AnswerMode.GENERATE
    assert eval_options(model)["attempt_timeout"] > 0 and eval_options(model)["max_retries"] > 0
    assert short_name(model) == model and model_files([model]) == []
    assert response_cache(model) is not False


def test_figeval_s_own_providers_declare_what_they_are():
    gguf, replay = providers.provider_of("gguf/gemma-3-270m"), providers.provider_of("replay/a.jsonl")
    assert gguf.answers_by_logprob and gguf.in_process and gguf.names_a_file and gguf.token_counter
    assert replay.in_process and replay.names_a_file and replay.answers_by_sample_id and not replay.answers_by_logprob
    assert providers.provider_of("mockllm/model").in_process
