"""The Persian allusions benchmark's command under `figeval build` (`BUILDERS`): the LLM-Generated set's passages,
for a person to review. The builder loads when the command runs, not when the benchmark is imported (every
`inspect eval` and `figeval list` imports it)."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from figeval.arguments import parse_pairs
from figeval.errors import FigevalError


@click.command("texts")
@click.option("--model", "-m", required=True, help="provider/model that writes the passages.")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The review sheet (resumed if present).")
@click.option("--allusions", type=click.Path(path_type=Path), default=None,
              help="CSV with columns allusion, description "
                   "(default: the 75 allusions of the paper's LLM-Generated set).")
@click.option("--per-allusion", type=int, default=1, show_default=True,
              help="Passages per allusion, 1-10: a pool to keep or drop from (the paper generated a larger pool and "
                   "kept 75).")
@click.option("-M", "model_args", multiple=True, help="Model argument name=value (repeatable).")
def build_allusive_texts_command(model: str, out: Path, allusions: Path | None, per_allusion: int,
                                 model_args: tuple[str, ...]) -> None:
    """Write Persian passages alluding to each allusion (the LLM-Generated dataset), for a person to review."""
    from figeval.benchmarks.persian_allusions.build import (
        build_allusive_texts,
        check_per_allusion,
        curated_allusions,
        load_allusion_list,
    )

    check_per_allusion(per_allusion)  # before the list is read or the paper's data fetched
    chosen = load_allusion_list(allusions) if allusions else curated_allusions()
    written, reused, empty = build_allusive_texts(model, chosen, out, parse_pairs(model_args, "-M"),
                                                  report=click.echo, per_allusion=per_allusion, listed_in=allusions)
    click.echo(f"{written} passages written, {reused} kept from an earlier run ({per_allusion} per allusion for "
               f"{len(chosen)} allusions): {out}. Mark 'keep' yes/no (the paper kept one per allusion), then run "
               f"allusion_mc or allusion_open with -T dataset=generated -T {shlex.quote(f'generated={out}')}")
    if empty:
        shown = ", ".join(empty[:10]) + (f" and {len(empty) - 10} more" if len(empty) > 10 else "")
        raise FigevalError(f"{len(empty)} passages came back with no Persian text and were not written ({shown}): "
                           f"{model} wrote none for them, and asked again it answers the same; keep other passages "
                           "of their allusions (a larger --per-allusion asks more), or build the sheet with another "
                           "--model.")


BUILDERS = (build_allusive_texts_command,)
