"""Building paraphrased meanings: resumable, no model call paid twice, the sheet the task reads; and what the
builder refuses before it writes or asks anything."""

from pathlib import Path

import pytest
from inspect_ai.model import ModelOutput, ModelUsage

from figeval.benchmarks.ffe_hallu.dataset import load_verified_paraphrases
from figeval.benchmarks.ffe_hallu.paraphrases import build_paraphrases, paraphrase_of
from figeval.benchmarks.ffe_hallu.tasks import ffe_generation
from figeval.errors import DataError


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
    kept_after_interruption = (len(load_verified_paraphrases(sheet, range(1, 201))[0])
                               + load_verified_paraphrases(sheet, range(1, 201))[1])
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


def test_a_sheet_cut_in_half_a_row_asks_only_that_row_again(ffe_hallu_imported: Path, tmp_path: Path):
    sheet = tmp_path / "paraphrases.csv"
    with pytest.raises(Interrupted):
        build_paraphrases("mockllm/model", sheet, {"custom_outputs": ScriptedParaphraser(fail_after=3)},
                          report=lambda _: None)
    lines = sheet.read_text(encoding="utf-8-sig").splitlines()
    assert len(lines) == 4  # the header and 3 answers
    # the build was killed while writing the third: it left "row,farsi_idiom,Meaning,parap" of it, no line end
    sheet.write_text("\n".join(lines[:3]) + "\n" + lines[3][: lines[3].index(",", lines[3].index(",") + 1) + 5],
                     encoding="utf-8-sig")
    resumed = ScriptedParaphraser()
    written, reused = build_paraphrases("mockllm/model", sheet, {"custom_outputs": resumed}, report=lambda _: None)
    # 200 meanings, 2 whole rows kept; the cut row's answer came in the first run, so the response cache gives it
    # again: 198 - 1 = 197 calls
    assert (written, reused) == (198, 2) and resumed.calls == 197
    rows = sheet.read_text(encoding="utf-8-sig").splitlines()
    assert len(rows) == 201 and all(row.count(",") == 4 for row in rows)  # every row whole, 5 cells


def test_a_bad_row_number_in_a_resumed_sheet_is_one_line(ffe_hallu_imported: Path, tmp_path: Path):
    from tests.command import assert_one_line_error, figeval

    (tmp_path / "p.csv").write_text("row,farsi_idiom,Meaning,paraphrase,verified\n"
                                    "1,به بار اوردن,به ثمر رسیدن,بازنویسی,yes\nabc,به بار "
                                    "اوردن,به ثمر رسیدن,بازنویسی,\n",
                                    encoding="utf-8")
    # rows 1-200 are the evaluated authentic FFEs (Section 3.1's 200)
    assert_one_line_error(figeval("build", "ffe-hallu-paraphrases", "--model", "mockllm/model", "--out", "p.csv",
                                  cwd=tmp_path),
                          "p.csv: row 2, column 'row' is 'abc', not the number of an evaluated authentic FFE (1-200)",
                          "restore the number the build wrote, or remove the row")
    (tmp_path / "p.csv").write_text("row,farsi_idiom,Meaning,paraphrase,verified\n201,به بار "
                                    "اوردن,به ثمر رسیدن,بازنویسی,\n",
                                    encoding="utf-8")
    assert_one_line_error(figeval("build", "ffe-hallu-paraphrases", "--model", "mockllm/model", "--out", "p.csv",
                                  cwd=tmp_path), "row 1, column 'row' is '201'")


@pytest.mark.parametrize("case", ["link", "missing-folder", "stored-data", "replay-file", "nosuch-provider"])
def test_paraphrase_outputs_and_model_are_refused_before_any_call(case: str, ffe_hallu_imported: Path, tmp_path: Path):
    from figeval.errors import FigevalError

    precious = tmp_path / "precious.csv"
    precious.write_text("row,farsi_idiom\n", encoding="utf-8")
    model, out, expected = "mockllm/model", tmp_path / "sheet.csv", ""
    if case == "link":
        out.symlink_to(precious)
        expected = r"--out .*sheet\.csv is a symbolic link \(to .*precious\.csv\)"
    elif case == "missing-folder":
        out, expected = tmp_path / "nosuch" / "sheet.csv", r"the folder .*nosuch does not exist"
    elif case == "stored-data":
        out, expected = ffe_hallu_imported / "Authentic FFEs.csv", r"Authentic FFEs\.csv is one of the command's inputs"
        precious = out
    elif case == "replay-file":
        model, out, expected = f"replay/{precious}", precious, r"precious\.csv is one of the command's inputs"
    else:
        model, expected = "nosuch/model", r"--model nosuch/model: unknown provider 'nosuch'"
    before = precious.read_bytes()
    asked = ScriptedParaphraser()
    with pytest.raises(FigevalError, match=expected):
        build_paraphrases(model, out, {"custom_outputs": asked}, report=lambda _: None)
    assert asked.calls == 0 and precious.read_bytes() == before
    assert not (tmp_path / "sheet.csv").is_file() or (tmp_path / "sheet.csv").is_symlink()


def test_a_paraphrase_sheet_resumes_only_with_the_model_that_wrote_it(ffe_hallu_imported: Path, tmp_path: Path):
    import json

    from figeval.building import sheet_record
    from figeval.errors import FigevalError

    sheet = tmp_path / "paraphrases.csv"
    with pytest.raises(Interrupted):
        build_paraphrases("mockllm/model", sheet, {"custom_outputs": ScriptedParaphraser(fail_after=3)},
                          report=lambda _: None)
    record = json.loads(sheet_record(sheet).read_text(encoding="utf-8"))
    assert record["model"] == "mockllm/model" and len(record["prompt_sha256"]) == 16
    before = sheet.read_bytes()
    other = ScriptedParaphraser()
    with pytest.raises(FigevalError) as error:
        build_paraphrases("mockllm/other", sheet, {"custom_outputs": other}, report=lambda _: None)
    assert str(error.value) == (f"{sheet} was built with --model mockllm/model, not --model mockllm/other; give the "
                                "same to resume it, or build into a new --out.")
    assert other.calls == 0 and sheet.read_bytes() == before

    # a sheet from before the record (none beside it): nothing to compare, it resumes and gets one
    sheet_record(sheet).unlink()
    resumed = ScriptedParaphraser()
    assert build_paraphrases("mockllm/other", sheet, {"custom_outputs": resumed}, report=lambda _: None) == (197, 3)
    assert json.loads(sheet_record(sheet).read_text(encoding="utf-8"))["model"] == "mockllm/other"


@pytest.mark.parametrize("cell", ["✓", "x", "maybe"])
def test_a_verified_cell_other_than_yes_no_or_empty_is_named(cell: str, ffe_hallu_imported: Path, tmp_path: Path):
    from tests.command import assert_one_line_error, figeval

    sheet = tmp_path / "p.csv"
    sheet.write_text("row,farsi_idiom,Meaning,paraphrase,verified\n1,به بار اوردن,به ثمر رسیدن,بازنویسی,yes\n"
                     f"2,به بار اوردن,به ثمر رسیدن,بازنویسی,{cell}\n", encoding="utf-8")
    # "✓" was read as "not verified" without a word: the row dropped as if a person had said no
    with pytest.raises(DataError, match=rf"^p\.csv: row 2, column 'verified' is {cell!r}; use yes or no"):
        load_verified_paraphrases(sheet, range(1, 201))
    assert_one_line_error(figeval("run", "ffe_generation", "--model", "mockllm/model", "-T",
                                  "meaning=paraphrased", "-T", "paraphrases=p.csv", cwd=tmp_path),
                          f"p.csv: row 2, column 'verified' is {cell!r}; use yes or no",
                          "or leave it empty (not verified yet: the row is dropped)")
    # yes, no and empty are read as before: row 1 kept, row 2 dropped
    sheet.write_text(sheet.read_text(encoding="utf-8").replace(f",{cell}\n", ",no\n"), encoding="utf-8")
    assert load_verified_paraphrases(sheet, range(1, 201)) == ({1: "بازنویسی"}, 1)


def test_the_printed_next_command_quotes_the_sheet_for_the_shell(ffe_hallu_imported: Path, tmp_path: Path):
    from unittest import mock

    from inspect_ai.model import get_model

    from tests.command import figeval

    with mock.patch("figeval.building.get_model",
                    lambda name, **args: get_model(name, custom_outputs=ScriptedParaphraser(), **args)):
        result = figeval("build", "ffe-hallu-paraphrases", "--model", "mockllm/model", "--out", "my sheet.csv",
                         cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    # shlex.quote of "paraphrases=my sheet.csv": one shell word when pasted back
    assert result.stdout.rstrip().endswith("-T meaning=paraphrased -T 'paraphrases=my sheet.csv'")


def test_a_sheet_with_no_verified_row_is_one_line_before_inspect(ffe_hallu_imported: Path, tmp_path: Path):
    """Every row unverified (empty or no): nothing to ask, said in one line, not Inspect's empty-dataset traceback."""
    from tests.command import assert_one_line_error, figeval
    from tests.ffe_hallu.test_tasks import write_replay

    sheet = tmp_path / "paraphrases.csv"
    sheet.write_text("row,farsi_idiom,Meaning,paraphrase,verified\n1,به بار اوردن,به ثمر رسیدن,نتیجه دادن,\n"
                     "2,چیزی نه به دار است نه به بار,هنوز مشخص نیست,هنوز روشن نیست,no\n", encoding="utf-8")
    logs = tmp_path / "logs"
    result = figeval("run", "ffe_generation", "-T", "meaning=paraphrased", "-T", f"paraphrases={sheet}",
                     "--model", f"replay/{write_replay(tmp_path / 'a.jsonl', {'x': 'Yes'})}", "--log-dir", str(logs))
    assert_one_line_error(result, "paraphrases.csv: no row is verified (none of its 2 rows says yes)",
                          "fill its 'verified' column")
    assert not logs.exists()
