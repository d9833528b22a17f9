"""Prompts of PerHalluEval (Hosseini et al.). The paper's prompts are Persian (Appendix B, Figures 6-10); the
verbatim originals were not available where these were written, so the Persian text below restates them and is
versioned. Literal braces are doubled for str.format. The variable parts come last (shared prefixes).
"""

# v2: same prompts; one unparsed policy (as_wrong) for both recalls and Hamming.
PROMPT_VERSION = "perhallueval-v2"

# Section 3.5: the evaluated model judges one (question, answer) or (article, summary) pair: Y faithful, N not.
QA_PROMPT = (
    "متن، پرسش و پاسخ زیر را بخوانید. اگر پاسخ با توجه به متن درست است فقط Y و اگر نادرست یا ساختگی است "
    "فقط N بنویسید.\n\n"
    "متن: {context}\n"
    "پرسش: {question}\n"
    "پاسخ: {answer}\n"
    "داوری (Y یا N):"
)

SUMMARIZATION_PROMPT = (
    "مقاله و خلاصه‌ی زیر را بخوانید. اگر خلاصه به مقاله وفادار است و چیزی نادرست یا ساختگی ندارد فقط Y و "
    "در غیر این صورت فقط N بنویسید.\n\n"
    "مقاله: {context}\n"
    "خلاصه: {answer}\n"
    "داوری (Y یا N):"
)

# Section 3.3, Figure 7: the verifier of the construction pipeline, asked for one token.
VERIFIER_PROMPT = {
    "qa": (
        "آیا پاسخ زیر برای این پرسش با توجه به متن درست است؟ فقط با یک حرف پاسخ دهید: Y یا N.\n\n"
        "متن: {context}\nپرسش: {question}\nپاسخ: {candidate}\nپاسخ شما:"
    ),
    "summarization": (
        "آیا خلاصه‌ی زیر به این مقاله وفادار است؟ فقط با یک حرف پاسخ دهید: Y یا N.\n\n"
        "مقاله: {context}\nخلاصه: {candidate}\nپاسخ شما:"
    ),
}

# Section 3.2, Figures 9-10: pattern-instructed generation of a hallucinated version, one example per pattern.
HALLUCINATION_PATTERNS = (
    ("contextual misinterpretation", "بد فهمیدن متن: پاسخی که بخشی از متن را نادرست تعبیر می‌کند",
     "«در سال ۱۳۵۷ به پایتخت رفت» به جای «در سال ۱۳۵۷ از پایتخت رفت»"),
    ("factual fabrication", "ساختن واقعیت: افزودن نام، عدد یا رویدادی که در متن نیست",
     "«این بنا را شاه عباس دوم ساخت» وقتی متن سازنده را نام نبرده است"),
    ("specificity distortion", "تحریف جزئیات: کلی‌تر یا جزئی‌تر کردن نادرست پاسخ",
     "«در قرن هفتم» به جای «در سال ۶۵۶»"),
    ("incorrect inference", "استنتاج نادرست: نتیجه‌ای که از متن برنمی‌آید",
     "«پس او بزرگ‌ترین شاعر زمانش بود» از «او شعر بسیار سرود»"),
    ("unwarranted uncertainty", "تردید بی‌جا: مبهم کردن پاسخی که متن روشن گفته است",
     "«شاید در تبریز به دنیا آمده باشد» وقتی متن گفته است در تبریز به دنیا آمد"),
)

GENERATION_PROMPT = {
    "qa": (
        "برای پرسش زیر یک پاسخ باورپذیر اما نادرست بنویسید که با یکی از این الگوها ساخته شده باشد:\n{patterns}\n\n"
        "طول پاسخ شما حداکثر پنج کلمه با طول پاسخ درست فاصله داشته باشد ({length} کلمه). فقط پاسخ را بنویسید.\n\n"
        "متن: {context}\nپرسش: {question}\nپاسخ درست: {correct}\nپاسخ نادرست:"
    ),
    "summarization": (
        "برای مقاله‌ی زیر خلاصه‌ای باورپذیر اما نادرست بنویسید که با یکی از این الگوها ساخته شده باشد:\n{patterns}\n\n"
        "طول خلاصه‌ی شما حداکثر پنج کلمه با طول خلاصه‌ی درست فاصله داشته باشد ({length} کلمه). فقط خلاصه را بنویسید.\n\n"
        "مقاله: {context}\nخلاصه‌ی درست: {correct}\nخلاصه‌ی نادرست:"
    ),
}


def patterns_block() -> str:
    return "\n".join(f"- {name} ({description}). نمونه: {example}" for name, description, example in HALLUCINATION_PATTERNS)
