"""What a pinned dataset source declares; each benchmark declares its own (`Benchmark.dataset`).

A source names where a user with internet gets the files (a URL at a fixed commit) and what the bytes must
be, so a result can always be traced to the exact bytes it was computed on. A file is pinned by its SHA-256;
where only its git blob id could be read (the file itself was out of reach where this was written), by that
id; a dataset published as one archive is pinned by the archive's SHA-256 and its files are extracted from it.
A dataset with no known public download says where its paper puts the data and is imported from local files;
nothing pins their bytes, so each such file declares its columns as published (the script of each text column and
the longest cell it holds) and is read against them before its sha256 is first recorded and trusted.
The files are fetched, never committed: upstream licenses do not allow redistribution (some declare none).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from figeval.data.table import Column
from figeval.errors import DataError


@dataclass(frozen=True)
class DataFile:
    name: str
    """The upstream file name, also the name it is stored under."""
    sha256: str | None
    """The pinned hash; None when it is not known (the hash of the first store is recorded and enforced)."""
    git_blob: str | None = None
    """The file's git blob id in the upstream tree at the pinned commit, for a file whose sha256 is not known:
    the file must match it (git's own content hash), and its sha256 is recorded when first stored."""
    member: str | None = None
    """The file's path in the published layout: inside the archive, or in the upstream repository (an import
    also finds it there, e.g. in a clone)."""
    columns: tuple[Column, ...] = ()
    """For a file trusted on first import (no sha256, git blob id or archive fixes its bytes): its columns as
    published, each with its script and longest cell, read by the store (`table.read_table`) before its sha256
    is recorded. They repeat what the benchmark's reader expects (tests/data/test_content.py compares them)."""

    @property
    def trusted_on_first_import(self) -> bool:
        """Nothing of the file's own pins its bytes (a dataset's archive may still: `DatasetSource.pins_bytes`)."""
        return self.sha256 is None and self.git_blob is None


@dataclass(frozen=True)
class Archive:
    """The one file a dataset is published as (downloaded, or imported as downloaded); its files are extracted."""

    name: str
    sha256: str


@dataclass(frozen=True)
class DatasetSource:
    name: str
    description: str
    homepage: str
    """Where the files are published (for a dataset with no known download, where its paper says they are)."""
    commit: str | None
    """The commit the URLs are pinned at; for an unpinned source, the branch; None without a download."""
    base_url: str | None
    """Download URL prefix at the pinned commit (a file's URL is this plus its URL-encoded name, or the
    archive's); None when no public download is known."""
    files: tuple[DataFile, ...]
    archive: Archive | None = None
    where: str = ""
    """For a dataset without a known download: where its paper says the data is, in one sentence."""
    mirror: str = ""
    """Another URL known to serve the same bytes (said in messages; fetch uses base_url)."""

    def url(self, file: DataFile) -> str:
        if self.base_url is None:
            raise DataError(no_download_message(self))
        return self.base_url + quote(file.name)

    @property
    def downloads(self) -> tuple[tuple[str, str], ...]:
        """(name, URL) of each file a fetch downloads: the archive alone, or every file."""
        if self.base_url is None:
            return ()
        names = [self.archive.name] if self.archive else [file.name for file in self.files]
        return tuple((name, self.base_url + quote(name)) for name in names)

    def pins_bytes(self, file: DataFile) -> bool:
        """Whether the file's bytes are fixed by a pin (its sha256 or git blob id, or the archive's sha256);
        otherwise its first import is trusted, once its content passes `file.columns`."""
        return self.archive is not None or not file.trusted_on_first_import

    @property
    def pinned(self) -> bool:
        if self.archive is not None:
            return True
        return all(file.sha256 is not None or file.git_blob is not None for file in self.files)

    @property
    def pin(self) -> str:
        if self.base_url is None:
            return "no public download known (unpinned: sha256 recorded on first import)"
        if self.archive is not None:
            return f"{self.homepage}@{self.commit} ({self.archive.name}, sha256 {self.archive.sha256})"
        suffix = "" if self.pinned else " (unpinned: sha256 recorded on first fetch)"
        return f"{self.homepage}@{self.commit}{suffix}"


def no_download_message(source: DatasetSource) -> str:
    """One line: there is no known download of this dataset, where its paper puts it, and how to import it."""
    names = ", ".join(repr(file.name) for file in source.files)
    return (f"{source.name}: no public download is known. {source.where} With the files, put {names} in a "
            f"folder and run `figeval data import {source.name} FOLDER`.")


# The longest cell of each kind of text in a file trusted on first import: generous against published data (a
# longer cell is a row damaged, e.g. by a quote left open that swallowed the rows after it, or another file).
# Each benchmark's source says which of its columns holds which kind, and why.
WORDS_CHARS = 500
"""A title, a name, an idiom, a list of themes: a few words."""
SENTENCE_CHARS = 2_000
"""One sentence or one verse."""
PARAGRAPHS_CHARS = 20_000
"""A description or passage of a paragraph or a few."""
