"""Result files are written whole or not at all, and never over an input."""

from pathlib import Path

import pytest

from figeval.errors import FigevalError
from figeval.output import atomic_open, refuse_input, write_text


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
        refuse_input(tmp_path / "." / "sheet.csv", [tmp_path / "other.csv", sheet])
    refuse_input(tmp_path / "new.csv", [sheet])  # another file is fine
