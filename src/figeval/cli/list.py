"""`figeval list`: under a header, each benchmark's line (its paper, whether its data is here), then its tasks, one
a line: how many samples a task asks with its default arguments and its arguments (defaults and choices); then
the papers `figeval run --paper` runs. Every line fits 120 columns. `--json` for scripts.

Nothing here runs a model: a sample count comes from building the task (its dataset) with default arguments,
and only when its data is stored, so listing never downloads anything.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Callable, Collection
from dataclasses import asdict, dataclass
from inspect import Parameter, signature
from typing import Any

import click

from figeval.benchmark import Benchmark, parameter_choices
from figeval.terminal import TERMINAL_WIDTH, wrapped
from figeval.errors import DataError, FigevalError
from figeval.task import identity_declaration


@dataclass(frozen=True)
class Argument:
    name: str
    type: str
    default: Any
    choices: list[str] | None
    score_neutral: str | None = None
    """Why the argument cannot change a run's numbers, where its task declares so; None: part of the run's
    identity (two runs that differ in it are reported apart)."""


@dataclass(frozen=True)
class TaskInfo:
    name: str
    benchmark: str
    paper: str
    description: str
    samples: int | None
    """With default arguments; None when the task cannot be built here (`samples_note` says why)."""
    samples_note: str | None
    dataset: str | None
    """The stored dataset the task reads (`figeval data list`), None for tasks that read only user files."""
    data: str
    """`present`, `missing`, a stored file's other state (`sha256 mismatch`, `unverifiable`...), or `user file`
    (no stored dataset)."""
    needs: list[str]
    """Arguments that must name a user file before the task runs (`-T pairs=FILE`)."""
    arguments: list[Argument]


def _arguments(task: Callable[..., Any], benchmark: Benchmark) -> list[Argument]:
    """The task's parameters; the words one accepts are its `Literal` annotation's, or its benchmark's `choices`,
    which the task validates against too, so this list cannot drift from what the task accepts."""
    words = parameter_choices(task)
    choices = {**benchmark.choices, **words}
    neutral = declaration.neutral if (declaration := identity_declaration(task)) is not None else {}
    arguments = []
    for parameter in signature(task).parameters.values():
        annotation = parameter.annotation
        kind = ("str" if parameter.name in words else "" if annotation is Parameter.empty else
                annotation if isinstance(annotation, str) else annotation.__name__)
        allowed = choices.get(parameter.name)
        default = None if parameter.default is Parameter.empty else parameter.default
        arguments.append(Argument(parameter.name, kind, default, list(allowed) if allowed is not None else None,
                                  neutral.get(parameter.name)))
    return arguments


_NEEDS_FILE = re.compile(r"needs -T (\w+)=")


def _count(task: Callable[..., Any]) -> tuple[int | None, str | None, list[str]]:
    """The task's sample count with default arguments, or why there is none, and the file arguments it needs.
    Built quietly: a task's notes on its data belong to a run, not to a listing."""
    quiet = io.StringIO()
    try:
        with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
            built = task()
    except DataError as error:
        return None, f"n/a: data unreadable ({_first_sentence(str(error))})", []
    except FigevalError as error:
        needs = [name for name in _NEEDS_FILE.findall(str(error)) if name in signature(task).parameters]
        if needs:
            return None, "n/a: needs " + ", ".join(f"-T {name}=FILE" for name in needs), needs
        return None, f"n/a: {_first_sentence(str(error))}", []
    return len(built.dataset), None, []


def _first_sentence(text: str) -> str:
    return re.split(r"(?<=[.;:])\s", text, maxsplit=1)[0].rstrip(".;:")


def task_infos(names: Collection[str] = ()) -> list[TaskInfo]:
    """What `figeval list` shows, for the tasks named (default: all), in the order of the benchmarks.

    Raises:
        FigevalError: an unknown task name.
    """
    from figeval._registry import BENCHMARKS, tasks
    from figeval.data.stored import FileState, file_statuses

    known = tasks()
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise FigevalError(f"unknown task {', '.join(map(repr, unknown))}; known tasks: {', '.join(known)}.")
    data_states: dict[str, str] = {}
    infos = []
    for benchmark in BENCHMARKS:
        dataset = benchmark.dataset.name if benchmark.dataset else None
        if benchmark.dataset is not None and dataset not in data_states:
            states = {status.state for status in file_statuses(benchmark.dataset)}
            others = sorted(state.value for state in states - {FileState.OK, FileState.MISSING})
            data_states[benchmark.dataset.name] = ("present" if states == {FileState.OK} else
                                    "missing" if FileState.MISSING in states else others[0])
        state = data_states[dataset] if dataset is not None else "user file"
        for task in benchmark.tasks:
            if names and task.__name__ not in names:
                continue
            if state in ("present", "user file"):
                samples, note, needs = _count(task)
            elif state == "missing":
                samples, note, needs = None, f"n/a: data missing (figeval data fetch {dataset})", []
            else:
                samples, note, needs = None, (f"n/a: stored {dataset} does not match its pin (figeval data verify)"
                                              if state == FileState.MISMATCH.value else
                                              f"n/a: stored {dataset} is {state} (figeval data verify)"), []
            infos.append(TaskInfo(
                name=task.__name__, benchmark=benchmark.title, paper=benchmark.citation,
                description=(task.__doc__ or "").strip().splitlines()[0] if task.__doc__ else "",
                samples=samples, samples_note=note, dataset=dataset, data=state, needs=needs,
                arguments=_arguments(task, benchmark),
            ))
    return infos


def _shown(value: Any) -> str:
    """A default as it is written after -T (true/false, not True/False); no default as '-'."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


# The listing's width: it fits a 120-column terminal; a longer cell wraps under itself at its spaces.
LIST_WIDTH = TERMINAL_WIDTH
_HEADER = ("task", "samples", "arguments: NAME=default{choices}, given as -T NAME=VALUE")




def _benchmark_line(info: TaskInfo) -> str:
    """The benchmark and paper of the tasks under it, and the state of its data (with the command that fixes a
    state other than present)."""
    paper = f"{info.benchmark} ({info.paper})" if info.paper else info.benchmark
    if info.dataset is None:
        return f"{paper}; data: the user's files"
    if info.data == "present":
        return f"{paper}; data: {info.dataset} present"
    return f"{paper}; {(info.samples_note or info.data).removeprefix('n/a: ')}"


def _arguments_text(info: TaskInfo) -> str:
    return " ".join(
        f"{a.name}={_shown(a.default)}" + (f"{{{'|'.join(a.choices)}}}" if a.choices else "") for a in info.arguments
    )


def listing_lines(infos: list[TaskInfo]) -> list[str]:
    """`figeval list`'s lines: a header, then each benchmark's line and its tasks, one per line (sample count with
    default arguments, arguments), a task's own reason for no count before its arguments; none over LIST_WIDTH."""
    name_width = max([len(_HEADER[0]), *(len(info.name) for info in infos)])
    count_width = max([len(_HEADER[1]), *(len(str(info.samples)) for info in infos if info.samples is not None)])
    indent = 2 + name_width + 2 + count_width + 2
    lines = [f"  {_HEADER[0].ljust(name_width)}  {_HEADER[1].ljust(count_width)}  {_HEADER[2]}"]
    benchmark = None
    for info in infos:
        if info.benchmark != benchmark:
            benchmark = info.benchmark
            lines += ["", *wrapped(_benchmark_line(info), LIST_WIDTH, more="    ")]
        own_note = info.samples_note if info.samples is None and info.data in ("present", "user file") else None
        cells = ([own_note.removeprefix("n/a: ")] if own_note else []) + [_arguments_text(info)]
        column = [line for cell in cells for line in wrapped(cell, LIST_WIDTH - indent)]
        count = str(info.samples) if info.samples is not None else "n/a"
        lines.append(f"  {info.name.ljust(name_width)}  {count.ljust(count_width)}  {column[0]}".rstrip())
        lines += [" " * indent + line for line in column[1:]]
    return lines


@click.command("list")
@click.argument("tasks", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print the listing as JSON.")
def list_tasks(tasks: tuple[str, ...], as_json: bool) -> None:
    """List the tasks (or the TASKS named): benchmark, paper, sample count with default arguments, arguments with
    defaults and {choices}, and whether their data is stored. Runs no model and downloads nothing."""
    from figeval._registry import BENCHMARKS
    from figeval.data.stored import data_dir, data_dir_problem

    if problem := data_dir_problem():
        # every dataset would be listed as missing, and `figeval data fetch` would fail on the same cause
        raise FigevalError(problem)
    infos = task_infos(tasks)
    if as_json:
        click.echo(json.dumps({"data_dir": str(data_dir()), "tasks": [asdict(info) for info in infos],
                               "papers": {benchmark.name: [run.task for run in benchmark.protocol]
                                          for benchmark in BENCHMARKS if benchmark.protocol}},
                              ensure_ascii=False, indent=2))
        return
    for line in listing_lines(infos):
        click.echo(line)
    if not tasks:
        click.echo("\npapers, for `figeval run --paper NAME`:")
        for paper in paper_runs():
            click.echo("\n".join(wrapped(paper, LIST_WIDTH, "  ", "    ")))


def paper_runs() -> list[str]:
    """Each paper whose protocol `figeval run --paper` runs, with its runs' tasks ("my-bench: task_a, task_b x2":
    task_b is run with two settings)."""
    from collections import Counter

    from figeval._registry import BENCHMARKS

    papers = []
    for benchmark in BENCHMARKS:
        if benchmark.protocol:
            counts = Counter(run.task for run in benchmark.protocol)
            runs = ", ".join(f"{task} x{count}" if count > 1 else task for task, count in counts.items())
            papers.append(f"{benchmark.name}: {runs}")
    return papers
