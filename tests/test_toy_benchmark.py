"""Adding a benchmark is one folder and one line in _registry.py: a toy benchmark declared in tests/ (its task,
scorer, table, figure, annotation scheme, protocol and paper numbers in tests/toy_benchmark/) is listed, run on a
replay, run by its paper's protocol, reported with its table, the paper's row and its figure, and exported for
annotation, with no other file knowing it."""

import csv
import json
from pathlib import Path

import pytest

from figeval import _registry
from tests.command import figeval
from tests.toy_benchmark import BENCHMARK as TOY

# The replayed answers and a person's reading of each: toy-2 "Even." right; toy-3 "odd, since 3 = 2 + 1" right;
# toy-4 "Odd" wrong; toy-7 "It depends on the base." read as nothing (unparsed, counted wrong). Accuracy 2/4 = 50.0,
# unparsed 1/4 = 25.0.
ANSWERS = {"toy-2": "Even.", "toy-3": "odd, since 3 = 2 + 1", "toy-4": "Odd", "toy-7": "It depends on the base."}


@pytest.fixture
def toy_registered(monkeypatch):
    # the one line a new benchmark adds to _registry.py
    monkeypatch.setattr(_registry, "BENCHMARKS", (*_registry.BENCHMARKS, TOY))


@pytest.fixture
def toy_run(toy_registered, tmp_path: Path) -> Path:
    replay = tmp_path / "toy-model.jsonl"
    replay.write_text("".join(json.dumps({"id": key, "output": text}) + "\n" for key, text in ANSWERS.items()),
                      encoding="utf-8")
    logs = tmp_path / "logs"
    ran = figeval("run", "toy_parity", "--model", f"replay/{replay}", "--log-dir", str(logs))
    assert ran.returncode == 0, ran.stderr
    return logs


def test_the_toy_is_listed_with_its_paper_and_choices(toy_registered):
    listed = figeval("list", "toy_parity", "--json")
    assert listed.returncode == 0, listed.stderr
    [info] = json.loads(listed.stdout)["tasks"]
    assert (info["benchmark"], info["paper"], info["samples"], info["data"]) == (
        "Toy", "figeval's tests", 4, "user file")
    assert info["arguments"] == [
        {"name": "answer_mode", "type": "str", "default": "generate", "choices": ["generate"], "score_neutral": None},
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


def test_without_its_line_the_toy_is_unknown():
    assert "toy_parity" not in _registry.tasks()
