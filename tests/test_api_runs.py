"""Runs against a model that fails now and then: a failed call is asked again instead of ending the run, and the
response cache survives an interruption: a run resumed with `inspect eval-retry`, and every run after it, find the
answers already paid for (Inspect keys the cache on the policy's expiry, and a log cannot carry "no expiry": it
comes back as Inspect's one-week default, so the keys before and after a resume differed and about 60% of calls
were paid again)."""

from pathlib import Path

import pytest
from inspect_ai import Task, eval_retry, task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig, ModelAPI, ModelOutput, ModelUsage, modelapi
from inspect_ai.scorer import match
from inspect_ai.solver import generate

from figeval.running.launch import eval_options


class Counter:
    calls = 0
    fail_on: set[int] = set()


@modelapi(name="counting")
class CountingAPI(ModelAPI):
    """Answers "A"; counts the calls that reach it; raises on calls numbered in `Counter.fail_on` (an outage).
    A registered provider, so that `eval_retry` builds the same model from the log's model name."""

    def __init__(self, model_name: str, base_url: str | None = None, api_key: str | None = None,
                 config: GenerateConfig = GenerateConfig(), **model_args) -> None:
        super().__init__(model_name, base_url, api_key, [], config)

    async def generate(self, input, tools, tool_choice, config) -> ModelOutput:
        Counter.calls += 1
        if Counter.calls in Counter.fail_on:
            raise RuntimeError("connection reset")
        output = ModelOutput.from_content(self.model_name, "A")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


@task
def ten_questions() -> Task:
    return Task(dataset=MemoryDataset([Sample(id=i, input=f"question {i}", target="A") for i in range(10)]),
                solver=generate(), scorer=match())


def test_a_resumed_run_and_the_runs_after_it_pay_no_call_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    model = "counting/model"
    options = {**eval_options(model), "log_dir": str(tmp_path / "logs"), "display": "none",
               "max_connections": 1, "retry_on_error": 0, "fail_on_error": False}
    Counter.calls, Counter.fail_on = 0, {4, 8}  # two of the ten samples fail; the eight others are answered, cached
    [first] = inspect_eval(ten_questions(), model=model, **options)
    assert first.status == "success" and Counter.calls == 10
    errored = sum(sample.error is not None for sample in first.samples)
    assert errored == 2

    # The resume asks only the two failed samples (the eight others are in the log)
    Counter.calls, Counter.fail_on = 0, set()
    [resumed] = eval_retry(first, log_dir=str(tmp_path / "logs"), display="none")
    assert resumed.status == "success" and Counter.calls == 2

    # A fresh run of the same task and model: every answer is in the cache, the two the resume paid for included
    Counter.calls = 0
    [again] = inspect_eval(ten_questions(), model=model, **options)
    assert again.status == "success" and Counter.calls == 0


def test_a_failed_call_is_asked_again_and_the_run_finishes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    model = "counting/model"
    options = {**eval_options(model), "log_dir": str(tmp_path / "logs"), "display": "none", "max_connections": 1}
    # figeval's defaults for an API: 3 sample retries, 120 s an attempt, at most 10 retries of a request (Inspect:
    # unlimited, a stopped server would be retried for ever); an in-process model has no connection to bound
    assert (options["retry_on_error"], options["attempt_timeout"], options["max_retries"]) == (3, 120, 10)
    assert "max_retries" not in eval_options("gguf/gemma-3-270m") and "attempt_timeout" not in eval_options("replay/x")
    Counter.calls, Counter.fail_on = 0, {3, 7}  # two dropped connections in ten samples
    [log] = inspect_eval(ten_questions(), model=model, **options)
    # both failed samples were asked again: 12 calls, every sample scored, no error left in the log
    assert log.status == "success" and Counter.calls == 12
    assert all(sample.error is None for sample in log.samples) and log.results.completed_samples == 10
    # the retries are visible in the log
    assert sum(len(sample.error_retries or []) for sample in log.samples) == 2
