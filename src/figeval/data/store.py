"""The local data directory: fetch, import and verify pinned dataset files.

Files live in `<data dir>/<dataset>/<upstream file name>`. The data dir is a per-user cache directory unless
`FIGEVAL_DATA_DIR` is set. Every file is checked against its pin before it is stored (its sha256, its git blob
id, or the sha256 of the archive it is extracted from), and a dataset's files are stored only when all of them
check out, so a failed fetch or import leaves nothing half-stored behind.
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
import zipfile
from collections.abc import Callable, Collection
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import platformdirs

from figeval.data.registry import DataFile, DatasetSource, no_download_message
from figeval.errors import DataError

DATA_DIR_ENV = "FIGEVAL_DATA_DIR"
_DOWNLOAD_TIMEOUT_S = 60
_PROGRESS_FROM_BYTES = 10 << 20  # downloads this large report their progress (tenths)

Report = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


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


def git_blob_id(path: Path) -> str:
    """The id git gives the file's content: SHA-1 of "blob <size>\\0" followed by the bytes."""
    digest = hashlib.sha1(f"blob {path.stat().st_size}\0".encode())
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


RECORDED_HASHES = "recorded-sha256.json"


def recorded_hashes(source: DatasetSource) -> dict[str, str]:
    """The sha256 of each file without a pinned one, as first stored (verified against its git blob id or its
    archive, or trusted on first import for an unpinned source)."""
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
        expected = expected_sha256(source, file)
        matches = actual == expected if expected else file.git_blob is not None and git_blob_id(path) == file.git_blob
        statuses.append(FileStatus(file, path, FileState.OK if matches else FileState.MISMATCH, actual))
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


def _check_pin(source: DatasetSource, file: DataFile, path: Path, origin: str, replace: bool, report: Report) -> str:
    """The file's sha256 once it is known to match its pin (sha256, git blob id, or the sha256 first recorded
    for an unpinned file, which `replace` lets a new version take over). Files extracted from a verified
    archive have no pin of their own."""
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
    expected = expected_sha256(source, file)
    if expected is None or actual == expected:
        return actual
    if file.sha256 is None and replace:
        report(f"{file.name}: replacing the recorded sha256 {expected} with {actual}")
        return actual
    how = "is pinned to" if file.sha256 else "was first stored with"
    what = (f"The file is not the pinned upstream version ({source.pin})." if file.sha256
            else "If this file is the one to use, import or fetch it again with --replace.")
    raise DataError(f"{origin}: '{file.name}' has sha256 {actual}, but {source.name} {how} {expected}; "
                    f"nothing was stored. {what}")


def _store_verified(source: DatasetSource, produce: Callable[[Path], None], origin: str,
                    replace: bool = False, report: Report = _quiet) -> Path:
    """Let `produce` write every file of `source` into a staging dir, read them with the dataset's own reader,
    check each against its pin, then move them in. `replace` trusts files of an unpinned dataset whose hashes
    differ from those first recorded (they passed the reader); a pinned file must match its pin."""
    target = dataset_dir(source)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=f".{source.name}-") as staging_name:
        staging = Path(staging_name)
        produce(staging)
        _run_check(source, {file.name: staging / file.name for file in source.files}, origin)
        hashes = {file.name: _check_pin(source, file, staging / file.name, origin, replace, report)
                  for file in source.files}
        target.mkdir(exist_ok=True)
        for file in source.files:
            # os.replace within one filesystem is atomic: a reader sees the old file or the new one.
            os.replace(staging / file.name, target / file.name)
        recorded = {file.name: hashes[file.name] for file in source.files if file.sha256 is None}
        if recorded:
            (target / RECORDED_HASHES).write_text(json.dumps(recorded, indent=1), encoding="utf-8")
    return target


def _extract(source: DatasetSource, archive: Path, staging: Path, origin: str) -> None:
    """Check the archive's sha256 against the pin, then extract each file of the dataset from it."""
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


def _download_failed(source: DatasetSource, url: str, reason: str) -> str:
    mirror = f" (also served at {source.mirror})" if source.mirror else ""
    if source.archive is not None:
        how = (f"On a machine without access to it, download {source.archive.name}{mirror} as it is and run "
               f"`figeval data import {source.name} FOLDER` (FOLDER holding the zip, or the zip's path).")
    else:
        files = ", ".join(repr(f.name) for f in source.files)
        how = (f"On a machine without access to it, copy the files {files} into a folder and run "
               f"`figeval data import {source.name} FOLDER`.")
    return f"{source.name} is not in {dataset_dir(source)} and could not be downloaded ({url}: {reason}). {how}"


def _download(source: DatasetSource, url: str, destination: Path, report: Report) -> None:
    report(f"downloading {url}")
    try:
        with urllib.request.urlopen(url, timeout=_DOWNLOAD_TIMEOUT_S) as response, destination.open("wb") as out:
            total = int(response.headers.get("Content-Length") or 0)
            done, shown = 0, 0
            for block in iter(lambda: response.read(1 << 20), b""):
                out.write(block)
                done += len(block)
                if total >= _PROGRESS_FROM_BYTES and done * 10 // total > shown:
                    shown = done * 10 // total
                    report(f"  {done * 100 // total}% of {total / 1e6:.1f} MB")
    except urllib.error.HTTPError as error:
        raise DataError(_download_failed(source, url, f"HTTP {error.code} {error.reason}")) from None
    except (urllib.error.URLError, OSError) as error:
        raise DataError(_download_failed(source, url, str(getattr(error, "reason", error)))) from None


def fetch(source: DatasetSource, report: Report = _quiet, replace: bool = False) -> Path:
    """Download every file of the dataset (or its archive) from its pinned URL, verify and store it.

    Files already stored and matching their pins are not downloaded again (`replace` downloads them anyway).

    Raises:
        DataError: no public download is known (the message says where the data is and how to import it), a
            download failed, or a file does not match its pin (nothing is stored then).
    """
    if not replace and all(status.state is FileState.OK for status in file_statuses(source)):
        report(f"{source.name}: already stored and verified")
        return dataset_dir(source)
    if not source.downloads:
        raise DataError(no_download_message(source))

    def download(staging: Path) -> None:
        if source.archive is not None:
            [(name, url)] = source.downloads
            _download(source, url, staging / name, report)
            _extract(source, staging / name, staging, url)
            return
        for file in source.files:
            _download(source, source.url(file), staging / file.name, report)

    return _store_verified(source, download, origin=source.base_url or source.name, replace=replace, report=report)


def _published_path(folder: Path, file: DataFile) -> Path | None:
    """Where a folder holds the file: under its own name, or at its path in the published layout."""
    for candidate in (folder / file.name, folder / file.member if file.member else None):
        if candidate is not None and candidate.is_file():
            return candidate
    return None


def import_folder(source: DatasetSource, folder: Path, replace: bool = False, report: Report = _quiet) -> Path:
    """Copy the dataset's files from a local folder (for offline machines), verified like a fetch. A dataset
    published as an archive is imported from the archive as downloaded: its path, or a folder holding it.

    Raises:
        DataError: the folder lacks a file or a file does not match its pin (nothing is stored then).
    """
    if source.archive is not None:
        archive = folder if folder.is_file() else folder / source.archive.name
        if not archive.is_file():
            where = f" from {source.downloads[0][1]}" if source.downloads else ""
            mirror = f" or {source.mirror}" if source.mirror else ""
            raise DataError(
                f"{folder} has no file '{source.archive.name}'; {source.name} is imported as published: the zip as "
                f"downloaded{where}{mirror} (sha256 {source.archive.sha256}); give the folder holding it or its path."
            )
        return _store_verified(source, lambda staging: _extract(source, archive, staging, str(archive)),
                               origin=str(archive), replace=replace, report=report)

    def copy(staging: Path) -> None:
        for file in source.files:
            origin = _published_path(folder, file)
            if origin is None:
                also = f" (or '{file.member}')" if file.member else ""
                raise DataError(
                    f"{folder} has no file '{file.name}'{also}; {source.name} needs "
                    f"{', '.join(repr(f.name) for f in source.files)} (upstream: {source.pin})."
                )
            shutil.copyfile(origin, staging / file.name)

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
        expected = expected_sha256(source, bad.file) or f"git blob {bad.file.git_blob}"
        raise DataError(
            f"{bad.path} does not match the {source.name} pin (sha256 {bad.sha256}, expected {expected}); "
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
