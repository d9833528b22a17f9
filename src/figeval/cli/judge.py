"""`figeval judge`: check an LLM judge against human labels."""

from __future__ import annotations

from pathlib import Path

import click


@click.group()
def judge() -> None:
    """Check an LLM judge against human labels."""


def _format_row(row) -> str:
    from figeval.reporting.agreement import kappa_text

    kappa = f"n/a ({row.note})" if row.kappa is None else kappa_text(row.kappa, row.n)
    return f"{row.group}\n{'':<40} {row.n:>5} {row.percent:>10.3f}   {kappa}"


def _note(line: str) -> None:
    click.echo(f"note: {line}")


@judge.command("agreement")
@click.argument("logs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--human", required=True, type=click.Path(path_type=Path), help="Labels from `figeval annotate import`.")
@click.option("--confusion", is_flag=True, help="Also print judge x human confusion matrices.")
def judge_agreement(logs: tuple[Path, ...], human: Path, confusion: bool) -> None:
    """Judge vs human agreement and Cohen's kappa per generator model, and the annotators' own, per set of a
    model's answers (the paper's tables, where its benchmark declares them)."""
    from figeval._registry import BENCHMARKS, annotation_spec
    from figeval.annotation.agreement import annotator_agreement
    from figeval.annotation.agreement import judge_agreement as agreement_of
    from figeval.annotation.labels import labelled_runs, read_task_labels, unlabelled_note
    from figeval.reporting.agreement import kappa_text, label_groups
    from figeval.reporting.logs import read_named_logs
    from figeval.reporting.runs import summarize

    task, humans, annotators = read_task_labels(human, annotation_spec)
    scheme = annotation_spec(task).scheme
    runs, unlabelled = labelled_runs(read_named_logs(logs, _note), task, humans, human)
    for log in unlabelled:
        click.echo(f"note: {unlabelled_note(log, human)}")
    printed = next(((benchmark.title, benchmark.agreement[task]) for benchmark in BENCHMARKS
                    if task in benchmark.agreement), None)
    header = f"{'':<40} {'n':>5} {'agreement':>10}   Cohen's kappa [95% bootstrap CI]"  # under each group's name
    source = f" ({printed[0]} {printed[1].judge_source})" if printed else ""
    click.echo(f"judge vs human{source}: each judge's own labels over the answers it labelled and humans resolved;")
    click.echo("then the run's final labels, figeval's rule shortcuts and overrides included, as a line of its own")
    click.echo(header)
    for log in runs:
        for agreement in agreement_of(log, humans, scheme):
            click.echo(_format_row(agreement.row))
            if confusion and agreement.row.n:
                click.echo("    judge \\ human  " + "  ".join(f"{label.value:>12}" for label in scheme.labels))
                for label, counts in zip(scheme.labels, agreement.confusion):
                    click.echo(f"    {label.value:>13}  " + "  ".join(f"{count:>12}" for count in counts))
    if len(annotators) >= 2:
        groups = label_groups(humans, [(summarize(log), log) for log in runs])
        rows, fleiss = annotator_agreement([(group.name, group.labels) for group in groups], annotators)
        table = f" ({printed[0]} {printed[1].annotator_table})" if printed and printed[1].annotator_table else ""
        click.echo(f"\nannotators{table}, per model and set of its answers")
        click.echo(header)
        for row in rows:
            click.echo(_format_row(row))
        if isinstance(fleiss, str):
            click.echo(f"Fleiss' kappa, all {len(annotators)}: n/a ({fleiss})")
        elif fleiss is not None:
            everything = {(h.model, h.sample_id) for group in groups for h in group.labels}
            click.echo(f"Fleiss' kappa, all {len(annotators)}: {kappa_text(fleiss, len(everything))}")
