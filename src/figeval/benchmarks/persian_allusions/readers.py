"""Reading the Persian allusions tasks' answers (documented in this benchmark's README, "How answers are read").

Multiple choice (Table 7). Layer 1, the paper's prompt: `[{"selected_option": n}]` or "only the option number".
Layer 2, figeval's reader: the option named after a final marker ("Final answer: 2", "The correct option is
3", "پاسخ نهایی: گزینه ۴"), the one option named as "option 3" / "گزینه ۳" / "3)" / "**3. title**", the one
option whose title the answer names, "none of the above" / "هیچ‌کدام" / "no allusion" as 0; numbers in Persian
or Arabic-Indic digits. Numbers that name no option (a verse, a year, a step) are not read; two options with no
final choice are unread. In logprob mode no text is read: the option numbers' next-token probabilities decide
(`scorer.OPTION_WORDS`).

Knowledge and open-ended (Tables 6, 8): layer 1 is the JSON list the prompt asks for; layer 2 gives the judge
any other answer as written (prose, markdown, a Persian paragraph): an answer is never unread because it is not
JSON, only when it is empty.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from figeval.parsing import json_key, parse_json_list, strip_reasoning
from figeval.text import expression_key, normalize_persian

NONE = 0

_SELECTED = re.compile(r"[\"']?selected_option[\"']?\s*[:=]\s*[\"']?(\d+)", re.IGNORECASE)
_MARKDOWN = re.compile(r"[*`#]+")  # not "_": selected_option
_FINAL = re.compile(
    r"(?:final\s+(?:answer|choice|selection)|(?:correct|right|best)\s+(?:option|answer|choice)(?:\s+is)?|"
    r"the\s+answer\s+is|answer\s*:|i\s+(?:choose|select|pick|would choose|would select)|selected\s+option|"
    r"(?:پاسخ|جواب|گزینه)(?:[\s\u200c]*(?:نهایی|صحیح|درست))|پاسخ\s*:|جواب\s*:|انتخاب(?:[\s\u200c]*(?:من|نهایی))?)"
    r"\s*(?:is|است|:|=|-|–|—|\s)*",
    re.IGNORECASE,
)
_OPTION_NUMBER = re.compile(r"(?:option|choice|گزینه(?:[\s\u200c]*ی)?|شماره)\s*[#:]?\s*\(?(\d+)\)?", re.IGNORECASE)
# An option named by its ordinal: "the third option", «گزینه‌ی سوم», «گزینه دوم».
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
             "اول": 1, "یکم": 1, "نخست": 1, "دوم": 2, "سوم": 3, "چهارم": 4, "پنجم": 5}
_ORDINAL_OPTION = re.compile(r"\b(first|second|third|fourth|fifth)\s+(?:option|choice)\b"
                             r"|گزینه(?:[\s\u200c]*ی)?\s+(اول|یکم|نخست|دوم|سوم|چهارم|پنجم)(?![\w])", re.IGNORECASE)
_NONE_WORDS = re.compile(r"none of (?:the|them|these)|no allusion|هیچ[\s\u200c]*کدام|تلمیحی (?:ندارد|نیست|وجود ندارد)|"
                         r"بدون تلمیح", re.IGNORECASE)


def _plain(text: str) -> str:
    """Reasoning removed, digits ASCII, markdown removed, line by line (a line break ends a statement)."""
    lines = strip_reasoning(text).split("\n")
    return "\n".join(_MARKDOWN.sub("", normalize_persian(line)) for line in lines)


def _in_range(choice: int, n_options: int) -> int | None:
    return choice if 0 <= choice <= n_options else None


# The model takes its answer back after giving it: neither layer reads it.
_SECOND_THOUGHTS = re.compile(r"\b(?:(?:wait|let me reconsider|on second thought|on reflection|correction|i was wrong)\b"
                              r"|actually,)"
                              r"|صبر کنید|اصلاح می|اشتباه کردم", re.IGNORECASE)


def _taken_back(plain: str) -> bool:
    last = list(_SELECTED.finditer(plain))
    return bool(last) and bool(_SECOND_THOUGHTS.search(plain[last[-1].end():]))


def paper_option(text: str, n_options: int) -> int | None:
    """Layer 1: the JSON `selected_option` the prompt asks for (one value), or an answer that is only a number."""
    plain = _plain(text)
    if _taken_back(plain):
        return None
    named = {int(n) for n in _SELECTED.findall(plain)}
    if len(named) == 1:
        return _in_range(named.pop(), n_options)
    if named:
        return None
    bare = re.fullmatch(r"\s*\[?\s*(\d+)\s*\]?\s*[.)]?\s*", plain)
    return _in_range(int(bare.group(1)), n_options) if bare else None


def _options_named(segment: str, options: Sequence[str], n_options: int) -> set[int]:
    """The options a piece of text names: "option 3", "گزینه ۳", a leading "3." / "3)", a title, "none"."""
    found = {int(n) for n in _OPTION_NUMBER.findall(segment)}
    found |= {_ORDINALS[(english or persian).lower()] for english, persian in _ORDINAL_OPTION.findall(segment)}
    leading = re.match(r"\s*\(?(\d+)\s*[.)\-:]?(?:\s|$)", segment)
    if leading and len(set(re.findall(r"(?<![\w.])\d+(?!\w)", segment))) == 1:  # not "1 or 2"
        found.add(int(leading.group(1)))
    key = expression_key(segment)
    found |= {i for i, title in enumerate(options, start=1) if expression_key(title) and expression_key(title) in key}
    if _NONE_WORDS.search(segment):
        found.add(NONE)
    return {n for n in found if 0 <= n <= n_options}


# A line a checkbox or check mark marks ("- [x] 3. ...", "☑ 2", "✅ گزینه ۳"): the one ticked is the choice.
_CHECKED = re.compile(r"^\s*(?:[-*•]\s*)?(?:\[\s*[xX✓✔]\s*\]|[☑✅✔✓])\s*(.*)$")
_UNCHECKED = re.compile(r"^\s*(?:[-*•]\s*)?(?:\[\s*\]|☐)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]\s*)?\(?\d+\s*[.)\-:]")


def _listed_options(lines: Sequence[str], options: Sequence[str], n_options: int) -> set[int]:
    """The options named one per list item ("1. یوسف و زلیخا", "- 2) ..."), as an answer that echoes the option
    list names them."""
    listed = [_options_named(line, options, n_options) for line in lines if _LIST_ITEM.match(line)]
    return {found.pop() for found in listed if len(found) == 1}


def read_option(text: str, options: Sequence[str], n_options: int) -> int | None:
    """figeval's reading of a multiple-choice answer (see the module docstring)."""
    plain = _plain(text)
    if _taken_back(plain):
        return None
    named = {int(n) for n in _SELECTED.findall(plain)}
    if named:
        return _in_range(named.pop(), n_options) if len(named) == 1 else None
    boxed = re.findall(r"\\boxed\{(?:\\text\{)?\s*(\d+)", plain)
    if boxed:
        return _in_range(int(boxed[-1]), n_options)
    finals = list(_FINAL.finditer(plain))
    if finals:
        rest = plain[finals[-1].end():]
        parts = re.split(r"(?<=[.!?؟])\s+|\n", rest.strip(), maxsplit=1)
        statement, after = parts[0], (parts[1] if len(parts) > 1 else "")
        revision = _SECOND_THOUGHTS.search(after)
        if revision:
            # a later explicit revision wins ("Final answer: 2. Actually, 3 fits better"); one naming no option,
            # or two, leaves no answer
            changed = after[revision.end():]
            numbers = {int(n) for n in re.findall(r"(?<![\w.])(\d+)(?![\w.])", changed)}
            revised = _options_named(changed, options, n_options) | {n for n in numbers if 0 <= n <= n_options}
            return revised.pop() if len(revised) == 1 else None
        chosen = _options_named(statement, options, n_options)
        if len(chosen) == 1:
            return chosen.pop()
    lines = [line for line in plain.split("\n") if line.strip()]
    checked = [match.group(1) for match in map(_CHECKED.match, lines) if match]
    if checked or any(_UNCHECKED.match(line) for line in lines):
        # a checklist: the one ticked line is the choice; none ticked, or two, is no choice
        ticked = _options_named(checked[0], options, n_options) if len(checked) == 1 else set()
        return ticked.pop() if len(ticked) == 1 else None
    if len(_listed_options(lines, options, n_options)) > 1:
        return None  # the options listed one per line, none marked: an echo of the list, no choice
    if len(lines) == 1 or (lines and len(lines[0]) <= 80):
        # a short first line that names one option states the choice ("**3. موسی و عصا**", "Option 4.")
        chosen = _options_named(lines[0], options, n_options)
        if len(chosen) == 1:
            return chosen.pop()
    chosen = _options_named(plain.replace("\n", " "), options, n_options) - (
        {int(m.group(1)) for m in re.finditer(r"(?:^|\s)(\d+)[.)]", plain)} if len(lines) > 1 else set())
    named_by_words = {int(n) for n in _OPTION_NUMBER.findall(plain)}
    candidates = chosen | named_by_words
    return candidates.pop() if len(candidates) == 1 else None


def json_answer_text(text: str, fields: tuple[str, str]) -> str | None:
    """Layer 1 of the judged tasks: the entries of the JSON list the prompt asks for, as lines "title:
    explanation" (keys matched without case; entries whose fields are all empty dropped: "" is the null
    answer). None when there is no such list or an entry has none of the fields."""
    entries = parse_json_list(text)
    if entries is None:
        return None
    lines = []
    for entry in entries:
        # keys as a person reads them: "Title", "Full Explanation", "full-explanation" are the prompt's keys
        lowered = {json_key(key): value for key, value in entry.items()}
        if not any(field in lowered for field in fields):
            return None
        values = [str(lowered.get(field) or "").strip() for field in fields]
        if any(values):
            lines.append(": ".join(v for v in values if v))
    return "\n".join(lines)


def prose_answer(text: str) -> str | None:
    """Layer 2 of the judged tasks: any answer not in the JSON shape, as written (reasoning removed), for the
    judge; None only when nothing is left."""
    return strip_reasoning(text).strip() or None


