"""The `figeval` command: run benchmarks, report results, manage data, annotate, check judges, build data.

A thin layer over Inspect AI with defaults for this field: the embedded model when none is given, logprob
answers for base gguf models, the response cache on (a re-run does not pay twice for a model call), and a
summary table at the end. Problems the user can fix are printed as one line, without a traceback. One module
per command group (`run/`, a package: the command over the run library, figeval.running); the logic they call
lives in the modules that own it.
"""

from __future__ import annotations

import sys

import click

from figeval.cli.annotate import annotate
from figeval.cli.build import build
from figeval.cli.data import data
from figeval.cli.judge import judge
from figeval.cli.list import list_tasks
from figeval.cli.report import report
from figeval.cli.run import run
from figeval.errors import FigevalError


@click.group()
@click.version_option(package_name="figeval")
def cli() -> None:
    """figeval: hallucination and figurative-language benchmarks for Persian and Turkish, on Inspect AI."""


for command in (run, list_tasks, report, data, annotate, judge, build):
    cli.add_command(command)


def main() -> None:
    try:
        cli.main(standalone_mode=False)
    except FigevalError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.UsageError as error:
        # one line, like figeval's own errors (click's usage banner and hint are three)
        command = error.ctx.command_path if error.ctx else "figeval"
        click.echo(f"error: {error.format_message()} (see `{command.replace('python -m ', '')} --help`)", err=True)
        sys.exit(error.exit_code)
    except OSError as error:
        # the environment refused a file operation that no check above it foresaw (a folder where a file was
        # expected, a full disk, a permission): still one line naming the path, never a traceback
        where = f"{error.filename}: " if error.filename else ""
        click.echo(f"error: {where}{error.strerror or error}; check that the path is the file or folder you meant and "
                   "that it can be read or written.", err=True)
        sys.exit(2)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
