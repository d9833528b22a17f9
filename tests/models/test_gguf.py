"""The in-process llama.cpp provider on the embedded model (Gemma 3 270M): real weights, real calls."""

import asyncio
import math
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig, get_model

from figeval.benchmarks.ffe_hallu.tasks import ffe_detection
from figeval.errors import FigevalError
from figeval.models.gguf import GGUFModelAPI

pytestmark = pytest.mark.slow

PROMPT = [
    ChatMessageSystem(content="Answer the question with Yes or No."),
    ChatMessageUser(content="Question: Is Paris the capital of France?\nAnswer:"),
]


@pytest.fixture(scope="module")
def api() -> GGUFModelAPI:
    model = GGUFModelAPI("gemma-3-270m")
    model._ensure_loaded()
    return model


def generate(api: GGUFModelAPI, messages, **config):
    return asyncio.run(api.generate(messages, [], "none", GenerateConfig(**config)))


def test_logprobs_for_the_next_token_without_logits_all(api):
    output = generate(api, PROMPT, max_tokens=1, temperature=0.0, logprobs=True, top_logprobs=5)
    [first] = output.choices[0].logprobs.content
    assert len(first.top_logprobs) == 5
    values = [t.logprob for t in first.top_logprobs]
    assert values == sorted(values, reverse=True) and all(v <= 0 for v in values)
    # Greedy decoding: the token produced is the most probable candidate.
    assert first.token == first.top_logprobs[0].token == output.completion
    assert sum(math.exp(v) for v in values) <= 1.0 + 1e-6
    assert output.usage.input_tokens > 10 and output.usage.output_tokens == 1
    assert not api._llm._logits_all
    # The exact weights are named in every output (the embedded model's hash comes from its package).
    assert output.metadata["model_sha256"] == "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"


def test_prefix_reuse_gives_the_same_distribution_as_a_fresh_evaluation(api):
    config = dict(max_tokens=1, temperature=0.0, logprobs=True, top_logprobs=5)
    other = [PROMPT[0], ChatMessageUser(content="Question: Is Berlin the capital of Italy?\nAnswer:")]
    generate(api, other, **config)  # leaves a KV cache sharing the system prompt and "Question: Is "
    reused = generate(api, PROMPT, **config).choices[0].logprobs.content[0].top_logprobs
    assert api._engine.cached[0][:8] == api._prompt_tokens(PROMPT)[0][:8]
    api._engine.reset()
    assert api._engine.cached[0] == []
    fresh = generate(api, PROMPT, **config).choices[0].logprobs.content[0].top_logprobs
    assert [t.token for t in reused] == [t.token for t in fresh]
    assert [t.logprob for t in reused] == pytest.approx([t.logprob for t in fresh], abs=1e-6)


def test_greedy_generation_is_deterministic_and_honours_max_tokens(api):
    first = generate(api, PROMPT, max_tokens=8, temperature=0.0)
    second = generate(api, PROMPT, max_tokens=8, temperature=0.0)
    assert first.completion == second.completion
    assert first.usage.output_tokens <= 8
    assert first.usage.total_tokens == first.usage.input_tokens + first.usage.output_tokens


def test_stop_sequences_cut_the_output(api):
    unstopped = generate(api, PROMPT, max_tokens=12, temperature=0.0).completion
    assert len(unstopped) > 2
    stop = unstopped[1:3]
    stopped = generate(api, PROMPT, max_tokens=12, temperature=0.0, stop_seqs=[stop])
    assert stopped.completion == unstopped[: unstopped.index(stop)]
    assert stopped.choices[0].stop_reason == "stop"


def test_sampling_with_a_seed_is_reproducible(api):
    config = dict(max_tokens=6, temperature=1.0, top_p=0.9, seed=1234)
    assert generate(api, PROMPT, **config).completion == generate(api, PROMPT, **config).completion


def test_a_missing_model_file_is_one_clear_error(tmp_path: Path):
    with pytest.raises(FigevalError, match=r"gguf: no model file at '.*nope.gguf'; give the path of a .gguf file or "
                                           r"one of: gemma-3-270m"):
        GGUFModelAPI(str(tmp_path / "nope.gguf"))


def test_unknown_model_arg_is_refused():
    with pytest.raises(FigevalError, match=r"unknown model args \['n_gpu'\]; known: n_ctx, n_parallel, n_threads"):
        GGUFModelAPI("gemma-3-270m", n_gpu=1)


def test_any_gguf_path_works(api):
    path = api._llm.model_path
    model = get_model(f"gguf/{path}")
    output = asyncio.run(model.generate(PROMPT, config=GenerateConfig(max_tokens=2, temperature=0.0)))
    assert output.usage.output_tokens >= 1
    # A model given by path is hashed when loaded: the same file, the same hash as the package's.
    # with the sampling it had: temperature as asked, top_p as the engine does unasked, no top-k, min-p or penalty
    assert output.metadata == {"model_file": path,
                               "model_sha256": "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
                               "sampling": {"temperature": 0.0, "top_p": 1.0, "top_k": 0, "min_p": 0.0,
                                            "repeat_penalty": 1.0}}


def test_ffe_detection_on_the_embedded_model(ffe_hallu_imported: Path, tmp_path: Path):
    [log] = inspect_eval(
        ffe_detection(controls=True, answer_mode="logprob"),
        model="gguf/gemma-3-270m",
        sample_id=["ffe-fake-001/fake-q", "ffe-fake-001/real-q", "ffe-real-001/fake-q", "ffe-real-001/real-q"],
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success" and len(log.samples) == 4
    metrics = {name: m.value for score in log.results.scores for name, m in score.metrics.items()}
    assert set(metrics) >= {"halluc_rate_fake_q", "halluc_rate_real_q", "halluc_rate_avg", "agreement",
                            "unparsed_rate", "false_rejection_rate", "halluc_rate_avg/word_perturbation"}
    # rates between 0 and 1; each `/n` (read/n too) counts the answers a rate is over: 4 samples in all
    assert all(0.0 <= value <= 1.0 for name, value in metrics.items() if not name.endswith("/n"))
    assert all(value == int(value) and 0 < value <= 4 for name, value in metrics.items() if name.endswith("/n"))
    assert metrics["read/logprob"] == 1.0 and metrics["read/n"] == 4  # every answer, the controls' too, by logprob
    for sample in log.samples:
        score = sample.scores["detection_scorer"]
        assert "P(yes)=" in score.explanation  # read from the next-token distribution
        assert sample.output.usage.input_tokens > 0
        assert sample.output.metadata["model_sha256"].startswith("a5fd3b62")  # kept in the log


def test_text_is_decoded_from_all_tokens_together(api):
    # Characters outside Gemma's vocabulary fall back to one token per UTF-8 byte: Old Persian cuneiform
    # "𐎠" is 4 tokens. Decoded one by one they are 4 replacement characters; together, the character.
    tokens = api._llm.tokenize("𐎠".encode(), add_bos=False)
    assert len(tokens) == 4
    assert api._vocabulary.text(tokens) == "𐎠"
    output = generate(api, [ChatMessageUser(content="ضرب‌المثل‌های فارسی:\n۱. آب که از سر گذشت")], max_tokens=24)
    assert output.usage.output_tokens <= 24
    assert any("\u0600" <= ch <= "\u06ff" for ch in output.completion)


def test_weights_load_on_first_use_not_on_construction():
    # Inspect builds throwaway provider instances (model-info look-ups); each must not load 250 MB of weights.
    assert GGUFModelAPI("gemma-3-270m")._llm is None


def test_the_response_cache_is_keyed_by_the_weights(tmp_path: Path, api):
    # Inspect's cache keys on base_url; for gguf it names the weights, so a file replaced at the same path
    # does not get the old file's cached answers.
    import os
    import shutil

    from figeval.models.gguf.weights import weights_identity

    assert (GGUFModelAPI("gemma-3-270m").base_url
            == "sha256:a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818")
    copy = tmp_path / "model.gguf"
    shutil.copy(api._llm.model_path, copy)
    before = weights_identity(str(copy))
    os.utime(copy, ns=(1, 1))
    assert weights_identity(str(copy)) != before
