"""The data dir's operations on a dataset: fetch it (download, verify, store), import it from local files (for
offline machines), `require` its files before a task reads them, and say in a log which bytes were used.

Both ways in store through `figeval.data.staging`, so a fetch and an import check the same things and leave the
stored files as they were when anything fails. A benchmark registers its dataset's reader here (`register_check`)
when its dataset module is imported, and every store runs it. What is stored and in what state (places, the
record of sha256s, `file_statuses` for `figeval data list` and `verify`) is `figeval.data.stored`'s.
"""

from __future__ import annotations

import shutil
import sys
import zipfile
from collections.abc import Collection
from pathlib import Path

from figeval.data.download import DownloadFailed, download
from figeval.data.source import DataFile, DatasetSource, no_download_message
from figeval.data.staging import DataCheck, Report, extract_archive, quiet, store_verified
from figeval.data.stored import FileState, dataset_dir, expected_sha256, file_statuses
from figeval.errors import DataError

# Each dataset's own reader, by dataset name, run on the files before anything is stored.
CHECKS: dict[str, DataCheck] = {}


def register_check(dataset: str, check: DataCheck) -> None:
    CHECKS[dataset] = check


def _download_failed(source: DatasetSource, url: str, reason: str) -> str:
    mirror = f" (also served at {source.mirror})" if source.mirror else ""
    if source.archive is not None:
        how = (f"On a machine without access to it, download {source.archive.name}{mirror} as it is and run "
               f"`figeval data import {source.name} FOLDER` (FOLDER holding the zip, or the zip's path).")
    else:
        files = ", ".join(repr(f.name) for f in source.files)
        how = (f"On a machine without access to it, copy the files {files} into a folder and run "
               f"`figeval data import {source.name} FOLDER`.")
    return (f"{source.name} is not in {dataset_dir(source)} and could not be downloaded ({url}: {reason}). "
            f"{how}")


def fetch(source: DatasetSource, report: Report = quiet, replace: bool = False) -> Path:
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

    def download_all(staging: Path) -> None:
        for name, url in source.downloads:
            try:
                download(url, staging / name, report)
            except DownloadFailed as error:
                raise DataError(_download_failed(source, url, str(error))) from None
        if source.archive is not None:
            [(name, url)] = source.downloads
            extract_archive(source, staging / name, staging, url)

    return store_verified(source, download_all, origin=source.base_url or source.name, check=CHECKS.get(source.name),
                          replace=replace, report=report)


def _published_path(folder: Path, file: DataFile) -> Path | None:
    """Where a folder holds the file: under its own name, or at its path in the published layout, there or under
    one folder inside it (GitHub's zip of a repository, extracted, puts the layout under `<repo>-<branch>/`)."""
    layouts = [file.member] if file.member else []
    inner = sorted(folder.glob(f"*/{file.member}")) if file.member and folder.is_dir() else []
    for candidate in (folder / file.name, *(folder / member for member in layouts), *inner):
        if candidate.is_file():
            return candidate
    return None


def _repository_zip_member(names: Collection[str], file: DataFile) -> str | None:
    """Where a zip holds the file: at its path in the published layout, at the top or under the zip's one top
    folder (GitHub's zip of a repository: `<repo>-<branch>/<path>`), or under its own name at the top."""
    tops = {name.split("/", 1)[0] for name in names if "/" in name}
    layouts = [file.member, *(f"{top}/{file.member}" for top in sorted(tops))] if file.member else []
    return next((name for name in (*layouts, file.name) if name in names), None)


def _copy_from_repository_zip(source: DatasetSource, archive: Path, staging: Path) -> None:
    """Each file of the dataset from a zip of the repository that publishes it (GitHub's "Download ZIP").

    Raises:
        DataError: not a zip, or a file not where the repository keeps it (the message says where it was looked for).
    """
    try:
        with zipfile.ZipFile(archive) as bundle:
            names = set(bundle.namelist())
            for file in source.files:
                member = _repository_zip_member(names, file)
                if member is None:
                    top = sorted({name.split("/", 1)[0] for name in names if "/" in name})[:1]
                    where = f"'{file.member}' or '{top[0]}/{file.member}'" if top and file.member else \
                        repr(file.member or file.name)
                    raise DataError(
                        f"{archive} has no '{file.name}' (looked for {where}, where a zip of {source.homepage} as "
                        f"GitHub gives it holds it); {source.name} needs "
                        f"{', '.join(repr(f.member or f.name) for f in source.files)}; nothing was stored.")
                with bundle.open(member) as packed, (staging / file.name).open("wb") as out:
                    shutil.copyfileobj(packed, out)
    except (zipfile.BadZipFile, zipfile.LargeZipFile) as error:
        raise DataError(f"{archive} is a file, not a folder, and not a zip of {source.homepage} ({error}); give the "
                        f"folder holding {', '.join(repr(f.name) for f in source.files)}, or the repository's "
                        "zip.") from None


def import_folder(source: DatasetSource, folder: Path, replace: bool = False, report: Report = quiet) -> Path:
    """Copy the dataset's files from a local folder (for offline machines), verified like a fetch. A dataset
    published as an archive is imported from the archive as downloaded: its path, or a folder holding it. Files
    published in a repository are also taken from the repository's zip (`folder` is its path), extracted or not.

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
        return store_verified(source, lambda staging: extract_archive(source, archive, staging, str(archive)),
                              origin=str(archive), check=CHECKS.get(source.name), replace=replace, report=report)

    if folder.is_file():
        return store_verified(source, lambda staging: _copy_from_repository_zip(source, folder, staging),
                              origin=str(folder), check=CHECKS.get(source.name), replace=replace, report=report)

    def copy(staging: Path) -> None:
        for file in source.files:
            origin = _published_path(folder, file)
            if origin is None:
                also = f" (or '{file.member}')" if file.member else ""
                zips = sorted(folder.glob("*.zip")) if folder.is_dir() else []
                zipped = f"; to import from the zip it holds, give the zip's path ({zips[0]})" if zips else ""
                raise DataError(
                    f"{folder} has no file '{file.name}'{also}; {source.name} needs "
                    f"{', '.join(repr(f.name) for f in source.files)} (upstream: {source.pin}){zipped}."
                )
            shutil.copyfile(origin, staging / file.name)

    return store_verified(source, copy, origin=str(folder), check=CHECKS.get(source.name), replace=replace,
                          report=report)


def require(source: DatasetSource) -> dict[str, Path]:
    """Paths of the dataset's verified files, fetching them first if any is missing.

    Raises:
        DataError: a stored file does not match its pin or cannot be verified or read (the message says what
            to do), or the files are missing and cannot be downloaded.
    """
    statuses = file_statuses(source)
    unusable = [s for s in statuses if s.problem]
    if unusable:
        raise DataError(unusable[0].problem)
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
