"""Agreement statistics against published worked examples, with the derivations."""

import pytest

from figeval.stats import (
    UndefinedStatistic,
    bootstrap_interval,
    cohen_kappa,
    fleiss_kappa,
    gwet_ac1,
    percent_agreement,
    values_only,
)

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers, 12 units,
# nominal values 1-5, missing ratings; also the example of Gwet's handbook and of R's irrCAC (cac.raw4raters).
#            A     B     C     D
KRIPPENDORFF_2011 = [
    [1, 1, 1],  # unit 1: A, B, D
    [2, 2, 3, 2],
    [3, 3, 3, 3],
    [3, 3, 3, 3],
    [2, 2, 2, 2],
    [1, 2, 3, 4],
    [4, 4, 4, 4],
    [1, 1, 2, 1],
    [2, 2, 2, 2],
    [5, 5, 5],  # unit 10: B, C, D
    [1, 1],  # unit 11: C, D
    [3],  # unit 12: B only (not pairable)
]


def test_cohen_kappa_wikipedia_example():
    # Wikipedia "Cohen's kappa": 50 proposals; both yes 20, A yes/B no 5, A no/B yes 10, both no 15.
    # p_o = (20 + 15) / 50 = 0.7; A says yes 25/50 = 0.5, B 30/50 = 0.6;
    # p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4
    a = ["yes"] * 20 + ["yes"] * 5 + ["no"] * 10 + ["no"] * 15
    b = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15
    assert percent_agreement(a, b) == pytest.approx(0.7)
    assert cohen_kappa(a, b) == pytest.approx(0.4)


def test_fleiss_kappa_wikipedia_example():
    # Wikipedia "Fleiss' kappa": 10 subjects, 14 raters, 5 categories; counts per category per subject.
    # p_j = (0.143, 0.200, 0.279, 0.150, 0.229); P_e = sum p_j^2 = 0.2130; mean P_i = 0.3780
    # kappa = (0.3780 - 0.2130) / (1 - 0.2130) = 0.2099 (Wikipedia rounds to 0.210)
    counts = [
        [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
    ]
    units = [[category for category, n in enumerate(row) for _ in range(n)] for row in counts]
    assert fleiss_kappa(units) == pytest.approx(0.2099, abs=5e-4)


def test_gwet_ac1_and_fleiss_on_the_same_example():
    # Units with 2+ ratings: 1-11. Agreeing-pair shares: unit 2 and unit 8 have 3 of 4 alike -> 6/12 = 0.5,
    # unit 6 none alike -> 0, the other 8 units 1: p_a = (8 + 0.5 + 0.5 + 0) / 11 = 9/11 = 0.81818.
    # pi_k (mean share per unit over all 12 units): pi_1 = 3/12, pi_2 = 3.25/12, pi_3 = 3.5/12, pi_4 = 1.25/12,
    # pi_5 = 1/12. AC1: p_e = sum pi_k (1 - pi_k) / (5 - 1) = 0.76128 / 4 = 0.19032,
    # AC1 = (0.81818 - 0.19032) / (1 - 0.19032) = 0.77544 (irrCAC: 0.77544).
    # Fleiss: p_e = sum pi_k^2 = 0.23872, kappa = (0.81818 - 0.23872) / (1 - 0.23872) = 0.76117 (irrCAC: 0.76117).
    assert gwet_ac1(KRIPPENDORFF_2011) == pytest.approx(0.77544, abs=5e-5)
    assert fleiss_kappa(KRIPPENDORFF_2011) == pytest.approx(0.76117, abs=5e-5)


def test_gwet_ac1_two_raters_high_agreement_where_kappa_is_paradoxically_low():
    # 100 items, both raters say "h" on 90, "f" on 2, disagree on 8 (4 each way).
    # p_a = 0.92. pi_h = (94 + 94) / 200 = 0.94, pi_f = 0.06; p_e(AC1) = 2 * 0.94 * 0.06 / 1 = 0.1128
    # AC1 = (0.92 - 0.1128) / 0.8872 = 0.90983; Cohen: p_e = 0.94^2 + 0.06^2 = 0.8872,
    # kappa = (0.92 - 0.8872) / 0.1128 = 0.29078: the "kappa paradox" AC1 was made for.
    a = ["h"] * 90 + ["f"] * 2 + ["h"] * 4 + ["f"] * 4
    b = ["h"] * 90 + ["f"] * 2 + ["f"] * 4 + ["h"] * 4
    assert gwet_ac1([list(pair) for pair in zip(a, b)]) == pytest.approx(0.90983, abs=5e-5)
    assert cohen_kappa(a, b) == pytest.approx(0.29078, abs=5e-5)


def test_edge_cases_are_defined_or_clear_errors():
    one_category = ["correct"] * 5
    assert percent_agreement(one_category, one_category) == 1.0
    with pytest.raises(UndefinedStatistic, match="single category"):
        cohen_kappa(one_category, one_category)
    with pytest.raises(UndefinedStatistic, match="same category"):
        fleiss_kappa([["x", "x"], ["x", "x", "x"]])
    with pytest.raises(UndefinedStatistic, match="at least two categories"):
        gwet_ac1([["x", "x"]])
    # With the full label set given, AC1 is defined when everyone agrees on one label: p_a = 1, so AC1 = 1.
    assert gwet_ac1([["x", "x"], ["x", "x"]], categories=["x", "y", "z"]) == 1.0
    with pytest.raises(UndefinedStatistic, match="no items"):
        cohen_kappa([], [])
    with pytest.raises(ValueError, match="labelled 2 and 1 items"):
        percent_agreement(["a", "b"], ["a"])
    with pytest.raises(UndefinedStatistic, match="two or more ratings"):
        fleiss_kappa([["a"], ["b"]])


def test_bootstrap_interval_is_reproducible_and_brackets_the_estimate():
    a = ["yes"] * 25 + ["no"] * 25
    b = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15

    def kappa(idx):
        return cohen_kappa([a[i] for i in idx], [b[i] for i in idx])

    first = bootstrap_interval(kappa, len(a), resamples=500, seed=7)
    again = bootstrap_interval(kappa, len(a), resamples=500, seed=7)
    assert first == again
    assert first.estimate == pytest.approx(0.4)
    assert first.low < 0.4 < first.high and -1.0 <= first.low and first.high <= 1.0
    assert first.resamples == 500


def test_bootstrap_drops_undefined_resamples_and_errors_when_all_are():
    # Perfect agreement on two categories: every resample with both categories has kappa 1; a resample of
    # one category only is undefined and dropped.
    a = ["x", "y", "x", "y"]
    interval = bootstrap_interval(lambda idx: cohen_kappa([a[i] for i in idx], [a[i] for i in idx]), 4, resamples=200)
    assert (interval.low, interval.high) == (1.0, 1.0) and 0 < interval.resamples < 200
    with pytest.raises(UndefinedStatistic, match="single category"):  # undefined on the full data already
        bootstrap_interval(lambda idx: cohen_kappa(["x"] * len(idx), ["x"] * len(idx)), 3, resamples=10)

    def defined_only_on_the_original_order(idx):
        if idx != sorted(set(idx)):
            raise UndefinedStatistic("resample")
        return 0.5

    with pytest.raises(UndefinedStatistic, match="every bootstrap resample"):
        bootstrap_interval(defined_only_on_the_original_order, 50, resamples=10)


def test_a_caller_reading_only_values_draws_no_resample():
    # a metric that computes its own interval on each call, called on each of a comparison's 2000 resamples, would
    # draw 2000 x its resamples: inside values_only the statistic is computed once, on all items, and the interval
    # is left undefined
    calls = []

    def mean(idx):
        calls.append(idx)
        return sum(idx) / len(idx)

    with values_only():
        interval = bootstrap_interval(mean, 4, resamples=1000)
    # the items 0..3 once: mean 1.5
    assert (interval.estimate, interval.resamples, calls) == (1.5, 0, [[0, 1, 2, 3]])
    assert interval.low != interval.low and interval.high != interval.high  # nan
    assert bootstrap_interval(mean, 4, resamples=1000).resamples == 1000  # outside the block, as before


# Wilson score interval, z = 1.96 (z^2 = 3.8416): centre (k + z^2/2) / (n + z^2), half-width
# z / (n + z^2) * sqrt(k (n - k) / n + z^2 / 4).
# 0/200: centre 1.9208 / 203.8416 = 0.0094230; half-width 1.96 / 203.8416 * sqrt(0.9604) = 1.9208 / 203.8416
#   = 0.0094230 (the same): [0, 0.018846].
# 200/200: the mirror image: [1 - 0.018846, 1] = [0.981154, 1].
# 1/2: centre 2.9208 / 5.8416 = 0.5; half-width 1.96 / 5.8416 * sqrt(1/2 + 0.9604) = 0.335524 * 1.208470
#   = 0.405471: [0.094529, 0.905471].
@pytest.mark.parametrize(("successes", "n", "low", "high"), [
    (0, 200, 0.0, 0.018846),
    (200, 200, 0.981154, 1.0),
    (1, 2, 0.094529, 0.905471),
])
def test_wilson_interval(successes, n, low, high):
    from figeval.stats import wilson_interval

    found = wilson_interval(successes, n, z=1.96)
    assert found == pytest.approx((low, high), abs=1e-6)
    assert found[0] >= 0.0 and found[1] <= 1.0  # exactly in [0, 1], no float noise at the extremes


def test_wilson_interval_needs_answers():
    from figeval.stats import wilson_interval

    with pytest.raises(UndefinedStatistic):
        wilson_interval(0, 0)
    with pytest.raises(ValueError, match="3 successes out of 2"):
        wilson_interval(3, 2)
