"""Scoring of the Persian allusions tasks (paper Section 3, Table 3).

- multiple choice (Section 3.2): the chosen option (1-5, or 0 for "none") against the recorded position of the
  answer; every text holds an allusion, so "none" is wrong. The paper is silent on answers that name no
  option: they count as wrong (`as_wrong`). In logprob mode (base models) the option is the one whose number
  carries the most of the next token's probability; no number among the top candidates, or a tie, is unparsed;
- knowledge (Section 3.1): the model's JSON answer, labelled complete / partial / incorrect-or-absent by a
  judge against the description; "We only considered responses in the first category as demonstrating true
  knowledge". An answer that cannot be read shows no knowledge: it counts as incorrect-or-absent
  (`as_label:incorrect`);
- open-ended recognition (Section 3.3): the JSON answer labelled correct / incorrect by a judge, with or
  without the ground truth; the paper is silent on unreadable answers: they count as wrong (`as_wrong`).
An answer saying "not familiar" / "no allusion" is labelled incorrect by rule, without a judge call. An answer
the judge could not label (twice) is left out of the rates and reported as `judge_unparsed_rate`.
"""

from __future__ import annotations

from dataclasses import replace
from enum import Enum

from inspect_ai.scorer import Metric, Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from figeval.annotation.spec import AnnotationSpec
from figeval.benchmarks.persian_allusions.dataset import N_OPTIONS
from figeval.benchmarks.persian_allusions.prompts import (
    ANNOTATION_INSTRUCTIONS,
    JUDGE_SYSTEM_PROMPT,
    KNOWLEDGE_ANNOTATION_INSTRUCTIONS,
    KNOWLEDGE_JUDGE_PROMPT,
    OPEN_JUDGE_PROMPT,
)
from figeval.answering import AnswerMode, asked_in
from figeval.benchmarks.persian_allusions.judged_readers import json_answer_text, prose_answer
from figeval.benchmarks.persian_allusions.readers import paper_option, read_option
from figeval.parsing import strip_reasoning
from figeval.scoring.judged import JudgeRequest, judged_outcome, quoted_answer
from figeval.scoring.labels import LabelScheme
from figeval.scoring.breakdowns import grouped_rate
from figeval.scoring.metrics import AS_WRONG, TARGET, as_label, policy_metrics
from figeval.scoring.reading_metrics import counted_status, label_mass, reading_metrics
from figeval.scoring.outcome import DecidedBy, Outcome, to_score
from figeval.scoring.extractor import with_extractor
from figeval.scoring.readers import read_answer


class KnowledgeLabel(str, Enum):
    INCORRECT = "incorrect"
    """0: incorrect or absent."""
    PARTIAL = "partial"
    """1: correct in part."""
    COMPLETE = "complete"
    """2: the story told correctly: only this counts as knowing the allusion (the paper's rule)."""


class OpenLabel(str, Enum):
    INCORRECT = "incorrect"
    CORRECT = "correct"


KNOWLEDGE_LABELS = LabelScheme(
    codes={0: KnowledgeLabel.INCORRECT, 1: KnowledgeLabel.PARTIAL, 2: KnowledgeLabel.COMPLETE},
    words={"incorrect": KnowledgeLabel.INCORRECT, "absent": KnowledgeLabel.INCORRECT, "partial": KnowledgeLabel.PARTIAL,
           "complete": KnowledgeLabel.COMPLETE, "کامل": KnowledgeLabel.COMPLETE, "ناقص": KnowledgeLabel.PARTIAL,
           "نادرست": KnowledgeLabel.INCORRECT},
)
OPEN_LABELS = LabelScheme(
    codes={0: OpenLabel.INCORRECT, 1: OpenLabel.CORRECT},
    words={"incorrect": OpenLabel.INCORRECT, "correct": OpenLabel.CORRECT, "درست": OpenLabel.CORRECT,
           "نادرست": OpenLabel.INCORRECT},
)
# People label every output, as the paper's did ("All outputs were manually validated", Section 3.3; "An expert
# manually classified responses", Section 3.1): Table 3's numbers from their labels (`figeval annotate rates`),
# Table 4 the judge against them. Open-ended: they see the text the model read; knowledge: the allusion asked about.
ANNOTATION = AnnotationSpec(scheme=OPEN_LABELS, instructions=ANNOTATION_INSTRUCTIONS, input_key="text", answers="all")
KNOWLEDGE_ANNOTATION = AnnotationSpec(scheme=KNOWLEDGE_LABELS, instructions=KNOWLEDGE_ANNOTATION_INSTRUCTIONS,
                                      input_key="allusion", answers="all")

NONE_OPTION = "0"
OPTION_LABELS = [str(choice) for choice in range(N_OPTIONS + 1)]
# Logprob mode: the option numbers Table 7's prompt asks for, in its order ("Respond with only the correct option
# number (1-5)", then 0 for "No allusion found"), each its own word. A token is read as the number it is (Persian
# and Arabic-Indic digits too, "3." and " 3" as 3), never as a prefix: "35" or "10" names no option. Each number is
# one token in the tokenizers figeval meets (Gemma's digits are single tokens), so no label needs two tokens.
OPTION_WORDS = {label: frozenset({label}) for label in [*OPTION_LABELS[1:], NONE_OPTION]}
MC_POLICIES = {"accuracy": (TARGET, AS_WRONG), "none_rate": (NONE_OPTION, AS_WRONG)}
NOT_KNOWN_IF_UNPARSED = as_label(KnowledgeLabel.INCORRECT.value)
KNOWLEDGE_POLICIES = {
    "knowledge_rate": (KnowledgeLabel.COMPLETE.value, NOT_KNOWN_IF_UNPARSED),
    "partial_rate": (KnowledgeLabel.PARTIAL.value, NOT_KNOWN_IF_UNPARSED),
    "incorrect_rate": (KnowledgeLabel.INCORRECT.value, NOT_KNOWN_IF_UNPARSED),
}
OPEN_POLICIES = {"accuracy": (OpenLabel.CORRECT.value, AS_WRONG)}


def _theme_accuracy(of: str) -> list[Metric]:
    """Accuracy per theme, each with its `/n`; a text with several themes counts in each (multi-label)."""
    return grouped_rate(of, AS_WRONG, "theme_slugs", "accuracy/theme_{group_name}", many=True)


def _failure_rates() -> list[Metric]:
    return [*reading_metrics(), *counted_status("judge_unparsed", "judge_unparsed_rate")]


@scorer(metrics=[*policy_metrics(MC_POLICIES), *reading_metrics(), *_theme_accuracy(TARGET), label_mass()])
def mc_scorer(answer_mode: str = AnswerMode.GENERATE.value) -> Scorer:
    """accuracy (unparsed counts as wrong), none_rate (chose 0), unparsed_rate, how answers were read, accuracy
    per theme, and in logprob mode the mass on the option numbers (`label_mass`).

    Args:
        answer_mode: `generate` (read the text in layers), `logprob` (the option numbers' next-token
            probabilities) or `auto` (the sample's model decides, `figeval.answering.AnswerMode.AUTO`).
    """
    mode = AnswerMode(answer_mode)

    async def score(state: TaskState, target: Target) -> Score:
        options = state.metadata["options"]
        mode_asked = asked_in(state, mode)

        def as_label(choice: int | None) -> str | None:
            return None if choice is None else str(choice)

        outcome = read_answer(state.output, mode_asked,
                              paper=lambda text: as_label(paper_option(text, N_OPTIONS)),
                              reader=lambda text: as_label(read_option(text, options, N_OPTIONS)), words=OPTION_WORDS,
                              target=target.text)
        if mode_asked is AnswerMode.GENERATE:
            # A logprob answer is one token, not an answer to read: an extractor would read the greedy token and
            # so break a tie in the model's favour.
            outcome = await with_extractor(outcome, state, OPTION_LABELS)
        if outcome.label is not None:
            choice = int(outcome.label)
            chosen = "none of the options" if choice == 0 else options[choice - 1]
            outcome = replace(outcome, explanation=f"chose {choice}: {chosen} ({outcome.explanation})")
        return to_score(outcome, OPTION_LABELS)

    return score


async def _judged(state: TaskState, scheme: LabelScheme, fields: tuple[str, str], empty_rule: str, prompt: str,
                  judge: str | None) -> Score:
    """Read the answer (the JSON list asked for, else the prose as written), label an empty one incorrect by rule,
    ask the judge otherwise; only an empty output is unparsed (nothing to ask)."""

    def shortcut(answer: str) -> Outcome | None:
        if answer:
            return None
        # the output as written ("[]", the null JSON) is what an annotator reads as "no allusion" / "not familiar"
        return Outcome("incorrect", DecidedBy.RULE, answer=strip_reasoning(state.output.completion).strip(),
                       rule=empty_rule, explanation="the answer names nothing")

    outcome = await judged_outcome(
        state.output, paper=lambda text: json_answer_text(text, fields),
        reader=lambda text: prose_answer(text, fields),
        unparsed_explanation="no answer", shortcut=shortcut, scheme=scheme, judge=judge,
        request=lambda answer: JudgeRequest(JUDGE_SYSTEM_PROMPT,
                                            prompt.format(answer=quoted_answer(answer), **state.metadata)),
    )
    return to_score(outcome, scheme.values)


@scorer(metrics=[*policy_metrics(KNOWLEDGE_POLICIES), *_failure_rates()])
def knowledge_scorer(judge: str | None = None) -> Scorer:
    """knowledge_rate (complete explanations: the paper's "knows the allusion"), partial_rate, incorrect_rate
    (an unreadable answer shows no knowledge), unparsed_rate, judge_unparsed_rate."""

    async def score(state: TaskState, target: Target) -> Score:
        return await _judged(state, KNOWLEDGE_LABELS, ("title", "full_explanation"), "not_familiar",
                             KNOWLEDGE_JUDGE_PROMPT, judge)

    return score


@scorer(metrics=[*policy_metrics(OPEN_POLICIES), *_failure_rates(), *_theme_accuracy(OpenLabel.CORRECT.value)])
def open_scorer(judge_mode: str = "gt", judge: str | None = None) -> Scorer:
    """accuracy (correct among answers not lost to the judge; unparsed counts as wrong), unparsed_rate,
    judge_unparsed_rate, accuracy per theme."""
    prompt = OPEN_JUDGE_PROMPT[judge_mode]

    async def score(state: TaskState, target: Target) -> Score:
        return await _judged(state, OPEN_LABELS, ("reference", "explanation"), "no_allusion", prompt, judge)

    return score
