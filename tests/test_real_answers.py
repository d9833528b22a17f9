"""Every task's readers on the corpus of real answer shapes (tests/real_answers): at least 95% of the answers
read by the paper's rule or figeval's reader, none read otherwise than a person reads it (each benchmark's
test_real_answers checks its tasks one by one, with their metrics)."""

from collections import Counter
from importlib import import_module

from figeval._registry import BENCHMARKS
from figeval.scoring.outcome import ReadBy, outcome_of
from figeval.scoring.reading_metrics import read_layer
from tests.real_answers.corpus import CORPUS, CorpusTask, load


def _registered() -> dict[str, CorpusTask]:
    """Every benchmark's corpus tasks, as its tests register them (`tests/<package>/corpus_tasks.py`)."""
    found: dict[str, CorpusTask] = {}
    for benchmark in BENCHMARKS:
        package = benchmark.tasks[0].__module__.split(".")[2]  # figeval.benchmarks.<package>.tasks
        found |= import_module(f"tests.{package}.corpus_tasks").CORPUS_TASKS
    return found


CORPUS_TASKS = _registered()
TASKS = list(CORPUS_TASKS)


def scored(task: str, extractor=None):
    return CORPUS_TASKS[task].score(load(task), extractor)


def test_every_task_of_every_benchmark_has_its_corpus_and_every_corpus_file_its_task():
    tasks = {task.__name__ for benchmark in BENCHMARKS for task in benchmark.tasks}
    assert set(TASKS) == tasks == {path.stem for path in CORPUS.glob("*.yaml")}


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


def test_a_replayed_extractor_reads_the_rest_as_the_person_does():
    # the extractor (a model role) is asked only about the unread answers; replayed, it answers with the person's
    # reading (null where the person cannot tell): every answer then has the person's reading, so every metric
    # equals the one derived from the person's readings (each benchmark's test_real_answers derives them)
    asked = expected = 0
    for task in (task for task in TASKS if CORPUS_TASKS[task].closed_label):
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
