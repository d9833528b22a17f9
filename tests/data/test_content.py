"""Files no pin fixes (trusted on first import) are read against the columns the registry declares before their
sha256 is recorded: the wrong file under the right name, text whose letters a code page replaced by '?', and an
absurdly long cell are refused in one line naming the file, row and column; nothing is stored or trusted. Files a
pin fixes (PQuAD's JSON, PN-Summary's zip) are refused by their pin when they are not the published bytes."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

import figeval.data.store as store
from figeval.benchmarks.persian_allusions import dataset as allusions
from figeval.benchmarks.turkish_idioms import dataset as idioms
from figeval._registry import datasets, get_source
from figeval.data.source import PARAGRAPHS_CHARS, SENTENCE_CHARS, WORDS_CHARS
from figeval.data.stored import FileState, file_statuses, git_blob_id, recorded_hashes
from figeval.data.table import Script, read_table, script_damage
from figeval.errors import DataError
from tests.command import figeval
from tests.data.test_sources import pn_summary_zip

TESTS = Path(__file__).resolve().parents[1]
IDIOMS_TSV = TESTS / "turkish_idioms" / "fixtures" / "idioms.tsv"
ALLUSIONS = TESTS / "persian_allusions" / "fixtures"


@pytest.fixture(autouse=True)
def without_benchmark_readers(monkeypatch):
    """No benchmark reader registered: what is refused here is refused by the registry's declaration alone
    (a library user who never imported the benchmark gets the same check)."""
    monkeypatch.setattr(store, "CHECKS", {})


def folder_with(tmp_path: Path, files: dict[str, str | bytes]) -> Path:
    folder = tmp_path / "folder"
    folder.mkdir()
    for name, content in files.items():
        path = folder / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return folder


def refused(dataset: str, folder: Path, tmp_path: Path) -> str:
    """The one error line of `figeval data import`, after checking that nothing was stored nor trusted."""
    result = figeval("data", "import", dataset, str(folder), cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    [line] = result.stderr.splitlines()
    source = get_source(dataset)
    assert {s.state for s in file_statuses(source)} == {FileState.MISSING}
    assert recorded_hashes(source) == {}
    return line


def poems() -> str:
    return (ALLUSIONS / "PersPoems.csv").read_text(encoding="utf-8-sig")


def generated() -> str:
    return (ALLUSIONS / "LLM-Generated.csv").read_text(encoding="utf-8-sig")


# --- the declarations -------------------------------------------------------------------------------------------


def test_every_file_trusted_on_first_import_declares_its_columns():
    for source in datasets().values():
        for file in source.files:
            if not source.pins_bytes(file):
                assert file.columns, (source.name, file.name)
                assert all(column.max_chars for column in file.columns), (source.name, file.name)


def _shape(columns) -> list[tuple]:
    return [(c.name, c.required, c.optional, c.script) for c in columns]


def test_the_declared_columns_are_what_the_readers_read():
    declared = {file.name: file.columns for source in datasets().values() for file in source.files}
    # turkish_idioms reads COLUMNS, every text column in Latin script
    assert _shape(declared["idioms.tsv"]) == _shape(idioms.COLUMNS)
    # persian_allusions.load_poems: persian={"text", "allusion", "description"}, optional={"entities", "poet"};
    # its check of LLM-Generated.csv: persian={"text", "allusion"}
    upstream = allusions.UPSTREAM_COLUMN
    assert _shape(declared["PersPoems.csv"]) == _shape(allusions._columns(
        allusions.POEMS_FILE, persian={"text", "allusion", "description"}, optional={"entities", "poet"}))
    assert _shape(declared["LLM-Generated.csv"]) == _shape(allusions._columns(
        allusions.GENERATED_FILE, persian={"text", "allusion"}))
    assert [c.name for c in declared["PersPoems.csv"]] == [v for (f, _), v in upstream.items() if f == "PersPoems.csv"]


def test_the_limits_hold_the_papers_data(shared_pquad_contexts: list[str]):
    # PQuAD's paragraphs are the longest text of the four sources here: 1,707 characters at most (Test.json)
    assert max(map(len, shared_pquad_contexts)) == 1_707 < PARAGRAPHS_CHARS
    assert WORDS_CHARS < SENTENCE_CHARS < PARAGRAPHS_CHARS
    # the fixtures, in the layout the readers assume, pass their declarations
    for file in (*get_source("turkish-idioms").files, *get_source("persian-allusions").files):
        path = IDIOMS_TSV if file.name == "idioms.tsv" else ALLUSIONS / file.name
        assert read_table(path, file.columns)


@pytest.fixture
def shared_pquad_contexts(shared_pquad: Path) -> list[str]:
    return [paragraph["context"] for name in ("Validation.json", "Test.json")
            for article in json.loads((shared_pquad / name).read_text(encoding="utf-8"))["data"]
            for paragraph in article["paragraphs"]]


# --- the script rule ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, script, damage", [
    ("رسیدن", Script.PERSIAN, None),
    ("رس?دن", Script.PERSIAN, "Persian letters replaced by '?'"),  # Windows-1256 has no Persian YEH
    ("کس? که", Script.PERSIAN, None),  # a '?' ending a word is a question mark as often as a lost letter
    ("چه؟ آری", Script.PERSIAN, None),  # the Persian question mark
    ("index.php?title=شیراز", Script.PERSIAN, None),  # Latin letters around the '?': a URL, not a lost letter
    ("ش_م", Script.PERSIAN, None),  # PQuAD joins words with '_'
    ("??? ?? ????", Script.PERSIAN, "no Persian letters"),
    ("burnu sürtülmek", Script.LATIN, None),
    ("burnu s?rt?lmek", Script.LATIN, "letters damaged by a wrong re-encoding"),
    ("burnu sÃ¼rtÃ¼lmek", Script.LATIN, "letters damaged by a wrong re-encoding"),
])
def test_one_rule_by_script(text: str, script: Script, damage: str | None):
    assert script_damage(text, script) == damage


def test_the_rule_finds_nothing_in_pquad(shared_pquad_contexts: list[str]):
    # 2,162 real paragraphs (1,103 + 1,059, SOURCE.md) with Persian letters and no letter replaced by '?'
    assert len(shared_pquad_contexts) == 2_162
    assert [c for c in shared_pquad_contexts if script_damage(c, Script.PERSIAN)] == []


# --- refused at import ----------------------------------------------------------------------------------------------


def test_a_json_file_under_the_tsv_s_name(tmp_path: Path):
    folder = folder_with(tmp_path, {"idioms.tsv": json.dumps({"data": [{"idiom": "burnu sürtülmek"}]})})
    # no tab in the first line: read as comma-separated, its header is the two cells '{"data": [{"idiom": ...'
    line = refused("turkish-idioms", folder, tmp_path)
    assert line.startswith(f"error: {folder}: idioms.tsv: expected columns ['idiom', 'description', 'figurative', "
                           "'paraphrase', 'similar', 'literal', 'frequency'], found ['{\"data\": [{\"idiom\": ")
    assert line.endswith("Check that this is the right file and that its first line is the header. Nothing was stored.")


def test_persian_letters_turned_into_question_marks(tmp_path: Path):
    # A round trip through Windows-1256 (the Arabic code page) writes '?' for every Persian YEH (ی) and hamza
    # above: 12 of the 13 couplets have one between two letters; row 3's (عصایی) ends its word, and is not named.
    damaged = poems().encode("cp1256", errors="replace").decode("cp1256")
    folder = folder_with(tmp_path, {"PersPoems.csv": damaged, "LLM-Generated.csv": generated()})
    assert refused("persian-allusions", folder, tmp_path) == (
        f"error: {folder}: PersPoems.csv: column 'couplet' has Persian letters replaced by '?' in row(s) 1, 2, 4, 5, 6 "
        "and 7 more (row 1: 'من از آن حسن روزافزون که ?وسف ...'); the file went through a wrong re-encoding: use an "
        "intact UTF-8 copy of the file. Nothing was stored.")


def test_every_persian_letter_turned_into_question_marks(tmp_path: Path):
    damaged = re.sub("[\u0600-\u06ff]", "?", generated())
    folder = folder_with(tmp_path, {"PersPoems.csv": poems(), "LLM-Generated.csv": damaged})
    line = refused("persian-allusions", folder, tmp_path)
    assert line.startswith(f"error: {folder}: LLM-Generated.csv: column 'text' has no Persian letters in 3 of 3 rows")


def test_a_one_megabyte_cell(tmp_path: Path):
    # a generated passage is "4-6 lines of text" (Table 5): 1,000,000 characters is a damaged row or another file.
    # The preview is repr() of the first 30 characters, so the ZWNJ of 'شعله‌ها' shows as \u200c.
    passage = ("او در میان شعله‌ها ایستاد " * 40_000)[:1_000_000]
    lines = generated().splitlines()
    lines[2] = f"{passage},آتش نمرود"
    folder = folder_with(tmp_path, {"PersPoems.csv": poems(), "LLM-Generated.csv": "\n".join(lines) + "\n"})
    assert refused("persian-allusions", folder, tmp_path) == (
        f"error: {folder}: LLM-Generated.csv: row 2, column 'text' holds 1,000,000 characters ('او "
        f"در میان شعله\\u200cها "
        "ایستاد او د...'), more than the 20,000 its cells can hold: the row is damaged or this is not the dataset's "
        "file; use an intact copy of the published file. Nothing was stored.")


def test_a_200k_character_idiom_description_is_refused(tmp_path: Path):
    # tests/test_bad_inputs.py's import-turkish-200k-cell case: row 2's description 'çok sevinmek' (two words)
    # made 200,000 characters long. A description is a dictionary definition (Section 3): at most 20,000.
    words = "çok sevinmek ve "
    long = (words * (200_000 // len(words) + 1))[:199_999] + "."
    tsv = IDIOMS_TSV.read_text(encoding="utf-8").replace("çok sevinmek", long)
    folder = folder_with(tmp_path, {"idioms.tsv": tsv})
    assert refused("turkish-idioms", folder, tmp_path) == (
        f"error: {folder}: idioms.tsv: row 2, column 'description' holds 200,000 characters ('çok sevinmek ve çok "
        "sevinmek v...'), more than the 20,000 its cells can hold: the row is damaged or this is not the dataset's "
        "file; use an intact copy of the published file. Nothing was stored.")


def test_after_a_refusal_the_right_files_are_stored_and_trusted(tmp_path: Path):
    folder = folder_with(tmp_path, {"idioms.tsv": "idiom\tdescription\nburnu s?rt?lmek\tx\n"})
    refused("turkish-idioms", folder, tmp_path)
    (folder / "idioms.tsv").write_bytes(IDIOMS_TSV.read_bytes())
    assert figeval("data", "import", "turkish-idioms", str(folder), cwd=tmp_path).returncode == 0
    assert [s.state for s in file_statuses(get_source("turkish-idioms"))] == [FileState.OK]


def test_a_file_without_declared_columns_is_never_trusted():
    source = get_source("turkish-idioms")
    bare = dataclasses.replace(source, files=(dataclasses.replace(source.files[0], columns=()),))
    with pytest.raises(DataError, match=r"^turkish-idioms: 'idioms.tsv' has no pin and no declared columns"):
        store.import_folder(bare, IDIOMS_TSV.parent)
    assert recorded_hashes(bare) == {}


# --- files a pin fixes: the wrong format is the wrong bytes ---------------------------------------------------------


@pytest.fixture
def pquad_splits(tmp_path: Path, shared_pquad: Path) -> Path:
    folder = tmp_path / "pquad"
    folder.mkdir()
    for name in ("Validation.json", "Test.json"):
        (folder / name).write_bytes((shared_pquad / name).read_bytes())
    return folder


def test_a_csv_named_train_json(pquad_splits: Path, tmp_path: Path):
    (pquad_splits / "Train.json").write_bytes(IDIOMS_TSV.read_bytes())
    blob = git_blob_id(pquad_splits / "Train.json")
    assert refused("pquad", pquad_splits, tmp_path) == (
        f"error: {pquad_splits}: 'Train.json' has git blob id {blob}, but pquad is pinned to "
        "561d1c7a1b3693f83ab709c45a8c0e41d561e48c; nothing was stored. The file is not the pinned upstream version "
        "(https://github.com/AUT-NLP/PQuAD@b1724102bdb2f00a61c8ca9f81250ceff9db1872).")


def test_json_that_is_not_pquad_s(pquad_splits: Path, tmp_path: Path):
    # Train.json would be checked first (by its blob id): give it a valid-looking file of the wrong shape instead
    (pquad_splits / "Train.json").write_text('{"version": "c1", "data": []}', encoding="utf-8")
    line = refused("pquad", pquad_splits, tmp_path)
    assert line.startswith(f"error: {pquad_splits}: 'Train.json' has git blob id ")
    assert "pquad is pinned to 561d1c7a1b3693f83ab709c45a8c0e41d561e48c; nothing was stored." in line


def test_a_zip_that_is_not_the_archive(tmp_path: Path):
    archive = pn_summary_zip(tmp_path / "pn_summary.zip")
    line = refused("pn-summary", archive, tmp_path)
    assert line.startswith(f"error: {archive}: 'pn_summary.zip' has sha256 ")
    assert line.endswith("but pn-summary is pinned to "
                         "49aa6a5fdb11244714f9bbe69517f2079ab934c9c565e272a977fbd8d2d404f7; "
                         "nothing was stored. The file is not the published pn_summary.zip "
                         "(https://huggingface.co/datasets/HooshvareLab/pn_summary"
                         "@ad0b1f8142c6d3aed007cfd57294b058eb0503c6 "
                         "(pn_summary.zip, sha256 49aa6a5fdb11244714f9bbe69517f2079ab934c9c565e272a977fbd8d2d404f7)).")
