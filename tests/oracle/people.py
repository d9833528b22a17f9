"""People's labels as a researcher gathers them (`figeval annotate export`, one to three annotators filling the sheet,
`annotate import`), and what the oracle expects of them: the paper's human-labelled tables from the people's
labels of each run's own answers (issue 37), the judge against the people, the annotators against each other, each
per model and set of answers, never two runs' answers pooled.

Resolution is the papers' (Section 3.5 of FFE-HALLU): two annotators who agree decide; where they disagree a third
decides; without a third the answer stays unresolved and counts in no rate."""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from tests.command import figeval
from tests.oracle.harness import JUDGE_UNREADABLE, UNREAD, Run, TaskModel, World
from tests.oracle.measure import Expect, cohen_kappa, share
from tests.oracle.tables import LABELLED_BY, ERow, OColumn, OTable

UNREAD_COUNTS_AS = {"ffe_generation": "hallucinated", "ffe_translation": "hallucinated",
                    "allusion_knowledge": "incorrect", "allusion_open": None}
"""The label each task's rates count an unread output as (the papers': no Persian expression is not an existing
FFE, an explanation of nothing shows no knowledge); None: counted wrong without a label of its own (open-ended
accuracy), so the rules' line leaves it out."""


@dataclass
class Labels:
    path: Path
    task: str
    annotators: list[str]
    given: dict[tuple[str, str], list[str | None]]
    """(model as logged, sample id) -> each annotator's label (the third's None where the first two agreed)."""
    texts: dict[tuple[str, str], str]
    """The answer each label is of (the exported run's text)."""
    exported: list[Run] = field(default_factory=list)

    def resolved(self, key: tuple[str, str]) -> str | None:
        first, second, *third = self.given[key]
        if second is None or first == second:
            return first
        return third[0] if third else None

    def of(self, run: Run) -> dict[str, str | None]:
        """sample id -> resolved label of the run's labelled answers, where they are the answers people labelled."""
        mine = {sample_id: key for sample_id in run.asked if (key := (run.raw_model, sample_id)) in self.given}
        if any(run.answers[sample_id].text != self.texts[key] for sample_id, key in mine.items()):
            return {}
        return {sample_id: self.resolved(key) for sample_id, key in mine.items()}


def gather(world: World, task: TaskModel, runs: list[Run], rng: random.Random) -> Labels | None:
    """People label the answers of some of the task's runs: one run per model and set of sample ids (a labels file
    holds one answer per model and sample), two or three annotators, the third labelling only where the first two
    disagree."""
    chosen, seen = [], set()
    for run in rng.sample(runs, len(runs)):
        keys = {(run.raw_model, sample_id) for sample_id in run.asked}
        if run.task is task and not keys & seen and rng.random() < 0.8:
            chosen.append(run)
            seen |= keys
    if not chosen:
        return None
    sheet = world.folder / f"sheet-{task.name}.csv"
    exported = figeval("annotate", "export", *(run.log for run in chosen), "--out", str(sheet), cwd=world.folder)
    assert exported.returncode == 0, exported.stderr
    with sheet.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    annotators = ["ann1", "ann2"] + (["ann3"] if rng.random() < 0.5 else [])
    given: dict[tuple[str, str], list[str | None]] = {}
    for row in rows:
        first = rng.choice(task.labels)
        second = first if rng.random() < 0.7 else rng.choice(task.labels)
        labels: list[str | None] = [first, second]
        if len(annotators) == 3:
            labels.append(rng.choice(task.labels) if first != second or rng.random() < 0.3 else None)
        given[(row["model"], row["sample_id"])] = labels
    sheets = []
    for index, name in enumerate(annotators):
        path = world.folder / f"{name}-{task.name}.csv"
        with path.open("w", encoding="utf-8-sig", newline="") as handle:
            # each person's own sheet names them (two people's identical work would otherwise be refused as one sheet
            # given twice)
            writer = csv.DictWriter(handle, fieldnames=[*rows[0], "annotator"], lineterminator="\n")
            writer.writeheader()
            for row in rows:
                label = given[(row["model"], row["sample_id"])][index]
                if index < 2 or label is not None:
                    writer.writerow({**row, "label": label, "annotator": name})
        sheets.append(str(path))
    out = world.folder / f"labels-{task.name}.csv"
    imported = figeval("annotate", "import", *sheets, *(part for name in annotators for part in ("--annotator", name)),
                       "--out", str(out), cwd=world.folder)
    assert imported.returncode == 0, imported.stderr
    by_model = {(run.raw_model, sample_id): run.answers[sample_id].text for run in chosen for sample_id in run.asked}
    return Labels(out, task.name, annotators, given, by_model, chosen)


def people_rows(table: OTable, rows: list[ERow], labels: list[Labels]) -> list[ERow]:
    """Under each of the user's rows with people's columns, the row of the people's labels of the same answers."""
    by_task = {found.task: found for found in labels}
    people = []
    for row in rows:
        cells, files = {}, set()
        for column in table.columns:
            run, found = row.runs.get(column.key), by_task.get(column.task)
            if not column.human_label or run is None or found is None:
                continue
            resolved = [label for label in found.of(run).values() if label is not None]
            if resolved:
                cells[column.key] = share(sum(label == column.human_label for label in resolved), len(resolved),
                                          len(run.asked))
                files.add(found.path.name)
        if cells:
            people.append(ERow(row.label, {**row.settings, LABELLED_BY: f"people ({', '.join(sorted(files))})"}, cells))
    return rows + people


def final_label(task: str, label: str | None) -> str | None:
    """The run's own label of an output as its rates count it (an unread one by the task's policy); None for a judge
    failure (left out)."""
    if label == JUDGE_UNREADABLE:
        return None
    return UNREAD_COUNTS_AS[task] if label is UNREAD else label


def agreement(pairs: list[tuple[str, str]], key: str) -> dict[str, Expect]:
    """Agreement (`key`: a share, Wilson) and Cohen's kappa (a bootstrap from 30 items; none below, or when it is
    undefined) over (rater, rater) label pairs."""
    if not pairs:
        return {}
    first, second = [a for a, _ in pairs], [b for _, b in pairs]
    found = {key: share(sum(a == b for a, b in pairs), len(pairs))}
    kappa = cohen_kappa(first, second)
    if kappa is not None:
        found["kappa"] = Expect(kappa, len(pairs), "bootstrap" if len(pairs) >= 30 else "none")
    return found


def kappa_value(expected: Expect) -> float:
    return float(expected.value) if not isinstance(expected.value, Fraction) else float(expected.value)


def _differing(runs: list[Run]) -> list[str]:
    """The settings some model's runs differ in (each run's value, or its absence)."""
    names = sorted({name for run in runs for name in run.settings})
    return [name for name in names if any(len({str(run.settings.get(name)) for run in runs if run.model == model}) > 1
                                          for model in {run.model for run in runs})]


def agreement_tables(found: Labels, runs: list[Run], unit: str) -> list[tuple[OTable, list[ERow]]]:
    """The judge against the resolved labels (per labelled run: each judge's own labels, then the run's final labels
    with the rules, a line of its own) and the annotators against each other (per model and set of answers, then
    over all labels)."""
    key = "agreement" if unit == "percent" else "em"
    columns = (OColumn(key, found.task, lambda run: None),
               OColumn("kappa", found.task, lambda run: None, unit="fraction"))
    judged = OTable(f"judge-agreement/{found.task}", "", "", unit, columns)
    labelled = [run for run in runs if run.task.name == found.task and found.of(run)]
    differing = _differing(labelled)
    settings_of = [name for name in differing if name != "judge"]
    rows = []
    for run in labelled:
        resolved = found.of(run)
        setting = {name: run.settings.get(name, "") for name in settings_of}
        own = [(answer.judge_label, resolved[sample_id]) for sample_id in run.asked
               if (answer := run.answers[sample_id]).judge_label is not None and resolved.get(sample_id) is not None]
        # a judge's line wherever it was asked, though it gave no readable label (its answers all unreadable)
        if any(run.answers[sample_id].judge for sample_id in run.asked):
            rows.append(ERow(run.model, {"judge": run.judge_path, **setting}, agreement(own, key)))
        final = [(label, resolved[sample_id]) for sample_id in run.asked
                 if (label := final_label(found.task, run.answers[sample_id].label)) is not None
                 and resolved.get(sample_id) is not None]
        rules = "with figeval's rules" + (f" (judge {run.settings.get('judge', '')})" if "judge" in differing else "")
        rows.append(ERow(run.model, {"judge": rules, **setting}, agreement(final, key)))
    found_tables = [(judged, rows)]
    if len(found.annotators) >= 2:
        groups: dict[tuple, list[Run]] = {}
        for run in labelled:
            groups.setdefault((run.model, tuple(sorted(found.of(run)))), []).append(run)
        common = {key: dict(set.intersection(*(set(r.settings.items()) for r in members)))
                  for key, members in groups.items()}
        named = []
        for group_key, members in groups.items():
            others = [settings for other, settings in common.items() if other[0] == group_key[0] and other != group_key]
            told = {k: v for k, v in sorted(common[group_key].items()) if any(o.get(k) != v for o in others)}
            name = group_key[0] + (f" ({', '.join(f'{k}={v}' for k, v in told.items())})" if told else "")
            named.append((name, [(members[0].raw_model, sample_id) for sample_id in group_key[1]]))
        everything = list(dict.fromkeys(k for _, keys in named for k in keys))
        people_rows_ = []
        for i, j in ((0, 1), (0, 2), (1, 2)):
            if j >= len(found.annotators):
                continue
            pair = f"{found.annotators[i]} vs {found.annotators[j]}"
            for name, keys in [*named, ("all labels", everything)]:
                both = [(found.given[k][i], found.given[k][j]) for k in keys
                        if found.given[k][i] is not None and found.given[k][j] is not None]
                people_rows_.append(ERow(name, {"annotators": pair}, agreement(both, key)))
        found_tables.append((OTable(f"annotator-agreement/{found.task}", "", "", unit, columns), people_rows_))
    return found_tables
