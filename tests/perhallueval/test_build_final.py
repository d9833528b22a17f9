"""Step 5 of the PerHalluEval build: three annotators' sheets, each checked against the build's own kept.csv,
voted into the final file with kept.csv's cells; a folder without kept.csv or an --out that is a file refused."""

import csv
import unicodedata
from pathlib import Path

import pytest

from figeval.benchmarks.perhallueval.build_final import finalize
from figeval.errors import DataError
from tests.perhallueval import test_build_inputs

built = test_build_inputs.built  # the fixture: a finished QA build of 6 items


def kept_rows(out: Path) -> list[dict]:
    return list(csv.DictReader((out / "kept.csv").read_text(encoding="utf-8-sig").splitlines()))


def write_sheets(tmp_path: Path, rows: list[dict], edit=None) -> list[Path]:
    """Three annotators' copies of kept.csv, every item labelled hallucinated (QA: persian_specific 1);
    `edit(rows)` changes the second annotator's rows before it is written."""
    sheets = []
    for annotator in range(3):
        filled = [{**row, "hallucination_label": "hallucinated", "persian_specific": "1",
                   "annotator": f"annotator{annotator}"} for row in rows]
        if edit is not None and annotator == 1:
            edit(filled)
        path = tmp_path / f"annotator{annotator}.csv"
        with path.open("w", encoding="utf-8-sig", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(filled[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(filled)
        sheets.append(path)
    return sheets


def test_final_cells_come_from_kept_csv_whatever_a_spreadsheet_did_to_them(built: Path, tmp_path: Path):
    rows = kept_rows(built)
    # the question 7 items get no Y/N from the verifier: 6 selected, 2 per category; kept.csv holds the rest
    assert rows and all(row["context"].startswith("آن متن") and row["verifier_score"] == "0.5000" for row in rows)

    def saved_by_a_spreadsheet(filled):
        for row in filled:
            row["context"] = "  " + unicodedata.normalize("NFD", row["context"]) + " \r\n"
            row["verifier_score"] = "0.5"  # 0.5000 shown and saved as a number
    final = finalize("qa", write_sheets(tmp_path, rows, saved_by_a_spreadsheet), built, report=lambda _: None)
    written = list(csv.DictReader(final.read_text(encoding="utf-8").splitlines()))
    # every item labelled hallucinated by all three: every row is in the final file, with kept.csv's cells
    assert [{k: r[k] for k in ("id", "context", "verifier_score")} for r in written] == \
        [{k: r[k] for k in ("id", "context", "verifier_score")} for r in sorted(rows, key=lambda r: r["id"])]
    assert all(unicodedata.is_normalized("NFC", r["context"]) for r in written)


def _change_hallucinated(filled):
    filled[1]["hallucinated"] = "پاسخی دیگر"


def _drop_third(filled):
    del filled[2]


def _add_item(filled):
    filled.append({**filled[0], "id": "zz-1"})


@pytest.mark.parametrize("edit, expected", [
    # the second data row of annotator1.csv is the second row of kept.csv (the copy keeps kept.csv's order)
    (_change_hallucinated, "annotator1.csv: row 2 (id {id1!r}), column 'hallucinated' differs from kept.csv row 2; "
                           "annotators fill only hallucination_label and persian_specific: copy the cell back from "
                           "{kept}."),
    (_drop_third, "annotator1.csv: 1 of the {count} items of {kept} have no row (first: id {id2!r}, kept.csv row 3, "
                  "column 'id'); every annotator labels every row of kept.csv"),
    # the added row comes after kept.csv's rows: data row count + 1
    (_add_item, "annotator1.csv: row {extra}, column 'id': item 'zz-1' is not in {kept}; remove the row, or give a "
                "copy of this build's kept.csv."),
])
def test_a_sheet_that_is_not_a_copy_of_kept_csv_is_refused(edit, expected, built: Path, tmp_path: Path):
    rows = kept_rows(built)
    message = expected.format(id1=rows[1]["id"], id2=rows[2]["id"], count=len(rows), extra=len(rows) + 1,
                              kept=built / "kept.csv")
    with pytest.raises(DataError) as refused:
        finalize("qa", write_sheets(tmp_path, rows, edit), built, report=lambda _: None)
    assert message in str(refused.value) and "\n" not in str(refused.value)
    assert not (built / "final.csv").exists()


def test_final_without_kept_csv_says_to_build_first(built: Path, tmp_path: Path):
    from tests.command import assert_one_line_error, figeval

    sheets = write_sheets(tmp_path, kept_rows(built))
    (built / "kept.csv").unlink()
    result = figeval("build", "perhallueval-final", "--task", "qa", "--out", str(built),
                     *map(str, sheets), cwd=tmp_path)
    # the folder's name has a space: the command is printed with it quoted, ready to paste
    assert_one_line_error(result, f"{built / 'kept.csv'} does not exist",
                          f"run `figeval build perhallueval-candidates --task qa --out '{built}' ...` first")


def test_final_refuses_an_out_that_is_a_file(tmp_path: Path):
    from tests.command import assert_one_line_error, figeval

    (tmp_path / "notes.txt").write_text("notes\n", encoding="utf-8")
    sheets = []
    for n in (1, 2, 3):
        sheets.append(tmp_path / f"a{n}.csv")
        sheets[-1].write_text(f"id,hallucination_label,annotator\nq1,hallucinated,a{n}\n", encoding="utf-8")
    result = figeval("build", "perhallueval-final", "--task", "qa", "--out", "notes.txt",
                     *map(str, sheets), cwd=tmp_path)
    assert_one_line_error(result, "--out notes.txt is a file; give the build folder")
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "notes\n"
