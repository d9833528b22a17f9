"""Fresh fake FFEs (Section 3.4, Appendix B 2.1): the inversion rules, the one-word rule, the authenticity checks,
the fake prompts, and what the fakes commands refuse in one line."""

from pathlib import Path

import pytest

from figeval.benchmarks.ffe_hallu.dataset import load_authentic, load_fake
from figeval.benchmarks.ffe_hallu.fakes import (
    CULTURAL,
    MIMICRY,
    SEMANTIC_INVERSION,
    WORD_PERTURBATION,
    Candidate,
    Known,
    LengthRange,
    check_candidates,
    invert,
    one_word_change,
)


# Real proverb and idiom shapes, each inversion checked by hand. None: no rule applies (a model's job).
INVERSIONS = [
    # Appendix B 2.1 2, the paper's own example
    ("دشمن دانا به از دوست نادان", "دوست نادان به از دشمن دانا", "به از"),
    ("جنگ اول به از صلح آخر", "صلح آخر به از جنگ اول", "به از"),
    ("کاچی به از هیچی", "هیچی به از کاچی", "به از"),
    ("سیلی نقد به از حلوای نسیه", "حلوای نسیه به از سیلی نقد", "به از"),
    ("دیر رسیدن بهتر از هرگز نرسیدن است", "هرگز نرسیدن بهتر از دیر رسیدن است", "بهتر از"),  # the copula stays last
    ("همسایه نزدیک بهتر از برادر دور است.", "برادر دور بهتر از همسایه نزدیک است.", "بهتر از"),
    ("از چاله به چاه افتادن", "از چاه به چاله افتادن", "از ... به"),  # authentic row 139
    ("از این ستون به آن ستون فرج است", "از آن ستون به این ستون فرج است", "از ... به"),
    ("بار کج به منزل نمی‌رسد", "بار کج به منزل می‌رسد", "negated"),
    ("ماه پشت ابر نمی ماند", "ماه پشت ابر می ماند", "negated"),  # "نمی" written with a space
    ("آرزو بر جوانان عیب نیست", "آرزو بر جوانان عیب است", "negated"),
    ("مرغ همسایه غاز است", "مرغ همسایه غاز نیست", "negated"),
    ("اگر توی سر سگ بزنی می ریزد", "اگر توی سر سگ بزنی نمی ریزد", "negated"),  # authentic row 7
    ("از تو به یک اشاره، از ما به سر دویدن", None, None),  # two from-to pairs: which one swaps is unclear
    ("نازک تر از گل به کسی نگفتن", None, None),  # a comparison "تر از", not "از ... به"
    ("چیزی نه به دار است نه به بار", None, None),  # authentic row 3: "نه ... نه", no rule
    ("پا پس کشیدن", None, None),  # an infinitive: negating it may give a real idiom ("پا پس نکشیدن")
    ("هر که بامش بیش برفش بیشتر", None, None),
    ("میوه‌ی باغ همسایه", None, None),  # "میوه" is a noun, not a verb in "می"
    ("در دیزی باز است حیای گربه کجا رفته است", None, None),  # a question: a negated verb does not flip it
]


@pytest.mark.parametrize(("proverb", "expected", "rule"), INVERSIONS)
def test_rule_based_inversion_of_real_proverb_shapes(proverb, expected, rule):
    inversion = invert(proverb)
    if expected is None:
        assert inversion is None
    else:
        assert inversion is not None and inversion.text == expected and rule in inversion.rule


@pytest.mark.parametrize(("source", "candidate", "ok", "described"), [
    ("ماه پشت ابر نمی ماند", "خورشید پشت ابر نمی ماند", True, "ماه -> خورشید"),  # Appendix B 2.1 1
    ("ماه پشت ابر نمیماند", "خورشید پشت ابر نمی‌ماند", True, "ماه -> خورشید"),  # spacing of "نمی" is no change
    ("مثل خر در گل ماندن", "مثل خرگوش در گل ماندن", True, "خر -> خرگوش"),
    ("ماه پشت ابر نمی ماند", "ماه پشت ابر نمی ماند", False, "no word changed"),
    ("ماه پشت ابر نمی ماند", "خورشید پشت کوه نمی ماند", False, "ماه -> خورشید; ابر -> کوه"),
    ("سرش بوی قرمه‌سبزی می‌دهد", "سرش بوی قیمه قرمه می‌دهد", False, "قرمه‌سبزی -> قیمه قرمه"),  # one for two
    ("با یک تیر دو نشان زدن", "با یک تیر دو نشان", False, "زدن -> (nothing)"),  # a word dropped
])
def test_word_perturbation_changes_exactly_one_word(source, candidate, ok, described):
    assert one_word_change(source, candidate) == (ok, described)


LENGTHS = LengthRange(1, 11, 4, 60)


def test_authenticity_checks():
    authentic = [Known.of("اب از سرچشمه گل الود بودن", "authentic row 13"),
                 Known.of("کلاه سر کسی گذاشتن", "authentic row 2")]
    published = [Known.of("گربه را دم دروازه کشتن", "published fake row 1"),
                 Known.of("دوست نادان به از دشمن دانا", "published fake row 60")]
    candidates = [
        # equal to an authentic FFE once normalized (madda, ZWNJ, Arabic YEH): rejected
        Candidate("c1", MIMICRY, "آب از سرچشمه گل‌آلود بودن"),
        # one letter from an authentic FFE: not a fake, a variant
        Candidate("c2", CULTURAL, "کلاه سر کسی گذاشتند"),
        # a near-duplicate of a published fake (one letter, or the same words reordered): flagged
        Candidate("c3", MIMICRY, "گربه را دم دروازه کشتند"),
        Candidate("c4", SEMANTIC_INVERSION, "نادان دوست به از دانا دشمن", "دشمن دانا به از دوست نادان"),
        # a published fake itself, and a repeat within the build: duplicates
        Candidate("c5", CULTURAL, "گربه را دم دروازه کشتن"),
        Candidate("c6", MIMICRY, "قفل زنگ‌زده، کلید طلایی نمی‌خواهد"),
        Candidate("c7", CULTURAL, "قفل زنگ زده کلید طلایی نمیخواهد"),
        # a perturbation is near its source by design (not a failure), but must change exactly one word
        Candidate("c8", WORD_PERTURBATION, "کلاه سر کسی کاشتن", "کلاه سر کسی گذاشتن"),
        Candidate("c9", WORD_PERTURBATION, "کلاه سر کسی گذاشتن", "کلاه سر کسی گذاشتن"),
        Candidate("c10", MIMICRY, "Hello دنیا"),
        Candidate("c11", MIMICRY, ""),
        Candidate("c12", MIMICRY, "کاهہ کاوے بدون دود"),  # Urdu letters: Arabic script, not Persian
        Candidate("c13", MIMICRY, "مهرِ بی‌مهریه، دعای ۲ آمین است"),  # diacritics, half-space, Persian digits
    ]
    checks = check_candidates(candidates, authentic, published, LENGTHS)
    assert checks["c1"]["not_authentic"] == "fail: equals authentic row 13: اب از سرچشمه گل الود بودن"
    assert checks["c2"]["not_authentic"] == "pass"
    assert checks["c2"]["far_from_authentic"].startswith("fail: near authentic row 2 (1 letter(s) apart)")
    assert checks["c3"]["near_published"].startswith("flag: near published fake row 1 (1 letter(s) apart)")
    assert checks["c3"]["unique"] == "pass"
    assert checks["c4"]["near_published"].startswith("flag: near published fake row 60 (the same words in another")
    assert checks["c5"]["unique"] == "fail: equals published fake row 1: گربه را دم دروازه کشتن"
    assert checks["c6"]["unique"] == "pass" and checks["c7"]["unique"] == "fail: equals c6"
    assert checks["c8"]["far_from_authentic"] == "pass" and checks["c8"]["one_word"] == "pass"
    assert checks["c9"]["not_authentic"].startswith("fail: equals authentic row 2")
    assert checks["c9"]["one_word"] == "fail: no word changed"
    assert checks["c10"]["script"] == "fail: characters not of the Persian alphabet: Helo"
    assert checks["c11"]["script"] == "fail: no Persian expression in the model's answer"
    assert checks["c11"]["not_authentic"] == "n/a"
    assert checks["c12"]["script"] == "fail: characters not of the Persian alphabet: ہے"
    assert checks["c13"]["script"] == "pass"
    assert checks["c6"] == {"script": "pass", "not_authentic": "pass", "far_from_authentic": "pass", "one_word": "n/a",
                            "unique": "pass", "near_published": "pass", "length": "pass"}


def test_the_checks_on_the_real_lists(shared_ffe_hallu: Path):
    authentic = load_authentic(shared_ffe_hallu / "Authentic FFEs.csv")
    fakes = load_fake(shared_ffe_hallu / "Fake FFEs.csv")
    known = [Known.of(a.expression, f"authentic row {a.row}") for a in authentic]
    known += [Known.of(f.source_expression, f"source of published fake row {f.row}")
              for f in fakes if f.source_expression]
    published = [Known.of(f.expression, f"published fake row {f.row}") for f in fakes]
    candidates = [Candidate("a", MIMICRY, "آب از سرچشمه گل‌آلود بودن"),  # authentic row 13, other spelling
                  Candidate("b", SEMANTIC_INVERSION, "دوست نادان به از دشمن دانا", "دشمن دانا به از دوست نادان"),
                  Candidate("c", WORD_PERTURBATION, "مثل گربه آب کشیده", "مثل موش آب کشیده"),
                  Candidate("d", MIMICRY, "شمع خاموش از باد نمی‌ترسه")]  # published: "شمع خاموش، از باد نمی‌ترسد"
    checks = check_candidates(candidates, known, published, LengthRange.of([k.text for k in known]))
    assert checks["a"]["not_authentic"].startswith("fail: equals authentic row 13")
    assert checks["b"]["unique"].startswith("fail: equals published fake row 60")  # the paper's own example
    assert checks["c"]["one_word"] == "pass" and checks["c"]["near_published"] == "pass"
    assert checks["d"]["near_published"].startswith("flag: near published fake row 108 (1 letter(s) apart)")


def test_fake_prompts_quote_the_paper():
    """What the fake prompts put in double quotes is the paper's text (Section 3.4, Appendix B 2.1)."""
    import re

    from figeval.benchmarks.ffe_hallu import prompts
    from tests.conftest import paper_text
    from tests.ffe_hallu.test_prompts import plain

    paper = " ".join(plain(paper_text("ffe-hallu.md")).split())
    for prompt in (prompts.FAKE_PERTURBATION_PROMPT, prompts.FAKE_INVERSION_PROMPT, prompts.FAKE_MIMICRY_PROMPT,
                   prompts.FAKE_CULTURAL_PROMPT):
        quoted = re.findall(r'"([^"]+)"', prompt)
        assert quoted
        for text in quoted:
            # the paper's capitals at a sentence start may be lower case in the middle of ours
            assert text.rstrip(".") in paper or text[0].lower() + text[1:].rstrip(".") in paper, text
    assert "دشمن دانا به از دوست نادان" in prompts.FAKE_INVERSION_PROMPT  # Appendix B's own examples
    assert "خورشید پشت ابر نمی ماند" in prompts.FAKE_PERTURBATION_PROMPT


@pytest.mark.parametrize(("args", "fragments"), [
    (("build", "ffe-hallu-fakes", "--out", "{tmp}/b", "--per-category", "0"), ("--per-category must be at least 1",)),
    (("build", "ffe-hallu-fakes", "--out", "{tmp}/b", "--authentic-extra", "{tmp}/missing.csv"),
     ("missing.csv", "cannot be read")),
    (("build", "ffe-hallu-fakes-final", "--out", "{tmp}/nothing"),
     ("no build folder at", "figeval build ffe-hallu-fakes")),
    (("build", "ffe-hallu-fakes-final", "--out", "{tmp}", "{tmp}/missing.csv"), ("missing.csv", "cannot be read")),
    (("run", "ffe_detection", "-T", "fakes={tmp}/missing.csv", "-T", "controls=false"),
     ("missing.csv", "cannot be read")),
])
def test_bad_fake_inputs_are_one_line(args, fragments, ffe_hallu_imported: Path, tmp_path: Path):
    from tests.command import assert_one_line_error, figeval

    assert_one_line_error(figeval(*(arg.replace("{tmp}", str(tmp_path)) for arg in args)), *fragments)
