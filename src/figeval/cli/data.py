"""`figeval data`: list, fetch, import and verify the pinned benchmark data."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from figeval.errors import DataError, FigevalError

if TYPE_CHECKING:
    from figeval.data.source import DatasetSource
    from figeval.data.stored import FileStatus


def _usable_data_dir() -> None:
    """Raises DataError (one line) when the data dir is a file, or cannot be created because a folder above is."""
    from figeval.data.stored import data_dir_problem

    problem = data_dir_problem()
    if problem:
        raise DataError(problem)


@click.group()
def data() -> None:
    """List, fetch, import and verify the pinned benchmark data."""


@data.command("list")
def data_list() -> None:
    """What datasets are known, whether they are present, and where."""
    from figeval._registry import datasets
    from figeval.data.stored import data_dir, dataset_dir, file_statuses

    _usable_data_dir()
    click.echo(f"data dir: {data_dir()} (set FIGEVAL_DATA_DIR to change)")
    for source in datasets().values():
        statuses = file_statuses(source)
        states = {s.state.value for s in statuses}
        overall = "present" if states == {"ok"} else "missing" if states == {"missing"} else ", ".join(sorted(states))
        click.echo(f"{source.name}: {overall} - {source.description}")
        click.echo(f"  source: {source.pin}")
        click.echo(f"  at: {dataset_dir(source)}")
        if not source.downloads:
            click.echo(f"  download: none known; `figeval data import {source.name} FOLDER` with the files")
        elif source.archive is not None:
            click.echo(f"  download: {source.downloads[0][1]} (extracted: "
                       f"{', '.join(file.name for file in source.files)})")
        for status in statuses:
            click.echo(f"    {status.file.name}: {status.state.value}")
        for problem in _fixes(statuses):
            click.echo(f"  to repair: {problem}")


def _fixes(statuses: list[FileStatus]) -> list[str]:
    """What to do about the files, each problem said once (a damaged record or a blocked folder is one problem
    of several files); a file simply not stored yet needs no more than the fetch/import line."""
    return list(dict.fromkeys(status.problem for status in statuses if status.problem))


def _register_readers() -> None:
    """Import the benchmarks, which register each dataset's reader with the store (run before storing)."""
    import figeval._registry  # noqa: F401


@data.command("fetch")
@click.argument("name")
@click.option("--replace", is_flag=True,
              help="Trust new versions of unpinned files (their recorded sha256 is replaced).")
def data_fetch(name: str, replace: bool) -> None:
    """Download NAME from its pinned source, read it with its benchmark's reader, verify sha256, store it.

    A dataset with no known public download says where its paper puts the data and how to import it."""
    from figeval._registry import get_source
    from figeval.data.store import fetch

    _register_readers()
    target = fetch(get_source(name), report=click.echo, replace=replace)
    click.echo(f"{name}: stored and verified in {target}")


@data.command("import")
@click.argument("name")
@click.argument("folder", metavar="FOLDER", type=click.Path(path_type=Path))
@click.option("--replace", is_flag=True,
              help="Trust new versions of unpinned files (their recorded sha256 is replaced).")
def data_import(name: str, folder: Path, replace: bool) -> None:
    """Copy NAME's files from a local FOLDER (offline machines), read and verified like a fetch.

    FOLDER holds the files as published (or is a clone holding them at their published paths); a dataset
    published as an archive is imported from the archive as downloaded: FOLDER holds it, or is its path."""
    from figeval._registry import get_source
    from figeval.data.store import import_folder

    _register_readers()
    target = import_folder(get_source(name), folder, replace=replace, report=click.echo)
    click.echo(f"{name}: imported from {folder}, verified, stored in {target}")


@data.command("verify")
@click.argument("name", required=False)
def data_verify(name: str | None) -> None:
    """Check the stored files of NAME (or of every dataset) against their pinned sha256."""
    from figeval._registry import datasets, get_source
    from figeval.data.stored import FileState, file_statuses

    sources = [get_source(name)] if name else list(datasets().values())
    _usable_data_dir()
    unmatched: list[tuple[DatasetSource, FileStatus]] = []
    for source in sources:
        statuses = file_statuses(source)
        for status in statuses:
            click.echo(f"{source.name}/{status.file.name}: {status.state.value}")
        unmatched += [(source, status) for status in statuses if status.state is not FileState.OK]
        for problem in _fixes(statuses):
            click.echo(f"{source.name}: to repair: {problem}")
    if unmatched:
        raise FigevalError(_unmatched_line(unmatched))


_NAMED_FILES = 3
"""How many unmatched files the error line of `verify` names; the lines above it list every one."""


def _unmatched_line(unmatched: list[tuple[DatasetSource, FileStatus]]) -> str:
    """The one error line of `verify`: the files it is about (the first few) and what restores them. A single
    repair line (a folder in a file's place, a damaged record) already names its file and its command, so it is
    the fix; several are each said above, and the store command follows them."""
    from figeval.data.stored import store_command

    named = [f"{status.path} ({status.state.value})" for _, status in unmatched[:_NAMED_FILES]]
    more = len(unmatched) - len(named)
    files = ", ".join(named) + (f" and {more} more" if more else "")
    problems = list(dict.fromkeys(status.problem for _, status in unmatched if status.problem))
    sources = list({source.name: source for source, _ in unmatched}.values())
    if len(problems) == 1 and all(status.problem for _, status in unmatched):
        fix = problems[0]
    else:
        first = "after what each 'to repair' line above says, " if problems else ""
        if len(sources) == 1:
            fix = f"{first}run {store_command(sources[0])}."
        else:
            fix = (f"{first}run `figeval data fetch NAME` (or `figeval data import NAME FOLDER`) for each of "
                   f"{', '.join(source.name for source in sources)}.")
    return f"{len(unmatched)} file(s) missing or not matching their pin: {files}; {fix}"
