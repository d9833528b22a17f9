"""What each benchmark declares (figeval/benchmark.py) agrees with what its code accepts and holds."""

from typing import get_args

import pytest

from figeval._registry import BENCHMARKS
from figeval.answering import AnswerMode, AnswerModeName
from figeval.benchmark import identity_problems, parameter_choices
from tests.toy_benchmark import BENCHMARK as TOY

# Every expectation below is derived from what each benchmark declares, so a benchmark added to the registry is
# held to them as it is: the toy (tests/toy_benchmark/), registered nowhere, is checked beside the four.
DECLARED = (*BENCHMARKS, TOY)


def test_every_task_parameter_is_run_identity_or_declared_score_neutral():
    assert [problem for benchmark in DECLARED for problem in identity_problems(benchmark)] == []


def test_a_task_registered_without_an_identity_is_refused_by_the_contract():
    from dataclasses import replace

    from inspect_ai import Task, task

    assert identity_problems(TOY) == []  # its `note` is declared neutral, with its reason

    @task
    def toy_undeclared(answer_mode: str = "generate", threshold: int = 3) -> Task:
        return Task()

    assert identity_problems(replace(TOY, tasks=(*TOY.tasks, toy_undeclared))) == [
        "toy_undeclared: parameters ['answer_mode', 'threshold'] are neither run identity nor declared "
        "score-neutral; register the task with figeval.task.identified_task"]


def test_a_task_records_every_parameter_but_the_neutral_ones_as_its_identity():
    from figeval.task import IDENTITY_KEY

    from tests.toy_benchmark import toy_parity

    recorded = toy_parity(note="a remark").metadata[IDENTITY_KEY]
    assert recorded["settings"] == {"prompt_version": "toy-v1", "answer_mode": "generate", "wording": "plain"}
    assert recorded["own"] == ["prompt_version"] and recorded["files"] == []
    assert recorded["neutral"] == {"note": "written to the log for the reader; never shown to the model or the scorer"}


def test_a_declaration_naming_no_parameter_is_refused_when_the_task_is_defined():
    from inspect_ai import Task

    from figeval.task import identified_task

    with pytest.raises(TypeError, match=r"declares \['fakes'\] in its identity, but has no such parameter"):
        @identified_task(files=("fakes",))
        def toy_misspelled(fake: str | None = None) -> Task:
            return Task()


def test_a_literal_choice_is_the_set_the_code_uses():
    # the shared choice; each benchmark's own (its prompt languages, policies) are checked in its tests' folder
    assert get_args(AnswerModeName) == tuple(mode.value for mode in AnswerMode)


def test_every_task_default_is_one_of_its_choices():
    from inspect import signature

    for benchmark in DECLARED:
        for task in benchmark.tasks:
            for name, words in parameter_choices(task).items():
                assert signature(task).parameters[name].default in words, (task.__name__, name)


def test_each_benchmark_s_paper_numbers_are_its_own():
    for benchmark in DECLARED:
        # every line its file holds, as entered (counted here as text lines, not through the csv reader)
        if benchmark.paper_numbers:
            lines = benchmark.paper_numbers.read_text(encoding="utf-8").splitlines()[1:]
            assert len(benchmark.numbers()) == sum(bool(line.strip()) for line in lines) > 0, benchmark.name
        # the paper's tables the benchmark reports: its results tables, its judge-vs-people and annotators' tables,
        # and those whose numbers a table's own build shows (the allusions' Table 2 under the themes analysis)
        sources = {spec.source for spec in benchmark.tables}
        sources |= {table for printed in benchmark.agreement.values()
                    for table in (printed.judge_table, printed.annotator_table) if table}
        sources |= set(benchmark.cited_tables)
        tables = {line["table"] for line in benchmark.numbers()}
        # every table the numbers name is one the benchmark reports (or a Section of its text)
        assert {table for table in tables if not table.startswith("Section")} <= sources, benchmark.name
        # and a table it cites has numbers to show
        assert set(benchmark.cited_tables) <= tables, benchmark.name


def test_each_protocol_runs_its_own_tasks_with_arguments_they_take():
    from inspect import signature

    for benchmark in DECLARED:
        tasks = {task.__name__: task for task in benchmark.tasks}
        for run in benchmark.protocol:
            assert run.task in tasks, (benchmark.name, run.task)
            parameters = signature(tasks[run.task]).parameters
            choices = parameter_choices(tasks[run.task])
            for name, value in run.args.items():
                assert name in parameters and value in choices.get(name, (value,)), (run.task, name, value)
            assert set(run.needs) <= set(parameters) and run.fills, run
        # a run is one task with one set of arguments: two alike would be one eval set task twice
        assert (len({(run.task, tuple(sorted(run.args.items()))) for run in benchmark.protocol})
                == len(benchmark.protocol))
        # every table of runs the paper prints is filled by some run of its protocol
        if benchmark.protocol:
            assert {task for table in benchmark.tables if not table.build for task in table.tasks} <= {
                run.task for run in benchmark.protocol}, benchmark.name


def test_no_sample_id_is_in_two_tasks_of_a_benchmark(shared_ffe_hallu):
    """One replay file or annotation sheet of a model's answers holds every task of a benchmark: a sample id in
    two of its tasks would give both the same answer (the allusions' MC and open tasks shared their texts' ids).
    Every task that runs on the data here, with its defaults (a task needing a file of the user's is left out)."""
    from pathlib import Path

    from figeval._registry import get_source
    from tests.command import make_task
    from figeval.data.store import import_folder
    from figeval.errors import FigevalError

    tests = Path(__file__).parent
    import_folder(get_source("ffe-hallu"), shared_ffe_hallu)
    import_folder(get_source("turkish-idioms"), tests / "turkish_idioms" / "fixtures")
    import_folder(get_source("persian-allusions"), tests / "persian_allusions" / "fixtures")
    checked = set()
    for benchmark in BENCHMARKS:
        owner: dict[str, str] = {}
        for task in benchmark.task_names():
            try:
                built = make_task(task, {})
            except FigevalError:
                continue  # it needs a file of the user's (pairs, a built data file)
            checked.add(task)
            for sample in built.dataset:
                assert owner.setdefault(str(sample.id), task) == task, (benchmark.name, sample.id)
    # at least every task a paper's protocol runs without a file of the user's was built and checked
    assert {run.task for benchmark in BENCHMARKS for run in benchmark.protocol if not run.needs} <= checked
