"""The package as others install and import it: tasks importable from `figeval`, a light `import figeval`, the
metadata an index shows, version ranges with CI on the exact tested releases, and the embedded model as an extra."""

import os
import subprocess
import sys
import tomllib

import pytest

from tests.conftest import REPO_ROOT

PROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ.copy())


def test_every_task_imports_from_figeval_and_import_figeval_stays_light():
    checked = python(
        "import sys, figeval\n"
        "assert 'inspect_ai' not in sys.modules, 'import figeval loaded Inspect'\n"
        "from figeval import errors, text\n"  # submodules are not looked up as tasks
        "assert 'inspect_ai' not in sys.modules, 'importing a submodule loaded the tasks'\n"
        "from figeval._registry import TASKS\n"
        "for name, task in TASKS.items():\n"
        "    exec(f'from figeval import {name} as imported')\n"
        "    assert imported is task, name\n"
        "assert set(TASKS) <= set(dir(figeval))\n"
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
