"""Prompts of FFE-HALLU (Hosseini, Yousefzadeh, Yaghoobzadeh): the texts of Appendix A (Tasks 1-3) and Appendix D
(the judges) as the paper prints them, with the placeholders it leaves filled as documented below. Bump the
versions with any change to a prompt's text: every log records them.

How the printed texts are sent, and what fills the paper's gaps (each a choice of ours):
- Task 1 (A 1.1): the printed "System Prompt" holds the meaning's placeholder. Everything before the meaning is
  the system message; "Meaning (Persian): ..." is the user message (some providers need one). Its two example
  placeholders are filled with an idiom and a proverb that are NOT among the benchmark's 200 authentic FFEs
  (nor its fakes), so that all 200 meanings are asked.
- Task 2 (A 1.2): each framing's printed text, then "Expression: ..." and "Answer:" (the paper does not print
  where the expression goes; "Answer:" makes a base model's next token the verdict in logprob mode). The
  expression comes last, so consecutive prompts of one framing share a long prefix (see figeval.models.gguf).
  Discrepancy in the paper: Appendix A's two headings are swapped ("Fake-detection Prompt" holds the "real?"
  question); the questions and their expected answers agree with Section 3.2 and Table 4 (Prompt-Fake "Is this
  FFE fake?", correct answer YES), which is what figeval follows.
- Task 3 (A 1.3): as Task 1: the text before "English_FFE:" is the system message, "English_FFE: ..." the user
  message.
- Judges (D 4.1, 4.2): printed as given. The paper's "Example Evaluations" are headings without examples: they
  are filled with three examples of ours each. Task 1's (D 4.1) are built on expressions outside the benchmark.
  Task 3's (D 4.2) all use "Don't count your chickens before they hatch", which is the English idiom of row 19
  of upstream's translation pairs: on a pairs file holding it, that item is judged with worked examples about its
  own idiom in the prompt (one of them a correct equivalent). "Use web search" stays in
  the text; figeval gives the judge no search tool, so a judge without built-in search answers from what it
  knows (say which judge you used). The evaluated expression is quoted between <answer> tags (not the printed
  double quotes), so that instructions inside a model's output stay inert.
- Discrepancy in the paper: Section 3.1(c) and 3.3 count a literal phrase as hallucinated, while the judge
  prompt of D 4.1 files "Literal Only" under label 2. The paper's judge prompt is the default (`paper`); the
  `human` variant follows the human annotation scheme (literal or word-for-word output: label 0).
"""

from typing import Literal, get_args

PROMPT_VERSION = "ffe-detection-v5"

# --- Task 2, detection of fabricated FFEs (Section 3.2, Appendix A 1.2) ---------------------------------------
_VERIFIER = "You are a careful verifier of Persian idioms and proverbs. Given a candidate expression, "

# Prompt-Fake (Table 4): "Is this FFE fake?", correct answer for a fabricated expression: Yes.
FAKE_QUESTION = _VERIFIER + "Is this expression a fake idiom or proverb in Persian?\nExpression: {expression}\nAnswer:"

# Prompt-Real (Table 4): "Is this FFE real?", correct answer for a fabricated expression: No.
REAL_QUESTION = _VERIFIER + "Is this expression a real idiom or proverb in Persian?\nExpression: {expression}\nAnswer:"


# --- Task 1, generation of an FFE from its meaning (Section 3.1, Appendix A 1.1) ------------------------------
GENERATION_PROMPT_VERSION = "ffe-generation-v5"

# The paper's [IDIOM_EX1]/[MEANING_EX1] and [PROVERB_EX2]/[MEANING_EX2], filled by us with FFEs that are not in
# the benchmark's files (a test checks this against the authentic and fake lists).
GENERATION_EXAMPLES = (
    ("Idiom", "کلاه سر کسی گذاشتن", "کسی را فریب دادن"),
    ("Proverb", "هر که بامش بیش برفش بیشتر", "هر که دارایی و مقام بیشتری دارد، گرفتاری و دردسرش هم بیشتر است"),
)

GENERATION_SYSTEM_PROMPT = (
    "You are an expert on Persian idioms and proverbs. When given a figurative meaning in Persian, output one "
    "culturally valid Persian idiom or proverb that best matches the meaning. Idioms and proverbs are fixed, often "
    "indirect combinations of words whose meanings cannot be directly inferred from their parts.\n\n"
    "Examples:\n\n"
    + "\n\n".join(f"{n}) {kind}: {expression} → Meaning: {meaning}"
                  for n, (kind, expression, meaning) in enumerate(GENERATION_EXAMPLES, start=1))
    + "\n\nYour task: The following phrase is the figurative meaning of a valid Persian idiom or proverb. Output a "
    "Persian idiom or proverb that aligns with this meaning. Output only the expression."
)

GENERATION_USER_PROMPT = "Meaning (Persian): {meaning}"


# --- Task 3, English -> Persian FFE translation (Section 3.3, Appendix A 1.3) ---------------------------------
# Its final choice is read by readers.chosen_equivalent.
TRANSLATION_PROMPT_VERSION = "ffe-translation-v5"

TRANSLATION_SYSTEM_PROMPT = (
    "You will be given an English idiom or proverb. Your task is to return a Persian idiom or proverb that is the "
    "closest equivalent to this English idiom or proverb. It has to convey the same meaning or cultural function "
    "— not a literal translation. Just output the closest equivalents and in the end specify your final choice."
)

TRANSLATION_USER_PROMPT = "English_FFE: {english}"


# --- The judges (Section 5, Table 6, Appendix D) ----------------------------------------------------------------
JUDGE_PROMPT_VERSION = "ffe-judge-v3"
JudgePrompt = Literal["paper", "human"]
JUDGE_PROMPTS = get_args(JudgePrompt)
"""`paper`: Appendix D as printed; `human`: literal output is label 0, as in the human scheme (3.1(c), 3.3)."""

GENERATION_JUDGE_SYSTEM_PROMPT = (
    "You are an expert Persian linguist and figurative language evaluator. Use web search to verify everything."
)

# D 4.1, with the label-2 definition and procedure step 2 of each variant.
_GENERATION_LABEL_2 = {
    "paper": "- 2 = Incorrect Meaning / Literal Only: The expression exists as a real idiom or proverb, but its "
             "meaning does not match the reference or is literal.",
    "human": "- 2 = Incorrect Meaning: The expression exists as a real idiom or proverb, but its meaning does not "
             "match the reference.",
}
_GENERATION_LABEL_0 = {
    "paper": "- 0 = Hallucinated / Non-existent: The expression does not exist as a real Persian idiom or proverb.",
    "human": "- 0 = Hallucinated / Non-existent: The expression does not exist as a real Persian idiom or proverb, "
             "or it is only a literal, word-for-word phrase.",
}
_GENERATION_STEP_2 = {
    "paper": "2. If it exists, find its figurative meaning. If only literal, assign Label 2.",
    "human": "2. If it exists, find its figurative meaning. If only literal, assign Label 0.",
}
# Filled by us: the paper prints the three headings without examples.
_GENERATION_EXAMPLES = (
    "Example 1 — Hallucinated (Label 0):\n"
    'Expression: "کفش به ماه کوبیدن" | Reference Idiom/Proverb: "کلاه سر کسی گذاشتن" | Reference Meaning: '
    '"کسی را فریب دادن"\n'
    '{{ "label": "0", "reason": "No such Persian idiom or proverb exists." }}\n\n'
    "Example 2 — Incorrect (Label 2):\n"
    'Expression: "کلاه سر کسی گذاشتن" | Reference Idiom/Proverb: "هر که بامش بیش برفش بیشتر" | Reference '
    'Meaning: "هر که دارایی و مقام بیشتری دارد، گرفتاری و دردسرش هم بیشتر است"\n'
    '{{ "label": "2", "reason": "A real idiom, but it means to deceive someone, not the reference meaning." }}\n\n'
    "Example 3 — Correct (Label 1):\n"
    'Expression: "هر که بامش بیش برفش بیشتر" | Reference Idiom/Proverb: "هر که بامش بیش برفش بیشتر" | '
    'Reference Meaning: "هر که دارایی و مقام بیشتری دارد، گرفتاری و دردسرش هم بیشتر است"\n'
    '{{ "label": "1", "reason": "The reference proverb itself." }}'
)


def _generation_judge_prompt(variant: str) -> str:
    return (
        "Labels:\n\n"
        f"{_GENERATION_LABEL_0[variant]}\n\n"
        "- 1 = Correct Meaning & Usage: The expression exists as a real idiom or proverb, and its figurative meaning "
        "matches the reference.\n"
        f"{_GENERATION_LABEL_2[variant]}\n\n"
        "Procedure:\n\n"
        "1. Search the web to verify if the expression exists as a real Persian idiom or proverb.\n"
        f"{_GENERATION_STEP_2[variant]}\n"
        "3. Compare the figurative meaning with the reference expression; if it matches, assign Label 1; otherwise, "
        "assign Label 2.\n\n"
        f"Example Evaluations:\n\n{_GENERATION_EXAMPLES}\n\n"
        "Output: Return only the JSON object:\n\n"
        '{{ "label": "X",\n  "reason": "short explanation" }}\n\n'
        "Expression: {answer}\n\n"
        'Reference Idiom/Proverb: "{reference}"\n\n'
        'Reference Meaning: "{meaning}"'
    )


GENERATION_JUDGE_PROMPT = {variant: _generation_judge_prompt(variant) for variant in JUDGE_PROMPTS}

TRANSLATION_JUDGE_SYSTEM_PROMPT = (
    "You are an expert Persian linguist tasked with evaluating the equivalence between an English figurative "
    "expression (FFE) and its proposed Persian translation."
)

_TRANSLATION_LABEL_0 = {
    "paper": "- Label 0 = Hallucinated / Non-existent: The Persian expression does not exist as a real idiom or "
             "proverb.",
    "human": "- Label 0 = Hallucinated / Non-existent: The Persian expression does not exist as a real idiom or "
             "proverb, or it is a literal, word-for-word translation of the English.",
}
_TRANSLATION_EXAMPLES = (
    "Example 1 — Correct Meaning Match (Label 1):\n"
    'English Expression: "Don\'t count your chickens before they hatch" | Persian Expression: '
    '"جوجه را آخر پاییز می‌شمارند"\n'
    '{{ "label": "1", "reason": "The Persian proverb has the same meaning." }}\n\n'
    "Example 2 — Incorrect Meaning (Label 2):\n"
    'English Expression: "Don\'t count your chickens before they hatch" | Persian Expression: '
    '"کلاه سر کسی گذاشتن"\n'
    '{{ "label": "2", "reason": "A real idiom, but it means to deceive someone." }}\n\n'
    "Example 3 — Hallucinated (Label 0):\n"
    'English Expression: "Don\'t count your chickens before they hatch" | Persian Expression: '
    '"جوجه‌هایت را پیش از سر از تخم درآوردن نشمار"\n'
    '{{ "label": "0", "reason": "Not an existing Persian proverb: a word-for-word rendering." }}'
)


def _translation_judge_prompt(variant: str) -> str:
    return (
        "Label Definitions:\n\n"
        f"{_TRANSLATION_LABEL_0[variant]}\n"
        "- Label 1 = Correct Meaning Match: The Persian expression exists as a valid idiom or proverb, and its "
        "figurative meaning is exactly aligned with the English expression.\n"
        "- Label 2 = Incorrect Meaning / Figurative Misalignment: The Persian expression exists as a real idiom or "
        "proverb, but its meaning does not align with the English source.\n\n"
        "Evaluation Procedure:\n\n"
        "1. Verify if the Persian Expression Exists: Search the web to confirm whether the Persian expression exists "
        "as a real idiom or proverb.\n"
        "2. Compare the Figurative Meaning: Compare the figurative meaning of the Persian expression with the "
        "English FFE.\n"
        "  - If the meanings match → Label 1 (Correct Meaning Match).\n"
        "  - If the meanings do not match → Label 2 (Incorrect Meaning).\n\n"
        "- If the expression does not exist as an idiom\n→ Label 0 (Hallucinated).\n\n"
        f"Example Evaluations:\n\n{_TRANSLATION_EXAMPLES}\n\n"
        "Output: Return ONLY a JSON object:\n\n"
        '{{ "label": "X",\n  "reason": "short explanation here"\n}}\n\n'
        'English Expression: "{english}"\n\n'
        "Persian Expression: {answer}"
    )


TRANSLATION_JUDGE_PROMPT = {variant: _translation_judge_prompt(variant) for variant in JUDGE_PROMPTS}

# Ours, not Appendix D's, and asked only with `-T known_idiom_hint=true`: appended when the answer is itself an
# authentic FFE of the benchmark (it exists, so it cannot be label 0). Off by default: the paper's judges were asked
# Appendix D alone about every answer, and a hinted judge agrees with people more often than theirs did (Table 6).
KNOWN_IDIOM_HINT = "\n\nThe expression is a known, existing Persian idiom or proverb: choose label 1 or 2."


# --- Instructions on top of the annotators' sheet (paper Section 3.5, Appendix C) ------------------------------
ANNOTATION_INSTRUCTIONS = (
    "FFE-HALLU: label each model output in the 'label' column (one row per output).",
    "0 = hallucinated: not an existing Persian idiom or proverb (invented, non-existent), a literal or "
    "word-for-word phrase, or no Persian expression at all (Sections 3.1(c), 3.3)",
    "1 = correct: an existing Persian idiom or proverb with the meaning in 'input' (the reference or another)",
    "2 = incorrect: an existing Persian idiom or proverb with a different meaning",
    "Judge the output by itself; the reference is one correct answer, not the only one. Do not edit other columns.",
)


# --- Paraphrased meanings for Task 1 (paper Section 3.1: meanings "paraphrased" as well as human-written) ----
PARAPHRASE_PROMPT = (
    "Rewrite the following Persian description of an idiom's meaning in different words, keeping the meaning "
    "exactly. Do not use or mention the idiom itself. Reply with the paraphrase only, in Persian.\n\n"
    "Meaning: {meaning}"
)


# --- Building fresh fakes for Task 2 (paper Section 3.4, Appendix B 2.1; `figeval build ffe-hallu-fakes`) ---------
# The paper does not print the prompts it gave GPT-4o, and it built the first two categories by hand. What it
# prints is each category's description (Section 3.4 (1)-(4), Appendix B 2.1 1-4) and the two examples of
# Appendix B: those are quoted below as printed. Everything else (the framing, the "Idiom:" / "Fake idiom:"
# cues that let a base model answer by continuing the text, the themes and instances of elements each call is
# given so that deterministic calls differ) is ours. Bump the version with any change, to a prompt or to a rule of
# `fakes.invert` (a build folder keeps its version: candidates of two versions never mix).
FAKES_PROMPT_VERSION = "ffe-fakes-v1"

_FAKE_TASK = (
    "You are helping to build a benchmark of fake Persian idioms and proverbs: expressions that \"are not real "
    "expressions in Persian but are designed to look or sound like authentic idioms in Persian\". "
)
_FAKE_ANSWER = "Write only the fake expression, in Persian script, on one line."

# Section 3.4 (1) and Appendix B 2.1 1, quoted; the example is Appendix B's.
FAKE_PERTURBATION_PROMPT = (
    _FAKE_TASK
    + "Word Perturbation: \"modifies an existing FFE by replacing a key lexical item (e.g., noun or verb) with a "
    "semantically related or phonologically similar word, yielding a fluent but non-existent expression.\" "
    "\"We took a real idiom and changed just one important word, for example, replacing one animal or object or "
    "any entity with another.\" Change exactly one word and keep every other word as it is. " + _FAKE_ANSWER
    + "\n\nIdiom: ماه پشت ابر نمی ماند\nFake idiom: خورشید پشت ابر نمی ماند\n\nIdiom: {source}\nFake idiom:"
)

# Section 3.4 (2) and Appendix B 2.1 2, quoted; the example is Appendix B's. Used where no rule of
# `fakes.invert` applies (the rules do the paper's own example without a model).
FAKE_INVERSION_PROMPT = (
    _FAKE_TASK
    + "Semantic Inversion: \"retains the original idiomatic structure while reversing or distorting the "
    "figurative meaning, producing expressions that appear idiomatic but encode an incompatible concept.\" \"We "
    "kept the structure of the idiom but flipped its meaning.\" " + _FAKE_ANSWER
    + "\n\nIdiom: دشمن دانا به از دوست نادان\nFake idiom: دوست نادان به از دشمن دانا\n\nIdiom: {source}\nFake idiom:"
)

# Section 3.4 (3) and Appendix B 2.1 3, quoted. {construction} is one of the paper's three constructions
# (MIMICRY_CONSTRUCTIONS); {theme} is ours (MIMICRY_THEMES), so that each call asks for a different expression.
FAKE_MIMICRY_PROMPT = (
    _FAKE_TASK
    + "Structural/Syntactic Mimicry: \"generates expressions that follow common proverb-level constructions in "
    "Persian—such as parallelism, contrast, or cause-effect framing—without borrowing lexical material from "
    "existing idioms.\" The expression should \"structure and rhyme like real Persian FFEs, but don't have any "
    "true meaning or background.\" Use a {construction} construction and the theme «{theme}». Do not reuse a "
    "real idiom or proverb or its words. " + _FAKE_ANSWER + "\n\nFake proverb:"
)

# The paper's three constructions (Section 3.4 (3)), as given to FAKE_MIMICRY_PROMPT.
MIMICRY_CONSTRUCTIONS = ("parallelism", "contrast", "cause-effect")

# Ours: everyday themes; they only make the calls differ (a deterministic call with the same prompt repeats itself).
MIMICRY_THEMES = (
    "باران", "کوه", "دریا", "نان", "کفش", "چراغ", "پنجره", "جاده", "درخت", "ابر", "کتاب", "کلید", "رود", "سنگ",
    "باغ", "مزرعه", "بازار", "همسایه", "مسافر", "مهمان", "کودک", "پیری", "جوانی", "صبر", "عجله", "وفا", "حسادت",
    "طمع", "سکوت", "دوستی", "قرض", "سفر", "زمستان", "بهار", "شب", "صبح", "خواب", "کار", "پول", "خانه",
)

# Section 3.4 (4) and Appendix B 2.1 4, quoted. {element_kind} is one of the paper's kinds of culturally salient
# element (CULTURAL_ELEMENTS' keys); {element} is an instance of it, ours.
FAKE_CULTURAL_PROMPT = (
    _FAKE_TASK
    + "Cultural/Historical Fabrication: \"constructs FFE-like expressions using culturally salient elements (e.g., "
    "rituals, historical figures, occupations, symbolic objects, or social occasions) that frequently appear in "
    "Persian proverbs.\" \"We invented FFEs that refer to well-known elements, characters or stories from Persian "
    "culture, with their presence in a completely fake event or story. These may sound to LLMs cultural and "
    "believable, but are completely fictional.\" Use this {element_kind}: «{element}». Do not reuse a real idiom "
    "or proverb. " + _FAKE_ANSWER + "\n\nFake proverb:"
)

# The paper's five kinds of element (Section 3.4 (4)); the instances are ours.
CULTURAL_ELEMENTS = {
    "ritual": ("نوروز", "چهارشنبه‌سوری", "سیزده‌بدر", "شب یلدا", "سفره هفت‌سین", "نذری پختن", "تعزیه", "حنابندان",
               "آش پشت پا", "اسفند دود کردن", "استخاره", "فال حافظ"),
    "historical or legendary figure": ("فریدون", "ضحاک", "کاوه آهنگر", "جمشید", "انوشیروان", "بوذرجمهر", "حاتم طایی",
                                       "بهلول", "شیخ بهایی", "لیلی و مجنون", "فرهاد کوهکن", "شیرین"),
    "occupation": ("کدخدا", "بقال", "عطار", "نانوا", "آهنگر", "دلاک", "قاطرچی", "میراب", "مکتب‌دار", "نعلبند",
                   "دوره‌گرد", "کاروان‌سالار"),
    "symbolic object": ("سماور", "قلیان", "تسبیح", "آینه و شمعدان", "کرسی", "گلیم", "کوزه", "چراغ موشی",
                        "انگشتر عقیق", "سنگ صبور", "جانماز", "کلاه نمدی"),
    "social occasion": ("عروسی", "خواستگاری", "شب‌نشینی", "مهمانی", "ختم", "بازار روز", "حمام عمومی", "قهوه‌خانه",
                        "زورخانه", "مکتب‌خانه", "چله‌نشینی", "ماه رمضان"),
}

# Ours: the optional "do you know this expression?" question to checker models (a fake that many models know is
# a candidate to drop, or a real idiom). "Answer:" lets a base model answer with its next token.
KNOWN_EXPRESSION_PROMPT = (
    "Do you know the following Persian expression as an existing idiom or proverb? Answer Yes or No.\n"
    "Expression: {expression}\nAnswer:"
)
