"""Persian allusions tasks (Nobakhtian, Yaghoobzadeh, Pilehvar, "Evaluating Cultural Knowledge and Reasoning in
LLMs Through Persian Allusions"; Section 3, Table 3)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.scorer import Scorer
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver

from figeval.answering import AnswerMode, AnswerModeName, answer_mode_of, answer_solver, asked_in
from figeval.scoring.judge import require_judge
from figeval.benchmarks.persian_allusions.dataset import (
    DatasetName,
    DATASET_NAME,
    AllusionData,
    knowledge_samples,
    load_allusion_data,
    mc_samples,
    open_samples,
    texts_of,
)
from figeval.benchmarks.persian_allusions.prompts import (
    MC_LOGPROB_CUE,
    OPEN_JUDGE_PROMPT,
    PROMPT_VERSION,
    JudgeMode,
    PromptLanguage,
)
from figeval.benchmarks.persian_allusions.review import load_kept_passages
from figeval.benchmarks.persian_allusions.scorer import (
    KNOWLEDGE_POLICIES,
    MC_POLICIES,
    OPEN_POLICIES,
    knowledge_scorer,
    mc_scorer,
    open_scorer,
)
from figeval.errors import FigevalError
from figeval.scoring.metrics import recorded_policies
from figeval.subset import Design
from figeval.task import benchmark_task, identified_task

# Every task reports accuracy by theme (Table 2's six themes; scorer.theme_accuracy), so a `--limit` subset keeps
# every theme, in proportion, counting a text by its first theme. Each sample is its own item.
THEME_DESIGN = Design(strata=("themes",))


def _allusion_data(prompt_lang: str, generated: str | None = None, dataset: str = "generated") -> AllusionData:
    """The data, with the generated passages from a reviewed `figeval build persian-allusions-texts` sheet if given.

    Raises:
        FigevalError: a sheet given for the PersPoems variant, which would not read it.
    """
    if generated is not None and dataset != "generated":
        raise FigevalError("-T generated applies to dataset=generated only; add -T dataset=generated, or leave "
                           "generated out for PersPoems.")
    data = load_allusion_data(prompt_lang)
    if generated is None:
        return data
    return replace(data, generated=load_kept_passages(Path(generated), data.allusions),
                   provenance={**data.provenance, "generated_file": generated})


def _task(name: str, samples: list, scorer: Scorer, policies: dict[str, tuple[str, str]],
          provenance: dict[str, object], solver: Solver | list[Solver] | None = None, **settings: Any) -> Task:
    return benchmark_task(
        benchmark=f"Persian allusions: {name}",
        dataset=MemoryDataset(samples, name=f"{DATASET_NAME}-{name}"),
        solver=solver or generate(),
        scorer=scorer,
        version=PROMPT_VERSION,
        unparsed_policies=recorded_policies(policies),
        provenance=provenance,
        design=THEME_DESIGN,
        **settings,
    )


@solver
def logprob_cue(mode: AnswerMode, cue: str) -> Solver:
    """Appends `cue` to the prompt when the sample's model is asked by logprob (`mode`, or for AUTO its model's), so
    that its next token is the answer; a generated answer gets the prompt as it is."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if asked_in(state, mode) is AnswerMode.LOGPROB:
            state.user_prompt.text += cue
        return state

    return solve


@identified_task()
def allusion_knowledge(prompt_lang: PromptLanguage = "en", judge: str | None = None) -> Task:
    """Does the model know each of the allusions of PersPoems? (Table 6; judged against the description)

    Args:
        prompt_lang: `en` (restating the paper's English) or `fa` (Persian written for this project).
        judge: the judge model; default: Inspect's `grader` role.
    """
    require_judge(judge)
    data = _allusion_data(prompt_lang)
    return _task("knowledge", knowledge_samples(data.allusions, prompt_lang), knowledge_scorer(judge),
                 KNOWLEDGE_POLICIES, data.provenance, prompt_lang=prompt_lang)


# The generated texts are one set for both recognition tasks: the same file is the same setting in either.
@identified_task(files=("generated",))
def allusion_mc(dataset: DatasetName = "perspoems", prompt_lang: PromptLanguage = "en", seed: int = 0,
                generated: str | None = None, answer_mode: AnswerModeName = "auto") -> Task:
    """Which of five allusions does the text refer to (or none)? (Table 7)

    Args:
        dataset: `perspoems` (couplets) or `generated` (prose passages).
        prompt_lang: `en` or `fa`.
        seed: distractors and the answer's position (balanced over 1-5) follow from it; both are recorded.
        generated: with dataset=generated, a reviewed `figeval build persian-allusions-texts` sheet instead of
            upstream's file.
        answer_mode: `generate` (read the answer's text), `logprob` (the option numbers' next-token
            probabilities after the opening of the JSON answer, for base models such as the embedded
            gguf/gemma-3-270m) or `auto` (logprob for gguf/ models, generate otherwise).
    """
    mode = answer_mode_of(answer_mode)
    data = _allusion_data(prompt_lang, generated, dataset)
    samples = mc_samples(texts_of(data, dataset), data.allusions, prompt_lang, seed)
    return _task(f"mc-{dataset}", samples, mc_scorer(mode.value), MC_POLICIES, data.provenance,
                 solver=[logprob_cue(mode, MC_LOGPROB_CUE[prompt_lang]), answer_solver(mode)], answer_mode=mode,
                 dataset_variant=dataset, prompt_lang=prompt_lang, seed=seed)


@identified_task(files=("generated",))
def allusion_open(
    dataset: DatasetName = "perspoems", prompt_lang: PromptLanguage = "en", judge_mode: JudgeMode = "gt",
    judge: str | None = None, generated: str | None = None,
) -> Task:
    """Name the allusion in the text, open-ended (Table 8); a judge labels the answer correct or incorrect.

    Args:
        dataset: `perspoems` or `generated`.
        prompt_lang: `en` or `fa`.
        judge_mode: `gt` (the judge sees the allusion and its description) or `no_gt` (it does not).
        judge: the judge model; default: Inspect's `grader` role.
        generated: with dataset=generated, a reviewed `figeval build persian-allusions-texts` sheet.
    """
    if judge_mode not in OPEN_JUDGE_PROMPT:
        raise FigevalError(f"judge_mode must be one of {list(OPEN_JUDGE_PROMPT)}, not {judge_mode!r}.")
    require_judge(judge)
    data = _allusion_data(prompt_lang, generated, dataset)
    samples = open_samples(texts_of(data, dataset), prompt_lang)
    return _task(f"open-{dataset}", samples, open_scorer(judge_mode, judge), OPEN_POLICIES, data.provenance,
                 dataset_variant=dataset, prompt_lang=prompt_lang, judge_mode=judge_mode)


# A reviewed sheet of generated passages is a setting of the runs on those passages only: a paper run gives
# `-T generated=` to them and not to its PersPoems runs, which a standalone run with the file refuses.
for _recognition in (allusion_mc, allusion_open):
    _recognition.argument_conditions = {"generated": {"dataset": "generated"}}  # type: ignore[attr-defined]
