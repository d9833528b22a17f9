"""What the oracle expects of the tables that read every benchmark's runs: the leaderboard (each task's headline, a
row per model and identity, one benchmark's settings never compared with another's), how each run's answers were
read (over every answer of the run), and the paired differences of models on the same items."""

from __future__ import annotations

from fractions import Fraction

from tests.oracle import ffe_hallu, perhallueval, persian_allusions, turkish
from tests.oracle.harness import JUDGE_UNREADABLE, UNREAD, Run
from tests.oracle.measure import MIN_BOOTSTRAP, Expect
from tests.oracle.tables import ERow, OColumn, OTable, expected_rows

BENCHMARK_OF = {**{c.task: "ffe-hallu" for c in ffe_hallu.HEADLINES},
                **{c.task: "turkish-idioms" for c in turkish.HEADLINES},
                **{c.task: "persian-allusions" for c in persian_allusions.HEADLINES},
                **{c.task: "perhallueval" for c in perhallueval.HEADLINES}}
# the leaderboard's columns: every benchmark's headlines, in the registry's order
LEADERBOARD = OTable("leaderboard", "", "", "percent", (*ffe_hallu.HEADLINES, *turkish.HEADLINES,
                                                         *persian_allusions.HEADLINES, *perhallueval.HEADLINES),
                     intervals=True)
TIE = " (≈)"  # a cell not significantly apart from the row above's: marked, its value as it is


def leaderboard_rows(runs: list[Run]) -> list[ERow]:
    return expected_rows(LEADERBOARD, runs, scope=lambda task: BENCHMARK_OF[task])


READING = OTable("reading", "", "", "percent", (OColumn("unread", "", lambda run: None),))


def reading_rows(runs: list[Run]) -> dict[tuple[str, str], list[tuple[dict, Expect, Expect | None]]]:
    """Per model and task, each run's settings, its unread share over every answer it gave (controls and all), and,
    for a judged task, the share whose judge answer was unreadable."""
    found: dict[tuple[str, str], list] = {}
    for run in runs:
        answers = run.outcomes()
        unread = Expect(Fraction(sum(a.label is UNREAD for a in answers), len(answers)), len(answers), "none")
        judged = Expect(Fraction(sum(a.label == JUDGE_UNREADABLE for a in answers), len(answers)), len(answers),
                        "wilson") if run.task.judged else None
        found.setdefault((run.model, run.task.name), []).append((run.settings, unread, judged))
    return found


def check_reading(document: dict, runs: list[Run], problems) -> None:
    table = next((t for t in document["tables"] if t["key"] == "reading"), None)
    expected = reading_rows(runs)
    if table is None:
        problems.check(not expected, "reading: no table")
        return
    rows = {}
    for row in table["rows"]:
        rows.setdefault((row["label"], row["cells"]["task"]["value"]), []).append(row)
    for key, wanted in expected.items():
        found = rows.get(key, [])
        problems.check(len(found) == len(wanted), f"reading {key}: {len(found)} rows for {len(wanted)} runs")
        for settings, unread, judged in wanted:
            match = [row for row in found if row["identity"] == settings]
            if len(match) != 1:
                problems.add(f"reading {key}: no single row with settings {settings}")
                continue
            cells = match[0]["cells"]
            layers = sum(cell["value"] for name, cell in cells.items()
                         if name not in ("task", "truncated", "judge_unreadable"))
            problems.check(abs(layers - 1) < 1e-3, f"reading {key}: layers sum to {layers}")
            problems.check(abs(cells["unread"]["value"] - float(unread.value)) < 6e-5
                           and cells["unread"]["n"] == unread.n,
                           f"reading {key} {settings}: unread {cells['unread']} != {float(unread.value)} of {unread.n}")
            if judged is not None:
                cell = cells.get("judge_unreadable", {})
                problems.check(abs(cell.get("value", -1) - float(judged.value)) < 6e-5,
                               f"reading {key}: judge unreadable {cell} != {float(judged.value)}")
        for row in found:
            told = [name for name in table["identity_keys"]]
            others = [r for r in found if r is not row]
            problems.check(all(any(row["identity"].get(n) != r["identity"].get(n) for n in told) for r in others),
                           f"reading {key}: two runs of one model and task are not told apart by {told}")


# --- paired differences: model minus baseline on the samples both answered --------------------------------------

ITEM = {"ffe_detection": "item", "tr_idiom_detection": "item", "tr_idiom_entailment": "item",
        "perhallueval_qa": "item", "perhallueval_summarization": "item"}
"""The item a sample asks about, where a task asks one item several ways (its design); each sample its own
otherwise."""


def _restricted(run: Run, ids: set[str]) -> Run:
    from dataclasses import replace

    return replace(run, asked=[sample_id for sample_id in run.asked if sample_id in ids])


def comparison_rows(runs: list[Run]) -> list[tuple[str, str, str, Expect, dict]]:
    """(model, task, baseline, difference) for every pair of runs of one task and identity, by headline, the later
    model by name minus the earlier, on the samples both answered; the difference's n is the items it rests on."""
    found = []
    for column in LEADERBOARD.columns:
        members = sorted((run for run in runs if run.task.name == column.task
                          and all(run.settings.get(k) == v for k, v in column.where)), key=lambda run: run.model)
        groups: dict[tuple, list[Run]] = {}
        for run in members:
            groups.setdefault(tuple(sorted(run.settings.items())), []).append(run)
        for group in groups.values():
            for i, first in enumerate(group):
                for second in group[i + 1:]:
                    if second.model == first.model:
                        continue
                    shared = set(first.asked) & set(second.asked)
                    a, b = column.measure(_restricted(first, shared)), column.measure(_restricted(second, shared))
                    if a is None or b is None:
                        continue
                    unit = ITEM.get(column.task)
                    # the samples the headline counts (its value on each alone defined), where it is its value on
                    # them alone; else (a measure over an item's samples together) every shared sample
                    counted = {sid for sid in shared if _counts(column, first, sid) or _counts(column, second, sid)}
                    if not counted or any(column.measure(_restricted(run, counted)) is None or
                                          column.measure(_restricted(run, counted)).value != found_.value
                                          for run, found_ in ((first, a), (second, b))):
                        counted = shared
                    items = {first.answers[sid].sample.metadata.get(unit, sid) if unit else sid for sid in counted}
                    found.append((second.model, column.task, first.model,
                                  Expect(b.value - a.value, len(items),
                                         "bootstrap" if len(items) >= MIN_BOOTSTRAP else "none"), second.settings))
    return found


def _counts(column: OColumn, run: Run, sample_id: str) -> bool:
    """Whether the headline counts the sample (its value on the sample alone is defined)."""
    return column.measure(_restricted(run, {sample_id})) is not None


def check_comparisons(document: dict, runs: list[Run], problems) -> None:
    expected = comparison_rows(runs)
    table = next((t for t in document["tables"] if t["key"] == "comparison"), None)
    rows = table["rows"] if table else []
    problems.check(len(rows) == len(expected), f"comparison: {len(rows)} rows for {len(expected)} pairs")
    for model, task, baseline, difference, settings in expected:
        found = [row for row in rows if row["label"] == model and row["cells"]["task"]["value"] == task
                 and row["cells"]["baseline"]["value"] == baseline and row["identity"] == settings
                 and abs(row["cells"]["difference"]["value"] - float(difference.value)) < 6e-5]
        if not found:
            problems.add(f"comparison: no row {model} - {baseline} on {task} = {float(difference.value)} "
                         f"({[(r['label'], r['cells']['difference']['value']) for r in rows]})")
            continue
        cell = found[0]["cells"]["difference"]
        problems.check(found[0]["cells"]["items"]["value"] == difference.n,
                       f"comparison {model} - {baseline} {task}: items {found[0]['cells']['items']} != {difference.n}")
        problems.check((cell["ci_low"] is None) == (difference.interval == "none"),
                       f"comparison {model} - {baseline} {task}: interval {cell['ci_low'], cell['ci_high']} over "
                       f"{difference.n} items")


# --- figures: every bar and point is the cell of its row and column ---------------------------------------------

def check_figures(world, expected_by_table: dict[str, list[ERow]], problems) -> None:
    """Draws the report's figures in this process (as `figeval report --figures` does) and reads each bar's
    height and each point's place back from the drawing: bar s of group g is the cell of the table's s-th run row
    and the figure's g-th column; a precision-recall point is (recall, precision) of its row and task. One series per
    model and identity: as many series as the table has rows of runs."""
    from figeval._registry import BENCHMARKS
    from figeval.reporting.figures import close, figures
    from figeval.results.report import build_report

    report = build_report(world.logs, BENCHMARKS)
    specs = {spec.name: spec for benchmark in BENCHMARKS for spec in benchmark.figures}
    tables = {table.key: table for table in report.tables}
    drawn = figures(report, BENCHMARKS)
    try:
        for figure in drawn:
            spec = specs[figure.name]
            table = tables[spec.table]
            rows = [row for row in table.rows if not row.reference]
            wanted = {(row.label, tuple(sorted(row.settings.items()))): row
                      for row in expected_by_table.get(spec.table, [])}
            series = [wanted.get((row.label, tuple(sorted(row.identity.items())))) for row in rows]
            if None in series or len(series) != len(wanted):
                problems.add(f"figure {figure.name}: series {[(r.label, r.identity) for r in rows]} are not the "
                             f"table's expected rows {sorted(wanted)}")
                continue
            scale = 100 if table.unit == "percent" else 1
            keys = [c.key for c in table.columns if not spec.columns or c.key in spec.columns]
            artists = {artist.get_gid(): artist for axes in figure.figure.axes
                       for artist in (*axes.patches, *axes.collections) if artist.get_gid()}
            for s, row in enumerate(series):
                if spec.kind == "precision_recall":
                    for t, prefix in enumerate(spec.columns):
                        p, q = row.cells.get(f"{prefix}/precision"), row.cells.get(f"{prefix}/recall")
                        point = artists.get(f"point-{s}-{t}")
                        if p is None or q is None:
                            problems.check(point is None, f"figure {figure.name}: a point {s}-{t} with no cell")
                            continue
                        got = point.get_offsets()[0] if point is not None else None
                        problems.check(got is not None and abs(got[0] - float(q.value)) < 1e-9
                                       and abs(got[1] - float(p.value)) < 1e-9,
                                       f"figure {figure.name}: point {s}-{t} at {got}, expected ({float(q.value)}, "
                                       f"{float(p.value)})")
                    continue
                for g, key in enumerate(keys):
                    cell, bar = row.cells.get(key), artists.get(f"bar-{figure.name}-{s}-{g}")
                    if cell is None:
                        problems.check(bar is None, f"figure {figure.name}: a bar {s}-{g} with no cell")
                        continue
                    problems.check(bar is not None and abs(bar.get_height() - float(cell.value) * scale) < 1e-9,
                                   f"figure {figure.name}: bar {s}-{g} ({row.label} {key}) is "
                                   f"{bar.get_height() if bar else None}, expected {float(cell.value) * scale}")
    finally:
        close(drawn)
