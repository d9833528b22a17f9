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
    title_key,
)
from figeval.errors import DataError, FigevalError
from figeval.output import atomic_open
from figeval.resumable import Report, read_jsonl
from figeval.spreadsheet import SheetWriter

SELECTED_FILE = "selected.jsonl"
CATEGORY_SHEET = "pquad_categories.csv"
# What a QA sample is stratified by (`--stratify`): PQuAD's topical categories, as Section 3.1 does (the published
# files carry none: a person gives them), or, ours, PQuAD's articles, which the published files do carry (each
# article's share of the sample follows its share of the questions; the build record says which was used).
STRATA = ("category", "article")
# Strata beyond this many are summed up in one line (the largest gap), not listed one per line.
LISTED_STRATA = 40
# What every record of the step file holds (a record without one was edited: `read_jsonl` names its line).
SELECTED_FIELDS = tuple(field.name for field in fields(SourceItem))


def check_strata(task: str, stratify: str, categories: Path | None) -> None:
    """Raises FigevalError: a `--stratify` that is not one of STRATA, or that does not go with the task or the
    categories given."""
    if stratify not in STRATA:
        raise FigevalError(f"--stratify must be one of {list(STRATA)}, not {stratify!r}.")
    if stratify != "category" and task != "qa":
        raise FigevalError(f"--stratify {stratify} applies to --task qa; summarization is sampled by article length "
                           "(Section 3.1): leave it out.")
    if task != "qa" and categories is not None:
        raise FigevalError(f"--categories {categories} applies to --task qa; summarization is sampled by article "
                           "length (Section 3.1): leave it out.")
    if stratify == "article" and categories is not None:
        raise FigevalError(f"--stratify article and --categories {categories}: the categories would not be used; "
                           "give one of them.")


def select(task: str, sources: Sequence[Path], n: int, seed: int, out: Path, report: Report,
           categories: Path | None = None, stratify: str = "category") -> list[SourceItem]:
    """Step 1 (written once; a re-run reads the same selection back): items of every source file together (for
    PQuAD, its three splits make the paper's "about 80,000 questions"; for PN-Summary, its three splits the
    93,207 articles). QA is stratified by `stratify`: PQuAD's topical categories (`categories` maps article titles
    to them, which the published files lack) or its articles.

    Raises:
        DataError: an item id appears in two source files, or PQuAD questions have no category (DIR/
            pquad_categories.csv is then written for a person to fill, unless categories were given: their
            unmatched titles are named).
        FigevalError: the folder holds another build's selection (another task or number of items), or
            `check_strata` refuses the options.
    """
    check_strata(task, stratify, categories)
    path = out / SELECTED_FILE
    if path.is_file():
        return _stored_selection(path, task, n)
    category_map = load_category_map(categories) if categories else None
    items: list[SourceItem] = []
    seen: dict[str, str] = {}
    for source in sources:
        found = load_pquad(source, category_map, need_categories=False) if task == "qa" else load_pn_summary(source)
        for item in found:
            if item.id in seen:
                raise DataError(f"{source.name}: item id {item.id!r} is also in {seen[item.id]}; "
                                "give each source once.")
            seen[item.id] = source.name
        items += found
    report(f"step 1: {len(items)} source items from {', '.join(source.name for source in sources)}")
    if task == "qa":
        if stratify == "category":
            require_categories(items, out / CATEGORY_SHEET, categories, category_map)
        stratum = (lambda item: item.category) if stratify == "category" else (lambda item: item.title)
        chosen = stratified_sample(items, stratum, n, seed)
        table = share_table(items, chosen, stratum)
        if len(table) <= LISTED_STRATA:
            report(f"{stratify:<32}  source   sample")
            for name, in_source, in_sample in table:
                report(f"{name[:32]:<32} {in_source:>7.2%} {in_sample:>8.2%}")
        else:
            gap = max(abs(in_sample - in_source) for _, in_source, in_sample in table)
            report(f"{len(table)} {stratify}s, each within {gap:.2%} of its share of the source")
        check_shares(table, stratify)
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


def require_categories(items: Sequence[SourceItem], sheet: Path, given: Path | None = None,
                       mapping: dict[str, str] | None = None) -> None:
    """Stop before sampling when some questions have no topical category. PQuAD's published files carry none
    (Section 3.1 stratifies by its 19), so the build writes `sheet`: one row per article title, with its
    category where one is known and its number of answerable questions, for a person to fill and pass back as
    --categories. When categories were `given` (that sheet filled, or a file of the user's, as `mapping`), they
    are the person's and nothing is written: the titles still without a category are named, and the file's rows
    that match no article (a title typed otherwise).

    Raises:
        DataError: naming the sheet and the command that continues, or the file given and its unmatched titles.
    """
    missing = {item.title for item in items if not item.category}
    if not missing:
        return
    questions = Counter(item.title for item in items)
    if given is not None:
        unmatched = sorted(set(mapping or {}) - {title_key(title) for title in questions})
        shown = ", ".join(repr(title) for title in [t for t in questions if t in missing][:3])
        stray = (f"; {len(unmatched)} of its rows match no article of the sources (the first by key: "
                 f"{unmatched[0]!r}): check their spelling") if unmatched else ""
        raise DataError(f"{given}: {len(missing)} of {len(questions)} PQuAD articles have no row in it ({shown}"
                        f"{', ...' if len(missing) > 3 else ''}){stray}; add a row (title, category) for each "
                        "and run again, or build with --stratify article (ours: by article, no categories).")
    known = {item.title: item.category for item in items if item.category}
    sheet.parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(sheet, "utf-8", newline="") as handle:
        writer = SheetWriter(handle)
        writer.writerow(["title", "category", "questions"])
        for title, count in questions.items():
            writer.writerow([title, known.get(title, ""), count])
    raise DataError(
        f"{len(missing)} of {len(questions)} PQuAD articles have no topical category (the published files carry "
        f"none; Section 3.1 stratifies by PQuAD's 19; --stratify article, ours, stratifies by article instead): fill "
        f"the 'category' column of {sheet} (one row per article title) and run again with --categories "
        f"{shlex.quote(str(sheet))}."
    )
