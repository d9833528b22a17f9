"""Scoring of the Turkish idiom benchmark (paper Section 4, Table 2).

An answer is read in layers (`readers`): the paper's protocol first ("if the first or the last word still was a
valid label, we used it"), then figeval's reader for the reasoning the paper's authors read by hand; in logprob
mode, the label whose words carry the most next-token probability. Reading yes/no as an entailment answer is an
option, off by default. For answers with no label the paper "read the text and determined the label manually":
an unparsed answer is wrong for accuracy (`as_wrong`) until a person labels it, reported as its own rate, and
exportable for labelling by hand (`figeval annotate export`); with `-T manual_labels=labels.csv` those hand
labels are used, each only on the answer it was made for, and the answer is recorded as decided by hand.
"""

from __future__ import annotations

import sys
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path

from inspect_ai.scorer import Metric, Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from figeval.annotation.answers import answer_digest
from figeval.annotation.labels import read_labels
from figeval.annotation.spec import AnnotationSpec
from figeval.answering import AnswerMode, asked_in
from figeval.benchmarks.turkish_idioms.dataset import Label
from figeval.benchmarks.turkish_idioms.prompts import ANNOTATION_INSTRUCTIONS
from figeval.errors import FigevalError
from figeval.benchmarks.turkish_idioms.readers import read_label
from figeval.parsing import first_or_last_label
from figeval.scoring.labels import LabelScheme, word_scheme
from figeval.scoring.breakdowns import grouped_rate, mean_over_groups, total_over_groups
from figeval.scoring.metrics import AS_WRONG, EXCLUDED, TARGET, denominator_name, named, policy_metrics, rate, rate_n
from figeval.scoring.reading_metrics import label_mass, reading_metrics
from figeval.scoring.outcome import Outcome, to_score
from figeval.scoring.extractor import with_extractor
from figeval.scoring.readers import read_answer

# The words a prompt asks for, in its language (Appendix A: 'Answer only with "yes" or "no"', 'Answer only
# with "contradiction" or "entailment"'). Section 4 reads the first or last word "if ... still was a valid label".
PROMPT_WORDS: dict[str, dict[Label, frozenset[str]]] = {
    "en": {Label.YES: frozenset({"yes"}), Label.NO: frozenset({"no"}),
           Label.ENTAILMENT: frozenset({"entailment"}), Label.CONTRADICTION: frozenset({"contradiction"})},
    "tr": {Label.YES: frozenset({"evet"}), Label.NO: frozenset({"hayır", "hayir"}),
           Label.ENTAILMENT: frozenset({"gerektirme"}), Label.CONTRADICTION: frozenset({"çelişki"})},
}
TASK_LABELS = {"detection": (Label.YES, Label.NO), "entailment": (Label.ENTAILMENT, Label.CONTRADICTION)}
# Option (off by default, not the paper's): yes/no also answer "is there entailment?"
YES_NO_FOR = {Label.ENTAILMENT: Label.YES, Label.CONTRADICTION: Label.NO}
# The label whose share is reported (`yes_rate`, `entailment_rate`): Section 4, "all models seem to prefer one of
# the labels heavily".
RATE_LABEL = {"detection": Label.YES, "entailment": Label.ENTAILMENT}


def label_words(task: str, prompt_lang: str, yes_no_entailment: bool = False) -> dict[Label, frozenset[str]]:
    """The words that count as each of a task's labels when reading a model's answer."""
    words = PROMPT_WORDS[prompt_lang]
    found = {label: words[label] for label in TASK_LABELS[task]}
    if task == "entailment" and yes_no_entailment:
        found = {label: variants | words[YES_NO_FOR[label]] for label, variants in found.items()}
    return found


def unparsed_policies(task: str) -> dict[str, tuple[str, str]]:
    """accuracy counts an unparsed answer as wrong; the label preference describes the answers a label was read
    from, so it leaves unparsed ones out (the paper reports no such rate: ours)."""
    return {"accuracy": (TARGET, AS_WRONG), f"{RATE_LABEL[task].value}_rate": (RATE_LABEL[task].value, EXCLUDED)}


def scheme(task: str) -> LabelScheme:
    """What an annotator may write: the label in English or Turkish, or its code."""
    return word_scheme({label: PROMPT_WORDS["en"][label] | PROMPT_WORDS["tr"][label] for label in TASK_LABELS[task]})


def annotation_spec(task: str) -> AnnotationSpec:
    """Hand labels for the answers the parser could not read; annotators see the sentence asked about."""
    names = " or ".join(label.value for label in TASK_LABELS[task])
    return AnnotationSpec(
        scheme=scheme(task),
        instructions=tuple(line.format(labels=names) for line in ANNOTATION_INSTRUCTIONS),
        input_key="question",
        answers="unparsed",
        direction="ltr",  # Turkish: Latin script
    )


@dataclass(frozen=True)
class ManualLabel:
    label: str
    answer_sha256: str | None
    """`answer_digest` of the answer labelled (None: the file has none)."""
    row: int
    """The labels file's row (the header is row 1)."""


def _manual_labels(path: str | None, task_name: str) -> dict[tuple[str, str], ManualLabel]:
    """{(model, sample id): its hand label} of a labels file of `figeval annotate import`."""
    if path is None:
        return {}
    labels, _ = read_labels(Path(path), lambda task: _checked_spec(task, task_name))
    # `read_labels` gives one label per row, in file order
    return {(h.model, h.sample_id): ManualLabel(h.label.value, h.answer_sha256, row)
            for row, h in enumerate(labels, start=2) if h.label is not None}


def check_labelled_samples(path: str | None, task_name: str, sample_ids: Collection[str]) -> None:
    """Refuses, before the run, hand labels of samples the task does not ask (a labels file of another dataset,
    or of a run with other settings): the scorer would find no answer to apply them to, without a word.

    Raises:
        FigevalError: naming the file, the first such row and what to give instead.
    """
    asked = set(sample_ids)
    foreign = sorted((manual.row, sample_id, model) for (model, sample_id), manual in
                     _manual_labels(path, task_name).items() if sample_id not in asked)
    if foreign:
        row, sample_id, model = foreign[0]
        raise FigevalError(f"-T manual_labels={path}, row {row}: sample {sample_id} (of {model}) is not a sample "
                           f"{task_name} asks with these settings ({len(foreign)} such row(s)): the file labels "
                           "another run's answers; give the labels of this run's answers (`figeval annotate "
                           "export` of its log, then `figeval annotate import`).")


def _hand_labelled(outcome: Outcome, manual: ManualLabel | None, completion: str, path: str | None,
                   sample_id: str) -> Outcome:
    """The unparsed `outcome` as people labelled it, when they labelled this very answer. A label made for
    another answer (another run of the model, whose answer the cache did not keep) is not applied: the answer
    stays unparsed, counted as its policy counts it, its explanation says why, and the run says so on stderr, naming
    the row: which answer was labelled is known only once the model has answered, so the run cannot refuse it
    beforehand."""
    if not outcome.is_unparsed or manual is None:
        return outcome
    if manual.answer_sha256 is not None and answer_digest(completion) != manual.answer_sha256:
        # one line of its own, as the task's other notes (a warning logged through Inspect is wrapped in a
        # narrow column, splitting the file's path, and not shown under --display none)
        print(f"note: -T manual_labels={path}, row {manual.row}: the hand label of sample {sample_id} is for "
              "another answer than this run's, so it is not applied (the answer stays unread); label this run's "
              "answers (`figeval annotate export` of its log, then `figeval annotate import`).", file=sys.stderr)
        return replace(outcome, explanation=f"{outcome.explanation}; the hand label in {path} is for another answer "
                                            "than this one, so it is not applied: label this run's answers "
                                            "(`figeval annotate export`)")
    return outcome.by_hand(manual.label)


def _checked_spec(task: str, expected: str) -> AnnotationSpec:
    if task != expected:
        raise FigevalError(f"manual_labels are for task {task}, not {expected}.")
    return annotation_spec(expected.removeprefix("tr_idiom_"))


def idiom_metrics(task: str, with_frequency: bool, balanced: bool = True) -> list[Metric]:
    """accuracy (unparsed counts as wrong), unparsed_rate, the share of the rate label among parsed answers
    (yes_rate / entailment_rate), accuracy per corpus-frequency band when the data has frequencies, and for
    unbalanced detection the balanced accuracy (the mean of the two classes' accuracies)."""
    metrics = [*policy_metrics(unparsed_policies(task)), *reading_metrics(), label_mass()]
    if with_frequency:
        metrics += grouped_rate(TARGET, AS_WRONG, "frequency_band", "accuracy/freq_{group_name}")
    if not balanced:
        variants = ["figurative", "literal"]
        # Balanced accuracy counts what accuracy counts (an unparsed answer wrong), so its n is every answer on a
        # figurative or a literal sentence, parsed or not: n = 397 on the published corpus (Section 4's accuracies
        # are k/397 cut to three decimals). It is the mean of two class accuracies, not a pooled share: a Wilson
        # interval over this n is close only while the classes are near equal, as they are here (200 and 197).
        metrics += [named(mean_over_groups(rate(TARGET, AS_WRONG), "variant", variants), "balanced_accuracy"),
                    named(total_over_groups(rate_n(TARGET, AS_WRONG), "variant", variants),
                          denominator_name("balanced_accuracy"))]
    return metrics


@scorer(metrics=[])
def idiom_scorer(task: str, answer_mode: str = AnswerMode.GENERATE.value, manual_labels: str | None = None,
                 prompt_lang: str = "en", yes_no_entailment: bool = False) -> Scorer:
    """Score one answer of `detection` or `entailment` (the task supplies the metrics, which depend on the data).

    Args:
        task: `detection` or `entailment`.
        answer_mode: `generate` (first/last word) or `logprob` (next-token probabilities of the labels).
        manual_labels: a labels file from `figeval annotate import` with hand labels of unparsed answers.
        prompt_lang: the prompt's language, whose label words are read.
        yes_no_entailment: also read yes/no as entailment/contradiction (not the paper's reading).
    """
    words = {label.value: variants for label, variants in label_words(task, prompt_lang, yes_no_entailment).items()}
    labels = list(words)
    mode = AnswerMode(answer_mode)
    by_hand = _manual_labels(manual_labels, f"tr_idiom_{task}")

    async def score(state: TaskState, target: Target) -> Score:
        mode_asked = asked_in(state, mode)
        outcome = read_answer(state.output, mode_asked, paper=lambda text: first_or_last_label(text, words),
                              reader=lambda text: read_label(text, task), words=words, target=target.text,
                              prefixes=True)
        outcome = await with_extractor(outcome, state, labels)
        manual = by_hand.get((str(state.model), str(state.sample_id)))
        return to_score(_hand_labelled(outcome, manual, state.output.completion, manual_labels,
                                       str(state.sample_id)), labels)

    return score
