"""What Inspect prints during `figeval run`: a FigevalError as its one line, no end-of-task panel for a task that
succeeded (the run ends with figeval's summary table instead), the hook banner only under a log level that shows
third-party lines, and plain progress lines (figeval's progress hook, registered for every run) where there is no
terminal for Inspect's live display."""

from __future__ import annotations

import os
import sys
from collections.abc import Collection

# Log levels under which Inspect's hook banner is noise (it lists figeval's own progress hook before every run).
QUIET_LOG_LEVELS = ("warning", "error", "critical", "notset")


def quiet_inspect_output(log_level: str) -> None:
    """Sets Inspect's output for this process before the run (see the module docstring); `log_level` is the
    run's `--log-level` (Inspect's default: warning)."""
    # Importing figeval.progress registers its hook with Inspect; imported here, before the banner is decided, the
    # hook is there whatever else the run imports: the banner (when shown) lists it and quiet_hook_banner sees every
    # hook the run will have.
    import figeval.progress  # noqa: F401

    from figeval._compat import brief_figeval_errors, quiet_hook_banner, quiet_inspect_results

    brief_figeval_errors()
    quiet_inspect_results()
    if str(log_level).lower() in QUIET_LOG_LEVELS:
        quiet_hook_banner()


def progress_lines_without_terminal(given: Collection[str]) -> None:
    """Turns figeval's progress lines on when no `--display` is given and stdout is not a terminal: Inspect's live
    display would print nothing there until the end."""
    if "display" not in given and not sys.stdout.isatty():
        import figeval.progress

        os.environ[figeval.progress.ENABLE_VARIABLE] = "1"
