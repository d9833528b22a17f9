"""A damaged record of sha256s (recorded-sha256.json: not JSON, cut off, of the wrong shape, a folder) is named
by every command that reads it, with what to do, and the import that repairs it works: with --replace for files
trusted on first import (the record was all that vouched for them), without for files a pin verifies."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import pytest

from figeval._registry import get_source
from figeval.data.store import import_folder, require
from figeval.data.stored import FileState, file_statuses, record_path, recorded_hashes
from figeval.errors import DataError, FigevalError
from tests.command import figeval
from tests.data.test_sources import pinned_to, pn_summary_zip

IDIOMS = Path(__file__).resolve().parents[1] / "turkish_idioms" / "fixtures"
IDIOMS_SHA256 = hashlib.sha256((IDIOMS / "idioms.tsv").read_bytes()).hexdigest()
FIX = ("run `figeval data import turkish-idioms FOLDER --replace` with the files to trust ('idioms.tsv': their "
       "content is checked and their sha256 recorded again).")

# What each damage reads as. The intact record is json.dumps({"idioms.tsv": sha256}, indent=1):
# '{\n "idioms.tsv": "<64 hex digits>"\n}'.
DAMAGES = {
    # cut after its 30th character: line 2 is ' "idioms.tsv": "6b7...', whose value's opening quote is column 16
    "cut off": (lambda intact: intact[:30],
                "not JSON, or cut off: Unterminated string starting at (line 2, column 16)"),
    "empty": (lambda intact: "", "not JSON, or cut off: Expecting value (line 1, column 1)"),
    "not JSON": (lambda intact: "idioms.tsv 6b74\n", "not JSON, or cut off: Expecting value (line 1, column 1)"),
    "a list": (lambda intact: json.dumps([IDIOMS_SHA256]),
               "JSON, but not an object of file names and 64-hex-digit sha256s"),
    "a short hash": (lambda intact: json.dumps({"idioms.tsv": IDIOMS_SHA256[:40]}),
                     "JSON, but not an object of file names and 64-hex-digit sha256s"),
}


def damaged_message(why: str) -> str:
    path = record_path(get_source("turkish-idioms"))
    return (f"{path} is damaged ({why}); it records the sha256 of the files of turkish-idioms as first stored: {FIX}")


@pytest.fixture
def stored_then_damaged(request, isolated_data_dir: Path) -> str:
    """turkish-idioms imported, then its record damaged as `request.param` names; returns the expected reason."""
    source = get_source("turkish-idioms")
    import_folder(source, IDIOMS)
    path = record_path(source)
    intact = path.read_text(encoding="utf-8")
    assert intact == '{\n "idioms.tsv": "' + IDIOMS_SHA256 + '"\n}'
    damage, why = DAMAGES[request.param]
    path.write_text(damage(intact), encoding="utf-8")
    return why


@pytest.mark.parametrize("stored_then_damaged", list(DAMAGES), indirect=True)
def test_every_reader_names_the_damaged_record_and_the_fix(stored_then_damaged: str, tmp_path: Path):
    message = damaged_message(stored_then_damaged)
    source = get_source("turkish-idioms")
    assert [(s.state, s.problem) for s in file_statuses(source)] == [(FileState.UNVERIFIABLE, message)]
    with pytest.raises(DataError) as error:
        require(source)  # what every task calls before reading its data
    assert str(error.value) == message

    listed = figeval("data", "list", cwd=tmp_path)
    assert listed.returncode == 0 and "Traceback" not in listed.stderr
    assert "turkish-idioms: unverifiable - " in listed.stdout
    assert f"    idioms.tsv: unverifiable\n  to repair: {message}\n" in listed.stdout

    verified = figeval("data", "verify", "turkish-idioms", cwd=tmp_path)
    assert verified.stdout.splitlines() == ["turkish-idioms/idioms.tsv: unverifiable",
                                            f"turkish-idioms: to repair: {message}"]
    # the error line names the stored file and, as the one repair line, the record and its fix
    assert verified.returncode == 2 and verified.stderr.splitlines() == [
        f"error: 1 file(s) missing or not matching their pin: {record_path(source).parent / 'idioms.tsv'} "
        f"(unverifiable); {message}"]

    tasks = figeval("list", "--json", cwd=tmp_path)
    assert tasks.returncode == 0, tasks.stderr
    states = {task["name"]: task["data"] for task in json.loads(tasks.stdout)["tasks"]}
    assert states["tr_idiom_detection"] != "present" and states["ffe_detection"] == "missing"


@pytest.mark.parametrize("stored_then_damaged", ["cut off"], indirect=True)
def test_import_refuses_to_trust_without_replace_then_repairs_with_it(stored_then_damaged: str, tmp_path: Path):
    source = get_source("turkish-idioms")
    damaged = record_path(source).read_bytes()
    refused = figeval("data", "import", "turkish-idioms", str(IDIOMS), cwd=tmp_path)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr == f"error: {IDIOMS}: {damaged_message(stored_then_damaged)} Nothing was stored.\n"
    assert record_path(source).read_bytes() == damaged

    repaired = figeval("data", "import", "turkish-idioms", str(IDIOMS), "--replace", cwd=tmp_path)
    assert repaired.returncode == 0, repaired.stderr
    assert repaired.stdout.splitlines()[0] == (f"idioms.tsv: recording sha256 {IDIOMS_SHA256} (the record of the "
                                               "stored file was damaged or absent)")
    assert recorded_hashes(source) == {"idioms.tsv": IDIOMS_SHA256}
    assert [s.state for s in file_statuses(source)] == [FileState.OK]
    # written whole through a temporary name, with the mode the umask gives a new file
    assert sorted(p.name for p in record_path(source).parent.iterdir()) == ["idioms.tsv", "recorded-sha256.json"]
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(record_path(source).stat().st_mode) == 0o666 & ~umask


def test_a_record_without_the_stored_file_s_hash_needs_replace(isolated_data_dir: Path):
    source = get_source("turkish-idioms")
    import_folder(source, IDIOMS)
    record_path(source).write_text("{}", encoding="utf-8")
    [status] = file_statuses(source)
    assert status.state is FileState.UNVERIFIABLE
    assert status.problem == (f"{record_path(source)} records no sha256 for {status.path}, so nothing says it is the "
                              "file first stored; run `figeval data import turkish-idioms FOLDER --replace`.")
    with pytest.raises(DataError, match=r"records no sha256 for the stored 'idioms.tsv'.* Nothing was stored\.$"):
        import_folder(source, IDIOMS)
    import_folder(source, IDIOMS, replace=True)
    assert recorded_hashes(source) == {"idioms.tsv": IDIOMS_SHA256}


def test_a_damaged_record_with_no_stored_file_is_a_first_import(isolated_data_dir: Path):
    # nothing stored for the record to vouch for: the import is a first one (content checked, hash recorded)
    source = get_source("turkish-idioms")
    record_path(source).parent.mkdir()
    record_path(source).write_text("{", encoding="utf-8")
    import_folder(source, IDIOMS)
    assert recorded_hashes(source) == {"idioms.tsv": IDIOMS_SHA256}


def test_a_record_of_files_a_pin_verifies_is_repaired_without_replace(tmp_path: Path):
    # PN-Summary's splits are verified by the archive's sha256: the record is rewritten by importing it again
    archive = pn_summary_zip(tmp_path / "pn_summary.zip")
    source = pinned_to(archive)
    import_folder(source, archive)
    record_path(source).write_text('{"train.csv": ', encoding="utf-8")
    [status, *_] = file_statuses(source)
    assert status.state is FileState.UNVERIFIABLE
    assert status.problem == (
        f"{record_path(source)} is damaged (not JSON, or cut off: Expecting value (line 1, column 15)); it records "
        "the sha256 of the files of pn-summary as first stored: run `figeval data fetch pn-summary` (or `figeval "
        "data import pn-summary FOLDER`), which checks the files against their pins and records them again.")
    import_folder(source, archive)
    assert [s.state for s in file_statuses(source)] == [FileState.OK] * 3


def test_the_record_is_not_written_through_a_link(tmp_path: Path):
    source = get_source("turkish-idioms")
    import_folder(source, IDIOMS)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(record_path(source).read_text(encoding="utf-8"), encoding="utf-8")
    record_path(source).unlink()
    record_path(source).symlink_to(elsewhere)
    before = elsewhere.read_bytes()
    with pytest.raises(FigevalError,
                       match=r"recorded-sha256.json is a symbolic link .* figeval does not write through"):
        import_folder(source, IDIOMS)
    assert elsewhere.read_bytes() == before
