"""The toy's judged task, declared as a paper's open-answer task is (a judge labels each answer, people label the
same answers, and the paper prints the judge against the people and the annotators among themselves): the model
says why a number is even or odd, and a judge labels the explanation correct or incorrect.
"""

from __future__ import annotations

from enum import Enum

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState, generate

from figeval.annotation.spec import AnnotationSpec
from figeval.answering import AnswerMode
from figeval.scoring.judge import require_judge
from figeval.scoring.judged import JudgeRequest, judged_outcome, quoted_answer
from figeval.scoring.labels import word_scheme
from figeval.scoring.metrics import AS_WRONG, policy_metrics, recorded_policies
from figeval.scoring.outcome import to_score
from figeval.scoring.reading_metrics import counted_status, reading_metrics
from figeval.task import benchmark_task, identified_task


class Verdict(str, Enum):
    INCORRECT = "incorrect"
    CORRECT = "correct"


# codes in this order: 0 incorrect, 1 correct (the judge's JSON and an annotator's cell give either)
VERDICTS = word_scheme({Verdict.INCORRECT: frozenset({"incorrect", "wrong"}),
                        Verdict.CORRECT: frozenset({"correct", "right"})})
EXPLAIN_POLICIES = {"accuracy": (Verdict.CORRECT.value, AS_WRONG)}
EXPLAIN_NUMBERS = (2, 3, 4, 7)

JUDGE_SYSTEM = "You check a student's explanation of whether a number is even or odd."
JUDGE_PROMPT = ("Number: {number}\nThe student's explanation:\n{answer}\nIs the explanation right? Reply with JSON: "
                '{{"label": 1, "reason": "..."}} if it is, {{"label": 0, "reason": "..."}} if not.')


@scorer(metrics=[])
def explain_scorer(judge: str | None = None) -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        number = state.metadata["number"]
        outcome = await judged_outcome(
            state.output, paper=None, reader=lambda text: text.strip() or None,
            unparsed_explanation="no explanation", shortcut=lambda answer: None, scheme=VERDICTS, judge=judge,
            request=lambda answer: JudgeRequest(JUDGE_SYSTEM,
                                                JUDGE_PROMPT.format(number=number, answer=quoted_answer(answer))))
        return to_score(outcome, VERDICTS.values)

    return score


@identified_task()
def toy_explain(judge: str | None = None) -> Task:
    """Why is the number even or odd? A judge labels the explanation.

    Args:
        judge: the judge model; default: Inspect's `grader` role.
    """
    require_judge(judge)
    samples = [Sample(id=f"toy-explain-{number}", input=f"Is {number} even or odd? Say why in one sentence.",
                      target="even" if number % 2 == 0 else "odd", metadata={"number": str(number)})
               for number in EXPLAIN_NUMBERS]
    return benchmark_task(
        benchmark="Toy: explained parity", dataset=MemoryDataset(samples, name="toy-explain"), solver=generate(),
        scorer=explain_scorer(judge),
        metrics=[*policy_metrics(EXPLAIN_POLICIES), *reading_metrics(),
                 *counted_status("judge_unparsed", "judge_unparsed_rate")],
        version="toy-explain-v1", unparsed_policies=recorded_policies(EXPLAIN_POLICIES), provenance={},
        answer_mode=AnswerMode.GENERATE,
    )


EXPLAIN_ANNOTATION = AnnotationSpec(scheme=VERDICTS, instructions=("Is the explanation right? 1 yes, 0 no.",),
                                    input_key="number", answers="all", direction="ltr")
