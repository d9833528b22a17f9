"""The tables a researcher should get from a set of runs, computed by the oracle: which run each cell rests on,
which runs share a row, what each cell holds and how every format should print it.

The rules are the issue's, written here a second time in the plainest way (brute force where figeval is clever):
- runs: of a task, model and identity, the complete run over any subset, then the newest;
- rows: a model's runs share a row when they fill different columns and agree on every setting both have (a
  setting a column picks is the column's; a task's own setting, its prompt version or its own data file, is never
  compared across tasks); the rows are the largest such groups, every subset of runs tried;
- cells: the column's measure of the run, in the paper's unit and with at least the paper's decimals.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from pathlib import Path

from tests.oracle.harness import Run
from tests.oracle.measure import Expect

BENCHMARKS = Path(__file__).resolve().parents[2] / "src" / "figeval" / "benchmarks"
USUAL = {"percent": 1, "fraction": 3}
LABELLED_BY = "labelled by"


@dataclass(frozen=True)
class OColumn:
    key: str
    task: str
    measure: Callable[[Run], Expect | None]
    where: tuple[tuple[str, str], ...] = ()
    human_label: str = ""
    unit: str = ""
    """The column's own unit where it is not the table's (a kappa beside a percent agreement)."""


@dataclass(frozen=True)
class OTable:
    key: str
    benchmark: str
    """The benchmark's folder, whose paper_numbers.csv gives the columns' units and decimals."""
    source: str
    unit: str
    columns: tuple[OColumn, ...]
    intervals: bool = False
    cell_n: bool = False
    """Every cell says its n (its texts), and the row no sample count."""


@dataclass
class ERow:
    label: str
    settings: dict[str, str]
    cells: dict[str, Expect]
    runs: dict[str, Run] = field(default_factory=dict)
    """The run behind each cell."""


def kept(runs: Sequence[Run]) -> list[Run]:
    """Of each task, model and identity, the complete run over any subset, then the newest."""
    best: dict[tuple, Run] = {}
    for run in runs:
        key = (run.task.name, run.model, tuple(sorted(run.settings.items())))
        if key not in best or (run.complete, run.order) > (best[key].complete, best[key].order):
            best[key] = run
    return list(best.values())


def _fills(run: Run, column: OColumn, defined: bool = False) -> bool:
    return run.task.name == column.task and all(run.settings.get(k) == v for k, v in column.where) and (
        not defined or column.measure(run) is not None)


def _scoped(run: Run, picked: set[str], scope: Callable[[str], str]) -> dict[tuple[str, str], str]:
    return {(name, run.task.name if name in run.own else scope(run.task.name)): value
            for name, value in run.settings.items() if name not in picked}


def newest(column: OColumn, candidates: list[Run]) -> tuple[Run, Expect] | None:
    """The cell of competing runs: the complete run over any subset, then the newest."""
    run = max(candidates, key=lambda r: (r.complete, r.order))
    expected = column.measure(run)
    return None if expected is None else (run, expected)


def expected_rows(table: OTable, runs: Sequence[Run], scope: Callable[[str], str] = lambda task: "",
                  group: Callable[[Run], str] = lambda run: run.model,
                  choose: Callable[[OColumn, list[Run]], tuple[Run, Expect] | None] = newest,
                  defined: bool = False) -> list[ERow]:
    """The rows of a table: per model (`group`), its runs' rows; a cell of competing runs is `choose`'s; with
    `defined`, a run fills only the columns its measure is defined in."""
    picked = {name for column in table.columns for name, _ in column.where}
    rows: list[tuple[str, dict, dict[int, list[Run]]]] = []
    for model in sorted({group(run) for run in runs}):
        mine = [(run, {i for i, c in enumerate(table.columns) if _fills(run, c, defined)}) for run in runs
                if group(run) == model]
        mine = [(run, columns) for run, columns in mine if columns]
        settings = [_scoped(run, picked, scope) for run, _ in mine]

        def fits(i: int, j: int) -> bool:
            shared = set(settings[i]) & set(settings[j])
            return not mine[i][1] & mine[j][1] and all(settings[i][k] == settings[j][k] for k in shared)

        valid = [set(members) for size in range(1, len(mine) + 1) for members in combinations(range(len(mine)), size)
                 if all(fits(i, j) for i, j in combinations(members, 2))]
        maximal = [members for members in valid if not any(members < other for other in valid)]
        merged: dict[tuple, dict[int, list[Run]]] = {}
        for members in maximal:
            found: dict = {}
            for i in members:
                found |= settings[i]
            cells = merged.setdefault(tuple(sorted(found.items())), {})
            for i in members:
                for column in mine[i][1]:
                    if mine[i][0] not in cells.setdefault(column, []):
                        cells[column].append(mine[i][0])
        rows += [(model, dict(key), cells) for key, cells in merged.items()]
    scopes: dict[str, set[str]] = {}
    for _, settings_, _ in rows:
        for name, scope_ in settings_:
            scopes.setdefault(name, set()).add(scope_)
    found_rows = []
    for model, settings_, cells in rows:
        shown = {(f"{name} ({scope_})" if scope_ and len(scopes[name]) > 1 else name): value
                 for (name, scope_), value in settings_.items()}
        row = ERow(model, shown, {})
        for index, candidates in cells.items():
            column = table.columns[index]
            found = choose(column, candidates)
            if found is not None:
                row.runs[column.key], row.cells[column.key] = found
        if any(column.human_label and column.key in row.cells for column in table.columns):
            row.settings[LABELLED_BY] = "judge"  # the paper's are people's labels; a run's row says it is its judge's
        found_rows.append(row)
    return found_rows


@cache
def _paper_lines(benchmark: str) -> tuple[dict[str, str], ...]:
    path = BENCHMARKS / benchmark / "paper_numbers.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        return tuple(csv.DictReader(handle))


def column_format(table: OTable, key: str) -> tuple[str, int]:
    """The column's unit and decimals: the paper's unit for the column where it prints one, and at least as many
    decimals as its most precise number (the issue's rule); else the table's unit with its usual decimals."""
    own = next((column.unit for column in table.columns if column.key == key and column.unit), "")
    unit = own or table.unit
    decimals = USUAL.get(unit, 0)
    if not table.source:
        return unit, decimals
    printed = [line for line in _paper_lines(table.benchmark) if line["table"] == table.source
               and line["column"].removesuffix("/ci_low").removesuffix("/ci_high") == key]
    if printed:
        unit = printed[0]["unit"]
        decimals = max(USUAL[unit], *(len(line["value"].partition(".")[2]) for line in printed))
    return unit, decimals


def paper_rows(table: OTable) -> dict[str, dict[str, str]]:
    """The paper's rows of the table as printed: row -> column -> the printed text."""
    found: dict[str, dict[str, str]] = {}
    if not table.source:
        return found
    keys = {column.key for column in table.columns}
    for line in _paper_lines(table.benchmark):
        if line["table"] == table.source and line["column"] in keys:
            found.setdefault(line["row"], {})[line["column"]] = line["value"]
    return found
