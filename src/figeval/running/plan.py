"""A dry run: what a run would ask, without asking it. Per task: the samples the run would take
(after `--limit`/`--sample-id`), its model calls (samples x epochs, a judged task's judge calls beside them;
retries are not counted) and the tokens of its prompts; then a total. No model is called or loaded (a gguf
model's vocabulary alone is read, `tokens.py`) and nothing is written.

The prompts are rendered by the task's own solver chain, each sample's `TaskState` built as Inspect builds it,
with a `generate` that records the messages it is handed instead of calling a model: so they are the prompts
the model under test would receive (system and user messages, a logprob cue appended where the model's answer
mode asks for it) and each recorded generate is one model call. Running Inspect's eval with `mockllm/model`
would give the same messages from its ModelEvents, but would ask the mock in generate mode (the answer mode
follows the model's name), score every sample and write a log; the solver chain alone is both exact and quick.

A judged task's judge prompt holds the model's answer, unknown before the run: `judge_plan.py` renders it around a
stand-in answer and counts it without the answer.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Collection, Sequence
from copy import deepcopy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, ChatMessageUser, ModelName
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState

from figeval.benchmark import Benchmark
from figeval.errors import FigevalError
from figeval.running.judge_plan import JudgePlan, judge_plan, role_model
from figeval.running.protocol import SkippedRun
from figeval.running.tokens import Tokenizer, tokenizer_for
from figeval.scoring.extractor import EXTRACTOR_ROLE

Prompt = list[ChatMessage]


@dataclass(frozen=True)
class TaskPlan:
    """What one task's run would ask of its models."""

    task: str
    model: str
    """The model under test."""
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
    answered: int = 0
    """Samples a log in the paper run's folder already holds without error: a re-run does not ask them again, and
    they are left out of every figure above."""

    @property
    def judge_calls(self) -> int:
        return self.judge.calls if self.judge else 0

    @property
    def extractor_calls(self) -> int:
        """At most one per answer."""
        return self.calls if self.extractor else 0


def task_settings(benchmarks: Sequence[Benchmark], task_names: Sequence[str], args: dict[str, Any],
                  roles: Sequence[str]) -> dict[str, tuple[dict[str, Any], tuple[str, ...]]]:
    """Each task's `-T` arguments and `--model-role` bindings: with one task, all of them (its checks refuse one
    it does not take); with several, each goes to the tasks that take it, and one that none takes is refused.

    Raises:
        FigevalError: an argument or role no task given takes.
    """
    from figeval.running.models import roles_of_runs, used_roles
    from figeval.running.tasks import task_functions, task_parameters

    if len(task_names) == 1:
        return {task_names[0]: (args, tuple(roles))}
    known = task_functions(benchmarks)
    taken = {name: task_parameters(benchmarks, name) if name in known else set(args) for name in task_names}
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
    from figeval.running.options import limit_bounds

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


def answered_samples(folder: str, task_name: str, task: Task, model: str) -> set[str]:
    """Ids of the task's samples that a log in an eval set's folder already holds without error in every epoch, from
    runs of this model and of the task as built (its recorded identity): what the set's re-run does not ask again."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    from figeval.task import IDENTITY_KEY

    if not Path(folder).is_dir():
        return set()
    identity = (task.metadata or {}).get(IDENTITY_KEY)
    answered: set[str] = set()
    for info in list_eval_logs(folder, recursive=False):
        header = read_eval_log(info, header_only=True)
        if (header.eval.task.split("/")[-1] == task_name and header.eval.model == model
                and (header.eval.metadata or {}).get(IDENTITY_KEY) == identity):
            # a sample is answered once every epoch of it is (a re-run asks a missing epoch again)
            epochs = Counter(str(sample.id) for sample in read_eval_log(info).samples or [] if sample.error is None)
            answered |= {id for id, done in epochs.items() if done >= (header.eval.config.epochs or 1)}
    return answered


def plan_task(benchmarks: Sequence[Benchmark], task_name: str, task: Task, args: dict[str, Any],
              params: dict[str, Any], model: str, roles: tuple[str, ...], subset: str | None = None,
              model_args: dict[str, Any] | None = None, answered: Collection[str] = ()) -> TaskPlan:
    """The plan of one task, built and checked as the run would build it.

    Args:
        benchmarks: the benchmarks the task is one of.
        task_name: the task's name.
        task: the task as the run built it (`launch.prepared_task`; its dataset is shuffled here if the run would
            shuffle it).
        args: its `-T` arguments.
        params: `inspect eval`'s options after figeval's checks (`sample_id`, `limit`, `epochs`, `sample_shuffle`).
        model: the model under test.
        roles: `--model-role` bindings (a judge given as `grader`).
        subset: the rule of the subset `--limit N` selected, if any.
        model_args: the model's own arguments (`-M`; a gguf model's `chat_template` decides how messages join).
        answered: ids of samples already answered (`answered_samples`), left out.
    """
    samples, note = planned_samples(task, task_name, params)
    left = [sample for sample in samples if str(sample.id) not in answered]
    done, samples = len(samples) - len(left), left
    epochs = params.get("epochs") or task.epochs or 1
    rendered = asyncio.run(rendered_prompts(task, samples, model))
    tokenizer = tokenizer_for(model, model_args or {})
    prompts = [prompt for _, sample_prompts in rendered for prompt in sample_prompts]
    tokens = sum(tokenizer.count(prompt) for prompt in prompts) * epochs
    judge = judge_plan(benchmarks, task_name, args, [state for state, _ in rendered], epochs, roles,
                       dict(task.metadata or {}))
    return TaskPlan(task_name, model, args, len(samples), epochs, len(prompts) * epochs, tokens, tokenizer, judge,
                    role_model(roles, EXTRACTOR_ROLE), subset, note, done)


def plan_runs(benchmarks: Sequence[Benchmark], runs: Sequence[tuple[str, dict[str, Any], tuple[str, ...]]],
              params: dict[str, Any], model: str, run_name: str | None,
              model_args: dict[str, Any] | None = None, folder: str | None = None) -> list[TaskPlan]:
    """Each run (a task, its arguments and role bindings) built and checked as it would be (`launch.prepared_task`),
    then planned (`plan_task`); with a paper run's `folder`, what is left of it (`answered_samples`).

    Raises:
        FigevalError: what the run would refuse before asking any model.
    """
    from figeval.running.launch import prepared_task

    plans = []
    for task_name, given, bound in runs:
        task_params = dict(params)  # each task's own --limit subset
        task, subset = prepared_task(benchmarks, task_name, given, task_params, model, run_name, bound)
        answered = answered_samples(folder, task_name, task, model) if folder else set()
        plans.append(plan_task(benchmarks, task_name, task, given, task_params, model, bound, subset, model_args,
                               answered))
    return plans


@dataclass(frozen=True)
class ServiceTotal:
    """What a plan asks of one service (`providers.service_of`): its calls and their prompt tokens."""

    calls: int = 0
    prompt_tokens: int = 0
    calls_bounded: bool = False
    """The calls are an upper bound (a judge the task's rules may not need, an extractor)."""
    tokens_estimated: bool = False
    left_out: tuple[str, ...] = ()
    """What the prompt tokens leave out (a judge's answers, an extractor's prompts)."""

    def plus(self, calls: int, tokens: int | None, bounded: bool, estimated: bool, left_out: str = "") -> ServiceTotal:
        left = (*self.left_out, left_out) if left_out and left_out not in self.left_out else self.left_out
        return ServiceTotal(self.calls + calls, self.prompt_tokens + (tokens or 0), self.calls_bounded or bounded,
                            self.tokens_estimated or estimated, left)


@dataclass(frozen=True)
class Plan:
    """What a run of one or more tasks (or of a paper's protocol, on one or more models) would ask: each task's
    plan and the totals."""

    models: tuple[str, ...]
    tasks: tuple[TaskPlan, ...]
    skipped: tuple[SkippedRun, ...] = ()
    """A paper's runs left out for a file or judge not given."""
    notes: tuple[str, ...] = ()
    """What a paper run applies of the paper's decoding, and each setting of the user's that departs from it."""

    @property
    def model(self) -> str:
        """The models under test, joined by ", "."""
        return ", ".join(self.models)

    @property
    def samples(self) -> int:
        return sum(plan.samples for plan in self.tasks)

    @property
    def calls(self) -> int:
        """Calls to the model under test (retries and the response cache not counted)."""
        return sum(plan.calls for plan in self.tasks)

    @property
    def judge_calls(self) -> int:
        return sum(plan.judge_calls for plan in self.tasks)

    @property
    def extractor_calls(self) -> int:
        """At most this many: only answers the tasks' readers cannot read are asked about."""
        return sum(plan.extractor_calls for plan in self.tasks)

    @property
    def judge_calls_bounded(self) -> bool:
        """True when the judge calls are an upper bound (a task's rules decide some answers without the judge)."""
        return any(plan.judge is not None and not plan.judge.exact_calls for plan in self.tasks)

    @property
    def total_calls(self) -> int:
        return self.calls + self.judge_calls + self.extractor_calls

    @property
    def prompt_tokens(self) -> int:
        """The model's prompt tokens and the judges' (their prompts without the answers)."""
        return sum(plan.prompt_tokens + (plan.judge.tokens or 0 if plan.judge else 0) for plan in self.tasks)

    @property
    def tokens_estimated(self) -> bool:
        return any(not plan.tokenizer.exact or (plan.judge and plan.judge.tokens_estimated) for plan in self.tasks)

    def by_service(self) -> dict[str, ServiceTotal]:
        """The calls and prompt tokens each service is asked for (`providers.service_of`): the models under test's,
        their judges' (prompts without the answers) and extractors' (at most, prompts not counted)."""
        from figeval.providers import service_of

        totals: dict[str, ServiceTotal] = {}

        def add(model: str, *figures: Any) -> None:
            service = service_of(model)
            totals[service] = totals.get(service, ServiceTotal()).plus(*figures)

        for task in self.tasks:
            add(task.model, task.calls, task.prompt_tokens, False, not task.tokenizer.exact)
            if task.judge is not None:
                judge = task.judge
                add(judge.model, judge.calls, judge.tokens, not judge.exact_calls, judge.tokens_estimated,
                    "judge prompts without the answers" if judge.tokens is not None else "judge prompts not counted")
            if task.extractor:
                add(task.extractor, task.extractor_calls, None, True, False, "extractor prompts not counted")
        return dict(sorted(totals.items()))
