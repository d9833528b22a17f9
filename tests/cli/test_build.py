"""`figeval build` serves the builder commands every registered benchmark declares, read when the command line
is, without naming any benchmark."""

import click
import pytest

import figeval._registry as registry
from figeval.benchmark import Benchmark
from tests.command import figeval


def toy(name: str, *builders: click.Command, former: dict[str, str] | None = None) -> Benchmark:
    return Benchmark(name=name, title=name.upper(), citation="nobody", tasks=(), builders=builders,
                     former_builder_names=former or {})


@click.command("data")
def toy_data() -> None:
    """Write the toy benchmark's data."""
    click.echo("toy data written")


def test_a_registered_benchmark_s_builder_is_served_under_a_name_that_says_whose(monkeypatch: pytest.MonkeyPatch):
    # the registry is read when the command line is: a benchmark listed after the CLI was imported is served too,
    # as `figeval build <benchmark>-<what it builds>`
    monkeypatch.setattr(registry, "BENCHMARKS", (*registry.BENCHMARKS, toy("toy", toy_data)))
    result = figeval("build", "toy-data")
    assert (result.returncode, result.stdout) == (0, "toy data written\n")
    listed = [line.split() for line in figeval("build", "--help").stdout.splitlines()]
    assert ["toy-data", "Write", "the", "toy", "benchmark's", "data."] in listed


def test_two_benchmarks_may_build_things_of_one_name(monkeypatch: pytest.MonkeyPatch):
    other = click.Command("data", callback=lambda: click.echo("other data written"))
    monkeypatch.setattr(registry, "BENCHMARKS", (toy("toy-a", toy_data), toy("toy-b", other)))
    assert figeval("build", "toy-a-data").stdout == "toy data written\n"
    assert figeval("build", "toy-b-data").stdout == "other data written\n"


def test_a_former_name_still_builds_and_says_the_new_one(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(registry, "BENCHMARKS", (toy("toy", toy_data, former={"old-data": "data"}),))
    result = figeval("build", "old-data")
    assert (result.returncode, result.stdout) == (0, "toy data written\n")
    assert result.stderr == ("figeval: `figeval build old-data` is now `figeval build toy-data`; the former name "
                             "will be removed in a later release.\n")
    # the former name is not listed
    assert "old-data" not in figeval("build", "--help").stdout
