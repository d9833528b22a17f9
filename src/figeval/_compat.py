"""Work-arounds for defects outside figeval, each with the reason it exists."""


def preload_inspect_modules() -> None:
    """Import the modules Inspect would import lazily inside its first `eval()` of a process.

    CPython 3.11.0-3.11.7 can fail `ast.parse` with "SystemError: AST constructor recursion depth mismatch"
    (python/cpython#106905, fixed in 3.11.8) when it runs while other threads are busy. Inspect's first eval
    imports its ACP server module, whose pydantic models parse their own source for docstrings: seen failing
    a CI run here (Python 3.11.7). Imported up front, in a single-threaded moment, the parse happens once and
    safely; eval() would import the same modules anyway, so this costs nothing extra.
    """
    import inspect_ai.agent._acp.server  # noqa: F401


# `figeval run` is `inspect eval figeval/<task>` with figeval's defaults: it takes Inspect's own option definitions
# (every flag and environment variable `inspect eval` honours, kept in step with Inspect by construction) and runs
# Inspect's own command body. Both are private to Inspect 0.3.x; a release that moves them fails here, at import,
# and in tests/test_routes.py, not silently.
from inspect_ai._cli.eval import _eval_command_impl as _inspect_eval_command  # noqa: E402
from inspect_ai._cli.eval import eval_options as inspect_eval_options  # noqa: E402,F401


def run_inspect_eval_command(params: dict) -> None:
    """`inspect eval` with the parsed parameters of `inspect_eval_options` (plus `tasks`)."""
    _inspect_eval_command(**params, json_output=False)


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

    def brief(exc_type, exc_value, exc_traceback, highlight_code: bool = True):  # type: ignore[no-untyped-def]
        if isinstance(exc_value, FigevalError):
            return Text(f"error: {exc_value}")
        return inspect_traceback(exc_type, exc_value, exc_traceback, highlight_code)

    brief.figeval_brief = True  # type: ignore[attr-defined]
    results.rich_traceback = brief


# How Inspect reads `--epochs-reducer` and `--sample-id` (also private to Inspect 0.3.x): `figeval run` checks them
# with Inspect's own functions before the log is started, so what it accepts is exactly what Inspect runs.
from inspect_ai._eval.task.util import resolve_task_sample_ids, sample_id_filter  # noqa: E402,F401
from inspect_ai._util.samples import parse_sample_id  # noqa: E402,F401
from inspect_ai.scorer._reducer.registry import create_reducers  # noqa: E402,F401
