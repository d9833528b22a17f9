"""`figeval run` options that Inspect would hang on, trace back on, or run with nothing selected: each refused in
one `error:` line naming the option and the fix (exit 2), before the run's log is started."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.command import assert_one_line_error, figeval
from tests.ffe_hallu.test_tasks import write_replay
from tests.test_cli import has_row


def detection(tmp: Path, *args: str) -> list[str]:
    """ffe_detection without controls on a replay of the first fake under fake-q (its first sample)."""
    replay = write_replay(tmp / "det.jsonl", {"ffe-fake-001/fake-q": "Yes"})
    return ["run", "ffe_detection", "-m", f"replay/{replay}", "-T", "controls=false", "--log-dir", str(tmp / "logs"),
            *args]


CASES = [
    # Inspect waits for ever on a count of 0 (no output at all).
    (["--limit", "1", "--max-connections", "0"], "--max-connections 0: give a whole number of 1 or more"),
    (["--limit", "1", "--max-samples", "0"], "--max-samples 0: give a whole number of 1 or more"),
    (["--limit", "1", "--max-samples", "-3"], "--max-samples -3: give a whole number of 1 or more"),
    # Inspect: a 183-line ExceptionGroup after the log was started.
    (["--limit", "1", "--epochs", "-1"], "--epochs -1: give a whole number of 1 or more"),
    # int("abc") in Inspect's parse_samples_limit: a ValueError traceback.
    (["--limit", "abc"], "--limit abc: give N (N samples: whole items of every group the task reports by) or "
                         "START-END"),
    # Inspect reads 5-2 as the slice [4:2]: no sample, exit 0.
    (["--limit", "5-2"], "--limit 5-2 selects no sample; give N or START-END with START <= END"),
    # 0-3 would be the slice [-1:3]: samples are numbered from 1.
    (["--limit", "0-3"], "--limit 0-3: samples are counted from 1"),
    # controls=false leaves the 200 fakes under fake-q and real-q: 400 samples, so 401 starts after the last.
    (["--limit", "401-402"], "--limit 401-402 selects no sample: ffe_detection has 400"),
    # Inspect refuses the pair with a ValueError once the log is started.
    (["--limit", "1", "--sample-id", "ffe-fake-001/fake-q"], "--limit 1 and --sample-id ffe-fake-001/fake-q: give one"),
    # Inspect: LookupError "nosuch was not found in the registry" (a traceback).
    (["--limit", "1", "--epochs", "2", "--epochs-reducer", "nosuch"], "--epochs-reducer nosuch: no reducer 'nosuch'"),
    (["--limit", "1", "--epochs-reducer", "mean,nosuch"], "no reducer 'nosuch'; give mean, median"),
    # Inspect: PrerequisiteError tracebacks.
    (["--limit", "1", "--task-config", "nosuch.yaml"], "--task-config nosuch.yaml: no such file"),
    (["--limit", "1", "--model-config", "nosuch.yaml"], "--model-config nosuch.yaml: no such file"),
    # Inspect: a yaml.YAMLError traceback; "temperature: [" leaves the list open until the end of the file, line 2.
    (["--limit", "1", "--generate-config", "bad.yaml"], "--generate-config bad.yaml: not valid YAML or JSON at line 2"),
    (["--limit", "1", "--generate-config", "extra.yaml"], "--generate-config extra.yaml: no generation setting nosuch"),
    (["--limit", "1", "--generate-config", "hot.yaml"], "--generate-config hot.yaml: temperature is 'hot'"),
    (["--limit", "1", "--generate-config", "list.yaml"], "--generate-config list.yaml: holds list, not name: value"),
    # Inspect's documented rule, a PrerequisiteError traceback there; with --task-config, which figeval applies
    # itself, the run config's task arguments would have been dropped.
    (["--limit", "1", "--run-config", "cool.yaml", "--generate-config", "cool.yaml"],
     "--run-config cool.yaml and --generate-config cool.yaml: give one of them"),
    (["--limit", "1", "--run-config", "cool.yaml", "--task-config", "cool.yaml"],
     "--run-config cool.yaml and --task-config cool.yaml: give one of them"),
    # Inspect: "run error: list index out of range" after the log was started.
    (["--limit", "1", "--time-limit", "0"], "--time-limit 0: give a whole number of 1 or more"),
    (["--limit", "1", "--message-limit", "0"], "--message-limit 0: give a whole number of 1 or more"),
    # --limit keeps the design (figeval.subset; tests/test_subset.py): without controls each of the 200 fakes is
    # asked under 2 framings and reported by 4 categories, so N is even and 8 (one item per category) or more.
    (["--limit", "41"], "--limit 41: ffe_detection asks each item 2 ways (framings) and reports by category "
                        "(4 strata); give an even N from 8 to 400, or --sample-id for samples of your choice."),
    (["--limit", "2"], "--limit 2: ffe_detection asks each item 2 ways (framings) and reports by category"),
    (["--limit", "5-10"], "--limit 5-10: ffe_detection asks each item 2 ways (framings) and reports by category "
                          "(4 strata); a range of samples would split them: give --limit N (an even N from 8 to 400)"),
    (["--sample-id", "ffe-fake-001/fake-q", "--name", " "], "--name is empty"),
    (["--sample-id", "ffe-fake-001/fake-q", "--name", "a", "--metadata", "display-name=b"],
     "--name a and --metadata display_name=...: give one of them."),
    # Inspect warns in its log and runs nothing: exit 1 and no message under --display none. The first sample
    # of ffe_detection without controls is the first fake under fake-q.
    (["--sample-id", "nosuch", "--display", "none"],
     "no sample 'nosuch' in ffe_detection; ids look like ffe-fake-001/fake-q"),
    (["--sample-id", "ffe-fake-001/fake-q,nosuch*"], "no sample 'nosuch*' in ffe_detection"),
]
CONFIG_FILES = {"bad.yaml": "temperature: [\n", "extra.yaml": "temperature: 0.5\nnosuch: 1\n",
                "hot.yaml": "temperature: hot\n", "cool.yaml": "temperature: 0.5\n",
                "list.yaml": "- temperature: 0.5\n"}


@pytest.mark.parametrize("args, message", CASES, ids=[" ".join(args) for args, _ in CASES])
def test_refused(args: list[str], message: str, ffe_hallu_imported: Path, tmp_path: Path):
    for name, text in CONFIG_FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = figeval(*detection(tmp_path, *args), cwd=tmp_path)
    assert_one_line_error(result, message)
    assert not (tmp_path / "logs").exists()  # refused before the log was started


def test_task_config_applies_to_the_task(ffe_hallu_imported: Path, tmp_path: Path):
    """--task-config's arguments reach the task figeval builds (Inspect applies none to a task handed built);
    -T overrides the file, as in `inspect eval`. controls=false from the file: the run line says so."""
    (tmp_path / "task.yaml").write_text("controls: false\nanswer_mode: auto\n", encoding="utf-8")
    replay = write_replay(tmp_path / "det.jsonl", {"ffe-fake-001/fake-q": "Yes"})
    result = figeval("run", "ffe_detection", "-m", f"replay/{replay}", "--task-config", "task.yaml",
                     "-T", "answer_mode=generate", "--sample-id", "ffe-fake-001/fake-q", "--log-dir",
                     str(tmp_path / "logs"),
                     cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "(controls=False, answer_mode=generate)" in result.stdout


def test_sample_id_pattern_accepted(ffe_hallu_imported: Path, tmp_path: Path):
    """A glob that matches (Inspect's fnmatch) is not refused: exactly the one sample named runs."""
    result = figeval(*detection(tmp_path, "--sample-id", "ffe-fake-001/fake-*"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    # ffe-fake-001 under fake-q and real-q: the pattern's fake-* matches only the first
    assert has_row(result.stdout, "samples", "1") and "Traceback" not in result.stderr


def test_a_missing_provider_sdk_names_figevals_extra(ffe_hallu_imported: Path, tmp_path: Path, monkeypatch):
    import importlib.util

    if importlib.util.find_spec("anthropic") is not None:
        pytest.skip("the anthropic SDK is installed here: Inspect does not refuse the provider")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "not-used")
    result = figeval("run", "ffe_detection", "-m", "anthropic/claude-3-5-haiku-latest",
                     "--sample-id", "ffe-fake-001/fake-q",
                     "--log-dir", str(tmp_path / "logs"), cwd=tmp_path)
    # Inspect's "[bold]ERROR[/bold]: ... Install with:\n\npip install anthropic", as one plain line naming the
    # extra pyproject declares for that SDK
    assert_one_line_error(result, "Anthropic API requires optional dependencies. Install with: "
                                  "pip install 'figeval[anthropic]'")


def all_detection_answers(tmp: Path, answer: str) -> Path:
    """A replay answering every ffe_detection sample (200 fakes and 200 controls, both framings) with `answer`."""
    return write_replay(tmp / "all.jsonl", {f"ffe-{kind}-{row:03d}/{framing}": answer for kind in ("fake", "real")
                                            for row in range(1, 201) for framing in ("fake-q", "real-q")})


LIMIT_40_RULE = ("limit 40: 40 of 800 samples, 20 items x 2 framings (fake-q, real-q), in proportion by kind and "
                 "category (fake Word Perturbation 3, fake Semantic Inversion / Contradiction 3, fake Phonetic / "
                 "Poetic Mimicry 2, fake Cultural Fabrication 2, real 10)")


def test_limit_runs_whole_items_of_every_stratum_by_id(ffe_hallu_imported: Path, tmp_path: Path):
    """`--limit 40` on ffe_detection: 20 items under both framings, the controls in proportion (10 of the 20; the
    ids are derived in tests/test_subset.py), run by id so that Inspect's log says which samples ran, and the rule
    printed and recorded in the log's metadata."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    replay = all_detection_answers(tmp_path, "Yes")
    result = figeval("run", "ffe_detection", "-m", f"replay/{replay}", "--limit", "40", "--log-dir",
                     str(tmp_path / "logs"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"subset: {LIMIT_40_RULE}\n" in result.stdout
    [info] = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    assert log.eval.config.limit is None and len(log.eval.config.sample_id) == 40
    assert log.eval.metadata["subset"] == LIMIT_40_RULE
    assert sorted({sample.id.split("/")[0] for sample in log.samples}) == sorted(
        [f"ffe-fake-{row:03d}" for row in (1, 2, 3, 51, 52, 53, 101, 102, 151, 152)]
        + [f"ffe-real-{row:03d}" for row in range(1, 11)])
    # "Yes" to everything: fakes rejected under fake-q (0 of 10 accepted) and accepted under real-q (10 of 10),
    # average 0.5 over 20 answers, no item answered alike under both (agreement 0 of 10); controls rejected under
    # fake-q only: false rejection 10 of 20 answers
    assert has_row(result.stdout, "  Prompt-Fake Halluc.(%)", "0.0 [0.0, 27.8] (n=10), lower is better")
    assert has_row(result.stdout, "  Prompt-Real Halluc.(%)", "100.0 [72.2, 100.0] (n=10), lower is better")
    assert has_row(result.stdout, "  Avg(%)", "50.0 [29.9, 70.1] (n=20), lower is better, the task's headline")
    assert has_row(result.stdout, "  Agreement(%)", "0.0 [0.0, 27.8] (n=10), higher is better")
    assert has_row(result.stdout, "  Real FFEs rejected(%) *", "50.0 [29.9, 70.1] (n=20), lower is better")


def test_name_is_the_runs_display_name_beside_the_users_metadata(ffe_hallu_imported: Path, tmp_path: Path):
    from inspect_ai.log import list_eval_logs, read_eval_log

    replay = write_replay(tmp_path / "det.jsonl", {"ffe-fake-001/fake-q": "Yes"})
    # a comma and a YAML word: --metadata would have made a list and a boolean of them
    result = figeval("run", "ffe_detection", "-m", f"replay/{replay}", "--sample-id", "ffe-fake-001/fake-q",
                     "--name", "Gemma 3, base: yes", "--metadata", "team=nlp", "--log-dir",
                     str(tmp_path / "logs"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    [info] = list_eval_logs(str(tmp_path / "logs"))
    metadata = read_eval_log(info, header_only=True).eval.metadata
    assert metadata["display_name"] == "Gemma 3, base: yes" and metadata["team"] == "nlp"
    assert metadata["benchmark"] == "FFE-HALLU Task 2 (detection of fabricated FFEs)"  # the task's own kept


# A judge the user typed as --judge is named so in its refusal (it was named as the -T judge= it stands for), and the
# same judge given as -T judge= still is.
JUDGE_REFUSALS = [
    (["ffe_generation", "--judge", "nosuch/x"], "--judge nosuch/x: unknown provider 'nosuch'; give provider/model"),
    (["ffe_generation", "-T", "judge=nosuch/x"], "-T judge=nosuch/x: unknown provider 'nosuch'; give provider/model"),
    (["ffe_generation", "--judge", "openai/gpt-4o", "--model-role", "grader=openai/gpt-4o"],
     "--model-role grader= is not used: --judge openai/gpt-4o is ffe_generation's judge; give one of them."),
    (["ffe_detection", "--judge", "openai/gpt-4o"],
     "--judge openai/gpt-4o: ffe_detection is not judged (it takes no judge); leave --judge out."),
]


@pytest.mark.parametrize("dry", [True, False], ids=["dry run", "run"])
@pytest.mark.parametrize("args, message", JUDGE_REFUSALS)
def test_a_judge_is_named_as_the_user_gave_it(args: list[str], message: str, dry: bool, ffe_hallu_imported: Path,
                                              tmp_path: Path):
    result = figeval("run", *args, "-m", "replay/absent.jsonl", "--log-dir", str(tmp_path / "logs"),
                     *(["--dry-run"] if dry else []), cwd=tmp_path)
    assert_one_line_error(result, message)
    assert not (tmp_path / "logs").exists()


def test_a_run_on_inspect_s_mock_model_needs_no_network(ffe_hallu_imported: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch):
    """`mockllm/model` makes up each output's token usage; Inspect counted the prompt with tiktoken, which downloads
    its encoding on first use: offline, the run ended in a ConnectionError. tiktoken is made to fail here as it does
    offline (whether this machine has a network or a cached encoding)."""
    import tiktoken

    def offline(*args: object, **kwargs: object) -> None:
        raise ConnectionError("openaipublic.blob.core.windows.net: Name or service not known")

    monkeypatch.setattr(tiktoken, "get_encoding", offline)
    monkeypatch.setattr(tiktoken, "encoding_for_model", offline)
    # a build asks its model outside any run (first: the count is set once per process)
    built = figeval("build", "ffe-hallu-paraphrases", "--model", "mockllm/model", "--out", str(tmp_path / "sheet.csv"),
                    cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert "Traceback" not in built.stderr and (tmp_path / "sheet.csv").is_file()
    result = figeval("run", "ffe_detection", "--model", "mockllm/model", "--limit", "10", "--log-dir",
                     str(tmp_path / "logs"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "error" not in result.stderr.lower() and "Traceback" not in result.stderr
