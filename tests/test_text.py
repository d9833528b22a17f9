from figeval.text import expression_key, has_arabic_script, normalize_persian, turkish_lower


def test_arabic_yeh_and_kaf_become_persian():
    # "كتاب علي" written with ARABIC KAF (U+0643) and ARABIC YEH (U+064A) -> KEHEH (U+06A9), FARSI YEH (U+06CC)
    assert (normalize_persian("\u0643\u062a\u0627\u0628 \u0639\u0644\u064a")
            == "\u06a9\u062a\u0627\u0628 \u0639\u0644\u06cc")


def test_diacritics_and_tatweel_are_removed():
    # "كـتـابٌ": tatweel (U+0640) twice and a dammatan (U+064C) on the last letter
    assert normalize_persian("\u06a9\u0640\u062a\u0640\u0627\u0628\u064c") == "\u06a9\u062a\u0627\u0628"


def test_zwnj_and_whitespace_are_unified():
    # "می‌رود" with ZWNJ, with a non-breaking space, and with two spaces all read "می رود"
    assert normalize_persian("می\u200cرود") == "می رود"
    assert normalize_persian("می\u00a0رود") == "می رود"
    assert normalize_persian("  می  رود \n") == "می رود"


def test_digits_become_ascii():
    assert normalize_persian("۱۲۳ و ٤٥") == "123 و 45"


def test_expression_key_ignores_half_space_spelling_and_alef_madda():
    # FFE-HALLU's own file writes "اب" for "آب" and "می ریزد" with a space
    assert expression_key("آب از سرچشمه") == expression_key("اب از سر چشمه")
    assert expression_key("می‌ریزد") == expression_key("میریزد") == expression_key("می ریزد")
    assert expression_key("آب") != expression_key("آبی")


def test_turkish_lower_maps_dotted_and_dotless_i():
    assert turkish_lower("IRMAK") == "ırmak"
    assert turkish_lower("İSTANBUL") == "istanbul"
    assert turkish_lower("HAYIR") == "hayır"
    # Python's own lower() leaves a combining dot after İ and maps I to i: the bug this function avoids
    assert "İ".lower() != "i" and "I".lower() == "i"


def test_arabic_script_detection():
    assert has_arabic_script("دل پری از کسی داشتن")
    assert not has_arabic_script("___ ___ __ ____")
    assert not has_arabic_script("break the ice 123")
    assert not has_arabic_script("\u200c\u064b")  # a ZWNJ and a diacritic are not letters
