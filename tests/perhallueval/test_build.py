"""The whole PerHalluEval build on scripted generators and a scripted verifier that returns logprobs: resume
after an interruption, the length rule, the believability choice, exclusion, validation, and the final file
the task reads."""

import csv
import json
import math
from collections import Counter
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import (ChatCompletionChoice, ChatMessageAssistant, Logprob, Logprobs, ModelOutput, ModelUsage,
                              TopLogprob, get_model)

from figeval.benchmarks.perhallueval.build import build, candidate_of, most_believable
from figeval.benchmarks.perhallueval.build_final import finalize
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
    return ModelOutput(model="mockllm/verifier", choices=[choice],
                       usage=ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2))


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
        return [get_model("mockllm/a", custom_outputs=a, memoize=False),
                get_model("mockllm/b", custom_outputs=gen_b, memoize=False)]

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
    replay = write_replay(tmp_path / "answers.jsonl",
                          {f"phe-qa-{first}/correct": "Y", f"phe-qa-{first}/hallucinated": "N"})
    [log] = inspect_eval(perhallueval_qa(data=str(final)), model=f"replay/{replay}", limit=2,
                         log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    assert log.results.scores[0].metrics["hamming_score"].value == 1.0


# --- What a user gives the build is never lost, overwritten or silently trusted (issue 24) ---------------------

def phe(tmp_path: Path, *args: str):
    """`figeval build perhallueval-candidates --task qa` in this process, models that are never reached (refused
    first)."""
    from tests.command import figeval

    return figeval("build", "perhallueval-candidates", "--task", "qa", "--n", "3", "--generator", "mockllm/a",
                   "--verifier", "mockllm/v", *args, cwd=tmp_path)


@pytest.mark.parametrize("option, name", [
    ("--categories", "pquad_categories.csv"),  # the name of the sheet a QA build writes, given as --source below
    ("--categories", "kept.csv"),
    ("--source", "pquad_categories.csv"),
    ("--source", "selected.jsonl"),
])
def test_an_input_under_the_name_of_a_file_the_build_writes_is_refused_not_replaced(option: str, name: str,
                                                                                     tmp_path: Path):
    from tests.command import assert_one_line_error

    out = tmp_path / "build"
    out.mkdir()
    given = out / name
    if option == "--source":
        pquad_file(given)
        args = ["--source", str(given)]
    else:
        given.write_text("title,category\nادبیات,ادبیات\n", encoding="utf-8")  # one of the three articles
        args = ["--source", str(uncategorized_pquad(tmp_path / "pquad.json")), "--categories", str(given)]
    before = given.read_bytes()
    result = phe(tmp_path, "--out", str(out), *args)
    if (option, name) == ("--categories", "pquad_categories.csv"):
        # the category sheet the build wrote, filled and given back as its message says: the person's now, read
        # and never written again (the two articles it lacks are named instead)
        assert_one_line_error(result, "2 of 3 PQuAD articles have no row in it ('تاریخ', 'جغرافیا'); add a row")
    else:
        assert_one_line_error(result, f"{given} is one of the command's inputs")
    assert given.read_bytes() == before and sorted(p.name for p in out.iterdir()) == [name]


def uncategorized_pquad(path: Path) -> Path:
    """`pquad_file` as PQuAD publishes it: no category anywhere (the three articles are titled by their topic)."""
    data = json.loads(pquad_file(path).read_text(encoding="utf-8"))
    for article in data["data"]:
        del article["category"]
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_the_filled_category_sheet_given_back_is_read_and_never_written(tmp_path: Path):
    from figeval.benchmarks.perhallueval.build_selection import CATEGORY_SHEET
    from figeval.errors import DataError

    source = uncategorized_pquad(tmp_path / "pquad.json")
    out = tmp_path / "build"
    verifier = get_model("mockllm/verifier", custom_outputs=verifier_reply, memoize=False)
    generators = [get_model("mockllm/a", custom_outputs=Generator("a"), memoize=False)]
    with pytest.raises(DataError, match=r"3 of 3 PQuAD articles have no topical category"):
        build("qa", source, 6, generators, verifier, out, seed=0, report=lambda _: None)
    sheet = out / CATEGORY_SHEET
    # a person fills two of the three articles (and removes the third row): the build names what is missing
    # and leaves the person's file as it is
    sheet.write_text("title,category,questions\nادبیات,ادب,10\nتاریخ,تاریخ,10\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"pquad_categories\.csv: 1 of 3 PQuAD articles have no row in it "
                                        r"\('جغرافیا'\); add a row"):
        build("qa", source, 6, generators, verifier, out, seed=0, report=lambda _: None, categories=sheet)
    filled = "title,category,questions\nادبیات,ادب,10\nتاریخ,تاریخ,10\nجغرافیا,جغرافیا,10\n"
    sheet.write_text(filled, encoding="utf-8")
    kept = build("qa", source, 6, generators, verifier, out, seed=0, report=lambda _: None, categories=sheet)
    assert sheet.read_text(encoding="utf-8") == filled
    # 6 of 30 questions, 10 per category: 2 per category; question 7 gets no Y/N from the verifier
    selected = [json.loads(line) for line in (out / "selected.jsonl").read_text(encoding="utf-8").splitlines()]
    assert Counter(item["category"] for item in selected) == {"ادب": 2, "تاریخ": 2, "جغرافیا": 2}
    assert len(list(csv.DictReader(kept.read_text(encoding="utf-8-sig").splitlines()))) == sum(
        not item["id"].endswith("-7") for item in selected)


@pytest.mark.parametrize("edit, fragments", [
    (lambda qa, paragraph: qa.pop("question"), ("pquad.json: article 2, paragraph 1, question 4 has no 'question'",
                                                "fill it, or remove the question")),
    (lambda qa, paragraph: qa.update(question="  "), ("question 4 has no 'question'",)),
    (lambda qa, paragraph: qa.pop("id"), ("question 4 has no 'id'",)),
    (lambda qa, paragraph: paragraph.pop("context"), ("article 2, paragraph 1 has no 'context'",
                                                      "remove the paragraph")),
    (lambda qa, paragraph: qa.update(answers="پاسخ"), ("question 4 has 'answers' that is not a list",)),
    (lambda qa, paragraph: paragraph.update(qas=[1, 2]), ("article 2, paragraph 1 has 'qas' that is not a list",)),
])
def test_a_pquad_question_without_what_the_build_needs_is_one_line(edit, fragments, tmp_path: Path):
    from tests.command import assert_one_line_error

    source = pquad_file(tmp_path / "pquad.json")
    data = json.loads(source.read_text(encoding="utf-8"))
    paragraph = data["data"][1]["paragraphs"][0]
    edit(paragraph["qas"][3], paragraph)
    source.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert_one_line_error(phe(tmp_path, "--out", str(tmp_path / "build"), "--source", str(source)), *fragments)


@pytest.mark.parametrize("args, fragments", [
    (("--generator", "nosuch/g"), ("--generator nosuch/g: unknown provider 'nosuch'",)),
    (("--verifier", "nosuch/v"), ("--verifier nosuch/v: unknown provider 'nosuch'",)),
    (("--out", "{tmp}/file.txt"), ("--out", "file.txt is a file; --out names a folder to write into",)),
    (("--source", "{tmp}/nosuch.json"), ("nosuch.json: cannot be read (No such file",)),
    (("--n", "0"), ("--n must be 1 or more, not 0",)),
])
def test_a_build_given_what_it_cannot_use_is_refused_before_writing(args, fragments, tmp_path: Path):
    from tests.command import assert_one_line_error, figeval

    (tmp_path / "file.txt").write_text("notes\n", encoding="utf-8")
    options = {"--generator": "mockllm/a", "--verifier": "mockllm/v", "--out": str(tmp_path / "build"),
               "--source": str(pquad_file(tmp_path / "pquad.json")), "--n": "3"}
    options[args[0]] = args[1].replace("{tmp}", str(tmp_path))
    result = figeval("build", "perhallueval-candidates", "--task", "qa",
                     *[part for pair in options.items() for part in pair], cwd=tmp_path)
    assert_one_line_error(result, *fragments)
    assert not (tmp_path / "build").exists() and (tmp_path / "file.txt").read_text(encoding="utf-8") == "notes\n"


def test_a_build_folder_resumed_with_other_settings_is_refused(tmp_path: Path):
    from figeval.errors import FigevalError

    source = pquad_file(tmp_path / "pquad.json")
    out = tmp_path / "build"
    verifier = get_model("mockllm/verifier", custom_outputs=verifier_reply, memoize=False)
    generators = [get_model("mockllm/a", custom_outputs=Generator("a"), memoize=False)]
    build("qa", source, 6, generators, verifier, out, seed=0, report=lambda _: None)
    with pytest.raises(FigevalError, match=r"holds a qa build of 6 items, not --task qa --n 9: give --task qa --n 6"):
        build("qa", source, 9, generators, verifier, out, seed=0, report=lambda _: None)
    with pytest.raises(FigevalError, match=r"holds a qa build of 6 items, not --task summarization --n 6"):
        build("summarization", source, 6, generators, verifier, out, seed=0, report=lambda _: None)
    with pytest.raises(FigevalError, match=r"was built with --seed 0, not --seed 1; give the same to resume it"):
        build("qa", source, 6, generators, verifier, out, seed=1, report=lambda _: None)


def test_a_stratification_that_does_not_fit_the_task_is_refused_before_any_data_is_fetched(tmp_path: Path):
    from tests.command import assert_one_line_error, figeval

    # no --source: the stored PN-Summary files would be fetched first, and their download failure named instead
    result = figeval("build", "perhallueval-candidates", "--task", "summarization", "--n", "5",
                     "--generator", "mockllm/a", "--verifier", "mockllm/v", "--out", str(tmp_path / "build"),
                     "--stratify", "article")
    assert_one_line_error(result, "--stratify article applies to --task qa; summarization is sampled by article "
                                  "length (Section 3.1): leave it out.")
    assert "download" not in result.stdout + result.stderr and not (tmp_path / "build").exists()
    # categories go with QA's stratification only: given for summarization they were ignored without a word
    categories = tmp_path / "categories.csv"
    categories.write_text("title,category\nآب,طبیعت\n", encoding="utf-8")
    result = figeval("build", "perhallueval-candidates", "--task", "summarization", "--n", "5",
                     "--generator", "mockllm/a", "--verifier", "mockllm/v", "--out", str(tmp_path / "build"),
                     "--categories", str(categories))
    assert_one_line_error(result, f"--categories {categories} applies to --task qa; summarization is sampled by "
                                  "article length (Section 3.1): leave it out.")
    assert not (tmp_path / "build").exists()
