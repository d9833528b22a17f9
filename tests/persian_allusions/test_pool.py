"""A pool of passages per allusion for the keep/drop review (paper Section 2.2: "a larger pool of texts was
generated, but only 75 were ultimately retained"; Appendix A.1.3): N passages each, with stable ids, all in the
review sheet; a resumed build asks only for what is missing."""

import csv
from pathlib import Path
from unittest import mock

import pytest
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from figeval.benchmarks.persian_allusions.build import build_allusive_texts
from figeval.benchmarks.persian_allusions.dataset import Allusion
from figeval.benchmarks.persian_allusions.review import load_kept_passages
from figeval.benchmarks.persian_allusions.titles import allusion_key
from figeval.errors import DataError, FigevalError
from tests.persian_allusions.test_titles import two_stories_poems

RING = Allusion("سلیمان (انگشتری)", "دیو انگشتری سلیمان را ربود", "quranic")
ANT = Allusion("سلیمان (مور)", "مور با سلیمان سخن گفت", "quranic")


class Writer:
    """A mockllm output function: a passage naming the allusion it was asked about and the seed it was asked with
    (none: "0"), recording each call's allusion, temperature and seed."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, float | None, int | None]] = []

    def __call__(self, messages, tools, tool_choice, config) -> ModelOutput:
        # Table 5's prompt ends "Allusion and its Details: <title>: <description>"
        allusion = messages[-1].text.split("Allusion and its Details: ", 1)[1].split(": ", 1)[0]
        self.calls.append((allusion, config.temperature, config.seed))
        output = ModelOutput.from_content("mockllm/model", f"Here it is:\nمتن {config.seed or 0} درباره‌ی {allusion}.")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


def build(sheet: Path, per_allusion: int, allusions=(RING, ANT)) -> tuple[tuple[int, int, list[str]], Writer]:
    writer = Writer()
    counts = build_allusive_texts("mockllm/model", list(allusions), sheet, {"custom_outputs": writer},
                                  report=lambda _: None, per_allusion=per_allusion)
    return counts, writer


def sheet_rows(sheet: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(sheet.read_text(encoding="utf-8-sig").splitlines()))


def test_n_passages_per_allusion_with_stable_ids_all_in_the_sheet(tmp_path: Path):
    sheet = tmp_path / "pool.csv"
    counts, writer = build(sheet, 3)
    assert counts == (6, 0, [])  # 2 allusions x 3 passages, none there before, none empty
    # passage 1 is the deterministic answer; passages 2 and 3 are sampled, each with its own seed
    assert sorted(writer.calls) == sorted([(RING.title, 0.0, None), (RING.title, 1.0, 2), (RING.title, 1.0, 3),
                                           (ANT.title, 0.0, None), (ANT.title, 1.0, 2), (ANT.title, 1.0, 3)])
    # the review sheet lists every passage, in list order, whatever order the answers arrived in
    assert [(row["id"], row["allusion"], row["text"], row["keep"]) for row in sheet_rows(sheet)] == [
        ("generated-001/1", RING.title, f"متن 0 درباره‌ی {RING.title}.", ""),
        ("generated-001/2", RING.title, f"متن 2 درباره‌ی {RING.title}.", ""),
        ("generated-001/3", RING.title, f"متن 3 درباره‌ی {RING.title}.", ""),
        ("generated-002/1", ANT.title, f"متن 0 درباره‌ی {ANT.title}.", ""),
        ("generated-002/2", ANT.title, f"متن 2 درباره‌ی {ANT.title}.", ""),
        ("generated-002/3", ANT.title, f"متن 3 درباره‌ی {ANT.title}.", ""),
    ]


def test_a_resumed_build_asks_only_for_what_is_missing_and_keeps_the_review(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch):
    sheet = tmp_path / "pool.csv"
    build(sheet, 2)
    rows = sheet.read_text(encoding="utf-8-sig").splitlines()
    # a reviewer keeps generated-001/2; the build was killed before generated-002/2 was written
    rows[2] = rows[2] + "yes"
    sheet.write_text("\n".join(rows[:4]) + "\n", encoding="utf-8-sig")
    # an empty response cache: what is not asked again is what the sheet holds, not what the cache remembers
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "another-cache"))
    counts, writer = build(sheet, 2)
    assert counts == (1, 3, []) and writer.calls == [(ANT.title, 1.0, 2)]
    again, writer = build(sheet, 2)
    assert again == (0, 4, []) and writer.calls == []
    # a larger pool asks for the new passages only: passage 3 of each
    grown, writer = build(sheet, 3)
    assert grown == (2, 4, []) and sorted(writer.calls) == [(RING.title, 1.0, 3), (ANT.title, 1.0, 3)]
    by_id = {row["id"]: row for row in sheet_rows(sheet)}
    assert list(by_id) == ["generated-001/1", "generated-001/2", "generated-001/3",
                           "generated-002/1", "generated-002/2", "generated-002/3"]
    assert by_id["generated-001/2"]["keep"] == "yes"
    # a smaller pool later leaves the passages already written, and their review, in the sheet
    assert build(sheet, 1)[0] == (0, 2, []) and len(sheet_rows(sheet)) == 6


def test_the_kept_passages_are_the_dataset_under_their_ids(tmp_path: Path):
    allusions = {allusion_key(a.title): a for a in (RING, ANT)}
    sheet = tmp_path / "pool.csv"
    build(sheet, 3)
    rows = sheet.read_text(encoding="utf-8-sig").splitlines()
    rows[2] += "yes"  # generated-001/2
    rows[6] += "بله"  # generated-002/3
    rows[4] += "no"
    sheet.write_text("\n".join(rows) + "\n", encoding="utf-8-sig")
    kept = load_kept_passages(sheet, allusions)
    assert [(k.id, k.allusion, k.text) for k in kept] == [
        ("generated-001/2", RING.title, f"متن 2 درباره‌ی {RING.title}."),
        ("generated-002/3", ANT.title, f"متن 3 درباره‌ی {ANT.title}.")]


def test_an_older_sheet_without_ids_is_passage_1_of_each_allusion(tmp_path: Path):
    sheet = tmp_path / "old.csv"
    sheet.write_text(f"allusion,text,keep\n{ANT.title},متنی قدیمی.,yes\n", encoding="utf-8-sig")
    counts, writer = build(sheet, 2)
    # the ring's two passages and the ant's second are asked; the ant's first is the old row, kept with its review
    assert counts == (3, 1, []) and (ANT.title, 0.0, None) not in writer.calls
    assert [(row["id"], row["text"], row["keep"]) for row in sheet_rows(sheet)][2] == (
        "generated-002/1", "متنی قدیمی.", "yes")


def test_pool_mistakes_are_one_line(tmp_path: Path):
    sheet = tmp_path / "pool.csv"
    with pytest.raises(FigevalError, match=r"--per-allusion must be between 1 and 10 .*, not 0\.$"):
        build(sheet, 0)
    build(sheet, 1)
    with pytest.raises(DataError, match=r"pool\.csv holds passages of 'سلیمان \(مور\)', which is not among the 1 "
                                        r"allusions given: resume it with the list it was built from"):
        build(sheet, 1, allusions=(RING,))
    rows = sheet.read_text(encoding="utf-8-sig").splitlines()
    rows[1] = rows[1].replace("generated-001/1", "passage one") + "yes"
    sheet.write_text("\n".join(rows) + "\n", encoding="utf-8-sig")
    with pytest.raises(DataError, match=r"pool\.csv: row 1 has id 'passage one'; ids look like 'generated-017/2'"):
        load_kept_passages(sheet, {allusion_key(a.title): a for a in (RING, ANT)})
    rows[1] = rows[1].replace("passage one", "generated-002/1")
    rows[2] += "yes"
    sheet.write_text("\n".join(rows) + "\n", encoding="utf-8-sig")
    with pytest.raises(DataError, match=r"rows 1 and 2 are both 'generated-002/1'"):
        load_kept_passages(sheet, {allusion_key(a.title): a for a in (RING, ANT)})


def build_command(tmp_path: Path, writer: Writer):
    """`figeval build persian-allusions-texts` of the ring and the ant, 2 passages each, `writer` answering."""
    from tests.command import figeval

    listed = tmp_path / "allusions.csv"
    listed.write_text(f"allusion,description\n{RING.title},{RING.description}\n{ANT.title},{ANT.description}\n",
                      encoding="utf-8")
    with mock.patch("figeval.building.get_model",
                    lambda name, **args: get_model(name, custom_outputs=writer, **args)):
        return figeval("build", "persian-allusions-texts", "--model", "mockllm/model", "--out", "pool.csv",
                       "--allusions", str(listed), "--per-allusion", "2", cwd=tmp_path)


def test_the_command_takes_the_pool_size(tmp_path: Path):
    writer = Writer()
    result = build_command(tmp_path, writer)
    assert result.returncode == 0, result.stderr
    assert "4 passages written, 0 kept from an earlier run (2 per allusion for 2 allusions)" in result.stdout
    assert [row["id"] for row in sheet_rows(tmp_path / "pool.csv")] == [
        "generated-001/1", "generated-001/2", "generated-002/1", "generated-002/2"]


def test_the_knowledge_list_names_each_story_for_the_builder(tmp_path: Path):
    # the two stories of Solomon are two allusions to write passages for, not one
    from figeval.benchmarks.persian_allusions.dataset import knowledge_list, load_poems

    allusions = list(knowledge_list(load_poems(two_stories_poems(tmp_path))).values())
    counts, writer = build(tmp_path / "pool.csv", 1, allusions=allusions)
    assert counts == (4, 0, []) and {call[0] for call in writer.calls} == {a.title for a in allusions}


class SilentOnPassageTwo(Writer):
    """Writes no Persian for an allusion's passage 2 (a refusal in English), as a model sometimes does."""

    def __call__(self, messages, tools, tool_choice, config) -> ModelOutput:
        output = super().__call__(messages, tools, tool_choice, config)
        if config.seed == 2:
            output = ModelOutput.from_content("mockllm/model", "I'm sorry, I can't write that.")
            output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


def test_a_passage_with_no_persian_text_is_not_written_and_the_build_says_which(tmp_path: Path):
    sheet = tmp_path / "pool.csv"
    writer = SilentOnPassageTwo()
    counts = build_allusive_texts("mockllm/model", [RING, ANT], sheet, {"custom_outputs": writer},
                                  report=lambda _: None, per_allusion=2)
    # 4 asked: passages 1 written, passages 2 came back without Persian: no row for a reviewer to keep
    assert counts == (2, 0, ["generated-001/2", "generated-002/2"])
    assert [row["id"] for row in sheet_rows(sheet)] == ["generated-001/1", "generated-002/1"]


def test_the_build_command_names_the_empty_passages_and_exits_non_zero(tmp_path: Path):
    ran = build_command(tmp_path, SilentOnPassageTwo())
    assert ran.returncode == 2  # figeval's error exit
    assert "2 passages written, 0 kept from an earlier run" in ran.stdout
    assert ran.stderr.strip().splitlines()[-1] == (
        "error: 2 passages came back with no Persian text and were not written (generated-001/2, generated-002/2): "
        "mockllm/model wrote none for them, and asked again it answers the same; keep other passages of their "
        "allusions (a larger --per-allusion asks more), or build the sheet with another --model.")
