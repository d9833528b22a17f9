"""Fresh fake FFEs for FFE-HALLU's Task 2 (paper Section 3.4, Appendix B 2.1): a model writes the planned
candidates (`fakes_plan`) that no rule can make, every candidate is checked (`fakes.check_candidates`), checker
models may be asked whether they know each one, and the review sheet gathers it all for a person's `keep`.

A build folder:
  DIR/build_record.json  the settings (model, seed, prompt version, files and their sha256) and the last summary
  DIR/candidates.jsonl   one candidate per planned item, written as each arrives (rule-made ones too)
  DIR/known.jsonl        the checker models' "do you know this expression?" answers (with --checker)
  DIR/review.csv         the review sheet: one row per candidate, every check, `keep` for a person
  DIR/fakes.csv          the kept rows in the layout of `Fake FFEs.csv` (`fakes_final.finalize_fakes`)

Every answer is on disk as it arrives (`resumable.resumable_step`), so a re-run asks only for the candidates and
checker answers that are missing, and `keep` and `note` cells a person filled are kept.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from inspect_ai.model import GenerateConfig, Model

from figeval.answering import DETERMINISTIC, ONE_TOKEN_LOGPROBS, AnswerMode, resolved_answer_mode, response_cache
from figeval.benchmarks.ffe_hallu.dataset import FAKE_CATEGORIES, published_data
from figeval.benchmarks.ffe_hallu.fake_keys import fake_key
from figeval.benchmarks.ffe_hallu.fakes import (
    CHECKS,
    NEAR_EDIT_DISTANCE,
    NOT_APPLICABLE,
    PASS,
    Candidate,
    Known,
    LengthRange,
    check_candidates,
    passes,
    word_changes,
)
from figeval.benchmarks.ffe_hallu.fakes_plan import PlannedFake, plan_fakes, sheet_ids
from figeval.benchmarks.ffe_hallu.prompts import FAKES_PROMPT_VERSION, KNOWN_EXPRESSION_PROMPT
from figeval.benchmarks.ffe_hallu.readers import FAKE, REAL, detection_readers
from figeval.building import check_build_outputs, model_files, open_model, read_build_record, refuse_other_settings
from figeval.benchmarks.ffe_hallu.source import EXPRESSION_CHARS, MEANING_CHARS, SOURCE
from figeval.data.stored import dataset_dir, sha256_of
from figeval.data.table import Column, read_table
from figeval.errors import FigevalError
from figeval.output import atomic_open, write_text
from figeval.parsing import YES_NO_WORDS, YesNo, clean_expression
from figeval.resumable import Report, read_jsonl, resumable_step
from figeval.scoring.readers import read_answer
from figeval.spreadsheet import SheetWriter

# An expression is one line; a base model is cut where it starts a next example of the prompt.
FAKES_CONFIG = DETERMINISTIC.merge(GenerateConfig(max_tokens=128,
                                                  stop_seqs=["\nIdiom:", "\nFake idiom:", "\nFake proverb:"]))
CANDIDATES_FILE, KNOWN_FILE, RECORD_FILE, SHEET_FILE, FINAL_FILE = (
    "candidates.jsonl", "known.jsonl", "build_record.json", "review.csv", "fakes.csv")
EXTRA_COLUMNS = (Column("farsi_idiom", persian=True, max_chars=EXPRESSION_CHARS),)
REVIEW_COLUMNS = (
    Column("id", max_chars=EXPRESSION_CHARS), Column("category", max_chars=EXPRESSION_CHARS),
    Column("fake_idiom", required=False, persian=True, max_chars=EXPRESSION_CHARS),
    Column("source_idiom", required=False, persian=True, max_chars=EXPRESSION_CHARS),
    Column("method", required=False, max_chars=MEANING_CHARS),
    Column("change", required=False, max_chars=MEANING_CHARS),
    *(Column(check, required=False, max_chars=MEANING_CHARS) for check in CHECKS),
    Column("known_by", required=False, max_chars=MEANING_CHARS),
    Column("passes", required=False, max_chars=EXPRESSION_CHARS),
    Column("keep", required=False, max_chars=EXPRESSION_CHARS),
    Column("note", required=False, max_chars=MEANING_CHARS),
)
REVIEW_HEADER = [column.name for column in REVIEW_COLUMNS]
# What every record of a step file holds (a record without one was edited: `read_jsonl` names its line).
CANDIDATE_FIELDS = ("category", "source", "text", "method", "output")
KNOWN_FIELDS = ("checker", "text", "answer")
# What decides a fakes folder's content, by the option that gives it (checker answers are kept per checker, so
# another --checker adds answers and mixes nothing).
FAKES_SETTINGS = {"model": "--model", "seed": "--seed", "prompt_version": "the prompt version"}


def load_extra_authentic(path: Path) -> list[str]:
    """A user's list of further authentic FFEs: a CSV with a `farsi_idiom` column (other columns ignored)."""
    return [row.cells["farsi_idiom"]
            for row in read_table(path, EXTRA_COLUMNS, unique="farsi_idiom", filled_by_person=True)]


def known_lists(authentic: list, published: list, extra: list[str]) -> tuple[list[Known], list[Known]]:
    """What a candidate must not be: (the authentic FFEs, each with where it is listed; the published fakes)."""
    known = [Known.of(a.expression, f"authentic row {a.row}") for a in authentic]
    # The published fakes' sources are real idioms too (Appendix B 2.1 1-2), many not among the 200.
    known += [Known.of(f.source_expression, f"source of published fake row {f.row}") for f in published
              if f.source_expression]
    known += [Known.of(text, f"extra list row {n}") for n, text in enumerate(extra, start=1)]
    return known, [Known.of(f.expression, f"published fake row {f.row}") for f in published]


@dataclass
class FakesSummary:
    sheet: Path
    candidates: int
    asked: int
    """Model calls made by this run (the others were on disk from before, or made by a rule)."""
    shares: dict[str, tuple[int, int]]
    """Per check (and `passes`): (passed, checked), over the candidates it applies to."""
    per_category: dict[str, tuple[int, int]]
    """(passing every check, candidates) per category."""


def build_fakes(out: Path, per_category: int, model_name: str, seed: int, model_args: dict[str, Any], report: Report,
                extra: Path | None = None, checkers: Sequence[str | Model] = ()) -> FakesSummary:
    """Build `per_category` fake FFE candidates per category into the folder `out`, check them and write the
    review sheet (DIR/review.csv). Resumable: every answer is on disk as it arrives, and a re-run asks only for
    the candidates and checker answers that are missing; `keep` and `note` cells a person filled are kept.

    Args:
        out: the build folder (created if missing).
        per_category: candidates per category.
        model_name: the model that writes candidates (provider/model).
        seed: orders the sources and the synthetic prompts' fills; a folder keeps its seed and model.
        model_args: the model's arguments (-M).
        report: progress lines.
        extra: a CSV of further authentic FFEs (column `farsi_idiom`): sources for the derived categories and
            part of the authenticity checks.
        checkers: models (provider/model, or Model) asked "do you know this expression?" about each candidate
            (answers in the sheet).
    """
    if per_category < 1:
        raise FigevalError(f"--per-category must be at least 1, not {per_category}.")
    # the stored FFE-HALLU files are an input, never to be written over
    check_build_outputs(out, [extra, dataset_dir(SOURCE), *model_files([model_name, *checkers])],
                        files=(CANDIDATES_FILE, KNOWN_FILE, RECORD_FILE, SHEET_FILE))
    model = open_model(model_name, "--model", **model_args)
    checker_models = [open_model(checker, "--checker") for checker in checkers]
    authentic, published, data_provenance = published_data()
    extra_list = load_extra_authentic(extra) if extra is not None else []
    settings = {"model": model_name, "seed": seed, "prompt_version": FAKES_PROMPT_VERSION,
                **data_provenance, "authentic_extra": str(extra) if extra else None,
                "authentic_extra_sha256": sha256_of(extra) if extra else None}
    refuse_other_settings(out, read_build_record(out / RECORD_FILE), settings, FAKES_SETTINGS)
    # what is on disk is read before anything is asked: a damaged line or sheet stops the build here, not after
    read_jsonl(out / CANDIDATES_FILE, CANDIDATE_FIELDS)
    read_jsonl(out / KNOWN_FILE, KNOWN_FIELDS)
    reviewed = _reviewed_cells(out / SHEET_FILE)
    out.mkdir(parents=True, exist_ok=True)
    checker_names = [str(checker) for checker in checker_models]
    write_text(out / RECORD_FILE, json.dumps({**settings, "per_category": per_category, "checkers": checker_names},
                                             ensure_ascii=False, indent=1))
    plan = plan_fakes([a.expression for a in authentic] + extra_list, per_category, seed, report)
    by_key = {item.key: item for item in plan}
    asked = 0

    async def make(key: str) -> dict:
        nonlocal asked
        item = by_key[key]
        record = {"category": item.category, "source": item.source}
        if item.inversion is not None:
            return {**record, "text": item.inversion.text, "method": f"rule: {item.inversion.rule}", "output": ""}
        asked += 1
        output = await model.generate(item.prompt, config=FAKES_CONFIG, cache=response_cache(model_name))
        return {**record, "text": clean_expression(output.completion) or "", "method": f"model: {model_name}",
                "output": output.completion}

    records = resumable_step(out / CANDIDATES_FILE, [item.key for item in plan], make, "candidates", report,
                             CANDIDATE_FIELDS)
    ids = sheet_ids(plan)
    candidates = [Candidate(ids[item.key], item.category, records[item.key]["text"], item.source) for item in plan]
    known, published_known = known_lists(authentic, published, extra_list)
    lengths = LengthRange.of([item.text for item in known])
    checks = check_candidates(candidates, known, published_known, lengths)
    answers = _ask_checkers(out, plan, records, checker_models, report)
    rows = _review_rows(plan, records, ids, checks, answers, checker_names, reviewed)
    with atomic_open(out / SHEET_FILE, "utf-8-sig", newline="") as handle:
        writer = SheetWriter(handle)
        writer.writerow(REVIEW_HEADER)
        writer.writerows([row[name] for name in REVIEW_HEADER] for row in rows)
    summary = _summarize(out / SHEET_FILE, rows, asked)
    write_text(out / RECORD_FILE, json.dumps(
        {**settings, "per_category": per_category, "checkers": checker_names, "length_range": asdict(lengths),
         "near_edit_distance": NEAR_EDIT_DISTANCE,
         "checks": {name: {"passed": p, "checked": n} for name, (p, n) in summary.shares.items()}},
        ensure_ascii=False, indent=1))
    return summary


def _ask_checkers(out: Path, plan: list[PlannedFake], records: dict[str, dict], checkers: Sequence[Model],
                  report: Report) -> dict[str, dict[str, str]]:
    """Each checker's answer ("yes", "no", "unparsed") about each candidate with text: {candidate key: {checker:
    answer}}. gguf models (base models) answer by their next token's Yes/No probabilities, others in text."""
    answers: dict[str, dict[str, str]] = {}
    for model in checkers:
        checker = str(model)
        mode = resolved_answer_mode(AnswerMode.AUTO, checker)  # base gguf models answer by logprobs
        config = DETERMINISTIC.merge(ONE_TOKEN_LOGPROBS) if mode is AnswerMode.LOGPROB else DETERMINISTIC
        keys = {f"{checker}|{item.key}": item.key for item in plan if records[item.key]["text"]}

        async def ask(key: str, model=model, mode=mode, config=config, checker=checker, keys=keys) -> dict:
            text = records[keys[key]]["text"]
            output = await model.generate(KNOWN_EXPRESSION_PROMPT.format(expression=text), config=config,
                                          cache=response_cache(checker))
            # "Do you know it as an existing idiom?": yes says real; read as the detection task reads its answers
            as_yes_no: dict[str | None, str] = {REAL: YesNo.YES.value, FAKE: YesNo.NO.value}  # None: unread
            paper, reader = detection_readers(REAL, text)
            reading = read_answer(output, mode, paper=lambda answer: as_yes_no.get(paper(answer)),
                                  reader=lambda answer: as_yes_no.get(reader(answer)),
                                  words={v.value: YES_NO_WORDS[v] for v in YesNo})
            return {"checker": checker, "text": text, "answer": reading.label or "unparsed"}

        done = resumable_step(out / KNOWN_FILE, list(keys), ask, f"checker {checker}", report, KNOWN_FIELDS)
        for key, candidate_key in keys.items():
            answers.setdefault(candidate_key, {})[checker] = done[key]["answer"]
    return answers


def _reviewed_cells(sheet: Path) -> dict[tuple[str, str], dict[str, str]]:
    """The `keep` and `note` cells a person filled in an earlier sheet, by (category, expression key)."""
    if not sheet.is_file():
        return {}
    return {(row.cells["category"], fake_key(row.cells["fake_idiom"])): row.cells
            for row in read_table(sheet, REVIEW_COLUMNS, filled_by_person=True) if row.cells["fake_idiom"]}


def _review_rows(plan, records, ids, checks, answers, checkers, reviewed) -> list[dict[str, str]]:
    rows = []
    for item in plan:
        record, cells = records[item.key], checks[ids[item.key]]
        text = record["text"]
        change = "; ".join(str(c) for c in word_changes(item.source, text)) if item.source and text else ""
        known = answers.get(item.key, {})
        said_yes = sum(answer == "yes" for answer in known.values())
        known_by = (f"{said_yes}/{len(checkers)}: " + "; ".join(f"{c}={known.get(c, '')}" for c in checkers)
                    if checkers and text else "")
        before = reviewed.get((item.category, fake_key(text)), {}) if text else {}
        rows.append({"id": ids[item.key], "category": item.category, "fake_idiom": text, "source_idiom": item.source,
                     "method": record["method"], "change": change, **cells, "known_by": known_by,
                     "passes": "yes" if passes(cells) else "no", "keep": before.get("keep", ""),
                     "note": before.get("note", "")})
    return rows


def _summarize(sheet: Path, rows: list[dict[str, str]], asked: int) -> FakesSummary:
    shares = {}
    for name in (*CHECKS, "passes"):
        applicable = [row[name] for row in rows if row[name] != NOT_APPLICABLE]
        shares[name] = (sum(cell in (PASS, "yes") for cell in applicable), len(applicable))
    per_category = {category: (sum(row["passes"] == "yes" for row in rows if row["category"] == category),
                               sum(row["category"] == category for row in rows)) for category in FAKE_CATEGORIES}
    return FakesSummary(sheet, len(rows), asked, shares, per_category)
