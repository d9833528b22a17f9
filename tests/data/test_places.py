"""Where the data goes cannot hold it: the data dir (or a folder above it) is a file, a dataset's folder is a file,
a folder stands where a file goes, the data dir cannot be written. Each `figeval data` command (and a task that
needs the data) says so in one `error:` line naming the path and the fix, with nothing stored and no traceback."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from figeval._registry import get_source
from figeval.data.store import require
from figeval.data.stored import FileState, file_statuses
from figeval.errors import DataError
from tests.command import figeval

IDIOMS = Path(__file__).resolve().parents[1] / "turkish_idioms" / "fixtures"
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def one_error_line(result) -> str:
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ")
    return line


COMMANDS = [("data", "import", "turkish-idioms", str(IDIOMS)), ("data", "fetch", "pquad"), ("data", "list"),
            ("data", "verify")]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda args: args[1])
def test_a_data_dir_that_is_a_file(args, tmp_path: Path, monkeypatch):
    data_file = tmp_path / "data"
    data_file.write_text("not a folder\n", encoding="utf-8")
    monkeypatch.setenv("FIGEVAL_DATA_DIR", str(data_file))
    line = one_error_line(figeval(*args, cwd=tmp_path))
    assert line == (f"error: the data dir {data_file} is a file, not a folder; move it away or set FIGEVAL_DATA_DIR "
                    "to a folder (figeval keeps the datasets there).")
    assert data_file.read_text(encoding="utf-8") == "not a folder\n"


@pytest.mark.parametrize("args", COMMANDS, ids=lambda args: args[1])
def test_a_data_dir_inside_a_file(args, tmp_path: Path, monkeypatch):
    blocker = tmp_path / "cache"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("FIGEVAL_DATA_DIR", str(blocker / "figeval" / "data"))
    line = one_error_line(figeval(*args, cwd=tmp_path))
    assert line == (f"error: the data dir {blocker / 'figeval' / 'data'} cannot be created: {blocker} is a file, not a "
                    "folder; move it away or set FIGEVAL_DATA_DIR to a folder (figeval keeps the datasets there).")


def test_a_task_with_its_data_dir_a_file_says_the_same(tmp_path: Path, monkeypatch):
    data_file = tmp_path / "data"
    data_file.write_text("", encoding="utf-8")
    monkeypatch.setenv("FIGEVAL_DATA_DIR", str(data_file))
    with pytest.raises(DataError, match=r"^the data dir .*/data is a file, not a folder; move it away"):
        require(get_source("ffe-hallu"))


def test_a_dataset_folder_that_is_a_file(isolated_data_dir: Path, tmp_path: Path):
    (isolated_data_dir / "turkish-idioms").write_text("", encoding="utf-8")
    line = one_error_line(figeval("data", "import", "turkish-idioms", str(IDIOMS), cwd=tmp_path))
    assert line == (f"error: {isolated_data_dir / 'turkish-idioms'} is a file, not a folder: figeval keeps the files "
                    "of turkish-idioms in a folder of that name; move the file away, then run "
                    "`figeval data import turkish-idioms FOLDER`.")
    # the listing goes on with the other datasets and says what to do about this one
    listed = figeval("data", "list", cwd=tmp_path)
    assert listed.returncode == 0
    assert f"  to repair: {line.removeprefix('error: ')}\n" in listed.stdout
    assert "ffe-hallu: missing" in listed.stdout


@pytest.mark.parametrize("name", ["idioms.tsv", "recorded-sha256.json"])
def test_a_folder_where_a_file_goes(name: str, isolated_data_dir: Path, tmp_path: Path):
    place = isolated_data_dir / "turkish-idioms" / name
    place.mkdir(parents=True)
    line = one_error_line(figeval("data", "import", "turkish-idioms", str(IDIOMS), cwd=tmp_path))
    assert line == (f"error: {place} is a folder where figeval keeps the file '{name}' of turkish-idioms; move it "
                    "away, then run `figeval data import turkish-idioms FOLDER`.")
    assert place.is_dir() and list(place.iterdir()) == []
    # once the folder is moved away the same import stores the file
    place.rmdir()
    assert figeval("data", "import", "turkish-idioms", str(IDIOMS), cwd=tmp_path).returncode == 0
    assert [s.state for s in file_statuses(get_source("turkish-idioms"))] == [FileState.OK]


def test_verify_names_a_folder_where_a_file_goes(isolated_data_dir: Path, tmp_path: Path):
    place = isolated_data_dir / "turkish-idioms" / "idioms.tsv"
    place.mkdir(parents=True)
    result = figeval("data", "verify", "turkish-idioms", cwd=tmp_path)
    assert result.stdout.splitlines() == [
        "turkish-idioms/idioms.tsv: missing",
        f"turkish-idioms: to repair: {place} is a folder where figeval keeps the file 'idioms.tsv' of turkish-idioms; "
        "move it away, then run `figeval data import turkish-idioms FOLDER`."]
    # the error line itself names the file and the fix: the one repair line, which names the command
    assert one_error_line(result) == (f"error: 1 file(s) missing or not matching their pin: {place} (missing); "
                                      f"{place} is a folder where figeval keeps the file 'idioms.tsv' of "
                                      "turkish-idioms; move it away, then run `figeval data import turkish-idioms "
                                      "FOLDER`.")


def test_verify_names_the_first_files_and_the_commands_that_store_them(isolated_data_dir: Path, tmp_path: Path):
    # nothing stored: the 11 files of the 5 datasets are missing, listed in registry order (the lines above the
    # error); the line names the first 3 and counts the other 8, and gives the store command of every dataset
    result = figeval("data", "verify", cwd=tmp_path)
    first = [isolated_data_dir / "ffe-hallu" / "Authentic FFEs.csv", isolated_data_dir / "ffe-hallu" / "Fake FFEs.csv",
             isolated_data_dir / "turkish-idioms" / "idioms.tsv"]
    assert one_error_line(result) == (
        f"error: 11 file(s) missing or not matching their pin: {first[0]} (missing), {first[1]} (missing), "
        f"{first[2]} (missing) and 8 more; run `figeval data fetch NAME` (or `figeval data import NAME FOLDER`) "
        "for each of ffe-hallu, turkish-idioms, persian-allusions, pquad, pn-summary.")
    # one dataset with nothing to repair but storing: its own command
    assert one_error_line(figeval("data", "verify", "turkish-idioms", cwd=tmp_path)) == (
        f"error: 1 file(s) missing or not matching their pin: {first[2]} (missing); run `figeval data import "
        "turkish-idioms FOLDER`.")


@pytest.mark.skipif(AS_ROOT, reason="root writes into a read-only folder")
def test_a_data_dir_that_cannot_be_written(isolated_data_dir: Path, tmp_path: Path):
    isolated_data_dir.chmod(0o555)
    try:
        line = one_error_line(figeval("data", "import", "turkish-idioms", str(IDIOMS), cwd=tmp_path))
    finally:
        isolated_data_dir.chmod(0o755)
    assert line == (f"error: cannot write in the data dir {isolated_data_dir} (Permission denied); set "
                    "FIGEVAL_DATA_DIR to a folder you can write to.")


def test_an_import_folder_file_that_cannot_be_read_is_one_line(tmp_path: Path, monkeypatch):
    # Root reads a chmod-000 file, so the unreadable file is simulated where the import copies it.
    folder = tmp_path / "folder"
    shutil.copytree(IDIOMS, folder)

    def refuse(origin, destination, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(origin))

    monkeypatch.setattr(shutil, "copyfile", refuse)
    line = one_error_line(figeval("data", "import", "turkish-idioms", str(folder), cwd=tmp_path))
    assert line.startswith(f"error: {folder}: {folder / 'idioms.tsv'}: Permission denied; turkish-idioms was not "
                           "stored. Check that the files can be read and the data dir")


def test_a_data_dir_that_cannot_be_written_simulated_for_root(isolated_data_dir: Path, tmp_path: Path, monkeypatch):
    # The test above, where root's writes would succeed: the staging folder's creation is refused as the
    # kernel refuses it for a user without write permission.
    import tempfile

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkdtemp", refuse)
    line = one_error_line(figeval("data", "import", "turkish-idioms", str(IDIOMS), cwd=tmp_path))
    assert line == (f"error: cannot write in the data dir {isolated_data_dir} (Permission denied); set "
                    "FIGEVAL_DATA_DIR to a folder you can write to.")
    assert list(isolated_data_dir.iterdir()) == []
