"""How files enter the data dir, for a fetch and an import alike: produced in a staging folder, checked, moved in.

A fetch or import writes every file of a dataset into a staging folder in the data dir, reads each file trusted
on first import against the columns the registry declares and every file with the dataset's own reader, checks
each against its pin (its sha256, its git blob id, or the sha256 of the archive it is extracted from), and only
then moves them into the dataset's folder. A failed, interrupted or killed fetch or import leaves the stored files
as they were; the next one removes the staging folder a killed one left. The record of sha256s (`stored`) is
written whole (atomically) before the files it describes are moved in, so a kill between the two leaves files
that a re-run replaces without asking for trust again. A damaged record is repaired by a fetch or import, with
--replace where the record was all that vouched for a stored file trusted on first import.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from figeval.data.source import DataFile, DatasetSource
from figeval.data.stored import (
    DATA_DIR_ENV,
    data_dir,
    dataset_dir,
    git_blob_id,
    record_path,
    recorded_hashes,
    sha256_of,
    storage_problem,
)
from figeval.data.table import read_table
from figeval.errors import DataError
from figeval.output import write_text

Report = Callable[[str], None]
# A dataset's own reader, run on the staged files (name -> path): a file that the benchmark cannot read is never
# stored nor its hash trusted. What it returns (the rows it read) is not used.
DataCheck = Callable[[dict[str, Path]], object]


def quiet(_: str) -> None:
    pass


# --- checking the staged files ------------------------------------------------------------------------------


def _check_content(source: DatasetSource, staged: dict[str, Path], origin: str) -> None:
    """Each file trusted on first import read against the columns the registry declares for it (format, header,
    script of each text column, longest cell), whether or not a benchmark's reader is registered: its sha256 is
    recorded as trusted only after this."""
    for file in source.files:
        if source.pins_bytes(file):
            continue
        if not file.columns:
            raise DataError(f"{source.name}: '{file.name}' has no pin and no declared columns in figeval's data "
                            "registry, so its content cannot be checked; nothing was stored.")
        try:
            read_table(staged[file.name], file.columns)
        except DataError as error:
            raise DataError(f"{origin}: {error} Nothing was stored.") from None


def _run_check(source: DatasetSource, check: DataCheck | None, staged: dict[str, Path], origin: str) -> None:
    if check is None:
        return
    try:
        check(staged)
    except DataError as error:
        raise DataError(f"{origin}: {error} Nothing was stored.") from None
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as error:  # a layout the reader did not expect
        raise DataError(f"{origin}: the files are not in the layout {source.name} has ({type(error).__name__}: "
                        f"{error}); nothing was stored. Upstream: {source.pin}.") from None


def _check_pin(source: DatasetSource, file: DataFile, path: Path, origin: str, replace: bool, report: Report) -> str:
    """The file's sha256 once it is known to match its pin (sha256, git blob id, or the sha256 first recorded
    for a file trusted on first import, which `replace` lets a new version take over). Files extracted from a
    verified archive have no pin of their own."""
    actual = sha256_of(path)
    if source.archive is not None:
        return actual
    if file.git_blob is not None and file.sha256 is None:
        blob = git_blob_id(path)
        if blob != file.git_blob:
            raise DataError(f"{origin}: '{file.name}' has git blob id {blob}, but {source.name} is pinned to "
                            f"{file.git_blob}; nothing was stored. The file is not the pinned upstream version "
                            f"({source.pin}).")
        return actual
    if file.sha256 is None:
        return _check_trusted(source, file, actual, origin, replace, report)
    if actual == file.sha256:
        return actual
    raise DataError(f"{origin}: '{file.name}' has sha256 {actual}, but {source.name} is pinned to {file.sha256}; "
                    f"nothing was stored. The file is not the pinned upstream version ({source.pin}).")


def _check_trusted(source: DatasetSource, file: DataFile, actual: str, origin: str, replace: bool,
                   report: Report) -> str:
    """A file trusted on first import (its content already passed): its first store is trusted, and so is a
    later one with the sha256 first recorded; another version, or any version when the record of the stored
    file is damaged or absent, only with `replace`."""
    try:
        expected, damage = recorded_hashes(source).get(file.name), ""
    except DataError as error:
        expected, damage = None, str(error)
    stored = (dataset_dir(source) / file.name).is_file()
    if expected is None and stored:
        if not replace:
            why = damage or (f"{record_path(source)} records no sha256 for the stored '{file.name}', so nothing says "
                             f"which file was first trusted: run `figeval data import {source.name} FOLDER --replace` "
                             "to trust this one.")
            raise DataError(f"{origin}: {why} Nothing was stored.")
        report(f"{file.name}: recording sha256 {actual} (the record of the stored file was damaged or absent)")
        return actual
    if expected is None or actual == expected:
        return actual
    if replace:
        report(f"{file.name}: replacing the recorded sha256 {expected} with {actual}")
        return actual
    raise DataError(f"{origin}: '{file.name}' has sha256 {actual}, but {source.name} was first stored with "
                    f"{expected}; nothing was stored. If this file is the one to use, import or fetch it again "
                    "with --replace.")


# --- the staging folder and the move into the dataset's folder ----------------------------------------------


@contextmanager
def _staging(source: DatasetSource) -> Iterator[Path]:
    """A fresh staging folder in the data dir, named with this process's id (so that a later run can tell a
    killed run's leftover from a running one's), removed when done."""
    try:
        data_dir().mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=data_dir(), prefix=f".{source.name}-{os.getpid()}-"))
    except OSError as error:
        raise DataError(f"cannot write in the data dir {data_dir()} ({error.strerror}); set {DATA_DIR_ENV} to a "
                        "folder you can write to.") from None
    try:
        yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _remove_abandoned_staging(source: DatasetSource) -> None:
    """Remove the staging folders of this dataset left by fetches or imports that were killed (their process is
    gone from this machine); a running one's is left alone."""
    leftover = re.compile(rf"\.{re.escape(source.name)}-(\d+)-[^-]+")
    try:
        candidates = list(data_dir().iterdir())
    except OSError:
        return
    for path in candidates:
        match = leftover.fullmatch(path.name)
        if match and path.is_dir() and not _running(int(match[1])):
            shutil.rmtree(path, ignore_errors=True)


def _running(pid: int) -> bool:
    if pid == os.getpid() or os.name == "nt":  # Windows' os.kill ends the process rather than probing it
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def _move_in(source: DatasetSource, staging: Path, hashes: dict[str, str]) -> None:
    """The record first (whole), then each file: os.replace within one filesystem is atomic, so a reader sees
    the old file or the new one, and a kill between two steps leaves files a re-run completes."""
    target = dataset_dir(source)
    target.mkdir(exist_ok=True)
    recorded = {file.name: hashes[file.name] for file in source.files if file.sha256 is None}
    if recorded:
        write_text(record_path(source), json.dumps(recorded, indent=1))
    for file in source.files:
        os.replace(staging / file.name, target / file.name)


def store_verified(source: DatasetSource, produce: Callable[[Path], None], origin: str, check: DataCheck | None,
                   replace: bool = False, report: Report = quiet) -> Path:
    """Let `produce` write every file of `source` into a staging folder, check each file's content, read them
    with the dataset's own reader (`check`, None when no benchmark registered one), check each against its pin,
    then move them in. `replace` trusts files of an unpinned dataset whose hashes differ from those first
    recorded (their content passed); a pinned file must match its pin.

    Returns:
        The dataset's folder.
    """
    problem = storage_problem(source)
    if problem:
        raise DataError(problem)
    _remove_abandoned_staging(source)
    with _staging(source) as staging:
        try:
            produce(staging)
            staged = {file.name: staging / file.name for file in source.files}
            _check_content(source, staged, origin)
            _run_check(source, check, staged, origin)
            hashes = {file.name: _check_pin(source, file, staged[file.name], origin, replace, report)
                      for file in source.files}
            _move_in(source, staging, hashes)
        except OSError as error:  # a file that cannot be read, a disk full
            where = f"{error.filename}: " if error.filename else ""
            raise DataError(f"{origin}: {where}{error.strerror or error}; {source.name} was not stored. Check that "
                            f"the files can be read and the data dir {data_dir()} written (or set "
                            f"{DATA_DIR_ENV}).") from None
    return dataset_dir(source)


def extract_archive(source: DatasetSource, archive: Path, staging: Path, origin: str) -> None:
    """Check the archive's sha256 against the pin, then extract each file of the dataset from it into `staging`."""
    assert source.archive is not None
    actual = sha256_of(archive)
    if actual != source.archive.sha256:
        raise DataError(f"{origin}: '{archive.name}' has sha256 {actual}, but {source.name} is pinned to "
                        f"{source.archive.sha256}; nothing was stored. The file is not the published "
                        f"{source.archive.name} ({source.pin}).")
    try:
        with zipfile.ZipFile(archive) as bundle:
            inside = set(bundle.namelist())
            for file in source.files:
                member = file.member or file.name
                if member not in inside:
                    raise DataError(f"{origin}: '{archive.name}' has no '{member}'; {source.name} needs "
                                    f"{', '.join(repr(f.member or f.name) for f in source.files)} in it; "
                                    "nothing was stored.")
                with bundle.open(member) as packed, (staging / file.name).open("wb") as out:
                    shutil.copyfileobj(packed, out)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError) as error:
        raise DataError(f"{origin}: '{archive.name}' cannot be extracted ({error}); nothing was stored.") from None
