"""The prompts are Appendix A's and D's text as the paper prints them (read from the paper's copy), with the
placeholders filled as the prompts module documents."""

import re

import pytest

from figeval.benchmarks.ffe_hallu import prompts
from tests.conftest import paper_text

# Lines of the printed prompts that are placeholders, filled by figeval (checked separately below).
PLACEHOLDERS = ("[PUT", "[IDIOM", "[PROVERB", "LLM outputed idiom", "LLM translated idiom", "reference idiom",
                "reference meaning")


def plain(text: str) -> str:
    """The paper's markdown typesetting removed: bold/italic marks, escaped underscores; spaces folded."""
    text = text.replace("\\_", "_").replace("**", "").replace("*", "")
    return re.sub(r"[ \t]+", " ", text)


def section(start: str, end: str | None) -> str:
    """The paper's text between two headings (to its end with `end=None`), typesetting removed."""
    paper = paper_text("ffe-hallu.md")
    body = paper[paper.index(start) + len(start):]
    return plain(body[: body.index(end)] if end else body)


def printed_lines(start: str, end: str | None) -> list[str]:
    lines = [line.strip() for line in section(start, end).splitlines()]
    return [line for line in lines if line and not line.startswith("#") and not any(p in line for p in PLACEHOLDERS)
            and line not in ("```", "}")]


def contains(prompt: str, line: str) -> bool:
    return plain(line) in plain(prompt)


def test_detection_questions_are_appendix_a_1_2():
    block = section("### 1.2 Task 2: Fake FFE Detection", "### 1.3")
    printed = re.findall(r"(You are a careful verifier.*?in Persian\?) Expected Answer: (Yes|No)", block)
    by_answer = {answer: text for text, answer in printed}
    # Section 3.2 / Table 4: the fake-framed question's right answer for a fabricated expression is Yes
    assert prompts.FAKE_QUESTION == by_answer["Yes"] + "\nExpression: {expression}\nAnswer:"
    assert prompts.REAL_QUESTION == by_answer["No"] + "\nExpression: {expression}\nAnswer:"


def test_generation_prompt_is_appendix_a_1_1():
    lines = printed_lines("### 1.1 Task 1: FFE Generation from Meaning", "### 1.2")
    assert len(lines) == 2  # the role paragraph and the task (the example and meaning lines are placeholders)
    for line in lines:
        assert contains(prompts.GENERATION_SYSTEM_PROMPT, line), line
    # the examples' printed format, with our fills
    assert "1) Idiom: کلاه سر کسی گذاشتن → Meaning: کسی را فریب دادن" in prompts.GENERATION_SYSTEM_PROMPT
    assert "\n\n2) Proverb: هر که بامش بیش برفش بیشتر → Meaning: " in prompts.GENERATION_SYSTEM_PROMPT
    assert "Meaning (Persian): [PUT_MEANING_HERE]" in section("### 1.1 Task 1", "### 1.2")
    assert prompts.GENERATION_USER_PROMPT == "Meaning (Persian): {meaning}"


def test_translation_prompt_is_appendix_a_1_3():
    printed = section("### 1.3 Task 3: FFE to FFE Translation", "## B Dataset").split("#### System Prompt", 1)[1]
    instruction, placeholder = printed.strip().split(" English_FFE: ")
    assert prompts.TRANSLATION_SYSTEM_PROMPT == instruction
    assert placeholder.startswith("[PUT_En_FFE_HERE]")
    assert prompts.TRANSLATION_USER_PROMPT == "English_FFE: {english}"


@pytest.mark.parametrize("start, end, system, prompt", [
    ("### 4.1 Task 1: Automatic Evaluation of Persian Expressions", "### 4.2", prompts.GENERATION_JUDGE_SYSTEM_PROMPT,
     prompts.GENERATION_JUDGE_PROMPT["paper"]),
    ("### 4.2 Task 3: FFE-to-FFE Translation (English → Persian)", None, prompts.TRANSLATION_JUDGE_SYSTEM_PROMPT,
     prompts.TRANSLATION_JUDGE_PROMPT["paper"]),
], ids=["task1", "task3"])
def test_judge_prompts_are_appendix_d(start, end, system, prompt):
    lines = printed_lines(start, end)
    assert lines[0] == system  # the printed system prompt
    missing = [line for line in lines[1:] if not contains(prompt, line)]
    assert not missing, missing


def test_the_human_variant_changes_only_where_literal_output_goes():
    paper, human = prompts.GENERATION_JUDGE_PROMPT["paper"], prompts.GENERATION_JUDGE_PROMPT["human"]
    assert "If only literal, assign Label 2." in paper and "If only literal, assign Label 0." in human
    changed = [line for line in human.splitlines() if line not in paper.splitlines()]
    assert len(changed) == 3  # label 0, label 2, procedure step 2
