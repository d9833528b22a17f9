"""The three allusion tasks end to end with replayed outputs and a replayed judge; data checks; building the
generated dataset; one small run on the embedded model."""

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage

from figeval.benchmarks.persian_allusions.build import build_allusive_texts
from figeval.benchmarks.persian_allusions.review import load_kept_passages
from figeval.benchmarks.persian_allusions.dataset import knowledge_list, load_poems
from figeval.benchmarks.persian_allusions.tasks import allusion_knowledge, allusion_mc, allusion_open
from figeval.errors import DataError, FigevalError
from figeval.subset import Design, limit_subset
from tests.command import figeval
from tests.ffe_hallu.test_tasks import write_replay
from tests.persian_allusions.conftest import FIXTURES
from tests.metric_values import run_metrics


def run(task, outputs: dict, tmp_path: Path, judge: dict | None = None, **options):
    model = write_replay(tmp_path / "outputs.jsonl", outputs)
    roles = {"grader": f"replay/{write_replay(tmp_path / 'judge.jsonl', judge)}"} if judge else None
    [log] = inspect_eval(task, model=f"replay/{model}", model_roles=roles, log_dir=str(tmp_path / "logs"),
                         display="none", **options)
    assert log.status == "success", log.error
    return log


def test_mc_end_to_end(allusions_imported: Path, tmp_path: Path):
    task = allusion_mc()
    targets = {s.id: int(s.target) for s in task.dataset}
    outputs = {
        "perspoems-001/mc": json.dumps({"selected_option": targets["perspoems-001/mc"]}),  # right
        "perspoems-002/mc": f"گزینه {targets['perspoems-002/mc'] % 5 + 1}",  # a wrong option
        "perspoems-003/mc": "0",  # none of the options
        "perspoems-004/mc": "I am not sure",  # unparsed
    }
    log = run(task, outputs, tmp_path, limit=4)
    # themes: rows 1-4 are all quranic
    assert run_metrics(log) == pytest.approx(
        {"accuracy": 1 / 4, "none_rate": 1 / 4, "unparsed_rate": 1 / 4, "accuracy/theme_quranic": 1 / 4,
         # Inspect's stderr of a 0/1 mean p over n answers: sqrt(p (1 - p) / (n - 1)) = sqrt(3/16 / 3)
         "accuracy/stderr": 0.25, "none_rate/stderr": 0.25,
         # every rate counts all four answers (the unparsed 004 as wrong, not left out)
         "accuracy/n": 4, "none_rate/n": 4, "unparsed_rate/n": 4, "accuracy/theme_quranic/n": 4}
    )
    first = log.samples[0]
    assert first.metadata["answer_position"] == targets["perspoems-001/mc"]  # the position is recorded


def test_open_end_to_end_with_judge(allusions_imported: Path, tmp_path: Path):
    outputs = {
        "perspoems-007/open": json.dumps([{"reference": "منصور حلاج",
                                           "explanation": "بر دار رفتن حلاج"}], ensure_ascii=False),
        "perspoems-008/open": "```json\n[{\"reference\": \"شیرین و فرهاد\", \"explanation\": \"عشق\"}]\n```",
        "perspoems-009/open": "[]",  # no allusion found: incorrect, no judge call
        "perspoems-010/open": "It alludes to Rostam.",  # prose, not JSON: still judged
        "perspoems-011/open": json.dumps([{"reference": "جام جم", "explanation": "جام جهان‌نما"}], ensure_ascii=False),
    }
    # Keys in another case are read; a JSON answer of another shape is judged as written, not "no allusion".
    outputs["perspoems-007/open"] = outputs["perspoems-007/open"].replace('"reference"', '"Reference"')
    outputs["perspoems-010/open"] = '[{"answer": "رستم و سهراب"}]'
    outputs["perspoems-012/open"] = "   "  # nothing to judge: unparsed
    judge = {
        "perspoems-007/open": '{"label": 1, "reason": "Hallaj"}',
        "perspoems-008/open": '{"label": 0, "reason": "the couplet is about Leyli and Majnun"}',
        "perspoems-010/open": '{"label": 0, "reason": "the couplet is about Hallaj, not Rostam"}',
        "perspoems-011/open": "no idea",  # unreadable twice: judge_unparsed
    }
    log = run(allusion_open(), outputs, tmp_path, judge,
              sample_id=["perspoems-007/open", "perspoems-008/open", "perspoems-009/open",
                         "perspoems-010/open", "perspoems-011/open",
                         "perspoems-012/open"])
    metrics = run_metrics(log)
    # counted (not lost to the judge): 007 right, 008 wrong, 009 wrong, 010 judged wrong, 012 unparsed -> 1/5
    assert metrics["accuracy"] == pytest.approx(1 / 5)
    assert metrics["unparsed_rate"] == pytest.approx(1 / 6) and metrics["judge_unparsed_rate"] == pytest.approx(1 / 6)
    # row 7 mystical; row 8 romantic+mystical; row 9 romantic; row 10 mythical-historical; row 11 judge_unparsed;
    # row 12 mystical+other, unparsed: mystical 007 right of 007, 008, 012 -> 1/3
    assert metrics["accuracy/theme_mystical"] == pytest.approx(1 / 3)
    assert metrics["accuracy/theme_romantic"] == 0.0
    by_id = {s.id: s.scores["open_scorer"] for s in log.samples}
    assert by_id["perspoems-009/open"].metadata["decided_by"] == "rule"
    assert by_id["perspoems-009/open"].metadata["rule"] == "no_allusion"
    assert by_id["perspoems-007/open"].answer == "منصور حلاج: بر دار رفتن حلاج"


def test_knowledge_end_to_end(allusions_imported: Path, tmp_path: Path):
    outputs = {
        "allusion-001": json.dumps([{"title": "یوسف و زلیخا",
                                     "full_explanation": "بریدن دست زنان مصر"}], ensure_ascii=False),
        "allusion-002": json.dumps([{"title": "آتش نمرود", "full_explanation": "آتش"}], ensure_ascii=False),
        "allusion-003": '[{"title": null, "full_explanation": null}]',  # not familiar: incorrect, no judge call
        "allusion-004": "I don't know this one.",  # prose, not JSON: the judge reads it as written
    }
    judge = {"allusion-001": '{"label": 2, "reason": "complete"}', "allusion-002": '{"label": "partial"}',
             "allusion-004": '{"label": 0, "reason": "no explanation"}'}
    log = run(allusion_knowledge(), outputs, tmp_path, judge, limit=4)
    assert run_metrics(log) == pytest.approx(
        {
            "knowledge_rate": 1 / 4,  # only a complete explanation counts as knowing
            "partial_rate": 1 / 4,
            # 003 (not familiar, by rule) and 004 (judged): "incorrect or absent"
            "incorrect_rate": 2 / 4,
            "unparsed_rate": 0.0,
            "judge_unparsed_rate": 0.0,
            # Inspect's stderr of a 0/1 mean p over n answers: sqrt(p (1 - p) / (n - 1))
            "knowledge_rate/stderr": 0.25,  # sqrt(3/16 / 3)
            "partial_rate/stderr": 0.25,
            "incorrect_rate/stderr": (0.25 / 3) ** 0.5,
            # no answer is unparsed and the judge read every one: each rate is over the four answers
            "knowledge_rate/n": 4, "partial_rate/n": 4, "incorrect_rate/n": 4, "unparsed_rate/n": 4,
            "judge_unparsed_rate/n": 4,
        }
    )


def test_judge_mode_and_dataset_are_checked(allusions_imported: Path):
    with pytest.raises(FigevalError, match=r"judge_mode must be one of \['gt', 'no_gt'\]"):
        allusion_open(judge_mode="blind")
    with pytest.raises(FigevalError, match=r"dataset must be one of \['perspoems', 'generated'\]"):
        allusion_mc(dataset="poems")
    assert len(allusion_open(dataset="generated", judge_mode="no_gt").dataset) == 3


@pytest.mark.parametrize("cell, themes", [
    ("مذهبی", ("religious",)),  # as Table 1 prints it
    ("قرآنی، عرفانی", ("quranic", "mystical")),  # Persian comma
    ("اساطیری\u200cتاریخی", ("mythical-historical",)),
    ("Mythical Historical, عاشقانه", ("mythical-historical", "romantic")),
    ("مذهبی, religious", ("religious",)),  # one theme named twice counts once
])
def test_persian_theme_labels(cell, themes, tmp_path: Path):
    lines = (FIXTURES / "PersPoems.csv").read_text(encoding="utf-8-sig").splitlines()
    path = tmp_path / "PersPoems.csv"
    path.write_text("\n".join([lines[0], lines[1].replace(",quranic,", f",\"{cell}\",")]) + "\n", encoding="utf-8")
    assert load_poems(path)[0].themes == themes


def test_data_checks(tmp_path: Path):
    lines = (FIXTURES / "PersPoems.csv").read_text(encoding="utf-8-sig").splitlines()
    bad_theme = tmp_path / "PersPoems.csv"
    bad_theme.write_text("\n".join([lines[0], lines[1].replace(",quranic,", ",biblical,")]) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"row 1, column 'themes' has 'biblical'; themes are among"):
        load_poems(bad_theme)
    other_layout = tmp_path / "other.csv"
    other_layout.write_text("beyt,talmih\nیک,دو\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"expected columns \['poet', 'themes', 'entities', 'couplet', 'allusion', "
                                        r"'description'\], found \['beyt', 'talmih'\]"):
        load_poems(other_layout)


class Writer:
    """A mockllm output function writing a passage that names the allusion it was asked about."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, messages, tools, tool_choice, config) -> ModelOutput:
        self.calls += 1
        # Table 5's prompt ends "Allusion and its Details: <title>: <description>"
        allusion = messages[-1].text.split("Allusion and its Details: ", 1)[1].split(":", 1)[0]
        output = ModelOutput.from_content("mockllm/model", f"Here it is:\nمتنی درباره‌ی {allusion}.")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


def test_build_generated_passages_and_keep_reviewed_ones(tmp_path: Path):
    allusions = knowledge_list(load_poems(FIXTURES / "PersPoems.csv"))
    sheet = tmp_path / "passages.csv"
    writer = Writer()
    assert build_allusive_texts("mockllm/model", list(allusions.values())[:3], sheet, {"custom_outputs": writer},
                                report=lambda _: None) == (3, 0, [])
    again = Writer()
    assert build_allusive_texts("mockllm/model", list(allusions.values())[:4], sheet, {"custom_outputs": again},
                                report=lambda _: None) == (1, 3, [])
    assert again.calls == 1  # only the new allusion is asked
    rows = sheet.read_text(encoding="utf-8-sig").splitlines()
    assert rows[0] == "id,allusion,text,keep"
    assert rows[1] == "generated-001/1,یوسف و زلیخا,متنی درباره‌ی یوسف و زلیخا.,"
    with pytest.raises(DataError, match="no row is marked keep=yes"):
        load_kept_passages(sheet, allusions)
    sheet.write_text("\n".join([rows[0], rows[1] + "yes", rows[2] + "no", rows[3]]) + "\n", encoding="utf-8-sig")
    kept = load_kept_passages(sheet, allusions)
    assert [(k.id, k.allusion) for k in kept] == [("generated-001/1", "یوسف و زلیخا")]


@pytest.mark.slow
@pytest.mark.parametrize("prompt_lang", ["en", "fa"])
def test_mc_on_the_embedded_model(prompt_lang: str, allusions_imported: Path, tmp_path: Path):
    """The base model cannot write Table 7's answer (it continues the text); under the default answer_mode=auto a
    gguf/ model is asked for the next token after the opening of the JSON answer, and the option numbers decide."""
    [log] = inspect_eval(allusion_mc(prompt_lang=prompt_lang), model="gguf/gemma-3-270m", limit=3,
                         log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    metrics = {name: m.value for score in log.results.scores for name, m in score.metrics.items()}
    # measured (en and fa): Gemma puts most of its next token on the digits 0-5 after `"selected_option": `, so
    # every answer is read by logprob, none unparsed
    assert metrics["read/logprob"] == 1.0 and metrics["unparsed_rate"] == 0.0 and metrics["label_mass"] > 0.5
    for sample in log.samples:
        assert sample.output.choices[0].logprobs is not None and sample.output.usage.output_tokens == 1
        assert "P(1)=" in sample.scores["mc_scorer"].explanation
    assert log.eval.metadata["answer_mode"] == "auto"


def test_report_shows_the_gap_and_the_knowledge_cross_table(allusions_imported: Path, tmp_path: Path):
    logs = tmp_path / "logs"
    mc_task = allusion_mc()
    targets = {s.id: s.target for s in mc_task.dataset}
    texts = ["perspoems-001", "perspoems-002"]  # Joseph (allusion-001), Abraham's fire (allusion-002)
    # One replay file answers every task: a text's MC and open samples have ids of their own
    model = write_replay(tmp_path / "outputs.jsonl", {
        # MC: both right; open: 001 right, 002 wrong; knowledge: knows 001 (complete), not 002 (partial)
        **{f"{text}/mc": json.dumps({"selected_option": int(targets[f"{text}/mc"])}) for text in texts},
        **{f"{text}/open": '[{"reference": "r", "explanation": "e"}]' for text in texts},
        "allusion-001": '[{"title": "x", "full_explanation": "y"}]',
        "allusion-002": '[{"title": "x", "full_explanation": "y"}]',
    })
    judge = write_replay(tmp_path / "judge.jsonl", {"allusion-001": '{"label": 2}', "allusion-002": '{"label": 1}',
                                                    "perspoems-001/open": '{"label": 1}',
                                                    "perspoems-002/open": '{"label": 0}'})
    roles = {"grader": f"replay/{judge}"}
    for task, options in ((mc_task, {"sample_id": [f"{text}/mc" for text in texts]}),
                          (allusion_knowledge(), {"limit": 2}),
                          (allusion_open(), {"sample_id": [f"{text}/open" for text in texts]})):
        [log] = inspect_eval(task, model=f"replay/{model}", model_roles=roles, log_dir=str(logs),
                             display="none", **options)
        assert log.status == "success", log.error
    report = figeval("report", str(logs))
    assert report.returncode == 0, report.stderr
    # the model is named by its replay file's stem ("outputs")
    gap_line = next(line for line in report.stdout.splitlines() if line.startswith("outputs ") and "perspoems" in line)
    # MC 2/2 and open 1/2 (percent, as Table 3), each with its Wilson interval over n = 2 (shown: n < 100; 1/2:
    # centre 0.5, half-width 1.959964 / 5.841459 * sqrt(0.5 + 0.960365) = 0.405472), the gap, then figeval's
    # unparsed and judge-unreadable shares (none of the 2 answers)
    assert "100.0 [34.2, 100.0] 50.0 [9.5, 90.5] 50.0 0.0 [0.0, 65.8]" in " ".join(gap_line.split())
    as_json = figeval("report", str(logs), "--format", "json")
    tables = {table["key"]: table for table in json.loads(as_json.stdout)["tables"]}
    cross = {row["identity"]["task"]: row["cells"]
             for row in tables["persian-allusions/knowledge-x-recognition"]["rows"]}
    # examples are named by the text (its MC and open samples are one text)
    assert (cross["allusion_open"]["knows/recognized"]["value"],
            cross["allusion_open"]["knows/recognized"]["label"]) == (1, "perspoems-001")
    assert cross["allusion_open"]["not/missed"]["label"] == "perspoems-002"  # open
    assert cross["allusion_mc"]["not/recognized"]["label"] == "perspoems-002"  # MC: lexical overlap case


def test_every_limit_on_the_allusion_fixture_keeps_every_theme(allusions_imported: Path):
    from tests.command import make_task

    for task_name in ("allusion_mc", "allusion_open"):
        task = make_task(task_name, {})
        samples, design = list(task.dataset), Design.from_metadata(task.metadata)
        every = {theme for sample in samples for theme in sample.metadata["themes"]}
        assert {"religious", "other"} <= every  # only ever second in the fixture
        kept = [n for n in range(1, len(samples)) if _kept_themes(task_name, samples, design, n, every)]
        assert kept and kept == list(range(kept[0], len(samples)))  # from the least N that keeps them all, every N


def _kept_themes(task_name, samples, design, n, every) -> bool:
    try:
        subset = limit_subset(task_name, samples, design, str(n))
    except FigevalError:
        return False
    chosen = [sample for sample in samples if sample.id in set(subset.ids)]
    assert {theme for sample in chosen for theme in sample.metadata["themes"]} == every, n
    return True


def test_one_replay_file_drives_the_whole_allusions_protocol(allusions_imported: Path, tmp_path: Path):
    """Every run of `--paper persian-allusions` (knowledge, MC and open-ended on both datasets) answered from one
    file: each task's samples have ids of their own, so each reads its own answers (MC and open shared ids, and
    both got the same text)."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    from figeval._registry import BENCHMARKS
    from tests.command import make_task
    from figeval.running.protocol import paper_benchmark

    answers, judged = {}, {}
    for run in paper_benchmark("persian-allusions", BENCHMARKS).protocol:
        for sample in make_task(run.task, dict(run.args)).dataset:
            if run.task == "allusion_mc":
                answers[sample.id] = json.dumps({"selected_option": int(sample.target)})  # every MC answer right
            elif run.task == "allusion_open":
                answers[sample.id] = json.dumps([{"reference": sample.target, "explanation": "e"}], ensure_ascii=False)
                judged[sample.id] = '{"label": 1}'
            else:
                answers[sample.id] = '[{"title": "x", "full_explanation": "y"}]'
                judged[sample.id] = '{"label": 2}'
    ids = list(answers)
    assert len(ids) == len(set(ids))
    model, judge = write_replay(tmp_path / "one.jsonl", answers), write_replay(tmp_path / "judge.jsonl", judged)
    ran = figeval("run", "--paper", "persian-allusions", "--model", f"replay/{model}", "--judge", f"replay/{judge}",
                  "--log-dir", str(tmp_path / "logs"))
    assert ran.returncode == 0, ran.stderr
    assert "skipped" not in ran.stdout and "not found" not in ran.stderr
    logs = [read_eval_log(info) for info in list_eval_logs(str(tmp_path / "logs"), recursive=True)]
    assert len(logs) == 7 and all(log.status == "success" for log in logs)
    for log in logs:
        assert all(sample.output.completion == answers[sample.id] for sample in log.samples)
        if log.eval.task.endswith("allusion_mc"):
            assert log.results.scores[0].metrics["accuracy"].value == 1.0


@pytest.mark.parametrize("given", ["generated", "allusion_mc:generated"])
def test_a_paper_run_takes_a_reviewed_sheet_for_its_generated_runs(given: str, allusions_imported: Path,
                                                                   tmp_path: Path):
    """A reviewed sheet goes to the runs on the generated passages, never to the PersPoems runs (which a standalone
    run with the file refuses); `-T allusion_mc:generated=` to allusion_mc's generated run alone."""
    sheet = tmp_path / "sheet.csv"
    # two passages kept, about two allusions of the fixture's knowledge list
    sheet.write_text("id,allusion,text,keep\ngenerated-001/1,یوسف و زلیخا,متن یک,yes\n"
                     "generated-002/1,آتش نمرود,متن دو,yes\n", encoding="utf-8")
    result = figeval("run", "--paper", "persian-allusions", "-m", "replay/absent.jsonl", "--judge", "openai/gpt-4o",
                     "-T", f"{given}=sheet.csv", "--log-dir", str(tmp_path / "logs"), "--dry-run", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    plans = [line for line in result.stdout.splitlines() if line.startswith(("allusion_mc (", "allusion_open ("))]
    # PersPoems: the fixture's 13 couplets; the sheet: its 2 kept rows; upstream's LLM-Generated fixture: 3 rows
    both = given == "generated"
    assert plans == [
        "allusion_mc (dataset=perspoems): 13 samples",
        "allusion_open (dataset=perspoems, judge_mode=gt, judge=openai/gpt-4o): 13 samples",
        "allusion_open (dataset=perspoems, judge_mode=no_gt, judge=openai/gpt-4o): 13 samples",
        "allusion_mc (dataset=generated, generated=sheet.csv): 2 samples",
        *(f"allusion_open (dataset=generated, judge_mode={mode}{', generated=sheet.csv' if both else ''}, "
          f"judge=openai/gpt-4o): {2 if both else 3} samples" for mode in ("gt", "no_gt"))]
