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


# (task, read by the letter alone as Figure 7 asks, by figeval's reader, unread: those a person cannot read, and
# the few a person can that no rule reads). Round 2 added answers in Arabic and Turkish, Persian negation by scope
# («نمی‌توان درست دانست»), hedges and embedded questions («اینکه ... یا نه», «ممکن است ... و ممکن است نباشد»), a
# letter contradicting the prose, revisions ("Wait ... Correction:"), criteria as JSON booleans, as a table with a
# question column, with check marks, and a conclusion line after "yes, yes". qa: 13 unread = 12 a person cannot
# read + «پاسخ درست «کانبرا» است» (the correct answer is Canberra: names the right answer, and the reader does not
# see the shown one). summarization: 13 unread, all a person cannot read (two a real smollm2 run's prompt echo).
# Round 3 added Likert answers («کاملاً موافقم», "I strongly disagree that ..."), scores and probabilities («امتیاز
# وفاداری: ۵ از ۵», «احتمال درستی پاسخ: ۹۵٪»), Azerbaijani («Düzgündür», «Səhvdir»), formal Persian («انطباق دارد»,
# «عاری از هرگونه خطا», «مخدوش»), Tehrani colloquial («اوکیه»), criteria as True/False and in reverse order, irony,
# a comparative in a critique and «the correct summary would be»: qa 19 unread = 17 a person cannot read + «پاسخ
# درست «کانبرا» است» + sarcasm with a correction ("Oh sure, Gilan. ... 🙄"); summarization 22 unread = 20 a person
# cannot read + sarcastic praise ("Very faithful. 🙄") + «خلاصهٔ درست باید چنین باشد: ...» (a replacement summary,
# which the reader cannot compare with the one shown).
@pytest.mark.parametrize("task, paper, reader, unread", [("qa", 33, 64, 19), ("summarization", 4, 80, 22)])
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
    # Appendix B: per item with both versions, (Y on correct + N on hallucinated) / 2, averaged over those items (a
    # real run's answer may stand alone, its other version not in the corpus: no pair score)
    pairs = {e.metadata["item"]: {} for e in entries}
    for e in entries:
        pairs[e.metadata["item"]][e.metadata["version"]] = e.person
    complete = [p for p in pairs.values() if len(p) == 2]
    hamming = sum(((p["correct"] == "Y") + (p["hallucinated"] == "N")) / 2 for p in complete) / len(complete)
    assert found["hamming_score"] == pytest.approx(hamming)
