"""What the data dir holds: where each dataset's files go, the record of the sha256 of files without a pinned
one, and the state of each stored file (`figeval data list` and `verify`, and every task before it reads data).

Files live in `<data dir>/<dataset>/<upstream file name>`. The data dir is a per-user cache directory unless
`FIGEVAL_DATA_DIR` is set. The sha256 of a file without a pinned one (verified by git blob id, extracted from a
verified archive, or trusted on first import once its content passed) is recorded in `recorded-sha256.json`
beside it. Nothing on disk makes `file_statuses` raise: a data dir that is a file, a folder where a file goes, a
damaged record each give a state with one line that names the path and the command that repairs it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import platformdirs

from figeval.data.source import DataFile, DatasetSource
from figeval.errors import DataError

DATA_DIR_ENV = "FIGEVAL_DATA_DIR"
RECORDED_HASHES = "recorded-sha256.json"
_SHA256_HEX = re.compile(r"[0-9a-f]{64}")


def data_dir() -> Path:
    override = os.environ.get(DATA_DIR_ENV)
    return Path(override) if override else Path(platformdirs.user_cache_dir("figeval")) / "data"


def dataset_dir(source: DatasetSource) -> Path:
    return data_dir() / source.name


def record_path(source: DatasetSource) -> Path:
    return dataset_dir(source) / RECORDED_HASHES


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def git_blob_id(path: Path) -> str:
    """The id git gives the file's content: SHA-1 of "blob <size>\\0" followed by the bytes."""
    digest = hashlib.sha1(f"blob {path.stat().st_size}\0".encode())
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def store_command(source: DatasetSource, replace: bool = False) -> str:
    """The command that stores the dataset (again), as a message quotes it."""
    flag = " --replace" if replace else ""
    if source.downloads:
        return f"`figeval data fetch {source.name}{flag}` (or `figeval data import {source.name} FOLDER{flag}`)"
    return f"`figeval data import {source.name} FOLDER{flag}`"


# --- where the data goes: the data dir, a dataset's folder, a file's place ----------------------------------


def _not_a_folder(path: Path) -> Path | None:
    """The nearest folder above `path` that exists as something else (e.g. the data dir is a file), if any."""
    for folder in path.parents:
        if folder.is_dir():
            return None
        if folder.exists() or folder.is_symlink():
            return folder
    return None


def data_dir_problem() -> str | None:
    """One line when the data dir cannot be a folder: it, or a folder it would be created in, is a file."""
    directory = data_dir()
    blocker = _not_a_folder(directory / RECORDED_HASHES)
    if blocker is None:
        return None
    where = "is" if blocker == directory else f"cannot be created: {blocker} is"
    return (f"the data dir {directory} {where} a file, not a folder; move it away or set {DATA_DIR_ENV} to a folder "
            "(figeval keeps the datasets there).")


def _folder_problem(source: DatasetSource) -> str | None:
    """One line when the dataset's folder cannot be there: the data dir, a folder above it, or the dataset's
    folder itself is a file."""
    problem = data_dir_problem()
    if problem:
        return problem
    folder = dataset_dir(source)
    if _not_a_folder(folder / RECORDED_HASHES) == folder:
        return (f"{folder} is a file, not a folder: figeval keeps the files of {source.name} in a folder of that name; "
                f"move the file away, then run {store_command(source)}.")
    return None


def _place_problem(source: DatasetSource, name: str) -> str | None:
    """One line when a folder stands where the dataset's file `name` goes."""
    place = dataset_dir(source) / name
    if place.is_dir():
        return (f"{place} is a folder where figeval keeps the file '{name}' of {source.name}; move it away, then run "
                f"{store_command(source)}.")
    return None


def storage_problem(source: DatasetSource) -> str | None:
    """One line when the dataset cannot be stored: its folder cannot be there, or a folder stands where one of
    its files or its record goes."""
    names = [file.name for file in source.files] + [RECORDED_HASHES]
    return _folder_problem(source) or next(filter(None, (_place_problem(source, name) for name in names)), None)


# --- the record of the sha256 of files without a pinned one -------------------------------------------------


def _read_record(path: Path) -> dict[str, str] | str:
    """The record's name -> sha256, or why it cannot be used (a few words)."""
    try:
        record = json.loads(path.read_bytes().decode("utf-8"))
    except IsADirectoryError:
        return "it is a folder: move it away"
    except OSError as error:
        return f"it cannot be read: {error.strerror}"
    except UnicodeDecodeError:
        return "it is not UTF-8 text"
    except json.JSONDecodeError as error:
        return f"not JSON, or cut off: {error.msg} (line {error.lineno}, column {error.colno})"
    if isinstance(record, dict) and all(isinstance(name, str) and isinstance(digest, str)
                                        and _SHA256_HEX.fullmatch(digest) for name, digest in record.items()):
        return record
    return "JSON, but not an object of file names and 64-hex-digit sha256s"


def _damaged_record(source: DatasetSource, why: str) -> str:
    trusted = [file.name for file in source.files if not source.pins_bytes(file)]
    if trusted:
        fix = (f"run `figeval data import {source.name} FOLDER --replace` with the files to trust "
               f"({', '.join(map(repr, trusted))}: their content is checked and their sha256 recorded again)")
    else:
        fix = f"run {store_command(source)}, which checks the files against their pins and records them again"
    return (f"{record_path(source)} is damaged ({why}); it records the sha256 of the files of {source.name} as "
            f"first stored: {fix}.")


def recorded_hashes(source: DatasetSource) -> dict[str, str]:
    """The sha256 of each file without a pinned one, as first stored (verified against its git blob id or its
    archive, or trusted on first import for an unpinned source once its content passed).

    Raises:
        DataError: the record is damaged (the message names it and the command that writes it again).
    """
    path = record_path(source)
    if not (path.exists() or path.is_symlink()):
        return {}
    record = _read_record(path)
    if isinstance(record, str):
        raise DataError(_damaged_record(source, record))
    return record


def expected_sha256(source: DatasetSource, file: DataFile) -> str | None:
    """The pinned hash, else the one recorded when the file was first stored, else None (nothing known yet)."""
    return file.sha256 or recorded_hashes(source).get(file.name)


# --- the state of stored files ------------------------------------------------------------------------------


class FileState(str, Enum):
    OK = "ok"
    MISSING = "missing"
    MISMATCH = "sha256 mismatch"
    UNVERIFIABLE = "unverifiable"
    """Stored, but its recorded sha256 is damaged or absent: nothing says it is the file first stored."""
    UNREADABLE = "unreadable"
    """Stored, but it cannot be read (permissions)."""


@dataclass(frozen=True)
class FileStatus:
    file: DataFile
    path: Path
    state: FileState
    sha256: str | None
    problem: str = ""
    """One line naming the path and what to do: for every state but OK, and for a file missing because it cannot
    be stored where it belongs (the data dir is a file, a folder stands in its place); empty for a file simply not
    stored yet (fetching or importing it is all there is to do)."""


def file_statuses(source: DatasetSource) -> list[FileStatus]:
    """Whether each file of the dataset is stored and matches its pin (hashes every present file). Never
    raises for what is on disk: a damaged record or a blocked place is a state with its problem."""
    blocked = _folder_problem(source)
    if blocked:
        return [FileStatus(file, dataset_dir(source) / file.name, FileState.MISSING, None, blocked)
                for file in source.files]
    try:
        recorded, damage = recorded_hashes(source), ""
    except DataError as error:
        recorded, damage = {}, str(error)
    return [_status(source, file, recorded, damage) for file in source.files]


def _status(source: DatasetSource, file: DataFile, recorded: dict[str, str], damage: str) -> FileStatus:
    path = dataset_dir(source) / file.name
    blocked = _place_problem(source, file.name)
    if blocked:
        return FileStatus(file, path, FileState.MISSING, None, blocked)
    if not path.is_file():
        return FileStatus(file, path, FileState.MISSING, None)
    try:
        actual = sha256_of(path)
        if file.sha256 is None and damage:
            return FileStatus(file, path, FileState.UNVERIFIABLE, actual, damage)
        expected = file.sha256 or recorded.get(file.name)
        if expected is None and file.git_blob is None:
            return FileStatus(file, path, FileState.UNVERIFIABLE, actual, (
                f"{record_path(source)} records no sha256 for {path}, so nothing says it is the file first stored; "
                f"run {store_command(source, replace=not source.pins_bytes(file))}."))
        matches = actual == expected if expected else git_blob_id(path) == file.git_blob
    except OSError as error:
        return FileStatus(file, path, FileState.UNREADABLE, None,
                          f"{path} cannot be read ({error.strerror}); make it readable, or delete it and run "
                          f"{store_command(source)}.")
    if matches:
        return FileStatus(file, path, FileState.OK, actual)
    if source.pins_bytes(file):
        fix = f"delete it and run {store_command(source)}"
    else:
        fix = (f"delete it and run `figeval data import {source.name} FOLDER` with the file first stored "
               "(--replace to trust another version)")
    return FileStatus(file, path, FileState.MISMATCH, actual, (
        f"{path} does not match the {source.name} pin (sha256 {actual}, expected "
        f"{expected or f'git blob {file.git_blob}'}); {fix}."))
