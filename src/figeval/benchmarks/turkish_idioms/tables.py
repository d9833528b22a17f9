"""The Turkish idioms paper's Table 2 (accuracy, as fractions like the paper) with the label preference Section 4
remarks on, and the leaderboard headlines, for `figeval report`."""

from figeval.table_model import Column, TableSpec, unparsed_column, unread_note

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

# Section 4: "For the idiom instances that were not found in the Leipzig corpus, performances of large models also
# drop to the level of a random baseline": accuracy on the idioms unseen in the corpus and on those seen (the
# `seen` bands, figeval's default), from runs whose data carries frequencies. The paper prints no numbers for it.
FREQUENCY = TableSpec(
    "turkish-idioms/frequency", PAPER, "Section 4", "Accuracy on idioms unseen and seen in the Leipzig corpus "
    "(chance: 0.5)", "fraction",
    tuple(Column(f"{task}/{band}", f"{name} ({band})", f"tr_idiom_{task}", f"accuracy/freq_{band}", better="higher")
          for task, name in (("detection", "Detection"), ("entailment", "Entailment"))
          for band in ("unseen", "seen"))
    + (unparsed_column("detection_unparsed", "Unparsed (detection)", "tr_idiom_detection"),
       unparsed_column("entailment_unparsed", "Unparsed (entailment)", "tr_idiom_entailment")),
    (),
    notes=("Each cell: accuracy over the answers on sentences of idioms with that corpus frequency (unseen: 0 per "
           "million sentences), an unparsed answer counted wrong as in Table 2; rows only for runs whose data "
           "carries frequencies and that use the seen/unseen bands (-T frequency_bands=seen).",
           unread_note("Unparsed", "over every answer of the run, counted wrong in each band's accuracy until "
                       "labelled by hand")),
)

TABLES = (TABLE_2, FREQUENCY)

HEADLINES = (
    Column("tr_idiom_detection", "TR idiom detection", "tr_idiom_detection", "accuracy", better="higher"),
    Column("tr_idiom_entailment", "TR idiom entailment", "tr_idiom_entailment", "accuracy", better="higher"),
)
