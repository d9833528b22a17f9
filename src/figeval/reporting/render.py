"""A report in each format: text (aligned columns), Markdown, CSV (one line per cell), LaTeX (booktabs), JSON.
HTML is `figeval.reporting.html`.

Every format shows the same cells: values in the table's unit (percent where the paper prints percent), the 95%
interval where the paper prints intervals or the run is small (n < 100), the papers' rows marked as such, a
direction arrow on the paper's columns (higher / lower is better) and a `*` on figeval's own columns. A row's
`samples` is its runs' sample count; a cell whose n (its metric's own denominator) differs shows "(n=...)".

Numbers are rounded once, here, when a format writes them (tables keep the metrics' values): text, Markdown,
LaTeX and HTML print percent with one decimal and fractions with three (a paper's number as it prints it); CSV
and JSON keep four decimals of a proportion (percent with two: 14.0, not 14.000000000000002; fractions and counts
with four), enough to re-derive every printed digit and no float noise, or a paper's number's own decimals.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable

from figeval import __version__
from figeval.reporting.report import Report
from figeval.reporting.runs import RunSummary
from figeval.reporting.tables import SMALL_N, Cell, ColumnHead, Row, Table
from figeval.spreadsheet import SheetWriter

ARROWS = {"higher": " ↑", "lower": " ↓", "": ""}
MISSING = "-"
# CSV and JSON: four decimals of a proportion, as the unit shows it (percent: two)
KEPT_DECIMALS = {"percent": 2, "fraction": 4, "count": 4}


def scaled(value: float | None, unit: str) -> float | None:
    return None if value is None else value * 100 if unit == "percent" else value


def number(value: float, unit: str, decimals: int | None = None) -> str:
    """A value in its unit: percent with one decimal, fractions with three, or a paper's number as printed."""
    if unit == "percent":
        return f"{value * 100:.{1 if decimals is None else decimals}f}"
    if unit == "count":
        return f"{value:g}"
    return f"{value:.{3 if decimals is None else decimals}f}"


def shows_interval(table: Table, cell: Cell) -> bool:
    return cell.low is not None and cell.high is not None and (table.intervals or (cell.n or SMALL_N) < SMALL_N)


def unit_of(table: Table, column: ColumnHead) -> str:
    return column.unit or table.unit


def cell_text(table: Table, cell: Cell | None, unit: str | None = None) -> str:
    """"60.5", "0.620 [0.600, 0.640]", "0.640 (model)", "(n=112)" for a count with no value; "-" when missing."""
    unit = unit or table.unit
    if cell is None:
        return MISSING
    if cell.value is None:
        text = f"(n={cell.n})" if cell.n is not None else MISSING
    elif isinstance(cell.value, str):
        text = cell.value
    else:
        text = number(cell.value, unit, cell.decimals)
        if shows_interval(table, cell):
            text += f" [{number(cell.low, unit, cell.decimals)}, {number(cell.high, unit, cell.decimals)}]"
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
             *(cell_text(table, row.cells.get(c.key), unit_of(table, c)) for c in table.columns)] for row in table.rows]
    return [head, *body]


def _fixed_columns(table: Table) -> int:
    """Label, settings and n: the left-aligned columns before the values."""
    return 2 + len(table.identity_keys)


def title_line(table: Table) -> str:
    return f"{table.source}: {table.title}" if table.source else table.title


def _notes(table: Table) -> list[str]:
    return [f"note: {note}" for note in table.notes]


def text_table(table: Table) -> str:
    rows = grid(table)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    fixed = _fixed_columns(table)
    lines = [title_line(table)]
    for row in rows:
        lines.append("  ".join(cell.ljust(w) if i < fixed else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))).rstrip())
    return "\n".join(lines + _notes(table))


def run_lines(report: Report) -> list[str]:
    """Which log each run came from, the subset runs apart (those used, for want of a complete run, and those a
    complete run was used over), which were replaced by newer ones, and which did not finish."""
    complete = [run for run in report.runs if run.complete]
    subsets = [run for run in report.runs if not run.complete]
    lines = ["runs used:"] + [f"  {_run_line(run)}: {run.log}" for run in complete]
    if subsets:
        lines += ["subset runs used (no complete run with the same settings; see the tables' notes):"]
        lines += [f"  {_run_line(run)} (subset: {run.subset}): {run.log}" for run in subsets]
    left_out = [s for s in report.superseded if not s.run.complete and s.by.complete]
    if left_out:
        lines += ["subset runs not used (a complete run with the same settings is used):"]
        lines += [f"  {_run_line(s.run)} (subset: {s.run.subset}): {s.run.log} (used: {s.by.log})" for s in left_out]
    lines += [f"replaced by a newer run with the same settings: {s.run.log}"
              + (f" (subset: {s.run.subset})" if s.run.subset else "") + f" (by {s.by.log})"
              for s in report.superseded if s not in left_out]
    lines += [f"not used ({run.status}): {run.task} {model_text(run)} {run.log}" for run in report.not_successful]
    return lines


def model_text(run: RunSummary) -> str:
    """The run's model as the tables name it, with the model as its log records it where that differs
    ("a (replay/./runs/a.jsonl)"): the tables' row label and the run it stands for."""
    return run.model if run.display_name == run.model else f"{run.display_name} ({run.model})"


def _run_line(run: RunSummary) -> str:
    return f"{run.task} {model_text(run)} {_settings(run)} n={run.samples}"


def _settings(run: RunSummary) -> str:
    return ", ".join(f"{k}={v}" for k, v in (run.identity or {}).items())


def render_text(report: Report) -> str:
    return "\n\n".join([*(text_table(table) for table in report.tables), "\n".join(run_lines(report))]) + "\n"


_MARKDOWN_SPECIAL = "\\`*_[]<>|#"


def _markdown_escape(text: str) -> str:
    """Text from logs and data files as literal Markdown: no link, emphasis, HTML tag or cell break of its own,
    one line."""
    escaped = "".join(f"\\{ch}" if ch in _MARKDOWN_SPECIAL else ch for ch in text)
    return " ".join(escaped.splitlines())


def markdown_table(table: Table) -> str:
    rows = grid(table)
    lines = [f"### {_markdown_escape(title_line(table))}", "",
             "| " + " | ".join(map(_markdown_escape, rows[0])) + " |",
             "|" + "|".join(["---"] * _fixed_columns(table) + ["---:"] * len(table.columns)) + "|"]
    for row, values in zip(table.rows, rows[1:]):
        values = [f"*{v}*" if row.reference and v != MISSING and v else v for v in map(_markdown_escape, values)]
        lines.append("| " + " | ".join(values) + " |")
    return "\n".join(lines + ["", *(f"- {_markdown_escape(n)}" for n in table.notes)]).rstrip()


def render_markdown(report: Report) -> str:
    parts = [markdown_table(table) for table in report.tables]
    parts.append("\n".join(f"- {_markdown_escape(line.strip())}" for line in run_lines(report)))
    return "\n\n".join(parts) + "\n\n↑/↓: higher/lower is better; *: figeval's column, not the paper's; " \
                                "[a, b]: 95% interval; (n=k): the cell's own count where it differs from the row's " \
                                "samples; (paper): the paper's published number.\n"


CSV_HEADER = ["table", "source", "row", "paper", "settings", "column", "header", "unit", "value", "ci_low", "ci_high",
              "n", "label", "log"]


def render_csv(report: Report) -> str:
    """One line per cell, values in the table's unit (percent as 0-100)."""
    out = io.StringIO()
    writer = SheetWriter(out)
    writer.writerow(CSV_HEADER)
    for table in report.tables:
        for row in table.rows:
            for column in table.columns:
                cell = row.cells.get(column.key)
                if cell is None:
                    continue
                numeric, unit = not isinstance(cell.value, str), unit_of(table, column)
                writer.writerow([table.key, table.source, row.label, row.reference,
                                 ";".join(f"{k}={v}" for k, v in row.identity.items()), column.key, column.header,
                                 unit, printed(cell.value, unit, cell.decimals) if numeric else cell.value,
                                 _blank(printed(cell.low, unit, cell.decimals)),
                                 _blank(printed(cell.high, unit, cell.decimals)),
                                 _blank(cell.n), cell.label, cell.log or ""])
    return out.getvalue()


def printed(value: float | None, unit: str, decimals: int | None) -> float | None:
    """A value in its unit for a CSV cell, rounded to `KEPT_DECIMALS` (14.0, not 14.000000000000002); a paper's
    number exactly as printed (33.25, not 33.250000000000004)."""
    found = scaled(value, unit)
    return None if found is None else round(found, KEPT_DECIMALS.get(unit, 4) if decimals is None else decimals)


def stored(value: float | str | None, unit: str, decimals: int | None) -> float | str | None:
    """A value as the metrics give it (rates in [0, 1]) for JSON, rounded as `printed` rounds it in its unit."""
    if value is None or isinstance(value, str):
        return value
    kept = KEPT_DECIMALS.get(unit, 4) if decimals is None else decimals
    return round(value, kept + 2 if unit == "percent" else kept)


def _blank(value: object) -> object:
    return "" if value is None else value


LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
                 "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "↑": r"$\uparrow$",
                 "↓": r"$\downarrow$",
                 # after a line break (\\) a bracket would be read as its optional length: "[18.0, 25.0]" a cell's
                 # second line
                 "[": "{[}", "]": "{]}"}


def latex_escape(text: str) -> str:
    """`text` as literal TeX on one line (a line break would end a table row or a % comment)."""
    return "".join(LATEX_SPECIAL.get(ch, ch) for ch in " ".join(text.splitlines()))


# LaTeX tables fit a page: a setting every run of the table shares is said once under it rather than repeated
# in a column; long names, settings and headers wrap onto lines of these many characters; a cell's interval and
# n go under its value; a table wider than LATEX_LINE characters (about a page's text width in \small) is split
# into several tabulars of at least LATEX_MIN_PART value columns, the model columns repeated, as long as they fit a
# page's height; a tabular still wider than the line is scaled down to it (\resizebox, only then).
LATEX_NAME_CHARACTERS, LATEX_HEADER_CHARACTERS, LATEX_VALUE_CHARACTERS = 22, 14, 12
LATEX_LINE = 100
LATEX_PAGE_LINES = 48  # a page's text height in \small lines, less the caption and the note
LATEX_MIN_PART = 3
LATEX_COLUMN_GAP = 3  # \tabcolsep on both sides, in characters
WRAP_SPLITS = {"name": r"(?<=[/\-_ ])", "header": r"(?<= )", "value": r" (?=[\[(])"}


def wrapped_lines(text: str, characters: int, kind: str) -> list[str]:
    """`text` on lines of at most `characters` where it may break: a name after `/`, `-`, `_` or a space, a
    header between words, a value before its interval and its n ("21.5", "[18.0, 25.0]", "(n=200)"). A part
    longer than `characters` (a word with nowhere to break) is a line of its own. The figures wrap names so too."""
    lines: list[str] = []
    for part in re.split(WRAP_SPLITS[kind], " ".join(text.splitlines())):
        if lines and len(lines[-1]) + len(part) + (kind == "value") <= characters:
            lines[-1] += (" " if kind == "value" else "") + part
        else:
            lines.append(part)
    return [line.strip() for line in lines] or [""]


def _latex_cell(lines: list[str], align: str, italic: bool = False) -> str:
    """Escaped lines as one cell: a short stack (a tabular without side padding) when there are several."""
    escaped = [latex_escape(line) for line in lines]
    if italic:
        escaped = [rf"\textit{{{line}}}" if line else line for line in escaped]
    if len(escaped) == 1:
        return escaped[0]
    return rf"\begin{{tabular}}[t]{{@{{}}{align}@{{}}}}" + r" \\ ".join(escaped) + r"\end{tabular}"


def shared_settings(table: Table) -> dict[str, str]:
    """The settings with one value in every run's row (the papers' rows have none): said once, not per row."""
    runs = [row for row in table.rows if not row.reference]
    return {key: values.pop() for key in table.identity_keys
            if runs and all(key in row.identity for row in runs)
            and len(values := {row.identity[key] for row in runs}) == 1}


def _latex_grid(table: Table) -> tuple[list[list[str]], list[tuple[str, int]]]:
    """The grid without the shared settings' columns, and each kept column's kind ("name" for the model,
    settings and samples, "value") and width in characters once wrapped, padding included."""
    rows = grid(table)
    dropped = {1 + table.identity_keys.index(key) for key in shared_settings(table)}
    rows = [[cell for i, cell in enumerate(row) if i not in dropped] for row in rows]
    fixed = _fixed_columns(table) - len(dropped)
    kinds = []
    for i in range(len(rows[0])):
        kind, characters = ("name", LATEX_NAME_CHARACTERS) if i < fixed else ("value", LATEX_VALUE_CHARACTERS)
        widest = max([max(map(len, wrapped_lines(rows[0][i], LATEX_HEADER_CHARACTERS, "header"))),
                      *(max(map(len, wrapped_lines(row[i], characters, kind))) for row in rows[1:])])
        kinds.append((kind, widest + LATEX_COLUMN_GAP))
    return rows, kinds


def latex_parts(table: Table) -> list[list[int]]:
    """The value columns (indexes into `table.columns`) of each tabular: the fewest tabulars of at least
    LATEX_MIN_PART columns (or all of them) that each fit LATEX_LINE beside the model columns, as even as can be;
    fewer when that many would be taller than a page (LATEX_PAGE_LINES), the width then scaled to the line."""
    rows, kinds = _latex_grid(table)
    fixed = sum(1 for kind, _ in kinds if kind == "name")
    widths = [width for _, width in kinds[fixed:]]
    columns = list(range(len(widths)))

    def lines(part: list[int]) -> int:
        """Printed lines of a tabular of these value columns: its header, each row's tallest cell, the rules."""
        def tallest(row: list[str], characters: int, kind: str) -> int:
            return max(len(wrapped_lines(row[i], characters if i < fixed else LATEX_VALUE_CHARACTERS,
                                  kind if i < fixed else "value")) for i in [*range(fixed), *(fixed + c for c in part)])
        return 3 + tallest(rows[0], LATEX_HEADER_CHARACTERS, "header") + sum(
            tallest(row, LATEX_NAME_CHARACTERS, "name") for row in rows[1:])

    def scale(part: list[int]) -> float:
        """How much \\resizebox shrinks the tabular to fit the line (1: not at all)."""
        return min(1.0, LATEX_LINE / (sum(width for _, width in kinds[:fixed]) + sum(widths[c] for c in part)))

    def height(parts: list[list[int]]) -> float:
        return sum(lines(part) * scale(part) for part in parts)

    # the split whose smallest print is largest, among those that fit a page's height; the fewest tabulars of those
    splits = [_even_parts(columns, count) for count in range(1, max(1, len(columns) // LATEX_MIN_PART) + 1)]
    fitting = [parts for parts in splits if height(parts) <= LATEX_PAGE_LINES] or splits[:1]
    return max(fitting, key=lambda parts: (min(map(scale, parts)), -len(parts)))


def _even_parts(items: list, count: int) -> list[list]:
    """`items` in `count` consecutive parts whose lengths differ by at most one."""
    size, extra = divmod(len(items), count)
    bounds = [i * size + min(i, extra) for i in range(count + 1)]
    return [items[bounds[i]:bounds[i + 1]] for i in range(count)]


def _latex_tabular(table: Table, columns: list[int]) -> list[str]:
    rows, kinds = _latex_grid(table)
    fixed = sum(1 for kind, _ in kinds if kind == "name")
    shown = [*range(fixed), *(fixed + c for c in columns)]
    align = "l" * fixed + "r" * len(columns)
    head = [_latex_cell(wrapped_lines(rows[0][i], LATEX_HEADER_CHARACTERS, "header"), "l" if i < fixed else "r")
            for i in shown]
    lines = [r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%",
             rf"\begin{{tabular}}{{{align}}}", r"\toprule", " & ".join(head) + r" \\", r"\midrule"]
    for row, values in zip(table.rows, rows[1:]):
        cells = [_latex_cell(wrapped_lines(values[i], LATEX_NAME_CHARACTERS, "name") if i < fixed else
                             wrapped_lines(values[i], LATEX_VALUE_CHARACTERS, "value"), "l" if i < fixed else "r",
                             italic=bool(row.reference)) for i in shown]
        lines.append(" & ".join(cells) + r" \\")
    return lines + [r"\bottomrule", r"\end{tabular}}"]


def marks_note(table: Table) -> str:
    """What the marks in a table mean, those it shows only: the arrows, `*`, intervals, a cell's own n, the
    papers' rows."""
    texts = [cell_text(table, row.cells.get(c.key), unit_of(table, c)) for row in table.rows for c in table.columns]
    said = []
    if any(column.better for column in table.columns):
        said.append("↑/↓: higher/lower is better")
    if any(column.ours for column in table.columns):
        said.append("*: figeval's column, not the paper's")
    if any(" [" in text for text in texts):
        said.append("[a, b]: 95% interval")
    if any("(n=" in text for text in texts):
        said.append("(n=k): the cell's own count where it differs from the row's samples")
    if any(row.reference for row in table.rows):
        said.append("(paper), in italics: the paper's published number")
    return "; ".join(said) + "." if said else ""


def latex_table(table: Table) -> str:
    """A booktabs table that fits the page (see LATEX_LINE), its marks explained under it, its notes as
    comments."""
    lines = [r"\begin{table}[t]", r"\centering", r"\small"]
    for number, columns in enumerate(latex_parts(table)):
        lines += ([r"\par\medskip"] if number else []) + _latex_tabular(table, columns)
    shared = ", ".join(f"{key}={value}" for key, value in shared_settings(table).items())
    if note := " ".join(filter(None, [f"Every run: {shared}." if shared else "", marks_note(table)])):
        lines.append(rf"\par\smallskip{{\footnotesize {latex_escape(note)}\par}}")
    lines += [rf"\caption{{{latex_escape(title_line(table))}}}", rf"\label{{tab:{table.key.replace('/', '-')}}}",
              r"\end{table}"]
    return "\n".join(lines + [f"% {latex_escape(n)}" for n in table.notes])


def render_latex(report: Report) -> str:
    return ("% figeval report; needs \\usepackage{booktabs,graphicx}\n"
            + "\n\n".join(latex_table(t) for t in report.tables) + "\n")


def _cell_json(cell: Cell, unit: str) -> dict[str, object]:
    return {"value": stored(cell.value, unit, cell.decimals), "ci_low": stored(cell.low, unit, cell.decimals),
            "ci_high": stored(cell.high, unit, cell.decimals), "n": cell.n, "samples": cell.samples,
            "label": cell.label or None, "log": cell.log}


def table_json(table: Table) -> dict[str, object]:
    units = {c.key: unit_of(table, c) for c in table.columns}
    return {
        "key": table.key, "title": table.title, "source": table.source, "unit": table.unit,
        "intervals": table.intervals, "identity_keys": table.identity_keys, "notes": table.notes,
        "columns": [{"key": c.key, "header": c.header, "better": c.better or None, "ours": c.ours,
                     "unit": unit_of(table, c)} for c in table.columns],
        "rows": [{"label": row.label, "reference": row.reference or None, "identity": row.identity,
                  "cells": {key: _cell_json(cell, units.get(key, table.unit)) for key, cell in row.cells.items()}}
                 for row in table.rows],
    }


def render_json(report: Report) -> str:
    """Values as the metrics give them (rates in [0, 1], whatever the table's display unit), rounded as the CSV
    rounds them; each cell's n (its metric's own) and the run's samples."""
    document = {
        "figeval_version": __version__,
        "tables": [table_json(table) for table in report.tables],
        "runs": [run.as_json() for run in report.runs],
        "superseded": [{"log": s.run.log, "by": s.by.log, "subset": s.run.subset or None} for s in report.superseded],
        "not_successful": [{"task": r.task, "model": r.model, "status": r.status, "log": r.log}
                           for r in report.not_successful],
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


RENDERERS: dict[str, tuple[str, Callable[[Report], str]]] = {
    "text": ("txt", render_text), "markdown": ("md", render_markdown), "csv": ("csv", render_csv),
    "latex": ("tex", render_latex), "json": ("json", render_json),
}
