"""Logs and human labels given to commands (issue 24): a log scored by an earlier figeval release is refused with
the command that re-scores it (and that command works); every labels file, hand-label sheet and log is checked to
belong to the task and model it is applied to; stray files and unknown judges are one line, never a traceback;
a kill while a command writes leaves each file old or new, never half, and the command can be run again.

The runs are Turkish idiom detection on the test fixture (no shared data needed) with replayed answers: ten
answers, one unread (tr-idiom-004/figurative, "I am not sure."), accuracy 6/10 (tests/turkish_idioms).
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log, write_eval_log

from figeval.task import IDENTITY_KEY
from tests.command import assert_one_line_error, figeval
from tests.ffe_hallu.test_tasks import write_replay
from tests.metric_values import run_metrics
from tests.turkish_idioms.test_tasks import DETECTION_ANSWERS

IDIOM_FIXTURES = Path(__file__).parent / "turkish_idioms" / "fixtures"
UNREAD = "tr-idiom-004/figurative"  # "I am not sure.": no reader reads it


@pytest.fixture
def idioms(isolated_data_dir: Path) -> None:
    from figeval._registry import get_source
    from figeval.data.store import import_folder

    import_folder(get_source("turkish-idioms"), IDIOM_FIXTURES)


def idiom_run(tmp_path: Path, name: str = "answers", folder: str = "logs") -> Path:
    """tr_idiom_detection (balanced) on the fixture, answered from a replay file named `name` (the model is
    replay/<that file>, so two names are two models)."""
    from figeval.benchmarks.turkish_idioms.tasks import tr_idiom_detection

    replay = write_replay(tmp_path / f"{name}.jsonl", DETECTION_ANSWERS)
    [log] = inspect_eval(tr_idiom_detection(balanced=True), model=f"replay/{replay}", log_dir=str(tmp_path / folder),
                         display="none")
    assert log.status == "success", log.error
    return Path(log.location)


def as_earlier_format(log: Path, out: Path) -> Path:
    """The run as a figeval build before its log format wrote it: a header without the run's recorded identity."""
    old = read_eval_log(str(log))
    old.eval.metadata = {k: v for k, v in old.eval.metadata.items() if k != IDENTITY_KEY}
    out.parent.mkdir(parents=True, exist_ok=True)
    write_eval_log(old, str(out))
    return out


def labels_file(path: Path, rows: list[tuple[str, str, str, str]]) -> Path:
    """A labels file as `figeval annotate import` writes it, one annotator: rows of (task, model, sample, label)."""
    path.write_text("task,model,sample_id,label,resolution,ann1\n"
                    + "".join(f"{t},{m},{s},{label},single,{label}\n" for t, m, s, label in rows), encoding="utf-8")
    return path


def filled_unread_sheet(log: Path, sheet: Path, label: str, cwd: Path) -> Path:
    """`figeval annotate unread`'s sheet of a run, each row labelled `label` by a person."""
    assert figeval("annotate", "unread", str(log), "--out", str(sheet), cwd=cwd).returncode == 0
    rows = list(csv.DictReader(sheet.read_text(encoding="utf-8-sig").splitlines()))
    with sheet.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows([{**row, "label": label} for row in rows])
    return sheet


def error_line(result: subprocess.CompletedProcess) -> str:
    [line] = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    return line


# --- old logs ---------------------------------------------------------------------------------------------------


def test_a_log_of_an_earlier_format_is_refused_by_every_reader_in_one_line(idioms, tmp_path: Path):
    log = idiom_run(tmp_path)
    model = read_eval_log(str(log), header_only=True).eval.model
    old = as_earlier_format(log, tmp_path / "old" / "run.eval")
    labels = labels_file(tmp_path / "labels.csv", [("tr_idiom_detection", model, UNREAD, "yes")])
    sheet = filled_unread_sheet(log, tmp_path / "unread.csv", "yes", tmp_path)
    commands = [
        ["annotate", "export", str(old), "--out", str(tmp_path / "s.csv")],
        ["annotate", "compare", str(labels), str(old)],
        ["annotate", "unread", str(old), "--out", str(tmp_path / "u.csv")],
        ["annotate", "apply", str(old), str(sheet), "--out", str(tmp_path / "labelled.eval")],
        ["report", str(old.parent)],
    ]
    lines = []
    for command in commands:
        result = figeval(*command, cwd=tmp_path)
        assert_one_line_error(result, f"{old} was written by a figeval build earlier than its log format",
                              "run its task again with this release")
        lines.append(error_line(result))
    assert len(set(lines)) == 1  # one reader, one message
    assert not any((tmp_path / name).exists() for name in ("s.csv", "u.csv", "labelled.eval"))


# --- logs and labels that belong elsewhere ---------------------------------------------------------------------


def test_labels_of_another_task_or_model_are_refused_by_compare_rates_and_agreement(idioms, tmp_path: Path):
    log = idiom_run(tmp_path)
    other = idiom_run(tmp_path, name="other", folder="other-logs")
    model = read_eval_log(str(log), header_only=True).eval.model
    other_model = read_eval_log(str(other), header_only=True).eval.model
    ffe = labels_file(tmp_path / "ffe.csv", [("ffe_generation", model, "ffe-gen-001/human", "correct")])
    mine = labels_file(tmp_path / "labels.csv", [("tr_idiom_detection", model, UNREAD, "yes")])
    for command in (["annotate", "compare", str(ffe), str(log)], ["annotate", "rates", str(ffe), str(log)],
                    ["judge", "agreement", str(log), "--human", str(ffe)]):
        # the case: rates printed the people's rows only, as if the run were not given
        assert_one_line_error(figeval(*command, cwd=tmp_path),
                              f"{ffe} labels answers of ffe_generation, but the logs are runs of tr_idiom_detection",
                              f"(its models: {model})")
    for command in (["annotate", "compare", str(mine), str(log), str(other)],
                    ["annotate", "rates", str(mine), str(log), str(other)],
                    ["judge", "agreement", str(log), str(other), "--human", str(mine)]):
        assert_one_line_error(figeval(*command, cwd=tmp_path),
                              f"{other}: a run of {other_model}, but labels.csv labels answers of {model}")
    # a log dir's other runs are left out: the other model's run beside this one
    os.replace(other, log.parent / other.name)
    moved = log.parent / other.name
    note = f"note: {other_model} ({moved}): none of its answers is labelled in labels.csv; left out\n"
    for command in (["annotate", "compare", str(mine), str(log.parent)],
                    ["annotate", "rates", str(mine), str(log.parent)],
                    ["judge", "agreement", str(log.parent), "--human", str(mine)]):
        result = figeval(*command, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert result.stdout.count(note) == 1
    # compare: the rates, the note once, then the agreement (which `judge agreement` printed after the note)
    outputs = [figeval(*command, cwd=tmp_path).stdout for command in (
        ["annotate", "compare", str(mine), str(log.parent)], ["annotate", "rates", str(mine), str(log.parent)],
        ["judge", "agreement", str(log.parent), "--human", str(mine)])]
    assert outputs[0] == outputs[1] + "\n" + outputs[2].removeprefix(note)
    rates = figeval("annotate", "rates", str(mine), str(log.parent), cwd=tmp_path)
    assert [line.split()[:2] for line in rates.stdout.splitlines()[2:4]] == [
        ["answers", "humans"], ["answers", "run"]]  # the model as reports name it


def test_report_with_labels_of_runs_it_does_not_have_is_refused_and_other_runs_are_named(idioms, tmp_path: Path):
    log = idiom_run(tmp_path)
    model = read_eval_log(str(log), header_only=True).eval.model
    ffe = labels_file(tmp_path / "ffe.csv", [("ffe_generation", model, "ffe-gen-001/human", "correct")])
    assert_one_line_error(figeval("report", str(log.parent), "--human", str(ffe), cwd=tmp_path),
                          "ffe.csv labels answers of ffe_generation, but no log given is a run of ffe_generation")
    other = labels_file(tmp_path / "other.csv", [("tr_idiom_detection", "replay/elsewhere.jsonl", UNREAD, "yes")])
    assert_one_line_error(figeval("report", str(log.parent), "--human", str(other), cwd=tmp_path),
                          "other.csv labels answers of tr_idiom_detection, but the logs are runs of "
                          f"tr_idiom_detection on {model}", "(its models: replay/elsewhere.jsonl)")
    idiom_run(tmp_path, name="second")  # another model's run in the same log dir, not labelled
    mine = labels_file(tmp_path / "labels.csv", [("tr_idiom_detection", model, UNREAD, "yes")])
    report = figeval("report", str(log.parent), "--human", str(mine), cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert "second.jsonl" in report.stdout
    assert "none of its answers is labelled in labels.csv; left out" in report.stdout


def test_hand_labels_of_another_run_are_refused_not_ignored(idioms, tmp_path: Path):
    log = idiom_run(tmp_path)
    other = idiom_run(tmp_path, name="other", folder="other-logs")
    sheet = filled_unread_sheet(log, tmp_path / "unread.csv", "yes", tmp_path)
    other_sheet = filled_unread_sheet(other, tmp_path / "other.csv", "no", tmp_path)
    both = tmp_path / "both.csv"
    both.write_text(sheet.read_text(encoding="utf-8-sig")
                    + other_sheet.read_text(encoding="utf-8-sig").split("\n", 1)[1], encoding="utf-8")
    # one row of this run, one of the other model's: the other would have been ignored without a word
    result = figeval("annotate", "apply", str(log), str(both), "--out", str(tmp_path / "l.eval"),
                     cwd=tmp_path)
    # the header is row 1, this run's row 2, the other run's row 3
    assert_one_line_error(result, "both.csv, row 3: 1 labelled row(s) are answers of another run than "
                                  "tr_idiom_detection",
                          f"sample {UNREAD} of tr_idiom_detection on replay/{tmp_path / 'other.jsonl'}")
    assert not (tmp_path / "l.eval").exists()


def same_model_run(tmp_path: Path, folder: str, unread_answer: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tr_idiom_detection answered from `folder`/answers.jsonl, run from inside `folder`: the model is
    replay/answers.jsonl whichever the folder, so two folders' runs are two runs of one model name; they differ
    only in the unread answer."""
    from figeval.benchmarks.turkish_idioms.tasks import tr_idiom_detection

    (tmp_path / folder).mkdir()
    write_replay(tmp_path / folder / "answers.jsonl", {**DETECTION_ANSWERS, UNREAD: unread_answer})
    with monkeypatch.context() as patch:
        patch.chdir(tmp_path / folder)
        [log] = inspect_eval(tr_idiom_detection(balanced=True), model="replay/answers.jsonl",
                             log_dir=str(tmp_path / folder / "logs"), display="none")
    assert log.status == "success", log.error
    return Path(log.location)


def labelled_sheet(log: Path, sheet: Path, label: str, cwd: Path) -> Path:
    """`figeval annotate export`'s sheet of a run, every row labelled `label`."""
    assert figeval("annotate", "export", str(log), "--out", str(sheet), cwd=cwd).returncode == 0
    with sheet.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    with sheet.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows([{**row, "label": label} for row in rows])
    return sheet


def test_labels_of_one_run_are_refused_for_another_run_of_the_same_model_whose_answers_differ(
        idioms, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The reviewer's case: labels were matched by (task, model, sample id) only, so the second run's judge agreement
    printed kappa 1.000 over answers nobody labelled."""
    first = same_model_run(tmp_path, "first", "I am not sure.", monkeypatch)
    second = same_model_run(tmp_path, "second", "I cannot tell.", monkeypatch)
    sheet = labelled_sheet(first, tmp_path / "sheet.csv", "yes", tmp_path)
    labels = tmp_path / "labels.csv"
    assert figeval("annotate", "import", str(sheet), "--out", str(labels), cwd=tmp_path).returncode == 0
    [row] = list(csv.DictReader(labels.read_text(encoding="utf-8-sig").splitlines()))
    # the one exported answer (the unread one, as the model wrote it): sha256 of its UTF-8 text, 16 hex digits
    assert row["answer_sha256"] == hashlib.sha256(b"I am not sure.").hexdigest()[:16]
    refused = f"{labels}: sample {UNREAD} was labelled for another answer than the one in {second}"
    for command in (["judge", "agreement", str(second), "--human", str(labels)],
                    ["annotate", "rates", str(labels), str(second)],
                    ["report", str(second.parent), "--human", str(labels)]):  # the folder holds only the second run
        assert_one_line_error(figeval(*command, cwd=tmp_path), refused,
                              "(another run of replay/answers.jsonl)", "`figeval annotate export`")
    # the labelled run itself is accepted
    agreement = figeval("judge", "agreement", str(first), "--human", str(labels), cwd=tmp_path)
    assert agreement.returncode == 0, agreement.stderr
    # both runs in one folder: the labelled one is used, the other left out and named
    os.replace(second, first.parent / second.name)
    together = figeval("annotate", "rates", str(labels), str(first.parent), cwd=tmp_path)
    assert together.returncode == 0, together.stderr
    assert (f"note: replay/answers.jsonl ({first.parent / second.name}): none of its answers is labelled"
            in together.stdout)
    # a labels file written before the digest column is read as before, without the check
    old = labels_file(tmp_path / "old.csv", [("tr_idiom_detection", "replay/answers.jsonl", UNREAD, "yes")])
    unchecked = figeval("judge", "agreement", str(first.parent / second.name), "--human", str(old),
                        cwd=tmp_path)
    assert unchecked.returncode == 0, unchecked.stderr


def test_sheets_of_two_runs_of_one_model_are_not_combined(idioms, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    first = same_model_run(tmp_path, "first", "I am not sure.", monkeypatch)
    second = same_model_run(tmp_path, "second", "I cannot tell.", monkeypatch)
    alice = labelled_sheet(first, tmp_path / "alice.csv", "yes", tmp_path)
    bob = labelled_sheet(second, tmp_path / "bob.csv", "yes", tmp_path)
    # same rows, same labels: only the answers shown differ, so the two people did not label the same answer
    result = figeval("annotate", "import", str(alice), str(bob), "--out", str(tmp_path / "l.csv"),
                     cwd=tmp_path)
    assert_one_line_error(result, f"{alice} and {bob} show different answers for sample '{UNREAD}' of "
                                  "replay/answers.jsonl", "import the sheets exported from one run")
    assert not (tmp_path / "l.csv").exists()


def test_hand_labels_of_another_run_of_the_same_model_are_refused(idioms, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch):
    first = same_model_run(tmp_path, "first", "I am not sure.", monkeypatch)
    second = same_model_run(tmp_path, "second", "I cannot tell.", monkeypatch)
    sheet = filled_unread_sheet(first, tmp_path / "unread.csv", "yes", tmp_path)
    result = figeval("annotate", "apply", str(second), str(sheet), "--out", str(tmp_path / "l.eval"),
                     cwd=tmp_path)
    assert_one_line_error(result, f"{sheet}, row 2: sample {UNREAD} was labelled for another answer than the one in "
                                  f"{second}",
                          "`figeval annotate unread`")
    assert not (tmp_path / "l.eval").exists()
    # the run it was written for takes it: its one unread answer labelled
    applied = figeval("annotate", "apply", str(first), str(sheet), "--out", str(tmp_path / "l.eval"),
                      cwd=tmp_path)
    assert applied.returncode == 0 and "1 answers labelled by hand, 0 still unread" in applied.stdout
    folder = figeval("annotate", "apply", str(first), str(tmp_path / "first"), "--out",
                     str(tmp_path / "m.eval"), cwd=tmp_path)
    assert_one_line_error(folder, f"{tmp_path / 'first'}: a folder, not a sheet")


def test_a_labels_file_of_another_run_is_refused_by_apply(idioms, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """`annotate apply` read a labels file of `annotate import` (its columns are a sheet's) and applied every label
    to the run's answers, whatever answers its people had labelled (accuracy 0.000 became 0.273, no warning)."""
    first = same_model_run(tmp_path, "first", "I am not sure.", monkeypatch)
    second = same_model_run(tmp_path, "second", "I cannot tell.", monkeypatch)
    sheet = labelled_sheet(first, tmp_path / "sheet.csv", "yes", tmp_path)
    labels = tmp_path / "labels.csv"
    assert figeval("annotate", "import", str(sheet), "--out", str(labels), cwd=tmp_path).returncode == 0
    result = figeval("annotate", "apply", str(second), str(labels), "--out", str(tmp_path / "l.eval"), cwd=tmp_path)
    assert_one_line_error(result, f"{labels}, row 2: sample {UNREAD} was labelled for another answer than the one in "
                                  f"{second}")
    assert not (tmp_path / "l.eval").exists()
    # the run whose answer its person labelled takes it (the digest is of that answer)
    applied = figeval("annotate", "apply", str(first), str(labels), "--out", str(tmp_path / "l.eval"), cwd=tmp_path)
    assert applied.returncode == 0 and "1 answers labelled by hand, 0 still unread" in applied.stdout
    # a labels file written before the digest column says nothing of the answer: refused, not applied blind
    old = labels_file(tmp_path / "old.csv", [("tr_idiom_detection", "replay/answers.jsonl", UNREAD, "yes")])
    blind = figeval("annotate", "apply", str(second), str(old), "--out", str(tmp_path / "m.eval"), cwd=tmp_path)
    assert_one_line_error(blind, f"{old}, row 2: sample {UNREAD} has a label but no answer")


def test_manual_labels_of_another_model_are_refused_before_the_run(idioms, tmp_path: Path):
    labels = labels_file(tmp_path / "labels.csv", [("tr_idiom_detection", "replay/elsewhere.jsonl", UNREAD, "yes")])
    replay = write_replay(tmp_path / "answers.jsonl", DETECTION_ANSWERS)
    result = figeval("run", "tr_idiom_detection", "--model", f"replay/{replay}", "-T",
                     f"manual_labels={labels}", "--log-dir", str(tmp_path / "logs"), cwd=tmp_path)
    assert_one_line_error(result, f"-T manual_labels={labels}: its labels are of replay/elsewhere.jsonl, not of "
                                  f"replay/{replay}")
    assert not (tmp_path / "logs").exists()


def test_manual_labels_of_another_run_s_answers_are_refused_or_named_row_by_row(idioms, tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", DETECTION_ANSWERS)
    model = f"replay/{replay}"
    run = ["run", "tr_idiom_detection", "-T", "balanced=true", "--model", model, "--log-dir", str(tmp_path / "logs")]
    # row 3 labels a sample this task does not ask (another dataset's, or another run's settings): refused
    labels = tmp_path / "labels.csv"
    labels.write_text("task,model,sample_id,label,resolution,answer_sha256,ann1\n"
                      f"tr_idiom_detection,{model},{UNREAD},yes,single,,yes\n"
                      f"tr_idiom_detection,{model},tr-idiom-099/figurative,yes,single,,yes\n", encoding="utf-8")
    assert_one_line_error(figeval(*run, "-T", f"manual_labels={labels}", cwd=tmp_path),
                          f"-T manual_labels={labels}, row 3: sample tr-idiom-099/figurative (of {model}) is not a "
                          "sample tr_idiom_detection asks", "`figeval annotate export` of its log")
    assert not (tmp_path / "logs").exists()
    # row 2 labels the unread sample, but an answer other than this run's "I am not sure.": known only once the
    # model has answered, so the run says so for that row, and the answer stays unread (accuracy 6/10)
    other = tmp_path / "other.csv"
    other.write_text("task,model,sample_id,label,resolution,answer_sha256,ann1\n"
                     f"tr_idiom_detection,{model},{UNREAD},yes,single,{'0' * 64},yes\n", encoding="utf-8")
    result = figeval(*run, "-T", f"manual_labels={other}", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (f"note: -T manual_labels={other}, row 2: the hand label of sample {UNREAD} is for another answer than "
            "this run's, so it is not applied") in result.stderr
    assert "Detection                  0.600" in result.stdout


# --- stray files and unknown judges: one line ------------------------------------------------------------------


@pytest.mark.parametrize("stray, data, expected", [
    ("broken.eval", b"not a zip", "broken.eval is not an Inspect log (ValueError"),
    ("2026-01-01T00-00-00_results.json", b"{}", "2026-01-01T00-00-00_results.json is not an Inspect log"),
    pytest.param("private.eval", None, "private.eval: cannot be read (Permission denied)",
                 marks=pytest.mark.skipif(os.geteuid() == 0, reason="root reads a chmod 000 file")),
])
def test_a_log_folder_with_a_file_that_is_not_a_readable_log_is_one_line(idioms, tmp_path: Path, stray: str,
                                                                        data: bytes | None, expected: str):
    log = idiom_run(tmp_path)
    model = read_eval_log(str(log), header_only=True).eval.model
    if data is None:  # a log nobody may read
        (log.parent / stray).write_bytes(log.read_bytes())
        (log.parent / stray).chmod(0)
    else:
        (log.parent / stray).write_bytes(data)
    (log.parent / "notes.txt").write_text("not listed as a log")
    labels = labels_file(tmp_path / "labels.csv", [("tr_idiom_detection", model, UNREAD, "yes")])
    for command in (["annotate", "export", str(log.parent), "--out", str(tmp_path / "s.csv")],
                    ["annotate", "rates", str(labels), str(log.parent)],
                    ["judge", "agreement", str(log.parent), "--human", str(labels)],
                    ["report", str(log.parent)]):
        assert_one_line_error(figeval(*command, cwd=tmp_path), expected)


@pytest.mark.parametrize("given, expected", [
    (["-T", "judge=nosuch/x"], "-T judge=nosuch/x: unknown provider 'nosuch'"),
    (["--model-role", "grader=nosuch/x"], "--model-role grader=nosuch/x: unknown provider 'nosuch'"),
    (["--model-role", "grader={model: nosuch/y, temperature: 0}"], "--model-role grader=nosuch/y: unknown provider"),
    (["--model-role", "grader=mockllm/model,nosuch/z"], "--model-role grader=nosuch/z: unknown provider"),
])
def test_an_unknown_judge_provider_is_refused_before_the_log_is_started(ffe_hallu_imported: Path, tmp_path: Path,
                                                                        given: list[str], expected: str):
    replay = write_replay(tmp_path / "answers.jsonl", {"ffe-gen-001/human": "به بار اوردن"})
    result = figeval("run", "ffe_generation", "--model", f"replay/{replay}", *given, "--limit", "1",
                     "--log-dir", str(tmp_path / "logs"), cwd=tmp_path)
    assert_one_line_error(result, expected)
    assert not (tmp_path / "logs").exists()  # nothing started


def test_an_unknown_provider_for_any_role_is_refused_before_the_log_is_started(idioms, tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", DETECTION_ANSWERS)
    result = figeval("run", "tr_idiom_detection", "--model", f"replay/{replay}", "--model-role",
                     "extractor=nosuch/x", "--log-dir", str(tmp_path / "logs"), cwd=tmp_path)
    assert_one_line_error(result, "--model-role extractor=nosuch/x: unknown provider 'nosuch'")
    assert not (tmp_path / "logs").exists()


# --- kill -9 while writing, and running the command again ------------------------------------------------------

# A figeval command in a process of its own, `patch` applied first; the patch touches MARKER where the test
# wants the process killed, then waits there.
KILLED = """
import os, sys, time
from pathlib import Path
MARKER = Path(sys.argv[1])
{patch}
from figeval.cli import main
sys.argv = ["figeval", *sys.argv[2:]]
main()
"""


def killed_mid_write(cwd: Path, patch: str, *args: str) -> None:
    """Runs `figeval ARGS` with `patch` and kills it with SIGKILL at the patch's marker (no clean-up runs)."""
    marker = cwd / "writing"
    process = subprocess.Popen([sys.executable, "-c", KILLED.format(patch=patch), str(marker), *args], cwd=cwd,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    deadline = time.monotonic() + 120
    while not marker.exists():
        if process.poll() is not None:
            pytest.fail(f"the command ended before the write: {process.communicate()}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("the command never reached the write")
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.communicate()
    assert process.returncode == -signal.SIGKILL


def test_export_to_label_studio_killed_between_its_two_files_leaves_each_whole_and_runs_again(idioms, tmp_path: Path):
    """Label Studio export writes the tasks (.json) and their labelling config (.xml): a kill after the first
    leaves the new tasks and the old config, each whole; running the export again writes both."""
    log = idiom_run(tmp_path)
    tasks, config = tmp_path / "tasks.json", tmp_path / "tasks.xml"
    tasks.write_text("old tasks")
    config.write_text("old config")
    # killed when the config, complete under its temporary name, is about to replace the old one
    patch = """
real = os.replace
def replace(source, target):
    if str(target).endswith(".xml"):
        MARKER.touch()
        time.sleep(600)
    real(source, target)
os.replace = replace
"""
    killed_mid_write(tmp_path, patch, "annotate", "export", str(log), "--out", str(tasks), "--format", "labelstudio")
    # the one unread answer (004/figurative) is the one task
    assert [task["data"]["sample_id"] for task in json.loads(tasks.read_text(encoding="utf-8"))] == [UNREAD]
    assert config.read_text() == "old config"
    again = figeval("annotate", "export", str(log), "--out", str(tasks), "--format", "labelstudio",
                    cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert config.read_text(encoding="utf-8").startswith("<View>")


def test_apply_killed_while_writing_the_labelled_log_leaves_no_log_and_runs_again(idioms, tmp_path: Path):
    """A kill half-way through writing the labelled run leaves no file at --out (a half log there would be
    refused as 'exists' by the next run, and as 'not an Inspect log' by every reader)."""
    log = idiom_run(tmp_path)
    sheet = filled_unread_sheet(log, tmp_path / "unread.csv", "yes", tmp_path)
    out = tmp_path / "labelled.eval"
    # the log's bytes cut in half where figeval writes them, then killed
    patch = """
import figeval.annotation.hand_labels as hand_labels
real = hand_labels.write_eval_log
def cut(log, location, format="auto"):
    real(log, location, format=format)
    data = Path(location).read_bytes()
    Path(location).write_bytes(data[: len(data) // 2])
    MARKER.touch()
    time.sleep(600)
hand_labels.write_eval_log = cut
"""
    killed_mid_write(tmp_path, patch, "annotate", "apply", str(log), str(sheet), "--out", str(out))
    assert not out.exists()
    again = figeval("annotate", "apply", str(log), str(sheet), "--out", str(out), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    # 004/figurative labelled yes by hand, and its target is yes (the figurative sentence): 7/10
    assert run_metrics(read_eval_log(str(out)))["accuracy"] == pytest.approx(0.7)


def test_every_other_file_annotate_writes_is_renamed_into_place_whole(idioms, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch):
    """The one-file writers (export to CSV and its instructions, unread, import) write through figeval.output's
    temporary file and rename, too quick to be killed in the middle: each output arrives by one rename of a
    complete file."""
    log = idiom_run(tmp_path)
    renamed: list[tuple[str, bytes]] = []
    real = os.replace

    def replace(source, target):
        renamed.append((Path(target).name, Path(source).read_bytes()))
        real(source, target)

    monkeypatch.setattr(os, "replace", replace)
    sheet = tmp_path / "sheet.csv"
    for command in (["annotate", "export", str(log), "--out", str(sheet)],
                    ["annotate", "unread", str(log), "--out", str(tmp_path / "unread.csv")]):
        assert figeval(*command, cwd=tmp_path).returncode == 0
    lines = sheet.read_text(encoding="utf-8-sig").splitlines()
    filled = tmp_path / "filled.csv"
    filled.write_text("\n".join(lines[:-1] + [lines[-1] + "yes"]) + "\n", encoding="utf-8")  # the empty label cell
    assert figeval("annotate", "import", str(filled), "--out", str(tmp_path / "l.csv"),
                   cwd=tmp_path).returncode == 0
    assert [(name, data) for name, data in renamed] == [
        ("sheet.csv", sheet.read_bytes()),
        ("sheet.instructions.txt", (tmp_path / "sheet.instructions.txt").read_bytes()),
        ("unread.csv", (tmp_path / "unread.csv").read_bytes()),
        ("l.csv", (tmp_path / "l.csv").read_bytes())]


def test_apply_refuses_a_labels_file_whose_resolved_label_no_annotator_gave(idioms, tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch):
    run = same_model_run(tmp_path, "first", "I am not sure.", monkeypatch)
    sheet = labelled_sheet(run, tmp_path / "sheet.csv", "yes", tmp_path)
    labels = tmp_path / "labels.csv"
    assert figeval("annotate", "import", str(sheet), "--out", str(labels), cwd=tmp_path).returncode == 0
    # the one answer's annotator said yes; its resolved label edited to no (the header is row 1)
    text = labels.read_text(encoding="utf-8-sig")
    labels.write_text(text.replace(",yes,single,", ",no,single,"), encoding="utf-8-sig")
    assert labels.read_text(encoding="utf-8-sig") != text
    out = tmp_path / "l.eval"
    result = figeval("annotate", "apply", str(run), str(labels), "--out", str(out), cwd=tmp_path)
    assert_one_line_error(result, f"labels.csv: row 2 (sample '{UNREAD}' of replay/answers.jsonl) has resolved "
                                  "label 'no', which none of its annotators gave (sheet yes)")
    assert not out.exists()
