"""The papers' figures from a report's tables (matplotlib, no display needed), as each benchmark declares them
(`Benchmark.figures`): grouped bars (one group per column, one bar per model) and precision-recall maps with iso-F1
curves, every bar and point with its cell's 95% interval as an error bar whether or not the paper's figure has them
(a rate from 2 answers must not look like one from 50; the caption names the values with none). Only the user's
runs are drawn (the papers' numbers are in the tables). Every bar, point and error bar carries an SVG id (`bar-...`,
`point-...`, `error-<its bar or point>`; a bar of 0, drawn as a stroke on the axis and a printed 0: `zero-...`,
`label-zero-...`) so that a figure can be checked by reading its SVG back.

Made for a paper: drawn at print size (a page's text width, text of 8-9 pt), saved as 300 dpi PNG, SVG and PDF
with nothing cut off (tick labels wrapped, the legend under the axes, saved to the drawing's bounds); models named
by their display names (`RunSummary.display_name`, the tables' row labels); no title in the figure: its caption
(the paper's, where it has one) is shown by the HTML report and kept in each file's metadata.

Persian text: matplotlib (3.11 and later) shapes and orders right-to-left text itself (HarfBuzz and a bidi
algorithm inside its font engine), so labels are passed as plain strings (shaping them beforehand would reverse
them), drawn with Noto Sans Arabic, which a pip dependency ships (fontpkg-noto-sans-arabic; no system font).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from io import BytesIO, StringIO
from pathlib import Path
from typing import TYPE_CHECKING

from figeval.benchmark import Benchmark, FigureSpec
from figeval.reporting.cells import wrapped_lines
from figeval.results.report import Report
from figeval.stats import FEW_ITEMS, bootstrap_trusted
from figeval.table_model import Cell, Row, Table

if TYPE_CHECKING:  # matplotlib is imported when a figure is drawn (`_pyplot`), not with the report
    from matplotlib.figure import Figure as MatplotlibFigure

# PNG for slides and the web, SVG for the HTML report and editing, PDF for LaTeX (vector, fonts embedded).
FIGURE_FORMATS = ("png", "svg", "pdf")
PNG_DPI = 300  # what journals ask of line art with text at print size
# Figures are drawn at print size: a page's text width (a two-column paper's figure*), so that the point sizes
# below are the sizes printed, never under 8 pt (legends, ticks, annotations).
WIDTH_INCHES = 6.5
TEXT_PT, SMALL_PT = 9, 8
# Noto Sans Arabic's mean advance at SMALL_PT, in inches (about 0.5 em): how many characters a label's room holds.
CHAR_INCHES = SMALL_PT * 0.5 / 72
# A precision-recall map's markers, one per column prefix (task), in order.
POINT_MARKERS = ("o", "s", "^", "D", "v")


@dataclass
class Figure:
    name: str
    """File stem: figure files are NAME.png, NAME.svg and NAME.pdf."""
    caption: str
    """What the figure shows (the paper's caption where it has one), shown under it in the HTML report and kept
    in each file's metadata; never drawn in the figure, where a paper's own caption goes."""
    figure: MatplotlibFigure


@cache
def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    font = persian_font_path()
    font_manager.fontManager.addfont(str(font))
    family = font_manager.FontProperties(fname=str(font)).get_name()
    # Noto Sans Arabic first: it has Latin too, and Persian must not fall to a font with partial Arabic coverage
    plt.rcParams.update({
        "font.family": [family, "DejaVu Sans"], "font.size": TEXT_PT, "axes.labelsize": TEXT_PT,
        "xtick.labelsize": SMALL_PT, "ytick.labelsize": SMALL_PT, "legend.fontsize": SMALL_PT,
        "axes.spines.top": False, "axes.spines.right": False, "figure.dpi": 100, "savefig.dpi": PNG_DPI,
        # whatever sticks out of the axes (a long tick label, the legend) is inside the saved image
        "savefig.bbox": "tight", "savefig.pad_inches": 0.04,
        # SVG text stays text (searchable, editable); PDF embeds the font as TrueType (Type 42), as publishers ask
        "svg.fonttype": "none", "pdf.fonttype": 42})
    return plt


def persian_font_path() -> Path:
    """The TTF of Noto Sans Arabic (Persian glyphs) from its pip package."""
    import fontpkg_noto_sans_arabic

    [font] = sorted((fontpkg_noto_sans_arabic.ROOT / "files").glob("*.ttf"))
    return font


def _user_rows(table: Table) -> list[Row]:
    return [row for row in table.rows if not row.reference]


def _varying_keys(table: Table, rows: Sequence[Row]) -> list[str]:
    """The settings that tell the rows apart (a judge, a task): those whose value is not the same in every row."""
    return [key for key in table.identity_keys if len({row.identity.get(key) for row in rows}) > 1]


def _series_names(table: Table, rows: Sequence[Row]) -> list[str]:
    """Each row's legend name: the model's display name (the row label), with the settings that differ between
    the rows ("gemma (open, gt)"); settings every row shares are in the caption (`_shared_settings`)."""
    keys = _varying_keys(table, rows)
    names = []
    for row in rows:
        settings = ", ".join(row.identity[key] for key in keys if row.identity.get(key))
        names.append(f"{row.label} ({settings})" if settings else row.label)
    return names


def _shared_settings(table: Table, rows: Sequence[Row]) -> str:
    """The settings every row shares, for the caption ("settings: prompt_version=v3, answer_mode=generate"), or
    ""."""
    varying = set(_varying_keys(table, rows))
    shared = [(key, rows[0].identity[key]) for key in table.identity_keys
              if key not in varying and rows and rows[0].identity.get(key)] + list(table.shared.items())
    return "; settings: " + ", ".join(f"{key}={value}" for key, value in shared) if shared else ""


def _wrapped(text: str, characters: int) -> str:
    """`text` in lines of at most `characters` where it may break (after a space, slash, hyphen or underscore),
    its own line breaks kept."""
    return "\n".join(line for given in text.splitlines() for line in wrapped_lines(given, max(characters, 6), "name"))


@dataclass(frozen=True)
class LegendLayout:
    columns: int
    names: list[str]
    """The names wrapped to their column."""
    lines: int
    """Printed lines of the tallest column: how much taller the figure is drawn to keep its axes' height."""


# Legend columns hold names of up to this many characters on one line; a longer name wraps in its column.
LEGEND_NAME_CHARACTERS = 40


def legend_layout(names: Sequence[str]) -> LegendLayout:
    """As many columns as names of up to LEGEND_NAME_CHARACTERS fit across the figure, each name wrapped to its
    column (a long display name never widens the figure)."""
    longest = min(max(len(name) for name in names), LEGEND_NAME_CHARACTERS)
    columns = max(1, min(len(names), int(WIDTH_INCHES / (CHAR_INCHES * longest + 0.5))))
    room = int((WIDTH_INCHES / columns - 0.5) / CHAR_INCHES)
    wrapped = [_wrapped(name, room) for name in names]
    heights = [name.count("\n") + 1 for name in wrapped]
    # matplotlib fills a legend's columns top to bottom, the first ones one entry longer
    rows = -(-len(names) // columns)
    lines = max(sum(heights[start:start + rows]) for start in range(0, len(names), rows))
    return LegendLayout(columns, wrapped, lines)


def _legend(fig, handles: Sequence, layout: LegendLayout) -> None:
    """The legend under the axes, laid out by `legend_layout`."""
    legend = fig.legend(handles, layout.names, loc="outside lower center", ncols=layout.columns, frameon=False,
                        labelspacing=0.3)
    for text in legend.get_texts():
        text.set_linespacing(0.9)  # the lines of one wrapped name together (Noto Sans Arabic's tall line box)


def _height(axes_inches: float, layout: LegendLayout) -> float:
    """The figure's height: the axes' and their labels', and the legend's lines (SMALL_PT, spaced)."""
    return axes_inches + 0.3 + layout.lines * SMALL_PT * 1.5 / 72


def _zero_mark(ax, x: float, width: float, color: str, gid: str) -> None:
    """A bar of 0 has no height to see: a thick stroke of its colour on the axis and a printed 0 tell it from a
    missing one (no run, no bar)."""
    (stroke,) = ax.plot([x - width / 2, x + width / 2], [0, 0], color=color, linewidth=3, solid_capstyle="butt",
                        clip_on=False, zorder=3)
    stroke.set_gid(f"zero-{gid}")
    ax.annotate("0", (x, 0), xytext=(0, 2.5), textcoords="offset points", ha="center", va="bottom",
                fontsize=SMALL_PT, gid=f"label-zero-{gid}")


def _group_labels(ax, groups: list[str]) -> None:
    """Group names under their bars, wrapped to the room each group has; turned only when a word is still too
    long for it (then anchored at its end, so that the first one does not run off the figure's left edge)."""
    room = int(WIDTH_INCHES * 0.85 / max(1, len(groups)) / CHAR_INCHES)
    labels = [_wrapped(group, room) for group in groups]
    turned = any(len(line) > room for label in labels for line in label.splitlines())
    ax.set_xticks(range(len(groups)), labels, rotation=30 if turned else 0, ha="right" if turned else "center",
                  rotation_mode="anchor" if turned else "default",
                  linespacing=0.8)  # Noto Sans Arabic's tall line box: the lines of one label stay together


def _extent(value: float, cell: Cell, scale: float) -> list[list[float]] | None:
    """The cell's 95% interval in the figure's scale as matplotlib's error extent around `value`; None without one."""
    return None if cell.low is None or cell.high is None else [[value - cell.low * scale], [cell.high * scale - value]]


def _error_bar(ax, x: float, y: float, xerr: list | None, yerr: list | None, gid: str) -> None:
    """Black error bars around (x, y): `error-GID` in the SVG, their segments (LineCollection) the intervals."""
    for lines in ax.errorbar(x, y, xerr=xerr, yerr=yerr, fmt="none", ecolor="black", capsize=2, linewidth=0.8,
                             zorder=4).lines[2]:
        lines.set_gid(f"error-{gid}")


def _caption(caption: str, table: Table, rows: Sequence[Row], paper_errors: bool,
             missing: Sequence[tuple[str, Cell]]) -> str:
    """The spec's caption, the settings every row shares, what the error bars are (unless the paper's caption says
    it: `paper_errors`) and the values drawn without one, by why (`missing`: "model group" and its cell)."""
    few = [what for what, cell in missing if cell.n is not None and not bootstrap_trusted(cell.n)]
    why = [(FEW_ITEMS, few), ("the run's log gives none", [what for what, _ in missing if what not in few])]
    return (caption + _shared_settings(table, rows) + ("" if paper_errors else "; error bars: 95% intervals")
            + "".join(f"; no error bar where {reason} ({'; '.join(whats)})" for reason, whats in why if whats) + ".")


def _grouped_bars(ax, groups: list[str], series: list[tuple[str, list[Cell | None]]], scale: float,
                  gid: str) -> tuple[list, list[tuple[str, Cell]]]:
    """Bars per group (x) and series (colour); each value a Cell or None (no bar); each bar's interval as an error
    bar. Returns one legend handle per series, and the bars drawn without an interval ("model on group", cell)."""
    from matplotlib.patches import Patch

    width = 0.8 / max(1, len(series))
    handles, missing = [], []
    for s, (label, cells) in enumerate(series):
        color = f"C{s % 10}"
        handles.append(Patch(facecolor=color))
        for g, cell in enumerate(cells):
            if cell is None or not isinstance(cell.value, (int, float)):
                continue  # no bar: no cell, a cell without a value (or a text cell, which no figure draws)
            x = g - 0.4 + width * (s + 0.5)
            bar = ax.bar(x, cell.value * scale, width, color=color)[0]
            bar.set_gid(f"bar-{gid}-{s}-{g}")
            if cell.value == 0:
                _zero_mark(ax, x, width, color, f"{gid}-{s}-{g}")
            if (extent := _extent(cell.value * scale, cell, scale)) is None:
                missing.append((f"{label} {' '.join(groups[g].split())}", cell))
            else:
                _error_bar(ax, x, cell.value * scale, None, extent, f"bar-{gid}-{s}-{g}")
    ax.set_xlim(-0.5, len(groups) - 0.5)  # every group's room, its missing bars' too: a group sits on its tick
    _group_labels(ax, groups)
    return handles, missing


def _bars_by_row(table: Table, columns: Iterable[str], caption: str, name: str, ylabel: str, paper_errors: bool,
                 groups: Sequence[str] | None = None) -> Figure:
    """One group per column (named `groups`, else the columns' headers), one bar per user row; the y axis from 0
    to the unit's whole (100% or 1) unless a value or interval is over it (`paper_errors`: see `_caption`)."""
    plt = _pyplot()
    keys = list(columns)
    heads = {c.key: c.header for c in table.columns}
    scale = 100 if table.unit == "percent" else 1
    rows = _user_rows(table)
    series = [(label, [row.cells.get(k) for k in keys]) for label, row in zip(_series_names(table, rows), rows)]
    layout = legend_layout([label for label, _ in series])
    fig, ax = plt.subplots(figsize=(WIDTH_INCHES, _height(2.9, layout)), layout="constrained")
    handles, missing = _grouped_bars(ax, list(groups) if groups is not None else [heads[k] for k in keys], series,
                                     scale, name)
    ax.set_ylim(0, max(ax.get_ylim()[1], scale) if table.unit in ("percent", "fraction") else None)
    ax.set_ylabel(ylabel)
    _legend(fig, handles, layout)
    return Figure(name, _caption(caption, table, rows, paper_errors, missing), fig)


def figures(report: Report, benchmarks: Sequence[Benchmark]) -> list[Figure]:
    """The figures the benchmarks declare that the report's tables can draw (a table with rows of runs)."""
    by_key = {table.key: table for table in report.tables}
    found: list[Figure] = []
    for spec in (spec for benchmark in benchmarks for spec in benchmark.figures):
        if (table := by_key.get(spec.table)) is None or not _user_rows(table):
            continue
        if spec.kind == "precision_recall":
            found.append(_precision_recall(table, spec))
            continue
        # the spec's columns that the table has, in the table's order, each named by its group label
        named = dict(zip(spec.columns, spec.groups or spec.columns))
        keys = [c.key for c in table.columns if not spec.columns or c.key in named]
        found.append(_bars_by_row(table, keys, spec.caption, spec.name, spec.axis, spec.errors,
                                  [named[key] for key in keys] if spec.groups else None))
    return found


def _precision_recall(table: Table, spec: FigureSpec) -> Figure:
    """One point per model and column prefix (a task: its precision, recall and f1 columns), bubble size by F1,
    with iso-F1 curves; the legend names the models by colour and the prefixes by marker."""
    import numpy as np
    from matplotlib.lines import Line2D

    plt = _pyplot()
    rows = _user_rows(table)
    points = [(prefix, marker, name) for prefix, marker, name in zip(spec.columns, POINT_MARKERS, spec.groups)]
    shown = [prefix for prefix, _, _ in points if any(f"{prefix}/precision" in row.cells for row in rows)]
    layout = legend_layout(_series_names(table, rows) + [name for prefix, _, name in points if prefix in shown])
    fig, ax = plt.subplots(figsize=(WIDTH_INCHES, _height(3.4, layout)), layout="constrained")
    recall = np.linspace(0.01, 1, 200)
    for f1 in (0.2, 0.4, 0.6, 0.8):
        precision = f1 * recall / (2 * recall - f1)
        visible = (precision > 0) & (precision <= 1)
        ax.plot(recall[visible], precision[visible], color="lightgray", linewidth=0.8)
        ax.annotate(f"F1={f1}", (recall[visible][-1], precision[visible][-1]), xytext=(2, 0),
                    textcoords="offset points", va="center", fontsize=SMALL_PT, color="dimgray")
    missing = []
    for (r, row), label in zip(enumerate(rows), _series_names(table, rows)):
        for t, (prefix, marker, name) in enumerate(points):
            p, q, f = (row.cells.get(f"{prefix}/{m}") for m in ("precision", "recall", "f1"))
            if p is None or q is None or not isinstance(p.value, float) or not isinstance(q.value, float):
                continue
            size = 40 + 300 * (f.value if f is not None and isinstance(f.value, (int, float)) else 0)
            point = ax.scatter([q.value], [p.value], s=size, marker=marker, color=f"C{r % 10}", alpha=0.7)
            point.set_gid(f"point-{r}-{t}")
            xerr, yerr = _extent(q.value, q, 1), _extent(p.value, p, 1)
            if xerr or yerr:
                _error_bar(ax, q.value, p.value, xerr, yerr, f"point-{r}-{t}")
            missing += [(f"{label} {name} {axis}", cell) for axis, cell, extent in (
                ("recall", q, xerr), ("precision", p, yerr)) if extent is None]
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(spec.x_axis or "recall")
    ax.set_ylabel(spec.axis)
    models = [Line2D([], [], linestyle="", marker="o", markersize=7, color=f"C{r % 10}") for r in range(len(rows))]
    markers = [Line2D([], [], linestyle="", marker=marker, markersize=7, color="gray") for prefix, marker, _ in points
               if prefix in shown]
    _legend(fig, models + markers, layout)
    return Figure(spec.name, _caption(spec.caption, table, rows, spec.errors, missing), fig)


def svg_text(figure) -> str:
    out = StringIO()
    figure.savefig(out, format="svg", metadata={"Date": None})
    text = out.getvalue()
    return text[text.index("<svg"):]


def close(found_figures: Sequence[Figure]) -> None:
    """Free the figures (matplotlib keeps every open figure alive)."""
    plt = _pyplot()
    for found in found_figures:
        plt.close(found.figure)


def _metadata(found: Figure, extension: str) -> dict[str, str | None]:
    """The caption as each format's title field, and no creation date (the same figure gives the same SVG)."""
    by_format: dict[str, dict[str, str | None]] = {
        "png": {"Title": found.caption}, "svg": {"Title": found.caption, "Date": None},
        "pdf": {"Title": found.caption, "CreationDate": None}}
    return by_format[extension]


def drawn_figures(found_figures: Sequence[Figure], out_dir: Path) -> dict[Path, bytes]:
    """Each figure as NAME.png (300 dpi), NAME.svg and NAME.pdf in `out_dir`: the files' contents, drawn before any
    is written, so that the command checks every output first."""
    drawn = {}
    for found, extension in product(found_figures, FIGURE_FORMATS):
        data = BytesIO()
        found.figure.savefig(data, format=extension, metadata=_metadata(found, extension))
        drawn[out_dir / f"{found.name}.{extension}"] = data.getvalue()
    return drawn
