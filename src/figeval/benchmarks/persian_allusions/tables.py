"""The Persian allusions paper's Table 3 (knowledge, open-ended and MC accuracy per dataset) and the leaderboard
headlines, for `figeval report`. Table 3's open-ended columns are the judge with the ground truth (Table 4's
setting); the columns without it are figeval's addition."""

from figeval.reporting.tables import Column, TableSpec


def _recognition(dataset: str) -> tuple[Column, ...]:
    name = {"perspoems": "PersPoems", "generated": "LLM-Generated"}[dataset]
    return (
        Column(f"{dataset}/open", f"{name} Open-ended", "allusion_open", "accuracy",
               {"dataset_variant": dataset, "judge_mode": "gt"}, "higher"),
        Column(f"{dataset}/mc", f"{name} Multi-choice", "allusion_mc", "accuracy", {"dataset_variant": dataset}, "higher"),
        Column(f"{dataset}/open_no_gt", f"{name} Open-ended (judge without GT)", "allusion_open", "accuracy",
               {"dataset_variant": dataset, "judge_mode": "no_gt"}, "higher", ours=True),
    )


TABLE_3 = TableSpec(
    "persian-allusions/table-3", "persian-allusions", "Table 3", "Allusion knowledge and recognition accuracy",
    "percent",
    (Column("knowledge", "Knowledge", "allusion_knowledge", "knowledge_rate", better="higher"),
     *_recognition("perspoems"), *_recognition("generated")),
    ("prompt_lang", "judge"),
)

TABLES = (TABLE_3,)

HEADLINES = (
    Column("allusion_knowledge", "Allusion knowledge", "allusion_knowledge", "knowledge_rate", better="higher"),
    Column("allusion_mc", "Allusion MC (PersPoems)", "allusion_mc", "accuracy", {"dataset_variant": "perspoems"},
           "higher"),
    Column("allusion_open", "Allusion open (PersPoems, GT judge)", "allusion_open", "accuracy",
           {"dataset_variant": "perspoems", "judge_mode": "gt"}, "higher"),
)
