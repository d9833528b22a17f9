"""Building fresh fake FFEs (Section 3.4, Appendix B 2.1): resumable, nothing asked twice, a person's marks
kept, checker answers in the sheet; and what the build refuses before it writes or asks anything."""

import csv
import json
from pathlib import Path

import pytest
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from figeval.benchmarks.ffe_hallu.dataset import FAKE_CATEGORIES
from figeval.benchmarks.ffe_hallu.fakes import CULTURAL, MIMICRY, SEMANTIC_INVERSION, WORD_PERTURBATION
from figeval.benchmarks.ffe_hallu.fakes_build import CANDIDATES_FILE, SHEET_FILE, build_fakes
from figeval.errors import DataError, FigevalError


class Interrupted(Exception):
    """Stands in for a crash or a Ctrl-C half-way through a build."""


class ScriptedFaker:
    """A mockllm output function that writes a plausible candidate for each kind of prompt, counts the prompts
    it saw, and can fail after a number of calls."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.prompts: list[str] = []
        self.fail_after = fail_after

    def __call__(self, messages, tools, tool_choice, config) -> ModelOutput:
        prompt = messages[-1].text
        if self.fail_after is not None and len(self.prompts) >= self.fail_after:
            raise Interrupted
        self.prompts.append(prompt)
        if prompt.endswith("Fake idiom:"):
            source = prompt.rsplit("Idiom: ", 1)[1].split("\n")[0]
            words = source.split()
            if "Word Perturbation" in prompt:
                text = " ".join(["زنبور", *words[1:]])
            else:
                text = " ".join(reversed(words))
        elif prompt.endswith("Answer:"):  # the checkers' question
            return self.output("No")
        else:
            fill = prompt.split("«")[1].split("»")[0]
            text = f"{fill} که رفت، {fill} هم گریه کرد"
        return self.output(f"Here it is:\n«{text}»")

    @staticmethod
    def output(text: str) -> ModelOutput:
        output = ModelOutput.from_content("mockllm/model", text)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


def rows_of(sheet: Path) -> list[dict[str, str]]:
    with sheet.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def test_build_resumes_asking_only_for_missing_candidates(ffe_hallu_imported: Path, tmp_path: Path):
    out = tmp_path / "fakes"
    interrupted = ScriptedFaker(fail_after=5)
    with pytest.raises(Interrupted):
        build_fakes(out, 4, "mockllm/model", 0, {"custom_outputs": interrupted}, report=lambda _: None)
    on_disk = [json.loads(line) for line in (out / CANDIDATES_FILE).read_text(encoding="utf-8").splitlines()]
    assert len([r for r in on_disk if r["method"].startswith("model")]) == 5  # every answer that arrived is kept

    resumed = ScriptedFaker()
    summary = build_fakes(out, 4, "mockllm/model", 0, {"custom_outputs": resumed}, report=lambda _: None)
    asked_before = set(interrupted.prompts)
    assert resumed.prompts and not asked_before & set(resumed.prompts)  # nothing asked twice
    assert summary.candidates == 16 and summary.asked == len(resumed.prompts)

    rows = rows_of(out / SHEET_FILE)
    assert (out / SHEET_FILE).read_bytes().startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM, as the other sheets
    assert [row["category"] for row in rows] == [c for c in FAKE_CATEGORIES for _ in range(4)]
    assert rows[0]["id"] == "word_perturbation-001" and rows[0]["keep"] == ""
    for row in rows:
        assert row["fake_idiom"] and row["source_idiom"] == ("" if row["category"] in (MIMICRY, CULTURAL)
                                                             else row["source_idiom"])
        if row["category"] == WORD_PERTURBATION:
            assert row["one_word"] == "pass" and row["change"].endswith("-> زنبور")
    # No authentic FFE in the benchmark has a "به از" shape, but rules apply to some: those need no model
    inversions = [row for row in rows if row["category"] == SEMANTIC_INVERSION]
    assert inversions[0]["method"].startswith("rule: ")

    # A person marks rows; growing the build asks only for the new candidates and keeps the marks.
    sheet_rows = rows_of(out / SHEET_FILE)
    sheet_rows[0]["keep"], sheet_rows[0]["note"] = "no", "too close to the source"
    with (out / SHEET_FILE).open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(sheet_rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(sheet_rows)
    grown = ScriptedFaker()
    summary = build_fakes(out, 5, "mockllm/model", 0, {"custom_outputs": grown}, report=lambda _: None)
    assert summary.candidates == 20 and 3 <= len(grown.prompts) <= 4  # one more per category (rules need none)
    rows = rows_of(out / SHEET_FILE)
    assert (rows[0]["keep"], rows[0]["note"]) == ("no", "too close to the source")

    with pytest.raises(FigevalError, match="was built with --seed 0, not --seed 1"):
        build_fakes(out, 5, "mockllm/model", 1, {"custom_outputs": grown}, report=lambda _: None)
    # a half-written last line (the build was killed while writing it) is dropped: no other candidate is missing,
    # so nothing is asked, and the step file is whole again (its 20 records)
    with (out / CANDIDATES_FILE).open("a", encoding="utf-8") as handle:
        handle.write('{"key": "word_perturbation|')
    again = ScriptedFaker()
    assert build_fakes(out, 5, "mockllm/model", 0, {"custom_outputs": again}, report=lambda _: None).asked == 0
    assert again.prompts == [] and len((out / CANDIDATES_FILE).read_text(encoding="utf-8").splitlines()) == 20


def test_checker_answers_are_in_the_sheet(ffe_hallu_imported: Path, tmp_path: Path):
    out = tmp_path / "fakes"
    faker = ScriptedFaker()
    checker = get_model("mockllm/model", custom_outputs=ScriptedFaker())  # answers "No"
    build_fakes(out, 1, "mockllm/model", 0, {"custom_outputs": faker}, report=lambda _: None, checkers=(checker,))
    rows = rows_of(out / SHEET_FILE)
    assert [row["known_by"] for row in rows] == ["0/1: mockllm/model=no"] * 4
    assert len((out / "known.jsonl").read_text(encoding="utf-8").splitlines()) == 4


def test_a_fakes_build_killed_mid_line_asks_only_that_candidate_again(ffe_hallu_imported: Path, tmp_path: Path):
    out = tmp_path / "fakes"
    build_fakes(out, 2, "mockllm/model", 0, {"custom_outputs": ScriptedFaker()}, report=lambda _: None)
    step = out / CANDIDATES_FILE
    lines = step.read_text(encoding="utf-8").splitlines()
    last = json.loads(lines[-1])
    assert last["method"].startswith("model")  # a candidate the model wrote, the last to arrive
    step.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:40], encoding="utf-8")  # killed while writing it
    again = ScriptedFaker()
    summary = build_fakes(out, 2, "mockllm/model", 0, {"custom_outputs": again}, report=lambda _: None)
    # asked again (one call of this run), and answered by the response cache: the model saw no prompt
    assert summary.candidates == 8 and summary.asked == 1 and again.prompts == []
    records = [json.loads(line) for line in step.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 8 and records[-1]["key"] == last["key"] and records[-1]["text"] == last["text"]

    # a line damaged anywhere else is named, before anything is asked or written
    lines = step.read_text(encoding="utf-8").splitlines()
    step.write_text("\n".join([lines[0], '{"key": "x"}', *lines[1:]]) + "\n", encoding="utf-8")
    record = (out / "build_record.json").read_bytes()
    untouched = ScriptedFaker()
    with pytest.raises(DataError, match=r"candidates\.jsonl: line 2 is not a record this step wrote; delete that line"):
        build_fakes(out, 2, "mockllm/model", 0, {"custom_outputs": untouched}, report=lambda _: None)
    assert untouched.prompts == [] and (out / "build_record.json").read_bytes() == record


@pytest.mark.parametrize("args, fragments", [
    (("--checker", "nosuch/x"), ("--checker nosuch/x: unknown provider 'nosuch'",)),
    (("--model", "nosuch/x"), ("--model nosuch/x: unknown provider 'nosuch'",)),
    (("--authentic-extra", "{out}/review.csv"), ("review.csv is one of the command's inputs",)),
])
def test_fakes_refuses_before_writing_anything(args, fragments, ffe_hallu_imported: Path, tmp_path: Path):
    from tests.command import assert_one_line_error, figeval

    out = tmp_path / "fakes"
    if "--authentic-extra" in args:
        out.mkdir()
        (out / "review.csv").write_text("farsi_idiom\nبه بار اوردن\n", encoding="utf-8")
    given = [arg.replace("{out}", str(out)) for arg in args]
    assert_one_line_error(figeval("build", "ffe-hallu-fakes", "--out", str(out), "--model", "mockllm/model",
                                  "--per-category", "1", *given, cwd=tmp_path), *fragments)
    # nothing written: no folder made, or the given file alone in it
    written = sorted(path.name for path in out.iterdir()) if out.exists() else []
    assert written == (["review.csv"] if "--authentic-extra" in args else [])
