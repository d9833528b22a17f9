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
    ("detection", "Deyimin gerçek anlamda kullanılmadığı söylenemez.", None),
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
    assert read_layers(answer, lambda t: first_or_last_label(t, words), lambda t: read_label(t, "entailment"))[0] is None
