"""The Turkish idioms paper's Table 2 (accuracy, as fractions like the paper) with the label preference Section 4
remarks on, and the leaderboard headlines, for `figeval report`."""

from figeval.reporting.tables import Column, TableSpec

TABLE_2 = TableSpec(
    "turkish-idioms/table-2", "turkish-idioms", "Table 2", "Idiom detection and entailment accuracy, with the label "
    "preference", "fraction",
    (Column("detection", "Detection", "tr_idiom_detection", "accuracy", better="higher"),
     Column("entailment", "Entailment", "tr_idiom_entailment", "accuracy", better="higher"),
     Column("yes_rate", "'yes' share (detection)", "tr_idiom_detection", "yes_rate", ours=True),
     Column("entailment_rate", "'entailment' share", "tr_idiom_entailment", "entailment_rate", ours=True),
     Column("detection_unparsed", "Unparsed (detection)", "tr_idiom_detection", "unparsed_rate", ours=True),
     Column("entailment_unparsed", "Unparsed (entailment)", "tr_idiom_entailment", "unparsed_rate", ours=True)),
    ("prompt_lang", "answer_mode", "balanced"),
)

TABLES = (TABLE_2,)

HEADLINES = (
    Column("tr_idiom_detection", "TR idiom detection", "tr_idiom_detection", "accuracy", better="higher"),
    Column("tr_idiom_entailment", "TR idiom entailment", "tr_idiom_entailment", "accuracy", better="higher"),
)
