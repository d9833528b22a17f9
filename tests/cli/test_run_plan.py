"""`figeval run --dry-run`: the samples, model calls and prompt tokens a run would take, without asking any model or
writing a log (figeval.running.plan, printed by cli/run/plan.py). The expected figures are derived here from the
data and the prompts, apart from the solver chain the dry run renders them with."""

from __future__ import annotations

import re
from math import ceil
from pathlib import Path

import pytest

from tests.command import assert_one_line_error, figeval

# A model file that is never there: a run that made the model (or asked it) would stop with "replay: no file".
ABSENT = "replay/absent.jsonl"

# `--limit 40` of ffe_detection (with its controls): 20 items x 2 framings, fakes of rows 1-3, 51-53, 101-102 and
# 151-152 (the four categories in proportion) and the controls of rows 1-10 (tests/test_subset.py derives them).
LIMIT_40_ITEMS = ([f"ffe-fake-{row:03d}" for row in (1, 2, 3, 51, 52, 53, 101, 102, 151, 152)]
                  + [f"ffe-real-{row:03d}" for row in range(1, 11)])


def dry_run(tmp: Path, *args: str) -> str:
    result = figeval("run", *args, "--log-dir", str(tmp / "logs"), "--dry-run", cwd=tmp)
    assert result.returncode == 0, result.stderr
    assert not (tmp / "logs").exists()  # nothing written
    return result.stdout


def figure(output: str, label: str) -> str:
    """The text after `label: ` on its line of the plan."""
    [found] = re.findall(rf"^\s*{re.escape(label)}: (.*)$", output, re.MULTILINE)
    return found


def estimate(*texts: str) -> int:
    """The dry run's estimate of one prompt: its messages' characters / 4, rounded up."""
    return ceil(sum(len(text) for text in texts) / 4)


def test_detection_limit_40_on_an_api_model(ffe_hallu_imported: Path, tmp_path: Path):
    """40 samples, one call each; the prompt is the sample's input alone (the task adds no system message), so
    the estimate is the sum of each input's characters / 4."""
    from figeval.benchmarks.ffe_hallu.tasks import ffe_detection

    inputs = {sample.id: sample.input for sample in ffe_detection().dataset}
    chosen = [f"{item}/{framing}" for item in LIMIT_40_ITEMS for framing in ("fake-q", "real-q")]
    expected = sum(estimate(inputs[id]) for id in chosen)
    output = dry_run(tmp_path, "ffe_detection", "-m", ABSENT, "--limit", "40")
    assert "ffe_detection (defaults): 40 samples\n" in output
    assert figure(output, "model calls") == "40 (40 samples x 1 epoch)"
    assert figure(output, "prompt tokens") == (f"~{expected:,} (estimate: characters/4; no offline tokenizer for "
                                               f"{ABSENT})")
    assert figure(output, "subset").startswith("limit 40: 40 of 800 samples, 20 items x 2 framings")
    assert output.endswith(f"total: 40 samples, 40 model calls, ~{expected:,} prompt tokens\n")


def test_epochs_multiply_calls_and_tokens(ffe_hallu_imported: Path, tmp_path: Path):
    one = dry_run(tmp_path, "ffe_detection", "-m", ABSENT, "--limit", "40")
    two = dry_run(tmp_path, "ffe_detection", "-m", ABSENT, "--limit", "40", "--epochs", "2")
    tokens = int(figure(one, "prompt tokens").split()[0].strip("~").replace(",", ""))
    # each epoch asks every sample again with the same prompt (Inspect caches per epoch): 2 x 40 calls, 2 x tokens
    assert figure(two, "model calls") == "80 (40 samples x 2 epochs)"
    assert figure(two, "prompt tokens").startswith(f"~{2 * tokens:,} ")


def generation_judge_prompts(count: int) -> list[int]:
    """The estimate of each of ffe_generation's first `count` judge prompts without the answer: the judge's system
    prompt and the paper's prompt with the sample's meaning and reference, the answer quoted empty."""
    from figeval.benchmarks.ffe_hallu.prompts import GENERATION_JUDGE_PROMPT, GENERATION_JUDGE_SYSTEM_PROMPT
    from figeval.benchmarks.ffe_hallu.tasks import ffe_generation

    samples = list(ffe_generation(judge="unused/model").dataset)[:count]
    return [estimate(GENERATION_JUDGE_SYSTEM_PROMPT, GENERATION_JUDGE_PROMPT["paper"].format(
        answer="<answer>\n\n</answer>", reference=s.metadata["references"][0], meaning=s.metadata["meaning"]))
        for s in samples]


def test_a_judged_task_asks_its_judge_once_per_answer(ffe_hallu_imported: Path, tmp_path: Path):
    """ffe_generation's judge labels every output (judge_every_output, the default): 10 answers, 10 judge calls,
    20 in all; the model's prompt is the task's system prompt and the meaning."""
    from figeval.benchmarks.ffe_hallu.prompts import GENERATION_SYSTEM_PROMPT
    from figeval.benchmarks.ffe_hallu.tasks import ffe_generation

    judge = "replay/absent-judge.jsonl"
    samples = list(ffe_generation(judge=judge).dataset)[:10]
    model_tokens = sum(estimate(GENERATION_SYSTEM_PROMPT, sample.input) for sample in samples)
    judge_tokens = sum(generation_judge_prompts(10))
    output = dry_run(tmp_path, "ffe_generation", "-m", ABSENT, "-T", f"judge={judge}", "--limit", "10")
    assert figure(output, "model calls") == "10 (10 samples x 1 epoch)"
    assert figure(output, "prompt tokens").startswith(f"~{model_tokens:,} (estimate")
    assert figure(output, f"judge calls ({judge})") == "10 (one per answer; an empty answer is not asked)"
    assert figure(output, "judge prompt tokens").startswith(f"~{judge_tokens:,} without the answers")
    assert output.endswith(f"total: 10 samples, 20 model calls (10 to the model, 10 to judges), "
                           f"~{model_tokens + judge_tokens:,} prompt tokens (judge prompts without the answers)\n")


def test_a_judge_asked_only_where_rules_do_not_decide_is_an_upper_bound(ffe_hallu_imported: Path, tmp_path: Path):
    """judge_every_output=false: an answer equal to the reference, or unread, is decided without the judge, so its
    calls are at most one per answer, and its prompt (which holds the answer) cannot be rendered beforehand."""
    output = dry_run(tmp_path, "ffe_generation", "-m", ABSENT, "--model-role", "grader=openai/gpt-4o",
                     "-T", "judge_every_output=false", "--limit", "10")
    assert figure(output, "judge calls (openai/gpt-4o)") == ("at most 10 (one per answer the task's rules do not "
                                                             "decide without the judge)")
    assert figure(output, "judge prompt tokens").startswith("not counted: ")
    assert ", at most 20 model calls (10 to the model, at most 10 to judges), " in output


def test_several_tasks_each_with_the_arguments_it_takes(ffe_hallu_imported: Path, tmp_path: Path):
    """-T judge goes to ffe_generation only; the total adds up both tasks (40 + 10 samples, 40 + 10 + 10 calls)."""
    output = dry_run(tmp_path, "ffe_detection", "ffe_generation", "-m", ABSENT, "-T", "judge=openai/gpt-4o",
                     "--limit", "10")
    assert "ffe_detection (defaults): 10 samples\n" in output
    assert "ffe_generation (judge=openai/gpt-4o): 10 samples\n" in output
    assert "total: 20 samples, 30 model calls (20 to the model, 10 to judges), ~" in output


def test_an_extractor_is_asked_at_most_once_per_answer(ffe_hallu_imported: Path, tmp_path: Path):
    output = dry_run(tmp_path, "ffe_detection", "-m", ABSENT, "--model-role", "extractor=openai/gpt-4o-mini",
                     "--limit", "10")
    assert figure(output, "extractor calls (openai/gpt-4o-mini)").startswith("at most 10 (only answers the task's "
                                                                            "readers cannot read")
    assert "total: 10 samples, at most 20 model calls (10 to the model, at most 10 to extractors), ~" in output


@pytest.mark.parametrize("args, samples", [
    # the pattern matches the fakes of rows 1-9, each under both framings: 18 samples
    (["ffe_detection", "--sample-id", "ffe-fake-00*"], 18),
    # a task that asks each sample once keeps Inspect's range: samples 5 to 9
    (["ffe_generation", "-T", "judge=openai/gpt-4o", "--limit", "5-9"], 5),
])
def test_the_samples_the_run_would_take(args: list[str], samples: int, ffe_hallu_imported: Path, tmp_path: Path):
    output = dry_run(tmp_path, *args, "-m", ABSENT)
    assert figure(output, "model calls") == f"{samples} ({samples} samples x 1 epoch)"


@pytest.mark.parametrize("args, message", [
    (["nosuch"], "unknown task 'nosuch'; known tasks: "),
    (["ffe_generation"], "ffe_generation: this task needs a judge model: pass -T judge=provider/model"),
    (["ffe_detection", "ffe_generation", "-T", "judge=openai/gpt-4o", "-T", "nosuch=1"],
     "-T nosuch: none of ffe_detection, ffe_generation takes it; leave it out."),
    (["ffe_detection", "--model-role", "grader=openai/gpt-4o"], "--model-role grader= is not used: ffe_detection"),
    (["ffe_detection", "--limit", "41"], "--limit 41: ffe_detection asks each item 2 ways"),
])
def test_refused_in_one_line(args: list[str], message: str, ffe_hallu_imported: Path, tmp_path: Path):
    result = figeval("run", *args, "-m", ABSENT, "--log-dir", str(tmp_path / "logs"), "--dry-run")
    assert_one_line_error(result, message)
    assert not (tmp_path / "logs").exists()


def test_several_tasks_run_only_as_a_dry_run(ffe_hallu_imported: Path, tmp_path: Path):
    result = figeval("run", "ffe_detection", "ffe_generation", "-m", ABSENT, "--log-dir", str(tmp_path / "logs"))
    assert_one_line_error(result, "ffe_detection ffe_generation: give one TASK to run (several are planned "
                                  "together with --dry-run)")


@pytest.mark.slow
def test_the_plan_is_what_the_embedded_model_is_asked(ffe_hallu_imported: Path, tmp_path: Path):
    """On the embedded model the dry run counts with its own vocabulary: its calls and prompt tokens are the real
    run's model events and input tokens (Gemma's provider reports the prompt's tokens as input_tokens)."""
    pytest.importorskip("llama_cpp")
    from inspect_ai.log import list_eval_logs, read_eval_log

    output = dry_run(tmp_path, "ffe_detection", "--limit", "10")
    assert figure(output, "model calls") == "10 (10 samples x 1 epoch)"
    planned = figure(output, "prompt tokens")
    assert planned.endswith(" (gguf/gemma-3-270m's own vocabulary)") and not planned.startswith("~")
    ran = figeval("run", "ffe_detection", "--limit", "10", "--log-dir", str(tmp_path / "logs"), cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    [info] = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    calls = sum(1 for sample in log.samples for event in sample.events if event.event == "model")
    assert calls == 10
    assert planned.split()[0] == f"{log.stats.model_usage['gguf/gemma-3-270m'].input_tokens:,}"


# What a file given as `gguf/FILE` is instead of the weights, and the words its refusal says it with: a git-lfs
# pointer as a clone holds it before `git lfs pull` (its format's three lines), an empty file, and other bytes
# (the first 4 of "PK\x03\x04...", a zip, shown as Python writes bytes).
NOT_GGUF = {
    "lfs pointer": (b"version https://git-lfs.github.com/spec/v1\noid sha256:" + b"0" * 64 + b"\nsize 168004768\n",
                    "is a git-lfs pointer (a small text file naming the weights), not the weights; run `git lfs pull` "
                    "in the clone it is from, or download the .gguf file again"),
    "empty": (b"", "is empty (0 bytes), not a GGUF model; download the .gguf file again"),
    "other bytes": (b"PK\x03\x04" + bytes(60),
                    "is not a GGUF model: its first 4 bytes are b'PK\\x03\\x04', not b'GGUF'; download the .gguf "
                    "file again"),
}


@pytest.mark.parametrize("dry", [True, False], ids=["dry run", "run"])
@pytest.mark.parametrize("given_as", ["model", "judge"])
@pytest.mark.parametrize("kind", list(NOT_GGUF))
def test_a_model_file_that_is_not_gguf_is_refused_before_it_is_read(kind: str, given_as: str, dry: bool,
                                                                   ffe_hallu_imported: Path, tmp_path: Path):
    """As the model under test, or as the judge (which a scorer makes at the first answer it judges: the file is
    checked before the run's log is started all the same)."""
    content, what = NOT_GGUF[kind]
    model = tmp_path / "model.gguf"
    model.write_bytes(content)
    run = (["ffe_detection", "-m", f"gguf/{model}", "--limit", "10"] if given_as == "model" else
           ["ffe_generation", "-m", "mockllm/model", "--judge", f"gguf/{model}", "--limit", "5"])
    result = figeval("run", *run, "--log-dir", str(tmp_path / "logs"), *(["--dry-run"] if dry else []), cwd=tmp_path)
    assert_one_line_error(result, f"gguf: {model} {what}")
    assert not (tmp_path / "logs").exists()


@pytest.mark.parametrize("models", [["mockllm/model"], ["mockllm/model", "mockllm/other"]], ids=["one model", "two"])
def test_a_paper_run_s_judge_file_that_is_not_gguf_is_refused_before_any_log(models: list[str],
                                                                           ffe_hallu_imported: Path, tmp_path: Path):
    # a paper run of one model or of several: the judge is checked where the set's tasks are built
    content, what = NOT_GGUF["empty"]
    judge = tmp_path / "judge.gguf"
    judge.write_bytes(content)
    result = figeval("run", "--paper", "ffe-hallu", "--model", ",".join(models), "--judge", f"gguf/{judge}",
                     "--limit", "10", "--log-dir", str(tmp_path / "logs"), cwd=tmp_path)
    assert_one_line_error(result, f"gguf: {judge} {what}")
    assert not (tmp_path / "logs").exists()
