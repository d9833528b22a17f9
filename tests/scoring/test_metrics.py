"""Each unparsed policy, and the standard error and denominator each rate records, on hand-built outcomes."""

import pytest

from figeval.errors import FigevalError
from figeval.scoring.metrics import AS_WRONG, EXCLUDED, TARGET, as_label, check_policy, named, rate
from figeval.scoring.outcome import DecidedBy, Outcome, Status
from tests.metric_values import metric_values, sample_score

LABELS = ["yes", "no"]


def answers():
    """Five answers to questions whose right answer is yes: right, wrong, unparsed, judge-unparsed, right."""
    outcomes = [
        Outcome("yes", DecidedBy.PARSER, target="yes"),
        Outcome("no", DecidedBy.PARSER, target="yes"),
        Outcome.unparsed(DecidedBy.PARSER, "no label", "yes"),
        Outcome(None, DecidedBy.JUDGE, Status.JUDGE_UNPARSED, target="yes"),
        Outcome("yes", DecidedBy.LOGPROB, target="yes"),
    ]
    groups = ["a", "a", "b", "b", "b"]
    return [sample_score(o, LABELS, f"s{i}", group=g, groups=[g, "all"])
            for i, (o, g) in enumerate(zip(outcomes, groups))]


@pytest.mark.parametrize(
    "of, policy, expected",
    [
        # the judge's failure is never counted; the unparsed answer by the policy
        (TARGET, AS_WRONG, 2 / 4),  # right: 1st, 5th; counted: all but the judge-unparsed 4th
        (TARGET, EXCLUDED, 2 / 3),  # the unparsed 3rd leaves the denominator
        (TARGET, as_label("yes"), 3 / 4),  # the unparsed 3rd counts as the answer yes: right
        (TARGET, as_label("no"), 2 / 4),  # ... as no: wrong
        ("no", AS_WRONG, 1 / 4),  # share answering no: the 2nd
        ("no", as_label("no"), 2 / 4),  # the 2nd and the unparsed 3rd (e.g. FFE-HALLU's hallucinated)
        ("no", EXCLUDED, 1 / 3),
    ],
)
def test_each_policy(of, policy, expected):
    assert metric_values([named(rate(of, policy), "r")], answers()) == {"r": pytest.approx(expected)}


def test_a_rate_with_nothing_to_count_is_left_out_not_zero():
    assert metric_values([named(rate(TARGET, AS_WRONG, {"group": "c"}), "r")], answers()) == {}


@pytest.mark.parametrize("policy", ["as_wrong", "excluded", "as_label:hallucinated"])
def test_valid_policies(policy):
    assert check_policy(policy) == policy


@pytest.mark.parametrize("policy", ["as_label:", "wrong", "as_label"])
def test_invalid_policies_are_one_line(policy):
    with pytest.raises(FigevalError, match="unparsed policy must be as_wrong, excluded or as_label:<label>"):
        check_policy(policy)


def test_standard_errors_are_inspects_over_the_counted_answers():
    from figeval.scoring.metrics import policy_metrics

    values = metric_values(policy_metrics({"accuracy": (TARGET, AS_WRONG)}), answers())
    # counted: right, wrong, unparsed (wrong), right: p = 1/2 over n = 4; Inspect's stderr (ddof 1) of 0/1
    # values is sqrt(p (1 - p) / (n - 1)) = sqrt(1/12); its n, the counted answers, is 4 (the judge-unparsed one out)
    assert values == pytest.approx({"accuracy": 0.5, "accuracy/stderr": (1 / 12) ** 0.5, "accuracy/n": 4})
    # one counted answer: no standard error (Inspect would report 0), left out; n = 1
    one = metric_values(policy_metrics({"accuracy": (TARGET, AS_WRONG)}, {"group": "a"}), answers()[:1])
    assert one == {"accuracy": 1.0, "accuracy/n": 1}


def test_each_rate_records_its_own_denominator():
    from figeval.scoring.breakdowns import grouped_rate
    from figeval.scoring.metrics import policy_metrics
    from figeval.scoring.reading_metrics import counted_status, reading_metrics

    # excluded: the unparsed answer and the judge-unparsed one are out: right, wrong, right -> 2/3 over n = 3
    excluded = metric_values(policy_metrics({"accuracy": (TARGET, EXCLUDED)}), answers())
    assert (excluded["accuracy"], excluded["accuracy/n"]) == (pytest.approx(2 / 3), 3)
    # where group=b: unparsed (wrong), judge-unparsed (out), right -> 1/2 over n = 2, of 3 samples in the group
    b = metric_values(policy_metrics({"accuracy": (TARGET, AS_WRONG)}, {"group": "b"}), answers())
    assert (b["accuracy"], b["accuracy/n"]) == (0.5, 2)
    # per group: a = right, wrong (n 2); b = unparsed, right (n 2; the judge-unparsed one out)
    grouped = metric_values(grouped_rate(TARGET, AS_WRONG, "group", "accuracy/{group_name}"), answers())
    assert grouped == {"accuracy/a": 0.5, "accuracy/a/n": 2, "accuracy/b": 0.5, "accuracy/b/n": 2}
    # a status rate's n is every answer: 1 judge-unparsed of 5
    assert metric_values(counted_status("judge_unparsed", "judge_unparsed_rate"), answers()) == {
        "judge_unparsed_rate": 0.2, "judge_unparsed_rate/n": 5}
    reading = metric_values(reading_metrics({"group": "a"}), answers())
    assert (reading["unparsed_rate"], reading["unparsed_rate/n"], reading["truncated_rate/n"]) == (0.0, 2, 2)
    # no answer selected: no rate and no n (left out, never 0)
    assert metric_values(policy_metrics({"accuracy": (TARGET, AS_WRONG)}, {"group": "none"}), answers()) == {}
