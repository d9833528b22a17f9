"""Work-arounds for defects outside figeval, each with the reason it exists."""

import logging
import re
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from typing import cast


def preload_inspect_modules() -> None:
    """Import the modules Inspect would import lazily inside its first `eval()` of a process.

    CPython 3.11.0-3.11.7 can fail `ast.parse` with "SystemError: AST constructor recursion depth mismatch"
    (python/cpython#106905, fixed in 3.11.8) when it runs while other threads are busy. Inspect's first eval
    imports its ACP server module, whose pydantic models parse their own source for docstrings: seen failing
    a CI run here (Python 3.11.7). Imported up front, in a single-threaded moment, the parse happens once and
    safely; eval() would import the same modules anyway, so this costs nothing extra.
    """
    import inspect_ai.agent._acp.server  # noqa: F401


def count_mockllm_tokens_with(count: Callable[[str], int]) -> None:
    """Inspect's `mockllm/model` makes up each output's token usage by counting the prompt with tiktoken's
    o200k_base encoding, which tiktoken downloads on first use: offline, every call fails with a network error and
    a run on the test model ends in a ConnectionError. `count` (text -> tokens, offline) takes tiktoken's place."""
    from inspect_ai.model._providers.mockllm import MockLLM

    async def count_text_tokens(self: MockLLM, text: str) -> int:
        return count(text)

    MockLLM.count_text_tokens = count_text_tokens  # type: ignore[method-assign,assignment]


# `figeval run` is `inspect eval figeval/<task>` with figeval's defaults: it takes Inspect's own option definitions
# (every flag and environment variable `inspect eval` honours, kept in step with Inspect by construction) and runs
# Inspect's own command body. Both are private to Inspect 0.3.x; a release that moves them fails here, at import,
# and in tests/test_routes.py, not silently.
from inspect_ai._cli.eval import _eval_command_impl as _inspect_eval_command  # noqa: E402
from inspect_ai._cli.eval import eval_options as inspect_eval_options  # noqa: E402,F401


def run_inspect_eval_command(params: dict) -> None:
    """`inspect eval` with the parsed parameters of `inspect_eval_options` (plus `tasks`), in a copy of the
    caller's context (`in_own_context`)."""
    in_own_context(lambda: _inspect_eval_command(**params, json_output=False))


def in_own_context(call):
    """`call()` run in a copy of the current context. Inspect 0.3.285 sets the active model in its caller's context
    while it resolves tasks and never resets it, so after an eval in this process a task built later (a second
    command, a Python user's next task) would be taken for one built inside an eval: a judged task without a judge
    then refuses for want of a grader role before it checks its other arguments."""
    import contextvars

    return contextvars.copy_context().run(call)


# `figeval run --paper` is `inspect eval-set` the same way: Inspect's own eval-set command, invoked with the options
# `inspect_eval_options` parsed (eval-set's own options beside them); a release that renames one fails in
# tests/test_routes.py.
from inspect_ai._cli.eval import eval_set_command as _inspect_eval_set_command  # noqa: E402


def parse_model_roles(roles: tuple[str, ...]) -> dict:
    """`--model-role` values as Inspect's CLI reads them: role -> a model name, a Model (for a config), or a list."""
    from inspect_ai._cli.util import parse_model_role_cli_args

    return dict(parse_model_role_cli_args(roles))


def run_inspect_eval_set_command(params: dict, **set_options: object) -> bool:
    """`inspect eval-set` with the parsed parameters of `inspect_eval_options` (plus `tasks`) and eval-set's own
    options by their parameter names (`retry_attempts`, `log_dir_allow_dirty`, ...); True when every task ended
    with a complete log (the command's exit code 0)."""
    import click

    context = click.get_current_context()
    try:
        in_own_context(lambda: context.invoke(_inspect_eval_set_command, **params, **set_options, json_output=False))
    except click.exceptions.Exit as exit:
        return exit.exit_code == 0
    return True


def brief_figeval_errors() -> None:
    """Show an error figeval explains (a FigevalError: its message names the file, sample or fix) as its one line
    in Inspect's end-of-task panel, not as a traceback through Inspect's scheduler (about 110 lines). The full
    traceback stays in the log (`inspect view`); other exceptions keep Inspect's traceback."""
    from inspect_ai._display.core import results
    from rich.text import Text

    from figeval.errors import FigevalError

    inspect_traceback = results.rich_traceback
    if getattr(inspect_traceback, "figeval_brief", False):
        return

    def brief(exc_type, exc_value, exc_traceback, highlight_code: bool = True):
        if isinstance(exc_value, FigevalError):
            return Text(f"error: {exc_value}")
        return inspect_traceback(exc_type, exc_value, exc_traceback, highlight_code)

    brief.figeval_brief = True  # type: ignore[attr-defined]
    results.rich_traceback = brief


# The display modules that print Inspect's end-of-task panel (`tasks_results`), each under the name it imported.
_RESULT_DISPLAYS = ("inspect_ai._display.rich.display", "inspect_ai._display.plain.display",
                    "inspect_ai._display.textual.display")


def unsuccessful(tasks: list) -> list:
    """The tasks of an Inspect display whose result is not a success (an error, a cancellation, none yet)."""
    from inspect_ai._display.core.display import TaskSuccess

    return [task for task in tasks if not isinstance(task.result, TaskSuccess)]


def quiet_inspect_results() -> None:
    """Leave a successful task out of Inspect's end-of-task panel: `figeval run` ends with its own summary (the
    paper's units, each rate's n) and Inspect's panel repeated the same metrics above it with every `/n` and
    `read/` line. A cancelled or failed task keeps its panel (its error, Inspect's eval-retry hint); the live
    progress display is untouched. Inspect 0.3.285's displays import `tasks_results` by name; a release that
    moves it fails here (tests/cli/test_run_summary.py), not silently."""
    import importlib

    from inspect_ai._display.core.results import tasks_results

    def unsuccessful_results(tasks):
        return tasks_results(unsuccessful(tasks))

    unsuccessful_results.figeval_quiet = True  # type: ignore[attr-defined]
    for name in _RESULT_DISPLAYS:
        module = importlib.import_module(name)
        if getattr(module.tasks_results, "figeval_quiet", False):
            continue
        if module.tasks_results is not tasks_results:
            raise ImportError(f"{name}.tasks_results is not Inspect's own: figeval's quiet display needs updating")
        setattr(module, "tasks_results", unsuccessful_results)  # mypy lets a module's undeclared names be read, not set


def quiet_hook_banner() -> None:
    """Keep Inspect from printing its hook banner ("inspect_ai v0.3.285 / hooks enabled: 1 / figeval/
    figeval_progress_lines: ...") before a run when the only hooks installed are figeval's own. Inspect prints it
    the first time it loads the registry's hooks (`init_hooks`), and prints nothing when they are loaded already;
    loading them here, as Inspect would (required hooks are still verified), leaves it nothing to print. Another
    package's hooks keep the banner (the user should know they run). Private to Inspect 0.3.285."""
    from inspect_ai._util.entrypoints import ensure_entry_points
    from inspect_ai._util.registry import registry_info
    from inspect_ai.hooks import _startup
    from inspect_ai.hooks._hooks import get_all_hooks

    ensure_entry_points()
    if all(registry_info(hook).name.startswith("figeval/") for hook in get_all_hooks()):
        _startup._load_registry_hooks()


@contextmanager
def quiet_ids_of_other_runs(ids: Collection[str]) -> Iterator[None]:
    """Inspect's eval set takes one `--sample-id` for all its tasks, each id as `TASK:ID`, and warns "sample id 'X'
    not found in dataset" for each id a task of that name lacks. Where a paper run asks one task twice (dictionary
    and paraphrased meanings), each of the two is given the other's ids too: these warnings say nothing wrong, and
    are dropped for `ids` (the ids the paper run selected, each from the run that asks it) only. Inspect 0.3.x's
    message, from `inspect_ai._eval.task.util`."""
    logger = logging.getLogger("inspect_ai._eval.task.util")
    message = re.compile(r"sample id '(.*)' not found in dataset ")
    selected = set(ids)

    class OtherRuns(logging.Filter):
        def filter(self, record: logging.LogRecord) -> bool:
            found = message.match(record.getMessage())
            return not (found and found.group(1) in selected)

    quiet = OtherRuns()
    logger.addFilter(quiet)
    try:
        yield
    finally:
        logger.removeFilter(quiet)


# How Inspect reads `--epochs-reducer` and `--sample-id` (also private to Inspect 0.3.x): `figeval run` checks them
# with Inspect's own functions before the log is started, so what it accepts is exactly what Inspect runs.
from inspect_ai._eval.task.util import resolve_task_sample_ids, sample_id_filter  # noqa: E402,F401
from inspect_ai._util.samples import parse_sample_id  # noqa: E402,F401
from inspect_ai.scorer._reducer.registry import create_reducers  # noqa: E402,F401

# Inspect's error for a missing provider SDK or an unusable model name; raised by its model constructors and
# caught by figeval to say the fix in one line (prerequisite_line). Not exported in 0.3.285.
from inspect_ai._util.error import PrerequisiteError  # noqa: E402,F401

from figeval.errors import FigevalError  # noqa: E402


class UnretryableError(FigevalError):
    """An error that fails the same way however often it is tried (a replay file without the sample's id, a
    prompt longer than a local model's context, a provider SDK not installed): its sample fails once, with this
    one line, instead of Inspect's sample retries (`retry_on_error`) repeating it and warning each time."""


def _is_unretryable(error: BaseException | None) -> bool:
    while error is not None:
        if isinstance(error, (UnretryableError, PrerequisiteError)):
            return True
        if isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]
        else:
            error = error.__cause__
    return False


def fail_unretryable_errors_once() -> None:
    """Make Inspect's sample retries (`retry_on_error`, which `figeval run` sets) skip an UnretryableError.

    Inspect 0.3.285 retries every sample error, whatever its type, as long as its budget lasts: it asks the
    attempt's `retries_remaining` while handling the exception (warning "Sample will be retried" each time) and
    once more after, to decide on the retry, so a missing replay id would print its error 4 times per sample. Here
    an attempt whose exception is unretryable reports no retry left, at both readings, so the sample fails once
    and Inspect's fail_on_error decides as for any last attempt. Private to Inspect; a release that moves
    SampleAttempt fails here (tests/models/test_replay.py), not silently.
    """
    import sys

    from inspect_ai._eval.task.run import SampleAttempt

    # read from its class, a property is the property object (mypy takes it for its getter function)
    inspect_reading = cast(property, SampleAttempt.retries_remaining).fget
    if inspect_reading is None:
        raise ImportError("SampleAttempt.retries_remaining has no getter: figeval's retry patch needs updating")
    if getattr(inspect_reading, "figeval_unretryable", False):
        return

    def retries_remaining(attempt: SampleAttempt) -> int:
        if getattr(attempt, "_figeval_final", False):
            return 0
        if _is_unretryable(sys.exc_info()[1]):
            object.__setattr__(attempt, "_figeval_final", True)  # the reading after the except block
            return 0
        return inspect_reading(attempt)

    patched = property(retries_remaining)
    patched.fget.figeval_unretryable = True  # type: ignore[union-attr]
    SampleAttempt.retries_remaining = patched  # type: ignore[method-assign,assignment]


def prerequisite_line(message: str, requirements: list[str] | None = None) -> str:
    """Inspect's PrerequisiteError message as one plain line, its `pip install <sdk>` replaced by figeval's extra
    that installs the same SDK at the version figeval is tested with (pyproject's optional dependencies), so the
    README's `pip install 'figeval[anthropic]'` and the error agree.

    Args:
        message: the error's text (Rich markup, blank lines).
        requirements: figeval's declared requirements (default: the installed package's metadata).
    """
    from importlib.metadata import PackageNotFoundError, requires

    if requirements is None:
        try:
            requirements = requires("figeval") or []
        except PackageNotFoundError:
            requirements = []
    extra_of: dict[str, str] = {}
    for requirement in requirements:
        found = re.match(r"\s*([A-Za-z0-9_.-]+).*;\s*extra\s*==\s*['\"]([^'\"]+)['\"]", requirement)
        if found:
            extra_of.setdefault(found.group(1).lower(), found.group(2))
    line = " ".join(re.sub(r"\[/?bold\]", "", message).split())

    def figeval_extra(install: re.Match[str]) -> str:
        extras = {extra_of.get(package.lower()) for package in install.group(1).split()}
        if None in extras or len(extras) != 1:
            return install.group(0)
        return f"pip install 'figeval[{extras.pop()}]'"

    return re.sub(r"pip install ((?:[A-Za-z0-9_.-]+ ?)+)$", figeval_extra, line)


def active_model():
    """The model of the running sample, or None outside one: Inspect 0.3.285 keeps it in a private context variable
    (`inspect_ai.model._model.active_model`) and exports no public accessor. Used to tell a role's model (a judge,
    an extractor) from the model under test."""
    from inspect_ai.model._model import active_model as inspect_active_model

    return inspect_active_model()


def model_api_names() -> set[str]:
    """The names of every model provider registered with Inspect (its own and figeval's): Inspect 0.3.285 keeps
    its registry private and exports no listing."""
    from inspect_ai._util.registry import registry_find, registry_unqualified_name

    return {registry_unqualified_name(info) for info in registry_find(lambda info: info.type == "modelapi")}


def registered_scorer(name: str):
    """The scorer factory Inspect registered under `name` ("figeval/<scorer>"); private registry, as above."""
    from inspect_ai._util.registry import registry_lookup

    return registry_lookup("scorer", name)


def running_sample():
    """The running sample's `ActiveSample`, or None outside one (private to Inspect 0.3.285)."""
    from inspect_ai.log._samples import sample_active

    return sample_active()


def read_log_headers(logs: list) -> list:
    """Inspect's reader of many logs' headers at once (concurrently), which 0.3.285 does not export."""
    from inspect_ai.log._file import read_eval_log_headers

    return read_eval_log_headers(logs)


def task_args_file(path: str) -> dict:
    """A `--task-config` file (YAML or JSON) read as `inspect eval` reads it (private to Inspect 0.3.285)."""
    from inspect_ai._util.config import resolve_args

    return resolve_args(path)


def load_dotenv_as_inspect_does() -> None:
    """Inspect's reading of `.env` files (the current folder's and its parents'), as `inspect eval` does first."""
    from inspect_ai._util.dotenv import init_dotenv

    init_dotenv()


def metric_from_definition(name: str, options: dict | None):
    """A metric made again from its definition in a log (`log.eval.scorers[i].metrics`: its registry name and
    options, nested metrics included), as `inspect score` remakes them; private to Inspect 0.3.285."""
    from inspect_ai.scorer._metric import metric_create

    return metric_create(name, **(options or {}))
