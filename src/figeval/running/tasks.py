"""A benchmark's task found by name among the benchmarks given, and built from `name=value` arguments (`-T`), each
read as its parameter takes it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from inspect import signature
from typing import Any

from inspect_ai import Task

from figeval.arguments import parse_value
from figeval.benchmark import Benchmark
from figeval.errors import FigevalError
from figeval.running.models import JudgeOption


def task_functions(benchmarks: Sequence[Benchmark]) -> dict[str, Callable[..., Task]]:
    """Every task of the benchmarks, by the name Inspect registers it under."""
    return {task.__name__: task for benchmark in benchmarks for task in benchmark.tasks}


def make_task(benchmarks: Sequence[Benchmark], name: str, args: dict[str, Any]) -> Task:
    """The task `name` with arguments given as text or values, checked against its signature first.

    Raises:
        FigevalError: unknown task or argument, or a word given for a bool or int argument.
    """
    known = task_functions(benchmarks)
    if name not in known:
        raise FigevalError(f"unknown task '{name}'; known tasks: {', '.join(sorted(known))}.")
    parameters = signature(known[name]).parameters
    unknown = sorted(set(args) - set(parameters))
    if "judge" in unknown and isinstance(args["judge"], JudgeOption):
        raise FigevalError(f"--judge {args['judge']}: {name} is not judged (it takes no judge); leave --judge out.")
    if unknown:
        raise FigevalError(f"{name} has no parameter {', '.join(unknown)}; it takes: {', '.join(parameters)}.")
    typed = {arg: _typed(name, arg, value, parameters[arg].default) for arg, value in args.items()}
    return known[name](**typed)


def _typed(task: str, arg: str, value: Any, default: Any) -> Any:
    """A task argument as its parameter takes it: text is read as a bool or a number only where the parameter is
    one (`-T pairs=2024` is a file name, `-T seed=7` a number).

    Raises:
        FigevalError: a word for a bool or a number parameter ("controls=maybe" must not run the controls).
    """
    expected = "true or false" if isinstance(default, bool) else "a whole number" if isinstance(default, int) else None
    if expected is None:
        return value
    read = parse_value(value.strip()) if isinstance(value, str) else value
    if type(read) is type(default):
        return read
    raise FigevalError(f"{task}: -T {arg}={value!r} must be {expected}.")


def task_parameters(benchmarks: Sequence[Benchmark], name: str) -> set[str]:
    """The arguments a task takes (its parameters); none for a name that is no task."""
    known = task_functions(benchmarks)
    return set(signature(known[name]).parameters) if name in known else set()


def takes_answer_mode(benchmarks: Sequence[Benchmark], name: str) -> bool:
    return "answer_mode" in task_parameters(benchmarks, name)
