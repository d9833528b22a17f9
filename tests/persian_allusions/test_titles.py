"""Variant titles of one allusion are one entry of the knowledge list, two stories of one figure are two (paper
Section 3.1: "127 distinct allusions ..., including variant forms"); an LLM-Generated row outside the list breaks
only the tasks that use that file."""

import shutil
from pathlib import Path

import pytest

from figeval.benchmarks.persian_allusions.dataset import (
    distractor_pool,
    knowledge_list,
    load_generated,
    load_poems,
    mc_options,
)
from figeval.benchmarks.persian_allusions.titles import allusion_key, named_figures, stories_apart, title_merges
from figeval.benchmarks.persian_allusions.tasks import allusion_knowledge, allusion_mc
from figeval.errors import DataError
from tests.persian_allusions.conftest import FIXTURES


@pytest.mark.parametrize("a, b", [
    ("یوسف و زلیخا", "داستان یوسف و زلیخا"),
    ("آتش نمرود", "ماجرای آتش نمرود"),
    ("ابراهیم", "حضرت ابراهیم"),
    ("يوسف و زليخا", "یوسف و زلیخا"),  # Arabic YEH
    ("حضرت یوسف (ع)", "یوسف"),  # an honorific names no story
    ("محمد \ufdfa", "محمد (ص)"),  # the honorific as one sign
    ("سلیمان (انگشتری)", "قصه\u200cی سلیمان (انگشتري)"),  # ZWNJ, Arabic YEH inside the qualifier
    ("سلیمان (مور)", "حضرت سلیمان (ع) (داستان مور)"),
])
def test_variant_titles_share_a_key(a, b):
    assert allusion_key(a) == allusion_key(b)


@pytest.mark.parametrize("a, b", [
    ("سلیمان (انگشتری)", "سلیمان (مور)"),  # two stories of one figure (issue 23's example)
    ("سلیمان", "سلیمان (مور)"),  # the bare name does not say which story it means
    ("یوسف و زلیخا", "یوسف و زلیخا (قرآن)"),
])
def test_a_parenthesised_story_keeps_two_allusions_apart(a, b):
    assert allusion_key(a) != allusion_key(b)


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
    assert title_merges([poem.allusion for poem in poems]) == {first: [first, f"داستان {first}"]}
    # multiple choice never offers the same allusion twice
    import random

    answer = merged[allusion_key(first)]
    for seed in range(10):
        options = mc_options(answer, merged, 1, random.Random(seed))
        assert len({allusion_key(option) for option in options}) == 5


def test_an_unknown_generated_allusion_breaks_only_the_generated_tasks(tmp_path: Path):
    from figeval._registry import get_source
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


# Seven couplets' allusion cells, all Quranic; their knowledge-list entries worked out by hand:
#   1 سلیمان (انگشتری)           -> entry A (Solomon's ring)
#   2 سلیمان (مور)               -> entry B (Solomon and the ant)
#   3 داستان سلیمان (مور)        -> B ("داستان" names the kind of story)
#   4 حضرت یوسف (ع)             -> entry C (Joseph; "حضرت" and the honorific "(ع)" name no story)
#   5 يوسف (Arabic YEH)          -> C
#   6 سلیمان                     -> entry D (which of Solomon's stories is not written)
#   7 قصه‌ی سلیمان (انگشتري)      -> A (ZWNJ, Arabic YEH)
# -> 4 entries from 7 titles as written.
TWO_STORIES = ["سلیمان (انگشتری)", "سلیمان (مور)", "داستان سلیمان (مور)", "حضرت یوسف (ع)", "يوسف", "سلیمان",
               "قصه\u200cی سلیمان (انگشتري)"]


def two_stories_poems(tmp_path: Path, titles: list[str] = TWO_STORIES) -> Path:
    rows = [f",quranic,,بیت شماره‌ی {number} با تلمیح,{title},شرح تلمیح {number}" for number, title in
            enumerate(titles, start=1)]
    path = tmp_path / "PersPoems.csv"
    path.write_text("poet,themes,entities,couplet,allusion,description\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_two_stories_of_one_figure_are_two_entries_and_variants_one(tmp_path: Path):
    poems = load_poems(two_stories_poems(tmp_path))
    allusions = knowledge_list(poems)
    assert [a.title for a in allusions.values()] == ["سلیمان (انگشتری)", "سلیمان (مور)", "حضرت یوسف (ع)", "سلیمان"]
    assert [a.description for a in allusions.values()] == ["شرح تلمیح 1", "شرح تلمیح 2", "شرح تلمیح 4", "شرح تلمیح 6"]
    assert title_merges([poem.allusion for poem in poems]) == {
        "سلیمان (انگشتری)": ["سلیمان (انگشتری)", "قصه\u200cی سلیمان (انگشتري)"],
        "سلیمان (مور)": ["سلیمان (مور)", "داستان سلیمان (مور)"],
        "حضرت یوسف (ع)": ["حضرت یوسف (ع)", "يوسف"],
    }
    assert stories_apart([a.title for a in allusions.values()]) == {
        "سلیمان (انگشتری)": ["سلیمان (انگشتری)", "سلیمان (مور)", "سلیمان"]}


def test_another_story_of_the_figure_is_a_distractor_its_bare_name_is_not(tmp_path: Path):
    allusions = knowledge_list(load_poems(two_stories_poems(tmp_path)))
    ring, ant, joseph, solomon = allusions.values()
    # the ant is a fair distractor for the ring (both name their story); "سلیمان" alone would be right too
    assert [a.title for a in distractor_pool(ring, allusions)] == [ant.title, joseph.title]
    assert [a.title for a in distractor_pool(solomon, allusions)] == [joseph.title]


def test_a_story_of_two_figures_and_one_of_them_bare_are_never_each_other_s_distractor(tmp_path: Path):
    # "یوسف و زلیخا" is Joseph's story; "یوسف (ع)" (Joseph, an honorific) names him without a story, so a text
    # alluding to either could be read as alluding to the other: neither is a wrong option for the other.
    # "لیلی و مجنون" names neither figure: a fair distractor of both.
    titles = ["یوسف و زلیخا", "حضرت یوسف (ع)", "لیلی و مجنون", "سلیمان (مور)"]
    allusions = knowledge_list(load_poems(two_stories_poems(tmp_path, titles)))
    story, joseph, layli, ant = allusions.values()
    assert [a.title for a in distractor_pool(story, allusions)] == [layli.title, ant.title]
    assert [a.title for a in distractor_pool(joseph, allusions)] == [layli.title, ant.title]
    assert [a.title for a in distractor_pool(layli, allusions)] == [story.title, joseph.title, ant.title]
    assert named_figures("داستان یوسف و زلیخا") == {"یوسف", "زلیخا", "یوسفوزلیخا"}


def test_a_generated_passage_naming_the_bare_figure_is_told_the_stories(tmp_path: Path):
    allusions = knowledge_list(load_poems(two_stories_poems(tmp_path, TWO_STORIES[:2])))
    generated = tmp_path / "LLM-Generated.csv"
    generated.write_text("text,allusion\nمتنی درباره‌ی پادشاهی که زبان مرغان می‌دانست.,حضرت سلیمان\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"row 1 alludes to 'حضرت سلیمان', which is not an allusion of PersPoems\.csv; "
                                         r".* PersPoems\.csv has \['سلیمان \(انگشتری\)', 'سلیمان \(مور\)'\]: name "
                                         r"the story as it does\."):
        load_generated(generated, allusions)


def test_the_log_records_what_the_count_is_made_of(tmp_path: Path):
    from figeval.benchmarks.persian_allusions.dataset import load_allusion_data
    from figeval._registry import get_source
    from figeval.data.store import import_folder

    folder = tmp_path / "data"
    folder.mkdir()
    two_stories_poems(folder)
    shutil.copy(FIXTURES / "LLM-Generated.csv", folder)  # its allusions are not these: only its tasks break
    import_folder(get_source("persian-allusions"), folder)
    recorded = load_allusion_data("en").provenance
    assert (recorded["knowledge_entries"], recorded["titles_as_written"]) == (4, 7)
    assert len(allusion_knowledge().dataset) == 4  # what `figeval list allusion_knowledge` counts


def test_the_fixture_knowledge_list_has_12_entries():
    # 13 couplets; "لیلی و مجنون" is the allusion of rows 8 and 13, every other title differs -> 12 (the README's
    # count on the fixtures; the published data's is not known here)
    poems = load_poems(FIXTURES / "PersPoems.csv")
    assert (len(poems), len(knowledge_list(poems))) == (13, 12)
    assert title_merges([poem.allusion for poem in poems]) == {}  # the same spelling twice is no merge
