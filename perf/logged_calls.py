"""The model calls and prompt tokens a folder of runs really made, read from their logs, to set beside what
`figeval run --dry-run` planned for the same command.

Per log (the newest of each task and settings is what a report reads, but every log is listed): its samples, the
calls to the model under test (made by the task's solvers) and those its scorers made (a judge, an extractor), each
with the prompt tokens its
provider reported (`input_tokens`; a judge's retry of an unreadable reply is a call of its own, which the plan leaves
out, so those are counted apart). Calls answered from Inspect's response cache are counted too, marked: they cost
nothing, but the plan counts them as if the cache were empty.

Usage: .venv/bin/python perf/logged_calls.py LOG_FOLDER
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log
from inspect_ai.event import ModelEvent, SpanBeginEvent

from figeval.scoring.judge import JUDGE_RETRY_MESSAGE


def calls_of(log_file: str) -> tuple[str, int, Counter[str], Counter[str], Counter[str], Counter[str]]:
    log = read_eval_log(log_file)
    calls: Counter[str] = Counter()
    tokens: Counter[str] = Counter()
    retries: Counter[str] = Counter()
    cached: Counter[str] = Counter()
    for sample in log.samples or []:
        scoring = False
        for event in sample.events:
            # the model under test is asked by the solvers, a judge or extractor by the scorers (both may be one
            # model, so its name cannot tell them apart)
            if isinstance(event, SpanBeginEvent) and event.type == "scorers":
                scoring = True
            if not isinstance(event, ModelEvent):
                continue
            who = f"scorers' {event.model}" if scoring else "model"
            if any(message.text == JUDGE_RETRY_MESSAGE for message in event.input):
                retries[who] += 1
                continue
            calls[who] += 1
            usage = event.output.usage
            tokens[who] += usage.input_tokens if usage else 0
            cached[who] += bool(event.cache == "read")
    task = f"{log.eval.task.removeprefix('figeval/')} {log.eval.task_args_passed}"
    return task, len(log.samples or []), calls, tokens, retries, cached


def main(folder: str) -> None:
    for info in sorted(list_eval_logs(folder, recursive=True), key=lambda info: info.name):
        task, samples, calls, tokens, retries, cached = calls_of(info.name)
        print(f"{Path(info.name).name}: {task}, {samples} samples")
        for who in calls:
            extra = f", {retries[who]} retries of an unreadable reply" if retries[who] else ""
            extra += f", {cached[who]} from the response cache" if cached[who] else ""
            print(f"  {who}: {calls[who]:,} calls, {tokens[who]:,} prompt tokens{extra}")


if __name__ == "__main__":
    main(sys.argv[1])
