"""Resumable build steps: a killed build loses no finished answer and leaves a file the next run can extend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from figeval.data.table import Column
from figeval.errors import DataError
from figeval.resumable import fill_sheet, read_jsonl, resumable_step, resumed_rows, whole_length

QUIET = lambda _: None  # noqa: E731


def test_a_step_cut_off_mid_write_resumes_with_only_what_is_missing(tmp_path: Path):
    step = tmp_path / "generate.jsonl"
    # a, b finished; c's line was being written when the build was killed
    step.write_text('{"key": "a", "text": "1"}\n{"key": "b", "text": "2"}\n{"key": "c", "te', encoding="utf-8")
    asked: list[str] = []

    async def work(key: str) -> dict:
        asked.append(key)
        return {"text": key.upper()}

    done = resumable_step(step, ["a", "b", "c", "d"], work, "generate", report=QUIET)
    assert sorted(asked) == ["c", "d"]
    assert {key: record["text"] for key, record in done.items()} == {"a": "1", "b": "2", "c": "C", "d": "D"}
    # the file is whole again: every line a record, the cut-off one gone
    keys = [json.loads(line)["key"] for line in step.read_text(encoding="utf-8").splitlines()]
    assert keys[:2] == ["a", "b"] and sorted(keys[2:]) == ["c", "d"]  # c and d in the order they finished


def test_a_cut_inside_a_persian_letter_is_the_cut_record_too(tmp_path: Path):
    step = tmp_path / "candidates.jsonl"
    whole = '{"key": "a", "text": "سلام"}\n'.encode()
    # 'س' is two bytes (d8 b3): the kill left only the first of them
    step.write_bytes(whole + '{"key": "b", "text": "س'.encode()[:-1])
    assert whole_length(step.read_bytes(), sheet=False) == len(whole)
    assert list(read_jsonl(step)) == ["a"]


def test_a_damaged_line_inside_a_step_file_is_named(tmp_path: Path):
    step = tmp_path / "verify.jsonl"
    step.write_text('{"key": "a"}\nnot json\n{"key": "b"}\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"verify\.jsonl: line 2 is not a record this step wrote; delete that line"):
        read_jsonl(step)
    # a record of the right shape but without what the step needs (an edit), or not an object, is named too
    step.write_text('{"key": "a", "score": 1}\n{"key": "b"}\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"line 2 is not a record"):
        read_jsonl(step, fields=("score",))
    step.write_text('{"key": "a"}\n["key", "b"]\n{"key": "c"}', encoding="utf-8")
    with pytest.raises(DataError, match=r"line 2 is not a record"):
        read_jsonl(step)


# --- Sheets that grow a row at a time (paraphrases, allusive texts) ------------------------------------------

COLUMNS = (Column("row"), Column("text", required=False), Column("verified", required=False))
HEADER = [column.name for column in COLUMNS]


def sheet(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "sheet.csv"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    return path


def fill(path: Path, rows: dict, todo: list[str], order: list[str]) -> list[str]:
    """`fill_sheet` asking for `todo` (each answer: "text <key>"); returns the keys asked."""
    asked = []

    async def work(key: str) -> dict[str, str]:
        asked.append(key)
        return {"row": key, "text": f"text {key}", "verified": ""}

    fill_sheet(path, HEADER, rows, todo, lambda key: key, work, order, QUIET)
    return asked


@pytest.mark.parametrize("tail", [
    "3,text",      # cut inside a cell: 2 cells of 3
    "3,text 3",    # cut before the last cell's comma: still 2 of 3
    '3,"text, 3',  # cut inside a quoted cell (an open quote)
    "3",           # cut inside the first cell: "3" might have been "31"
])
def test_a_sheet_ending_in_half_a_row_drops_that_row_and_asks_it_again(tmp_path: Path, tail: str):
    path = sheet(tmp_path, "row,text,verified\n1,text 1,yes\n2,text 2,\n" + tail)
    rows = {row.cells["row"]: row.cells for row in resumed_rows(path, COLUMNS)}
    assert list(rows) == ["1", "2"] and rows["1"]["verified"] == "yes"
    assert fill(path, rows, ["3"], ["1", "2", "3"]) == ["3"]
    assert path.read_text(encoding="utf-8-sig") == "row,text,verified\n1,text 1,yes\n2,text 2,\n3,text 3,\n"


def test_a_row_spanning_lines_before_the_cut_one_is_kept_whole(tmp_path: Path):
    # row 1's quoted cell holds a line end: the cut record starts after it, at row 2's line
    path = sheet(tmp_path, 'row,text,verified\n1,"two\nlines",yes\n2,"half')
    rows = {row.cells["row"]: row.cells for row in resumed_rows(path, COLUMNS)}
    assert rows == {"1": {"row": "1", "text": "two\nlines", "verified": "yes"}}
    assert path.read_text(encoding="utf-8-sig") == 'row,text,verified\n1,"two\nlines",yes\n'


def test_a_whole_last_row_saved_without_a_line_end_is_kept(tmp_path: Path):
    # a person filled 'verified' and their editor saved no final line end: every cell is there, no quote open
    path = sheet(tmp_path, "row,text,verified\n1,text 1,\n2,text 2,yes")
    rows = {row.cells["row"]: row.cells for row in resumed_rows(path, COLUMNS)}
    assert rows["2"]["verified"] == "yes"
    # the line end is added before the next row, which starts on its own line
    assert path.read_text(encoding="utf-8-sig") == "row,text,verified\n1,text 1,\n2,text 2,yes\n"
    assert fill(path, rows, ["3"], ["1", "2", "3"]) == ["3"]
    assert path.read_text(encoding="utf-8-sig").splitlines()[1:] == ["1,text 1,", "2,text 2,yes", "3,text 3,"]


@pytest.mark.parametrize("text", ["row,text,verified\n", "row,text,verified", "row,te", ""])
def test_a_sheet_stopped_before_its_first_answer_starts_over(tmp_path: Path, text: str):
    # a header alone (a build that failed before any answer; one cut while writing it), or an empty file
    path = sheet(tmp_path, text)
    assert resumed_rows(path, COLUMNS) == []
    assert fill(path, {}, ["1"], ["1"]) == ["1"]
    assert path.read_text(encoding="utf-8-sig") == "row,text,verified\n1,text 1,\n"


def test_a_file_that_is_not_the_sheet_is_refused_and_left_as_it_is(tmp_path: Path):
    path = tmp_path / "labels.csv"
    path.write_text("task,model,label\nffe,m,correct\nffe,m,inc", encoding="utf-8")  # no final line end
    with pytest.raises(DataError, match=r"labels\.csv: expected columns \['row', 'text', 'verified'\]"):
        resumed_rows(path, COLUMNS)
    assert path.read_text(encoding="utf-8") == "task,model,label\nffe,m,correct\nffe,m,inc"


def test_a_damaged_row_before_the_last_is_named(tmp_path: Path):
    path = sheet(tmp_path, "row,text,verified\n1,text 1,,extra,cells\n2,text 2,\n")
    with pytest.raises(DataError, match=r"sheet\.csv: row 1 has 5 fields but the header has 3"):
        resumed_rows(path, COLUMNS)


def test_a_build_step_prints_progress_on_time_while_no_item_finishes(tmp_path: Path, monkeypatch):
    # one item that takes 1.2 s (a model loading): with lines every 0.3 s, lines come while it runs, each saying
    # 0/1 and that no time left can be said yet; then the last line, 1/1
    import asyncio

    from figeval import progress

    monkeypatch.setattr(progress, "INTERVAL_S", 0.3)
    lines: list[str] = []

    async def slow(key: str) -> dict:
        await asyncio.sleep(1.2)
        return {"answer": key}

    resumable_step(tmp_path / "step.jsonl", ["k1"], slow, "asking", lines.append)
    waiting = [line for line in lines if line.startswith("  asking: 0/1 (0%)")]
    assert len(waiting) >= 2 and all(line.endswith("time left: cannot estimate yet") for line in waiting)
    assert lines[-1].startswith("  asking: 1/1 (100%)") and "done in 1 s" in lines[-1]


def test_a_resumed_sheet_with_a_cell_too_long_is_a_person_s_to_correct(tmp_path: Path):
    # a sheet a build appends to and a person fills: its row 2 (rows counted after the header) holds a 12-character
    # note, over the 10 allowed
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("key,note\na,short\nb,twelve chars\n", encoding="utf-8")
    with pytest.raises(DataError) as refused:
        resumed_rows(sheet, [Column("key"), Column("note", max_chars=10)])
    assert str(refused.value).startswith(f"{sheet.name}: row 2, column 'note' holds 12 characters")
    assert str(refused.value).endswith("correct the cell.") and "published file" not in str(refused.value)
