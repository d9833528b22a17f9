"""Paired comparisons (figeval.paired): McNemar's exact test, Miller's clustered standard error and the paired
bootstrap over items, each against a hand derivation (in the comments) and, where scipy has the test, scipy."""

import itertools
import math
import statistics

import pytest
from scipy import stats as scipy_stats

from figeval.errors import FigevalError
from figeval.paired import PairedDifference, clustered_standard_error, mcnemar_exact, paired_bootstrap


def mean_difference(b: list[float], a: list[float]):
    """metric_b - metric_a on the given indices, the metric being the mean (e.g. a hallucination rate)."""
    def difference(indices):
        return sum(b[i] for i in indices) / len(indices) - sum(a[i] for i in indices) / len(indices)
    return difference


# --- McNemar ------------------------------------------------------------------------------------------------


def test_mcnemar_hand_computed():
    # 10 discordant pairs, 1 A's and 9 B's: under H0 X ~ Binomial(10, 1/2);
    # P(X <= 1) = (C(10,0) + C(10,1)) / 2^10 = (1 + 10) / 1024; p = 2 * 11 / 1024 = 0.021484375 exactly
    assert mcnemar_exact(1, 9) == 0.021484375
    assert mcnemar_exact(9, 1) == 0.021484375  # symmetric: only min(only_a, only_b) matters
    # 5 discordant pairs all B's: p = 2 * (1/2)^5 = 0.0625
    assert mcnemar_exact(0, 5) == 0.0625
    # 3 and 3: 2 * P(X <= 3 of 6) = 2 * (1 + 6 + 15 + 20) / 64 = 1.3125, capped at 1
    assert mcnemar_exact(3, 3) == 1.0
    # one discordant pair: 2 * 1/2 = 1
    assert mcnemar_exact(0, 1) == 1.0
    # no discordant pair: the two models never differ, nothing to test
    assert mcnemar_exact(0, 0) == 1.0


def test_mcnemar_matches_scipy_binomial_test():
    # scipy has no McNemar of its own; statsmodels' mcnemar(exact=True) is exactly this binomial test of
    # min(only_a, only_b) successes in only_a + only_b trials at 0.5, which scipy.stats.binomtest computes (its
    # two-sided p sums every outcome no likelier than the observed one: for p = 0.5, 2 P(X <= min), or 1).
    for only_a in range(61):
        for only_b in range(61):
            if only_a + only_b == 0:
                continue
            expected = scipy_stats.binomtest(min(only_a, only_b), only_a + only_b, 0.5).pvalue
            assert mcnemar_exact(only_a, only_b) == pytest.approx(expected, rel=1e-9, abs=1e-300), (only_a, only_b)


@pytest.mark.parametrize("only_a, only_b", [(-1, 3), (2, -5), (1.5, 2), (True, 2)])
def test_mcnemar_rejects_counts_that_are_not_counts(only_a, only_b):
    with pytest.raises(FigevalError, match="McNemar: only_"):
        mcnemar_exact(only_a, only_b)


# --- clustered standard error --------------------------------------------------------------------------------


def test_clustered_standard_error_hand_example():
    # 3 clusters of 2: [1, 1], [0, 1], [0, 0]; n = 6, mean 0.5, every deviation +-0.5, sum of squares 6 * 0.25 = 1.5.
    # SE_CLT^2 = 1.5 / (6 * 5) = 0.05.
    # Cross terms sum_{i != j in c} e_i e_j = 2 e_1 e_2 per cluster: 2 * 0.25, 2 * (-0.25), 2 * 0.25 = 0.5 in all;
    # / n^2 = 0.5 / 36 = 1/72. SE = sqrt(0.05 + 1/72) = sqrt(0.0638889) = 0.2527625.
    values = [1, 1, 0, 1, 0, 0]
    clusters = ["a", "a", "b", "b", "c", "c"]
    assert clustered_standard_error(values, clusters) == pytest.approx(math.sqrt(0.05 + 1 / 72))
    assert clustered_standard_error(values, clusters) == pytest.approx(0.2527625, abs=1e-7)


def test_clustered_standard_error_of_singletons_is_the_clt_standard_error():
    # One sample per cluster: no cross terms, so Miller's formula is sqrt(sample variance with n - 1 / n),
    # which is also scipy.stats.sem's default (ddof=1). By hand for [0.2, 0.9, 0.4, 0.4, 1.0]: mean 0.58,
    # squared deviations 0.1444 + 0.1024 + 0.0324 + 0.0324 + 0.1764 = 0.488; / (5 * 4) = 0.0244; sqrt = 0.1562050.
    values = [0.2, 0.9, 0.4, 0.4, 1.0]
    got = clustered_standard_error(values, ["p", "q", "r", "s", "t"])
    assert got == pytest.approx(math.sqrt(0.0244))
    assert got == pytest.approx(statistics.stdev(values) / math.sqrt(len(values)))
    assert got == pytest.approx(scipy_stats.sem(values))


def test_clustered_standard_error_grows_with_duplicated_values():
    # Four independent values [1, 0, 1, 0]: mean 0.5, sum of squares 1, SE^2 = 1 / (4 * 3) = 1/12, SE = 0.2887.
    # Each duplicated inside its own cluster (8 samples, no new information):
    #   counted as 8 independent samples: sum of squares 2, SE^2 = 2 / (8 * 7) = 1/28, SE = 0.1890 (too small);
    #   clustered: cross terms 2 * 0.25 per cluster, 4 clusters -> 2, / 64 = 1/32; SE^2 = 1/28 + 1/32 = 15/224,
    #   SE = 0.2588: back near the four values' 0.2887 (the n - 1 vs n^2 denominators keep it a little below).
    singletons = clustered_standard_error([1, 0, 1, 0], ["a", "b", "c", "d"])
    duplicated = [1, 1, 0, 0, 1, 1, 0, 0]
    unclustered = clustered_standard_error(duplicated, list(range(8)))
    clustered = clustered_standard_error(duplicated, ["a", "a", "b", "b", "c", "c", "d", "d"])
    assert singletons == pytest.approx(math.sqrt(1 / 12))
    assert unclustered == pytest.approx(math.sqrt(1 / 28))
    assert clustered == pytest.approx(math.sqrt(15 / 224))
    assert unclustered < clustered < singletons


def test_clustered_standard_error_shrinks_with_negatively_correlated_clusters():
    # [1, 0] three times, each pair a cluster: every cluster's deviations sum to 0, so the cross terms
    # (2 * 0.5 * -0.5 = -0.5 each, -1.5 in all, / 36) cancel most of SE_CLT^2 = 1.5 / 30 = 0.05:
    # SE^2 = 0.05 - 1.5/36 = 1/120, SE = 0.0912871 (never below zero: see the docstring's identity).
    got = clustered_standard_error([1, 0, 1, 0, 1, 0], ["a", "a", "b", "b", "c", "c"])
    assert got == pytest.approx(math.sqrt(1 / 120))


def test_clustered_standard_error_bad_input():
    with pytest.raises(FigevalError, match="3 values but 2 clusters"):
        clustered_standard_error([1, 0, 1], ["a", "b"])
    with pytest.raises(FigevalError, match="no values"):
        clustered_standard_error([], [])
    assert math.isnan(clustered_standard_error([1.0], ["a"]))  # one value: no spread to speak of


# --- paired bootstrap ----------------------------------------------------------------------------------------


def test_identical_models_differ_by_exactly_zero():
    # Both models answer alike on every sample: every resample's difference is 0, so the interval is [0, 0].
    outcome = [1, 0, 0, 1, 1, 0, 1, 1]
    result = paired_bootstrap(list(range(8)), mean_difference(outcome, outcome), resamples=500)
    assert result == PairedDifference(difference=0.0, low=0.0, high=0.0, standard_error=0.0, items=8, samples=8,
                                      resamples=500, undefined=0, seed=0)


def exact_bootstrap_distribution(per_item: list[float]) -> dict[float, float]:
    """Every ordered draw of len(per_item) items with replacement, equally likely: the exact law of the mean."""
    draws = list(itertools.product(per_item, repeat=len(per_item)))
    law: dict[float, float] = {}
    for draw in draws:
        mean = round(sum(draw) / len(draw), 12)
        law[mean] = law.get(mean, 0.0) + 1 / len(draws)
    return law


def exact_quantile(law: dict[float, float], q: float) -> float:
    """The smallest value whose cumulative probability reaches q."""
    cumulative = 0.0
    for value in sorted(law):
        cumulative += law[value]
        if cumulative >= q:
            return value
    return max(law)


def test_three_items_against_brute_force_enumeration():
    # Three items; B beats A on the third only: per-item differences [0, 0, 1]. A resample's difference is K/3,
    # K = how often the third item is drawn ~ Binomial(3, 1/3): P(K=0,1,2,3) = 8/27, 12/27, 6/27, 1/27
    # (cumulative 0.296, 0.741, 0.963, 1). The enumeration of all 27 ordered draws must say the same.
    law = exact_bootstrap_distribution([0, 0, 1])
    assert law == pytest.approx({0.0: 8 / 27, round(1 / 3, 12): 12 / 27, round(2 / 3, 12): 6 / 27, 1.0: 1 / 27})
    difference = mean_difference([0, 0, 1], [0, 0, 0])
    # 90%: the 5% quantile is 0 (0.296 >= 0.05), the 95% quantile 2/3 (0.741 < 0.95 <= 0.963). With 20,000
    # resamples numpy's linear rule reads positions 0.05 * 19999 and 0.95 * 19999, both inside those plateaus with
    # a margin of about 260 resamples (0.963 - 0.95), about 10 standard deviations of the count (sqrt(20000 *
    # 1/27 * 26/27) = 27): so low = 0 and high = 2/3 exactly, whatever the seed.
    ninety = paired_bootstrap([1, 2, 3], difference, resamples=20_000, level=0.90)
    assert (ninety.low, ninety.high) == pytest.approx((exact_quantile(law, 0.05), exact_quantile(law, 0.95)))
    assert (ninety.low, ninety.high) == pytest.approx((0.0, 2 / 3))
    # 95%: the 97.5% quantile passes 0.963 and lands on K = 3, difference 1 (margin 0.975 - 0.963 = 240 resamples).
    ninety_five = paired_bootstrap([1, 2, 3], difference, resamples=20_000, level=0.95)
    assert (ninety_five.low, ninety_five.high) == pytest.approx((0.0, 1.0))
    assert ninety_five.difference == pytest.approx(1 / 3)
    # Standard error: Var(K/3) = 3 (1/3)(2/3) / 9 = 2/27, SD = 0.2722; its bootstrap estimate from 20,000
    # resamples is within about 0.5% (SD / sqrt(2 B)).
    assert ninety_five.standard_error == pytest.approx(math.sqrt(2 / 27), rel=0.03)


def test_resamples_hand_whole_items_to_difference():
    # Item x has samples 0 and 1, item y sample 2. The observed difference sees [0, 1, 2]; each resample draws 2
    # items, so it sees x's two indices together (twice if x is drawn twice) and y's: [0,1,0,1], [0,1,2], [2,0,1]
    # or [2,2], never one framing of x without the other.
    calls = []

    def recording(indices):
        calls.append(list(indices))
        return 0.0

    paired_bootstrap(["x", "x", "y"], recording, resamples=200)
    assert calls[0] == [0, 1, 2]
    assert len(calls) == 201
    assert {tuple(call) for call in calls[1:]} == {(0, 1, 0, 1), (0, 1, 2), (2, 0, 1), (2, 2)}


def test_clustering_by_item_widens_the_standard_error():
    # FFE-HALLU's shape: 10 expressions x 2 framings. B is right and A wrong on both framings of items 0-4;
    # both are wrong on items 5-9; per-sample differences 1,1,...,1 (10 samples) then 0 (10 samples); mean 0.5.
    # Clustered by item: a resample's difference is the mean of 10 drawn items' values (each 0 or 1, p = 1/2),
    #   SD = sqrt(0.25 / 10) = 0.1581.
    # The same 20 samples as independent items: the mean of 20 draws, SD = sqrt(0.25 / 20) = 0.1118.
    # The two framings of an item always agree, so 20 samples carry only 10 items' information: ratio sqrt(2).
    # (Bootstrap SDs from 2000 resamples are within about 1.6% (1 / sqrt(2 B)) of these.)
    b = [1.0] * 10 + [0.0] * 10
    a = [0.0] * 20
    by_item = paired_bootstrap([i // 2 for i in range(20)], mean_difference(b, a))
    by_sample = paired_bootstrap(list(range(20)), mean_difference(b, a))
    assert by_item.difference == by_sample.difference == 0.5
    assert (by_item.items, by_item.samples, by_sample.items) == (10, 20, 20)
    assert by_item.standard_error == pytest.approx(math.sqrt(0.25 / 10), rel=0.06)
    assert by_sample.standard_error == pytest.approx(math.sqrt(0.25 / 20), rel=0.06)
    assert by_item.standard_error > 1.3 * by_sample.standard_error
    # Miller's clustered standard error on the same differences: sum of squares 20 * 0.25 = 5, SE_CLT^2 =
    # 5 / (20 * 19) = 1/76; cross terms 2 * 0.25 for each of 10 items = 5, / 400 = 1/80;
    # clustered SE = sqrt(1/76 + 1/80) = 0.16018 against the unclustered sqrt(1/76) = 0.11471.
    assert clustered_standard_error(b, [i // 2 for i in range(20)]) == pytest.approx(math.sqrt(1 / 76 + 1 / 80))
    assert clustered_standard_error(b, list(range(20))) == pytest.approx(math.sqrt(1 / 76))


def test_undefined_resamples_are_counted_and_left_out():
    # A metric defined only when all three items are in the resample (think: a rate whose denominator needs each
    # of them): P(all three of 3 draws distinct) = 3! / 3^3 = 6/27 = 2/9, so about 2000 * 7/9 = 1556 of 2000
    # resamples are undefined (SD sqrt(2000 * 2/9 * 7/9) = 18.6). More than half: still returned, and counted.
    returned_none = []

    def all_three(indices):
        if set(indices) != {0, 1, 2}:
            returned_none.append(indices)
            return None
        return 0.25

    result = paired_bootstrap(["q1", "q2", "q3"], all_three)
    assert result.undefined == len(returned_none)
    assert result.resamples + result.undefined == 2000
    assert abs(result.undefined - 2000 * 7 / 9) < 80
    assert (result.difference, result.low, result.high, result.standard_error) == (0.25, 0.25, 0.25, 0.0)


def test_nan_counts_as_undefined_and_an_undefined_observation_gives_none():
    # numpy's 0/0 is nan: the same as None. Every resample undefined: no interval (nan), resamples 0.
    first_call = []

    def only_once(indices):
        first_call.append(True)
        return 0.1 if len(first_call) == 1 else float("nan")

    result = paired_bootstrap([1, 2], only_once, resamples=50)
    assert (result.difference, result.resamples, result.undefined) == (0.1, 0, 50)
    assert math.isnan(result.low) and math.isnan(result.high) and math.isnan(result.standard_error)
    assert paired_bootstrap([1, 2], lambda indices: None) is None
    assert paired_bootstrap([1, 2], lambda indices: float("nan")) is None


def test_the_seed_fixes_the_result():
    outcome_a = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1]
    outcome_b = [1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1, 1]
    items = [i // 2 for i in range(12)]
    difference = mean_difference(outcome_b, outcome_a)
    first = paired_bootstrap(items, difference, seed=7)
    assert paired_bootstrap(items, difference, seed=7) == first
    other = paired_bootstrap(items, difference, seed=8)
    assert other.difference == first.difference  # the observed difference has no randomness in it
    assert (other.low, other.high, other.standard_error) != (first.low, first.high, first.standard_error)
    assert (other.seed, first.seed) == (8, 7)


def test_realistic_two_models_on_200_items():
    # Model A hallucinates on items 1-60, model B on items 1-40 (B better by 20/200 = 0.10): the hallucination
    # rate difference B - A = 40/200 - 60/200 = -0.10. Per-item differences: -1 on items 41-60, 0 elsewhere,
    # so a resample's difference is -K/200 with K ~ Binomial(200, 0.1): SD sqrt(200 * 0.1 * 0.9) / 200 = 0.0212,
    # 2.5% and 97.5% quantiles of K 12 and 29 (scipy.stats.binom.ppf), i.e. the exact bootstrap interval
    # [-0.145, -0.06]; 2000 resamples land within one step (1/200) of it. It excludes 0: a resample with none of
    # the 20 items has probability 0.9^200 = 7e-10.
    a = [1.0 if item <= 60 else 0.0 for item in range(1, 201)]
    b = [1.0 if item <= 40 else 0.0 for item in range(1, 201)]
    result = paired_bootstrap(list(range(1, 201)), mean_difference(b, a))
    k_low, k_high = scipy_stats.binom.ppf([0.025, 0.975], 200, 0.1)
    assert (k_low, k_high) == (12, 29)
    assert result.difference == pytest.approx(-0.10)
    assert result.low == pytest.approx(-0.145, abs=0.0051)
    assert result.high == pytest.approx(-0.06, abs=0.0051)
    assert result.high < 0
    assert result.standard_error == pytest.approx(math.sqrt(200 * 0.1 * 0.9) / 200, rel=0.08)
    # McNemar: only A hallucinates on items 41-60 (20 pairs), only B on none: p = 2 * 0.5^20
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    assert (only_a, only_b) == (20, 0)
    assert mcnemar_exact(only_a, only_b) == 1.9073486328125e-06


@pytest.mark.parametrize("items, resamples, level, message", [
    ([], 2000, 0.95, "no samples to compare"),
    ([1, 2], 2000, 0.0, "level 0.0 is outside"),
    ([1, 2], 2000, 1.0, "level 1.0 is outside"),
    ([1, 2], 2000, 95, "level 95 is outside"),
    ([1, 2], 0, 0.95, "0 resamples; give at least 1"),
])
def test_paired_bootstrap_bad_arguments(items, resamples, level, message):
    with pytest.raises(FigevalError, match=message):
        paired_bootstrap(items, lambda indices: 0.0, resamples=resamples, level=level)
