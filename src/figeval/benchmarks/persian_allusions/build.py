"""Building the LLM-Generated dataset (paper Section 2, Table 5): one passage per allusion, then a person's
review. The sheet is written as passages arrive and resumed on a re-run; model calls go through Inspect's
response cache, so nothing is paid twice."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspect_ai.model import get_model

from figeval.answering import DETERMINISTIC, response_cache
from figeval.building import fill_sheet
from figeval.benchmarks.persian_allusions.dataset import Allusion, allusion_key, load_allusion_data, texts_of
from figeval.benchmarks.persian_allusions.review import SHEET_COLUMNS, SHEET_HEADER
from figeval.benchmarks.persian_allusions.prompts import ALLUSIVE_TEXT_PROMPT
from figeval.data.table import Column, read_table
from figeval.errors import DataError
from figeval.parsing import strip_reasoning
from figeval.text import expression_key, has_arabic_script



def passage_of(output: str) -> str:
    """The Persian lines of a model's answer, joined into one paragraph."""
    lines = [line.strip() for line in strip_reasoning(output).splitlines() if has_arabic_script(line)]
    return " ".join(lines)


def load_allusion_list(path: Path) -> list[Allusion]:
    """A CSV with columns allusion, description (theme optional): the allusions to write passages for."""
    rows = read_table(path, (Column("allusion", persian=True), Column("description", persian=True),
                             Column("theme", required=False, optional=True)), unique="allusion")
    return [Allusion(r.cells["allusion"], r.cells["description"], r.cells["theme"] or "other") for r in rows]


def curated_allusions() -> list[Allusion]:
    """The allusions the paper curated for its LLM-Generated set (75, Appendix A 1.3): those its published
    passages allude to, in file order.

    Raises:
        DataError: the LLM-Generated file cannot be used (pass --allusions FILE instead).
    """
    data = load_allusion_data("en")
    try:
        texts = texts_of(data, "generated")
    except DataError as error:
        raise DataError(f"{error} (or pass --allusions FILE with columns allusion, description)") from None
    return list({allusion_key(text.allusion): data.allusions[allusion_key(text.allusion)] for text in texts}.values())


def build_allusive_texts(model_name: str, allusions: list[Allusion], out: Path, model_args: dict[str, Any],
                         report: Callable[[str], None]) -> tuple[int, int]:
    """One passage per allusion into the review sheet `out`; returns (newly written, kept from before)."""
    done = {}
    if out.is_file():
        done = {expression_key(r.cells["allusion"]): r.cells for r in read_table(out, SHEET_COLUMNS) if r.cells["text"]}
    todo = [a for a in allusions if expression_key(a.title) not in done]
    report(f"{len(todo)} passages to write with {model_name} ({len(done)} already written)")
    model = get_model(model_name, **model_args)
    cache = response_cache(model_name)
    async def write(allusion: Allusion) -> dict[str, str]:
        prompt = ALLUSIVE_TEXT_PROMPT.format(allusion=f"{allusion.title}: {allusion.description}")
        output = await model.generate(prompt, config=DETERMINISTIC, cache=cache)
        return {"allusion": allusion.title, "text": passage_of(output.completion), "keep": ""}

    def key_of(allusion: Allusion) -> str:
        return expression_key(allusion.title)

    fill_sheet(out, SHEET_HEADER, done, todo, key_of, write, [key_of(a) for a in allusions], report)
    return len(todo), len(allusions) - len(todo)
