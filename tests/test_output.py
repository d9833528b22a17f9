"""Result files are written whole or not at all, and never over an input."""

import os
import stat
from pathlib import Path

import pytest

from figeval.errors import FigevalError
from figeval.output import atomic_open, check_outputs, open_append, write_text


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path: Path):
    path = tmp_path / "labels.csv"
    write_text(path, "old\n")
    with pytest.raises(KeyboardInterrupt):
        with atomic_open(path) as handle:
            handle.write("half of the new")
            raise KeyboardInterrupt
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["labels.csv"]


def test_a_missing_folder_and_an_input_as_output_are_refused(tmp_path: Path):
    with pytest.raises(FigevalError, match="the folder .*missing does not exist"):
        write_text(tmp_path / "missing" / "report.md", "x")
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("data", encoding="utf-8")
    with pytest.raises(FigevalError, match="is one of the command's inputs"):
        check_outputs([tmp_path / "." / "sheet.csv"], [tmp_path / "other.csv", sheet])
    check_outputs([tmp_path / "new.csv"], [sheet])  # another file is fine


def test_an_output_that_reaches_an_input_through_a_link_or_a_folder_is_refused(tmp_path: Path):
    logs = tmp_path / "logs"
    logs.mkdir()
    log = logs / "run.eval"
    log.write_bytes(b"log")
    (tmp_path / "alias").symlink_to(logs)
    # the input folder stands for the files in it; the link's target is compared, not its name
    with pytest.raises(FigevalError, match=r"alias/run.eval is one of the command's inputs \(.*logs/run.eval\)"):
        check_outputs([tmp_path / "alias" / "run.eval"], [logs])
    check_outputs([tmp_path / "alias" / "report.md"], [logs])  # a new file in the folder replaces nothing


def test_an_output_that_is_a_link_is_refused_and_never_written_through(tmp_path: Path):
    elsewhere = tmp_path / "elsewhere.csv"
    elsewhere.write_text("someone's file\n", encoding="utf-8")
    link = tmp_path / "sheet.csv"
    link.symlink_to(elsewhere)
    with pytest.raises(FigevalError, match=r"--out .*sheet.csv is a symbolic link \(to .*elsewhere.csv\)"):
        check_outputs([link], [])
    for write in (lambda: write_text(link, "new\n"), lambda: open_append(link).close()):
        with pytest.raises(FigevalError, match="is a symbolic link"):
            write()
    assert elsewhere.read_text(encoding="utf-8") == "someone's file\n"


def test_written_files_get_the_mode_the_umask_gives(tmp_path: Path):
    previous = os.umask(0o027)
    try:
        write_text(tmp_path / "report.md", "x")
        open_append(tmp_path / "steps.jsonl").close()
    finally:
        os.umask(previous)
    # 0o666 without the umask's bits: rw-r----- (mkstemp alone would give rw-------)
    assert stat.S_IMODE((tmp_path / "report.md").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "steps.jsonl").stat().st_mode) == 0o640
