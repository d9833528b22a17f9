"""`figeval judge`: the former home of `agreement`, now part of `figeval annotate compare`."""

from __future__ import annotations

from pathlib import Path

import click


@click.group()
def judge() -> None:
    """Former commands: a judge against human labels is now `figeval annotate compare LABELS LOGS...`."""


@judge.command("agreement", hidden=True)
@click.argument("logs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--human", required=True, type=click.Path(path_type=Path), help="Labels from `figeval annotate import`.")
@click.option("--confusion", is_flag=True, help="Also print judge x human confusion matrices.")
def judge_agreement(logs: tuple[Path, ...], human: Path, confusion: bool) -> None:
    """Former name of the agreement part of `figeval annotate compare LABELS LOGS... [--confusion]`."""
    from figeval.cli.human_labels import deprecated, echo_agreement, echo_notes, read_labelled_runs

    deprecated("judge agreement LOGS --human LABELS", "annotate compare LABELS LOGS")
    found = read_labelled_runs(human, logs)
    echo_notes(found)
    echo_agreement(found, confusion)
