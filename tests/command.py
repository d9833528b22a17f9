"""The `figeval` command as tests run it: what a user sees of it, its exit code and its two streams.

`figeval(...)` runs the command's entry point (`figeval.cli.main`, what both the `figeval` script and `python -m
figeval` call) in this process, without the seconds a new Python process spends importing Inspect
(perf/cli_tests_time.sh measures them). A test uses `figeval_subprocess(...)` only when it needs a process of its
own, and says why beside the call: it kills the process, it tests `python -m figeval` itself, or it depends on what
Inspect sets up once per process (its display, its log level, its hooks, a model made by name), which a command run
in this process would find already set by earlier tests.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import traceback
from collections.abc import Iterator, Mapping
from pathlib import Path
from unittest import mock


def figeval(*args: str, env: Mapping[str, str] | None = None, cwd: Path | str | None = None,
            input: str | None = None) -> subprocess.CompletedProcess:
    """`figeval ARGS` through its entry point, in this process, as `subprocess.run(..., capture_output=True,
    text=True)` would give it back: the exit code (a SystemExit's code; an exception main() lets through is
    printed as Python prints it, a traceback, with exit code 1) and both streams, decoded as text mode decodes them.

    Args:
        *args: the command line after `figeval`.
        env: the whole environment of the command (as subprocess's `env`); None: this process's. Either way
            whatever the command sets in it (`figeval run` sets the progress variable, `.env` files) is undone.
        cwd: the folder the command runs in; None: the current one.
        input: the command's standard input; None: an empty one (as stdin=DEVNULL).
    """
    from figeval.cli import main

    out, err = _byte_stream(), _byte_stream()
    code = 0
    with _environment(env), _working_directory(cwd), mock.patch.object(sys, "argv", ["figeval", *args]), \
            mock.patch.object(sys, "stdin", io.StringIO(input or "")), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main()
        except SystemExit as exit:
            if exit.code is None or isinstance(exit.code, int):
                code = exit.code or 0
            else:  # as Python ends on sys.exit("message"): the message on stderr, exit code 1
                print(exit.code, file=sys.stderr)
                code = 1
        except Exception:
            traceback.print_exc()
            code = 1
    return subprocess.CompletedProcess(["figeval", *args], code, _text(out), _text(err))


def figeval_subprocess(*args: str, env: Mapping[str, str] | None = None, cwd: Path | str | None = None,
                       input: str | None = None) -> subprocess.CompletedProcess:
    """`python -m figeval ARGS` in a process of its own, for the tests that need one (see the module docstring);
    the arguments and the result as `figeval`'s."""
    return subprocess.run([sys.executable, "-m", "figeval", *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ if env is None else env), input=input,
                          stdin=subprocess.DEVNULL if input is None else None)


def assert_one_line_error(result: subprocess.CompletedProcess, *fragments: str) -> None:
    """The command refused its input as figeval refuses what a user can fix: exit code 2, no traceback, and one
    `error: ` line holding every fragment."""
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    [line] = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    for fragment in fragments:
        assert fragment in line


def _byte_stream() -> io.TextIOWrapper:
    """A stream like a pipe's: UTF-8 text over bytes (with a `.buffer`), not a terminal."""
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)


def _text(stream: io.TextIOWrapper) -> str:
    """What `subprocess.run(text=True)` reads from the pipe: the bytes decoded, newlines made universal."""
    stream.flush()
    return io.TextIOWrapper(io.BytesIO(stream.buffer.getvalue()), encoding="utf-8").read()


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None) -> Iterator[None]:
    with mock.patch.dict(os.environ, {} if env is None else dict(env), clear=env is not None):
        yield


@contextlib.contextmanager
def _working_directory(cwd: Path | str | None) -> Iterator[None]:
    previous = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(previous)


def make_task(name: str, args: dict):
    """The registered task `name` built from command-line arguments, as `figeval run` builds it (the registry's
    benchmarks read at the call, so a test's added benchmark is one of them)."""
    from figeval import _registry
    from figeval.running.tasks import make_task as built

    return built(_registry.BENCHMARKS, name, args)
