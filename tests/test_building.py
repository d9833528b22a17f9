"""Resumable build steps: a killed build loses no finished answer and leaves a file the next run can extend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from figeval.building import read_jsonl, resumable_step
from figeval.errors import DataError


def test_a_step_cut_off_mid_write_resumes_with_only_what_is_missing(tmp_path: Path):
    step = tmp_path / "generate.jsonl"
    # a, b finished; c's line was being written when the build was killed
    step.write_text('{"key": "a", "text": "1"}\n{"key": "b", "text": "2"}\n{"key": "c", "te', encoding="utf-8")
    asked: list[str] = []

    async def work(key: str) -> dict:
        asked.append(key)
        return {"text": key.upper()}

    done = resumable_step(step, ["a", "b", "c", "d"], work, "generate", report=lambda _: None)
    assert sorted(asked) == ["c", "d"]
    assert {key: record["text"] for key, record in done.items()} == {"a": "1", "b": "2", "c": "C", "d": "D"}
    # the file is whole again: every line a record, the cut-off one gone
    keys = [json.loads(line)["key"] for line in step.read_text(encoding="utf-8").splitlines()]
    assert keys[:2] == ["a", "b"] and sorted(keys[2:]) == ["c", "d"]  # c and d in the order they finished


def test_a_damaged_line_inside_a_step_file_is_named(tmp_path: Path):
    step = tmp_path / "verify.jsonl"
    step.write_text('{"key": "a"}\nnot json\n{"key": "b"}\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"verify\.jsonl: line 2 is not a record"):
        read_jsonl(step)
