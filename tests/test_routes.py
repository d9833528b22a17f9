"""One task, three routes, one result: `figeval run`, `inspect eval figeval/<task>` and `inspect_ai.eval()` of the
task object give the same samples, answers and metrics for the same arguments (docs/architecture.md: every task
is an Inspect `@task`, so the three routes run the same code). The answer mode is decided in the task
(answer_mode=auto, by the model's provider), not by the route: a gguf model answers by logprob on every route.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from figeval.answering import AnswerMode, resolved_answer_mode
from tests.command import assert_one_line_error, figeval

INSPECT = Path(sys.executable).with_name("inspect")


def only_log(log_dir: Path) -> EvalLog:
    [info] = list_eval_logs(str(log_dir))
    return read_eval_log(info)


def three_routes(task: str, model: str, sample_ids: list[str], tmp_path: Path, **task_args: str) -> list[EvalLog]:
    """The task run by figeval's CLI, Inspect's CLI and Inspect's Python API, each into its own log dir, on the same
    samples by id (figeval's --limit keeps a task's design, Inspect's takes the first N). Inspect's CLI runs in a
    process of its own: it finds the task through figeval's entry point, which this process has loaded already."""
    env = os.environ.copy()
    given = [option for name, value in task_args.items() for option in ("-T", f"{name}={value}")]
    cli = figeval("run", task, "--model", model, "--sample-id", ",".join(sample_ids), *given,
                  "--log-dir", str(tmp_path / "figeval"))
    assert cli.returncode == 0, cli.stderr
    inspect_cli = subprocess.run([str(INSPECT), "eval", f"figeval/{task}", "--model", model, "--sample-id",
                                  ",".join(sample_ids), *given,
                                  "--log-dir", str(tmp_path / "inspect"), "--display", "none"],
                                 capture_output=True, text=True, env=env)
    assert inspect_cli.returncode == 0, inspect_cli.stderr
    from figeval._registry import tasks

    [python] = inspect_eval(tasks()[task](**task_args), model=model, sample_id=sample_ids,
                            log_dir=str(tmp_path / "python"),
                            display="none")
    return [only_log(tmp_path / "figeval"), only_log(tmp_path / "inspect"), python]


def assert_same_results(logs: list[EvalLog]) -> None:
    first, *others = logs
    assert first.status == "success" and first.results is not None
    for other in others:
        assert other.status == "success" and other.results is not None
        assert other.eval.metadata == first.eval.metadata
        assert (other.eval.task, other.eval.task_args) == (first.eval.task, first.eval.task_args)
        assert [score.metrics for score in other.results.scores] == [score.metrics for score in first.results.scores]
        assert [(s.id, s.output.completion, {name: score.value for name, score in s.scores.items()})
                for s in other.samples] == [(s.id, s.output.completion,
                                             {name: score.value for name, score in s.scores.items()})
                                            for s in first.samples]


def test_auto_answer_mode_is_decided_by_the_model_name():
    assert resolved_answer_mode(AnswerMode.AUTO, "gguf/gemma-3-270m") is AnswerMode.LOGPROB
    assert resolved_answer_mode(AnswerMode.AUTO, "gguf//models/any.gguf") is AnswerMode.LOGPROB
    assert resolved_answer_mode(AnswerMode.AUTO, "openai/gpt-4.1") is AnswerMode.GENERATE
    assert resolved_answer_mode(AnswerMode.AUTO, "replay/answers.jsonl") is AnswerMode.GENERATE
    # a mode the user gave is kept, whatever the model
    assert resolved_answer_mode(AnswerMode.GENERATE, "gguf/gemma-3-270m") is AnswerMode.GENERATE
    assert resolved_answer_mode(AnswerMode.LOGPROB, "openai/gpt-4.1") is AnswerMode.LOGPROB


def test_three_routes_agree_on_a_replayed_run(tmp_path: Path):
    from tests.turkish_idioms.conftest import FIXTURES
    from figeval._registry import get_source
    from figeval.data.store import import_folder

    import_folder(get_source("turkish-idioms"), FIXTURES)
    replay = tmp_path / "answers.jsonl"
    # the first four detection samples of the fixture: labels and one unparseable answer
    from tests.ffe_hallu.test_tasks import write_replay

    answers = {"tr-idiom-001/figurative": "Yes", "tr-idiom-001/literal": "No", "tr-idiom-002/figurative": "yes.",
               "tr-idiom-003/figurative": "I am not sure"}
    write_replay(replay, answers)
    logs = three_routes("tr_idiom_detection", f"replay/{replay}", list(answers), tmp_path, prompt_lang="en")
    assert_same_results(logs)
    assert logs[0].eval.task_args["prompt_lang"] == "en"
    assert {s.id for s in logs[0].samples} == set(answers)
    assert logs[0].results.scores[0].metrics["unparsed_rate"].value == 0.25  # 1 of 4


@pytest.mark.slow
def test_three_routes_agree_on_the_embedded_model(tmp_path: Path):
    from tests.turkish_idioms.conftest import FIXTURES
    from figeval._registry import get_source
    from figeval.data.store import import_folder

    import_folder(get_source("turkish-idioms"), FIXTURES)
    first_four = ["tr-idiom-001/figurative", "tr-idiom-001/literal", "tr-idiom-002/figurative",
                  "tr-idiom-003/figurative"]
    logs = three_routes("tr_idiom_detection", "gguf/gemma-3-270m", first_four, tmp_path)
    assert_same_results(logs)
    for log in logs:  # every route asked for the next token's logprobs, none let the base model write
        assert all(s.output.choices[0].logprobs is not None for s in log.samples)
        assert all("P(yes)=" in s.scores["idiom_scorer"].explanation for s in log.samples)


def test_a_judged_task_without_a_judge_stops_before_any_sample(ffe_hallu_imported: Path, tmp_path: Path):
    from tests.persian_allusions.conftest import FIXTURES
    from figeval._registry import get_source
    from figeval.data.store import import_folder

    import_folder(get_source("persian-allusions"), FIXTURES)
    # figeval run: refused from its arguments, before Inspect starts
    assert_one_line_error(figeval("run", "ffe_generation", "--model", "mockllm/model", "--log-dir", str(tmp_path)),
                          "ffe_generation: this task needs a judge model", "-T judge=provider/model")
    # inspect eval: refused while Inspect builds the task (roles bound), with a non-zero exit and no log of a run
    refused = subprocess.run([str(INSPECT), "eval", "figeval/allusion_knowledge", "--model",
                              "mockllm/model", "--limit", "1",
                              "--log-dir", str(tmp_path / "inspect"), "--display", "none"],
                             capture_output=True, text=True, env=os.environ.copy())
    assert refused.returncode != 0 and "this task needs a judge model" in refused.stdout + refused.stderr
    assert not list_eval_logs(str(tmp_path / "inspect"))
    # a grader role is a judge: the task is built and its sample judged
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    def reply(messages, tools, tool_choice, config):
        output = ModelOutput.from_content("mockllm/model", "Label: complete")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tiktoken offline
        return output

    mock = get_model("mockllm/model", custom_outputs=reply, memoize=False)
    [log] = inspect_eval("figeval/allusion_knowledge", model=mock, model_roles={"grader": mock}, limit=1,
                         log_dir=str(tmp_path / "python"), display="none")
    assert log.status == "success", log.error


@pytest.mark.parametrize("task, args", [
    ("ffe_detection", {}),
    ("tr_idiom_detection", {}),
    ("perhallueval_qa", {"data": "tests/perhallueval/fixtures/final_qa.csv"}),
    ("allusion_mc", {}),
])
def test_the_papers_headline_is_the_first_metric(task: str, args: dict, ffe_hallu_imported: Path, tmp_path: Path):
    """Inspect's viewer and evals_df show a task's first metric as its score: it is the one the report's
    headline table uses (each benchmark's HEADLINES)."""
    from tests.persian_allusions.conftest import FIXTURES as ALLUSIONS
    from tests.turkish_idioms.conftest import FIXTURES as IDIOMS
    from figeval._registry import BENCHMARKS, tasks
    from figeval._registry import get_source
    from figeval.data.store import import_folder

    import_folder(get_source("turkish-idioms"), IDIOMS)
    import_folder(get_source("persian-allusions"), ALLUSIONS)
    built = tasks()[task](**{name: str(Path(__file__).parents[1] / value) if name == "data" else value
                           for name, value in args.items()})
    # four samples; for detection one fake under both framings, which its average needs
    chosen = [s.id for s in built.dataset if task != "ffe_detection" or str(s.id).startswith("ffe-fake-001/")][:4]
    replay = tmp_path / "answers.jsonl"
    replay.write_text("".join(json.dumps({"id": sample_id, "output": "Yes"}) + "\n" for sample_id in chosen))
    [log] = inspect_eval(built, model=f"replay/{replay}", sample_id=chosen, log_dir=str(tmp_path / "logs"),
                         display="none")
    assert log.status == "success", log.error
    first = next(iter(log.results.scores[0].metrics))
    assert first in {column.metric for found in BENCHMARKS for column in found.headlines if column.task == task}
