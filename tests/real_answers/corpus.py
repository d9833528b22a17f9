"""The corpus of real answer shapes (see README.md beside this file): loading it and scoring it with a task's own
scorer, as Inspect would call it for one sample."""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from inspect_ai.model import ChatMessageUser, ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import SampleScore, Score, Target
from inspect_ai.solver import TaskState

from figeval.scoring.reading_metrics import read_layer
from figeval.scoring.outcome import Outcome, outcome_of

CORPUS = Path(__file__).parent
# A chat model's name: the tasks' `auto` answer mode reads it in generate mode.
CHAT_MODEL = "openai/gpt-4.1"


@dataclass(frozen=True)
class Entry:
    id: str
    family: str
    metadata: dict[str, Any]
    output: str
    person: Any
    """The person's reading; None when a careful person cannot tell what the model answered."""
    stop_reason: str = "stop"
    judge: str | None = None
    note: str = ""


@dataclass(frozen=True)
class CorpusTask:
    """How one task's corpus answers are scored, as its benchmark's tests register it (`tests/<benchmark>/
    corpus_tasks.py`, a `CORPUS_TASKS` dict keyed by task name): the shared corpus tests read the registrations
    and never name a task."""

    score: Callable[[Sequence[Entry], Callable[[Entry], str | None] | None], list[SampleScore]]
    """The entries' scores by the task's own scorer (with an extractor model answering as the function says, or
    None)."""
    closed_label: bool
    """The answer is one of the task's labels (an extractor can be asked); else an open answer for a judge."""


def load(task: str) -> list[Entry]:
    """The corpus entries of a task, checked for the fields every entry has."""
    rows = yaml.safe_load((CORPUS / f"{task}.yaml").read_text(encoding="utf-8"))
    entries = []
    for row in rows:
        assert {"id", "family", "metadata", "output", "person"} <= set(row), \
            f"{task}: entry {row.get('id')} lacks a field"
        person = row["person"]
        entries.append(Entry(id=row["id"], family=row["family"], metadata=dict(row["metadata"]), output=row["output"],
                             person=str(person) if isinstance(person, (int, float)) else person,
                             stop_reason=row.get("stop_reason", "stop"), judge=row.get("judge"),
                             note=row.get("note", "")))
    ids = Counter(entry.id for entry in entries)
    assert not [i for i, n in ids.items() if n > 1], f"{task}: repeated ids"
    return entries


def model_output(entry: Entry) -> ModelOutput:
    output = ModelOutput.from_content(CHAT_MODEL, entry.output, stop_reason=entry.stop_reason)  # type: ignore[arg-type]
    output.usage = ModelUsage(input_tokens=100, output_tokens=len(entry.output.split()), total_tokens=0)
    return output


def state_of(entry: Entry, metadata: Mapping[str, Any] | None = None) -> TaskState:
    return TaskState(model=CHAT_MODEL, sample_id=entry.id, epoch=1, input="", messages=[ChatMessageUser(content="")],
                     output=model_output(entry), metadata=dict(metadata if metadata is not None else entry.metadata))


def score_all(score: Callable, entries: Sequence[Entry], target: Callable[[Entry], str] = lambda e: "",
              metadata: Callable[[Entry], Mapping[str, Any]] | None = None,
              extractor: Callable[[Entry], str | None] | None = None) -> list[SampleScore]:
    """Each entry scored by a task's score function, one after another (so a scripted judge answers in order);
    with `extractor`, an extractor model bound to its role answers each entry with the label the function gives
    (None: it cannot tell)."""
    from inspect_ai.model._model import init_model_roles

    async def run() -> list[SampleScore]:
        found = []
        for entry in entries:
            if extractor is not None:
                label = extractor(entry)
                init_model_roles({"extractor": scripted_judge(lambda answer, label=label: label)})
            fields = metadata(entry) if metadata else entry.metadata
            result: Score = await score(state_of(entry, fields), Target(target(entry)))
            found.append(SampleScore(score=result, sample_id=entry.id, sample_metadata=dict(fields)))
        return found

    return asyncio.run(run())


def outcomes_of(scores: Sequence[SampleScore]) -> list[Outcome]:
    return [outcome_of(s.score) for s in scores]


@dataclass
class Reading:
    """How figeval read a corpus: the answers read otherwise than the person, and the shares of each layer."""

    misread: list[str] = field(default_factory=list)
    layers: Counter = field(default_factory=Counter)

    @property
    def read_share(self) -> float:
        """The share read by the paper's rule or figeval's reader (layers 1-2)."""
        total = sum(self.layers.values())
        return (self.layers["paper_rule"] + self.layers["figeval_reader"]) / total


def compare(entries: Sequence[Entry], outcomes: Sequence[Outcome], reading_of: Callable[[Outcome], Any],
            same: Callable[[Any, Any], bool] = lambda a, b: a == b) -> Reading:
    """Every entry's reading against the person's: a label the person would not give is a misread, and so is a
    label read where the person could not tell (a guess)."""
    found = Reading()
    for entry, outcome in zip(entries, outcomes, strict=True):
        found.layers[read_layer(outcome)] += 1
        if outcome.is_unparsed:
            continue
        read = reading_of(outcome)
        if entry.person is None or not same(read, entry.person):
            found.misread.append(f"{entry.id}: read {read!r}, person {entry.person!r}: {entry.output[:120]!r}")
    return found


def unread(entries: Sequence[Entry], outcomes: Sequence[Outcome]) -> list[Entry]:
    return [entry for entry, outcome in zip(entries, outcomes, strict=True) if outcome.is_unparsed]


_ANSWER_BLOCK = re.compile(r"<answer>\n(.*)\n</answer>", re.DOTALL)


def scripted_judge(labels_by_answer: Callable[[str], str]):
    """A judge model that answers `{"label": ...}` with the label a function gives the answer it was shown."""

    def reply(messages, tools, tool_choice, config):
        shown = _ANSWER_BLOCK.search(messages[-1].text)
        label = labels_by_answer(shown.group(1) if shown else "")
        output = ModelOutput.from_content("mockllm/judge", json.dumps({"label": label, "reason": "scripted"}))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model("mockllm/judge", custom_outputs=reply, memoize=False)


def by_hand(entries: Sequence[Entry], scores: Sequence[SampleScore], label_of: Callable[[Entry], str | None]
            ) -> list[SampleScore]:
    """The scores with every unread answer that a person can read labelled by hand (decided_by `manual`), as
    applying a filled sheet of unread answers does."""
    from figeval.scoring.outcome import to_score

    found = []
    for entry, s in zip(entries, scores, strict=True):
        outcome = outcome_of(s.score)
        label = label_of(entry)
        if outcome.is_unparsed and label is not None:
            s = s.model_copy(update={"score": to_score(outcome.by_hand(label), s.score.metadata["labels"])})
        found.append(s)
    return found


def values(metrics, scores: Sequence[SampleScore]) -> dict[str, float]:
    from tests.metric_values import metric_values

    return metric_values(metrics, list(scores))
