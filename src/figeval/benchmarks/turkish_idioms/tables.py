"""The Turkish idioms paper's Table 2 (accuracy, as fractions like the paper) with the label preference Section 4
remarks on, and the leaderboard headlines, for `figeval report`."""

from figeval.reporting.tables import Column, TableSpec, unparsed_column, unread_note

# How the report names the paper (the benchmark's title).
PAPER = "Turkish idioms"

TABLE_2 = TableSpec(
    "turkish-idioms/table-2", PAPER, "Table 2", "Idiom detection and entailment accuracy, with the label "
    "preference", "fraction",
    (Column("detection", "Detection", "tr_idiom_detection", "accuracy", better="higher"),
     Column("entailment", "Entailment", "tr_idiom_entailment", "accuracy", better="higher"),
     Column("yes_rate", "'yes' share (detection)", "tr_idiom_detection", "yes_rate", ours=True),
     Column("entailment_rate", "'entailment' share", "tr_idiom_entailment", "entailment_rate", ours=True),
     unparsed_column("detection_unparsed", "Unparsed (detection)", "tr_idiom_detection"),
     unparsed_column("entailment_unparsed", "Unparsed (entailment)", "tr_idiom_entailment")),
    (),
    # Section 4: "For a few without an identifiable label, we read the text and determined the label manually";
    # until a person does (`figeval annotate export`, `-T manual_labels`), accuracy counts such an answer wrong.
    notes=(unread_note("Unparsed, 'yes' share, 'entailment' share", "counted wrong in accuracy until labelled by hand "
                       "(the paper's authors read them, Section 4: `figeval annotate export`, then -T manual_labels) "
                       "and left out of the label shares, which are over the answers a label was read from"),),
)

TABLES = (TABLE_2,)

HEADLINES = (
    Column("tr_idiom_detection", "TR idiom detection", "tr_idiom_detection", "accuracy", better="higher"),
    Column("tr_idiom_entailment", "TR idiom entailment", "tr_idiom_entailment", "accuracy", better="higher"),
)
