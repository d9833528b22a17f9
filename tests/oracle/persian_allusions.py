"""The Persian allusions paper as the oracle knows it (Nobakhtian, Yaghoobzadeh, Pilehvar, Section 3, Table 3):
knowledge (an expert's complete / partial / incorrect; only complete shows knowledge, Section 3.1), recognition
by multiple choice (the right option of five, or none) and open-ended (a judge labels the named allusion correct or
not, with or without the ground truth). An answer that names nothing counts as wrong, or as no knowledge; a judge's
unreadable answer leaves its output out."""

from __future__ import annotations

import random

from tests.oracle.harness import JUDGE_UNREADABLE, UNREAD, Answer, Run, Sample, TaskModel, World
from tests.oracle.measure import Expect, share
from tests.oracle.tables import ERow, OColumn, OTable

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
HEADLINES = (OColumn("allusion_knowledge", KNOWLEDGE.name, judged_share("complete")),
             OColumn("allusion_mc", MC.name, mc_accuracy, (("dataset", "perspoems"),)),
             OColumn("allusion_open", OPEN.name, judged_share("correct"),
                     (("dataset", "perspoems"), ("judge_mode", "gt"))))


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


# --- Section 4's analyses: runs read together only where their settings agree -----------------------------------

THEMES = ("religious", "quranic", "mythical-historical", "romantic", "mystical", "other")  # Table 2's order
PICKED = frozenset({"dataset", "judge_mode"})


def _dataset(run: Run) -> str:
    return run.settings.get("dataset", "perspoems")


def _mode(run: Run) -> str:
    return run.settings.get("judge_mode", "") if run.task is OPEN else ""


def _settings(runs: list[Run]) -> dict:
    found: dict = {}
    for run in runs:
        found |= {(name, run.task.name if name in run.own else ""): value
                  for name, value in run.settings.items() if name not in PICKED}
    return found


def _agree(runs: list[Run], also: frozenset[str] = frozenset()) -> bool:
    each = [{k: v for k, v in _settings([run]).items() if k[0] not in also} for run in runs]
    return all(a[k] == b[k] for i, a in enumerate(each) for b in each[i + 1:] for k in set(a) & set(b))


def _recognized(run: Run) -> list[tuple[Answer, bool]]:
    """Each counted text and whether it was recognized: MC, the right option (an unread answer wrong); open-ended,
    judged correct (the judge's failures left out)."""
    if run.task is MC:
        return [(a, a.label == a.sample.target) for a in run.outcomes()]
    return [(a, a.label == "correct") for a in run.outcomes() if a.label != JUDGE_UNREADABLE]


def _knows(run: Run) -> dict[str, bool]:
    from figeval.benchmarks.persian_allusions.titles import allusion_key  # how titles are compared (data, not a table)

    return {allusion_key(a.sample.metadata["allusion"]): a.label == "complete" for a in run.outcomes()
            if a.label != JUDGE_UNREADABLE}


def _text(answer: Answer) -> str:
    """The text a sample asks about: its id less the task's suffix ("perspoems-007/mc": "perspoems-007")."""
    return str(answer.sample.id).rsplit("/", 1)[0]


def _key(answer: Answer) -> str:
    from figeval.benchmarks.persian_allusions.titles import allusion_key

    return allusion_key(answer.sample.metadata["allusion"])


def _named(rows: list[tuple[str, dict, dict, dict]]) -> list[ERow]:
    """ERows of (model, fixed settings, scoped settings, cells), a scoped name qualified where two scopes share it."""
    scopes: dict[str, set[str]] = {}
    for _, _, settings, _ in rows:
        for name, scope in settings:
            scopes.setdefault(name, set()).add(scope)
    return [ERow(model, {**fixed, **{(f"{n} ({s})" if s and len(scopes[n]) > 1 else n): v
                                     for (n, s), v in settings.items()}}, cells)
            for model, fixed, settings, cells in rows]


def _fixed(**values: str) -> dict[str, str]:
    return {key: value for key, value in values.items() if value}


def _by(task: TaskModel, runs: list[Run]) -> list[Run]:
    return [run for run in runs if run.task is task]


def gap_rows(runs: list[Run]) -> list[ERow]:
    rows = []
    for open_ in _by(OPEN, runs):
        for mc in _by(MC, runs):
            if mc.model == open_.model and _dataset(mc) == _dataset(open_) and _agree([mc, open_]):
                m, o = mc_accuracy(mc), judged_share("correct")(open_)
                if m is None or o is None:  # a run with no accuracy (every judge answer unreadable) is no side
                    continue
                cells = {"mc": m, "open": o, "gap": Expect(m.value - o.value, None, "none"),
                         "mc_unparsed": status(None)(mc), "open_unparsed": status(None)(open_),
                         "open_judge_unreadable": status(JUDGE_UNREADABLE)(open_)}
                rows.append((open_.model, _fixed(dataset=_dataset(open_), judge_mode=_mode(open_)),
                             _settings([mc, open_]), {k: v for k, v in cells.items() if v is not None}))
    return _named(rows)


def theme_rows(runs: list[Run]) -> list[ERow]:
    rows = []
    for run in (*_by(MC, runs), *_by(OPEN, runs)):
        per_theme: dict[str, list[bool]] = {}
        for answer, recognized in _recognized(run):
            for theme in dict.fromkeys(answer.sample.metadata.get("themes") or []):
                per_theme.setdefault(theme, []).append(recognized)
        cells = {theme: share(sum(found), len(found)) for theme, found in per_theme.items() if found}
        rows.append((run.model, _fixed(task=run.task.name, dataset=_dataset(run), judge_mode=_mode(run)),
                     _settings([run]), cells))
    return _named(rows)


def drop_rows(runs: list[Run]) -> list[ERow]:
    rows = []
    for task in (MC, OPEN):
        for poems in (r for r in _by(task, runs) if _dataset(r) == "perspoems"):
            for generated in (r for r in _by(task, runs) if _dataset(r) == "generated"):
                if generated.model == poems.model and _mode(generated) == _mode(poems) and \
                        _agree([poems, generated], frozenset({"dataset"})):
                    measure = mc_accuracy if task is MC else judged_share("correct")
                    p, g = measure(poems), measure(generated)
                    if p is None or g is None:
                        continue
                    cells = {"perspoems": p, "generated": g, "drop": Expect(p.value - g.value, None, "none")}
                    for name, run in (("perspoems", poems), ("generated", generated)):
                        cells[f"{name}_unparsed"] = status(None)(run)
                        if task is OPEN:
                            cells[f"{name}_judge_unreadable"] = status(JUDGE_UNREADABLE)(run)
                    rows.append((poems.model, _fixed(task=task.name, judge_mode=_mode(poems)),
                                 _settings([poems, generated]), cells))
    return _named(rows)


def _ids(found: list[str]) -> str:
    return ", ".join(found)


def cross_rows(runs: list[Run]) -> list[ERow]:
    rows = []
    for known in _by(KNOWLEDGE, runs):
        knows = _knows(known)
        for run in (*_by(MC, runs), *_by(OPEN, runs)):
            if run.model != known.model or not _agree([known, run]):
                continue
            counts: dict[tuple[bool, bool], list[str]] = {(k, r): [] for k in (True, False) for r in (True, False)}
            for answer, recognized in _recognized(run):
                if _key(answer) in knows:
                    counts[(knows[_key(answer)], recognized)].append(_text(answer))
            if any(counts.values()):
                cells = {f"{'knows' if k else 'not'}/{'recognized' if r else 'missed'}":
                         Expect(len(ids), None, "none", label=_ids(ids[:3])) for (k, r), ids in counts.items()}
                rows.append((run.model, _fixed(task=run.task.name, dataset=_dataset(run), judge_mode=_mode(run)),
                             _settings([known, run]), cells))
    return _named(rows)


def listing_rows(runs: list[Run]) -> list[ERow]:
    rows = []
    for known in _by(KNOWLEDGE, runs):
        knows = _knows(known)
        for open_ in _by(OPEN, runs):
            for mc in _by(MC, runs):
                if not (mc.model == open_.model == known.model and _dataset(mc) == _dataset(open_)
                        and _agree([known, mc, open_])):
                    continue
                right = {_text(a) for a, recognized in _recognized(mc) if recognized}
                found: dict[bool, list[str]] = {True: [], False: []}
                for answer, recognized in _recognized(open_):
                    if _text(answer) in right and not recognized and _key(answer) in knows:
                        found[knows[_key(answer)]].append(_text(answer))
                cells = {("knows" if k else "not"): Expect(len(ids), None, "none", label=_ids(sorted(ids)))
                         for k, ids in found.items()}
                rows.append((open_.model, _fixed(dataset=_dataset(open_), judge_mode=_mode(open_)),
                             _settings([known, mc, open_]), cells))
    return _named(rows)


def _count(key: str) -> OColumn:
    return OColumn(key, "", lambda run: None)


GAP = OTable("persian-allusions/gap", "persian_allusions", "", "percent", tuple(_count(k) for k in (
    "mc", "open", "gap", "mc_unparsed", "open_unparsed", "open_judge_unreadable")))
THEME_TABLE = OTable("persian-allusions/themes", "persian_allusions", "", "percent",
                     tuple(_count(theme) for theme in THEMES), cell_n=True)
DROP = OTable("persian-allusions/drop", "persian_allusions", "", "percent", tuple(_count(k) for k in (
    "perspoems", "generated", "drop", "perspoems_unparsed", "generated_unparsed", "perspoems_judge_unreadable",
    "generated_judge_unreadable")))
CROSS = OTable("persian-allusions/knowledge-x-recognition", "persian_allusions", "", "count", tuple(
    _count(f"{k}/{r}") for k in ("knows", "not") for r in ("recognized", "missed")))
LISTING = OTable("persian-allusions/mc-not-open", "persian_allusions", "", "count", (_count("knows"), _count("not")))
TABLES = (TABLE_3, GAP, THEME_TABLE, DROP, CROSS, LISTING)
# how the paper prints a judge's agreement with people (Table 4: exact match); the paper prints none for knowledge
AGREEMENT_UNIT = {"allusion_open": "fraction", "allusion_knowledge": "percent"}
LABELLED = (KNOWLEDGE, OPEN)  # the tasks whose outputs the paper's expert labelled (Sections 3.1 and 3.3)
CUSTOM = {GAP.key: gap_rows, THEME_TABLE.key: theme_rows, DROP.key: drop_rows, CROSS.key: cross_rows,
          LISTING.key: listing_rows}
