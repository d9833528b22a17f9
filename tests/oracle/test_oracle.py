"""Every cell of every table, in every format, against the oracle's own computation, over random combinations of
runs as a researcher makes them (see tests/oracle/__init__.py). A seed draws a benchmark and its scenario; the
failure message lists every difference found, each naming the table, row and column."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.command import figeval
from tests.oracle import ffe_hallu, perhallueval, persian_allusions, turkish
from tests.oracle.check import (
    Problems,
    check_csv,
    check_html,
    check_json,
    check_latex,
    check_markdown,
    check_other_data,
    check_paper_rows,
    check_settings_shown,
    check_text,
    expected_lines,
)
from tests.oracle.across import LEADERBOARD, check_comparisons, check_figures, check_reading, leaderboard_rows
from tests.oracle.harness import World
from tests.oracle.people import agreement_tables, gather, people_rows
from tests.oracle.tables import expected_rows, kept

BENCHMARKS = (turkish, ffe_hallu, perhallueval, persian_allusions)
FIXTURES = Path(__file__).resolve().parents[1]


@pytest.fixture
def data(ffe_hallu_imported) -> None:
    """Every benchmark's data in the test's data store: the Turkish and allusion fixtures (their upstream files are
    not public), the real FFE-HALLU files."""
    from figeval._registry import get_source
    from figeval.data.store import import_folder

    import_folder(get_source("turkish-idioms"), FIXTURES / "turkish_idioms" / "fixtures")
    import_folder(get_source("persian-allusions"), FIXTURES / "persian_allusions" / "fixtures")


def report(world: World, *args: str) -> dict[str, str]:
    """The report over the world's logs in every format (HTML written to a folder, read back)."""
    found = {}
    for name in ("json", "csv", "text", "markdown", "latex"):
        result = figeval("report", str(world.logs), "--format", name, "--paper", *args, cwd=world.folder)
        assert result.returncode == 0, result.stderr
        found[name] = result.stdout
    out = world.folder / f"html{len(args)}"
    result = figeval("report", str(world.logs), "--format", "html", "--out", str(out), "--paper", *args,
                     cwd=world.folder)
    assert result.returncode == 0, result.stderr
    found["html"] = (out / "report.html").read_text(encoding="utf-8")
    return found


def test_every_cell_of_every_table_is_the_oracle_s(seed: int, data, tmp_path: Path):
    rng = random.Random(seed)
    benchmark = BENCHMARKS[seed % len(BENCHMARKS)]
    world = World(tmp_path)
    benchmark.scenario(world, rng)
    runs = kept(world.made)
    labels = [found for task in getattr(benchmark, "LABELLED", ()) if rng.random() < 0.6
              and (found := gather(world, task, runs, rng)) is not None]
    formats = report(world, *getattr(benchmark, "REPORT_ARGS", ()),
                     *(part for found in labels for part in ("--human", str(found.path))))
    document = json.loads(formats["json"])
    problems = Problems()
    checked = [(table, people_rows(table, custom(runs) if (custom := getattr(benchmark, "CUSTOM", {}).get(table.key))
                                   else expected_rows(table, runs), labels)) for table in benchmark.TABLES]
    checked += [pair for found in labels
                for pair in agreement_tables(found, runs, benchmark.AGREEMENT_UNIT[found.task])]
    check_figures(world, {table.key: expected for table, expected in checked}, problems)
    for table, expected in checked:
        matched = check_json(table, expected, document, problems)
        check_settings_shown(table, expected, document, problems)
        lines = expected_lines(table, expected, document, matched)
        found = next((t for t in document["tables"] if t["key"] == table.key), None)
        title = (f"{found['source']}: {found['title']}" if found['source'] else found['title']) if found else table.key
        check_text(table, lines, formats["text"], title, problems)
        check_markdown(table, lines, formats["markdown"], title, problems)
        check_html(table, lines, formats["html"], problems)
        check_latex(table, lines, formats["latex"], problems)
        check_csv(table, expected, formats["csv"], problems)
        check_paper_rows(table, document, formats["text"], problems)
        check_other_data(table, expected, document, problems)
    check_reading(document, runs, problems)
    check_comparisons(document, runs, problems)
    board = report(world, "--leaderboard")
    board_document = json.loads(board["json"])
    expected = leaderboard_rows(runs)
    matched = check_json(LEADERBOARD, expected, board_document, problems)
    lines = expected_lines(LEADERBOARD, expected, board_document, matched, ties=True)
    title = next(f"{t['title']}" for t in board_document["tables"] if t["key"] == "leaderboard")
    check_text(LEADERBOARD, lines, board["text"], title, problems)
    check_markdown(LEADERBOARD, lines, board["markdown"], title, problems)
    check_html(LEADERBOARD, lines, board["html"], problems)
    check_latex(LEADERBOARD, lines, board["latex"], problems)
    assert not problems.found, f"seed {seed}: {len(problems.found)} differences\n" + "\n".join(problems.found[:60])

