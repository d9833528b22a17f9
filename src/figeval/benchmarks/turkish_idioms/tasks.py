"""Turkish idiom tasks (Cavusoglu and Coltekin, "An Idiom Benchmark for Turkish"; Section 4, Table 2)."""

from __future__ import annotations

import sys

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset

from figeval.answering import AnswerMode, answer_mode_of, answer_solver
from figeval.benchmarks.turkish_idioms.dataset import (
    DATASET_NAME,
    detection_samples,
    entailment_samples,
    load_idiom_data,
)
from figeval.benchmarks.turkish_idioms.prompts import PROMPT_VERSION
from figeval.benchmarks.turkish_idioms.scorer import idiom_metrics, idiom_scorer, unparsed_policies
from figeval.scoring.metrics import recorded_policies
from figeval.task import benchmark_task


def _idiom_task(
    kind: str, samples: list, mode: AnswerMode, manual_labels: str | None, provenance: dict[str, object],
    **settings: object,
) -> Task:
    with_frequency = any(sample.metadata["frequency_band"] is not None for sample in samples)
    return benchmark_task(
        benchmark=f"Turkish idioms: {kind}",
        dataset=MemoryDataset(samples, name=f"{DATASET_NAME}-{kind}"),
        solver=answer_solver(mode),
        scorer=idiom_scorer(kind, mode.value, manual_labels),
        metrics=idiom_metrics(kind, with_frequency),
        version=PROMPT_VERSION,
        unparsed_policies=recorded_policies(unparsed_policies(kind)),
        provenance=provenance,
        answer_mode=mode,
        manual_labels=manual_labels,
        **settings,
    )


@task
def tr_idiom_detection(prompt_lang: str = "en", answer_mode: str = "generate", manual_labels: str | None = None) -> Task:
    """Does the Turkish sentence contain an idiom used figuratively? (figurative sentence: yes; literal: no)

    Idioms without a literal-use sentence are left out (and counted), so the two classes stay balanced.

    Args:
        prompt_lang: `en` (the paper's prompt) or `tr` (a Turkish translation written for this project).
        answer_mode: `generate` (first word, else last word, is the label) or `logprob` (base models).
        manual_labels: labels file (`figeval annotate import`) with hand labels of unparsed answers.
    """
    mode = answer_mode_of(answer_mode)
    idioms, provenance = load_idiom_data(prompt_lang)
    samples, skipped = detection_samples(idioms, prompt_lang)
    if skipped:
        print(f"tr_idiom_detection: {skipped} idiom(s) without a literal-use sentence left out", file=sys.stderr)
    return _idiom_task("detection", samples, mode, manual_labels, provenance, prompt_lang=prompt_lang,
                       idioms_without_literal=skipped)


@task
def tr_idiom_entailment(prompt_lang: str = "en", answer_mode: str = "generate", manual_labels: str | None = None) -> Task:
    """Does the idiomatic sentence entail this one? (its literal paraphrase: entailment; the similar sentence:
    contradiction)

    Args:
        prompt_lang: `en` (the paper's prompt) or `tr` (a Turkish translation written for this project).
        answer_mode: `generate` (first word, else last word, is the label) or `logprob` (base models).
        manual_labels: labels file (`figeval annotate import`) with hand labels of unparsed answers.
    """
    mode = answer_mode_of(answer_mode)
    idioms, provenance = load_idiom_data(prompt_lang)
    samples = entailment_samples(idioms, prompt_lang)
    return _idiom_task("entailment", samples, mode, manual_labels, provenance, prompt_lang=prompt_lang)
