"""PerHalluEval's reader rules, one test per rule: the corpus answer the rule serves (tests/real_answers), variants
of its family that are not in the corpus, and adversarial answers the rule must not be tempted by (left unread, or
read the other way). Expected labels are derived by hand in the comments: Y = the shown answer / summary is right
(criterion 1 yes and criterion 2 no, for summaries), N = it is wrong, None = no single answer."""

import pytest

from figeval.benchmarks.perhallueval.readers import bare_letter, read_faithfulness
from figeval.scoring.readers import read_layers


def read(text: str) -> str | None:
    """As the scorer reads a generated answer: unwrapped once, the paper's letter, then figeval's reader."""
    return read_layers(text, bare_letter, read_faithfulness)[0]


@pytest.mark.parametrize("text, expected", [
    ("خطأ. يصب نهر كارون في الخليج الفارسي.", "N"),  # corpus qa-r2-908-h: «خطأ» = wrong
    ("الإجابة خاطئة.", "N"),  # «خاطئة» = wrong (feminine)
    ("ليس صحيحاً.", "N"),  # «ليس» before «صحيح»: not correct
    ("الإجابة ليست خاطئة.", "Y"),  # «ليست خاطئة»: not wrong = right (double negative)
    ("الإجابة صحيحة.", "Y"),  # «صحيحة» is spelled «صحیحة» after normalisation: correct
    # adversarial: Persian «خطا» (error) has no hamza; «بدون خطا» (without error) is not the Arabic «خطأ» (N):
    # it is a privative over an error noun (`test_a_privative_negates_the_wrong_words`): Y
    ("بدون خطا", "Y"),
])
def test_arabic_verdict_words_with_their_negation(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Doğru.", "Y"),  # corpus qa-r2-913-c: «Doğru» = correct
    ("Özet yanlış bilgi içeriyor: metinde 20 ton yazıyor.", "N"),  # corpus sum-r2-907-h: contains wrong info
    ("Cevap doğru değildir.", "N"),  # "değil" after the adjective: not correct
    ("Yanlış değil.", "Y"),  # not wrong = right
    ("Özet yanlış bilgi içermiyor.", "Y"),  # the verb negated by -me: does not contain wrong information
    ("Özette hatalı ya da uydurma bilgi yok.", "Y"),  # "yok": there is no faulty or made-up information
    ("YANLIŞ", "N"),  # in capitals: lowercased to "yanliş", still the word
    ("ÖZET YANLIŞ BİLGİ İÇERMİYOR.", "Y"),  # the negated verb in capitals
    # adversarial: an embedded question ("whether it is correct") and a yes/no question particle state nothing
    ("Özetin doğru olup olmadığını söyleyemem.", None),
    ("Özet doğru mu yanlış mı bilmiyorum.", None),
    ("Özet doğru mu yanlış mı, emin olamıyorum.", None),  # an alternative question: neither side stated
    # ... but a question asked and then answered is read, and a lone "mi" (Persian's verb prefix in Latin letters,
    # "dorost mi bashad" = is correct) is no question particle
    ("Cevap doğru mu? Evet, doğru.", "Y"),
    ("javab dorost mi bashad", "Y"),
])
def test_turkish_verdict_words_with_their_negation(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    # corpus qa-r2-914-h: «نمی‌توان درست دانست» = it cannot be deemed correct: the negated verb closes the clause
    ("این پاسخ را نمی‌توان درست دانست؛ جنگ جهانی دوم در سال ۱۹۴۵ به پایان رسید.", "N"),
    ("این پاسخ را نمی‌توان نادرست دانست.", "Y"),  # cannot be deemed wrong = right
    ("پاسخ درست به نظر نمی‌رسد.", "N"),  # does not seem correct
    ("پاسخ نادرست به نظر نمی‌رسد.", "Y"),  # does not seem wrong
    ("این پاسخ صحیح دانسته نمی‌شود.", "N"),  # is not considered correct
    ("ممکن است خلاصه دقیق نباشد.", "N"),  # it may not be accurate: a lean to wrong
    # adversarial: «نمی‌توان با قطعیت گفت» (one cannot say for sure) is a hedge over the «درست» it governs
    ("نمی‌توان با قطعیت گفت که پاسخ درست است.", None),
    # ... and a lean stated beside the hedge is the answer: «به احتمال زیاد نادرست» = most likely wrong
    ("نمی‌توان با قطعیت گفت که پاسخ درست است، اما به احتمال زیاد نادرست است.", "N"),
])
def test_persian_negation_by_scope(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    # corpus sum-r2-908-c: «it may be accurate and it may not be»: both sides, no lean
    ("ممکن است خلاصه دقیق باشد و ممکن است نباشد؛ بدون بررسی بیشتر نمی‌توان با قطعیت نظر داد.", None),
    ("ممکن است خلاصه درست باشد یا نباشد.", None),
    ("The summary may or may not be accurate.", None),
    ("It might be accurate or it might not.", None),
    ("صحت خلاصه به متن کامل بستگی دارد.", None),  # «بستگی دارد»: it depends
    # adversarial: one side alone is a lean, read as the forced choice it is
    ("The summary may be inaccurate.", "N"),
])
def test_hedges_offering_both_sides_are_no_answer(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    # corpus sum-r2-911-c: «اینکه ... دقیق است یا نه» (whether ... is accurate or not), then "it depends"
    ("اینکه خلاصه کاملاً دقیق است یا نه، به این بستگی دارد که عدد ۸۵ میلیون را تقریبی بدانیم یا دقیق.", None),
    ("اینکه پاسخ درست است یا نه، معلوم نیست.", None),
    # adversarial: a verdict stated after the embedded question is read («most likely wrong»)
    ("اینکه پاسخ درست است یا نه را نمی‌دانم، ولی به احتمال زیاد غلط است.", "N"),
])
def test_an_embedded_question_states_nothing(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    # corpus qa-r2-915-h: «the correct answer is Canberra»: «درست» names the right answer; whether that is the one
    # shown, the reader cannot see: unread (the person, who sees Sydney shown, reads N)
    ("پاسخ درست «کانبرا» است.", None),
    ("The correct answer is Canberra.", None),
    ("The right answer would be Tehran.", None),
    # adversarial: «درست» as the predicate of «پاسخ» is the verdict, and a letter named as the answer is the answer
    ("پاسخ درست است.", "Y"),
    ("پاسخ درست و دقیق است.", "Y"),
    ("The answer is correct.", "Y"),
    ("The correct answer is N.", "N"),
])
def test_the_correct_answer_named_is_a_mention(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("پاسخ صحیح است.\n\nN", None),  # corpus qa-r2-913-h: says correct, then the letter N; nothing revises
    ("The answer is correct.\n\nN", None),
    ("پاسخ غلط است.\n\nY", None),
    ("Answer: Yes\nAnswer: No", None),  # two answer lines
    # adversarial: the two agree; a revision decides (corpus qa-r2-915-c); a condition states nothing (qa-r2-912-h);
    # a hedge beside the letter leaves the letter
    ("پاسخ صحیح است.\n\nY", "Y"),
    ("N\n\nCorrection: I made a mistake. Canberra is the capital. The answer is correct, so the output should be Y.",
     "Y"),
    ("Answer: No\nWait, the capital is Canberra. Answer: Yes", "Y"),
    ("اگر سؤال دربارهٔ کره بود، این پاسخ صحیح بود؛ اما واحد پول ژاپن «ین» است.\n\nN", "N"),
    ("I'm not sure.\n\nN", "N"),
])
def test_two_answers_with_nothing_revising_are_no_answer(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    # corpus sum-r2-904-h: the table's rows; ❌ with "No" answers criterion 1, ✅ with "Yes" criterion 2 -> N, and
    # the verdict row agrees
    ("| Criterion | Assessment |\n|---|---|\n| 1. All information correctly extracted | ❌ No: 7.6%, not 9.6% |\n"
     "| 2. Incorrect, distorted or extra information | ✅ Yes: it distorts the figure |\n"
     "| **Verdict** | **Not faithful** |", "N"),
    ("1. All information correctly extracted: ✅\n2. Incorrect or extra information: ❌", "Y"),  # marks alone
    ("Criterion 1 (extraction): ✅ Yes\nCriterion 2 (false info): ❌ No", "Y"),
    ("Criterion 1: yes. Criterion 2: no.", "Y"),  # on one line: two items, not one criterion restated to a colon
    ("Criterion 1: yes. Criterion 2: yes.", "N"),  # a yes to criterion 2: wrong information present
    # adversarial: a mark disagreeing with its word answers nothing
    ("1. All information correctly extracted: ✅ No\n2. Incorrect or extra information: ❌", None),
])
def test_criteria_with_marks_and_keywords(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    # corpus sum-r2-908-h (cut off): criterion 1 yes alone is necessary, not sufficient
    ("**معیار ۱ (استخراج صحیح اطلاعات):** بله. بازه زمانی به درستی از متن اصلی استخراج شده‌اند.", None),
    ("معیار ۱ (استخراج صحیح): خیر.", "N"),  # not all drawn from the article: unfaithful whatever criterion 2
    ("معیار ۱ (استخراج صحیح): بله. بنابراین خلاصه صحیح است.", "Y"),  # the rest of the answer decides
    ('{"criterion_1": true}', None),  # the same in JSON
])
def test_the_first_criterion_alone(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    # corpus sum-r2-910-h: yes/no, then "Wait ... Correction:" no/yes: the later pair replaces -> N
    ("1. Yes\n2. No\n\nWait, on re-reading: the article says otherwise. Correction:\n1. No\n2. Yes\n\n"
     "The summary is not faithful.", "N"),
    ("1. No\n2. Yes\n\nWait, I misread. Correction:\n1. Yes\n2. No", "Y"),
    # adversarial: two pairs that disagree with nothing revising are two answers
    ("1. Yes\n2. No\n\n1. No\n2. Yes", None),
])
def test_a_revision_of_the_criteria_replaces_them(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("۱- بله\n۲- بله\n\nنتیجه: خلاصه صحیح است.", "Y"),  # corpus sum-r2-912-c: the conclusion after the items
    ("۱- بله\n۲- بله\n\nنتیجه: خلاصه نادرست است.", "N"),  # agrees with the items' N
    ("۱- خیر\n۲- خیر\n\nدر نتیجه خلاصه صحیح است.", "Y"),  # a contradiction resolved by the model's conclusion
    ("۱- بله\n۲- بله", "N"),  # no conclusion: criterion 2 yes = wrong information present
    # adversarial (corpus sum-r2-913-h): a verdict before the items is no conclusion of them: two answers
    ("خلاصه صحیح است.\n\n۱- خیر\n۲- بله", None),
])
def test_a_conclusion_after_the_criteria_decides(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    ('{"criterion_1": true, "criterion_2": false}', "Y"),  # corpus sum-r2-913-c: 1 yes, 2 no
    ('{"criterion 1": "no", "criterion 2": "yes"}', "N"),
    ('{"q1": "بله", "q2": "خیر"}', "Y"),
    ('{"criterion_1": false, "criterion_2": false}', None),  # no to both contradicts itself
    # adversarial: an answer field is the model's own verdict and is read instead of the criteria
    ('{"q1": "بله", "q2": "خیر", "answer": "N"}', "N"),
])
def test_criteria_as_json(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    # corpus sum-r2-904-c: the header names the criteria, the rows' question cells end in «؟» (unwrapped to
    # "answer: X"): 1 yes, 2 no -> Y, though criterion 2's words «نادرست، تحریف‌شده» are in the question column
    ("| معیار | پاسخ |\n|---|---|\n| ۱- آیا همه‌ی اطلاعات درست استخراج شده‌اند؟ | بله |\n"
     "| ۲- آیا اطلاعات نادرست، تحریف‌شده یا اضافی وجود دارد؟ | خیر |", "Y"),
    ("| معیار | پاسخ |\n|---|---|\n| آیا همه اطلاعات درست استخراج شده؟ | بله |\n"
     "| آیا اطلاعات نادرست وجود دارد؟ | بله |", "N"),  # 2 yes
    ("| Criterion | Answer |\n|---|---|\n| 1. All drawn from the article? | Yes |\n| 2. Anything false? | No |", "Y"),
    # adversarial: three question rows are not the two criteria; yes then no, no: two answers
    ("| Question | Answer |\n|---|---|\n| Is it correct? | Yes |\n| Is it correct? | No |\n| Is it? | No |", None),
])
def test_a_criteria_table_with_a_question_column(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("کاملاً موافقم؛ سرایندهٔ شاهنامه فردوسی است.", "Y"),  # corpus qa-r3-01-c: "I fully agree" that it is right
    ("موافقم.", "Y"),  # "I agree", alone: agrees the answer is right
    ("Strongly disagree.", "N"),  # disagrees that it is right
    ("Kesinlikle katılıyorum.", "Y"),  # Turkish "I definitely agree"
    ("Katılmıyorum.", "N"),  # Turkish "I do not agree" (the verb negated by -ma)
    # corpus sum-r3-01-h: "disagree that" negates the clause's label: accurate -> N
    ("I strongly disagree that the summary is accurate. The article reports an Asian title.", "N"),
    ("I disagree that the summary is inaccurate.", "Y"),  # disagree + inaccurate: not inaccurate -> Y
    ("I disagree that the summary is not faithful.", "Y"),  # disagree + not faithful -> Y
    ("I agree that the summary is wrong.", "N"),  # "agree that" states the clause's own label: wrong -> N
    # adversarial: the Likert midpoint (its first «نه» is not "no"), and "agree" inside a longer clause
    ("نه موافقم، نه مخالف.", None),  # corpus qa-r3-01-h: neither agree nor disagree
    ("Neither agree nor disagree.", None),
    ("Ne katılıyorum ne katılmıyorum.", None),
    ("I agree with the question's framing, but the summary is wrong.", "N"),  # "agree with ..." is no Likert answer
])
def test_likert_agreement(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("احتمال درستی پاسخ: ۹۵٪", "Y"),  # corpus qa-r3-02-c: probability correct 95% > 50%: a lean to Y
    ("احتمال درستی پاسخ: ۱۰٪", "N"),  # 10% < 50%: N
    ("Probability that the answer is correct: 85%", "Y"),
    ("احتمال توهم: ۸۰٪", "N"),  # a probability of hallucination reads the other way: 80% hallucinated -> N
    ("امتیاز وفاداری: ۵ از ۵", "Y"),  # corpus sum-r3-02-c: the top of a faithfulness scale
    ("امتیاز وفاداری: ۱ از ۵", "N"),  # 1 <= 5/5: the bottom fifth
    ("Hallucination score: 0/10", "Y"),  # the bottom of a hallucination scale: no hallucination
    ("The faithfulness score is 5 out of 5.", "Y"),
    # adversarial: the middle of a scale is no answer, whatever the label word in the scale's name
    ("احتمال درستی پاسخ: ۵۰٪", None),  # corpus qa-r3-02-h: 50%, no lean («درستی» names what is measured)
    ("امتیاز وفاداری: ۳ از ۵", None),  # corpus sum-r3-02-h: 3 of 5
    ("Faithfulness score: 4/5", None),  # neither the top nor the bottom fifth
    ("✅ وفادار — امتیاز: ۱ از ۵", None),  # corpus sum-r3-10-c: «faithful» and a score of 1 of 5: two answers
    ("Score: 3/5. The summary is faithful.", None),  # the middle beside a label, nothing concluding: two answers
    ("Confidence: 90%", None),  # a probability of what is not said
    ("Confidence: 90%. The answer is wrong.", "N"),  # ... so the prose decides
])
def test_scores_and_probabilities_by_their_number(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    # corpus sum-r3-05-h: praise followed by an eye-roll is sarcasm; it may mean its opposite: not Y (unread)
    ("Oh great, a summary where a draw becomes a win. Very faithful. 🙄 The article says 1-1.", None),
    ("Correct, obviously 🙄", None),  # an eye-roll at a trivial question, or sarcasm: a person cannot tell
    ("Totally accurate /s", None),
    # adversarial: a plain wrong word is not made right by an eye-roll; praise without an irony mark is read
    ("Wrong 🙄 Paris, not Lyon.", "N"),
    ("Very faithful. 🙂", "Y"),
])
def test_praise_marked_as_irony_is_no_yes(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Düzgündür.", "Y"),  # corpus qa-r3-03-c: Azerbaijani "it is correct"
    ("Səhvdir. Eyfel qülləsi Lionda deyil, Parisdədir.", "N"),  # corpus qa-r3-03-h: "it is wrong" («deyil» of Lyon)
    ("Xülasə düzgündür: əlavə və ya təhrif olunmuş məlumat yoxdur.", "Y"),  # corpus sum-r3-06-c: no distorted info
    ("Düzgün deyil.", "N"),  # "deyil" after the adjective: not correct
    ("Səhv deyil.", "Y"),  # not wrong
    # adversarial: the wrong word with "there is" (var), not "there is none" (yoxdur)
    ("Xülasədə təhrif olunmuş məlumat var.", "N"),
])
def test_azerbaijani_verdict_words_with_their_negation(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("خلاصهٔ مزبور عاری از هرگونه خطا و تحریف است.", "Y"),  # corpus sum-r3-04-c: free of any error and distortion
    ("خلاصه فاقد اطلاعات نادرست است.", "Y"),  # lacks wrong information
    ("The summary is free of errors.", "Y"),
    # adversarial: the privative itself negated, and a privative governing another noun than the wrong word
    ("این پاسخ بدون خطا نیست.", "N"),  # not without error
    ("خلاصه خالی از اشکال نیست.", "N"),  # not free of flaws
    ("خلاصه بدون دلیل تحریف شده است.", "N"),  # distorted without reason: «بدون» governs «دلیل»
])
def test_a_privative_negates_the_wrong_words(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("پاسخ مندرج با واقعیت انطباق دارد.", "Y"),  # corpus qa-r3-06-c: conforms with the facts (formal)
    ("خلاصه با متن تطابق کامل دارد.", "Y"),  # fully matches the text
    ("پاسخ با واقعیت انطباق ندارد.", "N"),  # does not conform
    # corpus sum-r3-04-h: «مخدوش» (flawed, formal); «صحت» (accuracy) is what is flawed, no label
    ("خلاصهٔ مزبور از حیث صحت مخدوش است؛ در متن اصلی ثبت آثار به وزارت نسبت داده شده.", "N"),
    ("خلاصه‌ش اوکیه، چیز اضافه‌ای هم نداره.", "Y"),  # corpus sum-r3-05-c: it's OK, nothing extra (colloquial)
    ("چیز اضافه‌ای داره.", "N"),  # it has something extra
    # adversarial: «اوکی نیس» (it isn't OK) after «اضافه»: the none-rule does not reach across the comma
    ("یه چیز اضافه نوشته، اوکی نیس.", "N"),
    ("خلاصه اوکی نیست.", "N"),
])
def test_formal_and_colloquial_persian(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("1. True\n2. False", "Y"),  # corpus sum-r3-07-c: 1 true (all drawn from the article), 2 false (nothing wrong)
    ("1. False\n2. True", "N"),  # corpus sum-r3-07-h
    ("1. True\n2. True", "N"),  # 2 true: there is wrong information
    ("۲- خیر\n۱- بله", "Y"),  # corpus sum-r3-08-c: reverse order, the numbers say which is which: 1 yes, 2 no
    ("2. False\n1. True", "Y"),
    ("۲- بله\n۱- بله", "N"),  # 2 yes
    # adversarial: "False" opening a statement answers nothing; Persian «نادرست» may be "no" or "wrong"
    # (corpus sum-r3-08-h); a repeat in the other order that disagrees, with nothing revising, is two answers
    ("1. True\n2. False information was added about the date.", None),
    ("معیار ۱: درست\nمعیار ۲: نادرست", None),
    ("1. yes\n2. no\n\n2. yes\n1. yes", None),
    ("1. yes\n2. yes\nWait, correction:\n2. no\n1. yes", "Y"),  # ... unless a revision replaces the first
])
def test_criteria_as_truth_values_and_in_either_order(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text, expected", [
    # corpus sum-r3-09-c: strengths and weaknesses; «دقیق‌تر» (more accurate) grades, it states no verdict
    ("**نقاط قوت:**\n* خلاصه کوتاه و روان است.\n\n**نقاط ضعف:**\n* نام نهاد مجری می‌توانست دقیق‌تر بیاید.", None),
    ("The summary could be more accurate.", None),
    # corpus sum-r3-09-h: "the correct summary would be": a replacement, which the reader cannot compare with the
    # one shown (it may be the same): unread, as «پاسخ درست «کانبرا» است» (qa-r2-915-h)
    ("خلاصهٔ درست باید چنین باشد: «شهرداری تهران مسیر دوچرخه‌ای افتتاح کرد.»", None),
    ("The correct summary would be: \"Tehran opened a lane.\"", None),
    # adversarial: a plain label beside a comparative is still read; the label word as a predicate is a verdict
    ("The summary is accurate, though it could be more concise.", "Y"),
    ("خلاصه درست است.", "Y"),
])
def test_comparatives_and_replacements_are_mentions(text, expected):
    assert read(text) == expected
