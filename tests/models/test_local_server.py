"""figeval.models.local_server without a server: which models are local servers and the settings chosen for each (a
fake probe stands for the server). Against a served stub: test_local_server_queue.py."""

from __future__ import annotations

import pytest

from figeval.models.local_server import Probe, is_local_url, local_server_settings, server_url

LOCAL = "http://127.0.0.1:8080/v1"
DEFAULTS = {"max_connections": 1, "attempt_timeout": None, "max_retries": 5}


class FakeProbe:
    """Stands for the server: answers `probe` and records the URLs and keys it was asked with."""

    def __init__(self, probe: Probe = Probe(reachable=True)) -> None:
        self.probe, self.asked = probe, []

    def __call__(self, url: str, api_key: str | None) -> Probe:
        self.asked.append((url, api_key))
        return self.probe


@pytest.mark.parametrize(("url", "local"), [
    ("http://localhost:8080/v1", True), ("http://127.0.0.1:8080/v1", True), ("http://[::1]:8080/v1", True),
    ("http://10.1.2.3:8000/v1", True), ("http://172.16.0.9/v1", True), ("http://192.168.1.20:11434/v1", True),
    ("http://100.101.102.103:8080/v1", True),  # CGNAT (Tailscale): not a global address
    ("http://gpu-box.local:8000/v1", True),  # mDNS: this network
    ("http://172.32.0.1/v1", False),  # just outside 172.16/12: a public address
    ("https://api.deepseek.com/v1", False), ("http://8.8.8.8/v1", False),
    ("http://my-server:8000/v1", False),  # a bare host name is not resolved before a run
])
def test_local_addresses(url: str, local: bool):
    assert is_local_url(url) is local


def test_base_url_comes_as_inspect_reads_it():
    env = {"LLAMACPP_BASE_URL": LOCAL, "OLLAMA_BASE_URL": "http://10.0.0.2:11434/v1",
           "INSPECT_EVAL_MODEL_BASE_URL": "http://10.0.0.9/v1"}
    assert server_url("openai-api/llamacpp/gemma", None, env)[1] == LOCAL  # <SERVICE>_BASE_URL
    assert server_url("openai-api/llama-cpp/gemma", None, env)[1] == "http://10.0.0.9/v1"  # LLAMA_CPP_ unset: fallback
    assert server_url("openai-api/llamacpp/gemma", "http://localhost:9/v1", env)[1] == "http://localhost:9/v1"
    assert server_url("ollama/qwen2.5:7b", None, env)[1] == "http://10.0.0.2:11434/v1"
    assert server_url("ollama/qwen2.5:7b", None, {})[1] == "http://localhost:11434/v1"  # Inspect's default
    assert server_url("llama-cpp-python/m", None, {})[1] == "http://localhost:8000/v1"
    assert server_url("vllm/Qwen/Qwen2.5-7B", None, {})[1] is None  # Inspect starts vLLM itself
    assert server_url("openai/gpt-4.1", None, env) is None and server_url("gguf/gemma-3-270m", None, env) is None


def test_a_one_slot_llama_server_gets_one_connection_and_no_attempt_timeout():
    probe = FakeProbe(Probe(reachable=True, slots=1))
    settings = local_server_settings("openai-api/llamacpp/gemma", environ={"LLAMACPP_BASE_URL": LOCAL,
                                                                            "LLAMACPP_API_KEY": "k"}, probe=probe)
    assert settings is not None and settings.options == DEFAULTS
    assert probe.asked == [(LOCAL, "k")]  # the server's key is sent (llama-server --api-key guards /props)
    assert settings.note == (
        f"local server: llama.cpp server at {LOCAL}; it runs 1 request at once (its slots): "
        "--max-connections 1, no attempt timeout (a queued request is never abandoned and sent again), "
        "5 retries of a failed request.")


def test_the_users_options_win_and_the_queue_they_make_is_said():
    probe = FakeProbe(Probe(reachable=True, slots=4))
    settings = local_server_settings("openai-api/llamacpp/gemma", given={"max_connections": 10, "attempt_timeout": 300,
                                                                         "max_retries": None},
                                     environ={"LLAMACPP_BASE_URL": LOCAL}, probe=probe)
    assert settings is not None
    assert settings.options == {"max_retries": 5}  # a None value is an option not given
    # 10 connections to 4 slots: ceil(10 / 4) = 3 rounds, so a request may wait for 2 generations before its own
    assert settings.note == (
        f"local server: llama.cpp server at {LOCAL}; it runs 4 requests at once (its slots): "
        "--max-connections 10 (given), attempt timeout 300 s (given), 5 retries of a failed request; with 10 "
        "connections to 4 slots a request may wait for 2 generations before its own, all within Inspect's HTTP "
        "timeout (600 s, INSPECT_HTTP_REQUEST_TIMEOUT).")


def test_servers_that_do_not_say_their_parallelism():
    # Ollama, llama-cpp-python: one at a time
    for model, env in (("ollama/qwen2.5:7b", {}), ("llama-cpp-python/m", {"LLAMA_CPP_PYTHON_BASE_URL":
                                                                            "http://192.168.1.20:8000/v1"})):
        settings = local_server_settings(model, environ=env, probe=FakeProbe())
        assert settings is not None and settings.options == DEFAULTS, model
        assert "it does not say how many requests it runs at once" in settings.note
    # vLLM started by Inspect: nothing to probe, a batching server: 8
    probe = FakeProbe()
    settings = local_server_settings("vllm/Qwen/Qwen2.5-7B-Instruct", environ={}, probe=probe)
    assert settings is not None and settings.options["max_connections"] == 8 and probe.asked == []
    assert "vLLM started by Inspect on localhost; it batches requests" in settings.note
    # vLLM behind openai-api, known by its /v1/models owned_by
    settings = local_server_settings("openai-api/lan/qwen", environ={"LAN_BASE_URL": "http://10.0.0.5:8000/v1"},
                                     probe=FakeProbe(Probe(reachable=True, owner="vllm")))
    assert settings is not None and settings.options["max_connections"] == 8
    # an unknown local server: one at a time
    settings = local_server_settings("openai-api/lmstudio/qwen", environ={"LMSTUDIO_BASE_URL": LOCAL},
                                     probe=FakeProbe(Probe(reachable=True, owner="organization_owner")))
    assert settings is not None and settings.options["max_connections"] == 1


def test_a_server_that_is_not_running_is_named():
    settings = local_server_settings("openai-api/llamacpp/gemma", environ={"LLAMACPP_BASE_URL": LOCAL},
                                     probe=FakeProbe(Probe(reachable=False, error="[Errno 111] Connection refused")))
    assert settings is not None and settings.options == DEFAULTS
    assert settings.note.endswith("; nothing answers there yet ([Errno 111] Connection refused): start the server "
                                  "first.")


def test_apis_keep_figevals_api_settings():
    probe = FakeProbe()
    for model, env in (("openai-api/deepseek/deepseek-chat", {"DEEPSEEK_BASE_URL": "https://api.deepseek.com/v1"}),
                       ("vllm/m", {"VLLM_BASE_URL": "https://vllm.example.org/v1"}),
                       ("openai/gpt-4.1", {}), ("anthropic/claude-sonnet-4-0", {}), ("gguf/gemma-3-270m", {}),
                       ("replay/answers.jsonl", {})):
        assert local_server_settings(model, environ=env, probe=probe) is None, model
    assert probe.asked == []  # no request to a remote server before a run
