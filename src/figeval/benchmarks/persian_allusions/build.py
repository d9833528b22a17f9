"""Building the LLM-Generated dataset (paper Section 2.2, Appendix A.1.3, Table 5): a pool of passages per
allusion ("a larger pool of texts was generated, but only 75 were ultimately retained"), then a person's keep/drop
review. The sheet is written as passages arrive and resumed on a re-run, with the model, prompt and allusion list
that wrote it (recorded beside the sheet, `building.sheet_record`); model calls go through Inspect's response
cache, so nothing is paid twice."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspect_ai.model import GenerateConfig

from figeval.answering import DETERMINISTIC, response_cache
from figeval.building import (
    check_build_outputs,
    file_setting,
    grown_list,
    model_files,
    open_model,
    read_build_record,
    refuse_other_settings,
    sheet_record,
    text_sha256,
)
from figeval.resumable import fill_sheet, resumed_rows
from figeval.benchmarks.persian_allusions.dataset import Allusion, load_allusion_data, texts_of
from figeval.benchmarks.persian_allusions.review import SHEET_COLUMNS, SHEET_HEADER, passage_id, passage_number
from figeval.benchmarks.persian_allusions.prompts import ALLUSIVE_TEXT_PROMPT
from figeval.benchmarks.persian_allusions.titles import allusion_key
from figeval.benchmarks.persian_allusions.source import SOURCE
from figeval.data.stored import dataset_dir
from figeval.data.table import Column, read_table
from figeval.errors import DataError, FigevalError
from figeval.output import write_text
from figeval.parsing import strip_reasoning
from figeval.text import expression_key, has_arabic_script

# The paper prints neither its pool's size nor its sampling settings. Passage 1 is the model's deterministic
# answer (what a pool of one holds); each further passage is sampled with a seed of its own, which also makes it
# a response-cache entry of its own, so that a pool holds different passages and growing it keeps the first ones.
POOL_TEMPERATURE = 1.0
# Ours: the paper prints no pool size (Section 2.2: "a larger pool of texts was generated, but only 75 were
# ultimately retained"; Appendix A 1.3). Every passage is a model call and a passage a person reads: 10 per
# allusion is 750 passages for the paper's 75 allusions, more than a review keeping one per allusion needs, and a
# typo (5000) is refused before anything is asked.
MAX_PER_ALLUSION = 10
# What decides the sheet's content, by the option that gives it: resumed with another model, prompt or list, one
# sheet would hold two builds' passages. A list may grow at its end (only the new allusions are asked); an entry
# changed, dropped or moved would change a passage's prompt or its id (its allusion's number in the list).
ALLUSIVE_SETTINGS = {"model": "--model", "prompt_sha256": "the passage prompt", "allusions": "--allusions"}
DEFAULT_LIST = "the paper's 75 (default)"


def check_per_allusion(per_allusion: int) -> None:
    """Raises FigevalError: `--per-allusion` outside 1..MAX_PER_ALLUSION."""
    if not 1 <= per_allusion <= MAX_PER_ALLUSION:
        raise FigevalError(f"--per-allusion must be between 1 and {MAX_PER_ALLUSION} (passages per allusion, each a "
                           f"model call and a passage to review; the paper prints no pool size), not {per_allusion}.")


def passage_config(passage: int) -> GenerateConfig:
    """The generation settings of an allusion's passage number `passage` (from 1)."""
    return DETERMINISTIC if passage == 1 else DETERMINISTIC.merge(GenerateConfig(temperature=POOL_TEMPERATURE,
                                                                                 seed=passage))


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


PassageKey = tuple[str, int]
"""An allusion's title as a key, and the passage's number among its passages."""


def _written(out: Path) -> dict[PassageKey, dict[str, str]]:
    """The passages a sheet already holds (the later copy of a row written twice), by allusion and number."""
    return {(expression_key(row.cells["allusion"]), passage_number(out, row)): row.cells
            for row in resumed_rows(out, SHEET_COLUMNS) if row.cells["text"]}


def build_allusive_texts(model_name: str, allusions: list[Allusion], out: Path, model_args: dict[str, Any],
                         report: Callable[[str], None], per_allusion: int = 1,
                         listed_in: Path | None = None) -> tuple[int, int, list[str]]:
    """`per_allusion` passages for each allusion into the review sheet `out`, each with a stable id
    (`passage_id`); returns (newly written, kept from before, the ids of passages the model wrote no Persian for:
    not written, since an empty passage is nothing to review or keep).

    Args:
        listed_in: the file the allusions were read from (`load_allusion_list`), never to be written over; the
            stored dataset is never written over either.

    Raises:
        FigevalError: per_allusion is outside 1..MAX_PER_ALLUSION, or the sheet was built with another model,
            prompt or list of allusions (its record beside it).
        DataError: the sheet holds passages of an allusion the list lacks (it was built from another list).
    """
    check_per_allusion(per_allusion)
    check_build_outputs(out, [listed_in, dataset_dir(SOURCE), *model_files([model_name])])
    model = open_model(model_name, "--model", **model_args)
    numbers = {expression_key(allusion.title): number for number, allusion in enumerate(allusions, start=1)}
    done = _written(out)
    strangers = [cells["allusion"] for (key, _), cells in done.items() if key not in numbers]
    if strangers:
        raise DataError(f"{out.name} holds passages of {strangers[0]!r}, which is not among the {len(allusions)} "
                        "allusions given: resume it with the list it was built from, or build into another sheet.")
    # the list by what the prompts take from it, in order (its order numbers the ids)
    entries = [[allusion.title, allusion.description] for allusion in allusions]
    settings = {"model": model_name, "prompt_sha256": text_sha256(ALLUSIVE_TEXT_PROMPT),
                "allusions": file_setting(str(listed_in) if listed_in else DEFAULT_LIST, entries)}
    if done:  # a sheet without passages holds nothing to mix with
        refuse_other_settings(out, read_build_record(sheet_record(out)), settings, ALLUSIVE_SETTINGS,
                              same={"allusions": grown_list})
    for (key, passage), cells in done.items():  # ids follow the list (a sheet without ids gets them)
        cells["id"] = passage_id(numbers[key], passage)
    planned = [(allusion, passage) for allusion in allusions for passage in range(1, per_allusion + 1)]

    def key_of(item: tuple[Allusion, int]) -> PassageKey:
        return expression_key(item[0].title), item[1]

    todo = [item for item in planned if key_of(item) not in done]
    # -M arguments are not recorded: they may hold keys, and they choose where the model runs, not what it writes
    write_text(sheet_record(out), json.dumps(settings, ensure_ascii=False, indent=1))
    report(f"{len(todo)} passages to write with {model_name}, {per_allusion} per allusion "
           f"({len(done)} already written)")
    cache = response_cache(model_name)

    async def write(item: tuple[Allusion, int]) -> dict[str, str] | None:
        allusion, passage = item
        prompt = ALLUSIVE_TEXT_PROMPT.format(allusion=f"{allusion.title}: {allusion.description}")
        output = await model.generate(prompt, config=passage_config(passage), cache=cache)
        text = passage_of(output.completion)
        return {"id": passage_id(numbers[key_of(item)[0]], passage), "allusion": allusion.title, "text": text,
                "keep": ""} if text else None

    # passages an earlier, larger pool wrote stay in the sheet with their review
    order = sorted({key_of(item) for item in planned} | set(done), key=lambda key: (numbers[key[0]], key[1]))
    empty = fill_sheet(out, SHEET_HEADER, done, todo, key_of, write, order, report)
    return len(todo) - len(empty), len(planned) - len(todo), [passage_id(numbers[key], passage)
                                                               for key, passage in empty]
