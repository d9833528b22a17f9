"""Fresh fake FFEs (Section 3.4, Appendix B 2.1): the inversion rules, the one-word rule, the authenticity checks,
a resumable build, the final file, and detection on it beside the published set."""

import csv
import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from figeval.benchmarks.ffe_hallu.build import (
    CANDIDATES_FILE,
    FINAL_FILE,
    SHEET_FILE,
    build_fakes,
    finalize_fakes,
    plan_fakes,
)
from figeval.benchmarks.ffe_hallu.dataset import FAKE_CATEGORIES, load_authentic, load_fake
from figeval.benchmarks.ffe_hallu.fakes import (
    CULTURAL,
    MIMICRY,
    SEMANTIC_INVERSION,
    WORD_PERTURBATION,
    Candidate,
    Known,
    LengthRange,
    check_candidates,
    invert,
    one_word_change,
)
from figeval.benchmarks.ffe_hallu.tables import CONTAMINATION_KEY, TABLE_4
from figeval.benchmarks.ffe_hallu.tasks import ffe_detection
from figeval.errors import DataError, FigevalError
from figeval.reporting.report import build_report
from tests.ffe_hallu.test_tasks import scripted_fake_answers, write_replay

# Real proverb and idiom shapes, each inversion checked by hand. None: no rule applies (a model's job).
INVERSIONS = [
    # Appendix B 2.1 2, the paper's own example
    ("دشمن دانا به از دوست نادان", "دوست نادان به از دشمن دانا", "به از"),
    ("جنگ اول به از صلح آخر", "صلح آخر به از جنگ اول", "به از"),
    ("کاچی به از هیچی", "هیچی به از کاچی", "به از"),
    ("سیلی نقد به از حلوای نسیه", "حلوای نسیه به از سیلی نقد", "به از"),
    ("دیر رسیدن بهتر از هرگز نرسیدن است", "هرگز نرسیدن بهتر از دیر رسیدن است", "بهتر از"),  # the copula stays last
    ("همسایه نزدیک بهتر از برادر دور است.", "برادر دور بهتر از همسایه نزدیک است.", "بهتر از"),
    ("از چاله به چاه افتادن", "از چاه به چاله افتادن", "از ... به"),  # authentic row 139
    ("از این ستون به آن ستون فرج است", "از آن ستون به این ستون فرج است", "از ... به"),
    ("بار کج به منزل نمی‌رسد", "بار کج به منزل می‌رسد", "negated"),
    ("ماه پشت ابر نمی ماند", "ماه پشت ابر می ماند", "negated"),  # "نمی" written with a space
    ("آرزو بر جوانان عیب نیست", "آرزو بر جوانان عیب است", "negated"),
    ("مرغ همسایه غاز است", "مرغ همسایه غاز نیست", "negated"),
    ("اگر توی سر سگ بزنی می ریزد", "اگر توی سر سگ بزنی نمی ریزد", "negated"),  # authentic row 7
    ("از تو به یک اشاره، از ما به سر دویدن", None, None),  # two from-to pairs: which one swaps is unclear
    ("نازک تر از گل به کسی نگفتن", None, None),  # a comparison "تر از", not "از ... به"
    ("چیزی نه به دار است نه به بار", None, None),  # authentic row 3: "نه ... نه", no rule
    ("پا پس کشیدن", None, None),  # an infinitive: negating it may give a real idiom ("پا پس نکشیدن")
    ("هر که بامش بیش برفش بیشتر", None, None),
    ("میوه‌ی باغ همسایه", None, None),  # "میوه" is a noun, not a verb in "می"
    ("در دیزی باز است حیای گربه کجا رفته است", None, None),  # a question: a negated verb does not flip it
]


@pytest.mark.parametrize(("proverb", "expected", "rule"), INVERSIONS)
def test_rule_based_inversion_of_real_proverb_shapes(proverb, expected, rule):
    inversion = invert(proverb)
    if expected is None:
        assert inversion is None
    else:
        assert inversion is not None and inversion.text == expected and rule in inversion.rule


@pytest.mark.parametrize(("source", "candidate", "ok", "described"), [
    ("ماه پشت ابر نمی ماند", "خورشید پشت ابر نمی ماند", True, "ماه -> خورشید"),  # Appendix B 2.1 1
    ("ماه پشت ابر نمیماند", "خورشید پشت ابر نمی‌ماند", True, "ماه -> خورشید"),  # spacing of "نمی" is no change
    ("مثل خر در گل ماندن", "مثل خرگوش در گل ماندن", True, "خر -> خرگوش"),
    ("ماه پشت ابر نمی ماند", "ماه پشت ابر نمی ماند", False, "no word changed"),
    ("ماه پشت ابر نمی ماند", "خورشید پشت کوه نمی ماند", False, "ماه -> خورشید; ابر -> کوه"),
    ("سرش بوی قرمه‌سبزی می‌دهد", "سرش بوی قیمه قرمه می‌دهد", False, "قرمه‌سبزی -> قیمه قرمه"),  # one for two
    ("با یک تیر دو نشان زدن", "با یک تیر دو نشان", False, "زدن -> (nothing)"),  # a word dropped
])
def test_word_perturbation_changes_exactly_one_word(source, candidate, ok, described):
    assert one_word_change(source, candidate) == (ok, described)


LENGTHS = LengthRange(1, 11, 4, 60)


def test_authenticity_checks():
    authentic = [Known.of("اب از سرچشمه گل الود بودن", "authentic row 13"), Known.of("کلاه سر کسی گذاشتن", "authentic row 2")]
    published = [Known.of("گربه را دم دروازه کشتن", "published fake row 1"),
                 Known.of("دوست نادان به از دشمن دانا", "published fake row 60")]
    candidates = [
        # equal to an authentic FFE once normalized (madda, ZWNJ, Arabic YEH): rejected
        Candidate("c1", MIMICRY, "آب از سرچشمه گل‌آلود بودن"),
        # one letter from an authentic FFE: not a fake, a variant
        Candidate("c2", CULTURAL, "کلاه سر کسی گذاشتند"),
        # a near-duplicate of a published fake (one letter, or the same words reordered): flagged
        Candidate("c3", MIMICRY, "گربه را دم دروازه کشتند"),
        Candidate("c4", SEMANTIC_INVERSION, "نادان دوست به از دانا دشمن", "دشمن دانا به از دوست نادان"),
        # a published fake itself, and a repeat within the build: duplicates
        Candidate("c5", CULTURAL, "گربه را دم دروازه کشتن"),
        Candidate("c6", MIMICRY, "قفل زنگ‌زده، کلید طلایی نمی‌خواهد"),
        Candidate("c7", CULTURAL, "قفل زنگ زده کلید طلایی نمیخواهد"),
        # a perturbation is near its source by design (not a failure), but must change exactly one word
        Candidate("c8", WORD_PERTURBATION, "کلاه سر کسی کاشتن", "کلاه سر کسی گذاشتن"),
        Candidate("c9", WORD_PERTURBATION, "کلاه سر کسی گذاشتن", "کلاه سر کسی گذاشتن"),
        Candidate("c10", MIMICRY, "Hello دنیا"),
        Candidate("c11", MIMICRY, ""),
        Candidate("c12", MIMICRY, "کاهہ کاوے بدون دود"),  # Urdu letters: Arabic script, not Persian
        Candidate("c13", MIMICRY, "مهرِ بی‌مهریه، دعای ۲ آمین است"),  # diacritics, half-space, Persian digits
    ]
    checks = check_candidates(candidates, authentic, published, LENGTHS)
    assert checks["c1"]["not_authentic"] == "fail: equals authentic row 13: اب از سرچشمه گل الود بودن"
    assert checks["c2"]["not_authentic"] == "pass"
    assert checks["c2"]["far_from_authentic"].startswith("fail: near authentic row 2 (1 letter(s) apart)")
    assert checks["c3"]["near_published"].startswith("flag: near published fake row 1 (1 letter(s) apart)")
    assert checks["c3"]["unique"] == "pass"
    assert checks["c4"]["near_published"].startswith("flag: near published fake row 60 (the same words in another")
    assert checks["c5"]["unique"] == "fail: equals published fake row 1: گربه را دم دروازه کشتن"
    assert checks["c6"]["unique"] == "pass" and checks["c7"]["unique"] == "fail: equals c6"
    assert checks["c8"]["far_from_authentic"] == "pass" and checks["c8"]["one_word"] == "pass"
    assert checks["c9"]["not_authentic"].startswith("fail: equals authentic row 2")
    assert checks["c9"]["one_word"] == "fail: no word changed"
    assert checks["c10"]["script"] == "fail: characters not of the Persian alphabet: Helo"
    assert checks["c11"]["script"] == "fail: no Persian expression in the model's answer"
    assert checks["c11"]["not_authentic"] == "n/a"
    assert checks["c12"]["script"] == "fail: characters not of the Persian alphabet: ہے"
    assert checks["c13"]["script"] == "pass"
    assert checks["c6"] == {"script": "pass", "not_authentic": "pass", "far_from_authentic": "pass", "one_word": "n/a",
                            "unique": "pass", "near_published": "pass", "length": "pass"}


def test_the_checks_on_the_real_lists(shared_ffe_hallu: Path):
    authentic = load_authentic(shared_ffe_hallu / "Authentic FFEs.csv")
    fakes = load_fake(shared_ffe_hallu / "Fake FFEs.csv")
    known = [Known.of(a.expression, f"authentic row {a.row}") for a in authentic]
    known += [Known.of(f.source_expression, f"source of published fake row {f.row}") for f in fakes if f.source_expression]
    published = [Known.of(f.expression, f"published fake row {f.row}") for f in fakes]
    candidates = [Candidate("a", MIMICRY, "آب از سرچشمه گل‌آلود بودن"),  # authentic row 13, other spelling
                  Candidate("b", SEMANTIC_INVERSION, "دوست نادان به از دشمن دانا", "دشمن دانا به از دوست نادان"),
                  Candidate("c", WORD_PERTURBATION, "مثل گربه آب کشیده", "مثل موش آب کشیده"),
                  Candidate("d", MIMICRY, "شمع خاموش از باد نمی‌ترسه")]  # published: "شمع خاموش، از باد نمی‌ترسد"
    checks = check_candidates(candidates, known, published, LengthRange.of([k.text for k in known]))
    assert checks["a"]["not_authentic"].startswith("fail: equals authentic row 13")
    assert checks["b"]["unique"].startswith("fail: equals published fake row 60")  # the paper's own example
    assert checks["c"]["one_word"] == "pass" and checks["c"]["near_published"] == "pass"
    assert checks["d"]["near_published"].startswith("flag: near published fake row 108 (1 letter(s) apart)")


def test_a_larger_plan_extends_a_smaller_one():
    sources = ["دشمن دانا به از دوست نادان", "پا پس کشیدن", "از چاله به چاه افتادن", "شاخ کسی را شکستن",
               "ضرب شست نشان دادن", "بار کج به منزل نمی‌رسد"]
    small, large = plan_fakes(sources, 2, seed=7), plan_fakes(sources, 4, seed=7)
    for category in FAKE_CATEGORIES:
        keys = [item.key for item in large if item.category == category]
        assert [item.key for item in small if item.category == category] == keys[:2]
        assert len(set(keys)) == 4
    # inversions a rule can make come first, with no prompt
    inversions = [item for item in large if item.category == SEMANTIC_INVERSION]
    assert [bool(item.inversion) for item in inversions] == [True, True, True, False]
    assert all(not item.prompt for item in inversions[:3])
    assert plan_fakes(sources, 2, seed=8) != small  # the seed orders the sources


class Interrupted(Exception):
    """Stands in for a crash or a Ctrl-C half-way through a build."""


class ScriptedFaker:
    """A mockllm output function that writes a plausible candidate for each kind of prompt, counts the prompts
    it saw, and can fail after a number of calls."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.prompts: list[str] = []
        self.fail_after = fail_after

    def __call__(self, messages, tools, tool_choice, config) -> ModelOutput:
        prompt = messages[-1].text
        if self.fail_after is not None and len(self.prompts) >= self.fail_after:
            raise Interrupted
        self.prompts.append(prompt)
        if prompt.endswith("Fake idiom:"):
            source = prompt.rsplit("Idiom: ", 1)[1].split("\n")[0]
            words = source.split()
            if "Word Perturbation" in prompt:
                text = " ".join(["زنبور", *words[1:]])
            else:
                text = " ".join(reversed(words))
        elif prompt.endswith("Answer:"):  # the checkers' question
            return self.output("No")
        else:
            fill = prompt.split("«")[1].split("»")[0]
            text = f"{fill} که رفت، {fill} هم گریه کرد"
        return self.output(f"Here it is:\n«{text}»")

    @staticmethod
    def output(text: str) -> ModelOutput:
        output = ModelOutput.from_content("mockllm/model", text)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


def rows_of(sheet: Path) -> list[dict[str, str]]:
    with sheet.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def test_build_resumes_asking_only_for_missing_candidates(ffe_hallu_imported: Path, tmp_path: Path):
    out = tmp_path / "fakes"
    interrupted = ScriptedFaker(fail_after=5)
    with pytest.raises(Interrupted):
        build_fakes(out, 4, "mockllm/model", 0, {"custom_outputs": interrupted}, report=lambda _: None)
    on_disk = [json.loads(line) for line in (out / CANDIDATES_FILE).read_text(encoding="utf-8").splitlines()]
    assert len([r for r in on_disk if r["method"].startswith("model")]) == 5  # every answer that arrived is kept

    resumed = ScriptedFaker()
    summary = build_fakes(out, 4, "mockllm/model", 0, {"custom_outputs": resumed}, report=lambda _: None)
    asked_before = set(interrupted.prompts)
    assert resumed.prompts and not asked_before & set(resumed.prompts)  # nothing asked twice
    assert summary.candidates == 16 and summary.asked == len(resumed.prompts)

    rows = rows_of(out / SHEET_FILE)
    assert (out / SHEET_FILE).read_bytes().startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM, as the other sheets
    assert [row["category"] for row in rows] == [c for c in FAKE_CATEGORIES for _ in range(4)]
    assert rows[0]["id"] == "word_perturbation-001" and rows[0]["keep"] == ""
    for row in rows:
        assert row["fake_idiom"] and row["source_idiom"] == ("" if row["category"] in (MIMICRY, CULTURAL) else row["source_idiom"])
        if row["category"] == WORD_PERTURBATION:
            assert row["one_word"] == "pass" and row["change"].endswith("-> زنبور")
    # No authentic FFE in the benchmark has a "به از" shape, but rules apply to some: those need no model
    inversions = [row for row in rows if row["category"] == SEMANTIC_INVERSION]
    assert inversions[0]["method"].startswith("rule: ")

    # A person marks rows; growing the build asks only for the new candidates and keeps the marks.
    sheet_rows = rows_of(out / SHEET_FILE)
    sheet_rows[0]["keep"], sheet_rows[0]["note"] = "no", "too close to the source"
    with (out / SHEET_FILE).open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(sheet_rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(sheet_rows)
    grown = ScriptedFaker()
    summary = build_fakes(out, 5, "mockllm/model", 0, {"custom_outputs": grown}, report=lambda _: None)
    assert summary.candidates == 20 and 3 <= len(grown.prompts) <= 4  # one more per category (rules need none)
    rows = rows_of(out / SHEET_FILE)
    assert (rows[0]["keep"], rows[0]["note"]) == ("no", "too close to the source")

    with pytest.raises(FigevalError, match="was built with --seed 0, not --seed 1"):
        build_fakes(out, 5, "mockllm/model", 1, {"custom_outputs": grown}, report=lambda _: None)
    # a half-written last line (the build was killed while writing it) is dropped: no other candidate is missing,
    # so nothing is asked, and the step file is whole again (its 20 records)
    with (out / CANDIDATES_FILE).open("a", encoding="utf-8") as handle:
        handle.write('{"key": "word_perturbation|')
    again = ScriptedFaker()
    assert build_fakes(out, 5, "mockllm/model", 0, {"custom_outputs": again}, report=lambda _: None).asked == 0
    assert again.prompts == [] and len((out / CANDIDATES_FILE).read_text(encoding="utf-8").splitlines()) == 20


def test_checker_answers_are_in_the_sheet(ffe_hallu_imported: Path, tmp_path: Path):
    out = tmp_path / "fakes"
    faker = ScriptedFaker()
    checker = get_model("mockllm/model", custom_outputs=ScriptedFaker())  # answers "No"
    build_fakes(out, 1, "mockllm/model", 0, {"custom_outputs": faker}, report=lambda _: None, checkers=(checker,))
    rows = rows_of(out / SHEET_FILE)
    assert [row["known_by"] for row in rows] == ["0/1: mockllm/model=no"] * 4
    assert len((out / "known.jsonl").read_text(encoding="utf-8").splitlines()) == 4


def test_finalize_and_detect_beside_the_published_set(ffe_hallu_imported: Path, tmp_path: Path):
    out = tmp_path / "fakes"
    build_fakes(out, 2, "mockllm/model", 0, {"custom_outputs": ScriptedFaker()}, report=lambda _: None)
    sheet = out / SHEET_FILE
    with pytest.raises(DataError, match="no row is kept; fill the 'keep' column .* or pass --keep-passing"):
        finalize_fakes(sheet, out / FINAL_FILE, keep_passing=False, report=lambda _: None)
    with pytest.raises(FigevalError, match="one of the command's inputs"):
        finalize_fakes(sheet, sheet, keep_passing=True, report=lambda _: None)

    rows = rows_of(sheet)
    rows[0]["keep"] = "yes"
    rows[1]["keep"] = "maybe"
    write_rows(sheet, rows)
    with pytest.raises(DataError, match="row 2, column 'keep' is 'maybe'; use yes or no"):
        finalize_fakes(sheet, out / FINAL_FILE, keep_passing=True, report=lambda _: None)
    rows[1]["keep"], rows[2]["fake_idiom"] = "", "کلاه سر کسی گذاشتن"  # a reviewer's edit into a real idiom
    rows[2]["keep"] = "yes"
    write_rows(sheet, rows)
    with pytest.raises(DataError, match="row 3 .* keeps 'کلاه سر کسی گذاشتن', which is an authentic FFE"):
        finalize_fakes(sheet, out / FINAL_FILE, keep_passing=True, report=lambda _: None)
    rows[2]["keep"] = "no"
    write_rows(sheet, rows)
    final, counts = finalize_fakes(sheet, out / FINAL_FILE, keep_passing=True, report=lambda _: None)
    assert sum(counts.values()) == sum(1 for row in rows if row["keep"] == "yes" or
                                       (row["keep"] == "" and row["passes"] == "yes"))
    assert all(counts[category] for category in FAKE_CATEGORIES)
    assert final.read_text(encoding="utf-8-sig").splitlines()[0] == "Fake Idiom,Source Idiom,Category"
    fakes = load_fake(final)  # the layout ffe_detection reads

    # Detection on the built file has the published set's metrics, and the log says the set is custom.
    replay = write_replay(tmp_path / "answers.jsonl", scripted_fake_answers())
    logs = tmp_path / "logs"
    [published] = inspect_eval(ffe_detection(controls=False), model=f"replay/{replay}", log_dir=str(logs), display="none")
    [custom] = inspect_eval(ffe_detection(controls=False, fakes=str(final)), model=f"replay/{replay}",
                            log_dir=str(logs), display="none")
    assert published.status == custom.status == "success"

    def metric_names(log):
        return {name for score in log.results.scores for name in score.metrics}

    assert metric_names(custom) == metric_names(published)
    assert len(custom.samples) == 2 * len(fakes)
    metadata = custom.eval.metadata
    assert metadata["fake_set"] == "custom" and metadata["data_file"] == str(final)
    from figeval.data.store import sha256_of

    assert metadata["data_sha256"] == sha256_of(final) and published.eval.metadata["fake_set"] == "published"

    # The report puts the two side by side, per category, with intervals; Table 4 gives each its own row.
    report = build_report(logs)
    [table_4] = [t for t in report.tables if t.key == "ffe-hallu/table-4"]
    assert [row.identity.get("data", "") for row in table_4.rows] == ["", custom_identity := word_data(final)]
    # (both runs complete: Table 4's only note is its own, on figeval's columns)
    assert table_4.rows[0].cells["avg"].value == pytest.approx(0.1) and table_4.notes == list(TABLE_4.notes)
    [table] = [t for t in report.tables if t.key == CONTAMINATION_KEY]
    # the paper's category names (Section 3.4), not upstream's spellings
    assert [row.identity["category"] for row in table.rows] == ["Word Perturbation", "Semantic Inversion",
                                                               "Structural/Syntactic Mimicry",
                                                               "Cultural/Historical Fabrication", "all categories"]
    word = table.rows[0]
    # rows 1-50 of the published file are word perturbations: fake-q accepts 1-30 (1-20 "No", 21-30 unparsed),
    # real-q accepts 1-10 -> (30 + 10) / 100; the built file's rows 1-2 are its word perturbations: all accepted
    assert word.cells["published"].value == pytest.approx(0.4) and word.cells["published"].n == 50
    assert word.cells["fresh"].value == pytest.approx(1.0)
    assert word.cells["difference"].value == pytest.approx(0.6)
    assert word.cells["published"].low < 0.4 < word.cells["published"].high
    assert word.identity["data"] == custom_identity
    # figeval's unparsed columns, over each set's answers (both framings): the published word perturbations' fake-q
    # rows 21-30 of 100 answers; the fresh set's 4 answers were all read. Wilson of 10/100 (z^2 = 3.841459):
    # centre 11.920730 / 103.841459 = 0.114797, half-width 1.959964 / 103.841459 * sqrt(10 * 90 / 100 + 0.960365)
    # = 0.018875 * 3.156004 = 0.059568: [0.055229, 0.174366]
    published, fresh = word.cells["published_unparsed"], word.cells["fresh_unparsed"]
    assert (published.value, published.n, fresh.value, fresh.n) == (0.1, 100, 0.0, 4)
    assert (published.low, published.high) == pytest.approx((0.055229, 0.174366), abs=1e-6)
    assert table.rows[-1].cells["published_unparsed"].value == pytest.approx(10 / 400)  # all categories


def word_data(path: Path) -> str:
    from figeval.data.store import sha256_of

    return f"{path.name}@{sha256_of(path)[:8]}"


def write_rows(sheet: Path, rows: list[dict[str, str]]) -> None:
    with sheet.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def test_fake_prompts_quote_the_paper():
    """What the fake prompts put in double quotes is the paper's text (Section 3.4, Appendix B 2.1)."""
    import re

    from figeval.benchmarks.ffe_hallu import prompts
    from tests.conftest import paper_text
    from tests.ffe_hallu.test_prompts import plain

    paper = " ".join(plain(paper_text("ffe-hallu.md")).split())
    for prompt in (prompts.FAKE_PERTURBATION_PROMPT, prompts.FAKE_INVERSION_PROMPT, prompts.FAKE_MIMICRY_PROMPT,
                   prompts.FAKE_CULTURAL_PROMPT):
        quoted = re.findall(r'"([^"]+)"', prompt)
        assert quoted
        for text in quoted:
            # the paper's capitals at a sentence start may be lower case in the middle of ours
            assert text.rstrip(".") in paper or text[0].lower() + text[1:].rstrip(".") in paper, text
    assert "دشمن دانا به از دوست نادان" in prompts.FAKE_INVERSION_PROMPT  # Appendix B's own examples
    assert "خورشید پشت ابر نمی ماند" in prompts.FAKE_PERTURBATION_PROMPT


@pytest.mark.parametrize(("args", "fragments"), [
    (("build", "fakes", "--out", "{tmp}/b", "--per-category", "0"), ("--per-category must be at least 1",)),
    (("build", "fakes", "--out", "{tmp}/b", "--authentic-extra", "{tmp}/missing.csv"), ("missing.csv", "cannot be read")),
    (("build", "fakes-final", "--out", "{tmp}/nothing"), ("no build folder at", "figeval build fakes")),
    (("build", "fakes-final", "--out", "{tmp}", "{tmp}/missing.csv"), ("missing.csv", "cannot be read")),
    (("run", "ffe_detection", "-T", "fakes={tmp}/missing.csv", "-T", "controls=false"), ("missing.csv", "cannot be read")),
])
def test_bad_fake_inputs_are_one_line(args, fragments, ffe_hallu_imported: Path, tmp_path: Path):
    from tests.cli import assert_one_line_error, figeval

    assert_one_line_error(figeval(*(arg.replace("{tmp}", str(tmp_path)) for arg in args)), *fragments)


def test_a_sheet_row_with_an_unknown_category_is_named(ffe_hallu_imported: Path, tmp_path: Path):
    sheet = tmp_path / "review.csv"
    sheet.write_text("id,category,fake_idiom,keep\nx-001,Proverbs,گربه را دم حجله,yes\n", encoding="utf-8")
    with pytest.raises(DataError, match="row 1, column 'category' is 'Proverbs'"):
        finalize_fakes(sheet, tmp_path / "fakes.csv", keep_passing=False, report=lambda _: None)
    # a sheet reduced to the columns that matter is enough
    sheet.write_text("id,category,fake_idiom,keep\nx-001,Cultural Fabrication,گربه را دم حجله,yes\n", encoding="utf-8")
    final, counts = finalize_fakes(sheet, tmp_path / "fakes.csv", keep_passing=False, report=lambda _: None)
    assert counts["Cultural Fabrication"] == 1 and [f.expression for f in load_fake(final)] == ["گربه را دم حجله"]
