"""Turkish idiom data: the assumed layout, its checks, and trust on first fetch (the source is unpinned)."""

import json
import shutil
from pathlib import Path

import pytest

from figeval.benchmarks.turkish_idioms.dataset import (
    detection_samples,
    entailment_samples,
    frequency_band,
    idiom_key,
    load_idioms,
)
from figeval._registry import get_source
from figeval.data.store import import_folder, require
from figeval.data.stored import FileState, file_statuses
from figeval.errors import DataError
from tests.turkish_idioms.conftest import FIXTURES


def test_fixture_loads_and_samples_are_balanced():
    idioms = load_idioms(FIXTURES / "idioms.tsv")
    assert [i.idiom for i in idioms][:2] == ["burnu sürtülmek", "etekleri zil çalmak"]
    samples, skipped = detection_samples(idioms, "en", balanced=True)
    # 6 idioms, row 2 has no literal sentence: with balanced=True it is left out whole, so 5 yes and 5 no
    assert skipped == 1 and len(samples) == 10
    assert [s.target for s in samples].count("yes") == 5
    first = samples[0]
    assert first.id == "tr-idiom-001/figurative" and first.target == "yes"
    assert first.input.startswith("Does the following Turkish sentence contain an idiom which is used figuratively?")
    assert first.input.endswith("Sentence: Yıllarca herkese tepeden baktı ama işleri bozulunca "
                                "burnu sürtüldü.\nAnswer:")
    assert first.metadata["frequency_band"] == "unseen"
    assert samples[1].id == "tr-idiom-001/literal" and samples[1].target == "no"

    entailment = entailment_samples(idioms, "tr")
    assert len(entailment) == 12
    assert [(s.id, s.target) for s in entailment[:2]] == [
        ("tr-idiom-001/paraphrase", "entailment"),
        ("tr-idiom-001/similar", "contradiction"),
    ]
    assert entailment[0].input.startswith("Size bir öncül ve bir hipotezden")
    assert entailment[0].input.endswith("\nEtiket:")


@pytest.mark.parametrize("frequency, band", [(None, None), (0, "unseen"), (0.02, "lt_1"), (1, "1_9"), (9.5, "1_9"),
                                             (10, "10_99"), (999, "100_999"), (1000, "1000_plus"), (3400, "1000_plus")])
def test_fine_frequency_bands(frequency, band):
    assert frequency_band(frequency, "fine") == band


@pytest.mark.parametrize("frequency, band",
                         [(None, None), (0, "unseen"), (0.0, "unseen"), (0.02, "seen"), (3400, "seen")])
def test_the_paper_s_unseen_vs_seen_is_the_default(frequency, band):
    assert frequency_band(frequency) == band


def test_unbalanced_detection_asks_every_figurative_sentence():
    idioms = load_idioms(FIXTURES / "idioms.tsv")
    samples, without_literal = detection_samples(idioms, "en", balanced=False)
    # 6 figurative sentences and the 5 literal ones there are
    assert without_literal == 1 and len(samples) == 11
    assert [s.target for s in samples].count("yes") == 6


def test_idiom_forms_compare_with_turkish_casing():
    assert idiom_key("İçi içine sığmamak") == idiom_key("içi içine sığmamak.")
    assert idiom_key("IRMAK") == "ırmak" != idiom_key("irmak")


def write_tsv(path: Path, rows: list[str]) -> Path:
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_duplicate_idiom_forms_are_reported(tmp_path: Path):
    lines = (FIXTURES / "idioms.tsv").read_text(encoding="utf-8").splitlines()
    duplicate = lines[5].replace("İçi içine sığmamak", "içi içine sığmamak", 1)
    path = write_tsv(tmp_path / "idioms.tsv", lines + [duplicate])
    with pytest.raises(DataError,
                       match=r"idioms.tsv: 1 expression\(s\) in column 'idiom' appear more than once \(rows 5, 7\)"):
        load_idioms(path)


def test_a_file_in_another_layout_lists_found_and_expected_columns(tmp_path: Path):
    path = write_tsv(tmp_path / "idioms.tsv", ["deyim\tanlam\tcümle", "kulak vermek\tdinlemek\tKulak verdi."])
    with pytest.raises(DataError) as error:
        load_idioms(path)
    message = str(error.value)
    assert ("expected columns ['idiom', 'description', 'figurative', 'paraphrase', 'similar', 'literal', 'frequency']"
            in message)
    assert "found ['deyim', 'anlam', 'cümle']" in message


@pytest.mark.parametrize("cell", ["many", "-3", "nan"])
def test_a_bad_frequency_is_named(cell, tmp_path: Path):
    lines = (FIXTURES / "idioms.tsv").read_text(encoding="utf-8").splitlines()
    path = write_tsv(tmp_path / "idioms.tsv", [lines[0], lines[1].rsplit("\t", 1)[0] + "\t" + cell])
    with pytest.raises(DataError, match=rf"row 1, column 'frequency' is '{cell}'; a corpus frequency is a number"):
        load_idioms(path)


def test_a_frequency_per_million_is_a_real_number(tmp_path: Path):
    # the paper's corpus frequencies are per million sentences: 0.35 is seen, 0 unseen
    lines = (FIXTURES / "idioms.tsv").read_text(encoding="utf-8").splitlines()
    path = write_tsv(tmp_path / "idioms.tsv", [lines[0], lines[1].rsplit("\t", 1)[0] + "\t0.35"])
    [idiom] = load_idioms(path)
    assert idiom.frequency == 0.35


def test_unpinned_source_is_trusted_on_first_import_then_enforced(tmp_path: Path):
    source = get_source("turkish-idioms")
    assert not source.pinned and "unpinned" in source.pin
    stored = import_folder(source, FIXTURES)
    recorded = json.loads((stored / "recorded-sha256.json").read_text())
    assert list(recorded) == ["idioms.tsv"] and len(recorded["idioms.tsv"]) == 64
    assert [s.state for s in file_statuses(source)] == [FileState.OK]

    # A different upstream file later is refused, and the trusted copy stays.
    changed = tmp_path / "changed"
    shutil.copytree(FIXTURES, changed)
    with (changed / "idioms.tsv").open("a", encoding="utf-8") as handle:
        handle.write("yeni deyim\t\tA.\tB.\tC.\t\t1\n")
    with pytest.raises(DataError, match=r"was first stored with [0-9a-f]{64}; nothing was stored. If this file is the "
                                        r"one to use, import or fetch it again with --replace"):
        import_folder(source, changed)
    assert require(source)["idioms.tsv"].read_bytes() == (FIXTURES / "idioms.tsv").read_bytes()

    # A stored copy edited in place no longer matches what was recorded.
    (stored / "idioms.tsv").write_text("edited", encoding="utf-8")
    with pytest.raises(DataError, match=r"idioms.tsv does not match the turkish-idioms pin"):
        require(source)
