"""The fake FFEs a person kept (the review sheet of `fakes_build`) as a fake set in the layout of `Fake FFEs.csv`,
which `ffe_detection -T fakes=FILE` evaluates (paper Section 3.5: every fake was reviewed by experts)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from figeval.benchmarks.ffe_hallu.dataset import FAKE_CATEGORIES, FAKE_COLUMNS, published_data
from figeval.benchmarks.ffe_hallu.fake_keys import fake_key
from figeval.benchmarks.ffe_hallu.fakes import Known
from figeval.benchmarks.ffe_hallu.fakes_build import RECORD_FILE, REVIEW_COLUMNS, known_lists, load_extra_authentic
from figeval.benchmarks.ffe_hallu.source import SOURCE
from figeval.building import read_build_record, review_answer
from figeval.data.stored import dataset_dir
from figeval.data.table import read_table
from figeval.errors import DataError
from figeval.output import atomic_open, check_outputs
from figeval.resumable import Report
from figeval.spreadsheet import SheetWriter

# What the final file needs of a reviewed sheet (a reviewer may have dropped the check columns).
FINALIZE_COLUMNS = tuple(replace(column, optional=column.name not in ("id", "category", "fake_idiom", "keep"))
                         for column in REVIEW_COLUMNS)
FINAL_HEADER = [column.name for column in FAKE_COLUMNS]


def _recorded_extra(record: Path) -> Path | None:
    """The extra authentic list a build folder was made with (None: none), which the kept fakes are checked
    against as the candidates were: a kept fake that is one of its FFEs is refused.

    Raises:
        FigevalError: the record is damaged, or names a list that is no longer there (the check would be
            skipped without a word).
    """
    extra = read_build_record(record).get("authentic_extra")
    if not extra:
        return None
    if not Path(extra).is_file():
        raise DataError(f"{record}: the build checked its fakes against the authentic list {extra}, which is no "
                        "longer there; put it back, so the kept fakes are checked against it too.")
    return Path(extra)


def finalize_fakes(sheet: Path, out: Path, keep_passing: bool, report: Report) -> tuple[Path, dict[str, int]]:
    """The reviewed sheet's kept rows as a fake set in the layout of `Fake FFEs.csv` (Fake Idiom, Source Idiom,
    Category), which `ffe_detection -T fakes=FILE` evaluates. Returns the file and the rows kept per category.

    Args:
        sheet: the review sheet (DIR/review.csv or a reviewed copy); `keep` yes/no per row.
        out: the file to write (never the sheet).
        keep_passing: also keep rows whose `keep` is empty and that pass every check (for an unattended build;
            the paper had every fake reviewed by experts, Section 3.5). A `no` always drops a row.

    Raises:
        DataError: a `keep` cell that is not yes/no, a kept row without an expression or whose expression is an
            authentic FFE or repeats another kept row, or nothing kept.
    """
    extra = _recorded_extra(out.parent / RECORD_FILE)
    check_outputs([out], [sheet, dataset_dir(SOURCE), *([extra] if extra else [])])
    rows = read_table(sheet, FINALIZE_COLUMNS, filled_by_person=True)
    authentic, published, _ = published_data()
    known: dict[str, Known] = {}
    for item in known_lists(authentic, published, load_extra_authentic(extra) if extra else [])[0]:
        known.setdefault(item.key, item)
    kept, overridden = [], []
    first_row: dict[str, int] = {}
    for row in rows:
        cells = row.cells
        if cells["category"] not in FAKE_CATEGORIES:
            raise DataError(f"{sheet.name}: row {row.number}, column 'category' is {cells['category']!r}; expected "
                            f"one of {list(FAKE_CATEGORIES)}. Restore the value the build wrote.")
        keep = review_answer(sheet, row, "keep", "not reviewed: dropped, or kept by --keep-passing if it passes")
        if not (keep or (keep is None and keep_passing and cells["passes"] == "yes")):
            continue
        text = cells["fake_idiom"]
        if not text:
            raise DataError(f"{sheet.name}: row {row.number} ({cells['id']}) is kept but has no fake_idiom; write "
                            "the expression or set keep to no.")
        key = fake_key(text)
        if key in known:
            raise DataError(f"{sheet.name}: row {row.number} ({cells['id']}) keeps {text!r}, which is an authentic "
                            f"FFE ({known[key].where}); set keep to no.")
        if key in first_row:
            raise DataError(f"{sheet.name}: rows {first_row[key]} and {row.number} keep the same expression "
                            f"{text!r}; keep one of them.")
        first_row[key] = row.number
        if cells["passes"] != "yes":
            overridden.append(cells["id"])
        kept.append(cells)
    if not kept:
        hint = ", or pass --keep-passing to keep every row that passes every check"
        raise DataError(f"{sheet.name}: no row is kept; fill the 'keep' column (yes/no) first"
                        f"{'' if keep_passing else hint}.")
    with atomic_open(out, "utf-8-sig", newline="") as handle:
        writer = SheetWriter(handle)
        writer.writerow(FINAL_HEADER)
        writer.writerows([cells["fake_idiom"], cells["source_idiom"], cells["category"]] for cells in kept)
    if overridden:
        report(f"{len(overridden)} kept rows are not marked as passing every check (kept as the reviewer decided): "
               f"{', '.join(overridden[:10])}{' ...' if len(overridden) > 10 else ''}")
    counts = {category: sum(cells["category"] == category for cells in kept) for category in FAKE_CATEGORIES}
    return out, counts
