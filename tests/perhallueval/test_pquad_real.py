"""The build's selection step (Section 3.1) on PQuAD's real validation and test files (../shared/datasets/pquad,
CC BY-SA 4.0, Darvishi et al. 2023): what is read, how the missing categories are asked for, and the stratified
sample once a person has given them."""

import csv
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from figeval.benchmarks.perhallueval.build_selection import CATEGORY_SHEET, select
from figeval.benchmarks.perhallueval.selection import MAX_SHARE_GAP, load_category_map, load_pquad, title_key
from figeval.errors import DataError, FigevalError



@pytest.fixture
def splits(shared_pquad: Path) -> list[Path]:
    return [shared_pquad / "Validation.json", shared_pquad / "Test.json"]


def test_every_answerable_question_is_read(splits: list[Path]):
    # SOURCE.md and the upstream README: validation 7,976 questions of which 1,981 unanswerable, test 8,002 and
    # 1,914; the unanswerable have no correct answer to hallucinate from: 7976 - 1981 = 5995, 8002 - 1914 = 6088.
    validation, test = (load_pquad(path, need_categories=False) for path in splits)
    assert (len(validation), len(test)) == (5995, 6088)
    assert {item.category for item in validation + test} == {""}  # no category field anywhere (SOURCE.md)
    # the build refuses an id given twice: the two splits share none
    assert len({item.id for item in validation + test}) == 5995 + 6088


def test_without_categories_the_build_writes_the_sheet_to_fill(splits: list[Path], tmp_path: Path):
    said: list[str] = []
    with pytest.raises(DataError) as error:
        select("qa", splits, 1000, 0, tmp_path, said.append)
    # 120 articles in Validation.json + 114 in Test.json (SOURCE.md), none with a category
    assert str(error.value) == (
        f"234 of 234 PQuAD articles have no topical category (the published files carry none; Section 3.1 "
        f"stratifies by PQuAD's 19; --stratify article, ours, stratifies by article instead): fill the 'category' "
        f"column of {tmp_path / CATEGORY_SHEET} (one row per article title) and run again with --categories "
        f"{tmp_path / CATEGORY_SHEET}."
    )
    assert said == ["step 1: 12083 source items from Validation.json, Test.json"]  # 5995 + 6088
    rows = list(csv.DictReader((tmp_path / CATEGORY_SHEET).open(encoding="utf-8")))
    assert len(rows) == 234 and sum(int(row["questions"]) for row in rows) == 12083
    assert {row["category"] for row in rows} == {""}
    # Validation.json's second article is titled 'آب‌انبار ' (a trailing space); the sheet has it trimmed,
    # with its 31 answerable questions (its 40 qas less 9 marked is_impossible).
    assert rows[1] == {"title": "آب\u200cانبار", "category": "", "questions": "31"}
    assert not (tmp_path / "selected.jsonl").exists()


def fill(sheet: Path, category_of) -> Path:
    rows = list(csv.DictReader(sheet.open(encoding="utf-8")))
    with sheet.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["title", "category", "questions"])
        for number, row in enumerate(rows, start=1):
            writer.writerow([row["title"], category_of(number), row["questions"]])
    return sheet


def test_the_filled_sheet_stratifies_the_sample(splits: list[Path], tmp_path: Path):
    with pytest.raises(DataError):
        select("qa", splits, 1000, 0, tmp_path, lambda _: None)
    # rows 1-120 are Validation.json's articles, 121-234 Test.json's (the sheet keeps file order)
    sheet = fill(tmp_path / CATEGORY_SHEET, lambda number: "val" if number <= 120 else "test")
    said: list[str] = []
    chosen = select("qa", splits, 1000, 7, tmp_path, said.append, categories=sheet)
    # Quotas by largest remainder: val 1000 * 5995 / 12083 = 496.15, test 1000 * 6088 / 12083 = 503.85; the
    # floors 496 + 503 leave one item, which goes to the larger remainder (test): 496 and 504. Validation ids
    # start with 18 or 19, test ids with 16 or 17.
    taken = Counter("val" if item.id[:2] in ("18", "19") else "test" for item in chosen)
    assert taken == {"val": 496, "test": 504}
    assert all(item.category == ("val" if item.id[:2] in ("18", "19") else "test") for item in chosen)
    # shares: val 5995 / 12083 = 49.615% of the source, 496 / 1000 = 49.60% of the sample (0.015 points apart)
    assert said[-2:] == [f"{'test':<32} {'50.38%':>7} {'50.40%':>8}", f"{'val':<32} {'49.62%':>7} {'49.60%':>8}"]
    stored = [json.loads(line)["id"] for line in (tmp_path / "selected.jsonl").read_text(encoding="utf-8").splitlines()]
    assert stored == [item.id for item in chosen]
    # a second run reads the same selection back
    assert [item.id for item in select("qa", splits, 1000, 7, tmp_path, lambda _: None, categories=sheet)] == stored


def test_nineteen_categories_are_matched_within_the_papers_tolerance(splits: list[Path], tmp_path: Path):
    with pytest.raises(DataError):
        select("qa", splits, 4000, 0, tmp_path, lambda _: None)
    sheet = fill(tmp_path / CATEGORY_SHEET, lambda number: f"topic-{number % 19:02d}")
    chosen = select("qa", splits, 4000, 0, tmp_path, lambda _: None, categories=sheet)
    items = {item.id: item for path in splits for item in load_pquad(path, load_category_map(sheet))}
    source, sample = Counter(item.category for item in items.values()), Counter(item.category for item in chosen)
    assert len(chosen) == 4000 and len(source) == 19 == len(sample)
    # a largest-remainder quota is within one item of n x share, so every share is within 1/4000 = 0.025
    # points of the source's: well inside Section 3.1's 0.3 points
    gaps = [abs(sample[c] / 4000 - source[c] / 12083) for c in source]
    assert max(gaps) <= 1 / 4000 < MAX_SHARE_GAP


def test_a_title_written_by_hand_finds_its_article(splits: list[Path], tmp_path: Path):
    # the JSON's 'آب‌انبار ' (ZWNJ, trailing space) as a person may type it: with a space, and with Arabic YEH
    # and KAF in another title ('بانک اطلاعات اینترنتی فیلم ها ' typed 'بانك اطلاعات اينترنتي فيلم ها')
    mapping = tmp_path / "categories.csv"
    mapping.write_text("title,category\nآب انبار,معماری\nبانك اطلاعات اينترنتي فيلم ها,سینما\n", encoding="utf-8")
    categories = load_category_map(mapping)
    assert title_key("آب\u200cانبار ") in categories and title_key("بانک اطلاعات اینترنتی فیلم ها ") in categories
    items = load_pquad(splits[0], categories, need_categories=False)
    # Validation.json's article 2 has 40 questions, 31 answerable; article 16 has 31, 23 answerable
    assert Counter(item.category for item in items if item.category) == {"معماری": 31, "سینما": 23}


def largest_remainder(counts: dict[str, int], n: int) -> dict[str, int]:
    """Quotas n * count / total, floors first, the items left to the largest remainders (ties: the stratum met
    first in the sources, `counts`' order)."""
    total = sum(counts.values())
    exact = {key: Fraction(n * count, total) for key, count in counts.items()}
    quota = {key: int(value) for key, value in exact.items()}
    order = list(counts)
    for key in sorted(exact, key=lambda key: (-(exact[key] - quota[key]), order.index(key)))[: n - sum(quota.values())]:
        quota[key] += 1
    return quota


def test_without_categories_the_public_files_are_stratified_by_article(splits: list[Path], tmp_path: Path):
    """Ours, named: --stratify article. PQuAD's published files carry no topical category; they do carry each
    question's article, and each of the 234 articles gets its share of the sample."""
    said: list[str] = []
    chosen = select("qa", splits, 1000, 0, tmp_path, said.append, stratify="article")
    by_article = Counter(item.title for path in splits for item in load_pquad(path, need_categories=False))
    assert len(by_article) == 234 and sum(by_article.values()) == 12083
    # each article's quota by largest remainder (an independent computation); 'آب‌انبار' (31 questions):
    # 1000 * 31 / 12083 = 2.566, so 2 or 3 by its remainder among the 234
    assert Counter(item.title for item in chosen) == {k: v for k, v in largest_remainder(by_article, 1000).items() if v}
    assert Counter(item.title for item in chosen)["آب\u200cانبار"] in (2, 3)
    assert said[-1].startswith("234 articles, each within ") and not (tmp_path / CATEGORY_SHEET).exists()


def test_a_category_file_of_the_user_s_is_joined_by_title_and_its_gaps_named(splits: list[Path], tmp_path: Path):
    titles = list(Counter(item.title for path in splits for item in load_pquad(path, need_categories=False)))
    mapping = tmp_path / "my categories.csv"
    # every article but the first two, and one title typed with a letter too many
    rows = [f"{title},topic-{number % 19}" for number, title in enumerate(titles) if number >= 2]
    mapping.write_text("title,category\n" + "\n".join(rows + ["آب‌انبارها,معماری"]) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as refused:
        select("qa", splits, 1000, 0, tmp_path / "build", lambda _: None, categories=mapping)
    message = str(refused.value)
    assert message.startswith(f"{mapping}: 2 of 234 PQuAD articles have no row in it ({titles[0]!r}, {titles[1]!r})")
    assert f"1 of its rows match no article of the sources (the first by key: {title_key('آب‌انبارها')!r})" in message
    assert "\n" not in message and not (tmp_path / "build" / CATEGORY_SHEET).exists()  # the user's file is the input
    rows += [f"{titles[0]},topic-0", f"{titles[1]},topic-1"]
    mapping.write_text("title,category\n" + "\n".join(rows) + "\n", encoding="utf-8")
    chosen = select("qa", splits, 1000, 0, tmp_path / "build", lambda _: None, categories=mapping)
    assert len(chosen) == 1000 and len({item.category for item in chosen}) == 19


def test_a_category_less_build_of_the_real_files_records_its_departure(splits: list[Path], tmp_path: Path):
    from inspect_ai.model import get_model

    from figeval.benchmarks.perhallueval.build import RECORD_FILE, build
    from tests.perhallueval.test_build import Generator, verifier_reply

    out = tmp_path / "build"
    generators = [get_model("mockllm/a", custom_outputs=Generator("a"), memoize=False)]
    verifier = get_model("mockllm/verifier", custom_outputs=verifier_reply, memoize=False)
    # 334 items keep every article within 0.3 points of its share (1 / 334 < 0.003)
    kept = build("qa", splits, 334, generators, verifier, out, seed=0, report=lambda _: None, stratify="article")
    record = json.loads((out / RECORD_FILE).read_text(encoding="utf-8"))
    assert record["stratify"] == "article" and record["stratified_by"].startswith("article (ours: PQuAD's published "
                                                                                  "files carry no topical category")
    assert kept.is_file() and len(list(csv.DictReader(kept.read_text(encoding="utf-8-sig").splitlines()))) > 300
    # a resume by category would be another selection: refused, naming the option
    with pytest.raises(FigevalError, match=r"was built with --stratify article, not --stratify category"):
        build("qa", splits, 334, generators, verifier, out, seed=0, report=lambda _: None)
