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
from figeval.running.plan import ServiceTotal
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
     "several models run a paper's protocol together"),
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


def test_the_plan_of_a_half_finished_set_of_three_models_is_what_its_re_run_asks(ffe_hallu_imported: Path,
                                                                                 tmp_path: Path):
    # --limit 40 of detection (tests/cli/test_run_plan.py's 40 ids); "whole" answers them all, "one" lacks one
    # sample and "three" three: the set stops with each of those two part-way (issue 42)
    chosen = [f"{item}/{framing}" for item in LIMIT_40_ITEMS for framing in ("fake-q", "real-q")]
    lacking = {"whole": [], "one": ["ffe-fake-052/real-q"],
               "three": ["ffe-fake-002/fake-q", "ffe-real-004/real-q", "ffe-real-009/fake-q"]}
    files = {name: write_jsonl(tmp_path / f"{name}.jsonl", {id: "Yes" for id in chosen if id not in missing})
             for name, missing in lacking.items()}
    models = [f"replay/{path}" for path in files.values()]
    stopped = figeval.run_paper("ffe-hallu", models=models, limit=40, log_dir=tmp_path / "logs")
    assert not stopped.finished
    # what the logs hold answered, read here without figeval: every sample without an error, by model
    answered = {name: set() for name in files}
    for info in list_eval_logs(str(stopped.folder)):
        log = read_eval_log(info)
        name = Path(log.eval.model).stem
        answered[name] |= {str(sample.id) for sample in log.samples or [] if sample.error is None}
    left = {name: sorted(set(chosen) - answered[name]) for name in files}
    assert left["whole"] == [] and set(lacking["three"]) <= set(left["three"])

    plan = figeval.plan(paper="ffe-hallu", models=models, limit=40, log_dir=tmp_path / "logs")
    assert [(Path(task.model).stem, task.samples, task.answered, task.calls) for task in plan.tasks] == [
        (name, len(left[name]), 40 - len(left[name]), len(left[name])) for name in files]
    assert plan.by_service() == {"replay": ServiceTotal(sum(map(len, left.values())), plan.prompt_tokens,
                                                        tokens_estimated=True)}

    # Each file now answers only what its plan left: the re-run finishes, so it asked every planned sample, and
    # asked no other (a replay file without an answer stops the run)
    for name, path in files.items():
        write_jsonl(path, {id: "No" for id in left[name]} or {"ffe-nothing": "No"})
    resumed = figeval.run_paper("ffe-hallu", models=models, limit=40, log_dir=tmp_path / "logs")
    assert resumed.finished
    for log in map(read_eval_log, resumed.logs):
        assert log.status == "success" and len(log.samples or []) == 40
        name = Path(log.eval.model).stem
        assert sorted(str(sample.id) for sample in log.samples or [] if sample.output.completion == "No") == left[name]


def test_a_plan_of_several_models_totals_each_service(ffe_hallu_imported: Path, tmp_path: Path):
    sheet = paraphrase_sheet(tmp_path / "paraphrases.csv")
    models = ["openai-api/lab/m", "openai/gpt-x"]
    plan = figeval.plan(paper="ffe-hallu", models=models, judge="anthropic/claude-x", limit=10,
                        args={"paraphrases": str(sheet)}, log_dir=tmp_path / "logs")
    # each model: detection 10, generation 10 + 3 paraphrased (test_a_paper_s_plan_is_what_its_dry_run_prints),
    # its 13 answers judged by the one judge: 26 judge calls
    per_model = [(task.task, task.samples, task.judge_calls) for task in plan.tasks if task.model == models[0]]
    assert per_model == [(task.task, task.samples, task.judge_calls) for task in plan.tasks if task.model == models[1]]
    services = plan.by_service()
    assert {service: total.calls for service, total in services.items()} == {
        "anthropic": 26, "openai": 23, "openai-api/lab": 23}
    assert services["anthropic"].left_out == ("judge prompts without the answers",)
    assert sum(total.prompt_tokens for total in services.values()) == plan.prompt_tokens
    assert services["openai"].prompt_tokens == services["openai-api/lab"].prompt_tokens  # the same prompts
    printed = figeval_command("run", "--paper", "ffe-hallu", "--model", ",".join(models), "--judge",
                              "anthropic/claude-x", "-T", f"paraphrases={sheet}", "--limit", "10", "--dry-run",
                              "--log-dir", str(tmp_path / "logs"))
    assert printed.returncode == 0, printed.stderr
    lines = printed.stdout.splitlines()
    assert "ffe_detection on openai/gpt-x (defaults): 10 samples" in lines
    by_service = lines.index("by service:")
    assert lines[by_service + 1:by_service + 4] == [
        f"  anthropic: 26 calls, ~{services['anthropic'].prompt_tokens:,} prompt tokens (judge prompts without the "
        "answers)",
        f"  openai: 23 calls, ~{services['openai'].prompt_tokens:,} prompt tokens",
        f"  openai-api/lab: 23 calls, ~{services['openai'].prompt_tokens:,} prompt tokens"]
    assert lines[by_service + 4].startswith("total: 46 samples, 72 model calls (46 to the model, 26 to judges)")


def test_a_judge_of_several_models_is_made_once_and_keeps_the_response_cache(ffe_hallu_imported: Path,
                                                                            tmp_path: Path, monkeypatch):
    from inspect_ai.model import Model

    from figeval.running.paper import paper_setup, several_models_tasks
    from tests.api_stub import StubServer
    from tests.cli.test_run_paper import FABRICATED, REFERENCE_001, detection_ids

    # two models giving each dictionary meaning a different answer, so no judge prompt of one is the other's
    rows = [f"ffe-gen-{row:03d}/human" for row in range(1, 11)]
    answers = {name: dict.fromkeys(detection_ids(), "Yes") | dict.fromkeys(rows, answer)
               for name, answer in (("first", REFERENCE_001), ("second", FABRICATED))}
    models = [f"replay/{write_jsonl(tmp_path / f'{name}.jsonl', texts)}" for name, texts in answers.items()]
    with StubServer(latency=0.01) as judge:
        for name, value in judge.env("judge").items():
            monkeypatch.setenv(name, value)
        # the judged run on both models, the judge bound as the grader role: one judge model for both models'
        # tasks (a local judge is loaded once), with its own settings (the set's options give no model any)
        roles = ("grader=openai-api/judge/m",)
        runs, _, params, _ = paper_setup(FFE_HALLU, {}, roles, {"limit": "10", "log_dir": str(tmp_path)}, {"limit"})
        tasks, _, _ = several_models_tasks(BENCHMARKS, runs, params, models, {"limit"})
        # (Inspect gives each task its own copy of a role's Model, sharing the one client or loaded weights)
        graders = {id(task.model_roles["grader"].api) for task in tasks if task.model_roles}
        assert len(graders) == 1 and isinstance(next(task.model_roles["grader"] for task in tasks
                                                     if task.model_roles), Model)
        assert next(task.model_roles["grader"] for task in tasks if task.model_roles).config.cache is not None
        # each model's 10 answers judged, each asked twice (the stub's answer is no verdict: asked once more with
        # the format); the same set again in another folder asks the judge nothing: its answers come from the
        # response cache, as in a set of one model
        first = figeval.run_paper("ffe-hallu", models=models, roles=roles, limit=10, log_dir=tmp_path / "first")
        assert first.finished and judge.counts["ok"] == 2 * 10 * 2
        judge.reset()
        again = figeval.run_paper("ffe-hallu", models=models, roles=roles, limit=10, log_dir=tmp_path / "again")
        assert again.finished and judge.counts["ok"] == 0
