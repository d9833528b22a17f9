"""The paper's answer protocol: first word, else last word, must be one of the prompt's label words (Section 4);
reading yes/no for entailment and refusing negated labels are options, off by default."""

import pytest

from figeval.benchmarks.turkish_idioms.scorer import label_words
from figeval.parsing import first_or_last_label

# (answer, expected) for the English prompt (Appendix A: 'Answer only with "yes" or "no"')
DETECTION = [
    ("Yes", "yes"),
    ("No", "no"),
    ("yes.", "yes"),
    ("NO!", "no"),
    ("**Yes**", "yes"),
    ("No, the words are used literally.", "no"),
    ("Yes\n\nThe idiom 'kulak vermek' means to listen carefully.", "yes"),
    # only the last word is a label
    ("The sentence uses the idiom figuratively, so: yes", "yes"),
    ("I think the answer is No.", "no"),
    ("<think>Burnu sürtülmek is an idiom... used literally here.</think>\nNo", "no"),
    # the first word wins even when the last word differs (the paper's reading)
    ("Yes, although one might say no", "yes"),
    # not the prompt's words: a Turkish answer to the English prompt goes to manual reading
    ("Evet", None),
    ("Hayır", None),
    ("Evet, cümlede 'burnu sürtülmek' deyimi mecaz anlamda kullanılmış.", None),
    # alternatives offered, not chosen
    ("yes/no", None),
    # neither first nor last word is a label: unparsed
    ("The sentence contains an idiom.", None),
    ("", None),
    ("Maybe", None),
]

# the Turkish prompt (ours) asks for "evet" or "hayır"
DETECTION_TR = [
    ("Evet", "yes"),
    ("HAYIR", "no"),
    ("EVET.", "yes"),
    ("hayir", "no"),  # typed without the dotless ı
    ("Bu cümlede deyim gerçek anlamıyla kullanılmış, bu yüzden cevabım hayır.", "no"),
    ("<think>figurative</think> Evet", "yes"),
    ("Yes", None),
    ("Cümlede deyim var ama emin değilim.", None),
]

ENTAILMENT = [
    ("entailment", "entailment"),
    ("Contradiction", "contradiction"),
    ("ENTAILMENT.", "entailment"),
    ("**Contradiction** - the second sentence says the opposite.", "contradiction"),
    ("The premise states he listened carefully, which matches: entailment", "entailment"),
    ("Yes", None),  # not the prompt's words (see the option below)
    ("entails", None),
    ("neutral", None),
    ("The hypothesis follows from the premise.", None),
    # the paper's reading has no negation rule: the last word is the label
    ("Not entailment", "entailment"),
    ("There is no contradiction", "contradiction"),
]

# options, off by default: (answer, yes_no_entailment, negation, expected)
OPTIONS = [
    ("Yes", True, False, "entailment"),
    ("No.", True, False, "contradiction"),
    ("Not entailment", False, True, None),  # negated
    ("There is no contradiction", False, True, None),
    ("Entailment, not contradiction", False, True, "entailment"),  # the first word decides
]


@pytest.mark.parametrize("answer, expected", DETECTION, ids=[repr(a)[:40] for a, _ in DETECTION])
def test_detection_answers(answer, expected):
    assert first_or_last_label(answer, {k.value: v for k, v in label_words("detection", "en").items()}) == expected


@pytest.mark.parametrize("answer, expected", DETECTION_TR, ids=[repr(a)[:40] for a, _ in DETECTION_TR])
def test_detection_answers_to_the_turkish_prompt(answer, expected):
    assert first_or_last_label(answer, {k.value: v for k, v in label_words("detection", "tr").items()}) == expected


@pytest.mark.parametrize("answer, expected", ENTAILMENT, ids=[repr(a)[:40] for a, _ in ENTAILMENT])
def test_entailment_answers(answer, expected):
    assert first_or_last_label(answer, {k.value: v for k, v in label_words("entailment", "en").items()}) == expected


@pytest.mark.parametrize("answer, yes_no, negation, expected", OPTIONS, ids=[repr(o[0])[:40] for o in OPTIONS])
def test_the_options(answer, yes_no, negation, expected):
    words = {k.value: v for k, v in label_words("entailment", "en", yes_no).items()}
    assert first_or_last_label(answer, words, negation) == expected


def test_a_punctuation_mark_ends_a_negation_s_reach():
    words = {k.value: v for k, v in label_words("detection", "tr").items()}
    # "yok" (there is not) ends a clause; the comma separates it from the verdict "hayır" (no)
    assert first_or_last_label("Bu cümlede deyim yok, hayır", words, negation=True) == "no"
    assert first_or_last_label("Bu cümlede deyim yok hayır", words, negation=True) is None


def test_table_is_large_enough():
    assert len(DETECTION) + len(DETECTION_TR) + len(ENTAILMENT) + len(OPTIONS) >= 30


# figeval's reader (layer 2), rule by rule; each expected value derived by hand in the comment, with adversarial
# negatives (answers a rule could be tempted by that must stay unread or be read the other way).
from figeval.benchmarks.turkish_idioms.readers import read_label  # noqa: E402
from figeval.scoring.readers import read_layers  # noqa: E402
from figeval.verdict import Undecided  # noqa: E402

UNDECIDED = "undecided"

READER = [
    # Turkish bound verb negation (-ma-/-me- + tense): the clause-final verb decides the clause.
    # "does not contain an idiom used figuratively" (aorist -mez) -> no
    ("detection", "Bu cümle mecaz anlamda kullanılmış bir deyim içermez.", "no"),
    # variants not in the corpus: present -mıyor, "barındırmıyor", formal "bulunmamaktadır" -> no
    ("detection", "Cümle, mecazi anlamda kullanılmış bir deyim barındırmıyor.", "no"),
    ("detection", "Bu cümlede mecaz anlamda kullanılan bir deyim bulunmamaktadır.", "no"),
    ("detection", "İçermez.", "no"),  # the question's verb negated, alone -> no
    # adversarial: the positive verb -> yes; a denial of a LITERAL-use idiom says nothing of figurative use;
    # a double negation ("içermediği söylenemez": it cannot be said it does not contain) -> unread
    ("detection", "Bu cümle mecaz anlamda kullanılmış bir deyim içeriyor.", "yes"),
    ("detection", "Bu cümle gerçek anlamda kullanılmış bir deyim içermez.", None),
    ("detection", "Bu cümlede mecaz anlamda kullanılmış bir deyim içermediği söylenemez.", None),
    # "it is clear it is not used literally" (kullanıl-ma-dığı) = figurative -> yes; likewise -mıyor, "değil"
    ("detection", "İfadenin gerçek anlamda kullanılmadığı açıktır.", "yes"),
    ("detection", "Deyim burada gerçek anlamda kullanılmıyor.", "yes"),
    ("detection", "Deyim burada gerçek anlamda kullanılmış değil.", "yes"),
    ("detection", "Deyim mecaz anlamda kullanılmamıştır.", "no"),  # not used figuratively -> no
    # adversarial: the verbal noun -ması is no negation ("its being used figuratively is clear") -> yes;
    # positive literal use -> no; negated twice ("kullanılmadığı söylenemez") -> unread
    ("detection", "Deyimin mecaz anlamda kullanılması açıktır.", "yes"),
    ("detection", "Deyim gerçek anlamda kullanılmıştır.", "no"),
    # (round 3: a denied saying over the negated verb is read, see below: "it cannot be said it is not used
    # literally" = used literally -> no)
    ("detection", "Deyimin gerçek anlamda kullanılmadığı söylenemez.", "no"),
    # A lean before the label is the answer: "Muhtemelen evet" (probably yes) -> yes; variants -> the label
    ("detection", 'Muhtemelen evet. "Etekleri zil çalmak" sevinmek anlamında kullanılır.', "yes"),
    ("detection", "Büyük ihtimalle hayır, deyim gerçek anlamda.", "no"),
    ("detection", "Probably no.", "no"),
    ("entailment", "Sanırım gerektirme.", "entailment"),
    # adversarial: "belki" (maybe) is no lean -> unread; a hedge over both labels -> undecided
    ("detection", "Belki evet.", None),
    ("detection", "Emin değilim, belki evet belki hayır.", UNDECIDED),
    # Yes/no of other languages, by language (Persian «بله» to the English prompt) when set off -> the label
    ("detection", "بله.\n\nعبارت «kafa patlatmak» در این جمله به معنای مجازی به کار رفته است.", "yes"),
    ("detection", "بله، این یک اصطلاح است.", "yes"),
    ("detection", "نه.", "no"),
    ("detection", "لا", "no"),
    # adversarial: «نه تنها ...» (not only ...) opens a clause, it is no "no" -> unread
    ("detection", "نه تنها این جمله بلکه همه جملات اصطلاح دارند.", None),
    # Entailment labels of Persian, with Persian negation ("no contradiction" = entailment in a two-label task)
    ("entailment", "پاسخ: تناقض\n\nاین دو جمله با هم در تضادند.", "contradiction"),
    ("entailment", "پاسخ: استلزام", "entailment"),
    ("entailment", "این دو جمله هیچ تناقضی ندارند.", "entailment"),  # «هیچ ... ندارند»: none -> entailment
    ("entailment", "تناقضی وجود ندارد.", "entailment"),  # "there is no contradiction" -> entailment
    ("entailment", "جمله دوم مستلزم جمله اول نیست.", "contradiction"),  # "does not entail" -> contradiction
    # "incompatible"/"inconsistent" say contradiction, so negated they say entailment (a double negative)
    ("entailment", "The hypothesis isn't incompatible with the premise at all: it simply restates it.", "entailment"),
    ("entailment", "The two sentences are not inconsistent.", "entailment"),
    # adversarial: the plain negative-prefixed words -> contradiction
    ("entailment", "The hypothesis is incompatible with the premise.", "contradiction"),
    ("entailment", "The hypothesis is inconsistent with the premise.", "contradiction"),
    # A later explicit revision replaces the earlier answer ("Wait, I made a mistake ... Contradiction")
    ("entailment", "Entailment\n\nWait, I made a mistake. The correct label is:\n\nContradiction", "contradiction"),
    ("entailment", "Entailment.\n\nAslında hayır, bu bir çelişki.", "contradiction"),
    ("detection", "Yes.\n\nWait, let me re-read. It is used literally here. So the answer is no.", "no"),
    # adversarial: a revision that states no label leaves the first answer; one that retracts into a hedge
    # leaves none
    ("detection", "Yes.\n\nActually, kulak vermek means to listen.", "yes"),
    ("entailment", "Contradiction.\n\nWait, I'm not sure anymore.", UNDECIDED),
    # A refusal states no label: "not confident enough to say whether ... a contradiction" -> undecided
    ("entailment", "I'm not confident enough to say whether this pair is a contradiction.", UNDECIDED),
    ("entailment", "I am not confident this is a contradiction.", UNDECIDED),
    # adversarial: a lean beside the refusal is the answer -> contradiction
    ("entailment", "I am not confident about the idiom, but this is a contradiction.", "contradiction"),
    # A supposition inside a sentence ("...: if X, Y would ...") states no label -> undecided
    ("entailment", "3. Comparison: if the manager overlooked the mistakes, reporting them would seem to point to "
                   "a contradiction.", UNDECIDED),
    ("entailment", "Bu durumda, eğer deyim gerçek anlamda okunursa çelişki olur.", UNDECIDED),
    # adversarial: a label stated before the supposition, and "even if", are answers -> contradiction
    ("entailment", "Contradiction: if he had listened, he would not have ignored the advice.", "contradiction"),
    ("entailment", "It is a contradiction even if he would deny it.", "contradiction"),
    ("entailment", "Bu bir çelişki, eğer deyim mecaz anlamda okunursa.", "contradiction"),
    # --- round 3 ---
    # A probability on a label: over half leans to it, under half away (in a two-label task to the other), exactly
    # half is no lean. "Figurative use: 95% likely" -> yes; variants: literal 80% -> no; Turkish "%90" before the
    # number -> yes, "%9" on figurative -> no; yes 30% / no 70% -> no (both sentences say no)
    ("detection", "Figurative use: 95% likely.\n\nNobody has four eyes.", "yes"),
    ("detection", "Literal use: 80%.", "no"),
    ("detection", "Mecaz kullanım: %90", "yes"),
    ("detection", "Mecaz kullanım: %9", "no"),
    ("detection", "Yes: 30%\nNo: 70%", "no"),
    ("entailment", "Entailment: 92%\nContradiction: 8%", "entailment"),  # 92 on E, 8 on C: both say E
    ("entailment", "Entailment: 40%, Contradiction: 60%", "contradiction"),  # variant, one line, the other way
    # adversarial: 50% is no lean -> undecided (the paper's first word must not read it); an incoherent
    # distribution (70% and 70%) states two labels -> undecided; "95% unlikely" is no pair -> unread; a
    # percentage on no label ("Confidence: 95%") -> unread
    ("detection", "Figurative: 50%.", UNDECIDED),
    ("entailment", "Entailment: 50%, Contradiction: 50%", UNDECIDED),
    ("entailment", "Entailment: 70%\nContradiction: 70%", UNDECIDED),
    ("detection", "Figurative use: 95% unlikely.", None),
    ("detection", "Confidence: 95%.", None),
    # The use named alone, or after an adverb or a lean and set off ("Obviously figurative:") -> yes; "Clearly
    # literal —" -> no; "Not figurative." -> no; "Not literal!" -> yes; Turkish "Mecazi." -> yes
    ("detection", "Oh yes, because bosses literally breathe fire through their noses in meetings. 😏 Obviously "
                  "figurative: burnundan solumak means he was fuming.", "yes"),
    ("detection", "Clearly literal — the woodcutter fells a real pine.", "no"),
    ("detection", "Not figurative.", "no"),
    ("detection", "Not literal!", "yes"),
    ("detection", "Mecazi.", "yes"),
    # adversarial: a bare word before a colon is a heading ("Literally: ...", "Idiomatic meaning: ..."), a noun
    # after it makes it no verdict, a question offers both -> unread
    ("detection", 'Literally: "to wait with four eyes".', None),
    ("detection", "Idiomatic meaning: to lose one's value.", None),
    ("detection", "Figurative language is common in Turkish.", None),
    ("detection", "Figurative or literal?", None),
    # Linguistics' readings: "receives its compositional reading" = literal -> no; "the non-compositional,
    # idiomatic sense is not licensed" -> no; variants: "gets its idiomatic sense" -> yes, "the literal reading is
    # not intended" -> yes, "receives its non-compositional reading" -> yes (the prefix negates)
    ("detection", "The VP çam devirmek receives its compositional reading here. The non-compositional, idiomatic "
                  "sense (\"to commit a gaffe\") is not licensed by the context.", "no"),
    ("detection", "The phrase gets its idiomatic sense in this context.", "yes"),
    ("detection", "The literal reading is not intended here.", "yes"),
    ("detection", "The VP receives its non-compositional reading here.", "yes"),
    # adversarial: the verb negated, or asked -> unread
    ("detection", "The VP does not receive its compositional reading here.", None),
    ("detection", "Does the VP receive its compositional reading?", None),
    # True/False as a sentence of its own: "True." -> yes; "False." -> no; "Not untrue." (double negative) -> yes;
    # "Doğru." -> yes
    ("detection", "True. \"Göz yumdu\" here means the manager overlooked the mistakes.", "yes"),
    ("detection", "False.", "no"),
    ("detection", "Not untrue.", "yes"),
    ("detection", "Doğru.", "yes"),
    # adversarial: "not true" -> no; "true" inside a sentence -> unread
    ("detection", "Not true.", "no"),
    ("detection", "It is true that idioms are common.", None),
    # A Turkish double negation: the negated use verb under a denied saying -> the use affirmed: "kullanılmadığını
    # söylemek mümkün değil" (one cannot say it is not used figuratively) -> yes; "söylenemez" -> yes
    ("detection", "Deyimin burada mecaz anlamda kullanılmadığını söylemek mümkün değil: eteklerin gerçekten zil "
                  "çalması söz konusu olamaz.", "yes"),
    ("detection", "Deyimin mecaz anlamda kullanılmadığı söylenemez.", "yes"),
    # adversarial: a single negation over a positive verb (can't say it is used) is no double negation -> unread
    ("detection", "Deyimin mecaz anlamda kullanıldığını söylemek mümkün değil.", None),
    # Azerbaijani yes/no (a table entry, read like Persian's, set off): "Bəli." -> yes; "Xeyr." -> no
    ("detection", "Bəli. Cümlədəki «burnundan solumak» ifadəsi məcazi mənada işlənib.", "yes"),
    ("detection", "Xeyr.", "no"),
    # Both answers offered, none chosen, in one language or two -> undecided (the paper's first word "Yes" would
    # read yes); "Entailment, yani (that is) çelişki" equates the labels -> undecided
    ("detection", "Yes / Hayır", UNDECIDED),
    ("detection", "Hayır / Yes", UNDECIDED),
    ("detection", "Bəli / Xeyr", UNDECIDED),
    ("entailment", "Entailment, yani çelişki.", UNDECIDED),
    ("entailment", "Entailment, i.e. contradiction", UNDECIDED),
    # adversarial: both offered in a question, then one stated -> the stated one; "yani" before a negated label
    # explains, it does not equate -> contradiction; "Yes, no doubt" is one answer -> yes
    ("detection", "Yes or no? Yes, it is figurative.", "yes"),
    ("entailment", "Çelişki, yani gerektirme değil.", "contradiction"),
    ("detection", "Yes, no doubt.", "yes"),
    # Label words by language: logic's "mutually exclusive" -> contradiction (negated -> entailment); formal
    # Turkish "tenakuz vardır" -> contradiction, "istilzam eder" -> entailment; Azerbaijani "ziddiyyət" ->
    # contradiction
    ("entailment", "The two propositions are mutually exclusive: he cannot both overlook and report them.",
     "contradiction"),
    ("entailment", "The two propositions are not mutually exclusive.", "entailment"),
    ("entailment", "Öncül ile hipotez arasında tenakuz vardır.", "contradiction"),
    ("entailment", "Öncül hipotezi istilzam eder; \"dili tutulmak\" hayretten susmak demektir.", "entailment"),
    ("entailment", "Cavab: ziddiyyət. Premisdə patron əsəbi idi.", "contradiction"),
    # adversarial: their negations read the other label: "tenakuz yoktur" / "teşkil etmez" -> entailment,
    # "istilzam etmez" -> contradiction, Azerbaijani "ziddiyyət yoxdur" / "deyil" -> entailment
    ("entailment", "Öncül ile hipotez arasında tenakuz yoktur.", "entailment"),
    ("entailment", "Bu bir tenakuz teşkil etmez.", "entailment"),
    ("entailment", "Öncül hipotezi istilzam etmez.", "contradiction"),
    ("entailment", "Burada ziddiyyət yoxdur.", "entailment"),
    ("entailment", "Bu ziddiyyət deyil.", "entailment"),
    # Logic's consequence sign: "P ⊨ H" -> entailment; "P ⊢ H" -> entailment; adversarial: "P ⊭ H" (does not
    # entail) and "P ⊨ ¬H" (entails the negation) -> contradiction
    ("entailment", "P ⊨ H (the hypothesis is the literal paraphrase of çam devirmek).", "entailment"),
    ("entailment", "P ⊢ H", "entailment"),
    ("entailment", "P ⊭ H", "contradiction"),
    ("entailment", "P ⊨ ¬H", "contradiction"),
    # A Turkish embedded question (stem-Ip stem-mAdIğ: "olup olmadığını") and a refusal ("söyleyemem": I cannot
    # say) state no label -> undecided; variant: "gerektirip gerektirmediğine karar veremiyorum" -> undecided
    ("entailment", "Bunun bir çelişki olup olmadığını kesin olarak söyleyemem.", UNDECIDED),
    ("entailment", "Öncülün hipotezi gerektirip gerektirmediğine karar veremiyorum.", UNDECIDED),
    ("detection", "Deyimin mecaz anlamda kullanılıp kullanılmadığını söyleyemem.", UNDECIDED),
    # adversarial: a label stated after the embedded question -> contradiction; the positive potential
    # ("söyleyebilirim": I can say) is no refusal -> contradiction
    ("entailment", "Çelişki olup olmadığına bakalım: çelişki var.", "contradiction"),
    ("entailment", "Bunun bir çelişki olduğunu söyleyebilirim.", "contradiction"),
]


@pytest.mark.parametrize("task, answer, expected", READER, ids=[repr(a)[:40] for _, a, _ in READER])
def test_figeval_s_reader(task, answer, expected):
    try:
        found = read_label(answer, task)
    except Undecided:
        found = UNDECIDED
    assert found == expected


def test_a_refusal_is_unread_though_its_last_word_is_a_label():
    # the paper's rule alone reads the last word "contradiction"; the reader's Undecided leaves it unread
    words = {k.value: v for k, v in label_words("entailment", "en").items()}
    answer = ("I'm sorry, but I'm not confident enough in my understanding of the Turkish idiom \"ipe un sermek\" "
              "to say whether this pair is a contradiction")
    assert first_or_last_label(answer, words) == "contradiction"
    assert read_layers(answer, lambda t: first_or_last_label(t, words),
                       lambda t: read_label(t, "entailment"))[0] is None


def test_both_answers_offered_are_unread_though_the_last_word_is_a_label():
    # to the Turkish prompt the paper's rule reads the last word "çelişki"; the reader's Undecided (two labels
    # equated by "yani", that is) leaves the answer unread
    words = {k.value: v for k, v in label_words("entailment", "tr").items()}
    answer = "Entailment, yani çelişki."
    assert first_or_last_label(answer, words) == "contradiction"
    assert read_layers(answer, lambda t: first_or_last_label(t, words),
                       lambda t: read_label(t, "entailment"))[0] is None
