"""`--limit N` subsets that keep a task's design (figeval.subset): whole items, every stratum, the rest in
proportion; an N that cannot keep it refused with the N that can. Expected ids are derived by hand from the data."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.dataset import Sample

from figeval.errors import FigevalError
from figeval.subset import PLAIN, Design, Subset, allocate, limit_subset, sample_id_text


def test_allocate_gives_each_stratum_one_and_the_rest_in_proportion():
    # quotas 20 x 50/400 = 2.5 (four categories) and 20 x 200/400 = 10 (controls): floors 2, 2, 2, 2, 10 make
    # 18; the 2 left go to the largest remainders (0.5 each), ties to the earlier strata
    assert allocate([50, 50, 50, 50, 200], 20) == [3, 3, 2, 2, 10]
    # quotas 0.04 and 3.96: the small stratum still gets one, the large its floor, 3
    assert allocate([2, 198], 4) == [1, 3]
    # quotas 0.03, 0.03, 2.94: one each takes 1 + 1 + 2 = 4 > 3, so the stratum furthest over its quota (the
    # third, 2 - 2.94 is the only one above 1) gives one back
    assert allocate([1, 1, 98], 3) == [1, 1, 1]
    # quotas 1.8, 1.8, 5.4: floors 1, 1, 5 = 7; remainders 0.8, 0.8, 0.4 take the 2 left
    assert allocate([2, 2, 6], 9) == [2, 2, 5]
    # never more than a stratum holds: quotas 5 x 1/10 = 0.5 -> 1 (all it has), 4.5 -> 4
    assert allocate([1, 9], 5) == [1, 4]


def test_design_round_trips_through_task_metadata():
    design = Design(unit="item", asked_as="framing", strata=("kind", "category"))
    assert Design.from_metadata({"subset_design": design.as_metadata()}) == design
    assert PLAIN.as_metadata() is None and Design.from_metadata({}) == PLAIN


def detection_samples(controls: bool) -> tuple[list, Design]:
    from tests.command import make_task

    task = make_task("ffe_detection", {"controls": str(controls).lower()})
    return list(task.dataset), Design.from_metadata(task.metadata)


def ids_of(rows: list[int], kind: str = "fake") -> set[str]:
    return {f"ffe-{kind}-{row:03d}/{framing}" for row in rows for framing in ("fake-q", "real-q")}


def test_limit_40_on_ffe_detection_is_20_items_under_both_framings_with_controls(ffe_hallu_imported: Path):
    samples, design = detection_samples(controls=True)
    subset = limit_subset("ffe_detection", samples, design, "40")
    # 400 items (200 fakes: rows 1-50 Word Perturbation, 51-100 Semantic Inversion, 101-150 Phonetic / Poetic
    # Mimicry, 151-200 Cultural Fabrication; 200 authentic controls), 2 framings each: 40 samples are 20 items.
    # allocate([50, 50, 50, 50, 200], 20) = [3, 3, 2, 2, 10] (above): the first items of each stratum in file order
    expected = ids_of([1, 2, 3, 51, 52, 53, 101, 102, 151, 152]) | ids_of(list(range(1, 11)), "real")
    assert subset is not None and subset.ids is not None
    assert set(subset.ids) == expected and len(subset.ids) == 40
    assert subset.rule == ("limit 40: 40 of 800 samples, 20 items x 2 framings (fake-q, real-q), in proportion by "
                           "kind and category (fake Word Perturbation 3, fake Semantic Inversion / Contradiction 3, "
                           "fake Phonetic / Poetic Mimicry 2, fake Cultural Fabrication 2, real 10)")
    # in the dataset's order (framing-major, as it is asked: consecutive prompts share their prefix), and the
    # same N gives the same ids
    order = [sample.id for sample in samples]
    assert list(subset.ids) == sorted(subset.ids, key=order.index)
    assert limit_subset("ffe_detection", *detection_samples(controls=True), "40") == subset


def test_limit_on_ffe_detection_without_controls_is_stratified_by_category(ffe_hallu_imported: Path):
    samples, design = detection_samples(controls=False)
    # 4 items, one per category (the kind is fake throughout: not a stratum)
    subset = limit_subset("ffe_detection", samples, design, "8")
    assert subset is not None and set(subset.ids or ()) == ids_of([1, 51, 101, 151])
    assert subset.rule.endswith("in proportion by category (Word Perturbation 1, Semantic Inversion / "
                                "Contradiction 1, Phonetic / Poetic Mimicry 1, Cultural Fabrication 1)")
    assert limit_subset("ffe_detection", samples, design, "400") is None  # every sample: no subset
    assert limit_subset("ffe_detection", samples, design, "1000") is None


@pytest.mark.parametrize("controls, limit, message", [
    # odd: one framing of an item would be left out
    (True, "41", "--limit 41: ffe_detection asks each item 2 ways (framings) and reports by kind and category "
                 "(5 strata); give an even N from 10 to 800, or --sample-id for samples of your choice."),
    # 4 items for 5 strata (4 categories and the controls)
    (True, "8", "give an even N from 10 to 800"),
    (False, "2", "reports by category (4 strata); give an even N from 8 to 400"),
    (True, "5-10", "--limit 5-10: ffe_detection asks each item 2 ways (framings) and reports by kind and category "
                   "(5 strata); a range of samples would split them: give --limit N (an even N from 10 to 800) or "
                   "--sample-id for samples of your choice."),
])
def test_limit_that_cannot_keep_the_design_is_refused(controls: bool, limit: str, message: str,
                                                      ffe_hallu_imported: Path):
    samples, design = detection_samples(controls)
    with pytest.raises(FigevalError) as refused:
        limit_subset("ffe_detection", samples, design, limit)
    assert message in str(refused.value) and "\n" not in str(refused.value)


def test_a_task_without_a_design_keeps_inspects_first_n(ffe_hallu_imported: Path):
    from tests.command import make_task

    task = make_task("ffe_generation", {"judge": "mockllm/model"})
    samples, design = list(task.dataset), Design.from_metadata(task.metadata)
    assert design == PLAIN
    assert limit_subset("ffe_generation", samples, design, "5") == Subset(
        "limit 5: the first 5 of 200 samples (the task asks each sample once and reports no groups)", None)
    assert limit_subset("ffe_generation", samples, design, "5-9") == Subset(
        "limit 5-9: samples 5 to 9 of 200, in file order (the task asks each sample once and reports no groups)", None)


@pytest.fixture
def idioms(isolated_data_dir: Path) -> None:
    from figeval._registry import get_source
    from figeval.data.store import import_folder
    from tests.turkish_idioms.conftest import FIXTURES

    import_folder(get_source("turkish-idioms"), FIXTURES)


def test_turkish_idioms_keep_both_sentences_and_both_frequency_bands(idioms: None):
    from tests.command import make_task

    # The fixture's idioms 1-6 have frequencies 0, 5, 120, 3400, 42, 0 ("seen" bands: 1 and 6 unseen, the rest
    # seen); idiom 2 has no literal sentence, so detection has 11 samples and a subset draws from 1, 3, 4, 5, 6:
    # unseen {1, 6}, seen {3, 4, 5}. Two idioms: quotas 0.8 and 1.2 -> one each, the first of each band: 1 and 3.
    detection = make_task("tr_idiom_detection", {})
    subset = limit_subset("tr_idiom_detection", list(detection.dataset), Design.from_metadata(detection.metadata), "4")
    assert subset is not None and subset.ids == ("tr-idiom-001/figurative", "tr-idiom-001/literal",
                                                 "tr-idiom-003/figurative", "tr-idiom-003/literal")
    assert subset.rule == ("limit 4: 4 of 11 samples, 2 items x 2 variants (figurative, literal), in proportion by "
                           "frequency_band (unseen 1, seen 1); 1 item asked fewer ways left out")
    with pytest.raises(FigevalError, match="give an even N from 4 to 10, or --sample-id"):
        limit_subset("tr_idiom_detection", list(detection.dataset), Design.from_metadata(detection.metadata), "3")
    # Entailment asks all 6 idioms (paraphrase and similar): unseen {1, 6}, seen {2, 3, 4, 5}; quotas 2 x 2/6 and
    # 2 x 4/6 -> one each: idioms 1 and 2.
    entailment = make_task("tr_idiom_entailment", {})
    subset = limit_subset("tr_idiom_entailment", list(entailment.dataset), Design.from_metadata(entailment.metadata),
                          "4")
    assert subset is not None and subset.ids == ("tr-idiom-001/paraphrase", "tr-idiom-001/similar",
                                                 "tr-idiom-002/paraphrase", "tr-idiom-002/similar")


def test_perhallueval_keeps_both_versions_and_both_subsets():
    from tests.command import make_task

    task = make_task("perhallueval_qa", {"data": "tests/perhallueval/fixtures/final_qa.csv"})
    samples, design = list(task.dataset), Design.from_metadata(task.metadata)
    # q1-q6 flagged 1, 0, 1, 0, 1, 0: persian_specific {q1, q3, q5}, generic {q2, q4, q6}; two items, one of each
    subset = limit_subset("perhallueval_qa", samples, design, "4")
    assert subset is not None and subset.ids == ("phe-qa-q1/correct", "phe-qa-q1/hallucinated",
                                                 "phe-qa-q2/correct", "phe-qa-q2/hallucinated")
    assert subset.rule.endswith("2 items x 2 versions (correct, hallucinated), in proportion by subset "
                                "(persian_specific 1, generic 1)")
    with pytest.raises(FigevalError, match="give an even N from 4 to 12"):
        limit_subset("perhallueval_qa", samples, design, "2")


def test_a_design_that_does_not_fit_its_samples_is_a_bug_named_as_such():
    from inspect_ai.dataset import Sample

    samples = [Sample(id="a/1", input="x", metadata={"item": "a", "group": "g"}),
               Sample(id="a/2", input="x", metadata={"item": "a", "group": "h"})]
    with pytest.raises(FigevalError, match="item a: its samples are in different strata .* report it as a bug"):
        limit_subset("t", samples, Design(unit="item", strata=("group",)), "1")


def test_ids_go_to_inspect_as_themselves_or_are_refused():
    assert sample_id_text(["ffe-fake-001/fake-q", 7], ["ffe_detection"]) == "ffe-fake-001/fake-q,7"
    assert sample_id_text(["user:x/1"], ["ffe_detection"]) == "user:x/1"  # a colon after no task name is the id's
    for id in ("phe-qa-a,b/correct", "phe-qa-a*/correct", "phe-qa-a?/correct", "phe-qa-[a]/correct", " a",
               "ffe_detection:x"):
        with pytest.raises(FigevalError, match="cannot be named to Inspect's --sample-id"):
            sample_id_text([id], ["ffe_detection"])


def test_a_group_only_ever_second_in_a_list_is_kept_by_every_limit():
    # Themes as the allusion tasks carry them: a text's stratum is its first theme, and it is reported under every
    # theme it has. z is only ever second (in c): taking the first text of each stratum (a, b) lost it.
    themes = {"a": ["x"], "b": ["y"], "c": ["x", "z"], "d": ["y"], "e": ["x"]}
    samples = [Sample(id=id, input=id, metadata={"themes": listed}) for id, listed in themes.items()]
    design = Design(strata=("themes",))
    # kept by every subset: a and b (first of strata x and y), c (the first with z): 3 samples at the least
    with pytest.raises(FigevalError, match=r"--limit 2: .*give N from 3 to 5"):
        limit_subset("allusions", samples, design, "2")
    assert limit_subset("allusions", samples, design, "3").ids == ("a", "b", "c")
    # 4: at least 2 of x (a, c), 1 of y; quotas 4 * 3/5 = 2.4 and 1.6: the one left goes to y (0.6 > 0.4): d
    assert limit_subset("allusions", samples, design, "4").ids == ("a", "b", "c", "d")
    assert allocate([3, 2], 4, least=[2, 1]) == [2, 2]
