"""The local data directory: fetch, import and verify pinned dataset files.

Files live in `<data dir>/<dataset>/<upstream file name>`. The data dir is a per-user cache directory unless
`FIGEVAL_DATA_DIR` is set. Every file is checked against its pinned SHA-256 before it is stored, and a
dataset's files are stored only when all of them check out, so a failed fetch or import leaves nothing
half-stored behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable, Collection
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import platformdirs

from figeval.data.registry import DataFile, DatasetSource
from figeval.errors import DataError

DATA_DIR_ENV = "FIGEVAL_DATA_DIR"
_DOWNLOAD_TIMEOUT_S = 60


def data_dir() -> Path:
    override = os.environ.get(DATA_DIR_ENV)
    return Path(override) if override else Path(platformdirs.user_cache_dir("figeval")) / "data"


def dataset_dir(source: DatasetSource) -> Path:
    return data_dir() / source.name


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


RECORDED_HASHES = "recorded-sha256.json"


def recorded_hashes(source: DatasetSource) -> dict[str, str]:
    """For an unpinned source: the sha256 of each file as first stored (trust on first fetch)."""
    path = dataset_dir(source) / RECORDED_HASHES
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def expected_sha256(source: DatasetSource, file: DataFile) -> str | None:
    """The pinned hash, else the one recorded when the file was first stored, else None (nothing known yet)."""
    return file.sha256 or recorded_hashes(source).get(file.name)


class FileState(str, Enum):
    OK = "ok"
    MISSING = "missing"
    MISMATCH = "sha256 mismatch"


@dataclass(frozen=True)
class FileStatus:
    file: DataFile
    path: Path
    state: FileState
    sha256: str | None


def file_statuses(source: DatasetSource) -> list[FileStatus]:
    """Whether each file of the dataset is stored and matches its pin (hashes every present file)."""
    statuses = []
    for file in source.files:
        path = dataset_dir(source) / file.name
        if not path.is_file():
            statuses.append(FileStatus(file, path, FileState.MISSING, None))
            continue
        actual = sha256_of(path)
        state = FileState.OK if actual == expected_sha256(source, file) else FileState.MISMATCH
        statuses.append(FileStatus(file, path, state, actual))
    return statuses


# Each dataset's own reader, run on the files before anything is stored (a benchmark registers it when its
# dataset module is imported): a file that the benchmark cannot read is never stored nor its hash trusted.
DataCheck = Callable[[dict[str, Path]], None]
CHECKS: dict[str, DataCheck] = {}


def register_check(dataset: str, check: DataCheck) -> None:
    CHECKS[dataset] = check


def _run_check(source: DatasetSource, staged: dict[str, Path], origin: str) -> None:
    check = CHECKS.get(source.name)
    if check is None:
        return
    try:
        check(staged)
    except DataError as error:
        raise DataError(f"{origin}: {error} Nothing was stored.") from None
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as error:  # a layout the reader did not expect
        raise DataError(f"{origin}: the files are not in the layout {source.name} has ({type(error).__name__}: "
                        f"{error}); nothing was stored. Upstream: {source.pin}.") from None


def _store_verified(source: DatasetSource, produce: Callable[[DataFile, Path], None], origin: str,
                    replace: bool = False, report: Callable[[str], None] = lambda _: None) -> Path:
    """Write every file of `source` into a staging dir with `produce`, read them with the dataset's own reader,
    check all hashes, then move them in. `replace` trusts files of an unpinned dataset whose hashes differ from
    those first recorded (they passed the reader); a pinned file must match its pin."""
    target = dataset_dir(source)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=f".{source.name}-") as staging_name:
        staging = Path(staging_name)
        for file in source.files:
            produce(file, staging / file.name)
        _run_check(source, {file.name: staging / file.name for file in source.files}, origin)
        hashes: dict[str, str] = {}
        for file in source.files:
            actual = sha256_of(staging / file.name)
            expected = expected_sha256(source, file)
            if expected is not None and actual != expected:
                if file.sha256 is None and replace:
                    report(f"{file.name}: replacing the recorded sha256 {expected} with {actual}")
                else:
                    how = "is pinned to" if file.sha256 else "was first stored with"
                    what = (
                        f"The file is not the pinned upstream version ({source.pin})."
                        if file.sha256
                        else "If this file is the one to use, import or fetch it again with --replace."
                    )
                    raise DataError(
                        f"{origin}: '{file.name}' has sha256 {actual}, but {source.name} {how} {expected}; "
                        f"nothing was stored. {what}"
                    )
            hashes[file.name] = actual
        target.mkdir(exist_ok=True)
        for file in source.files:
            # os.replace within one filesystem is atomic: a reader sees the old file or the new one.
            os.replace(staging / file.name, target / file.name)
        if not source.pinned:
            (target / RECORDED_HASHES).write_text(json.dumps(hashes, indent=1), encoding="utf-8")
    return target


def _download_failed(source: DatasetSource, url: str, reason: str) -> str:
    files = ", ".join(repr(f.name) for f in source.files)
    return (
        f"{source.name} is not in {dataset_dir(source)} and could not be downloaded ({url}: {reason}). "
        f"On a machine without access to it, copy the files {files} into a folder and run "
        f"`figeval data import {source.name} FOLDER`."
    )


def fetch(source: DatasetSource, report: Callable[[str], None] = lambda _: None, replace: bool = False) -> Path:
    """Download every file of the dataset from its pinned URL, verify and store it.

    Files already stored and matching their pins are not downloaded again (`replace` downloads them anyway).

    Raises:
        DataError: a download failed or a file does not match its pin (nothing is stored then).
    """
    if not replace and all(status.state is FileState.OK for status in file_statuses(source)):
        report(f"{source.name}: already stored and verified")
        return dataset_dir(source)

    def download(file: DataFile, destination: Path) -> None:
        url = source.url(file)
        report(f"downloading {url}")
        try:
            with urllib.request.urlopen(url, timeout=_DOWNLOAD_TIMEOUT_S) as response, destination.open("wb") as out:
                shutil.copyfileobj(response, out)
        except urllib.error.HTTPError as error:
            raise DataError(_download_failed(source, url, f"HTTP {error.code} {error.reason}")) from None
        except (urllib.error.URLError, OSError) as error:
            raise DataError(_download_failed(source, url, str(getattr(error, "reason", error)))) from None


    return _store_verified(source, download, origin=source.base_url, replace=replace, report=report)


def import_folder(source: DatasetSource, folder: Path, replace: bool = False,
                  report: Callable[[str], None] = lambda _: None) -> Path:
    """Copy the dataset's files from a local folder (for offline machines), verified like a fetch.

    Raises:
        DataError: the folder lacks a file or a file does not match its pin (nothing is stored then).
    """

    def copy(file: DataFile, destination: Path) -> None:
        origin = folder / file.name
        if not origin.is_file():
            raise DataError(
                f"{folder} has no file '{file.name}'; {source.name} needs "
                f"{', '.join(repr(f.name) for f in source.files)} (upstream: {source.pin})."
            )
        shutil.copyfile(origin, destination)

    return _store_verified(source, copy, origin=str(folder), replace=replace, report=report)


def require(source: DatasetSource) -> dict[str, Path]:
    """Paths of the dataset's verified files, fetching them first if any is missing.

    Raises:
        DataError: a stored file does not match its pin, or the files are missing and cannot be downloaded.
    """
    statuses = file_statuses(source)
    mismatched = [s for s in statuses if s.state is FileState.MISMATCH]
    if mismatched:
        bad = mismatched[0]
        raise DataError(
            f"{bad.path} does not match the {source.name} pin (sha256 {bad.sha256}, expected "
            f"{expected_sha256(source, bad.file)}); "
            f"delete it and run `figeval data fetch {source.name}` (or `figeval data import {source.name} FOLDER`)."
        )
    if any(s.state is FileState.MISSING for s in statuses):
        fetch(source, report=lambda message: print(message, file=sys.stderr))
    return {s.file.name: s.path for s in statuses}


def provenance(source: DatasetSource, used: Collection[str] | None = None) -> dict[str, object]:
    """What a log records about the data: the dataset, its pin, and the sha256 of each file used (default:
    all). Call after `require`, which has verified the files against these hashes (pinned or recorded)."""
    return {
        "dataset": source.name,
        "dataset_pin": source.pin,
        "dataset_sha256": {
            file.name: expected_sha256(source, file) for file in source.files if used is None or file.name in used
        },
    }
