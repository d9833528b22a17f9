"""FFE-HALLU detection samples built from the real upstream files."""

from collections import Counter
from pathlib import Path

import pytest

from figeval.benchmarks.ffe_hallu.dataset import (
    FAKE_CATEGORIES,
    category_slug,
    detection_samples,
    load_authentic,
    load_detection_data,
    load_fake,
)
from figeval.errors import DataError


def test_fake_file_has_fifty_of_each_category(shared_ffe_hallu: Path):
    fakes = load_fake(shared_ffe_hallu / "Fake FFEs.csv")
    assert Counter(f.category for f in fakes) == {category: 50 for category in FAKE_CATEGORIES}


def test_detection_samples_with_controls(shared_ffe_hallu: Path):
    fakes = load_fake(shared_ffe_hallu / "Fake FFEs.csv")
    authentic = load_authentic(shared_ffe_hallu / "Authentic FFEs.csv")
    samples = detection_samples(fakes, authentic)
    assert len(samples) == 800 and len({s.id for s in samples}) == 800
    by_id = {s.id: s for s in samples}
    first = by_id["ffe-fake-001/fake-q"]
    assert first.target == "Yes" and first.input.endswith("Expression: گربه را دم دروازه کشتن\nAnswer:")
    assert first.metadata == {
        "item": "ffe-fake-001",
        "kind": "fake",
        "framing": "fake-q",
        "expression": "گربه را دم دروازه کشتن",
        "category": "Word Perturbation",
        "category_slug": "word_perturbation",
        "source_expression": "گربه را دم حجله کشتن",
    }
    assert by_id["ffe-fake-200/real-q"].target == "No"
    assert "Is this expression a real idiom or proverb in Persian?" in by_id["ffe-fake-200/real-q"].input
    assert by_id["ffe-real-001/fake-q"].target == "No"
    assert by_id["ffe-real-200/real-q"].target == "Yes"
    assert by_id["ffe-real-002/real-q"].metadata["meaning"].startswith("هنوز مشخص")
    # Framing-major order: all fake-q prompts first, so consecutive prompts share a prefix.
    assert [s.metadata["framing"] for s in samples] == ["fake-q"] * 400 + ["real-q"] * 400


def test_without_controls_only_fakes_are_asked(ffe_hallu_imported: Path):
    data = load_detection_data(controls=False)
    assert len(data.dataset) == 400
    assert data.provenance == {
        "dataset": "ffe-hallu",
        "dataset_pin": "https://github.com/hfaezeh77/FFE-Hallu-Benchmark@58dfdbdc7a50dbd80acbeba5b057ae7cabe40f77",
        "dataset_sha256": {"Fake FFEs.csv": "fbfa773757fcb634ba799adc486b087648d641a02a3180691d3f08ef6e3b75cc"},
    }


def test_category_slugs():
    assert [category_slug(c) for c in FAKE_CATEGORIES] == [
        "word_perturbation",
        "semantic_inversion_contradiction",
        "phonetic_poetic_mimicry",
        "cultural_fabrication",
    ]


def test_unknown_category_is_refused(tmp_path: Path):
    path = tmp_path / "Fake FFEs.csv"
    path.write_text("Fake Idiom,Source Idiom,Category\nگربه را دم دروازه کشتن,,Word perturbation\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"row 1, column 'Category' is 'Word perturbation'; expected one of"):
        load_fake(path)


def test_an_authentic_ffe_given_as_a_fake_is_refused_before_the_run(ffe_hallu_imported: Path, tmp_path: Path):
    """Asked as a fake, an authentic FFE's correct answer is 'real': every model that knows it would be counted as
    hallucinating. Written with a half-space and a period, it is still the benchmark's authentic row 6."""
    from tests.command import assert_one_line_error, figeval
    from tests.ffe_hallu.test_tasks import write_replay

    lines = (ffe_hallu_imported / "Fake FFEs.csv").read_text(encoding="utf-8-sig").splitlines()
    # data row 3 is file line 4 (after the header): "آب پاک خورده,شیر پاک خورده,Word Perturbation"
    lines[3] = "با پای خود به\u200cگور رفتن.,,Cultural Fabrication"
    fakes = tmp_path / "mine.csv"
    fakes.write_text("\n".join(lines) + "\n", encoding="utf-8")
    logs, replay = tmp_path / "logs", write_replay(tmp_path / "a.jsonl", {"x": "Yes"})
    for controls in ("true", "false"):  # without controls too: the authentic list is read to check the fakes
        result = figeval("run", "ffe_detection", "-T", f"fakes={fakes}", "-T", f"controls={controls}",
                         "--model", f"replay/{replay}", "--log-dir", str(logs))
        assert_one_line_error(result, "mine.csv: row 3, column 'Fake Idiom'",
                              "با پای خود به\\u200cگور رفتن.",  # repr: the half-space shown
                              "authentic FFE", "row 6", "remove the row")
    assert not logs.exists()


# A cell of a million characters (about 1.8 MB of Persian) in row 2 of each file a person gives FFE-HALLU's commands.
MILLION = ("حافظ شیرازی در قرن هشتم هجری در شیراز می‌زیست و " * 25_000)[:1_000_000]
PAIRS = "English Idiom,Farsi Idiom\nbreak the ice,یخ را شکستن\nspill the beans,{cell}\n"
PARAPHRASES = ("row,farsi_idiom,Meaning,paraphrase,verified\n1,به بار اوردن,به ثمر رسیدن,نتیجه دادن,yes\n"
               "2,چیزی نه به دار است نه به بار,هنوز مشخص نیست,{cell},yes\n")
REVIEW = ("id,category,fake_idiom,keep\nwp-001,Word Perturbation,گربه را دم دروازه کشتن,yes\n"
          "wp-002,Word Perturbation,{cell},yes\n")


@pytest.mark.parametrize(("file", "text", "args", "column", "limit"), [
    # limits by hand: an expression 500 characters (10x the published files' longest, 49), a meaning 2,000 (10x
    # their longest, 173, rounded up); a few '|'-separated equivalents are held to a meaning's 2,000
    pytest.param("mine.csv", None, ["run", "ffe_detection", "-T", "fakes={file}", "-T", "controls=false"],
                 "Fake Idiom", "500", id="fakes"),
    pytest.param("pairs.csv", PAIRS, ["run", "ffe_translation", "-T", "pairs={file}"], "Farsi Idiom", "2,000",
                 id="pairs"),
    pytest.param("sheet.csv", PARAPHRASES,
                 ["run", "ffe_generation", "-T", "meaning=paraphrased", "-T", "paraphrases={file}"],
                 "paraphrase", "2,000", id="paraphrase-sheet"),
    pytest.param("review.csv", REVIEW, ["build", "ffe-hallu-fakes-final", "--out", "{tmp}", "{file}"],
                 "fake_idiom", "500", id="review-sheet"),
    pytest.param("extra.csv", "farsi_idiom\nیخ را شکستن\n{cell}\n",
                 ["build", "ffe-hallu-fakes", "--out", "{tmp}/build", "--model", "mockllm/model",
                  "--authentic-extra", "{file}"], "farsi_idiom", "500", id="authentic-extra"),
])
def test_an_oversized_cell_in_a_persons_file_is_refused(file, text, args, column, limit, ffe_hallu_imported: Path,
                                                         tmp_path: Path):
    from tests.command import assert_one_line_error, figeval
    from tests.ffe_hallu.test_tasks import write_replay

    path = tmp_path / file
    if text is None:  # the published fakes with row 2's expression replaced
        lines = (ffe_hallu_imported / "Fake FFEs.csv").read_text(encoding="utf-8-sig").splitlines()
        lines[2] = "{cell},,Cultural Fabrication"
        text = "\n".join(lines) + "\n"
    path.write_text(text.replace("{cell}", MILLION), encoding="utf-8")
    logs = tmp_path / "logs"
    model = ["--model", f"replay/{write_replay(tmp_path / 'a.jsonl', {'x': 'Yes'})}", "--log-dir", str(logs)]
    result = figeval(*(arg.replace("{file}", str(path)).replace("{tmp}", str(tmp_path)) for arg in args),
                     *(model if args[0] == "run" else []))
    assert_one_line_error(result, f"{file}: row 2, column '{column}' holds 1,000,000 characters",
                          f"more than the {limit} its cells can hold", "correct the cell")
    assert not logs.exists() and not (tmp_path / "fakes.csv").exists() and not (tmp_path / "build").exists()
