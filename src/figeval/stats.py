"""Agreement statistics, bootstrap confidence intervals and the Wilson score interval of a proportion.

Used to check an LLM judge against human labels and human annotators against each other (percent
agreement and Cohen's kappa, Gwet's AC1, Fleiss' kappa). Each coefficient is the
textbook formula; the tests reproduce published worked examples (Wikipedia's Cohen and Fleiss examples;
Krippendorff 2011's four-observer example, also used in Gwet's handbook and irrCAC). Krippendorff's alpha,
which none of the four papers reports, is left to Inspect (`inspect_ai.scorer.krippendorff_alpha`).

Multi-rater data is a list of units, each a list of the labels it received (missing ratings simply absent).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np


class UndefinedStatistic(ValueError):
    """The statistic has no value for this data (e.g. kappa when everyone used one category)."""


def _check_paired(a: Sequence[Hashable], b: Sequence[Hashable]) -> None:
    if len(a) != len(b):
        raise ValueError(f"the two raters labelled {len(a)} and {len(b)} items; pair their labels item by item")
    if not a:
        raise UndefinedStatistic("no items to compare")


def percent_agreement(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """Share of items on which two raters gave the same label."""
    _check_paired(a, b)
    return sum(x == y for x, y in zip(a, b)) / len(a)


def cohen_kappa(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """Cohen's kappa for two raters: (p_o - p_e) / (1 - p_e), p_e from each rater's own label shares.

    Raises:
        UndefinedStatistic: no items, or both raters used one and the same category throughout (p_e = 1).
    """
    _check_paired(a, b)
    n = len(a)
    observed = percent_agreement(a, b)
    shares_a, shares_b = Counter(a), Counter(b)
    expected = sum(shares_a[label] * shares_b[label] for label in shares_a) / (n * n)
    if expected == 1.0:
        raise UndefinedStatistic(
            "Cohen's kappa is undefined when both raters use a single category; use percent agreement")
    return (observed - expected) / (1.0 - expected)


def _units_with_counts(units: Sequence[Sequence[Hashable]]) -> tuple[list[Counter], list[Hashable]]:
    counted = [Counter(unit) for unit in units]
    categories = sorted({label for unit in counted for label in unit}, key=str)
    return counted, categories


def _multi_rater_observed(counted: list[Counter]) -> tuple[float, list[Counter]]:
    """Mean over units with 2+ ratings of the share of agreeing rater pairs (Fleiss' P_i, Gwet's p_a)."""
    paired = [unit for unit in counted if sum(unit.values()) >= 2]
    if not paired:
        raise UndefinedStatistic("no unit has two or more ratings")
    shares = []
    for unit in paired:
        r = sum(unit.values())
        shares.append(sum(c * (c - 1) for c in unit.values()) / (r * (r - 1)))
    return float(np.mean(shares)), paired


def _category_shares(counted: list[Counter], categories: list[Hashable]) -> dict[Hashable, float]:
    """pi_k: mean over units of the share of that unit's ratings in category k."""
    rated = [unit for unit in counted if unit]
    return {k: sum(unit[k] / sum(unit.values()) for unit in rated) / len(rated) for k in categories}


def fleiss_kappa(units: Sequence[Sequence[Hashable]]) -> float:
    """Fleiss' kappa for any number of raters per unit: (P - P_e) / (1 - P_e), P_e = sum_k pi_k^2.

    With the same number of raters everywhere this is Fleiss (1971); with missing ratings it is Gwet's
    generalization (units with one rating count toward pi_k only).
    """
    counted, categories = _units_with_counts(units)
    observed, _ = _multi_rater_observed(counted)
    expected = sum(p * p for p in _category_shares(counted, categories).values())
    if expected == 1.0:
        raise UndefinedStatistic("Fleiss' kappa is undefined when every rating is the same category")
    return (observed - expected) / (1.0 - expected)


def gwet_ac1(units: Sequence[Sequence[Hashable]], categories: Sequence[Hashable] | None = None) -> float:
    """Gwet's AC1: (p_a - p_e) / (1 - p_e), p_e = sum_k pi_k (1 - pi_k) / (q - 1).

    Args:
        units: the labels each unit received.
        categories: the full label set (q is its size); default: the labels that occur. Pass it when a
            category exists but nobody used it, since q changes the chance agreement.
    """
    counted, seen = _units_with_counts(units)
    q = len(categories) if categories is not None else len(seen)
    if q < 2:
        raise UndefinedStatistic("Gwet's AC1 needs at least two categories; pass the full label set")
    observed, _ = _multi_rater_observed(counted)
    shares = _category_shares(counted, seen)
    expected = sum(p * (1 - p) for p in shares.values()) / (q - 1)
    return (observed - expected) / (1.0 - expected)


# Below this many items a percentile bootstrap's interval is not an honest 95% interval: over 3 items all answered
# right every resample is 1.0, and the interval [1.0, 1.0] says there is no uncertainty at all. A share then gets the
# Wilson interval over its n, which stays honest at 0% and 100%; any other statistic (a mean over items, a kappa, a
# difference) gets none, and what shows it says why (`FEW_ITEMS`).
MIN_BOOTSTRAP_ITEMS = 30
FEW_ITEMS = f"fewer than {MIN_BOOTSTRAP_ITEMS} items: a bootstrap interval over so few cannot say how uncertain it is"


def bootstrap_trusted(n_items: int) -> bool:
    """Whether a percentile bootstrap over `n_items` items gives an honest 95% interval (`MIN_BOOTSTRAP_ITEMS`)."""
    return n_items >= MIN_BOOTSTRAP_ITEMS


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float
    resamples: int
    """How many resamples gave a defined value (undefined ones, e.g. all one category, are dropped)."""


# A metric may compute its own bootstrap interval each time it is called (1000 resamples). A caller that needs only
# the metric's value on each of its own 2000 resamples (a paired comparison) would then pay for 2 million resamples
# it throws away: inside `values_only`, `bootstrap_interval` returns the estimate without resampling.
_VALUES_ONLY: ContextVar[bool] = ContextVar("figeval_values_only", default=False)


@contextmanager
def values_only() -> Iterator[None]:
    """Within this block `bootstrap_interval` gives the estimate with a nan interval over 0 resamples: for callers
    that read a metric's value and never its interval."""
    token = _VALUES_ONLY.set(True)
    try:
        yield
    finally:
        _VALUES_ONLY.reset(token)


def bootstrap_interval(
    statistic: Callable[[list[int]], float],
    n_items: int,
    *,
    confidence: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
) -> Interval:
    """Percentile bootstrap over items: resample item indices with replacement, recompute, take quantiles.

    Args:
        statistic: the statistic of a list of item indices (duplicates allowed), e.g.
            `lambda idx: cohen_kappa([a[i] for i in idx], [b[i] for i in idx])`.
        n_items: how many items there are.
        confidence: the central share covered by the interval.
        resamples: how many bootstrap samples to draw.
        seed: the random seed (the same seed gives the same interval).

    Returns:
        The estimate and its interval; inside `values_only`, the estimate with a nan interval (no resample drawn).

    Raises:
        UndefinedStatistic: the statistic is undefined on the full data or (outside `values_only`) on every
            resample.
    """
    estimate = statistic(list(range(n_items)))
    if _VALUES_ONLY.get():
        return Interval(estimate, float("nan"), float("nan"), 0)
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(resamples):
        try:
            values.append(statistic(rng.integers(0, n_items, size=n_items).tolist()))
        except UndefinedStatistic:
            continue
    if not values:
        raise UndefinedStatistic("the statistic is undefined on every bootstrap resample")
    tail = (1.0 - confidence) / 2
    low, high = np.quantile(values, [tail, 1.0 - tail])
    return Interval(estimate, float(low), float(high), len(values))


def wilson_interval(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion `successes / n` (Wilson 1927; Brown, Cai and DasGupta 2001
    recommend it over the Wald interval p +- z*se, which collapses to a point at 0 and n successes):
    centre (k + z^2/2) / (n + z^2), half-width z / (n + z^2) * sqrt(k (n - k) / n + z^2 / 4).

    Raises:
        UndefinedStatistic: n is 0 (no answers: no proportion).
        ValueError: successes outside 0..n.
    """
    if n <= 0:
        raise UndefinedStatistic("a proportion over no answers has no interval")
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n}: give 0 to {n}")
    z2 = z * z
    centre = (successes + z2 / 2) / (n + z2)
    half = z / (n + z2) * (successes * (n - successes) / n + z2 / 4) ** 0.5
    # at 0 (n) successes the lower (upper) bound is exactly 0 (1): centre and half-width are equal there, and
    # floats would give -1.7e-18 or 0.9999999999999999
    return (0.0 if successes == 0 else centre - half), (1.0 if successes == n else centre + half)


# --- Two label lists compared: a judge against humans, annotators among themselves ---------


@dataclass(frozen=True)
class AgreementRow:
    group: str
    n: int
    percent: float
    kappa: Interval | None
    """Cohen's kappa with a 95% bootstrap interval; None when undefined (see `note`)."""
    note: str = ""


def agreement_row(group: str, a: Sequence[Hashable], b: Sequence[Hashable], seed: int = 0) -> AgreementRow:
    """Percent agreement and Cohen's kappa (95% bootstrap interval over items) of two label lists."""
    if not a:
        return AgreementRow(group, 0, float("nan"), None, "no items in common")
    percent = percent_agreement(a, b)
    try:
        kappa = bootstrap_interval(lambda idx: cohen_kappa([a[i] for i in idx], [b[i] for i in idx]), len(a), seed=seed)
    except UndefinedStatistic as error:
        return AgreementRow(group, len(a), percent, None, str(error))
    return AgreementRow(group, len(a), percent, kappa)


def confusion_matrix(pairs: Sequence[tuple[Hashable, Hashable]], labels: Sequence[Hashable]) -> list[list[int]]:
    """Counts with rows = the first label of each pair (the judge), columns = the second (the humans)."""
    index = {label: i for i, label in enumerate(labels)}
    matrix = [[0] * len(labels) for _ in labels]
    for first, second in pairs:
        matrix[index[first]][index[second]] += 1
    return matrix
