"""The Turkish idiom readers on real answer shapes (tests/real_answers): answers read as a person reads them, by
the paper's first/last-word rule where it applies and figeval's reader otherwise, and Table 2's accuracy equal to
the one derived by hand from the person's readings once the unread answers are labelled by hand."""

import pytest

from figeval.benchmarks.turkish_idioms.scorer import idiom_metrics, idiom_scorer
from tests.real_answers.corpus import by_hand, compare, load, outcomes_of, score_all, values


def scored(task):
    entries = load(f"tr_idiom_{task}")
    scores = []
    for lang in ("en", "tr"):
        asked = [e for e in entries if e.metadata["prompt_lang"] == lang]
        scores += score_all(idiom_scorer(task, "generate", None, lang), asked, target=lambda e: e.metadata["target"])
    order = {e.id: i for i, e in enumerate(entries)}
    scores.sort(key=lambda s: order[s.sample_id])
    return entries, scores


# (task, answers read by the paper's rule, by figeval's reader, unread): the unread are exactly the answers a person
# cannot read (person null): a hedge that never decides, a refusal ("not confident enough to say whether ... is a
# contradiction"), a bare "No." to the either-or question, two labels with nothing concluding, and answers cut off
# by the token limit before a verdict (a think block, a supposition "if ..., it would seem a contradiction", and
# the smollm2 run's echoes of the prompt). Round 2 added answers read by the reader: Turkish bound negation
# ("içermez", "kullanılmadığı"), a lean ("Muhtemelen evet"), Persian answers («بله»، «پاسخ: تناقض»), a revision
# ("Wait, I made a mistake ... Contradiction"), a double negative ("isn't incompatible").
# Round 3 (16 detection, 17 entailment answers) added, read by the reader: a probability on a label ("Figurative
# use: 95% likely", "Entailment: 92% / Contradiction: 8%"), "Obviously figurative:", "True.", linguistics' and
# logic's words ("compositional reading", "mutually exclusive", "P ⊨ H"), Azerbaijani ("Bəli", "ziddiyyət") and
# formal Turkish ("tenakuz", "istilzam"), a Turkish double negation ("kullanılmadığını söylemek mümkün değil"); and
# unread, person null (5 per task): among them both answers offered ("Yes / Hayır", "Entailment, yani çelişki"),
# a Turkish refusal ("çelişki olup olmadığını ... söyleyemem"). One readable answer stays unread: the
# ironic "Oh, clearly entailment — because fuming and calm are the same thing, right? 🙄" (contradiction), whose
# irony no rule weighs (entailment: 20 unread, 19 of them person null).
@pytest.mark.parametrize("task, paper, reader, unread", [("detection", 47, 40, 21), ("entailment", 37, 46, 20)])
def test_answers_are_read_as_a_person_reads_them(task, paper, reader, unread):
    entries, scores = scored(task)
    reading = compare(entries, outcomes_of(scores), lambda o: o.label)
    assert reading.misread == []
    assert reading.layers == {"paper_rule": paper, "figeval_reader": reader, "unread": unread}


@pytest.mark.parametrize("task", ["detection", "entailment"])
def test_accuracy_from_the_readings_equals_the_person_s(task):
    entries, scores = scored(task)
    found = values(idiom_metrics(task, with_frequency=False), by_hand(entries, scores, lambda e: e.person))
    # Section 4: accuracy over all answers; one nobody can read is wrong
    expected = sum(e.person == e.metadata["target"] for e in entries) / len(entries)
    assert found["accuracy"] == pytest.approx(expected)
    # by hand (the corpus's own counts: person == target): detection 72 of 108 right, entailment 71 of 103
    assert found["accuracy"] == pytest.approx({"detection": 72 / 108, "entailment": 71 / 103}[task])
