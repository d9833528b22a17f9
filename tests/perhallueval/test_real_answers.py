"""PerHalluEval's readers on real answer shapes (tests/real_answers): Y/N read as a person reads it, and Table 2's
recalls and Hamming score equal to those derived by hand from the person's readings once the unread answers are
labelled by hand."""

import pytest

from figeval.benchmarks.perhallueval.scorer import perhallueval_metrics, perhallueval_scorer
from tests.real_answers.corpus import by_hand, compare, load, outcomes_of, score_all, values


def scored(task):
    entries = load(f"perhallueval_{task}")
    target = {"correct": "Y", "hallucinated": "N"}
    return entries, score_all(perhallueval_scorer("generate"), entries, target=lambda e: target[e.metadata["version"]])


# (task, read by the letter alone as Figure 7 asks, by figeval's reader, unread: those a person cannot read)
@pytest.mark.parametrize("task, paper, reader, unread", [("qa", 28, 42, 4), ("summarization", 4, 52, 4)])
def test_answers_are_read_as_a_person_reads_them(task, paper, reader, unread):
    entries, scores = scored(task)
    reading = compare(entries, outcomes_of(scores), lambda o: o.label)
    assert reading.misread == []
    assert reading.layers == {"paper_rule": paper, "figeval_reader": reader, "unread": unread}


@pytest.mark.parametrize("task", ["qa", "summarization"])
def test_recalls_and_hamming_from_the_readings_equal_the_person_s(task):
    entries, scores = scored(task)
    found = values(perhallueval_metrics(), by_hand(entries, scores, lambda e: e.person))
    on = {version: [e for e in entries if e.metadata["version"] == version] for version in ("correct", "hallucinated")}
    # unreadable answers are never right (as_wrong)
    factual = sum(e.person == "Y" for e in on["correct"]) / len(on["correct"])
    hallucinated = sum(e.person == "N" for e in on["hallucinated"]) / len(on["hallucinated"])
    assert found["factual_recall"] == pytest.approx(factual)
    assert found["hallucinated_recall"] == pytest.approx(hallucinated)
    # every item has both versions: Hamming is the mean of the two recalls (Appendix B)
    assert found["hamming_score"] == pytest.approx((factual + hallucinated) / 2)
