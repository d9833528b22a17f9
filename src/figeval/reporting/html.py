"""The report as one self-contained HTML file: every table, every figure inline as SVG, no script, no stylesheet
or font fetched from anywhere, so it opens offline and can be mailed as is."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from figeval.version import __version__
from figeval.reporting.cells import MISSING, grid, table_notes, title_line, unbroken_parts
from figeval.reporting.render import run_lines
from figeval.results.report import Report
from figeval.table_model import Table

if TYPE_CHECKING:  # matplotlib loads only when figures are drawn
    from figeval.reporting.figures import Figure

# Tables fit the page without breaking a word. Names (models, settings, headers, a text value) break only after
# their separators (`/`, `-`, `_`, a space: a <wbr> after each, since browsers break neither after `/` nor between
# `-` and a digit); a value only before its interval and its n (each part nowrap). The model column is at least
# NAME_CH wide (about 26 letters: a ch is a digit's width), so that it never shrinks to one part per line. A table
# that would then be wider than the page (PAGE_CH: the box's 1,201 pixels in a 1,280-pixel window, at 0.9em about
# 9.2 pixels a ch, measured in headless Chromium) names its models longer than NAME_CH M1, M2, ... with a legend
# under it. One wider than the page even so (a dozen columns of intervals) scrolls in its own box (.table-scroll),
# never the page.
NAME_CH, PAGE_CH, PADDING_CH = 22, 130, 2
STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
.table-scroll { max-width: 100%; overflow-x: auto; margin: 1em 0 2em; }
table { border-collapse: collapse; font-size: 0.9em; }
caption { text-align: left; font-weight: bold; padding-bottom: 0.4em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.6em; vertical-align: top; overflow-wrap: normal;
  word-break: normal; hyphens: manual; }
td.value { text-align: right; font-variant-numeric: tabular-nums; }
td.value span { white-space: nowrap; }
tr.reference td { font-style: italic; color: #555; background: #f6f6f6; }
figure { margin: 1em 0 2em; } figure svg { max-width: 100%; height: auto; }
.notes { font-size: 0.85em; color: #555; }
"""


def breakable(text: str, kind: str) -> str:
    """`text` as HTML that breaks across lines only between its parts (`unbroken_parts`): a name with a <wbr>
    after each separator, a value's parts in nowrap spans."""
    parts = [escape(part) for part in unbroken_parts(text, kind)]
    return "<wbr>".join(parts) if kind == "name" else " ".join(f"<span>{part}</span>" for part in parts)


def _kinds(table: Table, fixed: int) -> list[list[str]]:
    """How each text of `grid(table)` breaks: a header, a name, a setting or a text value as a name, a number as a
    value."""
    values = [["name" if isinstance(getattr(row.cells.get(c.key), "value", None), str) else "value"
               for c in table.columns] for row in table.rows]
    return [["name"] * (fixed + len(table.columns)), *(["name"] * fixed + row for row in values)]


def short_names(rows: list[list[str]], kinds: list[list[str]]) -> dict[str, str]:
    """M1, M2, ... for the model names longer than NAME_CH (in order), where the table at its narrowest (each column
    as wide as its longest unbroken part, the model column as its names up to NAME_CH, each with its padding) is
    wider than the page (PAGE_CH characters); else none."""
    widths = [max(len(part.strip()) for text, kind in zip(texts, how) for part in unbroken_parts(text, kind))
              for texts, how in zip(zip(*rows), zip(*kinds))]
    widths[0] = max(widths[0], min(NAME_CH, max(len(values[0]) for values in rows)))
    if sum(widths) + PADDING_CH * len(widths) <= PAGE_CH:
        return {}
    long = dict.fromkeys(values[0] for values in rows[1:] if len(values[0]) > NAME_CH)
    return {name: f"M{number}" for number, name in enumerate(long, start=1)}


def html_table(table: Table) -> str:
    rows = grid(table)
    fixed = len(rows[0]) - len(table.columns)
    kinds = _kinds(table, fixed)
    short = short_names(rows, kinds)
    rows[1:] = [[short.get(values[0], values[0]), *values[1:]] for values in rows[1:]]
    room = min(NAME_CH, max(len(values[0]) for values in rows))
    head = "".join(f'<th style="min-width: {room}ch">{breakable(h, "name")}</th>' if i == 0 else
                   f"<th>{breakable(h, 'name')}</th>" for i, h in enumerate(rows[0]))
    body = []
    for row, values, how in zip(table.rows, rows[1:], kinds[1:]):
        cells = "".join(f'<td class="name" dir="auto">{breakable(v, "name")}</td>' if i < fixed else
                        f'<td class="value">{breakable(v, how[i])}</td>' for i, v in enumerate(values))
        body.append(f'<tr class="{"reference" if row.reference else "run"}">{cells}</tr>')
    legend = ["models: " + "; ".join(f"{label} = {name}" for name, label in short.items())] if short else []
    notes = "".join(f"<li>{escape(note)}</li>" for note in legend + table_notes(table))
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
