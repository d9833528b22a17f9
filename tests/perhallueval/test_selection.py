"""Selection: category shares within 0.3 points, length clusters, and the source readers."""

import json
import math
import random
from collections import Counter
from pathlib import Path

import pytest

from figeval.benchmarks.perhallueval.selection import (
    SourceItem,
    check_shares,
    kmeans_1d,
    length_stratified_sample,
    load_category_map,
    load_pquad,
    share_table,
    stratified_sample,
)
from figeval.errors import DataError, FigevalError


def synthetic_source(seed: int) -> list[SourceItem]:
    """19 categories of very different sizes, like PQuAD's."""
    rng = random.Random(seed)
    sizes = [rng.randint(20, 2000) for _ in range(19)]
    return [SourceItem(f"{c}-{i}", f"category-{c}", "", "", "") for c, size in enumerate(sizes) for i in range(size)]


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("n", [400, 1000, 2500])
def test_stratified_shares_stay_within_point_three(seed, n):
    source = synthetic_source(seed)
    sample = stratified_sample(source, lambda item: item.category, n, seed)
    assert len(sample) == n and len({item.id for item in sample}) == n
    table = share_table(source, sample, lambda item: item.category)
    assert len(table) == 19 and max(abs(s - p) for _, p, s in table) <= 0.003
    check_shares(table)  # does not raise


def test_too_small_a_sample_is_refused():
    source = synthetic_source(0)
    sample = stratified_sample(source, lambda item: item.category, 40, 0)
    with pytest.raises(FigevalError, match=r"more than 0.3 points apart\); select more items"):
        check_shares(share_table(source, sample, lambda item: item.category))


def test_kmeans_1d_separates_clear_groups():
    values = [1.0, 1.1, 0.9, 5.0, 5.2, 4.8, 9.0, 9.1]
    clusters = kmeans_1d(values, 3)
    assert (clusters[0] == clusters[1] == clusters[2] != clusters[3] == clusters[4] == clusters[5]
            != clusters[6] == clusters[7])


def test_length_sampling_takes_evenly_from_every_length_cluster():
    rng = random.Random(1)
    lengths = ([int(math.exp(rng.gauss(4, 0.6))) + 1 for _ in range(3800)]
               + [rng.randint(2000, 5000) for _ in range(200)])
    items = [SourceItem(str(i), "", " ".join(["w"] * n), "", "") for i, n in enumerate(lengths)]
    clusters = kmeans_1d([math.log(n) for n in lengths], 40)
    cluster_of = {item.id: c for item, c in zip(items, clusters)}
    sizes = Counter(clusters)
    sample = length_stratified_sample(items, 400, seed=3)
    taken = Counter(cluster_of[item.id] for item in sample)
    assert len({item.id for item in sample}) == 400 and len(taken) == len(sizes)
    # every cluster gives the same number, except those too small to (they give all they have)
    even = [count for cluster, count in taken.items() if sizes[cluster] > count]
    assert max(even) - min(even) <= 1
    assert all(taken[c] == sizes[c] for c in taken if sizes[c] <= min(even))
    assert max(len(item.context.split()) for item in sample) >= 2000  # the longest articles are reached


def test_pquad_reader(tmp_path: Path):
    path = tmp_path / "pquad.json"
    path.write_text(json.dumps({"data": [{"title": "حافظ", "category": "ادبیات", "paragraphs": [{
        "context": "حافظ در شیراز می‌زیست.",
        "qas": [
            {"id": "1", "question": "حافظ کجا می‌زیست؟",
             "answers": [{"text": "شیراز", "answer_start": 9}], "is_impossible": False},
            {"id": "2", "question": "حافظ کی مرد؟", "answers": [], "is_impossible": True},
        ]}]}]}, ensure_ascii=False), encoding="utf-8")
    [item] = load_pquad(path)
    assert (item.id, item.category, item.correct) == ("1", "ادبیات", "شیراز")


def test_pquad_in_its_published_layout_takes_categories_from_a_mapping(tmp_path: Path):
    # The published JSON: articles with title and paragraphs, no category anywhere.
    path = tmp_path / "pquad.json"
    qa = {"id": "1", "question": "حافظ کجا می‌زیست؟", "answers": [{"text": "شیراز", "answer_start": 9}],
          "is_impossible": False}
    path.write_text(json.dumps({"data": [{"title": "حافظ", "paragraphs": [{"context": "حافظ در شیراز زیست.",
                                                                            "qas": [qa]}]}]}, ensure_ascii=False),
                    encoding="utf-8")
    with pytest.raises(DataError, match=r"pquad.json: 1 of 1 articles have no 'category' .* \(article 1: 'حافظ'\);"
                                        r".* pass --categories FILE"):
        load_pquad(path)
    mapping = tmp_path / "categories.csv"
    mapping.write_text("title,category\nحافظ,ادبیات\n", encoding="utf-8")
    [item] = load_pquad(path, load_category_map(mapping))
    assert item.category == "ادبیات"
    # a category at paragraph or question level is read where it is (the question's wins)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["data"][0]["paragraphs"][0]["category"] = "تاریخ"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert load_pquad(path)[0].category == "تاریخ"
    data["data"][0]["paragraphs"][0]["qas"][0]["category"] = "جغرافیا"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert load_pquad(path)[0].category == "جغرافیا"
