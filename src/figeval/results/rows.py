"""Which runs of one model share a row of a table: one row per model and identity, whatever tasks the table draws on.

A table's columns each read one task's runs, some only those with a setting (`Column.where`: meaning=human). Two
runs of a model sit in one row when they fill different columns and agree on every setting both record: a setting
only one of them has (detection's `balanced`, which entailment has not) does not split a row, a setting a column
picks (`where`) is the column's, not the row's, and a task's own setting (its prompt version, a data file each
task reads for itself: `RunSummary.own`) is never compared with another task's. The rows are the largest such
groups (the maximal cliques of the graph of runs that may share a row; Bron and Kerbosch 1973, with Tomita's
pivot): a run compatible with two rows fills both, and a run that agrees with no other has a row of its own. Two
groups with the same settings are one row, whose cells then have more than one candidate run: the preferred one
is used (`preference`) and the table says so.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from figeval.results.runs import RunSummary

class Settled(Protocol):
    """A table's row as the settings it shows: its settings by name, and whether it is a paper's row."""

    identity: dict[str, str]
    reference: str


SettingKey = tuple[str, str]
"""A setting's name and its scope: "" where the name means one thing across the table's tasks, a task for a task's
own setting, a benchmark in a table across benchmarks (the leaderboard)."""


@dataclass(frozen=True)
class RowRuns:
    settings: dict[SettingKey, str]
    """The settings of the row: every setting of its runs but those its columns pick."""
    candidates: dict[int, list[RunSummary]]
    """Per column (its index in the table), the runs that may fill it (several: they compete)."""


def run_settings(run: RunSummary, picked: set[str], scope_of: Callable[[str], str]) -> dict[SettingKey, str]:
    """A run's settings as a row sees them: without those a column picks, each with its scope."""
    return {(name, run.task if name in run.own else scope_of(run.task)): value
            for name, value in (run.identity or {}).items() if name not in picked}


def _agree(first: Mapping[SettingKey, str], second: Mapping[SettingKey, str]) -> bool:
    return all(second[key] == value for key, value in first.items() if key in second)


def runs_agree(runs: Sequence[RunSummary], picked: Collection[str] = ()) -> bool:
    """Whether runs may be read together (one row, one analysis): each pair agrees on every setting both have, but
    those in `picked` (the settings that set them apart on purpose: a dataset compared with another) and a task's
    own."""
    settings = [run_settings(run, set(picked), lambda task: "") for run in runs]
    return all(_agree(a, b) for i, a in enumerate(settings) for b in settings[i + 1:])


def _maximal_cliques(adjacent: Sequence[set[int]]) -> Iterator[set[int]]:
    """Every maximal clique of the graph (Bron-Kerbosch with a pivot)."""

    def expand(clique: set[int], candidates: set[int], excluded: set[int]) -> Iterator[set[int]]:
        if not candidates and not excluded:
            yield clique
            return
        pivot = max(candidates | excluded, key=lambda vertex: len(candidates & adjacent[vertex]))
        for vertex in sorted(candidates - adjacent[pivot]):
            yield from expand(clique | {vertex}, candidates & adjacent[vertex], excluded & adjacent[vertex])
            candidates = candidates - {vertex}
            excluded = excluded | {vertex}

    yield from expand(set(), set(range(len(adjacent))), set())


def model_rows(filled: Sequence[tuple[RunSummary, set[int]]], picked: set[str],
               scope_of: Callable[[str], str] = lambda task: "") -> list[RowRuns]:
    """The rows of one model: `filled` holds each of its runs with the columns it may fill (by index), `picked`
    the settings columns pick. Rows with fewer settings first (a run without a file of the user's before one with
    it), then in the order of their settings."""
    settings = [run_settings(run, picked, scope_of) for run, _ in filled]
    adjacent = [{j for j, (_, other) in enumerate(filled) if j != i and not columns & other
                 and _agree(settings[i], settings[j])} for i, (_, columns) in enumerate(filled)]
    rows: dict[tuple, RowRuns] = {}
    for clique in _maximal_cliques(adjacent):
        merged: dict[SettingKey, str] = {}
        for member in sorted(clique):
            merged |= settings[member]
        row = rows.setdefault(tuple(sorted(merged.items())), RowRuns(merged, {}))
        for member in sorted(clique):
            run, columns = filled[member]
            for column in sorted(columns):
                if run not in row.candidates.setdefault(column, []):
                    row.candidates[column].append(run)
    return [rows[key] for key in sorted(rows, key=lambda key: (len(key), key))]


def setting_names(keys: Sequence[SettingKey]) -> dict[SettingKey, str]:
    """How a table heads each setting: its name, with its scope where two scopes share the name
    ("data (task_a)")."""
    scopes: dict[str, set[str]] = {}
    for name, scope in keys:
        scopes.setdefault(name, set()).add(scope)
    return {(name, scope): f"{name} ({scope})" if len(scopes[name]) > 1 and scope else name for name, scope in keys}


def shown_settings(rows: Sequence[Settled], always: Sequence[str] = (), declared: Sequence[str] = ()) -> list[str]:
    """The settings a table shows as columns: those whose value differs between its rows (a row without one
    differs from a row with it), `always` (files of the user's) and the `declared` ones present, in that order of
    first appearance."""
    names = list(dict.fromkeys(name for row in rows for name in row.identity))
    varying = [name for name in names if len({row.identity.get(name) for row in rows}) > 1]
    return [name for name in names if name in varying or name in always or name in declared]


def shared_settings(rows: Sequence[Settled], shown: Sequence[str]) -> dict[str, str]:
    """The settings every one of the user's rows has alike that the table does not show as columns."""
    rows = [row for row in rows if not row.reference]
    if not rows:
        return {}
    return {name: value for name, value in rows[0].identity.items()
            if name not in shown and all(row.identity.get(name) == value for row in rows)}
