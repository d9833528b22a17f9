"""A run as reports see it, from its Inspect log's header: its summary (metrics, samples, status), the settings that
make two runs' numbers incomparable (its identity), what part of its dataset it ran, its name in reports, and which
run of each task, model and identity a report counts (the newest complete one). Reading logs from disk is
`figeval.results.logs`; the summary `figeval run` prints is `figeval.results.summary`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from inspect_ai.log import EvalLog

from figeval.answering import SCORE_NEUTRAL_GENERATION, AnswerMode
from figeval.results.model_names import given_name, model_names, route, short_name
from figeval.subset import SUBSET_KEY
from figeval.scoring.metrics import denominator_name
from figeval.stats import bootstrap_trusted, wilson_interval
from figeval.task import IDENTITY_KEY, ITEM_MEANS_KEY, RecordedIdentity


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
    """The run's settings that change its numbers (`run_identity`): every task parameter the task does not
    declare score-neutral, its prompt version, its judge, its decoding and epochs."""
    created: str = ""
    subset: str = ""
    """How the run left out part of its dataset ("limit 40: 40 of 800 samples"); empty for a complete run."""
    display_name: str = ""
    """The model as reports name it: the run's own name (`figeval run --name`), else a short name (a replay or
    gguf file's stem); one name per model however its path was spelled (`with_display_names`). Given empty, the
    model as recorded."""
    files: tuple[str, ...] = ()
    """The settings that name a file of the user's (data other than the paper's)."""
    named: bool = False
    """The run has a name of the user's (`figeval run --name`): its `display_name`, kept as given."""
    own: tuple[str, ...] = ()
    """The settings that are this task's own: never compared with another task's of the same name."""
    item_means: tuple[str, ...] = ()
    """Metrics that are no share of their n (and those grouped under them): never given a Wilson interval."""
    completed: str = ""
    """When the run ended, as its log records it (to the second, as `created`)."""
    written: float = 0.0
    """When its log file was last written (the file system's time, below the second): which of two runs made in
    the same second is the newer."""

    def __post_init__(self) -> None:
        if not self.display_name:
            object.__setattr__(self, "display_name", self.model)

    @property
    def complete(self) -> bool:
        return not self.subset

    def as_json(self) -> dict[str, object]:
        return asdict(self)

    def interval(self, metric: str) -> tuple[float, float] | None:
        """A metric's 95% interval, by one rule for every table and summary: its own (bootstrap) interval, from
        `MIN_BOOTSTRAP_ITEMS` answers on; else, for a share of its n (its value times n a whole number), the Wilson
        interval over n, which stays honest at 0% and 100%; else none (a mean over items, F1, a mass: the report
        says why for a small n)."""
        value, n = self.metrics.get(metric), self.metrics.get(denominator_name(metric))
        low, high = self.metrics.get(f"{metric}/ci_low"), self.metrics.get(f"{metric}/ci_high")
        if value is None:
            return None
        if low is not None and high is not None and (n is None or bootstrap_trusted(int(n))):
            return low, high
        if self.is_item_mean(metric) or not n or not 0.0 <= value <= 1.0 or abs(value * n - round(value * n)) > 1e-6:
            return None
        return wilson_interval(round(value * n), round(n))

    def is_item_mean(self, metric: str) -> bool:
        return any(metric == mean or metric.startswith(f"{mean}/") for mean in self.item_means)


def summarize(log: EvalLog) -> RunSummary:
    metrics: dict[str, float] = {}
    samples = 0
    if log.results is not None:
        samples = log.results.completed_samples
        for score in log.results.scores:
            metrics.update({name: metric.value for name, metric in score.metrics.items()})
    task = log.eval.task.split("/")[-1]  # "figeval/<task>" -> "<task>"
    errors = sum(1 for sample in log.samples or [] if sample.error is not None)
    recorded = recorded_identity_of(log)
    item_means = tuple((log.eval.metadata or {}).get(ITEM_MEANS_KEY) or ())
    return RunSummary(task, log.eval.model, samples, metrics, log.status, log.location, errors, run_identity(log),
                      log.eval.created, subset_of(log), given_name(log) or short_name(log.eval.model),
                      recorded.files, given_name(log) != "", recorded.own, item_means, log.stats.completed_at or "",
                      _written(log.location))


def _written(location: str) -> float:
    """The file's modification time, or 0 for a log that is not a file here."""
    try:
        return Path(location.removeprefix("file://")).stat().st_mtime
    except OSError:
        return 0.0


def with_display_names(runs: Sequence[RunSummary], here: Path | None = None) -> list[RunSummary]:
    """`runs`, each named for reports: its own name (`figeval run --name`, in its log) where it has one, else one
    name per model however its path was spelled (`model_names`): the file's stem, with as many parent folders as
    tell two different files apart ("runs/a", "old/a"), or the model as recorded for any other model.

    Args:
        runs: summaries from `summarize`, whose `display_name` is the run's own name or `short_name`.
        here: the folder relative model paths are looked up from (default: the current folder).
    """
    here = Path.cwd() if here is None else here
    # a run's own name (--name) is the user's word: runs of two files named alike are one model to them, and a file
    # whose stem is another run's name is told apart from it (`taken`)
    own = [run.named for run in runs]
    unnamed = {run.model for run, named in zip(runs, own) if not named}
    taken = {run.display_name for run, named in zip(runs, own) if named}
    names = model_names([run.model for run in runs], unnamed, taken, here)
    return [run if named else replace(run, display_name=names[run.model]) for run, named in zip(runs, own)]


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


def recorded_identity_of(log: EvalLog) -> RecordedIdentity:
    """What the task recorded of its identity when it was built (`figeval.task.identified_task`); none for a log of
    another package's task (a figeval log without it is refused as it is read: `logs.refuse_earlier_format`)."""
    recorded = (log.eval.metadata or {}).get(IDENTITY_KEY)
    return RecordedIdentity.from_metadata(recorded if isinstance(recorded, dict) else {})


def run_identity(log: EvalLog) -> dict[str, str]:
    """The settings of a run its numbers depend on, as its log records them: the task's identity (every parameter
    not declared score-neutral, its prompt version), the answer mode it asked in, the judge (a `judge` argument,
    else Inspect's grader role), every generation setting of the run's decoding that is not score-neutral
    (`SCORE_NEUTRAL_GENERATION`), the epochs when more than one, and for a model named by its weights file the
    route that ran them (`model_names.route`: one display name, two rows)."""
    identity = dict(recorded_identity_of(log).settings)
    if (ran_by := route(log.eval.model)) is not None:
        identity["route"] = ran_by
    if identity.get("answer_mode") == AnswerMode.AUTO.value:  # the mode the model was asked in, as the log counts it
        identity["answer_mode"] = asked_mode(log)
    grader = (log.eval.model_roles or {}).get("grader")
    graders = grader if isinstance(grader, list) else [grader] if grader is not None else []
    if "judge" not in identity and graders:
        identity["judge"] = ", ".join(config.model for config in graders)
    decoding = log.plan.config.model_dump(exclude_none=True) if log.plan is not None else {}
    identity |= {name: str(value) for name, value in sorted(decoding.items()) if name not in SCORE_NEUTRAL_GENERATION}
    if log.eval.config.epochs and log.eval.config.epochs > 1:
        identity["epochs"] = str(log.eval.config.epochs)
    return identity


def asked_mode(log: EvalLog) -> str:
    """The answer mode a run asked in, from its `asked/<mode>` shares (`figeval.scoring.reading_metrics`):
    one mode, or each mode's share where samples differed (a model role per sample); `auto` where no answer
    recorded one (a run with no answers read)."""
    shares = {name.removeprefix("asked/"): metric.value for score in (log.results.scores if log.results else [])
              for name, metric in score.metrics.items() if name.startswith("asked/") and metric.value}
    if len(shares) == 1:
        return next(iter(shares))
    return ", ".join(f"{mode} {share:.0%}" for mode, share in sorted(shares.items())) or AnswerMode.AUTO.value


def distinguishing_settings(runs: Sequence[RunSummary]) -> list[str]:
    """The settings that tell apart runs of one model among `runs` (a meaning source, a judge mode), by name."""
    keys = sorted({key for run in runs for key in (run.identity or {})})
    return [key for key in keys if any(
        len({str((run.identity or {}).get(key)) for run in runs if run.model == model}) > 1
        for model in {run.model for run in runs})]


def report_order(run: RunSummary) -> tuple[str, str, str]:
    """The order reports list runs in: by task, model (its display name) and time."""
    return run.task, run.display_name, run.created


@dataclass(frozen=True)
class Superseded:
    run: RunSummary
    by: RunSummary


def preference(run: RunSummary) -> tuple[bool, str, str, float]:
    """The order in which runs of one thing are preferred: a complete run over any subset, whatever their times
    (a 40-sample smoke test never stands in for the 800-sample run), then the newest: by when it was made, when it
    ended, and, for runs made in one second (logs record times to the second), when its log was last written."""
    return run.complete, run.created, run.completed, run.written


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
    return sorted(kept.values(), key=report_order), [Superseded(run, kept[key]) for run, key in others]
