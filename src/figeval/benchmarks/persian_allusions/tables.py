"""The Persian allusions paper's Table 3 (knowledge, open-ended and MC accuracy per dataset) and the leaderboard
headlines, for `figeval report`.

Table 3's knowledge and open-ended numbers are people's: "An expert manually classified responses" (Section 3.1),
"All outputs were manually validated" (Section 3.3). A run's are its judge's, so those columns say "(judge)"; the
people's numbers for a run come from `figeval annotate export` -> `annotate import` -> `annotate rates` (the
`correct` rate is the open-ended column, `complete` the knowledge column), and Table 4 (`report --human`) is how
far the judge agrees with them. The open-ended columns are the judge with the ground truth (Table 4's setting);
the columns without it are figeval's addition. Multiple choice is read by rule: no judge.
"""

from figeval.reporting.tables import Column, TableSpec

JUDGED = "(judge)"


def _recognition(dataset: str) -> tuple[Column, ...]:
    name = {"perspoems": "PersPoems", "generated": "LLM-Generated"}[dataset]
    return (
        Column(f"{dataset}/open", f"{name} Open-ended {JUDGED}", "allusion_open", "accuracy",
               {"dataset_variant": dataset, "judge_mode": "gt"}, "higher"),
        Column(f"{dataset}/mc", f"{name} Multi-choice", "allusion_mc", "accuracy", {"dataset_variant": dataset}, "higher"),
        Column(f"{dataset}/open_no_gt", f"{name} Open-ended (judge without GT)", "allusion_open", "accuracy",
               {"dataset_variant": dataset, "judge_mode": "no_gt"}, "higher", ours=True),
    )


TABLE_3 = TableSpec(
    "persian-allusions/table-3", "persian-allusions", "Table 3",
    "Allusion knowledge and recognition accuracy (judge labels where marked; the paper's are people's)", "percent",
    (Column("knowledge", f"Knowledge {JUDGED}", "allusion_knowledge", "knowledge_rate", better="higher"),
     *_recognition("perspoems"), *_recognition("generated")),
    ("prompt_lang", "judge"),
)

TABLES = (TABLE_3,)

HEADLINES = (
    Column("allusion_knowledge", f"Allusion knowledge {JUDGED}", "allusion_knowledge", "knowledge_rate",
           better="higher"),
    Column("allusion_mc", "Allusion MC (PersPoems)", "allusion_mc", "accuracy", {"dataset_variant": "perspoems"},
           "higher"),
    Column("allusion_open", "Allusion open (PersPoems, GT judge)", "allusion_open", "accuracy",
           {"dataset_variant": "perspoems", "judge_mode": "gt"}, "higher"),
)
