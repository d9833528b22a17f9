"""Both Turkish idiom tasks end to end with replayed outputs; hand labels for unparsed answers; the embedded model."""

import csv
import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from figeval.benchmarks.turkish_idioms.tasks import tr_idiom_detection, tr_idiom_entailment
from tests.command import figeval
from tests.ffe_hallu.test_tasks import write_replay
from tests.metric_values import run_metrics

DETECTION_ANSWERS = {
    "tr-idiom-001/figurative": "Yes",  # right
    "tr-idiom-001/literal": "Yes.",  # wrong
    "tr-idiom-003/figurative": "The sentence is figurative, so yes",  # right (last word)
    "tr-idiom-003/literal": "No.",  # right
    "tr-idiom-004/figurative": "I am not sure.",  # unparsed: wrong for accuracy
    "tr-idiom-004/literal": "No",  # right
    "tr-idiom-005/figurative": "Evet, mecaz.",  # right: figeval's reader reads Turkish "evet" under the English prompt
    "tr-idiom-005/literal": "NO",  # right
    "tr-idiom-006/figurative": "No",  # wrong
    "tr-idiom-006/literal": "Yes, although one might say no",  # wrong (the first word decides)
}


def test_detection_end_to_end(idioms_imported: Path, tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", DETECTION_ANSWERS)
    # balanced=true (ours): row 2, which has no literal sentence, is left out whole
    [log] = inspect_eval(tr_idiom_detection(balanced=True), model=f"replay/{replay}", log_dir=str(tmp_path / "logs"),
                         display="none")
    assert log.status == "success", log.error
    assert run_metrics(log) == pytest.approx(
        {
            "accuracy": 6 / 10,  # 001f, 003f, 003l, 004l, 005f, 005l
            "unparsed_rate": 1 / 10,  # 004f
            "yes_rate": 5 / 9,  # yes from 001f, 001l, 003f, 005f, 006l, of 9 parsed
            # Inspect's stderr of a 0/1 mean p over n answers: sqrt(p (1 - p) / (n - 1))
            "accuracy/stderr": (0.6 * 0.4 / 9) ** 0.5,
            "yes_rate/stderr": (5 / 9 * 4 / 9 / 8) ** 0.5,
            # the paper's analysis: unseen in the corpus (rows 1 and 6, frequency 0) vs seen (rows 3, 4, 5)
            "accuracy/freq_unseen": 1 / 4,  # only 001f right
            "accuracy/freq_seen": 5 / 6,  # 003f, 003l, 004l, 005f, 005l right; 004f unparsed
            # each rate's own denominator: yes_rate leaves the unparsed 004f out, accuracy counts it
            "accuracy/n": 10, "unparsed_rate/n": 10, "yes_rate/n": 9, "accuracy/freq_unseen/n": 4,
            "accuracy/freq_seen/n": 6,
        }
    )
    assert log.eval.metadata["class_counts"] == {"no": 5, "yes": 5}
    assert log.eval.metadata["idioms_without_literal"] == 1
    assert log.eval.metadata["dataset_pin"].endswith("(unpinned: sha256 recorded on first import)")
    assert len(log.eval.metadata["dataset_sha256"]["idioms.tsv"]) == 64


def test_unparsed_answers_are_labelled_by_hand_and_used(idioms_imported: Path, tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", DETECTION_ANSWERS)
    logs = tmp_path / "logs"
    assert figeval("run", "tr_idiom_detection", "-T", "balanced=true", "--model", f"replay/{replay}",
                   "--log-dir", str(logs)).returncode == 0
    sheet = tmp_path / "sheet.csv"
    exported = figeval("annotate", "export", str(logs), "--out", str(sheet))
    assert exported.returncode == 0, exported.stderr
    assert "1 unparsed answers to label by hand" in exported.stdout
    lines = sheet.read_text(encoding="utf-8-sig").splitlines()
    rows = list(csv.DictReader([line for line in lines if not line.startswith("#")]))
    assert [(r["sample_id"], r["output"]) for r in rows] == [("tr-idiom-004/figurative", "I am not sure.")]

    rows[0]["label"] = "evet"  # the annotator reads "I am not sure." as... a yes, for this test's sake (in Turkish)
    with sheet.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    labels = tmp_path / "labels.csv"
    assert figeval("annotate", "import", str(sheet), "--out", str(labels)).returncode == 0

    [log] = inspect_eval(tr_idiom_detection(manual_labels=str(labels), balanced=True), model=f"replay/{replay}",
                         log_dir=str(logs), display="none")
    metrics = run_metrics(log)
    # 6 right before, and the hand-labelled answer is right: 7/10
    assert metrics["accuracy"] == pytest.approx(7 / 10) and metrics["unparsed_rate"] == 0.0
    by_id = {s.id: s.scores["idiom_scorer"] for s in log.samples}
    assert by_id["tr-idiom-004/figurative"].metadata["decided_by"] == "manual"

    # another run of the same model answered 004 otherwise: the label made for "I am not sure." is not applied
    write_replay(replay, {**DETECTION_ANSWERS, "tr-idiom-004/figurative": "Hard to say."})
    [log] = inspect_eval(tr_idiom_detection(manual_labels=str(labels), balanced=True), model=f"replay/{replay}",
                         log_dir=str(logs), display="none")
    metrics = run_metrics(log)
    assert metrics["accuracy"] == pytest.approx(6 / 10) and metrics["unparsed_rate"] == pytest.approx(1 / 10)
    unlabelled = next(s.scores["idiom_scorer"] for s in log.samples if s.id == "tr-idiom-004/figurative")
    assert unlabelled.metadata["decided_by"] != "manual"
    assert f"the hand label in {labels} is for another answer than this one" in unlabelled.explanation


def test_entailment_in_logprob_mode_reads_label_prefixes(idioms_imported: Path, tmp_path: Path):
    replay = write_replay(
        tmp_path / "answers.jsonl",
        {
            # " ent" begins "entailment": P(entailment) = e^-0.3 > P(contradiction) = e^-1.5 -> right
            "tr-idiom-001/paraphrase": {"output": " ent", "top_logprobs": [{"token": " ent", "logprob": -0.3},
                                                                           {"token": " contr", "logprob": -1.5}]},
            # P(ent) = e^-0.7 = 0.4966 < P(contr) = e^-0.9 + e^-2.0 = 0.4066 + 0.1353 = 0.5419 -> right
            "tr-idiom-001/similar": {"output": " Ent",
                                     "top_logprobs": [{"token": " Ent", "logprob": -0.7},
                                                      {"token": " Contr", "logprob": -0.9},
                                                      {"token": "contradiction", "logprob": -2.0}]},
            # " contr" begins "contradiction" -> wrong
            "tr-idiom-002/paraphrase": {"output": " contr", "top_logprobs": [{"token": " contr", "logprob": -0.2}]},
            # no label among the candidates -> unparsed
            "tr-idiom-002/similar": {"output": "\n", "top_logprobs": [{"token": "\n", "logprob": -0.1},
                                                                      {"token": " The", "logprob": -1.0}]},
        },
    )
    [log] = inspect_eval(tr_idiom_entailment(answer_mode="logprob"), model=f"replay/{replay}", limit=4,
                         log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    metrics = run_metrics(log)
    assert metrics["accuracy"] == pytest.approx(2 / 4) and metrics["unparsed_rate"] == pytest.approx(1 / 4)
    assert metrics["entailment_rate"] == pytest.approx(1 / 3)  # of the 3 parsed answers


def test_detection_asks_every_sentence_as_the_paper_did(idioms_imported: Path, tmp_path: Path):
    """Section 4's accuracies fit n = 399 only: the paper left no idiom out, so neither does the default."""
    answers = dict(DETECTION_ANSWERS, **{"tr-idiom-002/figurative": "Yes"})  # row 2 has no literal sentence
    replay = write_replay(tmp_path / "answers.jsonl", answers)
    [log] = inspect_eval(tr_idiom_detection(), model=f"replay/{replay}", log_dir=str(tmp_path / "logs"),
                         display="none")
    assert log.status == "success", log.error
    metrics = run_metrics(log)
    # 11 answers: the 6 right above and 002f -> 7/11; figurative: 001f, 002f, 003f, 005f right of 6 (004f
    # unparsed, 006f wrong) = 2/3; literal: 003l, 004l, 005l right of 5 = 3/5; balanced: (2/3 + 3/5) / 2 = 19/30
    assert metrics["accuracy"] == pytest.approx(7 / 11)
    assert metrics["balanced_accuracy"] == pytest.approx(19 / 30)
    # its n: every answer it counts, as accuracy counts them (004f's unparsed one too): 6 figurative + 5 literal
    assert (metrics["balanced_accuracy/n"], metrics["accuracy/n"]) == (11, 11)
    assert log.eval.metadata["class_counts"] == {"no": 5, "yes": 6} and log.eval.metadata["balanced"] is False


def test_bad_prompt_language_is_one_line(idioms_imported: Path):
    from figeval.errors import FigevalError

    with pytest.raises(FigevalError, match=r"prompt_lang must be one of \['en', 'tr'\], not 'fa'"):
        tr_idiom_detection(prompt_lang="fa")


@pytest.mark.slow
def test_detection_on_the_embedded_model(idioms_imported: Path, tmp_path: Path):
    [log] = inspect_eval(tr_idiom_detection(answer_mode="logprob", prompt_lang="tr"), model="gguf/gemma-3-270m",
                         limit=4, log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    metrics = run_metrics(log)
    # Gemma puts some probability on "evet"/"hayır" (or yes/no) for every sentence: nothing is unparsed.
    assert metrics["unparsed_rate"] == 0.0 and 0.0 <= metrics["accuracy"] <= 1.0
    for sample in log.samples:
        assert "P(yes)=" in sample.scores["idiom_scorer"].explanation


def test_the_frequency_finding_is_a_table_of_report_and_the_paper_run(idioms_imported: Path, tmp_path: Path):
    """Section 4: "For the idiom instances that were not found in the Leipzig corpus, performances of large models
    also drop to the level of a random baseline": accuracy on unseen and on seen idioms, per task."""
    from tests.command import make_task

    entailment = {str(s.id): "entailment" for s in make_task("tr_idiom_entailment", {}).dataset}
    entailment["tr-idiom-003/similar"] = "contradiction"
    answers = dict(DETECTION_ANSWERS, **{"tr-idiom-002/figurative": "Yes"}, **entailment)
    replay = write_replay(tmp_path / "answers.jsonl", answers)
    ran = figeval("run", "--paper", "turkish-idioms", "--model", f"replay/{replay}",
                  "--log-dir", str(tmp_path / "logs"))
    assert ran.returncode == 0, ran.stderr
    assert "Turkish idioms Section 4: Accuracy on idioms unseen and seen in the Leipzig corpus" in ran.stdout
    report = figeval("report", str(tmp_path / "logs"), "--format", "json")
    [table] = [t for t in json.loads(report.stdout)["tables"] if t["key"] == "turkish-idioms/frequency"]
    [row] = table["rows"]
    # Detection, every sentence: unseen rows 1 and 6: 001f right; 001l, 006f, 006l wrong: 1/4. Seen rows 2-5:
    # 002f, 003f, 003l, 004l, 005f, 005l right, 004f unparsed (wrong): 6/7.
    # Entailment, "entailment" to all but 003's similar sentence: each paraphrase right, each similar wrong but
    # 003's: unseen 2/4, seen 5/8.
    assert {key: (cell["value"], cell["n"]) for key, cell in row["cells"].items()} == {
        "detection/unseen": (0.25, 4), "detection/seen": (pytest.approx(6 / 7, abs=5e-5), 7),
        "entailment/unseen": (0.5, 4), "entailment/seen": (0.625, 8),
        # figeval's columns: 004f unread of 11 detection answers, none of 12 entailment answers
        "detection_unparsed": (pytest.approx(1 / 11, abs=5e-5), 11), "entailment_unparsed": (0.0, 12)}
    # beside the paper's rows, Table 2 says how the paper printed its values
    assert "values are cut to three decimals, not rounded" in ran.stdout
