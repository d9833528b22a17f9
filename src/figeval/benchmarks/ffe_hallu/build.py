"""Building FFE-HALLU data with a model: paraphrased meanings for Task 1 (paper Section 3.1).

The sheet is written as answers arrive, so an interrupted build loses nothing; a re-run keeps every row that
already has a paraphrase (and its `verified` cell) and asks only for the rest. Calls also go through Inspect's
response cache, so even a lost sheet is rebuilt without paying again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspect_ai.model import GenerateConfig, get_model

from figeval.answering import DETERMINISTIC, response_cache
from figeval.building import fill_sheet
from figeval.benchmarks.ffe_hallu.dataset import (
    PARAPHRASE_COLUMNS,
    authentic_dataset,
)
from figeval.benchmarks.ffe_hallu.prompts import PARAPHRASE_PROMPT
from figeval.data.table import read_table
from figeval.parsing import strip_reasoning
from figeval.text import has_arabic_script

SHEET_HEADER = [column.name for column in PARAPHRASE_COLUMNS]
# A paraphrase is one sentence: a short budget is enough.
PARAPHRASE_CONFIG = DETERMINISTIC.merge(GenerateConfig(max_tokens=256))


def paraphrase_of(output: str) -> str:
    """The first line of Persian in a model's answer, without surrounding quotes; empty if there is none."""
    for line in strip_reasoning(output).splitlines():
        if has_arabic_script(line):
            return line.strip().strip("\"'«»“”*").strip()
    return ""


def _existing_rows(out: Path) -> dict[int, dict[str, str]]:
    if not out.is_file():
        return {}
    return {int(row.cells["row"]): row.cells for row in read_table(out, PARAPHRASE_COLUMNS)}


def build_paraphrases(
    model_name: str, out: Path, model_args: dict[str, Any], report: Callable[[str], None]
) -> tuple[int, int]:
    """Write one paraphrase per evaluated authentic FFE to `out`; returns (newly written, kept from before)."""
    items = authentic_dataset()[0]
    rows = {row: cells for row, cells in _existing_rows(out).items() if cells["paraphrase"]}
    todo = [item for item in items if item.row not in rows]
    reused = len(items) - len(todo)
    report(f"{len(todo)} meanings to paraphrase with {model_name} ({reused} already done)")
    model = get_model(model_name, **model_args)
    cache = response_cache(model_name)

    async def paraphrase(item) -> dict[str, str]:
        output = await model.generate(PARAPHRASE_PROMPT.format(meaning=item.meaning), config=PARAPHRASE_CONFIG, cache=cache)
        return {"row": str(item.row), "farsi_idiom": item.expression, "Meaning": item.meaning,
                "paraphrase": paraphrase_of(output.completion), "verified": ""}

    fill_sheet(out, SHEET_HEADER, rows, todo, lambda item: item.row, paraphrase, [item.row for item in items], report)
    missing = [row for row, cells in rows.items() if not cells["paraphrase"]]
    if missing:
        report(f"{len(missing)} answers had no Persian paraphrase (rows {missing[:10]}); re-run to ask again")
    return len(todo), reused
