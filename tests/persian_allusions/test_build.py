"""`figeval build allusive-texts` never writes over what it reads or through a link, refuses a model it cannot
open before writing anything, and resumes a sheet a kill left ending in half a row."""

from pathlib import Path
from unittest import mock

import pytest
from inspect_ai.model import get_model

from figeval.benchmarks.persian_allusions.build import build_allusive_texts
from figeval.errors import FigevalError
from tests.persian_allusions.test_pool import ANT, RING, Writer, sheet_rows
from tests.test_bad_inputs import figeval_in_process
from tests.test_cli import assert_one_line_error

LIST = f"allusion,description\n{RING.title},{RING.description}\n{ANT.title},{ANT.description}\n"


def command(tmp_path: Path, *args: str, writer: Writer | None = None):
    """`figeval build allusive-texts --allusions allusions.csv ARGS` in this process, the model scripted."""
    (tmp_path / "allusions.csv").write_text(LIST, encoding="utf-8")
    with mock.patch("figeval.building.get_model",
                    lambda name, **args: get_model(name, custom_outputs=writer or Writer(), **args)):
        return figeval_in_process("build", "allusive-texts", "--allusions", "allusions.csv", *args, cwd=tmp_path)


def test_the_command_writes_the_sheet(tmp_path: Path):
    result = command(tmp_path, "--model", "mockllm/model", "--out", "pool.csv")
    assert result.returncode == 0, result.stderr
    assert [row["id"] for row in sheet_rows(tmp_path / "pool.csv")] == ["generated-001/1", "generated-002/1"]


@pytest.mark.parametrize("out, model, fragments", [
    ("allusions.csv", "mockllm/model", ("--out allusions.csv is one of the command's inputs",)),
    ("link.csv", "mockllm/model", ("--out link.csv is a symbolic link (to allusions.csv)",)),
    ("nosuch/pool.csv", "mockllm/model", ("the folder", "nosuch does not exist")),
    ("pool.csv", "nosuch/model", ("--model nosuch/model: unknown provider 'nosuch'",)),
    ("pool.csv", "replay/allusions.csv", ("replay file allusions.csv, line 1: not valid JSON",)),
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
    written, kept = build_allusive_texts("mockllm/model", [RING, ANT], sheet, {"custom_outputs": writer},
                                         report=lambda _: None)
    # asked again (from the response cache: the model saw no call), the first passage kept
    assert (written, kept) == (1, 1) and writer.calls == []
    assert [(row["id"], row["allusion"]) for row in sheet_rows(sheet)] == [("generated-001/1", RING.title),
                                                                          ("generated-002/1", ANT.title)]
