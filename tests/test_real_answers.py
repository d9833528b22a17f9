"""All ten tasks' readers on the corpus of real answer shapes (tests/real_answers): at least 95% of the answers
read by the paper's rule or figeval's reader, none read otherwise than a person reads it (each benchmark's
test_real_answers checks its tasks one by one, with their metrics)."""

from collections import Counter

from figeval.benchmarks.ffe_hallu.scorer import detection_scorer, ffe_judged_scorer
from figeval.benchmarks.perhallueval.scorer import perhallueval_scorer
from figeval.benchmarks.persian_allusions.scorer import knowledge_scorer, mc_scorer, open_scorer
from figeval.benchmarks.turkish_idioms.scorer import idiom_scorer
from figeval.scoring.reading_metrics import read_layer
from figeval.scoring.outcome import ReadBy, outcome_of
from tests.real_answers.corpus import load, score_all, scripted_judge

JUDGE = scripted_judge(lambda answer: "0")
PERHALLUEVAL_TARGET = {"correct": "Y", "hallucinated": "N"}


def scored(task: str, extractor=None):
    entries = load(task)
    if task == "ffe_detection":
        return score_all(detection_scorer("generate"), entries,
                         target=lambda e: e.metadata["kind"], extractor=extractor)
    if task.startswith("ffe_"):
        return score_all(ffe_judged_scorer(task.removeprefix("ffe_"), [], JUDGE), entries,
                         metadata=lambda e: {"references": [], "english": "", "meaning": "", **e.metadata})
    if task.startswith("tr_idiom_"):
        kind = task.removeprefix("tr_idiom_")
        return [s for lang in ("en", "tr") for s in score_all(
            idiom_scorer(kind, "generate", None, lang), [e for e in entries if e.metadata["prompt_lang"] == lang],
            target=lambda e: e.metadata["target"], extractor=extractor)]
    if task == "allusion_mc":
        return score_all(mc_scorer(), entries, target=lambda e: e.metadata["target"], extractor=extractor)
    if task.startswith("allusion_"):
        scorer = knowledge_scorer(JUDGE) if task == "allusion_knowledge" else open_scorer("gt", JUDGE)
        return score_all(scorer, entries, metadata=lambda e: {"allusion": "", "description": "", "text": "",
                                                              **e.metadata})
    return score_all(perhallueval_scorer("generate"), entries,
                     target=lambda e: PERHALLUEVAL_TARGET[e.metadata["version"]], extractor=extractor)


TASKS = ["ffe_detection", "ffe_generation", "ffe_translation", "tr_idiom_detection", "tr_idiom_entailment",
         "allusion_knowledge", "allusion_mc", "allusion_open", "perhallueval_qa", "perhallueval_summarization"]


def test_the_corpus_covers_every_task_with_400_answers_and_95_percent_of_the_readable_are_read():
    # Over the answers a person can read: those nobody can (a refusal, a hedge with no lean, two answers as one)
    # are in the corpus to show that they stay unread, which each benchmark's test checks (no misread)
    layers: Counter = Counter()
    for task in TASKS:
        person = {e.id: e.person for e in load(task)}
        layers.update(read_layer(outcome_of(s.score)) for s in scored(task) if person[str(s.sample_id)] is not None)
    total = sum(layers.values())
    assert total >= 400
    read = layers["paper_rule"] + layers["figeval_reader"] + layers["rule"]
    assert read / total >= 0.95, layers


CLOSED_LABEL_TASKS = ["ffe_detection", "tr_idiom_detection", "tr_idiom_entailment", "allusion_mc", "perhallueval_qa",
                      "perhallueval_summarization"]


def test_a_replayed_extractor_reads_the_rest_as_the_person_does():
    # the extractor (a model role) is asked only about the unread answers; replayed, it answers with the person's
    # reading (null where the person cannot tell): every answer then has the person's reading, so every metric
    # equals the one derived from the person's readings (each benchmark's test_real_answers derives them)
    asked = expected = 0
    for task in CLOSED_LABEL_TASKS:
        entries = {e.id: e for e in load(task)}
        # asked about: the answers no rule reads though a person does
        expected += sum(outcome_of(s.score).is_unparsed and entries[s.sample_id].person is not None
                        for s in scored(task))
        for s in scored(task, extractor=lambda e: e.person):
            outcome, person = outcome_of(s.score), entries[s.sample_id].person
            assert outcome.label == person, (task, s.sample_id)
            asked += outcome.read_by is ReadBy.EXTRACTOR
            # what it was told and said is in the log
            assert ("extractor_answers" in outcome.details) == (outcome.read_by is ReadBy.EXTRACTOR or person is None
                                                                and outcome.status.value == "unparsed")
    assert asked == expected > 0
