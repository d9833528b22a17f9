"""`figeval build`: fresh benchmark data written by a model, for people to check.

Each benchmark declares its commands (`Benchmark.builders`); this group serves those of every registered
benchmark. It looks them up when the command line is read, as `_registry`'s look-ups read `BENCHMARKS` when
called: importing the CLI (which `figeval --help` and every other command do) loads no benchmark, and a benchmark
the registry lists is served with no change here.
"""

from __future__ import annotations

import click



def builders() -> dict[str, click.Command]:
    """Every registered benchmark's builder commands, by their name under `figeval build`: the benchmark's name and
    what the command builds ("ffe-hallu-fakes")."""
    from figeval._registry import BENCHMARKS

    return {f"{benchmark.name}-{command.name}": command for benchmark in BENCHMARKS for command in benchmark.builders}


def former_names() -> dict[str, str]:
    """{a builder's former name: its name now}, as the benchmarks declare them."""
    from figeval._registry import BENCHMARKS

    return {former: f"{benchmark.name}-{name}" for benchmark in BENCHMARKS
            for former, name in benchmark.former_builder_names.items()}


class BuildersGroup(click.Group):
    """A group whose commands are the registered benchmarks' builders (`builders`), besides any added to it; a
    former name still runs its command, after a line naming the new one."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *builders()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name) or builders().get(cmd_name)
        if found is None and cmd_name in former_names():
            now = former_names()[cmd_name]
            click.echo(f"figeval: `figeval build {cmd_name}` is now `figeval build {now}`; the former name will "
                       "be removed in a later release.", err=True)
            found = builders()[now]
        return found


@click.group(cls=BuildersGroup)
def build() -> None:
    """Build fresh benchmark data with a model (`figeval build <benchmark>-<what>`)."""
