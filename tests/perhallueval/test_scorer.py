"""Appendix B's Hamming score on answers that give no label: by hand, and end to end on empty answers."""

from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from figeval.benchmarks.perhallueval.scorer import UNPARSED, PairAnswer, pair_rates
from figeval.benchmarks.perhallueval.tasks import perhallueval_qa
from tests.ffe_hallu.test_tasks import write_replay
from tests.metric_values import run_metrics

FIXTURE = Path(__file__).parent / "fixtures" / "final_qa.csv"


def test_a_pair_with_no_label_scores_zero():
    # Appendix B: HammingScore = 1 - (1/2) * sum_j 1[H_j != y_j], y = [1, 0]. Neither answer is a verdict, so
    # neither equals y_j: 1 - (1/2) * (1 + 1) = 0 (not 0.5, as it would if "no Y" were read as an N)
    assert pair_rates([PairAnswer("a", UNPARSED, UNPARSED)], resamples=10)["hamming_score"] == 0.0


def test_hamming_on_empty_answers_end_to_end(tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", {
        "phe-qa-q1/correct": "", "phe-qa-q1/hallucinated": "",  # no label on either version
        "phe-qa-q2/correct": "Y", "phe-qa-q2/hallucinated": "",  # right, then nothing
        "phe-qa-q3/correct": "<think>...</think>", "phe-qa-q3/hallucinated": "N",  # a think block alone, then right
        "phe-qa-q4/correct": "Y", "phe-qa-q4/hallucinated": "N",  # both right
    })
    runs = {policy: inspect_eval(perhallueval_qa(data=str(FIXTURE), unparsed=policy), model=f"replay/{replay}",
                                 limit=8, log_dir=str(tmp_path / policy), display="none")[0]
            for policy in ("as_wrong", "excluded")}
    assert all(log.status == "success" for log in runs.values())
    metrics = run_metrics(runs["as_wrong"])
    # per item 1 - (mismatches) / 2: q1 1 - 2/2 = 0, q2 1 - 1/2 = 0.5, q3 0.5, q4 1 -> 2 / 4 = 0.5
    # (reading a missing Y as an N would give q1 0.5, q2 1: 3 / 4)
    assert metrics["hamming_score"] == pytest.approx(0.5)
    # Y on the correct versions of q2, q4 of 4; N on the hallucinated versions of q3, q4 of 4; the mean is Hamming
    assert metrics["factual_recall"] == pytest.approx(0.5) and metrics["hallucinated_recall"] == pytest.approx(0.5)
    assert metrics["unparsed_rate"] == pytest.approx(4 / 8)
    # `excluded` leaves Appendix B on the user's request: only q4 has two verdicts -> 1.0
    assert run_metrics(runs["excluded"])["hamming_score"] == pytest.approx(1.0)


def test_the_unparsed_choice_is_the_policies_the_scorer_applies():
    from figeval.benchmarks.perhallueval.scorer import POLICIES
    from figeval.scoring.metrics import AS_WRONG, EXCLUDED

    assert POLICIES == (AS_WRONG, EXCLUDED)
