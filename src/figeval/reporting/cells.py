"""A table's cells, headers and rows as every format prints them (`figeval.reporting.render` and the modules it
names, `figeval.reporting.html`).

Every format shows the same cells: values in the table's unit (percent where the paper prints percent), the 95%
interval where the paper prints intervals or the run is small (n < 100), the papers' rows marked as such, a
direction arrow on the paper's columns (higher / lower is better) and a `*` on figeval's own columns. A row's
`samples` is its runs' sample count; a cell whose n (its metric's own denominator) differs shows "(n=...)".

Numbers are rounded once, when a format writes them (tables keep the metrics' values), by one rule (`number`): in
the column's unit (the paper's for the column), to the column's decimals (as many as the paper's most precise
number in the column, at least one for percent and three for fractions), half up, from the value's 12
significant digits (so 0.1425 shows as 14.3 though 0.1425 * 100 is 14.249999999999998 in floating point); a
paper's number as it prints it. CSV and JSON keep more (`figeval.reporting.data_formats`). Where a printed name,
header or value may break across lines is here too (LaTeX tables and figures wrap them).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from figeval.table_model import SMALL_N, USUAL_DECIMALS, Cell, ColumnHead, Row, Table

ARROWS = {"higher": " ↑", "lower": " ↓", "": ""}
MISSING = "-"


def number(value: float, unit: str, decimals: int | None = None) -> str:
    """A value in its unit (percent: x 100) with `decimals` (None: the unit's usual ones), rounded half up from its
    12 significant digits; a count as it is."""
    if unit == "count":
        return f"{value:g}"
    exact = Decimal(f"{value:.12g}") * (100 if unit == "percent" else 1)
    places = USUAL_DECIMALS.get(unit, 3) if decimals is None else decimals
    shown = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return f"{shown + 0:f}"  # "+ 0" turns -0.0 into 0.0


def shows_interval(table: Table, cell: Cell) -> bool:
    return cell.low is not None and cell.high is not None and (table.intervals or (cell.n or SMALL_N) < SMALL_N)


def unit_of(table: Table, column: ColumnHead) -> str:
    return column.unit or table.unit


def cell_text(table: Table, cell: Cell | None, unit: str | None = None, decimals: int | None = None) -> str:
    """"60.5", "0.620 [0.600, 0.640]", "0.640 (model)", "(n=112)" for a count with no value; "-" when missing. A
    paper's number shows its own decimals, any other the column's (`decimals`)."""
    unit = unit or table.unit
    decimals = decimals if cell is None or cell.decimals is None else cell.decimals
    if cell is None:
        return MISSING
    if cell.value is None:
        text = f"(n={cell.n})" if cell.n is not None else MISSING
    elif isinstance(cell.value, str):
        text = cell.value
    else:
        text = number(cell.value, unit, decimals)
        if shows_interval(table, cell) and cell.low is not None and cell.high is not None:  # it has both ends
            text += f" [{number(cell.low, unit, decimals)}, {number(cell.high, unit, decimals)}]"
        if cell.n is not None and (table.cell_n or (cell.samples is not None and cell.n != cell.samples)):
            text += f" (n={cell.n})"
    if cell.label:
        text += f" ({cell.label})"
    return text


def header_text(column: ColumnHead) -> str:
    return f"{column.header}{ARROWS[column.better]}{' *' if column.ours else ''}"


def row_label(row: Row) -> str:
    return f"{row.label} (paper)" if row.reference else row.label


def row_n(table: Table, row: Row) -> str:
    """The row's sample count(s): each run's number of samples ("800", or "12/13" across tasks), or the cells' n
    where they are not a run's metrics (an agreement's items); blank where cells show their own n."""
    if table.cell_n:
        return ""
    counts = (c.samples if c.samples is not None else c.n for c in row.cells.values())
    return "/".join(str(n) for n in dict.fromkeys(n for n in counts if n is not None))


def grid(table: Table) -> list[list[str]]:
    """The table as rows of strings, header first: label, settings, n, one column per table column."""
    head = ["model", *table.identity_keys, "samples", *(header_text(c) for c in table.columns)]
    body = [[row_label(row), *(row.identity.get(key, "") for key in table.identity_keys), row_n(table, row),
             *(cell_text(table, row.cells.get(c.key), unit_of(table, c), c.decimals) for c in table.columns)]
            for row in table.rows]
    return [head, *body]


def fixed_columns(table: Table) -> int:
    """Label, settings and n: the left-aligned columns before the values."""
    return 2 + len(table.identity_keys)


def shared_text(table: Table) -> str:
    """The settings every row shares, as one line ("answer_mode=generate, temperature=0.0"); empty with none."""
    return ", ".join(f"{name}={value}" for name, value in table.shared.items())


def table_notes(table: Table) -> list[str]:
    """What a table says under it in every format: the settings every row shares, then its notes."""
    shared = shared_text(table)
    return ([f"settings of every row: {shared}"] if shared else []) + table.notes


def title_line(table: Table) -> str:
    return f"{table.source}: {table.title}" if table.source else table.title


WRAP_SPLITS = {"name": r"(?<=[/\-_ ])", "header": r"(?<= )", "value": r" (?=[\[(])"}


def unbroken_parts(text: str, kind: str) -> list[str]:
    """`text` cut where it may break across lines, and nowhere else: a name after `/`, `-`, `_` or a space (kept at
    the end of its part), a header after a space, a value before its interval and its n ("21.5", "[18.0, 25.0]",
    "(n=200)"; the space between them dropped)."""
    return re.split(WRAP_SPLITS[kind], " ".join(text.splitlines()))


def wrapped_lines(text: str, characters: int, kind: str) -> list[str]:
    """`text` on lines of at most `characters`, broken only between its `unbroken_parts`. A part longer than
    `characters` (a word with nowhere to break) is a line of its own. The figures wrap names so too."""
    lines: list[str] = []
    for part in unbroken_parts(text, kind):
        if lines and len(lines[-1]) + len(part) + (kind == "value") <= characters:
            lines[-1] += (" " if kind == "value" else "") + part
        else:
            lines.append(part)
    return [line.strip() for line in lines] or [""]
