"""Per-group breakdowns, means over groups and multi-group samples, on the hand-built answers of test_metrics."""

import pytest

from figeval.scoring.breakdowns import grouped_by, mean_over_groups
from figeval.scoring.metrics import AS_WRONG, TARGET, named, rate
from figeval.scoring.outcome import DecidedBy, Outcome
from tests.metric_values import metric_values, sample_score
from tests.scoring.test_metrics import LABELS, answers


def test_grouped_breakdowns():
    values = metric_values([
        grouped_by(rate(TARGET, AS_WRONG), "group", "accuracy/{group_name}"),
        # a sample in several groups counts in each (multi-label themes)
        grouped_by(rate(TARGET, AS_WRONG), "groups", "accuracy/many_{group_name}", many=True),
        named(mean_over_groups(rate(TARGET, AS_WRONG), "group", ["a", "b"]), "mean"),
        named(mean_over_groups(rate(TARGET, AS_WRONG), "group", ["a", "c"]), "needs_c"),
    ], answers())
    assert values == pytest.approx({
        "accuracy/a": 1 / 2,  # 1st right, 2nd wrong
        "accuracy/b": 1 / 2,  # 3rd unparsed (wrong), 4th not counted, 5th right
        "accuracy/many_a": 1 / 2,
        "accuracy/many_b": 1 / 2,
        "accuracy/many_all": 2 / 4,
        "mean": 1 / 2,  # (1/2 + 1/2) / 2; "needs_c" is undefined (no group c) and left out
    })


def test_a_group_named_twice_in_a_sample_counts_once():
    # "mystical, Mystical" in a couplet's themes: one wrong answer listed twice, one right answer -> 1/2, not 1/3
    scores = [sample_score(Outcome("no", DecidedBy.PARSER, target="yes"), LABELS, "s1", groups=["m", "m"]),
              sample_score(Outcome("yes", DecidedBy.PARSER, target="yes"), LABELS, "s2", groups=["m"])]
    assert metric_values([grouped_by(rate(TARGET, AS_WRONG), "groups", "accuracy/{group_name}", many=True)],
                         scores) == {"accuracy/m": 0.5}

