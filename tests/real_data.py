"""Where the tests find the real upstream files some of them read, and the summary of skipped tests.

The files are never committed (upstream licenses do not allow it: FFE-HALLU declares none), so a test that reads
them looks in three places, in order:
1. the shared folder beside the repository (`../shared/datasets/<dataset>`; FIGEVAL_TEST_SHARED moves it), as this
   project's own machines have it;
2. figeval's data store as the user has it (FIGEVAL_DATA_DIR, else the per-user cache dir): what `figeval data
   fetch` or `import` stored, verified against the pins as `figeval data list` does; it is only read;
3. a fetch from the pinned URLs into the test session's own data dir, when the network allows.
A test is skipped only when none of them has the files; its reason names the three places and the command that
stores the data.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from figeval.data.source import DatasetSource
from figeval.data.store import fetch
from figeval.data.stored import DATA_DIR_ENV, FileState, dataset_dir, file_statuses, store_command
from figeval.errors import DataError

SHARED_ENV = "FIGEVAL_TEST_SHARED"
"""The folder holding `datasets/` and `papers/`; ../shared beside the repository when unset."""

# Long enough for a slow but working network to answer one request, short enough that an offline machine (or one
# whose DNS fails slowly) costs the session a few seconds once per dataset, not once per test.
REACH_TIMEOUT_S = 5


@dataclass(frozen=True)
class Places:
    shared: Path
    """The folder of dataset folders beside the repository (`<shared>/<dataset>/<file>`)."""
    store: Path
    """figeval's data dir as the user has it: read, never written."""
    session: Path
    """A folder of this test session's own: the data dir a fetch stores in, and the copies the tests read."""


@dataclass(frozen=True)
class Found:
    folder: Path
    """A folder holding the needed files under their upstream names."""
    place: str
    """Where they came from, in a few words (the run's summary says it)."""


def narrowed(source: DatasetSource, needed: Iterable[str]) -> DatasetSource:
    """The source reduced to the files the tests read, so that neither a store nor a fetch needs the others (the
    tests read PQuAD's validation and test files, not its 64,000-question train file)."""
    names = set(needed)
    unknown = names - {file.name for file in source.files}
    if unknown or not names:
        raise ValueError(f"{source.name} has no file {', '.join(map(repr, sorted(unknown)))}; it has "
                         f"{', '.join(repr(file.name) for file in source.files)}")
    return dataclasses.replace(source, files=tuple(file for file in source.files if file.name in names))


@contextmanager
def data_dir_at(path: Path) -> Iterator[None]:
    """figeval's store functions read the data dir from the environment: point it at `path` for a moment."""
    before = os.environ.get(DATA_DIR_ENV)
    os.environ[DATA_DIR_ENV] = str(path)
    try:
        yield
    finally:
        if before is None:
            del os.environ[DATA_DIR_ENV]
        else:
            os.environ[DATA_DIR_ENV] = before


def _missing(folder: Path, source: DatasetSource) -> list[str]:
    return [file.name for file in source.files if not (folder / file.name).is_file()]


def in_shared(source: DatasetSource, shared: Path) -> Path | str:
    """The shared copy's folder, or why it cannot be used. The copies there are the upstream bytes (their
    SOURCE.md says so), read as they are, so presence is all that is checked."""
    folder = shared / source.name
    missing = _missing(folder, source)
    if not missing:
        return folder
    return f"{folder} ({'no such folder' if not folder.is_dir() else 'no ' + ', '.join(map(repr, missing))})"


def in_store(source: DatasetSource, store: Path) -> Path | str:
    """The dataset's folder in the data dir `store` when every file there matches its pin, or why not."""
    with data_dir_at(store):
        statuses = file_statuses(source)
        folder = dataset_dir(source)
    bad = [status for status in statuses if status.state is not FileState.OK]
    if not bad:
        return folder
    if all(status.state is FileState.MISSING and not status.problem for status in statuses):
        return f"{folder} (not stored)"
    return f"{folder} ({', '.join(f'{s.file.name}: {s.state.value}' for s in bad)})"


def unreachable(url: str, timeout_s: float = REACH_TIMEOUT_S) -> str | None:
    """Why `url`'s server cannot be reached, or None when it answers (any HTTP status: the fetch says more)."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=timeout_s):
            return None
    except urllib.error.HTTPError:
        return None
    except (urllib.error.URLError, OSError) as error:
        return str(getattr(error, "reason", error))


def fetched(source: DatasetSource, data_dir: Path, timeout_s: float = REACH_TIMEOUT_S) -> Path | str:
    """The dataset fetched from its pinned URLs into `data_dir` (as `figeval data fetch` does), or why not. The
    server is asked first with a short timeout, as a fetch waits a minute for an answer. The benchmark's reader,
    which the command also runs, is not needed: the pins fix the bytes."""
    if not source.downloads:
        return "no public download is known"
    _, url = source.downloads[0]
    why = unreachable(url, timeout_s)
    if why:
        return f"{urllib.parse.urlsplit(url).netloc}: {why}"
    with data_dir_at(data_dir):
        try:
            return fetch(source)
        except DataError as error:
            return str(error)


def copied(folder: Path, source: DatasetSource, into: Path) -> Path:
    """The needed files copied out of a store, so that no test can change the user's store through the path it
    is given, and the folder holds those files only, as the shared copy does."""
    into.mkdir(parents=True, exist_ok=True)
    for file in source.files:
        shutil.copyfile(folder / file.name, into / file.name)
    return into


def find(source: DatasetSource, needed: Iterable[str], places: Places,
         timeout_s: float = REACH_TIMEOUT_S) -> Found | str:
    """The needed files of `source` from the first of the three places that has them, or the reason to skip:
    one line naming each place tried and the command that stores the data."""
    wanted = narrowed(source, needed)
    # one folder of copies per set of files: a folder holds exactly the files asked for
    names = sorted(file.name for file in wanted.files)
    copies = places.session / "copies" / f"{source.name}-{hashlib.sha1('/'.join(names).encode()).hexdigest()[:8]}"
    shared = in_shared(wanted, places.shared)
    if isinstance(shared, Path):
        return Found(shared, f"read from {shared}")
    stored = in_store(wanted, places.store)
    if isinstance(stored, Path):
        return Found(copied(stored, wanted, copies), f"read from {stored}")
    downloaded = fetched(wanted, places.session / "fetched", timeout_s)
    if isinstance(downloaded, Path):
        return Found(copied(downloaded, wanted, copies), f"fetched from {source.base_url} into {downloaded}")
    return (f"{source.name} not found in {shared}, nor in figeval's data store {stored}, nor fetched "
            f"({downloaded}); store it with {store_command(source)}")


class RealData:
    """Each dataset looked up once per session (a failed fetch is not retried for every test), in the places
    given by `places`, called on first use so that a session that needs no real data creates no folder."""

    def __init__(self, places: Callable[[], Places], timeout_s: float = REACH_TIMEOUT_S):
        self._places = places
        self._timeout_s = timeout_s
        self._found: dict[tuple[str, tuple[str, ...]], Found | str] = {}

    def find(self, source: DatasetSource, needed: Iterable[str]) -> Found | str:
        key = (source.name, tuple(sorted(needed)))
        if key not in self._found:
            self._found[key] = find(source, key[1], self._places(), self._timeout_s)
        return self._found[key]

    def used(self) -> list[str]:
        """One line per dataset found: where its files came from."""
        return [f"{name} data {found.place}" for (name, _), found in self._found.items() if isinstance(found, Found)]


def skip_summary(reasons: list[str]) -> list[str]:
    """How many tests were skipped and why: the count, then one line per reason, the most frequent first."""
    if not reasons:
        return []
    counts = Counter(reasons).most_common()
    width = len(str(counts[0][1]))
    return [f"{len(reasons)} skipped, by reason:"] + [f"  {n:>{width}}  {reason or '(no reason given)'}"
                                                        for reason, n in counts]


def skip_reason(longrepr: object) -> str:
    """The reason a skipped test's report gives, as pytest's own summary shows it (without "Skipped: ")."""
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        reason = str(longrepr[2])
        return "" if reason == "Skipped" else reason.removeprefix("Skipped: ")
    return str(longrepr)
