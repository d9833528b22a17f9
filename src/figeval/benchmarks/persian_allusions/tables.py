"""The Persian allusions paper's Table 3 (knowledge, open-ended and MC accuracy per dataset) and the leaderboard
headlines, for `figeval report`.

Table 3's knowledge and open-ended numbers are people's: "An expert manually classified responses" (Section 3.1),
"All outputs were manually validated" (Section 3.3). A run's row is its judge's ("labelled by: judge"); with
`figeval report --human LABELS` (from `figeval annotate export` -> `annotate import`) the people's labels of the same
answers are a row beside it (the `correct` share is the open-ended column, `complete` the knowledge column), and
Table 4 is how far the judge agrees with them. The open-ended columns are the judge with the ground truth (Table 4's
setting); the columns without it are figeval's addition. Multiple choice is read by rule: no judge.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.log import read_eval_log

from figeval.benchmarks.persian_allusions.analysis import allusion_tables
from figeval.results.paper import count_row
from figeval.results.runs import RunSummary
from figeval.table_model import (
    Column,
    Table,
    TableContext,
    TableSpec,
    judge_unreadable_column,
    unparsed_column,
    unread_note,
)

# How the report names the paper (the benchmark's title).
PAPER = "Persian allusions"

JUDGED = "(judge)"


def _unread(key: str, header: str, task: str, where: dict[str, str] | None = None) -> tuple[Column, ...]:
    """figeval's columns beside a judged rate: its run's unparsed and judge-unreadable shares."""
    return (unparsed_column(f"{key}/unparsed", f"{header} unparsed", task, where),
            judge_unreadable_column(f"{key}/judge_unreadable", f"{header} judge unreadable", task, where))


def _recognition(dataset: str) -> tuple[Column, ...]:
    name = {"perspoems": "PersPoems", "generated": "LLM-Generated"}[dataset]
    open_gt = {"dataset": dataset, "judge_mode": "gt"}
    open_no_gt = {"dataset": dataset, "judge_mode": "no_gt"}
    mc = {"dataset": dataset}
    return (
        Column(f"{dataset}/open", f"{name} Open-ended", "allusion_open", "accuracy", open_gt, "higher",
               human_label="correct"),
        *_unread(f"{dataset}/open", f"{name} Open-ended", "allusion_open", open_gt),
        Column(f"{dataset}/mc", f"{name} Multi-choice", "allusion_mc", "accuracy", mc, "higher"),
        unparsed_column(f"{dataset}/mc/unparsed", f"{name} Multi-choice unparsed", "allusion_mc", mc),
        Column(f"{dataset}/open_no_gt", f"{name} Open-ended (judge without GT)", "allusion_open", "accuracy",
               open_no_gt, "higher", ours=True),
        *_unread(f"{dataset}/open_no_gt", f"{name} Open-ended (judge without GT)", "allusion_open", open_no_gt),
    )


# Knowledge: "We only considered responses in the first category as demonstrating true knowledge" (Section 3.1), so
# an unreadable answer shows none; recognition: an unreadable answer names no allusion (scorer.py).
TABLE_3 = TableSpec(
    "persian-allusions/table-3", PAPER, "Table 3",
    "Allusion knowledge and recognition accuracy", "percent",
    (Column("knowledge", "Knowledge", "allusion_knowledge", "knowledge_rate", better="higher", human_label="complete"),
     *_unread("knowledge", "Knowledge", "allusion_knowledge"),
     *_recognition("perspoems"), *_recognition("generated")),
    ("judge",),
    notes=(unread_note("The unparsed and judge unreadable columns", "counted as showing no knowledge (knowledge) and "
                       "as wrong (recognition)", judged=True),),
)


HEADLINES = (
    Column("allusion_knowledge", f"Allusion knowledge {JUDGED}", "allusion_knowledge", "knowledge_rate",
           better="higher"),
    Column("allusion_mc", "Allusion MC (PersPoems)", "allusion_mc", "accuracy", {"dataset": "perspoems"},
           "higher"),
    Column("allusion_open", "Allusion open (PersPoems, GT judge)", "allusion_open", "accuracy",
           {"dataset": "perspoems", "judge_mode": "gt"}, "higher"),
)


# The paper's table of PersPoems texts per theme: its counts are a row of the themes analysis (the benchmark cites
# it, `Benchmark.cited_tables`, since no table of its own has it as its source).
THEME_COUNTS = "Table 2"


def _analyses(spec: TableSpec, runs: Sequence[RunSummary], context: TableContext) -> list[Table]:
    """Section 4's analyses (analysis.py) over the allusion runs; with the paper's numbers, the themes table ends
    with Table 2's count of PersPoems texts per theme."""
    mine = [run for run in runs if run.task in spec.tasks]
    tables = allusion_tables([read_eval_log(run.log) for run in mine], {run.log: run.display_name for run in mine})
    for table in tables:
        if context.paper and table.key == "persian-allusions/themes":
            table.rows.append(count_row(context.numbers, THEME_COUNTS, "PersPoems"))
    return tables


ANALYSES = TableSpec(
    "persian-allusions/section-4", PAPER, "Section 4", "Analyses across the allusion tasks", "percent", (), (),
    reads=frozenset({"allusion_knowledge", "allusion_mc", "allusion_open"}), build=_analyses,
)

TABLES = (TABLE_3, ANALYSES)
