"""Step 1 of building PerHalluEval (paper Section 3.1): the items chosen from every source file together, written
once to DIR/selected.jsonl and read back by a re-run; and, for QA, the sheet of PQuAD's article titles a person
fills with their topical categories, which the published files lack."""

from __future__ import annotations

import json
import shlex
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, fields
from pathlib import Path

from figeval.benchmarks.perhallueval.selection import (
    SourceItem,
    check_shares,
    length_stratified_sample,
    load_category_map,
    load_pn_summary,
    load_pquad,
    share_table,
    stratified_sample,
)
from figeval.errors import DataError, FigevalError
from figeval.output import atomic_open
from figeval.resumable import Report, read_jsonl
from figeval.spreadsheet import SheetWriter

SELECTED_FILE = "selected.jsonl"
CATEGORY_SHEET = "pquad_categories.csv"
# What every record of the step file holds (a record without one was edited: `read_jsonl` names its line).
SELECTED_FIELDS = tuple(field.name for field in fields(SourceItem))


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
