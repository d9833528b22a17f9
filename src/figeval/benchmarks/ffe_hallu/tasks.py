"""FFE-HALLU tasks (Hosseini, Yousefzadeh, Yaghoobzadeh, "FFE-Hallu: Hallucinations in Fixed Figurative
Expressions: A Benchmark of Idioms and Proverbs in the Persian Language", EACL 2026)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.solver import generate, system_message

from figeval.answering import AnswerModeName, answer_mode_of, answer_solver
from figeval.benchmarks.ffe_hallu.dataset import (
    Meaning,
    DATASET_NAME,
    authentic_dataset,
    generation_samples,
    load_detection_data,
    load_translation_pairs,
    MEANINGS,
    load_verified_paraphrases,
    translation_samples,
)
from figeval.benchmarks.ffe_hallu.prompts import (
    JudgePrompt,
    GENERATION_PROMPT_VERSION,
    GENERATION_SYSTEM_PROMPT,
    JUDGE_PROMPT_VERSION,
    PROMPT_VERSION,
    TRANSLATION_PROMPT_VERSION,
    TRANSLATION_SYSTEM_PROMPT,
)
from figeval.benchmarks.ffe_hallu.scorer import (
    DETECTION_POLICIES,
    check_judge_prompt,
    JUDGED_POLICIES,
    OpenTask,
    detection_scorer,
    ffe_judged_scorer,
)
from figeval.data.stored import sha256_of
from figeval.errors import DataError, FigevalError
from figeval.scoring.metrics import recorded_policies
from figeval.subset import PLAIN, Design
from figeval.task import benchmark_task, identified_task

# "Each fabricated FFE is tested under both prompt types" (Section 3.2): Table 4's average and agreement need both
# framings of an item; Figure 1 reports by construction category (Section 3.4), and the controls (ours) are as
# many authentic FFEs. A `--limit` subset takes whole items, every category and the controls, in proportion.
DETECTION_DESIGN = Design(unit="item", asked_as="framing", strata=("kind", "category"))
# Tasks 1 and 3 ask each FFE once and report no group (Tables 2-3, 5): the first N samples are a fair subset.
OPEN_DESIGN = PLAIN


@identified_task(files=("fakes",))
def ffe_detection(controls: bool = True, answer_mode: AnswerModeName = "auto", fakes: str | None = None) -> Task:
    """FFE-HALLU Task 2: does the model accept fabricated Persian idioms and proverbs as real?

    Each of the 200 fabricated FFEs is asked under two framings: "is it a fake idiom or proverb?" (fake-q)
    and "is it a real one?" (real-q). Metrics follow Table 4 (hallucination rate per framing, their mean and
    agreement, per category) plus `unparsed_rate` and, with controls, `false_rejection_rate`.

    Args:
        controls: Also ask about the 200 authentic FFEs under both framings. The paper asks only about
            fakes, where a model that calls everything fake scores perfectly; the controls expose that.
        answer_mode: `generate` (parse the free-text answer), `logprob` (compare the next token's
            probabilities of Yes and No; for base models such as the embedded gguf/gemma-3-270m) or `auto`
            (logprob for gguf/ models, generate otherwise).
        fakes: a fake set of your own instead of the published 200 (a CSV in the layout of `Fake FFEs.csv`:
            Fake Idiom, Source Idiom, Category; `figeval build ffe-hallu-fakes` + `ffe-hallu-fakes-final` write
            one). The metrics are the same; the log records the file's sha256 and `fake_set: custom`, and
            `figeval report` sets the run beside the published set's (the contamination check). A row that is one
            of the authentic FFEs (compared as the fakes' checks compare: spacing and punctuation aside) is
            refused: asked as a fake, knowing it would count as a hallucination.
    """
    mode = answer_mode_of(answer_mode)
    data = load_detection_data(controls, Path(fakes) if fakes else None)
    return benchmark_task(
        benchmark="FFE-HALLU Task 2 (detection of fabricated FFEs)",
        dataset=data.dataset,
        solver=answer_solver(mode),
        scorer=detection_scorer(mode.value),
        version=PROMPT_VERSION,
        unparsed_policies=DETECTION_POLICIES,
        provenance=data.provenance,
        answer_mode=mode,
        design=DETECTION_DESIGN,
        controls=controls,
        fake_set=data.fake_set,
    )


@identified_task(files=("paraphrases",))
def ffe_generation(meaning: Meaning = "human", paraphrases: str | None = None, judge: str | None = None,
                   judge_prompt: JudgePrompt = "paper", judge_every_output: bool = True,
                   known_idiom_hint: bool = False) -> Task:
    """FFE-HALLU Task 1: give a Persian idiom or proverb for a meaning; a judge labels the answer.

    All 200 authentic FFEs (the prompt's two examples are from outside the benchmark). An answer equal to the
    reference is correct without a judge call; an answer equal to another authentic FFE exists, so the judge only
    decides between correct and incorrect.

    Args:
        meaning: `human` (the dictionary meaning in the file) or `paraphrased` (verified paraphrases).
        paraphrases: with `meaning=paraphrased`, the sheet from `figeval build ffe-hallu-paraphrases`, its `verified`
            column filled by a person; unverified rows are dropped and counted (a sheet with no verified row is
            refused).
        judge: the judge model (provider/model); default: Inspect's `grader` role (--model-role grader=...).
        judge_prompt: `paper` (Appendix D 4.1 as printed: "literal only" is label 2) or `human` (literal output
            is hallucinated, as in the human scheme of Section 3.1(c)).
        judge_every_output: the judge labels every output, as the paper's judges did (Section 5, Table 6), also
            those a rule decides (an answer equal to the reference is correct whatever the judge says) or that
            could not be read (counted hallucinated); its label there is recorded for Table 6 only. `false`
            saves those calls; Table 6 then covers only the answers the judge decided.
        known_idiom_hint: ours, off by default: the judge is told that an answer equal to an authentic FFE is a
            known idiom and asked for label 1 or 2. Off, every judge prompt is Appendix D as printed.
    """
    check_judge_prompt(judge_prompt)
    authentic, provenance = authentic_dataset()
    items = authentic
    metadata: dict[str, Any] = {"meaning": meaning}  # the log's settings: `benchmark_task`'s **settings
    if meaning == "human":
        if paraphrases is not None:
            raise FigevalError("-T paraphrases applies to meaning=paraphrased only; add -T meaning=paraphrased, or "
                               "leave paraphrases out for the dictionary meanings.")
        samples = generation_samples(items)
    elif meaning == "paraphrased":
        if paraphrases is None:
            raise FigevalError(
                "meaning=paraphrased needs -T paraphrases=PATH: the sheet `figeval build ffe-hallu-paraphrases` "
                "writes, with its 'verified' column filled."
            )
        kept, dropped = load_verified_paraphrases(Path(paraphrases), {item.row for item in items})
        if not kept:  # else Inspect's "The specified dataset is empty" traceback
            raise DataError(f"{Path(paraphrases).name}: no row is verified (none of its {dropped} rows says yes); "
                            "fill its 'verified' column (yes for each paraphrase a person checked), then run again.")
        samples = generation_samples(items, kept)
        metadata.update(paraphrases=paraphrases, paraphrases_dropped=dropped)
        print(f"ffe_generation: {len(samples)} verified paraphrases used, {dropped} unverified rows dropped",
              file=sys.stderr)
    else:
        raise FigevalError(f"meaning must be one of {list(MEANINGS)}, not {meaning!r}.")
    return benchmark_task(
        benchmark="FFE-HALLU Task 1 (FFE generation from meaning)",
        dataset=MemoryDataset(samples, name=f"{DATASET_NAME}-generation"),
        solver=[system_message(GENERATION_SYSTEM_PROMPT), generate()],
        scorer=ffe_judged_scorer(OpenTask.GENERATION.value, [a.expression for a in authentic], judge, judge_prompt,
                                 judge_every_output, known_idiom_hint),
        version=f"{GENERATION_PROMPT_VERSION}+{JUDGE_PROMPT_VERSION}",
        unparsed_policies=recorded_policies(JUDGED_POLICIES),
        provenance=provenance,
        design=OPEN_DESIGN,
        judge=judge,
        judge_prompt=judge_prompt,
        judge_prompt_version=JUDGE_PROMPT_VERSION,
        judge_every_output=judge_every_output,
        known_idiom_hint=known_idiom_hint,
        **metadata,
    )


@identified_task(files=("pairs",))
def ffe_translation(pairs: str | None = None, judge: str | None = None, judge_prompt: JudgePrompt = "paper",
                    judge_every_output: bool = True, known_idiom_hint: bool = False) -> Task:
    """FFE-HALLU Task 3: give the Persian equivalent of an English idiom or proverb; a judge labels the final choice.

    Args:
        pairs: a CSV of English idioms and their Persian equivalents (columns 'English Idiom', 'Farsi Idiom',
            equivalents separated by '|'). Required: upstream's own pairs file is damaged.
        judge: the judge model (provider/model); default: Inspect's `grader` role (--model-role grader=...).
        judge_prompt: `paper` (Appendix D 4.2 as printed) or `human` (a literal, word-for-word translation is
            hallucinated, as in the human scheme of Section 3.3).
        judge_every_output: as in `ffe_generation`: the judge labels every output (Table 6); `false` saves the
            calls for answers a rule decides or that could not be read.
        known_idiom_hint: as in `ffe_generation` (ours, off by default).
    """
    check_judge_prompt(judge_prompt)
    translation_pairs = load_translation_pairs(Path(pairs) if pairs else None)
    authentic, provenance = authentic_dataset()
    known = [a.expression for a in authentic] + [p for pair in translation_pairs for p in pair.persian]
    return benchmark_task(
        benchmark="FFE-HALLU Task 3 (English -> Persian FFE translation)",
        dataset=MemoryDataset(translation_samples(translation_pairs), name=f"{DATASET_NAME}-translation"),
        solver=[system_message(TRANSLATION_SYSTEM_PROMPT), generate()],
        scorer=ffe_judged_scorer(OpenTask.TRANSLATION.value, known, judge, judge_prompt, judge_every_output,
                                 known_idiom_hint),
        version=f"{TRANSLATION_PROMPT_VERSION}+{JUDGE_PROMPT_VERSION}",
        unparsed_policies=recorded_policies(JUDGED_POLICIES),
        provenance=provenance,
        design=OPEN_DESIGN,
        pairs_file=pairs,
        pairs_sha256=sha256_of(Path(pairs)) if pairs else None,
        judge=judge,
        judge_prompt=judge_prompt,
        judge_prompt_version=JUDGE_PROMPT_VERSION,
        judge_every_output=judge_every_output,
        known_idiom_hint=known_idiom_hint,
    )
