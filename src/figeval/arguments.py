"""`name=value` arguments as every command reads them (-T task arguments, -M model arguments), whichever layer
declares the command: the CLI's own groups and the builders each benchmark declares (`Benchmark.builders`)."""

from __future__ import annotations

from typing import Any

from figeval.errors import FigevalError


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


def parse_pairs(pairs: tuple[str, ...], flag: str, typed: bool = True) -> dict[str, Any]:
    """`name=value` arguments; values read as bools and numbers where they look like one, unless `typed` is
    False (task arguments: `make_task` reads each as its parameter takes it, so a file named 2024 stays text)."""
    parsed = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise FigevalError(f"{flag} takes name=value, got {pair!r} (e.g. {flag} controls=false).")
        parsed[name.strip()] = parse_value(value.strip()) if typed else value.strip()
    return parsed


def pairs_text(args: dict[str, Any], empty: str = "") -> str:
    """Arguments as the command line gives them (`meaning=human, judge=...`), or `empty` for none."""
    return ", ".join(f"{name}={value}" for name, value in args.items()) or empty
