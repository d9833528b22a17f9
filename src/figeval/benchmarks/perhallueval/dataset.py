"""PerHalluEval data: the final benchmark file (built by `figeval build perhallueval-candidates`, or published) and the
samples asked from it. Each item is asked twice: its correct version (expects Y) and its hallucinated version
(expects N).
"""

from __future__ import annotations

import csv
import io
import shlex
from dataclasses import dataclass
from pathlib import Path

from inspect_ai.dataset import Sample

from figeval.benchmarks.perhallueval.prompts import EVALUATION_PROMPT
from figeval.data.table import Column, Row, affirmative, delimiter_of, negative, read_table
from figeval.errors import DataError, FigevalError

TASKS = ("qa", "summarization")
# The final dataset's columns (what the build writes; a published file in another layout is refused with the
# columns found and expected). For summarization, `context` holds the article and `question` is empty.
FINAL_COLUMNS = (
    Column("id"),
    Column("source"),
    Column("context", persian=True),
    Column("question", required=False, persian=True),
    # Answers may be numbers alone ("۱۸۸۹"): the Persian-script check is left to the context.
    Column("correct"),
    Column("hallucinated"),
    Column("generator", required=False),
    Column("verifier_score", required=False),
    Column("persian_specific", required=False),
)

# The column annotators fill in the build's kept.csv (Section 3.4); `build perhallueval-final` drops it from the
# final file, so a file that has it is a sheet still to be validated.
LABEL_COLUMN = "hallucination_label"


@dataclass(frozen=True)
class BenchmarkItem:
    id: str
    context: str
    question: str
    correct: str
    hallucinated: str
    persian_specific: bool | None
    generator: str | None = None
    """The model that wrote the hallucinated version (Table 1), when the file says."""


def check_item(path: Path, row: Row, task: str) -> None:
    """Refuse a row that is not an item of `task` (QA needs a question, summarization has none) or whose two
    versions are the same text; read by the evaluation and by `build perhallueval-final`."""
    if task == "qa" and not row.cells["question"].strip():
        raise DataError(f"{path.name}: row {row.number}, column 'question' is empty; a QA item needs its question.")
    if task == "summarization" and row.cells["question"].strip():
        raise DataError(f"{path.name}: row {row.number} has a question: this is QA data; give it to "
                        "perhallueval_qa (or --task qa), or summarization data to perhallueval_summarization.")
    if " ".join(row.cells["correct"].split()) == " ".join(row.cells["hallucinated"].split()):
        raise DataError(f"{path.name}: row {row.number} (id {row.cells['id']!r}): the hallucinated version is the "
                        "correct one; an item needs two different versions (drop or fix the row).")


def load_items(path: Path | None, task: str) -> list[BenchmarkItem]:
    """The items of a final PerHalluEval file.

    Raises:
        FigevalError: no file given (says where one comes from).
        DataError: the file's layout or a cell is wrong (naming the row).
    """
    if task not in TASKS:
        raise FigevalError(f"task must be one of {list(TASKS)}, not {task!r}.")
    if path is None:
        raise FigevalError(
            f"perhallueval_{task} needs -T data=PATH: the final file `figeval build perhallueval-candidates --task "
            f"{task}` writes, or a published PerHalluEval file with columns {[c.name for c in FINAL_COLUMNS]}."
        )
    rows = read_table(path, FINAL_COLUMNS, unique="id", key=str.strip)
    refuse_annotation_sheet(path, task)
    items = []
    for row in rows:
        flag = row.cells["persian_specific"].strip().lower()
        if flag and not (affirmative(flag) or negative(flag)):
            raise DataError(f"{path.name}: row {row.number}, column 'persian_specific' is {flag!r}; use 1 or 0.")
        check_item(path, row, task)
        items.append(BenchmarkItem(row.cells["id"], row.cells["context"], row.cells["question"], row.cells["correct"],
                                   row.cells["hallucinated"], affirmative(flag) if flag else None,
                                   row.cells["generator"].strip() or None))
    return items


def header_of(path: Path) -> list[str]:
    """The column names of a table `read_table` has read (so the file is known to be readable UTF-8)."""
    text = path.read_bytes().decode("utf-8-sig")
    return [cell.strip() for cell in next(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter_of(text)), [])]


def refuse_annotation_sheet(path: Path, task: str) -> None:
    """Refuses the build's kept.csv, or an annotator's copy of it, given as the benchmark: its items are not yet
    validated (Section 3.4 keeps only those the majority of three annotators calls hallucinated).

    Raises:
        DataError: naming the file and the command that writes the final file.
    """
    if LABEL_COLUMN not in header_of(path):
        return
    in_build = (path.parent / "build_record.json").is_file()  # the file is the build folder's own kept.csv
    folder = shlex.quote(str(path.parent)) if in_build else "DIR"
    final = shlex.quote(str(path.parent / "final.csv")) if in_build else "DIR/final.csv"
    raise DataError(f"{path.name}: has a '{LABEL_COLUMN}' column: it is the sheet annotators label, not a benchmark "
                    f"file; run `figeval build perhallueval-final --task {task} --out {folder} SHEET1 SHEET2 SHEET3` "
                    f"and give -T data={final}.")


# QA items split by the annotators' persian_specific flag (Figures 3-5); None when the file has no flag.
SUBSETS: dict[bool | None, str] = {True: "persian_specific", False: "generic"}


def item_samples(items: list[BenchmarkItem], task: str) -> list[Sample]:
    samples = []
    for item in items:
        for version, answer, target in (("correct", item.correct, "Y"), ("hallucinated", item.hallucinated, "N")):
            prompt = EVALUATION_PROMPT[task].format(
                context=item.context, question=item.question, answer=answer
            )
            samples.append(Sample(
                id=f"phe-{task}-{item.id}/{version}",
                input=prompt,
                target=target,
                metadata={"item": item.id, "version": version, "persian_specific": item.persian_specific,
                          "subset": SUBSETS.get(item.persian_specific), "generator": item.generator},
            ))
    return samples
