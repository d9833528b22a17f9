"""The report as one self-contained HTML file: every table, every figure inline as SVG, no script, no stylesheet
or font fetched from anywhere, so it opens offline and can be mailed as is."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from figeval.version import __version__
from figeval.reporting.cells import MISSING, grid, table_notes, title_line
from figeval.reporting.render import run_lines
from figeval.results.report import Report
from figeval.table_model import Table

if TYPE_CHECKING:  # matplotlib loads only when figures are drawn
    from figeval.reporting.figures import Figure

# Tables fit the page: names, settings and headers wrap (a model path breaks anywhere rather than widen its
# column), a value and its interval stay on one line, and a table still wider than the page scrolls in its own box
# (.table-scroll) instead of widening the page.
STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
.table-scroll { max-width: 100%; overflow-x: auto; margin: 1em 0 2em; }
table { border-collapse: collapse; font-size: 0.9em; }
caption { text-align: left; font-weight: bold; padding-bottom: 0.4em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.6em; vertical-align: top; }
th { max-width: 10em; overflow-wrap: break-word; }
td.name { max-width: 16em; overflow-wrap: anywhere; }
td.value { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.reference td { font-style: italic; color: #555; background: #f6f6f6; }
figure { margin: 1em 0 2em; } figure svg { max-width: 100%; height: auto; }
.notes { font-size: 0.85em; color: #555; }
"""


def html_table(table: Table) -> str:
    rows = grid(table)
    fixed = len(rows[0]) - len(table.columns)
    head = "".join(f"<th>{escape(h)}</th>" for h in rows[0])
    body = []
    for row, values in zip(table.rows, rows[1:]):
        cells = "".join(f'<td class="name" dir="auto">{escape(v)}</td>' if i < fixed
                        else f'<td class="value">{escape(v)}</td>' for i, v in enumerate(values))
        body.append(f'<tr class="{"reference" if row.reference else "run"}">{cells}</tr>')
    notes = "".join(f"<li>{escape(note)}</li>" for note in table_notes(table))
    return (f'<div class="table-scroll"><table id="{escape(table.key)}"><caption>{escape(title_line(table))}'
            f"</caption><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
            + (f'<ul class="notes">{notes}</ul>' if notes else ""))


def render_html(report: Report, found_figures: Sequence[Figure]) -> str:
    """The page: every table, then each figure inline as SVG, then the runs used."""
    from figeval.reporting.figures import svg_text

    drawn = "".join(f'<figure id="{escape(f.name)}">{svg_text(f.figure)}'
                    f'<figcaption>{escape(f.caption)}</figcaption></figure>'
                    for f in found_figures)
    runs = "".join(f"<li>{escape(line.strip())}</li>" for line in run_lines(report))
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>figeval report</title>'
            f"<style>{STYLE}</style></head><body><h1>figeval report</h1>"
            f"<p>figeval {escape(__version__)}. ↑/↓: higher/lower is better; *: figeval's column, not the paper's; "
            "[a, b]: 95% interval; (n=k): the cell's own count where it differs from the row's samples; "
            f"(paper), in italics: the paper's published number; {MISSING}: no run.</p>"
            + "".join(html_table(table) for table in report.tables) + drawn
            + f'<h2>Runs</h2><ul class="notes">{runs}</ul></body></html>\n')
