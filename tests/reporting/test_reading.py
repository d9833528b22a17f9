"""How a run's answers were read, in the run summary and the report: each layer's share, and over 2% unread a
note that the numbers are not comparable with the paper's yet, with the commands that resolve it."""

from figeval.results.report import reading_table
from figeval.results.runs import RunSummary
from figeval.results.summary import format_table

READ = {"read/paper_rule": 0.5, "read/figeval_reader": 0.47, "read/logprob": 0.0, "read/extractor": 0.0,
        "read/manual": 0.0, "read/unread": 0.03, "read/n": 200.0}


def run(unread: float, log: str = "logs/run.eval") -> RunSummary:
    metrics = {"accuracy": 0.8, "unparsed_rate": unread, "truncated_rate": 0.01,
               **READ, "read/figeval_reader": 0.5 - unread, "read/unread": unread}
    return RunSummary("tr_idiom_detection", "openai/gpt-4.1", 200, metrics, "success", log)


def test_the_summary_says_how_answers_were_read_and_what_to_do_over_2_percent_unread():
    table = format_table(run(0.03))
    assert "answers read by: the paper's rule 50.0%, figeval's reader 47.0%, unread 3.0% (stopped before a whole " \
           "answer 1.0%)" in table
    assert "read/" not in table  # the shares are said once, in words
    assert "note: 3.0% of answers are unread (over 2%)" in table
    assert "figeval annotate unread logs/run.eval --out unread.csv" in table
    assert "figeval annotate apply logs/run.eval unread.csv --out labelled.eval" in table
    assert "note:" not in format_table(run(0.02))  # 2% is within the limit


def test_the_report_has_a_table_of_how_each_run_was_read_with_its_own_n():
    table = reading_table([run(0.03, "logs/a.eval"), run(0.0, "logs/b.eval")])
    assert [row.label for row in table.rows] == ["openai/gpt-4.1", "openai/gpt-4.1"]
    first = table.rows[0].cells
    assert (first["paper_rule"].value, first["unread"].value, first["paper_rule"].n) == (0.5, 0.03, 200)
    assert first["truncated"].value == 0.01
    assert len(table.notes) == 1 and "logs/a.eval" in table.notes[0]


def test_a_logprob_run_is_not_sent_to_hand_labels_it_has_no_text_for():
    metrics = {"unparsed_rate": 0.06, "read/logprob": 0.94, "read/unread": 0.06, "label_mass": 0.059}
    table = format_table(RunSummary("ffe_detection", "gguf/gemma-3-270m", 800, metrics, "success", "logs/run.eval"))
    assert "note: 6.0% of answers are unread" in table
    assert "no label word among the next token's top candidates (mean label mass 0.059" in table
    assert "annotate unread" not in table


def test_a_judged_run_shows_its_judge_unreadable_share_beside_how_it_was_read():
    # the leaderboard's judged headline leaves out the answers the judge could not label: the reading table, in
    # every report, shows them. 8 of 10 outputs: 0.8 over n = 10 (Wilson [0.490162, 0.943318], as derived in
    # tests/reporting/test_denominators.py)
    judged = {**READ, "read/n": 10.0, "correct_rate": 1.0, "correct_rate/n": 2, "judge_unparsed_rate": 0.8,
              "judge_unparsed_rate/n": 10}
    table = reading_table([RunSummary("ffe_generation", "openai/gpt-4.1", 10, judged, "success", "logs/gen.eval"),
                           run(0.0, "logs/b.eval")])
    assert [(c.key, c.header, c.ours) for c in table.columns][-1] == ("judge_unreadable", "judge unreadable", True)
    cell = table.rows[0].cells["judge_unreadable"]
    assert (cell.value, cell.n, round(cell.low, 6), round(cell.high, 6)) == (0.8, 10, 0.490162, 0.943318)
    assert "judge_unreadable" not in table.rows[1].cells  # a run without a judge has no such share
    # no judged run: no column
    assert "judge_unreadable" not in [c.key for c in reading_table([run(0.0)]).columns]
