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
    ("The verse alludes to Jonah; there is no other allusion.",
     "The verse alludes to Jonah; there is no other allusion."),
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
    ("I'm sorry for the confusion: the allusion is to Khidr.",
     "I'm sorry for the confusion: the allusion is to Khidr."),
])
def test_prose_with_no_answer_stays_unread(answer, expected):
    assert prose_answer(answer) == expected


# --- round 3: multiple choice --------------------------------------------------------------------------------------
@pytest.mark.parametrize("answer, expected", [
    # a share per option line: the strictly highest is the choice (80% on 2; 60% on 3; «۷۰٪» on 2 in Persian digits)
    ("Option 1: 5%\nOption 2: 80%\nOption 3: 5%\nOption 4: 5%\nOption 5: 5%", 2),
    ("Option 1: 10%\nOption 2: 15%\nOption 3: 60%\nOption 4: 10%\nOption 5: 5%", 3),
    ("گزینه ۱: ۱۰٪\nگزینه ۲: ۷۰%\nگزینه ۳: ۲۰%", 2),
    ("1. یونس و ماهی - 20%\n2. عصای موسی - 80%", 2),  # variant: the title lines, the share after a dash
    # adversarial: a tie at the top is no choice (not the first line's option 1)
    ("Option 1: 50%\nOption 2: 50%", None),
    ("Option 1: 40%\nOption 4: 40%\nOption 5: 20%", None),
])
def test_a_share_per_option_is_read_as_pairs(answer, expected):
    assert option(answer) == expected


@pytest.mark.parametrize("answer, expected", [
    ("Answer: III\n\nPraying inside the fish is Jonah.", 3),  # a Roman numeral, the whole statement after "Answer:"
    ("Answer: IV", 4),  # variants
    ("Final answer: V.", 5),
    ("The answer is option II.", 2),  # beside the word "option"
    # adversarial: "I" that starts a sentence after the marker is the pronoun, not option 1
    ("Answer: I think it is Noah.", None),
    ("Answer: I.e. the one with the fish.", None),
    # "the last option" is option 5 of 5, by language; «گزینه آخر», «آخرین گزینه», "son seçenek"
    ("It's the last option: the antidote that arrives after Sohrab's death.", 5),
    ("گزینه آخر درست است.", 5),
    ("آخرین گزینه صحیح است؛ رستم پسرش را نشناخت.", 5),
    ("Cevap: son seçenek", 5),
    # adversarial: "not the last option" rejects 5, and option 2 is named: 2
    ("It's not the last option; it's option 2.", 2),
    # an option named by its row/position in a clause that names an option: «ردیف چهارم» = 4, "second position" = 2
    ("گزینهٔ مندرج در ردیف چهارم صحیح می‌باشد؛ بیت مزبور به طوفان تلمیح دارد.", 4),
    ("گزینه‌ای که در ردیف سوم آمده درست است.", 3),
    ("The option in the second position is correct.", 2),
    # adversarial: «ردیف» of a poem (its refrain) in a clause with no «گزینه» names no option: the title (4) is read
    ("ردیف دوم این غزل «است» است و بیت به کشتی نوح اشاره دارد.", 4),
])
def test_an_option_named_by_numeral_or_position(answer, expected):
    assert option(answer) == expected


@pytest.mark.parametrize("answer, expected", [
    # one sentence rules out 1, 2, 4, 5 by number and the answer says it is the one remaining: 3
    ("The fire (1), the water of life (2), Noah (4) and Rostam (5) have nothing to do with a staff. By elimination, "
     "the remaining option is the answer.", 3),
    ("Noah (4), Solomon (3), Moses (2) and Rostam (5) do not fit. By elimination, the remaining option is it.", 1),
    ("آتش (۱)، آب حیات (۲)، دم عیسی (۴) و سیمرغ (۵) به عصای شبان ربطی ندارند. با حذف آنها، گزینه "
     "باقی‌مانده پاسخ است.", 3),
    ("Ateş (1), su (2), nefes (4) ve Simurg (5) bununla ilgili değil; kalan seçenek doğru.", 3),
    # adversarial: two ruled out leave three (no choice); a number in another sentence may be the choice (2 fits,
    # 1, 3, 4 out: 5 must not be read)
    ("Noah (4) and Rostam (5) do not fit. By elimination, the answer is among the remaining ones.", None),
    ("The staff (2) fits. Noah (4), Solomon (3), Jonah (1) are out; by elimination it is the remaining one.", None),
])
def test_the_option_left_by_elimination(answer, expected):
    assert option(answer) == expected


def test_a_revision_opening_on_no_replaces_the_answer():
    # "Hmm, no —" after "Answer: 3." takes 3 back; the revision names no option by number or title: unread
    assert option("Answer: 3.\n\nHmm, no — there is no ant in the text. "
                  "The women point to the option before it.") is None
    assert option("Answer: 3.\n\nHmm, no — it is option 2.") == 2  # variant: the revision names 2
    assert option("پاسخ: گزینه ۳. نه، گزینه ۲ درست است.") == 2  # variant: Persian «نه،»
    # adversarial: "No other option fits" (no mark after "no") confirms, it does not revise: 3
    assert option("Answer: 3. No other option fits.") == 3


def test_two_json_keys_that_disagree_are_two_answers():
    # selected_option 3 and "answer" 4 in one object: Undecided (read_layers then leaves it unread whatever the
    # paper's rule reads of the selected_option)
    with pytest.raises(Undecided):
        option('{"selected_option": 3, "answer": 4}')
    with pytest.raises(Undecided):
        option('{"selected_option": 2, "final_answer": "5"}')  # variant
    # adversarial: the keys agree (3); a key that names no option ("confidence") is no second answer (3)
    assert option('{"selected_option": 3, "answer": 3}') == 3
    assert option('{"selected_option": 3, "confidence": 4}') == 3


# --- round 3: knowledge and open -----------------------------------------------------------------------------------
@pytest.mark.parametrize("answer, expected", [
    # "none" / "not familiar" by scope: the prefix bound to the noun, the verb affirmative: «بی‌تلمیح است» = none
    ("این بیت بی‌تلمیح است؛ شباهتش به داستان سلیمان فقط ظاهری است.", ""),
    ("این متن غیرتلمیحی است.", ""),  # variant: غیر-
    # «نا‌آشنا» said of oneself (the prefix bound by a ZWNJ), and Persian in Latin letters
    ("با پوزش، این تلمیح برایم نا‌آشناست و نمی‌خواهم داستانی از خودم بسازم.", ""),
    ("Motasefane ba in talmih ashna nistam va nemitoonam tozihe dorosti bedam.", ""),
    ("Ba in talmih ashena nistam.", ""),  # variant spelling
    ("This allusion is unfamiliar to me.", ""),
    # a label:value pair, in a list or a table row: "Allusion present: No" (the table unwrapped), «تلمیح: ندارد»
    ("Detection: ordinary images\nAllusion present: No\nReference: —", ""),
    ("| Allusion found | None |", ""),
    ("تلمیح: ندارد", ""),
    ("Telmih: yok", ""),
    # the negation closing the clause reaches the relative clause inside it («داستانی که به آن اشاره می‌کند»)
    ("متأسفانه درباره‌ی این تلمیح و داستانی که به آن اشاره می‌کند، اطلاعات دقیق و قابل اعتمادی در اختیار ندارم.", ""),
    ("I don't know the story it refers to.", ""),  # variant: the relative clause "it refers to" affirms nothing
    # adversarial: double negatives affirm, a negated verb of saying asserts nothing, «ناآشنا» said of a story
    ("این تلمیح برایم ناآشنا نیست: داستان یونس است.", "این تلمیح برایم ناآشنا نیست: داستان یونس است."),
    ("Not an unfamiliar allusion: it is Jonah's story.", "Not an unfamiliar allusion: it is Jonah's story."),
    ("داستان یونس برای خوانندگان امروز ناآشناست.", "داستان یونس برای خوانندگان امروز ناآشناست."),
    ("Allusion present: Yes\nReference: Noah's Ark", "Allusion present: Yes\nReference: Noah's Ark"),
    ("I won't claim that there is no allusion in this line, but I also can't identify one with any confidence, so "
     "I'd rather not give a reference.", None),
    ("I wouldn't say this line has no allusion: it alludes to Noah.",
     "I wouldn't say this line has no allusion: it alludes to Noah."),
    ("این بیت به داستانی اشاره می‌کند که در آن یونس در شکم ماهی بود.",
     "این بیت به داستانی اشاره می‌کند که در آن یونس در شکم ماهی بود."),  # a relative clause after the claim
])
def test_round_3_none_and_not_familiar_by_scope(answer, expected):
    assert prose_answer(answer) == expected


@pytest.mark.parametrize("answer, expected", [
    # a hedge with a Persian lean («به نظرم») is the answer it leans to
    ("مطمئن نیستم، اما به نظرم این متن به داستان ابراهیم اشاره دارد.",
     "مطمئن نیستم، اما به نظرم این متن به داستان ابراهیم اشاره دارد."),
    ("مطمئن نیستم و نمی‌دانم به کدام داستان اشاره دارد.", None),  # adversarial: no lean
    # two alternatives with no lean: no answer
    ("The vessel could point either to the Cup of Jamshid or to the Mirror of Alexander; the line doesn't settle "
     "which. Shall I go with the cup or the mirror?", None),
    ("یا به داستان یونس اشاره دارد یا به داستان نوح.", None),  # variant in Persian
    # adversarial: "either way" offers no alternative; a lean after the alternatives is the answer
    ("Either way, it alludes to Khidr.", "Either way, it alludes to Khidr."),
    ("It alludes either to Khidr or to Alexander, but most likely Khidr.",
     "It alludes either to Khidr or to Alexander, but most likely Khidr."),
    # a prose about the poet, no word of an allusion: no answer
    ("This ghazal was written by Saadi in Shiraz around 1257; his Golestan is famous.", None),
    ("این بیت از حافظ است و حافظ در شیراز زندگی می‌کرد.", None),
    # adversarial: the poet named beside the allusion
    ("This couplet is by Hafez; it alludes to Joseph and Zuleikha.",
     "This couplet is by Hafez; it alludes to Joseph and Zuleikha."),
])
def test_round_3_prose_with_no_answer(answer, expected):
    assert prose_answer(answer) == expected


@pytest.mark.parametrize("answer, fields, expected", [
    # "not familiar", then an explanation, nothing revising: two answers ("not familiar with" is no claim of
    # knowing, so the prose is "none" beside a named answer)
    ('I am not familiar with this allusion.\n[{"title": "Dawud", "full_explanation": "God made iron soft."}]',
     KNOWLEDGE, None),
    # adversarial: "quite familiar" agrees with the answer
    ('I am quite familiar with this allusion.\n[{"title": "Dawud", "full_explanation": "God made iron soft."}]',
     KNOWLEDGE, "Dawud: God made iron soft."),
    # an explanation that only glosses the title ("the N of N"): a title with no explanation
    ('[{"title": "Khar-e Isa", "full_explanation": "The donkey of Jesus (خر عیسی)."}]', KNOWLEDGE, None),
    ('[{"title": "Jam-e Jam", "full_explanation": "The cup of Jamshid."}]', KNOWLEDGE, None),
    # adversarial: a gloss that goes on to explain, and a short sentence with a verb, are explanations
    ('[{"title": "Khar-e Isa", "full_explanation": "The donkey of Jesus, which stands for the body."}]', KNOWLEDGE,
     "Khar-e Isa: The donkey of Jesus, which stands for the body."),
    ('[{"title": "Rostam and Sohrab", "full_explanation": "Rostam killed his son Sohrab."}]', KNOWLEDGE,
     "Rostam and Sohrab: Rostam killed his son Sohrab."),
    # "Either X or Y" in the reference field, no lean: two answers; with a lean, or an alias with "or": the answer
    ('[{"reference": "Either Yunus in the fish or Noah in the Flood", "explanation": "Both fit."}]', OPEN, None),
    ('[{"reference": "Either Yunus or Noah, most likely Yunus", "explanation": "The fish."}]', OPEN,
     "Either Yunus or Noah, most likely Yunus: The fish."),
    ('[{"reference": "Yunus (Dhu al-Nun) or Jonah", "explanation": "The fish."}]', OPEN,
     "Yunus (Dhu al-Nun) or Jonah: The fish."),
])
def test_round_3_json_answers(answer, fields, expected):
    assert json_answer_text(answer, fields) == expected
    if expected is None:
        assert prose_answer(answer, fields) is None
