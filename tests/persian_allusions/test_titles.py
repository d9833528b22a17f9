"""Variant titles of one allusion are one entry of the knowledge list; an LLM-Generated row outside the list
breaks only the tasks that use that file."""

import shutil
from pathlib import Path

import pytest

from figeval.benchmarks.persian_allusions.dataset import (
    allusion_key,
    knowledge_list,
    load_poems,
    mc_options,
    title_merges,
)
from figeval.benchmarks.persian_allusions.tasks import allusion_knowledge, allusion_mc
from figeval.errors import DataError
from tests.persian_allusions.conftest import FIXTURES


@pytest.mark.parametrize("a, b", [
    ("یوسف و زلیخا", "داستان یوسف و زلیخا"),
    ("آتش نمرود", "ماجرای آتش نمرود"),
    ("ابراهیم", "حضرت ابراهیم"),
    ("یوسف و زلیخا", "یوسف و زلیخا (قرآن)"),
    ("يوسف و زليخا", "یوسف و زلیخا"),  # Arabic YEH
])
def test_variant_titles_share_a_key(a, b):
    assert allusion_key(a) == allusion_key(b)


def test_a_title_that_is_only_a_prefix_keeps_it():
    assert allusion_key("داستان") == "داستان" and allusion_key("یوسف") != allusion_key("زلیخا")


def variant_poems(tmp_path: Path) -> Path:
    """The fixture with row 2's allusion spelled "داستان <title of row 1>"."""
    lines = (FIXTURES / "PersPoems.csv").read_text(encoding="utf-8-sig").splitlines()
    first_title = load_poems(FIXTURES / "PersPoems.csv")[0].allusion
    second_title = load_poems(FIXTURES / "PersPoems.csv")[1].allusion
    lines[2] = lines[2].replace(f",{second_title},", f",داستان {first_title},")
    path = tmp_path / "PersPoems.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_knowledge_list_merges_them_and_lists_the_merge(tmp_path: Path):
    poems = load_poems(variant_poems(tmp_path))
    first = poems[0].allusion
    merged = knowledge_list(poems)
    assert len(merged) == len(knowledge_list(load_poems(FIXTURES / "PersPoems.csv"))) - 1
    assert title_merges(poems) == {first: [first, f"داستان {first}"]}
    # multiple choice never offers the same allusion twice
    import random

    answer = merged[allusion_key(first)]
    for seed in range(10):
        options = mc_options(answer, merged, 1, random.Random(seed))
        assert len({allusion_key(option) for option in options}) == 5


def test_an_unknown_generated_allusion_breaks_only_the_generated_tasks(tmp_path: Path):
    from figeval.data.registry import get_source
    from figeval.data.store import import_folder

    folder = tmp_path / "data"
    shutil.copytree(FIXTURES, folder)
    generated = folder / "LLM-Generated.csv"
    generated.write_text(generated.read_text(encoding="utf-8-sig") + "متنی درباره‌ی چیزی دیگر.,رستم و اسفندیار\n",
                         encoding="utf-8-sig")
    import_folder(get_source("persian-allusions"), folder)
    assert len(allusion_knowledge().dataset) > 0 and len(allusion_mc().dataset) > 0  # PersPoems tasks run
    with pytest.raises(DataError, match=r"LLM-Generated.csv: row \d+ alludes to 'رستم و اسفندیار'"):
        allusion_mc(dataset="generated")
