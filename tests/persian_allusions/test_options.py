"""Multiple-choice options: the paper's distractor rules as properties, and reading the chosen option."""

import random
from collections import Counter

import pytest

from figeval.benchmarks.persian_allusions.dataset import (
    OWN_POOL_THEMES,
    answer_positions,
    knowledge_list,
    load_poems,
    mc_options,
)
from figeval.benchmarks.persian_allusions.readers import paper_option, read_option
from figeval.text import expression_key
from tests.persian_allusions.conftest import FIXTURES

OPTIONS = ["یوسف و زلیخا", "آتش نمرود", "کشتی نوح", "عصای موسی", "جام جم"]
OPTION_ANSWERS = [
    ('{"selected_option": 3}', 3),
    ('{"selected_option": "2"}', 2),
    ('{"selected_option": 0}', 0),
    ('```json\n{"selected_option": 4}\n```', 4),
    ('Here is my answer: {"selected_option": 1} because the couplet mentions Joseph.', 1),
    ("3", 3),
    ("5.", 5),
    ("Option 2", 2),
    ("option #4", 4),
    ("گزینه ۳", 3),
    ("۵", 5),
    ("٢", 2),  # Arabic-Indic digit
    ("The answer is 1.", 1),
    ("0", 0),
    ("<think>maybe 2 or 4... the cut hands: Joseph</think>\n5", 5),
    # unreadable
    ("7", None),  # out of range
    ('{"selected_option": 9}', None),
    ("1 or 2", None),
    # a negation governs the option it precedes: "not option 4" rejects 4, and 3 is the one stated right
    ("I think option 3 is right, not option 4", 3),
    ("option 3 or option 4, not option 5", None),  # adversarial: the rejection leaves two, no choice
    ("none of them", 0),
    ("", None),
]


@pytest.mark.parametrize("answer, expected", OPTION_ANSWERS, ids=[repr(a)[:40] for a, _ in OPTION_ANSWERS])
def test_parse_option(answer, expected):
    by_paper, by_reader = paper_option(answer, 5), read_option(answer, OPTIONS, 5)
    assert (by_reader if by_reader is not None else by_paper) == expected
    assert by_paper in (None, expected)  # the paper's form, where it reads, agrees


@pytest.fixture(scope="module")
def allusions():
    return knowledge_list(load_poems(FIXTURES / "PersPoems.csv"))


def test_knowledge_list_deduplicates(allusions):
    # 13 couplets, "لیلی و مجنون" twice: 12 distinct allusions, each with its first couplet's first theme
    assert len(allusions) == 12
    assert allusions[expression_key("لیلی و مجنون")].theme == "romantic"
    assert allusions[expression_key("انگشتری سلیمان")].theme == "quranic"


@pytest.mark.parametrize("seed", range(40))
def test_distractors_follow_the_rules(allusions, seed):
    rng = random.Random(seed)
    for answer in allusions.values():
        position = rng.randint(1, 5)
        options = mc_options(answer, allusions, position, random.Random(f"{seed}:{answer.title}"))
        assert len(options) == 5 and options[position - 1] == answer.title
        keys = [expression_key(o) for o in options]
        assert len(set(keys)) == 5  # no duplicates, the answer only once
        themes = {allusions[k].theme for k in keys if k != expression_key(answer.title)}
        if answer.theme in OWN_POOL_THEMES:
            assert themes == {answer.theme}
        else:
            assert themes.isdisjoint(OWN_POOL_THEMES)


@pytest.mark.parametrize("n", [5, 13, 200])
def test_answer_positions_are_balanced_for_any_seed(n):
    for seed in range(50):
        counts = Counter(answer_positions(n, seed))
        assert set(counts) <= {1, 2, 3, 4, 5} and max(counts.values()) - min(counts.values()) <= 1
    assert answer_positions(n, 1) == answer_positions(n, 1) and (n < 5
                                                                 or answer_positions(n, 1) != answer_positions(n, 2))
