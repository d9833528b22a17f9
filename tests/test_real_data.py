"""Where a test finds the real data (tests/real_data.py): ../shared first, then the user's data store (only read),
then a fetch into the session's own folder; the reason to skip when none has them; the summary of skips.

The dataset here is a toy of two small files pinned by their sha256 and served by a local HTTP server, so these
tests need neither the real ../shared nor a network, and never touch the user's store."""

from __future__ import annotations

import dataclasses
import hashlib
import http.server
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from figeval._registry import get_source
from figeval.data.source import DataFile
from figeval.data.store import import_folder
from tests.real_data import Found, Places, RealData, data_dir_at, find, skip_reason, skip_summary

pytest_plugins = ["pytester"]

FILES = {"a.csv": b"id,text\n1,one\n", "b.csv": b"id,text\n2,two\n"}
TOY = dataclasses.replace(
    get_source("ffe-hallu"), name="toy", description="two small files", base_url=None,
    files=tuple(DataFile(name, hashlib.sha256(body).hexdigest()) for name, body in FILES.items()))


class Server:
    """A local HTTP server answering HEAD and GET for the files in `files`, 404 for others; it logs each request."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.requests: list[str] = []
        served = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def answer(self, with_body: bool) -> None:
                served.requests.append(f"{self.command} {self.path}")
                body = served.files.get(self.path.lstrip("/"))
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if with_body:
                    self.wfile.write(body)

            def do_HEAD(self) -> None:
                self.answer(with_body=False)

            def do_GET(self) -> None:
                self.answer(with_body=True)

            def log_message(self, *args: object) -> None:
                pass

        self.http = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/"


@pytest.fixture
def server() -> Iterator[Server]:
    server = Server()
    thread = threading.Thread(target=server.http.serve_forever, daemon=True)
    thread.start()
    yield server
    server.http.shutdown()
    server.http.server_close()


@pytest.fixture
def places(tmp_path: Path) -> Places:
    return Places(shared=tmp_path / "shared" / "datasets", store=tmp_path / "user-store", session=tmp_path / "session")


def served_toy(server: Server) -> object:
    server.files.update(FILES)
    return dataclasses.replace(TOY, base_url=server.url)


def put_in_shared(places: Places, names=tuple(FILES)) -> Path:
    folder = places.shared / "toy"
    folder.mkdir(parents=True)
    for name in names:
        (folder / name).write_bytes(FILES[name])
    return folder


def put_in_store(places: Places) -> Path:
    """The toy stored in the user's store as `figeval data import toy FOLDER` stores it."""
    origin = places.shared.parent / "to-import"
    origin.mkdir(parents=True)
    for name, body in FILES.items():
        (origin / name).write_bytes(body)
    with data_dir_at(places.store):
        return import_folder(TOY, origin)


def tree(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_shared_comes_first(places: Places, server: Server):
    source = served_toy(server)
    shared = put_in_shared(places)
    put_in_store(places)
    assert find(source, FILES, places) == Found(shared, f"read from {shared}")
    assert server.requests == []  # nothing asked of the network


def test_then_the_user_s_store_read_only(places: Places, server: Server):
    source = served_toy(server)
    stored = put_in_store(places)
    before = tree(places.store)
    found = find(source, FILES, places)
    assert isinstance(found, Found) and found.place == f"read from {stored}"
    # the test gets copies in the session's folder: nothing it does with them reaches the user's store
    assert found.folder.is_relative_to(places.session) and tree(found.folder) == FILES
    assert tree(places.store) == before
    assert server.requests == []


def test_a_damaged_file_in_the_store_is_passed_over_for_a_fetch(places: Places, server: Server):
    source = served_toy(server)
    stored = put_in_store(places)
    (stored / "b.csv").write_bytes(b"id,text\n2,changed\n")
    found = find(source, FILES, places)
    fetched = places.session / "fetched" / "toy"
    assert found == Found(found.folder, f"fetched from {server.url} into {fetched}")
    assert tree(found.folder) == FILES
    # one HEAD to see the server answers, then one GET per file; the user's damaged file is left as it was
    assert server.requests == ["HEAD /a.csv", "GET /a.csv", "GET /b.csv"]
    assert (stored / "b.csv").read_bytes() == b"id,text\n2,changed\n"


def test_a_fetch_is_verified_against_the_pins(places: Places, server: Server):
    source = served_toy(server)
    server.files["b.csv"] = b"id,text\n2,changed\n"
    reason = find(source, FILES, places)
    assert isinstance(reason, str)
    changed = hashlib.sha256(server.files["b.csv"]).hexdigest()
    assert f"'b.csv' has sha256 {changed}, but toy is pinned to {TOY.files[1].sha256}; nothing was stored" in reason


def test_only_the_files_asked_for(places: Places, server: Server):
    source = served_toy(server)
    shared = put_in_shared(places, names=["a.csv"])
    assert find(source, ["a.csv"], places) == Found(shared, f"read from {shared}")
    # both asked for: the shared folder lacks b.csv, so the files come from the server, and only those two
    found = find(source, FILES, places)
    assert isinstance(found, Found) and found.place.startswith("fetched from") and tree(found.folder) == FILES


def test_skipped_only_when_none_has_them_and_the_reason_names_the_three_places(places: Places):
    with socket.socket() as probe:  # a port nothing listens on stands in for an unreachable upstream
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    source = dataclasses.replace(TOY, base_url=f"http://127.0.0.1:{port}/")
    put_in_shared(places, names=["b.csv"])
    reason = find(source, FILES, places)
    assert reason == (
        f"toy not found in {places.shared / 'toy'} (no 'a.csv'), nor in figeval's data store "
        f"{places.store / 'toy'} (not stored), nor fetched (127.0.0.1:{port}: [Errno 111] Connection refused); "
        "store it with `figeval data fetch toy` (or `figeval data import toy FOLDER`)")


def test_a_dataset_without_a_download_is_not_fetched(places: Places):
    reason = find(TOY, FILES, places)  # TOY has no base_url, like turkish-idioms
    assert reason == (f"toy not found in {places.shared / 'toy'} (no such folder), nor in figeval's data store "
                      f"{places.store / 'toy'} (not stored), nor fetched (no public download is known); store it with "
                      "`figeval data import toy FOLDER`")


def test_each_dataset_is_looked_up_once_a_session(places: Places, server: Server):
    source = dataclasses.replace(TOY, base_url=server.url)  # serves nothing: HEAD answers 404, GET 404
    calls: list[Places] = []
    real_data = RealData(lambda: calls.append(places) or places)
    first = real_data.find(source, FILES)
    assert isinstance(first, str) and "HTTP 404" in first
    assert real_data.find(source, reversed(list(FILES))) == first  # the same files asked in another order
    assert server.requests == ["HEAD /a.csv", "GET /a.csv"] and len(calls) == 1
    assert real_data.used() == []


def test_what_was_used_is_said(places: Places):
    asked: list[Places] = []
    real_data = RealData(lambda: asked.append(places) or places)
    assert real_data.used() == [] and asked == []  # a session that needs no data looks nowhere, creates nothing
    shared = put_in_shared(places)
    real_data.find(TOY, FILES)
    assert real_data.used() == [f"toy data read from {shared}"]


def test_skip_summary_counts_by_reason_most_frequent_first():
    # "a" twice, "b" once: 3 in all; counts right-aligned to the widest (1 digit)
    assert skip_summary(["a", "b", "a"]) == ["3 skipped, by reason:", "  2  a", "  1  b"]
    # ten "x" and one "y": widths of 2 digits
    assert skip_summary(["y"] + ["x"] * 10) == ["11 skipped, by reason:", "  10  x", "   1  y"]
    assert skip_summary([]) == []


def test_skip_reason_as_pytest_shows_it():
    assert skip_reason(("tests/x.py", 3, "Skipped: root reads a chmod 000 file")) == "root reads a chmod 000 file"
    assert skip_reason(("tests/x.py", 3, "Skipped")) == ""


def test_the_summary_comes_last_before_pytest_s_count(pytester: pytest.Pytester):
    pytester.makeconftest("from tests.conftest import pytest_terminal_summary  # noqa: F401")
    pytester.makepyfile(
        """
        import pytest

        def test_passes():
            pass

        @pytest.mark.parametrize("n", [1, 2])
        def test_skipped_twice(n):
            pytest.skip("no data")

        @pytest.mark.skipif(True, reason="root reads a chmod 000 file")
        def test_skipped_by_mark():
            pass
        """)
    result = pytester.runpytest("-ra", "-p", "no:cacheprovider")
    lines = [line for line in result.outlines if line.strip()]
    # after pytest's own short summary (-ra) and before its count: 3 skipped, "no data" twice
    assert lines[-4:-1] == ["3 skipped, by reason:", "  2  no data", "  1  root reads a chmod 000 file"]
    assert "1 passed, 3 skipped" in lines[-1]
    assert any(line.startswith("SKIPPED [2]") for line in lines[:-4])


def test_a_file_the_dataset_does_not_have_is_a_mistake_in_the_test(places: Places):
    with pytest.raises(ValueError, match=r"toy has no file 'c.csv'; it has 'a.csv', 'b.csv'"):
        find(TOY, ["a.csv", "c.csv"], places)
