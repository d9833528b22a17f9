"""Table 3's knowledge and open-ended numbers from people's labels, as the paper's are ("All outputs were manually
validated", Section 3.3; "An expert manually classified responses", Section 3.1): a replayed run exported, labelled
by hand, imported, and its rates beside the judge's; the report marks the judge-scored columns."""

import csv
import json
from pathlib import Path

import pytest

from figeval.benchmarks.persian_allusions.tasks import allusion_knowledge, allusion_open
from tests.command import figeval
from tests.persian_allusions.test_tasks import run
from tests.test_annotation import fill

OPEN_SAMPLES = ["perspoems-007/open", "perspoems-008/open", "perspoems-009/open", "perspoems-010/open",
                "perspoems-011/open", "perspoems-012/open"]


OPEN_OUTPUTS = {
    "perspoems-007/open": json.dumps([{"reference": "منصور حلاج", "explanation": "بر دار رفتن"}], ensure_ascii=False),
    "perspoems-008/open": json.dumps([{"reference": "شیرین و فرهاد", "explanation": "عشق"}], ensure_ascii=False),
    "perspoems-009/open": "[]",  # "no allusion": incorrect by rule, no judge call
    "perspoems-010/open": "It alludes to Rostam and his son.",  # prose: judged as written
    "perspoems-011/open": json.dumps([{"reference": "جام جم", "explanation": "جام جهان‌نما"}], ensure_ascii=False),
    "perspoems-012/open": "   ",  # nothing to judge: unparsed
}


@pytest.fixture
def open_run(allusions_imported: Path, tmp_path: Path) -> Path:
    """A judged allusion_open run (ground truth) on six couplets, one outcome of each kind."""
    judge = {"perspoems-007/open": '{"label": 1}', "perspoems-008/open": '{"label": 1}',  # 008: the judge is wrong
             "perspoems-010/open": '{"label": 1}', "perspoems-011/open": "no idea"}  # 011: the judge fails twice
    log = run(allusion_open(), OPEN_OUTPUTS, tmp_path, judge, sample_id=OPEN_SAMPLES)
    return Path(log.location)


def sheet_rows(sheet: Path) -> dict[str, dict[str, str]]:
    lines = sheet.read_text(encoding="utf-8-sig").splitlines()
    return {row["sample_id"]: row for row in csv.DictReader([line for line in lines if not line.startswith("#")])}


def rate_lines(stdout: str) -> dict[str, list[str]]:
    return {line.split()[1]: line.split()[2:] for line in stdout.splitlines()
            if line.split()[1:2] in (["humans"], ["run"])}


def test_open_ended_numbers_from_peoples_labels(open_run: Path, tmp_path: Path):
    sheet = tmp_path / "sheet.csv"
    exported = figeval("annotate", "export", str(open_run), "--out", str(sheet))
    assert exported.returncode == 0, exported.stderr
    # every output goes to the people, the rule-decided, unparsed and judge-failed ones too
    assert "6 answers to label written" in exported.stdout
    rows = sheet_rows(sheet)
    assert list(rows) == OPEN_SAMPLES
    assert rows["perspoems-007/open"]["input"].startswith("گفت آن یار کز او گشت سر دار بلند")  # the couplet
    assert rows["perspoems-007/open"]["reference"] == "منصور حلاج"
    assert rows["perspoems-007/open"]["output"] == "منصور حلاج: بر دار رفتن"
    assert rows["perspoems-009/open"]["output"] == "[]"  # what the model wrote, not an empty cell, for "no allusion"
    assert sheet.read_text(encoding="utf-8-sig").startswith("task,model,sample_id,")  # plain CSV, header first
    # the instructions file: a title, a blank line, then the instruction lines
    assert sheet.with_suffix(".instructions.txt").read_text(encoding="utf-8-sig").splitlines()[2].startswith(
        "Persian allusions, open-ended recognition")

    # People: 007 right, 011 right (Jamshid's cup is row 11's allusion), the rest wrong; the first two annotators
    # disagree on 008 only, and the third says wrong.
    first = fill(sheet, tmp_path / "ann1.csv",
                 {"perspoems-007/open": "1", "perspoems-008/open": "0", "perspoems-009/open": "0",
                  "perspoems-010/open": "0", "perspoems-011/open": "1", "perspoems-012/open": "0"})
    second = fill(sheet, tmp_path / "ann2.csv",
                  {"perspoems-007/open": "1", "perspoems-008/open": "درست", "perspoems-009/open": "0",
                   "perspoems-010/open": "نادرست", "perspoems-011/open": "correct",
                   "perspoems-012/open": "0"})
    third = fill(sheet, tmp_path / "ann3.csv", {sid: "0" for sid in OPEN_SAMPLES})
    labels = tmp_path / "labels.csv"
    imported = figeval("annotate", "import", str(first), str(second), str(third), "--out", str(labels))
    assert imported.returncode == 0, imported.stderr
    assert "6 answers: 5 agreed, 1 third" in imported.stdout

    rates = figeval("annotate", "rates", str(labels), str(open_run))
    assert rates.returncode == 0, rates.stderr
    # columns: n, incorrect, correct (the scheme's order).
    # People: correct 007, 011 of 6 -> 33.3%; incorrect 4/6 -> 66.7%.
    # The run over the same answers: 011 left out (the judge failed, as in its accuracy); 007, 008, 010 judged
    # correct, 009 incorrect by rule, 012 unparsed and counted wrong (labelled neither) -> n 5, correct 3/5 = 60.0%,
    # incorrect 1/5 = 20.0%; the correct rate is the run's accuracy, Table 3's open-ended column.
    assert rate_lines(rates.stdout) == {"humans": ["6", "66.7", "33.3"], "run": ["5", "20.0", "60.0"]}
    # the judge against them under the allusions paper's own table's name (FFE-HALLU's Table 6 was printed for it);
    # the paper prints no annotators' table
    agreement = figeval("judge", "agreement", str(open_run), "--human", str(labels))
    assert agreement.returncode == 0, agreement.stderr
    assert agreement.stdout.startswith("judge vs human (Persian allusions Table 4): ")
    assert "\nannotators, per model and set of its answers\n" in agreement.stdout and "Table 6" not in agreement.stdout


def test_a_models_runs_on_both_judge_modes_are_told_apart(open_run: Path, tmp_path: Path):
    labels = tmp_path / "labels.csv"
    sheet = tmp_path / "sheet.csv"
    assert figeval("annotate", "export", str(open_run), "--out", str(sheet)).returncode == 0
    person = fill(sheet, tmp_path / "ann1.csv",
                  {sid: "1" if sid == "perspoems-007/open" else "0" for sid in OPEN_SAMPLES})
    assert figeval("annotate", "import", str(person), "--out", str(labels)).returncode == 0
    # the same answers judged without the ground truth (the same replay file: the same model): the judge now says
    # 007 is wrong, the rest as before
    judge = {"perspoems-007/open": '{"label": 0}', "perspoems-008/open": '{"label": 1}',
             "perspoems-010/open": '{"label": 1}',
             "perspoems-011/open": "no idea"}
    no_gt = run(allusion_open(judge_mode="no_gt"), OPEN_OUTPUTS, tmp_path, judge, sample_id=OPEN_SAMPLES)
    rates = figeval("annotate", "rates", str(labels), str(open_run), str(no_gt.location))
    assert rates.returncode == 0, rates.stderr
    lines = [line.split() for line in rates.stdout.splitlines() if line.split()[1:2] in (["humans"], ["run"])]
    # people: correct 007 of 6 -> 16.7%; GT run: 007, 008, 010 correct of 5 -> 60.0%; no-GT run: 008, 010 -> 40.0%
    assert [line[1:] for line in lines] == [["humans", "6", "83.3", "16.7"],
                                            ["run", "5", "20.0", "60.0", "judge_mode=gt"],
                                            ["run", "5", "40.0", "40.0", "judge_mode=no_gt"]]


def test_knowledge_numbers_from_an_experts_labels(allusions_imported: Path, tmp_path: Path):
    outputs = {
        "allusion-001": json.dumps([{"title": "یوسف و زلیخا", "full_explanation": "بریدن دست زنان مصر"}],
                                   ensure_ascii=False),
        "allusion-002": json.dumps([{"title": "آتش نمرود", "full_explanation": "آتش"}], ensure_ascii=False),
        "allusion-003": '[{"title": null, "full_explanation": null}]',  # not familiar: incorrect by rule
        "allusion-004": "Noah built an ark.",
    }
    judge = {"allusion-001": '{"label": 2}', "allusion-002": '{"label": 2}', "allusion-004": '{"label": 1}'}
    log = run(allusion_knowledge(), outputs, tmp_path, judge, limit=4)
    sheet = tmp_path / "knowledge.csv"
    assert figeval("annotate", "export", log.location, "--out", str(sheet)).returncode == 0
    rows = sheet_rows(sheet)
    # the expert sees the allusion asked about and its reference description
    assert (rows["allusion-002"]["input"], rows["allusion-002"]["reference"]) == (
        "آتش نمرود", "نمرود ابراهیم را در آتش انداخت و آتش به فرمان خدا بر او سرد و گلستان شد")
    expert = fill(sheet, tmp_path / "expert.csv", {"allusion-001": "2", "allusion-002": "partial",
                                                    "allusion-003": "0", "allusion-004": "2"})
    labels = tmp_path / "labels.csv"
    assert figeval("annotate", "import", str(expert), "--out", str(labels)).returncode == 0
    rates = figeval("annotate", "rates", str(labels), log.location)
    assert rates.returncode == 0, rates.stderr
    # columns: n, incorrect, partial, complete. Expert: complete 001, 004; partial 002; incorrect 003 -> 25/25/50.
    # Judge: complete 001, 002; partial 004; incorrect 003 -> 25/25/50 as well, on other answers: Table 3's
    # knowledge column (complete) is 50.0 both ways here, and Table 4 is where they part.
    assert rate_lines(rates.stdout) == {"humans": ["4", "25.0", "25.0", "50.0"], "run": ["4", "25.0", "25.0", "50.0"]}
    # Table 3's knowledge column from the expert's labels (the paper's is an expert's, Section 3.1): complete on 001
    # and 004 of 4 -> 0.5, in a row under the judge's (complete on 001 and 002 of 4 -> 0.5)
    report = figeval("report", str(Path(log.location).parent), "--human", str(labels), "--format", "json")
    assert report.returncode == 0, report.stderr
    [table] = [t for t in json.loads(report.stdout)["tables"] if t["key"] == "persian-allusions/table-3"]
    assert [(row["identity"]["labelled by"], row["cells"]["knowledge"]["value"], row["cells"]["knowledge"]["n"])
            for row in table["rows"]] == [("judge", 0.5, 4), ("people (labels.csv)", 0.5, 4)]
    assert set(table["rows"][1]["cells"]) == {"knowledge"}  # the people's row has the people's columns only


def test_the_report_marks_the_judge_scored_columns(open_run: Path):
    report = figeval("report", str(open_run.parent), "--format", "json")
    assert report.returncode == 0, report.stderr
    [table] = [t for t in json.loads(report.stdout)["tables"] if t["key"] == "persian-allusions/table-3"]
    # the paper's knowledge and open-ended columns are people's labels: the run's row says its are the judge's,
    # and the table says how to have the people's beside it
    [row] = [row for row in table["rows"] if not row["reference"]]
    assert "labelled by" in table["identity_keys"] and row["identity"]["labelled by"] == "judge"
    assert any(note.startswith("the paper's columns marked by people's labels are people's labels of every output")
               and "--human LABELS" in note for note in table["notes"])
