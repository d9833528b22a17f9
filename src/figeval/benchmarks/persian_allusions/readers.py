"""Reading the Persian allusions tasks' answers (documented in this benchmark's README, "How answers are read").

Multiple choice (Table 7). Layer 1, the paper's prompt: `[{"selected_option": n}]` (the key as a person reads it:
"selectedOption" too) or "only the option number". Layer 2, figeval's reader: the option named after a final
marker ("Final answer: 2", "The correct option is 3", "پاسخ نهایی: گزینه ۴", "Cevap:", «الجواب الصحيح هو»), the one
option named as "option 3" / "گزینه ۳" / "3)" / "**3. title**", in words by language (`option_words`: "The answer is
four", «پنجمین گزینه», «الخيار الثالث», "beşinci seçenek", «دومی درسته»), the one option whose title the answer
names (in Latin letters after a final marker: "Javab: Yunes va mahi"), per-option verdict lines read as pairs
(«۳. ...: درست», the others «نادرست»), a share per option read as pairs (the strictly highest of "Option 2: 80%"
lines; a tie is no choice), a Roman numeral in capitals after a final marker ("Answer: III"), an option named by
its place ("the last option", «گزینه آخر», «گزینهٔ مندرج در ردیف چهارم»), the one option left when one sentence
rules out all the others by number and the answer says it is the one remaining ("By elimination, ..."), "none of
the above" / "هیچ‌کدام" / "no allusion" as 0; numbers in Persian or Arabic-Indic digits. Not read as a choice:
numbers that name no option (a verse, a year, a step), an option inside a hedge, an embedded question, a
possibility, a question or the prompt's rule restated, an option a negation governs ("certainly not option 3",
«... پاسخ این پرسش نیست»). Two options with no final choice are unread; a prose answer and a JSON one that disagree
with nothing revising between, or two keys of the JSON object that name different options ({"selected_option": 3,
"answer": 4}), are two answers (`Undecided`); a later explicit revision ("Wait", "Actually", a sentence opening on
"Hmm, no —" / «نه،») replaces the earlier answer. Nothing after an end-of-turn token is the answer
(`markup.own_turn`, in the one normalisation before every reader). In logprob mode no text is read: the option
numbers' next-token probabilities decide (`scorer.OPTION_WORDS`).

Knowledge and open-ended (Tables 6, 8): `judged_readers` (layer 1 the JSON list the prompt asks for, layer 2 the
prose as written for the judge; "" for "not familiar" / "no allusion", read by rule; None for what a person cannot
read either).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from figeval.benchmarks.persian_allusions.option_words import (
    FINAL_MARKERS,
    bare_number_word,
    eliminated_to,
    latin_titles,
    options_in_words,
    probability_lines,
    rejected,
    verdict_lines,
    without_mentions,
)
from figeval.parsing import strip_reasoning
from figeval.verdict import Undecided
from figeval.text import expression_key, normalize_persian

NONE = 0
__all__ = ["NONE", "paper_option", "read_option"]

# The key as a person reads it: "selected_option", "selectedOption", "selected-option" (`parsing.json_key`).
_SELECTED = re.compile(r"[\"']?selected[_-]?option[\"']?\s*[:=]\s*[\"']?(\d+)", re.IGNORECASE)
_MARKDOWN = re.compile(r"[*`#]+")  # not "_": selected_option
_FINAL = re.compile(
    r"(?:final\s+(?:answer|choice|selection)|(?:correct|right|best)\s+(?:option|answer|choice)(?:\s+is)?|"
    r"the\s+answer\s+is|answer\s*:|i\s+(?:choose|select|pick|would choose|would select)|selected\s+option|"
    r"(?:پاسخ|جواب|گزینه)(?:[\s\u200c]*(?:نهایی|صحیح|درست))|پاسخ\s*:|جواب\s*:|انتخاب(?:[\s\u200c]*(?:من|نهایی))?|"
    + "|".join(FINAL_MARKERS.values()) + ")"
    r"\s*(?:is|است|:|=|-|–|—|\s)*",
    re.IGNORECASE,
)
_OPTION_NUMBER = re.compile(r"(?:option|choice|گزینه(?:[\s\u200c]*ی)?|شماره)\s*[#:]?\s*\(?(\d+)\)?", re.IGNORECASE)
_NONE_WORDS = re.compile(r"none of (?:the|them|these)|no allusion|هیچ[\s\u200c]*کدام|تلمیحی (?:ندارد|نیست|وجود ندارد)|"
                         r"بدون تلمیح", re.IGNORECASE)


def _plain(text: str) -> str:
    """Reasoning removed, digits ASCII, markdown removed, line by line (a line break ends a statement)."""
    lines = strip_reasoning(text).split("\n")
    return "\n".join(_MARKDOWN.sub("", normalize_persian(line)) for line in lines)


def _in_range(choice: int, n_options: int) -> int | None:
    return choice if 0 <= choice <= n_options else None


# The model takes its answer back after giving it: neither layer reads it. A sentence that opens on "no" set apart
# by a dash or comma ("Answer: 3.\n\nHmm, no — there is no ant", «پاسخ: ۳. نه، ...») contradicts what came before;
# "No other option fits" (no mark after "no") does not.
_SECOND_THOUGHTS = re.compile(r"\b(?:(?:wait|let me reconsider|on second thought|on reflection|correction|"
                              r"i was wrong)\b"
                              r"|actually,)"
                              r"|(?:^|(?<=[.!?؟]))[ \t]*(?:hmm+,?\s+)?(?:no|نه)\s*[—–,،]"
                              r"|صبر کنید|اصلاح می|اشتباه کردم", re.IGNORECASE | re.MULTILINE)
# Another key of the JSON object naming an option ({"selected_option": 3, "answer": 4}): two keys that disagree are
# two answers.
_OTHER_KEYS = re.compile(r"[\"'](?:answer|final[_ ]?answer|option|choice|correct[_ ]?option|chosen[_ ]?option)[\"']"
                         r"\s*:\s*[\"']?(\d+)", re.IGNORECASE)


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
    found |= options_in_words(segment, n_options)
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


def _json_choice(plain: str) -> tuple[set[int], int]:
    """The `selected_option` values the answer gives, and where the first of them starts. After an explicit
    revision between them ("[{...1}] Wait, let me reconsider ... The correct answer is: [{...4}]"), only those
    after the last revision count: the later answer replaces the earlier one."""
    found = list(_SELECTED.finditer(plain))
    if not found:
        return set(), len(plain)
    revisions = [m.end() for m in _SECOND_THOUGHTS.finditer(plain) if found[0].end() <= m.start() < found[-1].start()]
    kept = [m for m in found if not revisions or m.start() >= revisions[-1]]
    return {int(m.group(1)) for m in kept}, kept[0].start()


def _final_statement(plain: str) -> tuple[str, str] | None:
    """The statement after the last final marker ("The answer is", «پاسخ:», "Cevap:"), and the text after it."""
    finals = list(_FINAL.finditer(plain))
    if not finals:
        return None
    parts = re.split(r"(?<=[.!?؟])\s+|\n", plain[finals[-1].end():].strip(), maxsplit=1)
    return parts[0], (parts[1] if len(parts) > 1 else "")


def _stated(statement: str, options: Sequence[str], n_options: int) -> set[int]:
    """The options a final statement names, a lone number word ("four.", «چهار») included."""
    word = bare_number_word(statement)
    if word is not None and word <= n_options:
        return {word}
    return _options_named(statement, options, n_options) or latin_titles(statement, list(options))


def read_option(text: str, options: Sequence[str], n_options: int) -> int | None:
    """figeval's reading of a multiple-choice answer (see the module docstring).

    Raises:
        Undecided: the prose states one option as the answer and the JSON another, nothing revising between.
    """
    plain = _plain(text)
    if _taken_back(plain):
        return None
    named, json_start = _json_choice(plain)
    if named:
        if len(named) != 1:
            return None
        choice = named.pop()
        others = {int(n) for n in _OTHER_KEYS.findall(plain)} - {choice}
        if others:
            raise Undecided(f"the JSON's selected_option is {choice}, another key says {others.pop()}")
        # two answers are no answer: "The answer is option 2 ... [{"selected_option": 4}]"
        before = _final_statement(without_mentions(plain[:json_start]))
        said = _stated(before[0], options, n_options) if before and not _SECOND_THOUGHTS.search(before[1]) else set()
        if len(said) == 1 and choice not in said:
            raise Undecided(f"the prose states option {said.pop()}, the JSON option {choice}")
        return _in_range(choice, n_options)
    boxed = re.findall(r"\\boxed\{(?:\\text\{)?\s*(\d+)", plain)
    if boxed:
        return _in_range(int(boxed[-1]), n_options)
    # what names an option without choosing it (a hedge, an embedded question, a possibility, a question, the
    # prompt's rule restated) is blanked before the options named are read
    plain = without_mentions(plain)
    final = _final_statement(plain)
    if final:
        statement, after = final
        revision = _SECOND_THOUGHTS.search(after)
        if revision:
            # a later explicit revision wins ("Final answer: 2. Actually, 3 fits better"); one naming no option,
            # or two, leaves no answer
            changed = after[revision.end():]
            numbers = {int(n) for n in re.findall(r"(?<![\w.])(\d+)(?![\w.])", changed)}
            revised = _options_named(changed, options, n_options) | {n for n in numbers if 0 <= n <= n_options}
            return revised.pop() if len(revised) == 1 else None
        chosen = _stated(statement, options, n_options)
        if len(chosen) == 1:
            return chosen.pop()
    lines = [line for line in plain.split("\n") if line.strip()]
    shares = probability_lines(lines, lambda line: _options_named(line, options, n_options))
    if shares is not None:
        # a share per option ("Option 2: 80%"): the one given strictly the most is the choice, a tie none
        return shares.pop() if len(shares) == 1 else None
    checked = [match.group(1) for match in map(_CHECKED.match, lines) if match]
    if checked or any(_UNCHECKED.match(line) for line in lines):
        # a checklist: the one ticked line is the choice; none ticked, or two, is no choice
        ticked = _options_named(checked[0], options, n_options) if len(checked) == 1 else set()
        return ticked.pop() if len(ticked) == 1 else None
    marked = verdict_lines(lines, lambda line: _options_named(line, options, n_options))
    if marked is not None:
        # per-option verdicts ("۳. یونس و ماهی: درست", the others «نادرست»): the one marked right is the choice
        return marked.pop() if len(marked) == 1 else None
    if len(_listed_options(lines, options, n_options)) > 1:
        return None  # the options listed one per line, none marked: an echo of the list, no choice
    # an option a negation governs ("certainly not option 3", «گزینهٔ ۵ ... پاسخ این پرسش نیست») is not chosen
    refused = rejected(plain, lambda clause: _options_named(clause, options, n_options))
    if len(lines) == 1 or (lines and len(lines[0]) <= 80):
        # a short first line that names one option states the choice ("**3. موسی و عصا**", "Option 4.")
        chosen = _options_named(lines[0], options, n_options) - refused
        if len(chosen) == 1:
            return chosen.pop()
    chosen = _options_named(plain.replace("\n", " "), options, n_options) - (
        {int(m.group(1)) for m in re.finditer(r"(?:^|\s)(\d+)[.)]", plain)} if len(lines) > 1 else set())
    named_by_words = {int(n) for n in _OPTION_NUMBER.findall(plain)}
    candidates = (chosen | named_by_words) - refused
    if not candidates:
        # no option stated: every other option ruled out by number, and the answer said to be the one remaining
        return eliminated_to(plain, n_options, lambda text: _options_named(text, options, n_options))
    return candidates.pop() if len(candidates) == 1 else None
