"""How answers were read: status rates over all answers and the decided-by counts, on the hand-built answers of
test_metrics."""

from figeval.scoring.metrics import named
from figeval.scoring.reading_metrics import decided_by_counts, status_rate
from tests.metric_values import metric_values
from tests.scoring.test_metrics import answers


def test_status_rates_are_over_all_answers():
    values = metric_values([named(status_rate("unparsed"), "u"), named(status_rate("judge_unparsed"), "j")], answers())
    assert values == {"u": 1 / 5, "j": 1 / 5}


def test_decided_by_counts():
    assert metric_values([decided_by_counts()], answers()) == {
        "decided_by/parser": 3.0, "decided_by/logprob": 1.0, "decided_by/rule": 0.0, "decided_by/judge": 1.0,
        "decided_by/manual": 0.0,
        "decided_by/extractor": 0.0,
    }
