"""Shared fixtures: an isolated data dir, the real upstream data files, quiet Inspect; the summary of skips."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pytest

os.environ.setdefault("INSPECT_DISPLAY", "none")

from figeval._compat import preload_inspect_modules  # noqa: E402
from figeval._registry import get_source  # noqa: E402
from figeval.data.stored import data_dir  # noqa: E402

from tests.real_data import SHARED_ENV, Found, Places, RealData, skip_reason, skip_summary  # noqa: E402

preload_inspect_modules()  # before any test starts threads (see its docstring)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--many", type=int, default=0, metavar="N",
                     help="the table oracle (tests/oracle) runs N random combinations beyond CI's seeds")

REPO_ROOT = Path(__file__).resolve().parents[1]
# The real upstream files and the papers' texts live beside the repository (never committed: upstream declares
# no license); a test that reads the data asks `real_data_folder`, which also looks in figeval's data store.
SHARED = Path(os.environ.get(SHARED_ENV) or REPO_ROOT.parent / "shared")
SHARED_FFE_HALLU = SHARED / "datasets" / "ffe-hallu"
SHARED_PAPERS = SHARED / "papers"

# The user's data store, read before any test points FIGEVAL_DATA_DIR at a folder of its own.
USER_DATA_DIR = data_dir()

_session_folder: list[Path] = []  # set by `real_data_session_folder` below, from pytest's tmp_path_factory


def _real_data_places() -> Places:
    if not _session_folder:
        raise RuntimeError("real data is looked up from a test or a fixture, not while tests are collected")
    return Places(SHARED / "datasets", USER_DATA_DIR, _session_folder[0])


REAL_DATA = RealData(_real_data_places)


@pytest.fixture(scope="session", autouse=True)
def real_data_session_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Gives REAL_DATA its session folder; the folder is created only when a dataset is looked up. (A module-level
    function rather than a fixture finds the data, so that test cases built from plain functions can call it.)"""
    _session_folder[:] = [tmp_path_factory.getbasetemp() / "real-data"]


def real_data_folder(name: str, needed: Iterable[str] | None = None) -> Path:
    """A folder holding the dataset's files (default: all of them) under their upstream names, from ../shared,
    the user's data store or a fetch (tests/real_data.py); the test is skipped when none has them."""
    source = get_source(name)
    found = REAL_DATA.find(source, [file.name for file in source.files] if needed is None else needed)
    if isinstance(found, Found):
        return found.folder
    pytest.skip(found)


@pytest.fixture(autouse=True)
def isolated_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets an empty data dir and response cache, so no test sees data or model responses that
    another test (or the user) stored."""
    directory = tmp_path_factory.mktemp("figeval-data")
    monkeypatch.setenv("FIGEVAL_DATA_DIR", str(directory))
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path_factory.mktemp("inspect-cache")))
    return directory


@pytest.fixture(autouse=True)
def no_active_model_after_a_test():
    """Inspect's `eval()` leaves the model it resolved tasks with as the process's active model; a later test's
    judged task, built outside any eval, would then take itself for one built inside an eval and refuse for want
    of a grader role before checking its other arguments (seen as order-dependent failures under xdist)."""
    yield
    from inspect_ai.model._model import active_model_context_var

    active_model_context_var.set(None)


@pytest.fixture
def shared_ffe_hallu() -> Path:
    """The real FFE-HALLU files: both CSV files."""
    return real_data_folder("ffe-hallu")


@pytest.fixture
def ffe_hallu_imported(shared_ffe_hallu: Path) -> Path:
    """The real FFE-HALLU files imported into the test's data dir, as `figeval data import` would."""
    from figeval.data.store import import_folder

    return import_folder(get_source("ffe-hallu"), shared_ffe_hallu)


@pytest.fixture
def shared_pquad() -> Path:
    """PQuAD's validation and test files (the tests do not read its 64,000-question train file)."""
    return real_data_folder("pquad", ["Validation.json", "Test.json"])


def paper_text(name: str) -> str:
    """A paper's plain-text copy beside the repository (never committed); the test is skipped without it."""
    path = SHARED_PAPERS / name
    if not path.is_file():
        pytest.skip(f"paper text not found at {path} (it is never committed)")
    return path.read_text(encoding="utf-8")


# Where each worker of a parallel run (`pytest -n`, pytest-xdist: `make test`) found the real data, gathered
# by the controller, which runs no test and so finds none itself.
_WORKERS_REAL_DATA: list[str] = []


def pytest_sessionfinish(session: pytest.Session) -> None:
    if hasattr(session.config, "workeroutput"):  # an xdist worker: hand its lines to the controller
        session.config.workeroutput["real_data"] = REAL_DATA.used()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:  # type: ignore[no-untyped-def]
    _WORKERS_REAL_DATA.extend(getattr(node, "workeroutput", {}).get("real_data", []))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter):
    """The run's last lines before pytest's count: where the real data came from, how many tests were skipped
    and why, grouped by reason. A wrapper called first, so these lines come after pytest's own summary."""
    result = yield
    lines = list(dict.fromkeys(REAL_DATA.used() + _WORKERS_REAL_DATA))
    lines += skip_summary([skip_reason(report.longrepr) for report in terminalreporter.stats.get("skipped", [])])
    if lines:
        terminalreporter.write_sep("-", "test data and skips")
        for line in lines:
            terminalreporter.write_line(line)
    return result
