"""The evaluation (and verifier) prompts are Figure 7's Persian originals (read from the paper's copy, which lost
the ZWNJ figeval restores)."""

import re

import pytest

from figeval.benchmarks.perhallueval.prompts import EVALUATION_PROMPT, QA_INSTRUCTION, SUMMARIZATION_INSTRUCTION
from tests.conftest import paper_text


def printed(task_heading: str) -> str:
    """Figure 7's prompt for a task, without the copy's bold marks and line-end spaces."""
    figure_7 = paper_text("perhallueval.md").split("Figure 6:", 1)[1].split("Figure 7:", 1)[0]
    block = figure_7.split(task_heading, 1)[1].split("**Input:**", 1)[0].split("**Prompt:**", 1)[1]
    return "\n".join(line.strip() for line in block.replace("**", "").strip().splitlines())


def without_zwnj(text: str) -> str:
    return text.replace("\u200c", "")


@pytest.mark.parametrize("heading, instruction", [("### Question Answering Task", QA_INSTRUCTION),
                                                  ("### Summarization Task", SUMMARIZATION_INSTRUCTION)])
def test_instructions_are_figure_7(heading, instruction):
    assert without_zwnj(instruction) == printed(heading)


def test_one_prompt_per_task_and_no_passage_for_qa():
    assert "{context}" not in EVALUATION_PROMPT["qa"] and "{question}" in EVALUATION_PROMPT["qa"]
    assert "{context}" in EVALUATION_PROMPT["summarization"]
    assert all(re.search(r"\nOutput:$", prompt) for prompt in EVALUATION_PROMPT.values())
