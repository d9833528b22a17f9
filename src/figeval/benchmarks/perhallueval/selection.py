"""Reading PQuAD and PN-Summary, and choosing the items PerHalluEval is built from (paper Section 3.1).

- QA: a sample stratified by PQuAD's topical category, each category's share within 0.3 percentage points of its
  share in the source (checked, with the table printed).
- Summarization: articles grouped by the logarithm of their length into k = 40 clusters, then sampled evenly
  across the clusters. The paper says "k-means (k = 40, cosine distance)" on that single number; but the cosine
  distance between two positive scalars is always 0 (they point the same way), so every article would be equally
  close to every centre. We use ordinary one-dimensional k-means (absolute difference of log lengths), which is
  what clustering by length needs. Length is counted in whitespace-separated words.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from figeval.data.store import register_check
from figeval.data.table import Column, read_table
from figeval.errors import DataError, FigevalError
from figeval.text import expression_key

T = TypeVar("T")
MAX_SHARE_GAP = 0.003  # 0.3 percentage points
# Section 3.1: PQuAD "has 19 topical categories labeled"; its published JSON (articles with `title` and
# `paragraphs`) has no such field at any level. A category is read from a question, its paragraph or its
# article, in that order, else from a mapping of article titles to categories (`--categories FILE`).
PQUAD_CATEGORY_FIELD = "category"
CATEGORY_MAP_COLUMNS = (Column("title"), Column(PQUAD_CATEGORY_FIELD))
# PN-Summary's files (its README): id, title, article, summary, category, categories, network, link, tab-separated.
PN_SUMMARY_COLUMNS = (Column("id"), Column("title", required=False), Column("article", persian=True),
                      Column("summary", persian=True), Column("category", required=False),
                      Column("network", required=False, optional=True), Column("link", required=False, optional=True))
# PN-Summary writes each newline of an article or summary as "[n]" (its README and the Hugging Face card say to
# turn them back into newlines); left in, "[n]" would glue the words around it into one for length counts.
PN_SUMMARY_NEWLINE = "[n]"


@dataclass(frozen=True)
class SourceItem:
    id: str
    category: str
    context: str
    question: str
    correct: str
    title: str = ""
    """PQuAD: the article's title (what a category map names)."""


def title_key(title: str) -> str:
    """Key under which a category map's title and a PQuAD title are the same article. 60 of the 234 titles of
    PQuAD's validation and test files end or start with spaces ('آب‌انبار '), and some carry diacritics
    ('مَرودَشت'): a map written by hand would not match them exactly."""
    return expression_key(title)


def load_category_map(path: Path) -> dict[str, str]:
    """Article title (by `title_key`) -> category, from a CSV/TSV with columns title, category."""
    return {title_key(row.cells["title"]): row.cells[PQUAD_CATEGORY_FIELD]
            for row in read_table(path, CATEGORY_MAP_COLUMNS, unique="title", key=title_key)}


def load_pquad(path: Path, categories: dict[str, str] | None = None, need_categories: bool = True) -> list[SourceItem]:
    """Answerable questions of a SQuAD-style PQuAD file, each with its topical category.

    Args:
        path: the JSON file.
        categories: `title_key(title)` -> category, for files whose articles carry none.
        need_categories: False reads the layout only (storing the file; a build checks categories when it
            stratifies), with "" for a category found nowhere.

    Raises:
        DataError: not such a file, or articles whose answerable questions have no category anywhere (the
            message counts them and says how to supply categories).
    """
    data = _pquad_articles(path)
    items: list[SourceItem] = []
    uncategorized: list[tuple[int, str]] = []
    for number, article in enumerate(data, start=1):
        title = str(article.get("title", ""))
        mapped = (categories or {}).get(title_key(title))
        for p_number, paragraph in enumerate(_objects(path, f"article {number}", article, "paragraphs"), start=1):
            where = f"article {number}, paragraph {p_number}"
            for q_number, qa in enumerate(_objects(path, where, paragraph, "qas"), start=1):
                asked = f"{where}, question {q_number}"
                answers = [a["text"] for a in _objects(path, asked, qa, "answers") if _filled(a.get("text"))]
                if qa.get("is_impossible") or not answers:
                    continue  # unanswerable: no correct answer to hallucinate from
                category = next((str(level[PQUAD_CATEGORY_FIELD]) for level in (qa, paragraph, article)
                                 if level.get(PQUAD_CATEGORY_FIELD)), None) or mapped
                if category is None and (not uncategorized or uncategorized[-1][0] != number):
                    uncategorized.append((number, title))
                items.append(SourceItem(_text(path, asked, qa, "id"), category or "",
                                        _text(path, where, paragraph, "context"), _text(path, asked, qa, "question"),
                                        str(answers[0]), title.strip()))
    if uncategorized and need_categories:
        number, title = uncategorized[0]
        raise DataError(
            f"{path.name}: {len(uncategorized)} of {len(data)} articles have no '{PQUAD_CATEGORY_FIELD}' at article, "
            f"paragraph or question level and no mapping for their title (article {number}: {title.strip()!r}); "
            "PerHalluEval stratifies by PQuAD's topical categories (Section 3.1), which the published files do "
            "not carry: pass --categories FILE, a CSV with columns title, category."
        )
    return items


def _pquad_articles(path: Path) -> list[dict]:
    """The articles of a SQuAD-style file (its top-level 'data' list).

    Raises:
        DataError: the file cannot be read or is not such a file.
    """
    try:
        data = json.loads(path.read_bytes().decode("utf-8-sig"))
    except OSError as error:
        raise DataError(f"{path}: cannot be read ({error.strerror}).") from None
    except UnicodeDecodeError as error:
        raise DataError(f"{path.name}: not UTF-8 (invalid byte at offset {error.start}); use an intact copy of the "
                        "file.") from None
    except json.JSONDecodeError as error:
        raise DataError(f"{path.name}: not a SQuAD-style JSON file ({error}).") from None
    articles = data.get("data") if isinstance(data, dict) else None
    if not isinstance(articles, list) or not all(isinstance(article, dict) for article in articles):
        raise DataError(f"{path.name}: not a SQuAD-style JSON file (a top-level 'data' list of articles, each with "
                        "its 'paragraphs'); check that this is a PQuAD file.")
    return articles


def _objects(path: Path, where: str, level: dict, name: str) -> list[dict]:
    """The list `name` of a SQuAD-style level (articles' paragraphs, paragraphs' qas, questions' answers).

    Raises:
        DataError: it is not a list of objects, naming where.
    """
    value = level.get(name, [])
    if not isinstance(value, list) or not all(isinstance(entry, dict) for entry in value):
        raise DataError(f"{path.name}: {where} has {name!r} that is not a list of objects, as SQuAD-style files "
                        "have; use an intact copy of the file.")
    return value


def _filled(value: object) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool) and bool(str(value).strip())


def _text(path: Path, where: str, level: dict, name: str) -> str:
    """A text a question needs (its id, its text, its paragraph's context).

    Raises:
        DataError: it is missing or empty, naming where.
    """
    value = level.get(name)
    if not _filled(value):
        unit = "paragraph" if name == "context" else "question"
        raise DataError(f"{path.name}: {where} has no {name!r}; fill it, or remove the {unit} from the file.")
    return str(value)


def load_pn_summary(path: Path) -> list[SourceItem]:
    """Articles and their summaries from a PN-Summary file as published (tab-separated: id, title, article,
    summary, category, categories, network, link), with its "[n]" marks turned back into newlines."""
    return [SourceItem(r.cells["id"], r.cells["category"], r.cells["article"].replace(PN_SUMMARY_NEWLINE, "\n"), "",
                       r.cells["summary"].replace(PN_SUMMARY_NEWLINE, "\n"))
            for r in read_table(path, PN_SUMMARY_COLUMNS, unique="id", key=str.strip)]


def stratified_sample(items: Sequence[T], category: Callable[[T], str], n: int, seed: int) -> list[T]:
    """n items whose category shares follow the source's (largest-remainder quotas, equal remainders to the
    category met first in `items`; seeded draws)."""
    if not 0 < n <= len(items):
        raise FigevalError(f"cannot select {n} items from {len(items)}.")
    groups: dict[str, list[T]] = {}
    for item in items:
        groups.setdefault(category(item), []).append(item)
    exact = {c: n * len(group) / len(items) for c, group in groups.items()}
    quota = {c: math.floor(q) for c, q in exact.items()}
    for c in sorted(exact, key=lambda c: exact[c] - quota[c], reverse=True)[: n - sum(quota.values())]:
        quota[c] += 1
    rng = random.Random(seed)
    chosen = []
    for c in sorted(groups):
        chosen += rng.sample(groups[c], quota[c])
    return chosen


def share_table(source: Sequence[T], sample: Sequence[T],
                category: Callable[[T], str]) -> list[tuple[str, float, float]]:
    """(category, share in source, share in sample) for every category of the source."""
    in_source, in_sample = Counter(map(category, source)), Counter(map(category, sample))
    return [(c, in_source[c] / len(source), in_sample[c] / len(sample)) for c in sorted(in_source)]


def check_shares(table: list[tuple[str, float, float]], stratum: str = "category") -> None:
    """Raises FigevalError: a stratum's share of the sample more than 0.3 points from its share of the source
    (Section 3.1's tolerance)."""
    worst = max(table, key=lambda row: abs(row[2] - row[1]))
    if abs(worst[2] - worst[1]) > MAX_SHARE_GAP:
        raise FigevalError(
            f"{stratum} {worst[0]!r} is {worst[2]:.2%} of the sample but {worst[1]:.2%} of the source (more than 0.3 "
            f"points apart); select more items (the quotas are within 1/n of the source shares: --n "
            f"{math.ceil(1 / MAX_SHARE_GAP)} or more keeps every {stratum} within 0.3 points)."
        )


def kmeans_1d(values: Sequence[float], k: int, iterations: int = 100) -> list[int]:
    """Cluster of each value by one-dimensional k-means (Lloyd's algorithm, centres started at quantiles)."""
    ordered = sorted(values)
    k = min(k, len(set(values)))
    centres = [ordered[min(len(ordered) - 1, int((i + 0.5) * len(ordered) / k))] for i in range(k)]
    assignment: list[int] = []
    for _ in range(iterations):
        new = [min(range(k), key=lambda c: abs(v - centres[c])) for v in values]
        if new == assignment:
            break
        assignment = new
        for c in range(k):
            members = [v for v, a in zip(values, assignment) if a == c]
            if members:
                centres[c] = sum(members) / len(members)
    return assignment


def length_stratified_sample(items: Sequence[SourceItem], n: int, seed: int, k: int = 40) -> list[SourceItem]:
    """n articles spread evenly over k clusters of log length (a small cluster gives all it has; the rest of
    its share goes to the others)."""
    if not 0 < n <= len(items):
        raise FigevalError(f"cannot select {n} items from {len(items)}.")
    clusters = kmeans_1d([math.log(max(1, len(item.context.split()))) for item in items], k)
    groups: dict[int, list[SourceItem]] = {}
    for item, cluster in zip(items, clusters):
        groups.setdefault(cluster, []).append(item)
    rng = random.Random(seed)
    for group in groups.values():
        rng.shuffle(group)
    chosen: list[SourceItem] = []
    while len(chosen) < n:  # round robin over clusters: even shares until small clusters run out
        for cluster in sorted(groups):
            if groups[cluster] and len(chosen) < n:
                chosen.append(groups[cluster].pop())
    return chosen


# Storing reads every file with the build's own reader; categories are checked when a build stratifies.
register_check("pquad", lambda paths: [load_pquad(path, need_categories=False) for path in paths.values()])
register_check("pn-summary", lambda paths: [load_pn_summary(path) for path in paths.values()])
