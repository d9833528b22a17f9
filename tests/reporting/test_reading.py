"""How a run's answers were read, in the run summary and the report: each layer's share, and over 2% unread a
note that the numbers are not comparable with the paper's yet, with the commands that resolve it."""

from figeval.reporting.report import reading_table
from figeval.reporting.runs import RunSummary, format_table

READ = {"read/paper_rule": 0.5, "read/figeval_reader": 0.47, "read/logprob": 0.0, "read/extractor": 0.0,
        "read/manual": 0.0, "read/unread": 0.03, "read/n": 200.0}


def run(unread: float, log: str = "logs/run.eval") -> RunSummary:
    metrics = {"accuracy": 0.8, "unparsed_rate": unread, "truncated_rate": 0.01,
               **READ, "read/figeval_reader": 0.5 - unread, "read/unread": unread}
    return RunSummary("tr_idiom_detection", "openai/gpt-4.1", 200, metrics, "success", log)


def test_the_summary_says_how_answers_were_read_and_what_to_do_over_2_percent_unread():
    table = format_table(run(0.03))
    assert "answers read by: the paper's rule 50.0%, figeval's reader 47.0%, unread 3.0% (truncated by the token " \
           "limit 1.0%)" in table
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
