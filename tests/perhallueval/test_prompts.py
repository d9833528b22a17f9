"""The evaluation (and verifier) prompts are Figure 7's Persian originals (read from the paper's copy, which lost
the ZWNJ figeval restores)."""

import re

import pytest

from figeval.benchmarks.perhallueval.prompts import (
    EVALUATION_PROMPT,
    GENERATION_INSTRUCTION,
    QA_INSTRUCTION,
    SUMMARIZATION_INSTRUCTION,
    generation_prompt,
)
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


PERSIAN_ANSWER_SENTENCE = "All the texts are in Persian, and you must answer in Persian too."


def figure_cells(caption: str) -> str:
    """The right-hand cells of Figure 9 or 10 (goal, patterns, examples, rules) as one line of text: the copy's
    table rows end just above the caption; row labels, HTML marks and runs of spaces removed."""
    paper = paper_text("perhallueval.md")
    rows = paper.split(caption, 1)[0].strip().rsplit("\n\n", 1)[1].splitlines()
    cells = [re.sub(r"</?(?:b|p)>", " ", row.split("\t", 1)[1]) for row in rows]
    return " ".join(" ".join(cells).split())


@pytest.mark.parametrize("task, caption", [("qa", "Figure 9: The prompt used for QA"),
                                           ("summarization", "Figure 10: The prompt used for Summarization")])
def test_generation_instructions_are_figures_9_and_10(task, caption):
    sent = " ".join(GENERATION_INSTRUCTION[task].split())
    # Figure 9 says it itself; Figure 10 gets it as a documented fill
    assert PERSIAN_ANSWER_SENTENCE in sent
    if task == "summarization":
        sent = " ".join(sent.replace(PERSIAN_ANSWER_SENTENCE, "").split())
    assert sent == figure_cells(caption)


def test_generation_prompt_ends_with_the_label_the_generator_completes():
    # an item's inputs come after the instruction, under the figures' labels; braces in inputs stay literal
    prompt = generation_prompt("qa", context="متن {x}", question="پرسش؟", correct="پاسخ")
    assert prompt.endswith("\n\n#Knowledge#: متن {x}\n#Question#: پرسش؟\n#Right Answer#: پاسخ\n#Hallucinated Answer#:")
    summary = generation_prompt("summarization", context="مقاله", question="", correct="خلاصه")
    assert summary.endswith("\n\n#Knowledge Text#: مقاله\n#Right Summary#: خلاصه\n#Hallucinated Summary#:")
