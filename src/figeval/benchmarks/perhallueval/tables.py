"""PerHalluEval's results (Table 2, Figures 3-5 and 8 as tables, with the 95% intervals the paper prints) and the
leaderboard headlines, for `figeval report`. Table 4 (the best model per family, the families in `families.py`) is
derived from Figures 3-4 in `figeval.reporting`, and so is Table 1 (the share of items each generator wrote) from
the data file's `generator` column (`figeval build perhallueval` prints it too)."""

from figeval.reporting.tables import Column, TableSpec, unparsed_column, unread_note

_ROWS = ("answer_mode", "unparsed", "data", "prompt_version")
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
    "perhallueval/table-2", "perhallueval", "Table 2", "Hamming score with 95% confidence intervals", "fraction",
    (*(Column(f"{kind}/hamming_score", f"{_short(kind)} Hamming", task, "hamming_score", better="higher")
       for kind, task in _TASK.items()), *_unparsed_columns()),
    ("answer_mode", "unparsed"), intervals=True, notes=(_UNREAD,),
)


def _recalls(kind: str, figure: str) -> TableSpec:
    task = _TASK[kind]
    return TableSpec(
        f"perhallueval/figure-{figure[-1]}", "perhallueval", figure,
        f"{'QA' if kind == 'qa' else 'Summarization'}: factual recall, hallucinated recall, Hamming score", "percent",
        (Column("factual_recall", "Factual Recall", task, "factual_recall", better="higher"),
         Column("hallucinated_recall", "Hallucinated Recall", task, "hallucinated_recall", better="higher"),
         Column("hamming_score", "Hamming Score", task, "hamming_score", better="higher"),
         unparsed_column("unparsed", "Unparsed", task)),
        _ROWS, intervals=True, notes=(_UNREAD,),
    )


FIGURE_3 = _recalls("qa", "Figure 3")
FIGURE_4 = _recalls("summarization", "Figure 4")

FIGURE_5 = TableSpec(
    "perhallueval/figure-5", "perhallueval", "Figure 5", "QA Hamming score, Persian-specific vs generic items",
    "fraction",
    (Column("persian_specific", "Persian-specific", "perhallueval_qa", "hamming_score/persian_specific", better="higher"),
     Column("generic", "Generic", "perhallueval_qa", "hamming_score/generic", better="higher"),
     Column("persian_specific_share", "Persian-specific share", "perhallueval_qa", "persian_specific_share", ours=True),
     unparsed_column("unparsed", "Unparsed (all QA items)", "perhallueval_qa")),
    _ROWS, intervals=True, notes=(_UNREAD,),
)

FIGURE_8 = TableSpec(
    "perhallueval/figure-8", "perhallueval", "Figure 8", "Precision, recall ('Y' is the positive) and F1",
    "fraction",
    tuple(column for kind, task in _TASK.items() for column in (
        Column(f"{kind}/precision", f"{'QA' if kind == 'qa' else 'TS'} Precision", task, "precision", better="higher"),
        Column(f"{kind}/recall", f"{'QA' if kind == 'qa' else 'TS'} Recall", task, "factual_recall", better="higher"),
        Column(f"{kind}/f1", f"{'QA' if kind == 'qa' else 'TS'} F1", task, "f1", better="higher")))
    + _unparsed_columns(),
    ("answer_mode", "unparsed"), notes=(_UNREAD,),
)

TABLES = (TABLE_2, FIGURE_3, FIGURE_4, FIGURE_5, FIGURE_8)

HEADLINES = tuple(Column(task, f"PerHalluEval {'QA' if kind == 'qa' else 'TS'} Hamming", task, "hamming_score",
                         better="higher") for kind, task in _TASK.items())

# Table 4: per family, task and statistic, the best model and its value (derived from Figures 3-4's runs). The
# families are the paper's (`families.py`), so that its reference rows sit under the user's rows of the same name.
TABLE_4 = TableSpec(
    "perhallueval/table-4", "perhallueval", "Table 4", "Best model per family (the paper's families; "
    "`--family MODEL=FAMILY` names another model's)", "fraction",
    tuple(Column(f"{kind}/{metric}", f"{'QA' if kind == 'qa' else 'TS'} {header}", task, metric, better="higher")
          for kind, task in _TASK.items()
          for metric, header in (("hamming_score", "Hamming"), ("factual_recall", "Factual Recall"),
                                 ("hallucinated_recall", "Hallucinated Recall"))),
    (), cell_labels=True,
)

# Table 1: per generator, the share of the benchmark's items whose hallucinated version it wrote (derived from the
# samples of the newest run of each task).
TABLE_1 = TableSpec(
    "perhallueval/table-1", "perhallueval", "Table 1", "Source-model share of selected hallucinations", "percent",
    tuple(Column(f"{kind}/share", f"{'QA' if kind == 'qa' else 'TS'} Share (%)", task, "") for kind, task in _TASK.items()),
    (),
)
