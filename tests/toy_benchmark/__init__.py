"""A toy benchmark, declared the way a new benchmark's folder declares itself (benchmarks/<name>/__init__.py):
a task answered by text or by logprob with a setting that splits a table's rows, its scorer, a results table, a
figure, annotation schemes, a judged task (`explain.py`) with the paper's judge-vs-people and annotators' tables,
the paper's protocol and its printed numbers (`paper_numbers.csv` beside this file), all in this one place.

tests/test_toy_benchmark.py adds it to the registry's list, the one line a new benchmark adds to _registry.py, and
runs every command on it.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Literal

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from figeval.annotation.spec import AnnotationSpec
from figeval.answering import AnswerMode, answer_solver
from figeval.benchmark import AgreementTables, Benchmark, FigureSpec, ProtocolRun
from figeval.table_model import Column, TableSpec, unparsed_column, unread_note
from figeval.scoring.labels import word_scheme
from figeval.scoring.metrics import AS_WRONG, TARGET, policy_metrics, recorded_policies
from figeval.scoring.reading_metrics import reading_metrics
from figeval.scoring.outcome import to_score
from figeval.scoring.readers import read_answer
from figeval.task import benchmark_task, identified_task
from tests.toy_benchmark.explain import EXPLAIN_ANNOTATION, toy_explain


class Parity(str, Enum):
    EVEN = "even"
    ODD = "odd"


WORDS = {Parity.EVEN: frozenset({"even"}), Parity.ODD: frozenset({"odd"})}
POLICIES = {"accuracy": (TARGET, AS_WRONG)}
NUMBERS = (2, 3, 4, 7)
# How the question is put: part of a run's identity (two wordings are two rows of a table), as a paper's prompt
# language is.
Wording = Literal["plain", "strict"]
PROMPTS = {"plain": "Is {number} even or odd? Answer with one word.",
           "strict": "Answer with exactly one word, even or odd: is {number} even or odd?"}


def read_parity(text: str) -> str | None:
    """The first word, when it names a parity ("Even.", "odd, because ..."); else unread."""
    words = text.strip().lower().split()
    first = words[0].strip(".,!:") if words else ""
    return first if first in ("even", "odd") else None


@scorer(metrics=[])
def parity_scorer(answer_mode: str = AnswerMode.GENERATE.value) -> Scorer:
    """Reads the text (`generate`) or the label words' mass among the next token's candidates (`logprob`)."""
    words = {label.value: variants for label, variants in WORDS.items()}
    mode = AnswerMode(answer_mode)

    async def score(state: TaskState, target: Target) -> Score:
        outcome = read_answer(state.output, mode, paper=None, reader=read_parity, words=words, target=target.text)
        return to_score(outcome, list(words))

    return score


@identified_task(neutral={"note": "written to the log for the reader; never shown to the model or the scorer"})
def toy_parity(answer_mode: Literal["generate", "logprob"] = "generate", wording: Wording = "plain",
               note: str = "") -> Task:
    """Is the number even or odd?"""
    samples = [Sample(id=f"toy-{number}", input=PROMPTS[wording].format(number=number),
                      target="even" if number % 2 == 0 else "odd", metadata={"number": str(number)})
               for number in NUMBERS]
    return benchmark_task(
        benchmark="Toy: parity", dataset=MemoryDataset(samples, name="toy-parity"),
        solver=answer_solver(AnswerMode(answer_mode)), scorer=parity_scorer(answer_mode),
        metrics=[*policy_metrics(POLICIES), *reading_metrics()], version="toy-v1",
        unparsed_policies=recorded_policies(POLICIES), provenance={}, answer_mode=AnswerMode(answer_mode),
    )


TABLE_1 = TableSpec(
    "toy/table-1", "Toy", "Table 1", "Parity accuracy", "percent",
    (Column("accuracy", "Accuracy", "toy_parity", "accuracy", better="higher"),
     unparsed_column("unparsed", "Unparsed", "toy_parity")),
    ("answer_mode",),
    notes=(unread_note("Unparsed", "counted wrong"),),
)

BENCHMARK = Benchmark(
    name="toy",
    title="Toy",
    citation="figeval's tests",
    tasks=(toy_parity, toy_explain),
    annotated={"toy_parity": AnnotationSpec(scheme=word_scheme(WORDS), instructions=("Is the answer even or odd?",),
                                            input_key="number", answers="all", direction="ltr"),
               "toy_explain": EXPLAIN_ANNOTATION},
    # the paper prints its judge against people in its Table 2 and its annotators against each other in Table 3
    agreement={"toy_explain": AgreementTables("Table 2", "Table 3")},
    tables=(TABLE_1,),
    headlines=(Column("toy_parity", "Toy parity", "toy_parity", "accuracy", better="higher"),),
    figures=(FigureSpec("toy/table-1", "toy-accuracy", "Toy: parity accuracy", "accuracy (%)", columns=("accuracy",)),),
    protocol=(ProtocolRun("toy_parity", fills="Table 1"),),
    paper_numbers=Path(__file__).parent / "paper_numbers.csv",
)
