"""A build checks its outputs and opens its models before anything else, resumes only with the settings it was
built with, and reads a person's yes/no strictly."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from figeval.building import (
    check_build_outputs,
    file_setting,
    grown_list,
    open_model,
    read_build_record,
    refuse_other_settings,
    review_answer,
    sheet_record,
)
from figeval.data.table import Row
from figeval.errors import DataError, FigevalError


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
    with pytest.raises(FigevalError,
                       match=r"sheet\.csv\.build_record\.json is a symbolic link \(to .*elsewhere\.json\)"):
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
                                           r"figeval: build into a new --out, or resume with the "
                                           r"figeval that built it\.$"):
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
