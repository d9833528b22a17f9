"""Section 4's analyses read outcomes, counting each as its task's unparsed policy says, one run per model, task,
dataset and judge mode."""

from pathlib import Path

from figeval.benchmarks.persian_allusions.analysis import allusion_tables
from figeval.benchmarks.persian_allusions.scorer import KNOWLEDGE_LABELS, OPTION_LABELS
from figeval.scoring.outcome import DecidedBy, Outcome, Status
from tests.metric_values import logged_outcomes


def tables_by_key(logs):
    return {table.key: table for table in allusion_tables(logs)}


def values(row):
    return {key: cell.value for key, cell in row.cells.items()}


def test_knowledge_crossed_with_mc_recognition(tmp_path: Path):
    knowledge = logged_outcomes(tmp_path / "k", [
        Outcome("complete", DecidedBy.JUDGE, answer="a"),  # knows A
        Outcome("partial", DecidedBy.JUDGE, answer="b"),  # partial: does not know B (only complete counts)
        Outcome.unparsed(DecidedBy.PARSER, "no JSON"),  # unreadable: shows no knowledge of C
        Outcome(None, DecidedBy.JUDGE, Status.JUDGE_UNPARSED, answer="d"),  # the judge failed on D: unknown
    ], KNOWLEDGE_LABELS.values, [{"allusion": name} for name in "ABCD"], "allusion_knowledge")
    mc = logged_outcomes(tmp_path / "mc", [
        Outcome("2", DecidedBy.PARSER, target="2"),  # A recognized
        Outcome("4", DecidedBy.PARSER, target="4"),  # B recognized
        Outcome.unparsed(DecidedBy.PARSER, "no option", "1"),  # C missed (unparsed counts as wrong)
        Outcome("0", DecidedBy.PARSER, target="3"),  # D: no knowledge verdict, left out of the table
    ], OPTION_LABELS, [{"allusion": name} for name in "ABCD"], "allusion_mc")
    cross = tables_by_key([knowledge, mc])["persian-allusions/knowledge-x-recognition"]
    assert {key: cell.value for key, cell in cross.rows[0].cells.items()} == {
        "knows/recognized": 1, "knows/missed": 0, "not/recognized": 1, "not/missed": 1}


def test_one_run_per_model_task_dataset_and_judge_mode(tmp_path: Path):
    """Open-ended runs judged with and without the ground truth are two rows, never one replacing the other; a
    repeated run counts once (the newest); the PersPoems -> LLM-Generated drop is its own table."""
    from figeval.benchmarks.persian_allusions.scorer import OPEN_LABELS
    from figeval.scoring.metrics import AS_WRONG, TARGET, policy_metrics

    def run(name, task, outcomes, labels, policies, **settings):
        return logged_outcomes(tmp_path / name, outcomes, labels, [{"allusion": a} for a in "AB"][: len(outcomes)],
                               task, settings=settings, metrics=policy_metrics(policies))

    right, wrong = (Outcome(o, DecidedBy.PARSER, target="1") for o in ("1", "2"))
    mc = {"accuracy": (TARGET, AS_WRONG)}
    opened = {"accuracy": ("correct", AS_WRONG)}
    correct, incorrect = Outcome("correct", DecidedBy.JUDGE), Outcome("incorrect", DecidedBy.JUDGE)
    logs = [
        run("mc-old", "allusion_mc", [wrong, wrong], OPTION_LABELS, mc, dataset="perspoems"),
        run("mc", "allusion_mc", [right, right], OPTION_LABELS, mc, dataset="perspoems"),  # newest wins
        run("mc-gen", "allusion_mc", [right, wrong], OPTION_LABELS, mc, dataset="generated"),
        run("gt", "allusion_open", [correct, incorrect], OPEN_LABELS.values, opened, dataset="perspoems",
            judge_mode="gt"),
        run("no-gt", "allusion_open", [incorrect, incorrect], OPEN_LABELS.values, opened, dataset="perspoems",
            judge_mode="no_gt"),
    ]
    tables = tables_by_key(logs)
    gap = {(r.identity["dataset"], r.identity["judge_mode"]): values(r) for r in tables["persian-allusions/gap"].rows}
    # gap: MC 1.0 (the newest MC run) minus open 0.5 (gt) and 0.0 (no_gt); the generated MC run has no open run
    assert gap == {("perspoems", "gt"): {"mc": 1.0, "open": 0.5, "gap": 0.5},
                   ("perspoems", "no_gt"): {"mc": 1.0, "open": 0.0, "gap": 1.0}}
    # drop: MC 1.0 on PersPoems, 0.5 on LLM-Generated
    [drop] = tables["persian-allusions/drop"].rows
    assert drop.identity == {"task": "allusion_mc"} and values(drop) == {"perspoems": 1.0,
                                                                         "generated": 0.5, "drop": 0.5}


def test_texts_known_and_right_in_mc_but_wrong_open_ended_are_listed(tmp_path: Path):
    from figeval.benchmarks.persian_allusions.scorer import OPEN_LABELS

    allusions = [{"allusion": name} for name in "ABCD"]
    knowledge = logged_outcomes(tmp_path / "k", [Outcome(label, DecidedBy.JUDGE, answer="x")
                                                 for label in ("complete", "complete", "partial", "complete")],
                                KNOWLEDGE_LABELS.values, allusions, "allusion_knowledge")
    mc = logged_outcomes(tmp_path / "mc", [
        Outcome("1", DecidedBy.PARSER, target="1"),  # s0 (A, known): right
        Outcome("1", DecidedBy.PARSER, target="1"),  # s1 (B, known): right
        Outcome("2", DecidedBy.PARSER, target="2"),  # s2 (C, not known): right
        Outcome("3", DecidedBy.PARSER, target="1"),  # s3 (D, known): wrong in MC
    ], OPTION_LABELS, allusions, "allusion_mc")
    open_ = logged_outcomes(tmp_path / "open", [
        Outcome("incorrect", DecidedBy.JUDGE),  # s0: known, MC right, open wrong -> Section 4 listing
        Outcome("correct", DecidedBy.JUDGE),  # s1: right in both -> not listed
        Outcome.unparsed(DecidedBy.PARSER, "empty"),  # s2: unparsed counts as wrong -> Appendix B listing
        Outcome("incorrect", DecidedBy.JUDGE),  # s3: wrong in MC -> not listed
    ], OPEN_LABELS.values, allusions, "allusion_open", settings={"judge_mode": "gt"})
    [row] = tables_by_key([knowledge, mc, open_])["persian-allusions/mc-not-open"].rows
    ids = [str(sample.id) for sample in mc.samples]
    assert row.identity == {"dataset": "perspoems", "judge_mode": "gt"}
    assert (row.cells["knows"].value, row.cells["knows"].label) == (1, ids[0])
    assert (row.cells["not"].value, row.cells["not"].label) == (1, ids[2])


def test_accuracy_and_text_count_per_theme_in_table_2_order(tmp_path: Path):
    from figeval.benchmarks.persian_allusions.analysis import theme_accuracy

    mc = logged_outcomes(tmp_path / "mc", [
        Outcome("1", DecidedBy.PARSER, target="1"),  # religious + quranic: right
        Outcome("2", DecidedBy.PARSER, target="1"),  # religious: wrong
        Outcome.unparsed(DecidedBy.PARSER, "no option", "1"),  # quranic: unparsed counts as wrong
        Outcome("1", DecidedBy.PARSER, target="1"),  # mystical listed twice: right, counted once
    ], OPTION_LABELS, [{"allusion": "A", "themes": ["religious", "quranic"]},
                       {"allusion": "B", "themes": ["religious"]},
                       {"allusion": "C", "themes": ["quranic"]}, {"allusion": "D", "themes": ["mystical", "mystical"]}],
        "allusion_mc")
    # religious 1 of 2, quranic 1 of 2, mystical 1 of 1; themes no text has are absent
    assert theme_accuracy(mc) == {"religious": (0.5, 2), "quranic": (0.5, 2), "mystical": (1.0, 1)}
    table = tables_by_key([mc])["persian-allusions/themes"]
    assert [column.key for column in table.columns] == ["religious", "quranic", "mythical-historical", "romantic",
                                                         "mystical", "other"]  # Table 2's order
    assert {key: (cell.value, cell.n) for key, cell in table.rows[0].cells.items()} == {
        "religious": (0.5, 2), "quranic": (0.5, 2), "mystical": (1.0, 1)}


def test_the_paper_s_llm_generated_values_are_k_of_75_cut_but_gemma_s_open_ended_one():
    """The note on Table 3's Gemma3 row holds: every LLM-Generated value is k/75 (the dataset's 75 passages) cut to
    one decimal, but Gemma3's open-ended 46.0 (34/75 = 45.33, 35/75 = 46.67)."""
    from figeval._registry import BENCHMARKS

    [allusions] = [b for b in BENCHMARKS if b.name == "persian-allusions"]
    misfits = [(line["row"], line["column"]) for line in allusions.numbers()
               if line["column"].startswith("generated/")
               and not any(int(1000 * k / 75) / 10 == float(line["value"]) for k in range(76))]
    assert misfits == [("Gemma3 27B", "generated/open")]
    notes = {line["row"]: line["note"] for line in allusions.inconsistencies()}
    assert "46.0 is no k/75" in notes["Gemma3 27B"] and "22.5 to 20.0" in notes["R1-distill Qwen-32B"]
