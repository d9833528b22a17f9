"""The table model: what a report's table is (`Table`, its `Row`s of `Cell`s under `ColumnHead`s) and how a benchmark
declares a paper's table (`TableSpec`, its `Column`s, `TableContext` for a table's own build function). The shape
every report format renders; values are kept as the metrics give them (rates in [0, 1], never rounded here), and a
table's `unit` says how to show them. Building tables from runs is `figeval.results.tables`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# Below this many samples a rate's 95% interval is shown even where the paper prints none.
SMALL_N = 100
# How many decimals a value shows in a column the paper prints no number of: percent 14.5, fractions 0.145.
USUAL_DECIMALS = {"percent": 1, "fraction": 3}


@dataclass(frozen=True)
class Cell:
    """A value (a rate, a count, or text), its 95% interval, its n and the log it came from."""

    value: float | str | None
    low: float | None = None
    high: float | None = None
    n: int | None = None
    """The value's own denominator (the answers a rate counted); None when the log does not record it."""
    log: str | None = None
    label: str = ""
    """Text shown with the value (the best model of a family in a table of families)."""
    decimals: int | None = None
    """A paper's number: the decimals it is printed with (33.25, not 33.2); None: the unit's usual precision."""
    samples: int | None = None
    """The run's sample count, where the cell is a run's metric (its n may be fewer: the fakes of one framing)."""


@dataclass(frozen=True)
class ColumnHead:
    key: str
    header: str
    better: str = ""
    """'higher', 'lower' or '' (no direction)."""
    ours: bool = False
    """Not a column of the paper's table (figeval's addition, marked as such)."""
    unit: str = ""
    """The column's own unit where it differs from the table's (Cohen's kappa beside a percent agreement)."""
    decimals: int | None = None
    """How many decimals the column's values show: as many as the paper's most precise number in it (Avg 61.75),
    at least the unit's usual precision; None: the unit's usual precision."""


@dataclass
class Row:
    label: str
    """The model (or, for reference rows, the paper's row name)."""
    identity: dict[str, str]
    cells: dict[str, Cell]
    reference: str = ""
    """For the papers' own numbers: their source ("<paper> Table 4"); empty for the user's runs."""
    other_data: dict[str, str] = field(default_factory=dict)
    """The settings naming a file of the user's, for a row whose data is not the paper's."""


@dataclass
class Table:
    key: str
    title: str
    source: str
    unit: str
    """'percent', 'fraction' or 'count': how values are shown."""
    columns: list[ColumnHead]
    rows: list[Row] = field(default_factory=list)
    identity_keys: list[str] = field(default_factory=list)
    intervals: bool = False
    """The paper prints intervals: show them for every cell (else only where n < SMALL_N)."""
    notes: list[str] = field(default_factory=list)
    cell_n: bool = False
    """Each cell shows its own n (per-theme accuracy: the texts with the theme)."""
    shared: dict[str, str] = field(default_factory=dict)
    """The settings every row has alike that are not shown as columns (`shared_settings`); every format says
    them once (`figeval.reporting.cells.table_notes`)."""


@dataclass(frozen=True)
class Column:
    key: str
    """The column's key in the papers' numbers file (paper_numbers.csv)."""
    header: str
    task: str
    metric: str
    where: Mapping[str, str] = field(default_factory=dict)
    """Run settings the column needs (meaning=human, dataset=generated)."""
    better: str = ""
    ours: bool = False
    complement: bool = False
    """Shows 1 - metric (Figure 1's accuracy from a hallucination rate)."""
    human_label: str = ""
    """Where the paper's column is people's labels of the task's answers: the label whose share it is ("correct").
    A run's own row is then its judge's (`LABELLED_BY`), and `figeval report --human LABELS` adds the people's
    labels of the same answers in a row beside it (`figeval.results.people`)."""


@dataclass(frozen=True)
class TableContext:
    """What a table's own build function may use beyond the runs."""

    paper: bool = False
    """The papers' own numbers are asked for (`figeval report --paper`)."""
    numbers: Sequence[Mapping[str, str]] = ()
    """The benchmark's paper numbers (`Benchmark.numbers()`)."""
    families: Mapping[str, str] = field(default_factory=dict)
    """Families the user named for models (`--family MODEL=FAMILY`), for a table grouped by family."""


@dataclass(frozen=True)
class TableSpec:
    key: str
    paper: str
    """How the report names the paper (its benchmark's title)."""
    source: str
    """"Table 4", "Figure 1"."""
    title: str
    unit: str
    columns: tuple[Column, ...]
    shown_settings: tuple[str, ...]
    """Settings shown as a column whenever a row has them, though every row shares them (the judge of a judged
    table); every setting splits rows (`build_table`), and those that differ between rows are shown anyway."""
    intervals: bool = False
    cell_labels: bool = False
    """The paper's cells carry a name (the paper numbers' note: the best model of a family)."""
    notes: tuple[str, ...] = ()
    """What the table says of itself under every report of it: what figeval's own columns (`ours`) count."""
    build: Callable[[TableSpec, Sequence[Any], TableContext], list[Table]] | None = None
    """The table's own way from runs to tables, where the newest run per cell (`build_table`) is not the paper's
    (a best model per family, shares of a data file's column, a fresh set beside the published one); a returned
    table with the spec's key gets the paper's reference rows."""
    reads: frozenset[str] = frozenset()
    """Tasks whose runs a `build` reads that no column names."""

    @property
    def tasks(self) -> set[str]:
        return {column.task for column in self.columns} | set(self.reads)


LABELLED_BY = "labelled by"
"""The row setting of a table with people's columns (`Column.human_label`): who labelled the row's answers."""
JUDGE_LABELS = "judge"

UNPARSED_RATE = "unparsed_rate"
JUDGE_UNPARSED_RATE = "judge_unparsed_rate"


def unparsed_column(key: str, header: str, task: str, where: Mapping[str, str] | None = None) -> Column:
    """figeval's column beside a rate read from answers: the share of the run's answers no reader could read
    (`unparsed_rate`, truncated ones included, over the answers it counts: `unparsed_rate/n`)."""
    return Column(key, header, task, UNPARSED_RATE, where or {}, ours=True)


def judge_unreadable_column(key: str, header: str, task: str, where: Mapping[str, str] | None = None) -> Column:
    """figeval's column beside a judged rate: the share of the run's answers whose judge answer was unreadable
    twice (`judge_unparsed_rate` over all answers). Every judged rate leaves them out of its n, so without this
    column "Correct 100.0" over 2 answers of 10 would hide the 8 the judge could not label."""
    return Column(key, header, task, JUDGE_UNPARSED_RATE, where or {}, ours=True)


def unread_note(headers: str, counted: str, judged: bool = False) -> str:
    """The note that says what a table's unparsed (and judge-unreadable) columns are: figeval's, not the paper's
    (the `*` on their headers), and how the paper's rates count those answers (`counted`)."""
    judge = (" Judge unreadable: the share of answers whose judge answer could not be read (asked twice); every "
             "judged rate leaves them out, so its n is the answers that remain.") if judged else ""
    return (f"{headers}: figeval's columns (*), not the paper's. Unparsed: the share of answers no reader could "
            f"read (truncated ones included), {counted}.{judge}")
