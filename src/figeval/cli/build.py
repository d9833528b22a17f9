"""`figeval build`: fresh benchmark data written by a model, for people to check. The commands printed for the
user to run next quote their paths for the shell (`_arg`)."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from figeval.cli.options import parse_pairs


def _arg(text: object) -> str:
    """One shell word: a path with a space or a quote pasted back into a shell stays one argument."""
    return shlex.quote(str(text))


@click.group()
def build() -> None:
    """Build fresh benchmark data with a model."""


@build.command("paraphrases")
@click.option("--model", "-m", required=True, help="provider/model that writes the paraphrases.")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The sheet to write (resumed if present).")
@click.option("-M", "model_args", multiple=True, help="Model argument name=value (repeatable).")
def build_paraphrases(model: str, out: Path, model_args: tuple[str, ...]) -> None:
    """Paraphrase each FFE-HALLU meaning (Task 1's `meaning=paraphrased`), for a person to verify."""
    from figeval.benchmarks.ffe_hallu.build import build_paraphrases as run_build

    written, reused = run_build(model, out, parse_pairs(model_args, "-M"), report=click.echo)
    click.echo(f"{written} paraphrases written, {reused} kept from an earlier run: {out}. "
               "Fill its 'verified' column (yes/no), then run ffe_generation with "
               f"-T meaning=paraphrased -T {_arg(f'paraphrases={out}')}")


@build.command("allusive-texts")
@click.option("--model", "-m", required=True, help="provider/model that writes the passages.")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The review sheet (resumed if present).")
@click.option("--allusions", type=click.Path(path_type=Path), default=None,
              help="CSV with columns allusion, description (default: the 75 allusions of the paper's LLM-Generated set).")
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
    written, reused = build_allusive_texts(model, chosen, out, parse_pairs(model_args, "-M"), report=click.echo,
                                           per_allusion=per_allusion, listed_in=allusions)
    click.echo(f"{written} passages written, {reused} kept from an earlier run ({per_allusion} per allusion for "
               f"{len(chosen)} allusions): {out}. Mark 'keep' yes/no (the paper kept one per allusion), then run "
               f"allusion_mc or allusion_open with -T dataset=generated -T {_arg(f'generated={out}')}")


@build.command("perhallueval")
@click.option("--task", "kind", type=click.Choice(["qa", "summarization"]), required=True)
@click.option("--source", "sources", type=click.Path(path_type=Path), multiple=True,
              help="PQuAD JSON or PN-Summary CSV/TSV, repeatable (default: the stored PQuAD splits / all three "
                   "PN-Summary splits).")
@click.option("--n", "count", type=int, required=True, help="How many items to select.")
@click.option("--generator", "generators", multiple=True, required=True, help="provider/model (repeat; the paper used 3).")
@click.option("--verifier", required=True, help="provider/model that returns top logprobs.")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="Build folder (resumed if present).")
@click.option("--seed", type=int, default=0, show_default=True, help="Selection and verifier tie-breaks follow it.")
@click.option("--categories", type=click.Path(path_type=Path), default=None,
              help="QA: a CSV (title, category) mapping PQuAD article titles to their topical categories (a QA build "
                   "without it writes DIR/pquad_categories.csv to fill).")
@click.option("--enforce-length", is_flag=True,
              help="Drop candidates more than 5 words from the correct text (the paper only instructs the rule).")
def build_perhallueval(kind: str, sources: tuple[Path, ...], count: int, generators: tuple[str, ...], verifier: str,
                       out: Path, seed: int, categories: Path | None, enforce_length: bool) -> None:
    """Select items, generate hallucinated candidates, keep the most believable: DIR/kept.csv to validate."""
    from figeval.benchmarks.perhallueval.build import build as run_build
    from figeval.benchmarks.perhallueval.build import default_sources
    from figeval.errors import FigevalError

    if count < 1:  # before the default sources are fetched
        raise FigevalError(f"--n must be 1 or more, not {count}.")
    sheet = run_build(kind, list(sources) or default_sources(kind), count, generators, verifier, out, seed, report=click.echo,
                      enforce_length=enforce_length, categories=categories)
    click.echo(f"next: three annotators fill 'hallucination_label' (hallucinated/factual)"
               f"{' and persian_specific (1/0)' if kind == 'qa' else ''} in copies of {sheet}, then "
               f"`figeval build perhallueval-final --task {kind} --out {_arg(out)} SHEET1 SHEET2 SHEET3`")


@build.command("perhallueval-final")
@click.option("--task", "kind", type=click.Choice(["qa", "summarization"]), required=True)
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The build folder.")
@click.argument("sheets", nargs=-1, required=True, type=click.Path(path_type=Path))
def build_perhallueval_final(kind: str, out: Path, sheets: tuple[Path, ...]) -> None:
    """Majority-vote three annotators' sheets, report AC1 / Fleiss, write DIR/final.csv."""
    from figeval.benchmarks.perhallueval.build import finalize

    final = finalize(kind, sheets, out, report=click.echo)
    click.echo(f"evaluate with: figeval run perhallueval_{kind} -T {_arg(f'data={final}')}")


@build.command("fakes")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="Build folder (resumed or grown if present).")
@click.option("--per-category", type=int, default=50, show_default=True,
              help="Candidates per category (the published set has 50).")
@click.option("--model", "-m", default=None, help="provider/model that writes candidates; default gguf/gemma-3-270m.")
@click.option("--seed", type=int, default=0, show_default=True, help="Orders the sources and the prompts' fills.")
@click.option("--authentic-extra", type=click.Path(path_type=Path), default=None,
              help="CSV with a farsi_idiom column: more authentic FFEs, as sources and for the authenticity checks.")
@click.option("--checker", "checkers", multiple=True,
              help="provider/model asked 'do you know this expression?' about each candidate (repeatable).")
@click.option("-M", "model_args", multiple=True, help="Model argument name=value for --model (repeatable).")
def build_fakes_command(out: Path, per_category: int, model: str | None, seed: int, authentic_extra: Path | None,
                        checkers: tuple[str, ...], model_args: tuple[str, ...]) -> None:
    """Build fake FFEs in FFE-HALLU's four categories, checked automatically, into DIR/review.csv for review."""
    from figeval.benchmarks.ffe_hallu.build import build_fakes
    from figeval.models.gguf import DEFAULT_MODEL

    summary = build_fakes(out, per_category, model or DEFAULT_MODEL, seed, parse_pairs(model_args, "-M"),
                          report=click.echo, extra=authentic_extra, checkers=checkers)
    click.echo(f"{summary.candidates} candidates ({summary.asked} model calls this run); passing each check:")
    for name, (passed, checked) in summary.shares.items():
        click.echo(f"  {name:<20} {passed:>4}/{checked:<4} {passed / checked:.0%}" if checked else f"  {name:<20} n/a")
    for category, (passed, made) in summary.per_category.items():
        click.echo(f"  {category:<36} {passed}/{made} pass every check")
    click.echo(f"next: fill 'keep' (yes/no) in {summary.sheet}, then `figeval build fakes-final --out {_arg(out)}`")


@build.command("fakes-final")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The build folder: writes DIR/fakes.csv.")
@click.option("--keep-passing", is_flag=True,
              help="Also keep rows with an empty 'keep' that pass every check (unreviewed: say so when you report).")
@click.argument("sheet", required=False, type=click.Path(path_type=Path))
def build_fakes_final(out: Path, keep_passing: bool, sheet: Path | None) -> None:
    """The reviewed sheet's kept rows (SHEET, default DIR/review.csv) as DIR/fakes.csv, in Fake FFEs.csv's layout."""
    from figeval.benchmarks.ffe_hallu.build import FINAL_FILE, SHEET_FILE, finalize_fakes
    from figeval.building import refuse_non_folder
    from figeval.errors import FigevalError

    refuse_non_folder(out)
    if not out.is_dir():
        raise FigevalError(f"no build folder at {out}; give the --out of `figeval build fakes`.")
    final, counts = finalize_fakes(sheet or out / SHEET_FILE, out / FINAL_FILE, keep_passing, report=click.echo)
    click.echo(f"{sum(counts.values())} fakes kept ({', '.join(f'{c}: {n}' for c, n in counts.items())}): {final}")
    click.echo(f"evaluate with: figeval run ffe_detection -T {_arg(f'fakes={final}')}")
