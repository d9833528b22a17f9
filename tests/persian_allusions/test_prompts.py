"""The English knowledge, multiple-choice and open-ended prompts are Tables 6-8 as printed (read from the paper's
copy; its typesetting removed)."""

import re

import pytest

from figeval.benchmarks.persian_allusions.prompts import KNOWLEDGE_PROMPT, MC_PROMPT, OPEN_PROMPT
from tests.conftest import paper_text


def printed_lines(heading: str, caption: str) -> list[str]:
    """The printed prompt between its heading and its table caption, one entry per line: markdown marks, code
    fences and list dashes removed; the copy's right-to-left numbering "1 .Detection:" read as "1. Detection:"."""
    paper = paper_text("persian-allusions.md")
    start = paper.index(heading)
    block = paper[start + len(heading): paper.index(caption, start)]
    lines = []
    for line in block.splitlines():
        line = re.sub(r"^#+\s*", "", line.replace("**", "").replace("`", "").strip())
        line = re.sub(r"^-\s+(\d)\s*\.\s*", r"\1. ", line)
        line = re.sub(r"^-\s+", "- ", line)
        if line:
            lines.append(line)
    return lines


def plain(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("heading, caption, prompt", [
    ("### Translated Prompt: Allusion Knowledge Test", "Table 6:",
     KNOWLEDGE_PROMPT["en"].format(allusion="{allusion}")),
    ("### Translated Prompt: Allusion Detection Test\n\nI will present", "Table 7:",
     MC_PROMPT["en"].format(text="{text}", options="1. {option_1}")),
    ("### Translated Prompt: Allusion Detection Test\n\nI intend", "Table 8:", OPEN_PROMPT["en"].format(text="{text}")),
], ids=["table6-knowledge", "table7-mc", "table8-open"])
def test_prompt_is_the_printed_table(heading, caption, prompt):
    lines = printed_lines(heading, caption)
    assert len(lines) > 15
    missing = [line for line in lines if "{option_" not in line and plain(line) not in plain(prompt)]
    assert not missing, missing


def test_passage_generation_prompt_is_table_5():
    from figeval.benchmarks.persian_allusions.prompts import ALLUSIVE_TEXT_PROMPT

    lines = printed_lines("### Translated Prompt: Creative Literary Text Generation with Allusions", "Table 5:")
    assert len(lines) > 15
    prompt = ALLUSIVE_TEXT_PROMPT.format(allusion="{allusion}")
    missing = [line for line in lines if plain(line) not in plain(prompt)]
    assert not missing, missing


def test_the_default_allusions_are_the_curated_ones(allusions_imported):
    # the fixture's LLM-Generated file alludes to 3 allusions (the paper's: 75)
    from figeval.benchmarks.persian_allusions.build import curated_allusions
    from figeval.benchmarks.persian_allusions.dataset import load_allusion_data

    chosen = curated_allusions()
    generated = load_allusion_data("en").generated
    assert [a.title for a in chosen] == list(dict.fromkeys(text.allusion for text in generated))


def test_each_prompt_table_offers_exactly_the_languages_and_judge_modes_the_tasks_take():
    from typing import get_args

    from figeval.benchmarks.persian_allusions import prompts as allusions

    for table in (allusions.KNOWLEDGE_PROMPT, allusions.MC_PROMPT, allusions.OPEN_PROMPT):
        assert tuple(table) == get_args(allusions.PromptLanguage)
    assert tuple(allusions.OPEN_JUDGE_PROMPT) == get_args(allusions.JudgeMode)
