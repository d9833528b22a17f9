"""A run answered from Inspect's response cache says so: a re-run of the same task on the same model prints, in its
summary and in its last progress line, how many answers came from the cache (as the log's model events record
them), so a run that asked no model never looks like one that did."""

from __future__ import annotations

import os
from pathlib import Path

from inspect_ai.log import read_eval_log
from inspect_ai.model import GenerateConfig, ModelAPI, ModelOutput, ModelUsage, modelapi

from figeval.progress import ENABLE_VARIABLE
from tests.command import figeval


class Calls:
    made = 0


@modelapi(name="cache_counting")
class CacheCountingAPI(ModelAPI):
    """A local stub that answers "Yes" and counts the calls that reach it (a registered provider, so figeval run
    takes it by name and caches it as it caches any API model)."""

    def __init__(self, model_name: str, base_url: str | None = None, api_key: str | None = None,
                 config: GenerateConfig = GenerateConfig(), **model_args) -> None:
        super().__init__(model_name, base_url, api_key, [], config)

    async def generate(self, input, tools, tool_choice, config) -> ModelOutput:  # type: ignore[no-untyped-def]
        Calls.made += 1
        output = ModelOutput.from_content(self.model_name, "Yes")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


def run(tmp_path: Path, *args: str):
    # progress lines as `figeval run` prints them without a terminal (this process's display is the tests' "none")
    env = {**os.environ, ENABLE_VARIABLE: "1"}
    return figeval("run", "ffe_detection", "--model", "cache_counting/stub", "-T", "controls=false", "--limit", "8",
                   "--log-dir", str(tmp_path / "logs"), *args, env=env)


def test_a_rerun_says_how_many_answers_came_from_the_cache(ffe_hallu_imported: Path, tmp_path: Path):
    # --limit 8 without controls: 4 fakes under 2 framings, one call each
    Calls.made = 0
    first = run(tmp_path)
    assert first.returncode == 0, first.stderr
    assert Calls.made == 8
    assert "0 of 8 answers from the response cache" in first.stdout.splitlines()
    assert "from the response cache" not in first.stderr  # no progress line speaks of a cache that gave nothing

    Calls.made = 0
    again = run(tmp_path)
    assert again.returncode == 0, again.stderr
    assert Calls.made == 0  # every answer came from the cache
    assert ("8 of 8 answers from the response cache: no model was asked (`--no-cache` asks again)"
            in again.stdout.splitlines())
    [last] = [line for line in again.stderr.splitlines() if line.startswith("ffe_detection samples: 8/8 ")]
    assert last.endswith("; 8 of 8 answers from the response cache")
    # where the log records it: each model event, "read" for an answer from the cache
    log = read_eval_log(next(line for line in again.stdout.splitlines() if line.startswith("log: "))
                        .removeprefix("log: ").split(" (view with")[0])
    events = [event for sample in log.samples or [] for event in sample.events if event.event == "model"]
    assert [event.cache for event in events] == ["read"] * 8

    Calls.made = 0
    fresh = run(tmp_path, "--no-cache")
    assert fresh.returncode == 0, fresh.stderr
    assert Calls.made == 8
    assert "response cache off: no answer came from it" in fresh.stdout.splitlines()
