"""A report in each format (`RENDERERS`): text (aligned columns) and Markdown here, CSV and JSON
(`figeval.reporting.data_formats`), LaTeX (`figeval.reporting.latex`); HTML is `figeval.reporting.html`. Every
format shows the same cells (`figeval.reporting.cells`); the text formats end with which log each run came from
(`run_lines`)."""

from __future__ import annotations

from collections.abc import Callable

from figeval.reporting.cells import MISSING, fixed_columns, grid, table_notes, title_line
from figeval.reporting.data_formats import render_csv, render_json
from figeval.reporting.latex import render_latex
from figeval.results.report import Report
from figeval.results.runs import RunSummary
from figeval.table_model import Table
from figeval.terminal import hanging


def _notes(table: Table) -> list[str]:
    return [hanging(f"note: {note}") for note in table_notes(table)]


def text_table(table: Table) -> str:
    rows = grid(table)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    fixed = fixed_columns(table)
    lines = [title_line(table)]
    for row in rows:
        lines.append("  ".join(cell.ljust(w) if i < fixed else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(row, widths))).rstrip())
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
    # notes wrap to the terminal; a table's rows are as wide as its columns, and each run's line (its log's path,
    # to copy) is one line
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
             "|" + "|".join(["---"] * fixed_columns(table) + ["---:"] * len(table.columns)) + "|"]
    for row, values in zip(table.rows, rows[1:]):
        values = [f"*{v}*" if row.reference and v != MISSING and v else v for v in map(_markdown_escape, values)]
        lines.append("| " + " | ".join(values) + " |")
    return "\n".join(lines + ["", *(f"- {_markdown_escape(n)}" for n in table_notes(table))]).rstrip()


def render_markdown(report: Report) -> str:
    parts = [markdown_table(table) for table in report.tables]
    parts.append("\n".join(f"- {_markdown_escape(line.strip())}" for line in run_lines(report)))
    return "\n\n".join(parts) + "\n\n↑/↓: higher/lower is better; *: figeval's column, not the paper's; " \
                                "[a, b]: 95% interval; (n=k): the cell's own count where it differs from the row's " \
                                "samples; (paper): the paper's published number.\n"


RENDERERS: dict[str, tuple[str, Callable[[Report], str]]] = {
    "text": ("txt", render_text), "markdown": ("md", render_markdown), "csv": ("csv", render_csv),
    "latex": ("tex", render_latex), "json": ("json", render_json),
}
