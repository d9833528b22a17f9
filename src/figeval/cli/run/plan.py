"""`figeval run --dry-run`: the plan of a run (`figeval.running.plan`) printed for people, per task and in total."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from figeval.arguments import pairs_text, parse_pairs
from figeval.benchmark import Benchmark
from figeval.running.judge_plan import JudgePlan
from figeval.running.plan import Plan, ServiceTotal, TaskPlan, plan_runs
from figeval.running.tokens import Tokenizer


def plan_run(benchmarks: Sequence[Benchmark], runs: Sequence[tuple[str, dict[str, Any], tuple[str, ...]]],
             params: dict[str, Any], models: Sequence[str], run_name: str | None, folder: str | None = None) -> None:
    """`--dry-run`: each run (a task, its arguments and role bindings) built, checked and planned for each model
    (`running.plan.plan_runs`; with a paper run's `folder`, what is left of it), then its plan printed."""
    from figeval.running.models import openai_name_warning

    model_args = parse_pairs(params.get("m") or (), "-M")
    plans = [plan for model in models
             for plan in plan_runs(benchmarks, runs, params, model, run_name, model_args, folder)]
    for model in models:
        if warning := openai_name_warning(model):
            click.echo(warning, err=True)
    print_plan(Plan(tuple(models), tuple(plans)))


def judge_lines(judge: JudgePlan) -> list[str]:
    calls = (f"{judge.calls:,} (one per answer; an empty answer is not asked)" if judge.exact_calls else
             f"at most {judge.calls:,} (one per answer the task's rules do not decide without the judge)")
    if judge.tokens is None:
        tokens = f"not counted: {judge.why_not}"
    else:
        figure = f"{judge.tokens:,}" if judge.tokenizer.exact else f"~{judge.tokens:,}"
        tokens = f"{figure} without the answers, each answer adding its own ({judge.tokenizer.how})"
        if judge.rendered * judge.epochs != judge.calls:
            tokens += f"; of the {judge.rendered:,} samples whose stand-in answer the judge was asked about"
    return [f"judge calls ({judge.model}): {calls}", f"judge prompt tokens: {tokens}"]


def tokens_text(tokens: int, tokenizer: Tokenizer) -> str:
    return f"{tokens:,} ({tokenizer.how})" if tokenizer.exact else f"~{tokens:,} ({tokenizer.how})"


def plan_lines(plan: TaskPlan, several: bool = False) -> list[str]:
    """A task's plan for people: its samples, calls and tokens, one figure a line (the model named when the plan
    is of `several` models)."""
    epochs = f"{plan.epochs} epoch{'s' if plan.epochs != 1 else ''}"
    per_epoch = plan.calls // plan.epochs
    calls = (f"{plan.samples:,} samples x {epochs}" if per_epoch == plan.samples else
             f"{per_epoch:,} generate calls over {plan.samples:,} samples, x {epochs}")
    on = f" on {plan.model}" if several else ""
    lines = [f"{plan.task}{on} ({pairs_text(plan.args, 'defaults')}): {plan.samples:,} samples"]
    if plan.subset:
        lines.append(f"  subset: {plan.subset}")
    if plan.answered:
        lines.append(f"  already answered: {plan.answered:,} samples in the set's folder (not asked again)")
    lines += [f"  model calls: {plan.calls:,} ({calls})",
              f"  prompt tokens: {tokens_text(plan.prompt_tokens, plan.tokenizer)}"]
    if plan.judge is not None:
        lines += ["  " + line for line in judge_lines(plan.judge)]
    if plan.extractor:
        lines.append(f"  extractor calls ({plan.extractor}): at most {plan.calls:,} (only answers the task's readers "
                     "cannot read; their prompts not counted)")
    if plan.note:
        lines.append(f"  note: {plan.note}")
    return lines


def total_line(plan: Plan) -> str:
    """The run's total: samples, calls (the judges' and extractors' apart) and prompt tokens; "~" where a figure
    is estimated, "at most" where a count is an upper bound."""
    calls, judged, extracted = plan.calls, plan.judge_calls, plan.extractor_calls
    at_most = "at most " if plan.judge_calls_bounded or extracted else ""
    parts = [f"{calls:,} to the model"] if judged or extracted else []
    parts += [f"{'at most ' if plan.judge_calls_bounded else ''}{judged:,} to judges"] if judged else []
    parts += [f"at most {extracted:,} to extractors"] if extracted else []
    apart = f" ({', '.join(parts)})" if parts else ""
    without = " (judge prompts without the answers)" if any(task.judge and task.judge.tokens for task in plan.tasks) \
        else ""
    return (f"total: {plan.samples:,} samples, {at_most}{plan.total_calls:,} model calls{apart}, "
            f"{'~' if plan.tokens_estimated else ''}{plan.prompt_tokens:,} prompt tokens{without}")


def print_plan(plan: Plan) -> None:
    click.echo(f"dry run of {plan.model}: no model is asked anything and no log is written (calls are counted as if "
               "none were in the response cache)")
    for task in plan.tasks:
        click.echo("\n".join(plan_lines(task, several=len(plan.models) > 1)))
    services = plan.by_service()
    if len(services) > 1:
        click.echo("by service:")
        for service, total in services.items():
            click.echo(f"  {service_line(service, total)}")
    click.echo(total_line(plan))


def service_line(service: str, total: ServiceTotal) -> str:
    """One service's share of a plan: its calls ("at most" an upper bound) and prompt tokens ("~" estimated; what
    is left out of them said)."""
    calls = f"{'at most ' if total.calls_bounded else ''}{total.calls:,} calls"
    tokens = f"{'~' if total.tokens_estimated else ''}{total.prompt_tokens:,} prompt tokens"
    left_out = f" ({', '.join(total.left_out)})" if total.left_out else ""
    return f"{service}: {calls}, {tokens}{left_out}"
