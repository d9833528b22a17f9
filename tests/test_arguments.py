"""`name=value` arguments (-T, -M) as every command reads them, the builders' included."""

import pytest

from figeval.arguments import parse_pairs, parse_value
from figeval.errors import FigevalError


def test_boolean_task_arguments_read_yes_and_no():
    assert (parse_value("no"), parse_value("Yes"), parse_value("false"), parse_value("7")) == (False, True, False, 7)


def test_pairs_are_typed_unless_a_task_reads_them_itself():
    pairs = ("n_parallel=2", " chat_template = no ", "temperature=0.5", "path=2024")
    # typed: "2" and "2024" read as ints, "0.5" as a float, "no" as False; names and values stripped of spaces
    assert parse_pairs(pairs, "-M") == {"n_parallel": 2, "chat_template": False, "temperature": 0.5, "path": 2024}
    # untyped (task arguments, which `make_task` reads by each parameter's type): the text as given, stripped
    assert parse_pairs(pairs, "-T", typed=False) == {"n_parallel": "2", "chat_template": "no", "temperature": "0.5",
                                                     "path": "2024"}
    # a value may hold "=": only the first one splits the pair
    assert parse_pairs(("data=a=b.csv",), "-T", typed=False) == {"data": "a=b.csv"}


@pytest.mark.parametrize("pair", ["controls", "=false"])
def test_a_pair_without_a_name_or_an_equals_sign_is_one_line_naming_the_flag(pair: str):
    with pytest.raises(FigevalError) as refused:
        parse_pairs((pair,), "-T")
    assert str(refused.value) == f"-T takes name=value, got {pair!r} (e.g. -T controls=false)."
