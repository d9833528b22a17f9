"""JSON blocks in a model's answer, as models write them (`lenient_json`, or Python literals), for the knowledge and
open-ended readers (`judged_readers`): every list of objects, or single object, with where it starts and ends."""

from __future__ import annotations

import ast
import json

from figeval.parsing import lenient_json


def _closing(text: str, start: int) -> int | None:
    """The end of the bracketed block opening at `start` (strings and their escapes skipped), or None."""
    depth, quote, i = 0, "", start
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = ""
        elif char in "\"'" and not (char == "'" and text[i - 1].isalpha()):  # "Shu'ayb" is no string
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def _literal(block: str) -> object:
    """A JSON value as models write it (`lenient_json`), or a Python literal (`{'title': None}`); raises ValueError."""
    try:
        return lenient_json(block)
    except json.JSONDecodeError:
        try:
            return ast.literal_eval(block)
        except (ValueError, SyntaxError, MemoryError, RecursionError) as error:
            raise ValueError(block[:40]) from error


def json_blocks(text: str) -> list[tuple[int, int, list[dict]]]:
    """Every JSON list of objects (or single object) in the text: (start, end, entries), in order."""
    found, i = [], 0
    while i < len(text):
        end = _closing(text, i) if text[i] in "[{" else None
        if end is not None:
            try:
                value = _literal(text[i:end])
            except ValueError:
                value = None
            if isinstance(value, dict):
                value = [value]
            if isinstance(value, list) and all(isinstance(item, dict) for item in value):
                found.append((i, end, value))
                i = end
                continue
        i += 1
    return found
