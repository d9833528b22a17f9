"""PerHalluEval's results (Table 2, Figures 3-5 and 8 as tables, with the 95% intervals the paper prints) and the
leaderboard headlines, for `figeval report`. Table 4 (the best model per family, the families in `families.py`) is
derived from Figures 3-4's runs, and Table 1 (the share of items each generator wrote) from the data file's
`generator` column (`figeval build perhallueval` prints it too)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from inspect_ai.log import read_eval_log

from figeval.benchmarks.perhallueval.families import FAMILIES, family_label, family_notes
from figeval.reporting.runs import RunSummary
from figeval.reporting.tables import (
    Cell,
    Column,
    Row,
    Table,
    TableContext,
    TableSpec,
    build_table,
    metric_cell,
    preferred,
    subset_note,
    unparsed_column,
    unread_note,
)

# How the report names the paper (the benchmark's title).
PAPER = "PerHalluEval"
# The unparsed policy is figeval's choice where the paper is silent: every row says which it used.
_SHOWN = ("unparsed",)
_TASK = {"qa": "perhallueval_qa", "summarization": "perhallueval_summarization"}


def _short(kind: str) -> str:
    return "QA" if kind == "qa" else "TS"


def _unparsed_columns() -> tuple[Column, ...]:
    return tuple(unparsed_column(f"{kind}/unparsed", f"{_short(kind)} Unparsed", task) for kind, task in _TASK.items())


# The paper is silent on how an evaluated model's unreadable answer counts (Section 3.5); the `unparsed` row
# setting says which policy a row used (scorer.py: `as_wrong` by default).
_UNREAD = unread_note("Unparsed", "counted by the row's unparsed policy: as_wrong (never right: neither a Y nor an "
                      "N) or excluded (left out of the recalls and, with its item, of the Hamming score)")

TABLE_2 = TableSpec(
    "perhallueval/table-2", PAPER, "Table 2", "Hamming score with 95% confidence intervals", "fraction",
    (*(Column(f"{kind}/hamming_score", f"{_short(kind)} Hamming", task, "hamming_score", better="higher")
       for kind, task in _TASK.items()), *_unparsed_columns()),
    _SHOWN, intervals=True, notes=(_UNREAD,),
)


def _recalls(kind: str, figure: str) -> TableSpec:
    task = _TASK[kind]
    return TableSpec(
        f"perhallueval/figure-{figure[-1]}", PAPER, figure,
        f"{'QA' if kind == 'qa' else 'Summarization'}: factual recall, hallucinated recall, Hamming score", "percent",
        (Column("factual_recall", "Factual Recall", task, "factual_recall", better="higher"),
         Column("hallucinated_recall", "Hallucinated Recall", task, "hallucinated_recall", better="higher"),
         Column("hamming_score", "Hamming Score", task, "hamming_score", better="higher"),
         unparsed_column("unparsed", "Unparsed", task)),
        _SHOWN, intervals=True, notes=(_UNREAD,),
    )


FIGURE_3 = _recalls("qa", "Figure 3")
FIGURE_4 = _recalls("summarization", "Figure 4")

FIGURE_5 = TableSpec(
    "perhallueval/figure-5", PAPER, "Figure 5", "QA Hamming score, Persian-specific vs generic items",
    "fraction",
    (Column("persian_specific", "Persian-specific", "perhallueval_qa", "hamming_score/persian_specific", better="higher"),
     Column("generic", "Generic", "perhallueval_qa", "hamming_score/generic", better="higher"),
     Column("persian_specific_share", "Persian-specific share", "perhallueval_qa", "persian_specific_share", ours=True),
     unparsed_column("unparsed", "Unparsed (all QA items)", "perhallueval_qa")),
    _SHOWN, intervals=True, notes=(_UNREAD,),
)

FIGURE_8 = TableSpec(
    "perhallueval/figure-8", PAPER, "Figure 8", "Precision, recall ('Y' is the positive) and F1",
    "fraction",
    tuple(column for kind, task in _TASK.items() for column in (
        Column(f"{kind}/precision", f"{'QA' if kind == 'qa' else 'TS'} Precision", task, "precision", better="higher"),
        Column(f"{kind}/recall", f"{'QA' if kind == 'qa' else 'TS'} Recall", task, "factual_recall", better="higher"),
        Column(f"{kind}/f1", f"{'QA' if kind == 'qa' else 'TS'} F1", task, "f1", better="higher")))
    + _unparsed_columns(),
    _SHOWN, notes=(_UNREAD,),
)

HEADLINES = tuple(Column(task, f"PerHalluEval {'QA' if kind == 'qa' else 'TS'} Hamming", task, "hamming_score",
                         better="higher") for kind, task in _TASK.items())


def best_per_family(spec: TableSpec, runs: Sequence[RunSummary], family_of: Callable[[str], str],
                    order: Sequence[str] = ()) -> Table:
    """Table 4: per family (`family_of` a run's model, the row's label) and column, the highest value
    among the family's runs and its model (ties: the first model by name). Rows: the families in `order` (the
    paper's) first, then the others by name."""
    table = build_table(spec, [])
    best: dict[str, dict[str, Cell]] = {}
    chosen: dict[tuple[str, str], RunSummary] = {}  # (family, column key) -> the run of the best cell
    runs = without_covered_subsets(runs)
    for column in spec.columns:
        for run in sorted(runs, key=lambda run: run.model):
            cell = metric_cell(run, column.metric) if run.task == column.task else None
            family = best.setdefault(family_of(run.model), {})
            if cell is not None and (column.key not in family or cell.value > family[column.key].value):
                family[column.key] = replace(cell, label=run.display_name)
                chosen[(family_of(run.model), column.key)] = run
    rank = {family: i for i, family in enumerate(order)}
    table.rows = [Row(family, {}, cells) for family, cells in
                  sorted(best.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0])) if cells]
    headers = {column.key: column.header for column in spec.columns}
    from_subsets: dict[str, tuple[RunSummary, list[str]]] = {}
    for (_, key), run in chosen.items():
        if not run.complete:
            from_subsets.setdefault(run.log, (run, []))[1].append(headers[key])
    table.notes += [subset_note(run, found) for run, found in from_subsets.values()]
    return table


def without_covered_subsets(runs: Sequence[RunSummary]) -> list[RunSummary]:
    """`runs` without the subset runs of a task and model that also has a complete run (with any settings): where
    a table picks among a model's runs by value, a smoke test's number never stands for the model."""
    complete = {(run.task, run.display_name) for run in runs if run.complete}
    return [run for run in runs if run.complete or (run.task, run.display_name) not in complete]


def generator_shares(spec: TableSpec, runs: Sequence[RunSummary]) -> Table:
    """Table 1 from the items of the newest run of each task (complete over subset, `preference`): per generator (the data file's
    `generator` column), the share of items whose hallucinated version it wrote. No rows when the file does not
    name generators."""
    table = build_table(spec, [])
    shares: dict[str, dict[str, Cell]] = {}
    for column in spec.columns:
        found = [run for run in runs if run.task == column.task]
        if not found:
            continue
        newest = preferred(found)  # the newest complete run: a subset only when none is
        if not newest.complete:
            table.notes.append(subset_note(newest, [column.header]))
        generator_of = {sample.metadata.get("item"): sample.metadata.get("generator")
                        for sample in read_eval_log(newest.log).samples or []}
        named = [g for g in generator_of.values() if g]
        for generator in sorted(set(named)):
            shares.setdefault(generator, {})[column.key] = Cell(named.count(generator) / len(generator_of),
                                                                n=len(generator_of), log=newest.log)
        if named:
            table.notes.append(f"{column.header}: items of {newest.log}" + (
                f"; {len(generator_of) - len(named)} items name no generator" if len(named) < len(generator_of) else ""))
    table.rows = [Row(generator, {}, cells) for generator, cells in sorted(shares.items())]
    return table

def _table_4(spec: TableSpec, runs: Sequence[RunSummary], context: TableContext) -> Table:
    named = dict(context.families)
    # --family takes a model as the report names it or as its log records it
    named |= {run.model: named[run.display_name] for run in runs if run.display_name in named and run.model not in named}
    table = best_per_family(spec, runs, lambda model: family_label(model, named), FAMILIES)
    table.notes += family_notes([run.model for run in runs if run.task in spec.tasks], named)
    return table


# Table 4: per family, task and statistic, the best model and its value (derived from Figures 3-4's runs). The
# families are the paper's (`families.py`), so that its reference rows sit under the user's rows of the same name.
TABLE_4 = TableSpec(
    "perhallueval/table-4", PAPER, "Table 4", "Best model per family (the paper's families; "
    "`--family MODEL=FAMILY` names another model's)", "fraction",
    tuple(Column(f"{kind}/{metric}", f"{'QA' if kind == 'qa' else 'TS'} {header}", task, metric, better="higher")
          for kind, task in _TASK.items()
          for metric, header in (("hamming_score", "Hamming"), ("factual_recall", "Factual Recall"),
                                 ("hallucinated_recall", "Hallucinated Recall"))),
    (), cell_labels=True, build=lambda spec, runs, context: [_table_4(spec, runs, context)],
)

# Table 1: per generator, the share of the benchmark's items whose hallucinated version it wrote (derived from the
# samples of the newest run of each task).
TABLE_1 = TableSpec(
    "perhallueval/table-1", PAPER, "Table 1", "Source-model share of selected hallucinations", "percent",
    tuple(Column(f"{kind}/share", f"{'QA' if kind == 'qa' else 'TS'} Share (%)", task, "") for kind, task in _TASK.items()),
    (), build=lambda spec, runs, context: [table] if (table := generator_shares(spec, runs)).rows else [],
)

TABLES = (TABLE_2, FIGURE_3, FIGURE_4, FIGURE_5, FIGURE_8, TABLE_1, TABLE_4)
