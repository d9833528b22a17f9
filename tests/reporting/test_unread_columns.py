"""Wherever a papers' table shows a rate read from answers, the same run's unparsed share is a column beside it,
and beside a judged rate the share whose judge answer was unreadable (issue 25): figeval's columns, marked as
such and explained in the table's note."""

from __future__ import annotations

import pytest

from figeval._registry import BENCHMARKS
from figeval.table_model import JUDGE_UNPARSED_RATE, UNPARSED_RATE

# The tasks whose rates a judge labels (their scorers log judge_unparsed_rate: tests/scoring/test_every_rate_has_n.py)
JUDGED_TASKS = {"ffe_generation", "ffe_translation", "allusion_knowledge", "allusion_open"}


def runs_shown(spec, metric: str) -> set[tuple[str, tuple]]:
    """(task, run settings) of the spec's columns of `metric`."""
    return {(c.task, tuple(sorted(c.where.items()))) for c in spec.columns if c.metric == metric}


# The tables built cell by cell from runs' metrics; a table with its own build function shows what it computes.
COLUMN_TABLES = [spec for benchmark in BENCHMARKS for spec in benchmark.tables if spec.build is None]


@pytest.mark.parametrize("spec", COLUMN_TABLES, ids=lambda spec: spec.key)
def test_each_rate_has_its_runs_unread_columns(spec):
    rates = {(c.task, tuple(sorted(c.where.items()))) for c in spec.columns
             if c.metric not in (UNPARSED_RATE, JUDGE_UNPARSED_RATE)}
    assert rates - runs_shown(spec, UNPARSED_RATE) == set()
    judged = {(task, where) for task, where in rates if task in JUDGED_TASKS}
    assert judged - runs_shown(spec, JUDGE_UNPARSED_RATE) == set()
    unread = [c for c in spec.columns if c.metric in (UNPARSED_RATE, JUDGE_UNPARSED_RATE)]
    # figeval's columns (a * on their header) with a note saying what they count
    assert all(c.ours for c in unread)
    assert any("figeval's columns (*), not the paper's" in note for note in spec.notes)
    if runs_shown(spec, JUDGE_UNPARSED_RATE):
        assert any("Judge unreadable: the share of answers whose judge answer could not be read" in note
                   for note in spec.notes)


def test_the_check_sees_a_missing_column():
    # FFE-HALLU Table 3 without its judge-unreadable columns would show a judged rate alone
    from figeval.benchmarks.ffe_hallu.tables import TABLE_3

    judged = {(c.task, tuple(sorted(c.where.items()))) for c in TABLE_3.columns if c.metric == "correct_rate"}
    assert judged == runs_shown(TABLE_3, JUDGE_UNPARSED_RATE) and len(judged) == 2  # human and paraphrased meanings
