"""Figures and tables a paper can take: 300 dpi PNG, SVG and PDF of each figure drawn at print size (text of 8 pt
or more at a page's text width), nothing cut off at the edges, legends naming models by their display names, no
title inside a figure (its caption is under it in the HTML page, once), a bar of 0 drawn so it can be seen and told
from a missing one; every bar and point with its interval; LaTeX tables that fit a page with their marks explained
(HTML tables: test_html_tables.py).

Figures are drawn from tables built here (the rows as `tables.build_table` makes them: a label, settings, cells),
so that what each one must show is known by construction.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from figeval._registry import BENCHMARKS
from figeval.benchmarks.ffe_hallu.dataset import category_slug
from figeval.reporting.figures import PNG_DPI, WIDTH_INCHES, close, drawn_figures, figures, svg_text
from figeval.reporting.html import render_html
from figeval.reporting.latex import latex_parts, latex_table, marks_note
from figeval.results.report import Report
from figeval.table_model import Cell, ColumnHead, Row, Table

LONG_NAME = "persian-llm-with-a-very-long-experimental-checkpoint-name-v2-q4_k_m"
# FFE-HALLU's categories, the one the paper names longest ("Cultural/Historical Fabrication") first
CATEGORIES = ("Cultural Fabrication", "Phonetic / Poetic Mimicry", "Semantic Inversion / Contradiction",
              "Word Perturbation")


def figure_1(rows: list[Row]) -> Table:
    """FFE-HALLU Figure 1's table: four categories under each framing, the longest category name first."""
    columns = [ColumnHead(f"{framing}/{category_slug(category)}", f"{question} {category}", "higher")
               for framing, question in (("fake_q", "Is it fake?"), ("real_q", "Is it real?"))
               for category in CATEGORIES]
    table = Table("ffe-hallu/figure-1", "Task 2, detection accuracy", "FFE-HALLU Figure 1", "percent", columns,
                  identity_keys=["prompt_version"])
    table.rows = rows
    return table


def detection_row(label: str, accuracy: list[float | None]) -> Row:
    """A row whose fake-q cells are `accuracy` by category (None: no cell) and whose real-q cells are all 1.0."""
    cells = {f"fake_q/{category_slug(category)}": Cell(value)
             for category, value in zip(CATEGORIES, accuracy) if value is not None}
    cells |= {f"real_q/{category_slug(category)}": Cell(1.0) for category in CATEGORIES}
    return Row(label, {"prompt_version": "ffe-detection-v3"}, cells)


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> tuple[Path, list]:
    """Figure 1 for a model with a long display name and one with a short one; the short one's fake-q accuracy
    on Phonetic / Poetic Mimicry is 0 and it has no cell for Semantic Inversion."""
    out = tmp_path_factory.mktemp("figures")
    table = figure_1([detection_row(LONG_NAME, [0.9, 0.6, 0.8, 0.7]),
                      detection_row("gemma-3-27b", [0.5, 0.0, None, 0.4])])
    found = figures(Report([table], []), BENCHMARKS)
    for path, data in drawn_figures(found, out).items():
        path.write_bytes(data)
    yield out, found
    close(found)


def test_each_figure_is_a_300_dpi_png_an_svg_and_a_pdf(drawn):
    from PIL import Image

    out, found = drawn
    assert [f.name for f in found] == ["ffe-hallu-figure-1-fake-q", "ffe-hallu-figure-1-real-q"]
    for name in (f.name for f in found):
        with Image.open(out / f"{name}.png") as image:
            # savefig.dpi 300 is written as the pHYs chunk, 300 / 0.0254 = 11811 pixels per metre, read back as
            # 299.9994 dots per inch
            assert tuple(round(d) for d in image.info["dpi"]) == (PNG_DPI, PNG_DPI) == (300, 300)
            # drawn at 6.5 inches and saved to the drawing's bounds: about 6.5 x 300 = 1950 pixels wide
            assert abs(image.width - WIDTH_INCHES * PNG_DPI) < 0.1 * WIDTH_INCHES * PNG_DPI
        assert (out / f"{name}.svg").read_text(encoding="utf-8").rstrip().endswith("</svg>")
        pdf = (out / f"{name}.pdf").read_bytes()
        # a PDF with its font embedded as TrueType (FontFile2), as publishers ask
        assert pdf.startswith(b"%PDF") and b"/FontFile2" in pdf


def test_nothing_is_cut_off_at_the_edges(drawn):
    """Saved to the drawing's bounds with a 0.04 inch margin (12 pixels at 300 dpi): a tick label or legend cut
    by the image's edge would leave ink in the outermost pixels. Before, the first, turned category name ran off
    the left edge."""
    from PIL import Image, ImageChops

    out, _ = drawn
    with Image.open(out / "ffe-hallu-figure-1-fake-q.png") as image:
        rgb = image.convert("RGB")
    width, height = rgb.size
    white = Image.new("RGB", rgb.size, "white")
    ink = ImageChops.difference(rgb, white).convert("L").point(lambda v: 255 if v > 40 else 0)
    for box in ((0, 0, 8, height), (width - 8, 0, width, height), (0, 0, width, 8), (0, height - 8, width, height)):
        assert ink.crop(box).getbbox() is None, box  # 8 of the 12 margin pixels: blank on every side
    # and there is ink: the figure was drawn
    assert ink.getbbox() is not None


def test_legend_names_the_models_by_display_name_legibly_at_print_size(drawn):
    out, found = drawn
    figure = found[0].figure
    # print size: a text width. The legend: names up to 40 characters (8 pt, 0.0556 inch each) plus 0.5 inch of
    # key fit 6.5 / 2.72 = 2 columns; each column holds (3.25 - 0.5) / 0.0556 = 49 characters, so the 67-character
    # name wraps after "experimental-" (42) onto 2 lines; the figure is the axes' 2.9 + 0.3 inch and 2 lines of
    # 8 pt x 1.5 taller: 3.5333 inches
    assert tuple(figure.get_size_inches()) == (WIDTH_INCHES, pytest.approx(2.9 + 0.3 + 2 * 8 * 1.5 / 72))
    [legend] = figure.legends
    assert legend._ncols == 2
    assert [text.get_text() for text in legend.get_texts()] == [
        "persian-llm-with-a-very-long-experimental-\ncheckpoint-name-v2-q4_k_m", "gemma-3-27b"]
    names = [text.get_text().replace("\n", "") for text in legend.get_texts()]
    # the rows' labels (the display names), with no setting: every row has the same prompt_version
    assert names == [LONG_NAME, "gemma-3-27b"]
    sizes = [text.get_fontsize() for text in legend.get_texts()]
    ticks = [label.get_fontsize() for label in figure.axes[0].get_xticklabels() + figure.axes[0].get_yticklabels()]
    assert min(sizes + ticks) >= 8  # points at print size: the figure is printed at the size it is drawn
    # the long name is wrapped to fit its column rather than widen the figure
    renderer = figure.canvas.get_renderer()
    assert legend.get_window_extent(renderer).width <= WIDTH_INCHES * figure.dpi
    svg = (out / "ffe-hallu-figure-1-fake-q.svg").read_text(encoding="utf-8")
    assert "gemma-3-27b" in svg  # SVG text stays text: the legend can be searched and edited


def test_no_title_in_the_figure_and_the_caption_once_in_the_page(drawn):
    _, found = drawn
    fake_q = found[0]
    assert fake_q.figure.axes[0].get_title() == "" and fake_q.figure._suptitle is None
    assert "Is this FFE fake?" in fake_q.caption and "prompt_version=ffe-detection-v3" in fake_q.caption
    page = render_html(Report([], []), found)
    assert page.count(fake_q.caption.replace("'", "&#x27;")) == 1  # in its figcaption only
    assert "Is this FFE fake?" not in svg_text(fake_q.figure)


def test_a_bar_of_zero_is_drawn_and_a_missing_one_is_not(drawn):
    """gemma-3-27b (series 1) has fake-q 0.5, 0.0, none, 0.4 in groups 0-3: bars 1-0, 1-1 and 1-3, a zero mark
    (a stroke on the axis and a printed 0) on 1-1 only, nothing in group 2."""
    out, _ = drawn
    svg = (out / "ffe-hallu-figure-1-fake-q.svg").read_text(encoding="utf-8")
    name = "ffe-hallu-figure-1-fake-q"
    bars = set(re.findall(rf'id="bar-{name}-1-(\d)"', svg))
    assert bars == {"0", "1", "3"}
    assert re.findall(r'id="zero-([^"]+)"', svg) == [f"{name}-1-1"]
    assert re.findall(r'id="label-zero-([^"]+)"', svg) == [f"{name}-1-1"]
    # the stroke is 3 points wide: visible where the bar has no height
    stroke = re.search(rf'<g id="zero-{name}-1-1">.*?</g>', svg, re.DOTALL).group(0)
    assert re.search(r"stroke-width: ?3(\.0+)?\b", stroke)


def error_segments(figure, gid: str) -> list[list[tuple[float, float]]]:
    """The segments of the error bars drawn with `gid` (`error-<bar or point>`), in data coordinates."""
    return [[tuple(float(v) for v in end) for end in segment] for artist in figure.axes[0].get_children()
            if artist.get_gid() == gid for segment in artist.get_segments()]


def test_every_bar_of_a_rate_carries_its_interval_and_the_caption_names_those_with_none():
    """Two models with the same 50% on Cultural Fabrication, one over 50 answers, one over 2: Wilson's 95% intervals
    (z = 1.959964, z^2 = 3.841459) are 25/50: centre 0.5, half-width 1.959964 / 53.841459 x sqrt(25 x 25 / 50 +
    0.960365) = 0.036402 x 3.668837 = 0.133553: [0.366447, 0.633553]; 1/2: half-width 1.959964 / 5.841459 x
    sqrt(1 x 1 / 2 + 0.960365) = 0.335527 x 1.208456 = 0.405470: [0.094530, 0.905470]. The first model's 0 of 50 on
    Phonetic / Poetic Mimicry: [0, 3.841459 / 53.841459 = 0.071347]. Drawn in percent, each an error bar from low x
    100 to high x 100 at its bar's centre (2 series of width 0.4: group g's bars at g - 0.2 and g + 0.2); the
    second model's 25% over 8 items with no interval and the first's 60% with no n have none, and the caption says
    why."""
    fifty = {"cultural_fabrication": Cell(0.5, 0.366447, 0.633553, n=50),
             "phonetic_poetic_mimicry": Cell(0.0, 0.0, 0.071347, n=50),
             "semantic_inversion_contradiction": Cell(0.6)}
    two = {"cultural_fabrication": Cell(0.5, 0.094530, 0.905470, n=2), "phonetic_poetic_mimicry": Cell(0.25, n=8)}
    table = figure_1([Row(label, {"prompt_version": "v3"}, {f"fake_q/{key}": cell for key, cell in cells.items()})
                      for label, cells in (("fifty", fifty), ("two", two))])
    [fake_q, real_q] = figures(Report([table], []), BENCHMARKS)
    name = "ffe-hallu-figure-1-fake-q"
    # groups in the table's order: 0 Cultural, 1 Phonetic, 2 Semantic, 3 Word
    expected = {f"error-bar-{name}-0-0": [[(-0.2, 36.6447), (-0.2, 63.3553)]],
                f"error-bar-{name}-1-0": [[(0.2, 9.453), (0.2, 90.547)]],
                f"error-bar-{name}-0-1": [[(0.8, 0.0), (0.8, 7.1347)]]}
    for gid, segments in expected.items():
        assert error_segments(fake_q.figure, gid) == [[pytest.approx(end) for end in s] for s in segments], gid
    svg = svg_text(fake_q.figure)
    assert set(re.findall(r'id="(error-[^"]+)"', svg)) == set(expected)
    # five bars (three and two), three error bars: the two bars with no interval are named in the caption, by why
    assert len(re.findall(rf'id="bar-{name}-', svg)) == 5
    assert fake_q.caption.endswith(
        "; settings: prompt_version=v3; error bars: 95% intervals; no error bar where fewer than 30 items: a "
        "bootstrap interval over so few cannot say how uncertain it is (two Structural/Syntactic Mimicry); no error "
        "bar where the run's log gives none (fifty Semantic Inversion).")
    assert not re.findall(r'id="error-', svg_text(real_q.figure))  # no cells, no bars
    close([fake_q, real_q])


def test_a_paper_caption_that_names_its_error_bars_is_not_told_twice_and_points_carry_both_intervals():
    """PerHalluEval Figure 5's caption is the paper's, which says its error bars are 95% intervals. Figure 8's
    points are (recall, precision): the QA point at (0.5, 0.7) with recall [0.4, 0.6] and precision [0.6, 0.8] has
    a horizontal and a vertical error bar; the summarization point (0.8, 0.9) with no precision interval has the
    horizontal one only, and the caption names the missing one."""
    hamming = Table("perhallueval/figure-5", "Hamming", "src", "percent",
                    [ColumnHead("persian_specific", "Persian-specific"), ColumnHead("generic", "generic")])
    hamming.rows = [Row("m", {}, {"persian_specific": Cell(0.6, 0.5, 0.7, n=300), "generic": Cell(0.4, 0.3, 0.5)})]
    columns = [ColumnHead(f"{task}/{metric}", metric) for task in ("qa", "summarization")
               for metric in ("precision", "recall", "f1")]
    pr = Table("perhallueval/figure-8", "PR", "src", "fraction", columns)
    pr.rows = [Row("m", {}, {"qa/precision": Cell(0.7, 0.6, 0.8, n=100), "qa/recall": Cell(0.5, 0.4, 0.6, n=100),
                             "summarization/precision": Cell(0.9),
                             "summarization/recall": Cell(0.8, 0.7, 0.9, n=100)})]
    found = {f.name: f for f in figures(Report([hamming, pr], []), BENCHMARKS)}
    figure_5, figure_8 = found["perhallueval-figure-5"], found["perhallueval-figure-8"]
    assert figure_5.caption.count("error bars") == 1 and "no error bar" not in figure_5.caption
    assert error_segments(figure_5.figure, "error-bar-perhallueval-figure-5-0-1") == [
        [(1.0, pytest.approx(30.0)), (1.0, pytest.approx(50.0))]]
    assert error_segments(figure_8.figure, "error-point-0-0") == [
        [(pytest.approx(0.4), 0.7), (pytest.approx(0.6), 0.7)], [(0.5, pytest.approx(0.6)), (0.5, pytest.approx(0.8))]]
    assert error_segments(figure_8.figure, "error-point-0-1") == [
        [(pytest.approx(0.7), 0.9), (pytest.approx(0.9), 0.9)]]
    assert figure_8.caption.endswith(
        "; error bars: 95% intervals; no error bar where the run's log gives none (m summarization (TS) precision).")
    close(list(found.values()))


def test_persian_theme_names_are_drawn_as_text(tmp_path):
    """The theme figure names each theme in English and Persian, on two lines (a line mixing the two scripts
    would be laid out right to left, its words reversed); SVG keeps the Persian as text."""
    themes = ("religious", "quranic")
    table = Table("persian-allusions/themes", "Accuracy per theme", "Section 4", "percent",
                  [ColumnHead(theme, theme) for theme in themes], identity_keys=["task"], cell_n=True)
    table.rows = [Row("gemma", {"task": "allusion_mc"}, {"religious": Cell(0.5, n=2), "quranic": Cell(0.0, n=1)})]
    [found] = figures(Report([table], []), BENCHMARKS)
    labels = [label.get_text() for label in found.figure.axes[0].get_xticklabels()]
    assert labels == ["religious\nمذهبی", "quranic\nقرآنی"]
    svg = svg_text(found.figure)
    assert "مذهبی" in svg and "قرآنی" in svg
    close([found])


def wide_table() -> Table:
    """A table of 12 value columns: too wide for a page in one tabular."""
    columns = [ColumnHead(f"c{i}", f"Column number {i}", "higher", ours=i == 11) for i in range(12)]
    table = Table("t/wide", "Twelve columns", "src", "percent", columns, identity_keys=["judge", "prompt_version"])
    table.rows = [Row(f"replay/runs/{LONG_NAME}", {"judge": "openai/gpt-4.1", "prompt_version": "v3"},
                      {f"c{i}": Cell(0.25, 0.2, 0.3, n=50, samples=800) for i in range(12)}),
                  Row("openai/gpt-4.1", {"judge": "google/gemini-2.5-pro", "prompt_version": "v3"},
                      {f"c{i}": Cell(0.5, samples=800) for i in range(12)}),
                  Row("GPT-4.1", {}, {"c0": Cell(0.4)}, reference="Paper Table 1")]
    return table


def test_a_wide_latex_table_is_split_and_its_marks_explained():
    table = wide_table()
    # widths in characters once wrapped, 3 of padding each: the model column's longest line 22 (the name breaks
    # after slashes and hyphens within 22) + 3 = 25, the judge "google/gemini-2.5-pro" 21 + 3 = 24, samples 7 + 3
    # = 10: 59 in all; each value column "Column number" (its header wrapped at 14) 13 + 3 = 16. In k tabulars of
    # 12/k columns: 59 + 192/k characters against LATEX_LINE 100, shrunk by 100 / that: k = 1: 0.40, 2: 0.65,
    # 3: 0.81, 4: 59 + 48 = 107, 0.93. Four tabulars are each 3 rules + 2 header lines + 4 + 1 + 1 row lines
    # (the long name on 4 lines) = 11 lines, shrunk 10.3: 41 in all, within a page (48): the least shrunk split
    parts = latex_parts(table)
    assert parts == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]
    text = latex_table(table)
    assert text.count(r"\begin{tabular}{") == len(parts)  # one tabular per part (stacked cells are [t] tabulars)
    assert text.count(r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%") == len(parts)
    # prompt_version=v3 is every run's: said once under the table, not a column
    assert "Every run: prompt\\_version=v3." in text and "prompt\\_version &" not in text
    # the marks this table shows, explained under it: arrows, * (column 11 is ours), an interval, (n=200) against
    # 800 samples, the paper's row
    assert marks_note(table) == ("↑/↓: higher/lower is better; *: figeval's column, not the paper's; [a, b]: 95% "
                                 "interval; (n=k): the cell's own count where it differs from the row's samples; "
                                 "(paper), in italics: the paper's published number.")
    assert r"*: figeval's column, not the paper's" in text
    # the value and its interval and n on lines of their own in one cell; a bracket after \\ braced
    assert r"25.0 \\ {[}20.0, 30.0{]} \\ (n=50)" in text
    # the long model name wrapped after its slashes and hyphens
    assert r"replay/runs/persian- \\ " in text


def test_a_narrow_latex_table_is_one_tabular_with_no_note_of_marks_it_does_not_show():
    table = Table("t/narrow", "Two columns", "src", "fraction", [ColumnHead("a", "A"), ColumnHead("b", "B")])
    table.rows = [Row("m", {}, {"a": Cell(0.5), "b": Cell(0.25)})]
    assert latex_parts(table) == [[0, 1]]
    assert marks_note(table) == ""
    assert latex_table(table).splitlines()[4:9] == [r"\begin{tabular}{llrr}", r"\toprule",
                                                   r"model & samples & A & B \\", r"\midrule",
                                                   r"m &  & 0.500 & 0.250 \\"]


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed (apt: texlive-latex-recommended)")
def test_latex_tables_compile_and_fit_the_page(tmp_path):
    """The wide table set in a 6.5-inch text width: no line wider than the page (TeX's 'Overfull \\hbox')."""
    document = tmp_path / "doc.tex"
    document.write_text("\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage{booktabs,graphicx}"
                        "\\usepackage[margin=1in,letterpaper]{geometry}\\begin{document}\n"
                        + latex_table(wide_table()) + "\n\\end{document}\n", encoding="utf-8")
    result = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", document.name], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout[-2000:]
    log = (tmp_path / "doc.log").read_text(encoding="latin-1")
    assert "Overfull \\hbox" not in log and "Float too large" not in log
