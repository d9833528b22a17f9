"""Reading the knowledge and open-ended answers (Tables 6, 8) before the judge (the benchmark README, "How answers
are read").

Layer 1 (`json_answer_text`): the JSON list the prompt asks for, as "title: explanation" lines; "" for the null
response (null fields, `[]`, `[{}]`, Python's None, "Unknown"/"None" in the fields), decided by rule. Layer 2
(`prose_answer`): any other answer as written, for the judge; "" when the prose itself says "not familiar" / "no
allusion" (by scope: «بی‌تلمیح است», «برایم نا‌آشناست», "ashna nistam", a clause closed by «ندارم» over a relative
clause «که به آن اشاره می‌کند», a label:value pair "Allusion present: No"; not under "I won't claim that", nor in
a double negative «ناآشنا نیست»). Both leave unread (None) what a person cannot read either:
- an echo of the prompt's template (its placeholder values, or both of its schemas);
- two answers: the null response beside an answer (a prose "Yes, I know it" or "it alludes to X" beside the null
  JSON, a prose "No allusion detected" beside a named one, two JSON lists with no revision between them, a
  reference null while the explanation names one, a knowledge title with no explanation);
- a refusal, a hedge with no lean («مطمئن نیستم» alone; «..., اما به نظرم ...» leans), two alternatives with no lean
  ("either X or Y", «یا ... یا ...», in prose or in the reference field), a question asked back, an allusion named
  only inside an embedded question, a prose about the poet that says nothing of an allusion;
- a knowledge explanation that only glosses the title ("The donkey of Jesus (خر عیسی).");
- a claim of knowing that names nothing («بله، با این تلمیح آشنا هستم»), a definition of the word "allusion".
A later explicit revision ("Correction:", "please disregard ... my final response") replaces the earlier answer.
"""

from __future__ import annotations

import re

from figeval.benchmarks.persian_allusions.json_blocks import json_blocks
from figeval.benchmarks.persian_allusions.prompts import KNOWLEDGE_PROMPT, OPEN_PROMPT
from figeval.parsing import YES_NO_BY_LANGUAGE, YesNo, json_key, parse_json_list, strip_reasoning
from figeval.verdict import HEDGES, answer_body, sentence_labels, sentences

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
           r" any information\b|\bdo(?: not|n't) (?:know|recognize) (?:this|the|that) (?:allusion|story|tale|reference)"
           r"|\bdoes(?: not|n't) "
           r"refer to any (?:\w+ )?(?:story|event|work)|^none\W*$"
           # a bound negative prefix said of oneself: "unfamiliar to me", "I'm unfamiliar with it" (not "not
           # unfamiliar": the double negative affirms)
           r"|(?<!not )(?<!n't )\bunfamiliar to me\b|\bi(?: am|'m) unfamiliar with\b"
           # a label:value pair in a list or a table row ("Allusion present: No", "| Allusion found | None |")
           r"|\ballusions?(?: (?:present|found|detected|exists?))?\s*[:|=\-–—]\s*"
           r"(?:no|none|false|absent|❌|✗|✖)(?!\w)"),
    "fa": r"تلمیحی (?:ندارد|نیست|وجود ندارد|در کار نیست)|آشنا نیستم|نمی ?شناسم"
          # «نا‌آشنا» (the prefix bound, ZWNJ read as a space) said of oneself: «برایم نا‌آشناست», «ناآشنا هستم»
          r"|(?:برایم|برای من|به من) نا ?آشنا(?:ست| است| هست)(?! نیست)|(?:^|\s)نا ?آشنا(?:م| هستم)(?! نیست)"
          r"|(?:^|\s)(?:وجود )?تلمیح\s*:\s*(?:ندارد|خیر|هیچ)(?!\S)",
    "fa-Latn": r"\btalmih\w* (?:nadare|nadarad|nist)\b|\beshare\w* (?:nadare|nemikon\w*)\b"
               r"|\ba+she?na nist(?:am|im)\b|\bnemi ?(?:she|sh)nas(?:am|im)\b",
    "tr": r"\btelmih\w* (?:yok|içermiyor|bulunmuyor)|\başina değilim\b|\btelmih\w*\s*:\s*(?:yok|hayır)(?!\w)",
    "ar": r"لا يوجد (?:أي )?تلميح|لا يحتوي (?:\S+ )?على (?:أي )?تلميح",
}
_NONE_STATED = re.compile("|".join(NONE_STATED.values()))
# A negation over the negative statement ("It would be a mistake to say it contains no allusion", "not true that")
# affirms: the double negative is the answer "there is one".
_DOUBLE_NEGATIVE = re.compile(r"\b(?:mistake|wrong|incorrect|untrue|not true|false) to (?:say|claim|think)\b|"
                              r"\bnot (?:true|the case) that\b")
# A negated verb of saying over it ("I won't claim that there is no allusion", "I wouldn't say it has none") asserts
# nothing either way: the statement under it is a mention, neither "none" nor "there is one".
_NOT_ASSERTED = re.compile(r"\b(?:won't|will not|wouldn't|would not|don't|do not|can't|cannot|can not)\s+(?:\w+\s+)?"
                           r"(?:claim|say|assert|insist|state|go so far as to say)\b")
# Persian: a clause that holds the allusion word and closes on a negated verb («هیچ اشاره‌ای ... دیده نمی‌شود») says
# none; a bound negative prefix on the noun (بی‌تلمیح، غیر ...) negates again («بی‌تلمیح نیست»: it has one).
_FA_CLAUSE = re.compile(r"[^.!?؟؛;:\n]+")
_FA_NEGATED_VERB = re.compile(r"(?:^|\s)(?:نمی \S+|نیست\S*|ندار\S*|نکرد\S*|نمی\S+|نشد\S*|نیافت\S*|نبود\S*|"
                              r"نباشد|نکن\S*)\s*$")
_FA_ALLUSION_WORD = re.compile(r"(?:^|\s)(?:تلمیح|اشاره)")
_FA_BOUND_NEGATION = re.compile(r"(?:^|\s)(?:(?:بی|غیر) ?(?:تلمیح|اشاره)|نا ?آشنا)")  # «ناآشنا نیست»: familiar
_FA_WITHOUT_ALLUSION = re.compile(r"(?:^|\s)(?:بی|غیر) ?(?:تلمیح|اشاره)")
# A concession ("although it recalls X," «با آنکه ...،») mentions, it does not answer.
_CONCESSION = re.compile(r"(?:\balthough\b|\beven though\b|با آنکه|اگرچه|هرچند)[^,،;؛.]*[,،]")
# The answer says there is one, or that it knows it.
AFFIRMED = {
    "en": r"\ballud(?:es|ing) to\b|\brefers? to\b|\breference to\b|\bthere is an allusion\b|\bcontains (?:an|a|two|"
          r"\w+) (?:\w+ )?allusions?\b|\bi(?: am|'m) (?!not )(?:\w+ )?familiar with\b"
          r"|\bi (?:do )?know (?:this|the) allusion",
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
                      r"\b(?:hard|difficult|impossible) for me to (?:say|tell|know)\b|\bi can(?:'t|not) help\b|"
                      # declining to name one: "I can't identify one with any confidence", "I'd rather not give a
                      # reference", "I can't decide between them", "the line doesn't settle which"
                      r"\bcan(?:'t|not| not) (?:identify|pick|choose) (?:one|any|it|an? allusion|the allusion)\b|"
                      r"\b(?:i'd|i would) rather not\b|\bcan(?:'t|not| not) decide\b|\b(?:doesn't|does not) settle\b")
# Two answers offered as alternatives ("either the Cup of Jamshid or the Mirror of Alexander", «یا به ... یا به ...»,
# "ya ... ya da"), by language; "either way" and "either of two" name no alternative. With no lean, no answer.
EITHER_OR = {"en": r"\beither\b(?! way\b| of\b)[^.;!?]*\bor\b", "fa": r"(?:^|\s)یا\s[^.!?؟؛]+\sیا\s",
             "tr": r"\bya\s[^.!?]+\bya da\b"}
_EITHER_OR = re.compile("|".join(EITHER_OR.values()))
# A lean beside a hedge ("most likely", «ولی فکر می‌کنم»): the answer it leans to is read.
_LEAN = re.compile(r"\b(?:most likely|probably|likely|i think|i believe|i(?:'d| would) lean|best fit)\b|فکر می ?کنم|"
                   r"احتمالا|به احتمال زیاد|\bmuhtemelen\b|"
                   # «به نظرم» / «به نظر من» ("to my mind"), «گمانم», «فکر کنم», "bence", "sanırım"
                   r"به نظرم|به نظر من|گمانم|گمان می ?کنم|فکر کنم|\bbence\b|\bsanırım\b")
# A Persian embedded yes/no question («که این بیت تلمیحی دارد یا ندارد», «اینکه ... یا نه») asks, it does not answer.
_FA_EMBEDDED = re.compile(r"(?:اینکه|که)[^.!?؟؛\n]*?\sیا\s(?:نه|ن\S+)")
# A definition of the word ("An allusion is a figure of speech ...", «تلمیح یعنی ...»).
_DEFINITION = re.compile(r"^(?:an allusion is|allusions are)\b|^تلمیح (?:یعنی|عبارت است از)")
# A revision: the later answer replaces the earlier one.
REVISION = re.compile(r"\b(?:correction|on (?:second thought|reflection)|disregard|my final (?:response|answer)|"
                      r"wait|actually|i was wrong|let me reconsider)\b|اصلاح|تصحیح|اشتباه کردم", re.IGNORECASE)


# A relative clause describing the allusion ("the story it refers to", «داستانی که به آن اشاره می‌کند») names the
# allusion asked about; it does not say the text has one, nor which.
_RELATIVE = re.compile(r"\b(?:refers?|allud(?:es|ing)|points?) to(?=\s*(?:[,.;:!?)]|$))|"
                       r"که (?:\S+ ){0,2}?(?:به آن|بدان|به آنها|به او) (?:اشاره|تلمیح) (?:دارد|می ?کند|شده)")


def _form(text: str) -> str:
    """The text as the statements are read: `answer_body` form, concessions, Persian embedded questions and relative
    clauses describing the allusion out."""
    return _RELATIVE.sub(" ", _FA_EMBEDDED.sub(" ", _CONCESSION.sub(" ", answer_body(text))))


def _stated(text: str) -> list[str]:
    """The sentences that state something: questions and suppositions out."""
    return [s for s in sentences(_form(text)) if not s.endswith(("?", "؟")) and not re.match(r"^(?:if|اگر)\b", s)]


def says_none(text: str) -> bool:
    """The text says there is no allusion, or that it does not know it (a double negative is not one)."""
    for sentence in _stated(text):
        match = _NONE_STATED.search(sentence)
        if match and not _DOUBLE_NEGATIVE.search(sentence[: match.start()]) \
                and not _NOT_ASSERTED.search(sentence[: match.start()]):
            return True
        for clause in _FA_CLAUSE.findall(sentence):
            negated = _FA_NEGATED_VERB.search(clause.strip())
            if _FA_ALLUSION_WORD.search(clause) and negated and not _FA_BOUND_NEGATION.search(clause):
                return True
            # the prefix bound to the noun, the verb affirmative («این بیت بی‌تلمیح است»): without allusion
            if _FA_WITHOUT_ALLUSION.search(clause) and not negated:
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
    if (hedged or _EITHER_OR.search(form)) and not _LEAN.search(form):
        return True  # a hedge, or two alternatives, with no lean
    if _ABOUT_THE_POET.search(form) and not _ON_THE_ALLUSION.search(form):
        return True  # who wrote the text, nothing about what it alludes to
    if not re.search(r"\w", _CLAIM.sub(" ", " ".join(stated))):
        return True  # only "Yes, I know it": nothing named
    if _DEFINITION.search(form.strip()) and not _names_anything(text):
        return True  # what an allusion is, nothing about this one
    lowered = text.lower()
    return any(placeholder in lowered for placeholder in PLACEHOLDERS)


# A prose about the poet ("This couplet is by Hafez of Shiraz ... his Divan ..."), with no word about an allusion,
# a story or what the text refers to, explains nothing about the allusion: no answer.
_ABOUT_THE_POET = re.compile(r"\b(?:couplet|verse|line|poem|ghazal|quatrain|text) (?:is|was) (?:\w+ )?by\b|"
                             r"(?:بیت|شعر|غزل|رباعی) (?:از|سروده) (?:\S+ )?(?:است|می ?باشد)")
_ON_THE_ALLUSION = re.compile(r"allu|refer|story|stories|tale|legend|myth|تلمیح|اشاره|داستان|قصه|روایت|telmih|hikâye")


# --- Layer 1: the JSON answer ------------------------------------------------------------------------------------
_UNDECIDED = object()


# An "explanation" that only glosses the title ("The donkey of Jesus (خر عیسی).", "The cup of Jamshid."): a noun
# phrase "the N of (the) N", asides in parentheses aside, explains nothing: a title with no explanation.
_GLOSS = re.compile(r"(?:the|a|an) \w+(?:[-' ]\w+)? of (?:the )?\w+(?:[-' ]\w+)?", re.IGNORECASE)


def _gloss_only(explanation: str) -> bool:
    bare = re.sub(r"\([^()]*\)", " ", explanation).strip().rstrip(".!").strip()
    return bool(_GLOSS.fullmatch(re.sub(r"\s+", " ", bare)))


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
        if fields[0] == "title" and (not explained or _gloss_only(explained)):
            return _UNDECIDED  # a knowledge title with no explanation shows neither knowing nor not knowing
        if _EITHER_OR.search(_form(named)) and not _LEAN.search(_form(f"{named} {explained}")):
            return _UNDECIDED  # "Either Yunus ... or Noah ...": two answers in one field, no lean
        lines.append(": ".join(v for v in (named, explained) if v))
    return "\n".join(lines)


def _json_reading(text: str, fields: tuple[str, str]) -> object:
    """Layer 1's reading: the text, "", None (no JSON answer in the prompt's shape) or `_UNDECIDED`."""
    text = strip_reasoning(text)
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
    answer = strip_reasoning(text).strip()
    if not answer:
        return None
    if says_none(answer):
        return None if says_some(answer) else ""
    return None if _no_answer_in_prose(answer) else answer
