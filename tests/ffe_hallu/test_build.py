"""Building paraphrased meanings: resumable, no model call paid twice, the sheet the task reads."""

from pathlib import Path

import pytest
from inspect_ai.model import ModelOutput, ModelUsage

from figeval.benchmarks.ffe_hallu.build import build_paraphrases, paraphrase_of
from figeval.benchmarks.ffe_hallu.dataset import load_verified_paraphrases
from figeval.benchmarks.ffe_hallu.tasks import ffe_generation


class Interrupted(Exception):
    """Stands in for a crash or a Ctrl-C half-way through a build."""


class ScriptedParaphraser:
    """A mockllm output function: answers "«بازنویسی: <meaning>»" and can fail after a number of calls."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.calls = 0
        self.fail_after = fail_after

    def __call__(self, messages, tools, tool_choice, config) -> ModelOutput:
        self.calls += 1
        if self.fail_after is not None and self.calls > self.fail_after:
            raise Interrupted
        meaning = messages[-1].text.split("Meaning: ", 1)[1]
        output = ModelOutput.from_content("mockllm/model", f"Sure:\n«بازنویسی: {meaning}»")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


def test_paraphrase_of_takes_the_first_persian_line():
    assert paraphrase_of("<think>x</think>Here it is:\n«نتیجه دادن»\nMore text") == "نتیجه دادن"
    assert paraphrase_of("I cannot help with that.") == ""


def test_build_is_resumable_and_pays_no_call_twice(ffe_hallu_imported: Path, tmp_path: Path):
    sheet = tmp_path / "paraphrases.csv"
    interrupted = ScriptedParaphraser(fail_after=50)
    with pytest.raises(Interrupted):
        build_paraphrases("mockllm/model", sheet, {"custom_outputs": interrupted}, report=lambda _: None)
    kept_after_interruption = len(load_verified_paraphrases(sheet, range(1, 201))[0]) + load_verified_paraphrases(sheet, range(1, 201))[1]
    assert kept_after_interruption == 50  # every answer that arrived is on disk

    resumed = ScriptedParaphraser()
    written, reused = build_paraphrases("mockllm/model", sheet, {"custom_outputs": resumed}, report=lambda _: None)
    assert (written, reused) == (150, 50) and resumed.calls == 150  # 200 evaluated meanings in all

    # Ordered by row, verified column empty: nothing is used until a person says yes.
    kept, dropped = load_verified_paraphrases(sheet, range(1, 201))
    assert (len(kept), dropped) == (0, 200)
    text = sheet.read_text(encoding="utf-8-sig").splitlines()
    assert text[0] == "row,farsi_idiom,Meaning,paraphrase,verified"
    assert text[1].startswith("1,به بار اوردن,به ثمر رسیدن,بازنویسی: به ثمر رسیدن,")
    rows = [int(line.split(",", 1)[0]) for line in text[1:]]
    assert rows == sorted(rows) and len(rows) == 200

    # A person verifies two rows; the paraphrased task then asks exactly those.
    verified = [line + "yes" if line.startswith(("1,", "5,")) else line for line in text]
    sheet.write_text("\n".join(verified) + "\n", encoding="utf-8-sig")
    task = ffe_generation(meaning="paraphrased", paraphrases=str(sheet))
    assert [s.id for s in task.dataset] == ["ffe-gen-001/paraphrased", "ffe-gen-005/paraphrased"]
    assert task.metadata["paraphrases_dropped"] == 198  # 200 rows, 2 verified
