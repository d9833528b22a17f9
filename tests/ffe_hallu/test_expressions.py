"""FFE-HALLU's expression readers (Tasks 1 and 3), rule by rule: each rule's family of answers, variants not in the
corpus (other words, other order), and adversarial negatives the rule could be tempted by. Expected values are
derived by hand in the comments."""

import pytest

from figeval.benchmarks.ffe_hallu.expressions import bare_expression, chosen_equivalent, generated_expression

E = "یخ جلسه را شکستن"  # break the ice (an idiom's dictionary form: ends in an infinitive)
F = "مثل آب خوردن"  # a piece of cake
P = "آب از سرچشمه گل‌آلود است"  # a proverb whose own verb is «است»
LIST = f"1. {F}\n2. {E}\n3. {P}"

CASES = [
    # --- a structured answer's own fields (JSON, strict or loose) -------------------------------------------------
    # the choice field decides whatever the list holds: E
    (f'{{"equivalents": ["{F}", "{E}"], "final_choice": "{E}"}}', E),
    # single quotes, a comment, a trailing comma and a capitalised key: still the Final_Choice value, F
    (f"{{'Equivalents': ['{E}', '{F}'],  // two\n'Final_Choice': '{F}',}}", F),
    (f'{{"Final Choice": "{E}"}}', E),  # "Final Choice" is final_choice as a person reads a key
    (f'[{{"Idiom": "{E}", "Meaning": "کار را شروع کردن"}}]', E),  # one object: its idiom, not its Persian gloss
    (f'{{"proverb": "{P}"}}', P),
    # adversarial: a list of two and no choice field; a choice field in English only
    (f'[{{"idiom": "{E}"}}, {{"idiom": "{F}"}}]', None),
    (f'{{"equivalents": ["{E}", "{F}"], "final_choice": "none of them"}}', None),
    # --- item marks and a legend -----------------------------------------------------------------------------------
    (f"- {F}\n- {E} ← مناسب‌ترین\n- {P}", E),  # the arrow and «most suitable» mark item 2: E
    (f"- {F} ← بهترین\n- {E}", F),  # «best» on the first: F
    (f"1. {F}\n2. {E} (my choice)", E),
    (f"#: 1 ; Persian equivalent: {F} ; Final: ✔\n#: 2 ; Persian equivalent: {E}", F),  # a table's Final column
    (f"* {F}\n* {E} ⭐\n\n⭐ = my final choice", E),  # the legend defines the star: E
    (f"* {F} ★\n* {E}\n\n★: best", F),
    # adversarial: stars with no legend are decoration; two marked items choose nothing
    (f"* {F} ⭐\n* {E} ⭐", None),
    (f"- {F} ✔\n- {E} ✔", None),
    # --- numbers and ordinals that name an item ------------------------------------------------------------------
    (f"{LIST}\n\nFinal answer: #3, because it keeps the image.", P),  # "#3" and a reason: item 3
    (f"{LIST}\n\nFinal choice: option 2 since it is closest", E),
    ("۱. " + F + "\n۲. " + E + "\n\nانتخاب نهایی من گزینهٔ ۲ است.", E),  # Persian digits and copula: item 2
    (f"{LIST}\n\nThe most natural is the second: people say it.", E),
    (f"{LIST}\n\nThe best one would be the first.", F),
    # adversarial: an ordinal of a word or a part names no item; "2 of them fit" is no number choice
    (f"{LIST}\n\nThe most important is the second word of each.", None),
    (f"{LIST}\n\nFinal answer: 2 of them fit equally.", None),
    # --- a later revision replaces, a withdrawal takes back -------------------------------------------------------
    (f"Idiom: {F}\n\nActually, a better fit is: {E}", E),
    (f"{F}\nنه، اصطلاح دقیق‌تر این است: {E}", E),  # «نه، ...» withdraws line 1; the frame before ":" is cut
    (f"Correction: {E}\n(I first wrote {F})", E),
    ("۱. " + F + "\n۲. " + E + "\n\nانتخاب نهایی: گزینهٔ ۱\n\nاصلاح: گزینهٔ ۲ دقیق‌تر است. پس انتخاب "
                               "نهایی من گزینهٔ ۲ است.", E),
    (f"The idiom is «{F}».\n\nWait, no — that is about ease, not speed. I'm not aware of a fixed Persian idiom.", None),
    (f"«{F}»\n\nScratch that.", None),
    # adversarial: "Actually" that revises nothing keeps the answer; «نه» opening an expression is no withdrawal
    (f"«{E}». Actually, it is used a lot at parties.", E),
    ("نه سیخ بسوزد نه کباب", "نه سیخ بسوزد نه کباب"),
    # --- a mention is not an assertion ------------------------------------------------------------------------------
    (f"Whether «{E}» is what you are looking for is hard to say.", None),
    (f"I can't tell whether «{E}» fits, but «{F}» does.", F),  # the embedded question ends at ", but"
    (f"نمی‌دانم آیا «{E}» درست است یا نه.", None),
    (f"I considered «{E}», but I'd rather not give you an expression I can't vouch for.", None),
    (f"«{E}» might work, but I cannot vouch for it.", None),
    # adversarial: a refusal before the answer, or one that leans, keeps the answer
    (f"There is no exact Persian idiom and I'd rather not guess wildly; the closest is «{E}».", E),
    (f"«{E}»\nI'm not aware of any closer Persian idiom.", E),
    (f"«{E}»\n\nمعادل دیگری سراغ ندارم.", E),
    # --- the prompt echoed -----------------------------------------------------------------------------------------
    ("Just output the closest equivalents and in the end specify your final choice.\nEnglish_FFE: Break the ice\n"
     f"1. {E}\n2. {F}", None),  # the echo's "final choice" chooses nothing: two items, none chosen
    ("Your task is to return a Persian idiom or proverb that is the closest equivalent to this English idiom or "
     f"proverb.\n{E}", E),
    # --- hedges and negation by scope -------------------------------------------------------------------------------
    (f"مطمئن نیستم، ولی فکر می‌کنم «{E}» مناسب باشد.", E),  # hedge clause, then the lean
    (f"I'm not sure, but «{E}» is my best guess.", E),
    (f"«{F}», although «{E}» is also used.", F),  # adversarial: "X, although Y" still names X
    (f"{LIST}\n\nانتخاب نهایی من «{F}» نیست، چون فقط یعنی «آسان»؛ بلکه «{E}» است.", E),
    (f"My final choice is not «{F}» but «{E}».", E),
    (f"My final choice is «{E}», not «{F}».", E),  # "not «F»" negates F: E remains
    (f"«{E}» is not literal, but it conveys the meaning.", E),  # adversarial: "but" with no Persian keeps E
    # --- Persian frames around an unquoted expression ------------------------------------------------------------
    (f"برای این معنا می‌توان گفت: {E}.", E),
    (f"اصطلاح مناسب این معنا {E} است.", E),  # the copula after an infinitive closes the frame
    (f"ضرب‌المثل مناسب {P}.", P),  # no copula: the proverb's own «است» is kept
    (f"ضرب‌المثل مناسب این معنا {P}", P),  # adversarial: «است» after no infinitive belongs to the proverb
    # adversarial: «مثل» opens the expression, it is no frame, so the Persian after ":" is not taken for the answer;
    # a colon after words that are no frame may close a lead-in or open a gloss: two spans, unread
    (f"{F}: خیلی آسان", None),
    (f"به نظر من بهترین اصطلاح برای این مفهوم: {E}", E),  # «بهترین» marks it; the frame before ":" is cut
    (f"اصطلاح مناسب {E}", E),  # a label and a modifier: the frame, no copula needed
    # --- glosses and punctuation ------------------------------------------------------------------------------------
    (f"{E}؛ یعنی کسی که سکوت را می‌شکند.", E),
    (f"{E}، به معنای شروع گفت‌وگو", E),
    ("«دستم به دامنت!»", "دستم به دامنت"),
    ("«مگه پول پارو می‌کنم؟»", "مگه پول پارو می‌کنم؟"),  # a question mark may be the expression's own
    # --- a slash: one couplet or two alternatives ---------------------------------------------------------------------
    ("تو نیکی می‌کن و در دجله انداز / که ایزد در بیابانت دهد باز",
     "تو نیکی می‌کن و در دجله انداز / که ایزد در بیابانت دهد باز"),
    ("چو فردا شود فکر فردا کنیم / تا امروز را دریابیم", "چو فردا شود فکر فردا کنیم / تا امروز را دریابیم"),
    ("پاپیچ کسی شدن / به پر و پای کسی پیچیدن", None),
    (f"Final choice: {E} (informal) / {F} (formal)", None),
    (f"{E} / yakh-e jalase ra shekastan", E),  # a transliteration after the slash
    # --- other languages' final-choice markers and a choice in Latin letters --------------------------------------
    (f"أقرب المعادلات:\n1. {F} (سهل)\n2. {E}\n\nالاختيار النهائي: {E}", E),
    (f"1. {F}\n2. {E}\n\nNihai seçim: {F}", F),
    ("1. پول که علف خرس نیست (pool ke alaf-e khers nist)\n2. مگه پول پارو می‌کنم؟ (mage pool paaroo mikonam?)\n\n"
     "Final choice: pool ke alaf-e khers nist", "پول که علف خرس نیست"),
    # adversarial: a Latin choice that is no item's transliteration
    ("1. پول که علف خرس نیست (pool ke alaf-e khers nist)\n2. مگه پول پارو می‌کنم؟ (mage pool paaroo mikonam?)\n\n"
     "Final choice: money doesn't grow on trees", None),
    # --- round 3: a JSON answer's expression fields all count -------------------------------------------------------
    (f'{{"Idiom": "{E}", "Proverb": "{P}"}}', None),  # two slots filled, two expressions, neither chosen
    (f'{{"Idiom": "{E}", "Persian_Idiom": "{E}"}}', E),  # adversarial: the same one twice is one answer
    (f'{{"Idiom": "{E}", "Proverb": "{P}", "Final_Choice": "{P}"}}', P),  # adversarial: the choice field decides
    # --- round 3: a pointer back to a mark (a legend given by pointing) ---------------------------------------------
    (f"1. {F} (*)\n2. {E}\n\nMy choice is the one marked with (*) above.", F),  # "(*)" marks item 1: F
    (f"1. {F}\n2. {E} †\n\nFinal answer: the item marked with † above.", E),  # another mark, another item: E
    (f"1. {F}\n2. **{E}**\n\nFinal choice: the one in bold above.", E),  # bold is the mark: item 2, E
    (f"- **{F}**\n- {E}\n\nI pick the option in bold.", F),
    # adversarial: bold without a pointer is emphasis; two bold items or no marked item choose nothing
    (f"1. **{F}**\n2. {E}", None),
    (f"1. **{F}**\n2. **{E}**\n\nFinal choice: the one in bold above.", None),
    (f"1. {F}\n2. {E}\n\nMy choice is the one marked with (*) above.", None),
    # --- round 3: «نیست» closing the clause negates every expression in it ----------------------------------------
    (f"پاسخ دقیق این معنا «{E}» یا «{F}» نیست، چون هر دو چیز دیگری می‌گویند؛ اصطلاح دقیق‌تری هم به ذهنم نمی‌رسد.", None),
    (f"«{E}» و «{F}» هیچ‌کدام معادل دقیق نیستند.", None),  # the plural verb: both negated
    # adversarial: a clause mark ends the negation's scope: the other clause's expression is offered
    (f"«{E}» درست نیست، «{F}» درست است.", F),
    (f"«{E}» مناسب است؛ «{F}» نیست.", E),
    # --- round 3: Arabic is not Persian ----------------------------------------------------------------------------
    ("التعبير المناسب لهذا المعنى هو: «ضحك على ذقنه»، أي خدعه.", None),  # «على»: an Arabic word, no Persian one
    ("«رجع إلى نقطة الصفر»", None),  # «إلى»
    ("«ليس كل ما يلمع ذهبا»", None),  # «ليس»
    # adversarial: Persian typed with Arabic letters (ك ي) has Persian words («را», «با»); «علی» is a Persian name
    ("سايه كسي را با تير زدن", "سايه كسي را با تير زدن"),
    ("«علی ماند و حوضش»", "علی ماند و حوضش"),
    # --- round 3: an expression over two lines, a line ending in «،» continued -----------------------------------
    ("سال به سال،\nدریغ از پارسال", "سال به سال، دریغ از پارسال"),
    ("Proverb:\nهر که بامش بیش،\nبرفش بیشتر", "هر که بامش بیش، برفش بیشتر"),
    # adversarial: a list item after the comma is another item; two lines with no comma are two
    (f"1. {F}،\n2. {E}", None),
    (f"{E}\n{F}", None),
    # --- round 3: two expressions right under the label, not a repeated block: two answers ----------------------------
    (f"Final choice:\n{E}\n{F}", None),
    # --- round 3: a Dari label; a dialogue that illustrates the headword ---------------------------------------------
    (f"متل: {E}\n(این متل در دری گفته میشود.)", E),
    (f"متل - {E}", E),
    (f"متل: {F}\nمتل: {E}", None),  # adversarial: two labelled answers
    (f"**{E}**\n\n— «آقا این فرش چنده؟»\n— «ده میلیون، ولی جای چونه داره.»", E),  # two turns: an example
    (f"{F}\n\n– «کار سختیه؟»\n– «نه بابا، مثل آب خوردنه.»", F),  # en dashes, another headword
    (f"— «{F}»", F),  # adversarial: one dashed quotation is an answer, not a dialogue
    (f"— «{F}»\n— «{E}»", None),  # adversarial: two dashed quotations and no headword: nothing read
    # --- round 3: a Persian sentence of preference ------------------------------------------------------------------
    (f"- {F}\n- {E}\n\nولی من خودم می‌گم همون «{E}» بهتره دیگه", E),  # «X بهتره»: the comparative prefers E
    (f"۱. {F}\n۲. {E}\n\nبه نظرم «{F}» مناسب‌تر است.", F),
    (f"1. {F}\n2. {E}\n\n«{E}» دقیق‌تره.", E),
    # adversarial: put against another, conditional, or negated: no preference
    (f"- {F}\n- {E}\n\nنمی‌دونم «{F}» بهتره یا «{E}».", None),
    (f"- {F}\n- {E}\n\nاگه رسمی باشه «{F}» بهتره، اگه خودمونی «{E}».", None),
    (f"- {F}\n- {E}\n\n«{F}» بهتر نیست.", None),
]


@pytest.mark.parametrize("answer, expected", CASES, ids=[repr(a)[:50] for a, _ in CASES])
def test_expression_read_by_principle(answer, expected):
    assert generated_expression(answer) == expected
    assert chosen_equivalent(answer) == expected


@pytest.mark.parametrize("answer, expected", [
    (E, E),  # the expression alone: the paper's form
    (f"{E}.", E),
    (f"اصطلاح مناسب این معنا {E} است.", None),  # a frame around it: not the expression alone (the reader reads it)
    (f"{E}؛ یعنی کسی که سکوت را می‌شکند.", None),  # a gloss
    ("مطمئن نیستم", None),  # a hedge, no expression: figeval's reader reads none in it either
])
def test_paper_form_is_the_expression_alone(answer, expected):
    assert bare_expression(answer) == expected


def test_no_expression_of_the_benchmark_is_cut_by_a_rule(shared_ffe_hallu):
    """Adversarial negatives of every rule above on the 400 published expressions: alone, quoted after a final-choice
    marker and marked in a list, each is read as itself (a final period aside) or, where its own words look like a
    frame (a dialogue proverb «به خسیس گفتند: ... گفت: ...»), left unread; never read as a part of itself. Its own
    «، ولی» (contrast proverbs), «یا ... یا», «نه ... نه», «که» and «است» stay in it."""
    from figeval.benchmarks.ffe_hallu.dataset import load_authentic, load_fake
    from figeval.text import expression_key

    items = load_authentic(shared_ffe_hallu / "Authentic FFEs.csv") + load_fake(shared_ffe_hallu / "Fake FFEs.csv")
    misread, unread = [], []
    for item in items:
        x = item.expression
        for answer in (x, f"Final choice: «{x}»", f"1. {x} ✓\n2. {E}", f"Idiom: {x}\n\nThis means ..."):
            found = generated_expression(answer)
            if found is None:
                unread.append(x)
            elif expression_key(found).rstrip(".!") != expression_key(x).rstrip(".!"):
                misread.append((answer, found))
    assert misread == []
    assert len(set(unread)) <= 1  # the dialogue proverb with two colons
