"""The figeval command as a user runs it: exit codes, one-line errors, the summary and the report."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.command import assert_one_line_error, figeval, figeval_subprocess
from tests.ffe_hallu.test_tasks import scripted_fake_answers, write_replay


def test_data_list_import_verify(shared_ffe_hallu: Path, isolated_data_dir: Path):
    listed = figeval("data", "list")
    assert listed.returncode == 0
    assert f"data dir: {isolated_data_dir}" in listed.stdout and "ffe-hallu: missing" in listed.stdout
    assert_one_line_error(figeval("data", "verify"), "missing or not matching", "figeval data fetch")

    imported = figeval("data", "import", "ffe-hallu", str(shared_ffe_hallu))
    assert imported.returncode == 0 and "verified" in imported.stdout
    verified = figeval("data", "verify", "ffe-hallu")
    assert verified.returncode == 0
    assert verified.stdout.splitlines() == ["ffe-hallu/Authentic FFEs.csv: ok", "ffe-hallu/Fake FFEs.csv: ok"]
    assert "ffe-hallu: present" in figeval("data", "list").stdout


def test_import_from_a_folder_without_the_files(tmp_path: Path):
    # `python -m figeval` in a process of its own, as a user runs it: the one test of figeval/__main__.py and of an
    # error's exit code through a real process exit (every other command here runs its entry point in process)
    assert_one_line_error(figeval_subprocess("data", "import", "ffe-hallu", str(tmp_path)),
                          "has no file 'Authentic FFEs.csv'")


def has_row(table: str, name: str, value: str, whole: bool = True) -> bool:
    """Whether a summary table has the row `name  value` (the column width follows the longest name); with
    whole=False, a row whose value begins so (what follows it may wrap onto the next lines)."""
    return re.search(rf"^{re.escape(name)} +{re.escape(value)}{'$' if whole else ''}", table,
                     re.MULTILINE) is not None


def test_run_then_report(ffe_hallu_imported: Path, tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", scripted_fake_answers())
    logs = tmp_path / "logs"
    ran = figeval("run", "ffe_detection", "--model", f"replay/{replay}", "-T", "controls=false", "--log-dir", str(logs))
    assert ran.returncode == 0, ran.stderr
    # The summary table ends the output, with the run's identity and its metrics as Table 4 prints them.
    # fake-q: rows 1-20 accepted and 21-30 unparsed (counted as accepting) of 200 -> 15.0%, its n the 200 fakes
    assert has_row(ran.stdout, "  Prompt-Fake Halluc.(%)", "15.0 [10.7, 20.6] (n=200), lower is better")
    assert has_row(ran.stdout, "  Agreement(%)", "90.0 [85.1, 93.4] (n=200), higher is better")
    assert has_row(ran.stdout, "samples", "400")

    tables = figeval("report", str(logs))
    assert tables.returncode == 0, tables.stderr
    # Table 4 in percent, with the paper's two decimals: fake-q 15.00, real-q 5.00, average 10.00, agreement 90.00,
    # unparsed 2.5 (ours, the usual one decimal); no controls. A cell whose own n is not the row's 400 samples says
    # it: each framing and agreement are over the 200 fakes.
    table_4 = tables.stdout.split("FFE-HALLU Table 4", 1)[1].split("\n\n", 1)[0]
    row = next(line for line in table_4.splitlines() if line.startswith("answers "))  # the file's stem names it
    assert row.split()[-9:] == ["15.00", "(n=200)", "5.00", "(n=200)", "10.00", "90.00", "(n=200)", "2.5", "-"]
    [run] = json.loads(figeval("report", str(logs), "--json").stdout)["runs"]
    assert run["task"] == "ffe_detection" and run["model"] == f"replay/{replay}" and run["samples"] == 400
    assert run["display_name"] == "answers"
    assert run["metrics"]["halluc_rate_avg"] == pytest.approx(0.1)  # (0.15 + 0.05) / 2
    assert run["metrics"]["unparsed_rate"] == pytest.approx(0.025)


def test_two_epochs_give_the_metrics_of_one(ffe_hallu_imported: Path, tmp_path: Path):
    # Framing agreement pairs each fake's two answers: each sample's epochs reduce to one outcome first.
    replay = write_replay(tmp_path / "answers.jsonl", scripted_fake_answers())
    ran = figeval("run", "ffe_detection", "--model", f"replay/{replay}", "-T", "controls=false", "--epochs", "2",
                  "--log-dir", str(tmp_path / "logs"))
    assert ran.returncode == 0, ran.stderr
    # the values of the one-epoch run above (test_run_then_report), over its 200 fakes, not 200 x 2 epochs
    assert has_row(ran.stdout, "  Prompt-Fake Halluc.(%)", "15.0 [10.7, 20.6] (n=200), lower is better")
    assert has_row(ran.stdout, "  Agreement(%)", "90.0 [85.1, 93.4] (n=200), higher is better")


def test_run_with_a_missing_replay_answer_says_which_and_how_to_resume(ffe_hallu_imported: Path, tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", {"ffe-fake-001/fake-q": "Yes"})
    result = figeval("run", "ffe_detection", "--model", f"replay/{replay}", "-T", "controls=false",
                     "--sample-id", "ffe-fake-001/fake-q,ffe-fake-002/fake-q",
                     "--log-dir", str(tmp_path / "logs"))
    assert_one_line_error(result, "no output for sample id 'ffe-fake-002/fake-q'", "inspect eval-retry")


@pytest.mark.parametrize(
    "text, expected",
    [("ضرب‌المثل مناسب:\nآب در هاون کوبیدن", "آب در هاون کوبیدن")],
)
def test_an_introduction_line_is_not_the_expression(text, expected):
    from figeval.benchmarks.ffe_hallu.expressions import chosen_equivalent, generated_expression

    assert generated_expression(text) == expected
    assert chosen_equivalent("Final answer:\nمعادل فارسی:\n" + expected) == expected


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["run", "ffe_detection", "-T", "bogus=1"], ["ffe_detection has no parameter bogus", "controls, answer_mode"]),
        (["run", "ffe_detection", "-T", "controls"], ["-T takes name=value"]),
        (["run", "ffe_detection", "-T", "controls=maybe"], ["-T controls='maybe' must be true or false"]),
        (["run", "allusion_mc", "-T", "seed=abc"], ["-T seed='abc' must be a whole number"]),
        (["run", "nosuch"], ["unknown task 'nosuch'", "ffe_detection"]),
        (["run", "ffe_detection", "-T", "answer_mode=guess"],
         ["answer_mode must be one of ['generate', 'logprob', 'auto']"]),
        (["report", "does-not-exist"], ["no log directory at 'does-not-exist'"]),
        (["data", "fetch", "nosuch"], ["unknown dataset 'nosuch'"]),
        (["run", "ffe_translation", "--model", "replay/x.jsonl"], ["ffe_translation needs -T pairs=PATH"]),
        (["run", "ffe_generation", "-T", "meaning=poetic"],
         ["meaning must be one of ['human', 'paraphrased'], not 'poetic'"]),
        (["annotate", "import", "nosuch.csv", "--out", "l.csv"],
         ["nosuch.csv: no such file; give the sheet `figeval annotate export` wrote"]),
        (["judge", "agreement", "nosuch", "--human", "l.csv"],
         ["l.csv: no such file; give the labels file `figeval annotate import` wrote"]),
        (["annotate", "export", "sheet.csv", "--out", "x.csv"], ["no log at 'sheet.csv'"]),
        (["run", "ffe_detection", "--limit", "0"], ["--limit 0: give a number of samples of 1 or more"]),
        # a file argument that looks like a number is still a file name
        (["run", "ffe_translation", "-T", "pairs=2024"], ["2024"]),
        (["run", "allusion_mc", "-T", "seed=1.5"], ["-T seed='1.5' must be a whole number"]),
        (["run", "ffe_detection", "--attempt-timeout", "soon"], ["--attempt-timeout"]),
        (["report", ".", "--out", "/dev/null"], ["--out /dev/null is a file; --out names a folder"]),
        (["run", "ffe_detection", "--fail-on-error", "x"],
         ["Invalid value for '--fail-on-error'", "figeval run --help"]),
    ],
)
def test_bad_input_is_one_line(args, fragments, ffe_hallu_imported: Path, tmp_path: Path):
    assert_one_line_error(figeval(*args, cwd=tmp_path), *fragments)


def test_inspect_eval_finds_the_task_through_the_entry_point(ffe_hallu_imported: Path, tmp_path: Path):
    replay = write_replay(tmp_path / "answers.jsonl", {"ffe-fake-001/fake-q": "Yes", "ffe-fake-002/fake-q": "No"})
    # Inspect's own command in a process of its own: in this one, figeval's tasks are registered already, and the
    # test would pass without the entry point
    result = subprocess.run(
        [Path(sys.executable).parent / "inspect", "eval", "figeval/ffe_detection", "--model", f"replay/{replay}",
         "-T", "controls=false", "--limit", "2", "--log-dir", str(tmp_path / "logs"), "--display", "plain"],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr
    # fake-001 "Yes" (is it fake? yes) rejects it; fake-002 "No" accepts it as real: 1 of 2
    assert re.search(r"halluc_rate_fake_q +0\.500", result.stdout)


def test_run_a_judged_task_with_the_judge_given_as_a_task_argument(ffe_hallu_imported: Path, tmp_path: Path):
    outputs = write_replay(tmp_path / "outputs.jsonl",
                           {"ffe-gen-001/human": "به بار اوردن", "ffe-gen-002/human": "پا پس کشیدن"})
    judge = write_replay(tmp_path / "judge.jsonl", {"ffe-gen-002/human": '{"label": 2, "reason": "other meaning"}',
                                                    "ffe-gen-001/human": '{"label": 1}'})  # beside the rule (Table 6)
    ran = figeval("run", "ffe_generation", "--model", f"replay/{outputs}", "-T", f"judge=replay/{judge}",
                  "--limit", "2", "--log-dir", str(tmp_path / "logs"))
    assert ran.returncode == 0, ran.stderr
    # the summary says what the numbers depend on: the judge, its prompt, the meaning source, the prompt version
    assert has_row(ran.stdout, "judge", f"replay/{judge}") and has_row(ran.stdout, "judge_prompt", "paper")
    assert (has_row(ran.stdout, "meaning", "human")
            and has_row(ran.stdout, "prompt_version", "ffe-generation-v5+ffe-judge-v3"))
    # 001 matches its reference (correct), 002 answers row 12's FFE, judged incorrect: 1/2 each (50.0%, Wilson
    # 9.5-90.5), over the 2 answers, Table 3's columns of the human meanings
    assert (has_row(ran.stdout, "  human Correct(%)", "50.0 [9.5, 90.5] (n=2), higher is better", whole=False)
            and has_row(ran.stdout, "  human Incorrect(%)", "50.0 [9.5, 90.5] (n=2)", whole=False))
    # --limit 2 of the task's 200 samples: a task that asks each sample once and reports no groups takes the first
    assert re.search(r"^subset +limit 2: the first 2 of 200 samples \(the task asks each sample once", ran.stdout,
                     re.MULTILINE)


def test_a_file_operation_no_check_foresaw_is_one_line_naming_the_path(tmp_path: Path):
    from unittest import mock

    refused = PermissionError(13, "Permission denied", str(tmp_path / "logs" / "run.eval"))
    with mock.patch("figeval.results.report.build_report", side_effect=refused):
        result = figeval("report", str(tmp_path), cwd=tmp_path)
    assert_one_line_error(result, f"{tmp_path / 'logs' / 'run.eval'}: Permission denied; check that the path")


# --- error messages name only options their command has ----------------------------------------------------

# (module, option, command module) of a message its command never shows: `figeval run --paper` builds its tables
# with every task of the paper, so build_report's refusal of --task is report's (its --baseline is run's too).
NEVER_SHOWN = {("figeval.results.report", "--task", "figeval.cli.run")}


def options_named_in_errors(source: str) -> dict[int, set[str]]:
    """The `--options` each `FigevalError(...)` of a module names, by line; an option in a quoted command line
    (`figeval run --log-dir`, `inspect eval ...`) is that command's and is not counted."""
    import ast

    named = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "FigevalError":
            text = "".join(part.value for arg in node.args for part in ast.walk(arg)
                           if isinstance(part, ast.Constant) and isinstance(part.value, str))
            options = set(re.findall(r"(?<![\w-])--[a-z][\w-]*", re.sub(r"`(figeval|inspect) [^`]*`", "", text)))
            if options:
                named[node.lineno] = options
    return named


def test_options_named_in_errors_are_options_of_their_command():
    import ast

    import click

    from figeval.cli import cli
    from tests.conftest import REPO_ROOT

    def owner(module: str) -> str:  # `figeval run`'s package is one command's
        return "figeval.cli.run" if module.startswith("figeval.cli.run.") else module

    def leaves(group: click.Group) -> list[click.Command]:
        context = click.Context(group)
        found = [group.get_command(context, name) for name in group.list_commands(context)]
        return [leaf for command in found if command is not None
                for leaf in (leaves(command) if isinstance(command, click.Group) else [command])]

    options: dict[str, set[str]] = {}  # a module's commands' options, by the module
    for command in leaves(cli):
        options.setdefault(owner(command.callback.__module__), {"--help"}).update(
            name for parameter in command.params for name in parameter.opts if name.startswith("--"))
    sources = {".".join(path.relative_to(REPO_ROOT / "src").with_suffix("").parts).removesuffix(".__init__"):
               path.read_text(encoding="utf-8") for path in (REPO_ROOT / "src" / "figeval").rglob("*.py")}
    importers: dict[str, set[str]] = {}
    for module, source in sources.items():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.module in sources:
                importers.setdefault(node.module, set()).add(owner(module))
    wrong, checked = set(), 0
    for module, source in sources.items():
        # a command's module, or a helper module a command's module imports (the commands that show its messages)
        commands = [owner(module)] if owner(module) in options else [user for user in importers.get(module, ())
                                                                     if user in options]
        for named in options_named_in_errors(source).values():
            checked += bool(commands)
            wrong |= {(module, option, command) for command in commands for option in named - options[command]}
    assert wrong == NEVER_SHOWN
    assert checked >= 54  # every message naming an option in a command module or a helper of one (54 today)


def test_the_scan_finds_an_option_the_command_lacks():
    source = ('raise FigevalError(f"no logs in {d}; pass the --log-dir, or `figeval run --model M` again")\n'
              'raise FigevalError("nothing named")\n')
    assert options_named_in_errors(source) == {1: {"--log-dir"}}
