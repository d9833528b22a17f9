"""FFE-HALLU's readers on real answer shapes (tests/real_answers): detection, generation and translation answers
read as a person reads them, and Table 4's and Tables 3/5's numbers equal to those derived by hand from the
person's readings once the unread answers are labelled by hand."""

import pytest

from figeval.benchmarks.ffe_hallu.scorer import FFE_LABELS, detection_metrics, detection_scorer, ffe_judged_scorer
from figeval.benchmarks.ffe_hallu.scorer import judged_metrics
from figeval.text import expression_key
from tests.real_answers.corpus import by_hand, compare, load, outcomes_of, score_all, scripted_judge, values

DETECTION = load("ffe_detection")


def detection_scores():
    # item: the expression, so that one expression asked under both framings is one item (Table 4's agreement)
    return score_all(detection_scorer("generate"), DETECTION, target=lambda e: e.metadata["kind"],
                     metadata=lambda e: {**e.metadata, "item": e.metadata["expression"]})


def test_detection_answers_are_read_as_a_person_reads_them():
    reading = compare(DETECTION, outcomes_of(detection_scores()), lambda o: o.label)
    assert reading.misread == []
    # 138 answers: 15 bare yes/no (the paper's form; 9 of them once unwrapped: tags, a fence,
    # full-width letters, a check mark or cross, Persian in Latin letters, Arabic), 117 by figeval's reader (one
    # of them cut off by the token limit after its verdict: read from its complete sentences), 6 unread: those a
    # person cannot read either (a refusal, a hedge with no lean, "Yeah, no", ...)
    assert reading.layers == {"paper_rule": 15, "figeval_reader": 117, "unread": 6}


def test_table_4_from_the_readings_equals_the_person_s():
    scores = by_hand(DETECTION, detection_scores(), lambda e: e.person)
    found = values(detection_metrics(), scores)
    fakes = [e for e in DETECTION if e.metadata["kind"] == "fake"]
    for framing in ("fake-q", "real-q"):
        asked = [e for e in fakes if e.metadata["framing"] == framing]
        # Section 4: a fake not called fake is a hallucination; an answer nobody can read counts as accepting it
        expected = sum(e.person != "fake" for e in asked) / len(asked)
        assert found[f"halluc_rate_{framing.replace('-', '_')}"] == pytest.approx(expected)
    # by hand: fake-q 37 fakes, 6 called real + 1 unreadable; real-q 49 fakes, 7 called real + 4 unreadable
    assert found["halluc_rate_fake_q"] == pytest.approx(7 / 37)
    assert found["halluc_rate_real_q"] == pytest.approx(11 / 49)
    assert found["halluc_rate_avg"] == pytest.approx((7 / 37 + 11 / 49) / 2)
    pairs = {}
    for e in fakes:
        pairs.setdefault(e.metadata["expression"], {})[e.metadata["framing"]] = e.person
    both = [p for p in pairs.values() if len(p) == 2]
    assert found["agreement"] == pytest.approx(sum(p["fake-q"] == p["real-q"] for p in both) / len(both))
    controls = [e for e in DETECTION if e.metadata["kind"] == "real"]
    assert found["false_rejection_rate"] == pytest.approx(sum(e.person != "real" for e in controls) / len(controls))


@pytest.mark.parametrize("task", ["ffe_generation", "ffe_translation"])
def test_open_answers_are_read_as_a_person_reads_them_and_tables_3_and_5_follow(task):
    entries = load(task)
    open_task = task.removeprefix("ffe_")
    scores = []
    for entry in entries:
        # a judge that gives the label the person's reading deserves (the reference shortcut answers some first)
        judge = scripted_judge(lambda answer, entry=entry: entry.judge or "hallucinated")
        scores += score_all(ffe_judged_scorer(open_task, [], judge), [entry],
                            metadata=lambda e: {"references": [], "english": "", "meaning": "", **e.metadata})
    outcomes = outcomes_of(scores)
    reading = compare(entries, outcomes, lambda o: o.answer,
                      same=lambda read, person: expression_key(read) == expression_key(person))
    assert reading.misread == []
    assert reading.layers["unread"] == sum(e.person is None for e in entries)
    found = values(judged_metrics(), scores)
    # Tables 3 and 5: rates over all outputs; an output with no expression is hallucinated
    for label in FFE_LABELS.values:
        expected = sum((e.judge if e.person is not None else "hallucinated") == label for e in entries) / len(entries)
        assert found[f"{label}_rate"] == pytest.approx(expected), label


def test_no_expression_of_the_benchmark_is_taken_for_two_or_for_a_refusal(shared_ffe_hallu):
    """Adversarial negatives of the 'two offered as one' and refusal rules: every authentic and fabricated FFE of
    the published files is one expression («کسی یا کاری», «چوب دوسرطلا یا چوب دوسرگهی», «یا ... یا» included)."""
    from figeval.benchmarks.ffe_hallu.dataset import load_authentic, load_fake
    from figeval.benchmarks.ffe_hallu.readers import one_expression

    items = load_authentic(shared_ffe_hallu / "Authentic FFEs.csv") + load_fake(shared_ffe_hallu / "Fake FFEs.csv")
    assert len(items) == 400
    assert [item.expression for item in items if one_expression(item.expression) is None] == []
