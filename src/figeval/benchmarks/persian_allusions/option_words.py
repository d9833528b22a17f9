"""The words that name a multiple-choice option, by language, and what a person does not read as a choice (the
benchmark README, "How answers are read"). Used by `readers.read_option` on text already made plain
(`readers._plain`: reasoning removed, Persian normalized, ZWNJ as a space, digits ASCII, markdown removed)."""

from __future__ import annotations

import re
from collections.abc import Callable

from figeval.verdict import HEDGES

# --- Numbers as words, by language -------------------------------------------------------------------------------
# Models answer the Persian prompt in Persian, English, Arabic or Turkish: "The answer is four", «جواب: چهار»,
# «پنجمین گزینه», «الخيار الثالث», "beşinci seçenek". Cardinals name an option only as the whole statement after a
# final marker or beside the word "option" (a "one" or «یک» elsewhere is an article); ordinals beside "option".
CARDINALS = {
    "en": {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5},
    "fa": {"صفر": 0, "یک": 1, "دو": 2, "سه": 3, "چهار": 4, "پنج": 5},
    "ar": {"صفر": 0, "واحد": 1, "اثنان": 2, "ثلاثة": 3, "أربعة": 4, "اربعة": 4, "خمسة": 5},
    "tr": {"sıfır": 0, "bir": 1, "iki": 2, "üç": 3, "dört": 4, "beş": 5},
}
ORDINALS = {
    "en": {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5},
    "fa": {"اول": 1, "یکم": 1, "نخست": 1, "دوم": 2, "سوم": 3, "چهارم": 4, "پنجم": 5,
           "اولین": 1, "نخستین": 1, "یکمین": 1, "دومین": 2, "سومین": 3, "چهارمین": 4, "پنجمین": 5},
    "ar": {"الأول": 1, "الاول": 1, "الثاني": 2, "الثالث": 3, "الرابع": 4, "الخامس": 5},
    "tr": {"birinci": 1, "ikinci": 2, "üçüncü": 3, "dördüncü": 4, "beşinci": 5},
}
# The word for "option", by language.
OPTION_NOUNS = {"en": r"option|choice", "fa": r"گزینه(?: ?ی)?", "ar": r"الخيار|الخیار|الاختيار",
                "tr": r"seçenek|şık"}
# "the second one" names an option; "one second" does not (only an ordinal may come before "one")
# Colloquial Persian "the Nth one" («دومی درسته»): an ordinal with the suffix ی, read only beside a verdict word.
_COLLOQUIAL = {"اولی": 1, "دومی": 2, "سومی": 3, "چهارمی": 4, "پنجمی": 5}
# A final marker, by language, beyond `readers._FINAL` (English and Persian).
FINAL_MARKERS = {"ar": r"(?:الجواب|الإجابة|الاجابة)(?: الصحيحة?)?(?: هو| هي)?", "tr": r"\b(?:cevap|yanıt)\b",
                 "fa-Latn": r"\bjavab\b"}

# Roman numerals ("Answer: III"): read only in capitals and only as the whole statement after a final marker or
# beside the word "option" (a lowercase "i" or "v" elsewhere is a pronoun or a letter, "I" alone a pronoun).
ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5}
# An option named by its place in the list: "the last option", «گزینه آخر», «آخرین گزینه», "son seçenek»,
# «الخيار الأخير» (LAST stands for the number of options); read only beside the word "option" (or "one").
LAST = -1
POSITIONS = {"en": {"last": LAST}, "fa": {"آخر": LAST, "آخرین": LAST}, "tr": {"son": LAST},
             "ar": {"الأخير": LAST, "الاخير": LAST}}
# An option named by its row or position in the list, in a clause that names an option: «گزینهٔ مندرج در ردیف
# چهارم», "the option in the fourth position", "dördüncü sıradaki seçenek"; the position noun alone (a poem's
# «ردیف», its refrain) names no option.
POSITION_NOUNS = {"en": r"position|place|row|slot", "fa": r"ردیف|جایگاه", "tr": r"sıra\w*", "ar": r"المرتبة"}

_CARDINAL = {word: n for table in CARDINALS.values() for word, n in table.items()}
_ORDINAL = {word: n for table in ORDINALS.values() for word, n in table.items()}
_NUMBER = {**_CARDINAL, **_ORDINAL}


def _alternation(words) -> str:
    return "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))


_NOUN = "|".join(OPTION_NOUNS.values())
_WORD_BEFORE = re.compile(rf"(?<!\w)({_alternation(_ORDINAL)})\s+(?:{_NOUN}|one)(?!\w)", re.IGNORECASE)
_WORD_AFTER = re.compile(rf"(?<!\w)(?:{_NOUN})\s+({_alternation(_NUMBER)})(?!\w)", re.IGNORECASE)
_COLLOQUIAL_CHOICE = re.compile(rf"(?<!\w)({_alternation(_COLLOQUIAL)})\s+(?:درست|صحیح|جواب)")
_BARE_NUMBER_WORD = re.compile(rf"\W*({_alternation(_NUMBER)})\W*", re.IGNORECASE)
_ROMAN_AFTER = re.compile(rf"(?<!\w)(?:{_NOUN})\s+({_alternation(ROMAN)})(?!\w)", re.IGNORECASE)
_BARE_ROMAN = re.compile(rf"\W*({_alternation(ROMAN)})\W*")
_POSITION = {word: n for table in POSITIONS.values() for word, n in table.items()}
_POSITION_CHOICE = re.compile(rf"(?<!\w)({_alternation(_POSITION)})\s+(?:{_NOUN})(?!\w)|"
                              rf"(?<!\w)(?:{_NOUN})\s+({_alternation(_POSITION)})(?!\w)", re.IGNORECASE)
_POSITION_NOUN = "|".join(POSITION_NOUNS.values())
_ROW = re.compile(rf"(?<!\w)(?:(?:{_POSITION_NOUN})\s+({_alternation(_ORDINAL)})|({_alternation(_ORDINAL)})\s+"
                  rf"(?:{_POSITION_NOUN}))(?!\w)", re.IGNORECASE)
_CLAUSE = re.compile(r"[^.;!?؟؛,،\n]+")


def options_in_words(segment: str, n_options: int) -> set[int]:
    """The options a segment names in words: "the third option", «گزینه سوم», «پنجمین گزینه», «الخيار الثالث»,
    "beşinci seçenek", «گزینه صفر», «دومی درسته», "option IV", "the last option", «ردیف چهارم» beside «گزینه»."""
    found = {_ORDINAL[m.group(1).lower()] for m in _WORD_BEFORE.finditer(segment)}
    found |= {_NUMBER[m.group(1).lower()] for m in _WORD_AFTER.finditer(segment)}
    found |= {_COLLOQUIAL[m.group(1)] for m in _COLLOQUIAL_CHOICE.finditer(segment)}
    found |= {ROMAN[m.group(1).upper()] for m in _ROMAN_AFTER.finditer(segment) if m.group(1).isupper()}
    found |= {n_options for m in _POSITION_CHOICE.finditer(segment)}  # every position word is LAST
    for clause in _CLAUSE.findall(segment):
        if re.search(rf"(?<!\w)(?:{_NOUN})(?!\w)", clause, re.IGNORECASE):
            found |= {_ORDINAL[(m.group(1) or m.group(2)).lower()] for m in _ROW.finditer(clause)}
    return found


def bare_number_word(statement: str) -> int | None:
    """A statement after a final marker that is only a number word ("four.", «چهار», "beş") or a Roman numeral
    in capitals ("III")."""
    match = _BARE_NUMBER_WORD.fullmatch(statement)
    if match:
        return _NUMBER[match.group(1).lower()]
    roman = _BARE_ROMAN.fullmatch(statement)
    return ROMAN[roman.group(1)] if roman else None


# --- Mentions that state no choice -------------------------------------------------------------------------------
_MENTIONS = [
    # an embedded question: "Whether this line alludes to option 4 is hard to say", «که ... اشاره دارد یا نه»
    re.compile(r"\bwhether\b[^.;!?\n]*", re.IGNORECASE),
    re.compile(r"(?:اینکه|که)[^.!?؟؛\n]*?\sیا\s(?:نه|ن\S+)"),
    # a possibility is not an answer: «ممکن است ... اشاره داشته باشد», "it could be option 3"
    re.compile(r"(?:ممکن است|ممکن هم هست|شاید)[^.!?؟؛,،\n]*"),
    re.compile(r"\b(?:could|might|may)\b(?!\s+(?:not|n't))[^.;!?,\n]*", re.IGNORECASE),
    # a question (the model asking, or restating the prompt's)
    re.compile(r"[^.!?؟\n]*[?؟]"),
    # a supposition
    re.compile(r"(?:^|(?<=[.!?؟\n]))\s*(?:if|اگر)\b[^.;!?؟,،\n]*", re.IGNORECASE),
    # the prompt's rule restated: "option 0 is for no allusion", «گزینه ۰ یعنی ...»
    re.compile(r"\b(?:option|choice|گزینه)\s*\d\s+(?:is for|means|stands for|is used for|یعنی|برای)[^.;\n]*",
               re.IGNORECASE),
]


def without_mentions(plain: str) -> str:
    """The text with what names an option without choosing it blanked (lengths kept): a hedge clause
    (`verdict.HEDGES`: "can't say", «نمی‌توانم ... بگویم»), an embedded question, a possibility, a question, a
    supposition, the prompt's rule restated."""
    spans: list[tuple[int, int]] = []
    lowered = plain.replace("İ", "i").lower()
    if len(lowered) == len(plain):
        spans += [m.span() for item in HEDGES for m in item.pattern.finditer(lowered)]
    spans += [m.span() for pattern in _MENTIONS for m in pattern.finditer(plain)]
    chars = list(plain)
    for start, end in spans:
        chars[start:end] = [c if c == "\n" else " " for c in chars[start:end]]
    return "".join(chars)


# --- Options rejected --------------------------------------------------------------------------------------------
# "It is certainly not option 3", "rather than option 2": the option a negation governs is rejected, not chosen.
# The option phrase is read by the caller's `named` ("not option 3", "not the last option", "not option IV").
_NOT_OPTION = re.compile(r"\b(?:not|n't|rather than|instead of)\s+(?!only\b|just\b)((?:\w+\s+){0,2}?(?:option|choice)"
                         r"\s*#?\s*\w+|the\s+last\s+(?:option|choice))", re.IGNORECASE)
# ("not only option 3 but also ..." rejects nothing)
# Persian: a clause closed by a negated verb rejects the one option it names («گزینهٔ ۵ (جام جم)، با آنکه ...،
# پاسخ این پرسش نیست»), unless it also says "is right" (that clause is a choice and a remark about the others).
# A contrastive conjunction («اما», «ولی», «بلکه», "but") starts another clause: the negation does not reach back.
_FA_CLAUSE = re.compile(r"(?:(?!\s(?:اما|ولی|بلکه|but)\s)[^.!?؟؛;\n])+")
_FA_NEGATED_END = re.compile(r"(?:^|\s)(?:نیست|نیستند|ندارد|ندارند|نمی \S+|نمی\S+)\W*$")
_FA_AFFIRMED = re.compile(r"(?:درست|صحیح) (?:است|هست)")


def rejected(plain: str, named: Callable[[str], set[int]]) -> set[int]:
    """The options the answer rejects (a negated clause naming one option)."""
    found = {n for m in _NOT_OPTION.finditer(plain) for n in named(m.group(1))}
    for clause in _FA_CLAUSE.findall(plain):
        if _FA_NEGATED_END.search(clause.strip()) and not _FA_AFFIRMED.search(clause):
            options = named(clause)
            if len(options) == 1:
                found |= options
    return found


# --- Per-option verdicts -----------------------------------------------------------------------------------------
# "۳. یونس و ماهی: درست", "2. یوسف و زلیخا – Yes.", "Real: ❌": each option line with its value, read as the pair.
# A bound negative prefix (نا-، غیر-) negates the word it is bound to: «نادرست» is "not correct".
POSITIVE = frozenset({"درست", "صحیح", "correct", "right", "yes", "true", "✅", "✔", "doğru", "evet", "بله"})
NEGATIVE = frozenset({"غلط", "wrong", "incorrect", "no", "false", "❌", "✖", "yanlış", "hayır", "خیر"})
_VALUE = re.compile(r"[:\-–—]\s*(not\s+|غیر\s+)?(\S+?)[.!،,]?(?:\s|$)", re.IGNORECASE)
_BOUND_NEGATION = re.compile(r"^(?:نا|غیر ?)(.+)$")


def _polarity(line: str) -> bool | None:
    match = _VALUE.search(line)
    if match is None:
        return None
    word = match.group(2).lower()
    bound = _BOUND_NEGATION.match(word)
    if bound and bound.group(1) in POSITIVE:
        positive = False
    elif word in POSITIVE or word in NEGATIVE:
        positive = word in POSITIVE
    else:
        return None
    return not positive if match.group(1) else positive


def verdict_lines(lines: list[str], named: Callable[[str], set[int]]) -> set[int] | None:
    """The options marked right in per-option verdict lines (two lines or more, each one option and a value);
    None when the answer has no such lines."""
    marked: list[tuple[int, bool]] = []
    for line in lines:
        options, polarity = named(line), _polarity(line)
        if len(options) == 1 and polarity is not None:
            marked.append((next(iter(options)), polarity))
    if len(marked) < 2:
        return None
    return {option for option, positive in marked if positive}


# --- A probability per option --------------------------------------------------------------------------------
# "Option 1: 5%\nOption 2: 80%\n...": a share per option line is read as the pairs: the option given strictly the
# most is the choice; a tie at the top (50% / 50%) is no choice.
_SHARE = re.compile(r"[:\-–—=]\s*(\d+(?:\.\d+)?)\s*%")


def probability_lines(lines: list[str], named: Callable[[str], set[int]]) -> set[int] | None:
    """The option given the highest share in per-option percentage lines (two lines or more, each one option and a
    percentage); an empty set for a tie at the top; None when the answer has no such lines."""
    shares: dict[int, float] = {}
    for line in lines:
        share, options = _SHARE.search(line), named(line)
        if share and len(options) == 1:
            shares[next(iter(options))] = float(share.group(1))
    if len(shares) < 2:
        return None
    top = max(shares.values())
    best = {option for option, value in shares.items() if value == top}
    return best if len(best) == 1 else set()


# --- By elimination --------------------------------------------------------------------------------------------
# "The fire (1), the water of life (2), ... (4) and the Simorgh (5) have nothing to do with it. By elimination, the
# remaining option is the answer.": the answer says the choice is the one left, and rules out every option but one:
# that one. Ruling out fewer leaves more than one: no choice.
ELIMINATION = re.compile(r"\bby (?:process of )?elimination\b|\bthe (?:only )?(?:remaining|one left|only one left)\b|"
                         r"\bthe only (?:option|choice) left\b|(?:گزینه(?: ی)? )?باقی ?مانده|با حذف|\beleme\w*|"
                         r"\bkalan (?:seçenek|şık)", re.IGNORECASE)
_RULED_OUT = re.compile(r"\((\d)\)")
# The sentence that rules the options out says so (a negation or a word of exclusion), by language.
RULING_OUT = {"en": r"\bnot\b|n't\b|\bnothing to do\b|\bruled? out\b|\bare out\b|\bexclude\w*|\beliminat\w*",
              "fa": r"ندار|نیست|نمی|ربطی|حذف|رد می", "tr": r"değil|\byok\b|\w+m[ae]z\b|\bel(?:e|i)n\w*"}
_RULING_OUT = re.compile("|".join(RULING_OUT.values()), re.IGNORECASE)


def eliminated_to(plain: str, n_options: int, named: Callable[[str], set[int]]) -> int | None:
    """The one option left when one sentence rules out all the others by number ("(1)", "option 2") and the answer
    says it is the one remaining; None otherwise (numbers in two sentences may be a choice and a rejection)."""
    if not ELIMINATION.search(plain):
        return None
    numbered = [(sentence, {int(n) for n in _RULED_OUT.findall(sentence)} | named(sentence))
                for sentence in re.split(r"(?<=[.!?؟;؛])\s+|\n", plain)]
    numbered = [(sentence, found) for sentence, found in numbered if found]
    if len(numbered) != 1 or not _RULING_OUT.search(numbered[0][0]):
        return None
    everything = set(range(1, n_options + 1))
    ruled_out = numbered[0][1]
    left = everything - ruled_out
    return left.pop() if len(left) == 1 and ruled_out <= everything else None


# --- A title in Latin letters ------------------------------------------------------------------------------------
# A final statement may name the option's title in Latin letters ("Javab: Yunes va mahi", "Answer: The Cup of
# Jamshid (Jam-e Jam)", "The answer is the Simorgh"). Both scripts are compared as consonant skeletons (Persian
# writes few vowels): vowels, و and ی inside a word, and the conjunction ("va", "o", «و») dropped; letters that
# sound alike in one class (س ص ث: s; ز ذ ض ظ: z; ت ط: t; ح ه: h; غ ق: gh/q); the ezafe ("-ye", "-e") dropped.
_PERSIAN_SKELETON = {**dict.fromkeys("ب", "b"), "پ": "p", "ت": "t", "ط": "t", "ث": "s", "س": "s", "ص": "s",
                     "ج": "j", "چ": "c", "ح": "h", "ه": "h", "خ": "x", "د": "d", "ذ": "z", "ز": "z", "ض": "z",
                     "ظ": "z", "ر": "r", "ژ": "3", "ش": "w", "غ": "q", "ق": "q", "ف": "f", "ک": "k", "ك": "k",
                     "گ": "g", "ل": "l", "م": "m", "ن": "n"}
_LATIN_DIGRAPHS = (("kh", "x"), ("sh", "w"), ("ch", "c"), ("gh", "q"), ("zh", "3"))
_LATIN_SKELETON = {"b": "b", "p": "p", "t": "t", "s": "s", "j": "j", "h": "h", "d": "d", "z": "z", "r": "r",
                   "q": "q", "f": "f", "k": "k", "c": "k", "g": "g", "l": "l", "m": "m", "n": "n",
                   "x": "x", "w": "w", "3": "3"}
# the conjunction, and the ezafe a transliteration writes as a word ("Angoshtari-ye Soleyman")
_CONJUNCTIONS = frozenset({"va", "o", "and", "ve", "و", "ye", "e", "i"})
_MIN_SKELETON = 4  # shorter titles ("موسی و عصا": m s, s) meet English words by chance


def _persian_word(word: str) -> str:
    initial = "y" if word[:1] in "یي" else ""
    return initial + "".join(_PERSIAN_SKELETON.get(char, "") for char in word)


def _latin_word(word: str) -> str:
    word = word.lower()
    initial = "y" if word[:1] == "y" else ""
    for digraph, symbol in _LATIN_DIGRAPHS:
        word = word.replace(digraph, symbol)
    return initial + "".join(_LATIN_SKELETON.get(char, "") for char in word)


def _skeletons(words: list[str], skeleton: Callable[[str], str]) -> list[str]:
    return [s for s in (skeleton(w) for w in words if w.lower() not in _CONJUNCTIONS) if s]


def latin_titles(statement: str, options: list[str]) -> set[int]:
    """The options whose titles a Latin-script statement names (see above); none in a statement with Persian
    letters (the title is then read as written)."""
    if re.search("[\u0600-\u06ff]", statement):
        return set()
    said = _skeletons(re.findall(r"[a-zA-Z]+", statement), _latin_word)
    found = set()
    for number, title in enumerate(options, start=1):
        wanted = _skeletons(re.findall(r"[\u0600-\u06ff]+", title), _persian_word)
        if sum(map(len, wanted)) < _MIN_SKELETON:
            continue
        if any(said[i:i + len(wanted)] == wanted for i in range(len(said) - len(wanted) + 1)):
            found.add(number)
    return found
