"""PerHalluEval's results (Table 2, Figures 3-5 and 8 as tables, with the 95% intervals the paper prints) and the
leaderboard headlines, for `figeval report`. Table 4 (the best model per family, the families in `families.py`) is
derived from Figures 3-4's runs, and Table 1 (the share of items each generator wrote) from the data file's
`generator` column (`figeval build perhallueval-candidates` prints it too)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import product
from typing import cast

from inspect_ai.log import read_eval_log

from figeval.benchmarks.perhallueval.families import FAMILIES, family_label, family_notes
from figeval.results.rows import RowRuns, model_rows, setting_names, shared_settings, shown_settings
from figeval.results.runs import RunSummary
from figeval.table_model import Cell, Column, Row, Table, TableContext, TableSpec, unparsed_column, unread_note
from figeval.results.tables import build_table, metric_cell, preferred, subset_note, subset_notes

# How the report names the paper (the benchmark's title).
PAPER = "PerHalluEval"
DATA = "data"  # each task's parameter: the final PerHalluEval file it reads
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
    (Column("persian_specific", "Persian-specific", "perhallueval_qa", "hamming_score/persian_specific",
            better="higher"),
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
    _SHOWN, notes=(_UNREAD, "Precision: TP / (TP + FP) over the model's Y answers (Section 3.5: a false positive is a "
                   "'Y' on a hallucinated version), so an unread answer is outside it; Recall: factual recall, by "
                   "the row's unparsed policy (as_wrong: an unread answer on a correct version is a missed "
                   "positive); F1: their harmonic mean."),
)

HEADLINES = tuple(Column(task, f"PerHalluEval {'QA' if kind == 'qa' else 'TS'} Hamming", task, "hamming_score",
                         better="higher") for kind, task in _TASK.items())


def best_per_family(spec: TableSpec, runs: Sequence[RunSummary], family_of: Callable[[RunSummary], str],
                    order: Sequence[str] = ()) -> Table:
    """Table 4: per family (`family_of` a run, the row's label) and column, the highest value among the family's
    runs and its model (ties: the first model by name), only ever among runs of the same settings: a family's runs
    form rows as one model's runs do (`figeval.results.rows`), so a value under another unparsed policy, answer
    mode or data file is never taken for the family's best, and each such setting is a row of its own. Rows: the
    families in `order` (the paper's) first, then the others by name."""
    table = build_table(spec, [])
    rank = {family: i for i, family in enumerate(order)}
    runs = without_covered_subsets(runs)
    found: list[tuple[str, RowRuns]] = []
    for family in sorted({family_of(run) for run in runs}, key=lambda family: (rank.get(family, len(rank)), family)):
        filled = [(run, {i for i, column in enumerate(spec.columns) if column.task == run.task
                         and column.metric in run.metrics}) for run in runs if family_of(run) == family]
        found += [(family, row) for row in model_rows([(run, columns) for run, columns in filled if columns], set())]
    names = setting_names(list(dict.fromkeys(key for _, row in found for key in row.settings)))
    file_keys = {key for key in names if any(key[0] in run.files for run in runs)}
    chosen: list[tuple[RunSummary, str]] = []
    for family, runs_of_row in found:
        row = Row(family, {names[key]: value for key, value in runs_of_row.settings.items()}, {})
        row.other_data = {names[key]: value for key, value in runs_of_row.settings.items() if key in file_keys}
        for index, candidates in sorted(runs_of_row.candidates.items()):
            column = spec.columns[index]
            best = max(sorted(candidates, key=lambda run: run.display_name),
                       key=lambda run: run.metrics[column.metric])  # max keeps the first of equals: by name
            # every candidate has the column's metric (`filled`): its cell is never None
            row.cells[column.key] = replace(cast(Cell, metric_cell(best, column.metric)), label=best.display_name)
            chosen.append((best, column.header))
        table.rows.append(row)
    table.identity_keys = shown_settings(table.rows, [names[key] for key in file_keys])
    table.shared = shared_settings(table.rows, table.identity_keys)
    from_subsets: dict[str, tuple[RunSummary, list[str]]] = {}
    for run, header in chosen:
        if not run.complete:
            from_subsets.setdefault(run.log, (run, []))[1].append(header)
    table.notes += subset_notes(list(from_subsets.values()))
    return table


def without_covered_subsets(runs: Sequence[RunSummary]) -> list[RunSummary]:
    """`runs` without the subset runs of a task and model that also has a complete run (with any settings): where
    a table picks among a model's runs by value, a smoke test's number never stands for the model."""
    complete = {(run.task, run.display_name) for run in runs if run.complete}
    return [run for run in runs if run.complete or (run.task, run.display_name) not in complete]


def generator_shares(spec: TableSpec, runs: Sequence[RunSummary]) -> Table:
    """Table 1: per generator (the data file's `generator` column), the share of a file's items whose hallucinated
    version it wrote, each task's file read from the items of its preferred run (complete over subset, then the
    newest: `preference`). Each data file is its own: where a task was run on several files, each is a row of its
    own with the file it is of (`data`), never one file's items counted as another's. No rows when no file names
    generators."""
    table = build_table(spec, [])
    by_task: dict[str, dict[str, RunSummary]] = {}  # task -> data file -> the run read
    for column in spec.columns:
        found: dict[str, list[RunSummary]] = {}
        for run in runs:
            if run.task == column.task:
                found.setdefault((run.identity or {}).get(DATA, ""), []).append(run)
        by_task[column.key] = {data: preferred(candidates) for data, candidates in found.items()}
    present = [key for key in by_task if by_task[key]]
    for combination in product(*(sorted(by_task[key].items()) for key in present)):
        shares: dict[str, dict[str, Cell]] = {}
        for key, (data, run) in zip(present, combination):
            if not run.complete:
                table.notes.append(subset_note(run, [next(c.header for c in spec.columns if c.key == key)]))
            generator_of = {sample.metadata.get("item"): sample.metadata.get("generator")
                            for sample in read_eval_log(run.log).samples or []}
            named = [g for g in generator_of.values() if g]
            for generator in sorted(set(named)):
                shares.setdefault(generator, {})[key] = Cell(named.count(generator) / len(generator_of),
                                                             n=len(generator_of), log=run.log)
        settings = {f"{DATA} ({next(c.header for c in spec.columns if c.key == key).removesuffix(' Share (%)')})": data
                    for key, (data, _) in zip(present, combination) if data}
        table.rows += [Row(generator, dict(settings), cells) for generator, cells in sorted(shares.items())]
    table.notes = list(dict.fromkeys(table.notes))
    table.identity_keys = shown_settings(table.rows, [name for row in table.rows for name in row.identity])
    return table


def _table_4(spec: TableSpec, runs: Sequence[RunSummary], context: TableContext) -> Table:
    named = dict(context.families)
    # --family takes a model as the report names it or as its log records it
    named |= {run.model: named[run.display_name] for run in runs
              if run.display_name in named and run.model not in named}
    # a model none of the paper's families has is a row of its own, named as the report names the model
    table = best_per_family(spec, runs, lambda run: family_label(run.model, named, run.display_name), FAMILIES)
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
    tuple(Column(f"{kind}/share", f"{'QA' if kind == 'qa' else 'TS'} Share (%)", task, "")
          for kind, task in _TASK.items()),
    (), build=lambda spec, runs, context: [table] if (table := generator_shares(spec, runs)).rows else [],
)

TABLES = (TABLE_2, FIGURE_3, FIGURE_4, FIGURE_5, FIGURE_8, TABLE_1, TABLE_4)
