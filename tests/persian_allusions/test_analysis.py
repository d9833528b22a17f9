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
