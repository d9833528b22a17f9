"""PerHalluEval's commands under `figeval build` (`BUILDERS`): steps 1-4 of the paper's pipeline (Section 3) into a
sheet for three annotators, then their majority vote into the final file the tasks read. The builder loads when a
command runs, not when the benchmark is imported (every `inspect eval` and `figeval list` imports it)."""

from __future__ import annotations

import shlex
from pathlib import Path

import click


@click.command("candidates")
@click.option("--task", "kind", type=click.Choice(["qa", "summarization"]), required=True)
@click.option("--source", "sources", type=click.Path(path_type=Path), multiple=True,
              help="PQuAD JSON or PN-Summary CSV/TSV, repeatable (default: the stored PQuAD splits / all three "
                   "PN-Summary splits).")
@click.option("--n", "count", type=int, required=True, help="How many items to select.")
@click.option("--generator", "generators", multiple=True, required=True,
              help="provider/model (repeat; the paper used 3).")
@click.option("--verifier", required=True, help="provider/model that returns top logprobs.")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="Build folder (resumed if present).")
@click.option("--seed", type=int, default=0, show_default=True, help="Selection and verifier tie-breaks follow it.")
@click.option("--categories", type=click.Path(path_type=Path), default=None,
              help="QA: a CSV (title, category) mapping PQuAD article titles to their topical categories (a QA build "
                   "without it writes DIR/pquad_categories.csv to fill).")
@click.option("--stratify", type=click.Choice(["category", "article"]), default="category", show_default=True,
              help="QA: what the selection is stratified by: PQuAD's topical categories (Section 3.1; give them with "
                   "--categories) or, ours, its articles (the published files carry no categories).")
@click.option("--enforce-length", is_flag=True,
              help="Drop candidates more than 5 words from the correct text (the paper only instructs the rule).")
def build_perhallueval(kind: str, sources: tuple[Path, ...], count: int, generators: tuple[str, ...], verifier: str,
                       out: Path, seed: int, categories: Path | None, stratify: str, enforce_length: bool) -> None:
    """Select items, generate hallucinated candidates, keep the most believable: DIR/kept.csv to validate."""
    from figeval.benchmarks.perhallueval.build import build as run_build
    from figeval.benchmarks.perhallueval.build import default_sources
    from figeval.benchmarks.perhallueval.build_selection import check_strata
    from figeval.errors import FigevalError

    if count < 1:  # before the default sources are fetched
        raise FigevalError(f"--n must be 1 or more, not {count}.")
    check_strata(kind, stratify, categories)  # before the default sources are fetched, too
    sheet = run_build(kind, list(sources) or default_sources(kind), count, generators, verifier, out, seed,
                      report=click.echo, enforce_length=enforce_length, categories=categories, stratify=stratify)
    click.echo(f"next: three annotators fill 'hallucination_label' (hallucinated/factual)"
               f"{' and persian_specific (1/0)' if kind == 'qa' else ''} in copies of {sheet}, then "
               f"`figeval build perhallueval-final --task {kind} --out {shlex.quote(str(out))} SHEET1 SHEET2 SHEET3`")


@click.command("final")
@click.option("--task", "kind", type=click.Choice(["qa", "summarization"]), required=True)
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The build folder.")
@click.argument("sheets", nargs=-1, required=True, type=click.Path(path_type=Path))
def build_perhallueval_final(kind: str, out: Path, sheets: tuple[Path, ...]) -> None:
    """Majority-vote three annotators' sheets, report AC1 / Fleiss, write DIR/final.csv."""
    from figeval.benchmarks.perhallueval.build_final import finalize

    final = finalize(kind, sheets, out, report=click.echo)
    click.echo(f"evaluate with: figeval run perhallueval_{kind} -T {shlex.quote(f'data={final}')}")


BUILDERS = (build_perhallueval, build_perhallueval_final)
