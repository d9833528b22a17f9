"""`figeval annotate`: sheets for human annotators (export answers, import their labels), what their labels say
beside the runs (`compare`), and labelling by hand the answers no reader could read (`unread`, `apply`)."""

from __future__ import annotations

import shlex
from collections import Counter
from pathlib import Path

import click

from figeval.errors import FigevalError
from figeval.output import check_outputs


@click.group()
def annotate() -> None:
    """Sheets for human annotators: export answers, import their labels, compare them with the runs'."""


@annotate.command("export")
@click.argument("logs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The sheet to write.")
@click.option("--format", "sheet_format", type=click.Choice(["csv", "labelstudio"]), default="csv", show_default=True)
def annotate_export(logs: tuple[Path, ...], out: Path, sheet_format: str) -> None:
    """Write the answers of runs of one task (LOGS: .eval files or log dirs) to a sheet with an empty label
    column: a judged task's parsed answers, or the answers a parser could not read. A CSV sheet's instructions
    are written beside it (OUT's name with .instructions.txt); Label Studio's are in its labelling config. A CSV
    OUT must not exist, nor a Label Studio OUT holding annotations: what people labelled is never written over."""
    from figeval._registry import annotation_spec
    from figeval.annotation.answers import task_name
    from figeval.annotation.sheets import (
        instructions_path,
        items_from_log,
        label_studio_config,
        write_label_studio,
        write_sheet,
    )
    from figeval.results.logs import read_logs

    beside, what = ((label_studio_config(out), "labelling config") if sheet_format == "labelstudio"
                    else (instructions_path(out), "instructions"))
    check_outputs([out], logs)
    if sheet_format == "csv" or _holds_annotations(out):
        _refuse_existing_sheet(out)
    check_outputs([beside], logs, f"--out's {what}")  # a file the user did not name: the message says what it is
    if out.suffix == ".eval":
        raise FigevalError(f"--out {out}: a sheet is .csv or .json, not an Inspect log's .eval; choose another name.")
    if beside == out:  # a Label Studio --out ending in .xml: its config would be written over it
        raise FigevalError(f"--out {out}: Label Studio tasks are .json (their labelling config is written beside "
                           "them as .xml); choose a name ending in .json.")
    runs = read_logs(logs, note=_note)
    tasks = sorted({task_name(log) for log in runs})
    if len(tasks) != 1:
        raise FigevalError(f"the logs are runs of {len(tasks)} tasks {tasks}; export each task to its own sheet.")
    spec = annotation_spec(tasks[0])
    items, skipped = [], 0
    for log in runs:
        found, left_out = items_from_log(log, spec)
        items += found
        skipped += left_out
    kind = "unparsed answers to label by hand" if spec.answers == "unparsed" else "answers to label"
    if sheet_format == "csv":
        guide = write_sheet(items, out, spec.instructions)
        click.echo(f"{len(items)} {kind} written to {out}, instructions for annotators in {guide} ({skipped} "
                   "others left out)")
    else:
        config = write_label_studio(items, out, spec)
        click.echo(f"{len(items)} {kind} written to {out} as Label Studio tasks, labelling config in {config} "
                   f"({skipped} others left out)")


@annotate.command("import")
@click.argument("sheets", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The resolved labels file to write.")
@click.option("--annotator", "annotators", multiple=True,
              help="Who filled each sheet, in the order of SHEETS (default: each sheet's file name).")
def annotate_import(sheets: tuple[Path, ...], out: Path, annotators: tuple[str, ...]) -> None:
    """Read 1-3 annotators' SHEETS (the third adjudicates) and write the resolved labels. A Label Studio export
    with several people's annotations counts as each of them."""
    from figeval._registry import annotation_spec
    from figeval.annotation.labels import Resolution, combine, write_labels
    from figeval.annotation.sheets import read_annotators
    from figeval.data.table import refuse_same_content

    if annotators and len(annotators) != len(sheets):
        raise FigevalError(f"{len(annotators)} --annotator names for {len(sheets)} sheets; give one name per sheet, "
                           "in the same order.")
    check_outputs([out], sheets)
    refuse_same_content(sheets)
    named = []
    for position, sheet in enumerate(sheets):
        task, by_annotator = read_annotators(sheet, annotation_spec)
        base = annotators[position] if annotators else sheet.stem
        for person, their_labels in by_annotator.items():
            named.append((f"{base}/{person}" if person else base, task, their_labels))
    names = [name for name, _, _ in named]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise FigevalError(f"two sheets are both annotator {repeated[0]!r} (same file name?); name each annotator "
                           "with --annotator NAME, once per sheet in order.")
    labels = combine(named)
    write_labels(labels, [name for name, _, _ in named], out)
    counts = Counter(label.resolution for label in labels)
    click.echo(f"{len(labels)} answers: " + ", ".join(f"{counts[r]} {r.value}" for r in Resolution if counts[r]))
    for label in labels:
        if label.resolution is Resolution.UNRESOLVED:
            click.echo(f"  unresolved: {label.sample_id} ({label.model}): "
                       + " vs ".join(a.value for a in label.annotators if a))
    click.echo(f"labels written to {out}")


@annotate.command("compare")
@click.argument("labels", type=click.Path(path_type=Path))
@click.argument("logs", nargs=-1, type=click.Path(path_type=Path))
@click.option("--confusion", is_flag=True, help="Also print judge x human confusion matrices.")
def annotate_compare(labels: Path, logs: tuple[Path, ...], confusion: bool) -> None:
    """What resolved human LABELS say beside the runs whose answers they label (LOGS: .eval files or log dirs; a
    file of another task or model is refused, a log dir's other runs are left out). First the label rates (in
    percent) from people's labels, one line per model and set of answers, and beside each the rates of the runs
    over the same answers; a model's runs with other settings (dictionary and paraphrased meanings) are separate
    lines, never pooled. Then, given runs, each judge's agreement with the people and Cohen's kappa, and the run's
    final labels' as a line of its own; with two or more annotators, theirs among themselves per model and set of
    its answers (the paper's tables named where its benchmark declares them)."""
    from figeval.cli.human_labels import echo_agreement, echo_notes, echo_rates, read_labelled_runs

    found = read_labelled_runs(labels, logs)
    echo_rates(found)
    echo_notes(found)
    if found.runs:
        click.echo()  # the annotators' part opens with a blank line of its own
    echo_agreement(found, confusion)


@annotate.command("rates", hidden=True)
@click.argument("labels", type=click.Path(path_type=Path))
@click.argument("logs", nargs=-1, type=click.Path(path_type=Path))
def annotate_rates(labels: Path, logs: tuple[Path, ...]) -> None:
    """Former name of the first part of `figeval annotate compare LABELS [LOGS...]`: the label rates only."""
    from figeval.cli.human_labels import deprecated, echo_notes, echo_rates, read_labelled_runs

    deprecated("annotate rates", "annotate compare")
    found = read_labelled_runs(labels, logs)
    echo_rates(found)
    echo_notes(found)


@annotate.command("unread")
@click.argument("log", type=click.Path(path_type=Path))
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The sheet to write (.csv).")
def annotate_unread(log: Path, out: Path) -> None:
    """Write the answers of a run (LOG: one .eval file, any task) that no reader could read, with the task's labels,
    for a person to label; then `figeval annotate apply`. OUT must not exist: a sheet a person may have labelled
    is never written over."""
    from figeval.annotation.hand_labels import unread_answers, write_unread_sheet

    check_outputs([out], [log])
    _refuse_existing_sheet(out)
    if out.suffix != ".csv":
        raise FigevalError(f"--out {out}: the sheet is a .csv file; choose a name ending in .csv.")
    [run] = _one_log(log)
    answers = unread_answers(run)
    write_unread_sheet(answers, out)
    click.echo(f"{len(answers)} unread answers of {run.eval.task.split('/')[-1]} on {run.eval.model} written to {out}: "
               "fill 'label' with the label each answer gives (the model's answer, not the right one), then "
               f"`{shlex.join(['figeval', 'annotate', 'apply', str(log), str(out), '--out', 'LABELLED.eval'])}`")


@annotate.command("apply")
@click.argument("log", type=click.Path(path_type=Path))
@click.argument("sheet", type=click.Path(path_type=Path))
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The new log to write (.eval).")
def annotate_apply(log: Path, sheet: Path, out: Path) -> None:
    """Apply a person's labels of a run's unread answers (SHEET from `figeval annotate unread`) to the run (LOG) and
    write it as a new log, its metrics recomputed; the model is not asked again and LOG is left as it was. A label of
    an answer a reader read is refused, naming its row: clear it (only unread answers are labelled by hand)."""
    from figeval.annotation.hand_labels import (
        apply_hand_labels,
        check_new_log,
        read_hand_labels,
        unread_answers,
        write_log,
    )
    import figeval._registry  # registers the tasks' metrics and reducers, which Inspect recomputes with
    from figeval.cli.run.summary import summary_table
    from figeval.results.runs import summarize
    from figeval.results.agreement_groups import kappa_text
    from figeval.stats import agreement_row

    check_new_log(out, [log, sheet])
    [run] = _one_log(log)
    labels = read_hand_labels(sheet)
    _check_resolved(sheet)
    applied = apply_hand_labels(run, labels, sheet)
    write_log(applied.log, out, log)
    left = sum(a.read == "unread" for a in unread_answers(applied.log))
    click.echo(f"{applied.labelled} answers labelled by hand, {left} still unread; written to {out}")
    if applied.extractor_pairs:
        extractor, person = zip(*applied.extractor_pairs)
        row = agreement_row("extractor vs hand labels", list(extractor), list(person))
        kappa = kappa_text(row.kappa, row.n) if row.kappa else f"undefined ({row.note})"
        click.echo(f"extractor vs hand labels: n={row.n}, agreement {100 * row.percent:.1f}%, Cohen's kappa {kappa}")
    # the same summary as the run's, in its benchmark's units
    click.echo(summary_table(figeval._registry.BENCHMARKS, summarize(applied.log)))


def _refuse_existing_sheet(out: Path) -> None:
    """Refuses a sheet's `--out` that exists: it may be a sheet a person has labelled, and writing it again would
    empty its labels (as `annotate apply` refuses an existing log). A symbolic link is `check_outputs`'s to name.

    Raises:
        FigevalError: naming `out` and the fix.
    """
    if out.exists():
        raise FigevalError(f"--out {out} exists (a sheet a person may have labelled: figeval never writes over "
                           "one); write to another path, or remove it yourself to write it again.")


def _check_resolved(sheet: Path) -> None:
    """A labels file of `figeval annotate import` given as the sheet is read as every labels file is (its resolved
    labels checked against its annotators'), so that apply takes no label a compare or a report would refuse."""
    from figeval._registry import annotation_spec
    from figeval.annotation.labels import LABELS_COLUMNS, read_labels

    header = sheet.read_text(encoding="utf-8-sig").partition("\n")[0].strip().split(",")
    if header[: len(LABELS_COLUMNS)] == LABELS_COLUMNS:
        read_labels(sheet, annotation_spec)


def _holds_annotations(path: Path) -> bool:
    """Whether `path` is a Label Studio export with people's annotations. Tasks figeval wrote hold none (people
    label in Label Studio), so they are written again, as after an export killed between its two files."""
    import json

    try:
        tasks = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(tasks, list) and any(isinstance(task, dict) and task.get("annotations") for task in tasks)


def _note(line: str) -> None:
    click.echo(f"note: {line}")


def _one_log(log: Path) -> list:
    from figeval.results.logs import read_logs

    if not log.is_file():
        raise FigevalError(f"{log}: give one .eval log file (a run), not "
                           f"{'a folder' if log.is_dir() else 'a missing path'}.")
    return read_logs([log])
