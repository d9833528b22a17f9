"""ffe_detection end to end with replayed outputs on the real upstream files."""

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai import eval_retry

from figeval.benchmarks.ffe_hallu.tasks import ffe_detection
from tests.metric_values import run_metrics


def write_replay(path: Path, outputs: dict[str, str | dict]) -> Path:
    with path.open("w", encoding="utf-8") as handle:
        for sample_id, output in outputs.items():
            record = {"id": sample_id, **(output if isinstance(output, dict) else {"output": output})}
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


def scripted_fake_answers() -> dict[str, str]:
    """fake-q: rows 1-20 answer "No" (accept as real), 21-30 unparseable, the rest "Yes" (reject).
    real-q: rows 1-10 answer "Yes" (accept as real), the rest "No" (reject)."""
    outputs = {}
    for row in range(1, 201):
        if row <= 20:
            outputs[f"ffe-fake-{row:03d}/fake-q"] = "No, it is a real Persian proverb."
        elif row <= 30:
            outputs[f"ffe-fake-{row:03d}/fake-q"] = "Hmm, hard to say."
        else:
            outputs[f"ffe-fake-{row:03d}/fake-q"] = "**Yes**"
        outputs[f"ffe-fake-{row:03d}/real-q"] = "بله" if row <= 10 else "Answer: No."
    return outputs

CATEGORIES = ("word_perturbation", "semantic_inversion_contradiction",
              "phonetic_poetic_mimicry", "cultural_fabrication")


def test_replay_end_to_end_on_the_real_fakes(ffe_hallu_imported: Path, tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", scripted_fake_answers())
    [log] = inspect_eval(
        ffe_detection(controls=False), model=f"replay/{replay}", log_dir=str(tmp_path / "logs"), display="none"
    )
    assert log.status == "success"
    metrics = run_metrics(log)
    # Rows 1-50 are Word Perturbation (50 per category, in file order). A response that does not reject the
    # fake is hallucinated (Section 4), so the unparsed rows 21-30 count as accepted under fake-q.
    assert metrics == pytest.approx(
        {
            "halluc_rate_fake_q": 30 / 200,  # rows 1-20 accepted, 21-30 unparsed
            "halluc_rate_real_q": 10 / 200,  # rows 1-10
            # Inspect's stderr of a 0/1 mean p over n answers: sqrt(p (1 - p) / (n - 1))
            "halluc_rate_fake_q/stderr": (0.15 * 0.85 / 199) ** 0.5,
            "halluc_rate_real_q/stderr": (0.05 * 0.95 / 199) ** 0.5,
            "halluc_rate_avg": 0.1,  # (0.15 + 0.05) / 2
            # agree: rows 1-10 (real, real) and 31-200 (fake, fake); 11-20 disagree; 21-30 (unparsed, fake) differ
            "agreement": 180 / 200,
            "unparsed_rate": 10 / 400,
            "halluc_rate_avg/word_perturbation": (30 / 50 + 10 / 50) / 2,
            "halluc_rate_avg/semantic_inversion_contradiction": 0.0,
            "halluc_rate_avg/phonetic_poetic_mimicry": 0.0,
            "halluc_rate_avg/cultural_fabrication": 0.0,
            # Figure 1: per category and framing (rows 1-50 word perturbation; nothing accepted elsewhere)
            "halluc_rate_fake_q/word_perturbation": 30 / 50,
            "halluc_rate_real_q/word_perturbation": 10 / 50,
            **{f"halluc_rate_{framing}/{category}": 0.0 for framing in ("fake_q", "real_q")
               for category in ("semantic_inversion_contradiction", "phonetic_poetic_mimicry", "cultural_fabrication")},
            # Each rate's own denominator: the 200 fakes under each framing (unparsed ones counted, as accepted),
            # both framings for the average (400), the fakes asked under both for agreement (200), every answer
            # for unparsed_rate (400); per category 50 fakes, 100 answers for the average.
            "halluc_rate_fake_q/n": 200, "halluc_rate_real_q/n": 200, "halluc_rate_avg/n": 400, "agreement/n": 200,
            "unparsed_rate/n": 400,
            **{f"halluc_rate_avg/{category}/n": 100 for category in CATEGORIES},
            **{f"halluc_rate_{framing}/{category}/n": 50 for framing in ("fake_q", "real_q")
               for category in CATEGORIES},
        }
    )
    by_id = {sample.id: sample for sample in log.samples}
    unparsed = by_id["ffe-fake-025/fake-q"].scores["detection_scorer"]
    assert unparsed.value == {"real": 0, "fake": 0, "unparsed": 1, "truncated": 0, "judge_unparsed": 0, "correct": 0}
    assert unparsed.reason == "invalid_response_format" and "Hmm, hard to say." in unparsed.explanation
    # The log records what is needed to reproduce the run.
    metadata = log.eval.metadata
    assert metadata["dataset_sha256"] == {
        "Fake FFEs.csv": "fbfa773757fcb634ba799adc486b087648d641a02a3180691d3f08ef6e3b75cc"}
    assert metadata["prompt_version"] == "ffe-detection-v5" and metadata["figeval_version"]
    assert log.eval.task_version == "ffe-detection-v5"
    assert metadata["unparsed_policies"]["halluc_rate_fake_q"] == "as_label:real"
    # deterministic, and no token cap of figeval's: a reasoning model's think block is not cut off
    assert log.plan.config.temperature == 0.0 and log.plan.config.max_tokens is None


def test_replay_in_logprob_mode(ffe_hallu_imported: Path, tmp_path: Path):
    replay = write_replay(
        tmp_path / "answers.jsonl",
        {
            # P(yes)=e^-0.2 > P(no)=e^-1.8: "is it fake?" yes -> rejected
            "ffe-fake-001/fake-q": {"output": " Yes", "top_logprobs": [{"token": " Yes", "logprob": -0.2},
                                                                       {"token": " No", "logprob": -1.8}]},
            # P(no) = e^-0.5 + e^-1.2 (two variants) > P(yes) = e^-0.9: accepted as real
            "ffe-fake-002/fake-q": {"output": " No",
                                    "top_logprobs": [{"token": " No", "logprob": -0.5},
                                                     {"token": " Yes", "logprob": -0.9},
                                                     {"token": "no", "logprob": -1.2}]},
            # no yes/no token among the candidates: unparsed
            "ffe-fake-003/fake-q": {"output": "\n", "top_logprobs": [{"token": "\n", "logprob": -0.1},
                                                                     {"token": " The", "logprob": -2.5}]},
            # Persian "خیر" (no) dominates: accepted as real
            "ffe-fake-004/fake-q": {"output": " خیر", "top_logprobs": [{"token": " خیر", "logprob": -0.1},
                                                                       {"token": " بله", "logprob": -2.4}]},
        },
    )
    [log] = inspect_eval(
        ffe_detection(controls=False, answer_mode="logprob"),
        model=f"replay/{replay}",
        limit=4,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success"
    metrics = run_metrics(log)
    # accepted: 002, 004, and the unparsed 003 (not a rejection) -> 3/4
    import math
    # the mass on yes/no words: 001 e^-0.2 + e^-1.8; 002 e^-0.5 + e^-0.9 + e^-1.2; 003 none; 004 e^-0.1 + e^-2.4
    masses = [math.exp(-0.2) + math.exp(-1.8), math.exp(-0.5) + math.exp(-0.9) + math.exp(-1.2), 0.0,
              math.exp(-0.1) + math.exp(-2.4)]
    assert metrics == pytest.approx({"halluc_rate_fake_q": 3 / 4, "unparsed_rate": 1 / 4,
                                     "halluc_rate_fake_q/stderr": (0.75 * 0.25 / 3) ** 0.5,  # = 0.25
                                     "halluc_rate_fake_q/word_perturbation": 3 / 4,
                                     "label_mass": sum(masses) / 4, "label_mass/under_half": 1 / 4,  # 003
                                     # the 4 answers read from log-probabilities (003's mass 0 included)
                                     "label_mass/n": 4, "label_mass/under_half/n": 4,
                                     # the four answers, all fake-q word perturbations, are each rate's denominator
                                     "halluc_rate_fake_q/n": 4, "unparsed_rate/n": 4,
                                     "halluc_rate_fake_q/word_perturbation/n": 4})
    assert [s.scores["detection_scorer"].answer for s in log.samples] == ["yes", "no", None, "no"]


def test_missing_replay_id_fails_that_sample_and_a_retry_resumes_without_redoing_finished_ones(
    ffe_hallu_imported: Path, tmp_path: Path
):
    answers = scripted_fake_answers()
    missing = "ffe-fake-150/real-q"
    partial = {k: v for k, v in answers.items() if k != missing}
    replay = write_replay(tmp_path / "answers.jsonl", partial)
    [log] = inspect_eval(
        ffe_detection(controls=False), model=f"replay/{replay}", log_dir=str(tmp_path / "logs"), display="none"
    )
    assert log.status == "error"
    assert f"no output for sample id '{missing}'" in log.error.message
    assert log.results is None or all(s.id != missing or s.error for s in log.samples)

    # Fix the file, but change every other answer to "Yes": finished samples must keep their first answers.
    write_replay(replay, {k: ("Yes" if k != missing else "No") for k in answers})
    [retried] = eval_retry(log, log_dir=str(tmp_path / "logs"), display="none")
    assert retried.status == "success" and len(retried.samples) == 400
    by_id = {s.id: s for s in retried.samples}
    assert by_id[missing].output.completion == "No"
    kept = [s for s in retried.samples if s.id != missing and s.output.completion == answers[s.id]]
    redone = [s for s in retried.samples if s.id != missing and s.output.completion != answers[s.id]]
    assert kept and len(kept) + len(redone) == 399
    # Everything that finished before the error was kept, not asked again.
    finished_first = {s.id for s in log.samples if s.error is None and s.output.completion}
    assert finished_first <= {s.id for s in kept}


def test_reasoning_models_are_read_after_thousands_of_tokens_and_a_cut_one_is_truncated(ffe_hallu_imported: Path,
                                                                                        tmp_path: Path):
    # DeepSeek-R1's shape: a think block of about 6,000 words that goes back and forth, then the answer
    # (each reading numbered: 400 copies of one sentence back to back would be a loop, which the loop guard stops)
    pondering = " ".join(f"Is it real, reading {i}? It sounds like one. But the wording is odd, so maybe not; yes, "
                         "or no?" for i in range(1, 401))
    replay = write_replay(tmp_path / "answers.jsonl", {
        "ffe-fake-001/fake-q": f"<think>\n{pondering}\n</think>\n\nYes, it is a fabricated proverb.",
        # cut off inside its think block by the token limit: nothing was answered
        "ffe-fake-002/fake-q": {"output": f"<think>\n{pondering}", "stop_reason": "max_tokens"},
        # the provider gave the thinking apart from the answer (Inspect's reasoning content): never the answer
        "ffe-fake-003/fake-q": {"output": "No.", "reasoning": "yes yes yes, it is fake, yes"},
        "ffe-fake-004/fake-q": "**Yes**",
    })
    [log] = inspect_eval(ffe_detection(controls=False), model=f"replay/{replay}", log_dir=str(tmp_path / "logs"),
                         display="none", sample_id=[f"ffe-fake-00{i}/fake-q" for i in range(1, 5)])
    assert log.status == "success", log.error
    assert len(pondering.split()) > 6000
    scores = {s.id: s.scores["detection_scorer"] for s in log.samples}
    assert scores["ffe-fake-001/fake-q"].value["fake"] == 1
    assert scores["ffe-fake-002/fake-q"].value == {"real": 0, "fake": 0, "unparsed": 1, "truncated": 1,
                                                   "judge_unparsed": 0, "correct": 0}
    assert scores["ffe-fake-002/fake-q"].reason == "max_tokens"
    assert "raise max_tokens" in scores["ffe-fake-002/fake-q"].explanation
    assert scores["ffe-fake-003/fake-q"].value["real"] == 1
    metrics = {name: m.value for score in log.results.scores for name, m in score.metrics.items()}
    # 4 fakes under fake-q: 002 truncated (counted as unparsed: accepting the fake, Section 4), 003 accepted
    assert metrics["truncated_rate"] == 1 / 4 and metrics["unparsed_rate"] == 1 / 4
    assert metrics["halluc_rate_fake_q"] == 2 / 4
    # 003 and 004 in the paper's form (a bare yes/no), 001 by figeval's reader, 002 by none
    assert (metrics["read/paper_rule"], metrics["read/figeval_reader"], metrics["read/unread"]) == (2 / 4, 1 / 4, 1 / 4)
