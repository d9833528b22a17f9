"""A fetch or import that is killed or cut off leaves the stored files as they were, and the next run completes.

The kill is a real SIGKILL of a `fetch` running in another process, while a local HTTP server holds the second
file's download half sent; the files are PQuAD's validation and test splits (pinned by sha256), large enough
(3.4 MB each) that the first MiB of the hanging one is on disk when the process dies.
"""

from __future__ import annotations

import dataclasses
import http.server
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from figeval._registry import get_source
from figeval.data.source import DatasetSource
from figeval.data.store import fetch, import_folder
from figeval.data.stored import FileState, dataset_dir, file_statuses, recorded_hashes
from figeval.errors import DataError

SPLITS = ("Validation.json", "Test.json")
MIB = 1 << 20


class Served:
    """What the server answers: each file whole, or (for names in `hang`) half of it and then nothing until
    `release` is set, or (for names in `cut`) half of it and the connection closed."""

    def __init__(self, files: dict[str, bytes]):
        self.files = files
        self.hang: set[str] = set()
        self.cut: set[str] = set()
        self.release = threading.Event()


@pytest.fixture
def server(shared_pquad: Path) -> Iterator[tuple[str, Served]]:
    served = Served({name: (shared_pquad / name).read_bytes() for name in SPLITS})

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            name = urllib.parse.unquote(self.path.lstrip("/"))
            body = served.files.get(name)
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if name in served.hang or name in served.cut:
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                if name in served.hang:
                    served.release.wait(60)
                return
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/", served
    served.release.set()
    httpd.shutdown()
    httpd.server_close()


def splits(base_url: str) -> DatasetSource:
    """The registry's pquad without Train.json (not in the shared copy), downloaded from the local server."""
    source = get_source("pquad")
    return dataclasses.replace(source, base_url=base_url, files=tuple(f for f in source.files if f.name in SPLITS))


FETCH_IN_ANOTHER_PROCESS = """
import sys
from tests.data.test_interrupted import splits
from figeval.data.store import fetch
fetch(splits(sys.argv[1]), report=lambda message: print(message, flush=True), replace=sys.argv[2] == "replace")
"""


def staged_copies(data_dir: Path, name: str) -> list[Path]:
    """The file `name` in any staging folder of pquad (`.pquad-<pid>-<random>/`)."""
    return [folder / name for folder in data_dir.glob(".pquad-*") if (folder / name).is_file()]


def kill_while_downloading(base_url: str, served: Served, data_dir: Path, replace: bool = False) -> None:
    """Start a fetch in another process; SIGKILL it once the first MiB of the hanging Test.json is on disk."""
    served.hang = {"Test.json"}
    process = subprocess.Popen([sys.executable, "-c", FETCH_IN_ANOTHER_PROCESS, base_url, "replace" if replace else ""],
                               cwd=Path(__file__).resolve().parents[2], env=os.environ.copy(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not any(path.stat().st_size >= MIB for path in staged_copies(data_dir, "Test.json")):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the download never reached its first MiB"
            time.sleep(0.05)
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()  # reaped: its pid no longer names a process
    assert process.returncode == -signal.SIGKILL
    served.hang = set()
    served.release.set()


def test_a_fetch_killed_mid_file_stores_nothing_and_the_next_fetch_completes(server, isolated_data_dir: Path):
    base_url, served = server
    kill_while_downloading(base_url, served, isolated_data_dir)
    source = splits(base_url)
    # Validation.json was whole and Test.json half on disk, both in the staging folder: neither is stored
    [half] = staged_copies(isolated_data_dir, "Test.json")
    assert MIB <= half.stat().st_size < len(served.files["Test.json"])
    assert not dataset_dir(source).exists()
    assert [s.state for s in file_statuses(source)] == [FileState.MISSING, FileState.MISSING]

    said: list[str] = []
    fetch(source, report=said.append)
    assert said == [f"downloading {base_url}Validation.json", f"downloading {base_url}Test.json"]
    assert [s.state for s in file_statuses(source)] == [FileState.OK, FileState.OK]
    # the killed fetch's staging folder is gone: the data dir holds the dataset's folder and nothing else
    assert [p.name for p in isolated_data_dir.iterdir()] == ["pquad"]


def test_a_replacing_fetch_killed_mid_file_leaves_the_stored_files_verified(server, isolated_data_dir: Path):
    base_url, served = server
    source = splits(base_url)
    fetch(source)
    before = {name: (dataset_dir(source) / name).stat().st_mtime_ns for name in SPLITS}
    kill_while_downloading(base_url, served, isolated_data_dir, replace=True)
    assert {name: (dataset_dir(source) / name).stat().st_mtime_ns for name in SPLITS} == before
    assert [s.state for s in file_statuses(source)] == [FileState.OK, FileState.OK]
    fetch(source, replace=True)
    assert [s.state for s in file_statuses(source)] == [FileState.OK, FileState.OK]
    assert [p.name for p in isolated_data_dir.iterdir()] == ["pquad"]


def test_a_download_cut_short_is_one_line_and_stores_nothing(server, isolated_data_dir: Path):
    base_url, served = server
    served.cut = {"Test.json"}
    size = len(served.files["Test.json"])
    with pytest.raises(DataError) as error:
        fetch(splits(base_url))
    message = str(error.value)
    # the server announced the whole length and sent the first half (integer division) before closing
    assert f"({base_url}Test.json: the connection ended after {size // 2:,} of {size:,} bytes)" in message
    assert message.startswith("pquad is not in ") and "\n" not in message
    assert "`figeval data import pquad FOLDER`" in message
    assert not dataset_dir(splits(base_url)).exists()
    assert list(isolated_data_dir.iterdir()) == []


# --- an import killed between writing the record and moving the files in --------------------------------------

ALLUSIONS = Path(__file__).resolve().parents[1] / "persian_allusions" / "fixtures"


def test_an_import_killed_after_the_record_is_completed_by_the_same_import(tmp_path: Path, monkeypatch):
    source = get_source("persian-allusions")
    import_folder(source, ALLUSIONS)
    newer = tmp_path / "newer"
    newer.mkdir()
    for name in ("PersPoems.csv", "LLM-Generated.csv"):  # a new version of both files: one more sentence each
        text = (ALLUSIONS / name).read_text(encoding="utf-8-sig")
        (newer / name).write_text(text.replace("را بریدند", "را بریدند و گریستند")
                                  .replace("باغی پر گل", "باغی پر گل سرخ"),
                                  encoding="utf-8")

    # The store replaces the record (one os.replace, through figeval.output.write_text), then PersPoems.csv, then
    # LLM-Generated.csv: the third call dies as a SIGKILL would (a BaseException nothing catches).
    class Killed(BaseException):
        pass

    calls, real_replace = [], os.replace

    def dying_replace(*args):
        calls.append(args)
        if len(calls) == 3:
            raise Killed
        real_replace(*args)

    monkeypatch.setattr(os, "replace", dying_replace)
    with pytest.raises(Killed):
        import_folder(source, newer, replace=True)
    monkeypatch.setattr(os, "replace", real_replace)
    # the record already names the new versions; PersPoems.csv is new, LLM-Generated.csv still the old one
    assert [s.state for s in file_statuses(source)] == [FileState.OK, FileState.MISMATCH]
    # the same import again completes it without --replace: the user trusted these files already
    import_folder(source, newer)
    assert [s.state for s in file_statuses(source)] == [FileState.OK, FileState.OK]
    assert set(recorded_hashes(source)) == {"PersPoems.csv", "LLM-Generated.csv"}
