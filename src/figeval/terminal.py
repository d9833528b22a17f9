"""Lines for a terminal: what figeval prints fits a 120-column terminal, a longer line wrapped at its spaces under
an indent. A word with no space (a path, a command to copy) is never broken: it is a line of its own, whole."""

from __future__ import annotations

import textwrap

TERMINAL_WIDTH = 120


def wrapped(text: str, width: int = TERMINAL_WIDTH, indent: str = "", more: str = "") -> list[str]:
    """`text` on lines of at most `width` (a word longer than that alone on its line), the first starting with
    `indent`, the others with `more`."""
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=more, break_long_words=False,
                         break_on_hyphens=False) or [indent.rstrip()]


def hanging(line: str, width: int = TERMINAL_WIDTH) -> str:
    """One printed line wrapped under its own leading spaces plus four ("note: ..." and "  run ..." lines)."""
    lead = line[:len(line) - len(line.lstrip(" "))]
    return "\n".join(wrapped(line.strip(), width, lead, lead + "    "))
