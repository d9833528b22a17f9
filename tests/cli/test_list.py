"""`figeval list`: a line per task with its paper, sample count, arguments and data; the same as JSON."""

import json
from inspect import signature
from pathlib import Path

import pytest

from figeval._registry import BENCHMARKS, tasks
from figeval.cli.list import task_infos
from tests.command import make_task
from figeval.errors import FigevalError
from tests.command import assert_one_line_error, figeval


def task_lines(stdout: str) -> dict[str, str]:
    """Each task's line with the lines under it (its arguments wrapped), joined by spaces, by task name."""
    lines: dict[str, str] = {}
    name = None
    for line in stdout.split("\n\npapers")[0].splitlines()[1:]:
        if line.startswith("  ") and not line.startswith("   "):
            name = line.split()[0]
            lines[name] = line
        elif line.startswith("   ") and name is not None:
            lines[name] += " " + line.strip()
        else:
            name = None  # a benchmark's line or the blank line before it
    return lines


def test_a_line_for_every_task_with_no_data(isolated_data_dir: Path):
    listed = figeval("list")
    assert listed.returncode == 0, listed.stderr
    head, *benchmarks, papers = listed.stdout.split("\n\n")
    assert head.split() == ["task", "samples", "arguments:", "NAME=default{choices},", "given", "as", "-T",
                            "NAME=VALUE"]
    # each benchmark's line names its paper and what its data lacks, then its tasks
    assert [block.splitlines()[0] for block in benchmarks][:2] == [
        "FFE-HALLU (Hosseini, Yousefzadeh, Yaghoobzadeh, EACL 2026); data missing (figeval data fetch ffe-hallu)",
        "Turkish idioms (Cavusoglu and Coltekin); data missing (figeval data fetch turkish-idioms)"]
    assert benchmarks[-1].splitlines()[0] == "PerHalluEval (Hosseini et al.); data: the user's files"
    line = task_lines(listed.stdout)
    assert list(line) == list(tasks())
    assert line["ffe_detection"].split()[:2] == ["ffe_detection", "n/a"]
    # arguments with their defaults as -T takes them, and the choices the task accepts; long ones wrap beneath
    assert "controls=true" in line["ffe_detection"] and "fakes=-" in line["ffe_detection"]
    assert "judge_prompt=paper{paper|human}" in line["ffe_generation"]
    assert line["perhallueval_qa"].split()[:5] == ["perhallueval_qa", "n/a", "needs", "-T", "data=FILE"]
    assert "unparsed=as_wrong{as_wrong|excluded}" in line["perhallueval_qa"]
    # then the papers `figeval run --paper` runs, each with the tasks of its protocol's runs
    assert papers.splitlines()[:3] == ["papers, for `figeval run --paper NAME`:",
                                       "  ffe-hallu: ffe_detection, ffe_generation x2, ffe_translation",
                                       "  turkish-idioms: tr_idiom_detection, tr_idiom_entailment"]
    # listing downloads nothing
    assert list(isolated_data_dir.iterdir()) == []


def test_every_line_fits_120_columns(ffe_hallu_imported: Path):
    from figeval._registry import get_source
    from figeval.data.store import import_folder
    from tests.turkish_idioms.conftest import FIXTURES

    # the longest cells: a stored file that does not match its pin, counts of 3 digits, a task that needs a file
    (import_folder(get_source("turkish-idioms"), FIXTURES) / "idioms.tsv").write_text("changed\n", encoding="utf-8")
    listings = [figeval("list"), *(figeval("list", name) for name in tasks())]
    for listed in listings:
        assert listed.returncode == 0, listed.stderr
        assert max(len(line) for line in listed.stdout.splitlines()) <= 120, listed.stdout
    everything = listings[0].stdout
    assert ("Turkish idioms (Cavusoglu and Coltekin); stored turkish-idioms does not match its pin "
            "(figeval data verify)") in everything
    assert task_lines(everything)["ffe_detection"].split()[:3] == ["ffe_detection", "800", "controls=true"]
    # a task named alone is listed under its benchmark, its columns as wide as its own name
    assert figeval("list", "ffe_detection").stdout.splitlines()[:4] == [
        "  task           samples  arguments: NAME=default{choices}, given as -T NAME=VALUE",
        "",
        "FFE-HALLU (Hosseini, Yousefzadeh, Yaghoobzadeh, EACL 2026); data: ffe-hallu present",
        "  ffe_detection  800      controls=true answer_mode=auto{generate|logprob|auto} fakes=-"]


def test_long_arguments_wrap_under_their_column():
    from figeval.cli.list import Argument, TaskInfo, listing_lines

    words = [Argument(f"argument_{n}", "str", "a_long_default_value", None) for n in range(8)]
    info = TaskInfo(name="t", benchmark="B", paper="", description="", samples=None, dataset=None,
                    samples_note="n/a: " + "why " * 40, data="user file", needs=[], arguments=words)
    lines = listing_lines([info])
    # columns: 2 + len("task") + 2 + len("samples") + 2 = 17 characters before an argument, 103 for them: 26
    # words of 3 (26 x 4 - 1 = 103), then 3 arguments of 31 (95; a fourth would make 127)
    assert lines[1:3] == ["", "B; data: the user's files"]
    assert lines[3] == "  t     n/a      " + " ".join(["why"] * 26) and len(lines[3]) == 120
    assert lines[4] == " " * 17 + " ".join(["why"] * 14)
    assert lines[5] == " " * 17 + " ".join(f"argument_{n}=a_long_default_value" for n in range(3))
    assert len(lines) == 8 and all(len(line) <= 120 for line in lines)


def test_json_has_every_task_and_its_arguments():
    listed = figeval("list", "--json")
    assert listed.returncode == 0, listed.stderr
    listed_tasks = {task["name"]: task for task in json.loads(listed.stdout)["tasks"]}
    assert list(listed_tasks) == list(tasks())
    for name, function in tasks().items():
        parameters = signature(function).parameters
        assert [argument["name"] for argument in listed_tasks[name]["arguments"]] == list(parameters)
        for argument in listed_tasks[name]["arguments"]:
            assert argument["default"] == parameters[argument["name"]].default
        assert listed_tasks[name]["paper"] and listed_tasks[name]["benchmark"] and listed_tasks[name]["description"]
    assert listed_tasks["ffe_detection"]["samples"] is None and listed_tasks["ffe_detection"]["data"] == "missing"
    assert listed_tasks["perhallueval_qa"]["needs"] == ["data"] and listed_tasks["perhallueval_qa"]["dataset"] is None


def test_sample_counts_where_the_data_is_stored():
    from figeval._registry import get_source
    from figeval.data.store import import_folder
    from tests.persian_allusions.conftest import FIXTURES as ALLUSIONS
    from tests.turkish_idioms.conftest import FIXTURES as IDIOMS

    import_folder(get_source("turkish-idioms"), IDIOMS)
    import_folder(get_source("persian-allusions"), ALLUSIONS)
    infos = {info.name: info for info in task_infos()}
    for name in ("tr_idiom_detection", "tr_idiom_entailment", "allusion_knowledge", "allusion_mc", "allusion_open"):
        assert infos[name].data == "present"
        assert infos[name].samples == len(make_task(name, {}).dataset), name
    assert infos["ffe_detection"].samples is None  # not imported here


def test_counts_of_the_real_ffe_hallu(ffe_hallu_imported: Path):
    infos = {info.name: info for info in task_infos(["ffe_detection", "ffe_generation", "ffe_translation"])}
    assert infos["ffe_detection"].samples == 800  # 200 fakes and 200 controls, each under two framings
    assert infos["ffe_generation"].samples == 200
    assert infos["ffe_translation"].samples is None and infos["ffe_translation"].needs == ["pairs"]
    assert infos["ffe_translation"].samples_note == "n/a: needs -T pairs=FILE"


def test_a_changed_stored_file_is_named_not_read(isolated_data_dir: Path):
    from figeval._registry import get_source
    from figeval.data.store import import_folder
    from tests.turkish_idioms.conftest import FIXTURES

    stored = import_folder(get_source("turkish-idioms"), FIXTURES)
    (stored / "idioms.tsv").write_text("changed\n", encoding="utf-8")
    [info] = task_infos(["tr_idiom_detection"])
    assert info.data == "sha256 mismatch" and info.samples is None and "does not match its pin" in info.samples_note


def test_choices_are_what_the_tasks_accept():
    from figeval.answering import AnswerMode

    for info in task_infos():
        for argument in info.arguments:
            if argument.choices is not None:
                assert argument.default in argument.choices, (info.name, argument.name)
        arguments = {argument.name: argument for argument in info.arguments}
        if "answer_mode" in arguments:
            assert arguments["answer_mode"].choices == [mode.value for mode in AnswerMode]
    # a value outside the listed choices is refused by the task itself
    with pytest.raises(FigevalError, match="judge_prompt must be one of"):
        make_task("ffe_generation", {"judge_prompt": "other"})


def test_every_benchmark_names_its_paper():
    for benchmark in BENCHMARKS:
        assert benchmark.title and benchmark.citation, benchmark.name


def test_named_tasks_and_an_unknown_one():
    listed = figeval("list", "perhallueval_qa", "--json")
    assert [task["name"] for task in json.loads(listed.stdout)["tasks"]] == ["perhallueval_qa"]
    assert_one_line_error(figeval("list", "nope"), "unknown task 'nope'", "ffe_detection")
