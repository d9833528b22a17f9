"""Errors that cannot succeed on retry fail their sample once (issue 25): Inspect's sample retries are skipped for
them, their message names the fix."""

import json
from pathlib import Path

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.solver import generate

from figeval._compat import prerequisite_line
from figeval.models.gguf.provider import context_fix


def test_missing_replay_id_fails_its_sample_once_with_no_retry_warning(tmp_path: Path):
    replay = tmp_path / "answers.jsonl"
    replay.write_text(json.dumps({"id": "a", "output": "Yes"}) + "\n", encoding="utf-8")
    task = Task(dataset=[Sample(id="a", input="q"), Sample(id="b", input="q")], solver=generate())
    log = eval(task, model=f"replay/{replay}", retry_on_error=3, fail_on_error=False, display="none",
               log_dir=str(tmp_path / "logs"))[0]
    by_id = {sample.id: sample for sample in log.samples}
    # "a" is in the file: answered. "b" is not: one error, and none of the 3 retries the budget allows (before: 3
    # retried attempts, 4 warnings).
    assert by_id["a"].error is None
    assert by_id["b"].error is not None and by_id["b"].error_retries == []
    assert ("replay file answers.jsonl has no output for sample id 'b'; add that id's output to"
            in by_id["b"].error.message)
    assert "(--sample-id)" in by_id["b"].error.message


def test_other_errors_keep_inspects_retries(tmp_path: Path):
    # Any other error keeps Inspect's sample retries: with retry_on_error=2, 1 attempt + 2 retries = 3 calls, and the
    # 2 earlier errors recorded on the sample.
    from inspect_ai.solver import solver

    calls = []

    @solver
    def flaky():
        async def solve(state, generate):
            calls.append(state.sample_id)
            raise RuntimeError("transient")
        return solve

    log = eval(Task(dataset=[Sample(id="x", input="q")], solver=flaky()), model="mockllm/model", retry_on_error=2,
               fail_on_error=False, display="none", log_dir=str(tmp_path / "logs"))[0]
    assert len(calls) == 3 and len(log.samples[0].error_retries) == 2


def test_context_hint_names_where_the_models_args_are_set():
    assert context_fix("m.gguf", None) == "pass -M n_ctx=<larger>, -M n_parallel=<fewer> or lower max_tokens"
    hint = context_fix("m.gguf", "grader")
    assert "-M does not reach" in hint
    assert "--model-role grader='{model: gguf/m.gguf, model_args: {n_ctx: <larger>}}'" in hint
    # the binding the hint gives is one Inspect takes (with a model that needs no weights, and a number)
    from inspect_ai._cli.util import parse_model_role_cli_args

    binding = hint.split("--model-role ", 1)[1].split("' (", 1)[0].replace("'", "")
    binding = binding.replace("gguf/m.gguf", "mockllm/model").replace("<larger>", "8192")
    assert set(parse_model_role_cli_args((binding,))) == {"grader"}
    assert '"' not in hint  # Inspect logs the error's repr, which escapes quotes when both kinds appear


def test_missing_sdk_names_figevals_extra():
    message = ("[bold]ERROR[/bold]: Anthropic API requires optional dependencies. Install with:\n\n"
               "[bold]pip install anthropic[/bold]")
    requirements = ['anthropic>=2.0.0; extra == "anthropic"', 'openai>=3.4.0; extra == "openai"']
    assert prerequisite_line(message, requirements) == (
        "ERROR: Anthropic API requires optional dependencies. Install with: pip install 'figeval[anthropic]'")
    # An SDK no extra declares keeps Inspect's own command.
    other = message.replace("anthropic[", "mistralai[")
    assert prerequisite_line(other, requirements).endswith("pip install mistralai")
