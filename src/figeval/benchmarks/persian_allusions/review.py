"""The review sheet of generated allusive passages (`figeval build persian-allusions-texts`): its columns, the
ids of its passages, and the passages a reviewer kept, as the LLM-Generated dataset (paper Section 2.2: "a larger
pool of texts was generated, but only 75 were ultimately retained")."""

from __future__ import annotations

import re
from pathlib import Path

from figeval.benchmarks.persian_allusions.dataset import Allusion, AllusionText
from figeval.benchmarks.persian_allusions.titles import allusion_key, story_hint
from figeval.building import review_answer
from figeval.data.table import Column, Row, read_table
from figeval.errors import DataError

# `id` is absent from sheets written when the builder wrote one passage per allusion: such a row is passage 1.
SHEET_COLUMNS = (Column("id", required=False, optional=True), Column("allusion", persian=True),
                 Column("text", required=False, persian=True), Column("keep", required=False))
SHEET_HEADER = [column.name for column in SHEET_COLUMNS]
_PASSAGE_ID = re.compile(r"generated-(\d+)/(\d+)")


def passage_id(number: int, passage: int) -> str:
    """A passage's id: its allusion's number in the list the build was given (from 1, in file order) and its own
    number among that allusion's passages, "generated-017/2"; the same list gives the same ids on every run."""
    return f"generated-{number:03d}/{passage}"


def passage_number(path: Path, row: Row) -> int:
    """Which of its allusion's passages a sheet row is (1 for a sheet without ids).

    Raises:
        DataError: the id is not one the builder writes (it was edited), naming the row.
    """
    cell = row.cells["id"].strip()
    if not cell:
        return 1
    found = _PASSAGE_ID.fullmatch(cell)
    if found is None:
        raise DataError(f"{path.name}: row {row.number} has id {cell!r}; ids look like 'generated-017/2' (allusion 17, "
                        "passage 2): restore it, or empty the cell to make the row passage 1.")
    return int(found.group(2))


def load_kept_passages(path: Path, allusions: dict[str, Allusion]) -> list[AllusionText]:
    """The reviewed sheet's passages marked keep=yes, as the `generated` dataset; each keeps its id in the sheet
    (a sheet without ids: generated-<row number>). A `keep` of no or empty (not reviewed yet) drops its row.

    Raises:
        DataError: a `keep` cell that is not yes, no or empty (a mark such as "✓" is not taken for either), a kept
            row with no text or about an allusion the knowledge list lacks, an edited id, two rows of one id, or
            nothing kept.
    """
    kept: list[AllusionText] = []
    first_row: dict[str, int] = {}
    for row in read_table(path, SHEET_COLUMNS):
        if not review_answer(path, row, "keep", "not reviewed yet: the row is dropped"):
            continue
        if not row.cells["text"].strip():
            raise DataError(f"{path.name}: row {row.number} is marked keep=yes but its 'text' is empty; write the "
                            "passage there, or mark the row no.")
        known = allusions.get(allusion_key(row.cells["allusion"]))
        if known is None:
            titles = [allusion.title for allusion in allusions.values()]
            raise DataError(f"{path.name}: row {row.number} is about {row.cells['allusion']!r}, not in the knowledge "
                            f"list.{story_hint(row.cells['allusion'], titles, 'the knowledge list')}")
        passage_number(path, row)  # an edited id is named here, before it becomes a sample id
        passage = row.cells["id"].strip() or f"generated-{row.number:03d}"
        if passage in first_row:
            raise DataError(f"{path.name}: rows {first_row[passage]} and {row.number} are both {passage!r}; keep one "
                            "of them, or give the other the id of a passage its allusion lacks.")
        first_row[passage] = row.number
        kept.append(AllusionText(passage, row.cells["text"], known.title, known.description, (known.theme,)))
    if not kept:
        raise DataError(f"{path.name}: no row is marked keep=yes; review the sheet first.")
    return kept
