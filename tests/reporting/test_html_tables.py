"""The HTML report's tables keep model names whole: a name breaks only after its separators (`/`, `-`, `_`, a
space), a value only before its interval and its n, and a table too wide for a page names its long models M1, M2,
... with a legend under it, so that no table scrolls sideways in a 1,280-pixel window (checked in headless Chromium
where it is installed: every part of every name on one line, every table within its box)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from figeval.reporting.html import STYLE, html_table, render_html
from figeval.results.report import Report
from figeval.table_model import Cell, ColumnHead, Row, Table
from tests.reporting.test_paper_figures import LONG_NAME, figure_1, wide_table

NAMES = ("meta-llama/Llama-3.3-70B-Instruct_q4", "persian-llm-with-a-very-long-experimental-checkpoint-name-v2",
         "qwen2.5-72b-instruct-awq-int4-persian-idioms-dpo-epoch3")


def narrow_table(names: tuple[str, ...] = NAMES) -> Table:
    table = Table("t/narrow", "Two columns", "src", "percent", [ColumnHead("a", "Prompt-Fake Halluc.(%)", "lower"),
                                                               ColumnHead("b", "Structural/Syntactic Mimicry")])
    table.rows = [Row(name, {}, {"a": Cell(0.25, 0.2, 0.3, n=50, samples=800), "b": Cell(0.5)}) for name in names]
    return table


def test_a_name_breaks_only_after_its_separators_and_a_value_only_before_its_interval():
    text = html_table(narrow_table())
    # a <wbr> after each /, -, _ and nowhere else: every part between them is whole
    assert ('<td class="name" dir="auto">meta-<wbr>llama/<wbr>Llama-<wbr>3.3-<wbr>70B-<wbr>Instruct_<wbr>q4</td>'
            in text)
    # headers alike ("Structural/Syntactic": browsers would not break after the slash)
    assert "<th>Structural/<wbr>Syntactic <wbr>Mimicry</th>" in text
    # the value, its interval and its n each on one line: 25.0 [20.0, 30.0] (n=50) of 800 samples
    assert ('<td class="value"><span>25.0</span> <span>[20.0, 30.0]</span> <span>(n=50)</span></td>' in text)
    # no rule lets a browser break inside a word; value parts never wrap
    assert "th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.6em; vertical-align: top; overflow-wrap: normal;"\
        "\n  word-break: normal; hyphens: manual; }" in STYLE
    assert not re.search(r"anywhere|break-all|break-word", STYLE)
    assert "td.value span { white-space: nowrap; }" in STYLE


def test_a_table_that_fits_keeps_its_names_whole_in_a_column_of_22_characters_at_least():
    """Two value columns: at its narrowest the table is the model column's 22 characters (names longer than 22),
    samples 7 ("samples"), the headers' longest parts "Halluc.(%)" 10 and "Structural/" 11 against the values'
    "[20.0, 30.0]" 12 and "50.0": 22 + 7 + 12 + 11 = 52, and 2 of padding each: 60 characters, within a page's
    130: names whole, no legend."""
    text = html_table(narrow_table())
    assert '<th style="min-width: 22ch">model</th>' in text
    assert "M1" not in text and "models:" not in text
    # a table of short names: its model column only as wide as its longest one (7: "gpt-4.1")
    assert '<th style="min-width: 7ch">model</th>' in html_table(narrow_table(("gpt-4.1", "gemma")))


def test_a_table_too_wide_for_the_page_names_its_long_models_m1_with_a_legend():
    """The wide table at its narrowest: the model column 22 (its longest part "experimental-" is 13, the long name
    79 characters), judge 7 ("google/", "gemini-"), prompt_version 7 ("prompt_", "version"), samples 7, twelve
    value columns of 12 ("[20.0, 30.0]"; headers "Column ", "number "): 22 + 21 + 144 = 187, and 2 of padding
    for each of 16 columns: 219 characters, over a page's 130. The name longer than 22 is M1; openai/gpt-4.1 (14)
    and the paper's row keep theirs, and the model column is as wide as the longest left, "GPT-4.1 (paper)", 15."""
    text = html_table(wide_table())
    assert '<td class="name" dir="auto">M1</td>' in text
    assert '<td class="name" dir="auto">openai/<wbr>gpt-<wbr>4.1</td>' in text
    assert '<td class="name" dir="auto">GPT-<wbr>4.1 <wbr>(paper)</td>' in text
    assert '<th style="min-width: 15ch">model</th>' in text
    assert f'<ul class="notes"><li>models: M1 = replay/runs/{LONG_NAME}</li></ul>' in text
    assert ">replay/<wbr>runs/<wbr>persian-" not in text  # the long name only in the legend


def _measured(page: str, width: int, folder: Path) -> list[str]:
    """Loads the page in headless Chromium at `width` pixels and returns, per table, whether its box scrolls and the
    parts of names and headers (text between <wbr>s) laid out on more than one line; then whether the page
    scrolls."""
    script = """<script>for (const box of document.querySelectorAll(".table-scroll")) {
      const split = [];
      for (const cell of box.querySelectorAll("td.name, th")) for (const node of cell.childNodes) {
        if (node.nodeType !== 3 || !node.textContent.trim()) continue;
        const range = document.createRange(); range.selectNodeContents(node);
        if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1) split.push(node.textContent);
      }
      const out = document.createElement("pre"); out.className = "measured";
      out.textContent = "MEAS" + "URED " + `${box.scrollWidth > box.clientWidth ? "scrolls" : "fits"} split=[${split}]`;
      document.body.appendChild(out);
    }
    const page = document.createElement("pre"); page.className = "measured";
    page.textContent = "MEAS" + "URED page " + (document.documentElement.scrollWidth > innerWidth ? "scrolls" : "fits");
    document.body.appendChild(page);</script>"""
    path = folder / "page.html"
    path.write_text(page.replace("</body>", script + "</body>"), encoding="utf-8")
    result = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--window-size={width},1000",
                             "--dump-dom", path.as_uri()], capture_output=True, text=True, timeout=120)
    return re.findall(r"MEASURED ([^<]*)", result.stdout)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def figure_1_table() -> Table:
    """FFE-HALLU Figure 1's table for three long-named runs: eight value columns, each cell with its interval and
    n. At its narrowest: the model column 22, samples 7, the headers' longest parts ("Contradiction ", 13) against
    the values' "[18.9, 73.3]" (12): at least 22 + 7 + 8 x 12 = 125, and 2 of padding for each of 10 columns: 145
    characters, over a page's 130: its models are M1, M2, M3."""
    table = figure_1([])
    table.rows = [Row(name, {"prompt_version": "v3"},
                      {column.key: Cell(0.444, 0.189, 0.733, n=9, samples=140) for column in table.columns})
                  for name in NAMES]
    return table


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt: chromium)")
def test_in_a_1280_pixel_window_no_table_scrolls_and_no_part_of_a_name_is_split(tmp_path):
    """Three long names in a narrow table (names whole) and in Figure 1's (M1-M3): in Chromium neither is wider
    than its box and every part of every name and header is on one line. A table of twelve interval columns is
    wider than any page: it scrolls in its box, the page does not. Before (names and headers breaking anywhere),
    the same page had names and headers split in all three tables, Figure 1's scrolling, and the page too."""
    assert ">M1<" in html_table(figure_1_table()) and ">M1<" not in html_table(narrow_table())
    page = render_html(Report([narrow_table(), figure_1_table(), wide_table()], []), [])
    assert _measured(page, 1280, tmp_path) == ["fits split=[]", "fits split=[]", "scrolls split=[]", "page fits"]
