"""Building PerHalluEval (paper Section 3): select -> generate hallucinated candidates -> keep the one the verifier
finds most believable -> human validation -> the final file.

Every step writes to the build folder as it goes and skips what is already there, so an interrupted build
resumes where it stopped; model calls also go through Inspect's response cache, so nothing is paid twice.

  DIR/selected.jsonl     the chosen source items (step 1)
  DIR/candidates.jsonl   one hallucinated candidate per item and generator (step 2)
  DIR/verified.jsonl     the verifier's P(Y), P(N) for each candidate (step 3)
  DIR/kept.csv           the most believable candidate per item; the sheet annotators label (step 4)
  DIR/build_record.json  the settings a resume must keep (from step 1 on), then what steps 2-4 found
  DIR/final.csv          validated items, the benchmark file the tasks read (step 5, `finalize`): their cells
                         from kept.csv, the labels from three annotators' copies of it
"""

from __future__ import annotations

import json
import random
import re
import shlex
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict, fields
from pathlib import Path

from inspect_ai.model import Model

from figeval.annotation.answers import normalized_answer
from figeval.answering import DETERMINISTIC, ONE_TOKEN_LOGPROBS, response_cache
from figeval.building import (
    Report,
    check_build_outputs,
    model_files,
    open_model,
    read_build_record,
    read_jsonl,
    resumable_step,
)
from figeval.benchmarks.perhallueval.dataset import LABEL_COLUMN, check_item
from figeval.benchmarks.perhallueval.prompts import EVALUATION_PROMPT, GENERATION_PROMPT_VERSION, GENERATION_INSTRUCTION, generation_prompt
from figeval.benchmarks.perhallueval.selection import (
    SourceItem,
    check_shares,
    length_stratified_sample,
    load_pn_summary,
    load_category_map,
    load_pquad,
    share_table,
    stratified_sample,
)
from figeval.benchmarks.perhallueval.verifier import believability
from figeval.data.table import Column, Row, affirmative, negative, read_table, refuse_same_content
from figeval.errors import DataError, FigevalError
from figeval.output import atomic_open, write_text
from figeval.parsing import strip_reasoning
from figeval.scoring.readers import next_token_top_logprobs
from figeval.spreadsheet import SheetWriter
from figeval.stats import UndefinedStatistic, fleiss_kappa, gwet_ac1

VERIFIER_CONFIG = DETERMINISTIC.merge(ONE_TOKEN_LOGPROBS)
LENGTH_TOLERANCE = 5  # words (Section 3.2)
# kept.csv: the item as the build wrote it, then the two columns annotators fill (Section 3.4).
ITEM_COLUMNS = ("id", "source", "context", "question", "correct", "hallucinated", "generator", "verifier_score")
ANNOTATOR_COLUMNS = (LABEL_COLUMN, "persian_specific")
KEPT_HEADER = [*ITEM_COLUMNS, *ANNOTATOR_COLUMNS]
SELECTED_FILE, CANDIDATES_FILE, VERIFIED_FILE, KEPT_FILE, RECORD_FILE, FINAL_FILE = (
    "selected.jsonl", "candidates.jsonl", "verified.jsonl", "kept.csv", "build_record.json", "final.csv")
CATEGORY_SHEET = "pquad_categories.csv"
# What every record of a step file holds (a record without one was edited: `read_jsonl` names its line).
SELECTED_FIELDS = tuple(field.name for field in fields(SourceItem))
CANDIDATE_FIELDS = ("item", "generator", "text", "length_ok")
VERIFIED_FIELDS = ("p_yes", "p_no", "score", "has_answer")


def select(task: str, sources: Sequence[Path], n: int, seed: int, out: Path, report: Report,
           categories: Path | None = None) -> list[SourceItem]:
    """Step 1 (written once; a re-run reads the same selection back): items of every source file together (for
    PQuAD, its three splits make the paper's "about 80,000 questions"; for PN-Summary, its three splits the
    93,207 articles). `categories` maps PQuAD article titles to categories, which the published files lack.

    Raises:
        DataError: an item id appears in two source files, or PQuAD questions have no category (DIR/
            pquad_categories.csv is then written for a person to fill, unless it is `categories` itself).
        FigevalError: the folder holds another build's selection (another task or number of items).
    """
    path = out / SELECTED_FILE
    if path.is_file():
        return _stored_selection(path, task, n)
    category_map = load_category_map(categories) if categories else None
    items, seen = [], {}
    for source in sources:
        found = load_pquad(source, category_map, need_categories=False) if task == "qa" else load_pn_summary(source)
        for item in found:
            if item.id in seen:
                raise DataError(f"{source.name}: item id {item.id!r} is also in {seen[item.id]}; give each source once.")
            seen[item.id] = source.name
        items += found
    report(f"step 1: {len(items)} source items from {', '.join(source.name for source in sources)}")
    if task == "qa":
        require_categories(items, out / CATEGORY_SHEET, categories)
        chosen = stratified_sample(items, lambda item: item.category, n, seed)
        table = share_table(items, chosen, lambda item: item.category)
        report("category                          source   sample")
        for category, in_source, in_sample in table:
            report(f"{category[:32]:<32} {in_source:>7.2%} {in_sample:>8.2%}")
        check_shares(table)
    else:
        chosen = length_stratified_sample(items, n, seed)
    out.mkdir(parents=True, exist_ok=True)  # only now: a build refused before here leaves no empty folder behind
    with atomic_open(path) as handle:
        for item in chosen:
            handle.write(json.dumps({"key": item.id, **asdict(item)}, ensure_ascii=False) + "\n")
    return chosen


def _stored_selection(path: Path, task: str, n: int) -> list[SourceItem]:
    """The selection an earlier run of this build stored.

    Raises:
        FigevalError: it is another build's (QA items have a question, summarization items none; or another n).
    """
    chosen = [SourceItem(**{name: record[name] for name in SELECTED_FIELDS})
              for record in read_jsonl(path, SELECTED_FIELDS).values()]
    stored_task = "qa" if all(item.question for item in chosen) else "summarization"
    if chosen and (stored_task, len(chosen)) != (task, n):
        raise FigevalError(f"{path.parent} holds a {stored_task} build of {len(chosen)} items, not --task {task} "
                           f"--n {n}: give --task {stored_task} --n {len(chosen)} to resume it, or build into a new "
                           "--out folder.")
    return chosen


def require_categories(items: Sequence[SourceItem], sheet: Path, given: Path | None = None) -> None:
    """Stop before sampling when some questions have no topical category. PQuAD's published files carry none
    (Section 3.1 stratifies by its 19), so the build writes `sheet`: one row per article title, with its
    category where one is known and its number of answerable questions, for a person to fill and pass back as
    --categories. When the categories `given` are that sheet, filled, it is the person's and is not written
    again: the titles still without a category are named instead.

    Raises:
        DataError: naming the sheet and the command that continues.
    """
    missing = {item.title for item in items if not item.category}
    if not missing:
        return
    questions = Counter(item.title for item in items)
    if given is not None and given.resolve() == sheet.resolve():
        first = next(title for title in questions if title in missing)
        raise DataError(f"{len(missing)} of {len(questions)} PQuAD articles have no row in {given} (first: "
                        f"{first!r}); add a row (title, category) for each and run again.")
    known = {item.title: item.category for item in items if item.category}
    sheet.parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(sheet, "utf-8", newline="") as handle:
        writer = SheetWriter(handle)
        writer.writerow(["title", "category", "questions"])
        for title, count in questions.items():
            writer.writerow([title, known.get(title, ""), count])
    raise DataError(
        f"{len(missing)} of {len(questions)} PQuAD articles have no topical category (the published files carry "
        f"none; Section 3.1 stratifies by PQuAD's 19): fill the 'category' column of {sheet} (one row per article "
        f"title) and run again with --categories {shlex.quote(str(sheet))}."
    )


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


def build_files(task: str, out: Path, categories: Path | None) -> list[str]:
    """The files a build writes in its folder: the steps' and, for QA, the category sheet to fill, unless the
    categories given are that sheet (then it is an input)."""
    names = [SELECTED_FILE, CANDIDATES_FILE, VERIFIED_FILE, KEPT_FILE, RECORD_FILE]
    given = categories is not None and categories.resolve() == (out / CATEGORY_SHEET).resolve()
    return names + ([CATEGORY_SHEET] if task == "qa" and not given else [])


# The settings a build folder keeps for good (recorded in DIR/build_record.json from the first run on), by the
# option that gives each: resumed with others, one sheet would mix two builds. The seed fixes the selection and
# the tie-breaks; the generators, which candidates there are (compared as a set: their order changes nothing
# kept); the verifier, which candidate wins; the source files (by name, in order), the 'source' cell of every row.
RESUMED_SETTINGS = {"seed": "--seed", "generators": "--generator", "verifier": "--verifier", "sources": "--source"}


def _as_options(option: str, value: object) -> str:
    """A recorded setting as the options that give it ("--generator a --generator b")."""
    values = value if isinstance(value, list) else [value]
    return " ".join(f"{option} {shlex.quote(str(one))}" for one in values) or f"no {option}"


def _same_setting(name: str, before: object, given: object) -> bool:
    if name == "generators" and isinstance(before, list):
        return sorted(map(str, before)) == sorted(map(str, given))  # type: ignore[call-overload]
    return before == given


def _check_record(out: Path, settings: dict[str, object]) -> dict:
    """The folder's build record ({} when there is none yet), once its settings are found to be these
    (RESUMED_SETTINGS): a build folder resumes only with the settings it was started with.

    A record written before a setting was recorded lacks its field: there is nothing to compare it with, and the
    build resumes (the record then gets the field from this run).

    Raises:
        FigevalError: naming the option, the recorded value and the given one (or a record that is not one).
    """
    before = read_build_record(out / RECORD_FILE)
    for name, option in RESUMED_SETTINGS.items():
        if name in before and not _same_setting(name, before[name], settings[name]):
            names = " (file names)" if name == "sources" else ""
            raise FigevalError(f"{out} was built with {_as_options(option, before[name])}, not "
                               f"{_as_options(option, settings[name])}{names}; give the same to resume it, or build "
                               "into a new --out folder.")
    return before


def _repeated(names: Sequence[str]) -> str | None:
    """The first name given more than once."""
    return next((name for number, name in enumerate(names) if name in names[:number]), None)


def default_sources(task: str) -> list[Path]:
    """The stored upstream files of a task's items (PQuAD's three splits for QA, PN-Summary's three for
    summarization: Section 3.1 samples from all of each), fetched and verified first if missing."""
    from figeval.data.registry import get_source
    from figeval.data.store import require

    return list(require(get_source("pquad" if task == "qa" else "pn-summary")).values())


def build(task: str, source: Path | Sequence[Path], n: int, generators: Sequence[str | Model], verifier: str | Model, out: Path,
          seed: int, report: Report, enforce_length: bool = False, categories: Path | None = None) -> Path:
    """Steps 1-4: select, generate, verify, keep. Returns the sheet for human validation (DIR/kept.csv).

    The +-5-word length rule is an instruction to the generators (Section 3.2): candidates that break it are kept
    and counted, unless `enforce_length` drops them (ours, off by default); items that lose every candidate to
    it are reported as such, apart from the items the verifier cannot rank. DIR/build_record.json records the
    settings a resume must keep (seed, generators, verifier, source files: refused when another is given), the
    length violations and the ties broken. A generator given twice is refused (one candidate per generator).
    """
    if task not in GENERATION_INSTRUCTION:
        raise FigevalError(f"task must be 'qa' or 'summarization', not {task!r}.")
    twice = _repeated([str(generator) for generator in generators])
    if twice is not None:
        # each generator gives one candidate per item (Section 3.2: three candidates from three LLMs)
        raise FigevalError(f"--generator {twice} is given twice; give each generator once.")
    sources = [source] if isinstance(source, Path) else list(source)
    check_build_outputs(out, [*sources, categories, *model_files([*generators, verifier])],
                        files=build_files(task, out, categories))
    generator_models = [open_model(generator, "--generator") for generator in generators]
    verifier_model = open_model(verifier, "--verifier")
    names = [str(model) for model in generator_models]
    settings: dict[str, object] = {"seed": seed, "generators": names, "verifier": str(verifier_model),
                                   "sources": [path.name for path in sources]}
    recorded = _check_record(out, settings)
    items = {item.id: item for item in select(task, sources, n, seed, out, report, categories)}
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
    usable = [key for key in in_build if candidates[key]["text"] and (candidates[key]["length_ok"] or not enforce_length)]
    report(f"{len(too_far)} candidates break the length rule (more than {LENGTH_TOLERANCE} words from the correct "
           f"text): {'dropped (--enforce-length)' if enforce_length else 'kept, as the paper only instructs it'}; "
           f"{len(empty)} empty candidates dropped")
    lost_to_length = {candidates[key]["item"] for key in too_far} - {candidates[key]["item"] for key in usable}

    async def verify(key: str) -> dict:
        candidate = candidates[key]
        item = items[candidate["item"]]
        # Section 3.5: the verifier is asked exactly what evaluated models are asked
        prompt = EVALUATION_PROMPT[task].format(context=item.context, question=item.question, answer=candidate["text"])
        output = await verifier_model.generate(prompt, config=VERIFIER_CONFIG, cache=response_cache(str(verifier_model)))
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
    record = {**settings, "generation_prompt_version": GENERATION_PROMPT_VERSION, "enforce_length": enforce_length, "length_violations": sorted(too_far),
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


# --- Step 5: human validation (Section 3.4, Appendix C) ------------------------------------------------------

SHEET_COLUMNS = tuple(Column(name, required=False) for name in KEPT_HEADER)
HALLUCINATION_LABELS = {"hallucinated": "hallucinated", "h": "hallucinated", "1": "hallucinated",
                        "factual": "factual", "f": "factual", "0": "factual"}


def _majority(labels: Sequence[str]) -> str | None:
    (label, count), *_ = Counter(labels).most_common(1)
    return label if count * 2 > len(labels) else None


def _item_key(item_id: str) -> str:
    return normalized_answer(item_id)


def _same_cell(column: str, sheet_cell: str, kept_cell: str) -> bool:
    """Whether an item cell of an annotator's sheet is kept.csv's, up to what a spreadsheet changes on saving
    (`normalized_answer`: line endings, Unicode composition, surrounding spaces). The verifier score is compared
    as a number: spreadsheets save "0.5000" as "0.5"."""
    if normalized_answer(sheet_cell) == normalized_answer(kept_cell):
        return True
    if column == "verifier_score":
        try:
            return float(sheet_cell) == float(kept_cell)
        except ValueError:
            return False
    return False


def read_kept(out: Path, task: str) -> dict[str, Row]:
    """The rows of the build's own DIR/kept.csv by item id: what the annotators were given to label.

    Raises:
        FigevalError: the folder has no kept.csv (the build has not reached step 4).
        DataError: a row of it is not an item of `task`.
    """
    path = out / KEPT_FILE
    if not path.is_file():
        raise FigevalError(f"{path} does not exist: the sheets are checked against the build's kept.csv; run "
                           f"`figeval build perhallueval --task {task} --out {shlex.quote(str(out))} ...` first, or "
                           "give the --out folder of that build.")
    rows = read_table(path, SHEET_COLUMNS, unique="id", key=str.strip)
    for row in rows:
        check_item(path, row, task)
    return {_item_key(row.cells["id"]): row for row in rows}


def check_against_kept(sheet: Path, rows: Sequence[Row], kept: dict[str, Row], kept_path: Path) -> None:
    """Refuses an annotator's sheet that is not a copy of kept.csv with only the annotators' columns filled:
    an item missing or added, or an item cell (ITEM_COLUMNS) changed. The final file is written from kept.csv,
    so a changed cell would be labelled on one text and published with another.

    Raises:
        DataError: naming the sheet, row, id and column, and the fix.
    """
    fix = f"annotators fill only {' and '.join(ANNOTATOR_COLUMNS)}: copy the cell back from {kept_path}"
    for row in rows:
        item_id = row.cells["id"]
        item = kept.get(_item_key(item_id))
        if item is None:
            raise DataError(f"{sheet.name}: row {row.number}, column 'id': item {item_id!r} is not in {kept_path}; "
                            "remove the row, or give a copy of this build's kept.csv.")
        for column in ITEM_COLUMNS[1:]:
            if not _same_cell(column, row.cells[column], item.cells[column]):
                raise DataError(f"{sheet.name}: row {row.number} (id {item_id!r}), column {column!r} differs from "
                                f"{KEPT_FILE} row {item.number}; {fix}.")
    missing = sorted(kept.keys() - {_item_key(row.cells["id"]) for row in rows}, key=lambda key: kept[key].number)
    if missing:
        first = kept[missing[0]]
        raise DataError(f"{sheet.name}: {len(missing)} of the {len(kept)} items of {kept_path} have no row (first: "
                        f"id {first.cells['id']!r}, {KEPT_FILE} row {first.number}, column 'id'); every annotator "
                        "labels every row of kept.csv: copy the missing rows back and label them.")


def finalize(task: str, sheets: Sequence[Path], out: Path, report: Report) -> Path:
    """Majority vote of three annotators' copies of kept.csv (each fills hallucination_label: hallucinated or
    factual, and for QA persian_specific: 1 or 0); reports Gwet's AC1 on the hallucination labels and Fleiss'
    kappa on persian_specific; writes the items the majority calls hallucinated to DIR/final.csv, their item
    cells from the build's own DIR/kept.csv (each sheet is checked to be a copy of it, labels aside)."""
    if len(sheets) != 3:
        raise FigevalError(f"give the three annotators' sheets, not {len(sheets)}.")
    folder = "the build folder (the --out of `figeval build perhallueval`)"
    if out.exists() and not out.is_dir():
        raise FigevalError(f"--out {out} is a file; give {folder}.")
    if not out.is_dir():
        raise FigevalError(f"--out {out}: the folder does not exist; give {folder}.")
    kept_path = out / KEPT_FILE
    check_build_outputs(out, [*sheets, kept_path], files=[FINAL_FILE])
    refuse_same_content(sheets)
    kept = read_kept(out, task)
    per_sheet = []
    for sheet in sheets:
        sheet_rows = read_table(sheet, SHEET_COLUMNS, unique="id", key=str.strip)
        check_against_kept(sheet, sheet_rows, kept, kept_path)
        rows = {}
        for row in sheet_rows:
            label = HALLUCINATION_LABELS.get(row.cells[LABEL_COLUMN].strip().lower())
            if label is None:
                raise DataError(f"{sheet.name}: row {row.number}, column '{LABEL_COLUMN}' is "
                                f"{row.cells[LABEL_COLUMN]!r}; use hallucinated or factual.")
            flag = row.cells["persian_specific"].strip().lower()
            if task == "qa" and not (affirmative(flag) or negative(flag)):
                raise DataError(f"{sheet.name}: row {row.number}, column 'persian_specific' is {flag!r}; use 1 or 0.")
            rows[_item_key(row.cells["id"])] = (label, affirmative(flag))
        per_sheet.append(rows)
    ordered = sorted(kept)
    hallucination = [[rows[i][0] for rows in per_sheet] for i in ordered]
    try:
        report(f"Gwet's AC1, hallucination labels: {gwet_ac1(hallucination, ['hallucinated', 'factual']):.3f}")
        if task == "qa":
            report(f"Fleiss' kappa, persian_specific: {fleiss_kappa([[rows[i][1] for rows in per_sheet] for i in ordered]):.3f}")
    except UndefinedStatistic as error:
        report(f"agreement: n/a ({error})")
    final = out / FINAL_FILE
    validated = 0
    with atomic_open(final, "utf-8", newline="") as handle:
        writer = SheetWriter(handle)
        writer.writerow([*ITEM_COLUMNS, "persian_specific"])
        for item_id, labels in zip(ordered, hallucination):
            if _majority(labels) != "hallucinated":
                continue  # the annotators found the "hallucinated" text factual: not a valid item
            specific = _majority([str(int(rows[item_id][1])) for rows in per_sheet]) if task == "qa" else ""
            writer.writerow([*(kept[item_id].cells[column] for column in ITEM_COLUMNS), specific])
            validated += 1
    report(f"{validated} of {len(ordered)} items validated as hallucinated: {final}")
    return final
