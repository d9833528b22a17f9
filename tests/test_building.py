"""Resumable build steps: a killed build loses no finished answer and leaves a file the next run can extend; a
build checks its outputs and opens its models before anything else."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from figeval.building import (
    check_build_outputs,
    file_setting,
    fill_sheet,
    grown_list,
    open_model,
    read_build_record,
    read_jsonl,
    refuse_other_settings,
    resumable_step,
    resumed_rows,
    review_answer,
    sheet_record,
    whole_length,
)
from figeval.data.table import Column, Row
from figeval.errors import DataError, FigevalError

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


# --- Before anything: outputs and models ---------------------------------------------------------------------

def test_a_sheet_output_is_checked_before_anything(tmp_path: Path):
    target = tmp_path / "elsewhere.csv"
    target.write_text("precious\n", encoding="utf-8")
    link = tmp_path / "sheet.csv"
    link.symlink_to(target)
    with pytest.raises(FigevalError, match=r"--out .*sheet\.csv is a symbolic link \(to .*elsewhere\.csv\)"):
        check_build_outputs(link, [])
    with pytest.raises(FigevalError, match=r"--out .*missing/sheet\.csv: the folder .*missing does not exist"):
        check_build_outputs(tmp_path / "missing" / "sheet.csv", [])
    # one wording with every command's outputs (`check_outputs`)
    with pytest.raises(FigevalError, match=r"--out .* is a folder, where the command writes a file; remove it or "
                                           r"write to another place\.$"):
        check_build_outputs(tmp_path, [])
    with pytest.raises(FigevalError, match=r"elsewhere\.csv is one of the command's inputs"):
        check_build_outputs(target, [tmp_path])  # an input folder stands for every file in it
    assert target.read_text(encoding="utf-8") == "precious\n"


def test_a_build_folder_is_checked_before_anything(tmp_path: Path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    # one wording with `report --out` and `--figures`
    with pytest.raises(FigevalError, match=r"--out .*file is a file; --out names a folder to write into \(created if "
                                           r"missing\)\.$"):
        check_build_outputs(tmp_path / "file", [], files=["a.jsonl"])
    out = tmp_path / "build"
    (out / "kept.csv").mkdir(parents=True)
    with pytest.raises(FigevalError, match=r"--out .*build/kept\.csv is a folder, where the command writes a file"):
        check_build_outputs(out, [], files=["a.jsonl", "kept.csv"])
    source = out / "a.jsonl"
    source.write_text("{}", encoding="utf-8")
    with pytest.raises(FigevalError, match=r"a\.jsonl is one of the command's inputs"):
        check_build_outputs(out, [None, source], files=["a.jsonl"])  # None: an option not given
    check_build_outputs(tmp_path / "new", [source], files=["a.jsonl"])  # created later by the build
    assert not (tmp_path / "new").exists()


def test_a_model_that_cannot_be_opened_is_one_line_naming_its_option(monkeypatch: pytest.MonkeyPatch):
    with pytest.raises(FigevalError, match=r"^--checker nosuch/x: unknown provider 'nosuch'; give provider/model"):
        open_model("nosuch/x", "--checker")
    with pytest.raises(FigevalError, match=r"^--verifier gpt-4\.1: unknown provider 'gpt-4\.1'"):
        open_model("gpt-4.1", "--verifier")
    monkeypatch.delenv("STUB_API_KEY", raising=False)
    monkeypatch.delenv("STUB_BASE_URL", raising=False)
    # Inspect's own message without its console markup, on one line
    with pytest.raises(FigevalError) as error:
        open_model("openai-api/stub/m", "--generator")
    assert str(error.value) == ("--generator openai-api/stub/m: Unable to initialise stub client. No STUB_API_KEY "
                                "defined in the environment.")
    assert os.environ.get("STUB_API_KEY") is None


def test_a_replay_model_is_refused_by_a_build_before_its_file_is_read(tmp_path: Path):
    # a replay file answers by sample id (models/replay.py) and a build asks outside any sample: even a valid file
    # (or none at all) cannot answer, so the refusal does not depend on it
    with pytest.raises(FigevalError) as error:
        open_model(f"replay/{tmp_path / 'nosuch.jsonl'}", "--generator")
    assert str(error.value) == (f"--generator replay/{tmp_path / 'nosuch.jsonl'}: a replay file answers evaluation "
                                "samples by their ids and has no answer for a build's prompts; a build needs a model "
                                "that writes (e.g. gguf/gemma-3-270m, openai/gpt-4.1).")


def test_a_sheet_build_checks_its_record_beside_the_sheet_too(tmp_path: Path):
    sheet = tmp_path / "sheet.csv"
    assert sheet_record(sheet) == tmp_path / "sheet.csv.build_record.json"
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("{}", encoding="utf-8")
    sheet_record(sheet).symlink_to(elsewhere)
    with pytest.raises(FigevalError, match=r"sheet\.csv\.build_record\.json is a symbolic link \(to .*elsewhere\.json\)"):
        check_build_outputs(sheet, [])


# --- What a resumed build must keep -------------------------------------------------------------------------

OPTIONS = {"model": "--model", "seed": "--seed", "prompt": "the prompt"}


def test_a_resume_with_another_setting_is_one_line_naming_the_option_both_values_and_the_fix(tmp_path: Path):
    recorded = {"model": "openai/gpt-4.1", "seed": 0, "prompt": "abc"}
    refuse_other_settings(tmp_path, recorded, dict(recorded), OPTIONS)  # the same: resumes
    with pytest.raises(FigevalError) as error:
        refuse_other_settings(tmp_path / "s.csv", recorded, {**recorded, "model": "vllm/my model"}, OPTIONS)
    # the given value is quoted as a shell word (it has a space)
    assert str(error.value) == (f"{tmp_path / 's.csv'} was built with --model openai/gpt-4.1, not --model "
                                "'vllm/my model'; give the same to resume it, or build into a new --out.")
    with pytest.raises(FigevalError, match=r"was built with --seed 0, not --seed 1; give the same"):
        refuse_other_settings(tmp_path, recorded, {**recorded, "seed": 1}, OPTIONS)
    # what no option gives: no option to repeat
    with pytest.raises(FigevalError, match=r"was built with the prompt abc, not the prompt def; it changed with "
                                           r"figeval: build into a new --out, or resume with the figeval that built it\.$"):
        refuse_other_settings(tmp_path, recorded, {**recorded, "prompt": "def"}, OPTIONS)


def test_a_record_from_before_a_setting_was_recorded_resumes(tmp_path: Path):
    # only the model was recorded then: the seed has nothing to compare with
    refuse_other_settings(tmp_path, {"model": "m/a"}, {"model": "m/a", "seed": 5, "prompt": "x"}, OPTIONS)
    assert read_build_record(tmp_path / "none.json") == {}
    damaged = tmp_path / "r.json"
    damaged.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(FigevalError, match=r"r\.json is not a build record \(a JSON object\); remove it \(the build "
                                           r"writes it again\) or build into a new --out\.$"):
        read_build_record(damaged)


def test_a_list_option_compares_by_its_entries_and_may_grow_at_its_end(tmp_path: Path):
    two = file_setting("a.csv", [["x", "1"], ["y", "2"]])
    # the same entries under another name: the same list
    refuse_other_settings(tmp_path, {"list": two}, {"list": file_setting("b.csv", [["x", "1"], ["y", "2"]])},
                          {"list": "--allusions"})
    assert grown_list(two, file_setting("a.csv", [["x", "1"], ["y", "2"], ["z", "3"]]))  # one added at the end
    assert not grown_list(two, file_setting("a.csv", [["y", "2"], ["x", "1"]]))  # moved: ids would change
    assert not grown_list(two, file_setting("a.csv", [["x", "1 changed"], ["y", "2"]]))  # another prompt
    changed = file_setting("a.csv", [["x", "1 changed"], ["y", "2"]])
    with pytest.raises(FigevalError) as error:
        refuse_other_settings(tmp_path, {"list": two}, {"list": changed}, {"list": "--allusions"},
                              same={"list": grown_list})
    assert str(error.value) == (f"{tmp_path} was built with --allusions a.csv (sha256 {two['sha256'][:12]}), not "
                                f"--allusions a.csv (sha256 {changed['sha256'][:12]}); give the same to resume it, or "
                                "build into a new --out.")


# --- A person's answers ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("cell, expected", [("yes", True), (" Y ", True), ("بله", True), ("keep", True),
                                            ("no", False), ("0", False), ("خیر", False), ("", None), ("  ", None)])
def test_a_review_cell_is_yes_no_or_not_reviewed(cell: str, expected, tmp_path: Path):
    assert review_answer(tmp_path / "s.csv", Row(3, {"keep": cell}), "keep") is expected


@pytest.mark.parametrize("cell", ["✓", "x", "yes!", "maybe", "نه"])
def test_any_other_review_cell_is_one_line_naming_the_cell_and_the_values(cell: str, tmp_path: Path):
    # data/table.py's AFFIRMATIVE_CELLS and NEGATIVE_CELLS, yes and no first, the others sorted
    with pytest.raises(DataError) as error:
        review_answer(tmp_path / "s.csv", Row(3, {"verified": cell}), "verified", "not verified yet")
    assert str(error.value) == (f"s.csv: row 3, column 'verified' is {cell!r}; use yes or no (also read as yes: 1, "
                                "keep, ok, true, y, بله; as no: 0, false, n, خیر), or leave it empty (not verified "
                                "yet).")
