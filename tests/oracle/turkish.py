"""The Turkish idioms paper as the oracle knows it (Cavusoglu and Coltekin, Section 4, Table 2): detection answers
yes/no (is the idiom used figuratively?), entailment answers entailment/contradiction; accuracy counts an unread
answer wrong; the label shares (figeval's) are over the answers a label was read from."""

from __future__ import annotations

import random

from tests.oracle.harness import UNREAD, Answer, Run, Sample, TaskModel, World
from tests.oracle.measure import Expect, share
from tests.oracle.tables import OColumn, OTable

UNREADABLE = "I am not sure."


# The words each prompt asks for (Appendix A; the Turkish prompt is the project's translation)
WORDS = {"en": {"yes": ["Yes", "yes"], "no": ["No", "no."], "entailment": ["entailment", "Entailment."],
                "contradiction": ["contradiction", "Contradiction."]},
         "tr": {"yes": ["Evet", "evet"], "no": ["Hayır", "hayır."], "entailment": ["gerektirme", "Gerektirme."],
                "contradiction": ["çelişki", "Çelişki."]}}


def _answer(sample: Sample, label: str | None, rng: random.Random, args: dict[str, str]) -> Answer:
    if label is UNREAD:
        return Answer(sample, UNREAD, rng.choice([UNREADABLE, "Maybe", "neutral"]))
    return Answer(sample, label, rng.choice(WORDS[args.get("prompt_lang", "en")][label]))


DETECTION = TaskModel("tr_idiom_detection", ("yes", "no"), _answer,
                      {"prompt_lang": "en", "answer_mode": "auto", "manual_labels": None, "balanced": False,
                       "frequency_bands": "seen"},
                      files=frozenset({"manual_labels"}), own=frozenset({"manual_labels"}))
ENTAILMENT = TaskModel("tr_idiom_entailment", ("entailment", "contradiction"), _answer,
                       {"prompt_lang": "en", "answer_mode": "auto", "manual_labels": None, "frequency_bands": "seen",
                        "yes_no_entailment": False},
                       files=frozenset({"manual_labels"}), own=frozenset({"manual_labels"}))


def accuracy(run: Run) -> Expect | None:
    answers = run.outcomes()
    return share(sum(a.label == a.sample.target for a in answers), len(answers), len(answers))


def label_share(label: str) -> callable:
    def measure(run: Run) -> Expect | None:
        read = [a for a in run.outcomes() if a.label is not UNREAD]
        return share(sum(a.label == label for a in read), len(read), len(run.asked))

    return measure


def unread(run: Run) -> Expect | None:
    answers = run.outcomes()
    return share(sum(a.label is UNREAD for a in answers), len(answers), len(answers))


TABLE_2 = OTable("turkish-idioms/table-2", "turkish_idioms", "Table 2", "fraction", (
    OColumn("detection", DETECTION.name, accuracy),
    OColumn("entailment", ENTAILMENT.name, accuracy),
    OColumn("yes_rate", DETECTION.name, label_share("yes")),
    OColumn("entailment_rate", ENTAILMENT.name, label_share("entailment")),
    OColumn("detection_unparsed", DETECTION.name, unread),
    OColumn("entailment_unparsed", ENTAILMENT.name, unread),
))
def band_accuracy(seen: bool):
    """Accuracy over the answers on idioms the corpus has (frequency above 0) or has not (0); none on data
    without frequencies, or on runs with the fine bands (their "seen" is split)."""
    def measure(run: Run) -> Expect | None:
        if seen and run.args.get("frequency_bands", "seen") != "seen":
            return None
        answers = [a for a in run.outcomes() if a.sample.metadata.get("frequency") is not None
                   and (float(a.sample.metadata["frequency"]) > 0) == seen]
        return share(sum(a.label == a.sample.target for a in answers), len(answers), len(run.asked))

    return measure


# Section 4: "For the idiom instances that were not found in the Leipzig corpus, performances of large models also
# drop to the level of a random baseline"
FREQUENCY = OTable("turkish-idioms/frequency", "turkish_idioms", "Section 4", "fraction", (
    *(OColumn(f"{name}/{band}", task.name, band_accuracy(band == "seen"))
      for name, task in (("detection", DETECTION), ("entailment", ENTAILMENT)) for band in ("unseen", "seen")),
    OColumn("detection_unparsed", DETECTION.name, unread),
    OColumn("entailment_unparsed", ENTAILMENT.name, unread),
))
TABLES = (TABLE_2, FREQUENCY)
HEADLINES = (OColumn("tr_idiom_detection", DETECTION.name, accuracy),
             OColumn("tr_idiom_entailment", ENTAILMENT.name, accuracy))


def answers(task: TaskModel, samples: list[Sample], rng: random.Random, args: dict[str, str]) -> dict[str, Answer]:
    """A label or an unread answer per sample; where entailment is read from yes/no (`yes_no_entailment`, not the
    paper's reading) some answers are a bare Yes or No, which the paper's reading leaves unread."""
    found = {}
    yes_no = args.get("yes_no_entailment") == "true"
    for sample in samples:
        label = rng.choice([*task.labels, *task.labels, UNREAD])
        answer = task.answer(sample, label, rng, args)
        if task is ENTAILMENT and label is not UNREAD and rng.random() < 0.4:
            word = WORDS[args.get("prompt_lang", "en")]["yes" if label == "entailment" else "no"][0]
            answer = Answer(sample, label if yes_no else UNREAD, word)
        found[sample.id] = answer
    return found


def scenario(world: World, rng: random.Random) -> None:
    """Two or three models, each with the paper's protocol or single runs of either task with settings drawn from
    each parameter's choices; sometimes a newer run of the same settings, sometimes a subset."""
    for model in [f"m{i}" for i in range(1, rng.choice([3, 4]))]:
        plans = []
        if rng.random() < 0.5:
            plans.append(("paper", {}))
        for _ in range(rng.choice([1, 2])):
            task = rng.choice([DETECTION, ENTAILMENT])
            args = {}
            if rng.random() < 0.3:
                args["prompt_lang"] = rng.choice(["en", "tr"])
            if task is DETECTION and rng.random() < 0.4:
                args["balanced"] = rng.choice(["true", "false"])
            if task is ENTAILMENT and rng.random() < 0.5:
                args["yes_no_entailment"] = rng.choice(["true", "false"])
            plans.append((task, args))
        for task, args in plans:
            if task == "paper":
                runs = [Run(t, model, {}, answers(t, world.samples(t.name, {}), rng, {}))
                        for t in (DETECTION, ENTAILMENT)]
                world.paper("turkish-idioms", model, runs)
                continue
            samples = world.samples(task.name, args)
            run = Run(task, model, args, answers(task, samples, rng, args))
            if rng.random() < 0.25:
                run.limit = 4  # two idioms, each asked both ways
            if rng.random() < 0.15:
                run.temperature = "0.7"  # another decoding: another identity
            world.run(run)
            if rng.random() < 0.2:  # the same settings again, newer, other answers: it replaces the first
                world.run(Run(task, model, dict(args), answers(task, samples, rng, args)))
