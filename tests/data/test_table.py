"""CSV validation on the real upstream files and on broken copies made from them."""

from pathlib import Path

import pytest

from figeval.benchmarks.ffe_hallu.dataset import AUTHENTIC_COLUMNS, FAKE_COLUMNS
from figeval.data.table import Column, read_table
from figeval.errors import DataError


def damage_like_upstream(text: str) -> str:
    """What happened to upstream's "En->Fa FFE translation.csv": saved in a legacy 8-bit code page, every
    character it lacks (every Persian letter, and the ZWNJ) became "_"."""
    return text.encode("cp1252", errors="replace").decode("cp1252").replace("?", "_")


def test_real_upstream_files_load(shared_ffe_hallu: Path):
    authentic = read_table(shared_ffe_hallu / "Authentic FFEs.csv", AUTHENTIC_COLUMNS, unique="farsi_idiom")
    fake = read_table(shared_ffe_hallu / "Fake FFEs.csv", FAKE_COLUMNS, unique="Fake Idiom")
    assert len(authentic) == 200 and len(fake) == 200
    # The byte-order mark is not part of the first column's name, and rows are numbered from 1.
    assert authentic[0].number == 1 and authentic[0].cells["farsi_idiom"] == "به بار اوردن"
    assert fake[0].cells == {
        "Fake Idiom": "گربه را دم دروازه کشتن",
        "Source Idiom": "گربه را دم حجله کشتن",
        "Category": "Word Perturbation",
    }
    # SOURCE.md: "Source Idiom" is empty for the two fully synthetic categories (rows 101-200).
    assert sum(1 for row in fake if not row.cells["Source Idiom"]) == 100


def test_damaged_translation_file_is_refused_naming_file_and_column(tmp_path: Path):
    damaged = tmp_path / "En->Fa FFE translation.csv"
    original = (
        "English Idiom,Farsi Idiom\n"
        "break the ice,یخ کسی را آب کردن\n"
        "a piece of cake,مثل آب خوردن\n"
        "kill two birds with one stone,با یک تیر دو نشان زدن\n"
    )
    damaged.write_text(damage_like_upstream(original), encoding="utf-8")
    assert "break the ice,__ ___ __ __ ____" in damaged.read_text(encoding="utf-8")
    with pytest.raises(DataError) as error:
        read_table(damaged, [Column("English Idiom"), Column("Farsi Idiom", persian=True)])
    message = str(error.value)
    assert "En->Fa FFE translation.csv" in message and "'Farsi Idiom'" in message
    assert "3 of 3 rows" in message and "\n" not in message


def test_damaged_copy_of_real_authentic_file_is_refused(shared_ffe_hallu: Path, tmp_path: Path):
    damaged = tmp_path / "Authentic FFEs.csv"
    damaged.write_text(damage_like_upstream((shared_ffe_hallu / "Authentic FFEs.csv").read_text("utf-8-sig")))
    with pytest.raises(DataError,
                       match=r"Authentic FFEs.csv: column 'farsi_idiom' has no Persian letters in 200 of 200"):
        read_table(damaged, AUTHENTIC_COLUMNS)


def test_a_single_scriptless_row_is_named(tmp_path: Path):
    path = tmp_path / "a.csv"
    path.write_text("farsi_idiom,Meaning\nدل پری داشتن,ناراحت بودن\n???,ناراحت بودن\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"a.csv: column 'farsi_idiom' has no Persian letters in row\(s\) 2 "):
        read_table(path, AUTHENTIC_COLUMNS)


def test_missing_column_lists_found_and_expected(tmp_path: Path):
    path = tmp_path / "a.csv"
    path.write_text("idiom,meaning\nدل پری داشتن,ناراحت بودن\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"expected columns \['farsi_idiom', 'Meaning'\], found \['idiom', 'meaning'\]"):
        read_table(path, AUTHENTIC_COLUMNS)


def test_empty_required_cell_names_row_and_column(tmp_path: Path):
    path = tmp_path / "a.csv"
    path.write_text("farsi_idiom,Meaning\nدل پری داشتن,ناراحت بودن\nپا پس کشیدن,  \n", encoding="utf-8")
    with pytest.raises(DataError, match=r"a.csv: row 2, column 'Meaning' is empty"):
        read_table(path, AUTHENTIC_COLUMNS)


def test_duplicates_are_found_after_normalization(tmp_path: Path):
    # Row 3 is row 1 with a ZWNJ instead of a space and an Arabic YEH: the same expression.
    path = tmp_path / "a.csv"
    path.write_text(
        "farsi_idiom,Meaning\nمی رود از یاد,فراموش شدن\nپا پس کشیدن,صرف نظر کردن\nمی\u200cرود از \u064aاد,فراموش شدن\n",
        encoding="utf-8",
    )
    with pytest.raises(DataError,
                       match=r"1 expression\(s\) in column 'farsi_idiom' appear more than once \(rows 1, 3\)"):
        read_table(path, AUTHENTIC_COLUMNS, unique="farsi_idiom")


def test_not_utf8_is_refused(tmp_path: Path):
    path = tmp_path / "a.csv"
    # Saved in Windows-1256, the legacy Arabic-script code page
    path.write_text("farsi_idiom,Meaning\nدل پر داشتن,ناراحت بودن\n", encoding="cp1256")
    with pytest.raises(DataError, match=r"a.csv: not UTF-8 .* re-save the file as UTF-8"):
        read_table(path, AUTHENTIC_COLUMNS)


def test_unquoted_comma_gives_field_count_error(tmp_path: Path):
    path = tmp_path / "a.csv"
    path.write_text("farsi_idiom,Meaning\nدل پری داشتن,ناراحت, دلخور بودن\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"row 1 has 3 fields but the header has 2"):
        read_table(path, AUTHENTIC_COLUMNS)


@pytest.mark.parametrize("name", ["pn_summary.csv", "pn_summary.tsv", "pn_summary.txt"])
def test_the_delimiter_is_the_header_s_not_the_suffix_s(name, tmp_path: Path):
    # PN-Summary ships tab-separated files named .csv; a summary may hold commas ("،" and ",").
    path = tmp_path / name
    path.write_text("farsi_idiom\tMeaning\nدل پری داشتن\tناراحت, دلخور بودن\n", encoding="utf-8")
    [row] = read_table(path, AUTHENTIC_COLUMNS)
    assert row.cells == {"farsi_idiom": "دل پری داشتن", "Meaning": "ناراحت, دلخور بودن"}


def test_a_comma_separated_tsv_is_read_by_its_header(tmp_path: Path):
    path = tmp_path / "named.tsv"
    path.write_text("farsi_idiom,Meaning\nدل پری داشتن,ناراحت بودن\n", encoding="utf-8")
    assert read_table(path, AUTHENTIC_COLUMNS)[0].cells["Meaning"] == "ناراحت بودن"
