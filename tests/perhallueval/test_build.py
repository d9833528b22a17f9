"""The whole PerHalluEval build on scripted generators and a scripted verifier that returns logprobs: resume
after an interruption, the length rule, the believability choice, exclusion, validation, and the final file
the task reads."""

import csv
import json
import math
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatCompletionChoice, ChatMessageAssistant, Logprob, Logprobs, ModelOutput, ModelUsage, TopLogprob, get_model

from figeval.benchmarks.perhallueval.build import build, candidate_of, finalize, most_believable
from figeval.benchmarks.perhallueval.tasks import perhallueval_qa
from tests.ffe_hallu.test_tasks import write_replay

CATEGORIES = ["ادبیات", "تاریخ", "جغرافیا"]


def pquad_file(path: Path, per_category: int = 10) -> Path:
    """A SQuAD-style file: 3 categories x 10 answerable questions, answers of two words."""
    data = []
    for c, category in enumerate(CATEGORIES):
        qas = [{"id": f"{c}-{i}", "question": f"پرسش {i} درباره‌ی {category}؟",
                "answers": [{"text": f"پاسخ درست{i}", "answer_start": 0}], "is_impossible": False}
               for i in range(per_category)]
        data.append({"title": category, "category": category,
                     "paragraphs": [{"context": f"متنی درباره‌ی {category} با پاسخ‌ها.", "qas": qas}]})
    path.write_text(json.dumps({"data": data}, ensure_ascii=False), encoding="utf-8")
    return path


class Generator:
    """Writes "نادرست <name> <item>" (3 words, within the length rule) or, for items in `too_long`, 12 words."""

    def __init__(self, name: str, fail_after: int | None = None, too_long: frozenset = frozenset()) -> None:
        self.name, self.calls, self.fail_after, self.too_long = name, 0, fail_after, too_long

    def __call__(self, messages, tools, tool_choice, config) -> ModelOutput:
        self.calls += 1
        if self.fail_after is not None and self.calls > self.fail_after:
            raise RuntimeError("interrupted")
        question = messages[-1].text.rsplit("#Question#: ", 1)[1].split("\n", 1)[0]
        text = f"نادرست {self.name} {question.split()[1]}"
        if question.split()[1] in self.too_long:
            text = " ".join(["بسیار"] * 12)
        output = ModelOutput.from_content(f"mockllm/{self.name}", text)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


def verifier_reply(messages, tools, tool_choice, config) -> ModelOutput:
    """Believes generator a's candidates (P(Y) 0.7), doubts b's (P(Y) 0.2); on question 7 answers no Y/N at all."""
    prompt = messages[-1].text
    if "پرسش 7 " in prompt:
        top = [("\n", math.log(0.9))]
    elif " a " in prompt.split("Answer: ", 1)[1]:
        top = [("Y", math.log(0.7)), ("N", math.log(0.2))]
    else:
        top = [("Y", math.log(0.2)), ("Ñ", math.log(0.5)), ("n", math.log(0.1))]
    choice = ChatCompletionChoice(
        message=ChatMessageAssistant(content=top[0][0], model="mockllm/verifier"),
        logprobs=Logprobs(content=[Logprob(token=top[0][0], logprob=top[0][1],
                                           top_logprobs=[TopLogprob(token=t, logprob=lp) for t, lp in top])]),
    )
    return ModelOutput(model="mockllm/verifier", choices=[choice], usage=ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2))


@pytest.mark.parametrize("output, expected", [
    ("پاسخ نادرست: در سال ۱۳۵۸", "در سال ۱۳۵۸"),
    ("**پاسخ نادرست:** «در سال ۱۳۵۸»", "در سال ۱۳۵۸"),
    ("خلاصه‌ی نادرست: تیم ملی باخت", "تیم ملی باخت"),
    ("Hallucinated answer: در سال ۱۳۵۸", "در سال ۱۳۵۸"),
    ("#Hallucinated Answer#: در سال ۱۳۵۸", "در سال ۱۳۵۸"),  # Figure 9's own label
    ("#Hallucinated Summary#: تیم ملی باخت", "تیم ملی باخت"),  # Figure 10's
    ("<think>...</think>\nپاسخ: در تبریز", "در تبریز"),
    ("در سال ۱۳۵۸", "در سال ۱۳۵۸"),
    ("پاسخ او درست نبود", "پاسخ او درست نبود"),  # a text that starts with the word, not a label
])
def test_echoed_labels_are_stripped(output, expected):
    assert candidate_of(output) == expected


def test_ties_are_broken_by_a_seeded_draw_not_by_generator_order():
    scores = {"i|gen-a": 0.5, "i|gen-b": 0.5, "i|gen-c": 0.1}
    chosen, tied = most_believable(scores, seed=0, item_id="i")
    assert tied == ["i|gen-a", "i|gen-b"] and chosen in tied
    # the same seed and item give the same choice, whatever the order the candidates come in
    assert most_believable(dict(reversed(list(scores.items()))), seed=0, item_id="i")[0] == chosen
    # across items and seeds both tied candidates get chosen
    assert {most_believable(scores, seed, "i")[0] for seed in range(20)} == set(tied)
    assert most_believable({"i|gen-a": 0.3, "i|gen-b": 0.2}, seed=0, item_id="i") == ("i|gen-a", ["i|gen-a"])


def test_build_resume_validate_and_evaluate(tmp_path: Path):
    source = pquad_file(tmp_path / "pquad.json")
    out = tmp_path / "build"
    messages: list[str] = []
    gen_b = Generator("b", too_long=frozenset({"3"}))
    interrupted_a = Generator("a", fail_after=12)
    verifier = get_model("mockllm/verifier", custom_outputs=verifier_reply, memoize=False)

    def models(a):
        return [get_model("mockllm/a", custom_outputs=a, memoize=False), get_model("mockllm/b", custom_outputs=gen_b, memoize=False)]

    with pytest.raises(RuntimeError, match="interrupted"):
        build("qa", source, 15, models(interrupted_a), verifier, out, seed=0, report=messages.append)
    assert len((out / "candidates.jsonl").read_text(encoding="utf-8").splitlines()) == 12  # nothing finished is lost

    resumed_a = Generator("a")
    sheet = build("qa", source, 15, models(resumed_a), verifier, out, seed=0, report=messages.append)
    assert resumed_a.calls == 3 and gen_b.calls == 15  # only the 3 missing a-candidates were asked for again
    # 15 of 30 questions, 5 per category (each category is a third of the source)
    assert ["ادبیات", "33.33%", "33.33%"] in [m.split() for m in messages]

    rows = list(csv.DictReader(sheet.read_text(encoding="utf-8-sig").splitlines()))
    selected = {json.loads(line)["id"] for line in (out / "selected.jsonl").read_text(encoding="utf-8").splitlines()}
    excluded = {i for i in selected if i.endswith("-7")}  # the verifier gives no Y/N on question 7
    assert {r["id"] for r in rows} == selected - excluded
    # a's candidates score 0.7 - 0.2 = 0.5 > b's 0.2 - 0.6 = -0.4: a wins wherever it has a usable candidate
    assert all(r["generator"] == "mockllm/a" and r["verifier_score"] == "0.5000" for r in rows)
    assert any(f"{len(excluded)} excluded" in m for m in messages)
    # b's 12-word candidates on question 3 break the +-5-word rule: kept (the paper only instructs it) and recorded
    too_long = sum(i.endswith("-3") for i in selected)
    assert any(m.startswith(f"{too_long} candidates break the length rule") and "kept" in m for m in messages)
    record = json.loads((out / "build_record.json").read_text(encoding="utf-8"))
    assert len(record["length_violations"]) == too_long and record["lost_to_length"] == [] and record["seed"] == 0
    assert record["generation_prompt_version"] == "perhallueval-generation-v2"

    # Three annotators: all say hallucinated except one item two of them call factual; persian_specific by item.
    sheets = []
    for annotator in range(3):
        filled = []
        for n, row in enumerate(rows):
            row = dict(row)
            row["hallucination_label"] = "factual" if n == 0 and annotator < 2 else "hallucinated"
            row["persian_specific"] = "1" if n % 2 == 0 else "0"
            row["annotator"] = f"annotator{annotator}"  # 0 and 1 label alike: their files differ by this column
            filled.append(row)
        path = tmp_path / f"annotator{annotator}.csv"
        with path.open("w", encoding="utf-8-sig", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(filled[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(filled)
        sheets.append(path)
    final = finalize("qa", sheets, out, report=messages.append)
    final_rows = list(csv.DictReader(final.read_text(encoding="utf-8").splitlines()))
    assert len(final_rows) == len(rows) - 1  # the item the majority found factual is dropped
    assert any(m.startswith("Gwet's AC1, hallucination labels:") for m in messages)
    assert any(m == "Fleiss' kappa, persian_specific: 1.000" for m in messages)

    # The final file is what the task reads.
    first = final_rows[0]["id"]
    replay = write_replay(tmp_path / "answers.jsonl", {f"phe-qa-{first}/correct": "Y", f"phe-qa-{first}/hallucinated": "N"})
    [log] = inspect_eval(perhallueval_qa(data=str(final)), model=f"replay/{replay}", limit=2,
                         log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    assert log.results.scores[0].metrics["hamming_score"].value == 1.0


def test_selection_reads_every_split_and_refuses_an_id_twice(tmp_path: Path):
    # PN-Summary's 93,207 articles (Section 3.1) are its three splits together.
    from figeval.benchmarks.perhallueval.build import select
    from figeval.errors import DataError

    header = "id\ttitle\tarticle\tsummary\tcategory\n"
    train = tmp_path / "train.csv"
    dev = tmp_path / "dev.csv"
    train.write_text(header + "".join(f"t{i}\tعنوان\tمتن خبر شماره {i} درباره‌ی ورزش است.\tخلاصه {i}\tورزشی\n"
                                      for i in range(30)), encoding="utf-8")
    dev.write_text(header + "".join(f"d{i}\tعنوان\tمتن خبر دیگر {i} " + "بسیار " * i + "طولانی.\tخلاصه\tسیاسی\n"
                                    for i in range(10)), encoding="utf-8")
    messages: list[str] = []
    for out in ("out1", "out2"):
        (tmp_path / out).mkdir()
    chosen = select("summarization", [train, dev], 40, 0, tmp_path / "out1", messages.append)
    assert len(chosen) == 40 and {item.id[0] for item in chosen} == {"t", "d"}
    assert "step 1: 40 source items from train.csv, dev.csv" in messages
    with pytest.raises(DataError, match=r"train.csv: item id 't0' is also in train.csv"):
        select("summarization", [train, train], 10, 0, tmp_path / "out2", messages.append)
