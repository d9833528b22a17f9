"""Shared fixtures: an isolated data dir, the real upstream FFE-HALLU files, quiet Inspect."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
# The real upstream files live beside the repository (never committed: upstream declares no license).
SHARED_FFE_HALLU = REPO_ROOT.parent / "shared" / "datasets" / "ffe-hallu"

os.environ.setdefault("INSPECT_DISPLAY", "none")

from figeval._compat import preload_inspect_modules  # noqa: E402

preload_inspect_modules()  # before any test starts threads (see its docstring)


@pytest.fixture(autouse=True)
def isolated_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets an empty data dir and response cache, so no test sees data or model responses that
    another test (or the user) stored."""
    directory = tmp_path_factory.mktemp("figeval-data")
    monkeypatch.setenv("FIGEVAL_DATA_DIR", str(directory))
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path_factory.mktemp("inspect-cache")))
    return directory


@pytest.fixture
def shared_ffe_hallu() -> Path:
    if not (SHARED_FFE_HALLU / "Fake FFEs.csv").is_file():
        pytest.skip(f"real FFE-HALLU files not found at {SHARED_FFE_HALLU} (they are never committed)")
    return SHARED_FFE_HALLU


@pytest.fixture
def ffe_hallu_imported(shared_ffe_hallu: Path) -> Path:
    """The real FFE-HALLU files imported into the test's data dir, as `figeval data import` would."""
    from figeval.data.registry import get_source
    from figeval.data.store import import_folder

    return import_folder(get_source("ffe-hallu"), shared_ffe_hallu)


SHARED_PAPERS = REPO_ROOT.parent / "shared" / "papers"


def paper_text(name: str) -> str:
    """A paper's plain-text copy beside the repository (never committed); the test is skipped without it."""
    path = SHARED_PAPERS / name
    if not path.is_file():
        pytest.skip(f"paper text not found at {path} (it is never committed)")
    return path.read_text(encoding="utf-8")
