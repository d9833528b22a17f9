"""FFE-HALLU's commands under `figeval build` (`BUILDERS`): paraphrased meanings for Task 1 and fresh fake FFEs
for Task 2, each ending with the command that evaluates what a person kept. The builders load when a command
runs, not when the benchmark is imported (every `inspect eval` and `figeval list` imports it)."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from figeval.arguments import parse_pairs


@click.command("paraphrases")
@click.option("--model", "-m", required=True, help="provider/model that writes the paraphrases.")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The sheet to write (resumed if present).")
@click.option("-M", "model_args", multiple=True, help="Model argument name=value (repeatable).")
def build_paraphrases(model: str, out: Path, model_args: tuple[str, ...]) -> None:
    """Paraphrase each FFE-HALLU meaning (Task 1's `meaning=paraphrased`), for a person to verify."""
    from figeval.benchmarks.ffe_hallu.paraphrases import build_paraphrases as run_build

    written, reused = run_build(model, out, parse_pairs(model_args, "-M"), report=click.echo)
    click.echo(f"{written} paraphrases written, {reused} kept from an earlier run: {out}. "
               "Fill its 'verified' column (yes/no), then run ffe_generation with "
               f"-T meaning=paraphrased -T {shlex.quote(f'paraphrases={out}')}")


@click.command("fakes")
@click.option("--out", required=True, type=click.Path(path_type=Path),
              help="Build folder (resumed or grown if present).")
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
    from figeval.benchmarks.ffe_hallu.fakes_build import build_fakes
    from figeval.models.gguf import DEFAULT_MODEL

    summary = build_fakes(out, per_category, model or DEFAULT_MODEL, seed, parse_pairs(model_args, "-M"),
                          report=click.echo, extra=authentic_extra, checkers=checkers)
    click.echo(f"{summary.candidates} candidates ({summary.asked} model calls this run); passing each check:")
    for name, (passed, checked) in summary.shares.items():
        click.echo(f"  {name:<20} {passed:>4}/{checked:<4} {passed / checked:.0%}" if checked else f"  {name:<20} n/a")
    for category, (passed, made) in summary.per_category.items():
        click.echo(f"  {category:<36} {passed}/{made} pass every check")
    click.echo(f"next: fill 'keep' (yes/no) in {summary.sheet}, then "
               f"`figeval build ffe-hallu-fakes-final --out {shlex.quote(str(out))}`")


@click.command("fakes-final")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The build folder: writes DIR/fakes.csv.")
@click.option("--keep-passing", is_flag=True,
              help="Also keep rows with an empty 'keep' that pass every check (unreviewed: say so when you report).")
@click.argument("sheet", required=False, type=click.Path(path_type=Path))
def build_fakes_final(out: Path, keep_passing: bool, sheet: Path | None) -> None:
    """The reviewed sheet's kept rows (SHEET, default DIR/review.csv) as DIR/fakes.csv, in Fake FFEs.csv's layout."""
    from figeval.benchmarks.ffe_hallu.fakes_build import FINAL_FILE, SHEET_FILE
    from figeval.benchmarks.ffe_hallu.fakes_final import finalize_fakes
    from figeval.errors import FigevalError
    from figeval.output import refuse_non_folder

    refuse_non_folder(out)
    if not out.is_dir():
        raise FigevalError(f"no build folder at {out}; give the --out of `figeval build ffe-hallu-fakes`.")
    final, counts = finalize_fakes(sheet or out / SHEET_FILE, out / FINAL_FILE, keep_passing, report=click.echo)
    click.echo(f"{sum(counts.values())} fakes kept ({', '.join(f'{c}: {n}' for c, n in counts.items())}): {final}")
    click.echo(f"evaluate with: figeval run ffe_detection -T {shlex.quote(f'fakes={final}')}")


BUILDERS = (build_paraphrases, build_fakes_command, build_fakes_final)
