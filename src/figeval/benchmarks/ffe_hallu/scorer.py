"""Scoring of FFE-HALLU.

Task 2 (detection; Section 3.2, Section 4 "Automatic Ground-Truth Evaluation", Table 4, Figure 1): the Yes/No
verdict is read, then turned into what it says the expression is (`real` or `fake`, given the framing). The
paper marks a response correct only if it identifies the fake as fake, "otherwise hallucinated": an unparsed
answer therefore counts as accepting the fake (`as_label:real`). Authentic controls (ours, not the paper's)
count an unparsed answer as rejecting the real FFE (`as_label:fake`), again never in the model's favour.

Tasks 1 and 3 (generation and translation; Sections 3.1, 3.3, 5): the answer is cleaned, matched against the
references and the authentic list, and otherwise labelled by a judge. Every output gets a label and rates are
over all outputs: one with no Persian expression "does not exist as a Persian FFE", so it counts as
hallucinated (`as_label:hallucinated`). An answer the judge could not label (twice) is left out of the rates
and reported as `judge_unparsed_rate`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from enum import Enum

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from figeval.annotation.spec import AnnotationSpec
from figeval.answering import AnswerMode, asked_in
from figeval.benchmarks.ffe_hallu.dataset import Framing, ItemKind
from figeval.benchmarks.ffe_hallu.prompts import (
    ANNOTATION_INSTRUCTIONS,
    GENERATION_JUDGE_PROMPT,
    GENERATION_JUDGE_SYSTEM_PROMPT,
    JUDGE_PROMPTS,
    KNOWN_IDIOM_HINT,
    TRANSLATION_JUDGE_PROMPT,
    TRANSLATION_JUDGE_SYSTEM_PROMPT,
)
from figeval.errors import FigevalError
from figeval.benchmarks.ffe_hallu.expressions import bare_expression, chosen_equivalent, generated_expression
from figeval.benchmarks.ffe_hallu.readers import detection_readers
from figeval.parsing import YES_NO_WORDS, YesNo
from figeval.scoring.judged import JudgeRequest, judged_outcome, quoted_answer, relabelled
from figeval.scoring.labels import LabelScheme
from figeval.scoring.breakdowns import grouped_by, grouped_rate, mean_over_groups, total_over_groups
from figeval.scoring.metrics import (as_label, counted_label, denominator_name, named, outcomes, policy_metrics,
                                     rate, rate_n)
from figeval.scoring.reading_metrics import (
    counted_status,
    decided_by_counts,
    label_mass,
    reading_metrics,
    reading_shares,
)
from figeval.scoring.outcome import DecidedBy, Outcome, Status, to_score
from figeval.scoring.extractor import with_extractor
from figeval.scoring.readers import read_answer
from figeval.text import expression_key


class Verdict(str, Enum):
    """What a detection answer says the expression is."""

    REAL = "real"
    FAKE = "fake"


VERDICTS = [v.value for v in Verdict]


def says_real(verdict: YesNo, framing: Framing) -> bool:
    """Whether a verdict under a framing accepts the expression as a real FFE.

    fake-q ("is it fake?"): No means real. real-q ("is it real?"): Yes means real.
    """
    return (verdict is YesNo.YES) == (framing is Framing.REAL_Q)


def detection_outcome(state: TaskState, mode: AnswerMode) -> Outcome:
    """What the answer says the expression is (`real` or `fake`), read in layers in generate mode (see
    `readers`), or from the next token's yes/no words in logprob mode (turned into real/fake by the framing)."""
    framing = Framing(state.metadata["framing"])
    target = Verdict.REAL.value if state.metadata["kind"] == ItemKind.REAL.value else Verdict.FAKE.value
    yes_means = Verdict.REAL.value if framing is Framing.REAL_Q else Verdict.FAKE.value
    if mode is AnswerMode.GENERATE:
        paper, reader = detection_readers(yes_means, state.metadata["expression"])
        return read_answer(state.output, mode, paper=paper, reader=reader, words={}, target=target)
    reading = read_answer(state.output, mode, paper=None, reader=lambda text: None,
                          words={v.value: YES_NO_WORDS[v] for v in YesNo}, target=target)
    if reading.label is None:
        return reading
    verdict = Verdict.REAL if says_real(YesNo(reading.label), framing) else Verdict.FAKE
    return replace(reading, label=verdict.value, answer=reading.label,
                   explanation=f"{reading.explanation} ({framing.value}: {verdict.value})")


FAKES = {"kind": ItemKind.FAKE.value}
CONTROLS = {"kind": ItemKind.REAL.value}
# Table 4's hallucination rate: fakes accepted as real; an unparsed answer is not a rejection (Section 4).
HALLUCINATED_IF_UNPARSED = as_label(Verdict.REAL.value)
# Controls: an authentic FFE called fake; an unparsed answer is not an acceptance.
REJECTED_IF_UNPARSED = as_label(Verdict.FAKE.value)
DETECTION_POLICIES = {
    "halluc_rate_fake_q": HALLUCINATED_IF_UNPARSED,
    "halluc_rate_real_q": HALLUCINATED_IF_UNPARSED,
    "halluc_rate_avg": HALLUCINATED_IF_UNPARSED,
    "halluc_rate_avg/<category>": HALLUCINATED_IF_UNPARSED,
    "halluc_rate_fake_q/<category>": HALLUCINATED_IF_UNPARSED,
    "halluc_rate_real_q/<category>": HALLUCINATED_IF_UNPARSED,
    "agreement": "as the hallucination rate counts it (as_label:real): Section 3.2 labels every response correct "
                 "or hallucinated, and agreement compares those labels",
    "false_rejection_rate": REJECTED_IF_UNPARSED,
}


def paired_answers(scores: Sequence[SampleScore]) -> list[dict[str, str | None]]:
    """Per fake asked under both framings, its label under each ({framing: real or fake}), an unread answer
    counted as the hallucination rate counts it (`real`: accepted). Section 3.2 labels each response "correct"
    (rejects the fake) or "hallucinated" (endorses it), and Table 4's agreement is "consistency between the two
    prompt formulations for the same input": of those labels."""
    by_item: dict[str, dict[str, str | None]] = defaultdict(dict)
    for s, outcome in zip(scores, outcomes(scores)):
        metadata = s.sample_metadata or {}
        if metadata.get("kind") == ItemKind.FAKE.value:
            by_item[metadata["item"]][metadata["framing"]] = counted_label(outcome, HALLUCINATED_IF_UNPARSED)[1]
    return [answers for answers in by_item.values() if len(answers) == 2]


@metric
def framing_agreement() -> Metric:
    """Fakes whose two answers have the same label (both accepted as real, or both rejected), an unread answer
    counted as accepted as the rates count it, over the fakes asked under both framings (Table 4, "Agreement")."""

    def compute(scores: list[SampleScore]) -> float | None:
        paired = paired_answers(scores)
        return sum(len(set(a.values())) == 1 for a in paired) / len(paired) if paired else None

    return compute  # type: ignore[return-value]  # None (undefined: left out) is outside Inspect's Metric type


@metric
def paired_fakes() -> Metric:
    """`framing_agreement`'s denominator: the fakes asked under both framings; undefined (left out) with none."""

    def compute(scores: list[SampleScore]) -> float | None:
        return len(paired_answers(scores)) or None

    return compute  # type: ignore[return-value]  # None (undefined: left out) is outside Inspect's Metric type


def detection_metrics() -> list[Metric]:
    """The detection metrics of Table 4 (rates in [0, 1]) and, over the authentic controls, the false-rejection
    rate, each with its denominator (`<name>/n`); a rate with no samples (e.g. a --limit that reached no real-q
    sample) is left out, not zero."""
    fake_accepted = rate(Verdict.REAL.value, HALLUCINATED_IF_UNPARSED, FAKES)
    # The average's n is the fakes' answers under both framings: the mean of the two rates is their pooled share
    # when both framings asked the same fakes (Table 4). A report's Wilson interval over them takes the two
    # answers to one fake as independent, which they are not (the agreement column): it is somewhat narrow.
    both_framings = [f.value for f in Framing]
    fake_answers = total_over_groups(rate_n(Verdict.REAL.value, HALLUCINATED_IF_UNPARSED, FAKES), "framing",
                                     both_framings)
    return [
        # the average first: Table 4's headline, which the log viewer shows as the task's score
        named(mean_over_groups(fake_accepted, "framing", both_framings), "halluc_rate_avg"),
        named(fake_answers, denominator_name("halluc_rate_avg")),
        # halluc_rate_fake_q, halluc_rate_real_q, each with its standard error and n
        *(metric for framing in Framing for metric in policy_metrics(
            {f"halluc_rate_{framing.name.lower()}": (Verdict.REAL.value, HALLUCINATED_IF_UNPARSED)},
            {**FAKES, "framing": framing.value})),
        named(framing_agreement(), "agreement"),
        named(paired_fakes(), denominator_name("agreement")),
        # Table 4's Unparsed column is over the fakes' answers, as its rates are; how answers were read (the
        # reading layers, truncation) is over every answer of the run, the controls' too
        *counted_status(Status.UNPARSED.value, "unparsed_rate", FAKES),
        *counted_status(Status.TRUNCATED.value, "truncated_rate"),
        reading_shares(),
        grouped_by(mean_over_groups(fake_accepted, "framing", both_framings), "category_slug",
                   "halluc_rate_avg/{group_name}"),
        grouped_by(fake_answers, "category_slug", denominator_name("halluc_rate_avg/{group_name}")),
        # Figure 1: each category under each framing
        *(metric for framing in Framing for metric in grouped_rate(
            Verdict.REAL.value, HALLUCINATED_IF_UNPARSED, "category_slug",
            f"halluc_rate_{framing.name.lower()}/{{group_name}}", {**FAKES, "framing": framing.value})),
        named(rate(Verdict.FAKE.value, REJECTED_IF_UNPARSED, CONTROLS), "false_rejection_rate"),
        named(rate_n(Verdict.FAKE.value, REJECTED_IF_UNPARSED, CONTROLS), denominator_name("false_rejection_rate")),
        *reading_metrics(CONTROLS, prefix="control_"),
        label_mass(),
    ]


@scorer(metrics=detection_metrics())
def detection_scorer(answer_mode: str = AnswerMode.GENERATE.value) -> Scorer:
    """Score one detection answer: label `real` (accepts the expression) or `fake`, or unparsed."""
    mode = AnswerMode(answer_mode)

    async def score(state: TaskState, target: Target) -> Score:
        outcome = detection_outcome(state, asked_in(state, mode))
        return to_score(await with_extractor(outcome, state, VERDICTS), VERDICTS)

    return score


# --- Tasks 1 and 3: open answers labelled by a judge (paper Sections 3.1, 3.3 and 5) ---------------------------


class FFELabel(str, Enum):
    HALLUCINATED = "hallucinated"
    """0: not an existing Persian idiom or proverb."""
    CORRECT = "correct"
    """1: an existing FFE with the required meaning."""
    INCORRECT = "incorrect"
    """2: an existing FFE with another meaning, or only a literal wording."""


FFE_LABELS = LabelScheme(
    codes={0: FFELabel.HALLUCINATED, 1: FFELabel.CORRECT, 2: FFELabel.INCORRECT},
    words={
        "hallucinated": FFELabel.HALLUCINATED,
        "hallucination": FFELabel.HALLUCINATED,
        "non existent": FFELabel.HALLUCINATED,
        "nonexistent": FFELabel.HALLUCINATED,
        "fabricated": FFELabel.HALLUCINATED,
        "توهم": FFELabel.HALLUCINATED,
        "ساختگی": FFELabel.HALLUCINATED,
        "correct": FFELabel.CORRECT,
        "درست": FFELabel.CORRECT,
        "صحیح": FFELabel.CORRECT,
        "incorrect": FFELabel.INCORRECT,
        "wrong meaning": FFELabel.INCORRECT,
        "literal": FFELabel.INCORRECT,
        "نادرست": FFELabel.INCORRECT,
        "غلط": FFELabel.INCORRECT,
    },
)


class Rule(str, Enum):
    """The named rules of the judged tasks (recorded in the outcome's `rule`)."""

    REFERENCE_MATCH = "reference_match"
    """The normalized answer equals a reference: correct without a judge call."""
    JUDGE_EXISTING = "judge_existing"
    """The answer equals another authentic FFE: it exists, so a judge's "hallucinated" counts as incorrect."""


# How `figeval annotate` and `figeval judge agreement` treat FFE-HALLU's judged runs: annotators label every
# output (Section 3.5), including those with no Persian expression, seeing the meaning (generation) or the
# English idiom (translation) the model answered.
GENERATION_ANNOTATION = AnnotationSpec(scheme=FFE_LABELS, instructions=ANNOTATION_INSTRUCTIONS, input_key="meaning",
                                       answers="all")
TRANSLATION_ANNOTATION = AnnotationSpec(scheme=FFE_LABELS, instructions=ANNOTATION_INSTRUCTIONS,
                                        input_key="english", answers="all")

HALLUCINATED_IF_NO_EXPRESSION = as_label(FFELabel.HALLUCINATED.value)
# correct_rate first: the headline (Tables 3 and 5), which the log viewer shows as the task's score.
JUDGED_POLICIES = {f"{label.value}_rate": (label.value, HALLUCINATED_IF_NO_EXPRESSION)
                   for label in sorted(FFELabel, key=lambda label: label is not FFELabel.CORRECT)}


def judged_metrics() -> list[Metric]:
    """correct/incorrect/hallucinated rates over all outputs but the judge's failures (they sum to 1; an output
    with no Persian expression is hallucinated), unparsed and judge_unparsed rates over all outputs, and how
    many outputs each way and rule decided."""
    return [*policy_metrics(JUDGED_POLICIES), *reading_metrics(),
            *counted_status("judge_unparsed", "judge_unparsed_rate"), decided_by_counts()]


class OpenTask(str, Enum):
    GENERATION = "generation"
    TRANSLATION = "translation"


def check_judge_prompt(variant: str) -> str:
    if variant not in JUDGE_PROMPTS:
        raise FigevalError(f"judge_prompt must be one of {list(JUDGE_PROMPTS)}, not {variant!r}.")
    return variant


@scorer(metrics=judged_metrics())
def ffe_judged_scorer(task: str, known_expressions: list[str], judge: str | None = None,
                      judge_prompt: str = "paper", judge_every_output: bool = True,
                      known_idiom_hint: bool = False) -> Scorer:
    """Label an open answer correct / incorrect / hallucinated (paper Section 5, Appendix D).

    Args:
        task: `generation` (the answer is the output's expression) or `translation` (its final choice).
        known_expressions: every authentic FFE of the benchmark: an answer equal to one of them exists.
        judge: the judge model; default: Inspect's `grader` role.
        judge_prompt: `paper` (Appendix D as printed) or `human` (literal output is label 0).
        judge_every_output: the judge also labels the outputs a rule decided or that could not be read, as the
            paper's judges labelled every output (Table 6); its label is recorded beside the outcome, which stays
            the rule's. False saves those calls, and Table 6 then rests on the judged answers only.
        known_idiom_hint: ours, off by default: tell the judge that an answer equal to an authentic FFE is a
            known idiom (`KNOWN_IDIOM_HINT`). Off, the judge is asked Appendix D as printed about every answer.
    """
    variant = check_judge_prompt(judge_prompt)
    open_task = OpenTask(task)
    known = {expression_key(e) for e in known_expressions}
    translation = open_task is OpenTask.TRANSLATION

    async def score(state: TaskState, target: Target) -> Score:
        references = state.metadata["references"]

        def shortcut(answer: str) -> Outcome | None:
            if expression_key(answer) in {expression_key(r) for r in references}:
                return Outcome(FFELabel.CORRECT.value, DecidedBy.RULE, answer=answer, rule=Rule.REFERENCE_MATCH.value,
                               explanation="equals the reference after normalization")
            return None

        def request(answer: str) -> JudgeRequest:
            if translation:
                system = TRANSLATION_JUDGE_SYSTEM_PROMPT
                prompt = TRANSLATION_JUDGE_PROMPT[variant].format(english=state.metadata["english"],
                                                                  answer=quoted_answer(answer))
            else:
                system = GENERATION_JUDGE_SYSTEM_PROMPT
                prompt = GENERATION_JUDGE_PROMPT[variant].format(meaning=state.metadata["meaning"],
                                                                 reference=references[0], answer=quoted_answer(answer))
            if expression_key(answer) in known:
                hint = KNOWN_IDIOM_HINT if known_idiom_hint else ""
                return JudgeRequest(system, prompt + hint, Rule.JUDGE_EXISTING.value)
            return JudgeRequest(system, prompt)

        def override(outcome: Outcome) -> Outcome:
            if outcome.rule == Rule.JUDGE_EXISTING.value and outcome.label == FFELabel.HALLUCINATED.value:
                # The expression is in the authentic list, so it exists: the judge's "non-existent" means it
                # failed to recognize it; what remains to decide is the meaning, which it did not confirm.
                return relabelled(outcome, FFELabel.INCORRECT.value,
                                  "judge said hallucinated, but the answer is an authentic FFE; counted incorrect.")
            return outcome

        outcome = await judged_outcome(
            state.output,
            paper=None if translation else bare_expression,
            reader=chosen_equivalent if translation
            else (lambda text: generated_expression(text, state.metadata.get("meaning"))),
            unparsed_explanation="no 'Final answer:' line with a Persian expression" if translation
            else "no Persian expression",
            shortcut=shortcut, request=request, scheme=FFE_LABELS, judge=judge, override=override,
            judge_every_output=judge_every_output,
        )
        return to_score(outcome, FFE_LABELS.values)

    return score

