"""The Turkish idiom tasks as the shared corpus tests score them (tests/real_answers): each prompt language's
answers by the scorer of that language."""

from figeval.benchmarks.turkish_idioms.scorer import idiom_scorer
from tests.real_answers.corpus import CorpusTask, score_all


def _idioms(kind: str) -> CorpusTask:
    return CorpusTask(lambda entries, extractor: [s for lang in ("en", "tr") for s in score_all(
        idiom_scorer(kind, "generate", None, lang), [e for e in entries if e.metadata["prompt_lang"] == lang],
        target=lambda e: e.metadata["target"], extractor=extractor)], closed_label=True)


CORPUS_TASKS = {"tr_idiom_detection": _idioms("detection"), "tr_idiom_entailment": _idioms("entailment")}
