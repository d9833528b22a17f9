"""The Persian allusions readers on real answer shapes (tests/real_answers): the option chosen read as a person
reads it; knowledge and open answers given to the judge whatever their form (JSON or prose), "not familiar" /
"no allusion" decided by rule, and only what a person cannot read left unread; Table 3's numbers equal to those
derived by hand from the person's readings once the unread answers are labelled by hand."""

import pytest

from figeval.benchmarks.persian_allusions.scorer import (
    KNOWLEDGE_POLICIES,
    MC_POLICIES,
    OPEN_POLICIES,
    knowledge_scorer,
    mc_scorer,
    open_scorer,
)
from figeval.scoring.metrics import policy_metrics
from tests.real_answers.corpus import by_hand, compare, load, outcomes_of, score_all, scripted_judge, values

MC = load("allusion_mc")


def test_the_option_chosen_is_read_as_a_person_reads_it():
    scores = score_all(mc_scorer(), MC, target=lambda e: e.metadata["target"])
    reading = compare(MC, outcomes_of(scores), lambda o: o.label)
    assert reading.misread == []
    # unread: every answer a person cannot read (34: two options with no choice, refusals, hedges, an option only
    # inside an embedded question, a prose choice contradicted by the JSON, echoes of the prompt, cut-offs), and 2 a
    # person reads: options named only by an English description ("Joseph and Zuleikha", "the story of cutting
    # hands"), which no rule reads without a table of translated titles. An option's title in Latin letters
    # ("Yunes va mahi", "the Simorgh", "Jam-e Jam") is read after a final marker; the JSON taken back and given
    # again ("Wait, let me reconsider ... [{...4}]") is read as the later one.
    # Round 3 added 5 a person cannot read (among them {"selected_option": 3, "answer": 4}, two keys disagreeing)
    # and 2 more a person reads that stay unread: an option named only by its hero («حضرت ابراهیم» for «آتش نمرود»)
    # and a revision naming the new choice by relative position ("the option just before it") and English title;
    # its shares per option ("Option 2: 80%"), Roman numerals, "the last option", «ردیف چهارم» and an option left
    # by elimination are read.
    unreadable = sum(e.person is None for e in MC)
    assert unreadable == 39
    assert reading.layers["unread"] == unreadable + 4
    found = values(policy_metrics(MC_POLICIES), by_hand(MC, scores, lambda e: e.person))
    assert found["accuracy"] == pytest.approx(sum(e.person == e.metadata["target"] for e in MC) / len(MC))


# A judge's label for what the person read: an answer saying it does not know, or that there is no allusion, is
# incorrect (a rule decides the empty JSON; a prose one reaches the judge).
@pytest.mark.parametrize("task, scorer, policies, headline, label", [
    ("allusion_knowledge", lambda judge: knowledge_scorer(judge), KNOWLEDGE_POLICIES, "knowledge_rate", "complete"),
    ("allusion_open", lambda judge: open_scorer("gt", judge), OPEN_POLICIES, "accuracy", "correct"),
])
def test_every_answer_reaches_the_judge_and_table_3_follows(task, scorer, policies, headline, label):
    entries = load(task)
    scores = []
    for entry in entries:
        judge = scripted_judge(lambda answer, entry=entry: entry.judge or "incorrect")
        metadata = {"allusion": "", "description": "", "text": "", **entry.metadata}
        scores += score_all(scorer(judge), [entry], metadata=lambda e, metadata=metadata: metadata)
    outcomes = outcomes_of(scores)
    # read as a person reads it: an answer for the judge, or "not familiar" / "no allusion" by rule (never a
    # "none" handed to a judge who is shown the ground truth); only what a person cannot read is unread
    reading = compare(entries, outcomes, lambda o: o.rule if o.rule in ("not_familiar", "no_allusion") else "answer")
    assert reading.misread == []
    unread = [e.id for e, o in zip(entries, outcomes) if o.is_unparsed]
    # (an answer the token limit cut is never judged, whatever a person reads of it: the shared rule of
    # `scoring.judged`; kn-r2-smollm2-loop-cut, a story cut off in a repetition loop, is the one such)
    assert all(e.person is None or e.stop_reason == "max_tokens" for e in entries if e.id in unread)
    found = values(policy_metrics(policies), scores)
    # the paper's rule: only a complete (knowledge) / correct (open) answer counts; an unreadable one never does
    expected = sum(e.person is not None and e.judge == label for e in entries) / len(entries)
    assert found[headline] == pytest.approx(expected)
    assert reading.layers["unread"] == len(unread)


def test_json_keys_are_read_as_a_person_reads_them():
    # "Title" / "Full Explanation" (capitals, a space) are the prompt's keys: the explanation reaches the judge
    from figeval.benchmarks.persian_allusions.judged_readers import json_answer_text

    answer = '[{"Title": "یوسف و زلیخا", "Full Explanation": "زنان مصر دست خود را بریدند."}]'
    assert json_answer_text(answer, ("title", "full_explanation")) == "یوسف و زلیخا: زنان مصر دست خود را بریدند."
