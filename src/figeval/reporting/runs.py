"""Runs read from Inspect `.eval` logs: the summary `figeval run` ends with, and the runs `figeval report` tabulates
(one per task, model and identity: the newest)."""

from __future__ import annotations

import os
import shlex
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path, PurePath

from inspect_ai.log import EvalLog, EvalLogInfo, list_eval_logs, read_eval_log
from inspect_ai.log._file import read_eval_log_headers  # reads the headers concurrently; not exported in 0.3.285

from figeval.answering import AnswerMode, resolved_answer_mode
from figeval.data.stored import sha256_of
from figeval.errors import FigevalError
from figeval.reporting.rescore import refuse_scores_before_outcomes
from figeval.scoring.metrics import denominator_name
from figeval.stats import wilson_interval
from figeval.subset import SUBSET_KEY

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
    display_name: str = ""
    """The model as reports name it: the run's own name (`figeval run --name`), else a short name (a replay or
    gguf file's stem); one name per model however its path was spelled (`with_display_names`). Given empty, the
    model as recorded."""

    def __post_init__(self) -> None:
        if not self.display_name:
            object.__setattr__(self, "display_name", self.model)

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
                      log.eval.created, subset_of(log), given_name(log) or short_name(log.eval.model))


# The log's metadata key for a run's own name (`figeval run --name NAME`; `eval(metadata={"display_name": ...})`).
DISPLAY_NAME_KEY = "display_name"
# Providers whose model is a file: the same file under two spellings of its path is one model.
FILE_MODELS = ("replay/", "gguf/")


def given_name(log: EvalLog) -> str:
    """The name the user gave the run, or ""."""
    return str((log.eval.metadata or {}).get(DISPLAY_NAME_KEY) or "").strip()


def _model_file(model: str) -> tuple[str, str] | None:
    """(provider prefix, path) of a model named by a file (`replay/runs/a.jsonl`); None for any other model and
    for an embedded gguf alias (`gguf/gemma-3-270m`, a name, not a path)."""
    prefix = next((prefix for prefix in FILE_MODELS if model.startswith(prefix)), None)
    if prefix is None:
        return None
    name = model.removeprefix(prefix)
    if prefix == "gguf/":
        from figeval.models.gguf import ALIASES

        if name in ALIASES:
            return None
    return prefix, name


def short_name(model: str) -> str:
    """A model's readable default name: a replay or gguf file's stem ("a" for `replay/runs/a.jsonl`), else the
    model as recorded (`openai/gpt-4.1`, `gguf/gemma-3-270m`)."""
    found = _model_file(model)
    return PurePath(found[1]).stem or model if found else model


def canonical_model(model: str, here: Path) -> str:
    """`model` with its file's path in one spelling: normalized (`./runs/a.jsonl` -> `runs/a.jsonl`) and, when
    the file is found (a relative path from `here`, the folder the report runs in, as runs are usually started
    from it), absolute with links resolved. A log does not record the folder a run started in, so a relative path
    not found from `here` stays relative (see `_merge_relative`)."""
    found = _model_file(model)
    if found is None:
        return model
    prefix, name = found
    path = Path(os.path.normpath(os.path.expanduser(name)))
    located = path if path.is_absolute() else here / path
    if located.exists():
        path = located.resolve()
    return prefix + path.as_posix()


def _merge_relative(models: set[str]) -> dict[str, str]:
    """{model: the model it is}: a relative path that was not found (`replay/runs/a.jsonl`) is the one absolute
    path among `models` that ends with it (`replay//home/u/p/runs/a.jsonl`), when there is exactly one; the rest
    are themselves."""
    merged = {model: model for model in models}
    absolute = [m for m in models if (f := _model_file(m)) and PurePath(f[1]).is_absolute()]
    for model in models:
        found = _model_file(model)
        if found is None or PurePath(found[1]).is_absolute():
            continue
        prefix, tail = found[0], PurePath(found[1]).parts
        ends = [m for m in absolute
                if m.startswith(prefix) and PurePath(m.removeprefix(prefix)).parts[-len(tail):] == tail]
        if len(ends) == 1:
            merged[model] = ends[0]
    return merged


def _name_candidates(model: str) -> list[str]:
    """Names for a canonical model, shortest first: the file's stem, then with one more parent folder each time
    ("a", "runs/a", "p/runs/a"), then the model as written; the model itself for any other model."""
    found = _model_file(model)
    if found is None:
        return [model]
    path = PurePath(found[1])
    folders = [part for part in path.parent.parts if part not in (path.anchor, ".")]
    return [*("/".join([*folders[len(folders) - k:], path.stem]) for k in range(len(folders) + 1)), model]


def _unique_names(candidates: dict[str, list[str]], taken: set[str]) -> dict[str, str]:
    """One name per key: each key's first candidate that no other key's name and no name in `taken` (the
    users' own) is; a key whose candidates all clash keeps its last (the model as written)."""
    depth = {key: 0 for key in candidates}
    while True:
        names = {key: candidates[key][depth[key]] for key in candidates}
        holders: dict[str, list[str]] = {}
        for key, name in names.items():
            holders.setdefault(name, []).append(key)
        clashing = [key for key, name in names.items() if (len(holders[name]) > 1 or name in taken)
                    and depth[key] < len(candidates[key]) - 1]
        if not clashing:
            return names
        for key in clashing:
            depth[key] += 1


def with_display_names(runs: Sequence[RunSummary], here: Path | None = None) -> list[RunSummary]:
    """`runs`, each named for reports: its own name (`figeval run --name`, in its log) where it has one, else one
    name per model however its path was spelled (`replay/./runs/a.jsonl`, `replay/runs/a.jsonl` and the file's
    absolute path are one model: `canonical_model`, `_merge_relative`): the file's stem, with as many parent
    folders as tell two different files apart ("runs/a", "old/a"), or the model as recorded for any other model.

    Args:
        runs: summaries from `summarize`, whose `display_name` is the run's own name or `short_name`.
        here: the folder relative model paths are looked up from (default: the current folder).
    """
    here = Path.cwd() if here is None else here
    # a run named as its default would be is named by default: a clash with another file's stem then renames it
    own = [run.display_name not in ("", run.model, short_name(run.model)) for run in runs]
    spelled = {run.model: canonical_model(run.model, here) for run in runs}
    merged = _merge_relative(set(spelled.values()))
    canonical = {model: merged[found] for model, found in spelled.items()}
    unnamed = {canonical[run.model] for run, named in zip(runs, own) if not named}
    taken = {run.display_name for run, named in zip(runs, own) if named}
    names = _unique_names({model: _name_candidates(model) for model in sorted(unnamed)}, taken)
    return [run if named else replace(run, display_name=names[canonical[run.model]]) for run, named in zip(runs, own)]


def subset_of(log: EvalLog) -> str:
    """How a run left out part of its task's dataset, as its log records it ("limit 40: 40 of 800 samples",
    "sample_id: 3 of 800 samples"), or "" for a run of the whole dataset. Inspect records the whole dataset's size
    (`dataset.samples`) and the ids it ran (`dataset.sample_ids`, after `--limit` and `--sample-id`); a `--limit`
    at or over the dataset's size runs all of it, so it is no subset."""
    if rule := (log.eval.metadata or {}).get(SUBSET_KEY):  # `figeval run --limit`'s rule, which says the design
        return str(rule)
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


# The run summary's width: a value longer than fits wraps under itself.
SUMMARY_WIDTH = 110


def format_table(run: RunSummary) -> str:
    """A two-column table: the run's identity (and what part of its dataset it ran, for a subset), then one line
    per metric with three decimals and, where the metric records it, its own n beside it ("0.150 (n=200)": the
    fakes one framing asked, not the run's samples), then how the answers were read and, when too many were not,
    what to do."""
    head = [("task", run.task), ("model", run.model)]
    if run.display_name and run.display_name != run.model:
        head.append(("name", run.display_name))
    head += [("samples", str(run.samples)), *(run.identity or {}).items()]
    if run.subset:
        head.append(("subset", run.subset))
    if run.errors:
        head.append(("samples with errors", str(run.errors)))
    rows = head + metric_rows(run.metrics)
    width = max(len(name) for name, _ in rows)
    # a long value (a subset's rule) wraps under itself, so the table stays as wide as a terminal
    values = [textwrap.wrap(value, max(SUMMARY_WIDTH - width - 2, 20)) or [""] for _, value in rows]
    rule = "-" * (width + 2 + max(len(line) for wrapped in values for line in wrapped))

    def lines_of(index: int) -> list[str]:
        first, *more = values[index]
        return [f"{rows[index][0].ljust(width)}  {first}"] + [" " * (width + 2) + line for line in more]

    lines = [rule] + [line for index in range(len(head)) for line in lines_of(index)] + [rule]
    lines += [line for index in range(len(head), len(rows)) for line in lines_of(index)] + [rule]
    if (read := reading_line(run)) is not None:
        lines.append(f"answers read by: {read}")
    if (warning := unread_warning(run)) is not None:
        lines.append(f"note: {warning}")
    return "\n".join(lines)


def summary_interval(metrics: dict[str, float], name: str) -> tuple[float, float] | None:
    """A metric's 95% interval for the run summary: its own bootstrap bounds (`/ci_low`, `/ci_high`), else the
    Wilson interval when it is a proportion of its n answers (value * n a whole number: a mean of scores such as
    label_mass is not), else None."""
    if f"{name}/ci_low" in metrics and f"{name}/ci_high" in metrics:
        return metrics[f"{name}/ci_low"], metrics[f"{name}/ci_high"]
    value, n = metrics[name], metrics.get(denominator_name(name))
    if not n or not 0.0 <= value <= 1.0 or abs(value * n - round(value * n)) > 1e-6:
        return None
    return wilson_interval(round(value * n), round(n))


def metric_rows(metrics: dict[str, float]) -> list[tuple[str, str]]:
    """(name, value) per metric but the reading layers: "0.150 [0.107, 0.206] (n=200)" where the metric records
    its n (`<metric>/n`, a count, shown beside it rather than on a line of its own) with its 95% interval
    (`summary_interval`), which replaces the metric's stderr line; else "0.150"; an `/n` whose metric is absent on
    its own line, as a count."""
    rows = []
    for name, value in metrics.items():
        if name.startswith("read/") or (name.endswith("/n") and name.removesuffix("/n") in metrics):
            continue
        if name.endswith(("/stderr", "/ci_low", "/ci_high")) and name.rpartition("/")[0] in metrics \
                and summary_interval(metrics, name.rpartition("/")[0]) is not None:
            continue
        if name.endswith("/n"):
            rows.append((name, f"{value:.0f}"))
            continue
        n = metrics.get(denominator_name(name))
        interval = summary_interval(metrics, name) if n is not None else None
        shown = f"{value:.3f}" + ("" if interval is None else f" [{interval[0]:.3f}, {interval[1]:.3f}]")
        rows.append((name, shown + ("" if n is None else f" (n={n:.0f})")))
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
    named = with_display_names([*done, *other])  # one name per model across every run found
    done, other = named[:len(done)], named[len(done):]
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
    return run.task, run.display_name, run.created


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
    """One run per (task, model, identity), a model being its display name (one per model however its path was
    spelled, or the run's own name): the newest complete one, or the newest subset when none ran the whole
    dataset (`preference`). Returns the runs kept and, for every other run with the same identity, the run kept in
    its place (so a report can say which log it used and list the subsets it left out)."""
    kept: dict[tuple, RunSummary] = {}
    others: list[tuple[RunSummary, tuple]] = []
    for run in sorted(runs, key=preference):
        key = (run.task, run.display_name, tuple(sorted((run.identity or {}).items())))
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
