"""FFE-HALLU detection answers read as a person reads them, under the fake-q framing ("Is this expression a fake
idiom or proverb?": yes says fake, no says real), and the yes/no of the fakes builder's checker."""

import pytest

from figeval.benchmarks.ffe_hallu.readers import FAKE, REAL, detection_verdict
from figeval.parsing import YesNo

Y, N = YesNo.YES, YesNo.NO
SAYS = {Y: FAKE, N: REAL, None: None}

ANSWERS = [
    # --- English: bare, capitalized, punctuated, emphasized
    ("Yes", Y),
    ("No", N),
    ("yes", Y),
    ("NO", N),
    ("YES.", Y),
    ("No.", N),
    ("**Yes**", Y),
    ("*No*", N),
    ("`Yes`", Y),
    ("  \n\nNo\n", N),
    ("Yes!", Y),
    ("'No'", N),
    # --- a label before the verdict
    ("Answer: Yes", Y),
    ("Answer: no", N),
    ("**Answer:** No", N),
    ("Final answer: Yes", Y),
    ("The answer is: No", N),
    # --- a sentence after the verdict
    ("Yes, this is a fabricated expression; it is not used in Persian.", Y),
    ("No. This is a well-known Persian proverb about patience.", N),
    ("Yes\n\nExplanation: the original proverb uses 'cat', not 'rabbit'.", Y),
    # --- the verdict at the end
    ("Based on my knowledge of Persian proverbs, my answer is no", N),
    ("This expression does not appear in any dictionary I know, so: Yes.", Y),
    ("I have not seen this expression before. The answer is yes, it is fake.", Y),
    # --- JSON and code fences
    ('{"answer": "Yes"}', Y),
    ('```json\n{"answer": "No", "reason": "a real idiom"}\n```', N),
    ('{"verdict": "no"}', N),
    ('{"is_fake": true, "answer": true}', Y),
    # --- reasoning blocks are removed first
    ("<think>It sounds like a real proverb... no wait, it's a perturbation</think>Yes", Y),
    ("<think>\nThe idiom exists, so the answer is yes.\n</think>\n\nNo", N),
    ("<think>still thinking about whether this is real", None),
    # --- Persian
    ("بله", Y),
    ("خیر", N),
    ("نه", N),
    ("بله، این یک ضرب‌المثل ساختگی است.", Y),
    ("خیر. این ضرب‌المثل واقعی است.", N),
    ("پاسخ: بله", Y),
    ("آره", Y),
    ("نخیر", N),
    # --- single letters only as the whole answer
    ("Y", Y),
    ("N", N),
    # --- ambiguous or no verdict: unparsed
    ("Yes or no?", None),
    ("Yes/No", None),
    ("بله یا خیر", None),
    ("Yes... actually, no", N),  # the model corrects itself: a person reads the correction
    ("I'm not sure.", None),
    ("This is a common expression in Persian.", N),  # says what it is: real (under fake-q, a no)
    ("", None),
    ("   ", None),
    ("Maybe", None),
    ("There is no such idiom in Persian", Y),  # "no such idiom": fake (under fake-q, a yes)
    ("N/A", None),
    # refusals whose last word is a verdict (found in review)
    ("I cannot answer yes or no.", None),
    ("من نمی‌دانم، شاید بله شاید نه", None),
    ("No idea.", None),
]


@pytest.mark.parametrize("answer, expected", ANSWERS, ids=[repr(a)[:40] for a, _ in ANSWERS])
def test_detection_answers(answer, expected):
    by_paper, by_reader = detection_verdict(answer, FAKE, expression="")
    assert (by_reader if by_reader is not None else by_paper) == SAYS[expected]
    assert by_paper in (None, SAYS[expected])  # the paper's bare yes/no, where it reads, agrees


@pytest.mark.parametrize("answer, expected", [
    ("«نه به باره نه به داره» یک ضرب‌المثل واقعی است.", REAL),  # the expression's «نه» is not a no
    ("نه تنها واقعی است بلکه بسیار رایج است.", REAL),  # "not only ... but": not a no
    ("این عبارت جعلی است.", FAKE),
    ("I don't recognize this as a real Persian idiom.", FAKE),
    ("Yes, it's fake.", FAKE),  # under fake-q both parts say fake
    ("No, it is not fake. It's a well-known proverb.", REAL),
    ("This appears to be a distorted version of the well-known proverb «...».", FAKE),
])
def test_persian_and_descriptive_verdicts(answer, expected):
    assert detection_verdict(answer, FAKE, expression="نه به باره نه به داره")[1] == expected


def test_a_yes_that_contradicts_what_the_answer_says_is_unread():
    # under real-q "Yes" says real, "it's fake" says fake: a person cannot tell (tests/real_answers)
    assert detection_verdict("Yes, it's fake.", REAL, expression="") == (None, None)


# --- Round 2 rules, by the family of answers each serves. Each case: (answer, framing's "yes" meaning, expected),
# the expected value derived by hand in the comment; adversarial negatives (must stay unread, or read the other
# way) marked "ADV".
ROUND_2 = [
    # Persian negative prefix (نا / غیر bound, ZWNJ-bound or apart; بی‌اساس), and litotes («... نیست» after it)
    ("این عبارت نا معتبر است.", FAKE, FAKE),  # "invalid" -> fake
    ("این ضرب‌المثل غیر‌واقعی است.", REAL, FAKE),  # "unreal" -> fake
    ("این اصطلاح نامعتبر است.", REAL, FAKE),  # bound prefix -> fake
    ("این مثل ناشناخته است.", FAKE, FAKE),  # "unknown" -> fake
    ("بی‌اساس نیست.", REAL, REAL),  # "not baseless" -> real (litotes)
    ("این اصطلاح غیر واقعی نیست.", FAKE, REAL),  # "not unreal" -> real
    ("این اصطلاح در نامه‌های قدیمی رایج است.", FAKE, REAL),  # ADV: «نامه» is no prefix on a label word -> real
    # label words of other languages, with their negations (table by language)
    ("Bu ifade gerçek bir Farsça deyim değildir.", REAL, FAKE),  # Turkish "is not a real idiom" -> fake
    ("Bu deyim sahte değil, gerçek bir atasözüdür.", FAKE, REAL),  # "not fake" -> real
    ("Bu ifade uydurmadır.", REAL, FAKE),  # "is made up" -> fake
    ("Bu ifade Farsçada kullanılmıyor.", REAL, FAKE),  # verb negation "is not used" -> fake
    ("Bu deyim Farsçada sıkça kullanılır.", FAKE, None),  # ADV: "is used" (no -ma) is not read as negated
    ("لا يوجد مثل بهذا اللفظ.", FAKE, FAKE),  # Arabic "there is no such proverb" -> fake
    ("Bu gerçekten uydurma bir ifade.", REAL, FAKE),  # ADV: "gerçekten" (really) is not "gerçek" (real) -> fake
    ("مزيّف. المثل الصحيح هو «به گوش خر یاسین خواندن».", REAL, FAKE),  # Arabic "fake" -> fake
    ("هذا المثل ليس حقيقيًا.", FAKE, FAKE),  # "is not real" -> fake
    ("هذا المثل غير حقيقي.", REAL, FAKE),  # "unreal" -> fake
    ("هذا ليس مزيفًا.", FAKE, REAL),  # "is not fake" -> real
    ("vaghei nist.", REAL, FAKE),  # Finglish "not real" -> fake
    ("jaali nist, kheyli ham raayej e.", FAKE, REAL),  # "not fake" -> real
    # label: value slots
    ("**Real Persian idiom:** ❌", REAL, FAKE),  # real: cross -> fake
    ("Verdict: Authentic ✔️", FAKE, REAL),  # the check mark affirms the label, not the framing's yes -> real
    ("Fake: false", REAL, REAL),  # fake: false -> real
    ("Genuine idiom: yes", FAKE, REAL),  # genuine: yes -> real
    ("Closest authentic idiom: «چوب لای چرخ کسی گذاشتن»", REAL, None),  # ADV: a slot naming an idiom -> nothing
    # JSON verdict keys: the key and its value read as the pair
    ('{"expression": "x", "is_real": false, // not found\n "closest_real": null,}', REAL, FAKE),
    ('[{"expression": "x", "status": "authentic", "fake": false}]', FAKE, REAL),  # ADV: key "fake" is no verdict
    ('{"is_real": true, "is_fake": true}', FAKE, None),  # two keys, two labels -> unread
    ('{"genuine": "no"}', FAKE, FAKE),  # string boolean -> fake
    ('{"closest_real": null, "meaning": "a real idiom"}', FAKE, None),  # ADV: no verdict key, no verdict
    ('{"is_real": false}\nActually it is a well-known Persian proverb.', REAL, None),  # ADV: JSON fake, prose real
    ('Here is my answer: {"is_real": false} It is made up.', REAL, FAKE),  # JSON and prose agree -> fake
    # a yes/no answering the model's own question, not the prompt's framing
    ("Fake? No.\nReal? Yes.", FAKE, REAL),  # not fake, real -> real
    ("Fake? No.", REAL, REAL),  # under real-q a bare "No" would be fake; here it answers "Fake?" -> real
    ("آیا این اصطلاح واقعی است یا نه؟ پاسخ مثبت است.", FAKE, REAL),  # "is it real? positive" -> real
    ("Is it genuine? Nope.", FAKE, FAKE),  # genuine: no -> fake
    ("Is it real? I think so.", FAKE, REAL),  # a yes sentence to "real?" -> real (the framing's yes would be fake)
    ("Real or fake? Yes.", FAKE, None),  # ADV: a yes to an either-or chooses neither -> unread
    ("پاسخ منفی است.", REAL, FAKE),  # "the answer is negative" under real-q -> fake
    # a probability given to a label: over one half that label, under one half the other, one half no lean
    ("P(real) ≈ 0.1 — the attested idiom is «از دماغ فیل افتادن».", REAL, FAKE),  # 10% real -> fake
    ("P(fake) = 0.85", REAL, FAKE),  # 85% fake -> fake
    ("Probability of being real: 90%", FAKE, REAL),  # 90% real -> real
    ("P(real) = 0.5", FAKE, None),  # ADV: no lean -> unread
    ("P(real) ≈ 0.6", FAKE, REAL),  # 60% real: a lean, read as a forced choice -> real
    ("Probability of being fake: 40%", REAL, REAL),  # 40% fake leans away from fake -> real
    # a sentence that refers back to another expression the model proposed is about that one
    ("Did you mean «نابرده رنج گنج میسر نمی‌شود»? That is a real and very well-known proverb.", REAL, None),
    ("You may be thinking of «گربه را دم حجله کشتن». That is a well-known proverb.", FAKE, None),
    ("Did you mean «نابرده رنج گنج میسر نمی‌شود»? That one is real; the wording you gave is made up.", REAL, FAKE),
    # ADV above: the asked wording is judged apart -> fake
    # a hedge reached as a conclusion: the clause before "so" is its reason, not a lean
    ("I'm not aware of this expression in exactly this form, so I can't say whether it is fake "
     "or genuine.", FAKE, None),
    ("I have never heard it, therefore I cannot determine if it is real.", REAL, None),
    ("این را نشنیده‌ام، بنابراین نمی‌توانم بگویم واقعی است یا نه.", REAL, None),
    ("I'm not aware of this expression, so it is probably made up.", FAKE, FAKE),  # ADV: a lean concludes -> fake
    ("It is fabricated, so I cannot recommend using it.", REAL, FAKE),  # ADV: no hedge verb after "so" -> fake
    ("It sounds familiar, so I'm not sure it is fabricated.", FAKE, None),  # a hedge concludes -> unread
    # the choice left open ("depends on") and labels under a qualification
    ("**Real** as a colloquial phrase: it is heard in speech.\n**Fake** as an idiom in the strict sense.\n"
     "Which answer applies depends on how strictly you define idiom.", FAKE, None),  # two labels, a hedge -> unread
    ("It is a real idiom. Its exact meaning depends on the context.", FAKE, REAL),  # ADV: a hedge beside a label
    ("Real as a proverb of Tehran speech.", FAKE, REAL),  # one qualified label -> real
    # a distorted form of an idiom, and the citation form of one
    ("Looks like a garbled «با یک تیر دو نشان زدن»; nobody says «تبر» there.", FAKE, FAKE),  # garbled -> fake
    ("It's a corruption of «گربه را دم حجله کشتن».", REAL, FAKE),  # corruption of -> fake
    ("It is not a distorted version; it is the original proverb.", FAKE, REAL),  # ADV: negated distortion -> real
    ("That's the dictionary (infinitive) form of the colloquial «آخورش پره».", REAL, REAL),  # citation form -> real
    ("It is not the standard form of the proverb.", REAL, FAKE),  # ADV: negated -> fake
    # "a common idiomatic expression in Persian" says real; turned back in the same breath it states neither
    ("It is a common idiomatic expression in Persian.", FAKE, REAL),
    ("It is indeed a fake idiom. It is a common idiomatic expression in Persian, but it is actually a metaphor.",
     FAKE, None),  # fake, then real, nothing concluding -> unread
    ("It is indeed a fake idiom. It is a common idiomatic expression in Persian, but it is not a genuine idiom.",
     FAKE, FAKE),  # ADV: the second sentence names both labels, states neither -> fake
]


@pytest.mark.parametrize("answer, yes_means, expected", ROUND_2, ids=[repr(a)[:40] for a, _, _ in ROUND_2])
def test_round_2_families(answer, yes_means, expected):
    assert detection_verdict(answer, yes_means, expression="")[1] == expected


# --- Round 3 rules, by family. Each case: (answer, framing's "yes" meaning, expected), the expected value derived by
# hand in the comment; adversarial negatives marked "ADV"; variants not in the corpus (other words, other order)
# beside each family's corpus shape.
ROUND_3 = [
    # Likert answers as a sentence of their own: agree is a yes, disagree a no (of the framing, or of the model's
    # own question); the middle of the scale has no lean
    ("Strongly disagree. The established proverb is «سنگ بزرگ علامت نزدن است».", REAL, FAKE),  # real-q: no -> fake
    ("Agree.", FAKE, FAKE),  # fake-q: yes -> fake
    ("کاملاً مخالفم.", FAKE, REAL),  # Persian "fully disagree", fake-q: no -> real
    ("Kesinlikle katılmıyorum.", REAL, FAKE),  # Turkish "I strongly disagree", real-q: no -> fake
    ("Real? Strongly disagree.", FAKE, FAKE),  # ADV: disagrees with "Real?", not with the framing -> fake
    ("Neither agree nor disagree.", REAL, None),  # ADV: the scale's middle -> unread
    ("نه موافقم، نه مخالف.", FAKE, None),  # ADV: neither-nor, the first «نه» is no "no" -> unread
    ("I disagree with the proverb's advice.", REAL, None),  # ADV: disagreeing with the content, not answering
    # a matrix verb of denial negates the clause it governs; two negations cancel
    ("I strongly disagree that this is a real idiom.", FAKE, FAKE),  # denies "real" -> fake
    ("I doubt that it is a genuine proverb.", REAL, FAKE),  # doubts "genuine" -> fake
    ("I deny that it is fabricated.", REAL, REAL),  # denies "fabricated" -> real
    ("I don't doubt that it is real.", FAKE, REAL),  # ADV: not + doubt cancel -> real
    ("There is no doubt it is fabricated.", REAL, FAKE),  # ADV: no + doubt cancel -> fake
    ("It is not untrue that it is real.", REAL, REAL),  # not + untrue cancel -> real
    ("I don't doubt that it is not real.", REAL, FAKE),  # ADV: a third "not" keeps its own reading -> fake
    ("شک دارم که این مثل واقعی باشد.", FAKE, FAKE),  # Persian "I doubt it is real" -> fake
    ("شکی نیست که این مثل واقعی است.", FAKE, REAL),  # ADV: "no doubt it is real" -> real
    # "the answer (to ...) is negative/positive", what it answers between
    ("پاسخ پرسش مطروحه منفی است. عبارت مزبور از امثال سائره است.", FAKE, REAL),  # fake-q: negative -> real
    ("The answer to your question is negative.", REAL, FAKE),  # real-q: negative -> fake
    ("جواب سؤال شما مثبت است.", FAKE, FAKE),  # fake-q: positive -> fake
    ("پاسخ منفی نیست.", REAL, None),  # ADV: "not negative" is no "no" -> unread
    ("اگر پاسخ منفی باشد، یعنی جعلی است.", REAL, None),  # ADV: a condition supposes -> unread
    # a colloquial rhetorical dismissal of a label opening its clause: the other label
    ("نه بابا، جعلی چیه! اینو که همه می‌گن.", FAKE, REAL),  # "no, what fake!" -> real
    ("بابا جعلی کدومه! همه می‌گن.", REAL, REAL),  # "which fake!" -> real
    ("واقعی چیه! ساختگیه.", FAKE, FAKE),  # "what real!", then "it's made up" -> fake
    ("منظور از جعلی چیه؟", FAKE, None),  # ADV: a question about the word -> unread
    ("فرق واقعی و جعلی چیه!", REAL, None),  # ADV: the label does not open its clause -> unread
    # irony against an absurd thing, and imitation words
    ("Real? About as real as a camel hiding behind a tulip. Swapping the camel makes it a knock-off.", REAL, FAKE),
    ("It's about as authentic as a three-dollar bill.", FAKE, FAKE),  # ironic -> fake
    ("It's as real as it gets.", FAKE, REAL),  # ADV: an emphasis idiom, not irony -> real
    ("It is about as common as «دست بالای دست بسیار است».", REAL, None),  # ADV: compared with an idiom -> unread
    ("It is not a knock-off; it is the genuine article.", FAKE, REAL),  # ADV: negated imitation -> real
    ("This is a counterfeit of a well-known proverb.", REAL, FAKE),  # imitation -> fake
    # Azerbaijani (a language table entry): Bəli/Xeyr, "deyil" closing the clause; "əsl" (original) no label
    ("Xeyr. Bu ifadə həqiqi atalar sözü deyil. Əsl forması «دیگ به دیگ میگه روت سیاه»dır.", REAL, FAKE),
    ("Bəli, bu həqiqi atalar sözüdür.", REAL, REAL),  # yes, a real proverb -> real
    ("Bu ifadə saxtadır.", FAKE, FAKE),  # "is fake" -> fake
    ("Bu ifadə saxta deyil.", REAL, REAL),  # "is not fake" -> real
    ("Bu ifadə fars dilində işlənmir.", FAKE, FAKE),  # "is not used" -> fake
    ("Əsl forması «دیگ به دیگ میگه روت سیاه»dır.", REAL, None),  # ADV: the original form names the source -> unread
    ("Bəli yoxsa xeyr?", FAKE, None),  # ADV: both offered in a question -> unread
]


@pytest.mark.parametrize("answer, yes_means, expected", ROUND_3, ids=[repr(a)[:40] for a, _, _ in ROUND_3])
def test_round_3_families(answer, yes_means, expected):
    assert detection_verdict(answer, yes_means, expression="")[1] == expected
