"""What a user gives the PerHalluEval builder is checked, never silently trusted (annotators' sheets against the
build's own kept.csv: test_build_final.py): a sheet given as the benchmark, a build folder resumed with other
settings, a refused build leaving no folder behind, one generator given twice, and commands printed with quoted
paths."""

import json
import shlex
from pathlib import Path

import pytest
from inspect_ai.model import get_model

from figeval.benchmarks.perhallueval.build import build
from figeval.benchmarks.perhallueval.tasks import perhallueval_qa
from figeval.errors import DataError, FigevalError
from tests.perhallueval.test_build import Generator, phe, pquad_file, uncategorized_pquad, verifier_reply

FIXTURE = Path(__file__).parent / "fixtures" / "final_qa.csv"


def models(*names: str):
    return [get_model(f"mockllm/{name}", custom_outputs=Generator(name), memoize=False) for name in names]


def verifier(name: str = "verifier"):
    return get_model(f"mockllm/{name}", custom_outputs=verifier_reply, memoize=False)


def persian_source(path: Path) -> Path:
    """`pquad_file` whose contexts start with "آن" (alef with madda: NFD splits it into alef + U+0653)."""
    pquad_file(path)
    path.write_text(path.read_text(encoding="utf-8").replace("متنی", "آن متن"), encoding="utf-8")
    return path


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """A finished QA build of 6 items (2 per category) from generator a, in a folder whose name has a space."""
    out = tmp_path / "my build"
    build("qa", persian_source(tmp_path / "pquad.json"), 6, models("a"), verifier(), out, seed=0,
          report=lambda _: None)
    return out


# --- 1. a sheet still to be validated is not a benchmark file ---------------------------------------------------

def test_the_build_sheet_given_as_the_benchmark_is_refused(built: Path):
    with pytest.raises(DataError) as refused:
        perhallueval_qa(data=str(built / "kept.csv"))
    assert str(refused.value) == (
        "kept.csv: has a 'hallucination_label' column: it is the sheet annotators label, not a benchmark file; run "
        f"`figeval build perhallueval-final --task qa --out '{built}' SHEET1 SHEET2 SHEET3` and give "
        f"-T data='{built / 'final.csv'}'.")


def test_an_annotator_sheet_given_as_the_benchmark_is_one_line(tmp_path: Path):
    from tests.command import assert_one_line_error, figeval

    # the published-layout fixture with a label column added: a filled annotator's sheet, outside any build folder
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    sheet = tmp_path / "annotator0.csv"
    sheet.write_text("\n".join([lines[0] + ",hallucination_label"] + [line + ",hallucinated" for line in lines[1:]])
                     + "\n", encoding="utf-8")
    result = figeval("run", "perhallueval_qa", "--model", "mockllm/m", "-T", f"data={sheet}",
                     "--log-dir", str(tmp_path / "logs"), cwd=tmp_path)
    assert_one_line_error(result, "annotator0.csv: has a 'hallucination_label' column: it is the sheet annotators "
                          "label, not a benchmark file; run `figeval build perhallueval-final --task qa --out DIR "
                          "SHEET1 SHEET2 SHEET3` and give -T data=DIR/final.csv.")
    assert not (tmp_path / "logs").exists() or not any((tmp_path / "logs").iterdir())


# --- 2. a build folder keeps its generators, verifier and sources ----------------------------------------------

def test_a_build_resumed_with_other_models_or_sources_is_refused(built: Path, tmp_path: Path):
    source = tmp_path / "pquad.json"
    fix = "; give the same to resume it, or build into a new --out."
    with pytest.raises(FigevalError, match="was built with --generator mockllm/a, not --generator mockllm/a "
                                           "--generator mockllm/b" + fix):
        build("qa", source, 6, models("a", "b"), verifier(), built, seed=0, report=lambda _: None)
    with pytest.raises(FigevalError, match="was built with --verifier mockllm/verifier, not --verifier "
                                           "mockllm/other" + fix):
        build("qa", source, 6, models("a"), verifier("other"), built, seed=0, report=lambda _: None)
    other = persian_source(tmp_path / "other.json")
    with pytest.raises(FigevalError, match=r"was built with --source pquad.json, not --source other.json" + fix):
        build("qa", other, 6, models("a"), verifier(), built, seed=0, report=lambda _: None)
    # the same settings resume (nothing left to ask), and the record keeps them
    build("qa", source, 6, models("a"), verifier(), built, seed=0, report=lambda _: None)
    record = json.loads((built / "build_record.json").read_text(encoding="utf-8"))
    assert (record["generators"], record["verifier"], record["sources"]) == (["mockllm/a"], "mockllm/verifier",
                                                                             ["pquad.json"])


def test_a_build_killed_before_its_end_keeps_its_generators(tmp_path: Path):
    source = pquad_file(tmp_path / "pquad.json")
    out = tmp_path / "build"
    interrupted = [get_model("mockllm/a", custom_outputs=Generator("a", fail_after=2), memoize=False)]
    with pytest.raises(RuntimeError, match="interrupted"):
        build("qa", source, 6, interrupted, verifier(), out, seed=0, report=lambda _: None)
    assert not (out / "kept.csv").exists()  # stopped in step 2: the record was written at the start
    with pytest.raises(FigevalError, match="was built with --generator mockllm/a, not --generator mockllm/b;"):
        build("qa", source, 6, models("b"), verifier(), out, seed=0, report=lambda _: None)


def test_generator_order_does_not_matter_and_an_older_record_resumes(tmp_path: Path):
    source = pquad_file(tmp_path / "pquad.json")
    out = tmp_path / "build"
    build("qa", source, 6, models("a", "b"), verifier(), out, seed=0, report=lambda _: None)
    before = (out / "kept.csv").read_bytes()
    build("qa", source, 6, models("b", "a"), verifier(), out, seed=0, report=lambda _: None)
    assert (out / "kept.csv").read_bytes() == before  # the same candidates, the same winners
    # a record from before the models and sources were recorded: nothing to compare, it resumes and gains them
    (out / "build_record.json").write_text('{"seed": 0}', encoding="utf-8")
    build("qa", source, 6, models("a", "b"), verifier(), out, seed=0, report=lambda _: None)
    assert json.loads((out / "build_record.json").read_text(encoding="utf-8"))["generators"] == ["mockllm/a",
                                                                                                  "mockllm/b"]


# --- 3 and 4. refused before anything is written; no folder left behind ----------------------------------------

@pytest.mark.parametrize("args, expected", [
    # 30 answerable questions in the source
    (("--n", "100"), "cannot select 100 items from 30."),
    # 4 of 30 in three categories of 10: quotas 2, 1, 1 (the tie on remainders goes to the first category), so
    # ادبیات is 2/4 = 50% of the sample and 10/30 = 33.33% of the source
    (("--n", "4"), "category 'ادبیات' is 50.00% of the sample but 33.33% of the source"),
    (("--generator", "mockllm/a"), "--generator mockllm/a is given twice; give each generator once."),
])
def test_a_refused_build_leaves_no_folder(args, expected, tmp_path: Path):
    from tests.command import assert_one_line_error

    out = tmp_path / "build"
    assert_one_line_error(phe(tmp_path, "--out", str(out), "--source", str(pquad_file(tmp_path / "pquad.json")),
                              *args), expected)
    assert not out.exists()


def test_the_category_sheet_command_quotes_its_path(tmp_path: Path):
    out = tmp_path / "my build"
    with pytest.raises(DataError) as refused:
        build("qa", uncategorized_pquad(tmp_path / "pquad.json"), 6, models("a"), verifier(), out, seed=0,
              report=lambda _: None)
    assert str(refused.value).endswith(f"run again with --categories {shlex.quote(str(out / 'pquad_categories.csv'))}.")
    assert shlex.split(str(refused.value).rsplit("--categories ", 1)[1].rstrip("."))[0] == str(
        out / "pquad_categories.csv")
