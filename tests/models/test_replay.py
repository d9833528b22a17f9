"""The replay provider's file format checks."""

from pathlib import Path

import pytest

from figeval.errors import FigevalError
from figeval.models.replay import load_replay_file


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "answers.jsonl"
    path.write_text(text, encoding="utf-8")
    return path


def test_reads_outputs_and_optional_logprobs(tmp_path: Path):
    records = load_replay_file(
        write(
            tmp_path,
            '{"id": "a/fake-q", "output": "Yes"}\n\n'
            '{"id": "b/fake-q", "output": " No", "top_logprobs": [{"token": " No", "logprob": -0.1}]}\n',
        )
    )
    assert records["a/fake-q"].output == "Yes" and records["a/fake-q"].top_logprobs is None
    assert records["b/fake-q"].top_logprobs[0].logprob == -0.1


def test_duplicate_ids_are_an_error_naming_both_lines(tmp_path: Path):
    path = write(tmp_path, '{"id": "a", "output": "Yes"}\n{"id": "b", "output": "No"}\n{"id": "a", "output": "No"}\n')
    with pytest.raises(FigevalError, match=r"answers.jsonl, line 3: sample id 'a' already appeared on line 1"):
        load_replay_file(path)


@pytest.mark.parametrize(
    "line, message",
    [
        ("not json", r"line 1: not valid JSON"),
        ('{"id": 3, "output": "Yes"}', r'line 1: expected \{"id": "<sample id>", "output": "<text>"\}'),
        ('["a", "Yes"]', r"line 1: expected"),
        ('{"id": "a", "output": "Y", "top_logprobs": [{"token": "Y"}]}', r"line 1: top_logprobs must be a list"),
    ],
)
def test_malformed_lines_are_named(tmp_path: Path, line: str, message: str):
    with pytest.raises(FigevalError, match=message):
        load_replay_file(write(tmp_path, line + "\n"))


def test_missing_or_empty_file(tmp_path: Path):
    with pytest.raises(FigevalError, match=r"replay: no file at"):
        load_replay_file(tmp_path / "none.jsonl")
    with pytest.raises(FigevalError, match=r"has no outputs"):
        load_replay_file(write(tmp_path, "\n"))


def test_a_replayed_looping_answer_is_stopped_and_counted_unread_as_a_live_one(ffe_hallu_imported: Path,
                                                                                tmp_path: Path):
    from inspect_ai.log import read_eval_log

    from figeval.models.loops import LOOP_STOP
    from tests.command import figeval
    from tests.ffe_hallu.test_tasks import write_replay

    opening = "It is a classic Persian proverb:\n"  # 33 characters, none of them the loop's
    unit = "The Best of the Best, "  # 22 characters: its window is max(3 x 22, 200) = 200
    replay = write_replay(tmp_path / "answers.jsonl", {
        "ffe-fake-001/fake-q": opening + unit * 60,
        "ffe-fake-002/fake-q": {"output": opening + unit * 90, "stop_reason": "max_tokens"},
        "ffe-fake-003/fake-q": "Yes, it is a fabricated proverb.",
    })
    ran = figeval("run", "ffe_detection", "--model", f"replay/{replay}", "-T", "controls=false", "--sample-id",
                  "ffe-fake-001/fake-q,ffe-fake-002/fake-q,ffe-fake-003/fake-q", "--log-dir", str(tmp_path / "logs"))
    assert ran.returncode == 0, ran.stderr
    [log_file] = (tmp_path / "logs").glob("*.eval")
    samples = {sample.id: sample for sample in read_eval_log(str(log_file)).samples}
    for looping in ("ffe-fake-001/fake-q", "ffe-fake-002/fake-q"):
        output = samples[looping].output
        # cut where its last 200 characters first repeat the 22 of the unit: 33 + 200
        assert output.completion == (opening + unit * 10)[:233]
        assert output.stop_reason == "unknown" and output.choices[0].stop_details.type == LOOP_STOP
        score = samples[looping].scores["detection_scorer"]
        assert score.value == {"real": 0, "fake": 0, "unparsed": 1, "truncated": 1, "judge_unparsed": 0,
                               "correct": 0}
        assert score.explanation.startswith("stopped: repeating itself: a passage of 22 characters repeated back "
                                            "to back")
    normal = samples["ffe-fake-003/fake-q"]
    assert normal.output.stop_reason == "stop" and normal.scores["detection_scorer"].value["fake"] == 1
