"""`figeval run --paper NAME`: a paper's protocol (`Benchmark.protocol`) run as one Inspect eval set, its tables
printed with the paper's rows; the user's arguments routed to the runs that take them; runs without a needed file
or judge skipped with the argument that enables them; a second run asks no model."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs

from figeval._registry import BENCHMARKS
from figeval.running.protocol import PaperRun, paper_benchmark, protocol_runs, set_folder, set_name
from figeval.errors import FigevalError
from figeval.results.report import build_report
from tests.command import assert_one_line_error, figeval, figeval_subprocess

FFE_HALLU = paper_benchmark("ffe-hallu", BENCHMARKS)
PERHALLUEVAL = paper_benchmark("perhallueval", BENCHMARKS)


def run_of(runs: list[PaperRun], task: str, **args: str) -> PaperRun:
    [found] = [run for run in runs if run.task == task and all(run.args.get(k) == v for k, v in args.items())]
    return found


def test_without_files_or_judge_only_the_detection_runs_and_the_rest_say_what_enables_them():
    runs, skipped = protocol_runs(FFE_HALLU, {}, ())
    assert [(run.task, run.args) for run in runs] == [("ffe_detection", {})]
    assert [skip.line() for skip in skipped] == [
        "skipped ffe_generation (meaning=human), Table 3, dictionary meanings: give --judge MODEL, the judge of its "
        "answers",
        "skipped ffe_generation (meaning=paraphrased), Table 3, paraphrased meanings: give -T paraphrases=PATH, the "
        "sheet `figeval build ffe-hallu-paraphrases` writes, its verified column filled",
        "skipped ffe_translation, Table 5: give -T pairs=PATH, a CSV of English idioms and their Persian equivalents "
        "(upstream's is damaged)",
    ]


def test_each_argument_goes_to_the_runs_that_take_it():
    args = {"judge": "replay/j.jsonl", "paraphrases": "p.csv", "answer_mode": "generate", "judge_prompt": "human"}
    runs, skipped = protocol_runs(FFE_HALLU, args, ())
    assert skipped[0].task == "ffe_translation" and len(skipped) == 1
    # answer_mode: detection only (the judged tasks have none); the judge and its prompt: every judged run
    assert run_of(runs, "ffe_detection").args == {"answer_mode": "generate"}
    # the paraphrases sheet only where the protocol needs it: the dictionary-meaning run refuses one
    assert run_of(runs, "ffe_generation", meaning="human").args == {"meaning": "human", "judge": "replay/j.jsonl",
                                                                    "judge_prompt": "human"}
    assert run_of(runs, "ffe_generation", meaning="paraphrased").args == {
        "meaning": "paraphrased", "judge": "replay/j.jsonl", "paraphrases": "p.csv", "judge_prompt": "human"}


def test_a_judge_bound_as_the_grader_role_judges_every_judged_run_and_an_extractor_only_the_read_ones():
    roles = ("grader=replay/j.jsonl", "extractor=replay/x.jsonl")
    runs, _ = protocol_runs(FFE_HALLU, {}, roles)
    assert run_of(runs, "ffe_detection").roles == ("extractor=replay/x.jsonl",)
    assert run_of(runs, "ffe_generation", meaning="human").roles == ("grader=replay/j.jsonl",)


def test_a_value_for_one_task_wins_over_one_for_every_run_in_either_order():
    for args in ({"judge": "replay/all.jsonl", "ffe_generation:judge": "replay/gen.jsonl"},
                 {"ffe_generation:judge": "replay/gen.jsonl", "judge": "replay/all.jsonl"}):
        runs, _ = protocol_runs(FFE_HALLU, args | {"paraphrases": "p.csv", "pairs": "pairs.csv"}, ())
        assert {run.task: run.args["judge"] for run in runs if "judge" in run.args} == {
            "ffe_generation": "replay/gen.jsonl", "ffe_translation": "replay/all.jsonl"}


def test_two_tasks_needing_their_own_file_take_it_by_task_name():
    runs, skipped = protocol_runs(PERHALLUEVAL, {"perhallueval_qa:data": "qa.csv"}, ())
    assert [(run.task, run.args) for run in runs] == [("perhallueval_qa", {"data": "qa.csv"})]
    # the other task's file is named with its task, since both need a `data`
    assert skipped[0].line().startswith("skipped perhallueval_summarization, Table 2, summarization: give -T "
                                        "perhallueval_summarization:data=PATH, the final file")


@pytest.mark.parametrize(
    ("paper", "args", "message"),
    [
        (FFE_HALLU, {"meaning": "paraphrased"}, "-T meaning: the paper's protocol sets meaning itself (meaning=human, "
                                                "meaning=paraphrased); leave it out"),
        (FFE_HALLU, {"temperature": "0"}, "-T temperature: no task of ffe-hallu's protocol takes temperature"),
        (FFE_HALLU, {"ffe_detection:judge": "x"}, "-T ffe_detection:judge: no task of ffe-hallu's protocol named "
                                                  "ffe_detection takes judge"),
        (FFE_HALLU, {"tr_idiom_detection:answer_mode": "generate"}, "tr_idiom_detection is not a task of ffe-hallu's "
                                                                    "protocol; its tasks: ffe_detection, "),
        (PERHALLUEVAL, {"data": "qa.csv"}, "-T data: perhallueval_qa and perhallueval_summarization each need their "
                                           "own data; give -T perhallueval_qa:data=PATH and -T "
                                           "perhallueval_summarization:data=PATH"),
        (PERHALLUEVAL, {"judge": "openai/gpt-4.1"}, "judge openai/gpt-4.1 (--judge, -T judge=): no run of "
                                                    "perhallueval's protocol is judged; leave it out"),
        (PERHALLUEVAL, {}, "--paper perhallueval: every run of its protocol needs an argument not given; "
                           "perhallueval_qa needs -T perhallueval_qa:data=PATH"),
    ],
)
def test_an_argument_the_protocol_cannot_take_is_refused(paper, args, message):
    with pytest.raises(FigevalError) as refused:
        protocol_runs(paper, args, ())
    assert message in str(refused.value)


def test_a_role_no_run_asks_is_refused():
    with pytest.raises(FigevalError, match="--model-role grader=x: no run of perhallueval's protocol asks it"):
        protocol_runs(PERHALLUEVAL, {"perhallueval_qa:data": "qa.csv"}, ("grader=x",))


def test_the_set_folder_is_the_paper_and_the_model_as_folder_names():
    # a name that is a folder name as it is stays so; any other keeps its letters, digits, ".", "_" and "-" and adds 8
    # hex digits of its sha256 (of "gguf/gemma-3-270m": 9a99d8fd...), so that no two names share a folder
    assert set_folder("logs", "ffe-hallu", "MyModel") == str(Path("logs/ffe-hallu/MyModel"))
    assert (set_folder("logs", "ffe-hallu", "gguf/gemma-3-270m")
            == str(Path("logs/ffe-hallu/gguf-gemma-3-270m-9a99d8fd")))
    assert set_folder("logs", "ffe-hallu", "ollama/llama3:8b") == str(Path("logs/ffe-hallu/ollama-llama3-8b-fd3fc2a9"))
    assert set_folder("logs", "ffe-hallu", "Gemma 3, base") == str(Path("logs/ffe-hallu/Gemma-3-base-c8c6c9ab"))
    # a name in Persian keeps its letters (they were all dropped, and every Persian name shared one empty folder);
    # names that differ only where the folder name cannot show it still get folders of their own
    assert set_folder("logs", "ffe-hallu", "مدل الف") == str(Path("logs/ffe-hallu/مدل-الف-a363ce45"))
    assert set_folder("logs", "ffe-hallu", "مدل ب") == str(Path("logs/ffe-hallu/مدل-ب-44871882"))
    assert set_folder("logs", "p", "a/b") != set_folder("logs", "p", "a b")
    assert set_folder("logs", "p", "..") == str(Path("logs/p") / hashlib.sha256(b"..").hexdigest()[:8])


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--paper", "nosuch"], ["--paper nosuch: no such paper; the papers: ffe-hallu, turkish-idioms"]),
        (["ffe_detection", "--paper", "ffe-hallu"],
         ["ffe_detection and --paper ffe-hallu: give the TASKs or the paper"]),
        ([], ["give a TASK to run", "--paper NAME"]),
        (["--paper", "ffe-hallu", "--sample-id", "ffe-fake-001/fake-q"], ["sample ids are each task's own"]),
        (["--paper", "ffe-hallu", "--run-config", "rc.yaml"], ["--run-config rc.yaml and --paper: Inspect's eval-set "
                                                               "takes no run config"]),
        (["--paper", "ffe-hallu", "--judge", "a/b", "-T", "judge=c/d"], ["--judge a/b and -T judge=c/d: give the judge "
                                                                         "once"]),
    ],
)
def test_bad_paper_runs_are_one_line(args, fragments, tmp_path: Path):
    assert_one_line_error(figeval("run", *args, "--log-dir", str(tmp_path / "logs")), *fragments)


def test_a_paper_run_refuses_a_remote_log_dir():
    # the tables are read from the set's logs on this machine (a path joined as a local one also lost the "//")
    assert_one_line_error(figeval("run", "--paper", "ffe-hallu", "--log-dir", "s3://bucket/logs"),
                          "--log-dir s3://bucket/logs and --paper: a paper run's tables are read from its logs on "
                          "this machine")


# --- the whole FFE-HALLU protocol on replayed answers ---------------------------------------------------------------

# Three of the benchmark's first authentic FFEs: the references of ffe-gen-001..003 (upstream rows 1-3)
REFERENCE_001 = "به بار اوردن"
FABRICATED = "گربه را دم دروازه کشتن"  # no authentic FFE: the judge's call
PAIRS = (
    "English Idiom,Farsi Idiom\n"
    "break the ice,یخ کسی را آب کردن|یخ جلسه را شکستن\n"
    "a piece of cake,مثل آب خوردن\n"
    "kill two birds with one stone,با یک تیر دو نشان زدن\n"
)


def judge_json(label: int) -> str:
    return json.dumps({"label": label, "reason": "scripted"})


def write_jsonl(path: Path, outputs: dict[str, str]) -> Path:
    path.write_text("".join(json.dumps({"id": id, "output": text}, ensure_ascii=False) + "\n"
                            for id, text in outputs.items()), encoding="utf-8")
    return path


def paraphrase_sheet(path: Path) -> Path:
    """`figeval build ffe-hallu-paraphrases`' sheet with rows 1-3 verified by a person and row 4 not yet (dropped)."""
    from figeval.benchmarks.ffe_hallu.dataset import authentic_dataset

    items = {item.row: item for item in authentic_dataset()[0]}
    lines = ["row,farsi_idiom,Meaning,paraphrase,verified"]
    lines += [f"{row},{items[row].expression},{items[row].meaning},بازنویسی: {items[row].meaning},"
              f"{'yes' if row < 4 else ''}" for row in (1, 2, 3, 4)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def detection_ids() -> list[str]:
    from tests.command import make_task

    return [sample.id for sample in make_task("ffe_detection", {}).dataset]


def scripted_answers(tmp_path: Path) -> tuple[Path, Path]:
    """The model's and the judge's answers to every sample `--limit 10` can select."""
    from tests.command import make_task

    detection = [sample.id for sample in make_task("ffe_detection", {}).dataset]
    model: dict[str, str] = {}
    for id in detection:
        # "Yes" to both questions of a fake ("is it fake?", "is it real?"): a hallucination under the second
        # framing only; an authentic control called real under both ("No" to "is it fake?")
        model[id] = "No" if id.startswith("ffe-real-") and id.endswith("/fake-q") else "Yes"
    judge: dict[str, str] = {}
    for meaning in ("human", "paraphrased"):
        for row in range(1, 11):
            id = f"ffe-gen-{row:03d}/{meaning}"
            model[id] = REFERENCE_001 if row == 1 else FABRICATED
            judge[id] = judge_json(1 if row == 1 else 0)  # the judge labels every output (Table 6), as the rule does
    model |= {"ffe-tr-001": "یخ جلسه را شکستن", "ffe-tr-002": FABRICATED, "ffe-tr-003": "با یک تیر دو نشان زدن"}
    judge |= {"ffe-tr-001": judge_json(1), "ffe-tr-002": judge_json(0), "ffe-tr-003": judge_json(1)}
    return write_jsonl(tmp_path / "model.jsonl", model), write_jsonl(tmp_path / "judge.jsonl", judge)


def cells(report, table: str) -> dict[str, tuple[float, int | None]]:
    [found] = [t for t in report.tables if t.key == table]
    [row] = [row for row in found.rows if not row.reference]
    return {key: (round(cell.value * 100, 1), cell.n) for key, cell in row.cells.items()
            if isinstance(cell.value, float)}


def test_a_paper_run_makes_every_table_of_the_paper_and_a_second_run_asks_no_model(ffe_hallu_imported: Path,
                                                                                   tmp_path: Path):
    model, judge = scripted_answers(tmp_path)
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(PAIRS, encoding="utf-8")
    sheet = paraphrase_sheet(tmp_path / "paraphrases.csv")
    logs = tmp_path / "logs"
    command = ("run", "--paper", "ffe-hallu", "--model", f"replay/{model}", "--judge", f"replay/{judge}",
               "-T", f"paraphrases={sheet}", "-T", f"pairs={pairs}", "--limit", "10", "--log-dir", str(logs))
    ran = figeval(*command)
    assert ran.returncode == 0, ran.stderr
    # the two ffe_generation runs (dictionary and paraphrased meanings) each select their own ids, which Inspect's
    # eval set gives both: nothing is wrong, and nothing is said
    assert "not found" not in ran.stderr + ran.stdout
    folder = Path(set_folder(str(logs), "ffe-hallu", f"replay/{model}"))
    assert ran.stdout.startswith(f"figeval: FFE-HALLU's protocol on replay/{model}, 4 runs logged in {folder}\n")
    # every table of the paper's results, each with the paper's own rows beside the model's
    for title in ("FFE-HALLU Table 3", "FFE-HALLU Table 4", "FFE-HALLU Figure 1", "FFE-HALLU Table 5"):
        assert title in ran.stdout
    assert "GPT-4.1 (paper)" in ran.stdout and "skipped" not in ran.stdout
    # a replayed model's answers are keyed by sample id, never cached (providers.answers_by_sample_id): said once
    assert ran.stdout.count("response cache off: no answer came from it\n") == 1
    written = sorted(info.name for info in list_eval_logs(str(folder)))
    assert len(written) == 4

    report = build_report(folder, [FFE_HALLU], paper=True)
    # Table 3, dictionary meanings, the first 10 rows: row 1 answered with its reference (correct by the rule),
    # rows 2-10 with a fabricated FFE the judge calls hallucinated: 1/10 and 9/10. Paraphrased meanings: rows 1-3
    # verified (row 4 dropped), --limit 10 takes all 3: 1/3 correct, 2/3 hallucinated
    assert cells(report, "ffe-hallu/table-3") == {
        "human/correct": (10.0, 10), "human/incorrect": (0.0, 10), "human/hallucinated": (90.0, 10),
        "human/unparsed": (0.0, 10), "human/judge_unreadable": (0.0, 10),
        "paraphrased/correct": (33.3, 3), "paraphrased/incorrect": (0.0, 3), "paraphrased/hallucinated": (66.7, 3),
        "paraphrased/unparsed": (0.0, 3), "paraphrased/judge_unreadable": (0.0, 3)}
    # Table 4, --limit 10: 5 items x 2 framings, 4 fakes (one per category) and 1 authentic control. Each fake
    # called fake when asked "is it fake?" (0/4 accepted) and real when asked "is it real?" (4/4); the mean 4/8;
    # the two answers never agree (0/4); the control is called real both times (0/2 rejected)
    assert cells(report, "ffe-hallu/table-4") == {
        "fake_q": (0.0, 4), "real_q": (100.0, 4), "avg": (50.0, 8), "agreement": (0.0, 4), "unparsed": (0.0, 8),
        "false_rejection": (0.0, 2)}
    # Table 5: 001 answers the second listed equivalent, 003 the only one (both correct by the rule), 002 a
    # fabricated FFE the judge calls hallucinated: 2/3 and 1/3
    assert cells(report, "ffe-hallu/table-5") == {
        "correct": (66.7, 3), "incorrect": (0.0, 3), "hallucinated": (33.3, 3), "unparsed": (0.0, 3),
        "judge_unreadable": (0.0, 3)}

    # Again, with the model's and the judge's files answering nothing the protocol asks: every task is finished
    # in the set's folder, so nothing is asked and nothing is written; the same tables are printed
    for path in (model, judge):
        write_jsonl(path, {"ffe-nothing": "No"})
    again = figeval(*command)
    assert again.returncode == 0, again.stderr
    assert sorted(info.name for info in list_eval_logs(str(folder))) == written
    tables = ran.stdout.index("FFE-HALLU Table 3")
    assert again.stdout[again.stdout.index("FFE-HALLU Table 3"):] == ran.stdout[tables:]


def test_a_paper_run_that_stopped_goes_on_from_its_completed_samples(ffe_hallu_imported: Path, tmp_path: Path):
    from inspect_ai.log import read_eval_log

    from tests.command import make_task

    # one sample of the 40 that --limit 40 takes (rows 1-3 and 51-53 of the fakes' first category, ...) unanswered
    missing = "ffe-fake-052/real-q"
    ids = [sample.id for sample in make_task("ffe_detection", {}).dataset]
    model = write_jsonl(tmp_path / "model.jsonl", {id: "Yes" for id in ids if id != missing})
    logs = tmp_path / "logs"
    command = ("run", "--paper", "ffe-hallu", "--model", f"replay/{model}", "--limit", "40", "--log-dir", str(logs))
    stopped = figeval(*command)
    assert_one_line_error(stopped, "did not finish: ffe_detection (error: replay file model.jsonl has no output for "
                                   f"sample id '{missing}'", f"run `figeval {' '.join(command)}` again")
    folder = set_folder(str(logs), "ffe-hallu", f"replay/{model}")
    [first] = list_eval_logs(folder)
    answered = {sample.id for sample in read_eval_log(first).samples if sample.error is None}
    assert answered and missing not in answered and len(answered) < 40
    # the dry run plans what is left: the samples no log of the set answered (issue 42), as many as the re-run below
    # asks, which the file answering only the missing one shows
    plan = figeval(*command, "--dry-run")
    assert plan.returncode == 0, plan.stderr
    assert f"ffe_detection (defaults): {40 - len(answered)} samples" in plan.stdout
    assert f"already answered: {len(answered)} samples in the set's folder (not asked again)" in plan.stdout

    # The file now answers only the missing sample: the run is complete with it, so nothing else was asked again
    write_jsonl(model, {missing: "No"})
    resumed = figeval(*command)
    assert resumed.returncode == 0, resumed.stderr
    [log] = [read_eval_log(info) for info in list_eval_logs(folder)]
    assert log.status == "success" and len(log.samples) == 40
    assert {sample.id: sample.output.completion for sample in log.samples} == {
        **{id: "Yes" for id in log.eval.dataset.sample_ids}, missing: "No"}


def test_a_dry_run_plans_every_run_of_the_protocol_and_lists_the_skipped(ffe_hallu_imported: Path, tmp_path: Path):
    sheet = paraphrase_sheet(tmp_path / "paraphrases.csv")
    planned = figeval("run", "--paper", "ffe-hallu", "--model", "replay/model.jsonl", "--judge", "replay/judge.jsonl",
                      "-T", f"paraphrases={sheet}", "--limit", "10", "--dry-run", "--log-dir", str(tmp_path / "logs"))
    assert planned.returncode == 0, planned.stderr
    lines = planned.stdout.splitlines()
    # detection: 5 items x 2 framings; generation: its first 10 meanings, and the 3 verified paraphrases, each
    # answer judged once (the judge labels every output); translation, without its pairs file, is skipped
    assert "ffe_detection (defaults): 10 samples" in lines
    assert "ffe_generation (meaning=human, judge=replay/judge.jsonl): 10 samples" in lines
    assert f"ffe_generation (meaning=paraphrased, paraphrases={sheet}, judge=replay/judge.jsonl): 3 samples" in lines
    [total] = [line for line in lines if line.startswith("total: ")]
    assert total.startswith("total: 23 samples, 36 model calls (23 to the model, 13 to judges), ~")
    assert [line.split(",")[0] for line in lines if line.startswith("skipped ")] == ["skipped ffe_translation"]
    # the task's note on the sheet is printed once, though the judge's prompts build the task again
    assert planned.stderr.count("verified paraphrases used") == 1
    assert not (tmp_path / "logs").exists()  # nothing asked, nothing written


def test_each_run_of_the_set_is_bound_only_the_roles_it_asks(ffe_hallu_imported: Path, tmp_path: Path):
    from inspect_ai.log import read_eval_log

    model, judge = scripted_answers(tmp_path)
    logs = tmp_path / "logs"
    ran = figeval("run", "--paper", "ffe-hallu", "--model", f"replay/{model}", "--model-role",
                  f"grader=replay/{judge}", "--limit", "10", "--log-dir", str(logs))
    assert ran.returncode == 0, ran.stderr
    found = {log.eval.task: log.eval for log in map(read_eval_log, list_eval_logs(set_folder(str(logs), "ffe-hallu",
                                                                                            f"replay/{model}")))}
    # an eval set binds --model-role to every task; the judge is the generation run's alone, so detection's log
    # (and its identity in the set) names no grader
    assert not found["figeval/ffe_detection"].model_roles
    assert found["figeval/ffe_generation"].model_roles["grader"].model == f"replay/{judge}"


def test_the_tables_are_of_this_command_s_runs_not_other_settings_in_the_folder(ffe_hallu_imported: Path,
                                                                                tmp_path: Path):
    model = write_jsonl(tmp_path / "model.jsonl", {id: "Yes" for id in detection_ids()})
    logs = tmp_path / "logs"
    command = ("run", "--paper", "ffe-hallu", "--model", f"replay/{model}", "--limit", "10", "--log-dir", str(logs))
    first = figeval(*command)
    assert first.returncode == 0, first.stderr
    # the same model at another temperature is another task to Inspect: a second log in the same folder, newer,
    # and the report's settings do not tell the two apart (the answers differ: every question answered "No")
    write_jsonl(model, {id: "No" for id in detection_ids()})
    other = figeval(*command, "--temperature", "0.5")
    assert other.returncode == 0, other.stderr
    again = figeval(*command)
    assert again.returncode == 0, again.stderr
    tables = first.stdout.index("FFE-HALLU Table 4")
    assert again.stdout[again.stdout.index("FFE-HALLU Table 4"):] == first.stdout[tables:]
    # "Yes" to "is it real?" for each of the 4 fakes: 4/4 hallucinated under that framing (the temperature-0.5
    # run, "No", would show 0/4), with two decimals as the paper's Table 4 (Wilson of 4/4: centre 5.920730 /
    # 7.841459 = 0.755055, half-width 1.959964 / 7.841459 * sqrt(0.960365) = 0.244945: [0.510110, 1])
    assert "100.00 [51.01, 100.00] (n=4)" in again.stdout.split("FFE-HALLU Figure 1")[0]


def test_a_run_under_another_name_is_a_set_of_its_own(ffe_hallu_imported: Path, tmp_path: Path):
    model = write_jsonl(tmp_path / "model.jsonl", {id: "Yes" for id in detection_ids()})
    logs = tmp_path / "logs"
    command = ("run", "--paper", "ffe-hallu", "--model", f"replay/{model}", "--limit", "10", "--log-dir", str(logs))
    assert figeval(*command).returncode == 0
    named = figeval(*command, "--name", "My model")
    assert named.returncode == 0, named.stderr
    # a name is in the log, not in Inspect's identity of the task: the finished log could not take it
    assert Path(set_folder(str(logs), "ffe-hallu", "My model")).is_dir()
    assert "\nMy model " in named.stdout


def test_the_turkish_protocol_gives_one_table_2_row_per_model(tmp_path: Path):
    """Detection and entailment of one model under the paper's protocol share Table 2's row (entailment recorded
    detection's `balanced`, unused, and the two runs were two rows), and the label-preference figure has one series
    per model."""
    from figeval._registry import get_source
    from tests.command import make_task
    from figeval.data.store import import_folder
    from figeval.reporting.figures import close, figures

    import_folder(get_source("turkish-idioms"), Path(__file__).parents[1] / "turkish_idioms" / "fixtures")
    ids = [str(s.id) for task in ("tr_idiom_detection", "tr_idiom_entailment") for s in make_task(task, {}).dataset]
    logs = tmp_path / "logs"
    for model in ("a", "b"):
        answers = write_jsonl(tmp_path / f"{model}.jsonl", {id: "yes" if "/figurative" in id or "/literal" in id
                                                            else "entailment" for id in ids})
        ran = figeval("run", "--paper", "turkish-idioms", "--model", f"replay/{answers}", "--log-dir", str(logs))
        assert ran.returncode == 0, ran.stderr
    turkish = paper_benchmark("turkish-idioms", BENCHMARKS)
    report = build_report(logs, [turkish])
    [table] = [t for t in report.tables if t.key == "turkish-idioms/table-2"]
    # every answer "yes" (detection) or "entailment": accuracy is the share of figurative sentences and paraphrases
    assert [(row.label, sorted(row.cells)) for row in table.rows] == [
        (model, ["detection", "detection_unparsed", "entailment", "entailment_rate", "entailment_unparsed", "yes_rate"])
        for model in ("a", "b")]
    drawn = figures(report, [turkish])
    try:
        [figure] = drawn
        legend = [text.get_text() for text in figure.figure.legends[0].get_texts()]
        assert legend == ["a", "b"]
    finally:
        close(drawn)


def perhallueval_answers(tmp_path: Path) -> Path:
    from tests.command import make_task

    qa = Path(__file__).parents[1] / "perhallueval" / "fixtures" / "final_qa.csv"
    ids = [str(s.id) for s in make_task("perhallueval_qa", {"data": str(qa)}).dataset]
    return write_jsonl(tmp_path / "model.jsonl", {id: "Y" for id in ids})


def test_a_paper_run_decodes_as_its_paper_states_and_a_user_s_own_setting_is_kept_and_said(tmp_path: Path):
    """PerHalluEval Appendix A: temperature 0.0, top-p 1.0 and max_tokens 512 for every model; the run applies and
    records them (a single-task run sets no token limit), and a user's own --max-tokens is kept with a line."""
    from inspect_ai.log import read_eval_log

    qa = Path(__file__).parents[1] / "perhallueval" / "fixtures" / "final_qa.csv"
    model = perhallueval_answers(tmp_path)
    command = ("run", "--paper", "perhallueval", "--model", f"replay/{model}", "-T", f"perhallueval_qa:data={qa}")
    planned = figeval(*command, "--dry-run")
    assert planned.returncode == 0, planned.stderr
    assert "decoding: temperature=0.0, top_p=1.0, max_tokens=512, the paper's (Appendix A, Table 3)" in planned.stdout
    ran = figeval(*command, "--log-dir", str(tmp_path / "logs"))
    assert ran.returncode == 0, ran.stderr
    [log] = [read_eval_log(info, header_only=True) for info in list_eval_logs(str(tmp_path / "logs"), recursive=True)]
    config = log.eval.model_generate_config
    assert (config.temperature, config.top_p, config.max_tokens) == (0.0, 1.0, 512)

    own = figeval(*command, "--max-tokens", "2048", "--log-dir", str(tmp_path / "own"))
    assert own.returncode == 0, own.stderr
    assert ("--max-tokens 2048 is yours: the paper's is 512 (Appendix A, Table 3); the runs use yours and record it."
            in own.stdout)
    assert "decoding: temperature=0.0, top_p=1.0, the paper's (Appendix A, Table 3)" in own.stdout
    [log] = [read_eval_log(info, header_only=True) for info in list_eval_logs(str(tmp_path / "own"), recursive=True)]
    assert log.eval.model_generate_config.max_tokens == 2048


def test_a_paper_that_states_no_decoding_keeps_figeval_s(ffe_hallu_imported: Path, tmp_path: Path):
    planned = figeval("run", "--paper", "ffe-hallu", "--dry-run", "--limit", "10")
    assert planned.returncode == 0, planned.stderr
    assert "decoding:" not in planned.stdout and FFE_HALLU.decoding is None


def test_a_paper_run_on_a_subset_warns_about_nothing_that_is_not_wrong(ffe_hallu_imported: Path, tmp_path: Path):
    """The eval set gives both ffe_generation runs (dictionary and paraphrased meanings) the ids each selected;
    Inspect warned "sample id 'ffe-gen-001/paraphrased' not found" once per id of the other run. A process of its
    own: Inspect sets up its log handler once per process."""
    model, judge = scripted_answers(tmp_path)
    sheet = paraphrase_sheet(tmp_path / "paraphrases.csv")
    shown = {name: value for name, value in os.environ.items() if name != "INSPECT_DISPLAY"}  # as a user sees it
    ran = figeval_subprocess("run", "--paper", "ffe-hallu", "--model", f"replay/{model}", "--judge",
                             f"replay/{judge}", "-T", f"paraphrases={sheet}", "--limit", "10", "--log-dir",
                             str(tmp_path / "logs"), env=shown)
    assert ran.returncode == 0, ran.stderr
    assert "ffe_generation (meaning=paraphrased" in ran.stdout  # both generation runs ran
    said = ran.stdout + ran.stderr
    assert "not found" not in said and "WARNING" not in said, said


def test_several_models_are_one_set_and_their_tables_have_a_row_each(ffe_hallu_imported: Path, tmp_path: Path):
    # three models answering every question "Yes", "No", or "Yes" to "is it fake?" only (issue 42): one command,
    # one eval set in LOG_DIR/ffe-hallu/<the models>, each model's detection run, a row per model in each table
    ids = detection_ids()
    texts = {"yes": dict.fromkeys(ids, "Yes"), "no": dict.fromkeys(ids, "No"),
             "fake": {id: "Yes" if id.endswith("/fake-q") else "No" for id in ids}}
    models = [f"replay/{write_jsonl(tmp_path / f'{name}.jsonl', answers)}" for name, answers in texts.items()]
    command = ("run", "--paper", "ffe-hallu", "--model", ",".join(models), "--limit", "10", "--log-dir",
               str(tmp_path / "logs"))
    ran = figeval(*command)
    assert ran.returncode == 0, ran.stderr
    folder = Path(set_folder(str(tmp_path / "logs"), "ffe-hallu", set_name(None, models)))
    assert ran.stdout.startswith(f"figeval: FFE-HALLU's protocol on {', '.join(models)}, 1 run logged in")
    assert len(list_eval_logs(str(folder))) == 3
    # Table 4 (--limit 10: 4 fakes): "Yes" accepts each fake asked "is it real?" (real-q 100.00), "No" each fake
    # asked "is it fake?" (fake-q 100.00), "fake" none: three rows, the paper's beside them
    table = ran.stdout[ran.stdout.index("FFE-HALLU Table 4"):ran.stdout.index("FFE-HALLU Figure 1")]
    rows = {parts[0]: [parts[2], parts[6]] for parts in (line.split() for line in table.splitlines()[2:5])}
    assert rows == {"fake": ["0.00", "0.00"], "no": ["100.00", "0.00"], "yes": ["0.00", "100.00"]}
    # the three runs on one subset, filling the same columns: one note for the three, not one per model
    assert table.count("from a subset run") == 1 and "note: fake, no, yes " in table
    # then the leaderboard: each model's headline, Table 4's average (4/8, 4/8 and 0/8 hallucinated)
    board = ran.stdout[ran.stdout.index("Leaderboard: each task's headline metric"):].splitlines()
    assert {parts[0]: parts[2] for parts in (line.split() for line in board[2:5])} == {
        "fake": "0.0", "no": "50.0", "yes": "50.0"}
    # again, with files answering nothing the protocol asks: every (run, model) is finished, nothing is asked
    for model in models:
        write_jsonl(Path(model.removeprefix("replay/")), {"ffe-nothing": "No"})
    again = figeval(*command)
    assert again.returncode == 0, again.stderr
    assert len(list_eval_logs(str(folder))) == 3
    assert again.stdout[again.stdout.index("FFE-HALLU Table 4"):] == ran.stdout[ran.stdout.index("FFE-HALLU Table 4"):]
    # --baseline: each other model's paired differences against the "fake" model only (50 points worse each)
    against = figeval(*command, "--baseline", models[2])
    assert against.returncode == 0, against.stderr
    paired = against.stdout[against.stdout.index("Paired differences on the same items"):].splitlines()
    assert [parts[:6] for parts in (line.split() for line in paired[2:4])] == [
        ["no", "5", "ffe_detection", "halluc_rate_avg", "fake", "50.0"],
        ["yes", "5", "ffe_detection", "halluc_rate_avg", "fake", "50.0"]]
    assert paired[4].startswith("note:")
    # the tables alone, then where the runs are: no list of runs used
    assert "runs used:" not in against.stdout and f"logs: {folder} " in against.stdout


@pytest.mark.parametrize("args, message", [
    (["run", "ffe_detection", "--model", "replay/a.jsonl,replay/b.jsonl"], "several models run a paper's protocol"),
    (["run", "--paper", "ffe-hallu", "--model", "replay/a.jsonl,replay/b.jsonl", "--name", "mine"],
     "a run of several models is named by its models"),
    (["run", "--paper", "ffe-hallu", "--model", "replay/a.jsonl,replay/a.jsonl"], "a model is given twice"),
    (["run", "--paper", "ffe-hallu", "--model", "replay/a.jsonl,"], "--model replay/a.jsonl,: a model name is empty"),
    (["run", "--paper", "ffe-hallu", "--model", "replay/a.jsonl,replay/b.jsonl", "--baseline", "replay/c.jsonl"],
     "--baseline replay/c.jsonl: not one of the models run"),
    (["run", "--paper", "ffe-hallu", "--model", "replay/a.jsonl", "--baseline", "replay/a.jsonl"],
     "not one of the models run"),
    (["run", "ffe_detection", "--baseline", "replay/a.jsonl"], "a baseline is of a paper run of several models"),
])
def test_several_models_outside_a_paper_run_or_with_a_name_are_one_line(args, message):
    assert_one_line_error(figeval(*args), message)


def test_a_set_of_several_models_is_named_by_their_stems_and_a_digest_of_the_models():
    # files of the same stems in two folders are two sets; ten long names still make a folder name (255 bytes at most)
    here = set_name(None, ["replay/x/yes.jsonl", "replay/x/no.jsonl"])
    there = set_name(None, ["replay/y/yes.jsonl", "replay/y/no.jsonl"])
    assert here.startswith("yes+no+") and there.startswith("yes+no+") and here != there
    assert set_name("mine", ["replay/x/yes.jsonl"]) == "mine" and set_name(None, ["openai/gpt-4.1"]) == "openai/gpt-4.1"
    long = set_name(None, [f"replay/{'m' * 80}-{i}.jsonl" for i in range(10)])
    assert len(long) == 100 + 1 + 8
    assert len(Path(set_folder("logs", "ffe-hallu", long)).name.encode()) < 255


def test_a_paper_run_stopped_by_ctrl_c_says_it_did_not_finish_and_its_re_run_goes_on(ffe_hallu_imported: Path,
                                                                                    tmp_path: Path):
    import signal
    import subprocess
    import sys
    import time

    from inspect_ai.log import read_eval_log

    from tests.api_stub import StubServer

    # Two stub servers hold their answers after their first 3 and 5; the set is stopped there as a user stops it
    servers = [StubServer(latency=0.01).start() for _ in range(2)]
    env = dict(os.environ)
    try:
        for number, (server, answers) in enumerate(zip(servers, (3, 5)), start=1):
            env |= server.env(f"stub{number}")
            server.hold_after(answers)
        models = "openai-api/stub1/m,openai-api/stub2/m"
        command = ("run", "--paper", "ffe-hallu", "--model", models, "--limit", "10", "--no-cache", "--log-dir",
                   str(tmp_path / "logs"))
        process = subprocess.Popen([sys.executable, "-m", "figeval", *command], env=env, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        while sum(server.total_answered() for server in servers) < 3 + 5:
            time.sleep(0.1)
        time.sleep(1)  # the answers in the logs
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
        for server in servers:
            server.release(answer_held=False)
        # each model says what its local server was given, once, named
        assert [line.split(": local server")[0] for line in stdout.splitlines() if "local server: the" in line] == [
            "openai-api/stub1/m", "openai-api/stub2/m"]
        # Inspect's eval-set returns as a success with every log cancelled: the command says the runs did not finish
        assert process.returncode == 2 and "Traceback" not in stderr
        [line] = [line for line in stderr.splitlines() if line.startswith("error: ")]
        assert ("did not finish: ffe_detection on openai-api/stub1/m (cancelled); ffe_detection on openai-api/stub2/m "
                "(cancelled)") in line and f"run `figeval {' '.join(command)}` again" in line
        folder = set_folder(str(tmp_path / "logs"), "ffe-hallu", set_name(None, models.split(",")))
        logs = [read_eval_log(info) for info in list_eval_logs(folder)]
        # each log holds its answered samples (and the one cancelled while held, with its error)
        kept = {log.eval.model: len([sample for sample in log.samples or [] if sample.error is None]) for log in logs}
        # (a sample whose answer had not been read when the signal came is cancelled too: a slow machine keeps fewer)
        assert 0 < kept["openai-api/stub1/m"] <= 3 and 0 < kept["openai-api/stub2/m"] <= 5
        for server in servers:
            server.reset()
        resumed = figeval_subprocess(*command, env=env)
        assert resumed.returncode == 0, resumed.stderr
        # only what was not answered
        assert [server.counts["ok"] for server in servers] == [10 - kept[model] for model in models.split(",")]
    finally:
        for server in servers:
            server.stop()
