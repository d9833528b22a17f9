"""Step 5 of building PerHalluEval (paper Section 3.4, Appendix C): three annotators' copies of the build's
DIR/kept.csv, each checked to be a copy of it with only the annotators' columns filled, are majority-voted into
DIR/final.csv, the benchmark file the tasks read; their agreement is reported as the paper reports it."""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from figeval.annotation.answers import normalized_answer
from figeval.benchmarks.perhallueval.build import ANNOTATOR_COLUMNS, FINAL_FILE, ITEM_COLUMNS, KEPT_FILE, KEPT_HEADER
from figeval.benchmarks.perhallueval.dataset import LABEL_COLUMN, check_item
from figeval.building import check_build_outputs
from figeval.data.table import Column, Row, affirmative, negative, read_table, refuse_same_content
from figeval.errors import DataError, FigevalError
from figeval.output import atomic_open
from figeval.resumable import Report
from figeval.spreadsheet import SheetWriter
from figeval.stats import UndefinedStatistic, fleiss_kappa, gwet_ac1

SHEET_COLUMNS = tuple(Column(name, required=False) for name in KEPT_HEADER)
HALLUCINATION_LABELS = {"hallucinated": "hallucinated", "h": "hallucinated", "1": "hallucinated",
                        "factual": "factual", "f": "factual", "0": "factual"}


def _majority(labels: Sequence[str]) -> str | None:
    (label, count), *_ = Counter(labels).most_common(1)
    return label if count * 2 > len(labels) else None


def _item_key(item_id: str) -> str:
    return normalized_answer(item_id)


def _same_cell(column: str, sheet_cell: str, kept_cell: str) -> bool:
    """Whether an item cell of an annotator's sheet is kept.csv's, up to what a spreadsheet changes on saving
    (`normalized_answer`: line endings, Unicode composition, surrounding spaces). The verifier score is compared
    as a number: spreadsheets save "0.5000" as "0.5"."""
    if normalized_answer(sheet_cell) == normalized_answer(kept_cell):
        return True
    if column == "verifier_score":
        try:
            return float(sheet_cell) == float(kept_cell)
        except ValueError:
            return False
    return False


def read_kept(out: Path, task: str) -> dict[str, Row]:
    """The rows of the build's own DIR/kept.csv by item id: what the annotators were given to label.

    Raises:
        FigevalError: the folder has no kept.csv (the build has not reached step 4).
        DataError: a row of it is not an item of `task`.
    """
    path = out / KEPT_FILE
    if not path.is_file():
        raise FigevalError(f"{path} does not exist: the sheets are checked against the build's kept.csv; run "
                           f"`figeval build perhallueval-candidates --task {task} --out {shlex.quote(str(out))} ...` "
                           "first, or give the --out folder of that build.")
    rows = read_table(path, SHEET_COLUMNS, unique="id", key=str.strip)
    for row in rows:
        check_item(path, row, task)
    return {_item_key(row.cells["id"]): row for row in rows}


def check_against_kept(sheet: Path, rows: Sequence[Row], kept: dict[str, Row], kept_path: Path) -> None:
    """Refuses an annotator's sheet that is not a copy of kept.csv with only the annotators' columns filled:
    an item missing or added, or an item cell (ITEM_COLUMNS) changed. The final file is written from kept.csv,
    so a changed cell would be labelled on one text and published with another.

    Raises:
        DataError: naming the sheet, row, id and column, and the fix.
    """
    fix = f"annotators fill only {' and '.join(ANNOTATOR_COLUMNS)}: copy the cell back from {kept_path}"
    for row in rows:
        item_id = row.cells["id"]
        item = kept.get(_item_key(item_id))
        if item is None:
            raise DataError(f"{sheet.name}: row {row.number}, column 'id': item {item_id!r} is not in {kept_path}; "
                            "remove the row, or give a copy of this build's kept.csv.")
        for column in ITEM_COLUMNS[1:]:
            if not _same_cell(column, row.cells[column], item.cells[column]):
                raise DataError(f"{sheet.name}: row {row.number} (id {item_id!r}), column {column!r} differs from "
                                f"{KEPT_FILE} row {item.number}; {fix}.")
    missing = sorted(kept.keys() - {_item_key(row.cells["id"]) for row in rows}, key=lambda key: kept[key].number)
    if missing:
        first = kept[missing[0]]
        raise DataError(f"{sheet.name}: {len(missing)} of the {len(kept)} items of {kept_path} have no row (first: "
                        f"id {first.cells['id']!r}, {KEPT_FILE} row {first.number}, column 'id'); every annotator "
                        "labels every row of kept.csv: copy the missing rows back and label them.")


def finalize(task: str, sheets: Sequence[Path], out: Path, report: Report) -> Path:
    """Majority vote of three annotators' copies of kept.csv (each fills hallucination_label: hallucinated or
    factual, and for QA persian_specific: 1 or 0); reports Gwet's AC1 on the hallucination labels and Fleiss'
    kappa on persian_specific; writes the items the majority calls hallucinated to DIR/final.csv, their item
    cells from the build's own DIR/kept.csv (each sheet is checked to be a copy of it, labels aside)."""
    if len(sheets) != 3:
        raise FigevalError(f"give the three annotators' sheets, not {len(sheets)}.")
    folder = "the build folder (the --out of `figeval build perhallueval-candidates`)"
    if out.exists() and not out.is_dir():
        raise FigevalError(f"--out {out} is a file; give {folder}.")
    if not out.is_dir():
        raise FigevalError(f"--out {out}: the folder does not exist; give {folder}.")
    kept_path = out / KEPT_FILE
    check_build_outputs(out, [*sheets, kept_path], files=[FINAL_FILE])
    refuse_same_content(sheets)
    kept = read_kept(out, task)
    per_sheet = []
    for sheet in sheets:
        sheet_rows = read_table(sheet, SHEET_COLUMNS, unique="id", key=str.strip)
        check_against_kept(sheet, sheet_rows, kept, kept_path)
        rows = {}
        for row in sheet_rows:
            label = HALLUCINATION_LABELS.get(row.cells[LABEL_COLUMN].strip().lower())
            if label is None:
                raise DataError(f"{sheet.name}: row {row.number}, column '{LABEL_COLUMN}' is "
                                f"{row.cells[LABEL_COLUMN]!r}; use hallucinated or factual.")
            flag = row.cells["persian_specific"].strip().lower()
            if task == "qa" and not (affirmative(flag) or negative(flag)):
                raise DataError(f"{sheet.name}: row {row.number}, column 'persian_specific' is {flag!r}; use 1 or 0.")
            rows[_item_key(row.cells["id"])] = (label, affirmative(flag))
        per_sheet.append(rows)
    ordered = sorted(kept)
    hallucination = [[rows[i][0] for rows in per_sheet] for i in ordered]
    try:
        report(f"Gwet's AC1, hallucination labels: {gwet_ac1(hallucination, ['hallucinated', 'factual']):.3f}")
        if task == "qa":
            kappa = fleiss_kappa([[rows[i][1] for rows in per_sheet] for i in ordered])
            report(f"Fleiss' kappa, persian_specific: {kappa:.3f}")
    except UndefinedStatistic as error:
        report(f"agreement: n/a ({error})")
    final = out / FINAL_FILE
    validated = 0
    with atomic_open(final, "utf-8", newline="") as handle:
        writer = SheetWriter(handle)
        writer.writerow([*ITEM_COLUMNS, "persian_specific"])
        for item_id, labels in zip(ordered, hallucination):
            if _majority(labels) != "hallucinated":
                continue  # the annotators found the "hallucinated" text factual: not a valid item
            specific = _majority([str(int(rows[item_id][1])) for rows in per_sheet]) if task == "qa" else ""
            writer.writerow([*(kept[item_id].cells[column] for column in ITEM_COLUMNS), specific])
            validated += 1
    report(f"{validated} of {len(ordered)} items validated as hallucinated: {final}")
    return final
