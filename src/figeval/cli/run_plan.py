"""`figeval run --dry-run`: what a run would ask, without asking it. Per task: the samples the run would take
(after `--limit`/`--sample-id`), its model calls (samples x epochs, a judged task's judge calls beside them;
retries are not counted) and the tokens of its prompts; then a total. No model is called or loaded (a gguf
model's vocabulary alone is read, `run_tokens.py`) and nothing is written.

The prompts are rendered by the task's own solver chain, each sample's `TaskState` built as Inspect builds it,
with a `generate` that records the messages it is handed instead of calling a model: so they are the prompts
the model under test would receive (system and user messages, a logprob cue appended where the model's answer
mode asks for it) and each recorded generate is one model call. Running Inspect's eval with `mockllm/model`
would give the same messages from its ModelEvents, but would ask the mock in generate mode (the answer mode
follows the model's name), score every sample and write a log; the solver chain alone is both exact and quick.

A judged task's judge prompt holds the model's answer, unknown before the run: `run_judge.py` renders it around a
stand-in answer and counts it without the answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from copy import deepcopy
from dataclasses import dataclass
from typing import Any

import click
from inspect_ai import Task
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, ChatMessageUser, ModelName
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState

from figeval.arguments import pairs_text
from figeval.cli.run_judge import JudgePlan, judge_plan, role_model
from figeval.cli.run_tokens import Tokenizer, tokenizer_for
from figeval.errors import FigevalError
from figeval.scoring.extractor import EXTRACTOR_ROLE

Prompt = list[ChatMessage]


@dataclass(frozen=True)
class TaskPlan:
    """What one task's run would ask of its models."""

    task: str
    args: dict[str, Any]
    samples: int
    epochs: int
    calls: int
    """Calls to the model under test: each sample's generate calls x epochs."""
    prompt_tokens: int
    tokenizer: Tokenizer
    judge: JudgePlan | None = None
    extractor: str | None = None
    """The model bound to the `extractor` role, asked only about answers the task's readers cannot read."""
    subset: str | None = None
    """The rule of the subset `--limit N` selects."""
    note: str | None = None
    """Anything that makes a figure less than exact (an unseeded shuffle)."""

    @property
    def judge_calls(self) -> int:
        return self.judge.calls if self.judge else 0

    @property
    def extractor_calls(self) -> int:
        """At most one per answer."""
        return self.calls if self.extractor else 0


def task_settings(task_names: Sequence[str], args: dict[str, Any],
                  roles: Sequence[str]) -> dict[str, tuple[dict[str, Any], tuple[str, ...]]]:
    """Each task's `-T` arguments and `--model-role` bindings: with one task, all of them (its checks refuse one
    it does not take); with several, each goes to the tasks that take it, and one that none takes is refused.

    Raises:
        FigevalError: an argument or role no task given takes.
    """
    from figeval._registry import tasks
    from figeval.cli.options import task_parameters
    from figeval.cli.run_models import roles_of_runs, used_roles

    if len(task_names) == 1:
        return {task_names[0]: (args, tuple(roles))}
    known = tasks()
    taken = {name: task_parameters(name) if name in known else set(args) for name in task_names}
    if unused := sorted(arg for arg in args if not any(arg in taken[name] for name in task_names)):
        raise FigevalError(f"-T {', '.join(unused)}: none of {', '.join(task_names)} takes it; leave it out.")
    given = {name: {arg: value for arg, value in args.items() if arg in taken[name]} for name in task_names}
    bound = roles_of_runs(roles, [used_roles(taken[name], given[name]) for name in task_names],
                          f"none of {', '.join(task_names)}")
    return {name: (given[name], run_roles) for name, run_roles in zip(task_names, bound)}


def planned_samples(task: Task, task_name: str, params: dict[str, Any]) -> tuple[list[Sample], str | None]:
    """The samples the run would take, in its order (Inspect's `--sample-shuffle`, then `--sample-id` or
    `--limit`, read after `apply_subset` has turned a design-keeping `--limit N` into ids), and a note when the
    run would draw others (a shuffle without a seed).
    """
    from figeval._compat import parse_sample_id, resolve_task_sample_ids, sample_id_filter
    from figeval.cli.run_options import limit_bounds

    note = None
    if shuffle := params.get("sample_shuffle"):  # Inspect's flag: -1 without a seed, else the seed; 0 none
        task.dataset.shuffle(None if shuffle == -1 else shuffle)
        if shuffle == -1:
            note = "--sample-shuffle without a seed: the run draws its own order; prompts counted in one such order"
    samples = list(task.dataset)
    if params.get("sample_id") is not None:
        selected = resolve_task_sample_ids(task.name, parse_sample_id(params["sample_id"]), [task.name, task_name])
        matcher = sample_id_filter(selected) if selected else None
        return [sample for sample in samples if matcher is not None and matcher.matches(sample.id)], note
    if params.get("limit") is not None:
        first, last = limit_bounds(params["limit"])
        return samples[first - 1:last], note
    return samples, note


def sample_state(sample: Sample, model: str) -> TaskState:
    """The state Inspect starts a sample with (its `sample_messages`: a text input is one user message)."""
    messages: list[ChatMessage] = ([ChatMessageUser(content=sample.input, source="input")]
                                   if isinstance(sample.input, str) else deepcopy(sample.input))
    return TaskState(model=ModelName(model), sample_id=sample.id or 0, epoch=1, input=sample.input,
                     target=Target(sample.target), choices=sample.choices, messages=messages,
                     metadata=dict(sample.metadata or {}))


async def rendered_prompts(task: Task, samples: Sequence[Sample], model: str) -> list[tuple[TaskState, list[Prompt]]]:
    """Each sample's state after the task's solvers, and the prompt of each model call they would make."""

    async def render(sample: Sample) -> tuple[TaskState, list[Prompt]]:
        prompts: list[Prompt] = []

        async def recorded_generate(state: TaskState, *args: Any, **kwargs: Any) -> TaskState:
            prompts.append(deepcopy(state.messages))
            return state

        state = await task.solver(sample_state(sample, model), recorded_generate)
        return state, prompts

    return [await render(sample) for sample in samples]


def plan_task(task_name: str, task: Task, args: dict[str, Any], params: dict[str, Any], model: str,
              roles: tuple[str, ...], subset: str | None = None) -> TaskPlan:
    """The plan of one task, built and checked as the run would build it.

    Args:
        task_name: the task's name.
        task: the task `figeval run` built (its dataset is shuffled here if the run would shuffle it).
        args: its `-T` arguments.
        params: `inspect eval`'s options after figeval's checks (`--sample-id`, `--limit`, `--epochs`, `-M`).
        model: the model under test.
        roles: `--model-role` bindings (a judge given as `grader`).
        subset: the rule of the subset `--limit N` selected, if any.
    """
    from figeval.arguments import parse_pairs

    samples, note = planned_samples(task, task_name, params)
    epochs = params.get("epochs") or task.epochs or 1
    rendered = asyncio.run(rendered_prompts(task, samples, model))
    tokenizer = tokenizer_for(model, parse_pairs(params.get("m") or (), "-M"))
    prompts = [prompt for _, sample_prompts in rendered for prompt in sample_prompts]
    tokens = sum(tokenizer.count(prompt) for prompt in prompts) * epochs
    judge = judge_plan(task_name, args, [state for state, _ in rendered], epochs, roles,
                       dict(task.metadata or {}))
    return TaskPlan(task_name, args, len(samples), epochs, len(prompts) * epochs, tokens, tokenizer, judge,
                    role_model(roles, EXTRACTOR_ROLE), subset, note)


def tokens_text(tokens: int, tokenizer: Tokenizer) -> str:
    return f"{tokens:,} ({tokenizer.how})" if tokenizer.exact else f"~{tokens:,} ({tokenizer.how})"


def plan_lines(plan: TaskPlan) -> list[str]:
    """A task's plan for people: its samples, calls and tokens, one figure a line."""
    epochs = f"{plan.epochs} epoch{'s' if plan.epochs != 1 else ''}"
    per_epoch = plan.calls // plan.epochs
    calls = (f"{plan.samples:,} samples x {epochs}" if per_epoch == plan.samples else
             f"{per_epoch:,} generate calls over {plan.samples:,} samples, x {epochs}")
    lines = [f"{plan.task} ({pairs_text(plan.args, 'defaults')}): {plan.samples:,} samples"]
    if plan.subset:
        lines.append(f"  subset: {plan.subset}")
    lines += [f"  model calls: {plan.calls:,} ({calls})",
              f"  prompt tokens: {tokens_text(plan.prompt_tokens, plan.tokenizer)}"]
    if plan.judge is not None:
        lines += ["  " + line for line in plan.judge.lines()]
    if plan.extractor:
        lines.append(f"  extractor calls ({plan.extractor}): at most {plan.calls:,} (only answers the task's readers "
                     "cannot read; their prompts not counted)")
    if plan.note:
        lines.append(f"  note: {plan.note}")
    return lines


def total_line(plans: Sequence[TaskPlan]) -> str:
    """The run's total: samples, calls (the judges' and extractors' apart) and prompt tokens; "~" where a figure
    is estimated, "at most" where a count is an upper bound."""
    calls = sum(plan.calls for plan in plans)
    judged = sum(plan.judge_calls for plan in plans)
    extracted = sum(plan.extractor_calls for plan in plans)
    judges_bounded = any(plan.judge and not plan.judge.exact_calls for plan in plans)
    at_most = "at most " if judges_bounded or extracted else ""
    parts = [f"{calls:,} to the model"] if judged or extracted else []
    parts += [f"{'at most ' if judges_bounded else ''}{judged:,} to judges"] if judged else []
    parts += [f"at most {extracted:,} to extractors"] if extracted else []
    apart = f" ({', '.join(parts)})" if parts else ""
    tokens = sum(plan.prompt_tokens + (plan.judge.tokens or 0 if plan.judge else 0) for plan in plans)
    estimated = any(not plan.tokenizer.exact or (plan.judge and plan.judge.tokens_estimated) for plan in plans)
    without = " (judge prompts without the answers)" if any(plan.judge and plan.judge.tokens for plan in plans) \
        else ""
    return (f"total: {sum(plan.samples for plan in plans):,} samples, {at_most}{calls + judged + extracted:,} model "
            f"calls{apart}, {'~' if estimated else ''}{tokens:,} prompt tokens{without}")


def print_plan(plans: Sequence[TaskPlan], model: str) -> None:
    click.echo(f"dry run of {model}: no model is asked anything and no log is written (calls are counted as if "
               "none were in the response cache)")
    for plan in plans:
        click.echo("\n".join(plan_lines(plan)))
    click.echo(total_line(plans))
