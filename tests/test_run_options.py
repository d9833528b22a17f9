"""`figeval run` options that Inspect would hang on, trace back on, or run with nothing selected: each refused in
one `error:` line naming the option and the fix (exit 2), before the run's log is started."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ffe_hallu.test_tasks import write_replay
from tests.test_bad_inputs import figeval_in_process
from tests.test_cli import assert_one_line_error, has_row


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
    (["--limit", "abc"], "--limit abc: give N (the first N samples) or START-END"),
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
    # Inspect warns in its log and runs nothing: exit 1 and no message under --display none. The first sample
    # of ffe_detection without controls is the first fake under fake-q.
    (["--sample-id", "nosuch", "--display", "none"],
     "no sample 'nosuch' in ffe_detection; ids look like ffe-fake-001/fake-q"),
    (["--sample-id", "ffe-fake-001/fake-q,nosuch*"], "no sample 'nosuch*' in ffe_detection"),
]
CONFIG_FILES = {"bad.yaml": "temperature: [\n", "extra.yaml": "temperature: 0.5\nnosuch: 1\n",
                "hot.yaml": "temperature: hot\n", "cool.yaml": "temperature: 0.5\n", "list.yaml": "- temperature: 0.5\n"}


@pytest.mark.parametrize("args, message", CASES, ids=[" ".join(args) for args, _ in CASES])
def test_refused(args: list[str], message: str, ffe_hallu_imported: Path, tmp_path: Path):
    for name, text in CONFIG_FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = figeval_in_process(*detection(tmp_path, *args), cwd=tmp_path)
    assert_one_line_error(result, message)
    assert not (tmp_path / "logs").exists()  # refused before the log was started


def test_task_config_applies_to_the_task(ffe_hallu_imported: Path, tmp_path: Path):
    """--task-config's arguments reach the task figeval builds (Inspect applies none to a task handed built);
    -T overrides the file, as in `inspect eval`. controls=false from the file: the run line says so."""
    (tmp_path / "task.yaml").write_text("controls: false\nanswer_mode: auto\n", encoding="utf-8")
    replay = write_replay(tmp_path / "det.jsonl", {"ffe-fake-001/fake-q": "Yes"})
    result = figeval_in_process("run", "ffe_detection", "-m", f"replay/{replay}", "--task-config", "task.yaml",
                                "-T", "answer_mode=generate", "--limit", "1", "--log-dir", str(tmp_path / "logs"),
                                cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "(controls=False, answer_mode=generate)" in result.stdout


def test_sample_id_pattern_accepted(ffe_hallu_imported: Path, tmp_path: Path):
    """A glob that matches (Inspect's fnmatch) is not refused: exactly the one sample named runs."""
    result = figeval_in_process(*detection(tmp_path, "--sample-id", "ffe-fake-001/fake-*"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    # ffe-fake-001 under fake-q and real-q: the pattern's fake-* matches only the first
    assert has_row(result.stdout, "samples", "1") and "Traceback" not in result.stderr


def test_a_missing_provider_sdk_names_figevals_extra(ffe_hallu_imported: Path, tmp_path: Path, monkeypatch):
    import importlib.util

    if importlib.util.find_spec("anthropic") is not None:
        pytest.skip("the anthropic SDK is installed here: Inspect does not refuse the provider")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "not-used")
    result = figeval_in_process("run", "ffe_detection", "-m", "anthropic/claude-3-5-haiku-latest", "--limit", "1",
                                "--log-dir", str(tmp_path / "logs"), cwd=tmp_path)
    # Inspect's "[bold]ERROR[/bold]: ... Install with:\n\npip install anthropic", as one plain line naming the
    # extra pyproject declares for that SDK
    assert_one_line_error(result, "Anthropic API requires optional dependencies. Install with: "
                                  "pip install 'figeval[anthropic]'")
