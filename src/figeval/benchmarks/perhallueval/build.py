"""Building PerHalluEval (paper Section 3): select -> generate hallucinated candidates -> keep the one the verifier
finds most believable -> human validation -> the final file. This module runs steps 1-4 (`build`; step 1 is
`build_selection`'s) and holds the folder's layout; step 5 is `build_final`'s.

Every step writes to the build folder as it goes and skips what is already there, so an interrupted build
resumes where it stopped; model calls also go through Inspect's response cache, so nothing is paid twice.

  DIR/selected.jsonl     the chosen source items (step 1; for QA, DIR/pquad_categories.csv to fill)
  DIR/candidates.jsonl   one hallucinated candidate per item and generator (step 2)
  DIR/verified.jsonl     the verifier's P(Y), P(N) for each candidate (step 3)
  DIR/kept.csv           the most believable candidate per item; the sheet annotators label (step 4)
  DIR/build_record.json  the settings a resume must keep (from step 1 on), then what steps 2-4 found
  DIR/final.csv          validated items, the benchmark file the tasks read (step 5, `build_final.finalize`):
                         their cells from kept.csv, the labels from three annotators' copies of it
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

from inspect_ai.model import Model

from figeval.answering import DETERMINISTIC, ONE_TOKEN_LOGPROBS, response_cache
from figeval.benchmarks.perhallueval.build_selection import CATEGORY_SHEET, SELECTED_FILE, check_strata, select
from figeval.benchmarks.perhallueval.dataset import LABEL_COLUMN
from figeval.benchmarks.perhallueval.sources import PN_SUMMARY, PQUAD
from figeval.benchmarks.perhallueval.prompts import (EVALUATION_PROMPT, GENERATION_PROMPT_VERSION,
                                                     GENERATION_INSTRUCTION, generation_prompt)
from figeval.benchmarks.perhallueval.verifier import believability
from figeval.data.stored import sha256_of
from figeval.building import check_build_outputs, model_files, open_model, read_build_record, refuse_other_settings
from figeval.errors import FigevalError
from figeval.output import atomic_open, write_text
from figeval.parsing import strip_reasoning
from figeval.resumable import Report, resumable_step
from figeval.scoring.readers import next_token_top_logprobs
from figeval.spreadsheet import SheetWriter

VERIFIER_CONFIG = DETERMINISTIC.merge(ONE_TOKEN_LOGPROBS)
LENGTH_TOLERANCE = 5  # words (Section 3.2)
# kept.csv: the item as the build wrote it, then the two columns annotators fill (Section 3.4).
ITEM_COLUMNS = ("id", "source", "context", "question", "correct", "hallucinated", "generator", "verifier_score")
ANNOTATOR_COLUMNS = (LABEL_COLUMN, "persian_specific")
KEPT_HEADER = [*ITEM_COLUMNS, *ANNOTATOR_COLUMNS]
CANDIDATES_FILE, VERIFIED_FILE, KEPT_FILE, RECORD_FILE, FINAL_FILE = (
    "candidates.jsonl", "verified.jsonl", "kept.csv", "build_record.json", "final.csv")
# What every record of a step file holds (a record without one was edited: `read_jsonl` names its line).
CANDIDATE_FIELDS = ("item", "generator", "text", "length_ok")
VERIFIED_FIELDS = ("p_yes", "p_no", "score", "has_answer")


# A label a generator echoes before its text ("پاسخ نادرست:", "خلاصه‌ی نادرست:", "#Hallucinated Answer#:" of
# Figures 9-10, and the like).
_ECHOED_LABEL = re.compile(
    r"^\s*(?:(?:پاسخ|خلاصه)(?:[\s\u200c]*ی)?(?:\s*(?:نادرست|ساختگی|توهمی|جدید))?"
    r"|#?(?:(?:hallucinated|incorrect|wrong|false)\s+(?:answer|summary)|answer|summary)#?)\s*[:：\-–]\s*",
    re.IGNORECASE,
)


def candidate_of(output: str) -> str:
    """A generator's hallucinated text: its answer without reasoning, quotes, markdown or an echoed label."""
    lines = [_ECHOED_LABEL.sub("", line.replace("**", "")).strip() for line in strip_reasoning(output).splitlines()]
    return " ".join(line for line in lines if line).strip("\"'«»“” ")


def most_believable(scores: dict[str, float], seed: int, item_id: str) -> tuple[str, list[str]]:
    """The candidate with the highest believability score; candidates tied at the top are drawn among with a
    seeded draw (the seed and the item id), never by generator order. Returns (chosen key, the tied keys)."""
    top = max(scores.values())
    tied = sorted(key for key, score in scores.items() if score == top)
    return (tied[0] if len(tied) == 1 else random.Random(f"{seed}:{item_id}").choice(tied)), tied


def build_files(task: str, out: Path, categories: Path | None, stratify: str = "category") -> list[str]:
    """The files a build writes in its folder: the steps' and, for QA stratified by category, the category sheet
    to fill, unless categories are given (an input then)."""
    names = [SELECTED_FILE, CANDIDATES_FILE, VERIFIED_FILE, KEPT_FILE, RECORD_FILE]
    return names + ([CATEGORY_SHEET] if task == "qa" and stratify == "category" and categories is None else [])


def stratification(task: str, stratify: str, categories: Path | None) -> dict[str, object]:
    """What the selection was stratified by, as the build record says it: Section 3.1's categories (with the file
    they came from) or, ours, PQuAD's articles; summarization's length clusters."""
    if task != "qa":
        return {"stratified_by": "article length, 40 clusters (Section 3.1)"}
    if stratify == "article":
        return {"stratified_by": "article (ours: PQuAD's published files carry no topical category; Section 3.1 "
                                 "stratifies by its 19 categories)"}
    return {"stratified_by": "category (Section 3.1)",
            "categories": {"file": categories.name, "sha256": sha256_of(categories)} if categories else None}


# The settings a build folder keeps for good (recorded in DIR/build_record.json from the first run on), by the
# option that gives each: resumed with others, one sheet would mix two builds. The seed fixes the selection and
# the tie-breaks; the generators, which candidates there are (compared as a set: their order changes nothing
# kept); the verifier, which candidate wins; the source files (by name, in order), the 'source' cell of every row.
RESUMED_SETTINGS = {"seed": "--seed", "generators": "--generator", "verifier": "--verifier", "sources": "--source",
                    "stratify": "--stratify"}


def _same_generators(recorded: object, given: object) -> bool:
    """The generators in any order: each candidate is keyed by its generator's name, whatever the order given."""
    if isinstance(recorded, list) and isinstance(given, list):
        return sorted(map(str, recorded)) == sorted(map(str, given))
    return recorded == given


def _check_record(out: Path, settings: dict[str, object]) -> dict:
    """The folder's build record ({} when there is none yet), once its settings are found to be these
    (RESUMED_SETTINGS; sources by their file names): a build folder resumes only with the settings it was started
    with (`building.refuse_other_settings`).

    Raises:
        FigevalError: naming the option, the recorded value and the given one (or a record that is not one).
    """
    before = read_build_record(out / RECORD_FILE)
    refuse_other_settings(out, before, settings, RESUMED_SETTINGS, same={"generators": _same_generators})
    return before


def _repeated(names: Sequence[str]) -> str | None:
    """The first name given more than once."""
    return next((name for number, name in enumerate(names) if name in names[:number]), None)


def default_sources(task: str) -> list[Path]:
    """The stored upstream files of a task's items (PQuAD's three splits for QA, PN-Summary's three for
    summarization: Section 3.1 samples from all of each), fetched and verified first if missing."""
    from figeval.data.store import require

    return list(require(PQUAD if task == "qa" else PN_SUMMARY).values())


def build(task: str, source: Path | Sequence[Path], n: int, generators: Sequence[str | Model], verifier: str | Model,
          out: Path, seed: int, report: Report, enforce_length: bool = False, categories: Path | None = None,
          stratify: str = "category") -> Path:
    """Steps 1-4: select, generate, verify, keep. Returns the sheet for human validation (DIR/kept.csv).

    The +-5-word length rule is an instruction to the generators (Section 3.2): candidates that break it are kept
    and counted, unless `enforce_length` drops them (ours, off by default); items that lose every candidate to
    it are reported as such, apart from the items the verifier cannot rank. DIR/build_record.json records the
    settings a resume must keep (seed, generators, verifier, source files, what QA is stratified by: refused when
    another is given), what the selection was stratified by, the length violations and the ties broken. A
    generator given twice is refused (one candidate per generator).
    """
    if task not in GENERATION_INSTRUCTION:
        raise FigevalError(f"task must be 'qa' or 'summarization', not {task!r}.")
    twice = _repeated([str(generator) for generator in generators])
    if twice is not None:
        # each generator gives one candidate per item (Section 3.2: three candidates from three LLMs)
        raise FigevalError(f"--generator {twice} is given twice; give each generator once.")
    check_strata(task, stratify, categories)
    sources = [source] if isinstance(source, Path) else list(source)
    check_build_outputs(out, [*sources, categories, *model_files([*generators, verifier])],
                        files=build_files(task, out, categories, stratify))
    generator_models = [open_model(generator, "--generator") for generator in generators]
    verifier_model = open_model(verifier, "--verifier")
    names = [str(model) for model in generator_models]
    settings: dict[str, object] = {"seed": seed, "generators": names, "verifier": str(verifier_model),
                                   "sources": [path.name for path in sources], "stratify": stratify}
    recorded = _check_record(out, settings)
    items = {item.id: item for item in select(task, sources, n, seed, out, report, categories, stratify)}
    # a resume reads the stored selection back: what it was stratified by is what the first run recorded
    settings |= ({"stratified_by": recorded["stratified_by"], "categories": recorded.get("categories")}
                 if "stratified_by" in recorded else stratification(task, stratify, categories))
    # recorded from the first run on, so that a resume after a kill is checked too
    write_text(out / RECORD_FILE, json.dumps({**recorded, **settings}, ensure_ascii=False, indent=1))
    source_names = "+".join(path.name for path in sources)

    def generate_one(model: Model):
        name = str(model)

        async def work(key: str) -> dict:
            item = items[key.split("|", 1)[0]]
            length = len(item.correct.split())
            prompt = generation_prompt(task, context=item.context, question=item.question, correct=item.correct)
            output = await model.generate(prompt, config=DETERMINISTIC, cache=response_cache(name))
            text = candidate_of(output.completion)
            return {"item": item.id, "generator": name, "text": text,
                    "length_ok": bool(text) and abs(len(text.split()) - length) <= LENGTH_TOLERANCE}

        return work

    candidates: dict[str, dict] = {}
    for model, name in zip(generator_models, names):
        keys = [f"{item_id}|{name}" for item_id in items]
        candidates |= resumable_step(out / CANDIDATES_FILE, keys, generate_one(model),
                                     f"step 2, candidates from {name}", report, CANDIDATE_FIELDS)
    in_build = [key for key, c in candidates.items() if c["item"] in items]
    empty = [key for key in in_build if not candidates[key]["text"]]
    too_far = [key for key in in_build if candidates[key]["text"] and not candidates[key]["length_ok"]]
    usable = [key for key in in_build
              if candidates[key]["text"] and (candidates[key]["length_ok"] or not enforce_length)]
    report(f"{len(too_far)} candidates break the length rule (more than {LENGTH_TOLERANCE} words from the correct "
           f"text): {'dropped (--enforce-length)' if enforce_length else 'kept, as the paper only instructs it'}; "
           f"{len(empty)} empty candidates dropped")
    lost_to_length = {candidates[key]["item"] for key in too_far} - {candidates[key]["item"] for key in usable}

    async def verify(key: str) -> dict:
        candidate = candidates[key]
        item = items[candidate["item"]]
        # Section 3.5: the verifier is asked exactly what evaluated models are asked
        prompt = EVALUATION_PROMPT[task].format(context=item.context, question=item.question, answer=candidate["text"])
        output = await verifier_model.generate(prompt, config=VERIFIER_CONFIG,
                                               cache=response_cache(str(verifier_model)))
        result = believability(next_token_top_logprobs(output))
        return {"p_yes": result.p_yes, "p_no": result.p_no, "score": result.score, "has_answer": result.has_answer}

    verified = resumable_step(out / VERIFIED_FILE, usable, verify, "step 3, verifier scores", report, VERIFIED_FIELDS)
    by_item: dict[str, dict[str, float]] = defaultdict(dict)
    for key in usable:
        if verified[key]["has_answer"]:
            by_item[candidates[key]["item"]][key] = verified[key]["score"]
    best: dict[str, tuple[float, str]] = {}
    ties: dict[str, list[str]] = {}
    for item_id, scores in by_item.items():
        chosen, tied = most_believable(scores, seed, item_id)
        best[item_id] = (scores[chosen], chosen)
        if len(tied) > 1:
            ties[item_id] = tied
    unranked = len(items) - len(best) - len(lost_to_length)
    report(f"step 4: {len(best)} items kept; {unranked} excluded (no candidate with a Y/N token from the verifier); "
           f"{len(lost_to_length)} lost to the length rule; {len(ties)} ties broken by a seeded draw")
    record = {**settings, "generation_prompt_version": GENERATION_PROMPT_VERSION, "enforce_length": enforce_length,
              "length_violations": sorted(too_far),
              "lost_to_length": sorted(lost_to_length), "ties": {item: {"tied": tied, "chosen": best[item][1]}
                                                               for item, tied in sorted(ties.items())}}
    write_text(out / RECORD_FILE, json.dumps(record, ensure_ascii=False, indent=1))
    shares = Counter(candidates[key]["generator"] for _, key in best.values())
    for name in names:
        report(f"  kept from {name}: {shares[name] / max(1, len(best)):.1%}")
    sheet = out / KEPT_FILE
    with atomic_open(sheet, "utf-8-sig", newline="") as handle:
        writer = SheetWriter(handle)
        writer.writerow(KEPT_HEADER)
        for item_id, (score, key) in sorted(best.items()):
            item = items[item_id]
            writer.writerow([item.id, source_names, item.context, item.question, item.correct,
                             candidates[key]["text"], candidates[key]["generator"], f"{score:.4f}", "", ""])
    return sheet
