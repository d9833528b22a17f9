"""The judged-scorer skeleton shared by every open-answer task: read the answer (the paper's form, else figeval's
reader; a truncated output is never decided by a judge) -> rule shortcuts -> judge (one retry) -> override -> `Outcome`.

Where a paper's judge labelled every output (to compare it with people's labels), `judge_every_output` also asks the
judge about the outputs a rule decided or that could not be read: its label is recorded beside the outcome
(`JUDGE_LABEL`) for judge-vs-people agreement, and the outcome itself stays the rule's or the unread one.

A benchmark supplies the pieces that are its own (how to extract the answer, which rules decide without a
judge, the judge prompt, an override the paper implies); the order, the failure outcomes and what is recorded
are the same for all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from inspect_ai.model import ModelOutput

from figeval.scoring.judge import JudgeVerdict, ask_judge, quote_as_data, resolve_judge
from figeval.parsing import strip_reasoning
from figeval.scoring.labels import LabelScheme
from figeval.scoring.outcome import DecidedBy, Outcome, Status
from figeval.scoring.readers import Parse, is_truncated, read_layers, truncated_outcome


JUDGE_LABEL = "judge_label"
"""Outcome detail: the label the judge itself gave, kept when a rule overrides it (judge agreement reads it)."""
JUDGE_MODEL = "judge_model"
"""Outcome detail: which model judged (judge agreement is reported per judge)."""


@dataclass(frozen=True)
class JudgeRequest:
    """What to ask the judge about one answer."""

    system: str
    prompt: str
    """The filled judge prompt; the answer in it quoted with `quoted_answer`."""
    rule: str | None = None
    """A named rule the judge is asked under (recorded), e.g. "judge_existing"."""


def quoted_answer(answer: str) -> str:
    """The answer as the judge sees it: quoted as data, so instructions inside it stay inert."""
    return quote_as_data(answer, "answer")


async def judged_outcome(
    output: ModelOutput,
    *,
    paper: Parse | None,
    reader: Parse,
    unparsed_explanation: str,
    shortcut: Callable[[str], Outcome | None],
    request: Callable[[str], JudgeRequest],
    scheme: LabelScheme,
    judge: str | None,
    override: Callable[[Outcome], Outcome] | None = None,
    judge_every_output: bool = False,
) -> Outcome:
    """The outcome of an open answer.

    Args:
        output: the model's output (one stopped by the token limit is `truncated`, never decided by a judge).
        paper: the answer as the paper's prompt asks for it, or None (layer 1; None where the paper asks no form).
        reader: figeval's reading of the answer, or None (layer 2); neither: unparsed, nothing to judge.
        unparsed_explanation: what was missing, for the log ("no Persian expression").
        shortcut: a rule's outcome for the extracted answer (decided without a judge), or None.
        request: the judge request for the extracted answer.
        scheme: the judge's labels.
        judge: the judge model; None: Inspect's `grader` role.
        override: applied to a judge's outcome, for a rule that corrects what the judge cannot know.
        judge_every_output: also ask the judge about outputs a rule decided or that could not be read (the
            answer read, else the output without its reasoning), and record its label beside the outcome.
    """

    async def beside(outcome: Outcome, text: str) -> Outcome:
        if not judge_every_output or not text.strip():
            return outcome
        return replace(outcome, details={**outcome.details, **await _judge_only(request(text), scheme, judge)})

    completion = output.completion
    if is_truncated(output):
        return await beside(truncated_outcome(output), strip_reasoning(completion))
    answer, layer, _ = read_layers(completion, paper, reader, closed=False)
    if answer is None:
        shown = completion if len(completion) <= 200 else completion[:200] + "..."
        unread = Outcome.unparsed(DecidedBy.PARSER, f"{unparsed_explanation} in {shown!r}")
        return await beside(unread, strip_reasoning(completion))
    decided = shortcut(answer)
    if decided is not None:
        return await beside(replace(decided, read_by=layer), answer)
    ask = request(answer)
    verdict, details = await _asked(ask, scheme, judge)
    if verdict.label is None:
        return Outcome(None, DecidedBy.JUDGE, Status.JUDGE_UNPARSED, answer=answer, rule=ask.rule, details=details,
                       read_by=layer, explanation=f"judge answer unreadable twice: {verdict.raw[-1][:200]!r}")
    outcome = Outcome(verdict.label.value, DecidedBy.JUDGE, answer=answer, explanation=verdict.reason,
                      rule=ask.rule, read_by=layer, details={**details, JUDGE_LABEL: verdict.label.value})
    return override(outcome) if override else outcome


async def _asked(ask: JudgeRequest, scheme: LabelScheme, judge: str | None) -> tuple[JudgeVerdict, dict]:
    """The judge's verdict on a request, and what every outcome it touches records: its answers and its name."""
    model = resolve_judge(judge)
    verdict = await ask_judge(model, ask.system, ask.prompt, scheme)
    return verdict, {"judge_answers": verdict.raw, JUDGE_MODEL: str(model)}


async def _judge_only(ask: JudgeRequest, scheme: LabelScheme, judge: str | None) -> dict:
    """What a judge said about an output it does not decide: its label (absent when unreadable twice), its
    answers and its name, as outcome details."""
    verdict, details = await _asked(ask, scheme, judge)
    return details | ({JUDGE_LABEL: verdict.label.value} if verdict.label is not None else {})


def relabelled(outcome: Outcome, label: str, why: str) -> Outcome:
    """The outcome with another label, the reason prefixed to its explanation."""
    return replace(outcome, label=label, explanation=f"{why} {outcome.explanation}".strip())
