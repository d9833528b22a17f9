"""FFE-HALLU as the oracle knows it (Hosseini, Yousefzadeh, Yaghoobzadeh). Task 2 (Section 3.2, Table 4, Figure 1):
each fake asked "is it fake?" and "is it real?"; a hallucination is accepting a fake as real, and an answer that
does not identify the fake as fake counts as one (Section 4). Tasks 1 and 3 (Tables 3 and 5): every output
labelled correct, incorrect or hallucinated (Section 3.5: by people; a run's by its judge), an output with no
Persian expression hallucinated; a judge's unreadable answer leaves its output out. Ours: the authentic controls'
false rejections, the unparsed and judge-unreadable shares, the published-vs-fresh fakes check."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

from tests.oracle.harness import JUDGE_UNREADABLE, UNREAD, Answer, Run, Sample, TaskModel, World, file_identity
from tests.oracle.measure import MIN_BOOTSTRAP, Expect, share
from tests.oracle.tables import ERow, OColumn, OTable

FABRICATED = "گربه را دم دروازه کشتن"  # no authentic FFE: the judge decides it
NO_EXPRESSION = "I'm not sure, sorry."
JUDGE_CODES = {"hallucinated": 0, "correct": 1, "incorrect": 2}
CATEGORY_SLUGS = ("word_perturbation", "semantic_inversion_contradiction", "phonetic_poetic_mimicry",
                  "cultural_fabrication")


def _detection_answer(sample: Sample, label: str | None, rng: random.Random, args) -> Answer:
    """A verdict (real/fake) said as the framing asks it: "is it fake?" Yes is fake, "is it real?" Yes is real."""
    if label is UNREAD:
        return Answer(sample, UNREAD, rng.choice(["Hmm, hard to say.", "Maybe", "???"]))
    fake_q = sample.metadata["framing"] == "fake-q"
    says_yes = (label == "fake") == fake_q
    return Answer(sample, label, rng.choice(["Yes", "Yes.", "بله"] if says_yes else ["No", "No.", "خیر"]))


def _judged_answer(sample: Sample, label: str | None, rng: random.Random, args) -> Answer:
    """The model's expression and the judge's answer: the reference itself (correct by rule, whatever the judge
    says), an expression the judge labels, one with no Persian (unread, the judge still asked), or one the judge's
    answer cannot be read of."""
    references = sample.metadata["references"]
    code = rng.choice(list(JUDGE_CODES))
    if label is UNREAD:
        return Answer(sample, UNREAD, NO_EXPRESSION, f'{{"label": {JUDGE_CODES[code]}}}', judge_label=code)
    if label == JUDGE_UNREADABLE:
        return Answer(sample, JUDGE_UNREADABLE, FABRICATED, "no idea")
    if label == "correct" and rng.random() < 0.4:
        return Answer(sample, "correct", references[0], f'{{"label": {JUDGE_CODES[code]}}}', judge_label=code,
                      by_rule=True)
    return Answer(sample, label, FABRICATED, f'{{"label": {JUDGE_CODES[label]}}}', judge_label=label)


DETECTION = TaskModel("ffe_detection", ("real", "fake"), _detection_answer,
                      {"controls": True, "answer_mode": "auto", "fakes": None}, files=frozenset({"fakes"}))
JUDGE_LABELS = ("correct", "incorrect", "hallucinated")
GENERATION = TaskModel("ffe_generation", JUDGE_LABELS, _judged_answer,
                       {"meaning": "human", "paraphrases": None, "judge": None, "judge_prompt": "paper",
                        "judge_every_output": True, "known_idiom_hint": False},
                       files=frozenset({"paraphrases"}), judged=True)
TRANSLATION = TaskModel("ffe_translation", JUDGE_LABELS, _judged_answer,
                        {"pairs": None, "judge": None, "judge_prompt": "paper", "judge_every_output": True,
                         "known_idiom_hint": False},
                        files=frozenset({"pairs"}), judged=True)


# --- Task 2 ---------------------------------------------------------------------------------------------------------

def _fakes(run: Run, framing: str | None = None, slug: str | None = None) -> list[Answer]:
    return [a for a in run.outcomes() if a.sample.metadata["kind"] == "fake"
            and framing in (None, a.sample.metadata["framing"]) and slug in (None, a.sample.metadata["category_slug"])]


def _accepted(answers: list[Answer]) -> int:
    """Accepted as real: said real, or not identified as fake (unread)."""
    return sum(a.label in ("real", UNREAD) for a in answers)


def halluc(framing: str):
    def measure(run: Run) -> Expect | None:
        found = _fakes(run, framing)
        return share(_accepted(found), len(found), len(run.asked))
    return measure


def average(run: Run) -> Expect | None:
    fake_q, real_q = _fakes(run, "fake-q"), _fakes(run, "real-q")
    if not fake_q or not real_q:
        return None
    value = (Fraction(_accepted(fake_q), len(fake_q)) + Fraction(_accepted(real_q), len(real_q))) / 2
    return Expect(value, len(fake_q) + len(real_q), "wilson", len(run.asked))


def agreement(run: Run) -> Expect | None:
    """Section 3.2's two labels per answer, an unread one hallucinated (accepted) as Section 4 counts it."""
    by_item: dict[str, list[str | None]] = {}
    for answer in _fakes(run):
        by_item.setdefault(answer.sample.metadata["item"], []).append(
            "real" if answer.label is UNREAD else answer.label)
    pairs = [labels for labels in by_item.values() if len(labels) == 2]
    return share(sum(a == b for a, b in pairs), len(pairs), len(run.asked))


def fakes_unread(run: Run) -> Expect | None:
    found = _fakes(run)
    return share(sum(a.label is UNREAD for a in found), len(found), len(run.asked))


def false_rejection(run: Run) -> Expect | None:
    controls = [a for a in run.outcomes() if a.sample.metadata["kind"] == "real"]
    return share(sum(a.label in ("fake", UNREAD) for a in controls), len(controls), len(run.asked))


def accuracy_by(framing: str, slug: str):
    def measure(run: Run) -> Expect | None:
        found = _fakes(run, framing, slug)
        if not found:
            return None
        return Expect(1 - Fraction(_accepted(found), len(found)), len(found), "wilson", len(run.asked))
    return measure


TABLE_4 = OTable("ffe-hallu/table-4", "ffe_hallu", "Table 4", "percent", (
    OColumn("fake_q", DETECTION.name, halluc("fake-q")), OColumn("real_q", DETECTION.name, halluc("real-q")),
    OColumn("avg", DETECTION.name, average), OColumn("agreement", DETECTION.name, agreement),
    OColumn("unparsed", DETECTION.name, fakes_unread), OColumn("false_rejection", DETECTION.name, false_rejection)))
FIGURE_1 = OTable("ffe-hallu/figure-1", "ffe_hallu", "Figure 1", "percent", (
    *(OColumn(f"{framing.replace('-', '_')}/{slug}", DETECTION.name, accuracy_by(framing, slug))
      for framing in ("fake-q", "real-q") for slug in CATEGORY_SLUGS),
    OColumn("unparsed", DETECTION.name, fakes_unread)))


# --- Tasks 1 and 3 --------------------------------------------------------------------------------------------------

def judged_share(label: str):
    """A label's share of the outputs a label was given (the judge's failures left out); an unread output counts
    as hallucinated."""
    def measure(run: Run) -> Expect | None:
        counted = [a for a in run.outcomes() if a.label != JUDGE_UNREADABLE]
        hits = sum(a.label == label or (label == "hallucinated" and a.label is UNREAD) for a in counted)
        return share(hits, len(counted), len(run.asked))
    return measure


def status_share(status: str | None):
    def measure(run: Run) -> Expect | None:
        answers = run.outcomes()
        return share(sum(a.label == status if status else a.label is UNREAD for a in answers), len(answers),
                     len(answers))
    return measure


def _judged_columns(task: str, prefix: str = "", **where: str) -> tuple[OColumn, ...]:
    key = f"{prefix}/" if prefix else ""
    settings = tuple(where.items())
    return (*(OColumn(f"{key}{label}", task, judged_share(label), settings, human_label=label)
              for label in JUDGE_LABELS),
            OColumn(f"{key}unparsed", task, status_share(None), settings),
            OColumn(f"{key}judge_unreadable", task, status_share(JUDGE_UNREADABLE), settings))


TABLE_3 = OTable("ffe-hallu/table-3", "ffe_hallu", "Table 3", "percent", (
    *_judged_columns(GENERATION.name, "human", meaning="human"),
    *_judged_columns(GENERATION.name, "paraphrased", meaning="paraphrased")))
TABLE_5 = OTable("ffe-hallu/table-5", "ffe_hallu", "Table 5", "percent", _judged_columns(TRANSLATION.name))
TABLES = (TABLE_3, TABLE_4, FIGURE_1, TABLE_5)
AGREEMENT_UNIT = {"ffe_generation": "percent", "ffe_translation": "percent"}  # Table 6: Agreement(%)
LABELLED = (GENERATION, TRANSLATION)  # the tasks whose outputs the paper's people labelled (Section 3.5)
HEADLINES = (OColumn("ffe_generation", GENERATION.name, judged_share("correct"), (("meaning", "human"),)),
             OColumn("ffe_detection", DETECTION.name, average),
             OColumn("ffe_translation", TRANSLATION.name, judged_share("correct")))


# --- the contamination check (ours): published fakes beside a fresh set ------------------------------------------

def item_rates(run: Run, slug: str | None) -> list[Fraction]:
    by_item: dict[str, list[Answer]] = {}
    for answer in _fakes(run, slug=slug):
        by_item.setdefault(answer.sample.metadata["item"], []).append(answer)
    return [Fraction(_accepted(answers), len(answers)) for answers in by_item.values()]


def contamination(published: Run, fresh: Run, slug: str | None) -> dict[str, Expect]:
    before, after = item_rates(published, slug), item_rates(fresh, slug)
    cells = {}
    for key, rates in (("published", before), ("fresh", after)):
        if rates:
            cells[key] = Expect(sum(rates) / len(rates), len(rates),
                                "bootstrap" if len(rates) >= MIN_BOOTSTRAP else "none")
    if before and after:
        cells["difference"] = Expect(sum(after) / len(after) - sum(before) / len(before), min(len(before), len(after)),
                                     "bootstrap" if min(len(before), len(after)) >= MIN_BOOTSTRAP else "none")
    for key, run in (("published_unparsed", published), ("fresh_unparsed", fresh)):
        answers = _fakes(run, slug=slug)
        if answers:
            cells[key] = share(sum(a.label is UNREAD for a in answers), len(answers))
    return cells


# --- files a researcher gives ------------------------------------------------------------------------------------

def paraphrase_sheet(world: World, rows: int) -> Path:
    """`figeval build ffe-hallu-paraphrases`' sheet with its first `rows` rows verified by a person."""
    from figeval.benchmarks.ffe_hallu.dataset import authentic_dataset

    items = {item.row: item for item in authentic_dataset()[0]}
    path = world.folder / "paraphrases.csv"
    lines = ["row,farsi_idiom,Meaning,paraphrase,verified"]
    lines += [f"{row},{items[row].expression},{items[row].meaning},بازنویسی: {items[row].meaning},yes"
              for row in range(1, rows + 1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def pairs_file(world: World, count: int) -> Path:
    """English idioms with Persian equivalents (the upstream file is damaged: a researcher gives one)."""
    path = world.folder / "pairs.csv"
    equivalents = ["یخ جلسه را شکستن", "مثل آب خوردن", "با یک تیر دو نشان زدن", "آب از سرش گذشتن",
                   "دست به دست هم دادن", "کار از کار گذشتن", "سنگ روی یخ شدن", "دل به دریا زدن"]
    lines = ["English Idiom,Farsi Idiom"] + [f"english idiom number {i},{equivalents[i % len(equivalents)]}"
                                             for i in range(count)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def fresh_fakes(world: World, per_category: int) -> Path:
    """A fake set of the researcher's own, in the layout of the published one."""
    from figeval.benchmarks.ffe_hallu.dataset import FAKE_CATEGORIES

    path = world.folder / "fakes.csv"
    lines = ["Fake Idiom,Source Idiom,Category"]
    lines += [f"عبارت ساختگی شماره {c}{i} در فارسی,عبارت اصلی {c}{i},{category}"
              for c, category in enumerate(FAKE_CATEGORIES) for i in range(per_category)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --- the scenario ----------------------------------------------------------------------------------------------------

def answers(task: TaskModel, samples: list[Sample], rng: random.Random, args) -> dict[str, Answer]:
    outcomes = [*task.labels, *task.labels, UNREAD] + ([JUDGE_UNREADABLE] if task.judged else [])
    return {sample.id: task.answer(sample, rng.choice(outcomes), rng, args) for sample in samples}


def scenario(world: World, rng: random.Random) -> None:
    """Two or three models; each the paper's protocol (with a judge, paraphrases and pairs) or single runs: detection
    on subsets and sometimes the whole set, with or without controls, sometimes on a fresh fake set; generation with
    either meaning source; translation."""
    paraphrases = paraphrase_sheet(world, 6)
    pairs = pairs_file(world, 5)
    fakes = fresh_fakes(world, 2)
    files = {"paraphrases": file_identity(paraphrases), "pairs": file_identity(pairs), "fakes": file_identity(fakes)}
    for model in [f"m{i}" for i in range(1, rng.choice([3, 4]))]:
        if rng.random() < 0.35:
            runs = []
            for task, args in ((DETECTION, {}), (GENERATION, {"meaning": "human"}),
                               (GENERATION, {"meaning": "paraphrased", "paraphrases": str(paraphrases)}),
                               (TRANSLATION, {"pairs": str(pairs)})):
                samples = world.samples(task.name, args)
                run = Run(task, model, dict(args), answers(task, samples, rng, args))
                run.files = {name: files[name] for name in task.files if name in args}
                runs.append(run)
            world.paper("ffe-hallu", model, runs, {"paraphrases": str(paraphrases), "pairs": str(pairs)},
                        limit=rng.choice([10, 20]))
        for _ in range(rng.choice([1, 2, 3])):
            task = rng.choice([DETECTION, DETECTION, GENERATION, TRANSLATION])
            args: dict[str, str] = {}
            limit = rng.choice([10, 20, 40]) if task is DETECTION else rng.choice([6, 12])
            if task is DETECTION:
                if rng.random() < 0.3:
                    args["controls"] = rng.choice(["true", "false"])
                if rng.random() < 0.3:
                    args["fakes"] = str(fakes)
                    limit = None
                elif rng.random() < 0.1:
                    limit = None  # the whole published set: 800 samples
            elif task is GENERATION:
                if rng.random() < 0.4:
                    args |= {"meaning": "paraphrased", "paraphrases": str(paraphrases)}
                    limit = None
                if rng.random() < 0.2:
                    args["judge_prompt"] = "human"
            else:
                args["pairs"] = str(pairs)
                limit = None
            samples = world.samples(task.name, args)
            run = Run(task, model, args, answers(task, samples, rng, args), limit=limit)
            run.files = {name: files[name] for name in task.files if name in args}
            world.run(run)


PAPER_CATEGORY = {"word_perturbation": "Word Perturbation", "semantic_inversion_contradiction": "Semantic Inversion",
                  "phonetic_poetic_mimicry": "Structural/Syntactic Mimicry",
                  "cultural_fabrication": "Cultural/Historical Fabrication"}
CONTAMINATION = OTable("ffe-hallu/contamination", "ffe_hallu", "", "percent", tuple(
    OColumn(key, DETECTION.name, lambda run: None)
    for key in ("published", "fresh", "difference", "published_unparsed", "fresh_unparsed")), intervals=True)


def contamination_rows(runs: list[Run]) -> list[ERow]:
    """Each model's detection on the published fakes beside the same model and settings on a fresh set: per
    category (the paper's names) and over all, the mean of the items' hallucination rates, their difference, and
    each set's unread share."""
    detection = [run for run in runs if run.task is DETECTION]

    def settings(run: Run) -> tuple:
        return run.model, tuple(sorted((k, v) for k, v in run.settings.items() if k != "fakes"))

    def best(found: list[Run]) -> Run:
        return max(found, key=lambda run: (run.complete, run.order))

    published: dict[tuple, list[Run]] = {}
    fresh: dict[tuple, list[Run]] = {}
    for run in detection:
        if "fakes" in run.settings:
            fresh.setdefault((settings(run), run.settings["fakes"]), []).append(run)
        else:
            published.setdefault(settings(run), []).append(run)
    rows = []
    for (key, fakes), candidates in sorted(fresh.items()):
        if key not in published:
            continue
        old, new = best(published[key]), best(candidates)
        slugs = sorted({a.sample.metadata["category_slug"] for run in (old, new) for a in _fakes(run)},
                       key=CATEGORY_SLUGS.index)
        for slug in (*slugs, None):
            cells = contamination(old, new, slug)
            if cells:
                category = PAPER_CATEGORY[slug] if slug else "all categories"
                rows.append(ERow(new.model, {**dict(key[1]), "fakes": fakes, "category": category}, cells))
    return rows


TABLES = (*TABLES, CONTAMINATION)
CUSTOM = {CONTAMINATION.key: contamination_rows}
