"""Inspect `.eval` logs read from disk for figeval's commands: the files of the paths given, each file once and each
run once (a copy of a log told, two differing files of one run refused), a file that is not a readable log refused
in one line, a figeval log of a build before this release's log format refused in one line; the run summaries
`figeval report` tabulates, read from the headers only."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from inspect_ai.log import EvalLog, EvalLogInfo, list_eval_logs, read_eval_log

from figeval._compat import read_log_headers
from figeval.data.stored import sha256_of
from figeval.errors import FigevalError
from figeval.results.runs import RunSummary, report_order, summarize, with_display_names
from figeval.task import IDENTITY_KEY
from figeval.version import __version__


def refuse_earlier_format(log: EvalLog, location: str | Path) -> None:
    """Refuses, in one line naming the file, a figeval log without the run's identity in its task metadata
    (`figeval.task.identified_task`): only a build of figeval before its log format wrote one (no release did), and
    its numbers cannot be read as today's (the format came after each metric's own n, so a log with it has them).

    Raises:
        FigevalError: the log is figeval's and records no identity.
    """
    if (log.eval.task_registry_name or log.eval.task).startswith("figeval/") and \
            IDENTITY_KEY not in (log.eval.metadata or {}):
        raise FigevalError(f"{_local(location)} was written by a figeval build earlier than its log format (it records "
                           f"no run identity), which figeval {__version__} cannot read; run its task again with this "
                           "release (answers in Inspect's response cache are reused).")


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


def read_runs(log_dir: Path, note: Callable[[str], None] = _silent,
              keep: Callable[[EvalLog], bool] | None = None) -> tuple[list[RunSummary], list[RunSummary]]:
    """Summaries of the runs in a log directory (headers only), of those `keep` accepts when given: the successful
    ones, and the others (started, error, cancelled), each sorted by task, model and time; each run once
    (`_one_per_run`, copies told to `note`).

    Raises:
        FigevalError: a file is not a log or cannot be read, a log is of an earlier format
            (`refuse_earlier_format`), or two files hold one run scored differently.
    """
    infos = _once_per_file(list_eval_logs(str(log_dir), recursive=True))
    try:
        headers = read_log_headers(infos)
    except Exception:  # Inspect raises zip, JSON and validation errors alike for a file that is not a log
        headers = [_header_or_refuse(info.name) for info in infos]
    done: list[RunSummary] = []
    other: list[RunSummary] = []
    found = [(info, log) for info, log in zip(infos, headers) if keep is None or keep(log)]
    for info, log in _one_per_run(found, lambda pair: pair[1], lambda pair: pair[0].name, note):
        refuse_earlier_format(log, info.name)
        run = summarize(log)
        (done if run.status == "success" and run.metrics else other).append(run)
    named = with_display_names([*done, *other])  # one name per model across every run found
    done, other = named[:len(done)], named[len(done):]
    return sorted(done, key=report_order), sorted(other, key=report_order)


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
        FigevalError: the file is not an Inspect log, cannot be read, or is of an earlier format.
    """
    location = str(path).removeprefix("file://")
    try:
        log = read_eval_log(location)
    except Exception as error:  # Inspect raises ValueError, zip and JSON errors for non-logs, OSError for the rest
        raise FigevalError(_unreadable(location, error)) from None
    refuse_earlier_format(log, location)
    return log


def read_logs(paths: Sequence[Path], note: Callable[[str], None] = _silent) -> list[EvalLog]:
    """Full logs from .eval files (each must be a log) and log directories (their successful runs).

    Raises:
        FigevalError: a file is not an Inspect log or cannot be read, a log is of an earlier format, a path does
            not exist, two files hold one run scored differently, or no successful run
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
            raise FigevalError(f"no log at '{path}'; give .eval files or the folder `figeval run --log-dir` wrote to.")
        for file, named in files:
            earlier = found.get(file.resolve())
            found[file.resolve()] = (earlier[0], earlier[1] or named) if earlier else (file, named)
    return dict(found.values())
