"""allusion_mc in logprob mode: the option numbers' next-token probabilities decide, a tie or no number is unparsed,
and the prompt gets the opening of its JSON answer only when the model is asked by logprob."""

import asyncio
import math
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageUser
from inspect_ai.solver import TaskState

from figeval.answering import AnswerMode
from figeval.benchmarks.persian_allusions.prompts import MC_LOGPROB_CUE
from figeval.benchmarks.persian_allusions.tasks import allusion_mc, logprob_cue
from figeval.errors import FigevalError
from tests.ffe_hallu.test_tasks import write_replay
from tests.metric_values import run_metrics

SAMPLES = [f"perspoems-{row:03d}/mc" for row in range(1, 6)]
PERSIAN_DIGITS = "۰۱۲۳۴۵"


def top(*candidates: tuple[str, float]) -> list[dict]:
    return [{"token": token, "logprob": logprob} for token, logprob in candidates]


def test_logprob_mode_picks_the_option_numbers_with_the_most_mass(allusions_imported: Path, tmp_path: Path):
    task = allusion_mc(answer_mode="logprob")
    targets = {str(s.id): s.target for s in task.dataset}
    wrong = {sample: str(int(target) % 5 + 1) for sample, target in targets.items()}  # another option, 1-5
    t1, w1 = targets["perspoems-001/mc"], wrong["perspoems-001/mc"]
    t2, w2 = targets["perspoems-002/mc"], wrong["perspoems-002/mc"]
    t5 = targets["perspoems-005/mc"]
    answers = {
        # P(t1) = e^-0.4 = 0.670 (" 3" is 3) > P(w1) = e^-1.2 = 0.301 (a Persian digit is its number): right
        "perspoems-001/mc": {"output": f" {t1}",
                             "top_logprobs": top((f" {t1}", -0.4), (PERSIAN_DIGITS[int(w1)], -1.2))},
        # each of w2's two tokens is below t2's one (e^-1.3, e^-1.9 < e^-1.0), their sum is not:
        # P(w2) = 0.273 + 0.150 = 0.422 > P(t2) = 0.368: wrong
        "perspoems-002/mc": {"output": f"{t2}", "top_logprobs": top((t2, -1.0), (w2, -1.3), (f"{w2}.", -1.9))},
        # P(1) = P(2) = e^-0.7: a tie is no answer, whichever token was sampled: unparsed
        "perspoems-003/mc": {"output": "1", "top_logprobs": top(("1", -0.7), ("2", -0.7), ("\n", -2.0))},
        # no option number among the candidates ("35" and "10" begin with 3 and 1 but name no option): unparsed
        "perspoems-004/mc": {"output": "\n",
                             "top_logprobs": top(("\n", -0.1), (" The", -1.0), ("35", -1.5), ("10", -2.0))},
        # P(0) = e^-0.3 = 0.741 > P(t5) = e^-1.5 = 0.223: "no allusion", wrong (every text has one)
        "perspoems-005/mc": {"output": "0", "top_logprobs": top(("0", -0.3), (t5, -1.5))},
    }
    replay = write_replay(tmp_path / "answers.jsonl", answers)
    [log] = inspect_eval(task, model=f"replay/{replay}", sample_id=SAMPLES, log_dir=str(tmp_path / "logs"),
                         display="none")
    assert log.status == "success", log.error
    scores = {s.id: s.scores["mc_scorer"] for s in log.samples}
    assert {sample: score.answer for sample, score in scores.items()} == {
        "perspoems-001/mc": t1, "perspoems-002/mc": w2, "perspoems-003/mc": None,
        "perspoems-004/mc": None, "perspoems-005/mc": "0"}
    assert "no label decides among the top 3 next tokens" in scores["perspoems-003/mc"].explanation
    # the mass on the option numbers: 001 e^-0.4 + e^-1.2; 002 e^-1.0 + e^-1.3 + e^-1.9; 003 2 e^-0.7; 004 none;
    # 005 e^-0.3 + e^-1.5
    masses = [math.exp(-0.4) + math.exp(-1.2), math.exp(-1.0) + math.exp(-1.3) + math.exp(-1.9), 2 * math.exp(-0.7),
              0.0, math.exp(-0.3) + math.exp(-1.5)]
    metrics = {name: m.value for score in log.results.scores for name, m in score.metrics.items()}
    assert run_metrics(log) == pytest.approx({
        # right: 001 only; 003 and 004 unparsed count as wrong (as_wrong), not left out: 1/5
        "accuracy": 1 / 5, "accuracy/stderr": math.sqrt(1 / 5 * 4 / 5 / 4), "accuracy/n": 5,
        "none_rate": 1 / 5, "none_rate/stderr": math.sqrt(1 / 5 * 4 / 5 / 4), "none_rate/n": 5,  # 005
        "unparsed_rate": 2 / 5, "unparsed_rate/n": 5,  # 003 (tie) and 004 (no number)
        "accuracy/theme_quranic": 1 / 5, "accuracy/theme_quranic/n": 5,  # rows 1-5 are all quranic
        # over the five answers read from log-probabilities, the unparsed 003 and 004 included
        "label_mass": sum(masses) / 5, "label_mass/under_half": 1 / 5,  # 004's 0
        "label_mass/n": 5, "label_mass/under_half/n": 5,
    })
    assert metrics["read/logprob"] == pytest.approx(3 / 5) and metrics["read/unread"] == pytest.approx(2 / 5)
    # the mode is in the log, and the prompt ended with the opening of Table 7's JSON answer
    assert log.eval.metadata["answer_mode"] == "logprob"
    assert all(s.messages[0].text.endswith('\n\n[{\n  "selected_option": ') for s in log.samples)


def test_generate_mode_and_auto_on_another_provider_ask_the_prompt_as_printed(allusions_imported: Path,
                                                                               tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", {"perspoems-001/mc": '[{"selected_option": 2}]'})
    for mode in ("generate", "auto"):  # auto: a replay/ model is not gguf/, so it is asked to generate
        task = allusion_mc(answer_mode=mode)
        printed = next(s.input for s in task.dataset if s.id == "perspoems-001/mc")
        [log] = inspect_eval(task, model=f"replay/{replay}", sample_id=["perspoems-001/mc"],
                             log_dir=str(tmp_path / mode), display="none")
        assert log.status == "success", log.error
        [sample] = log.samples
        assert sample.messages[0].text == printed  # no cue: Table 7's text ends with the options
        assert (sample.scores["mc_scorer"].answer == "2"
                and sample.scores["mc_scorer"].metadata["read_by"] == "paper_rule")
        assert log.eval.metadata["answer_mode"] == mode
        assert "label_mass" not in run_metrics(log)  # no logprob answer, no mass


@pytest.mark.parametrize("model, lang, cued", [
    ("gguf/gemma-3-270m", "en", True),  # auto: gguf/ models answer by logprob
    ("gguf/gemma-3-270m", "fa", True),
    ("openai/gpt-4.1", "en", False),
])
def test_the_cue_follows_the_mode_the_model_is_asked_in(model: str, lang: str, cued: bool):
    state = TaskState(model=model, sample_id="s", epoch=1, input="Options:\n5. x",
                      messages=[ChatMessageUser(content="Options:\n5. x")])
    solve = logprob_cue(AnswerMode.AUTO, MC_LOGPROB_CUE[lang])
    asked = asyncio.run(solve(state, generate=None)).user_prompt.text
    assert asked == "Options:\n5. x" + (MC_LOGPROB_CUE[lang] if cued else "")


def test_an_unknown_answer_mode_is_one_line(allusions_imported: Path):
    with pytest.raises(FigevalError,
                       match=r"answer_mode must be one of \['generate', 'logprob', 'auto'\], not 'logprobs'"):
        allusion_mc(answer_mode="logprobs")
