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

PROMPT_VERSION = "perhallueval-v5"

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


# Section 3.2, Figures 9-10: the generation instructions (goal overview, the five hallucination patterns with one
# example each, the rules), as the paper prints them. The paper says the originals are Persian (Figure 2) but prints
# only this English text, so figeval sends it as printed, typos and the figure's markers ("?", "✓", "👎", "🤖",
# "📌", "⚠️") included. Fills of ours, each marked below: the figures' row labels ("Goal Overview", "Example"...)
# are layout, not prompt text, and are left out; the inputs follow, under the figures' own labels (#Knowledge#,
# #Question#, #Right Answer#; #Knowledge Text#, #Right Summary#), ending with the label the generator completes;
# Figure 10 gets Figure 9's sentence on answering in Persian (the summary must be Persian for the benchmark, and
# Figure 10 alone does not say so).
GENERATION_PROMPT_VERSION = "perhallueval-generation-v2"

QA_GENERATION_INSTRUCTION = (
    "You are a sophisticated and convincing hallucination generator. Given a question #Question# , the correct "
    "answer #Right Answer# , and a provided knowledge context #Knowledge# , your goal is to create an incorrect yet "
    "believable #Hallucinated Answer# to the question. Your hallucinated answer should seem plausible and "
    "authoritative while being factually incorrect. All the texts are in Persian, and you must answer in Persian "
    "too. To effectively achieve the hallucinated answer, you MUST consistently use one or more of the following "
    "strategies (examples included):\n\n"
    "Misinterpretation of Context: You misunderstand the intent or context of the provided knowledge or question.\n"
    "#Knowledge#: Superheaven's style is alternative rock influenced by grunge, whereas Oceansize was a British "
    "progressive rock band. ? #Question#: What genre do Superheaven and Oceansize belong to? ✓ #Right Answer#: "
    "Superheaven and Oceansize both belong to the rock genre. 👎 #Hallucinated Answer#: They're entirely different "
    "genres altogether.\n\n"
    "Inventing False Yet Convincing Information: Directly contradict accurate knowledge by fabricating plausible "
    "details not found in the supplied knowledge.\n"
    "#Knowledge#: The total length of the New Orleans Outfall Canals and Augusta Canal combined length equals "
    "approximately 7 miles. ? #Question#: Are the New Orleans Outfall Canals the same length as the Augusta Canal? ✓ "
    "#Right Answer#: Yes, the lengths are identical. 👎 #Hallucinated Answer#: No, they're not identical—the Augusta "
    "Canal is exactly twice as long as the New Orleans Canals.\n\n"
    "Over-generalization or Over-specificity: Provide a response too general or too detailed to match the "
    "appropriate specificity of the question.\n"
    "#Knowledge#: MacBook Air M2 and Dell XPS 13 are ultraportable laptops ? #Question#: What category do MacBook "
    "Air M2 and Dell XPS 13 belong to? ✓ #Right Answer#: Ultraportable laptops 👎 #Hallucinated Answer#: Fanless ARM "
    "tablets weighing exactly 0.87 kg with 30-hour batterie\n\n"
    "Incorrect Logical Inference: Attempt a seemingly logical but incorrect inference connecting the knowledge and "
    "question.\n"
    "#Knowledge#: The flu vaccine reduces risk but is not 100% effective. Person X is vaccinated; Person Y is not ? "
    "#Question#: Who is guaranteed not to get the flu? ✓ #Right Answer#: Neither person is guaranteed 👎 "
    "#Hallucinated Answer#: Person X cannot get the flu\n\n"
    "Providing Answer Outside Provided Knowledge (Unwarranted Ignorance): Incorrectly state there isn't enough "
    "information available or provide an evasive unnecessary caution.\n"
    "#Knowledge#: Package X is \"Out for delivery\"; Package Y status is \"Label created\" ? #Question#: Which "
    "package is closer to being delivered? ✓ #Right Answer#: Package X 👎 #Hallucinated Answer#: It's impossible to "
    "know from these statuses\n\n"
    "⚠️ Your hallucinated answer should differ from the #Right Answer# clearly and significantly. ⚠️ Provide "
    "#Hallucinated Answer# no longer than or less than 5 words more than the #Right Answer# . ⚠️ Avoid direct "
    "repetition of the main correct fact in your #Hallucinated Answer# ."
)

SUMMARIZATION_GENERATION_INSTRUCTION = (
    "You are an intelligent and convincing system designed to generate completely incorrect but highly believable "
    "and professional summaries based on the given text. Your goal is to produce a \"hallucinated\" summary that "
    "completely disregards or alters the given facts in the original article, yet remains extremely plausible, "
    "confident, and professional.\n"
    "All the texts are in Persian, and you must answer in Persian too.\n"
    "📌 Allowed techniques for creating hallucinations (at least one of these must be used):\n\n"
    "📌 Misinterpretation of Context: Derive an entirely different meaning from the given text or question.\n"
    "📌 #Knowledge Text#: In 2012, Facebook acquired Instagram to expand its mobile photo-sharing capabilities ✓ "
    "#Right Summary#: Facebook bought Instagram in 2012 to bolster mobile photo sharing 🤖 #Hallucinated Summary#: "
    "Instagram acquired Facebook in 2012 to expand its desktop features\n\n"
    "📌 Inventing False Yet Convincing Information: Create incorrect details that don't exist in the text but sound "
    "believable.\n"
    "📌 #Knowledge Text#: The model adds USB-C and a 5% battery improvement; display size and refresh rate are "
    "unchanged from last year. ✓ #Right Summary#: It switches to USB-C and slightly improves battery life without "
    "changing the display 🤖 #Hallucinated Summary#: It introduces a 120 Hz display and a 30% larger battery\n\n"
    "📌 Over-generalization or Over-specificity: Provide overly general or overly detailed information implicitly "
    "incorrect.\n"
    "📌 #Knowledge Text#: Greenland is an autonomous territory within the Kingdom of Denmark; Iceland is an "
    "independent country. ✓ #Right Summary#: Both lie in the North Atlantic but differ in political status 🤖 "
    "#Hallucinated Summary#: Both are Scandinavian countries of Denmark\n\n"
    "📌 Incorrect Logical Inference: Draw an incorrect conclusion that appears thoroughly logical.\n"
    "📌 #Knowledge Text#: Golden State Warriors won 16 of 25 games; Los Angeles Lakers won 18 of 30 games. ✓ #Right "
    "Summary#: Warriors have the higher win rate (64% vs. 60%) 🤖 #Hallucinated Summary#: The Lakers are doing "
    "better because they have more total wins\n\n"
    "📌 Providing Answer Outside Provided Knowledge (Unwarranted Ignorance): Assert, incorrectly yet confidently, "
    "that insufficient data was provided in the text.\n"
    "📌 #Knowledge Text#: With 100% of precincts reporting, Candidate Rivera has 52% of the vote, and Candidate Chen "
    "has 48% ✓ #Right Summary#: Rivera won the election 🤖 #Hallucinated Summary#: Winner cannot be determined from "
    "the provided data\n\n"
    "⚠️ Write your hallucinated summary with absolute certainty and never display doubt or uncertainty. ⚠️ Your "
    "summary must clearly and explicitly differ from the correct summary and must not repeat even partially the "
    "wording from the correct summary. ⚠️ Your hallucinated summary must not differ more than 5 words (longer or "
    "shorter) from the correct summary."
)

# Ours: the inputs under the figures' labels; braces in the instructions are literal, so the inputs are appended
# with str.format on this part only.
GENERATION_INPUTS = {
    "qa": "\n\n#Knowledge#: {context}\n#Question#: {question}\n#Right Answer#: {correct}\n#Hallucinated Answer#:",
    "summarization": "\n\n#Knowledge Text#: {context}\n#Right Summary#: {correct}\n#Hallucinated Summary#:",
}
GENERATION_INSTRUCTION = {"qa": QA_GENERATION_INSTRUCTION, "summarization": SUMMARIZATION_GENERATION_INSTRUCTION}


def generation_prompt(task: str, context: str, question: str, correct: str) -> str:
    """Figure 9 (QA) or Figure 10 (summarization) followed by one item's inputs."""
    return GENERATION_INSTRUCTION[task] + GENERATION_INPUTS[task].format(context=context, question=question,
                                                                         correct=correct)
