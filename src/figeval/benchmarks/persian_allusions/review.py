"""The review sheet of generated allusive passages (`figeval build allusive-texts`): its columns, and the
passages a reviewer kept, as the LLM-Generated dataset (paper Section 2)."""

from __future__ import annotations

from pathlib import Path

from figeval.benchmarks.persian_allusions.dataset import Allusion, AllusionText, allusion_key
from figeval.data.table import Column, affirmative, read_table
from figeval.errors import DataError

SHEET_COLUMNS = (Column("allusion", persian=True), Column("text", required=False, persian=True), Column("keep", required=False))
SHEET_HEADER = [column.name for column in SHEET_COLUMNS]


def load_kept_passages(path: Path, allusions: dict[str, Allusion]) -> list[AllusionText]:
    """The reviewed sheet's passages marked keep=yes, as the `generated` dataset."""
    kept = []
    for row in read_table(path, SHEET_COLUMNS):
        if not affirmative(row.cells["keep"]) or not row.cells["text"]:
            continue
        known = allusions.get(allusion_key(row.cells["allusion"]))
        if known is None:
            raise DataError(f"{path.name}: row {row.number} is about {row.cells['allusion']!r}, not in the knowledge list.")
        kept.append(AllusionText(f"generated-{row.number:03d}", row.cells["text"], known.title, known.description, (known.theme,)))
    if not kept:
        raise DataError(f"{path.name}: no row is marked keep=yes; review the sheet first.")
    return kept
