"""FFE-HALLU's tasks as the shared corpus tests score them (tests/real_answers)."""

from figeval.benchmarks.ffe_hallu.scorer import detection_scorer, ffe_judged_scorer
from tests.real_answers.corpus import CorpusTask, score_all, scripted_judge

JUDGE = scripted_judge(lambda answer: "0")


def _open(task: str) -> CorpusTask:
    return CorpusTask(lambda entries, extractor: score_all(
        ffe_judged_scorer(task, [], JUDGE), entries,
        metadata=lambda e: {"references": [], "english": "", "meaning": "", **e.metadata}), closed_label=False)


CORPUS_TASKS = {
    "ffe_detection": CorpusTask(lambda entries, extractor: score_all(
        detection_scorer("generate"), entries, target=lambda e: e.metadata["kind"], extractor=extractor),
        closed_label=True),
    "ffe_generation": _open("generation"),
    "ffe_translation": _open("translation"),
}
