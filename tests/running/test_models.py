"""`figeval run`'s checks of the models a run names (figeval.running.models): which roles a task asks, a judged
task given no judge, and an `openai/` name that is not OpenAI's. The refusals as the command prints them are in
tests/test_cli_inputs.py (roles) and tests/test_routes.py (the judge)."""

from __future__ import annotations

import pytest

from figeval.running.models import check_judge_given, openai_name_warning, used_roles
from figeval.errors import FigevalError


def test_used_roles_follow_the_scorers():
    assert used_roles(["answer_mode"], {}) == {"extractor"}  # every non-judged scorer calls with_extractor
    assert used_roles(["judge"], {}) == {"grader"}
    assert used_roles(["judge"], {"judge": "openai/gpt-4.1"}) == set()


def test_a_judged_task_needs_a_judge_argument_or_a_grader():
    # a task with a `judge` parameter, given neither -T judge= nor --model-role grader=: refused, naming the task
    with pytest.raises(FigevalError, match=r"^t: this task needs a judge model: pass -T judge="):
        check_judge_given("t", ["judge"], {}, ())
    # either way of giving the judge is enough; another role is not one of them
    check_judge_given("t", ["judge"], {"judge": "openai/gpt-4.1"}, ())
    check_judge_given("t", ["judge"], {}, (" grader = openai/gpt-4.1",))
    with pytest.raises(FigevalError, match="needs a judge model"):
        check_judge_given("t", ["judge"], {}, ("extractor=openai/gpt-4.1",))
    # a task without a `judge` parameter asks no judge
    check_judge_given("t", ["answer_mode"], {}, ())


@pytest.mark.parametrize("model, warned", [
    ("openai/gpt-4.1", False), ("openai/o3-mini", False), ("openai/ft:gpt-4o-mini:org::id", False),
    ("openai/Qwen/Qwen3-8B", True), ("openai/llama-3.3-70b", True), ("vllm/Qwen/Qwen3-8B", False),
])
def test_an_openai_compatible_server_under_openai_is_warned_about(model, warned):
    warning = openai_name_warning(model)
    assert (warning is not None) == warned
    if warned:
        assert "openai-api/<service>/" in warning and "_BASE_URL" in warning
