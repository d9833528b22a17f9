"""The Persian allusions readers, rule by rule: each family of answers it serves, variants of it that are not in the
corpus, and adversarial negatives (answers the rule could be tempted by, which must stay unread or read otherwise).
Every expected value is derived by hand in the comment beside it."""

import pytest

from figeval.benchmarks.persian_allusions.judged_readers import json_answer_text, prose_answer
from figeval.markup import own_turn
from figeval.benchmarks.persian_allusions.readers import paper_option, read_option
from figeval.verdict import Undecided

# option 1..5, as listed in the prompt
OPTIONS = ["یونس و ماهی", "عصای موسی", "انگشتری سلیمان", "کشتی نوح", "رستم و سهراب"]
KNOWLEDGE = ("title", "full_explanation")
OPEN = ("reference", "explanation")


def option(text: str) -> int | None:
    return read_option(text, OPTIONS, 5)


# --- multiple choice: numbers as words, by language ----------------------------------------------------------------
@pytest.mark.parametrize("answer, expected", [
    ("The answer is four.", 4),  # an English cardinal, the whole statement after "the answer is"
    ("Final answer: three", 3),  # variant: another marker, another number
    ("جواب: چهار\nاین بیت به کشتی نوح اشاره دارد.", 4),  # a Persian cardinal after «جواب:»
    ("پاسخ نهایی: سه", 3),  # variant
    ("پاسخ: گزینه صفر", 0),  # «گزینه» + the word zero: option 0
    ("پاسخ درست پنجمین گزینه است؛ رستم پسرش را نشناخت.", 5),  # the -omin ordinal before «گزینه»
    ("گزینه‌ی چهارم درست است.", 4),  # variant: «گزینه» + ordinal after it
    ("Cevap: ikinci seçenek.", 2),  # Turkish ordinal + «seçenek»
    ("الإجابة الصحيحة هي الخيار الخامس.", 5),  # Arabic «الخيار» + ordinal
    ("به نظرم اولی درسته.", 1),  # colloquial "the first one" beside «درسته»
    # adversarial: a number word that is not the whole statement, or not beside "option", names nothing
    ("The answer is one of the love stories, I am not sure which.", None),
    ("این بیت دو بار به دریا اشاره می‌کند.", None),
    ("دومی بار است که این را می‌بینم.", None),  # «دومی» with no verdict word beside it
    ("Wait one second, the answer is option 4.", 4),  # "one second" is no option: only "option 4" names one
    ("Cevap iki seçenek arasında kalıyor.", None),  # "two options": a count, not an option
    ("The second one is right.", 2),  # variant: an ordinal before "one"
])
def test_options_named_in_words(answer, expected):
    assert option(answer) == expected


# --- multiple choice: the JSON key, a made-up next turn, a revision, a contradiction ------------------------------
def test_the_json_key_as_a_person_reads_it():
    # camelCase and a hyphen are the prompt's key: 4 and 2, by the paper's rule as by the reader
    assert paper_option('{"selectedOption": 4}', 5) == option('{"selectedOption": 4}') == 4
    assert option('{"selected-option": 2}') == 2
    # adversarial: another key ("selectedOptions", a list) is not the one asked for
    assert option('{"selectedOptions": [1, 2]}') is None


def test_nothing_after_an_end_of_turn_token_is_the_answer():
    runaway = '[{"selected_option": 2}]<|im_end|>\n<|im_start|>user\nOptions: ...<|im_end|>\n[{"selected_option": 4}]'
    assert own_turn(runaway) == '[{"selected_option": 2}]'  # cut at the first end-of-turn token: 2
    assert own_turn("[] <end_of_turn>\nuser: next") == "[] "  # variant: gemma's token
    assert own_turn("[]<|im_end|>") == "[]<|im_end|>"  # nothing invented after it: the token alone is markup
    assert own_turn("no token here") == "no token here"
    # adversarial: the same two answers with no end-of-turn token between them are two answers
    assert option('[{"selected_option": 2}]\n[{"selected_option": 4}]') is None


def test_a_revision_between_two_json_answers_keeps_the_later():
    # "Wait, let me reconsider" between them: the later 4 replaces the earlier 1
    revised = '[{"selected_option": 1}]\nWait, let me reconsider. The correct answer is:\n[{"selected_option": 4}]'
    assert option(revised) == 4
    # variant: Persian «اشتباه کردم» before the second
    assert option('{"selected_option": 3}\nاشتباه کردم. {"selected_option": 5}') == 5
    # adversarial: a revision after the last JSON takes it back with nothing in its place
    assert option('[{"selected_option": 1}]\nWait, that is not right.') is None


def test_a_prose_answer_contradicted_by_the_json_is_no_answer():
    # "The answer is option 2" then JSON 4, nothing revising: two answers (Undecided names both)
    with pytest.raises(Undecided):
        option('The answer is option 2, Joseph.\n\n[{"selected_option": 4}]')
    with pytest.raises(Undecided):
        option('پاسخ: گزینه ۱\n{"selected_option": 3}')  # variant in Persian
    # adversarial: prose and JSON agree (4), or a revision between them (then the JSON, 4, is the later answer)
    assert option("So the answer is option 4.\n[{\"selected_option\": 4}]") == 4
    assert option("The answer is option 2. Actually, no.\n[{\"selected_option\": 4}]") == 4


# --- multiple choice: a mention is not a choice --------------------------------------------------------------------
@pytest.mark.parametrize("answer, expected", [
    ("Whether this line alludes to option 4 (کشتی نوح) is hard to say.", None),  # an embedded question
    ("I can't tell whether option 2 is meant.", None),  # variant: the hedge governs the option
    ("نمی‌توانم با اطمینان بگویم که این بیت به «یونس و ماهی» اشاره دارد یا نه.", None),  # refusal + «که ... یا نه»
    ("ممکن است به یونس (گزینه ۱) اشاره داشته باشد، اما ممکن هم هست که تلمیحی در کار نباشد.", None),  # possibilities
    ("شاید گزینه ۲ باشد.", None),  # variant: «شاید»
    ("Is it option 3? Hard to say.", None),  # a question
    ("There are 5 options and option 0 is for no allusion. Hafez was born in 1315.", None),  # the prompt's rule
    # adversarial: a possibility set aside, then a choice, is the choice (4); the rule restated beside a choice (3)
    ("It could be option 1, but the answer is option 4.", 4),
    ("Option 0 means no allusion; the answer is 3.", 3),
])
def test_mentions_state_no_choice(answer, expected):
    assert option(answer) == expected


# --- multiple choice: negation by scope ----------------------------------------------------------------------------
@pytest.mark.parametrize("answer, expected", [
    ("It is certainly not option 3: there is no ring. Among the others I cannot choose.", None),  # only a rejection
    ("Not option 2; option 5 fits the father and son.", 5),  # variant: the rejection leaves one, named
    # «گزینه ۴ (کشتی نوح)، با آنکه ...، پاسخ نیست» rejects 4 (the clause closes on نیست); the title named after is 1
    ("گزینه ۴ (کشتی نوح)، با آنکه دریا در بیت هست، پاسخ این پرسش نیست.\nبنابراین تلمیح بیت به «یونس و ماهی» است.", 1),
    # adversarial: a clause that says "is right" is a choice, whatever it says of the others after «و»
    ("گزینه ۳ درست است و بقیه ربطی ندارند.", 3),
    # adversarial: the negation does not reach back over «ولی»: 2 is affirmed, only Noah (no option title) denied
    ("این بیت به «عصای موسی» اشاره دارد ولی به نوح ربطی ندارد.", 2),
    ("Not only option 3 but also option 4 could fit.", None),  # "not only" rejects nothing: two options
])
def test_a_negated_option_is_not_chosen(answer, expected):
    assert option(answer) == expected


@pytest.mark.parametrize("answer, expected", [
    # per-option verdicts: «نادرست» is درست with the bound negative prefix نا-; only 3 is marked right
    ("۱. یونس و ماهی: نادرست\n۲. عصای موسی: نادرست\n۳. انگشتری سلیمان: درست\n۴. کشتی نوح: نادرست", 3),
    ("1. یونس و ماهی - Incorrect\n2. عصای موسی - Correct\n3. کشتی نوح - Incorrect", 2),  # variant in English
    ("1. یونس و ماهی: not correct\n5. رستم و سهراب: correct", 5),  # "not correct" is the pair's negation
    ("1. یونس و ماهی: غیر صحیح\n4. کشتی نوح: صحیح", 4),  # variant: the prefix غیر written apart
    # adversarial: two marked right, or none, is no choice
    ("1. یونس و ماهی: درست\n2. عصای موسی: درست\n3. کشتی نوح: نادرست", None),
    ("1. یونس و ماهی: نادرست\n2. عصای موسی: نادرست", None),
])
def test_option_lines_are_read_as_pairs(answer, expected):
    assert option(answer) == expected


# --- multiple choice: a title in Latin letters ---------------------------------------------------------------------
@pytest.mark.parametrize("answer, expected", [
    ("Javab: Yunes va mahi.", 1),  # y-n-s, m-h: option 1's skeleton, "va" the conjunction
    ("Answer: Rostam o Sohrab", 5),  # variant: r-s-t-m, s-h-r-b
    ("The answer is Angoshtari-ye Soleyman.", 3),  # variant: the ezafe "ye" drops (a vowel after y)
    ("Javab: Kashti Nuh", 4),
    # adversarial: a title whose skeleton is too short to tell (m-s, s), a title outside a final statement, and
    # an English word that is no title
    ("Javab: Musa va asa", None),
    ("In beyt be dastane Yunes va mahi eshare dare.", None),
    ("The answer is the mosaic.", None),
])
def test_a_title_in_latin_letters_after_a_final_marker(answer, expected):
    assert option(answer) == expected


# --- knowledge and open: the JSON answer ---------------------------------------------------------------------------
@pytest.mark.parametrize("answer, fields, expected", [
    ("[{}]", KNOWLEDGE, ""),  # the null response with its keys dropped
    ("[{'title': None, 'full_explanation': None}]", KNOWLEDGE, ""),  # as a Python literal
    ('[{"title": "Unknown", "full_explanation": "Unknown"}]', KNOWLEDGE, ""),  # in words
    ('[{"reference": "None", "explanation": "It does not refer to any specific story."}]', OPEN, ""),
    # half answers: a title with no explanation, a null reference beside an explanation that names one
    ('[{"title": "Kaveh the Blacksmith", "full_explanation": null}]', KNOWLEDGE, None),
    ('[{"title": "تیشه فرهاد", "full_explanation": ""}]', KNOWLEDGE, None),
    ('[{"reference": null, "explanation": "The verse alludes to the breath of Jesus."}]', OPEN, None),
    # an open reference with no explanation is still the reference named (the judge reads it)
    ('[{"reference": "Noah\'s Ark", "explanation": ""}]', OPEN, "Noah's Ark"),
    # the prompt's placeholders echoed
    ('[{"reference": "Identified story/event/work", "explanation": "Contextual significance analysis"}]', OPEN, None),
    ('[{"title": "<تلمیح>", "full_explanation": "<داستان>"}]', KNOWLEDGE, None),  # variant: the fa prompt's
])
def test_json_answers(answer, fields, expected):
    assert json_answer_text(answer, fields) == expected


@pytest.mark.parametrize("answer, fields, expected", [
    # the prose says the opposite of the JSON, nothing revising: two answers
    ('No allusion detected.\n[{"reference": "Solomon\'s ring", "explanation": "The demon stole it."}]', OPEN, None),
    ("این بیت به داستان شیرین و فرهاد اشاره دارد.\n\n[]", OPEN, None),
    ('**Yes**, I am familiar with this allusion.\n[{"title": null, "full_explanation": null}]', KNOWLEDGE, None),
    # two JSON answers with nothing choosing between them
    ('I will give both:\n[{"title": "Bull", "full_explanation": "The earth on a bull."}]\n[{"title": null, '
     '"full_explanation": null}]', KNOWLEDGE, None),
    # a revision between them: the later one (null, then an answer; an answer, then null)
    ('[{"title": null, "full_explanation": null}]\nCorrection: I do know it.\n[{"title": "Arash", '
     '"full_explanation": "Arash shot the arrow."}]', KNOWLEDGE, "Arash: Arash shot the arrow."),
    ('[{"title": "Bahram", "full_explanation": "A hunt."}]\nPlease disregard the explanation above. My final '
     'response is:\n[{"title": null, "full_explanation": null}]', KNOWLEDGE, ""),
    # adversarial: a lean to "none" beside the null JSON agrees; "no explicit quotation, but an implicit
    # reference" beside a named one agrees
    ("Job might be evoked, but I'd lean towards no allusion.\n[]", OPEN, ""),
    ('The verse does not contain an explicit quotation, but there is an implicit reference to Noah.\n'
     '[{"reference": "Noah", "explanation": "The flood."}]', OPEN, "Noah: The flood."),
])
def test_json_beside_prose(answer, fields, expected):
    assert json_answer_text(answer, fields) == expected
    if expected is None:  # what layer 1 refuses, layer 2 does not give the judge either
        assert prose_answer(answer, fields) is None


# --- knowledge and open: prose --------------------------------------------------------------------------------------
@pytest.mark.parametrize("answer, expected", [
    # "no allusion" / "not familiar" stated: read by rule ("")
    ("این بیت تلمیحی ندارد.", ""),
    ("با این تلمیح آشنا نیستم.", ""),
    ("In beyt talmihi nadare.", ""),  # Persian in Latin letters
    ("Bu beyitte telmih yok.", ""),  # Turkish, not in the corpus
    ("None", ""),
    ("I'm sorry, but I couldn't find any information about this allusion.", ""),
    # the negation closing the clause that holds the allusion word («دیده نمی‌شود»), a concession set aside
    ("با آنکه عاشق در بیابان است، هیچ اشاره‌ی روشنی به داستانی دیده نمی‌شود.", ""),
    # adversarial double negatives: "not without allusion" / "a mistake to say ... no allusion" affirm one
    ("این بیت بی‌تلمیح نیست: به کنعان پسر نوح اشاره دارد.", "این بیت بی‌تلمیح نیست: به کنعان پسر نوح اشاره دارد."),
    ("It would be a mistake to say this line contains no allusion; it recalls Noah.",
     "It would be a mistake to say this line contains no allusion; it recalls Noah."),
    # adversarial: "no other allusion" says there is one (the one named), so it is the answer for the judge
    ("The verse alludes to Jonah; there is no other allusion.", "The verse alludes to Jonah; there is no other allusion."),
    # adversarial: "not familiar" inside "whether or not" is no statement; the answer is a refusal
    ("I'm sorry, but I can't help with this. Whether or not I'm familiar with it, ask a scholar.", None),
])
def test_prose_saying_none(answer, expected):
    assert prose_answer(answer) == expected


@pytest.mark.parametrize("answer, expected", [
    ("I'm sorry, but I can't determine whether this text contains an allusion.", None),  # a refusal
    ("متأسفم، نمی‌توانم با اطمینان بگویم که این بیت تلمیحی دارد یا ندارد.", None),
    ("Whether this line alludes to Khidr is hard to say.", None),  # only an embedded question
    ("I might know it, or I might mix it up - it's hard for me to say which.", None),  # a hedge with no lean
    ("Could you provide the rest of the ghazal?", None),  # a question asked back
    ("مطمئن نیستم.", None),  # variant: a Persian hedge alone
    ("بله، با این تلمیح آشنا هستم.", None),  # a claim of knowing that names nothing
    ("Yes, there is an allusion.", None),  # variant
    ("An allusion is a figure of speech. Allusions are important in Persian literature.", None),  # a definition
    # adversarial: a hedge with a lean is the answer it leans to; a claim with a name; a definition then a name
    ("I'm not sure, but it most likely alludes to Khidr.", "I'm not sure, but it most likely alludes to Khidr."),
    ("مطمئن نیستم، ولی فکر می‌کنم به آرش اشاره دارد.", "مطمئن نیستم، ولی فکر می‌کنم به آرش اشاره دارد."),
    ("Yes, it alludes to Farhad and Shirin.", "Yes, it alludes to Farhad and Shirin."),
    ("An allusion is a reference; here the reference is to Rostam and Sohrab.",
     "An allusion is a reference; here the reference is to Rostam and Sohrab."),
    ("Farhad and Shirin.", "Farhad and Shirin."),  # a bare name is an answer
    # an apology that refuses nothing is no refusal
    ("I'm sorry for the confusion: the allusion is to Khidr.", "I'm sorry for the confusion: the allusion is to Khidr."),
])
def test_prose_with_no_answer_stays_unread(answer, expected):
    assert prose_answer(answer) == expected
