"""Building FFE-HALLU data with a model: paraphrased meanings for Task 1 (paper Section 3.1), and fresh fake
FFEs for Task 2 in the four categories of Section 3.4 and Appendix B 2.1 (`build_fakes`, `finalize_fakes`).

The sheet is written as answers arrive, so an interrupted build loses nothing; a re-run keeps every row that
already has a paraphrase (and its `verified` cell) and asks only for the rest, with the model and prompt that wrote
them (recorded beside the sheet, `building.sheet_record`). Calls also go through Inspect's response cache, so even
a lost sheet is rebuilt without paying again.
"""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from inspect_ai.model import GenerateConfig, Model

from figeval.answering import DETERMINISTIC, ONE_TOKEN_LOGPROBS, AnswerMode, resolved_answer_mode, response_cache
from figeval.building import (
    Report,
    check_build_outputs,
    fill_sheet,
    model_files,
    open_model,
    read_build_record,
    read_jsonl,
    refuse_other_settings,
    resumable_step,
    resumed_rows,
    review_answer,
    sheet_record,
    text_sha256,
)
from figeval.benchmarks.ffe_hallu.dataset import (
    DATASET_NAME,
    FAKE_CATEGORIES,
    FAKE_COLUMNS,
    PARAPHRASE_COLUMNS,
    authentic_dataset,
    category_slug,
    published_data,
)
from figeval.benchmarks.ffe_hallu.fakes import (
    CHECKS,
    CULTURAL,
    DERIVED,
    MIMICRY,
    NEAR_EDIT_DISTANCE,
    NOT_APPLICABLE,
    PASS,
    SEMANTIC_INVERSION,
    WORD_PERTURBATION,
    Candidate,
    Inversion,
    Known,
    LengthRange,
    check_candidates,
    fake_key,
    invert,
    passes,
    word_changes,
)
from figeval.benchmarks.ffe_hallu.prompts import (
    CULTURAL_ELEMENTS,
    FAKE_CULTURAL_PROMPT,
    FAKE_INVERSION_PROMPT,
    FAKE_MIMICRY_PROMPT,
    FAKE_PERTURBATION_PROMPT,
    FAKES_PROMPT_VERSION,
    KNOWN_EXPRESSION_PROMPT,
    MIMICRY_CONSTRUCTIONS,
    MIMICRY_THEMES,
    PARAPHRASE_PROMPT,
)
from figeval.benchmarks.ffe_hallu.readers import FAKE, REAL, detection_readers
from figeval.data.registry import get_source
from figeval.data.store import dataset_dir, sha256_of
from figeval.data.table import Column, read_table
from figeval.errors import DataError, FigevalError
from figeval.output import atomic_open, check_outputs, write_text
from figeval.parsing import YES_NO_WORDS, YesNo, clean_expression, strip_reasoning
from figeval.scoring.readers import read_answer
from figeval.spreadsheet import SheetWriter
from figeval.text import has_arabic_script

SHEET_HEADER = [column.name for column in PARAPHRASE_COLUMNS]
# A paraphrase is one sentence: a short budget is enough.
PARAPHRASE_CONFIG = DETERMINISTIC.merge(GenerateConfig(max_tokens=256))


def paraphrase_of(output: str) -> str:
    """The first line of Persian in a model's answer, without surrounding quotes; empty if there is none."""
    for line in strip_reasoning(output).splitlines():
        if has_arabic_script(line):
            return line.strip().strip("\"'«»“”*").strip()
    return ""


def stored_data() -> Path:
    """The folder of the stored FFE-HALLU files: an input of every build, never to be written over."""
    return dataset_dir(get_source(DATASET_NAME))


def _existing_rows(out: Path, evaluated: Sequence[int]) -> dict[int, dict[str, str]]:
    """The rows a resumed sheet holds, by authentic row number (the later copy of a row written twice).

    Raises:
        DataError: a row number that is not one of the `evaluated` rows (the sheet was edited), naming the row.
    """
    rows = {}
    for row in resumed_rows(out, PARAPHRASE_COLUMNS):
        cell = row.cells["row"]
        number = int(cell) if cell.isascii() and cell.isdigit() else None
        if number not in evaluated:
            raise DataError(f"{out.name}: row {row.number}, column 'row' is {cell!r}, not the number of an evaluated "
                            f"authentic FFE ({min(evaluated)}-{max(evaluated)}); restore the number the build wrote, "
                            "or remove the row (its meaning is asked again).")
        rows[number] = row.cells
    return rows


# What decides a paraphrase sheet's content, by the option that gives it: resumed with another model (or prompt),
# one sheet would hold two models' paraphrases. The data are pinned (and their checksums recorded beside these).
PARAPHRASE_SETTINGS = {"model": "--model", "prompt_sha256": "the paraphrase prompt"}


def build_paraphrases(
    model_name: str, out: Path, model_args: dict[str, Any], report: Callable[[str], None]
) -> tuple[int, int]:
    """Write one paraphrase per evaluated authentic FFE to `out`; returns (newly written, kept from before)."""
    check_build_outputs(out, [stored_data(), *model_files([model_name])])
    model = open_model(model_name, "--model", **model_args)
    items, data_provenance = authentic_dataset()
    existing = _existing_rows(out, [item.row for item in items])
    settings = {"model": model_name, "prompt_sha256": text_sha256(PARAPHRASE_PROMPT)}
    if existing:  # a sheet without rows holds nothing to mix with
        refuse_other_settings(out, read_build_record(sheet_record(out)), settings, PARAPHRASE_SETTINGS)
    # -M arguments are not recorded: they may hold keys, and they choose where the model runs, not what it writes
    write_text(sheet_record(out), json.dumps({**settings, **data_provenance}, ensure_ascii=False, indent=1))
    rows = {row: cells for row, cells in existing.items() if cells["paraphrase"]}
    todo = [item for item in items if item.row not in rows]
    reused = len(items) - len(todo)
    report(f"{len(todo)} meanings to paraphrase with {model_name} ({reused} already done)")
    cache = response_cache(model_name)

    async def paraphrase(item) -> dict[str, str]:
        output = await model.generate(PARAPHRASE_PROMPT.format(meaning=item.meaning), config=PARAPHRASE_CONFIG, cache=cache)
        return {"row": str(item.row), "farsi_idiom": item.expression, "Meaning": item.meaning,
                "paraphrase": paraphrase_of(output.completion), "verified": ""}

    fill_sheet(out, SHEET_HEADER, rows, todo, lambda item: item.row, paraphrase, [item.row for item in items], report)
    missing = [row for row, cells in rows.items() if not cells["paraphrase"]]
    if missing:
        report(f"{len(missing)} answers had no Persian paraphrase (rows {missing[:10]}); re-run to ask again")
    return len(todo), reused


# --- Fresh fake FFEs for Task 2 (Section 3.4, Appendix B 2.1) --------------------------------------------------
#
# A build folder:
#   DIR/build_record.json  the settings (model, seed, prompt version, files and their sha256) and the last summary
#   DIR/candidates.jsonl   one candidate per planned item, written as each arrives (rule-made ones too)
#   DIR/known.jsonl        the checker models' "do you know this expression?" answers (with --checker)
#   DIR/review.csv         the review sheet: one row per candidate, every check, `keep` for a person
#   DIR/fakes.csv          the kept rows in the layout of `Fake FFEs.csv` (`finalize_fakes`)

# An expression is one line; a base model is cut where it starts a next example of the prompt.
FAKES_CONFIG = DETERMINISTIC.merge(GenerateConfig(max_tokens=128, stop_seqs=["\nIdiom:", "\nFake idiom:", "\nFake proverb:"]))
CANDIDATES_FILE, KNOWN_FILE, RECORD_FILE, SHEET_FILE, FINAL_FILE = (
    "candidates.jsonl", "known.jsonl", "build_record.json", "review.csv", "fakes.csv")
EXTRA_COLUMNS = (Column("farsi_idiom", persian=True),)
REVIEW_COLUMNS = (
    Column("id"), Column("category"), Column("fake_idiom", required=False, persian=True),
    Column("source_idiom", required=False, persian=True), Column("method", required=False),
    Column("change", required=False), *(Column(check, required=False) for check in CHECKS),
    Column("known_by", required=False), Column("passes", required=False), Column("keep", required=False),
    Column("note", required=False),
)
REVIEW_HEADER = [column.name for column in REVIEW_COLUMNS]
# What the final file needs of a reviewed sheet (a reviewer may have dropped the check columns).
FINALIZE_COLUMNS = tuple(replace(column, optional=column.name not in ("id", "category", "fake_idiom", "keep"))
                         for column in REVIEW_COLUMNS)
FINAL_HEADER = [column.name for column in FAKE_COLUMNS]


@dataclass(frozen=True)
class PlannedFake:
    key: str
    """Its record's key in candidates.jsonl: the category and what it is made from (a source, a prompt's fill)."""
    category: str
    source: str = ""
    prompt: str = ""
    inversion: Inversion | None = None
    """Made by a rule, with no model call."""


def _with_progress(path: Path, keys: Sequence[str], work: Callable[[str], Awaitable[dict]], report: Report
                   ) -> Callable[[str], Awaitable[dict]]:
    """`work`, reporting every tenth of the answers still missing from the step file `path` as it arrives."""
    total, finished = len(set(keys) - set(read_jsonl(path))), 0

    async def counted(key: str) -> dict:
        nonlocal finished
        result = await work(key)
        finished += 1
        if finished % 10 == 0 or finished == total:
            report(f"  {finished}/{total}")
        return result

    return counted


def _seeded(items: list, seed: int, salt: str) -> list:
    shuffled = list(items)
    random.Random(f"{seed}|{salt}").shuffle(shuffled)
    return shuffled


def plan_fakes(sources: list[str], per_category: int, seed: int, report: Report = lambda _: None) -> list[PlannedFake]:
    """What to build, `per_category` per category, in sheet order. The same seed gives the same plan, and a
    larger `per_category` extends it (a grown build keeps every candidate it had).

    Args:
        sources: authentic FFEs the derived categories start from (duplicates after normalization dropped).
        per_category: how many candidates per category.
        seed: orders the sources and the synthetic prompts' fills.
    """
    unique = list({fake_key(source): source for source in reversed(sources)}.values())[::-1]
    plan: list[PlannedFake] = []
    perturbed = _seeded(unique, seed, category_slug(WORD_PERTURBATION))[:per_category]
    plan += [PlannedFake(f"{category_slug(WORD_PERTURBATION)}|{s}", WORD_PERTURBATION, s,
                         FAKE_PERTURBATION_PROMPT.format(source=s)) for s in perturbed]
    # Inversions a rule can make come first (no model call, and the paper's own shape); a model does the rest.
    shuffled = [(s, invert(s)) for s in _seeded(unique, seed, category_slug(SEMANTIC_INVERSION))]
    ordered = [pair for pair in shuffled if pair[1]] + [pair for pair in shuffled if not pair[1]]
    plan += [PlannedFake(f"{category_slug(SEMANTIC_INVERSION)}|{s}", SEMANTIC_INVERSION, s,
                         "" if inversion else FAKE_INVERSION_PROMPT.format(source=s), inversion)
             for s, inversion in ordered[:per_category]]
    # Synthetic prompts: every pair of the paper's construction and a theme of ours, or of the paper's kind of
    # element and an instance of ours, interleaved so that the first N cover every construction / kind.
    themes = _seeded(list(MIMICRY_THEMES), seed, "themes")
    pairs = [(MIMICRY_CONSTRUCTIONS[i % len(MIMICRY_CONSTRUCTIONS)], themes[i % len(themes)])
             for i in range(len(MIMICRY_CONSTRUCTIONS) * len(themes))]  # all distinct: 3 and 40 are coprime
    plan += [PlannedFake(f"{category_slug(MIMICRY)}|{construction}|{theme}", MIMICRY,
                         prompt=FAKE_MIMICRY_PROMPT.format(construction=construction, theme=theme))
             for construction, theme in pairs[:per_category]]
    kinds = list(CULTURAL_ELEMENTS)
    elements = {kind: _seeded(list(CULTURAL_ELEMENTS[kind]), seed, kind) for kind in kinds}
    fills = [(kinds[i % len(kinds)], elements[kinds[i % len(kinds)]][i // len(kinds)])
             for i in range(len(kinds) * min(len(e) for e in elements.values()))]
    plan += [PlannedFake(f"{category_slug(CULTURAL)}|{kind}|{element}", CULTURAL,
                         prompt=FAKE_CULTURAL_PROMPT.format(element_kind=kind, element=element))
             for kind, element in fills[:per_category]]
    for category in FAKE_CATEGORIES:
        made = sum(item.category == category for item in plan)
        if made < per_category:
            limit = "authentic FFEs to start from (add more with --authentic-extra)" if category in DERIVED else \
                "distinct prompts"
            report(f"{category}: {made} candidates, not {per_category}: there are only {made} {limit}")
    return plan


def _sheet_ids(plan: list[PlannedFake]) -> dict[str, str]:
    counters: dict[str, int] = {}
    ids = {}
    for item in plan:
        counters[item.category] = counters.get(item.category, 0) + 1
        ids[item.key] = f"{category_slug(item.category)}-{counters[item.category]:03d}"
    return ids


def load_extra_authentic(path: Path) -> list[str]:
    """A user's list of further authentic FFEs: a CSV with a `farsi_idiom` column (other columns ignored)."""
    return [row.cells["farsi_idiom"] for row in read_table(path, EXTRA_COLUMNS, unique="farsi_idiom")]


def _known_lists(authentic: list, published: list, extra: list[str]) -> tuple[list[Known], list[Known]]:
    known = [Known.of(a.expression, f"authentic row {a.row}") for a in authentic]
    # The published fakes' sources are real idioms too (Appendix B 2.1 1-2), many not among the 200.
    known += [Known.of(f.source_expression, f"source of published fake row {f.row}") for f in published
              if f.source_expression]
    known += [Known.of(text, f"extra list row {n}") for n, text in enumerate(extra, start=1)]
    return known, [Known.of(f.expression, f"published fake row {f.row}") for f in published]


# What every record of a step file holds (a record without one was edited: `read_jsonl` names its line).
CANDIDATE_FIELDS = ("category", "source", "text", "method", "output")
KNOWN_FIELDS = ("checker", "text", "answer")


# What decides a fakes folder's content, by the option that gives it (checker answers are kept per checker, so
# another --checker adds answers and mixes nothing).
FAKES_SETTINGS = {"model": "--model", "seed": "--seed", "prompt_version": "the prompt version"}


def _check_settings(out: Path, settings: dict[str, object]) -> None:
    refuse_other_settings(out, read_build_record(out / RECORD_FILE), settings, FAKES_SETTINGS)


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
    check_build_outputs(out, [extra, stored_data(), *model_files([model_name, *checkers])],
                        files=(CANDIDATES_FILE, KNOWN_FILE, RECORD_FILE, SHEET_FILE))
    model = open_model(model_name, "--model", **model_args)
    checker_models = [open_model(checker, "--checker") for checker in checkers]
    authentic, published, data_provenance = published_data()
    extra_list = load_extra_authentic(extra) if extra is not None else []
    settings = {"model": model_name, "seed": seed, "prompt_version": FAKES_PROMPT_VERSION,
                **data_provenance, "authentic_extra": str(extra) if extra else None,
                "authentic_extra_sha256": sha256_of(extra) if extra else None}
    _check_settings(out, settings)
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

    keys = [item.key for item in plan]
    records = resumable_step(out / CANDIDATES_FILE, keys, _with_progress(out / CANDIDATES_FILE, keys, make, report),
                             "candidates", report, CANDIDATE_FIELDS)
    ids = _sheet_ids(plan)
    candidates = [Candidate(ids[item.key], item.category, records[item.key]["text"], item.source) for item in plan]
    known, published_known = _known_lists(authentic, published, extra_list)
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
            as_yes_no = {REAL: YesNo.YES.value, FAKE: YesNo.NO.value}
            paper, reader = detection_readers(REAL, text)
            reading = read_answer(output, mode, paper=lambda answer: as_yes_no.get(paper(answer)),
                                  reader=lambda answer: as_yes_no.get(reader(answer)),
                                  words={v.value: YES_NO_WORDS[v] for v in YesNo})
            return {"checker": checker, "text": text, "answer": reading.label or "unparsed"}

        done = resumable_step(out / KNOWN_FILE, list(keys), _with_progress(out / KNOWN_FILE, list(keys), ask, report),
                              f"checker {checker}", report, KNOWN_FIELDS)
        for key, candidate_key in keys.items():
            answers.setdefault(candidate_key, {})[checker] = done[key]["answer"]
    return answers


def _reviewed_cells(sheet: Path) -> dict[tuple[str, str], dict[str, str]]:
    """The `keep` and `note` cells a person filled in an earlier sheet, by (category, expression key)."""
    if not sheet.is_file():
        return {}
    return {(row.cells["category"], fake_key(row.cells["fake_idiom"])): row.cells
            for row in read_table(sheet, REVIEW_COLUMNS) if row.cells["fake_idiom"]}


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


def _recorded_extra(record: Path) -> Path | None:
    """The extra authentic list a build folder was made with, when its record names one that is still there."""
    try:
        extra = json.loads(record.read_text(encoding="utf-8")).get("authentic_extra")
    except (OSError, ValueError, AttributeError):
        return None
    return Path(extra) if extra and Path(extra).is_file() else None


def finalize_fakes(sheet: Path, out: Path, keep_passing: bool, report: Report) -> tuple[Path, dict[str, int]]:
    """The reviewed sheet's kept rows as a fake set in the layout of `Fake FFEs.csv` (Fake Idiom, Source Idiom,
    Category), which `ffe_detection -T fakes=FILE` evaluates. Returns the file and the rows kept per category.

    Args:
        sheet: the review sheet (DIR/review.csv or a reviewed copy); `keep` yes/no per row.
        out: the file to write (never the sheet).
        keep_passing: also keep rows whose `keep` is empty and that pass every check (for an unattended build;
            the paper had every fake reviewed by experts, Section 3.5). A `no` always drops a row.

    Raises:
        DataError: a `keep` cell that is not yes/no, a kept row without an expression or whose expression is an
            authentic FFE or repeats another kept row, or nothing kept.
    """
    extra = _recorded_extra(out.parent / RECORD_FILE)
    check_outputs([out], [sheet, stored_data(), *([extra] if extra else [])])
    rows = read_table(sheet, FINALIZE_COLUMNS)
    authentic, published, _ = published_data()
    known: dict[str, Known] = {}
    for item in _known_lists(authentic, published, load_extra_authentic(extra) if extra else [])[0]:
        known.setdefault(item.key, item)
    kept, first_row, overridden = [], {}, []
    for row in rows:
        cells = row.cells
        if cells["category"] not in FAKE_CATEGORIES:
            raise DataError(f"{sheet.name}: row {row.number}, column 'category' is {cells['category']!r}; expected "
                            f"one of {list(FAKE_CATEGORIES)}. Restore the value the build wrote.")
        keep = review_answer(sheet, row, "keep", "not reviewed: dropped, or kept by --keep-passing if it passes")
        if not (keep or (keep is None and keep_passing and cells["passes"] == "yes")):
            continue
        text = cells["fake_idiom"]
        if not text:
            raise DataError(f"{sheet.name}: row {row.number} ({cells['id']}) is kept but has no fake_idiom; write "
                            "the expression or set keep to no.")
        key = fake_key(text)
        if key in known:
            raise DataError(f"{sheet.name}: row {row.number} ({cells['id']}) keeps {text!r}, which is an authentic "
                            f"FFE ({known[key].where}); set keep to no.")
        if key in first_row:
            raise DataError(f"{sheet.name}: rows {first_row[key]} and {row.number} keep the same expression "
                            f"{text!r}; keep one of them.")
        first_row[key] = row.number
        if cells["passes"] != "yes":
            overridden.append(cells["id"])
        kept.append(cells)
    if not kept:
        raise DataError(f"{sheet.name}: no row is kept; fill the 'keep' column (yes/no) first"
                        f"{'' if keep_passing else ', or pass --keep-passing to keep every row that passes every check'}.")
    with atomic_open(out, "utf-8-sig", newline="") as handle:
        writer = SheetWriter(handle)
        writer.writerow(FINAL_HEADER)
        writer.writerows([cells["fake_idiom"], cells["source_idiom"], cells["category"]] for cells in kept)
    if overridden:
        report(f"{len(overridden)} kept rows are not marked as passing every check (kept as the reviewer decided): "
               f"{', '.join(overridden[:10])}{' ...' if len(overridden) > 10 else ''}")
    counts = {category: sum(cells["category"] == category for cells in kept) for category in FAKE_CATEGORIES}
    return out, counts
