"""The one Persian expression a line or clause of a Task 1 / Task 3 answer names (documented in this benchmark's
README, "How answers are read"), for `expressions`: the words around it (labels, Persian frames, glosses, a hedge, a
negated alternative) set aside, by principle."""

from __future__ import annotations

import re

from figeval.benchmarks.ffe_hallu.expression_frames import spelled
from figeval.text import has_arabic_script, normalize_persian

_ARABIC_RUN = re.compile(r"[\u0600-\u06FF\u200c][\u0600-\u06FF\u200c\s،]*[\u0600-\u06FF\u200c]|[\u0600-\u06FF]")
# (items lettered in Persian: «الف)», «ب)», «ج-», as formal Persian letters a list)
PERSIAN_ITEM_LETTER = r"(?:الف|[بپجد])"
LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\(?[0-9۰-۹]+[.)\-:]|[0-9۰-۹]+\s*[-–]|\(?[a-e][.)]|\(?"
                       + PERSIAN_ITEM_LETTER + r"\s?[)\-])\s+")
_LABEL = re.compile(r"^\s*(?:persian\s+)?(?:idiom|proverb|expression|saying|answer|equivalent|translation|"
                    r"اصطلاح|ضرب[\s\u200c]?المثل|مثل|کنایه|پاسخ|جواب|معادل"
                    r"|متل|ضرب[\s\u200c]?الامثال)\s*[:：\-–]\s*", re.IGNORECASE)  # (Dari: «متل» is a proverb)

# "X, although Y" names X; but a head that is a hedge ("Not sure, but «X» fits", «مطمئن نیستم، ولی ... «X»») or
# holds no Persian is no candidate: the lean after the "but" is the answer (family: hedged answers with a lean).
_BUT = re.compile(r"[,،;]\s*(?:although|though|but|while|however|اما|ولی)\b|\s—\s")
_HEDGE_HEAD = re.compile(r"\bnot\s+(?:sure|certain)\b|\bhard to say\b|\bemin\s+değilim\b|"
                         + "|".join(spelled(w) for w in ("مطمئن نیستم", "نمی‌دانم", "شک دارم", "اطمینان ندارم")),
                         re.IGNORECASE)
# Negation by scope: "not X but Y", «X نیست ... بلکه Y»: the negation closes X's clause, «بلکه»/"but" gives Y (family:
# a final choice stated as a correction of another). Only when Y is Persian ("X is not literal, but it fits" keeps X).
_NOT_BUT = re.compile(r"(?:\bnot\b|(?:^|\s)(?:نیست|نمی[\s\u200c]*باشد|نه)(?=\s|[،,]|$))[^\n]*?(?:[,،;؛]\s*|\s)"
                      r"(?:but(?:\s+rather)?|بلکه)\s+", re.IGNORECASE)
_NEGATED_QUOTE = re.compile(r"(?:\bnot\s+|(?:^|\s)نه\s+)[«“\"]([^«»“”\"]+)[»”\"]|[«“\"]([^«»“”\"]+)[»”\"]\s*"
                            r"(?:نیست|نمی[\s\u200c]*باشد)")

# Negation by scope: a Persian clause closes with its verb, so «نیست» / «نمی‌باشد» after the quotes negates every
# expression its clause names («پاسخ «X» یا «Y» نیست، چون ...»: neither is offered), not only the one just before it.
# The clause opens after the last clause mark (. ، ؛ : ! ؟ or a line break) outside quotes before the verb.
_CLOSING_NEGATION = re.compile(r"(?:^|\s)(?:نیست|نیستند|نمی[\s\u200c]*باشد|نمی[\s\u200c]*باشند)(?=[\s.،,؛;!؟?]|$)")
_QUOTED = re.compile(r"[«“\"]([^«»“”\"]+)[»”\"]")


def _clause_negated(segment: str) -> set[str]:
    """The quoted expressions of the clauses a closing «نیست» negates."""
    # clause marks inside quotes hidden
    blanked = _QUOTED.sub(lambda m: "«" + "x" * (len(m.group()) - 2) + "»", segment)
    negated: set[str] = set()
    for verb in _CLOSING_NEGATION.finditer(blanked):
        start = max(blanked.rfind(mark, 0, verb.start()) for mark in ".،,؛;:!؟?\n") + 1
        negated |= {m.group(1).strip() for m in _QUOTED.finditer(segment, start, verb.start())}
    return negated


# Persian frames around an unquoted expression, made of a closed set of words: a label word ("idiom", "equivalent";
# not «مثل», which is also "like" and opens expressions), its modifiers, and verbs of saying; a lead-in ending in a
# colon («برای این معنا می‌توان گفت: X», «اصطلاح دقیق‌تر این است: X») or a subject closed by the copula («اصطلاح
# مناسب این معنا X است»). A word outside the set ends the frame, so «مثل آب خوردن: ...» keeps its words.
_FRAME_LABELS = {"اصطلاح", "ضرب المثل", "ضربالمثل", "کنایه", "معادل", "پاسخ", "جواب", "عبارت", "بهترین", "انتخاب",
                 "گزینه"}
# (no word that opens expressions: not «یک», «که», «گفت»; the verbs of saying close a lead-in only)
_FRAME_WORDS = _FRAME_LABELS | {
    "مناسب", "مناسبتر", "مناسب تر", "مناسب ترین", "درست", "صحیح", "فارسی", "رایج", "مورد", "نظر", "دقیق", "دقیق تر",
    "دقیقتر", "برای", "این", "آن", "معنا", "معنی", "مفهوم", "من", "نهایی", "پیشنهادی", "نزدیک ترین"}
_SAYING = {"گفت", "می گویند", "میگویند", "گفته", "می شود", "میشود", "بگوییم", "می توان", "میتوان", "است", "هست"}
_COPULA = re.compile(r"\s+(?:است|می\s?باشد|هست)\s*[.!]?\s*$")


def _frame_length(words: list[str], allowed: set[str] = _FRAME_WORDS) -> int:
    """How many leading words are frame words (half-spaced compounds read as one word)."""
    at = 0
    while at < len(words):
        two = " ".join(words[at:at + 2])
        if at + 1 < len(words) and two in allowed:
            at += 2
        elif words[at] in allowed:
            at += 1
        else:
            break
    return at


def _in_original(found: str, segment: str) -> str:
    """The words `found` (Persian-normalized) as the segment writes them (half-spaces kept)."""
    pattern = r"[\s\u200c]+".join(re.escape(word) for word in found.split())
    match = re.search(pattern, segment.replace("ي", "ی").replace("ك", "ک"))
    return segment[match.start():match.end()] if match else found


def _without_persian_frame(segment: str) -> str:
    found = _frame_cut(segment)
    return segment if found is segment else _in_original(found, segment)


def _frame_cut(segment: str) -> str:
    words = normalize_persian(segment).split()
    head, colon, tail = normalize_persian(segment).partition(":")
    if colon and has_arabic_script(tail):
        lead = head.split()
        if lead and _frame_length(lead, _FRAME_WORDS | _SAYING) == len(lead) and (
                _frame_length(lead[:2], _FRAME_LABELS) or set(lead) & _SAYING or re.search(r"می (?:توان|گویند)", head)):
            return tail
    labelled = words[:1] and (words[0] in _FRAME_LABELS or " ".join(words[:2]) in _FRAME_LABELS)
    frame = _frame_length(words[:-1]) if labelled else 0
    # a label and a modifier at least: a lone label word may open the expression itself («جواب های هوی است»)
    if frame >= 2:
        rest = " ".join(words[frame:])
        expression = _COPULA.sub("", rest)
        # the copula closes the frame's sentence only after an infinitive (an idiom's dictionary form): a proverb
        # keeps its own «است» («آب از سرچشمه گل‌آلود است»)
        last = expression.split()[-1] if expression.split() else ""
        return expression if re.search(r"(?:تن|دن)$", last) else rest
    return segment


# A Persian gloss opened by «یعنی» / «به معنی» after a mark (family: "X؛ یعنی ...", "X، به معنای ..."); as " - " and
# "(" open an English one.
_GLOSS = re.compile(r"\s*[؛;،,:—–-]\s*(?:یعنی|به[\s\u200c]+معن(?:ی|ای))\s")
# Two halves of one couplet: the second opens with a subordinating word and cannot stand alone (family: classical
# verse given as the proverb, "X / که Y"); otherwise a slash between two Persian spans offers two.
_SECOND_HEMISTICH = re.compile(r"^(?:که|تا|چو|چون|گر|اگر|ور|کز|کاین|وگرنه)\s")


def _slashed(segment: str) -> str | None:
    """The segment's Persian span(s) across " / ": a couplet kept whole, a transliteration dropped; None for two
    expressions offered as alternatives."""
    parts = [part for part in re.split(r"\s+/\s+", segment) if has_arabic_script(part)]
    if len(parts) < 2:
        return parts[0] if parts else segment
    halves = [half for half in map(_one_run, parts) if half]  # a part of no one run drops out
    if len(parts) == 2 and len(halves) == 2 and _SECOND_HEMISTICH.match(normalize_persian(halves[1])):
        return " / ".join(halves)
    return None


def _one_run(segment: str) -> str | None:
    runs = [run.strip(" ،") for run in _ARABIC_RUN.findall(segment) if len(run.strip(" ،")) > 1]
    return runs[0] if len(runs) == 1 else None


def _end_punctuation(expression: str) -> str:
    """A final period or exclamation mark is punctuation, not part of the expression («دستم به دامنت!»)."""
    return expression.strip().rstrip(".!…").strip()


def expression_in(segment: str) -> str | None:
    """The expression a line or a clause names: its one quoted Persian span, else its one run of Persian words
    (a label or Persian frame before it and a gloss after a dash, arrow, parenthesis or «یعنی» cut off first; of
    "X, although Y", X; of "not X but Y", Y)."""
    not_but = _NOT_BUT.search(segment)
    if not_but and has_arabic_script(segment[not_but.end():]):
        segment = segment[not_but.end():]
    cut = _BUT.search(segment)
    if cut and segment[:cut.start()].count("«") > segment[:cut.start()].count("»"):
        cut = None  # inside a quotation: the quoted expression's own words («X، ولی Y»)
    if cut:
        head, tail = segment[:cut.start()], segment[cut.end():]
        if _HEDGE_HEAD.search(head) or not has_arabic_script(head):
            segment = tail
        elif re.search(r"[a-z—]", cut.group(), re.IGNORECASE) or re.search(r"[«“\"]", head):
            segment = head
        # else «X، ولی Y» unquoted: a proverb built on a contrast («سودابه گریه کرد، ولی ...»), kept whole
    quoted = {q.strip() for q in re.findall(r"[«“\"]([^«»“”\"]+)[»”\"]", segment) if has_arabic_script(q)}
    negated = {(m.group(1) or m.group(2)).strip() for m in _NEGATED_QUOTE.finditer(segment)} | _clause_negated(segment)
    if quoted and quoted <= negated:
        return None  # every expression named is negated: none is offered, whatever else the sentence says
    quoted -= negated
    if len(quoted) == 1:
        return _end_punctuation(quoted.pop())
    if len(quoted) > 1:
        return None
    segment = _LABEL.sub("", LIST_ITEM.sub("", segment, count=1), count=1)
    segment = re.sub(r"\s*[(\[][^()\[\]\n]*[)\]]", " ", segment)  # asides in parentheses: a gloss, a register
    segment = re.split(r"\s+[(\[]|\s*[→⟶]|\s+[-–—:]\s+", _GLOSS.split(segment, maxsplit=1)[0], maxsplit=1)[0]
    segment = _without_persian_frame(segment)
    if re.search(r"\s/\s", segment):
        found = _slashed(segment)
        return _end_punctuation(found) if found else None
    found = _one_run(segment)
    return _end_punctuation(found) if found else None


# A sentence saying the model has none ("متاسفانه نمی‌توانم ... پیدا کنم") is no answer.
# A hedge alone («مطمئن نیستم») names no expression either.
_REFUSAL = re.compile(r"^(?:متاسفانه|متأسفانه|با عرض پوزش|پوزش)|نمی\s?(?:توانم|دانم|شناسم)|پیدا\s+نکردم|سراغ\s+ندارم"
                      r"|مطمئن\s+نیستم|اطمینان\s+ندارم")
# The slots of an idiom's dictionary form: "حال و هوای کسی یا کاری را نداشتن" is one expression.
_SLOTS = frozenset({"کسی", "چیزی", "جایی", "کاری", "کس", "چیز"})


def _two_offered(plain: str) -> bool:
    """Two expressions offered as one: "X یا Y", one «یا» between two spans of two words or more; "X / Y" that is
    not a couplet. Not: a proverb built on «یا ... یا» ("either ... or": «یا رومی روم یا زنگی زنگ», «آش یا شور
    می‌شود یا بی‌نمک»), the slots of a dictionary form («کسی یا کاری»), or two forms of one expression, the same
    words but one («چوب دوسرطلا یا چوب دوسرگهی»)."""
    if re.search(r"\s/\s", plain) and _slashed(plain) is None:
        return True
    words = plain.split()
    if words.count("یا") != 1 or words[0] == "یا":
        return False
    at = words.index("یا")
    left, right = words[:at], words[at + 1:]
    one_form = len(left) == len(right) and sum(a != b for a, b in zip(left, right)) == 1
    return len(left) > 1 and len(right) > 1 and left[-1] not in _SLOTS and right[0] not in _SLOTS and not one_form


def is_refusal(text: str) -> bool:
    """Whether a Persian sentence says the model has none, or hedges with no expression («مطمئن نیستم»)."""
    return bool(_REFUSAL.search(normalize_persian(text).replace("\u200c", " ").strip(" «»\"")))


# Arabic is not Persian though it shares the script (family: an Arabic idiom offered for a Persian meaning, «ضحك على
# ذقنه»). Letters do not tell (Persian typed on an Arabic keyboard has ك and ي: «سايه كسي را با تير زدن»); words do:
# an expression with a word only Arabic has (its prepositions and relatives as Arabic spells them, alef maksura or
# hamza kept) and no word or letter only Persian has is Arabic, no answer. One table per language.
_ONLY_WORDS = {
    "ar": frozenset({"على", "إلى", "الى", "حتى", "الذي", "التي", "الذين", "هذا", "هذه", "ذلك", "تلك", "ليس", "أن", "إن",
                     "عن"}),
    "fa": frozenset({"را", "از", "به", "با", "که", "است", "نیست", "این", "آن", "هم", "تا", "برای", "خود", "کسی",
                     "چیزی"}),
}
_PERSIAN_LETTERS = re.compile(r"[پچژگ]")


def is_arabic(found: str) -> bool:
    """Whether an expression is written in Arabic, not Persian."""
    words = set(found.split())
    persian = {normalize_persian(word) for word in words} & _ONLY_WORDS["fa"]
    return bool(words & _ONLY_WORDS["ar"]) and not persian and not _PERSIAN_LETTERS.search(found)


def one_expression(found: str | None) -> str | None:
    """`found` when it is one Persian expression, None when it is two offered as one, a refusal or Arabic."""
    if found is None or is_arabic(found):
        return None
    plain = normalize_persian(found).replace("\u200c", " ")
    return None if _two_offered(plain) or is_refusal(plain) else found
