"""`figeval report`: the papers' tables, figures and a leaderboard from the runs in a log directory."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from figeval.errors import FigevalError
from figeval.output import check_outputs, refuse_non_folder, write_bytes, write_text

FORMATS = ("text", "markdown", "csv", "latex", "json", "html")


@click.command()
@click.argument("log_dir", type=click.Path(path_type=Path))
@click.option("--task", "tasks", multiple=True, help="Only this task's runs (repeatable).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("--out", type=click.Path(path_type=Path), help="Write DIR/report.<ext> instead of printing.")
@click.option("--figures", type=click.Path(path_type=Path),
              help="Also draw the papers' figures (300 dpi PNG, SVG and PDF) in DIR.")
@click.option("--paper/--no-paper", default=None,
              help="The papers' published numbers as reference rows (default: on for html and markdown).")
@click.option("--leaderboard", is_flag=True, help="One row per model, one headline column per task.")
@click.option("--human", multiple=True, type=click.Path(path_type=Path),
              help="Labels from `figeval annotate import`: adds judge-vs-people and annotator agreement (repeatable).")
@click.option("--baseline", metavar="MODEL",
              help="Compare every model with this one (as the report names it); default: every pair of models.")
@click.option("--family", "families", multiple=True, metavar="MODEL=FAMILY",
              help="The family of a model the paper did not evaluate, for tables grouped by family; the model as "
                   "the report names it or as its log records it (repeatable).")
def report(log_dir: Path, tasks: tuple[str, ...], fmt: str, as_json: bool, out: Path | None, figures: Path | None,
           paper: bool | None, leaderboard: bool, human: tuple[Path, ...], baseline: str | None,
           families: tuple[str, ...]) -> None:
    """Tables in the papers' layouts (rows: models and the settings that split them; the papers' columns and
    units; 95% intervals where the papers print them or n < 100) for the runs in LOG_DIR. When two runs share
    task, model and settings the newest is used; unfinished runs are listed, never mixed in."""
    from figeval._registry import BENCHMARKS
    from figeval.results.logs import log_files
    from figeval.reporting.render import RENDERERS
    from figeval.results.report import build_report

    refuse_repeated_labels(human)
    fmt = "json" if as_json else fmt
    extension, render = ("html", None) if fmt == "html" else RENDERERS[fmt]
    report_file = out / f"report.{extension}" if out is not None else None
    for folder, option in ((out, "--out"), (figures, "--figures")):
        if folder is not None:
            refuse_non_folder(folder, option)
    with_paper = paper if paper is not None else fmt in ("html", "markdown")
    # the logs are read and checked, and the labels with the runs they label, before any table is built
    result = build_report(log_dir, BENCHMARKS, tasks, paper=with_paper, leaderboard=leaderboard, human=human,
                          families=named_families(families), baseline=baseline, refuse_empty=True,
                          note=lambda line: click.echo(f"note: {line}", err=True))  # stderr: --json stays valid
    drawn: dict[Path, bytes] = {}
    if render is not None:
        text = render(result)
    if figures is not None or fmt == "html":
        # the figures are made once, for the files and for the page
        from figeval.reporting.figures import close, drawn_figures
        from figeval.reporting.figures import figures as figures_of
        from figeval.reporting.html import render_html

        found = figures_of(result, BENCHMARKS)
        drawn = drawn_figures(found, figures) if figures is not None else {}
        if fmt == "html":
            text = render_html(result, found)
        close(found)
    # every output is checked against what the report read before anything is written
    inputs = [*log_files([log_dir]), *human]
    if report_file is not None:
        check_outputs([report_file], inputs, "--out DIR/" + report_file.name)
    check_outputs(drawn, inputs, "--figures")
    if report_file is None:
        click.echo(text, nl=False)
    else:
        report_file.parent.mkdir(parents=True, exist_ok=True)
        write_text(report_file, text)
        click.echo(f"wrote {report_file}")
    if figures is not None:
        figures.mkdir(parents=True, exist_ok=True)
    for path, data in drawn.items():
        write_bytes(path, data)
        click.echo(f"wrote {path}")


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


def refuse_repeated_labels(human: Sequence[Path]) -> None:
    """Refuses a labels file given twice to --human, by path or under another name (same bytes): its judge-vs-
    people rows would be printed twice, as if two sets of labels agreed.

    Raises:
        FigevalError: naming the option and the file.
    """
    by_path: dict[Path, Path] = {}
    by_content: dict[bytes, Path] = {}
    for path in human:
        if path.resolve() in by_path:
            raise FigevalError(f"--human {path} is given twice (also as {by_path[path.resolve()]}); give each labels "
                               "file once.")
        by_path[path.resolve()] = path
        try:
            content = path.read_bytes()
        except OSError:
            continue  # the labels reader names the file and what is wrong with it
        if content in by_content:
            raise FigevalError(f"--human {by_content[content]} and --human {path} have the same content (one labels "
                               "file under two names); give it once.")
        by_content[content] = path

