"""The summary `figeval run` ends with (and `figeval annotate apply` prints for the log it writes): the run's
identity, its numbers with their 95% intervals and their own n (as its benchmark's tables report them, laid out
here from lines `figeval run` makes of the declarations; else every metric under its own name), how the answers
were read, and what to do when too many were not; reports show the same reading shares and warning."""

from __future__ import annotations

import shlex
import textwrap
from collections.abc import Sequence

from figeval.results.runs import RunSummary
from figeval.scoring.metrics import denominator_name
from figeval.stats import FEW_ITEMS, bootstrap_trusted

# How answers were read (`read/<layer>` metrics), in the order the layers are tried, and their names for people.
READ_LAYERS = {"paper_rule": "the paper's rule", "figeval_reader": "figeval's reader", "logprob": "logprob",
               "extractor": "extractor", "manual": "by hand", "rule": "rule (nothing to read)", "unread": "unread"}
# Over this share of unread answers a run's numbers are not comparable with a paper's (whose people read them).
UNREAD_LIMIT = 0.02
# The run summary's width: a value longer than fits wraps under itself.
SUMMARY_WIDTH = 110


def reading_line(run: RunSummary) -> str | None:
    """How a run's answers were read ("the paper's rule 62.0%, figeval's reader 35.0%, unread 3.0%"), or None
    for a run that does not report it."""
    shares = {layer: run.metrics[f"read/{layer}"] for layer in READ_LAYERS if f"read/{layer}" in run.metrics}
    if not shares:
        return None
    line = ", ".join(f"{READ_LAYERS[layer]} {100 * share:.1f}%" for layer, share in shares.items() if share)
    truncated = run.metrics.get("truncated_rate")
    # stopped before a whole answer: by the token limit or by the loop guard (`figeval.models.loops`)
    return line + (f" (stopped before a whole answer {100 * truncated:.1f}%)" if truncated else "")


def unread_warning(run: RunSummary) -> str | None:
    """Over UNREAD_LIMIT unread answers: what that means and the commands that resolve it."""
    unread = run.metrics.get("read/unread")
    if unread is None or unread <= UNREAD_LIMIT:
        return None
    said = (f"{100 * unread:.1f}% of answers are unread (over {100 * UNREAD_LIMIT:.0f}%): they count against the "
            "model by each metric's rule, so these numbers are not comparable with the paper's yet.")
    if run.metrics.get("read/logprob"):
        # a logprob answer is one token: there is no text for a person to read
        mass = run.metrics.get("label_mass")
        return (f"{said} In logprob mode an unread answer has no label word among the next token's top candidates"
                + (f" (mean label mass {mass:.3f}: the model barely answers with a label)" if mass is not None else "")
                + "; ask a model that answers in words with -T answer_mode=generate.")
    log = run.log.removeprefix("file://")
    write = shlex.join(["figeval", "annotate", "unread", log, "--out", "unread.csv"])
    apply = shlex.join(["figeval", "annotate", "apply", log, "unread.csv", "--out", "labelled.eval"])
    return f"{said} Read them by hand: `{write}`, fill 'label', then `{apply}`."


def format_table(run: RunSummary, reported: Sequence[tuple[str, str]] | None = None) -> str:
    """A two-column table: the run's identity (and what part of its dataset it ran, for a subset), then its
    numbers, then how the answers were read and, when too many were not, what to do.

    Args:
        reported: the numbers as its benchmark reports them, (name, value) lines made from the benchmark's tables
            (`figeval.cli.run.summary.reported_rows`: the papers' units, meaning and direction); None: every
            metric of the log under its own name (`metric_rows`), for a task no benchmark declares tables for.
    """
    head = [("task", run.task), ("model", run.model)]
    if run.display_name and run.display_name != run.model:
        head.append(("name", run.display_name))
    head += [("samples", str(run.samples)), *(run.identity or {}).items()]
    if run.subset:
        head.append(("subset", run.subset))
    if run.errors:
        head.append(("samples with errors", str(run.errors)))
    rows = head + (metric_rows(run) if reported is None else list(reported))
    width = max(len(name) for name, _ in rows)
    # a long value (a subset's rule) wraps under itself at its spaces, so the table stays as wide as a terminal; a
    # path or model name is never cut (it stays whole, to be copied, however long)
    values = [textwrap.wrap(value, max(SUMMARY_WIDTH - width - 2, 20), break_long_words=False,
                            break_on_hyphens=False) or [""] for _, value in rows]
    rule = "-" * (width + 2 + max(len(line) for wrapped in values for line in wrapped))

    def lines_of(index: int) -> list[str]:
        first, *more = values[index]
        return [f"{rows[index][0].ljust(width)}  {first}"] + [" " * (width + 2) + line for line in more]

    lines = [rule] + [line for index in range(len(head)) for line in lines_of(index)] + [rule]
    lines += [line for index in range(len(head), len(rows)) for line in lines_of(index)] + [rule]
    if (read := reading_line(run)) is not None:
        lines.append(f"answers read by: {read}")
    if (warning := unread_warning(run)) is not None:
        lines.append(f"note: {warning}")
    return "\n".join(lines)


def metric_rows(run: RunSummary) -> list[tuple[str, str]]:
    """(name, value) per metric but the reading layers: "0.150 [0.107, 0.206] (n=200)" where the metric records
    its n (`<metric>/n`, a count, shown beside it rather than on a line of its own) with its 95% interval
    (`RunSummary.interval`), which replaces the metric's stderr line; "0.500 (n=6; fewer than 30 items: ...)" where
    a metric that is no share has too few items for an interval; else "0.150"; an `/n` whose metric is absent on
    its own line, as a count."""
    metrics = run.metrics
    rows = []
    for name, value in metrics.items():
        if name.startswith("read/") or (name.endswith("/n") and name.removesuffix("/n") in metrics):
            continue
        if name.endswith(("/stderr", "/ci_low", "/ci_high")) and name.rpartition("/")[0] in metrics \
                and (run.interval(name.rpartition("/")[0]) is not None or name.endswith(("/ci_low", "/ci_high"))):
            continue
        if name.endswith("/n"):
            rows.append((name, f"{value:.0f}"))
            continue
        n = metrics.get(denominator_name(name))
        interval = run.interval(name) if n is not None else None
        shown = f"{value:.3f}" + ("" if interval is None else f" [{interval[0]:.3f}, {interval[1]:.3f}]")
        few = interval is None and n is not None and run.is_item_mean(name) and not bootstrap_trusted(int(n))
        rows.append((name, shown + ("" if n is None else f" (n={n:.0f}{f'; {FEW_ITEMS}' if few else ''})")))
    return rows
