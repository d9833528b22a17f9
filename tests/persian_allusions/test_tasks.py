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
        "perspoems-001": json.dumps({"selected_option": targets["perspoems-001"]}),  # right
        "perspoems-002": f"گزینه {targets['perspoems-002'] % 5 + 1}",  # a wrong option
        "perspoems-003": "0",  # none of the options
        "perspoems-004": "I am not sure",  # unparsed
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
    assert first.metadata["answer_position"] == targets["perspoems-001"]  # the position is recorded


def test_open_end_to_end_with_judge(allusions_imported: Path, tmp_path: Path):
    outputs = {
        "perspoems-007": json.dumps([{"reference": "منصور حلاج", "explanation": "بر دار رفتن حلاج"}], ensure_ascii=False),
        "perspoems-008": "```json\n[{\"reference\": \"شیرین و فرهاد\", \"explanation\": \"عشق\"}]\n```",
        "perspoems-009": "[]",  # no allusion found: incorrect, no judge call
        "perspoems-010": "It alludes to Rostam.",  # prose, not JSON: still judged
        "perspoems-011": json.dumps([{"reference": "جام جم", "explanation": "جام جهان‌نما"}], ensure_ascii=False),
    }
    # Keys in another case are read; a JSON answer of another shape is judged as written, not "no allusion".
    outputs["perspoems-007"] = outputs["perspoems-007"].replace('"reference"', '"Reference"')
    outputs["perspoems-010"] = '[{"answer": "رستم و سهراب"}]'
    outputs["perspoems-012"] = "   "  # nothing to judge: unparsed
    judge = {
        "perspoems-007": '{"label": 1, "reason": "Hallaj"}',
        "perspoems-008": '{"label": 0, "reason": "the couplet is about Leyli and Majnun"}',
        "perspoems-010": '{"label": 0, "reason": "the couplet is about Hallaj, not Rostam"}',
        "perspoems-011": "no idea",  # unreadable twice: judge_unparsed
    }
    log = run(allusion_open(), outputs, tmp_path, judge,
              sample_id=["perspoems-007", "perspoems-008", "perspoems-009", "perspoems-010", "perspoems-011",
                         "perspoems-012"])
    metrics = run_metrics(log)
    # counted (not lost to the judge): 007 right, 008 wrong, 009 wrong, 010 judged wrong, 012 unparsed -> 1/5
    assert metrics["accuracy"] == pytest.approx(1 / 5)
    assert metrics["unparsed_rate"] == pytest.approx(1 / 6) and metrics["judge_unparsed_rate"] == pytest.approx(1 / 6)
    # row 7 mystical; row 8 romantic+mystical; row 9 romantic; row 10 mythical-historical; row 11 judge_unparsed;
    # row 12 mystical+other, unparsed: mystical 007 right of 007, 008, 012 -> 1/3
    assert metrics["accuracy/theme_mystical"] == pytest.approx(1 / 3)
    assert metrics["accuracy/theme_romantic"] == 0.0
    by_id = {s.id: s.scores["open_scorer"] for s in log.samples}
    assert by_id["perspoems-009"].metadata["decided_by"] == "rule"
    assert by_id["perspoems-009"].metadata["rule"] == "no_allusion"
    assert by_id["perspoems-007"].answer == "منصور حلاج: بر دار رفتن حلاج"


def test_knowledge_end_to_end(allusions_imported: Path, tmp_path: Path):
    outputs = {
        "allusion-001": json.dumps([{"title": "یوسف و زلیخا", "full_explanation": "بریدن دست زنان مصر"}], ensure_ascii=False),
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
    with pytest.raises(DataError, match=r"expected columns \['poet', 'themes', 'entities', 'couplet', 'allusion', 'description'\], found \['beyt', 'talmih'\]"):
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
                                report=lambda _: None) == (3, 0)
    again = Writer()
    assert build_allusive_texts("mockllm/model", list(allusions.values())[:4], sheet, {"custom_outputs": again},
                                report=lambda _: None) == (1, 3)
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
    samples = ["perspoems-001", "perspoems-002"]  # Joseph (allusion-001), Abraham's fire (allusion-002)
    model = write_replay(tmp_path / "outputs.jsonl", {
        # MC: both right; open: 001 right, 002 wrong; knowledge: knows 001 (complete), not 002 (partial)
        "perspoems-001": json.dumps({"selected_option": int(targets["perspoems-001"])}),
        "perspoems-002": json.dumps({"selected_option": int(targets["perspoems-002"])}),
        "allusion-001": '[{"title": "x", "full_explanation": "y"}]',
        "allusion-002": '[{"title": "x", "full_explanation": "y"}]',
    })
    judge = write_replay(tmp_path / "judge.jsonl", {"allusion-001": '{"label": 2}', "allusion-002": '{"label": 1}',
                                                    "perspoems-001": '{"label": 1}', "perspoems-002": '{"label": 0}'})
    opens = write_replay(tmp_path / "open.jsonl", {sid: '[{"reference": "r", "explanation": "e"}]' for sid in samples})
    roles = {"grader": f"replay/{judge}"}
    for task, outputs, options in ((mc_task, model, {"sample_id": samples}),
                                   (allusion_knowledge(), model, {"limit": 2}),
                                   (allusion_open(), opens, {"sample_id": samples})):
        [log] = inspect_eval(task, model=f"replay/{outputs}", model_roles=roles, log_dir=str(logs), display="none", **options)
        assert log.status == "success", log.error
    # The open run used another replay file, i.e. another model name: rename it to compare like with like.
    from inspect_ai.log import list_eval_logs, read_eval_log, write_eval_log

    for info in list_eval_logs(str(logs)):
        log = read_eval_log(info)
        if log.eval.task.endswith("allusion_open"):
            log.eval.model = f"replay/{model}"
            write_eval_log(log, info.name)
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
    cross = {row["identity"]["task"]: row["cells"] for row in tables["persian-allusions/knowledge-x-recognition"]["rows"]}
    assert (cross["allusion_open"]["knows/recognized"]["value"], cross["allusion_open"]["knows/recognized"]["label"]) == (
        1, "perspoems-001")
    assert cross["allusion_open"]["not/missed"]["label"] == "perspoems-002"  # open
    assert cross["allusion_mc"]["not/recognized"]["label"] == "perspoems-002"  # MC: lexical overlap case
