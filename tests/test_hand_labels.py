"""Unread answers labelled by hand: the sheet of a run's unread answers, and the run with the labels applied as
a new log whose metrics equal those derived by hand."""

import csv
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log

from figeval.benchmarks.perhallueval.tasks import perhallueval_qa
from figeval.errors import DataError
from figeval.annotation.hand_labels import apply_hand_labels, read_hand_labels, unread_answers
from tests.command import assert_one_line_error, figeval
from tests.ffe_hallu.test_tasks import write_replay
from tests.metric_values import run_metrics

FIXTURE = Path(__file__).parent / "perhallueval" / "fixtures" / "final_qa.csv"


@pytest.fixture
def run_with_unread_answers(tmp_path: Path) -> Path:
    replay = write_replay(tmp_path / "answers.jsonl", {
        "phe-qa-q1/correct": "Y", "phe-qa-q1/hallucinated": "N",
        "phe-qa-q2/correct": "It depends on what one means by the capital.",  # unread; a person reads... Y
        "phe-qa-q2/hallucinated": {"output": "<think>The answer says 1350, the text", "stop_reason": "max_tokens"},
        "phe-qa-q3/correct": "Y", "phe-qa-q3/hallucinated": "Y",
    })
    [log] = inspect_eval(perhallueval_qa(data=str(FIXTURE)), model=f"replay/{replay}", limit=6,
                         log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    return Path(log.location)


def test_unread_answers_are_labelled_by_hand_into_a_new_log(run_with_unread_answers: Path, tmp_path: Path):
    log = run_with_unread_answers
    before = run_metrics(read_eval_log(str(log)))
    # factual: Y on q1, q3 of 3 (q2 unread) = 2/3; hallucinated: N on q1 of 3 (q2 truncated, q3 fooled) = 1/3
    assert (before["factual_recall"], before["hallucinated_recall"]) == (pytest.approx(2 / 3), pytest.approx(1 / 3))
    sheet, out = tmp_path / "unread.csv", tmp_path / "labelled.eval"
    exported = figeval("annotate", "unread", str(log), "--out", str(sheet), cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    assert "2 unread answers of perhallueval_qa" in exported.stdout
    rows = list(csv.DictReader(sheet.read_text(encoding="utf-8-sig").splitlines()))
    assert [(r["sample_id"], r["read"], r["labels"]) for r in rows] == [("phe-qa-q2/correct", "unread", "Y | N"),
                                                                         ("phe-qa-q2/hallucinated", "unread", "Y | N")]
    rows[0]["label"], rows[1]["label"] = "y", "N"  # a person's reading; any case
    with sheet.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    # in a process of its own, as a user runs it (Inspect recomputes the metrics from figeval's registered ones)
    applied = figeval("annotate", "apply", str(log), str(sheet), "--out", str(out), cwd=tmp_path)
    assert applied.returncode == 0, applied.stderr
    assert "2 answers labelled by hand, 0 still unread" in applied.stdout
    # the new log's summary as a run's, in its benchmark's units: factual recall 3/3 in percent, Wilson [43.9, 100]
    assert "  Factual Recall            100.0 [43.9, 100.0] (n=3), higher is better\n" in applied.stdout
    labelled = read_eval_log(str(out))
    after = run_metrics(labelled)
    # by hand: factual Y on q1, q2, q3 = 3/3; hallucinated N on q1, q2 of 3 = 2/3; Hamming (1 + 1 + 1/2) / 3
    assert after["factual_recall"] == pytest.approx(1.0)
    assert after["hallucinated_recall"] == pytest.approx(2 / 3)
    assert after["hamming_score"] == pytest.approx(2.5 / 3)
    assert after["unparsed_rate"] == 0.0
    metrics = {name: m.value for s in labelled.results.scores for name, m in s.metrics.items()}
    assert metrics["read/manual"] == pytest.approx(2 / 6)
    score = next(s for s in labelled.samples if s.id == "phe-qa-q2/correct").scores["perhallueval_scorer"]
    assert score.metadata["decided_by"] == "manual" and score.metadata["read_by"] == "manual"
    assert score.history  # the unread outcome stays in the score's history
    # the old log is left as it was, and the new one is never written over it or over another file
    assert run_metrics(read_eval_log(str(log))) == before
    again = figeval("annotate", "apply", str(log), str(sheet), "--out", str(out), cwd=tmp_path)
    assert again.returncode == 2 and "exists; choose a new name" in again.stderr
    same = figeval("annotate", "apply", str(log), str(sheet), "--out", str(log), cwd=tmp_path)
    assert same.returncode == 2 and "is one of the command's inputs" in same.stderr


def test_a_label_the_task_does_not_have_is_refused_with_the_labels_it_has(run_with_unread_answers: Path,
                                                                         tmp_path: Path):
    run = read_eval_log(str(run_with_unread_answers))
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("task,model,sample_id,read,labels,input,output,label\n"
                     f"perhallueval_qa,{run.eval.model},phe-qa-q2/correct,unread,Y | N,,"
                     "It depends on what one means by the capital.,faithful\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"sample phe-qa-q2/correct: label 'faithful' is not one of \['Y', 'N'\]"):
        apply_hand_labels(run, read_hand_labels(sheet), sheet)
    sheet.write_text("task,model,sample_id,read,labels,input,output,label\n"
                     f"perhallueval_qa,{run.eval.model},phe-qa-q1/correct,read,Y | N,,,N\n", encoding="utf-8")
    with pytest.raises(DataError, match="row 2: sample phe-qa-q1/correct is labelled 'N' by hand, but its answer"):
        apply_hand_labels(run, read_hand_labels(sheet), sheet)
    assert len(unread_answers(run)) == 2


def test_an_extractor_reads_only_unread_answers_and_its_agreement_with_people_is_reported(tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", {
        "phe-qa-q1/correct": "Y", "phe-qa-q1/hallucinated": "It depends on what one means by the capital.",
        "phe-qa-q2/correct": "The answer could be argued either way.", "phe-qa-q2/hallucinated": "N",
    })
    # the extractor is asked only about q1/hallucinated and q2/correct (replayed, keyed by sample id)
    extractor = write_replay(tmp_path / "extractor.jsonl", {"phe-qa-q1/hallucinated": '{"label": "N"}',
                                                             "phe-qa-q2/correct": '{"label": "Y"}'})
    [log] = inspect_eval(perhallueval_qa(data=str(FIXTURE)), model=f"replay/{replay}", limit=4,
                         model_roles={"extractor": f"replay/{extractor}"}, log_dir=str(tmp_path / "logs"),
                         display="none")
    assert log.status == "success", log.error
    metrics = {name: m.value for s in log.results.scores for name, m in s.metrics.items()}
    assert metrics["read/extractor"] == pytest.approx(2 / 4) and metrics["unparsed_rate"] == 0.0
    sheet, out = tmp_path / "check.csv", tmp_path / "labelled.eval"
    assert figeval("annotate", "unread", log.location, "--out", str(sheet), cwd=tmp_path).returncode == 0
    rows = list(csv.DictReader(sheet.read_text(encoding="utf-8-sig").splitlines()))
    assert [(r["sample_id"], r["read"]) for r in rows] == [("phe-qa-q1/hallucinated", "extractor"),
                                                          ("phe-qa-q2/correct", "extractor")]
    rows[0]["label"], rows[1]["label"] = "N", "N"  # the person agrees on the first, not on the second
    with sheet.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    applied = figeval("annotate", "apply", log.location, str(sheet), "--out", str(out), cwd=tmp_path)
    assert applied.returncode == 0, applied.stderr
    # 2 answers: agree on 1 -> 50%; kappa: observed 1/2, both labels' marginals (N,Y) vs (N,N) -> expected 1/2: 0
    assert "extractor vs hand labels: n=2, agreement 50.0%, Cohen's kappa" in applied.stdout
    # the person's label replaces the extractor's: factual recall Y on q1 of 2 = 1/2 (q2 now N)
    assert run_metrics(read_eval_log(str(out)))["factual_recall"] == pytest.approx(1 / 2)


def test_a_sheet_that_exists_is_never_written_over_nor_through_a_link(run_with_unread_answers: Path,
                                                                      tmp_path: Path):
    log, sheet = run_with_unread_answers, tmp_path / "unread.csv"
    assert figeval("annotate", "unread", str(log), "--out", str(sheet), cwd=tmp_path).returncode == 0
    filled = sheet.read_text(encoding="utf-8-sig").replace(",\n", ",Y\n").replace(",\r\n", ",Y\r\n")
    assert [row["label"] for row in csv.DictReader(filled.splitlines())] == ["Y", "Y"]  # a person's labels
    sheet.write_text(filled, encoding="utf-8-sig")
    # unread and export write sheets people fill: an existing --out is refused, as apply refuses an existing log
    for command in (["annotate", "unread", str(log), "--out", str(sheet)],
                    ["annotate", "export", str(log), "--out", str(sheet)]):
        assert_one_line_error(figeval(*command, cwd=tmp_path), f"--out {sheet} exists",
                              "write to another path, or remove it yourself")
        assert sheet.read_text(encoding="utf-8-sig") == filled
    # a Label Studio export holding people's annotations, given as the tasks to write
    annotated = tmp_path / "project.json"
    annotated.write_text('[{"data": {}, "annotations": [{"result": []}]}]', encoding="utf-8")
    assert_one_line_error(figeval("annotate", "export", str(log), "--out", str(annotated), "--format", "labelstudio",
                                  cwd=tmp_path), f"--out {annotated} exists")
    link = tmp_path / "link.csv"
    link.symlink_to(tmp_path / "elsewhere.csv")  # a link to no file yet: writing would create its target
    assert_one_line_error(figeval("annotate", "unread", str(log), "--out", str(link), cwd=tmp_path),
                          f"--out {link} is a symbolic link")
    assert not (tmp_path / "elsewhere.csv").exists()


def test_a_hand_label_of_an_answer_a_reader_read_is_refused_not_skipped(run_with_unread_answers: Path,
                                                                        tmp_path: Path):
    log, sheet, out = run_with_unread_answers, tmp_path / "unread.csv", tmp_path / "labelled.eval"
    assert figeval("annotate", "unread", str(log), "--out", str(sheet), cwd=tmp_path).returncode == 0
    rows = list(csv.DictReader(sheet.read_text(encoding="utf-8-sig").splitlines()))
    rows[0]["label"], rows[1]["label"] = "Y", "N"
    # a person also overrides q1/correct, which the paper's rule read as "Y" (the model answered "Y")
    rows.append({**rows[0], "sample_id": "phe-qa-q1/correct", "read": "read", "output": "Y", "label": "N"})
    with sheet.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    applied = figeval("annotate", "apply", str(log), str(sheet), "--out", str(out), cwd=tmp_path)
    # the header is row 1, the two unread answers rows 2 and 3: the override is row 4
    assert_one_line_error(applied, f"{sheet}, row 4: sample phe-qa-q1/correct is labelled 'N' by hand",
                          "was read (paper_rule: Y)", "clear that row's label")
    assert not out.exists()
