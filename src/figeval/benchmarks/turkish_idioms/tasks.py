"""Turkish idiom tasks (Cavusoglu and Coltekin, "An Idiom Benchmark for Turkish"; Section 4, Table 2)."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset

from figeval.answering import AnswerMode, AnswerModeName, answer_mode_of, answer_solver
from figeval.benchmarks.turkish_idioms.dataset import (
    DATASET_NAME,
    detection_samples,
    entailment_samples,
    load_idiom_data,
)
from figeval.benchmarks.turkish_idioms.prompts import PROMPT_VERSION, PromptLanguage
from figeval.benchmarks.turkish_idioms.scorer import (
    check_labelled_samples,
    idiom_metrics,
    idiom_scorer,
    unparsed_policies,
)
from figeval.scoring.metrics import recorded_policies
from figeval.subset import Design
from figeval.task import benchmark_task, identified_task

# Each idiom is asked two ways (detection: its figurative and its literal-use sentence; entailment: its paraphrase
# and the similar sentence), which keeps the classes balanced (Section 4: "the class distribution is balanced in
# both tasks"); Section 4 reports accuracy by corpus frequency (seen vs unseen idioms). A `--limit` subset takes
# whole idioms from every frequency band, in proportion (an idiom without a literal sentence is left out of it).
IDIOM_DESIGN = Design(unit="item", asked_as="variant", strata=("frequency_band",))


def _idiom_task(kind: str, samples: list, mode: AnswerMode, manual_labels: str | None, provenance: dict[str, object],
                prompt_lang: str, yes_no_entailment: bool = False, balanced: bool = True,
                **settings: Any) -> Task:
    check_labelled_samples(manual_labels, f"tr_idiom_{kind}", [str(sample.id) for sample in samples])
    with_frequency = any(sample.metadata["frequency_band"] is not None for sample in samples)
    classes = Counter(sample.target for sample in samples)
    return benchmark_task(
        benchmark=f"Turkish idioms: {kind}",
        dataset=MemoryDataset(samples, name=f"{DATASET_NAME}-{kind}"),
        solver=answer_solver(mode),
        scorer=idiom_scorer(kind, mode.value, manual_labels, prompt_lang, yes_no_entailment),
        metrics=idiom_metrics(kind, with_frequency, balanced),
        version=PROMPT_VERSION,
        unparsed_policies=recorded_policies(unparsed_policies(kind)),
        provenance=provenance,
        answer_mode=mode,
        design=IDIOM_DESIGN,
        prompt_lang=prompt_lang,
        manual_labels=manual_labels,
        yes_no_entailment=yes_no_entailment,
        balanced=balanced,
        class_counts=dict(sorted(classes.items())),
        **settings,
    )


# Each task's hand labels are of its own answers: the two tasks' files are never one setting.
@identified_task(files=("manual_labels",), own=("manual_labels",))
def tr_idiom_detection(prompt_lang: PromptLanguage = "en", answer_mode: AnswerModeName = "auto",
                       manual_labels: str | None = None, balanced: bool = False, frequency_bands: str = "seen") -> Task:
    """Does the Turkish sentence contain an idiom used figuratively? (figurative sentence: yes; literal: no)

    Args:
        prompt_lang: `en` (the paper's prompt, Appendix A) or `tr` (a Turkish translation written for this project).
        answer_mode: `generate` (first word, else last word, is the label), `logprob` (base models) or `auto`
            (logprob for gguf/ models, generate otherwise).
        manual_labels: labels file (`figeval annotate import`) with hand labels of unparsed answers.
        balanced: false (the paper's): every sentence of both kinds is asked, and `balanced_accuracy` is added
            beside accuracy. Section 4's six values are each k/397 cut to three decimals (the corpus's 200
            figurative and 197 literal sentences), so the paper left no sentence out ("the class distribution is
            balanced" near enough). True (ours): leave out the idioms without a literal-use sentence, so that both
            classes are exactly equal.
        frequency_bands: `seen` (unseen vs seen in the corpus: the paper's analysis) or `fine`.
    """
    mode = answer_mode_of(answer_mode)
    idioms, provenance = load_idiom_data(prompt_lang)
    samples, without_literal = detection_samples(idioms, prompt_lang, balanced, frequency_bands)
    if without_literal:
        what = "left out" if balanced else "asked with their figurative sentence only"
        print(f"tr_idiom_detection: {without_literal} idiom(s) without a literal-use sentence {what}", file=sys.stderr)
    return _idiom_task("detection", samples, mode, manual_labels, provenance, prompt_lang, balanced=balanced,
                       idioms_without_literal=without_literal, frequency_bands=frequency_bands)


@identified_task(files=("manual_labels",), own=("manual_labels",))
def tr_idiom_entailment(prompt_lang: PromptLanguage = "en", answer_mode: AnswerModeName = "auto",
                        manual_labels: str | None = None, frequency_bands: str = "seen",
                        yes_no_entailment: bool = False) -> Task:
    """Does the idiomatic sentence entail this one? (its literal paraphrase: entailment; the similar sentence:
    contradiction)

    Args:
        prompt_lang: `en` (the paper's prompt, Appendix A) or `tr` (a Turkish translation written for this project).
        answer_mode: `generate` (first word, else last word, is the label), `logprob` (base models) or `auto`
            (logprob for gguf/ models, generate otherwise).
        manual_labels: labels file (`figeval annotate import`) with hand labels of unparsed answers.
        frequency_bands: `seen` (unseen vs seen in the corpus: the paper's analysis) or `fine`.
        yes_no_entailment: also read "yes"/"no" as entailment/contradiction (not the paper's reading).
    """
    mode = answer_mode_of(answer_mode)
    idioms, provenance = load_idiom_data(prompt_lang)
    samples = entailment_samples(idioms, prompt_lang, frequency_bands)
    return _idiom_task("entailment", samples, mode, manual_labels, provenance, prompt_lang,
                       yes_no_entailment=yes_no_entailment, frequency_bands=frequency_bands)
