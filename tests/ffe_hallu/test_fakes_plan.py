"""What a fakes build plans (Section 3.4, Appendix B 2.1): the same seed gives the same plan, a larger plan
extends a smaller one, and the inversions a rule can make come first."""

from figeval.benchmarks.ffe_hallu.dataset import FAKE_CATEGORIES
from figeval.benchmarks.ffe_hallu.fakes import SEMANTIC_INVERSION
from figeval.benchmarks.ffe_hallu.fakes_plan import plan_fakes


def test_a_larger_plan_extends_a_smaller_one():
    sources = ["دشمن دانا به از دوست نادان", "پا پس کشیدن", "از چاله به چاه افتادن", "شاخ کسی را شکستن",
               "ضرب شست نشان دادن", "بار کج به منزل نمی‌رسد"]
    small, large = plan_fakes(sources, 2, seed=7), plan_fakes(sources, 4, seed=7)
    for category in FAKE_CATEGORIES:
        keys = [item.key for item in large if item.category == category]
        assert [item.key for item in small if item.category == category] == keys[:2]
        assert len(set(keys)) == 4
    # inversions a rule can make come first, with no prompt
    inversions = [item for item in large if item.category == SEMANTIC_INVERSION]
    assert [bool(item.inversion) for item in inversions] == [True, True, True, False]
    assert all(not item.prompt for item in inversions[:3])
    assert plan_fakes(sources, 2, seed=8) != small  # the seed orders the sources
