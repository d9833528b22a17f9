"""`figeval build persian-allusions-texts` never writes over what it reads or through a link, refuses a model it cannot
open before writing anything, and resumes a sheet a kill left ending in half a row."""

from pathlib import Path
from unittest import mock

import pytest
from inspect_ai.model import get_model

from figeval.benchmarks.persian_allusions.build import build_allusive_texts
from figeval.errors import FigevalError
from tests.command import assert_one_line_error, figeval
from tests.persian_allusions.test_pool import ANT, RING, Writer, sheet_rows

LIST = f"allusion,description\n{RING.title},{RING.description}\n{ANT.title},{ANT.description}\n"


def command(tmp_path: Path, *args: str, writer: Writer | None = None):
    """`figeval build persian-allusions-texts --allusions allusions.csv ARGS` in this process, the model scripted."""
    (tmp_path / "allusions.csv").write_text(LIST, encoding="utf-8")
    with mock.patch("figeval.building.get_model",
                    lambda name, **args: get_model(name, custom_outputs=writer or Writer(), **args)):
        return figeval("build", "persian-allusions-texts", "--allusions", "allusions.csv", *args, cwd=tmp_path)


def test_the_command_writes_the_sheet(tmp_path: Path):
    result = command(tmp_path, "--model", "mockllm/model", "--out", "pool.csv")
    assert result.returncode == 0, result.stderr
    assert [row["id"] for row in sheet_rows(tmp_path / "pool.csv")] == ["generated-001/1", "generated-002/1"]


@pytest.mark.parametrize("out, model, fragments", [
    ("allusions.csv", "mockllm/model", ("--out allusions.csv is one of the command's inputs",)),
    ("link.csv", "mockllm/model", ("--out link.csv is a symbolic link (to allusions.csv)",)),
    ("nosuch/pool.csv", "mockllm/model", ("the folder", "nosuch does not exist")),
    ("pool.csv", "nosuch/model", ("--model nosuch/model: unknown provider 'nosuch'",)),
    # a replay file answers samples by id, and a build asks outside any sample: refused whatever the file holds
    ("pool.csv", "replay/allusions.csv", ("--model replay/allusions.csv: a replay file answers evaluation samples by "
                                          "their ids and has no answer for a build's prompts; a build needs a model "
                                          "that writes",)),
])
def test_what_the_build_cannot_use_is_refused_before_anything_is_written(out: str, model: str, fragments,
                                                                        tmp_path: Path):
    (tmp_path / "link.csv").symlink_to("allusions.csv")
    writer = Writer()
    assert_one_line_error(command(tmp_path, "--model", model, "--out", out, writer=writer), *fragments)
    assert writer.calls == [] and (tmp_path / "allusions.csv").read_text(encoding="utf-8") == LIST
    assert not (tmp_path / "pool.csv").exists()


def test_the_replay_file_of_the_model_is_never_the_sheet(tmp_path: Path):
    replay = tmp_path / "answers.jsonl"
    replay.write_text("", encoding="utf-8")
    with pytest.raises(FigevalError, match=r"answers\.jsonl is one of the command's inputs"):
        build_allusive_texts(f"replay/{replay}", [RING], replay, {}, report=lambda _: None)
    assert replay.read_text(encoding="utf-8") == ""


def test_a_sheet_ending_in_half_a_row_asks_that_passage_again(tmp_path: Path):
    sheet = tmp_path / "pool.csv"
    build_allusive_texts("mockllm/model", [RING, ANT], sheet, {"custom_outputs": Writer()}, report=lambda _: None)
    header, first, second = sheet.read_text(encoding="utf-8-sig").splitlines()
    # killed while writing the second passage: its id and half its allusion made it to disk
    sheet.write_text(f"{header}\n{first}\n{second[:20]}", encoding="utf-8-sig")
    writer = Writer()
    written, kept, _ = build_allusive_texts("mockllm/model", [RING, ANT], sheet, {"custom_outputs": writer},
                                            report=lambda _: None)
    # asked again (from the response cache: the model saw no call), the first passage kept
    assert (written, kept) == (1, 1) and writer.calls == []
    assert [(row["id"], row["allusion"]) for row in sheet_rows(sheet)] == [("generated-001/1", RING.title),
                                                                          ("generated-002/1", ANT.title)]


# --- Settings a resumed sheet keeps; the pool's bound; the review's marks (issue 24) ------------------------------

def test_a_sheet_resumes_only_with_the_model_and_list_that_wrote_it(tmp_path: Path):
    import json

    from figeval.building import sheet_record
    from tests.persian_allusions.test_pool import build

    sheet = tmp_path / "pool.csv"
    build(sheet, 1)  # RING, ANT by mockllm/model
    record = json.loads(sheet_record(sheet).read_text(encoding="utf-8"))
    assert record["model"] == "mockllm/model" and record["allusions"]["file"] == "the paper's 75 (default)"
    before = sheet.read_bytes()

    other = Writer()
    with pytest.raises(FigevalError) as error:
        build_allusive_texts("mockllm/other", [RING, ANT], sheet, {"custom_outputs": other}, report=lambda _: None)
    assert str(error.value) == (f"{sheet} was built with --model mockllm/model, not --model mockllm/other; give the "
                                "same to resume it, or build into a new --out.")
    # the ant's description changed: its passage would answer another prompt
    changed = ANT.__class__(ANT.title, "مور سخن گفت", ANT.theme)
    with pytest.raises(FigevalError, match=r"was built with --allusions 'the paper'\"'\"'s 75 \(default\)' \(sha256 "
                                           r"[0-9a-f]{12}\), not --allusions 'the paper'\"'\"'s 75 "
                                           r"\(default\)' \(sha256 "
                                           r"[0-9a-f]{12}\); give the same to resume it"):
        build_allusive_texts("mockllm/model", [RING, changed], sheet, {"custom_outputs": other}, report=lambda _: None)
    assert other.calls == [] and sheet.read_bytes() == before

    # a list grown at its end resumes: only the new allusion is asked
    third = ANT.__class__("یوسف", "یوسف در چاه", "quranic")
    grown = Writer()
    assert build_allusive_texts("mockllm/model", [RING, ANT, third], sheet, {"custom_outputs": grown},
                                report=lambda _: None) == (1, 2, [])
    assert [call[0] for call in grown.calls] == ["یوسف"]


def test_a_sheet_from_before_the_record_resumes(tmp_path: Path):
    from figeval.building import sheet_record
    from tests.persian_allusions.test_pool import build

    sheet = tmp_path / "pool.csv"
    build(sheet, 1)
    sheet_record(sheet).unlink()  # as a sheet an earlier figeval wrote: nothing to compare
    writer = Writer()
    assert build_allusive_texts("mockllm/other", [RING, ANT], sheet, {"custom_outputs": writer},
                                report=lambda _: None, per_allusion=2) == (2, 2, [])
    assert sheet_record(sheet).is_file()


@pytest.mark.parametrize("given", ["5000", "11", "0", "-1"])
def test_a_pool_size_outside_1_to_10_is_refused_before_anything(given: str, tmp_path: Path):
    # the paper prints no pool size (Section 2.2): 10 per allusion is our bound, 750 calls for its 75 allusions
    writer = Writer()
    assert_one_line_error(command(tmp_path, "--model", "mockllm/model", "--out", "pool.csv", "--per-allusion", given,
                                  writer=writer),
                          f"--per-allusion must be between 1 and 10 (passages per allusion, each a model call and a "
                          f"passage to review; the paper prints no pool size), not {given}.")
    assert writer.calls == [] and not (tmp_path / "pool.csv").exists()
    # 10 itself is allowed: 2 allusions x 10
    assert command(tmp_path, "--model", "mockllm/model", "--out", "pool.csv", "--per-allusion", "10").returncode == 0
    assert len(sheet_rows(tmp_path / "pool.csv")) == 20


@pytest.mark.parametrize("cell", ["✓", "x", "نه"])
def test_a_keep_cell_other_than_yes_no_or_empty_is_named(cell: str, tmp_path: Path):
    from figeval.benchmarks.persian_allusions.review import load_kept_passages
    from figeval.benchmarks.persian_allusions.titles import allusion_key
    from figeval.errors import DataError

    sheet = tmp_path / "pool.csv"
    sheet.write_text(f"id,allusion,text,keep\ngenerated-001/1,{RING.title},متن یک,yes\n"
                     f"generated-002/1,{ANT.title},متن دو,{cell}\n", encoding="utf-8")
    allusions = {allusion_key(a.title): a for a in (RING, ANT)}
    # "✓" was read as "drop" without a word
    with pytest.raises(DataError, match=rf"^pool\.csv: row 2, column 'keep' is {cell!r}; use yes or no \(also read as "
                                        r"yes: .*\), or leave it empty \(not reviewed yet: the row is dropped\)\.$"):
        load_kept_passages(sheet, allusions)
    sheet.write_text(sheet.read_text(encoding="utf-8").replace(f",{cell}\n", ",\n"), encoding="utf-8")
    assert [text.id for text in load_kept_passages(sheet, allusions)] == ["generated-001/1"]  # empty: dropped
    # a passage kept with no text is refused, never a sample with an empty text (nor silently dropped)
    sheet.write_text(f"id,allusion,text,keep\ngenerated-001/1,{RING.title},متن یک,yes\n"
                     f"generated-002/1,{ANT.title}, ,yes\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"^pool\.csv: row 2 is marked keep=yes but its 'text' is empty; write the "
                                        r"passage there, or mark the row no\.$"):
        load_kept_passages(sheet, allusions)


def test_the_printed_next_command_quotes_the_sheet_for_the_shell(tmp_path: Path):
    result = command(tmp_path, "--model", "mockllm/model", "--out", "my pool.csv")
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith("-T dataset=generated -T 'generated=my pool.csv'")
