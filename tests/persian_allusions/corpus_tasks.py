"""The Persian allusion tasks as the shared corpus tests score them (tests/real_answers)."""

from figeval.benchmarks.persian_allusions.scorer import knowledge_scorer, mc_scorer, open_scorer
from tests.real_answers.corpus import CorpusTask, score_all, scripted_judge

JUDGE = scripted_judge(lambda answer: "0")


def _judged(scorer) -> CorpusTask:
    return CorpusTask(lambda entries, extractor: score_all(
        scorer, entries, metadata=lambda e: {"allusion": "", "description": "", "text": "", **e.metadata}),
        closed_label=False)


CORPUS_TASKS = {
    "allusion_knowledge": _judged(knowledge_scorer(JUDGE)),
    "allusion_mc": CorpusTask(lambda entries, extractor: score_all(
        mc_scorer(), entries, target=lambda e: e.metadata["target"], extractor=extractor), closed_label=True),
    "allusion_open": _judged(open_scorer("gt", JUDGE)),
}
