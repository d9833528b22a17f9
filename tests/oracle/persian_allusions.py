"""The Persian allusions paper as the oracle knows it (Nobakhtian, Yaghoobzadeh, Pilehvar, Section 3, Table 3):
knowledge (an expert's complete / partial / incorrect; only complete shows knowledge, Section 3.1), recognition
by multiple choice (the right option of five, or none) and open-ended (a judge labels the named allusion correct or
not, with or without the ground truth). An answer that names nothing counts as wrong, or as no knowledge; a judge's
unreadable answer leaves its output out."""

from __future__ import annotations

import random

from tests.oracle.harness import JUDGE_UNREADABLE, UNREAD, Answer, Run, Sample, TaskModel, World
from tests.oracle.measure import Expect, share
from tests.oracle.tables import OColumn, OTable

EXPLANATION = "This verse refers to a well-known story of Persian literature."


def _judged(codes: dict[str, int]):
    def answer(sample: Sample, label: str | None, rng: random.Random, args) -> Answer:
        if label is UNREAD:
            return Answer(sample, UNREAD, "")
        if label == JUDGE_UNREADABLE:
            return Answer(sample, JUDGE_UNREADABLE, EXPLANATION, "no idea")
        if label == "incorrect" and rng.random() < 0.3:
            return Answer(sample, label, "[]", "", by_rule=True)  # names nothing: wrong by rule, no judge asked
        return Answer(sample, label, EXPLANATION, f'{{"label": {codes[label]}}}', judge_label=label)
    return answer


def _mc_answer(sample: Sample, label: str | None, rng: random.Random, args) -> Answer:
    if label is UNREAD:
        return Answer(sample, UNREAD, rng.choice(["Maybe", "I am not sure", "1 or 2"]))
    return Answer(sample, label, label)


KNOWLEDGE = TaskModel("allusion_knowledge", ("complete", "partial", "incorrect"),
                      _judged({"incorrect": 0, "partial": 1, "complete": 2}),
                      {"prompt_lang": "en", "judge": None}, judged=True)
MC = TaskModel("allusion_mc", tuple(str(option) for option in range(6)), _mc_answer,
               {"dataset": "perspoems", "prompt_lang": "en", "seed": 0, "generated": None, "answer_mode": "auto"},
               files=frozenset({"generated"}))
OPEN = TaskModel("allusion_open", ("correct", "incorrect"), _judged({"incorrect": 0, "correct": 1}),
                 {"dataset": "perspoems", "prompt_lang": "en", "judge_mode": "gt", "judge": None, "generated": None},
                 files=frozenset({"generated"}), judged=True)


def judged_share(label: str):
    """Of the outputs a label was given (the judge's failures left out), the share with `label`; an unread output
    names nothing, so is never it."""
    def measure(run: Run) -> Expect | None:
        counted = [a for a in run.outcomes() if a.label != JUDGE_UNREADABLE]
        return share(sum(a.label == label for a in counted), len(counted), len(run.asked))
    return measure


def mc_accuracy(run: Run) -> Expect | None:
    answers = run.outcomes()
    return share(sum(a.label == a.sample.target for a in answers), len(answers), len(answers))


def status(of: str | None):
    def measure(run: Run) -> Expect | None:
        answers = run.outcomes()
        return share(sum((a.label is UNREAD) if of is None else a.label == of for a in answers), len(answers),
                     len(answers))
    return measure


def _recognition(dataset: str) -> tuple[OColumn, ...]:
    gt, no_gt, mc = (("dataset", dataset), ("judge_mode", "gt")), (("dataset", dataset), ("judge_mode", "no_gt")), \
        (("dataset", dataset),)
    return (OColumn(f"{dataset}/open", OPEN.name, judged_share("correct"), gt, human_label="correct"),
            OColumn(f"{dataset}/open/unparsed", OPEN.name, status(None), gt),
            OColumn(f"{dataset}/open/judge_unreadable", OPEN.name, status(JUDGE_UNREADABLE), gt),
            OColumn(f"{dataset}/mc", MC.name, mc_accuracy, mc),
            OColumn(f"{dataset}/mc/unparsed", MC.name, status(None), mc),
            OColumn(f"{dataset}/open_no_gt", OPEN.name, judged_share("correct"), no_gt),
            OColumn(f"{dataset}/open_no_gt/unparsed", OPEN.name, status(None), no_gt),
            OColumn(f"{dataset}/open_no_gt/judge_unreadable", OPEN.name, status(JUDGE_UNREADABLE), no_gt))


TABLE_3 = OTable("persian-allusions/table-3", "persian_allusions", "Table 3", "percent", (
    OColumn("knowledge", KNOWLEDGE.name, judged_share("complete"), human_label="complete"),
    OColumn("knowledge/unparsed", KNOWLEDGE.name, status(None)),
    OColumn("knowledge/judge_unreadable", KNOWLEDGE.name, status(JUDGE_UNREADABLE)),
    *_recognition("perspoems"), *_recognition("generated")))
TABLES = (TABLE_3,)
HEADLINES = (OColumn("allusion_knowledge", KNOWLEDGE.name, judged_share("complete")),
             OColumn("allusion_mc", MC.name, mc_accuracy, (("dataset", "perspoems"),)),
             OColumn("allusion_open", OPEN.name, judged_share("correct"), (("dataset", "perspoems"), ("judge_mode", "gt"))))


def answers(task: TaskModel, samples: list[Sample], rng: random.Random) -> dict[str, Answer]:
    found = {}
    for sample in samples:
        if task is MC:
            wrong = rng.choice([option for option in task.labels if option != sample.target])
            label = rng.choice([sample.target, sample.target, wrong, UNREAD])
        else:
            label = rng.choice([*task.labels, *task.labels, UNREAD, JUDGE_UNREADABLE])
        found[sample.id] = task.answer(sample, label, rng, {})
    return found


def scenario(world: World, rng: random.Random) -> None:
    """Two or three models, each with some of knowledge, MC and open-ended runs on either dataset, open-ended
    judged with and without the ground truth, in either prompt language; MC and open-ended runs ask the same ids, so
    each task's answers are a file of their own, the runs named by --name."""
    for model in [f"m{i}" for i in range(1, rng.choice([3, 4]))]:
        lang = rng.choice(["en", "en", "fa"])
        plans = [(KNOWLEDGE, {"prompt_lang": lang})] if rng.random() < 0.7 else []
        for dataset in rng.sample(["perspoems", "generated"], rng.choice([1, 2])):
            plans.append((MC, {"dataset": dataset, "prompt_lang": lang}))
            for mode in rng.sample(["gt", "no_gt"], rng.choice([1, 2])):
                plans.append((OPEN, {"dataset": dataset, "prompt_lang": lang, "judge_mode": mode}))
        if rng.random() < 0.3:  # the same model in the other language: rows of their own
            plans.append((MC, {"dataset": "perspoems", "prompt_lang": "fa" if lang == "en" else "en"}))
        for task, args in plans:
            run = Run(task, model, args, answers(task, world.samples(task.name, args), rng),
                      limit=rng.choice([None, None, 6]))
            world.run(run, folder=task.name, name=model)
