"""What people's labels say beside the runs whose answers they label, as `figeval annotate compare` prints it: the
label rates from people's labels beside each run's over the same answers (the papers' human-labelled tables), then
each judge against the people and the annotators among themselves (the papers' agreement tables).

Each part is a function of its own so that the former commands that printed one part (`annotate rates`, `judge
agreement`) print it with the same code until they are removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:  # the CLI imports this module; Inspect and the readers load when a command runs
    from inspect_ai.log import EvalLog

    from figeval.annotation.labels import HumanLabel
    from figeval.results.runs import RunSummary
    from figeval.scoring.labels import LabelScheme
    from figeval.stats import AgreementRow


@dataclass
class LabelledRuns:
    """A labels file of one task and the runs whose answers it labels."""

    labels: Path
    task: str
    humans: list[HumanLabel]
    annotators: list[str]
    scheme: LabelScheme
    logs_given: bool
    runs: list[EvalLog]
    """The runs whose answers the labels label (none when no logs were given)."""
    unlabelled: list[EvalLog]
    """Runs of the task found in a log directory with none of their answers labelled: left out, with a note."""

    @cached_property
    def summarized(self) -> list[tuple[RunSummary, EvalLog]]:
        # read only by the parts that group answers by a run's settings, so a part that does not is not refused
        # by a summary it never prints
        from figeval.results.runs import summarize

        return [(summarize(log), log) for log in self.runs]


def read_labelled_runs(labels: Path, logs: tuple[Path, ...]) -> LabelledRuns:
    """Read a labels file and the runs (LOGS: .eval files or log dirs) whose answers it labels; a named log of
    another task, model or run is refused, a log dir's other runs are left out (`echo_notes` names them)."""
    from figeval._registry import annotation_spec
    from figeval.annotation.labels import labelled_runs, read_task_labels
    from figeval.results.logs import read_named_logs

    task, humans, annotators = read_task_labels(labels, annotation_spec)
    runs, unlabelled = labelled_runs(read_named_logs(logs, _note), task, humans, labels) if logs else ([], [])
    return LabelledRuns(labels, task, humans, annotators, annotation_spec(task).scheme, bool(logs), runs, unlabelled)


def echo_rates(found: LabelledRuns) -> None:
    """Label rates (%) from the people's resolved labels, one line per model and set of answers, and under each the
    rates of the runs whose answers they are, over the same answers; a model's runs with other settings are
    separate lines, never pooled."""
    from figeval.annotation.agreement import human_rates, run_rates
    from figeval.results.agreement_groups import label_groups, settings_text
    from figeval.results.runs import distinguishing_settings

    names = [label.value for label in found.scheme.labels]
    click.echo(f"{found.task}: label rates (%) over the answers the annotators resolved")
    click.echo(f"{'model':<40} {'source':<8} {'n':>5} " + " ".join(f"{name:>13}" for name in names))
    for group in label_groups(found.humans, found.summarized):
        lines = [("humans", human_rates(group.name, group.labels, found.scheme), settings_text(group.settings))]
        varying = distinguishing_settings([run for run, _ in group.runs])
        lines += [("run", run_rates(log, group.labels, found.scheme),
                   ", ".join(f"{key}={(run.identity or {}).get(key, '-')}" for key in varying))
                  for run, log in group.runs]
        for source, rates, settings in lines:
            cells = " ".join(f"{100 * rates.rates[name]:>13.1f}" if rates.rates else f"{'-':>13}" for name in names)
            click.echo(f"{group.model:<40} {source:<8} {rates.n:>5} {cells}" + (f"  {settings}" if settings else ""))
        if unresolved := sum(h.label is None for h in group.labels):
            click.echo(f"{'':<40} {unresolved} answer(s) unresolved (two annotators disagree, no third): left out")


def echo_notes(found: LabelledRuns) -> None:
    """The runs left out, and what giving no runs means for the rates."""
    from figeval.annotation.labels import unlabelled_note

    for log in found.unlabelled:
        click.echo(f"note: {unlabelled_note(log, found.labels)}")
    if not found.logs_given:
        click.echo("note: no runs given: a model's people's rates are over all its labelled answers; give the runs "
                   "(LOGS) to have them split by the settings of the runs whose answers they are.")


def echo_agreement(found: LabelledRuns, confusion: bool) -> None:
    """Each run's judges against the people's resolved labels, then the run's final labels as a line of its own
    (when runs were given); the annotators' agreement per model and set of its answers (with two or more
    annotators). Percent agreement and Cohen's kappa with a 95% bootstrap interval; the paper's table named where
    its benchmark declares one."""
    from figeval._registry import BENCHMARKS
    from figeval.annotation.agreement import annotator_agreement, judge_agreement
    from figeval.results.agreement_groups import kappa_text, label_groups

    printed = next(((benchmark.title, benchmark.agreement[found.task]) for benchmark in BENCHMARKS
                    if found.task in benchmark.agreement), None)
    header = f"{'':<40} {'n':>5} {'agreement':>10}   Cohen's kappa [95% bootstrap CI]"  # under each group's name
    if found.runs:
        source = f" ({printed[0]} {printed[1].judge_source})" if printed else ""
        click.echo(f"judge vs human{source}: each judge's own labels over the answers it labelled and humans "
                   "resolved;")
        click.echo("then the run's final labels, figeval's rule shortcuts and overrides included, as a line of its "
                   "own")
        click.echo(header)
    labels = found.scheme.labels
    for log in found.runs:
        for agreement in judge_agreement(log, found.humans, found.scheme):
            click.echo(_format_row(agreement.row))
            if confusion and agreement.row.n:
                click.echo("    judge \\ human  " + "  ".join(f"{label.value:>12}" for label in labels))
                for label, counts in zip(labels, agreement.confusion):
                    click.echo(f"    {label.value:>13}  " + "  ".join(f"{count:>12}" for count in counts))
    if len(found.annotators) >= 2:
        groups = label_groups(found.humans, found.summarized)
        rows, fleiss = annotator_agreement([(group.name, group.labels) for group in groups], found.annotators)
        table = f" ({printed[0]} {printed[1].annotator_table})" if printed and printed[1].annotator_table else ""
        click.echo(f"\nannotators{table}, per model and set of its answers")
        click.echo(header)
        for row in rows:
            click.echo(_format_row(row))
        everyone = len(found.annotators)
        if isinstance(fleiss, str):
            click.echo(f"Fleiss' kappa, all {everyone}: n/a ({fleiss})")
        elif fleiss is not None:
            everything = {(h.model, h.sample_id) for group in groups for h in group.labels}
            click.echo(f"Fleiss' kappa, all {everyone}: {kappa_text(fleiss, len(everything))}")


def deprecated(former: str, now: str) -> None:
    """The line a former command's name prints on stderr before it runs as before."""
    click.echo(f"figeval: `figeval {former}` is now `figeval {now}`; the former name will be removed in a later "
               "release.", err=True)


def _format_row(row: AgreementRow) -> str:
    from figeval.results.agreement_groups import kappa_text

    kappa = f"n/a ({row.note})" if row.kappa is None else kappa_text(row.kappa, row.n)
    return f"{row.group}\n{'':<40} {row.n:>5} {row.percent:>10.3f}   {kappa}"


def _note(line: str) -> None:
    click.echo(f"note: {line}")
