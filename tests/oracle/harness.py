"""Runs as a researcher makes them, and what the oracle knows of each: the answers it scripted (one intended outcome
per sample), the settings it gave, and which samples the run asked.

Each run goes through `figeval run` (or `figeval run --paper`) with replayed answers, as a user's would; the oracle
reads back from the log only what the run did (which samples it asked, when it was made, its prompt version and
whether it finished), never a metric. Before anything is computed, each scripted answer is checked to have been read
as intended (the premise of the oracle: the answer shapes used here are ones figeval reads), so that every mismatch
found later is a table's, not a reader's.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log

from tests.command import figeval

UNREAD = None
"""An intended outcome: the answer is unreadable (no label)."""
JUDGE_UNREADABLE = "judge unreadable"
"""An intended outcome of a judged task: the judge's answer is unreadable (left out of every rate)."""


@dataclass
class Sample:
    id: str
    target: str
    metadata: dict


@dataclass
class Answer:
    """A scripted answer: what the model says (`text`), what the judge says of it (`judge`), and the outcome the
    oracle intends (`label`, UNREAD or JUDGE_UNREADABLE); `by_rule` where a paper's rule decides it, whatever the
    judge says; `judge_label`, the judge's own label (Table 6's), where the judge gave one."""

    sample: Sample
    label: str | None
    text: str
    judge: str | None = None
    judge_label: str | None = None
    by_rule: bool = False


@dataclass
class TaskModel:
    """What the oracle knows of a task, written from its paper and README, not from figeval's code."""

    name: str
    labels: tuple[str, ...]
    answer: Callable[[Sample, str | None, random.Random, Mapping[str, str]], Answer]
    """A scripted answer with the intended outcome, for a run with the given arguments."""
    parameters: Mapping[str, object]
    """Every parameter and its default (each is part of the run's identity)."""
    files: frozenset[str] = frozenset()
    own: frozenset[str] = frozenset()
    judged: bool = False
    policy_unread: str = "wrong"
    """How the paper counts an unread answer: `wrong`, or a label it counts as."""


@dataclass
class Run:
    """A run the oracle made, and what it knows of it."""

    task: TaskModel
    model: str
    """The model as reports name it (its replay file's stem, or --name)."""
    args: dict[str, str]
    answers: dict[str, Answer]
    limit: int | None = None
    order: int = 0
    log: str = ""
    asked: list[str] = field(default_factory=list)
    complete: bool = True
    version: str = ""
    files: dict[str, str] = field(default_factory=dict)
    """Parameter -> the file's identity (name@sha8), as the oracle computed it."""
    judge_path: str = ""
    temperature: str = "0.0"
    """The decoding's temperature (`--temperature`; figeval's default decodes greedily)."""
    max_tokens: str | None = None
    """The decoding's token limit (figeval's default: none; a paper that states one sets it for a paper run)."""
    raw_model: str = ""
    """The model as the log records it (`replay/<file>`), as annotation sheets and labels name it."""

    @property
    def settings(self) -> dict[str, str]:
        """The run's identity as the issue defines it: every parameter (given or default; a file by name and
        checksum), the prompt version, the judge, the answer mode as asked, the decoding."""
        found: dict[str, str] = {"prompt_version": self.version}
        for name, default in self.task.parameters.items():
            value = self.args.get(name, default)
            if value is None:
                continue
            if name in self.task.files:
                found[name] = self.files[name]
            elif isinstance(value, bool) or (isinstance(value, str) and value in ("true", "false")):
                found[name] = str(value if isinstance(value, bool) else value == "true")
            else:
                found[name] = str(value)
        if found.get("answer_mode") == "auto":
            found["answer_mode"] = "generate"  # a replay model is asked in generate mode
        limit = {"max_tokens": self.max_tokens} if self.max_tokens else {}
        return found | {"temperature": self.temperature, "top_p": "1.0"} | limit

    @property
    def own(self) -> frozenset[str]:
        return self.task.own | {"prompt_version"}

    def outcomes(self) -> list[Answer]:
        """The answers of the samples the run asked."""
        return [self.answers[sample_id] for sample_id in self.asked]


class World:
    """A folder of runs: replay files per model, logs, and the commands that made them."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.logs = folder / "logs"
        self.models = folder / "models"
        self.models.mkdir(parents=True, exist_ok=True)
        self.made: list[Run] = []

    def samples(self, task: str, args: Mapping[str, str]) -> list[Sample]:
        from tests.command import make_task

        built = make_task(task, {key: value for key, value in args.items() if key != "judge"} | (
            {"judge": "replay/none.jsonl"} if "judge" in args else {}))
        return [Sample(str(s.id), str(s.target), dict(s.metadata or {})) for s in built.dataset]

    def replay(self, path: Path, texts: Mapping[str, str]) -> None:
        """The replay file keeps every sample's latest text: a model's runs of other tasks are still answered."""
        found = {}
        if path.exists():
            found = {json.loads(line)["id"]: json.loads(line)["output"]
                     for line in path.read_text("utf-8").splitlines()}
        found |= texts
        path.write_text("".join(json.dumps({"id": key, "output": value}, ensure_ascii=False) + "\n"
                                for key, value in found.items()), encoding="utf-8")

    def run(self, run: Run, folder: str = "", name: str | None = None) -> Run:
        """Makes the run with `figeval run`; `folder` puts the model's replay file in a subfolder (tasks whose
        sample ids collide need a file each), `name` is its --name."""
        models = self.models / folder
        models.mkdir(parents=True, exist_ok=True)
        model_file = models / f"{run.model if name is None else name}.jsonl"
        self.replay(model_file, {key: answer.text for key, answer in run.answers.items()})
        args = dict(run.args)
        if run.task.judged:  # one judge per model, whatever folder its answers are in
            judge_file = self.models / f"judge-{run.model}.jsonl"
            self.replay(judge_file, {key: answer.judge or "" for key, answer in run.answers.items()})
            args["judge"] = f"replay/{judge_file}"
            run.judge_path = args["judge"]
        before = {info.name for info in list_eval_logs(str(self.logs), recursive=True)} if self.logs.exists() else set()
        command = ["run", run.task.name, "--model", f"replay/{model_file}", "--log-dir", str(self.logs)]
        command += [part for key, value in args.items() for part in ("-T", f"{key}={value}")]
        command += ["--limit", str(run.limit)] if run.limit else []
        command += ["--name", name] if name is not None else []
        command += ["--temperature", run.temperature] if run.temperature != "0.0" else []
        result = figeval(*command, cwd=self.folder)
        assert result.returncode == 0, (command, result.stdout[-2000:], result.stderr[-3000:])
        [made] = [info.name for info in list_eval_logs(str(self.logs), recursive=True) if info.name not in before]
        return self.record(run, made, args)

    def paper(self, paper: str, model: str, runs: list[Run], extra: Mapping[str, str] | None = None,
              limit: int | None = None) -> list[Run]:
        """Makes a paper's protocol with `figeval run --paper`: `runs` are the protocol's runs, each with the
        arguments the protocol gives it (files the user gives are in `extra`, `-T NAME=VALUE`), on `--limit`
        samples of each when given."""
        model_file = self.models / f"{model}.jsonl"
        for run in runs:
            self.replay(model_file, {key: answer.text for key, answer in run.answers.items()})
        command = ["run", "--paper", paper, "--model", f"replay/{model_file}", "--log-dir", str(self.logs)]
        judge_file = self.models / f"judge-{model}.jsonl"
        if any(run.task.judged for run in runs):
            for run in runs:
                self.replay(judge_file, {key: answer.judge or "" for key, answer in run.answers.items()})
            command += ["--judge", f"replay/{judge_file}"]
        command += [part for key, value in (extra or {}).items() for part in ("-T", f"{key}={value}")]
        command += ["--limit", str(limit)] if limit else []
        before = {info.name for info in list_eval_logs(str(self.logs), recursive=True)} if self.logs.exists() else set()
        result = figeval(*command, cwd=self.folder)
        assert result.returncode == 0, (command, result.stdout[-2000:], result.stderr[-3000:])
        made = [info.name for info in list_eval_logs(str(self.logs), recursive=True) if info.name not in before]
        recorded = []
        for location in made:
            header = read_eval_log(location, header_only=True)
            task = header.eval.task.split("/")[-1]
            given = {key: str(value) for key, value in (header.eval.task_args_passed or {}).items()}
            [run] = [run for run in runs if run.task.name == task
                     and all(given.get(key) == value for key, value in run.args.items() if key != "judge")]
            args = {"judge": f"replay/{judge_file}"} if run.task.judged else {}
            run.judge_path = args.get("judge", "")
            recorded.append(self.record(run, location, args))
        assert len(recorded) == len(runs), (runs, made)
        return recorded

    def record(self, run: Run, location: str, args: Mapping[str, str]) -> Run:
        """What the log says the run did: the samples it asked, its prompt version, whether it ran them all; and
        the premise: each answer read as the oracle intended."""
        from figeval.scoring.outcome import outcome_of

        log = read_eval_log(location)
        assert log.status == "success", (location, log.error)
        run.log = location.removeprefix("file://")
        run.version = str(log.eval.task_version)
        run.raw_model = log.eval.model
        run.asked = [str(sample.id) for sample in log.samples or []]
        run.complete = log.eval.dataset.samples == len(run.asked)
        run.order = len(self.made)
        if "judge" in args:
            run.args["judge"] = args["judge"]
        for sample in log.samples or []:
            [score] = (sample.scores or {}).values()
            outcome = outcome_of(score)
            intended = run.answers[str(sample.id)]
            got = JUDGE_UNREADABLE if outcome.status.value == "judge_unparsed" else (
                UNREAD if outcome.is_unparsed else outcome.label)
            assert got == intended.label, (run.task.name, sample.id, intended, outcome)
        self.made.append(run)
        return run


def file_identity(path: Path) -> str:
    import hashlib

    return f"{path.name}@{hashlib.sha256(path.read_bytes()).hexdigest()[:8]}"
