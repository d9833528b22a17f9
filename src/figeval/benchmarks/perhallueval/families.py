"""PerHalluEval's model families (Table 4), the paper's thirteen models in them, and how a run's model name is
matched to one of those models.

Table 4 groups the evaluated models by family and names four in its rows (Anthropic, Gemini, Fine-tuned on
Persian, Open-Source Multilingual models) and a fifth in its caption (OpenAI). Who belongs where is from
Section 3.5 ("models that are explicitly fine-tuned on Persian datasets ... Dorna, Dorna2, and PersianMind. Other
multilingual open-source models are Llama 3.1 8B Instruct, Llama 3.1 70B Instruct, and Qwen 2.5 7B"; Anthropic's
three Claude models; "Google's Gemini family") and from Appendix A's Table 3, which lists thirteen models with their
API identifiers or Hugging Face repositories. The paper contradicts itself in two places, and this table follows
Table 3 (the identifiers a reproduction runs):
- Section 3.5 counts 12 models; Table 3 adds GPT-4o, with the identifier gpt-4.1-2025-04-14, and no table or figure
  reports it. Both names match it; its family is the caption's "OpenAI".
- Section 3.5 says "Llama 3.1 70B Instruct"; Tables 2-4 say Llama 3.3 70B, Table 3's repository is
  meta-llama/Llama-3.3-70B-Instruct.

A model the paper did not evaluate has no family here: the user names it (`figeval report --family MODEL=FAMILY`),
or it stays a row of its own, never merged into a family by its name.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

ANTHROPIC = "Anthropic"
OPENAI = "OpenAI"
GEMINI = "Gemini"
FINE_TUNED_ON_PERSIAN = "Fine-tuned on Persian"
OPEN_SOURCE_MULTILINGUAL = "Open-Source Multilingual models"
# Table 4's rows in its order; OpenAI, named in the caption only, after them.
FAMILIES = (ANTHROPIC, GEMINI, FINE_TUNED_ON_PERSIAN, OPEN_SOURCE_MULTILINGUAL, OPENAI)

UNKNOWN_FAMILY = "unknown family: {model}"


@dataclass(frozen=True)
class PaperModel:
    """One of the paper's models: its name as Table 2 prints it (GPT-4o: as Table 3 does), its Table 4 family,
    Table 3's identifier, and other names the same model is served under (provider aliases, OpenRouter's and
    Ollama's spellings)."""

    name: str
    family: str
    identifier: str
    aliases: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """Every name that matches, lowercased: the identifier's last part (a repository's model name) and the
        aliases."""
        return tuple(name.lower() for name in (self.identifier.rsplit("/", 1)[-1], *self.aliases))


PAPER_MODELS = (
    PaperModel("GPT-4o", OPENAI, "gpt-4.1-2025-04-14", ("gpt-4o",)),
    PaperModel("Claude Sonnet 4", ANTHROPIC, "claude-sonnet-4-20250514", ("claude-sonnet-4",)),
    PaperModel("Claude Sonnet 3.7", ANTHROPIC, "claude-3-7-sonnet-20250219", ("claude-3.7-sonnet",)),
    PaperModel("Claude Haiku 3.5", ANTHROPIC, "claude-3-5-haiku-20241022", ("claude-3.5-haiku",)),
    PaperModel("Gemini 1.5 Flash", GEMINI, "gemini-1.5-flash"),
    PaperModel("Gemini 2.0 Flash", GEMINI, "gemini-2.0-flash"),
    # Table 2 names it "Gemini 2.0 Flash-Lite-preview", Tables 3 and 4 "Gemini 2.0 Flash-lite".
    PaperModel("Gemini 2.0 Flash-Lite-preview", GEMINI, "gemini-2.0-flash-lite",
               ("gemini-2.0-flash-lite-preview", "gemini-2.0-flash-lite-preview-02-05")),
    PaperModel("Llama 3.1 8B", OPEN_SOURCE_MULTILINGUAL, "meta-llama/Llama-3.1-8B-Instruct",
               ("meta-llama-3.1-8b-instruct", "llama3.1:8b")),
    PaperModel("Llama 3.3 70B", OPEN_SOURCE_MULTILINGUAL, "meta-llama/Llama-3.3-70B-Instruct", ("llama3.3:70b",)),
    PaperModel("Qwen 2.5 7B", OPEN_SOURCE_MULTILINGUAL, "Qwen/Qwen2.5-7B-Instruct",
               ("qwen-2.5-7b-instruct", "qwen2.5:7b")),
    PaperModel("Dorna", FINE_TUNED_ON_PERSIAN, "PartAI/Dorna-Llama3-8B-Instruct"),
    PaperModel("Dorna2", FINE_TUNED_ON_PERSIAN, "PartAI/Dorna2-Llama3.1-8B-Instruct"),
    PaperModel("PersianMind", FINE_TUNED_ON_PERSIAN, "universitytehran/PersianMind-v1.0"),
)

# A served model's version tag: a date (Anthropic's -20250514, OpenAI's -2025-04-14), Google's -001, Anthropic's
# alias -0 (claude-sonnet-4-0), -latest. Not any number: claude-sonnet-4-5 is another model than claude-sonnet-4.
_VERSION_TAG = re.compile(r"-(?:\d{8}|\d{4}-\d{2}-\d{2}|\d{3}|0|latest)$")


def paper_model(model: str) -> PaperModel | None:
    """The paper's model a run's model name denotes, or None.

    The rule: the name's last part ("openai/gpt-4.1" -> "gpt-4.1", "vllm/Qwen/Qwen2.5-7B-Instruct" ->
    "Qwen2.5-7B-Instruct"), ignoring case and without a version tag (a date, -001, -0, -latest), is one of
    the model's names without theirs: Table 3's identifier (for a repository, its model name) or an alias. Nothing
    looser (no prefix or substring), so that gemini-2.0-flash-lite is never Gemini 2.0 Flash, gpt-4o-mini never
    GPT-4o and claude-sonnet-4-5 never Claude Sonnet 4.
    """
    wanted = _untagged(model.rsplit("/", 1)[-1].lower())
    return next((known for known in PAPER_MODELS if wanted in {_untagged(name) for name in known.names}), None)


def _untagged(name: str) -> str:
    return _VERSION_TAG.sub("", name)


def family_of(model: str, named: Mapping[str, str]) -> str | None:
    """The family the user named for the model (a paper's family in the paper's spelling, whatever its case), else
    the paper's family of the paper's model it is, else None."""
    if model in named:
        return next((family for family in FAMILIES if family.casefold() == named[model].casefold()), named[model])
    known = paper_model(model)
    return known.family if known else None


def family_label(model: str, named: Mapping[str, str], shown: str | None = None) -> str:
    """A Table 4 row's label: the family, or "unknown family: <model>" (a row of the model's own, the model as
    `shown`, the report's name for it, when given)."""
    return family_of(model, named) or UNKNOWN_FAMILY.format(model=shown or model)


def family_notes(models: Iterable[str], named: Mapping[str, str]) -> list[str]:
    """What a reader of Table 4 needs to check the grouping: which paper model each run was taken to be, the
    families the user named, the models with no family and how to name one, names given for no run."""
    models = sorted(set(models))
    notes = ["Families as the paper names them (Table 4; members from Section 3.5 and Appendix A's Table 3)."]
    matched = [(model, paper_model(model)) for model in models if model not in named]
    if found := [f"{model} = {known.name} ({known.family})" for model, known in matched if known]:
        notes.append("Taken to be the paper's models: " + "; ".join(found) + ".")
    if any(known and known.family == OPENAI for _, known in matched):
        notes.append("OpenAI: Table 4's caption names the family but the paper reports no value for it (Appendix A "
                     "lists GPT-4o, identifier gpt-4.1-2025-04-14).")
    if given := [f"{model} = {family_of(model, named)}" for model in models if model in named]:
        notes.append("Named with --family: " + "; ".join(given) + ".")
    for model in models:
        if family_of(model, named) is None:
            notes.append(f"{model} is none of the paper's thirteen models: it has a row of its own. Name its family "
                         f"with `figeval report --family {shlex.quote(model + '=FAMILY')}` "
                         f"(the paper's: {', '.join(FAMILIES)}).")
    if unused := sorted(set(named) - set(models)):
        notes.append(f"--family names {', '.join(unused)}, which no run here has: a model is named as the report "
                     f"shows it (e.g. {models[0] if models else 'openai/gpt-4.1'}).")
    return notes
