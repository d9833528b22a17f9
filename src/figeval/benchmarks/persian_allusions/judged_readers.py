"""Reading the knowledge and open-ended answers (Tables 6, 8) before the judge (the benchmark README, "How answers
are read").

Layer 1 (`json_answer_text`): the JSON list the prompt asks for, as "title: explanation" lines; "" for the null
response (null fields, `[]`, `[{}]`, Python's None, "Unknown"/"None" in the fields), decided by rule. Layer 2
(`prose_answer`): any other answer as written, for the judge; "" when the prose itself says "not familiar" / "no
allusion". Both leave unread (None) what a person cannot read either:
- an echo of the prompt's template (its placeholder values, or both of its schemas);
- two answers: the null response beside an answer (a prose "Yes, I know it" or "it alludes to X" beside the null
  JSON, a prose "No allusion detected" beside a named one, two JSON lists with no revision between them, a
  reference null while the explanation names one, a knowledge title with no explanation);
- a refusal, a hedge with no lean, a question asked back, an allusion named only inside an embedded question;
- a claim of knowing that names nothing («بله، با این تلمیح آشنا هستم»), a definition of the word "allusion".
A later explicit revision ("Correction:", "please disregard ... my final response") replaces the earlier answer.
"""

from __future__ import annotations

import ast
import json
import re

from figeval.benchmarks.persian_allusions.prompts import KNOWLEDGE_PROMPT, OPEN_PROMPT
from figeval.parsing import YES_NO_BY_LANGUAGE, YesNo, json_key, lenient_json, parse_json_list, strip_reasoning
from figeval.markup import own_turn
from figeval.verdict import HEDGES, answer_body, sentence_labels, sentences

# --- JSON blocks -------------------------------------------------------------------------------------------------
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


# --- Words, by language ------------------------------------------------------------------------------------------
# Read in `verdict.answer_body` form: lowercase, Persian-normalized, ZWNJ as a space, quoted phrases and embedded
# "whether ..." questions removed.
# The prompt's own placeholders ("Identified story/event/work", "Short title", «<تلمیح>»): a value that is one is
# an echo of the template, not an answer.
PLACEHOLDERS = frozenset(
    value.strip().lower() for prompts in (KNOWLEDGE_PROMPT, OPEN_PROMPT) for prompt in prompts.values()
    for value in re.findall(r'":\s*"([^"]+)"', prompt)
)
# A field value that is the null response in words.
_NULL_WORDS = frozenset({"", "none", "null", "unknown", "n/a", "na", "nil", "نامشخص", "ندارد", "هیچ", "yok"})
# The answer says there is no allusion / it does not know it ("No allusion detected", «تلمیحی ندارد», "talmihi
# nadare", "telmih yok", "not familiar", «آشنا نیستم»), by language; "no other allusion" says there is one.
NONE_STATED = {
    "en": (r"\bno (?!other |further |second |additional )(?:\w+ )?allusions?\b(?! to\b)|"
           r"\b(?:does not|doesn't|did not|didn't) (?:contain|have|find|include) (?:any |an )?(?:\w+ )?"
           r"(?:allusion|reference)s?\b|\bnot (?:\w+ )?familiar with\b|\bcould(?: not|n't) find"
           r" any information\b|\bdo(?: not|n't) (?:know|recognize) (?:this|the|that) allusion|\bdoes(?: not|n't) "
           r"refer to any (?:\w+ )?(?:story|event|work)|^none\W*$"),
    "fa": r"تلمیحی (?:ندارد|نیست|وجود ندارد|در کار نیست)|آشنا نیستم|نمی ?شناسم",
    "fa-Latn": r"\btalmih\w* (?:nadare|nadarad|nist)\b|\beshare\w* (?:nadare|nemikon\w*)\b",
    "tr": r"\btelmih\w* (?:yok|içermiyor|bulunmuyor)|\başina değilim\b",
    "ar": r"لا يوجد (?:أي )?تلميح|لا يحتوي (?:\S+ )?على (?:أي )?تلميح",
}
_NONE_STATED = re.compile("|".join(NONE_STATED.values()))
# A negation over the negative statement ("It would be a mistake to say it contains no allusion", "not true that")
# affirms: the double negative is the answer "there is one".
_DOUBLE_NEGATIVE = re.compile(r"\b(?:mistake|wrong|incorrect|untrue|not true|false) to (?:say|claim|think)\b|"
                              r"\bnot (?:true|the case) that\b")
# Persian: a clause that holds the allusion word and closes on a negated verb («هیچ اشاره‌ای ... دیده نمی‌شود») says
# none; a bound negative prefix on the noun (بی‌تلمیح، غیر ...) negates again («بی‌تلمیح نیست»: it has one).
_FA_CLAUSE = re.compile(r"[^.!?؟؛;:\n]+")
_FA_NEGATED_VERB = re.compile(r"(?:^|\s)(?:نمی \S+|نیست\S*|ندار\S*|نکرد\S*|نمی\S+|نشد\S*|نیافت\S*|نبود\S*|"
                              r"نباشد|نکن\S*)\s*$")
_FA_ALLUSION_WORD = re.compile(r"(?:^|\s)(?:تلمیح|اشاره)")
_FA_BOUND_NEGATION = re.compile(r"(?:^|\s)(?:بی|غیر) ?(?:تلمیح|اشاره)")
# A concession ("although it recalls X," «با آنکه ...،») mentions, it does not answer.
_CONCESSION = re.compile(r"(?:\balthough\b|\beven though\b|با آنکه|اگرچه|هرچند)[^,،;؛.]*[,،]")
# The answer says there is one, or that it knows it.
AFFIRMED = {
    "en": r"\ballud(?:es|ing) to\b|\brefers? to\b|\breference to\b|\bthere is an allusion\b|\bcontains (?:an|a|two|"
          r"\w+) (?:\w+ )?allusions?\b|\bi(?: am|'m) (?:\w+ )?familiar with\b|\bi (?:do )?know (?:this|the) allusion",
    "fa": r"اشاره (?:دارد|می ?کند)|تلمیح دارد|آشنا هستم|می ?شناسم",
    "fa-Latn": r"\beshare dare\b",
    "tr": r"\btelmihte bulun\w*|\btelmih\w* var\b",
    "ar": r"يحتوي (?:\S+ )?على تلميح|يشير إلى",
}
_AFFIRMED = re.compile("|".join(AFFIRMED.values()))
# A claim that names nothing: yes-words and "I am familiar with this allusion" / «با این تلمیح آشنا هستم» / "there
# is an allusion" alone.
_CLAIM = re.compile(r"\b(?:i am|i'm) (?:\w+ )?familiar with (?:this|the|that) allusion\b|\bthere is an allusion\b|"
                    r"\b(?:the|this) text contains an allusion\b|\ballusion (?:detected|found)\b|با این تلمیح آشنا هستم"
                    r"|این تلمیح را می ?شناسم|(?:این )?(?:متن|بیت) تلمیح دارد|"
                    + "|".join(rf"\b{re.escape(word)}\b" if word.isascii() else re.escape(word)
                               for words in YES_NO_BY_LANGUAGE.values() for word in words[YesNo.YES]))
# Refusals and requests (beyond `verdict.HEDGES`): "I'm sorry, but I can't ...", «متأسفم», "Could you provide ...",
# "hard for me to say".
_REFUSAL = re.compile(r"\b(?:i'm|i am) sorry\b[^.]*\b(?:can't|cannot|can not|unable|won't)\b|^متا?ٔ?سفم|"
                      r"\bcould you (?:please )?(?:provide|share|give|clarify)\b|"
                      r"\b(?:hard|difficult|impossible) for me to (?:say|tell|know)\b|\bi can(?:'t|not) help\b")
# A lean beside a hedge ("most likely", «ولی فکر می‌کنم»): the answer it leans to is read.
_LEAN = re.compile(r"\b(?:most likely|probably|likely|i think|i believe|i(?:'d| would) lean|best fit)\b|فکر می ?کنم|"
                   r"احتمالا|به احتمال زیاد|\bmuhtemelen\b")
# A Persian embedded yes/no question («که این بیت تلمیحی دارد یا ندارد», «اینکه ... یا نه») asks, it does not answer.
_FA_EMBEDDED = re.compile(r"(?:اینکه|که)[^.!?؟؛\n]*?\sیا\s(?:نه|ن\S+)")
# A definition of the word ("An allusion is a figure of speech ...", «تلمیح یعنی ...»).
_DEFINITION = re.compile(r"^(?:an allusion is|allusions are)\b|^تلمیح (?:یعنی|عبارت است از)")
# A revision: the later answer replaces the earlier one.
REVISION = re.compile(r"\b(?:correction|on (?:second thought|reflection)|disregard|my final (?:response|answer)|"
                      r"wait|actually|i was wrong|let me reconsider)\b|اصلاح|تصحیح|اشتباه کردم", re.IGNORECASE)


def _form(text: str) -> str:
    """The text as the statements are read: `answer_body` form, concessions and Persian embedded questions out."""
    return _FA_EMBEDDED.sub(" ", _CONCESSION.sub(" ", answer_body(text)))


def _stated(text: str) -> list[str]:
    """The sentences that state something: questions and suppositions out."""
    return [s for s in sentences(_form(text)) if not s.endswith(("?", "؟")) and not re.match(r"^(?:if|اگر)\b", s)]


def says_none(text: str) -> bool:
    """The text says there is no allusion, or that it does not know it (a double negative is not one)."""
    for sentence in _stated(text):
        match = _NONE_STATED.search(sentence)
        if match and not _DOUBLE_NEGATIVE.search(sentence[: match.start()]):
            return True
        for clause in _FA_CLAUSE.findall(sentence):
            if (_FA_ALLUSION_WORD.search(clause) and _FA_NEGATED_VERB.search(clause.strip())
                    and not _FA_BOUND_NEGATION.search(clause)):
                return True
    return False


def says_some(text: str) -> bool:
    """The text says there is an allusion (or names one), or that it knows it, outside a negated clause."""
    return any(_AFFIRMED.search(s) or (_DOUBLE_NEGATIVE.search(s) and _NONE_STATED.search(s)) or
               any(_FA_BOUND_NEGATION.search(c) and _FA_NEGATED_VERB.search(c.strip()) for c in _FA_CLAUSE.findall(s))
               for s in _stated(text))


# Capitalized words that name no story (a language, the pronoun).
_NOT_NAMES = frozenset({"I", "Persian", "English", "Arabic", "Turkish"})


def _names_anything(text: str) -> bool:
    """Whether a text names something: a capitalized word inside a sentence (a proper name), or Persian words."""
    if re.search("[\u0600-\u06ff]", text):
        return True
    return any(word not in _NOT_NAMES for sentence in re.split(r"(?<=[.!?])\s+|\n", text)
               for word in re.findall(r"(?<=\s)[A-Z]\w*", sentence.strip()))


def _no_answer_in_prose(text: str) -> bool:
    """A refusal or a hedge with no lean, a claim that names nothing, a definition of the word, an echo."""
    form = _form(text)
    stated = _stated(text)
    hedged = any(sentence_labels(s, HEDGES) for s in sentences(form)) or bool(_REFUSAL.search(form))
    if hedged and not _LEAN.search(form):
        return True
    if not re.search(r"\w", _CLAIM.sub(" ", " ".join(stated))):
        return True  # only "Yes, I know it": nothing named
    if _DEFINITION.search(form.strip()) and not _names_anything(text):
        return True  # what an allusion is, nothing about this one
    lowered = text.lower()
    return any(placeholder in lowered for placeholder in PLACEHOLDERS)


# --- Layer 1: the JSON answer ------------------------------------------------------------------------------------
_UNDECIDED = object()


def _entries_text(entries: list[dict], fields: tuple[str, str]) -> object:
    """"title: explanation" lines; "" for the null response; None when there are none of the fields;
    `_UNDECIDED` for an echo or a half answer."""
    lines = []
    for entry in entries:
        lowered = {json_key(key): value for key, value in entry.items()}
        if entry and not any(field in lowered for field in fields):
            return None
        values = [str(lowered.get(field) or "").strip() for field in fields]
        if any(value.lower() in PLACEHOLDERS for value in values):
            return _UNDECIDED  # the template's placeholders echoed
        named, explained = (value if value.lower() not in _NULL_WORDS else "" for value in values)
        if not named and not explained:
            continue
        if not named and not says_none(explained):
            return _UNDECIDED  # "reference": null beside an explanation naming one: the object contradicts itself
        if not named:
            continue  # the explanation says there is none ("does not refer to any specific story")
        if not explained and fields[0] == "title":
            return _UNDECIDED  # a knowledge title with no explanation shows neither knowing nor not knowing
        lines.append(": ".join(v for v in (named, explained) if v))
    return "\n".join(lines)


def _json_reading(text: str, fields: tuple[str, str]) -> object:
    """Layer 1's reading: the text, "", None (no JSON answer in the prompt's shape) or `_UNDECIDED`."""
    text = strip_reasoning(own_turn(text))
    blocks = json_blocks(text)
    if not blocks:
        entries = parse_json_list(text)  # a bare JSON `null`
        return None if entries is None else _entries_text(entries, fields)
    # after a revision, only what follows it counts ("Correction: ... my corrected response: [...]")
    revisions = [m.end() for m in REVISION.finditer(text) if m.end() <= blocks[-1][0]]
    since = revisions[-1] if revisions else 0
    kept = [block for block in blocks if block[0] >= since] or blocks[-1:]
    readings = {_entries_text(entries, fields) for _, _, entries in kept}
    if _UNDECIDED in readings or len(readings) > 1:
        return _UNDECIDED  # two answers given as one ("I'll give both and let you decide")
    reading = readings.pop()
    if reading is None:
        return None
    prose = " ".join(text[a:b] for a, b in zip([since, *(end for _, end, _ in kept)], [s for s, _, _ in kept] +
                                                [len(text)]))
    if any(placeholder in prose.lower() for placeholder in PLACEHOLDERS):
        return _UNDECIDED  # "When allusion exists: ... No allusion detected: ...": the schemas echoed
    if reading == "" and says_some(prose) and not says_none(prose):
        return _UNDECIDED  # "Yes, I am familiar" / «... اشاره دارد» beside the null response
    if reading and says_none(prose) and not says_some(prose):
        return _UNDECIDED  # "No allusion detected." beside a named allusion
    return reading


def json_answer_text(text: str, fields: tuple[str, str]) -> str | None:
    """Layer 1 of the judged tasks: the entries of the JSON list the prompt asks for, as lines "title:
    explanation" (keys matched without case); "" for the null response; None when there is no such list, or
    when it is no answer (an echo of the template, two answers, a half answer)."""
    reading = _json_reading(text, fields)
    return reading if isinstance(reading, str) else None


def prose_answer(text: str, fields: tuple[str, str] = ("reference", "explanation")) -> str | None:
    """Layer 2 of the judged tasks: any other answer as written (reasoning removed), for the judge; "" when it
    says "not familiar" / "no allusion"; None when nothing is left or it is no answer (see the module docstring)."""
    if _json_reading(text, fields) is _UNDECIDED:
        return None
    answer = strip_reasoning(own_turn(text)).strip()
    if not answer:
        return None
    if says_none(answer):
        return None if says_some(answer) else ""
    return None if _no_answer_in_prose(answer) else answer
