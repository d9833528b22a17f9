"""The knowledge x recognition table reads outcomes, counting each as its task's unparsed policy says."""

import re
from pathlib import Path

from figeval.benchmarks.persian_allusions.analysis import allusion_report
from figeval.benchmarks.persian_allusions.scorer import KNOWLEDGE_LABELS, OPTION_LABELS
from figeval.scoring.outcome import DecidedBy, Outcome, Status
from tests.metric_values import logged_outcomes


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
    lines = allusion_report([knowledge, mc])
    # rows such as "  knows, recognized                  1   e.g. s1"
    table = {m.group(1): int(m.group(2)) for line in lines if (m := re.match(r"^  (\S.*?)\s{2,}(\d+)", line))}
    assert table == {"knows, recognized": 1, "knows, missed": 0, "does not know, recognized": 1,
                     "does not know, missed": 1}


def test_one_run_per_model_task_dataset_and_judge_mode(tmp_path: Path):
    """Open-ended runs judged with and without the ground truth are two rows, never one replacing the other; a
    repeated run counts once (the newest); the PersPoems -> LLM-Generated drop is its own table."""
    from figeval.benchmarks.persian_allusions.scorer import OPEN_LABELS
    from figeval.scoring.metrics import AS_WRONG, TARGET, policy_metrics

    def run(name, task, outcomes, labels, policies, **metadata):
        return logged_outcomes(tmp_path / name, outcomes, labels, [{"allusion": a} for a in "AB"][: len(outcomes)],
                               task, task_metadata=metadata, metrics=policy_metrics(policies))

    right, wrong = (Outcome(o, DecidedBy.PARSER, target="1") for o in ("1", "2"))
    mc = {"accuracy": (TARGET, AS_WRONG)}
    opened = {"accuracy": ("correct", AS_WRONG)}
    correct, incorrect = Outcome("correct", DecidedBy.JUDGE), Outcome("incorrect", DecidedBy.JUDGE)
    logs = [
        run("mc-old", "allusion_mc", [wrong, wrong], OPTION_LABELS, mc, dataset_variant="perspoems"),
        run("mc", "allusion_mc", [right, right], OPTION_LABELS, mc, dataset_variant="perspoems"),  # newest wins
        run("mc-gen", "allusion_mc", [right, wrong], OPTION_LABELS, mc, dataset_variant="generated"),
        run("gt", "allusion_open", [correct, incorrect], OPEN_LABELS.values, opened, dataset_variant="perspoems",
            judge_mode="gt"),
        run("no-gt", "allusion_open", [incorrect, incorrect], OPEN_LABELS.values, opened, dataset_variant="perspoems",
            judge_mode="no_gt"),
    ]
    lines = allusion_report(logs)
    rows = [line.split()[1:] for line in lines if line.startswith("mockllm/model")]
    # gap: MC 1.000 (the newest MC run) minus open 0.500 (gt) and 0.000 (no_gt)
    assert ["perspoems", "gt", "1.000", "0.500", "+0.500"] in rows
    assert ["perspoems", "no_gt", "1.000", "0.000", "+1.000"] in rows
    # drop: MC 1.000 on PersPoems, 0.500 on LLM-Generated
    assert ["allusion_mc", "1.000", "0.500", "+0.500"] in rows


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
    ], OPEN_LABELS.values, allusions, "allusion_open", task_metadata={"judge_mode": "gt"})
    text = "\n".join(allusion_report([knowledge, mc, open_]))
    ids = [str(sample.id) for sample in mc.samples]
    assert f"right in MC, wrong open-ended (Section 4) (perspoems, judge gt): 1 texts\n  {ids[0]}\n" in text
    assert f"wrong open-ended (Appendix B) (perspoems, judge gt): 1 texts\n  {ids[2]}" in text


def test_accuracy_and_text_count_per_theme_in_table_2_order(tmp_path: Path):
    from figeval.benchmarks.persian_allusions.analysis import theme_accuracy

    mc = logged_outcomes(tmp_path / "mc", [
        Outcome("1", DecidedBy.PARSER, target="1"),  # religious + quranic: right
        Outcome("2", DecidedBy.PARSER, target="1"),  # religious: wrong
        Outcome.unparsed(DecidedBy.PARSER, "no option", "1"),  # quranic: unparsed counts as wrong
        Outcome("1", DecidedBy.PARSER, target="1"),  # mystical listed twice: right, counted once
    ], OPTION_LABELS, [{"allusion": "A", "themes": ["religious", "quranic"]}, {"allusion": "B", "themes": ["religious"]},
                       {"allusion": "C", "themes": ["quranic"]}, {"allusion": "D", "themes": ["mystical", "mystical"]}],
        "allusion_mc")
    # religious 1 of 2, quranic 1 of 2, mystical 1 of 1; themes no text has are absent
    assert theme_accuracy(mc) == {"religious": (0.5, 2), "quranic": (0.5, 2), "mystical": (1.0, 1)}
    row = next(line for line in allusion_report([mc]) if line.startswith("mockllm/model") and "allusion_mc" in line)
    # model, task, dataset (the MC run has no judge mode), then the six themes
    assert row.split()[3:] == ["0.500", "(", "2)", "0.500", "(", "2)", "-", "-", "1.000", "(", "1)", "-"]
