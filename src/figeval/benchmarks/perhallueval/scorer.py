"""Scoring of PerHalluEval (Section 3.5, Sections 4-5, Table 2, Appendix B).

Per answer: Y (faithful) or N (hallucinated), read in layers (`readers`: the letter alone, as Figure 7 asks; else
figeval's reader of sentences, label words and the two numbered questions), or in logprob mode from the next
token's probability mass on the same answers: the letters' variants (the verifier's believability) and the
yes/no words (Yes, بله, No, خیر). Across answers:

- factual_recall = TP / (TP + FN): correct versions answered Y;
- hallucinated_recall = TN / (TN + FP): hallucinated versions answered N;
- hamming_score: per item, the share of its two answers that are right, averaged over items (Appendix B);
- each with a 95% bootstrap interval over items (`<metric>/ci_low`, `<metric>/ci_high`) and its denominator
  (`<metric>/n`), unparsed_rate, and for
  QA the same split by the persian_specific flag (`<metric>/persian_specific`, `<metric>/generic`);
- Section 3.5's TP/FP/TN/FN, by the model's answer (an unread answer is none of them), with precision (over the Y
  answers) and F1 (with factual recall, Figure 8), each with its n, F1 with its bootstrap interval.

The paper excludes unparseable verifier outputs while building the data (Section 3.3) but is silent on how an
evaluated model's unreadable answer counts. One policy holds for all three, so that Hamming is the mean of the
two recalls whenever every item has both answers: by default `as_wrong` (an unparsed answer is neither a Y nor
an N: never right), the conservative side; `excluded` drops unparsed answers from the recalls and items with an
unparsed answer from Hamming (Table 2: Claude Sonnet 4 on QA, 47.1% and 81.3%, gives 0.64 either way when all
are parsed).

Hamming on an answer that gives no label (an empty answer, a think block alone, prose with no verdict): Appendix B
scores a pair as 1 - (1/2) * sum_j 1[H_j(x) != y_j], with y = [1, 0] (the correct version is factual, the
hallucinated one is not) and H_j the model's 0/1 verdict. An answer with no label has no verdict, so it is not
y_j whichever version it is on: it counts as a mismatch, and a pair of two such answers scores 0. Taking the
appendix's thresholding literally (no Y, so t(f_j) = 0, an "N") would score every silent answer on a
hallucinated version right: a model answering nothing would get 0.5. `as_wrong` is this reading; `excluded`
leaves the appendix (it drops the pair).
"""

from __future__ import annotations

from typing import Literal, get_args

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from figeval.answering import AnswerMode, asked_in
from figeval.benchmarks.perhallueval.verifier import believability
from figeval.errors import FigevalError
from figeval.benchmarks.perhallueval.readers import NO, YES, bare_letter, read_faithfulness
from figeval.parsing import YES_NO_WORDS, YesNo, label_probabilities
from figeval.benchmarks.perhallueval.dataset import SUBSETS
from figeval.scoring.metrics import AS_WRONG, EXCLUDED, denominator_name, outcomes
from figeval.scoring.reading_metrics import label_mass, reading_metrics
from figeval.scoring.outcome import to_score
from figeval.scoring.extractor import with_extractor
from figeval.scoring.readers import TopLogprobs, read_answer
from figeval.stats import UndefinedStatistic, bootstrap_interval, bootstrap_trusted, wilson_interval

UNPARSED = "unparsed"
# Logprob mode: the yes/no words beside the letters (which `believability` counts with their variants). Not
# "درست"/"نادرست": Persian negates after the adjective ("درست نیست"), so a first token "درست" can mean N.
ANSWER_WORDS = {YES: YES_NO_WORDS[YesNo.YES], NO: YES_NO_WORDS[YesNo.NO]}


def answer_mass(candidates: TopLogprobs) -> dict[str, float]:
    """P(Y) and P(N) of a next-token distribution: the letters' variants and the yes/no words."""
    letters = believability(candidates)
    words = label_probabilities(candidates, ANSWER_WORDS)
    return {YES: letters.p_yes + words[YES], NO: letters.p_no + words[NO]}


# Hamming first: Table 2 compares the models by it; the log viewer shows a task's first metric as its score.
STATISTICS = ("hamming_score", "factual_recall", "hallucinated_recall")
# Statistics that are no share of their n (a mean of per-item scores in 0, 1/2, 1; F1): no Wilson interval fits
# them, so over too few items for a bootstrap they have none (recorded in the log: `benchmark_task`'s item_means).
ITEM_MEANS = ("hamming_score", "f1")
# The unparsed policies a run may choose (`-T unparsed=...`): as_wrong and excluded, scoring.metrics' names.
UnparsedPolicy = Literal["as_wrong", "excluded"]


def unparsed_policies(unparsed: str) -> dict[str, str]:
    """How each statistic counts an unread answer under the run's policy (recorded in the log, said in reports)."""
    on_correct = "a missed positive" if unparsed == AS_WRONG else "left out"
    return {**{name: unparsed for name in STATISTICS},
            "precision": "an unread answer is no 'Y': it is outside precision's n (Section 3.5 defines a false "
                         "positive by the model's 'Y')",
            "f1": f"{unparsed}: with factual recall, an unread answer on a correct version is {on_correct}; on a "
                  "hallucinated version it is no false positive"}
POLICIES = get_args(UnparsedPolicy)


@dataclass(frozen=True)
class PairAnswer:
    """The answers of one item on its correct and on its hallucinated version: "Y", "N", UNPARSED, or None
    when that version was not asked (a --limit can cut an item in half: it then has no pair score)."""

    item: str
    on_correct: str | None
    on_hallucinated: str | None
    persian_specific: bool | None = None

    @property
    def complete(self) -> bool:
        return self.on_correct is not None and self.on_hallucinated is not None


def _contributions(pairs: Sequence[PairAnswer], name: str, unparsed: str) -> tuple[np.ndarray, np.ndarray]:
    """Per item, what it adds to a statistic's numerator and to its denominator: each statistic is a ratio of
    sums over items, so a bootstrap resample is two sums of these (not a pass over the answers).

    - factual / hallucinated recall: over the answers on that version (Y on a correct version, N on a
      hallucinated one, counts); an unparsed answer is wrong, or with `excluded` left out;
    - Hamming score: over items with both versions answered, (right on correct + right on hallucinated) / 2;
      with `excluded`, items with an unparsed answer are left out.
    """
    if name == "hamming_score":
        # Appendix B: 1 - (1/2) * sum_j 1[H_j(x) != y_j]; an answer with no label is no verdict, so it is never
        # y_j (never counted right, on either version; see the module docstring)
        counted = [p.complete and not (unparsed == EXCLUDED and UNPARSED in (p.on_correct, p.on_hallucinated))
                   for p in pairs]
        hits = [((p.on_correct == YES) + (p.on_hallucinated == NO)) / 2 for p in pairs]
    else:
        version, expected = ("correct", YES) if name == "factual_recall" else ("hallucinated", NO)
        answers = [getattr(p, f"on_{version}") for p in pairs]
        counted = [a is not None and not (unparsed == EXCLUDED and a == UNPARSED) for a in answers]
        hits = [a == expected for a in answers]
    denominator = np.array(counted, dtype=float)
    return np.array(hits, dtype=float) * denominator, denominator


def check_policy(unparsed: str) -> str:
    """The policy, if PerHalluEval offers it; a FigevalError otherwise."""
    if unparsed not in POLICIES:
        raise FigevalError(f"PerHalluEval's unparsed policy must be one of {list(POLICIES)}, not {unparsed!r}.")
    return unparsed


def statistic(name: str, unparsed: str, pairs: Sequence[PairAnswer]) -> Callable[[Sequence[int]], float]:
    """The statistic `name` of the items at the given indices (repeats allowed: a bootstrap resample)."""
    check_policy(unparsed)
    numerator, denominator = _contributions(pairs, name, unparsed)
    nothing = ("no item with both versions counted" if name == "hamming_score"
               else f"no counted answer on a {'correct' if name == 'factual_recall' else 'hallucinated'} version")

    def compute(indices: Sequence[int]) -> float:
        chosen = np.asarray(indices, dtype=np.intp)
        counted = denominator[chosen].sum()
        if counted == 0:
            raise UndefinedStatistic(nothing)
        return float(numerator[chosen].sum() / counted)

    return compute


def pair_rates(pairs: Sequence[PairAnswer], unparsed: str = AS_WRONG, resamples: int = 1000,
               seed: int = 0) -> dict[str, float]:
    """The three statistics with their 95% intervals and denominators (`<name>/n`: answers counted for a recall,
    items counted for the Hamming score); undefined ones are left out. The intervals are the paper's bootstrap over
    items (Table 2) from `MIN_BOOTSTRAP_ITEMS` items on; over fewer, a recall (a share of its n) has the Wilson
    interval and the Hamming score (a mean over items, `ITEM_MEANS`) none."""
    rates: dict[str, float] = {}
    for name in STATISTICS:
        numerator, denominator = _contributions(pairs, name, unparsed)
        counted = int(denominator.sum())
        if counted == 0:
            continue
        estimate = statistic(name, unparsed, pairs)(list(range(len(pairs))))
        rates |= {name: estimate, denominator_name(name): counted}
        if bootstrap_trusted(len(pairs)):
            interval = bootstrap_interval(statistic(name, unparsed, pairs), len(pairs), resamples=resamples, seed=seed)
            rates |= {f"{name}/ci_low": interval.low, f"{name}/ci_high": interval.high}
        elif name not in ITEM_MEANS:
            low, high = wilson_interval(int(round(numerator.sum())), counted)
            rates |= {f"{name}/ci_low": low, f"{name}/ci_high": high}
    return rates


def pairs_of(scores: Sequence[SampleScore]) -> list[PairAnswer]:
    answers: dict[str, dict[str, str]] = defaultdict(dict)
    flags: dict[str, bool | None] = {}
    for s, outcome in zip(scores, outcomes(scores)):
        metadata = s.sample_metadata or {}
        answers[metadata["item"]][metadata["version"]] = outcome.label or UNPARSED
        flags[metadata["item"]] = metadata.get("persian_specific")
    return [PairAnswer(item, got.get("correct"), got.get("hallucinated"), flags[item]) for item, got in answers.items()]


@metric
def pair_intervals(unparsed: str = AS_WRONG, subset: str | None = None) -> Metric:
    """factual_recall, hallucinated_recall, hamming_score with their 95% bootstrap intervals over items; with a
    subset, over its items only, named `<statistic>/<subset>` (Section 5.1's "not significant" rests on these)."""
    suffix = f"/{subset}" if subset else ""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        chosen = [s for s in scores if subset is None or (s.sample_metadata or {}).get("subset") == subset]
        rates = pair_rates(pairs_of(chosen), unparsed) if chosen else {}
        return {name.replace("/", f"{suffix}/", 1) if "/" in name else f"{name}{suffix}": value
                for name, value in rates.items()}

    return compute


def _counted_versions(pairs: Sequence[PairAnswer], unparsed: str) -> tuple[list[str], list[str]]:
    """The counted answers on correct versions and on hallucinated ones, in item order (an unparsed answer stays,
    as a wrong one, unless the policy excludes it)."""
    correct = [p.on_correct for p in pairs if p.on_correct is not None]
    hallucinated = [p.on_hallucinated for p in pairs if p.on_hallucinated is not None]
    if unparsed == EXCLUDED:
        correct = [a for a in correct if a != UNPARSED]
        hallucinated = [a for a in hallucinated if a != UNPARSED]
    return correct, hallucinated


def confusion(pairs: Sequence[PairAnswer], unparsed: str = AS_WRONG) -> dict[str, float]:
    """Section 3.5's counts, a 'Y' being a positive, each by the model's answer: TP (Y on a correct version), FN (N
    on one), TN (N on a hallucinated version), FP (Y on one). An unread answer is none of the four: it predicts
    neither 'Y' nor 'N'. Precision = TP / (TP + FP), over the Y answers (its n), as defined; F1 = 2PR / (P + R)
    with R the factual recall (Figure 8), whose denominator is every correct version the policy counts (eq. 2:
    "among all instances labeled as factual"): under `as_wrong` an unread answer on a correct version is a missed
    positive, under `excluded` it is left out. So F1 = 2 TP / (2 TP + FP + FN + unread-on-correct under
    `as_wrong`), and its n is those answers (TN does not enter it). Both are left out when undefined."""
    correct, hallucinated = _counted_versions(pairs, unparsed)
    tp = sum(a == YES for a in correct)
    fn = sum(a == NO for a in correct)
    tn = sum(a == NO for a in hallucinated)
    fp = sum(a == YES for a in hallucinated)
    found: dict[str, float] = {"tp": tp, "fp": fp, "tn": tn, "fn": fn}
    missed = len(correct) - tp  # FN, and under as_wrong the unread answers on correct versions
    if tp + fp and correct:
        found |= {"precision": tp / (tp + fp), denominator_name("precision"): tp + fp}
        if tp:
            found |= {"f1": 2 * tp / (2 * tp + fp + missed), denominator_name("f1"): tp + fp + missed}
    return found


def f1_statistic(pairs: Sequence[PairAnswer], unparsed: str) -> Callable[[Sequence[int]], float]:
    """F1 = 2 TP / (2 TP + FP + missed positives) of the items at the given indices (a bootstrap resample), as
    `confusion` counts them; undefined without a true positive, as `confusion` leaves it out then."""
    check_policy(unparsed)

    def counted(answer: str | None) -> bool:
        return answer is not None and not (unparsed == EXCLUDED and answer == UNPARSED)

    tp = np.array([p.on_correct == YES for p in pairs], dtype=float)
    missed = np.array([counted(p.on_correct) and p.on_correct != YES for p in pairs], dtype=float)
    fp = np.array([p.on_hallucinated == YES for p in pairs], dtype=float)

    def compute(indices: Sequence[int]) -> float:
        chosen = np.asarray(indices, dtype=np.intp)
        hits = tp[chosen].sum()
        if hits == 0:
            raise UndefinedStatistic("no true positive: precision and recall are 0 or undefined")
        return float(2 * hits / (2 * hits + fp[chosen].sum() + missed[chosen].sum()))

    return compute


def f1_interval(pairs: Sequence[PairAnswer], unparsed: str = AS_WRONG, resamples: int = 1000,
                seed: int = 0) -> dict[str, float]:
    """F1's 95% bootstrap interval over items (`f1/ci_low`, `f1/ci_high`), as the three statistics have theirs:
    F1 is no proportion (`ITEM_MEANS`), so a report must not put a Wilson interval on it. Empty when F1 is
    undefined, and over fewer than `MIN_BOOTSTRAP_ITEMS` items."""
    if not bootstrap_trusted(len(pairs)):
        return {}
    try:
        interval = bootstrap_interval(f1_statistic(pairs, unparsed), len(pairs), resamples=resamples, seed=seed)
    except UndefinedStatistic:
        return {}
    return {"f1/ci_low": interval.low, "f1/ci_high": interval.high}


@metric
def confusion_counts(unparsed: str = AS_WRONG) -> Metric:
    """TP, FP, TN, FN, precision and F1 (Figure 8; F1 with its bootstrap interval), and the share of items
    flagged Persian-specific."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        pairs = pairs_of(scores)
        found = confusion(pairs, unparsed)
        if "f1" in found:
            found |= f1_interval(pairs, unparsed)
        flagged = [p.persian_specific for p in pairs if p.persian_specific is not None]
        if flagged:
            found |= {"persian_specific_share": sum(flagged) / len(flagged),
                      denominator_name("persian_specific_share"): len(flagged)}
        return found

    return compute


def perhallueval_metrics(unparsed: str = AS_WRONG) -> list[Metric]:
    """The three statistics with intervals, overall and per subset; the counts behind them; unparsed_rate.

    Raises:
        FigevalError: an unparsed policy PerHalluEval does not offer.
    """
    check_policy(unparsed)
    return [pair_intervals(unparsed), *reading_metrics(), label_mass(), confusion_counts(unparsed),
            *(pair_intervals(unparsed, subset) for subset in SUBSETS.values())]


@scorer(metrics=perhallueval_metrics())
def perhallueval_scorer(answer_mode: str = AnswerMode.GENERATE.value) -> Scorer:
    mode = AnswerMode(answer_mode)

    async def score(state: TaskState, target: Target) -> Score:
        mode_asked = asked_in(state, mode)
        outcome = read_answer(state.output, mode_asked, paper=bare_letter, reader=read_faithfulness,
                              words=ANSWER_WORDS, target=target.text, mass=answer_mass)
        return to_score(await with_extractor(outcome, state, [YES, NO]), [YES, NO])

    return score
