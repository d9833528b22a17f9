"""`figeval build` serves the builder commands every registered benchmark declares, read when the command line
is, without naming any benchmark."""

import click
import pytest

import figeval._registry as registry
from figeval.benchmark import Benchmark
from tests.command import assert_one_line_error, figeval


def toy(name: str, *builders: click.Command) -> Benchmark:
    return Benchmark(name=name, title=name.upper(), citation="nobody", tasks=(),
                     builders=builders)


@click.command("toy-data")
def toy_data() -> None:
    """Write the toy benchmark's data."""
    click.echo("toy data written")


def test_a_registered_benchmark_s_builder_is_served(monkeypatch: pytest.MonkeyPatch):
    # the registry is read when the command line is: a benchmark listed after the CLI was imported is served too
    monkeypatch.setattr(registry, "BENCHMARKS", (*registry.BENCHMARKS, toy("toy", toy_data)))
    result = figeval("build", "toy-data")
    assert (result.returncode, result.stdout) == (0, "toy data written\n")
    listed = [line.split() for line in figeval("build", "--help").stdout.splitlines()]
    assert ["toy-data", "Write", "the", "toy", "benchmark's", "data."] in listed


def test_two_benchmarks_declaring_one_command_name_is_one_line(monkeypatch: pytest.MonkeyPatch):
    other = click.Command("toy-data", callback=lambda: None)
    monkeypatch.setattr(registry, "BENCHMARKS", (toy("toy-a", toy_data), toy("toy-b", other)))
    assert_one_line_error(figeval("build", "toy-data"),
                          "benchmarks toy-a and toy-b both declare `figeval build toy-data`; "
                          "rename one of the commands.")
