"""PerHalluEval's families (Table 4) and the rule that takes a run's model name to one of the paper's models."""

import pytest

from figeval.benchmarks.perhallueval.families import (
    FAMILIES, PAPER_MODELS, family_label, family_notes, family_of, paper_model,
)
from tests.conftest import paper_text


def test_the_thirteen_models_and_their_families_as_the_paper_names_them():
    # Appendix A's Table 3 lists 13 models; Table 4 (rows and caption) and Section 3.5 put them in families
    assert {model.name: model.family for model in PAPER_MODELS} == {
        "GPT-4o": "OpenAI",
        "Claude Sonnet 4": "Anthropic", "Claude Sonnet 3.7": "Anthropic", "Claude Haiku 3.5": "Anthropic",
        "Gemini 1.5 Flash": "Gemini", "Gemini 2.0 Flash": "Gemini", "Gemini 2.0 Flash-Lite-preview": "Gemini",
        "Llama 3.1 8B": "Open-Source Multilingual models", "Llama 3.3 70B": "Open-Source Multilingual models",
        "Qwen 2.5 7B": "Open-Source Multilingual models",
        "Dorna": "Fine-tuned on Persian", "Dorna2": "Fine-tuned on Persian", "PersianMind": "Fine-tuned on Persian",
    }


def test_names_and_identifiers_are_the_papers_text():
    text = paper_text("perhallueval.md")
    table_4 = text[text.index("Family\tTask\tMetric"):text.index("Table 4: Comparison")]
    for family in FAMILIES[:-1]:  # Table 4's four rows (OpenAI is in its caption only)
        assert f"\n{family}\t" in table_4
    assert "Model families include Anthropic, OpenAI, Gemini" in text
    for model in PAPER_MODELS:
        assert f"\t{model.identifier}\t" in text  # Table 3's Identifier / Repo column
        if model.name != "GPT-4o":  # GPT-4o is in Table 3 only
            assert f"{model.name}\tQA\t" in text  # its Table 2 row


@pytest.mark.parametrize("model, expected", [
    # Table 3's identifiers, with the providers a user runs them through
    ("openai/gpt-4.1-2025-04-14", "GPT-4o"),
    ("anthropic/claude-sonnet-4-20250514", "Claude Sonnet 4"),
    ("vllm/meta-llama/Llama-3.3-70B-Instruct", "Llama 3.3 70B"),
    ("vllm/Qwen/Qwen2.5-7B-Instruct", "Qwen 2.5 7B"),
    ("hf/PartAI/Dorna2-Llama3.1-8B-Instruct", "Dorna2"),
    ("vllm/universitytehran/PersianMind-v1.0", "PersianMind"),
    # the same models under a version tag or another server's spelling
    ("openai/gpt-4.1", "GPT-4o"),  # Table 3's identifier without its date
    ("openai/gpt-4o", "GPT-4o"),  # Table 3's name
    ("anthropic/claude-sonnet-4-0", "Claude Sonnet 4"),
    ("anthropic/claude-3-7-sonnet-latest", "Claude Sonnet 3.7"),
    ("openrouter/anthropic/claude-3.5-haiku", "Claude Haiku 3.5"),
    ("google/gemini-2.0-flash-001", "Gemini 2.0 Flash"),
    ("google/gemini-2.0-flash-lite", "Gemini 2.0 Flash-Lite-preview"),
    ("google/gemini-2.0-flash-lite-preview-02-05", "Gemini 2.0 Flash-Lite-preview"),
    ("openai-api/ollama/llama3.1:8b", "Llama 3.1 8B"),
    ("openai-api/together/meta-llama/Meta-Llama-3.1-8B-Instruct", "Llama 3.1 8B"),
    # not the paper's models: never matched by a prefix or a loose number
    ("openai-api/deepseek/deepseek-chat", None),
    ("openai/gpt-4o-mini", None),
    ("openai/gpt-4.1-mini", None),
    ("anthropic/claude-sonnet-4-5", None),  # Claude Sonnet 4.5, not 4
    ("google/gemini-1.5-flash-8b", None),
    ("vllm/meta-llama/Llama-3.1-70B-Instruct", None),  # Section 3.5's slip; Tables 2-4 and 3's repository say 3.3
    ("vllm/google/gemma-3-27b", None),
    ("gguf/gemma-3-270m", None),
])
def test_a_runs_model_name_to_the_papers_model(model, expected):
    found = paper_model(model)
    assert (found.name if found else None) == expected


def test_the_user_names_a_family_and_an_unknown_model_is_its_own():
    named = {"openai-api/deepseek/deepseek-chat": "open-source multilingual models",  # the paper's, any case
             "vllm/google/gemma-3-27b": "Gemma",  # a family of the user's
             "openai/gpt-4.1": "Mine"}  # a name overrides the paper's
    assert family_of("openai-api/deepseek/deepseek-chat", named) == "Open-Source Multilingual models"
    assert family_of("vllm/google/gemma-3-27b", named) == "Gemma"
    assert family_of("openai/gpt-4.1", named) == "Mine"
    assert family_of("openai/gpt-4.1", {}) == "OpenAI"
    assert family_of("vllm/mistralai/Mistral-7B-Instruct-v0.3", named) is None
    assert family_label("vllm/mistralai/Mistral-7B-Instruct-v0.3", named) == (
        "unknown family: vllm/mistralai/Mistral-7B-Instruct-v0.3")


def test_notes_say_which_model_each_run_was_taken_to_be_and_how_to_name_a_family():
    notes = family_notes(["anthropic/claude-3-5-haiku-20241022", "openai-api/deepseek/deepseek-chat", "x/y"],
                         {"x/y": "Mine", "typo/model": "Gemini"})
    assert ("Taken to be the paper's models: anthropic/claude-3-5-haiku-20241022 = Claude Haiku 3.5 (Anthropic)."
            in notes)
    assert "Named with --family: x/y = Mine." in notes
    [unknown] = [note for note in notes if note.startswith("openai-api/deepseek/deepseek-chat")]
    assert "none of the paper's thirteen models" in unknown
    assert "figeval report --family openai-api/deepseek/deepseek-chat=FAMILY" in unknown
    assert any(note.startswith("--family names typo/model, which no run here has") for note in notes)
