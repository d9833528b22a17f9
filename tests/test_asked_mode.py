"""The answer mode a run asked in is resolved once per sample, by the first solver that asks, and recorded: in the
sample's state (the scorer reads it there), in every outcome read in it, and in the log as `asked/<mode>` shares,
which reports read (issue 40: it was derived from the model's name by the solver, the scorer and the report)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from inspect_ai.log import read_eval_log

from figeval.answering import ASKED_IN, AnswerMode, asked_in
from figeval.results.runs import asked_mode, summarize
from tests.test_logs_and_labels import idioms, idiom_run  # noqa: F401  (the fixture and the run)


def test_an_auto_run_records_the_mode_its_model_was_asked_in(idioms, tmp_path: Path):  # noqa: F811
    # tr_idiom_detection's answer_mode defaults to auto; a replay model answers in words: all 10 asked in generate
    log = read_eval_log(str(idiom_run(tmp_path)))
    metrics = {name: m.value for score in log.results.scores for name, m in score.metrics.items()}
    assert (metrics["asked/generate"], metrics["asked/logprob"]) == (1.0, 0.0)
    assert {sample.scores[next(iter(sample.scores))].metadata[ASKED_IN] for sample in log.samples} == {"generate"}
    assert log.eval.task_args["answer_mode"] == "auto"
    assert summarize(log).identity["answer_mode"] == "generate"


def test_the_scorer_reads_the_mode_the_solver_recorded_not_the_model_name():
    # a gguf/ model is asked by logprob under auto; once a solver recorded generate, every later reader sees generate
    state = SimpleNamespace(metadata={}, model="gguf/gemma-3-270m.gguf")
    assert asked_in(state, AnswerMode.AUTO) is AnswerMode.LOGPROB
    assert state.metadata == {ASKED_IN: "logprob"}
    recorded = SimpleNamespace(metadata={ASKED_IN: "generate"}, model="gguf/gemma-3-270m.gguf")
    assert asked_in(recorded, AnswerMode.AUTO) is AnswerMode.GENERATE


def _log(**shares: float) -> SimpleNamespace:
    metrics = {f"asked/{mode}": SimpleNamespace(value=value) for mode, value in shares.items()}
    return SimpleNamespace(results=SimpleNamespace(scores=[SimpleNamespace(metrics=metrics)]))


def test_the_report_names_one_mode_or_each_mode_s_share():
    assert asked_mode(_log(generate=0.0, logprob=1.0)) == "logprob"
    # a run whose samples were asked differently (a model per sample) is never taken for one mode: 3 of 4 logprob
    assert asked_mode(_log(generate=0.25, logprob=0.75)) == "generate 25%, logprob 75%"
    assert asked_mode(_log()) == "auto"  # no answer recorded a mode: nothing to resolve it from
