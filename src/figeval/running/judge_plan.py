"""The judge's share of a dry run's plan: a judged task's judge calls and the tokens of its prompts.

A judged task is one with a `judge` argument (as `models.used_roles` reads it); its judge is `-T judge=` or the
model bound to `--model-role grader=`. The judge is asked once per answer (`scoring.judged`; its one retry of an
unreadable reply is not counted): about every answer where the task records `judge_every_output` true (an empty
answer excepted), otherwise about those its rules do not decide alone, so the count is an upper bound.

Its prompt quotes the model's answer, which is not known before the run. The task's own scorer renders it:
built again with a judge that records what it is asked and answers nothing, and run on each sample's state with
a stand-in answer, which is then taken out of the prompt. The count is the judge prompts without the answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai.model import ChatMessage, Model, ModelOutput, get_model
from inspect_ai.solver import TaskState

from figeval.benchmark import Benchmark
from figeval.running.tokens import Tokenizer, tokenizer_for

STAND_IN_ANSWER = "FIGEVAL-DRY-RUN-ANSWER"
"""The answer the judge prompt is rendered around; ASCII, so no normalization of the answer changes it."""
EVERY_OUTPUT_KEY = "judge_every_output"
"""The task metadata key a judged task records `judged_outcome`'s judge_every_output under."""


@dataclass(frozen=True)
class JudgePlan:
    model: str
    calls: int
    epochs: int
    exact_calls: bool
    """False: an upper bound (the task's rules decide some answers without the judge)."""
    tokens: int | None
    """The judge prompts' tokens without the answers; None: not rendered (`why_not` says why)."""
    tokenizer: Tokenizer
    why_not: str | None = None
    rendered: int = 0
    """Stand-in answers the judge was asked about (fewer than the samples where a rule decided some)."""

    @property
    def tokens_estimated(self) -> bool:
        return self.tokens is not None and not self.tokenizer.exact


class RecordingJudge(Model):
    """A judge that records each prompt it is handed and answers with nothing (never a model call). The judged
    scorers take a Model as their judge (`scoring.judge.resolve_judge`); its empty reply reads as no label, so the
    scorer asks once more, with the retry message."""

    def __init__(self) -> None:
        mock = get_model("mockllm/model")
        super().__init__(mock.api, mock.config)
        self.prompts: list[list[ChatMessage]] = []

    async def generate(self, input: Any, *args: Any, **kwargs: Any) -> ModelOutput:
        self.prompts.append(list(input))
        return ModelOutput.from_content(str(self), "")


def role_model(roles: Sequence[str], role: str) -> str | None:
    """The (first) model a run's `--model-role` bindings bind to `role`, or None."""
    from figeval.running.models import role_models

    for given in roles:
        name, _, value = given.partition("=")
        if name.strip() == role and (models := role_models(value)):
            return models[0]
    return None


def judge_model(args: dict[str, Any], roles: Sequence[str]) -> str | None:
    """The judge a run would ask: `-T judge=`, else the model bound to the `grader` role."""
    return str(args["judge"]) if args.get("judge") else role_model(roles, "grader")


def first_asks(prompts: list[list[ChatMessage]]) -> list[list[ChatMessage]]:
    """The prompts that ask about an answer, without the retries of an unreadable reply."""
    from figeval.scoring.judge import JUDGE_RETRY_MESSAGE

    return [prompt for prompt in prompts if not any(message.text == JUDGE_RETRY_MESSAGE for message in prompt)]


def without_stand_in(prompt: list[ChatMessage]) -> list[ChatMessage]:
    return [message.model_copy(update={"content": message.text.replace(STAND_IN_ANSWER, "")}) for message in prompt]


async def _score_stand_ins(task: Any, states: Sequence[TaskState]) -> None:
    for state in states:
        state.output = ModelOutput.from_content(str(state.model), STAND_IN_ANSWER)
        for scorer in task.scorer or []:
            await scorer(state, state.target)


def rendered_judge_prompts(benchmarks: Sequence[Benchmark], task_name: str, args: dict[str, Any],
                           states: Sequence[TaskState]) -> tuple[list[list[ChatMessage]] | None, str | None]:
    """The judge prompts the task's scorer builds around the stand-in answer (taken out), or None and why not."""
    from figeval.running.tasks import make_task

    judge = RecordingJudge()
    # built again around the recording judge, quietly: the task's notes on its data were printed when the plan
    # built it first
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        task = make_task(benchmarks, task_name, {**args, "judge": judge})
    try:
        asyncio.run(_score_stand_ins(task, states))
    except Exception as error:  # a scorer that cannot score a stand-in: the calls are still counted
        return None, f"the judge prompt could not be rendered ({type(error).__name__}: {error})"
    asked = first_asks(judge.prompts)
    if not asked:
        return None, "the task's rules decided a stand-in answer without the judge, whose prompt holds the answer"
    return [without_stand_in(prompt) for prompt in asked], None


def judge_plan(benchmarks: Sequence[Benchmark], task_name: str, args: dict[str, Any], states: Sequence[TaskState],
               epochs: int, roles: Sequence[str], metadata: dict[str, Any]) -> JudgePlan | None:
    """The judge's calls and prompt tokens for a judged task's planned samples; None for a task without a judge.

    Args:
        benchmarks: the benchmarks the task is one of.
        task_name: the task.
        args: its `-T` arguments.
        states: each planned sample's state after the task's solvers.
        epochs: the run's epochs (each epoch's answer is judged).
        roles: `--model-role` bindings.
        metadata: the task's metadata (its recorded `judge_every_output`).
    """
    from figeval.running.tasks import task_parameters

    if "judge" not in task_parameters(benchmarks, task_name) or (model := judge_model(args, roles)) is None:
        return None
    tokenizer = tokenizer_for(model)
    prompts, why_not = rendered_judge_prompts(benchmarks, task_name, args, states)
    tokens = None if prompts is None else sum(tokenizer.count(prompt) for prompt in prompts) * epochs
    return JudgePlan(model, len(states) * epochs, epochs, metadata.get(EVERY_OUTPUT_KEY) is True, tokens, tokenizer,
                     why_not, len(prompts or []))
