"""The papers' figures from a report's tables (matplotlib, no display needed): FFE-HALLU Figure 1, the Turkish
label preference, allusion accuracy per theme and the MC-vs-open gap, PerHalluEval Figures 3-5 (with 95%
interval error bars) and Figure 8 (precision-recall with iso-F1 curves).

Only the user's runs are drawn (the papers' numbers are in the tables). Every bar and point carries an SVG id
(`bar-...`, `point-...`) so that a figure can be checked by reading its SVG back.

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

from figeval.output import write_bytes
from figeval.reporting.report import Report
from figeval.reporting.tables import Cell, Row, Table

FIGURE_FORMATS = ("png", "svg")
PERSIAN_THEME = {"religious": "مذهبی", "quranic": "قرآنی", "mythical-historical": "اساطیری-تاریخی",
                 "romantic": "عاشقانه", "mystical": "عرفانی", "other": "سایر"}


@dataclass
class Figure:
    name: str
    """File stem: figure files are NAME.png and NAME.svg."""
    title: str
    figure: object
    """A matplotlib Figure."""


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
    plt.rcParams.update({"font.family": [family, "DejaVu Sans"], "svg.fonttype": "none", "figure.dpi": 100,
                         "axes.spines.top": False, "axes.spines.right": False})
    return plt


def persian_font_path() -> Path:
    """The TTF of Noto Sans Arabic (Persian glyphs) from its pip package."""
    import fontpkg_noto_sans_arabic

    [font] = sorted((fontpkg_noto_sans_arabic.ROOT / "files").glob("*.ttf"))
    return font


def _user_rows(table: Table) -> list[Row]:
    return [row for row in table.rows if not row.reference]


def _row_name(table: Table, row: Row) -> str:
    settings = ", ".join(f"{row.identity[k]}" for k in table.identity_keys if row.identity.get(k))
    return f"{row.label} ({settings})" if settings else row.label


def _grouped_bars(ax, groups: list[str], series: list[tuple[str, list[Cell | None]]], scale: float, errors: bool,
                  gid: str) -> None:
    """Bars per group (x) and series (colour); each value a Cell or None (no bar); error bars from intervals."""
    width = 0.8 / max(1, len(series))
    for s, (name, cells) in enumerate(series):
        drawn = [(g, cell) for g, cell in enumerate(cells) if cell is not None and cell.value is not None]
        for g, cell in drawn:
            x = g - 0.4 + width * (s + 0.5)
            # the series' first bar carries its name into the legend
            bar = ax.bar(x, cell.value * scale, width, color=f"C{s % 10}", label=name if g == drawn[0][0] else None)[0]
            bar.set_gid(f"bar-{gid}-{s}-{g}")
            if errors and cell.low is not None and cell.high is not None:
                ax.errorbar(x, cell.value * scale, yerr=[[(cell.value - cell.low) * scale], [(cell.high - cell.value) * scale]],
                            fmt="none", ecolor="black", capsize=2, linewidth=0.8)
    ax.set_xticks(range(len(groups)), groups, rotation=20, ha="right")
    if series:
        ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def _bars_by_row(table: Table, columns: Iterable[str], title: str, name: str, ylabel: str, errors: bool = False) -> Figure:
    """One group per column, one bar per user row."""
    plt = _pyplot()
    keys = list(columns)
    heads = {c.key: c.header for c in table.columns}
    scale = 100 if table.unit == "percent" else 1
    fig, ax = plt.subplots(figsize=(max(5.0, 1.4 * len(keys) + 2) + 3.0, 3.6))  # + the legend on the right
    series = [(_row_name(table, row), [row.cells.get(k) for k in keys]) for row in _user_rows(table)]
    _grouped_bars(ax, [heads[k] for k in keys], series, scale, errors, name)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return Figure(name, title, fig)


def figures(report: Report) -> list[Figure]:
    """The figures the report's tables can draw."""
    by_key = {table.key: table for table in report.tables}
    found: list[Figure] = []
    if (table := by_key.get("ffe-hallu/figure-1")) and _user_rows(table):
        for framing, question in (("fake_q", "Is this FFE fake?"), ("real_q", "Is this FFE real?")):
            keys = [c.key for c in table.columns if c.key.startswith(f"{framing}/")]
            found.append(_bars_by_row(table, keys, f"FFE-HALLU Figure 1: detection accuracy by category, '{question}'",
                                      f"ffe-hallu-figure-1-{framing.replace('_', '-')}", "accuracy (%)"))
    if (table := by_key.get("turkish-idioms/table-2")) and _user_rows(table):
        found.append(_bars_by_row(table, ["yes_rate", "entailment_rate"], "Turkish idioms: label preference (share of "
                                  "parsed answers)", "turkish-idioms-label-preference", "share"))
    if (table := by_key.get("persian-allusions/themes")) and _user_rows(table):
        themed = Table(table.key, table.title, table.source, table.unit,
                       [type(c)(c.key, f"{PERSIAN_THEME[c.key]} ({c.key})") for c in table.columns],
                       table.rows, table.identity_keys)
        found.append(_bars_by_row(themed, [c.key for c in table.columns], "Persian allusions: accuracy per theme",
                                  "persian-allusions-themes", "accuracy (%)"))
    if (table := by_key.get("persian-allusions/gap")) and _user_rows(table):
        found.append(_bars_by_row(table, ["mc", "open"], "Persian allusions: MC vs open-ended accuracy",
                                  "persian-allusions-gap", "accuracy (%)"))
    for key, figure in (("perhallueval/figure-3", "QA"), ("perhallueval/figure-4", "summarization")):
        if (table := by_key.get(key)) and _user_rows(table):
            found.append(_bars_by_row(table, ["factual_recall", "hallucinated_recall", "hamming_score"],
                                      f"{table.source}: {figure} (95% CI)", key.replace("/", "-"), "%",
                                      errors=True))
    if (table := by_key.get("perhallueval/figure-5")) and _user_rows(table):
        found.append(_bars_by_row(table, ["persian_specific", "generic"], "PerHalluEval Figure 5: QA Hamming score, "
                                  "Persian-specific vs generic (95% CI)", "perhallueval-figure-5", "Hamming score",
                                  errors=True))
    if (table := by_key.get("perhallueval/figure-8")) and _user_rows(table):
        found.append(_precision_recall(table))
    return found


def _precision_recall(table: Table) -> Figure:
    """Figure 8: one point per model and task, bubble size by F1, with iso-F1 curves."""
    import numpy as np

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8.0, 4.2))
    recall = np.linspace(0.01, 1, 200)
    for f1 in (0.2, 0.4, 0.6, 0.8):
        precision = f1 * recall / (2 * recall - f1)
        visible = (precision > 0) & (precision <= 1)
        ax.plot(recall[visible], precision[visible], color="lightgray", linewidth=0.8)
        ax.annotate(f"F1={f1}", (recall[visible][-1], precision[visible][-1]), fontsize=6, color="gray")
    for r, row in enumerate(_user_rows(table)):
        for t, (kind, marker) in enumerate((("qa", "o"), ("summarization", "s"))):
            p, q, f = (row.cells.get(f"{kind}/{m}") for m in ("precision", "recall", "f1"))
            if p is None or q is None:
                continue
            size = 40 + 300 * (f.value if f is not None else 0)
            point = ax.scatter([q.value], [p.value], s=size, marker=marker, color=f"C{r % 10}", alpha=0.7,
                               label=f"{_row_name(table, row)} {'QA' if kind == 'qa' else 'TS'}")
            point.set_gid(f"point-{r}-{t}")
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("recall (factual)")
    ax.set_ylabel("precision")
    ax.set_title("PerHalluEval Figure 8: precision-recall, iso-F1", fontsize=10)
    ax.legend(fontsize=6, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0), markerscale=0.4)
    fig.tight_layout()
    return Figure("perhallueval-figure-8", "PerHalluEval Figure 8: precision-recall with iso-F1 curves", fig)


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


def figure_files(found_figures: Sequence[Figure], out_dir: Path) -> list[Path]:
    """The files `draw_figures` writes: each figure as NAME.png and NAME.svg in `out_dir`."""
    return [out_dir / f"{found.name}.{extension}" for found, extension in product(found_figures, FIGURE_FORMATS)]


def draw_figures(found_figures: Sequence[Figure], out_dir: Path) -> list[Path]:
    """Each figure as NAME.png and NAME.svg in `out_dir`, each file whole or not at all; returns the files written."""
    written = figure_files(found_figures, out_dir)
    for path, (found, extension) in zip(written, product(found_figures, FIGURE_FORMATS)):
        drawn = BytesIO()
        found.figure.savefig(drawn, format=extension, metadata={"Date": None} if extension == "svg" else None)
        write_bytes(path, drawn.getvalue())
    return written
