"""Adding a benchmark is one folder and one line in _registry.py: a toy benchmark declared in tests/ (its tasks,
scorers, table, figure, annotation schemes, judge-vs-people tables, protocol and paper numbers in
tests/toy_benchmark/) is listed, run on a replay, answered by logprob, run by its paper's protocol, reported with its
table (a row per setting that tells runs apart), the paper's rows and its figure, exported for annotation, and its
judge checked against people's labels under the paper's own table names, with no other file knowing it."""

import csv
import json
import math
from pathlib import Path

import pytest

from figeval import _registry
from tests.command import figeval
from tests.test_annotation import fill
from tests.toy_benchmark import BENCHMARK as TOY

# The replayed answers and a person's reading of each: toy-2 "Even." right; toy-3 "odd, since 3 = 2 + 1" right;
# toy-4 "Odd" wrong; toy-7 "It depends on the base." read as nothing (unparsed, counted wrong). Accuracy 2/4 = 50.0,
# unparsed 1/4 = 25.0.
ANSWERS = {"toy-2": "Even.", "toy-3": "odd, since 3 = 2 + 1", "toy-4": "Odd", "toy-7": "It depends on the base."}


@pytest.fixture
def toy_registered(monkeypatch):
    # the one line a new benchmark adds to _registry.py
    monkeypatch.setattr(_registry, "BENCHMARKS", (*_registry.BENCHMARKS, TOY))


def replay_file(path: Path, records: dict[str, str | dict]) -> Path:
    """A replay model's file: each sample id's output text, or its whole record (`top_logprobs` for logprob)."""
    path.write_text("".join(json.dumps({"id": key, **(value if isinstance(value, dict) else {"output": value})})
                            + "\n" for key, value in records.items()), encoding="utf-8")
    return path


def run_toy(task: str, answers: dict[str, str | dict], tmp_path: Path, *options: str) -> Path:
    """`figeval run` of a toy task on replayed answers (one model, `toy-model`, whatever its answers), into
    tmp_path/logs; the log it wrote."""
    replay = replay_file(tmp_path / "toy-model.jsonl", answers)
    logs = tmp_path / "logs"
    before = set(logs.glob("*.eval"))
    ran = figeval("run", task, "--model", f"replay/{replay}", "--log-dir", str(logs), *options)
    assert ran.returncode == 0, ran.stderr
    [log] = set(logs.glob("*.eval")) - before
    return log


def table_cells(stdout: str, table: str) -> dict[tuple[str, str], dict[str, str]]:
    """A CSV report's cells of one table by (the row's settings, column)."""
    return {(row["settings"], row["column"]): row for row in csv.DictReader(stdout.splitlines())
            if row["table"] == table}


@pytest.fixture
def toy_run(toy_registered, tmp_path: Path) -> Path:
    return run_toy("toy_parity", ANSWERS, tmp_path).parent


def test_the_toy_is_listed_with_its_paper_and_choices(toy_registered):
    listed = figeval("list", "toy_parity", "--json")
    assert listed.returncode == 0, listed.stderr
    [info] = json.loads(listed.stdout)["tasks"]
    assert (info["benchmark"], info["paper"], info["samples"], info["data"]) == (
        "Toy", "figeval's tests", 4, "user file")
    assert info["arguments"] == [
        {"name": "answer_mode", "type": "str", "default": "generate", "choices": ["generate", "logprob"],
         "score_neutral": None},
        {"name": "wording", "type": "str", "default": "plain", "choices": ["plain", "strict"], "score_neutral": None},
        {"name": "note", "type": "str", "default": "", "choices": None,
         "score_neutral": "written to the log for the reader; never shown to the model or the scorer"}]


def test_the_toy_is_run_and_reported_with_its_table_and_figure(toy_run: Path, tmp_path: Path):
    figures = tmp_path / "figures"
    reported = figeval("report", str(toy_run), "--format", "csv", "--figures", str(figures))
    assert reported.returncode == 0, reported.stderr
    rows = list(csv.DictReader(reported.stdout.splitlines()))
    [accuracy] = [row for row in rows if row["table"] == "toy/table-1" and row["column"] == "accuracy"]
    [unparsed] = [row for row in rows if row["table"] == "toy/table-1" and row["column"] == "unparsed"]
    assert (float(accuracy["value"]), int(accuracy["n"])) == (50.0, 4)
    assert float(unparsed["value"]) == 25.0
    assert sorted(path.name for path in figures.iterdir()) == [
        "toy-accuracy.pdf", "toy-accuracy.png", "toy-accuracy.svg"]
    board = figeval("report", str(toy_run), "--leaderboard")
    assert board.returncode == 0 and "Toy parity" in board.stdout, board.stderr


def test_the_toy_paper_s_protocol_runs_and_its_table_shows_the_paper_s_row(toy_registered, tmp_path: Path):
    replay = tmp_path / "toy-model.jsonl"
    replay.write_text("".join(json.dumps({"id": key, "output": text}) + "\n" for key, text in ANSWERS.items()),
                      encoding="utf-8")
    logs = tmp_path / "logs"
    ran = figeval("run", "--paper", "toy", "--model", f"replay/{replay}", "--log-dir", str(logs))
    assert ran.returncode == 0, ran.stderr
    reported = figeval("report", str(logs / "toy"), "--format", "csv", "--paper")
    assert reported.returncode == 0, reported.stderr
    rows = [row for row in csv.DictReader(reported.stdout.splitlines())
            if row["table"] == "toy/table-1" and row["column"] == "accuracy"]
    # the paper's printed 75.0 beside the run's 2/4 = 50.0
    assert {row["row"]: float(row["value"]) for row in rows} == {"Toy model (paper)": 75.0, "toy-model": 50.0}


def test_the_toy_is_exported_for_annotation(toy_run: Path, tmp_path: Path):
    sheet = tmp_path / "sheet.csv"
    exported = figeval("annotate", "export", str(toy_run), "--out", str(sheet))
    assert exported.returncode == 0, exported.stderr
    with sheet.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    # every answer (the scheme's `answers="all"`), each with its number (`input_key`) and the text it was read as:
    # the label word where the reader read one, the whole answer where it read nothing
    shown = {"toy-2": "even", "toy-3": "odd", "toy-4": "odd", "toy-7": "It depends on the base."}
    assert {row["sample_id"]: row["output"] for row in rows} == shown
    assert {row["input"] for row in rows} == {"2", "3", "4", "7"}


def test_the_toy_answers_by_logprob(toy_registered, tmp_path: Path):
    from inspect_ai.log import read_eval_log

    from figeval.scoring.outcome import outcome_of

    def top(*candidates: tuple[str, float]) -> dict:
        return {"output": "", "top_logprobs": [{"token": token, "logprob": logprob} for token, logprob in candidates]}

    # The next token's candidates and a person's reading of each, by P = exp(logprob) summed over a label's words
    # (tokens read lowercased and without spaces):
    # toy-2: " Even" exp(-0.2) = 0.8187 vs "odd" exp(-3.0) = 0.0498 ("The" names none) -> even, right;
    # toy-3: "Even" exp(-1.0) = 0.3679 vs "ODD" exp(-0.5) = 0.6065 -> odd, right;
    # toy-4: "even" and "odd" both exp(-0.7): a tie, no label -> unparsed, counted wrong;
    # toy-7: "even" exp(-3.0) vs " odd" exp(-0.05) = 0.9512 -> odd, right.
    # Accuracy 3/4 = 75.0, unparsed 1/4 = 25.0, read by logprob 3/4 = 75.0.
    answers = {"toy-2": top((" Even", -0.2), ("The", -2.5), ("odd", -3.0)),
               "toy-3": top(("Even", -1.0), ("ODD", -0.5)),
               "toy-4": top(("even", -0.7), ("odd", -0.7)),
               "toy-7": top(("even", -3.0), (" odd", -0.05))}
    log = run_toy("toy_parity", answers, tmp_path, "-T", "answer_mode=logprob")
    samples = read_eval_log(str(log)).samples or []
    outcomes = {str(sample.id): outcome_of((sample.scores or {})["parity_scorer"]) for sample in samples}
    assert {sid: outcome.label for sid, outcome in outcomes.items()} == {
        "toy-2": "even", "toy-3": "odd", "toy-4": None, "toy-7": "odd"}
    assert outcomes["toy-2"].details["probabilities"] == pytest.approx({"even": math.exp(-0.2), "odd": math.exp(-3.0)})
    assert {outcome.decided_by.value for outcome in outcomes.values()} == {"logprob"}
    reported = figeval("report", str(log.parent), "--format", "csv")
    assert reported.returncode == 0, reported.stderr
    cells = table_cells(reported.stdout, "toy/table-1")
    [settings] = {key[0] for key in cells}
    assert "answer_mode=logprob" in settings.split(";")
    assert (float(cells[settings, "accuracy"]["value"]), float(cells[settings, "unparsed"]["value"])) == (75.0, 25.0)
    [read] = [row for row in csv.DictReader(reported.stdout.splitlines())
              if row["table"] == "reading" and row["column"] == "logprob"]
    assert float(read["value"]) == 75.0


def test_a_setting_splits_the_toy_s_rows_and_a_neutral_one_does_not(toy_registered, tmp_path: Path):
    # Three runs of one model (the replay file's stem, toy-model), newest last:
    # 1. wording=plain, note=first: ANSWERS, accuracy 2/4 = 50.0;
    # 2. wording=plain, note=second: all four right ("Even.", "odd", "even", "odd") -> 100.0; `note` is declared
    #    score-neutral, so this run has run 1's identity and, being newer, replaces it in the row;
    # 3. wording=strict: "Even.", "even" (3 is odd: wrong), "even", "odd" -> 3/4 = 75.0; `wording` is part of the
    #    identity, so a row of its own.
    first = run_toy("toy_parity", ANSWERS, tmp_path, "-T", "note=first")
    second = run_toy("toy_parity", {"toy-2": "Even.", "toy-3": "odd", "toy-4": "even", "toy-7": "odd"}, tmp_path,
                     "-T", "note=second")
    strict = run_toy("toy_parity", {"toy-2": "Even.", "toy-3": "even", "toy-4": "even", "toy-7": "odd"}, tmp_path,
                     "-T", "wording=strict")
    reported = figeval("report", str(first.parent), "--format", "csv")
    assert reported.returncode == 0, reported.stderr
    cells = table_cells(reported.stdout, "toy/table-1")
    settings = sorted({settings for settings, _ in cells})
    wordings = [dict(pair.split("=", 1) for pair in row.split(";"))["wording"] for row in settings]
    assert sorted(wordings) == ["plain", "strict"]  # two rows, not three: the note does not split
    assert all("note" not in row for row in settings)
    rows = dict(zip(wordings, settings))
    plain, strict_row = cells[rows["plain"], "accuracy"], cells[rows["strict"], "accuracy"]
    assert (float(plain["value"]), Path(plain["log"].removeprefix("file://"))) == (100.0, second)
    assert (float(strict_row["value"]), Path(strict_row["log"].removeprefix("file://"))) == (75.0, strict)
    text = figeval("report", str(first.parent))
    # the replaced run is listed as such, by the run that replaced it
    assert f"replaced by a newer run with the same settings: file://{first} (by file://{second})" in text.stdout


# The judged toy task (explain.py): the model's explanations, the judge's labels (1 correct, 0 incorrect) and
# three people's. 7's explanation is wrong and the judge calls it right.
EXPLANATIONS = {"toy-explain-2": "2 is even: it is 2 x 1.", "toy-explain-3": "3 is odd: 3 = 2 + 1.",
                "toy-explain-4": "4 is odd.", "toy-explain-7": "7 is even, being prime."}
JUDGE = {"toy-explain-2": '{"label": 1}', "toy-explain-3": '{"label": 1, "reason": "3 = 2 + 1"}',
         "toy-explain-4": '{"label": 0}', "toy-explain-7": '{"label": 1}'}
PEOPLE = ({"toy-explain-2": "1", "toy-explain-3": "1", "toy-explain-4": "0", "toy-explain-7": "0"},
          {"toy-explain-2": "1", "toy-explain-3": "0", "toy-explain-4": "0", "toy-explain-7": "wrong"},
          {"toy-explain-2": "correct", "toy-explain-3": "1", "toy-explain-4": "0", "toy-explain-7": "0"})


def test_the_toy_s_judge_and_annotators_are_reported_under_its_paper_s_table_names(toy_registered, tmp_path: Path):
    judge = replay_file(tmp_path / "toy-judge.jsonl", JUDGE)
    log = run_toy("toy_explain", EXPLANATIONS, tmp_path, "-T", f"judge=replay/{judge}")
    sheet = tmp_path / "sheet.csv"
    exported = figeval("annotate", "export", str(log), "--out", str(sheet))
    assert exported.returncode == 0, exported.stderr
    sheets = [str(fill(sheet, tmp_path / f"ann{i}.csv", labels)) for i, labels in enumerate(PEOPLE, 1)]
    labels = tmp_path / "labels.csv"
    imported = figeval("annotate", "import", *sheets, "--out", str(labels))
    assert imported.returncode == 0, imported.stderr
    # ann1 and ann2 disagree on 3 only; ann3 sides with ann1: resolved C, C, I, I over 2, 3, 4, 7
    assert "4 answers: 3 agreed, 1 third" in imported.stdout

    report = figeval("report", str(log.parent), "--human", str(labels), "--paper", "--format", "json")
    assert report.returncode == 0, report.stderr
    tables = {table["key"]: table for table in json.loads(report.stdout)["tables"]}
    judged, people = tables["judge-agreement/toy_explain"], tables["annotator-agreement/toy_explain"]
    # the tables the toy declares (AgreementTables("Table 2", "Table 3")), under its title
    assert (judged["source"], people["source"]) == ("Toy Table 2", "Toy Table 3")

    def cells(row: dict) -> tuple:
        return row["cells"]["agreement"]["value"], row["cells"]["kappa"]["value"], row["cells"]["agreement"]["n"]

    # Judge C, C, I, C against people C, C, I, I: p_o = 3/4 = 0.75; marginals judge C3 I1, people C2 I2:
    # p_e = (3*2 + 1*2) / 16 = 0.5; kappa = (0.75 - 0.5) / (1 - 0.5) = 0.5. No rule decides any answer, so the
    # run's final labels ("with figeval's rules") are the judge's: the same line.
    mine = {row["identity"]["judge"]: cells(row) for row in judged["rows"] if not row["reference"]}
    assert mine == {f"replay/{judge}": (0.75, 0.5, 4), "with figeval's rules": (0.75, 0.5, 4)}
    # the paper's own rows, from paper_numbers.csv: 80.0% -> 0.8, kappa 0.60; 90.0% -> 0.9, kappa 0.80
    assert [(row["label"], row["reference"], row["cells"]["agreement"]["value"], row["cells"]["kappa"]["value"])
            for row in judged["rows"] if row["reference"]] == [("Toy model (paper)", "Toy Table 2", 0.8, 0.6)]
    assert [(row["label"], row["reference"], row["cells"]["agreement"]["value"], row["cells"]["kappa"]["value"])
            for row in people["rows"] if row["reference"]] == [("Toy model (paper)", "Toy Table 3", 0.9, 0.8)]
    # Annotators over all four answers (one model, so its line and "all labels" alike):
    # ann1 C C I I vs ann2 C I I I: p_o = 3/4; marginals C2 I2, C1 I3: p_e = (2*1 + 2*3) / 16 = 0.5; kappa 0.5;
    # ann1 vs ann3: the same labels: 1.0 and kappa 1.0; ann2 vs ann3 as ann1 vs ann2.
    pairs = {(row["identity"]["annotators"], row["label"]): cells(row) for row in people["rows"]
             if not row["reference"]}
    assert pairs == {(pair, group): expected for pair, expected in (("ann1 vs ann2", (0.75, 0.5, 4)),
                                                                   ("ann1 vs ann3", (1.0, 1.0, 4)),
                                                                   ("ann2 vs ann3", (0.75, 0.5, 4)))
                     for group in ("toy-model", "all labels")}
    # Fleiss' kappa, 3 raters: per answer P_i = 1, 1/3 (C C I), 1, 1 -> P = 10/12; p_C = 5/12, p_I = 7/12:
    # P_e = (25 + 49) / 144 = 74/144; kappa = (120 - 74) / (144 - 74) = 46/70 = 0.657
    assert any(note.startswith("Fleiss' kappa over all 3 annotators: 0.657") for note in people["notes"])

    # the command for people's labels (and its former name) print the same numbers under the same table names
    compare = figeval("annotate", "compare", str(labels), str(log))
    agreement = figeval("judge", "agreement", str(log), "--human", str(labels))
    assert (compare.returncode, agreement.returncode) == (0, 0), compare.stderr + agreement.stderr
    assert agreement.stdout.startswith("judge vs human (Toy Table 2): ")
    assert "\nannotators (Toy Table 3), per model and set of its answers\n" in agreement.stdout
    assert compare.stdout.endswith(agreement.stdout)
    lines = {line.split(" | ")[-1]: next_line.split()[:3] for line, next_line in
             zip(agreement.stdout.splitlines(), agreement.stdout.splitlines()[1:]) if " | " in line}
    assert lines == {f"judge replay/{judge}": ["4", "0.750", "0.500"], "with figeval's rules": ["4", "0.750", "0.500"]}


def test_without_its_line_the_toy_is_unknown():
    assert "toy_parity" not in _registry.tasks()
