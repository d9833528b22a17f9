"""The papers' own numbers (each benchmark's paper_numbers.csv, entered from its paper's results tables and text,
one line per number with its table or section, row and column) as reference rows beside a user's models, shown at
the precision the paper prints them; and where a paper is inconsistent with itself (its paper_notes.csv: a row that
does not sum to 100, two tables over different counts), a note on the table that shows it.

Every function takes the lines it reads (`Benchmark.numbers()`, `Benchmark.inconsistencies()`: dicts with the
paper's id under `paper`), so that this module knows no paper."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from figeval.table_model import USUAL_DECIMALS, Cell, ColumnHead, Row, Table, TableSpec

CI_SUFFIXES = ("/ci_low", "/ci_high")
Lines = Sequence[Mapping[str, str]]


def paper_notes(notes: Lines, source: str) -> list[str]:
    """Where the paper's own table is inconsistent with itself or another of its tables, one note per row."""
    return [f"the paper's {source}" + (f", {line['row']}" if line["row"] else "") + f": {line['note']}"
            for line in notes if line["table"] == source]


def text_numbers(numbers: Lines) -> Table | None:
    """The numbers papers report in their text rather than a table (a share, an agreement, a count), as printed;
    None when the papers have none."""
    lines = [line for line in numbers if line["table"].startswith("Section")]
    if not lines:
        return None
    table = Table("paper-text", "Numbers the papers report in their text", "the papers' text", "count",
                  [ColumnHead("value", "Value")], identity_keys=["section", "what"])
    for line in lines:
        shown = line["value"] + ("%" if line["unit"] == "percent" else "")
        shown += f" {line['note']}" if line["unit"] == "count" and line["note"] else ""
        source = f"{line['paper']} {line['table']}"
        table.rows.append(Row(line["row"], {"section": source, "what": line["column"]}, {"value": Cell(shown)},
                              reference=source))
    return table


def _as_stored(value: str, unit: str) -> float:
    """A printed number in the unit reports keep (rates in [0, 1]; counts as they are)."""
    return float(value) / 100 if unit == "percent" else float(value)


def _decimals(value: str) -> int:
    """How many decimals a number is printed with ("33.25" -> 2, "18" -> 0)."""
    return len(value.partition(".")[2])


def printed_precision(numbers: Lines, source: str, table: Table) -> None:
    """Each column of `table` in the unit the paper prints it in (`source`, "Table 4") and with at least as many
    decimals as its most precise number there, so that a user's row beside the paper's is as precise as the
    paper's (32.25 beside 61.75, not 32.2) and a recall the paper prints as 81.3 is not shown as a fraction."""
    found: dict[str, tuple[str, int]] = {}
    for line in numbers:
        if line["table"] != source or line["unit"] not in USUAL_DECIMALS:
            continue
        column = line["column"].removesuffix(CI_SUFFIXES[0]).removesuffix(CI_SUFFIXES[1])
        unit, decimals = found.get(column, (line["unit"], USUAL_DECIMALS[line["unit"]]))
        found[column] = (unit, max(decimals, _decimals(line["value"])))
    table.columns = [replace(column, unit="" if found[column.key][0] == table.unit else found[column.key][0],
                             decimals=found[column.key][1]) if column.key in found else column
                     for column in table.columns]


def other_data_note(table: Table) -> str:
    """What a table with the paper's rows says of the user's rows on data other than the paper's (a file of the
    user's: another fake set, a built data file, a pairs file), so that they are not read as the paper's
    measurement; empty with none."""
    rows = [f"{row.label} ({', '.join(f'{name}={value}' for name, value in row.other_data.items())})"
            for row in table.rows if row.other_data and not row.reference]
    return ("on data other than the paper's, so not the paper's measurement: " + "; ".join(rows) + ".") if rows else ""


def reference_rows(numbers: Lines, spec: TableSpec, table: Table) -> list[Row]:
    """The paper's rows of the spec's table, in the paper's order, with the columns the table shows."""
    return paper_rows(numbers, spec.source, {column.key for column in spec.columns}, table.source, spec.cell_labels)


def paper_rows(numbers: Lines, source: str, keys: set[str], shown_as: str, cell_labels: bool = False) -> list[Row]:
    """A paper's rows of one table ("Table 4") for the column keys given; `shown_as` names the source on each."""
    rows: dict[str, dict[str, dict[str, float]]] = {}
    labels: dict[tuple[str, str], str] = {}
    decimals: dict[tuple[str, str], int] = {}
    for line in numbers:
        if line["table"] != source:
            continue
        column, part = line["column"], "value"
        for suffix in CI_SUFFIXES:
            if column.endswith(suffix):
                column, part = column.removesuffix(suffix), suffix.removeprefix("/ci_")
        if column in keys:
            rows.setdefault(line["row"], {}).setdefault(column, {})[part] = _as_stored(line["value"], line["unit"])
            labels[(line["row"], column)] = line["note"] if cell_labels else ""
            decimals[(line["row"], column)] = max(decimals.get((line["row"], column), 0), _decimals(line["value"]))
    return [Row(name, {}, {key: Cell(parts.get("value"), parts.get("low"), parts.get("high"), label=labels[(name, key)],
                                     decimals=decimals[(name, key)])
                           for key, parts in cells.items()}, reference=shown_as) for name, cells in rows.items()]


def count_row(numbers: Lines, source: str, row: str) -> Row:
    """A paper's row of counts (texts per theme) as cells with n only."""
    lines = [line for line in numbers if (line["table"], line["row"]) == (source, row)]
    cells = {line["column"]: Cell(None, n=int(line["value"])) for line in lines}
    return Row(row, {}, cells, reference=f"{lines[0]['paper']} {source}" if lines else source)
