"""PerHalluEval as the oracle knows it (Hosseini et al., Section 3.5, Appendix B, Tables 1, 2, 4, Figures 3-5 and 8):
each item asked with its correct version (answer Y) and its hallucinated one (answer N). Factual recall: Y on
correct versions; hallucinated recall: N on hallucinated ones; Hamming score: the mean over items of the share of
the item's two versions answered right. The paper is silent on unreadable answers: figeval's declared policy is
`as_wrong` (never right) or `excluded` (left out, with its item for the Hamming score). Precision and F1 take Y as the
positive; under `as_wrong` an unread answer on a hallucinated version is a false positive (figeval's documented
reading; issue 38 questions it). Intervals: the paper's bootstrap over items from 30 items on; below, a recall (a
share) the Wilson interval, the Hamming score and F1 (means over items) none."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product
from pathlib import Path

from tests.oracle.harness import UNREAD, Answer, Run, Sample, TaskModel, World, file_identity
from tests.oracle.measure import MIN_BOOTSTRAP, Expect
from tests.oracle.tables import ERow, OColumn, OTable, expected_rows


def _answer(sample: Sample, label: str | None, rng: random.Random, args) -> Answer:
    if label is UNREAD:
        return Answer(sample, UNREAD, rng.choice(["maybe", "N/A", "Y/N"]))
    return Answer(sample, label, rng.choice({"Y": ["Y", "بله"], "N": ["N", "خیر", "N."]}[label]))


PARAMETERS = {"data": None, "answer_mode": "auto", "unparsed": "as_wrong"}
QA = TaskModel("perhallueval_qa", ("Y", "N"), _answer, PARAMETERS, files=frozenset({"data"}), own=frozenset({"data"}))
TS = TaskModel("perhallueval_summarization", ("Y", "N"), _answer, PARAMETERS, files=frozenset({"data"}),
               own=frozenset({"data"}))


def _items(run: Run, subset: str | None = None) -> dict[str, dict[str, str | None]]:
    """item -> version -> the answer's label (UNREAD as None) for the items the run asked (of a subset)."""
    found: dict[str, dict[str, str | None]] = {}
    for answer in run.outcomes():
        if subset is None or answer.sample.metadata.get("subset") == subset:
            found.setdefault(answer.sample.metadata["item"], {})[answer.sample.metadata["version"]] = answer.label
    return found


def _excluded(run: Run) -> bool:
    return run.args.get("unparsed", "as_wrong") == "excluded"


def recall(version: str, right: str, subset: str | None = None):
    def measure(run: Run) -> Expect | None:
        items = _items(run, subset)
        answers = [versions[version] for versions in items.values() if version in versions]
        if _excluded(run):
            answers = [a for a in answers if a is not UNREAD]
        if not answers:
            return None
        value = Fraction(sum(a == right for a in answers), len(answers))
        bootstrap = len(items) >= MIN_BOOTSTRAP and len(answers) >= MIN_BOOTSTRAP
        return Expect(value, len(answers), "bootstrap" if bootstrap else "wilson", len(run.asked))
    return measure


def hamming(subset: str | None = None):
    def measure(run: Run) -> Expect | None:
        items = _items(run, subset)
        pairs = [v for v in items.values() if "correct" in v and "hallucinated" in v]
        if _excluded(run):
            pairs = [v for v in pairs if UNREAD not in (v["correct"], v["hallucinated"])]
        if not pairs:
            return None
        value = sum(Fraction((v["correct"] == "Y") + (v["hallucinated"] == "N"), 2) for v in pairs) / len(pairs)
        return Expect(value, len(pairs), "bootstrap" if len(items) >= MIN_BOOTSTRAP else "none", len(run.asked))
    return measure


def _confusion(run: Run) -> tuple[int, int, int]:
    """Section 3.5 by the model's answer: TP (Y on a correct version), FP (Y on a hallucinated one), and the
    positives missed, which factual recall counts: every correct version the policy keeps, less TP."""
    items = _items(run)
    correct = [v["correct"] for v in items.values() if "correct" in v]
    hallucinated = [v["hallucinated"] for v in items.values() if "hallucinated" in v]
    if _excluded(run):
        correct = [a for a in correct if a is not UNREAD]
    tp = sum(a == "Y" for a in correct)
    return tp, sum(a == "Y" for a in hallucinated), len(correct) - tp


def precision(run: Run) -> Expect | None:
    tp, fp, missed = _confusion(run)
    if not (tp + fp and tp + missed):
        return None
    return Expect(Fraction(tp, tp + fp), tp + fp, "wilson", len(run.asked))


def f1(run: Run) -> Expect | None:
    tp, fp, missed = _confusion(run)
    if tp == 0:
        return None
    return Expect(Fraction(2 * tp, 2 * tp + fp + missed), tp + fp + missed,
                  "bootstrap" if len(_items(run)) >= MIN_BOOTSTRAP else "none", len(run.asked))


def unread(run: Run) -> Expect | None:
    answers = run.outcomes()
    return Expect(Fraction(sum(a.label is UNREAD for a in answers), len(answers)), len(answers), "wilson",
                  len(answers))


def specific_share(run: Run) -> Expect | None:
    flags = {a.sample.metadata["item"]: a.sample.metadata.get("persian_specific") for a in run.outcomes()}
    flagged = [flag for flag in flags.values() if flag is not None]
    if not flagged:
        return None
    return Expect(Fraction(sum(flagged), len(flagged)), len(flagged), "wilson", len(run.asked))


SHORT = {QA.name: "qa", TS.name: "summarization"}
TABLE_2 = OTable("perhallueval/table-2", "perhallueval", "Table 2", "fraction", (
    *(OColumn(f"{SHORT[t.name]}/hamming_score", t.name, hamming()) for t in (QA, TS)),
    *(OColumn(f"{SHORT[t.name]}/unparsed", t.name, unread) for t in (QA, TS))), intervals=True)


def _recalls(task: TaskModel, figure: str) -> OTable:
    return OTable(f"perhallueval/figure-{figure}", "perhallueval", f"Figure {figure}", "percent", (
        OColumn("factual_recall", task.name, recall("correct", "Y")),
        OColumn("hallucinated_recall", task.name, recall("hallucinated", "N")),
        OColumn("hamming_score", task.name, hamming()), OColumn("unparsed", task.name, unread)), intervals=True)


FIGURE_3, FIGURE_4 = _recalls(QA, "3"), _recalls(TS, "4")
FIGURE_5 = OTable("perhallueval/figure-5", "perhallueval", "Figure 5", "fraction", (
    OColumn("persian_specific", QA.name, hamming("persian_specific")), OColumn("generic", QA.name, hamming("generic")),
    OColumn("persian_specific_share", QA.name, specific_share), OColumn("unparsed", QA.name, unread)),
    intervals=True)
FIGURE_8 = OTable("perhallueval/figure-8", "perhallueval", "Figure 8", "fraction", (
    *(column for t in (QA, TS) for column in (
        OColumn(f"{SHORT[t.name]}/precision", t.name, precision),
        OColumn(f"{SHORT[t.name]}/recall", t.name, recall("correct", "Y")),
        OColumn(f"{SHORT[t.name]}/f1", t.name, f1))),
    *(OColumn(f"{SHORT[t.name]}/unparsed", t.name, unread) for t in (QA, TS))))
TABLE_4 = OTable("perhallueval/table-4", "perhallueval", "Table 4", "fraction", tuple(
    OColumn(f"{SHORT[t.name]}/{name}", t.name, measure) for t in (QA, TS)
    for name, measure in (("hamming_score", hamming()), ("factual_recall", recall("correct", "Y")),
                          ("hallucinated_recall", recall("hallucinated", "N")))))
TABLE_1 = OTable("perhallueval/table-1", "perhallueval", "Table 1", "percent", tuple(
    OColumn(f"{SHORT[t.name]}/share", t.name, lambda run: None) for t in (QA, TS)))
TABLES = (TABLE_2, FIGURE_3, FIGURE_4, FIGURE_5, FIGURE_8, TABLE_4, TABLE_1)
# Table 4's families for the runs here: the report is told m1 and m2 are one family (`--family`), m3 is none of the
# paper's and is a row of its own
FAMILIES = {"m1": "Anthropic", "m2": "Anthropic"}
REPORT_ARGS = tuple(part for model, family in FAMILIES.items() for part in ("--family", f"{model}={family}"))


def _family(run: Run) -> str:
    return FAMILIES.get(run.model, f"unknown family: {run.model}")


def _best(column: OColumn, candidates: list[Run]) -> tuple[Run, Expect] | None:
    """The family's best value among runs of one setting, and its model (ties: the first model by name)."""
    found = [(run, expected) for run in sorted(candidates, key=lambda run: run.model)
             if (expected := column.measure(run)) is not None]
    if not found:
        return None
    run, expected = max(found, key=lambda pair: pair[1].value)  # max keeps the first of equals
    return run, Expect(expected.value, expected.n, expected.interval, expected.samples, label=run.model)


def table_4_rows(runs: list[Run]) -> list[ERow]:
    """Best model per family (Table 4): a model's subset runs are left out where it has a complete run of the task;
    values compete within a family and setting only."""
    complete = {(run.task.name, run.model) for run in runs if run.complete}
    runs = [run for run in runs if run.complete or (run.task.name, run.model) not in complete]
    return expected_rows(TABLE_4, runs, group=_family, choose=_best, defined=True)


def table_1_rows(runs: list[Run]) -> list[ERow]:
    """Table 1: per generator, the share of a data file's items whose hallucinated version it wrote, each file from
    its preferred run; a row per combination of each task's files."""
    by_task: dict[str, dict[str, Run]] = {}
    for column in TABLE_1.columns:
        found = {}
        for run in runs:
            if run.task.name == column.task:
                data = run.settings["data"]
                if data not in found or (run.complete, run.order) > (found[data].complete, found[data].order):
                    found[data] = run
        by_task[column.key] = found
    present = [key for key in by_task if by_task[key]]
    rows = []
    for combination in product(*(sorted(by_task[key].items()) for key in present)):
        shares: dict[str, dict[str, Expect]] = {}
        for key, (data, run) in zip(present, combination):
            generators = {a.sample.metadata["item"]: a.sample.metadata.get("generator") for a in run.outcomes()}
            named = [g for g in generators.values() if g]
            for generator in set(named):
                shares.setdefault(generator, {})[key] = Expect(Fraction(named.count(generator), len(generators)),
                                                               len(generators), "none")
        settings = {f"data ({'QA' if key.startswith('qa') else 'TS'})": data
                    for key, (data, _) in zip(present, combination)}
        rows += [ERow(generator, dict(settings), cells) for generator, cells in sorted(shares.items())]
    return rows


CUSTOM = {TABLE_4.key: table_4_rows, TABLE_1.key: table_1_rows}
HEADLINES = tuple(OColumn(t.name, t.name, hamming()) for t in (QA, TS))


def data_file(world: World, name: str, task: str, items: int, rng: random.Random) -> Path:
    """A final PerHalluEval file of the researcher's (the paper publishes none): `items` items, some flagged
    Persian-specific, each naming the model that wrote its hallucinated version."""
    lines = ["id,source,context,question,correct,hallucinated,generator,verifier_score,persian_specific"]
    for i in range(1, items + 1):
        question = f"پرسش شماره {i} درباره متن چیست؟" if task == "qa" else ""
        flag = rng.choice(["1", "0", "1", ""]) if task == "qa" else ""
        lines.append(f"{name}{i},src-{i},متن شماره {i} درباره تاریخ ایران است.,{question},پاسخ درست {i},"
                     f"پاسخ نادرست {i},{rng.choice(['gen-a', 'gen-b', 'gen-c'])},0.{i % 10},{flag}")
    path = world.folder / f"{name}.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def answers(task: TaskModel, samples: list[Sample], rng: random.Random) -> dict[str, Answer]:
    return {s.id: task.answer(s, rng.choice(["Y", "N", "Y", "N", UNREAD]), rng, {}) for s in samples}


def scenario(world: World, rng: random.Random) -> None:
    """Two or three models on one QA and one summarization file (sometimes a second QA file); the paper's protocol
    or single runs, with either unparsed policy, subsets sometimes."""
    qa = data_file(world, "qa", "qa", rng.choice([8, 32]), rng)
    other = data_file(world, "qa2", "qa", 6, rng)
    ts = data_file(world, "ts", "summarization", rng.choice([5, 31]), rng)
    files = {str(qa): file_identity(qa), str(other): file_identity(other), str(ts): file_identity(ts)}
    for model in [f"m{i}" for i in range(1, rng.choice([3, 4]))]:
        if rng.random() < 0.4:
            runs = []
            for task, data in ((QA, qa), (TS, ts)):
                run = Run(task, model, {"data": str(data)},
                          answers(task, world.samples(task.name, {"data": str(data)}), rng))
                run.files = {"data": files[str(data)]}
                run.max_tokens = "512"  # Appendix A: the paper's runs decode with max_tokens = 512
                runs.append(run)
            world.paper("perhallueval", model, runs,
                        {"perhallueval_qa:data": str(qa), "perhallueval_summarization:data": str(ts)})
        for _ in range(rng.choice([1, 2])):
            task = rng.choice([QA, TS])
            data = (other if rng.random() < 0.2 else qa) if task is QA else ts
            args = {"data": str(data)}
            if rng.random() < 0.4:
                args["unparsed"] = rng.choice(["as_wrong", "excluded"])
            # a subset keeps whole items and every subset (Persian-specific, generic, unflagged): QA needs 6 or more
            run = Run(task, model, args, answers(task, world.samples(task.name, args), rng),
                      limit=rng.choice([None, None, 6 if task is QA else 4]))
            run.files = {"data": files[str(data)]}
            if rng.random() < 0.15:
                run.temperature = "0.7"  # another decoding: another identity
            world.run(run)
