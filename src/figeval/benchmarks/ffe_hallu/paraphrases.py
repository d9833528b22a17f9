"""Paraphrased meanings for FFE-HALLU's Task 1 (paper Section 3.1: `meaning=paraphrased`), written by a model into a
sheet a person verifies.

The sheet is written as answers arrive, so an interrupted build loses nothing; a re-run keeps every row that
already has a paraphrase (and its `verified` cell) and asks only for the rest, with the model and prompt that wrote
them (recorded beside the sheet, `building.sheet_record`). Calls also go through Inspect's response cache, so even
a lost sheet is rebuilt without paying again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspect_ai.model import GenerateConfig

from figeval.answering import DETERMINISTIC, response_cache
from figeval.benchmarks.ffe_hallu.dataset import PARAPHRASE_COLUMNS, authentic_dataset
from figeval.benchmarks.ffe_hallu.prompts import PARAPHRASE_PROMPT
from figeval.building import (
    check_build_outputs,
    model_files,
    open_model,
    read_build_record,
    refuse_other_settings,
    sheet_record,
    text_sha256,
)
from figeval.benchmarks.ffe_hallu.source import SOURCE
from figeval.data.stored import dataset_dir
from figeval.errors import DataError
from figeval.output import write_text
from figeval.parsing import strip_reasoning
from figeval.resumable import Report, fill_sheet, resumed_rows
from figeval.text import has_arabic_script

SHEET_HEADER = [column.name for column in PARAPHRASE_COLUMNS]
# A paraphrase is one sentence: a short budget is enough.
PARAPHRASE_CONFIG = DETERMINISTIC.merge(GenerateConfig(max_tokens=256))
# What decides a paraphrase sheet's content, by the option that gives it: resumed with another model (or prompt),
# one sheet would hold two models' paraphrases. The data are pinned (and their checksums recorded beside these).
PARAPHRASE_SETTINGS = {"model": "--model", "prompt_sha256": "the paraphrase prompt"}


def paraphrase_of(output: str) -> str:
    """The first line of Persian in a model's answer, without surrounding quotes; empty if there is none."""
    for line in strip_reasoning(output).splitlines():
        if has_arabic_script(line):
            return line.strip().strip("\"'«»“”*").strip()
    return ""


def _existing_rows(out: Path, evaluated: Sequence[int]) -> dict[int, dict[str, str]]:
    """The rows a resumed sheet holds, by authentic row number (the later copy of a row written twice).

    Raises:
        DataError: a row number that is not one of the `evaluated` rows (the sheet was edited), naming the row.
    """
    rows = {}
    for row in resumed_rows(out, PARAPHRASE_COLUMNS):
        cell = row.cells["row"]
        number = int(cell) if cell.isascii() and cell.isdigit() else None
        if number is None or number not in evaluated:
            raise DataError(f"{out.name}: row {row.number}, column 'row' is {cell!r}, not the number of an evaluated "
                            f"authentic FFE ({min(evaluated)}-{max(evaluated)}); restore the number the build wrote, "
                            "or remove the row (its meaning is asked again).")
        rows[number] = row.cells
    return rows


def build_paraphrases(model_name: str, out: Path, model_args: dict[str, Any], report: Report) -> tuple[int, int]:
    """Write one paraphrase per evaluated authentic FFE to `out`; returns (newly written, kept from before)."""
    # the stored FFE-HALLU files are an input, never to be written over
    check_build_outputs(out, [dataset_dir(SOURCE), *model_files([model_name])])
    model = open_model(model_name, "--model", **model_args)
    items, data_provenance = authentic_dataset()
    existing = _existing_rows(out, [item.row for item in items])
    settings = {"model": model_name, "prompt_sha256": text_sha256(PARAPHRASE_PROMPT)}
    if existing:  # a sheet without rows holds nothing to mix with
        refuse_other_settings(out, read_build_record(sheet_record(out)), settings, PARAPHRASE_SETTINGS)
    # -M arguments are not recorded: they may hold keys, and they choose where the model runs, not what it writes
    write_text(sheet_record(out), json.dumps({**settings, **data_provenance}, ensure_ascii=False, indent=1))
    rows = {row: cells for row, cells in existing.items() if cells["paraphrase"]}
    todo = [item for item in items if item.row not in rows]
    reused = len(items) - len(todo)
    report(f"{len(todo)} meanings to paraphrase with {model_name} ({reused} already done)")
    cache = response_cache(model_name)

    async def paraphrase(item) -> dict[str, str] | None:
        output = await model.generate(PARAPHRASE_PROMPT.format(meaning=item.meaning), config=PARAPHRASE_CONFIG,
                                      cache=cache)
        text = paraphrase_of(output.completion)
        return {"row": str(item.row), "farsi_idiom": item.expression, "Meaning": item.meaning, "paraphrase": text,
                "verified": ""} if text else None

    missing = fill_sheet(out, SHEET_HEADER, rows, todo, lambda item: item.row, paraphrase, [item.row for item in items],
                         report)
    if missing:
        report(f"{len(missing)} answers had no Persian paraphrase and were not written (rows {missing[:10]}): their "
               "meanings are not asked with meaning=paraphrased")
    return len(todo) - len(missing), reused
