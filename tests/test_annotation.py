"""Annotation sheets: export -> fill -> import round trip, validation, the resolution rule, agreement."""

import csv
import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from figeval.annotation.labels import Resolution, combine, read_labels, resolve
from figeval.annotation.sheets import SHEET_COLUMNS, AnnotationItem, read_annotators, write_sheet
from figeval._registry import BENCHMARKS, annotation_spec
from figeval.benchmarks.ffe_hallu.scorer import FFELabel
from figeval.benchmarks.ffe_hallu.tasks import ffe_generation
from figeval.errors import DataError
from figeval.spreadsheet import from_row
from tests.command import assert_one_line_error, figeval
from tests.ffe_hallu.test_tasks import write_replay

ANNOTATED = {task: spec for benchmark in BENCHMARKS for task, spec in benchmark.annotated.items()}

H, C, INC = FFELabel.HALLUCINATED, FFELabel.CORRECT, FFELabel.INCORRECT


def one_annotator(path: Path) -> tuple[str, dict]:
    """A sheet's task and its one annotator's labels, read as `figeval annotate import` reads each sheet."""
    task, by_annotator = read_annotators(path, annotation_spec)
    [labels] = by_annotator.values()
    return task, labels


@pytest.mark.parametrize(
    "labels, expected",
    [
        ((C,), (C, Resolution.SINGLE)),
        ((C, C), (C, Resolution.AGREED)),
        ((C, INC), (None, Resolution.UNRESOLVED)),
        ((C, C, H), (C, Resolution.AGREED)),
        ((C, INC, INC), (INC, Resolution.THIRD)),  # the third agrees with the second: that pair decides
        ((C, INC, H), (H, Resolution.THIRD)),  # all differ: the third decides
    ],
)
def test_resolution_rule(labels, expected):
    assert resolve(labels) == expected


@pytest.fixture
def judged_log(ffe_hallu_imported: Path, tmp_path: Path):
    """A judged ffe_generation run on 5 samples: 001 matches its reference (the judge labels it too, 1, as the
    paper's judges labelled every output), the rest are judged."""
    outputs = write_replay(
        tmp_path / "outputs.jsonl",
        {
            "ffe-gen-001/human": "به بار اوردن",
            "ffe-gen-003/human": "پا پس کشیدن",
            "ffe-gen-004/human": "دل پری از کسی داشتن",
            "ffe-gen-005/human": "گربه را دم دروازه کشتن",
            "ffe-gen-006/human": "«سیب‌زمینی را کباب کردن»",
        },
    )
    judge = write_replay(
        tmp_path / "judge.jsonl",
        {sid: json.dumps({"label": label}) for sid, label in
         [("ffe-gen-001/human", 1), ("ffe-gen-003/human", 2), ("ffe-gen-004/human", 1), ("ffe-gen-005/human", 0),
          ("ffe-gen-006/human", 0)]},
    )
    [log] = inspect_eval(
        ffe_generation(), model=f"replay/{outputs}", model_roles={"grader": f"replay/{judge}"},
        sample_id=["ffe-gen-001/human", "ffe-gen-003/human", "ffe-gen-004/human",
                   "ffe-gen-005/human", "ffe-gen-006/human"],
        log_dir=str(tmp_path / "logs"), display="none",
    )
    assert log.status == "success", log.error
    return Path(log.location)


def figures(stdout: str, group: str, containing: str = "") -> list[str]:
    """n, agreement, kappa and its interval of the agreement row named `group...` (printed under the name)."""
    lines = stdout.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith(group) and containing in line)
    return lines[index + 1].split()


def fill(sheet: Path, out: Path, labels: dict[str, str]) -> Path:
    """What an annotator does: open the sheet, type a label per row, save."""
    with sheet.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        row["label"] = labels[row["sample_id"]]
    with out.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return out


def test_export_import_round_trip_keeps_persian_text(judged_log: Path, tmp_path: Path):
    sheet = tmp_path / "sheet.csv"
    exported = figeval("annotate", "export", str(judged_log), "--out", str(sheet))
    assert exported.returncode == 0, exported.stderr
    raw = sheet.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 byte-order mark: spreadsheets read it as Unicode
    text = raw.decode("utf-8-sig")
    assert text.startswith("task,model,sample_id,input,reference,output,label\n")  # plain CSV: the header first
    assert "instructions for annotators in " + str(sheet.with_suffix(".instructions.txt")) in exported.stdout
    instructions = sheet.with_suffix(".instructions.txt").read_text(encoding="utf-8-sig")
    assert "FFE-HALLU: label each model output" in instructions and "#" not in instructions
    rows = list(csv.DictReader(text.splitlines()))
    by_id = {row["sample_id"]: row for row in rows}
    assert len(rows) == 5 and all(row["label"] == "" for row in rows)
    # Persian text exactly as in the data and the output, ZWNJ included.
    assert by_id["ffe-gen-006/human"]["output"] == "سیب\u200cزمینی را کباب کردن"
    assert (by_id["ffe-gen-001/human"]["reference"] == "به بار اوردن"
            and by_id["ffe-gen-001/human"]["input"] == "به ثمر رسیدن")

    first = fill(sheet, tmp_path / "ann1.csv",
                 {"ffe-gen-001/human": "1", "ffe-gen-003/human": "2", "ffe-gen-004/human": "correct",
                                                 "ffe-gen-005/human": "0", "ffe-gen-006/human": "0"})
    second = fill(sheet, tmp_path / "ann2.csv",
                  {"ffe-gen-001/human": "1", "ffe-gen-003/human": "1", "ffe-gen-004/human": "1",
                                                  "ffe-gen-005/human": "0", "ffe-gen-006/human": "2"})
    labels = tmp_path / "labels.csv"
    imported = figeval("annotate", "import", str(first), str(second), "--out", str(labels))
    assert imported.returncode == 0, imported.stderr
    assert "5 answers: 3 agreed, 2 unresolved" in imported.stdout
    assert "unresolved: ffe-gen-003/human" in imported.stdout and "unresolved: ffe-gen-006/human" in imported.stdout

    third = fill(sheet, tmp_path / "ann3.csv",
                 {"ffe-gen-001/human": "1", "ffe-gen-003/human": "2", "ffe-gen-004/human": "1",
                                                 "ffe-gen-005/human": "0", "ffe-gen-006/human": "0"})
    imported = figeval("annotate", "import", str(first), str(second), str(third), "--out", str(labels))
    assert "5 answers: 3 agreed, 2 third" in imported.stdout

    # Tables 3/5 from the human labels: 001 C, 003 I (third), 004 C, 005 H, 006 H (third) -> hallucinated 40%,
    # correct 40%, incorrect 20%; the run (judge + rules) labelled the same five alike.
    rates = figeval("annotate", "rates", str(labels), str(judged_log))
    assert rates.returncode == 0, rates.stderr
    rows = {line.split()[1]: line.split()[2:] for line in rates.stdout.splitlines()
            if line.split()[1:2] in (["humans"], ["run"])}
    assert rows == {"humans": ["5", "40.0", "40.0", "20.0"], "run": ["5", "40.0", "40.0", "20.0"]}

    # Judge (log) vs resolved humans over every output (Table 6), 001 included although its reference rule
    # decided it: judge 001: 1, 003: 2 (incorrect), 004: 1, 005: 0, 006: 0; humans 001: 1, 003: 2 (third),
    # 004: 1, 005: 0, 006: 0 -> 5/5.
    agreement = figeval("judge", "agreement", str(judged_log), "--human", str(labels), "--confusion")
    assert agreement.returncode == 0, agreement.stderr
    # the paper's tables named as FFE-HALLU declares them for this task (the allusions paper's would be Table 4)
    assert agreement.stdout.startswith("judge vs human (FFE-HALLU Table 6 (Task 1)): ")
    assert "\nannotators (FFE-HALLU Table 7), per model and set of its answers\n" in agreement.stdout
    assert figures(agreement.stdout, "replay/", "| judge replay/")[:2] == ["5", "1.000"]
    # the run's final labels, rules included (001 correct by the reference rule, humans 1) -> 5/5
    assert figures(agreement.stdout, "replay/", "| with figeval's rules")[:2] == ["5", "1.000"]
    # ann1 = (C, INC, C, H, H), ann2 = (C, C, C, H, INC) over 001, 003, 004, 005, 006: p_o = 3/5 = 0.6;
    # marginals ann1 C2 I1 H2, ann2 C3 I1 H1: p_e = (2*3 + 1*1 + 2*1) / 25 = 0.36; kappa = 0.24 / 0.64 = 0.375
    # Tables 7-8 are per generator model and set of its answers (here one), then over all labels as an extra line
    assert figures(agreement.stdout, "ann1 vs ann2: outputs")[:3] == ["5", "0.600", "0.375"]
    assert figures(agreement.stdout, "ann1 vs ann2: all labels")[:3] == ["5", "0.600", "0.375"]
    # ann1 and ann3 agree on all 5
    assert figures(agreement.stdout, "ann1 vs ann3: all labels")[:2] == ["5", "1.000"]
    assert "Fleiss' kappa, all 3:" in agreement.stdout
    assert "judge \\ human" in agreement.stdout

    # The same numbers as report tables (FFE-HALLU Tables 6 and 7), the paper's Table 7 rows beside them
    report = figeval("report", str(judged_log.parent), "--human", str(labels), "--format", "json", "--paper")
    assert report.returncode == 0, report.stderr
    tables = {table["key"]: table for table in json.loads(report.stdout)["tables"]}
    judged = {row["identity"]["judge"]: row["cells"] for row in tables["judge-agreement/ffe_generation"]["rows"]
              if not row["reference"]}
    assert [(cells["agreement"]["value"], cells["agreement"]["n"]) for cells in judged.values()] == [(1.0, 5), (1.0, 5)]
    assert list(judged)[1] == "with figeval's rules"
    people = tables["annotator-agreement/ffe_generation"]
    pair = next(row["cells"] for row in people["rows"] if row["identity"].get("annotators") == "ann1 vs ann2"
                and row["label"] == "all labels")
    assert (pair["agreement"]["value"], round(pair["kappa"]["value"], 3)) == (0.6, 0.375)
    gpt = next(row for row in people["rows"] if row["label"] == "GPT-4.1")
    assert gpt["reference"] == "FFE-HALLU Table 7" and gpt["cells"]["agreement"]["value"] == 0.915
    # Table 6, Task 1: Claude 3.7 judged by Gemini 2.5 Pro: 75.5% agreement, kappa 0.60
    claude = next(row for row in tables["judge-agreement/ffe_generation"]["rows"]
                  if row["label"] == "Claude 3.7" and row["identity"]["judge"] == "gemini-2.5-pro")
    assert (claude["cells"]["agreement"]["value"], claude["cells"]["kappa"]["value"]) == (0.755, 0.60)


def labels_of(judged_log: Path, tmp_path: Path, *annotators: dict[str, str]) -> Path:
    """The judged run's answers exported, labelled by each of `annotators` (sample id -> label) and imported."""
    sheet = tmp_path / "sheet.csv"
    assert figeval("annotate", "export", str(judged_log), "--out", str(sheet)).returncode == 0
    sheets = [str(fill(sheet, tmp_path / f"ann{i}.csv", labels)) for i, labels in enumerate(annotators, 1)]
    labels = tmp_path / "labels.csv"
    assert figeval("annotate", "import", *sheets, "--out", str(labels)).returncode == 0
    return labels


ANN1 = {"ffe-gen-001/human": "1", "ffe-gen-003/human": "2", "ffe-gen-004/human": "1", "ffe-gen-005/human": "0",
        "ffe-gen-006/human": "0"}
ANN2 = {**ANN1, "ffe-gen-003/human": "1", "ffe-gen-006/human": "2"}
ANN3 = {**ANN1, "ffe-gen-004/human": "correct"}  # ann1's labels, written as a name (one sheet twice is refused)


def test_compare_prints_what_rates_and_agreement_printed_and_their_former_names_say_so(judged_log: Path,
                                                                                      tmp_path: Path):
    labels = labels_of(judged_log, tmp_path, ANN1, ANN2, ANN3)
    compare = figeval("annotate", "compare", str(labels), str(judged_log), "--confusion")
    rates = figeval("annotate", "rates", str(labels), str(judged_log))
    agreement = figeval("judge", "agreement", str(judged_log), "--human", str(labels), "--confusion")
    assert (compare.returncode, rates.returncode, agreement.returncode) == (0, 0, 0), compare.stderr
    # one command, both former outputs, line for line, the rates first (the numbers are checked in the round trip)
    assert compare.stdout == rates.stdout + "\n" + agreement.stdout
    assert "humans" in rates.stdout and "| with figeval's rules" in agreement.stdout
    assert "judge \\ human" in agreement.stdout and "Fleiss' kappa, all 3:" in agreement.stdout
    assert compare.stderr == ""
    assert rates.stderr == ("figeval: `figeval annotate rates` is now `figeval annotate compare`; the former name "
                            "will be removed in a later release.\n")
    assert agreement.stderr == ("figeval: `figeval judge agreement LOGS --human LABELS` is now `figeval annotate "
                                "compare LABELS LOGS`; the former name will be removed in a later release.\n")
    # the former names are not listed; the new one is
    listed = [line.split()[0] for line in figeval("annotate", "--help").stdout.splitlines()[1:] if line.strip()]
    assert "compare" in listed and "rates" not in listed
    assert "agreement" not in figeval("judge", "--help").stdout.split("Commands:")[-1]


def test_compare_without_runs_gives_people_s_rates_and_the_annotators_agreement(judged_log: Path, tmp_path: Path):
    two = labels_of(judged_log, tmp_path, ANN1, ANN2)
    compare = figeval("annotate", "compare", str(two))
    rates = figeval("annotate", "rates", str(two))
    assert (compare.returncode, rates.returncode) == (0, 0), compare.stderr
    # the rates and the note that no runs were given, as `annotate rates` printed them; then the annotators'
    # agreement, which needs no run (no judge section: there is no judge without a run)
    assert compare.stdout.startswith(rates.stdout + "\nannotators (FFE-HALLU Table 7), per model")
    assert "judge vs human" not in compare.stdout
    # ann1 = (C, INC, C, H, H), ann2 = (C, C, C, H, INC): 3 of 5, kappa 0.375 (the round trip derives it)
    assert figures(compare.stdout, "ann1 vs ann2: all labels")[:3] == ["5", "0.600", "0.375"]
    (tmp_path / "one").mkdir()
    one = labels_of(judged_log, tmp_path / "one", ANN1)
    alone = figeval("annotate", "compare", str(one))
    # one annotator and no runs: nothing to agree with, so the rates alone
    assert alone.returncode == 0 and alone.stdout == figeval("annotate", "rates", str(one)).stdout


def test_label_studio_export(judged_log: Path, tmp_path: Path):
    tasks_file = tmp_path / "tasks.json"
    assert figeval("annotate", "export", str(judged_log), "--out", str(tasks_file),
                   "--format", "labelstudio").returncode == 0
    tasks = json.loads(tasks_file.read_text(encoding="utf-8"))
    assert len(tasks) == 5 and tasks[0]["data"]["sample_id"].startswith("ffe-gen-")
    config = tasks_file.with_suffix(".xml").read_text(encoding="utf-8")
    assert '<Choice value="hallucinated"/>' in config
    # Persian answers right to left; the sheet's instructions are in the tool too
    assert 'value="$output" style="direction: rtl"' in config
    assert '<Header value="FFE-HALLU: label each model output' in config
    # A Label Studio export of those tasks, annotated, reads back like a sheet.
    for task in tasks:
        task["annotations"] = [{"result": [{"value": {"choices": ["correct"]}}]}]
    exported = tmp_path / "export.json"
    exported.write_text(json.dumps(tasks, ensure_ascii=False), encoding="utf-8")
    assert set(one_annotator(exported)[1].values()) == {C}


def sheet_with(tmp_path: Path, rows: str, name: str = "ann.csv") -> Path:
    """A filled ffe_generation sheet; each row given as "model,sample_id,input,reference,output,label"."""
    path = tmp_path / name
    body = "".join(f"ffe_generation,{row}\n" for row in rows.splitlines())
    path.write_text("# instructions\ntask,model,sample_id,input,reference,output,label\n" + body, encoding="utf-8-sig")
    return path


def test_unknown_label_is_named(tmp_path: Path):
    path = sheet_with(tmp_path, "m,ffe-gen-001/human,x,y,z,1\nm,ffe-gen-003/human,x,y,z,maybe\n")
    # the spreadsheet's own row: the instruction line is row 1, the header row 2, so the second answer is row 4
    with pytest.raises(DataError, match=r"ann.csv: row 4 \(sample 'ffe-gen-003/human' of m\) has label 'maybe'; use "
                                        r"one of 0 \(hallucinated\), 1 \(correct\), 2 \(incorrect\)"):
        one_annotator(path)


def test_empty_label_and_duplicate_row_are_named(tmp_path: Path):
    # the codes named in the error: a sheet's instructions are in a file beside it
    with pytest.raises(DataError, match=r"row 3 \(sample 'ffe-gen-001/human' of m\) has no label; label every row "
                                        r"with one of 0 \(hallucinated\), 1 \(correct\), 2 \(incorrect\)\.$"):
        one_annotator(sheet_with(tmp_path, "m,ffe-gen-001/human,x,y,z,\n"))
    with pytest.raises(DataError, match=r"row 4 repeats sample 'ffe-gen-001/human' of m"):
        one_annotator(sheet_with(tmp_path, "m,ffe-gen-001/human,x,y,z,1\nm,ffe-gen-001/human,x,y,z,2\n"))


def test_a_hash_inside_a_cell_is_data_and_a_short_row_is_named(tmp_path: Path):
    path = tmp_path / "ann.csv"
    path.write_text('# instructions\ntask,model,sample_id,input,reference,output,label\n'
                    'ffe_generation,m,ffe-gen-001/human,x,y,"line one\n# not a comment",1\n', encoding="utf-8-sig")
    assert one_annotator(path)[1] == {("m", "ffe-gen-001/human"): C}
    path.write_text("task,model,sample_id,input,reference,output,label\nffe_generation,m,ffe-gen-001/human\n",
                    encoding="utf-8-sig")
    with pytest.raises(DataError, match=r"row 2 does not have one cell per column"):  # no instructions: header is row 1
        one_annotator(path)


# Answers a sheet must carry through unchanged: Persian with a ZWNJ, a line break, a comma and quotes, a formula.
SHEET_ANSWERS = ["سیب\u200cزمینی را کباب کردن", "خط یک\nخط دو", 'با "نقل قول", و ویرگول', "=1+1"]


def exported_sheet(tmp_path: Path) -> Path:
    items = [AnnotationItem("ffe_generation", "replay/m", f"ffe-gen-{i:03d}/human", "به ثمر رسیدن", "به بار اوردن",
                            answer) for i, answer in enumerate(SHEET_ANSWERS, start=1)]
    sheet = tmp_path / "sheet.csv"
    guide = write_sheet(items, sheet, annotation_spec("ffe_generation").instructions)
    assert guide == tmp_path / "sheet.instructions.txt"
    return sheet


def test_an_exported_sheet_is_plain_csv_header_first_with_its_instructions_beside_it(tmp_path: Path):
    sheet = exported_sheet(tmp_path)
    raw = sheet.read_bytes()
    # the byte-order mark (Excel reads the file as UTF-8), then the header on the first line, no line before it
    assert raw.startswith(b"\xef\xbb\xbftask,model,sample_id,input,reference,output,label\n")
    with sheet.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)
    assert reader.fieldnames == list(SHEET_COLUMNS)
    # 4 answers, 4 rows, each cell as given: the formula carries the text mark a spreadsheet hides ("'=1+1")
    assert [row["output"] for row in rows] == SHEET_ANSWERS[:3] + ["'=1+1"]
    assert [from_row(row)["output"] for row in rows] == SHEET_ANSWERS
    assert {row["input"] for row in rows} == {"به ثمر رسیدن"} and {row["label"] for row in rows} == {""}
    # the instructions: a title naming the sheet, the task's lines as written, how to save it
    guide = tmp_path / "sheet.instructions.txt"
    assert guide.read_bytes().startswith(b"\xef\xbb\xbfInstructions for sheet.csv\n\n")
    lines = guide.read_text(encoding="utf-8-sig").splitlines()
    instructions = list(annotation_spec("ffe_generation").instructions)
    assert lines[2: 2 + len(instructions)] == instructions and lines[0] == "Instructions for sheet.csv"
    assert lines[-1].startswith("Save sheet.csv as CSV UTF-8")


def test_pandas_reads_an_exported_sheet_header_first(tmp_path: Path):
    pandas = pytest.importorskip("pandas", reason="pandas is not installed (figeval does not depend on it)")
    sheet = exported_sheet(tmp_path)
    frame = pandas.read_csv(sheet, encoding="utf-8-sig", dtype=str, keep_default_na=False)
    assert list(frame.columns) == list(SHEET_COLUMNS)  # the header is the first line, no "#" row taken for it
    assert list(frame["output"]) == SHEET_ANSWERS[:3] + ["'=1+1"]  # 4 rows, the line break inside its cell
    assert list(frame["sample_id"]) == [f"ffe-gen-{i:03d}/human" for i in range(1, 5)]


# A sheet as `annotate export` wrote it before its instructions had their own file: five '#' lines, then the header.
OLD_SHEET = ("# FFE-HALLU: label each model output in the 'label' column (one row per output).\n"
             "# 0 = hallucinated: not an existing Persian idiom or proverb\n"
             "# 1 = correct: an existing Persian idiom or proverb with the meaning in 'input'\n"
             "# 2 = incorrect: an existing Persian idiom or proverb with a different meaning\n"
             "# Judge the output by itself; the reference is one correct answer, not the only one.\n"
             "task,model,sample_id,input,reference,output,label\n"
             "ffe_generation,m,ffe-gen-001/human,به ثمر رسیدن,به بار اوردن,به بار اوردن,{first}\n"
             "ffe_generation,m,ffe-gen-003/human,معنی,مثل,\"خط یک\n# خط دو\",0\n")


def test_a_sheet_with_its_instructions_above_the_header_still_imports(tmp_path: Path):
    """People may be labelling a sheet written the old way: it imports, beside a new one, row numbers as shown."""
    old = tmp_path / "old.csv"
    old.write_text(OLD_SHEET.format(first="1"), encoding="utf-8-sig")
    new = tmp_path / "new.csv"
    new.write_text("task,model,sample_id,input,reference,output,label\n"
                   "ffe_generation,m,ffe-gen-001/human,به ثمر رسیدن,به بار اوردن,به بار اوردن,1\n"
                   "ffe_generation,m,ffe-gen-003/human,معنی,مثل,\"خط یک\n# خط دو\",0\n", encoding="utf-8-sig")
    # the '#' at the start of the answer's second line is data, not an instruction: both sheets show one answer
    assert one_annotator(old) == ("ffe_generation", {("m", "ffe-gen-001/human"): C,
                                                     ("m", "ffe-gen-003/human"): H})
    labels = combine([(name, *one_annotator(path)) for name, path in (("old", old), ("new", new))])
    assert [(h.sample_id, h.label, h.resolution) for h in labels] == [
        ("ffe-gen-001/human", C, Resolution.AGREED), ("ffe-gen-003/human", H, Resolution.AGREED)]
    # rows as a spreadsheet numbers them: 5 instruction lines (rows 1-5), the header (row 6), the first answer row 7
    old.write_text(OLD_SHEET.format(first="maybe"), encoding="utf-8-sig")
    with pytest.raises(DataError, match=r"old.csv: row 7 \(sample 'ffe-gen-001/human' of m\) has label 'maybe'"):
        one_annotator(old)
    # a blank line left above the header (a script that removed the instruction lines) is row 1: the answer is row 3
    old.write_text("\n" + OLD_SHEET.format(first="maybe").split("\n", 5)[5], encoding="utf-8-sig")
    with pytest.raises(DataError, match=r"old.csv: row 3 \(sample 'ffe-gen-001/human' of m\) has label 'maybe'"):
        one_annotator(old)


def test_the_instructions_file_is_an_output_checked_before_anything_is_written(tmp_path: Path):

    # the instructions' name is one of the command's inputs: refused, nothing written
    given = tmp_path / "run.instructions.txt"
    given.write_text("not a log", encoding="utf-8")
    refused = figeval("annotate", "export", str(given), "--out", str(tmp_path / "run.csv"), cwd=tmp_path)
    assert_one_line_error(refused, f"--out's instructions {given} is one of the command's inputs")
    assert given.read_text(encoding="utf-8") == "not a log" and not (tmp_path / "run.csv").exists()
    # the instructions' name is a symbolic link: refused (writing would change the file it points to)
    (tmp_path / "sheet.instructions.txt").symlink_to(given)
    refused = figeval("annotate", "export", "missing.eval", "--out", "sheet.csv", cwd=tmp_path)
    assert_one_line_error(refused, "--out's instructions sheet.instructions.txt is a symbolic link")
    assert not (tmp_path / "sheet.csv").exists()


def test_turkish_answers_are_left_to_right_in_label_studio(tmp_path: Path):
    from figeval.annotation.sheets import write_label_studio

    config = write_label_studio([], tmp_path / "tasks.json",
                                annotation_spec("tr_idiom_detection")).read_text(encoding="utf-8")
    assert 'value="$output" style="direction: ltr"' in config and "rtl" not in config


def test_annotators_are_named_and_never_two_of_one_name(tmp_path: Path):
    """Sheets with one file name from different folders were three annotators "ann" in agreement with themselves."""
    rows = "m,ffe-gen-001/human,x,y,z,1\nm,ffe-gen-003/human,x,y,z,0\n"
    for name in ("alice", "bob"):
        (tmp_path / name).mkdir()
    # bob disagrees on 003 (identical sheets are refused as one sheet given twice)
    first, second = sheet_with(tmp_path / "alice", rows), sheet_with(tmp_path / "bob", rows.replace(",0\n", ",1\n"))
    labels = tmp_path / "labels.csv"
    same = figeval("annotate", "import", str(first), str(second), "--out", str(labels))
    assert_one_line_error(same, "two sheets are both annotator 'ann'", "--annotator NAME")
    assert not labels.exists()
    named = figeval("annotate", "import", str(first), str(second), "--annotator", "alice", "--annotator", "bob",
                    "--out", str(labels))
    assert named.returncode == 0, named.stderr
    assert read_labels(labels, annotation_spec)[1] == ["alice", "bob"]
    assert_one_line_error(figeval("annotate", "import", str(first), str(second), "--annotator", "alice",
                                  "--out", str(labels)), "1 --annotator names for 2 sheets")
    assert_one_line_error(figeval("annotate", "import", str(first), "--out", str(first)),
                          "is one of the command's inputs")
    assert first.read_text(encoding="utf-8-sig").count("ffe-gen-") == 2  # untouched


def test_a_label_studio_export_keeps_every_annotator(tmp_path: Path):
    tasks = [{"data": {"task": "ffe_generation", "model": "m", "sample_id": sample},
              "annotations": [{"completed_by": {"id": 1, "email": "a@lab"},
                               "result": [{"value": {"choices": [first]}}]},
                              {"completed_by": 2, "result": [{"value": {"choices": [second]}}]}]}
             for sample, first, second in (("ffe-gen-001/human", "correct", "correct"),
                                           ("ffe-gen-003/human", "incorrect", "correct"))]
    export = tmp_path / "project.json"
    export.write_text(json.dumps(tasks), encoding="utf-8")
    task, by_annotator = read_annotators(export, annotation_spec)
    assert task == "ffe_generation" and list(by_annotator) == ["a@lab", "2"]
    assert by_annotator["2"] == {("m", "ffe-gen-001/human"): C, ("m", "ffe-gen-003/human"): C}
    labels = tmp_path / "labels.csv"
    imported = figeval("annotate", "import", str(export), "--out", str(labels))
    assert imported.returncode == 0, imported.stderr
    assert "2 answers: 1 agreed, 1 unresolved" in imported.stdout
    assert read_labels(labels, annotation_spec)[1] == ["project/a@lab", "project/2"]


def test_a_sheet_missing_a_row_is_named(tmp_path: Path):
    full = one_annotator(sheet_with(tmp_path, "m,ffe-gen-001/human,x,y,z,1\nm,ffe-gen-003/human,x,y,z,0\n", "a.csv"))
    short = one_annotator(sheet_with(tmp_path, "m,ffe-gen-001/human,x,y,z,1\n", "b.csv"))
    with pytest.raises(DataError, match=r"b has no row for 1 answer\(s\) the other sheets have \(first: sample "
                                        r"'ffe-gen-003/human' of m\)"):
        combine([("a", *full), ("b", *short)])
    with pytest.raises(DataError, match="one to three"):
        combine([("a", *full)] * 4)
    with pytest.raises(DataError, match="different tasks"):
        combine([("a", *full), ("b", "ffe_translation", full[1])])


@pytest.mark.parametrize("task", sorted(ANNOTATED))
def test_export_shows_annotators_the_declared_input_of_each_task(task, tmp_path: Path):
    from figeval.annotation.sheets import items_from_log
    from figeval.scoring.outcome import DecidedBy, Outcome
    from tests.metric_values import logged_outcomes

    spec = ANNOTATED[task]
    # Every key an older export guessed among holds a decoy; only the declared key holds what annotators see.
    decoys = {"meaning": "decoy", "english": "decoy", "question": "decoy", "text": "decoy"}
    if spec.answers == "unparsed":
        outcome = Outcome.unparsed(DecidedBy.PARSER, "no label")
    else:
        outcome = Outcome(spec.scheme.values[0], DecidedBy.JUDGE, answer="the model's answer")
    log = logged_outcomes(tmp_path, [outcome], spec.scheme.values, [{**decoys, spec.input_key: "declared"}], task)
    [item], skipped = items_from_log(log, spec)
    assert item.input == "declared" and skipped == 0
    assert item.output == ("an answer" if spec.answers == "unparsed" else "the model's answer")


def test_export_of_a_log_without_the_declared_key_says_so(tmp_path: Path):
    from figeval.annotation.sheets import items_from_log
    from figeval.scoring.outcome import DecidedBy, Outcome
    from tests.metric_values import logged_outcomes

    spec = ANNOTATED["ffe_generation"]
    log = logged_outcomes(tmp_path, [Outcome("correct", DecidedBy.JUDGE, answer="x")], spec.scheme.values,
                          [{"english": "not the meaning"}], "ffe_generation")
    with pytest.raises(DataError, match="sample s1 has no 'meaning' in its metadata"):
        items_from_log(log, spec)


def test_labels_of_another_task_are_one_line(judged_log: Path, tmp_path: Path):
    labels = tmp_path / "labels.csv"
    labels.write_text("task,model,sample_id,label,resolution,a1\nallusion_open,m,s1,correct,single,correct\n",
                      encoding="utf-8")
    result = figeval("judge", "agreement", str(judged_log), "--human", str(labels))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "labels answers of allusion_open, but the logs are runs of ffe_generation" in result.stderr


def test_with_epochs_annotators_and_agreement_see_the_reduced_outcome(ffe_hallu_imported: Path, tmp_path: Path):
    """Three epochs keep three samples per id in the log; the sheet has one row per answer, and the judge's
    label is the one the metrics used (the most frequent of its three), not whichever epoch came last."""
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    from figeval.annotation.agreement import judge_labels
    from figeval.annotation.sheets import items_from_log
    from figeval.benchmarks.ffe_hallu.scorer import FFE_LABELS

    outputs = write_replay(tmp_path / "outputs.jsonl", {"ffe-gen-005/human": "گربه را دم دروازه کشتن"})
    calls = []

    def judge_reply(messages, tools, tool_choice, config):
        calls.append(1)
        # the first call says hallucinated (0), the two others correct (1): the mode is correct
        output = ModelOutput.from_content("mockllm/model", json.dumps({"label": 0 if len(calls) == 1 else 1}))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    [log] = inspect_eval(
        ffe_generation(), model=f"replay/{outputs}", sample_id=["ffe-gen-005/human"], epochs=3, cache=False,
        model_roles={"grader": get_model("mockllm/model", custom_outputs=judge_reply, memoize=False)},
        log_dir=str(tmp_path / "logs"), display="none",
    )
    assert log.status == "success", log.error
    assert len(log.samples) == 3 and len(calls) == 3
    items, skipped = items_from_log(log, annotation_spec("ffe_generation"))
    assert [item.sample_id for item in items] == ["ffe-gen-005/human"] and skipped == 0
    assert judge_labels(log, FFE_LABELS) == {(f"replay/{outputs}", "ffe-gen-005/human"): C}
    assert log.results.scores[0].metrics["correct_rate"].value == 1.0


def test_a_third_annotator_may_label_only_the_disagreements(judged_log: Path, tmp_path: Path):
    """Section 3.5: two annotators label everything; a third resolves what they disagree on."""
    sheet = tmp_path / "sheet.csv"
    assert figeval("annotate", "export", str(judged_log), "--out", str(sheet)).returncode == 0
    first = fill(sheet, tmp_path / "ann1.csv",
                 {"ffe-gen-001/human": "1", "ffe-gen-003/human": "2", "ffe-gen-004/human": "1",
                                                 "ffe-gen-005/human": "0", "ffe-gen-006/human": "0"})
    second = fill(sheet, tmp_path / "ann2.csv",
                  {"ffe-gen-001/human": "1", "ffe-gen-003/human": "1", "ffe-gen-004/human": "1",
                                                  "ffe-gen-005/human": "0", "ffe-gen-006/human": "2"})
    # the third sheet holds only the two disagreements (003, 006)
    lines = sheet.read_text(encoding="utf-8-sig").splitlines()
    kept = [line for line in lines if line.startswith("task,") or ",ffe-gen-003/human," in line or
            ",ffe-gen-006/human," in line]
    partial = tmp_path / "partial.csv"
    partial.write_text("\n".join(kept) + "\n", encoding="utf-8-sig")
    third = fill(partial, tmp_path / "ann3.csv", {"ffe-gen-003/human": "2", "ffe-gen-006/human": "0"})
    labels = tmp_path / "labels.csv"
    imported = figeval("annotate", "import", str(first), str(second), str(third), "--out", str(labels))
    assert imported.returncode == 0, imported.stderr
    assert "5 answers: 3 agreed, 2 third" in imported.stdout
    humans, annotators = read_labels(labels, annotation_spec)
    by_id = {h.sample_id: h for h in humans}
    assert by_id["ffe-gen-003/human"].label is INC and by_id["ffe-gen-006/human"].label is H
    assert by_id["ffe-gen-001/human"].annotators == (C, C, None)
    # agreement with the third is over the answers it labelled: 003 (ann1 2 = ann3 2), 006 (ann1 0 = ann3 0)
    agreement = figeval("judge", "agreement", str(judged_log), "--human", str(labels))
    assert agreement.returncode == 0, agreement.stderr
    assert figures(agreement.stdout, "ann1 vs ann3: all labels")[:2] == ["2", "1.000"]

    # a third sheet that misses a disagreement is refused, naming it
    missing = fill(partial, tmp_path / "short.csv", {"ffe-gen-003/human": "2", "ffe-gen-006/human": "0"})
    missing.write_text("\n".join(line for line in missing.read_text(encoding="utf-8-sig").splitlines()
                                 if ",ffe-gen-006/human," not in line) + "\n", encoding="utf-8-sig")
    refused = figeval("annotate", "import", str(first), str(second), str(missing), "--out", str(tmp_path / "x.csv"))
    assert refused.returncode == 2 and "short has no row for sample 'ffe-gen-006/human'" in refused.stderr


def test_rates_from_human_labels_leave_unresolved_answers_apart(tmp_path: Path):
    from figeval.annotation.agreement import human_rates, run_rates
    from figeval.annotation.labels import HumanLabel
    from figeval.benchmarks.ffe_hallu.scorer import FFE_LABELS, JUDGED_POLICIES
    from figeval.scoring.metrics import recorded_policies
    from figeval.scoring.outcome import DecidedBy, Outcome
    from tests.metric_values import logged_outcomes

    log = logged_outcomes(tmp_path, [Outcome("correct", DecidedBy.JUDGE, answer="a"),
                                     Outcome.unparsed(DecidedBy.PARSER, "no Persian expression"),
                                     Outcome("incorrect", DecidedBy.JUDGE, answer="c")],
                          FFE_LABELS.values, task_name="ffe_generation",
                          task_metadata={"unparsed_policies": recorded_policies(JUDGED_POLICIES)})
    model = log.eval.model
    humans = [HumanLabel("ffe_generation", model, "s1", C, Resolution.AGREED, (C, C)),
              HumanLabel("ffe_generation", model, "s2", H, Resolution.AGREED, (H, H)),
              HumanLabel("ffe_generation", model, "s3", None, Resolution.UNRESOLVED, (C, INC))]
    row = human_rates(model, humans, FFE_LABELS)
    # s1 correct, s2 hallucinated; s3 unresolved is counted apart
    assert (row.n, row.unresolved, row.rates) == (2, 1, {"hallucinated": 0.5, "correct": 0.5, "incorrect": 0.0})
    # the run over the same two answers: s1 correct, s2 unparsed -> hallucinated by the task's policy
    assert run_rates(log, humans, FFE_LABELS).rates == {"hallucinated": 0.5, "correct": 0.5, "incorrect": 0.0}


def test_a_model_s_human_and_paraphrased_meaning_runs_never_share_an_answer(ffe_hallu_imported: Path, tmp_path: Path):
    """Task 1 asked with the dictionary meanings and with verified paraphrases (Section 3.1) by one model: one
    sheet of both runs, one labels file, and Table 6 per run, each run's labels its own."""
    paraphrases = tmp_path / "paraphrases.csv"
    paraphrases.write_text("row,farsi_idiom,Meaning,paraphrase,verified\n"
                           "1,به بار اوردن,به ثمر رسیدن,نتیجه دادن,yes\n"
                           "3,حال وهوای کسی یا کاری را نداشتن,تمایلی به انجام کاری نداشتن,حوصله نداشتن,yes\n",
                           encoding="utf-8-sig")
    outputs = write_replay(tmp_path / "outputs.jsonl", {
        "ffe-gen-001/human": "به بار اوردن",  # the reference: correct by the rule
        "ffe-gen-003/human": "پا پس کشیدن",  # row 12's FFE, judged
        "ffe-gen-001/paraphrased": "پا پس کشیدن",  # judged
        "ffe-gen-003/paraphrased": "حال وهوای کسی یا کاری را نداشتن",  # the reference: correct by the rule
    })
    judge = write_replay(tmp_path / "judge.jsonl", {sid: json.dumps({"label": label}) for sid, label in [
        ("ffe-gen-001/human", 1), ("ffe-gen-003/human", 2), ("ffe-gen-001/paraphrased", 2),
        ("ffe-gen-003/paraphrased", 1)]})
    logs = tmp_path / "logs"
    runs = [(ffe_generation(), ["ffe-gen-001/human", "ffe-gen-003/human"]),
            (ffe_generation(meaning="paraphrased", paraphrases=str(paraphrases)), None)]
    for task, ids in runs:
        [log] = inspect_eval(task, model=f"replay/{outputs}", model_roles={"grader": f"replay/{judge}"},
                             sample_id=ids, log_dir=str(logs), display="none")
        assert log.status == "success", log.error

    sheet = tmp_path / "sheet.csv"
    exported = figeval("annotate", "export", str(logs), "--out", str(sheet))
    assert exported.returncode == 0, exported.stderr
    # One person: human 001 correct, 003 incorrect; paraphrased 001 hallucinated, 003 correct.
    person = fill(sheet, tmp_path / "ann1.csv", {"ffe-gen-001/human": "1", "ffe-gen-003/human": "2",
                                                  "ffe-gen-001/paraphrased": "0", "ffe-gen-003/paraphrased": "1"})
    labels = tmp_path / "labels.csv"
    imported = figeval("annotate", "import", str(person), "--out", str(labels))
    assert imported.returncode == 0, imported.stderr

    report = figeval("report", str(logs), "--human", str(labels), "--format", "json")
    assert report.returncode == 0, report.stderr
    table = next(t for t in json.loads(report.stdout)["tables"] if t["key"] == "judge-agreement/ffe_generation")
    assert "meaning" in table["identity_keys"]
    found = {(row["identity"]["meaning"], row["identity"]["judge"]): (row["cells"]["agreement"]["value"],
                                                                      row["cells"]["agreement"]["n"])
             for row in table["rows"]}
    judge_name = f"replay/{judge}"
    # human: the judge said 1, 2 where the person said 1, 2 -> 2/2. paraphrased: the judge said 2, 1 where the
    # person said 0, 1 -> 1/2; the run's own labels (001 incorrect by the judge, 003 correct by the rule) alike.
    assert found == {("human", judge_name): (1.0, 2), ("human", "with figeval's rules"): (1.0, 2),
                     ("paraphrased", judge_name): (0.5, 2), ("paraphrased", "with figeval's rules"): (0.5, 2)}

    # The people's rates (Table 3 from people's labels) per meaning, each beside its run, never one line over both:
    # columns hallucinated, correct, incorrect. Human: the person's 001 correct, 003 incorrect; the run alike (001
    # by the reference rule, 003 by the judge's 2). Paraphrased: the person's 001 hallucinated, 003 correct; the
    # run's 001 incorrect (the judge's 2), 003 correct by the rule.
    rates = figeval("annotate", "rates", str(labels), str(logs))
    assert rates.returncode == 0, rates.stderr
    lines = [line.split() for line in rates.stdout.splitlines() if line.split()[1:2] in (["humans"], ["run"])]
    from figeval.data.stored import sha256_of

    sheet_file = f"paraphrases.csv@{sha256_of(paraphrases)[:8]}"
    assert [line[1:] for line in lines] == [
        ["humans", "2", "0.0", "50.0", "50.0", "meaning=human"], ["run", "2", "0.0", "50.0", "50.0"],
        ["humans", "2", "50.0", "50.0", "0.0", "meaning=paraphrased,", f"paraphrases={sheet_file}"],
        ["run", "2", "0.0", "50.0", "50.0"]]

    # Table 3 from the people's labels (the paper's are people's, Section 3.5): under the model's row (its judge's,
    # both meanings) a row of the person's labels of the same answers, in the paper's layout. Human meaning: the
    # person's 001 correct, 003 incorrect -> 50.0 / 50.0 / 0.0 over 2; paraphrased: 001 hallucinated, 003 correct ->
    # 50.0 / 0.0 / 50.0 over 2 (Wilson of 1/2: centre 0.5, half-width 1.959964 / 5.841459 * sqrt(0.5 + 0.960365) =
    # 0.405469 -> [0.0945, 0.9055]; of 0/2: centre 1.920730 / 5.841459 = 0.328810, half-width 0.335527 *
    # sqrt(0.960365) = 0.328810 -> [0, 0.6576]), as JSON keeps them (four decimals)
    report = figeval("report", str(logs), "--human", str(labels), "--format", "json")
    assert report.returncode == 0, report.stderr
    table_3 = next(t for t in json.loads(report.stdout)["tables"] if t["key"] == "ffe-hallu/table-3")
    assert [row["identity"]["labelled by"] for row in table_3["rows"]] == ["judge", "people (labels.csv)"]
    people = {key: (cell["value"], cell["n"], cell["ci_low"], cell["ci_high"])
              for key, cell in table_3["rows"][1]["cells"].items()}
    half, none = (0.5, 2, 0.0945, 0.9055), (0.0, 2, 0.0, 0.6576)
    assert people == {"human/correct": half, "human/incorrect": half, "human/hallucinated": none,
                      "paraphrased/correct": half, "paraphrased/incorrect": none, "paraphrased/hallucinated": half}
    # the judge's row beside it: 001 incorrect (the judge's 2) on the paraphrased side, so 0.0 hallucinated
    judge_row = table_3["rows"][0]["cells"]
    assert (judge_row["paraphrased/hallucinated"]["value"], judge_row["paraphrased/incorrect"]["value"]) == (0.0, 0.5)


def test_one_model_judged_by_two_judges_keeps_each_judge_s_lines_apart(ffe_hallu_imported: Path, tmp_path: Path):
    """Table 6 has a column pair per judge: one model's answers judged once by each judge are two runs, and each
    run's lines (the judge's own, then its labels with figeval's rules) say which judge they belong to."""
    outputs = write_replay(tmp_path / "outputs.jsonl", {"ffe-gen-001/human": "به بار اوردن",
                                                        "ffe-gen-003/human": "پا پس کشیدن"})
    logs = tmp_path / "logs"
    judges = {}
    # judge a agrees with the person on both (1, 2); judge b says 2 on 001 (against the person's 1) and 2 on 003
    for name, labels in (("a", (1, 2)), ("b", (2, 2))):
        judges[name] = write_replay(tmp_path / f"judge-{name}.jsonl", {
            "ffe-gen-001/human": json.dumps({"label": labels[0]}),
            "ffe-gen-003/human": json.dumps({"label": labels[1]})})
        [log] = inspect_eval(ffe_generation(), model=f"replay/{outputs}",
                             model_roles={"grader": f"replay/{judges[name]}"},
                             sample_id=["ffe-gen-001/human", "ffe-gen-003/human"], log_dir=str(logs), display="none")
        assert log.status == "success", log.error
    labels = tmp_path / "labels.csv"
    labels.write_text("task,model,sample_id,label,resolution,ann1\n"
                      f"ffe_generation,replay/{outputs},ffe-gen-001/human,correct,single,correct\n"
                      f"ffe_generation,replay/{outputs},ffe-gen-003/human,incorrect,single,incorrect\n",
                      encoding="utf-8")
    report = figeval("report", str(logs), "--human", str(labels), "--format", "json")
    assert report.returncode == 0, report.stderr
    table = next(t for t in json.loads(report.stdout)["tables"] if t["key"] == "judge-agreement/ffe_generation")
    assert table["identity_keys"] == ["judge"]
    a, b = f"replay/{judges['a']}", f"replay/{judges['b']}"
    # a: 2/2 on its own; b: 1/2 (003 only); with the rules, 001 is correct by the reference rule whatever the judge
    # said, so both runs' labels are 001 correct + 003 incorrect -> 2/2
    assert sorted((row["identity"]["judge"], row["cells"]["agreement"]["value"]) for row in table["rows"]) == sorted([
        (a, 1.0), (f"with figeval's rules (judge {a})", 1.0), (b, 0.5), (f"with figeval's rules (judge {b})", 1.0)])


def test_a_label_studio_export_with_a_byte_order_mark_is_read(tmp_path: Path):
    tasks = [{"data": {"task": "ffe_generation", "model": "m", "sample_id": "ffe-gen-001/human", "output": "x"},
              "annotations": [{"result": [{"value": {"choices": ["correct"]}}]}]}]
    export = tmp_path / "project.json"
    export.write_text(json.dumps(tasks), encoding="utf-8-sig")  # as some editors save JSON
    assert one_annotator(export) == ("ffe_generation", {("m", "ffe-gen-001/human"): C})


def test_an_answer_is_compared_as_a_spreadsheet_may_save_it_and_no_looser():
    from figeval.annotation.answers import answer_digest

    # line endings and surrounding spaces are what saving a sheet may change; composed and decomposed Persian
    # letters (alef with madda, U+0622 = U+0627 U+0653) are one text
    assert answer_digest("a\r\nb ") == answer_digest("a\nb") == answer_digest(" a\rb")
    assert answer_digest("\u0622") == answer_digest("\u0627\u0653")
    # a space inside the answer, or a zero-width non-joiner, is another answer
    assert answer_digest("a b") != answer_digest("ab") != answer_digest("a\u200cb")


def test_a_resolved_label_no_annotator_gave_is_refused(tmp_path: Path):
    labels = tmp_path / "labels.csv"
    # row 2 resolved as its annotators agreed; row 3's three annotators all say correct, its resolved label was
    # edited to hallucinated: `resolve` can only give one of theirs, so nobody gave it
    labels.write_text("task,model,sample_id,label,resolution,answer_sha256,ann1,ann2,ann3\n"
                      "ffe_generation,m,ffe-gen-001/human,correct,agreed,,correct,correct,\n"
                      "ffe_generation,m,ffe-gen-003/human,hallucinated,agreed,,correct,correct,correct\n",
                      encoding="utf-8")
    # every reader of a labels file reads it with `read_labels`: compare, report --human, -T manual_labels
    assert_one_line_error(figeval("annotate", "compare", str(labels), cwd=tmp_path),
                          "labels.csv: row 3 (sample 'ffe-gen-003/human' of m) has resolved label 'hallucinated'",
                          "none of its annotators gave (ann1 correct, ann2 correct, ann3 correct)",
                          "correct its 'label' cell", "third annotator's sheet")
