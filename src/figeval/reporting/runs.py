"""Runs read from Inspect `.eval` logs: the summary `figeval run` ends with, and the runs `figeval report` tabulates
(one per task, model and identity: the newest)."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from inspect_ai.log import EvalLog, EvalLogInfo, list_eval_logs, read_eval_log
from inspect_ai.log._file import read_eval_log_headers  # reads the headers concurrently; not exported in 0.3.285

from figeval.answering import AnswerMode, resolved_answer_mode
from figeval.data.stored import sha256_of
from figeval.errors import FigevalError
from figeval.reporting.rescore import refuse_scores_before_outcomes
from figeval.scoring.metrics import denominator_name

# What, besides task and model, makes two runs' numbers incomparable: shown in every summary.
IDENTITY_KEYS = ("prompt_version", "judge_prompt", "judge_prompt_version", "judge_mode", "meaning",
                 "dataset_variant", "prompt_lang", "answer_mode", "controls", "balanced", "unparsed")


@dataclass(frozen=True)
class RunSummary:
    task: str
    model: str
    samples: int
    metrics: dict[str, float]
    status: str
    log: str
    errors: int = 0
    identity: dict[str, str] | None = None
    """The run's settings that change its numbers: prompt version, judge and judge prompt, meaning source..."""
    created: str = ""
    subset: str = ""
    """How the run left out part of its dataset ("limit 40: 40 of 800 samples"); empty for a complete run."""

    @property
    def complete(self) -> bool:
        return not self.subset

    def as_json(self) -> dict[str, object]:
        return asdict(self)


def summarize(log: EvalLog) -> RunSummary:
    metrics: dict[str, float] = {}
    samples = 0
    if log.results is not None:
        samples = log.results.completed_samples
        for score in log.results.scores:
            metrics.update({name: metric.value for name, metric in score.metrics.items()})
    task = log.eval.task.split("/")[-1]  # "figeval/ffe_detection" -> "ffe_detection"
    errors = sum(1 for sample in log.samples or [] if sample.error is not None)
    return RunSummary(task, log.eval.model, samples, metrics, log.status, log.location, errors, run_identity(log),
                      log.eval.created, subset_of(log))


def subset_of(log: EvalLog) -> str:
    """How a run left out part of its task's dataset, as its log records it ("limit 40: 40 of 800 samples",
    "sample_id: 3 of 800 samples"), or "" for a run of the whole dataset. Inspect records the whole dataset's size
    (`dataset.samples`) and the ids it ran (`dataset.sample_ids`, after `--limit` and `--sample-id`); a `--limit`
    at or over the dataset's size runs all of it, so it is no subset."""
    dataset, config = log.eval.dataset, log.eval.config
    if dataset.sample_ids is not None:
        planned: int | None = len(dataset.sample_ids)
    elif log.results is not None and log.results.total_samples:
        planned = log.results.total_samples // max(config.epochs or 1, 1)
    else:
        planned = None
    how = [_limit_text(config.limit)] if config.limit is not None else []
    if config.sample_id is not None:
        ids = config.sample_id if isinstance(config.sample_id, list) else [config.sample_id]
        how.append(f"sample_id {ids[0]}" if len(ids) == 1 else f"sample_id ({len(ids)} ids)")
    if dataset.samples is None or planned is None:  # the log does not say how much ran: what was asked decides
        return ", ".join(how)
    if planned >= dataset.samples:
        return ""
    return f"{', '.join(how) or 'part of the dataset'}: {planned} of {dataset.samples} samples"


def _limit_text(limit: int | tuple[int, int]) -> str:
    """`--limit` as the user gave it: Inspect keeps START-END as (START - 1, END)."""
    return f"limit {limit[0] + 1}-{limit[1]}" if isinstance(limit, tuple | list) else f"limit {limit}"


def run_identity(log: EvalLog) -> dict[str, str]:
    """The settings of a run that its numbers depend on, as recorded in its log (absent ones left out)."""
    metadata = log.eval.metadata or {}
    identity = {key: str(metadata[key]) for key in IDENTITY_KEYS if metadata.get(key) is not None}
    if identity.get("answer_mode") == AnswerMode.AUTO.value:  # the mode the model was asked in
        identity["answer_mode"] = resolved_answer_mode(AnswerMode.AUTO, log.eval.model).value
    grader = (log.eval.model_roles or {}).get("grader")
    graders = grader if isinstance(grader, list) else [grader] if grader is not None else []
    # the judge: recorded by the task, given as its `judge` argument, or Inspect's grader role
    judge = metadata.get("judge") or (log.eval.task_args or {}).get("judge") or ", ".join(c.model for c in graders)
    if judge:
        identity["judge"] = str(judge)
    if log.eval.config.epochs and log.eval.config.epochs > 1:
        identity["epochs"] = str(log.eval.config.epochs)
    if metadata.get("data_file"):
        # a user's data file: its name and checksum, so runs on two versions of it never share a row
        identity["data"] = f"{Path(str(metadata['data_file'])).name}@{str(metadata.get('data_sha256') or '')[:8]}"
    return identity


# How answers were read (`read/<layer>` metrics), in the order the layers are tried, and their names for people.
READ_LAYERS = {"paper_rule": "the paper's rule", "figeval_reader": "figeval's reader", "logprob": "logprob",
               "extractor": "extractor", "manual": "by hand", "rule": "rule (nothing to read)", "unread": "unread"}
# Over this share of unread answers a run's numbers are not comparable with a paper's (whose people read them).
UNREAD_LIMIT = 0.02


def reading_line(run: RunSummary) -> str | None:
    """How a run's answers were read ("the paper's rule 62.0%, figeval's reader 35.0%, unread 3.0%"), or None
    for a run that does not report it."""
    shares = {layer: run.metrics[f"read/{layer}"] for layer in READ_LAYERS if f"read/{layer}" in run.metrics}
    if not shares:
        return None
    line = ", ".join(f"{READ_LAYERS[layer]} {100 * share:.1f}%" for layer, share in shares.items() if share)
    truncated = run.metrics.get("truncated_rate")
    return line + (f" (truncated by the token limit {100 * truncated:.1f}%)" if truncated else "")


def unread_warning(run: RunSummary) -> str | None:
    """Over UNREAD_LIMIT unread answers: what that means and the commands that resolve it."""
    unread = run.metrics.get("read/unread")
    if unread is None or unread <= UNREAD_LIMIT:
        return None
    said = (f"{100 * unread:.1f}% of answers are unread (over {100 * UNREAD_LIMIT:.0f}%): they count against the "
            "model by each metric's rule, so these numbers are not comparable with the paper's yet.")
    if run.metrics.get("read/logprob"):
        # a logprob answer is one token: there is no text for a person to read
        mass = run.metrics.get("label_mass")
        return (f"{said} In logprob mode an unread answer has no label word among the next token's top candidates"
                + (f" (mean label mass {mass:.3f}: the model barely answers with a label)" if mass is not None else "")
                + "; ask a model that answers in words with -T answer_mode=generate.")
    log = run.log.removeprefix("file://")
    unread = shlex.join(["figeval", "annotate", "unread", log, "--out", "unread.csv"])
    apply = shlex.join(["figeval", "annotate", "apply", log, "unread.csv", "--out", "labelled.eval"])
    return f"{said} Read them by hand: `{unread}`, fill 'label', then `{apply}`."


def format_table(run: RunSummary) -> str:
    """A two-column table: the run's identity (and what part of its dataset it ran, for a subset), then one line
    per metric with three decimals and, where the metric records it, its own n beside it ("0.150 (n=200)": the
    fakes one framing asked, not the run's samples), then how the answers were read and, when too many were not,
    what to do."""
    head = [("task", run.task), ("model", run.model), ("samples", str(run.samples)), *(run.identity or {}).items()]
    if run.subset:
        head.append(("subset", run.subset))
    if run.errors:
        head.append(("samples with errors", str(run.errors)))
    rows = head + metric_rows(run.metrics)
    width = max(len(name) for name, _ in rows)
    rule = "-" * (width + 2 + max(len(value) for _, value in rows))
    lines = [rule] + [f"{name.ljust(width)}  {value}" for name, value in head] + [rule]
    lines += [f"{name.ljust(width)}  {value}" for name, value in rows[len(head):]] + [rule]
    if (read := reading_line(run)) is not None:
        lines.append(f"answers read by: {read}")
    if (warning := unread_warning(run)) is not None:
        lines.append(f"note: {warning}")
    return "\n".join(lines)


def metric_rows(metrics: dict[str, float]) -> list[tuple[str, str]]:
    """(name, value) per metric but the reading layers: "0.150 (n=200)" where the metric records its n
    (`<metric>/n`, a count, shown beside it rather than on a line of its own), else "0.150"; an `/n` whose metric
    is absent on its own line, as a count."""
    rows = []
    for name, value in metrics.items():
        if name.startswith("read/") or (name.endswith("/n") and name.removesuffix("/n") in metrics):
            continue
        if name.endswith("/n"):
            rows.append((name, f"{value:.0f}"))
            continue
        n = metrics.get(denominator_name(name))
        rows.append((name, f"{value:.3f}" + ("" if n is None else f" (n={n:.0f})")))
    return rows


def _silent(_: str) -> None:
    pass


def _local(location: str | Path) -> Path:
    return Path(str(location).removeprefix("file://"))


def _once_per_file(infos: list[EvalLogInfo]) -> list[EvalLogInfo]:
    """Each log file once, by its resolved path (a symbolic link to a log beside it is that log)."""
    found: dict[Path, EvalLogInfo] = {}
    for info in infos:
        found.setdefault(_local(info.name).resolve(), info)
    return list(found.values())


def _one_per_run(found: list, log_of: Callable, location_of: Callable, note: Callable[[str], None]) -> list:
    """`found` (logs, or pairs holding one) with each run once: a file holding the run of an earlier one (same
    Inspect eval id) is left out when it is a byte-for-byte copy, told to `note` (the user may have meant another
    run), and refused when it differs (the run labelled by hand or re-scored: which to count is the user's call,
    and counting both would count each answer twice).

    Raises:
        FigevalError: two files hold one run with different contents.
    """
    first: dict[str, object] = {}
    kept = []
    for item in found:
        eval_id = log_of(item).eval.eval_id
        if eval_id not in first:
            first[eval_id] = item
            kept.append(item)
            continue
        earlier, later = _local(location_of(first[eval_id])), _local(location_of(item))
        if sha256_of(earlier) != sha256_of(later):
            raise FigevalError(f"{earlier} and {later} are the same run (Inspect eval id {eval_id}) with different "
                               "contents (one labelled by hand or re-scored?); give only the one to count, moving "
                               "the other out of the log folder.")
        note(f"{later} is a copy of {earlier} (the same run, Inspect eval id {eval_id}): counted once.")
    return kept


def read_runs(log_dir: Path, note: Callable[[str], None] = _silent) -> tuple[list[RunSummary], list[RunSummary]]:
    """Summaries of the runs in a log directory (headers only): the successful ones, and the others (started,
    error, cancelled), each sorted by task, model and time; each run once (`_one_per_run`, copies told to `note`).

    Raises:
        FigevalError: a file is not a log or cannot be read, a run was scored by an earlier figeval release, or
            two files hold one run scored differently.
    """
    infos = _once_per_file(list_eval_logs(str(log_dir), recursive=True))
    try:
        headers = read_eval_log_headers(infos)
    except Exception:  # Inspect raises zip, JSON and validation errors alike for a file that is not a log
        headers = [_header_or_refuse(info.name) for info in infos]
    done, other = [], []
    for info, log in _one_per_run(list(zip(infos, headers)), lambda pair: pair[1], lambda pair: pair[0].name, note):
        refuse_scores_before_outcomes(log, info)
        run = summarize(log)
        (done if run.status == "success" and run.metrics else other).append(run)
    return sorted(done, key=_order), sorted(other, key=_order)


def _header_or_refuse(location: str) -> EvalLog:
    try:
        return read_eval_log(location, header_only=True)
    except Exception as error:
        raise FigevalError(_unreadable(location.removeprefix("file://"), error)) from None


def _unreadable(path: str | Path, error: Exception) -> str:
    """Why a file given as a log cannot be read, and what to do, in one line."""
    if isinstance(error, OSError):
        return (f"{path}: cannot be read ({error.strerror or error}); check its permissions, or move it out of the "
                "logs given to figeval.")
    detail = str(error).strip().splitlines()[0][:120] if str(error).strip() else ""
    return (f"{path} is not an Inspect log ({type(error).__name__}{': ' + detail if detail else ''}); move it out "
            "of the logs given to figeval.")


def _order(run: RunSummary) -> tuple[str, str, str]:
    return run.task, run.model, run.created


@dataclass(frozen=True)
class Superseded:
    run: RunSummary
    by: RunSummary


def distinguishing_settings(runs: Sequence[RunSummary]) -> list[str]:
    """The settings that tell apart runs of one model among `runs` (a meaning source, a judge mode), by name."""
    keys = sorted({key for run in runs for key in (run.identity or {})})
    return [key for key in keys if any(
        len({str((run.identity or {}).get(key)) for run in runs if run.model == model}) > 1
        for model in {run.model for run in runs})]


def preference(run: RunSummary) -> tuple[bool, str]:
    """The order in which runs of one thing are preferred: a complete run over any subset, whatever their times
    (a 40-sample smoke test never stands in for the 800-sample run), then the newest."""
    return run.complete, run.created


def newest_runs(runs: Sequence[RunSummary]) -> tuple[list[RunSummary], list[Superseded]]:
    """One run per (task, model, identity): the newest complete one, or the newest subset when none ran the whole
    dataset (`preference`). Returns the runs kept and, for every other run with the same identity, the run kept in
    its place (so a report can say which log it used and list the subsets it left out)."""
    kept: dict[tuple, RunSummary] = {}
    others: list[tuple[RunSummary, tuple]] = []
    for run in sorted(runs, key=preference):
        key = (run.task, run.model, tuple(sorted((run.identity or {}).items())))
        if key in kept:
            others.append((kept[key], key))
        kept[key] = run
    return sorted(kept.values(), key=_order), [Superseded(run, kept[key]) for run, key in others]


def newest_log(log_dir: Path) -> str:
    """The most recently written log in a directory (where an interrupted run left its samples)."""
    logs = list_eval_logs(str(log_dir), recursive=True)
    if not logs:
        return f"{log_dir} (no log written)"
    return max(logs, key=lambda info: info.mtime or 0).name.removeprefix("file://")


def log_files(paths: Sequence[Path]) -> list[Path]:
    """The files of `paths`, and the logs inside those that are directories: every file a command reads."""
    files = []
    for path in paths:
        if path.is_dir():
            files += [Path(info.name.removeprefix("file://")) for info in list_eval_logs(str(path), recursive=True)]
        else:
            files.append(path)
    return files


def read_log(path: str | Path) -> EvalLog:
    """A whole log, checked: figeval's one reader of a log's samples.

    Raises:
        FigevalError: the file is not an Inspect log, cannot be read, or was scored by an earlier figeval release.
    """
    location = str(path).removeprefix("file://")
    try:
        log = read_eval_log(location)
    except Exception as error:  # Inspect raises ValueError, zip and JSON errors for non-logs, OSError for the rest
        raise FigevalError(_unreadable(location, error)) from None
    refuse_scores_before_outcomes(log, location)
    return log


def read_logs(paths: Sequence[Path], note: Callable[[str], None] = _silent) -> list[EvalLog]:
    """Full logs from .eval files (each must be a log) and log directories (their successful runs).

    Raises:
        FigevalError: a file is not an Inspect log or cannot be read, a run was scored by an earlier figeval
            release, a path does not exist, two files hold one run scored differently, or no successful run
            was found.
    """
    return [log for log, _ in read_named_logs(paths, note)]


def read_named_logs(paths: Sequence[Path], note: Callable[[str], None] = _silent) -> list[tuple[EvalLog, bool]]:
    """`read_logs`, each log with whether it was named (a file given) rather than found in a directory given:
    a named log that does not belong to what a command applies it to is refused, a directory's others left out.
    Each file is read once (`given_logs`) and each run counted once (`_one_per_run`, copies told to `note`)."""
    logs = [(read_log(path), named) for path, named in given_logs(paths).items()]
    logs = [(log, named) for log, named in logs if named or log.status == "success"]
    logs = _one_per_run(logs, lambda pair: pair[0], lambda pair: pair[0].location, note)
    if not logs:
        raise FigevalError(f"no successful runs in {', '.join(map(str, paths))}.")
    return logs


def given_logs(paths: Sequence[Path]) -> dict[Path, bool]:
    """The log files of `paths` (.eval files, and the logs in folders), each once by resolved path, with whether
    it was named (a file given) rather than only found in a folder given. The same file given twice (`LOG LOG`,
    `logs logs/`, a folder and a log in it) is read once, without a word: it is the same file, so nothing the user
    meant is lost.

    Raises:
        FigevalError: a path does not exist.
    """
    found: dict[Path, tuple[Path, bool]] = {}
    for path in paths:
        if path.is_dir():
            files = [(_local(info.name), False) for info in list_eval_logs(str(path), recursive=True)]
        elif path.is_file():
            files = [(path, True)]
        else:
            raise FigevalError(f"no log at '{path}'; give .eval files or the --log-dir a run wrote to.")
        for file, named in files:
            earlier = found.get(file.resolve())
            found[file.resolve()] = (earlier[0], earlier[1] or named) if earlier else (file, named)
    return dict(found.values())
