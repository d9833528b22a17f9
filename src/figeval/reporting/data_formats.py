"""A report as data: CSV (one line per cell, values in the table's unit: percent as 0-100) and JSON (values as
the metrics give them, rates in [0, 1]). Both keep four decimals of a proportion (percent with two: 14.0, not
14.000000000000002; fractions and counts with four), enough to re-derive every printed digit and no float noise,
or a paper's number's own decimals."""

from __future__ import annotations

import io
import json

from figeval.version import __version__
from figeval.reporting.cells import unit_of
from figeval.results.report import Report
from figeval.table_model import Cell, Table
from figeval.spreadsheet import SheetWriter

# CSV and JSON: four decimals of a proportion, as the unit shows it (percent: two)
KEPT_DECIMALS = {"percent": 2, "fraction": 4, "count": 4}
CSV_HEADER = ["table", "source", "row", "paper", "settings", "column", "header", "unit", "value", "ci_low", "ci_high",
              "n", "label", "log"]


def scaled(value: float | None, unit: str) -> float | None:
    return None if value is None else value * 100 if unit == "percent" else value


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
                unit = unit_of(table, column)
                writer.writerow([table.key, table.source, row.label, row.reference,
                                 ";".join(f"{k}={v}" for k, v in row.identity.items()), column.key, column.header,
                                 unit, cell.value if isinstance(cell.value, str) else printed(cell.value, unit,
                                                                                             cell.decimals),
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


def _cell_json(cell: Cell, unit: str) -> dict[str, object]:
    return {"value": stored(cell.value, unit, cell.decimals), "ci_low": stored(cell.low, unit, cell.decimals),
            "ci_high": stored(cell.high, unit, cell.decimals), "n": cell.n, "samples": cell.samples,
            "label": cell.label or None, "log": cell.log}


def table_json(table: Table) -> dict[str, object]:
    units = {c.key: unit_of(table, c) for c in table.columns}
    return {
        "key": table.key, "title": table.title, "source": table.source, "unit": table.unit,
        "intervals": table.intervals, "identity_keys": table.identity_keys,
        "shared_settings": table.shared, "notes": table.notes,
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
