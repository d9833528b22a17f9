"""What several commands parse the same way: `name=value` arguments (-T, -M) and the default log dir."""

from __future__ import annotations

from typing import Any

from figeval.errors import FigevalError

DEFAULT_LOG_DIR = "logs"


def parse_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in {"true", "false", "yes", "no"}:
        return lowered in {"true", "yes"}
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def parse_pairs(pairs: tuple[str, ...], flag: str) -> dict[str, Any]:
    parsed = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise FigevalError(f"{flag} takes name=value, got {pair!r} (e.g. {flag} controls=false).")
        parsed[name.strip()] = parse_value(value.strip())
    return parsed
