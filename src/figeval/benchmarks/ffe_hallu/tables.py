"""FFE-HALLU's results tables (Tables 3-5, Figure 1 as a table) and its leaderboard headlines, for `figeval report`.
Tables 3 and 5 are human labels in the paper; a run's are its judge's (Table 6 is how far the two agree)."""

from figeval.benchmarks.ffe_hallu.dataset import FAKE_CATEGORIES, category_slug
from figeval.reporting.tables import Column, TableSpec

def _judged(task: str, prefix: str = "", **where: str) -> tuple[Column, ...]:
    head = f"{prefix} " if prefix else ""
    return (Column(f"{prefix}{'/' if prefix else ''}correct", f"{head}Correct(%)", task, "correct_rate", where, "higher"),
            Column(f"{prefix}{'/' if prefix else ''}incorrect", f"{head}Incorrect(%)", task, "incorrect_rate", where),
            Column(f"{prefix}{'/' if prefix else ''}hallucinated", f"{head}Hallucination(%)", task, "hallucinated_rate",
                   where, "lower"))


TABLE_3 = TableSpec(
    "ffe-hallu/table-3", "ffe-hallu", "Table 3", "Task 1, FFE generation from meaning (judge labels)", "percent",
    tuple(column for meaning in ("human", "paraphrased") for column in (
        *_judged("ffe_generation", meaning, meaning=meaning),
        Column(f"{meaning}/unparsed", f"{meaning} Unparsed(%)", "ffe_generation", "unparsed_rate", {"meaning": meaning},
               ours=True))),
    ("judge", "judge_prompt", "prompt_version", "answer_mode"),
)

TABLE_4 = TableSpec(
    "ffe-hallu/table-4", "ffe-hallu", "Table 4", "Task 2, fake FFE detection: hallucination rates and agreement",
    "percent",
    (Column("fake_q", "Prompt-Fake Halluc.(%)", "ffe_detection", "halluc_rate_fake_q", better="lower"),
     Column("real_q", "Prompt-Real Halluc.(%)", "ffe_detection", "halluc_rate_real_q", better="lower"),
     Column("avg", "Avg(%)", "ffe_detection", "halluc_rate_avg", better="lower"),
     Column("agreement", "Agreement(%)", "ffe_detection", "agreement", better="higher"),
     Column("unparsed", "Unparsed(%)", "ffe_detection", "unparsed_rate", ours=True),
     Column("false_rejection", "Real FFEs rejected(%)", "ffe_detection", "false_rejection_rate", better="lower",
            ours=True)),
    ("prompt_version", "answer_mode", "controls", "data"),
)

FIGURE_1 = TableSpec(
    "ffe-hallu/figure-1", "ffe-hallu", "Figure 1", "Task 2, detection accuracy (1 - hallucination rate) by category and "
    "prompt", "percent",
    tuple(Column(f"{framing}/{category_slug(category)}", f"{label} {category}", "ffe_detection",
                 f"halluc_rate_{framing}/{category_slug(category)}", better="higher", complement=True)
          for framing, label in (("fake_q", "Is it fake?"), ("real_q", "Is it real?")) for category in FAKE_CATEGORIES),
    ("prompt_version", "answer_mode", "data"),
)

TABLE_5 = TableSpec(
    "ffe-hallu/table-5", "ffe-hallu", "Table 5", "Task 3, FFE to FFE translation (judge labels)", "percent",
    (*_judged("ffe_translation"), Column("unparsed", "Unparsed(%)", "ffe_translation", "unparsed_rate", ours=True)),
    ("judge", "judge_prompt", "prompt_version", "answer_mode"),
)

TABLES = (TABLE_3, TABLE_4, FIGURE_1, TABLE_5)

# The headline of each task (the paper's lead number) for the leaderboard.
HEADLINES = (
    Column("ffe_generation", "FFE gen. correct", "ffe_generation", "correct_rate", {"meaning": "human"}, "higher"),
    Column("ffe_detection", "FFE detect. halluc. avg", "ffe_detection", "halluc_rate_avg", better="lower"),
    Column("ffe_translation", "FFE transl. correct", "ffe_translation", "correct_rate", better="higher"),
)
