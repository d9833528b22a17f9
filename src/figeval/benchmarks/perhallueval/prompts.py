"""Prompts of PerHalluEval (Hosseini et al.). The benchmark's prompts are Persian; the paper prints them in
Figure 7 (the originals) and Figure 6 (their English translation). Literal braces are doubled for str.format.

Section 3.5: the evaluation prompts "are identical to those employed in the filtering step": one constant per task,
`EVALUATION_PROMPT`, serves both the evaluated models and the construction pipeline's verifier. The QA prompt gives
the question and the answer only, never the source passage (a model could otherwise string-match the answer
against it); the summarization prompt gives the article and the summary.

Fills of ours: the ZWNJ the paper's text copy lost is restored ("همه‌ی", "تحریف‌شده"); the inputs follow the
figure's own labels ("Input:", "Question:"/"Answer:", "Article:"/"Summary:"); "Output:" closes the prompt so that a
base model's next token is the verdict (logprob mode). As printed, the summarization prompt does not name the
letters Y and N; figeval keeps it so (answers are read as Y/N or their Persian words).
"""

# v3: Figure 7's prompts (the QA prompt no longer shows the passage), shared by evaluation and verifier.
PROMPT_VERSION = "perhallueval-v3"

# Figure 7, question answering (Figure 6: "You are a response validity checking system...").
QA_INSTRUCTION = (
    "شما یک سامانه صحت‌سنجی پاسخ هستید. وظیفه شما بررسی درستی یا نادرستی پاسخ ارائه شده به یک سؤال مشخص است و "
    "تنها مجازید یکی از دو حرف «Y» (برای پاسخ صحیح) یا «N» (برای پاسخ نادرست) را به عنوان خروجی نهایی بدهید. "
    "هیچ توضیح اضافه یا نتیجه‌گیری دیگری ارائه نکنید."
)

# Figure 7, summarization (Figure 6: "You are a text summary evaluation system...").
SUMMARIZATION_INSTRUCTION = (
    "شما یک سامانه ارزیابی خلاصه متن هستید. وظیفه شما مقایسه دقیق خلاصه ارائه شده با متن اصلی است و تنها به "
    "معیارهای زیر توجه کنید:\n"
    "۱- آیا همه‌ی اطلاعات موجود در خلاصه به درستی از متن اصلی استخراج شده‌اند؟\n"
    "۲- آیا در خلاصه اطلاعات نادرست، تحریف‌شده یا اضافی وجود دارد؟"
)

EVALUATION_PROMPT = {
    "qa": QA_INSTRUCTION + "\n\nInput:\nQuestion: {question}\nAnswer: {answer}\nOutput:",
    "summarization": SUMMARIZATION_INSTRUCTION + "\n\nInput:\nArticle: {context}\nSummary: {answer}\nOutput:",
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
