"""PerHalluEval tasks (Hosseini et al., "PerHalluEval: Persian Hallucination Evaluation Benchmark for Large
Language Models"; Section 3.5, Table 2)."""

from __future__ import annotations

from pathlib import Path

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset

from figeval.answering import AnswerMode, AnswerModeName, answer_mode_of, answer_solver
from figeval.benchmarks.perhallueval.dataset import item_samples, load_items
from figeval.benchmarks.perhallueval.prompts import PROMPT_VERSION
from figeval.benchmarks.perhallueval.scorer import (
    ITEM_MEANS,
    UnparsedPolicy,
    perhallueval_metrics,
    perhallueval_scorer,
    unparsed_policies,
)
from figeval.data.stored import sha256_of
from figeval.scoring.metrics import AS_WRONG
from figeval.subset import Design
from figeval.task import benchmark_task, identified_task

# Each item is asked with its correct and its hallucinated version (Section 3.5; Appendix B's Hamming score is per
# item, over both); QA reports Persian-specific and generic items apart (Section 5.1, Figure 5). A `--limit`
# subset takes whole items from both subsets, in proportion (a file without the flag has one stratum).
ITEM_DESIGN = Design(unit="item", asked_as="version", strata=("subset",))


def _perhallueval_task(kind: str, data: str | None, mode: AnswerMode, unparsed: str) -> Task:
    path = Path(data) if data else None
    items = load_items(path, kind)
    return benchmark_task(
        benchmark=f"PerHalluEval {kind}",
        dataset=MemoryDataset(item_samples(items, kind), name=f"perhallueval-{kind}"),
        solver=answer_solver(mode),
        scorer=perhallueval_scorer(mode.value),
        metrics=perhallueval_metrics(unparsed),
        version=PROMPT_VERSION,
        unparsed_policies=unparsed_policies(unparsed),
        provenance={"data_file": data, "data_sha256": sha256_of(path) if path else None},
        answer_mode=mode,
        design=ITEM_DESIGN,
        item_means=ITEM_MEANS,
        unparsed=unparsed,
    )


# QA and summarization each read a file of their own: their `data` are never one setting.
@identified_task(files=("data",), own=("data",))
def perhallueval_qa(data: str | None = None, answer_mode: AnswerModeName = "auto",
                    unparsed: UnparsedPolicy = AS_WRONG) -> Task:
    """Is the answer to the Persian question faithful (Y) or hallucinated (N)? Each item is asked with its correct
    and its hallucinated answer.

    Args:
        data: the final PerHalluEval QA file (`figeval build perhallueval-candidates --task qa`, or a published one).
        answer_mode: `generate` (first word, else last, is Y/N), `logprob` (next-token Y/N variants) or `auto`
            (logprob for gguf/ models, generate otherwise).
        unparsed: how an unreadable answer counts in all three statistics: `as_wrong` (never right; the
            default, as the paper is silent) or `excluded` (left out, as the paper's data filter does).
    """
    return _perhallueval_task("qa", data, answer_mode_of(answer_mode), unparsed)


@identified_task(files=("data",), own=("data",))
def perhallueval_summarization(data: str | None = None, answer_mode: AnswerModeName = "auto",
                               unparsed: UnparsedPolicy = AS_WRONG) -> Task:
    """Is the summary faithful to the Persian news article (Y) or hallucinated (N)?

    Args:
        data: the final PerHalluEval summarization file.
        answer_mode: `generate`, `logprob` or `auto` (logprob for gguf/ models, generate otherwise).
        unparsed: `as_wrong` (default) or `excluded`, for all three statistics.
    """
    return _perhallueval_task("summarization", data, answer_mode_of(answer_mode), unparsed)
