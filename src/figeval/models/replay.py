"""`replay/<file.jsonl>`: answers from a file of recorded outputs, keyed by sample id.

For scoring outputs produced elsewhere, for exact re-scoring, and for tests. Each line is
`{"id": "<sample id>", "output": "<text>"}`, optionally with `"top_logprobs": [{"token": ..., "logprob": ...}]`
for the first generated token (to replay logprob-mode answers), `"stop_reason"` (Inspect's: `stop`,
`max_tokens`, `model_length`, ...; default `stop`) and `"reasoning"` (a reasoning model's thinking returned apart
from its answer, as Inspect's providers give it: never read as the answer). Duplicate ids are an error when the model is
created; a sample whose id is not in the file fails once (no retry: the file answers the same every time) with
an error naming the file, the id and the fix, and is never scored.

A recorded text that loops is replayed as the gguf provider would have produced it: cut where the loop guard
(`figeval.models.loops`, the same rule) would have stopped it, and marked as stopped by it (Inspect's
`stop_details`), so it is scored as a live looping answer is.

Replayed outputs must not go through Inspect's response cache: the cache is keyed by prompt, and two samples
with the same prompt can have different recorded answers. `figeval run` leaves the cache off for replay.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

from inspect_ai.model import (
    ChatMessage,
    ContentReasoning,
    ContentText,
    GenerateConfig,
    Logprob,
    Logprobs,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    StopDetails,
    StopReason,
    TopLogprob,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from figeval._compat import UnretryableError, fail_unretryable_errors_once
from figeval.errors import FigevalError
from figeval.models.loops import stopped_looping


@dataclass(frozen=True)
class ReplayRecord:
    output: str
    top_logprobs: list[TopLogprob] | None
    stop_reason: str = "stop"
    reasoning: str | None = None


STOP_REASONS = get_args(StopReason)


def load_replay_file(path: Path) -> dict[str, ReplayRecord]:
    """Recorded outputs by sample id.

    Raises:
        FigevalError: the file is missing, a line is not a JSON object with a string `id` and `output`, or an
            id appears twice (naming the file, line and id).
    """
    if not path.is_file():
        raise FigevalError(f"replay: no file at '{path}'; give the path of a JSONL file of recorded outputs.")
    try:
        lines = path.read_bytes().decode("utf-8-sig").split("\n")
    except UnicodeDecodeError as error:
        raise FigevalError(f"replay file {path.name}: not UTF-8 (invalid byte at offset {error.start}); save it as "
                           "UTF-8 JSONL.") from None
    except OSError as error:
        raise FigevalError(f"replay file {path}: cannot be read ({error.strerror}).") from None
    records: dict[str, ReplayRecord] = {}
    first_line: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"replay file {path.name}, line {number}"
        try:
            row: Any = json.loads(line)
        except json.JSONDecodeError as error:
            raise FigevalError(f"{where}: not valid JSON ({error.msg}).") from None
        if not isinstance(row, dict) or not isinstance(row.get("id"), str) or not isinstance(row.get("output"), str):
            raise FigevalError(f'{where}: expected {{"id": "<sample id>", "output": "<text>"}}.')
        sample_id = row["id"]
        if sample_id in records:
            raise FigevalError(
                f"{where}: sample id '{sample_id}' already appeared on line {first_line[sample_id]}; "
                "keep one output per sample id."
            )
        top = row.get("top_logprobs")
        try:
            top_logprobs = [TopLogprob(token=t["token"], logprob=float(t["logprob"])) for t in top] if top else None
        except (TypeError, KeyError, ValueError):
            raise FigevalError(f'{where}: top_logprobs must be a list of {{"token": str, "logprob": float}}.') from None
        # a log probability is a number at most 0 (a probability of at most 1; -inf is probability 0)
        bad = next((t for t in top_logprobs or [] if math.isnan(t.logprob) or t.logprob > 0), None)
        if bad is not None:
            raise FigevalError(f"{where}: token {bad.token!r} has logprob {bad.logprob}; a log probability is a "
                               "number <= 0.")
        stop_reason = row.get("stop_reason", "stop")
        if stop_reason not in STOP_REASONS:
            raise FigevalError(f"{where}: stop_reason must be one of {list(STOP_REASONS)}, not {stop_reason!r}.")
        reasoning = row.get("reasoning")
        if reasoning is not None and not isinstance(reasoning, str):
            raise FigevalError(
                f"{where}: reasoning must be a string (the model's thinking), not {type(reasoning).__name__}.")
        records[sample_id] = ReplayRecord(row["output"], top_logprobs, stop_reason, reasoning)
        first_line[sample_id] = number
    if not records:
        raise FigevalError(f"replay file {path.name} has no outputs.")
    return records


def missing_id_error(path: Path, sample_id: str) -> UnretryableError:
    # No double quote in it: Inspect records the error as its repr, which would then escape the single ones.
    return UnretryableError(f"replay file {path.name} has no output for sample id '{sample_id}'; add that id's "
                            f"output to {path}, or run only the ids the file has (--sample-id).")


def _active_sample_id() -> str:
    # Inspect passes a provider only the messages; the running sample is found through its context variable.
    from figeval._compat import running_sample

    active = running_sample()
    if active is None:
        raise FigevalError("replay: called outside a running sample, so there is no sample id to look up.")
    return str(active.sample.id)


class ReplayModelAPI(ModelAPI):
    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),
        **model_args: Any,
    ) -> None:
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key, config=config)
        self.path = Path(model_name).expanduser()
        self._load()
        fail_unretryable_errors_once()

    def _load(self) -> None:
        self._stamp = self._file_stamp()
        self.records = load_replay_file(self.path)

    def _file_stamp(self) -> tuple[int, int] | None:
        stat = self.path.stat() if self.path.is_file() else None
        return (stat.st_mtime_ns, stat.st_size) if stat else None

    def max_connections(self) -> int:
        return 64

    async def count_text_tokens(self, text: str) -> int:
        return len(text.split())  # nothing is tokenized: a whitespace count keeps tiktoken (online) out of it

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        sample_id = _active_sample_id()
        if self._file_stamp() != self._stamp:
            # Inspect reuses model instances within a process: an eval-retry after the file was fixed must
            # see the fixed file.
            self._load()
        record = self.records.get(sample_id)
        if record is None:
            raise missing_id_error(self.path, sample_id)
        logprobs = None
        if record.top_logprobs:
            best = max(record.top_logprobs, key=lambda t: t.logprob)
            logprobs = Logprobs(
                content=[Logprob(token=best.token, logprob=best.logprob, top_logprobs=record.top_logprobs)]
            )
        text, stop_reason, stop_details = record.output, record.stop_reason, None
        if (stopped := stopped_looping(text)) is not None:
            text, stop_reason, stop_details = stopped[0], "unknown", StopDetails(**stopped[1])
        output = ModelOutput.from_content(self.model_name, text, stop_reason=stop_reason,  # type: ignore[arg-type]
                                          stop_details=stop_details)
        if record.reasoning is not None:
            output.choices[0].message.content = [ContentReasoning(reasoning=record.reasoning),
                                                 ContentText(text=text)]
        output.choices[0].logprobs = logprobs
        # Replayed text costs no tokens; a usage record keeps Inspect from counting with tiktoken (online).
        output.usage = ModelUsage(input_tokens=0, output_tokens=0, total_tokens=0)
        return output
