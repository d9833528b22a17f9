"""PerHalluEval metrics by hand, and both answer modes end to end on a final file written for the tests."""

from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from figeval._registry import BENCHMARKS
from figeval.benchmarks.perhallueval.scorer import UNPARSED, PairAnswer, pair_rates
from figeval.benchmarks.perhallueval.tasks import perhallueval_qa
from figeval.errors import DataError, FigevalError
from tests.ffe_hallu.test_tasks import write_replay
from tests.metric_values import run_metrics

FIXTURE = Path(__file__).parent / "fixtures" / "final_qa.csv"


def test_rates_by_hand():
    pairs = [
        PairAnswer("a", "Y", "N"),  # both right
        PairAnswer("b", "Y", "Y"),  # fooled by the hallucination
        PairAnswer("c", "N", "N"),  # rejects the correct answer
        PairAnswer("d", UNPARSED, "N"),  # unparsed on the correct version
    ]
    rates = pair_rates(pairs, resamples=200)
    # as_wrong (the default), one policy for all three: factual recall: Y on correct versions a, b of 4 -> 2/4
    # (d's unparsed answer is not a Y); hallucinated recall: N on a, c, d of 4 -> 3/4;
    # hamming: a 1, b 1/2, c 1/2, d 1/2 (the unparsed half is not right) -> 2.5/4 = 0.625 = (2/4 + 3/4) / 2
    assert rates["factual_recall"] == pytest.approx(2 / 4)
    assert rates["hallucinated_recall"] == pytest.approx(3 / 4)
    assert rates["hamming_score"] == pytest.approx(0.625)
    assert rates["hamming_score"] == pytest.approx((rates["factual_recall"] + rates["hallucinated_recall"]) / 2)
    # 4 items are too few for the paper's bootstrap (stats.MIN_BOOTSTRAP_ITEMS): a recall, a share of its n, has
    # the Wilson interval (2/4: centre 3.920730 / 7.841459 = 0.5, half-width 1.959964 / 7.841459 * sqrt(2 * 2 / 4
    # + 0.960365) = 0.349961; 3/4: centre 0.627526, half-width 0.249948 * sqrt(0.75 + 0.960365) = 0.326885); the
    # Hamming score, a mean of per-item scores, none
    assert (rates["factual_recall/ci_low"], rates["factual_recall/ci_high"]) == pytest.approx((0.150039, 0.849961))
    assert (rates["hallucinated_recall/ci_low"], rates["hallucinated_recall/ci_high"]) == pytest.approx(
        (0.300642, 0.954413), abs=1e-6)
    assert "hamming_score/ci_low" not in rates and rates["hamming_score/n"] == 4
    # 32 items (the 4, 8 times): the bootstrap over items for all three, as the paper computes Table 2's intervals
    many = pair_rates(pairs * 8, resamples=200)
    for name in ("factual_recall", "hallucinated_recall", "hamming_score"):
        assert many[f"{name}/ci_low"] < many[name] < many[f"{name}/ci_high"]


def test_rates_by_hand_with_unparsed_answers_excluded():
    pairs = [PairAnswer("a", "Y", "N"), PairAnswer("b", "Y", "Y"), PairAnswer("c", "N", "N"),
             PairAnswer("d", UNPARSED, "N")]
    rates = pair_rates(pairs, "excluded", resamples=200)
    # factual recall: Y among the answered a, b, c -> 2/3; hallucinated recall: N on a, c, d of 4 -> 3/4;
    # hamming over the items with both answers counted a, b, c: 1, 1/2, 1/2 -> 2/3
    assert rates["factual_recall"] == pytest.approx(2 / 3)
    assert rates["hallucinated_recall"] == pytest.approx(3 / 4)
    assert rates["hamming_score"] == pytest.approx(2 / 3)


@pytest.mark.parametrize("answer, expected", [("Y", "Y"), ("N.", "N"), ("Y, because the text says so", "Y"),
                                              ("بله", "Y"), ("خیر", "N"), ("The answer is N", "N"),
                                              ("N/A", None), ("Y/N", None), ("درست نیست", "N"), ("maybe", None)])
def test_answers(answer, expected):
    from figeval.benchmarks.perhallueval.readers import read_faithfulness

    assert read_faithfulness(answer) == expected


def test_confusion_counts_precision_and_f1_by_hand():
    from figeval.benchmarks.perhallueval.scorer import confusion

    pairs = [PairAnswer("a", "Y", "N"), PairAnswer("b", "Y", "Y"), PairAnswer("c", "N", "N"),
             PairAnswer("d", UNPARSED, "N")]
    # Y is the positive; each outcome by the model's answer (Section 3.5). Correct versions: a, b Y (TP 2), c N
    # (FN 1), d unread (none of the four); hallucinated versions: a, c, d N (TN 3), b Y (FP 1).
    # Precision = TP / (TP + FP) = 2/3 over the 3 Y answers. as_wrong: factual recall counts d's unread answer
    # (eq. 2: over every correct version) = 2/4, F1 = 2PR/(P+R) = 2 * 2 / (2 * 2 + 1 + 2) = 4/7, over the 5
    # answers in it (TP 2, FP 1, FN 1, d's unread one).
    assert confusion(pairs) == pytest.approx({"tp": 2, "fp": 1, "tn": 3, "fn": 1, "precision": 2 / 3,
                                              "precision/n": 3, "f1": 4 / 7, "f1/n": 5})
    # excluded: d's unread answer leaves; recall 2/3, F1 = 4 / (4 + 1 + 1) = 2/3 over 4 answers
    assert confusion(pairs, "excluded") == pytest.approx({"tp": 2, "fp": 1, "tn": 3, "fn": 1, "precision": 2 / 3,
                                                          "precision/n": 3, "f1": 2 / 3, "f1/n": 4})


def test_an_unread_answer_on_a_hallucinated_version_is_no_false_positive():
    from figeval.benchmarks.perhallueval.scorer import confusion

    # Three answers: a's correct version Y (TP), a's hallucinated version unread, b's hallucinated version N (TN).
    # Section 3.5: a false positive is a 'Y' on a hallucinated version; there is none: precision 1 / (1 + 0) = 1.0
    # (counting the unread answer as a false positive gave 1 / 2). Recall 1/1, F1 1.0 over its 1 answer.
    pairs = [PairAnswer("a", "Y", UNPARSED), PairAnswer("b", None, "N")]
    for policy in ("as_wrong", "excluded"):
        assert confusion(pairs, policy) == {"tp": 1, "fp": 0, "tn": 1, "fn": 0, "precision": 1.0,
                                            "precision/n": 1, "f1": 1.0, "f1/n": 1}


def test_f1_has_a_bootstrap_interval_over_items_not_a_wilson_one():
    from figeval.benchmarks.perhallueval.scorer import f1_interval, f1_statistic
    from figeval.stats import UndefinedStatistic

    pairs = [PairAnswer("a", "Y", "N"), PairAnswer("b", "Y", "Y"), PairAnswer("c", "N", "N"),
             PairAnswer("d", UNPARSED, "N")]
    f1 = f1_statistic(pairs, "as_wrong")
    # all items: TP 2, FP 1 (b), missed positives 2 (c's N, d's unread): 2*2 / (2*2 + 1 + 2) = 4/7, as `confusion`
    assert f1(range(4)) == pytest.approx(4 / 7)
    # a resample of a twice: TP 2, nothing else: 1; of b alone: TP 1, FP 1: 2 / 3
    assert (f1([0, 0]), f1([1])) == (1.0, pytest.approx(2 / 3))
    # c alone has no true positive: undefined (such a resample is dropped), as `confusion` leaves F1 out
    with pytest.raises(UndefinedStatistic):
        f1([2])
    # over 4 items no interval (too few for a bootstrap, and F1 is no share for a Wilson one); over 32 a bootstrap
    assert f1_interval(pairs, resamples=200) == {}
    interval = f1_interval(pairs * 8, resamples=200)
    assert set(interval) == {"f1/ci_low", "f1/ci_high"}
    assert 0 <= interval["f1/ci_low"] <= 4 / 7 <= interval["f1/ci_high"] <= 1
    # no true positive at all: no F1, no interval
    assert f1_interval([PairAnswer("c", "N", "N")]) == {}


def test_an_item_cut_in_half_by_a_limit_has_no_pair_score():
    # q1 both versions right; q2 only its correct version asked (right): hamming over q1 alone = 1.0
    pairs = [PairAnswer("q1", "Y", "N"), PairAnswer("q2", "Y", None)]
    rates = pair_rates(pairs, resamples=50)
    assert rates["hamming_score"] == 1.0 and rates["factual_recall"] == 1.0


def test_table_2_claude_sonnet_4_qa():
    # 1000 items: Y on 471 correct versions (47.1%), N on 813 hallucinated ones (81.3%), all parsed:
    # hamming = (0.471 + 0.813) / 2 = 0.642, the paper's 0.64.
    pairs = [PairAnswer(str(i), "Y" if i < 471 else "N", "N" if i < 813 else "Y") for i in range(1000)]
    rates = pair_rates(pairs, resamples=100)
    assert rates["factual_recall"] == pytest.approx(0.471)
    assert rates["hallucinated_recall"] == pytest.approx(0.813)
    assert rates["hamming_score"] == pytest.approx(0.642)


def test_qa_end_to_end(tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", {
        "phe-qa-q1/correct": "Y", "phe-qa-q1/hallucinated": "N",  # both right (persian-specific)
        "phe-qa-q2/correct": "بله", "phe-qa-q2/hallucinated": "بله، درست است",  # fooled (generic)
        "phe-qa-q3/correct": "N", "phe-qa-q3/hallucinated": "خیر",  # rejects the correct one (persian-specific)
        "phe-qa-q4/correct": "Y", "phe-qa-q4/hallucinated": "N.",  # both right (generic)
        "phe-qa-q5/correct": "I cannot tell", "phe-qa-q5/hallucinated": "N",  # unparsed correct (persian-specific)
        "phe-qa-q6/correct": "Y", "phe-qa-q6/hallucinated": "The answer is N",  # both right (generic, last word)
    })
    [log] = inspect_eval(perhallueval_qa(data=str(FIXTURE)), model=f"replay/{replay}",
                         log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    metrics = run_metrics(log)
    # factual: Y on q1, q2, q4, q6 of 6 (q5's unparsed answer is not a Y) -> 4/6; hallucinated: N on q1, q3,
    # q4, q5, q6 of 6 -> 5/6; hamming: q1 1, q2 .5, q3 .5, q4 1, q5 .5, q6 1 -> 4.5/6 = 0.75 = (4/6 + 5/6) / 2
    assert metrics["factual_recall"] == pytest.approx(4 / 6)
    assert metrics["hallucinated_recall"] == pytest.approx(5 / 6)
    assert metrics["hamming_score"] == pytest.approx(0.75)
    assert metrics["unparsed_rate"] == pytest.approx(1 / 12)
    # persian-specific q1, q3, q5: factual Y on q1 of 3 -> 1/3; generic q2, q4, q6: 3/3
    assert metrics["factual_recall/persian_specific"] == pytest.approx(1 / 3)
    assert metrics["factual_recall/generic"] == pytest.approx(1.0)
    assert metrics["hamming_score/generic"] == pytest.approx(2.5 / 3)
    # the splits carry their own 95% intervals (Section 5.1 compares them): over 3 items each, the recalls' Wilson
    # intervals; the Hamming score none (a bootstrap over 3 items cannot say), which the log records it is
    for name in ("factual_recall", "hallucinated_recall"):
        for subset in ("persian_specific", "generic"):
            assert (metrics[f"{name}/{subset}/ci_low"] < metrics[f"{name}/{subset}"]
                    <= metrics[f"{name}/{subset}/ci_high"])
    assert not any(name.startswith("hamming_score") and name.endswith("ci_low") for name in metrics)
    assert log.eval.metadata["item_means"] == ["hamming_score", "f1"]
    # 3 of the 6 items are Persian-specific; TP: Y on q1, q2, q4, q6 correct versions (4); FN: q3's N (q5's
    # unread answer is no N: none of Section 3.5's four outcomes, a missed positive in recall and F1)
    assert metrics["persian_specific_share"] == 0.5
    assert (metrics["tp"], metrics["fn"], metrics["tn"], metrics["fp"]) == (4, 1, 5, 1)
    # precision 4 / (4 + 1); F1 = 2 * 4 / (2 * 4 + 1 + 2) = 8/11 over its 7 answers (TP 4, FP 1, q3's N, q5's unread)
    assert (metrics["precision"], metrics["f1"], metrics["f1/n"]) == pytest.approx((0.8, 8 / 11, 7))
    assert log.eval.metadata["data_sha256"]
    policies = log.eval.metadata["unparsed_policies"]
    assert {name: policies[name] for name in ("factual_recall", "hallucinated_recall", "hamming_score")} == {
        name: "as_wrong" for name in ("factual_recall", "hallucinated_recall", "hamming_score")}
    assert "outside precision's n" in policies["precision"] and "missed positive" in policies["f1"]

    # Table 1 from the file's generator column: model-a wrote q1, q3, q6, model-b q2, q5, model-c q4 (of 6)
    from figeval.results.report import build_report

    [table_1] = [t for t in build_report(tmp_path / "logs", BENCHMARKS).tables if t.key == "perhallueval/table-1"]
    assert {row.label: row.cells["qa/share"].value for row in table_1.rows} == {
        "model-a": 3 / 6, "model-b": 2 / 6, "model-c": 1 / 6}


def test_logprob_mode_reads_y_and_n_variants(tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", {
        # P(Y) = e^-0.3 > P(N) = e^-1.4 + e^-3.0 -> Y (right on a correct version)
        "phe-qa-q1/correct": {"output": "Y",
                              "top_logprobs": [{"token": "Y", "logprob": -0.3}, {"token": "N", "logprob": -1.4},
                                               {"token": "Ñ", "logprob": -3.0}]},
        # P(N) = e^-0.9 + e^-1.2 (n, Ń) > P(Y) = e^-0.8 -> N (right on a hallucinated version)
        "phe-qa-q1/hallucinated": {"output": " n",
                                   "top_logprobs": [{"token": " Y", "logprob": -0.8}, {"token": " n", "logprob": -0.9},
                                                    {"token": "Ń", "logprob": -1.2}]},
    })
    [log] = inspect_eval(perhallueval_qa(data=str(FIXTURE), answer_mode="logprob"), model=f"replay/{replay}",
                         limit=2, log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    metrics = run_metrics(log)
    assert metrics["hamming_score"] == 1.0
    # the mass on the answers' words, averaged: how much the model answered with a label at all
    import math
    masses = (math.exp(-0.3) + math.exp(-1.4) + math.exp(-3.0), math.exp(-0.8) + math.exp(-0.9) + math.exp(-1.2))
    assert metrics["label_mass"] == pytest.approx(sum(masses) / 2)
    assert metrics["label_mass/under_half"] == 0.0


def test_logprob_mode_reads_the_same_words_as_generate_mode(tmp_path: Path):
    # a top token "Yes" or "بله" is a Y, as it is in a generated answer ("Yes" was counted for nothing before)
    replay = write_replay(tmp_path / "answers.jsonl", {
        "phe-qa-q1/correct": {"output": "Yes", "top_logprobs": [{"token": "Yes", "logprob": -0.4},
                                                               {"token": "N", "logprob": -1.5}]},
        "phe-qa-q1/hallucinated": {"output": "خیر", "top_logprobs": [{"token": "خیر", "logprob": -0.5},
                                                                    {"token": " بله", "logprob": -1.0}]},
    })
    [log] = inspect_eval(perhallueval_qa(data=str(FIXTURE), answer_mode="logprob"), model=f"replay/{replay}",
                         limit=2, log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    assert run_metrics(log)["hamming_score"] == 1.0  # Y on the correct version, N on the hallucinated one


def test_the_qa_prompt_is_question_and_answer_only_while_summaries_keep_their_article():
    # Figure 7: a QA prompt with the passage would let a model string-match the answer against it.
    from figeval.benchmarks.perhallueval.dataset import BenchmarkItem, item_samples

    item = BenchmarkItem("q1", "متن منبع که پاسخ در آن است", "پرسش؟", "پاسخ درست", "پاسخ ساختگی", True)
    qa = item_samples([item], "qa")
    assert all("متن منبع" not in sample.input for sample in qa)
    assert qa[0].input.endswith("Input:\nQuestion: پرسش؟\nAnswer: پاسخ درست\nOutput:")
    summary = item_samples([item], "summarization")
    assert all("Article: متن منبع که پاسخ در آن است" in sample.input for sample in summary)


def test_missing_or_malformed_data_is_one_line(tmp_path: Path):
    with pytest.raises(FigevalError, match=r"perhallueval_qa needs -T data=PATH: the final file `figeval build "
                                           r"perhallueval-candidates --task qa`"):
        perhallueval_qa()
    bad = tmp_path / "final.csv"
    bad.write_text(FIXTURE.read_text(encoding="utf-8").replace(",1\n", ",maybe\n", 1), encoding="utf-8")
    with pytest.raises(DataError, match=r"row 1, column 'persian_specific' is 'maybe'; use 1 or 0"):
        perhallueval_qa(data=str(bad))


@pytest.mark.slow
def test_qa_on_the_embedded_model_in_logprob_mode(tmp_path: Path):
    [log] = inspect_eval(perhallueval_qa(data=str(FIXTURE), answer_mode="logprob"), model="gguf/gemma-3-270m",
                         limit=4, log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    for sample in log.samples:
        assert "P(Y)=" in sample.scores["perhallueval_scorer"].explanation
    metrics = run_metrics(log)
    # Measured: after Figure 7's prompt, which ends "Output:", Y and N variants are among Gemma 3 270M's top 20
    # next tokens (with small probabilities), so every answer is read. Whatever it says, both items are asked
    # in full, so Hamming is the mean of the two recalls.
    assert metrics["unparsed_rate"] == 0.0
    assert metrics["hamming_score"] == pytest.approx((metrics["factual_recall"] + metrics["hallucinated_recall"]) / 2)


def test_two_epochs_give_the_same_pair_metrics_as_one(tmp_path: Path):
    # Pair metrics (Hamming) need one outcome per sample: the epochs are reduced to the most frequent outcome
    # (the replayed answers are the same in each epoch), not averaged into fractions.
    replay = write_replay(tmp_path / "answers.jsonl", {
        "phe-qa-q1/correct": "Y", "phe-qa-q1/hallucinated": "Y",
        "phe-qa-q2/correct": "maybe", "phe-qa-q2/hallucinated": "N",
    })
    runs = [inspect_eval(perhallueval_qa(data=str(FIXTURE)), model=f"replay/{replay}", limit=4, epochs=epochs,
                         log_dir=str(tmp_path / f"logs{epochs}"), display="none")[0] for epochs in (1, 2)]
    assert all(log.status == "success" for log in runs)
    one, two = (run_metrics(log) for log in runs)
    assert two == one
    # q1: 1/2 right; q2: the unparsed correct version is not right, N on hallucinated is -> 1/2
    assert one["hamming_score"] == 0.5 and one["unparsed_rate"] == 1 / 4
    assert runs[1].eval.config.epochs == 2 and runs[1].eval.config.epochs_reducer == ["outcome_mode"]
