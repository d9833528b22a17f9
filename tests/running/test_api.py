"""The run command from Python (figeval.running.api, exported as `figeval.plan` and `figeval.run_paper`): a plan's
figures derived here from the data (samples x epochs, characters / 4), a paper's plan and run equal to what
`figeval run --paper` prints and writes, and the refusals in one line."""

from __future__ import annotations

import subprocess
import sys
from math import ceil
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

import figeval
from figeval._registry import BENCHMARKS
from figeval.errors import FigevalError
from figeval.results.report import build_report
from figeval.running.protocol import paper_benchmark, set_folder, set_name
from tests.cli.test_run_paper import PAIRS, paraphrase_sheet, scripted_answers, write_jsonl
from tests.cli.test_run_plan import ABSENT, LIMIT_40_ITEMS
from tests.command import figeval as figeval_command

FFE_HALLU = paper_benchmark("ffe-hallu", BENCHMARKS)


def test_import_figeval_stays_light_and_the_api_takes_no_benchmarks():
    # a process of its own: this one has imported Inspect long ago
    code = ("import sys, inspect, figeval\n"
            "assert 'inspect_ai' not in sys.modules\n"
            "for name in ('plan', 'run_paper'):\n"
            "    print(name, list(inspect.signature(getattr(figeval, name)).parameters))\n")
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert lines[0].startswith("plan ['tasks', 'paper', 'model', 'models', 'args', 'judge'")
    assert lines[1].startswith("run_paper ['paper', 'model', 'models', 'log_dir', 'args', 'judge'")
    assert "benchmarks" not in ran.stdout  # the root module gives the registry's


def test_a_task_s_plan_is_its_samples_times_epochs(ffe_hallu_imported: Path):
    """`--limit 40` of detection: 40 samples, one call each, the prompt the sample's input alone; 3 epochs ask each
    three times (tests/cli/test_run_plan.py derives the 40 ids)."""
    from figeval.benchmarks.ffe_hallu.tasks import ffe_detection

    inputs = {sample.id: str(sample.input) for sample in ffe_detection().dataset}
    chosen = [f"{item}/{framing}" for item in LIMIT_40_ITEMS for framing in ("fake-q", "real-q")]
    per_epoch = sum(ceil(len(inputs[id]) / 4) for id in chosen)
    plan = figeval.plan("ffe_detection", model=ABSENT, limit=40, epochs=3)
    [task] = plan.tasks
    assert (task.task, task.samples, task.epochs, task.calls) == ("ffe_detection", 40, 3, 120)
    assert (plan.samples, plan.calls, plan.judge_calls, plan.total_calls) == (40, 120, 0, 120)
    assert plan.prompt_tokens == task.prompt_tokens == 3 * per_epoch and plan.tokens_estimated
    assert task.subset is not None and task.subset.startswith("limit 40: 40 of 800 samples")
    # one epoch: a third of the calls and tokens
    once = figeval.plan(["ffe_detection"], model=ABSENT, limit="40")
    assert (once.calls, once.prompt_tokens) == (40, per_epoch)


def test_a_paper_s_plan_is_what_its_dry_run_prints(ffe_hallu_imported: Path, tmp_path: Path):
    sheet = paraphrase_sheet(tmp_path / "paraphrases.csv")
    plan = figeval.plan(paper="ffe-hallu", model="replay/model.jsonl", judge="replay/judge.jsonl",
                        args={"paraphrases": str(sheet)}, limit=10)
    # detection: 5 items x 2 framings; generation: its first 10 meanings and the 3 verified paraphrases, each
    # answer judged once; translation, without its pairs file, skipped
    assert [(task.task, task.args.get("meaning"), task.samples, task.judge_calls) for task in plan.tasks] == [
        ("ffe_detection", None, 10, 0), ("ffe_generation", "human", 10, 10), ("ffe_generation", "paraphrased", 3, 3)]
    assert (plan.samples, plan.calls, plan.judge_calls, plan.total_calls) == (23, 23, 13, 36)
    assert [skip.task for skip in plan.skipped] == ["ffe_translation"]
    printed = figeval_command("run", "--paper", "ffe-hallu", "--model", "replay/model.jsonl", "--judge",
                              "replay/judge.jsonl", "-T", f"paraphrases={sheet}", "--limit", "10", "--dry-run",
                              "--log-dir", str(tmp_path / "logs"))
    assert printed.returncode == 0, printed.stderr
    assert (f"total: 23 samples, 36 model calls (23 to the model, 13 to judges), ~{plan.prompt_tokens:,} prompt "
            "tokens") in printed.stdout
    assert [skip.line() for skip in plan.skipped] == [line for line in printed.stdout.splitlines()
                                                      if line.startswith("skipped ")]


def test_the_library_plans_only_the_benchmarks_it_is_given():
    from figeval.running.api import plan
    from tests.toy_benchmark import BENCHMARK as TOY

    toy = plan("toy_parity", model=ABSENT, benchmarks=[TOY])
    assert (toy.samples, toy.calls) == (4, 4)  # the toy's numbers 2, 3, 4, 7
    with pytest.raises(FigevalError, match="^unknown task 'toy_parity'"):
        figeval.plan("toy_parity", model=ABSENT)  # the registry has no toy


@pytest.mark.parametrize("call, message", [
    (lambda: figeval.plan("ffe_detection", models=["replay/a.jsonl", "replay/b.jsonl"]),
     "a plan is of one model"),
    (lambda: figeval.run_paper("ffe-hallu", models=["replay/a.jsonl", "replay/a.jsonl"]), "a model is given twice"),
    (lambda: figeval.run_paper("ffe-hallu", models=["replay/a.jsonl", "replay/b.jsonl"], name="mine"),
     "a run of several models is named by its models"),
    (lambda: figeval.plan("ffe_detection", model="replay/a.jsonl", models=["replay/a.jsonl"]), "give one of them"),
    (lambda: figeval.plan(model=ABSENT), "give a task to plan"),
    (lambda: figeval.plan("ffe_detection", paper="ffe-hallu", model=ABSENT), "give the tasks or the paper"),
    (lambda: figeval.plan(paper="no-such-paper", model=ABSENT), "no such paper; the papers: ffe-hallu"),
    (lambda: figeval.plan("ffe_detection", model="nosuchprovider/x"), "nosuchprovider"),
    (lambda: figeval.plan("ffe_detection", model=ABSENT, limit=0), "--limit 0"),
    (lambda: figeval.run_paper("ffe-hallu", model=ABSENT, options={"limit": 3}), "give it as run_paper's own"),
    (lambda: figeval.run_paper("ffe-hallu", model=ABSENT, options={"no_such_option": 3}),
     "no option of `inspect eval` is named so"),
])
def test_refusals_are_one_line(call, message):
    with pytest.raises(FigevalError) as raised:
        call()
    assert message in str(raised.value) and "\n" not in str(raised.value)


def scores(log_path: str) -> dict[tuple[str, str, int], dict]:
    """Every sample's scores in a log, by task, sample id and epoch."""
    log = read_eval_log(log_path)
    return {(log.eval.task, str(sample.id), sample.epoch): {name: score.value for name, score in
                                                            (sample.scores or {}).items()}
            for sample in log.samples or []}


def table_cells(folder: Path) -> dict[tuple[str, str], tuple[object, object]]:
    """Every cell of the paper's tables over the runs in `folder`, the paper's rows left out."""
    report = build_report(folder, [FFE_HALLU], paper=True)
    return {(table.key, key): (cell.value, cell.n) for table in report.tables for row in table.rows
            if not row.reference for key, cell in row.cells.items()}


def test_a_paper_run_from_python_is_the_command_s_and_a_second_call_asks_nothing(ffe_hallu_imported: Path,
                                                                                tmp_path: Path):
    model, judge = scripted_answers(tmp_path)
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(PAIRS, encoding="utf-8")
    sheet = paraphrase_sheet(tmp_path / "paraphrases.csv")
    ran = figeval_command("run", "--paper", "ffe-hallu", "--model", f"replay/{model}", "--judge", f"replay/{judge}",
                          "-T", f"paraphrases={sheet}", "-T", f"pairs={pairs}", "--limit", "10", "--log-dir",
                          str(tmp_path / "cli"))
    assert ran.returncode == 0, ran.stderr
    result = figeval.run_paper("ffe-hallu", model=f"replay/{model}", judge=f"replay/{judge}", limit=10,
                               args={"paraphrases": str(sheet), "pairs": str(pairs)}, log_dir=tmp_path / "api")
    assert result.finished and not result.skipped
    assert result.folder == Path(set_folder(str(tmp_path / "api"), "ffe-hallu", f"replay/{model}"))
    assert [(run.task, run.args.get("meaning")) for run in result.runs] == [
        ("ffe_detection", None), ("ffe_generation", "human"), ("ffe_generation", "paraphrased"),
        ("ffe_translation", None)]
    command_folder = Path(set_folder(str(tmp_path / "cli"), "ffe-hallu", f"replay/{model}"))
    command_logs = sorted(info.name.removeprefix("file://") for info in list_eval_logs(str(command_folder)))
    assert len(result.logs) == len(command_logs) == 4
    # the same samples scored the same, and the same tables
    api_scores = {key: value for log in result.logs for key, value in scores(log).items()}
    assert api_scores == {key: value for log in command_logs for key, value in scores(log).items()}
    assert len(api_scores) == 10 + 10 + 3 + 3
    assert table_cells(result.folder) == table_cells(command_folder) != {}

    # Again, with files answering nothing the protocol asks: every run is finished in the folder, so nothing is
    # asked and no log is written
    for path in (model, judge):
        write_jsonl(path, {"ffe-nothing": "No"})
    again = figeval.run_paper("ffe-hallu", model=f"replay/{model}", judge=f"replay/{judge}", limit=10,
                              args={"paraphrases": str(sheet), "pairs": str(pairs)}, log_dir=tmp_path / "api")
    assert again.finished and again.logs == result.logs


def test_a_paper_run_that_stopped_is_not_finished_and_the_same_call_goes_on(ffe_hallu_imported: Path,
                                                                            tmp_path: Path):
    from figeval.benchmarks.ffe_hallu.tasks import ffe_detection

    # one of the 40 samples --limit 40 takes unanswered (tests/cli/test_run_paper.py's stopped run, from Python)
    missing = "ffe-fake-052/real-q"
    model = write_jsonl(tmp_path / "model.jsonl", {str(sample.id): "Yes" for sample in ffe_detection().dataset
                                                   if sample.id != missing})
    stopped = figeval.run_paper("ffe-hallu", model=f"replay/{model}", limit=40, log_dir=tmp_path / "logs")
    assert not stopped.finished and len(stopped.logs) == 1  # no exception: the result says it
    assert read_eval_log(stopped.logs[0]).status == "error"
    write_jsonl(model, {missing: "No"})
    resumed = figeval.run_paper("ffe-hallu", model=f"replay/{model}", limit=40, log_dir=tmp_path / "logs")
    assert resumed.finished
    [log] = [read_eval_log(path) for path in resumed.logs]
    assert log.status == "success" and len(log.samples or []) == 40


def every_row(folder: Path) -> dict[tuple, tuple[object, object]]:
    """Every cell of the paper's tables over the runs in `folder` (any depth), by table, row and column."""
    report = build_report(folder, [FFE_HALLU], paper=True)
    return {(table.key, row.label, tuple(sorted(row.identity.items())), key): (cell.value, cell.n)
            for table in report.tables for row in table.rows if not row.reference for key, cell in row.cells.items()}


def test_a_paper_run_of_three_models_is_their_three_runs_in_one_set(ffe_hallu_imported: Path, tmp_path: Path):
    from figeval.benchmarks.ffe_hallu.tasks import ffe_detection

    # three models answering every question "Yes", "No", or "Yes" to "is it fake?" only (issue 42)
    ids = [str(sample.id) for sample in ffe_detection().dataset]
    answers = {"yes": dict.fromkeys(ids, "Yes"), "no": dict.fromkeys(ids, "No"),
               "fake": {id: "Yes" if id.endswith("/fake-q") else "No" for id in ids}}
    models = [f"replay/{write_jsonl(tmp_path / f'{name}.jsonl', texts)}" for name, texts in answers.items()]
    together = figeval.run_paper("ffe-hallu", models=models, limit=10, log_dir=tmp_path / "together")
    assert together.finished and len(together.logs) == 3  # detection on each model (the other runs need files)
    assert together.folder == Path(set_folder(str(tmp_path / "together"), "ffe-hallu", set_name(None, models)))
    assert sorted(read_eval_log(log, header_only=True).eval.model for log in together.logs) == sorted(models)
    for model in models:
        assert figeval.run_paper("ffe-hallu", model=model, limit=10, log_dir=tmp_path / "alone").finished
    # the same tables, cell for cell: a row per model, as the three runs one at a time and `figeval report` give
    cells = every_row(together.folder)
    assert cells == every_row(tmp_path / "alone")
    # Table 4 over --limit 10 (4 fakes, 1 control): "Yes" to all accepts every fake under real-q, none under fake-q
    table_4 = {(label, key): value for (table, label, _, key), value in cells.items() if table == "ffe-hallu/table-4"}
    assert (table_4[("yes", "real_q")], table_4[("no", "real_q")], table_4[("fake", "real_q")]) == (
        (1.0, 4), (0.0, 4), (0.0, 4))
    assert (table_4[("yes", "fake_q")], table_4[("no", "fake_q")], table_4[("fake", "fake_q")]) == (
        (0.0, 4), (1.0, 4), (0.0, 4))
    assert {label for _, label, _, _ in cells} == {"yes", "no", "fake"}

    # Again, with files answering nothing the protocol asks: every (run, model) is finished in the set's folder
    for model in models:
        write_jsonl(Path(model.removeprefix("replay/")), {"ffe-nothing": "No"})
    again = figeval.run_paper("ffe-hallu", models=models, limit=10, log_dir=tmp_path / "together")
    assert again.finished and again.logs == together.logs
