"""`figeval report`: the papers' tables, figures and a leaderboard from the runs in a log directory."""

from __future__ import annotations

from pathlib import Path

import click

from figeval.errors import FigevalError
from figeval.output import write_text

FORMATS = ("text", "markdown", "csv", "latex", "json", "html")


@click.command()
@click.argument("log_dir", type=click.Path(path_type=Path))
@click.option("--task", "tasks", multiple=True, help="Only this task's runs (repeatable).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("--out", type=click.Path(path_type=Path), help="Write DIR/report.<ext> instead of printing.")
@click.option("--figures", type=click.Path(path_type=Path), help="Also draw the papers' figures (PNG and SVG) in DIR.")
@click.option("--paper/--no-paper", default=None,
              help="The papers' published numbers as reference rows (default: on for html and markdown).")
@click.option("--leaderboard", is_flag=True, help="One row per model, one headline column per task.")
@click.option("--human", multiple=True, type=click.Path(path_type=Path),
              help="Labels from `figeval annotate import`: adds judge-vs-people and annotator agreement (repeatable).")
@click.option("--family", "families", multiple=True, metavar="MODEL=FAMILY",
              help="The family of a model the paper did not evaluate, for tables grouped by family; the model as "
                   "the report names it (repeatable).")
def report(log_dir: Path, tasks: tuple[str, ...], fmt: str, as_json: bool, out: Path | None, figures: Path | None,
           paper: bool | None, leaderboard: bool, human: tuple[Path, ...], families: tuple[str, ...]) -> None:
    """Tables in the papers' layouts (rows: models and the settings that split them; the papers' columns and
    units; 95% intervals where the papers print them or n < 100) for the runs in LOG_DIR. When two runs share
    task, model and settings the newest is used; unfinished runs are listed, never mixed in."""
    from figeval.reporting.render import RENDERERS
    from figeval.reporting.report import build_report

    fmt = "json" if as_json else fmt
    with_paper = paper if paper is not None else fmt in ("html", "markdown")
    result = build_report(log_dir, tasks, paper=with_paper, leaderboard=leaderboard, human=human,
                          families=named_families(families))
    drawn: list[Path] = []
    if fmt != "html":
        extension, render = RENDERERS[fmt]
        text = render(result)
    if figures is not None or fmt == "html":
        # the figures are made once, for the files and for the page
        from figeval.reporting.figures import close, draw_figures
        from figeval.reporting.figures import figures as figures_of
        from figeval.reporting.html import render_html

        found = figures_of(result)
        if figures is not None:
            drawn = draw_figures(found, _output_dir(figures))
        if fmt == "html":
            extension, text = "html", render_html(result, found)
        close(found)
    if out is None:
        click.echo(text, nl=False)
    else:
        path = _output_dir(out) / f"report.{extension}"
        write_text(path, text)
        click.echo(f"wrote {path}")
    for path in drawn:
        click.echo(f"wrote {path}")
    if not result.runs:
        click.echo(f"no successful runs in {log_dir}", err=True)


def named_families(pairs: tuple[str, ...]) -> dict[str, str]:
    """`--family MODEL=FAMILY` values as {model: family}.

    Raises:
        FigevalError: a value without a model or a family.
    """
    named: dict[str, str] = {}
    for pair in pairs:
        model, _, family = pair.partition("=")
        if not model.strip() or not family.strip():
            raise FigevalError(f"--family takes MODEL=FAMILY, the model as the report names it (e.g. --family "
                               f"'vllm/my-model=My family'); got {pair!r}.")
        named[model.strip()] = family.strip()
    return named


def _output_dir(path: Path) -> Path:
    if path.exists() and not path.is_dir():
        raise FigevalError(f"'{path}' is a file; --out and --figures name a folder to write into.")
    path.mkdir(parents=True, exist_ok=True)
    return path
