"""One normalisation before every reader (`unwrapped`): what a person does not read as part of an answer
(invisible marks, markup, tables as grids, fences, template tokens, a turn the model went on to invent) is
removed once, in the scoring core, and what was removed is named in the outcome's explanation."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

# Marks that change nothing a person reads: zero-width space, LTR/RLM marks, bidi embeddings and isolates, BOM (the
# zero-width non-joiner is Persian spelling, kept).
_INVISIBLE = re.compile("[\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
# Full-width Latin letters, digits and punctuation ("Ｙｅｓ", "Ｎ") as their plain forms (NFKC of that block only:
# NFKC elsewhere would spell out Persian ligatures such as «ﷺ» that titles keep).
_FULL_WIDTH = re.compile("[\uff01-\uff5e]")
# Chat-template tokens a server leaves in the text ("<|im_end|>", "<|eot_id|>", "<end_of_turn>", "[/INST]").
_TEMPLATE_TOKEN = re.compile(r"<\|[^|<>\n]{1,40}\|>|</?(?:start_of_turn|end_of_turn|s)>(?:model|user)?|\[/?INST\]")
# The end of the model's turn: what follows is a turn the server let it invent (a made-up "user" message and its
# answer), not part of this answer.
_END_OF_TURN = re.compile(r"<\|(?:im_end|eot_id|end|endoftext|eot)\|>|<end_of_turn>|</s>")
# An HTML or XML-like tag ("<answer>", "<b>", "<p class=...>", "<br/>"); reasoning tags are left for
# `strip_reasoning`, which sets what they hold aside.
_TAG = re.compile(r"</?(?!(?:think|thinking|reasoning)\b)[A-Za-z][\w:-]*(?:\s[^<>\n]*)?/?>")
_LINE_BREAK_TAG = re.compile(r"<br\s*/?>|</p>|</div>|</li>", re.IGNORECASE)
# A markdown table's separator row, and its rows: "| Verdict | Fake |" is read as "Verdict: Fake".
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$", re.MULTILINE)
_TABLE_ROW = re.compile(r"^[ \t]*\|(.*)\|[ \t]*$", re.MULTILINE)
# A fence around the answer ("```\nYes\n```", "```text ... ```"): its text; a JSON fence too (JSON readers find
# the object either way).
_ANY_FENCE = re.compile(r"```[\w+-]*[ \t]*\n?(.*?)```", re.DOTALL)
# A keycap digit ("1️⃣") is the digit of a numbered item: "1.".
_KEYCAP = re.compile("([0-9])\ufe0f?\u20e3")
# An answer that is only a check mark or a cross is a yes or a no.
_EMOJI_VERDICT = {"✅": "yes", "✔": "yes", "✔️": "yes", "☑": "yes", "☑️": "yes", "👍": "yes",
                  "❌": "no", "✖": "no", "✖️": "no", "❎": "no", "👎": "no"}


# Cyrillic and Greek letters drawn as Latin ones: inside a Latin word ("Contrаdiction" with a Cyrillic а, "Нayır"), or
# as the whole answer ("Ν", a Greek capital nu), they are the Latin letters a person reads. A word wholly in
# Cyrillic (Tajik Persian, Russian) is left as written.
_LOOKALIKES = str.maketrans("АВЕКМНОРСТХаеорсухіјѕΑΒΕΖΗΙΚΜΝΟΡΤΥΧο", "ABEKMHOPCTXaeopcyxijsABEZHIKMNOPTYXo")
_MIXED_WORD = re.compile(r"\b(?=\w*[A-Za-z])(?=\w*[\u0370-\u03ff\u0400-\u04ff])\w+\b")


def _lookalikes_folded(text: str) -> str:
    if len(text.strip()) == 1:
        return text.translate(_LOOKALIKES)
    return _MIXED_WORD.sub(lambda m: m.group().translate(_LOOKALIKES), text)


def own_turn(text: str) -> str:
    """The answer up to its end-of-turn token when the model went on to invent a next turn after it."""
    end = _END_OF_TURN.search(text)
    if end is None or not text[:end.start()].strip() or not _TEMPLATE_TOKEN.sub("", text[end.end():]).strip():
        return text
    return text[:end.start()]


# A table with a header row, its separator and rows of three cells or more: each cell is read with its column's
# header ("Final: ✔"), as a person reads a cell by its column.
_HEADED_TABLE = re.compile(r"^[ \t]*\|(.*)\|[ \t]*\n[ \t]*\|?[ \t]*:?-{2,}.*\n((?:[ \t]*\|.*\|[ \t]*(?:\n|$))+)",
                           re.MULTILINE)


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def _headed_table(match: re.Match[str]) -> str:
    header = _cells(match.group(1))
    rows = [_cells(row) for row in match.group(2).splitlines() if row.strip()]
    if len(header) < 3 or any(len(row) != len(header) for row in rows):
        return match.group(0)
    return "".join(" ; ".join(f"{h}: {c}" if h and c else c for h, c in zip(header, row) if c) + "\n"
                   for row in rows)


def _table_row(match: re.Match[str]) -> str:
    """A row of two cells as "key: value" (a row whose first cell is a question: "answer: value"), others as
    their cells in a row."""
    cells = [cell.strip() for cell in match.group(1).split("|")]
    cells = [cell for cell in cells if cell]
    if len(cells) != 2:
        return " ; ".join(cells)
    return f"answer: {cells[1]}" if cells[0].endswith(("?", "؟")) else f"{cells[0]}: {cells[1]}"


def unwrapped(text: str) -> tuple[str, list[str]]:
    """The answer as every reader reads it, and what was done to it (for the outcome's explanation): invisible
    marks removed, Cyrillic or Greek look-alikes in a Latin word made Latin, full-width letters made plain, a turn
    invented after the end-of-turn token cut, chat-template tokens removed, HTML/XML tags unwrapped to their text,
    a markdown table's cells read with their column's header ("Final: ✔") or a two-cell row as "cell: cell", code
    fences unwrapped, a lone check mark or cross read as yes / no. Reasoning blocks stay for `strip_reasoning`;
    nothing else is changed."""
    done = []
    # typed, so that each lambda's `t` is a str (untyped, the check mark step's `dict.get` reads as `str | None`)
    steps: tuple[tuple[str, Callable[[str], str]], ...] = (
        ("invisible marks", lambda t: _INVISIBLE.sub("", t)),
        ("look-alike letters", _lookalikes_folded),
        ("full-width letters", lambda t: _FULL_WIDTH.sub(lambda m: unicodedata.normalize("NFKC", m.group()), t)),
        ("an invented next turn", own_turn),
        ("template tokens", lambda t: _TEMPLATE_TOKEN.sub(" ", t)),
        ("markup", lambda t: _TAG.sub("", _LINE_BREAK_TAG.sub("\n", t))),
        ("a table",
         lambda t: _TABLE_ROW.sub(_table_row, _TABLE_SEPARATOR.sub("", _HEADED_TABLE.sub(_headed_table, t)))),
        ("a code fence", lambda t: _ANY_FENCE.sub(lambda m: m.group(1), t)),
        ("a check mark", lambda t: _EMOJI_VERDICT.get(t.strip(" .!\n"), t)),
        ("keycap digits", lambda t: _KEYCAP.sub(r"\1.", t)),
    )
    for name, change in steps:
        changed = change(text)
        if changed != text:
            done.append(name)
            text = changed
    return text, done
