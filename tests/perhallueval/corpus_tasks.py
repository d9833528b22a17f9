"""PerHalluEval's tasks as the shared corpus tests score them (tests/real_answers): the gold version expects Y,
the hallucinated one N."""

from figeval.benchmarks.perhallueval.scorer import perhallueval_scorer
from tests.real_answers.corpus import CorpusTask, score_all

TARGET = {"correct": "Y", "hallucinated": "N"}
_TASK = CorpusTask(lambda entries, extractor: score_all(
    perhallueval_scorer("generate"), entries, target=lambda e: TARGET[e.metadata["version"]], extractor=extractor),
    closed_label=True)

CORPUS_TASKS = {"perhallueval_qa": _TASK, "perhallueval_summarization": _TASK}
