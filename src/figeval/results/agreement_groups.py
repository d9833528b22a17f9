"""People's labels of a task grouped by the set of a model's answers they label, with the runs whose answers they
are: the unit every agreement and rate is counted over, so that a model's dictionary-meaning and paraphrased-meaning
answers are never pooled."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from inspect_ai.log import EvalLog

from figeval.annotation.labels import HumanLabel
from figeval.results.runs import RunSummary
from figeval.stats import FEW_ITEMS, Interval, bootstrap_trusted


@dataclass(frozen=True)
class LabelGroup:
    """People's labels of one set of a model's answers, with the runs whose answers they are."""

    model: str
    """The model as reports name it (as its labels name it where no run given has its answers)."""
    settings: dict[str, str]
    """What tells these answers from the model's other labelled answers: the settings their runs alone share
    (meaning=paraphrased); empty when the model has one set."""
    labels: list[HumanLabel]
    runs: list[tuple[RunSummary, EvalLog]]
    """The runs whose answers these are (several: the same answers judged twice); none: no run given has them."""

    @property
    def name(self) -> str:
        if not self.runs:
            return f"{self.model} (no run given)"
        return self.model + (f" ({settings_text(self.settings)})" if self.settings else "")


def settings_text(settings: Mapping[str, str]) -> str:
    return ", ".join(f"{key}={value}" for key, value in settings.items())


def label_groups(humans: Sequence[HumanLabel], labelled: Sequence[tuple[RunSummary, EvalLog]]) -> list[LabelGroup]:
    """People's labels split by the runs whose answers they label (`labelled`, from `labelled_runs`): one group per
    model and set of answers, so that a model's dictionary-meaning and paraphrased-meaning answers are never one
    line; runs of the same answers (one output judged twice) share a group. Labels of answers no run given has are
    a group per model of their own. Groups in the order of model, then settings."""
    by_key = {(h.model, h.sample_id): h for h in humans}
    found: dict[tuple, tuple[list[HumanLabel], list[tuple[RunSummary, EvalLog]]]] = {}
    claimed: set[tuple[str, str]] = set()
    for run, log in labelled:
        keys = tuple(sorted({key for sample in log.samples or []
                             if (key := (log.eval.model, str(sample.id))) in by_key}))
        if keys:
            claimed |= set(keys)
            found.setdefault((log.eval.model, keys), ([by_key[key] for key in keys], []))[1].append((run, log))
    shared = {key: dict(sorted(set.intersection(*(set((run.identity or {}).items()) for run, _ in runs))))
              for key, (_, runs) in found.items()}
    groups = []
    for key, (labels, runs) in found.items():
        # the settings that tell this group from the model's other groups; the model as reports name it
        others = [settings for other, settings in shared.items() if other[0] == key[0] and other != key]
        told = {name: value for name, value in shared[key].items() if any(o.get(name) != value for o in others)}
        groups.append(LabelGroup(runs[0][0].display_name, told, labels, runs))
    for model in sorted({h.model for h in humans}):
        if rest := [h for h in humans if h.model == model and (h.model, h.sample_id) not in claimed]:
            groups.append(LabelGroup(model, {}, rest, []))
    return sorted(groups, key=lambda group: (group.model, not group.runs, settings_text(group.settings)))


def kappa_text(kappa: Interval, n: int) -> str:
    """A kappa with its 95% bootstrap interval ("0.712 [0.604, 0.810]"), or why it has none over n items."""
    if bootstrap_trusted(n):
        return f"{kappa.estimate:.3f} [{kappa.low:.3f}, {kappa.high:.3f}]"
    return f"{kappa.estimate:.3f} (no interval: {FEW_ITEMS})"
