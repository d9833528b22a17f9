"""What a benchmark declares, so that every `figeval` command can serve it without naming it.

Each folder `benchmarks/<name>/` exports one `BENCHMARK`; `_registry.py` lists them, and `figeval list`, `run`,
`report`, `annotate`, `judge agreement`, `build` and `data`, the figures and the papers' reference rows read
only these declarations. A benchmark's metadata is data, as inspect_evals' `eval.yaml` files are: its citation,
tasks (whose `Literal[...]` parameters are the choices `figeval list` shows and the task accepts), the paper's
evaluation protocol (the runs of `figeval run --paper`), pinned datasets,
annotation schemes, result tables (a table the columns of runs cannot express carries its own build function),
figures, judge-vs-people tables, builders and the paper's own numbers.
"""

from __future__ import annotations

import csv
import inspect
import typing
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from inspect_ai import Task

from figeval.annotation.spec import AnnotationSpec
from figeval.data.source import DatasetSource
from figeval.errors import FigevalError
from figeval.table_model import Column, TableSpec
from figeval.task import identity_declaration

FigureKind = Literal["bars", "precision_recall"]


@dataclass(frozen=True)
class FigureSpec:
    """A figure drawn from one of the benchmark's tables (`table`, its key), when the table has rows of runs."""

    table: str
    name: str
    """The file name's stem ("ffe-hallu-figure-1-fake-q")."""
    caption: str
    """The paper's caption where it has one, in figeval's words otherwise (settings every row shares are added)."""
    axis: str
    """The value axis's label ("accuracy (%)"; `precision_recall`: the precision axis)."""
    columns: tuple[str, ...] = ()
    """`bars`: the table's columns drawn, a group of bars each, in the table's order, those the table has (empty:
    every column); `precision_recall`: the column key prefixes of the points ("qa" reads qa/precision, qa/recall
    and qa/f1)."""
    groups: tuple[str, ...] = ()
    """The label of each of `columns` (`bars`: under its group; empty: the columns' headers; `precision_recall`:
    each prefix's name in the legend)."""
    errors: bool = False
    """The paper's caption already says its error bars are 95% intervals (figeval draws the cells' intervals on
    every figure of a rate, and says so in the caption where the paper's does not)."""
    kind: FigureKind = "bars"
    x_axis: str = ""
    """`precision_recall`: the recall axis's label ("recall (factual)": which class is the positive)."""


@dataclass(frozen=True)
class AgreementTables:
    """Where a paper prints one annotated task's judge against people and its annotators among themselves, so that
    `figeval report --human LABELS` shows the paper's rows beside the user's."""

    judge_table: str
    """The paper's table of the judge against people ("Table 6")."""
    annotator_table: str = ""
    """The paper's table of annotators against each other; empty: the paper prints none."""
    unit: str = "percent"
    """How the paper prints agreement: `percent` ("Agreement(%)") or `fraction` ("EM")."""
    part: str = ""
    """Which part of a judge table shared by several tasks is this task's ("Task 1"), said after its name."""
    judge_columns: str = ""
    """For a judge table with a column pair per judge: this task's prefix of those columns ("generation" for
    "generation/gpt-4.1/agreement")."""
    judges: tuple[str, ...] = ()
    """For such a table, the paper's judges, one column pair each."""

    @property
    def judge_source(self) -> str:
        return f"{self.judge_table} ({self.part})" if self.part else self.judge_table


@dataclass(frozen=True)
class Decoding:
    """The decoding a paper states for every model it ran, as `figeval run` options by their Inspect names
    (`temperature`, `top_p`, `max_tokens`): `figeval run --paper` applies them where the user gives none."""

    settings: Mapping[str, float | int]
    source: str
    """Where the paper states them ("Appendix A, Table 3")."""


@dataclass(frozen=True)
class ProtocolRun:
    """One run of a paper's evaluation protocol (`figeval run --paper`): a task with the arguments the paper ran
    it with."""

    task: str
    args: Mapping[str, str] = field(default_factory=dict)
    """Arguments the protocol sets for this run (`meaning=paraphrased`); a paper run refuses a `-T` that names one."""
    needs: Mapping[str, str] = field(default_factory=dict)
    """Arguments only the user can give (a file the paper's data does not hold), each with what to give; a paper
    run without one skips this run and says the argument."""
    fills: str = ""
    """What the run fills in the paper ("Table 3, dictionary meanings")."""


@dataclass(frozen=True)
class Benchmark:
    name: str
    """The benchmark's id: the folder's name with hyphens ("my-bench"), as table keys and paper numbers use it."""
    title: str
    """How tables and listings name the paper ("My Bench")."""
    citation: str
    """Authors and venue ("Hosseini, Yousefzadeh, Yaghoobzadeh, EACL 2026")."""
    tasks: tuple[Callable[..., Task], ...]
    dataset: DatasetSource | None = None
    """The pinned dataset its tasks read by default; None when they read only user files."""
    build_datasets: tuple[DatasetSource, ...] = ()
    """Pinned datasets only its builders read (the sources of fresh benchmark data)."""
    annotated: Mapping[str, AnnotationSpec] = field(default_factory=dict)
    """Task name -> what people label of its answers (`figeval annotate`, `figeval judge agreement`)."""
    agreement: Mapping[str, AgreementTables] = field(default_factory=dict)
    """Task name -> the paper's judge-vs-people and annotator tables for it."""
    protocol: tuple[ProtocolRun, ...] = ()
    """The paper's evaluation protocol, in order: the runs `figeval run --paper` makes (a task with a `judge`
    argument is judged by `--judge`)."""
    decoding: Decoding | None = None
    """The decoding the paper states for its runs; None where it states none (a paper run keeps figeval's)."""
    tables: tuple[TableSpec, ...] = ()
    """The paper's results tables (and figeval's own, marked `ours`), in the order a report shows them."""
    cited_tables: tuple[str, ...] = ()
    """The paper's tables, other than `tables`' and `agreement`'s, whose printed numbers a table's own build shows
    (a row of counts from the paper's "Table 2" under an analysis of its Section 4)."""
    headlines: tuple[Column, ...] = ()
    """Each task's headline metric: the leaderboard's columns."""
    figures: tuple[FigureSpec, ...] = ()
    builders: tuple[Any, ...] = ()
    """Click commands that make fresh benchmark data, each named by what it builds: `figeval build
    <benchmark>-<name>` ("ffe-hallu-fakes"), so that a name says whose data it builds."""
    former_builder_names: Mapping[str, str] = field(default_factory=dict)
    """{a builder's former name under `figeval build`: its name now}: the former still works, with a line saying
    the new one."""
    choices: Mapping[str, Collection[str]] = field(default_factory=dict)
    """Valid words of task arguments that take a list of them (`frequency_bands=low,high`), which a `Literal`
    annotation cannot say; single-word choices are the parameters' `Literal` annotations."""
    paper_numbers: Path | None = None
    """CSV of the paper's printed numbers (table, row, column, value, unit, note), shown as reference rows."""
    paper_notes: Path | None = None
    """CSV of where the paper is inconsistent with itself (table, row, note), said under the table."""

    def datasets(self) -> tuple[DatasetSource, ...]:
        """Every pinned dataset it reads (`figeval data`): its tasks' first, then its builders'."""
        return (*([self.dataset] if self.dataset else []), *self.build_datasets)

    def task_names(self) -> tuple[str, ...]:
        return tuple(task.__name__ for task in self.tasks)

    def numbers(self) -> tuple[dict[str, str], ...]:
        """Every line of the paper's numbers, each with its `paper` (this benchmark's name)."""
        return _rows(self.paper_numbers, self.name) if self.paper_numbers else ()

    def inconsistencies(self) -> tuple[dict[str, str], ...]:
        """Every line of the paper's notes on itself, each with its `paper`."""
        return _rows(self.paper_notes, self.name) if self.paper_notes else ()


@cache
def _rows(path: Path, paper: str) -> tuple[dict[str, str], ...]:
    with path.open(encoding="utf-8", newline="") as handle:
        return tuple({"paper": paper, **row} for row in csv.DictReader(handle))


def parameter_choices(task: Callable[..., Task]) -> dict[str, tuple[str, ...]]:
    """The task's parameters annotated `Literal[...]` and the words each accepts (`str | Literal` unions: the
    `Literal`'s words)."""
    function = inspect.unwrap(task)
    hints = typing.get_type_hints(function)
    found = {}
    for name in inspect.signature(function).parameters:
        for option in (hints.get(name), *typing.get_args(hints.get(name))):
            if typing.get_origin(option) is Literal:
                found[name] = tuple(str(word) for word in typing.get_args(option))
                break
    return found



def identity_problems(benchmark: Benchmark) -> list[str]:
    """Where a benchmark's tasks leave a parameter neither part of a run's identity nor declared score-neutral: a
    task registered without `figeval.task.identified_task` records no identity, so reports could not tell two of
    its runs apart; a neutral parameter needs its reason. Empty when every parameter is one or the other."""
    problems = []
    for task in benchmark.tasks:
        declaration = identity_declaration(task)
        parameters = list(inspect.signature(task).parameters)
        if declaration is None:
            problems.append(f"{task.__name__}: parameters {parameters} are neither run identity nor declared "
                            "score-neutral; register the task with figeval.task.identified_task")
            continue
        problems += [f"{task.__name__}: {name} is declared score-neutral without a reason"
                     for name, reason in declaration.neutral.items() if not reason.strip()]
    return problems


def annotation_spec(benchmarks: Sequence[Benchmark], task: str) -> AnnotationSpec:
    """What people label of the task's answers.

    Raises:
        FigevalError: no benchmark declares an annotation scheme for the task.
    """
    for benchmark in benchmarks:
        if task in benchmark.annotated:
            return benchmark.annotated[task]
    annotated = [name for benchmark in benchmarks for name in benchmark.annotated]
    raise FigevalError(f"task '{task}' has no human-label scheme; tasks with one: {', '.join(annotated)}.")
