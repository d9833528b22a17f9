"""`figeval build`: fresh benchmark data written by a model, for people to check.

Each benchmark declares its commands (`Benchmark.builders`); this group serves those of every registered
benchmark. It looks them up when the command line is read, as `_registry`'s look-ups read `BENCHMARKS` when
called: importing the CLI (which `figeval --help` and every other command do) loads no benchmark, and a benchmark
the registry lists is served with no change here.
"""

from __future__ import annotations

import click

from figeval.errors import FigevalError


def builders() -> dict[str, click.Command]:
    """Every registered benchmark's builder commands, by their name under `figeval build`.

    Raises:
        FigevalError: two benchmarks declare commands of the same name (one would hide the other).
    """
    from figeval._registry import BENCHMARKS

    found: dict[str, tuple[str, click.Command]] = {}
    for benchmark in BENCHMARKS:
        for command in benchmark.builders:
            if command.name in found and found[command.name][1] is not command:
                raise FigevalError(f"benchmarks {found[command.name][0]} and {benchmark.name} both declare "
                                   f"`figeval build {command.name}`; rename one of the commands.")
            found[command.name] = (benchmark.name, command)
    return {name: command for name, (_, command) in found.items()}


class BuildersGroup(click.Group):
    """A group whose commands are the registered benchmarks' builders (`builders`), besides any added to it."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *builders()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, cmd_name) or builders().get(cmd_name)


@click.group(cls=BuildersGroup)
def build() -> None:
    """Build fresh benchmark data with a model."""
