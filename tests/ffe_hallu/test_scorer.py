"""FFE-HALLU detection: verdict interpretation and the Table 4 metrics on hand-built answers."""

import pytest

from figeval.benchmarks.ffe_hallu.dataset import Framing, ItemKind, category_slug
from figeval.benchmarks.ffe_hallu.scorer import VERDICTS, detection_metrics, says_real
from figeval.parsing import YesNo
from figeval.scoring.outcome import DecidedBy, Outcome, ReadBy
from tests.metric_values import metric_values, sample_score

WP, CF = "Word Perturbation", "Cultural Fabrication"


def answer(kind: ItemKind, item: str, framing: Framing, category: str | None, real: bool | None):
    """One detection answer: says real (True), fake (False), or unparsed (None)."""
    target = "real" if kind is ItemKind.REAL else "fake"
    if real is None:
        outcome = Outcome.unparsed(DecidedBy.PARSER, "no yes/no", target)
    else:
        outcome = Outcome("real" if real else "fake", DecidedBy.PARSER, target=target, read_by=ReadBy.FIGEVAL_READER)
    metadata = {"item": item, "kind": kind.value, "framing": framing.value}
    if category:
        metadata |= {"category": category, "category_slug": category_slug(category)}
    return sample_score(outcome, VERDICTS, f"{item}/{framing.value}", **metadata)


def fake(item, framing, category, real):
    return answer(ItemKind.FAKE, item, framing, category, real)


def control(item, framing, real):
    return answer(ItemKind.REAL, item, framing, None, real)


NOT_READ = {"read/paper_rule": 0.0, "read/logprob": 0.0, "read/extractor": 0.0, "read/manual": 0.0}


def rates(scores):
    return metric_values(detection_metrics(), scores)


@pytest.mark.parametrize(
    "verdict, framing, expected",
    [
        (YesNo.YES, Framing.FAKE_Q, False),  # "is it fake?" yes -> fake
        (YesNo.NO, Framing.FAKE_Q, True),  # "is it fake?" no -> real (a hallucination for a fake)
        (YesNo.YES, Framing.REAL_Q, True),  # "is it real?" yes -> real (a hallucination for a fake)
        (YesNo.NO, Framing.REAL_Q, False),  # "is it real?" no -> fake
    ],
)
def test_says_real_follows_section_3_2(verdict, framing, expected):
    assert says_real(verdict, framing) is expected


def test_rates_on_hand_built_answers():
    F, R = Framing.FAKE_Q, Framing.REAL_Q
    answers = [
        # item, framing, category, says real (None: unparsed)
        fake("A", F, WP, True), fake("A", R, WP, True),  # hallucinated under both framings: agrees
        fake("B", F, WP, False), fake("B", R, WP, True),  # rejected when asked "fake?", accepted when "real?"
        fake("C", F, CF, None), fake("C", R, CF, False),  # unparsed (counted accepted), then rejected: disagree
        fake("D", F, CF, False), fake("D", R, CF, False),  # rejected under both: agrees
        control("E", F, True), control("E", R, True),  # a real FFE accepted twice
        control("F", F, False), control("F", R, None),  # a real FFE rejected once, one unparsed
    ]
    # Section 4: a response is correct only if it rejects the fake, "otherwise hallucinated": the unparsed C
    # under fake-q counts as accepting it. For the controls, an unparsed answer counts as rejecting.
    assert rates(answers) == pytest.approx(
        {
            "halluc_rate_fake_q": 2 / 4,  # A and the unparsed C, of A, B, C, D
            "halluc_rate_real_q": 2 / 4,  # A, B
            # Inspect's stderr of a 0/1 mean p over n answers: sqrt(p (1 - p) / (n - 1))
            "halluc_rate_fake_q/stderr": (0.5 * 0.5 / 3) ** 0.5,
            "halluc_rate_real_q/stderr": (0.5 * 0.5 / 3) ** 0.5,
            "halluc_rate_avg": 2 / 4,  # (0.5 + 0.5) / 2
            "agreement": 2 / 4,  # A and D
            "unparsed_rate": 1 / 8,  # C under fake-q, of 8 fake answers
            "halluc_rate_avg/word_perturbation": 3 / 4,  # fake-q: A of A,B = 0.5; real-q: A,B of A,B = 1.0
            "halluc_rate_avg/cultural_fabrication": 1 / 4,  # fake-q: C (unparsed) of C,D = 0.5; real-q: 0
            # Figure 1: each category under each framing
            "halluc_rate_fake_q/word_perturbation": 1 / 2,  # A of A, B
            "halluc_rate_real_q/word_perturbation": 1.0,  # A, B
            "halluc_rate_fake_q/cultural_fabrication": 1 / 2,  # the unparsed C, of C, D
            "halluc_rate_real_q/cultural_fabrication": 0.0,
            "false_rejection_rate": 2 / 4,  # F under fake-q, and F's unparsed real-q answer, of 4 control answers
            "control_unparsed_rate": 1 / 4,  # F under real-q
            "truncated_rate": 0.0,
            "control_truncated_rate": 0.0,
            # how all 12 answers were read, the controls' too: 10 by figeval's reader, C under fake-q and F under
            # real-q by none
            "read/figeval_reader": 10 / 12, "read/unread": 2 / 12, **NOT_READ, "read/n": 12,
            # each rate's own n: 4 fakes per framing, 8 fake answers for the average and the fakes' unparsed rate
            # (Table 4's column), every answer for the truncated rate, 4 fakes asked both ways (agreement), 2 fakes
            # per category and framing (4 both ways), 4 control answers
            "halluc_rate_fake_q/n": 4, "halluc_rate_real_q/n": 4, "halluc_rate_avg/n": 8, "agreement/n": 4,
            "unparsed_rate/n": 8, "truncated_rate/n": 12,
            "halluc_rate_avg/word_perturbation/n": 4, "halluc_rate_avg/cultural_fabrication/n": 4,
            "halluc_rate_fake_q/word_perturbation/n": 2, "halluc_rate_real_q/word_perturbation/n": 2,
            "halluc_rate_fake_q/cultural_fabrication/n": 2, "halluc_rate_real_q/cultural_fabrication/n": 2,
            "false_rejection_rate/n": 4, "control_unparsed_rate/n": 4, "control_truncated_rate/n": 4,
        }
    )


def test_agreement_compares_the_labels_the_rates_count():
    # Section 3.2 labels every response correct (rejects the fake) or hallucinated (endorses it; Section 4:
    # "otherwise hallucinated", so an unread answer too), and agreement is of those labels: G (unread twice:
    # hallucinated twice) agrees; I (unread, then accepted as real: hallucinated twice) agrees; H (unread, then
    # rejected: hallucinated, correct) does not. 2 of 3. (Taking "unread" as a verdict of its own gave 1 of 3.)
    F, R = Framing.FAKE_Q, Framing.REAL_Q
    answers = [fake("G", F, WP, None), fake("G", R, WP, None), fake("H", F, WP, None), fake("H", R, WP, False),
               fake("I", F, WP, None), fake("I", R, WP, True)]
    assert rates(answers)["agreement"] == pytest.approx(2 / 3)


def test_table_4_gpt41_row_is_reachable_exactly_at_the_bound():
    # GPT-4.1 in Table 4: fake-q 21.5%, real-q 7.5%, agreement 86.0%. Of 200 fakes, 43 accepted under fake-q
    # and 15 under real-q; if the 15 are among the 43, 28 items disagree: agreement = 172/200 = 0.86.
    F, R = Framing.FAKE_Q, Framing.REAL_Q
    answers = []
    for i in range(200):
        answers.append(fake(f"x{i}", F, WP, i < 43))
        answers.append(fake(f"x{i}", R, WP, i < 15))
    found = rates(answers)
    assert found["halluc_rate_fake_q"] == pytest.approx(0.215)
    assert found["halluc_rate_real_q"] == pytest.approx(0.075)
    assert found["agreement"] == pytest.approx(0.86)
    assert found["agreement"] == pytest.approx(1 - abs(0.215 - 0.075))


def test_a_model_that_calls_everything_fake_is_exposed_only_by_the_controls():
    F, R = Framing.FAKE_Q, Framing.REAL_Q
    answers = [fake("A", f, WP, False) for f in (F, R)] + [control("E", f, False) for f in (F, R)]
    found = rates(answers)
    assert found["halluc_rate_avg"] == 0.0 and found["agreement"] == 1.0
    assert found["false_rejection_rate"] == 1.0


def test_rates_without_data_are_left_out_not_zero():
    # A --limit that reached only fake-q samples: no real-q rate, no average, no agreement, no controls.
    assert rates([fake("A", Framing.FAKE_Q, WP, True)]) == {
        "halluc_rate_fake_q": 1.0, "unparsed_rate": 0.0, "truncated_rate": 0.0,
        "read/figeval_reader": 1.0, "read/unread": 0.0, **NOT_READ, "read/n": 1,
        "halluc_rate_fake_q/word_perturbation": 1.0,
        # one answer: each defined rate's own n is 1; the average's is left out with the average
        "halluc_rate_fake_q/n": 1, "halluc_rate_fake_q/word_perturbation/n": 1, "unparsed_rate/n": 1,
        "truncated_rate/n": 1}


def test_unparsed_answers_count_as_hallucinated_under_section_4():
    # 200 fakes asked "is it fake?": 77 accepted as real, 15 unparsed (7.5%), 108 rejected. Counting only
    # acceptances (figeval before issue 9) gave 77/200 = 0.385; Section 4 ("otherwise hallucinated") gives
    # (77 + 15)/200 = 0.460. (The example says "9% unparsed" for these two numbers; 0.460 - 0.385 is
    # 15 answers of 200, i.e. 7.5%.)
    answers = [fake(f"x{i}", Framing.FAKE_Q, WP, True if i < 77 else None if i < 92 else False) for i in range(200)]
    found = rates(answers)
    assert found["halluc_rate_fake_q"] == pytest.approx(0.460)
    assert found["unparsed_rate"] == pytest.approx(0.075)
