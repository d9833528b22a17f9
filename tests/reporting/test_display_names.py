"""One name per model in reports: a replay or gguf file is one model however its path is spelled (`./runs/a.jsonl`,
`runs/a.jsonl`, its absolute path), named by its stem ("a"), with parent folders only where two different files
share a stem ("runs/a", "old/a"); a run's own name (`figeval run --name`, `display_name` in its log's metadata) is
used as given; any other model is named as recorded. The recorded model is kept as it was (`RunSummary.model`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.log import EvalMetric, EvalScore, write_eval_log

from figeval.results.logs import read_runs
from figeval.results.model_names import canonical_model, route, short_name
from figeval.reporting.render import model_text, run_lines
from figeval.results.report import Report
from figeval.results.runs import RunSummary, summarize, with_display_names
from figeval.scoring.outcome import DecidedBy, Outcome
from tests.metric_values import identity_metadata, logged_outcomes


def run(model: str, name: str = "", log: str = "") -> RunSummary:
    return RunSummary("ffe_detection", model, 10, {"accuracy": 0.5}, "success", log or f"logs/{model}.eval",
                      display_name=name, named=bool(name))


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """A folder with runs/a.jsonl, old/a.jsonl (another file with the same stem) and runs/b.jsonl."""
    for path in ("runs/a.jsonl", "old/a.jsonl", "runs/b.jsonl"):
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_text('{"id": "s1", "output": "x"}\n', encoding="utf-8")
    return tmp_path


def names(runs: list[RunSummary], here: Path) -> list[str]:
    return [found.display_name for found in with_display_names(runs, here)]


def test_one_file_under_three_spellings_is_one_model_named_by_its_stem(files: Path):
    spellings = ["replay/./runs/b.jsonl", "replay/runs/b.jsonl", f"replay/{files}/runs/b.jsonl",
                 f"replay/{files}/runs/../runs/b.jsonl"]
    named = with_display_names([run(model) for model in spellings], files)
    assert [r.display_name for r in named] == ["b"] * 4
    assert [r.model for r in named] == spellings  # the recorded model is kept as it was
    # the canonical spelling: absolute, resolved, for a file found from the folder
    assert {canonical_model(model, files) for model in spellings} == {f"replay/{files.resolve()}/runs/b.jsonl"}


def test_two_files_with_one_stem_are_told_apart_by_their_folders(files: Path):
    runs = [run("replay/runs/a.jsonl"), run("replay/./old/a.jsonl"), run("replay/runs/b.jsonl")]
    # "a" is shared by two files: one more folder each ("runs/a", "old/a"); "b" is alone and stays "b"
    assert names(runs, files) == ["runs/a", "old/a", "b"]


def test_a_relative_path_not_found_is_the_absolute_path_that_ends_with_it(files: Path, tmp_path_factory):
    """The report runs elsewhere than the runs did (the log does not record where): `runs/b.jsonl` is not found
    from there, so it is the one absolute path given in another run that ends with runs/b.jsonl."""
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    runs = [run("replay/runs/b.jsonl"), run(f"replay/{files}/runs/b.jsonl")]
    assert names(runs, elsewhere) == ["b", "b"]
    # two absolute paths end with it: which one it is cannot be told, so it stays a model of its own. The three
    # share "b" and "runs/b"; the next names are the absolute paths' parent folders and, for the relative path,
    # which has no more folders, the model as recorded
    other = files / "copy"
    runs.append(run(f"replay/{other}/runs/b.jsonl"))
    assert names(runs, elsewhere) == ["replay/runs/b.jsonl", f"{files.name}/runs/b", "copy/runs/b"]


def test_a_run_s_own_name_is_used_and_other_models_keep_their_recorded_name(files: Path):
    runs = [run("openai/gpt-4.1"), run("openai/gpt-4.1", name="GPT-4.1 (June)"), run("gguf/gemma-3-270m"),
            run("gguf/models/q4.gguf"), run("replay/runs/b.jsonl", name="b")]
    # an API model and the embedded gguf alias as recorded; a gguf file by its stem; a name given is kept, also
    # one that is the default's ("b")
    assert names(runs, files) == ["openai/gpt-4.1", "GPT-4.1 (June)", "gguf/gemma-3-270m", "q4", "b"]
    assert short_name("replay/runs/b.jsonl") == "b" and short_name("openai/gpt-4.1") == "openai/gpt-4.1"


def test_a_default_name_that_is_a_run_s_own_name_gives_way(files: Path):
    """A run named "a" by its user and an unnamed run of runs/a.jsonl: the unnamed one takes its folder."""
    runs = [run("openai/gpt-4.1", name="a"), run("replay/runs/a.jsonl")]
    assert names(runs, files) == ["a", "runs/a"]


def test_two_files_named_alike_by_their_user_are_one_model(files: Path):
    """Runs of runs/a.jsonl and old/a.jsonl, each given --name a (a task's answers in a file of their own, where two
    tasks ask the same ids): the user's name is kept, so both are the model "a" (taken for two defaults that
    clash, they were "runs/a" and "old/a", two rows of one model)."""
    runs = [run("replay/runs/a.jsonl", name="a"), run("replay/old/a.jsonl", name="a"), run("replay/runs/b.jsonl")]
    assert names(runs, files) == ["a", "a", "b"]


def test_summaries_read_from_logs_carry_the_names(files: Path, tmp_path_factory, monkeypatch):
    """Logs written by Inspect: two spellings of runs/b.jsonl, and a run named in its metadata (as `figeval run
    --name` records it)."""
    template = logged_outcomes(tmp_path_factory.mktemp("template"), [Outcome("x", DecidedBy.PARSER)], ["x"])
    logs = files / "logs"
    logs.mkdir()
    for i, (model, metadata) in enumerate((("replay/./runs/b.jsonl", {}), (f"replay/{files}/runs/b.jsonl", {}),
                                           ("openai/gpt-4.1", {"display_name": "GPT-4.1 (June)"}))):
        log = template.model_copy(deep=True)
        log.eval.task, log.eval.model, log.eval.eval_id = "figeval/ffe_detection", model, f"names-{i}"
        log.eval.created = f"2026-11-01T1{i}:00:00+00:00"
        log.eval.metadata = {**metadata, **identity_metadata({})}
        log.results.scores = [EvalScore(name="s", scorer="s",
                                        metrics={"accuracy": EvalMetric(name="accuracy", value=0.5)})]
        write_eval_log(log, str(logs / f"run-{i}.eval"))
        if i == 2:
            assert summarize(log).display_name == "GPT-4.1 (June)"  # one log: its own name
    monkeypatch.chdir(files)  # where the runs were started: relative paths are found from here
    done, _ = read_runs(logs)
    assert sorted((r.model, r.display_name) for r in done) == [
        ("openai/gpt-4.1", "GPT-4.1 (June)"), ("replay/./runs/b.jsonl", "b"), (f"replay/{files}/runs/b.jsonl", "b")]


def test_the_runs_used_name_the_model_as_tables_do_and_as_recorded():
    named = RunSummary("ffe_detection", "replay/./runs/a.jsonl", 10, {}, "success", "logs/x.eval",
                       display_name="a")
    assert model_text(named) == "a (replay/./runs/a.jsonl)"
    assert model_text(run("openai/gpt-4.1")) == "openai/gpt-4.1"  # no display name: the model once
    assert run_lines(Report([], [named])) == ["runs used:",
                                              "  ffe_detection a (replay/./runs/a.jsonl)  n=10: logs/x.eval"]


def test_one_model_s_weights_have_one_name_whichever_route_ran_them(files: Path):
    # SmolLM2's weights run embedded (gguf/) and behind llama.cpp's server, which names its model by its file:
    # one model in reports, "SmolLM2-135M-Instruct" (the file's stem), the route telling the two runs apart
    (files / "models").mkdir()
    (files / "models/SmolLM2-135M-Instruct.gguf").write_bytes(b"GGUF")
    embedded, served = "gguf/models/SmolLM2-135M-Instruct.gguf", "openai-api/llama/models/SmolLM2-135M-Instruct.gguf"
    assert names([run(embedded), run(served)], files) == ["SmolLM2-135M-Instruct"] * 2
    assert (route(embedded), route(served), route("openai/gpt-4.1"), route("replay/runs/a.jsonl")) == (
        "gguf", "openai-api", None, None)
    # served alone (no embedded run to match), it is still named by its weights
    assert names([run(served)], files) == ["SmolLM2-135M-Instruct"]
    # two embedded files with that name in two folders: the server's is neither, so it keeps its recorded name
    (files / "old/SmolLM2-135M-Instruct.gguf").write_bytes(b"GGUF")
    assert names([run(embedded), run("gguf/old/SmolLM2-135M-Instruct.gguf"), run(served)], files) == [
        "models/SmolLM2-135M-Instruct", "old/SmolLM2-135M-Instruct", served]
