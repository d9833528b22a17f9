"""Logs scored by an earlier figeval release, before the outcome contract (figeval.scoring.outcome): how they are
recognised, and Inspect's command that scores their recorded answers again with today's scorer, without asking the
model again (`inspect score`), so that figeval's readers refuse them in one line that says what to do."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from inspect import Parameter, signature
from pathlib import Path

from inspect_ai.log import EvalLog, EvalLogInfo, read_eval_log_sample_summaries

from figeval.errors import FigevalError
from figeval.scoring.outcome import is_outcome

# Every figeval task records its unparsed policies in the log's task metadata since the outcome contract
# (figeval.task.benchmark_task), which came in the same release: a log with them was scored in the outcome form.
# A figeval log without them is checked sample by sample, since `inspect score` may have re-scored it
# (re-scoring leaves the task metadata as it was).
CONTRACT_METADATA = "unparsed_policies"
RESCORED_SUFFIX = "-rescored"


def _is_figeval(log: EvalLog) -> bool:
    return (log.eval.task_registry_name or log.eval.task).startswith("figeval/")


def refuse_scores_before_outcomes(log: EvalLog, source: EvalLogInfo | str | Path) -> None:
    """Refuses, in one line naming the file and the command that re-scores it, a successful figeval run scored by
    an earlier figeval release (its scores hold no outcome: figeval.scoring.outcome). `log` may be a header only
    (its sample summaries are then read, only where the task metadata cannot vouch for the scores).

    Raises:
        FigevalError: the run's scores are not outcomes.
    """
    if log.status != "success" or not _is_figeval(log):
        return
    if log.samples is not None:
        scores = [score for sample in log.samples for score in (sample.scores or {}).values()]
    elif CONTRACT_METADATA in (log.eval.metadata or {}):
        return
    else:
        summaries = read_eval_log_sample_summaries(source)
        scores = [score for sample in summaries for score in (sample.scores or {}).values()]
    if not all(is_outcome(score) for score in scores):
        path = Path((source.name if isinstance(source, EvalLogInfo) else str(source)).removeprefix("file://"))
        raise FigevalError(scored_before_outcomes_message(log, path))


def scored_before_outcomes_message(log: EvalLog, path: Path) -> str:
    """The one line for a log scored by an earlier figeval release: the command that re-scores it."""
    rescore = rescore_command(log, path)
    if rescore is None:
        return (f"{path} was scored by an earlier figeval release (its scores hold no figeval outcome) with a "
                "scorer figeval no longer has; run its task again with this release.")
    judge = " (its judge is asked again; answers in the response cache are reused)" if rescore.judged else ""
    return (f"{path} was scored by an earlier figeval release (its scores hold no figeval outcome); re-score it "
            f"with today's scorer, without asking the model again{judge}: `{rescore.command}`, then give figeval "
            f"{rescore.out} in its place.")


@dataclass(frozen=True)
class Rescore:
    command: str
    out: Path
    """The re-scored log the command writes (beside the old one, which is left as it was)."""
    judged: bool
    """The scorer asks a judge model."""


def rescore_command(log: EvalLog, path: Path) -> Rescore | None:
    """Inspect's command that scores a log's recorded answers again with today's figeval scorer of its task (the
    scorer the log records, with the options it was given that today's scorer takes and that differ from its
    defaults), into a new file beside it; None when figeval has no such scorer today.

    The scorers read the recorded answers, never the run's model: a stand-in model (`mockllm/model`) keeps
    Inspect from loading weights or needing the provider's API key. The log's other models (a judge, an
    extractor) are those it records.
    """
    from figeval._compat import registered_scorer

    recorded = [(s.name, s.options or {}) for s in log.eval.scorers or []] or [
        (s.scorer, s.params or {}) for s in (log.results.scores if log.results else [])]
    if len({name for name, _ in recorded}) != 1:
        return None
    name, options = recorded[0][0].split("/")[-1], recorded[0][1]
    factory = registered_scorer(f"figeval/{name}")
    if factory is None:
        return None
    parameters = signature(factory).parameters
    given = [f"{key}={_cli_value(value)}" for key, value in options.items()
             if key in parameters and (parameters[key].default is Parameter.empty or parameters[key].default != value)]
    out = _free_name(path.with_name(f"{path.stem}{RESCORED_SUFFIX}.eval"))
    words = ["inspect", "score", str(path), "--scorer", f"figeval/{name}",
             *[word for option in given for word in ("-S", option)],
             "--model", "mockllm/model", "--action", "overwrite", "--output-file", str(out)]
    return Rescore(shlex.join(words), out, "judge" in parameters)


# A string `inspect score -S name=value` reads back as itself (it reads values as YAML); others are given in JSON,
# which YAML reads as written.
_PLAIN = re.compile(r"[A-Za-z_][\w./-]*")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "y", "n", "null"}


def _cli_value(value: object) -> str:
    """A scorer option as `inspect score -S name=VALUE` reads it back."""
    if isinstance(value, str) and _PLAIN.fullmatch(value) and value.lower() not in _YAML_WORDS:
        return value
    return json.dumps(value, ensure_ascii=False)


def _free_name(path: Path) -> Path:
    """`path`, or with a number added when it exists (Inspect would ask before writing over it)."""
    found, number = path, 1
    while found.exists():
        number += 1
        found = path.with_name(f"{path.stem}-{number}{path.suffix}")
    return found
