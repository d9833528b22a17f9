"""Judge-vs-human and annotator agreement as report tables, laid out from the labels a report read before its
tables (`labelled.read_labelled`): each judge against the resolved human labels, per generator model, and the
annotators against each other, with the paper's rows where its benchmark declares the paper's tables
(`Benchmark.agreement`). The numbers are those `figeval judge agreement` prints."""

from __future__ import annotations

from figeval.benchmark import AgreementTables
from figeval.results.agreement_groups import kappa_text
from figeval.results.labelled import LabelledAnswers
from figeval.results.paper import Lines, paper_notes, paper_rows
from figeval.results.runs import distinguishing_settings
from figeval.table_model import Cell, ColumnHead, Row, Table
from figeval.results.tables import few_items_note, proportion_interval
from figeval.stats import AgreementRow, bootstrap_trusted


def _columns(unit: str) -> list[ColumnHead]:
    # a paper printing agreement as a fraction calls it "EM" (exact match); in percent, "Agr."
    agreement = (ColumnHead("em", "EM", "higher") if unit == "fraction"
                 else ColumnHead("agreement", "Agreement(%)", "higher"))
    return [agreement, ColumnHead("kappa", "Cohen's kappa", "higher", unit="fraction")]


def _cells(row: AgreementRow, agreement_key: str) -> dict[str, Cell]:
    # percent agreement is a share of the n items both labelled: the Wilson interval over them (kappa: bootstrap)
    cells = {agreement_key: Cell(row.percent, *proportion_interval(row.percent, row.n), row.n)} if row.n else {}
    if row.kappa is not None:
        trusted = bootstrap_trusted(row.n)
        cells["kappa"] = Cell(row.kappa.estimate, row.kappa.low if trusted else None,
                              row.kappa.high if trusted else None, row.n)
    return cells


def agreement_tables(labelled: LabelledAnswers, paper: bool = False) -> list[Table]:
    """The judge table for the runs whose answers a labels file labels, and the annotators' table when two or more
    people labelled."""
    printed = labelled.benchmark.agreement.get(labelled.task)
    title = labelled.benchmark.title
    unit = printed.unit if printed else "percent"
    judge_source = f"{title} {printed.judge_source}" if printed else ""
    annotator_source = f"{title} {printed.annotator_table}" if printed and printed.annotator_table else ""
    columns = _columns(unit)
    key = columns[0].key
    # each setting that tells a model's runs apart is a column, so that two runs' rows are never taken for each
    # other; the judge has its own column, where a run's rules line names the run's judge when judges differ
    differing = distinguishing_settings([judged.run for judged in labelled.judged])
    judges_differ = "judge" in differing
    settings = [name for name in differing if name != "judge"]
    task, name = labelled.task, labelled.path.name
    judged = Table(f"judge-agreement/{task}", f"{task}: judge vs people ({name})", judge_source, unit, columns,
                   identity_keys=["judge", *settings], intervals=True)
    judged.notes += labelled.notes
    for run, found in ((judged_run.run, judged_run.agreements) for judged_run in labelled.judged):
        setting = {name: str((run.identity or {}).get(name, "")) for name in settings}
        for agreement in found[:-1]:
            judge = agreement.row.group.partition(" | ")[2].removeprefix("judge ")
            judged.rows.append(Row(run.display_name, {"judge": judge, **setting}, _cells(agreement.row, key)))
        rules = found[-1].row.group.partition(" | ")[2]
        rules += f" (judge {(run.identity or {}).get('judge', '')})" if judges_differ else ""
        judged.rows.append(Row(run.display_name, {"judge": rules, **setting}, _cells(found[-1].row, key)))
        judged.notes += _partial_judge_notes(run.model, found)
    tables = [judged] if judged.rows else []
    tables += [people] if (people := _annotator_table(labelled, annotator_source, unit)) else []
    for table in tables:
        if few := few_items_note(table):
            table.notes.append(few)
    if paper and printed:
        numbers, notes = labelled.benchmark.numbers(), labelled.benchmark.inconsistencies()
        if judged.rows and printed.judges:
            judged.rows += _per_judge_rows(numbers, printed, judged.source)
        elif judged.rows:
            judged.rows += paper_rows(numbers, printed.judge_table, {c.key for c in columns}, judged.source)
            judged.notes += paper_notes(notes, printed.judge_table)
        if people is not None and printed.annotator_table:
            people.rows += paper_rows(numbers, printed.annotator_table, {c.key for c in columns}, people.source)
            people.notes += paper_notes(notes, printed.annotator_table)
    return tables


def _partial_judge_notes(model: str, found: list) -> list[str]:
    """A note where a judge's row rests on fewer answers than the run's labels: the judge was not asked about
    every output (`judge_every_output=false`), unlike the paper's judges."""
    everything = found[-1].row.n  # the run's own labels, as its rates count them
    return [f"{model}, {agreement.row.group.partition(' | ')[2]}: labelled {agreement.row.n} of the {everything} "
            "outputs people resolved (the others were decided by a rule or unread and not shown to it, or its "
            "answer was unreadable); the paper's judges labelled every output (-T judge_every_output=true, the "
            "default)" for agreement in found[:-1] if agreement.row.n < everything]


def _per_judge_rows(numbers: Lines, printed: AgreementTables, source: str) -> list[Row]:
    """A judge table's numbers for one task where the paper prints a column pair per judge: one row per generator
    model and judge."""
    rows = []
    for judge in printed.judges:
        keys = {f"{printed.judge_columns}/{judge}/agreement", f"{printed.judge_columns}/{judge}/kappa"}
        for row in paper_rows(numbers, printed.judge_table, keys, source):
            cells = {key.rsplit("/", 1)[1]: cell for key, cell in row.cells.items()}
            rows.append(Row(row.label, {"judge": judge}, cells, reference=source))
    return rows


def _annotator_table(labelled: LabelledAnswers, source: str, unit: str) -> Table | None:
    """Each pair of annotators per group of answers (a model, and the settings that tell its labelled runs apart),
    then over all labels."""
    columns = _columns(unit)
    key = columns[0].key
    annotators = labelled.annotators
    if len(annotators) < 2:
        return None
    people = Table(f"annotator-agreement/{labelled.task}", f"{labelled.task}: annotators ({labelled.path.name})",
                   source, unit, columns, identity_keys=["annotators"], intervals=True)
    for row in labelled.annotator_rows:
        pair, _, group = row.group.partition(": ")
        people.rows.append(Row(group, {"annotators": pair}, _cells(row, key)))
    if isinstance(labelled.fleiss, str):
        people.notes.append(f"Fleiss' kappa over all {len(annotators)} annotators: n/a ({labelled.fleiss})")
    elif labelled.fleiss is not None:
        everything = {(h.model, h.sample_id) for group in labelled.groups for h in group.labels}
        people.notes.append(f"Fleiss' kappa over all {len(annotators)} annotators: "
                            f"{kappa_text(labelled.fleiss, len(everything))}")
    return people
