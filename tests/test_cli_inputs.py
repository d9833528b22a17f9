"""Inputs given twice, or given to no use, and paths in the commands figeval prints (issue 24): the same log
named twice (or a copy of it) is one run; a cancelled Label Studio annotation is no label; a labels file given
twice to report, a model role bound twice or never asked are refused in one line; printed commands quote paths;
`figeval list` with a data dir that is a file says so.

The runs are Turkish idiom detection on the test fixture with replayed answers (tests/test_logs_and_labels.py):
ten answers, one of them unread (UNREAD), which is the only answer `annotate export` puts on a sheet (the task's
annotation spec exports unparsed answers).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from inspect_ai.log import read_eval_log

from figeval._registry import annotation_spec
from figeval.annotation.sheets import read_annotators
from figeval.errors import DataError
from tests.command import assert_one_line_error, figeval
from tests.test_logs_and_labels import UNREAD, filled_unread_sheet, idiom_run, idioms, labels_file  # noqa: F401

ONE_ANSWER = "1 unparsed answers to label by hand written to"  # the run's one unread answer, once


# --- 1. a log given twice is read once; a copy of a run is counted once ------------------------------------


@pytest.mark.usefixtures("idioms")
def test_the_same_log_named_twice_is_exported_once(tmp_path: Path):
    log = idiom_run(tmp_path)
    folder = log.parent
    # the log twice; the folder and the folder spelled ./logs/; the folder and a log inside it
    for given in ([str(log), str(log)], ["logs", "./logs/"], [str(folder), str(log)]):
        out = tmp_path / "sheet.csv"
        out.unlink(missing_ok=True)
        result = figeval("annotate", "export", *given, "--out", str(out), cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert ONE_ANSWER in result.stdout, given  # was "2 unparsed answers" before
        assert "note:" not in result.stdout  # the same file: collapsed without a word


@pytest.mark.usefixtures("idioms")
def test_a_copy_of_a_run_is_counted_once_with_a_note(tmp_path: Path):
    log = idiom_run(tmp_path)
    copy = log.parent / "copy.eval"
    shutil.copyfile(log, copy)
    result = figeval("annotate", "export", str(log.parent), "--out", str(tmp_path / "s.csv"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert ONE_ANSWER in result.stdout
    eval_id = read_eval_log(str(log), header_only=True).eval.eval_id
    [note] = [line for line in result.stdout.splitlines() if line.startswith("note:")]
    assert "is a copy of" in note and f"(the same run, Inspect eval id {eval_id}): counted once." in note
    # annotate rates: one "run" row beside the people's, not one per copy
    model = read_eval_log(str(log), header_only=True).eval.model
    labels = labels_file(tmp_path / "labels.csv", [("tr_idiom_detection", model, UNREAD, "yes")])
    rates = figeval("annotate", "rates", str(labels), str(log), str(copy), cwd=tmp_path)
    assert rates.returncode == 0, rates.stderr
    table = [line for line in rates.stdout.splitlines() if not line.startswith("note:")][2:]  # title, header
    assert [line.split()[:2] for line in table] == [["answers", "humans"],
                                                    ["answers", "run"]]  # the model as reports name it
    assert sum(line.startswith("note:") and "is a copy of" in line for line in rates.stdout.splitlines()) == 1
    # report: the copy was shown as a run "replaced by a newer run with the same settings"
    report = figeval("report", str(log.parent), cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert "replaced by a newer run" not in report.stdout
    assert "is a copy of" in report.stderr and "counted once" in report.stderr  # stderr: stdout stays the report


@pytest.mark.usefixtures("idioms")
def test_one_run_in_two_files_with_different_scores_is_refused(tmp_path: Path):
    log = idiom_run(tmp_path)
    sheet = filled_unread_sheet(log, tmp_path / "unread.csv", "yes", tmp_path)
    labelled = log.parent / "labelled.eval"  # the same run (eval id) with the unread answer labelled by hand
    assert figeval("annotate", "apply", str(log), str(sheet), "--out", str(labelled),
                   cwd=tmp_path).returncode == 0
    for command in (["annotate", "export", str(log.parent), "--out", str(tmp_path / "s.csv")],
                    ["report", str(log.parent)]):
        assert_one_line_error(figeval(*command, cwd=tmp_path), "are the same run (Inspect eval id",
                              "with different contents", "give only the one to count")


# --- 2. Label Studio: a cancelled annotation is no label; one without a choice is named as Label Studio does --


def label_studio_export(path: Path, second: dict) -> Path:
    """Two tasks of ffe_generation (ids 7 and 8), annotated by a@lab; the second task also by `second`."""
    tasks = [{"id": 7, "data": {"task": "ffe_generation", "model": "m", "sample_id": "ffe-gen-001/human"},
              "annotations": [{"completed_by": {"id": 1, "email": "a@lab"}, "was_cancelled": False,
                               "result": [{"value": {"choices": ["correct"]}}]}]},
             {"id": 8, "data": {"task": "ffe_generation", "model": "m", "sample_id": "ffe-gen-003/human"},
              "annotations": [{"completed_by": {"id": 1, "email": "a@lab"},
                               "result": [{"value": {"choices": ["incorrect"]}}]}, second]}]
    path.write_text(json.dumps(tasks), encoding="utf-8")
    return path


def test_a_cancelled_label_studio_annotation_is_left_out(tmp_path: Path):
    # annotator 2 skipped task 8 (Label Studio's Skip: was_cancelled true, no result): only a@lab's labels remain
    export = label_studio_export(tmp_path / "p.json", {"completed_by": 2, "was_cancelled": True, "result": []})
    task, by_annotator = read_annotators(export, annotation_spec)
    assert task == "ffe_generation" and list(by_annotator) == ["a@lab"]
    assert sorted(by_annotator["a@lab"]) == [("m", "ffe-gen-001/human"), ("m", "ffe-gen-003/human")]


def test_a_label_studio_annotation_without_a_choice_is_named_in_label_studio_terms(tmp_path: Path):
    export = label_studio_export(tmp_path / "p.json", {"completed_by": 2, "result": []})
    with pytest.raises(DataError) as raised:
        read_annotators(export, annotation_spec)
    assert str(raised.value) == ("p.json: task 8 (number 2 in the export, sample 'ffe-gen-003/human' of m), "
                                 "annotation by 2 has no choice; choose the label in Label Studio (or skip the task "
                                 "there, which figeval leaves out) and export the project again.")
    result = figeval("annotate", "import", str(export), "--out", str(tmp_path / "l.csv"), cwd=tmp_path)
    assert_one_line_error(result, "task 8", "annotation by 2 has no choice")
    assert "label every row" not in result.stderr  # the CSV sheet's wording


# --- 3. an option given twice, or to no use -----------------------------------------------------------------


@pytest.mark.usefixtures("idioms")
def test_report_refuses_a_labels_file_given_twice(tmp_path: Path):
    log = idiom_run(tmp_path)
    model = read_eval_log(str(log), header_only=True).eval.model
    labels = labels_file(tmp_path / "labels.csv", [("tr_idiom_detection", model, UNREAD, "yes")])
    assert_one_line_error(figeval("report", "logs", "--human", "labels.csv", "--human", str(labels),
                                  cwd=tmp_path),
                          f"--human {labels} is given twice (also as labels.csv); give each labels file once.")
    shutil.copyfile(labels, tmp_path / "again.csv")
    assert_one_line_error(figeval("report", "logs", "--human", "labels.csv", "--human", "again.csv",
                                  cwd=tmp_path),
                          "--human labels.csv and --human again.csv have the same content")


@pytest.mark.usefixtures("idioms")
def test_run_refuses_a_role_bound_twice_or_never_asked(tmp_path: Path):
    run = ("run", "tr_idiom_detection", "--model", "mockllm/model", "--log-dir", str(tmp_path / "logs"))
    assert_one_line_error(figeval(*run, "--model-role", "extractor=mockllm/a", "--model-role",
                                  "extractor=mockllm/b", cwd=tmp_path),
                          "--model-role extractor= is given 2 times; bind each role once")
    # tr_idiom_detection has no judge argument: its scorer asks the extractor, never a grader
    assert_one_line_error(figeval(*run, "--model-role", "grader=mockllm/model", cwd=tmp_path),
                          "--model-role grader= is not used: tr_idiom_detection asks only the role extractor; leave "
                          "it out or bind extractor.")
    assert not (tmp_path / "logs").exists()  # refused before the log was started


def test_run_refuses_a_grader_beside_a_judge_argument(ffe_hallu_imported: Path, tmp_path: Path):
    result = figeval("run", "ffe_generation", "--model", "mockllm/model", "-T", "judge=mockllm/j",
                     "--model-role", "grader=mockllm/g", "--log-dir", str(tmp_path / "logs"), cwd=tmp_path)
    assert_one_line_error(result, "--model-role grader= is not used: -T judge=mockllm/j is ffe_generation's judge")


def test_run_refuses_a_role_config_inspect_would_refuse_with_a_traceback(ffe_hallu_imported: Path, tmp_path: Path):
    run = ("run", "ffe_generation", "--model", "mockllm/model", "--log-dir", str(tmp_path / "logs"))
    # `args` is not how a role's model takes its own arguments: Inspect reads `model_args`, and raised a
    # ValueError traceback once the run's tasks were built
    assert_one_line_error(figeval(*run, "--model-role", "grader={model: mockllm/g, args: {n_ctx: 8192}}",
                                  cwd=tmp_path),
                          "--model-role grader={model: mockllm/g, args: {n_ctx: 8192}}: args is not a setting of a "
                          "model role; give the model's own arguments (-M's) as model_args: {...}")
    assert_one_line_error(figeval(*run, "--model-role", "grader={model: mockllm/g, model_args: 8192}", cwd=tmp_path),
                          "model_args must be name: value pairs")
    assert not (tmp_path / "logs").exists()


# --- 4. printed commands quote paths -------------------------------------------------------------------------


def test_printed_commands_quote_paths_with_spaces():
    from figeval.cli.run.summary import unfinished_run_message
    from figeval.results.runs import RunSummary
    from figeval.results.summary import unread_warning

    message = unfinished_run_message(SimpleNamespace(status="cancelled", error=None), "my logs/x.eval", "my logs")
    assert message.endswith("resume with `inspect eval-retry --log-dir 'my logs' 'my logs/x.eval'`.")
    run = RunSummary("t", "m", 10, {"read/unread": 0.5}, "success", "file://my logs/x.eval")
    warning = unread_warning(run)
    assert "`figeval annotate unread 'my logs/x.eval' --out unread.csv`" in warning
    assert "`figeval annotate apply 'my logs/x.eval' unread.csv --out labelled.eval`" in warning


@pytest.mark.usefixtures("idioms")
def test_annotate_unread_prints_a_pasteable_apply_command(tmp_path: Path):
    log = idiom_run(tmp_path, folder="my logs")
    result = figeval("annotate", "unread", str(log), "--out", "un read.csv", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"`figeval annotate apply '{log}' 'un read.csv' --out LABELLED.eval`" in result.stdout


# --- 5. the data dir is a file ---------------------------------------------------------------------------------


def test_list_with_a_data_dir_that_is_a_file_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    data = tmp_path / "data"
    data.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("FIGEVAL_DATA_DIR", str(data))
    for command in (["list"], ["list", "--json"], ["data", "list"]):
        assert_one_line_error(figeval(*command, cwd=tmp_path),
                              f"the data dir {data} is a file, not a folder; move it away or set FIGEVAL_DATA_DIR")
