"""Fetching, importing and verifying pinned files: against a local HTTP server and local folders."""

import dataclasses
import functools
import http.server
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from figeval._registry import get_source
from figeval.data.source import DatasetSource
from figeval.data.store import fetch, import_folder, require
from figeval.data.stored import FileState, dataset_dir, file_statuses
from figeval.errors import DataError


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A local HTTP server over an empty folder; yields its base URL and the folder."""
    root = tmp_path / "served"
    root.mkdir()

    class QuietHandler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", root
    server.shutdown()
    server.server_close()


def local_copy_of(source: DatasetSource, base_url: str) -> DatasetSource:
    return dataclasses.replace(source, base_url=base_url)


def test_fetch_from_http_server_verifies_and_stores(http_server, shared_ffe_hallu: Path):
    base_url, root = http_server
    for name in ("Authentic FFEs.csv", "Fake FFEs.csv"):
        shutil.copy(shared_ffe_hallu / name, root / name)  # served under URL-encoded names ("Fake%20FFEs.csv")
    source = local_copy_of(get_source("ffe-hallu"), base_url)
    messages: list[str] = []
    target = fetch(source, report=messages.append)
    assert sorted(p.name for p in target.iterdir()) == ["Authentic FFEs.csv", "Fake FFEs.csv"]
    assert all(s.state is FileState.OK for s in file_statuses(source))
    assert messages == [f"downloading {base_url}Authentic%20FFEs.csv", f"downloading {base_url}Fake%20FFEs.csv"]

    # present and verified: a second fetch downloads nothing (it works offline) and says so
    for served in root.iterdir():
        served.unlink()
    messages.clear()
    assert fetch(source, report=messages.append) == target
    assert messages == ["ffe-hallu: already stored and verified"]


def test_fetch_with_a_changed_upstream_file_stores_nothing(http_server, shared_ffe_hallu: Path):
    base_url, root = http_server
    shutil.copy(shared_ffe_hallu / "Authentic FFEs.csv", root / "Authentic FFEs.csv")
    (root / "Fake FFEs.csv").write_bytes((shared_ffe_hallu / "Fake FFEs.csv").read_bytes() + b"\n")
    source = local_copy_of(get_source("ffe-hallu"), base_url)
    with pytest.raises(DataError, match=r"'Fake FFEs.csv' has sha256 [0-9a-f]{64}, but ffe-hallu is pinned to "
                                        r"fbfa7737.*nothing was stored"):
        fetch(source)
    # The authentic file matched, but it is not stored alone: nothing is half-stored.
    assert not (dataset_dir(source) / "Authentic FFEs.csv").exists()
    assert [p.name for p in dataset_dir(source).parent.iterdir() if p.name.startswith(".")] == []


def test_fetch_failure_says_how_to_import_offline(http_server):
    base_url, _ = http_server  # serves nothing: every download is a 404
    with pytest.raises(DataError) as error:
        fetch(local_copy_of(get_source("ffe-hallu"), base_url))
    message = str(error.value)
    assert "could not be downloaded" in message and "HTTP 404" in message
    assert "figeval data import ffe-hallu FOLDER" in message


def test_require_fetches_missing_files_then_reuses_them(http_server, shared_ffe_hallu: Path):
    base_url, root = http_server
    for name in ("Authentic FFEs.csv", "Fake FFEs.csv"):
        shutil.copy(shared_ffe_hallu / name, root / name)
    source = local_copy_of(get_source("ffe-hallu"), base_url)
    paths = require(source)
    assert paths["Fake FFEs.csv"].is_file()
    for name in ("Authentic FFEs.csv", "Fake FFEs.csv"):
        (root / name).unlink()  # a second require must not download again
    assert require(source) == paths


def test_require_offline_gives_one_line_with_the_import_command():
    # A closed port on this machine stands in for an unreachable upstream.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    source = local_copy_of(get_source("ffe-hallu"), f"http://127.0.0.1:{closed_port}/")
    with pytest.raises(DataError) as error:
        require(source)
    message = str(error.value)
    assert message.startswith("ffe-hallu is not in ") and "\n" not in message
    assert "`figeval data import ffe-hallu FOLDER`" in message


def test_import_from_folder_verifies_and_stores(shared_ffe_hallu: Path):
    source = get_source("ffe-hallu")
    import_folder(source, shared_ffe_hallu)
    assert [s.state for s in file_statuses(source)] == [FileState.OK, FileState.OK]


def test_import_of_a_modified_file_stores_nothing(shared_ffe_hallu: Path, tmp_path: Path):
    folder = tmp_path / "copy"
    shutil.copytree(shared_ffe_hallu, folder)
    authentic = folder / "Authentic FFEs.csv"
    authentic.write_text(authentic.read_text("utf-8-sig").replace("\u064a", "\u06cc"), encoding="utf-8-sig")
    source = get_source("ffe-hallu")
    with pytest.raises(DataError, match=r"'Authentic FFEs.csv' has sha256 .* nothing was stored"):
        import_folder(source, folder)
    assert [s.state for s in file_statuses(source)] == [FileState.MISSING, FileState.MISSING]


def test_import_from_folder_missing_a_file_names_it(tmp_path: Path):
    with pytest.raises(DataError, match=r"has no file 'Authentic FFEs.csv'; ffe-hallu needs 'Authentic "
                                        r"FFEs.csv', 'Fake FFEs.csv'"):
        import_folder(get_source("ffe-hallu"), tmp_path)


def test_a_stored_file_changed_later_is_refused_on_load(ffe_hallu_imported: Path):
    with (ffe_hallu_imported / "Fake FFEs.csv").open("a", encoding="utf-8") as handle:
        handle.write("a,b,c\n")
    with pytest.raises(DataError, match=r"Fake FFEs.csv does not match the ffe-hallu pin .* delete it and run `figeval "
                                        r"data fetch ffe-hallu`"):
        require(get_source("ffe-hallu"))


def test_unknown_dataset_lists_known_ones():
    with pytest.raises(DataError, match=r"unknown dataset 'ffe'; known: ffe-hallu"):
        get_source("ffe")


TURKISH_FIXTURE = Path(__file__).parents[1] / "turkish_idioms" / "fixtures" / "idioms.tsv"


@pytest.mark.parametrize("bad, why", [
    (b"\x89PNG\r\n\x1a\n\x00\x00binary", "binary"),
    (TURKISH_FIXTURE.read_text(encoding="utf-8").encode("utf-16"), "UTF-16"),
    (b"id,title,article,summary\n1,a,b,c\n", "another table"),
])
def test_an_unpinned_file_the_benchmark_cannot_read_is_not_stored_nor_trusted(tmp_path: Path, bad: bytes, why: str):
    import figeval._registry  # noqa: F401  (registers each dataset's reader)

    source = get_source("turkish-idioms")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "idioms.tsv").write_bytes(bad)
    with pytest.raises(DataError, match="Nothing was stored|nothing was stored"):
        import_folder(source, folder)
    assert [s.state for s in file_statuses(source)] == [FileState.MISSING]
    assert not (dataset_dir(source)).exists() or not any(dataset_dir(source).iterdir())
    # the right file is still accepted afterwards: nothing bad was recorded as trusted
    shutil.copyfile(TURKISH_FIXTURE, folder / "idioms.tsv")
    import_folder(source, folder)
    assert [s.state for s in file_statuses(source)] == [FileState.OK]


def test_a_new_version_of_an_unpinned_file_needs_replace_and_says_both_hashes(tmp_path: Path):
    import figeval._registry  # noqa: F401

    source = get_source("turkish-idioms")
    folder = tmp_path / "folder"
    folder.mkdir()
    shutil.copyfile(TURKISH_FIXTURE, folder / "idioms.tsv")
    import_folder(source, folder)
    first = file_statuses(source)[0].sha256
    # the same file with one more trailing newline: readable, but not the file first recorded
    (folder / "idioms.tsv").write_text(TURKISH_FIXTURE.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="import or fetch it again with --replace"):
        import_folder(source, folder)
    said: list[str] = []
    import_folder(source, folder, replace=True, report=said.append)
    second = file_statuses(source)[0].sha256
    assert second != first and said == [f"idioms.tsv: replacing the recorded sha256 {first} with {second}"]
    assert file_statuses(source)[0].state is FileState.OK
